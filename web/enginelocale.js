// web/enginelocale.js is responsible for keeping the engine's texts (rule
// cards, explanations, lesson figures and lessons, code comments) in the
// shown locale: the engine carries no locale's text, so it gets the shown
// locale's rules.json and lessons.json (docs/locales.md, Engine texts)
// before the page's first render and again on every switch. Once the engine
// has a switched locale, `tableplay:locale` fires on window ({lang}) so the
// views that show engine texts can ask for them again.
import { lang, fetchPart, onChange, PSEUDO } from "./i18n.js";

// English's lessons are the lesson files themselves; a locale whose
// lessons.json is missing shows them too.
async function parts(l) {
  const lessons = l === "en" || l === PSEUDO ? Promise.resolve(null) : fetchPart(l, "lessons").catch(() => null);
  return Promise.all([fetchPart(l, "rules"), lessons]);
}

// hand gives the engine locale l; a catalogue that cannot be had is
// reported and the engine keeps the language it had.
async function hand(binding, l) {
  try {
    const [rules, lessons] = await parts(l);
    if (l !== lang()) return; // switched again while fetching
    const err = binding.setLocale(l, JSON.stringify(rules), JSON.stringify(lessons));
    if (err) throw new Error(err);
  } catch (err) {
    console.error(`tableplay: the engine has no ${l} texts: ${err.message}`);
  }
}

// followLocale hands the shown locale to a started engine and follows every
// later switch.
export async function followLocale(binding) {
  onChange(async (l) => {
    await hand(binding, l);
    window.dispatchEvent(new CustomEvent("tableplay:locale", { detail: { lang: l } }));
  });
  await hand(binding, lang());
}
