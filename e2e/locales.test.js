// e2e/locales.test.js is responsible for the page in each reader's
// language: for Polish, Japanese and French a fresh profile whose browser
// asks for the language (locale pl-PL, ja-JP, fr-FR, so navigator.languages
// picks it) is driven through the page's main states — the first visit and
// its sample, a query, a rule card, a failed batch, the code view, the
// Connect panel, the lessons' menu and a lesson step — and in each, every
// rendered text node and every aria-label, placeholder and title is
// compared with the English catalogue (web/locales/en/ui.json, the engine's
// rules.json and the lessons' own English): none may be an English message
// or hold an English sentence. Technical text is left out: code, the wire's
// bodies, the service's own words (lang="en"), table cells of data. Each
// page names its language in <html lang> and sends documentation links to
// the locale's edition of Learn. The header's picker switches language
// without a reload (nothing left in the language before), and the choice
// survives a reload; lang= in the address wins over it.
//
// One browser, one page per locale.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { useBrowser, root } from "./harness.js";

const env = useBrowser({ before, after });
const locales = path.join(root, "web", "locales");
const read = (...p) => JSON.parse(readFileSync(path.join(...p), "utf8"));
const catalogue = (lang, part) => (existsSync(path.join(locales, lang, `${part}.json`)) ? read(locales, lang, `${part}.json`) : {});
const SEGMENT = Object.fromEntries(read(locales, "index.json").locales.map((l) => [l.code, l.learn]));

// The English texts a localized page must not show, by id: the UI's, the
// engine's (rule cards, explanations) and the lessons' own.
function englishTexts() {
  const out = { ...catalogue("en", "ui") };
  for (const [id, text] of Object.entries(catalogue("en", "rules"))) out[`rules:${id}`] = text;
  for (const f of readdirSync(path.join(root, "lessons")).filter((f) => f.endsWith(".json"))) {
    const l = read(root, "lessons", f);
    out[`lessons:${l.id}.title`] = l.title;
    out[`lessons:${l.id}.line`] = l.line;
    (l.steps ?? []).forEach((s, i) => {
      out[`lessons:${l.id}.${i}.title`] = s.title;
      const question = s.predict?.question ?? s.question;
      if (question) out[`lessons:${l.id}.${i}.question`] = question;
    });
  }
  return out;
}

// lessonTexts are a locale's lesson texts under englishTexts' ids.
function lessonTexts(lang) {
  const out = {};
  for (const [id, l] of Object.entries(catalogue(lang, "lessons"))) {
    out[`lessons:${id}.title`] = l.title;
    out[`lessons:${id}.line`] = l.line;
    (l.steps ?? []).forEach((s, i) => {
      out[`lessons:${id}.${i}.title`] = s.title;
      if (s.question) out[`lessons:${id}.${i}.question`] = s.question;
    });
  }
  return out;
}

// pattern turns a message into a regular expression source that matches
// it rendered: a plural its branches' alternatives (# a number), any other
// placeholder any text; letters counts the letters it fixes (the fewest of a
// plural's branches).
function pattern(text) {
  let source = "";
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#") {
      source += "[\\d\\s.,\u00a0\u202f]+";
      continue;
    }
    if (c !== "{") {
      source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (/\p{L}/u.test(c)) letters++;
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      if (text[j] === "{") depth++;
      else if (text[j] === "}" && --depth === 0) break;
    }
    const inner = text.slice(i + 1, j);
    i = j;
    const m = /^\s*\w+\s*,\s*plural\s*,([^]*)$/.exec(inner);
    if (!m) {
      source += "[^]+?";
      continue;
    }
    const alternatives = [];
    let fewest = Infinity;
    const rest = m[1];
    for (let k = 0; k < rest.length; k++) {
      if (rest[k] !== "{") continue;
      let d = 0;
      let e = k;
      for (; e < rest.length; e++) {
        if (rest[e] === "{") d++;
        else if (rest[e] === "}" && --d === 0) break;
      }
      const branch = pattern(rest.slice(k + 1, e));
      alternatives.push(branch.source);
      fewest = Math.min(fewest, branch.letters);
      k = e;
    }
    source += `(?:${alternatives.join("|")})`;
    letters += fewest === Infinity ? 0 : fewest;
  }
  return { source, letters };
}

