// web/enginelocale.js is responsible for keeping the engine's texts (rule
// cards, explanations, lesson figures and lessons, code comments) in the
// shown locale: the engine carries no locale's text, so it gets the shown
// locale's rules.json and lessons.json (docs/locales.md, Engine texts)
// before the page's first render and again on every switch, before the
// switch shows.
import { lang, fetchPart, beforeSwitch, PSEUDO } from "./i18n.js";

// English's lessons are the lesson files themselves; a locale whose
// lessons.json is missing shows them too.
async function parts(l) {
  const lessons = l === "en" || l === PSEUDO ? Promise.resolve(null) : fetchPart(l, "lessons").catch(() => null);
  return Promise.all([fetchPart(l, "rules"), lessons]);
}

// hand gives the engine locale l; a catalogue that cannot be had is
// reported and the engine keeps the language it had. Of two switches in
// flight, the later one's texts stay.
let handed = 0;
async function hand(binding, l) {
  const mine = ++handed;
  try {
    const [rules, lessons] = await parts(l);
    if (mine !== handed) return;
    const err = binding.setLocale(l, JSON.stringify(rules), JSON.stringify(lessons));
    if (err) throw new Error(err);
  } catch (err) {
    console.error(`tableplay: the engine has no ${l} texts: ${err.message}`);
  }
}

// followLocale hands the shown locale to a started engine, and every later
// locale before the page shows it (i18n.beforeSwitch), so the views that
// re-render on the switch ask an engine that already speaks it.
export async function followLocale(binding) {
  beforeSwitch((l) => hand(binding, l));
  await hand(binding, lang());
}