// forbidden turns the texts of other languages into the matchers a page in
// lang fails on: a whole text equal to a message (its placeholders standing
// for anything), or a text holding a message of four words or more. A
// message lang words the same (Type, Code, Minimal in French) is allowed,
// and so is one too short to tell a language by (fewer than four letters of
// its own, six with placeholders).
function forbidden(lang, others) {
  const own = { ...catalogue(lang, "ui") };
  for (const [id, text] of Object.entries(catalogue(lang, "rules"))) own[`rules:${id}`] = text;
  Object.assign(own, lessonTexts(lang));
  const list = [];
  for (const [id, text] of Object.entries(others)) {
    if (typeof text !== "string" || own[id] === text) continue;
    const { source, letters } = pattern(text.trim());
    const placeholders = text.includes("{");
    if (letters < (placeholders ? 6 : 4)) continue;
    const within = !placeholders && text.trim().split(/\s+/).length >= 4 ? text.trim() : null;
    list.push({ id, text, re: new RegExp(`^${source}$`, "u"), within });
  }
  return list;
}

// rendered collects, in the page and its open shadow roots, the visible
// text nodes and the aria-label, placeholder and title of visible elements,
// leaving out technical text.
function rendered() {
  const SKIP = "code, pre, kbd, samp, script, style, [lang=en], [role=cell], [role=columnheader], .chip, .op-kind, .exchange > h3, #account-name, .code-language, .prop-type, option[value^='Edm.']";
  const out = [];
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
  const where = (e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : ""}`;
  const walk = (rootNode) => {
    const walker = document.createTreeWalker(rootNode, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const text = n.textContent.replace(/\s+/g, " ").trim();
      if (!text || !parent || parent.closest(SKIP) || !shown(parent)) continue;
      out.push({ text, where: where(parent) });
    }
    for (const e of rootNode.querySelectorAll("*")) {
      if (e.shadowRoot) walk(e.shadowRoot);
      if (e.closest(SKIP) || !shown(e)) continue;
      for (const a of ["aria-label", "placeholder", "title"]) {
        const v = e.getAttribute(a);
        if (v && v.trim()) out.push({ text: v.trim(), where: `${where(e)}[${a}]` });
      }
    }
  };
  walk(document.body);
  out.push({ text: document.title, where: "title" });
  return out;
}

// ENGLISH are words of English that Polish, Japanese and French texts do
// not use: a text of three words or more with two of them is an English
// sentence even where no catalogue holds it (a module's text not yet in the
// catalogue, an engine's text not localized).
const ENGLISH = new Set("the and of is with this that your you are from its which was not in at as an it be has have or".split(" "));
const looksEnglish = (text) => {
  const words = text.toLowerCase().split(/[^\p{L}']+/u).filter(Boolean);
  return words.length >= 3 && new Set(words.filter((w) => ENGLISH.has(w))).size >= 2;
};

// leftovers are the rendered texts that are messages of another language,
// or (english) sentences in English.
async function leftovers(page, list, english = true) {
  const texts = await page.evaluate(rendered);
  const found = [];
  for (const { text, where } of texts) {
    if (english && looksEnglish(text)) {
      found.push(`${where}: “${text}” reads as English`);
      continue;
    }
    for (const m of list) {
      const hit = m.re.test(text) || (m.within && text.includes(m.within));
      if (hit) {
        found.push(`${where}: “${text}” is ${m.id} (“${m.text}”)`);
        break;
      }
    }
  }
  return [...new Set(found)];
}

const ready = (page) => page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });

// check fails with every leftover of a state, and checks the page's
// language and its Learn links.
async function check(page, lang, state, list) {
  const found = await leftovers(page, list, lang !== "en");
  assert.deepEqual(found, [], `${lang}, ${state}: text not in ${lang}`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${lang}, ${state}: <html lang>`);
  const learn = await page.evaluate(() => [...document.querySelectorAll("a[href*='learn.microsoft.com']")].map((a) => a.href));
  const wrong = learn.filter((href) => !href.includes(`learn.microsoft.com/${SEGMENT[lang]}/`));
  assert.deepEqual(wrong, [], `${lang}, ${state}: Learn links not to ${SEGMENT[lang]}`);
}

const english = englishTexts();
const BROWSER_LOCALE = { pl: "pl-PL", ja: "ja-JP", fr: "fr-FR" };

for (const lang of ["pl", "ja", "fr"]) {
  test(`the page in ${lang}: a browser asking for ${BROWSER_LOCALE[lang]} sees every state in ${lang}, the picker switches it without a reload`, { timeout: 180_000 }, async (t) => {
    const context = await env.browser.firstVisitContext({ viewport: { width: 1280, height: 900 }, locale: BROWSER_LOCALE[lang] });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const list = forbidden(lang, english);
    const state = (name, action) => t.test(name, async () => {
      if (action) await action();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await check(page, lang, name, list);
    });
    try {
      await page.goto(env.server.url + "/");
      await ready(page);
      await page.locator("#start-here:not([hidden])").waitFor();
      await state("first visit, the sample loaded");
      await state("a query", async () => {
        await page.locator("#start-here .start-step").first().locator("button").click();
        await page.locator("#query-summary .figures").waitFor();
        await page.locator("#query-picture .query-picture").waitFor();
      });
      await state("a rule card", async () => {
        const i = await page.evaluate(() => [...document.querySelectorAll("#prop-rows .prop-name")].findIndex((x) => x.value === "Age"));
        await page.locator("#prop-rows .prop-value").nth(i).fill("3.5");
        await page.locator("#prop-rows .card").first().waitFor();
      });
      await state("a failed batch", async () => {
        // An entity that breaks a rule is not sent at all: Age is whole again.
        const i = await page.evaluate(() => [...document.querySelectorAll("#prop-rows .prop-name")].findIndex((x) => x.value === "Age"));
        await page.locator("#prop-rows .prop-value").nth(i).fill("36");
        await page.locator("#pk").fill("users");
        await page.locator("#rk").fill("ada");
        await page.locator("#op-kind").selectOption("insert");
        await page.locator("#queue-op").click();
        await page.locator("#rk").fill("zz");
        await page.locator("#queue-op").click();
        await page.locator("#submit-batch").click();
        await page.locator("#batch-result .failed-note").waitFor();
      });
      await state("the code view", async () => {
        await page.locator("#exchanges details.code-view").first().evaluate((d) => (d.open = true));
        await page.waitForFunction(() => document.querySelector("#exchanges details.code-view[open] pre.code code")?.textContent.length > 0);
      });
      await state("the Connect panel", async () => {
        await page.locator("#connect").click();
        await page.locator("#connect-panel:not([hidden])").waitFor();
      });
      await state("the lessons' menu", async () => {
        await page.locator("#connect").click();
        await page.locator("#lessons details").first().evaluate((d) => (d.open = true));
      });
      await state("a lesson step", async () => {
        await page.evaluate(() => (location.hash = "#lesson=partition-design&step=1"));
        await page.locator(".lessons .lesson-step-title").waitFor();
      });

      // The picker: another language at once, no reload, nothing left in
      // the one before; remembered across a reload; lang= wins over it.
      const next = lang === "ja" ? "fr" : "ja";
      await t.test(`the picker switches to ${next} without a reload, and a reload keeps it`, async () => {
        await page.evaluate(() => (window.__sameDocument = true));
        await page.locator("#lang-picker").selectOption(next);
        await page.waitForFunction((l) => document.documentElement.lang === l, next);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        assert.equal(await page.evaluate(() => window.__sameDocument), true, "the switch reloaded the page");
        const ui = catalogue(next, "ui");
        assert.equal(await page.locator("#tables-heading").innerText(), ui["tables.heading"]);
        assert.equal(await page.locator("#run-op").innerText(), ui["operations.send"]);
        const before = { ...english, ...Object.fromEntries(Object.entries(catalogue(lang, "ui")).map(([k, v]) => [`${lang}:${k}`, v])) };
        // A message of the language before, where the new one words it otherwise.
        const nextUI = catalogue(next, "ui");
        const stale = forbidden(next, Object.fromEntries(Object.entries(before).filter(([k, v]) => !k.startsWith(`${lang}:`) || nextUI[k.slice(lang.length + 1)] !== v)));
        await check(page, next, "after the switch", stale);
        await page.reload();
        await ready(page);
        assert.equal(await page.evaluate(() => document.documentElement.lang), next, "the choice did not survive a reload");
        assert.equal(await page.locator("#lang-picker").inputValue(), next);
        await page.goto(env.server.url + `/?lang=${lang}`);
        await ready(page);
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang, "lang= in the address did not win");
      });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}
