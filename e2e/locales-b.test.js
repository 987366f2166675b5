// e2e/locales-b.test.js is responsible for testing, in Chromium, that the
// lesson view, presenter mode, the Connect panel, a room link's page and
// the embeds (the element with lang="ja", the iframe with ?lang=fr) show
// none of their English UI messages in Polish, Japanese and French: every
// rendered text node and every aria-label, title and placeholder is
// compared with the English catalogue (web/locales/en/ui.json) of those
// modules, message by message, and no message id is left unresolved. The
// language is named where it is shown (<html lang>, the embed's root, the
// frame's document) and numbers follow the locale's rules.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { useBrowser, root } from "./harness.js";

const env = useBrowser({ before, after });

// The modules this file covers, by their message ids' prefixes.
const PREFIXES = ["lessons.", "connect.", "rooms.", "target.", "transfer.", "share.", "workspace.", "remote.", "persist.", "profilecompare.", "embed."];
const catalogue = (lang) => JSON.parse(readFileSync(path.join(root, "web", "locales", lang, "ui.json"), "utf8"));
const EN = catalogue("en");
const OWN = Object.keys(EN).filter((id) => PREFIXES.some((p) => id.startsWith(p)));

// literals are the fixed words of a message: the text outside its
// placeholders and plural blocks, split there.
function literals(text) {
  const out = [];
  let depth = 0;
  let cur = "";
  for (const c of text) {
    if (c === "{") {
      if (depth === 0) {
        out.push(cur);
        cur = "";
      }
      depth++;
    } else if (c === "}") depth--;
    else if (depth === 0) cur += c;
  }
  out.push(cur);
  return out;
}

// englishIn lists, for a locale, the English messages its page must not
// show, each as a pattern a whole text matches: the message's words with
// anything in its placeholders. A message without placeholders is matched
// exactly; one with placeholders when its fixed words are two words or more
// (a bare "{label}:" would match anything). A message the locale words
// exactly as English does (a name, a unit) is left out.
function englishIn(lang) {
  const own = catalogue(lang);
  const out = [];
  const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
  for (const id of OWN) {
    if (own[id] === EN[id]) continue;
    const lits = literals(EN[id]);
    const words = (lits.join(" ").match(/\p{L}{2,}/gu) ?? []).length;
    if (lits.length > 1 && words < 2) continue;
    if (!words) continue;
    out.push({ id, re: new RegExp("^" + lits.map((l) => esc(l.trim())).join("[\\s\\S]*?") + "$") });
  }
  return out;
}

// rendered collects what a document shows: the text of every rendered
// element (open shadow roots and same-origin frames included; code, pre
// and form values are data) and its aria-label, title and placeholder.
async function rendered(page) {
  const parts = [];
  for (const frame of page.frames()) {
    parts.push(...(await frame.evaluate(() => {
      const out = [];
      const skip = (el) => el.closest("pre, code, script, style, textarea, template, kbd, option");
      const walk = (node) => {
        for (const el of node.querySelectorAll("*")) {
          if (el.shadowRoot) walk(el.shadowRoot);
          if (skip(el)) continue;
          for (const a of ["aria-label", "title", "placeholder"]) if (el.hasAttribute(a)) out.push({ where: `${el.tagName.toLowerCase()}[${a}]`, text: el.getAttribute(a) });
          if (!el.checkVisibility?.()) continue;
          const texts = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
          if (!texts.length) continue;
          const where = el.tagName.toLowerCase() + (typeof el.className === "string" && el.className ? "." + el.className.split(" ")[0] : "");
          // Each text node, and the element's whole text when words and
          // elements mix (a sentence with a link or a code span in it).
          for (const n of texts) out.push({ where, text: n.data.trim() });
          if (texts.length < el.childNodes.length) out.push({ where, text: el.textContent.trim() });
        }
      };
      walk(document);
      return out;
    })));
  }
  return parts;
}

// assertNoEnglish fails on any English fragment of these modules' messages
// (and any message id shown as itself) on the page.
async function assertNoEnglish(page, lang, state) {
  const messages = englishIn(lang);
  const shown = await rendered(page);
  assert.ok(shown.length > 10, `${state}: only ${shown.length} texts rendered`);
  const found = [];
  const ids = new RegExp(`\\b(?:${PREFIXES.map((p) => p.replace(".", "\\.")).join("|")})[A-Za-z][\\w.]*\\b`, "g");
  for (const { where, text } of shown) {
    for (const [id] of text.matchAll(ids)) if (OWN.includes(id)) found.push(`${where}: the id ${id}`);
    for (const { id, re } of messages) if (re.test(text.replace(/\s+/g, " "))) found.push(`${where}: ${id} in “${text.slice(0, 120)}”`);
  }
  assert.deepEqual(found, [], `${state} in ${lang} shows English`);
}

const WELL_KNOWN_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

// accountSAS is an account SAS of the emulators' well-known account.
function accountSAS() {
  const iso = (d) => d.toISOString().replace(/\.\d+Z$/, "Z");
  const p = { sv: "2019-02-02", ss: "t", srt: "sco", sp: "rwdlacu", st: iso(new Date(Date.now() - 60_000)), se: iso(new Date(Date.now() + 3_600_000)), spr: "https,http" };
  const sts = ["devstoreaccount1", p.sp, p.ss, p.srt, p.st, p.se, "", p.spr, p.sv].join("\n") + "\n";
  const sig = createHmac("sha256", Buffer.from(WELL_KNOWN_KEY, "base64")).update(sts).digest("base64");
  return new URLSearchParams({ ...p, sig }).toString();
}

// A lesson step with a prediction, and the query step whose figures are
// counted (partition-design step 2: 54 returned of 2,000 examined).
const STEP = "#lesson=keys&step=2";
const FIGURES = "#lesson=partition-design&step=2";

test("the lessons, presenter mode, Connect and a room link's page in Polish and Japanese show none of their English messages; <html lang> names the language", { timeout: 120_000 }, async () => {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const open = async (lang, hash = "") => {
    await page.goto(`${env.server.url}/?lang=${lang}${hash}`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
  };
  for (const lang of ["pl", "ja"]) {
    // The lessons menu.
    await open(lang);
    await page.locator(".lessons-box > summary").click();
    await page.locator(".lesson-menu li").first().waitFor();
    await assertNoEnglish(page, lang, "the lessons menu");

    // A step with a prediction, before and after its run (a wrong answer:
    // the verdict then says why too).
    await open(lang, STEP);
    await page.locator(".prediction").waitFor();
    await page.locator(".run-step").click(); // no prediction yet: the page asks for one
    await page.locator(".lesson-result [role=alert]").waitFor();
    await assertNoEnglish(page, lang, "a step before its run");
    const view = await page.evaluate(() => window.tableplay.lesson("keys"));
    const wrong = view.steps[1].predict.answer === 0 ? 1 : 0;
    await page.locator(".prediction input").nth(wrong).check();
    await page.locator(".run-step").click();
    await page.locator(".verdict.bad").waitFor();
    await page.locator(".lesson-wire > summary").click();
    await page.locator(".lesson-exchange-box > summary").click();
    await assertNoEnglish(page, lang, "a step after its run");

    // The figures of a query step, counted by the locale's rules.
    await open(lang, FIGURES);
    await page.locator(".prediction input").nth(2).check();
    await page.locator(".run-step").click();
    const outcome = await page.locator(".outcome li").nth(1).innerText();
    assert.equal(outcome, { pl: "Zwrócono: 54, sprawdzono: 2000", ja: "返却 54 件、調査 2,000 件" }[lang]);

    // Presenter mode: the question put to the class, then the run, then the recap.
    await open(lang, STEP + "&present");
    await page.locator("html.presenting").waitFor();
    await page.keyboard.press("ArrowRight");
    await page.locator(".lesson-ask").waitFor();
    await assertNoEnglish(page, lang, "presenter mode asking");
    await page.keyboard.press("ArrowRight");
    await page.locator(".verdict").waitFor();
    await assertNoEnglish(page, lang, "presenter mode after the run");
    await page.locator(".finish, .next-step").first().waitFor();
    await page.evaluate(() => (location.hash = location.hash.replace(/step=\d+/, "step=" + window.tableplay.lesson("keys").steps.length)));
    await page.locator(".finish").click();
    await page.locator(".lesson-recap").waitFor();
    await assertNoEnglish(page, lang, "presenter mode's recap");

    // The Connect panel, each of its modes.
    await open(lang);
    await page.locator("#connect").click();
    for (const mode of ["room", "serve", "azurite", "account"]) {
      await page.locator(`input[name=connect-mode][value=${mode}]`).check();
      await page.locator("#connect-cors > summary").click();
      await assertNoEnglish(page, lang, `the Connect panel (${mode})`);
      await page.locator("#connect-cors > summary").click();
    }

    // A room link's page: connected with the link's SAS, the panel open.
    const sas = accountSAS();
    await page.goto(`${env.server.url}/?lang=${lang}#connect=${encodeURIComponent(env.server.url + "/devstoreaccount1")}&sas=${encodeURIComponent(sas)}`);
    await page.waitForFunction(() => document.body.dataset.target === "remote", null, { timeout: 20_000 });
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await page.locator("#connect-answer .answer.good").waitFor();
    await assertNoEnglish(page, lang, "a room link's page");
    await page.locator("#connect-leave").click();
    await page.locator("#connect-answer .answer.good", { hasText: { pl: "Rozłączono", ja: "切断済み" }[lang] }).waitFor();
    await assertNoEnglish(page, lang, "after Disconnect");
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a switch of language re-words the open step, its result and Connect without a reload", { timeout: 60_000 }, async () => {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${env.server.url}/?lang=pl${STEP}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
  const view = await page.evaluate(() => window.tableplay.lesson("keys"));
  await page.locator(".prediction input").nth(view.steps[1].predict.answer).check();
  await page.locator(".run-step").click();
  await page.locator(".verdict.good").waitFor();
  await page.locator("#connect").click();
  await page.evaluate(() => (window.__same = document.querySelector(".lessons-body")));
  const picker = page.locator("#lang-picker");
  await picker.selectOption("ja");
  await page.waitForFunction(() => document.documentElement.lang === "ja");
  // The same page (no reload), the run still shown, now in Japanese.
  assert.ok(await page.evaluate(() => window.__same === document.querySelector(".lessons-body")));
  await page.locator(".verdict.good").waitFor();
  assert.match(await page.locator(".verdict").innerText(), /^正解: /);
  assert.equal(await page.locator(".run-step").innerText(), "ステップを実行");
  assert.equal(await page.locator("#connect-heading").innerText(), "エンドポイントに接続");
  await assertNoEnglish(page, "ja", "a step after a switch to Japanese");
  assert.deepEqual(errors, []);
  await context.close();
});

// hostPage is a docs page of the server's origin, in English, holding html.
const hostPage = (html) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,"></head><body><h1>A docs page</h1>${html}</body></html>`;

test("an embed with lang=\"ja\" and an iframe embed with ?lang=fr show none of their English messages; each names its language", { timeout: 90_000 }, async () => {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const serve = async (name, html) => {
    await page.route(`${env.server.url}/${name}`, (route) => route.fulfill({ contentType: "text/html", body: hostPage(html) }));
    await page.goto(`${env.server.url}/${name}`);
  };

  // The element, with lang="ja": its preview, then live, then a lesson's steps.
  await serve("locales-b-ja.html", `<script type="module" src="/web/embed.js"></script>
<table-playground id="a" lang="ja" example="sample" start="click"></table-playground>
<table-playground id="b" lang="ja" lesson="partition-design" steps="2-3" start="click"></table-playground>`);
  await page.locator("#a").evaluate((el) => customElements.whenDefined("table-playground").then(() => el.shadowRoot.querySelector(".frame")));
  await page.waitForFunction(() => document.querySelector("#b").shadowRoot?.querySelector(".frame"));
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en", "the host page's own lang is left as it is");
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll("table-playground")].map((e) => e.shadowRoot.querySelector(".frame").lang)), ["ja", "ja"]);
  await assertNoEnglish(page, "ja", "the embeds' previews");
  await page.evaluate(() => Promise.all([...document.querySelectorAll("table-playground")].map((e) => e.start())));
  await page.waitForFunction(() => [...document.querySelectorAll("table-playground")].every((e) => e.dataset.state === "ready"), null, { timeout: 30_000 });
  const b = page.locator("#b");
  await b.locator(".prediction input").nth(2).check();
  await b.locator(".run-step").click();
  await b.locator(".verdict").waitFor();
  assert.equal(await b.locator(".outcome li").nth(1).innerText(), "返却 54 件、調査 2,000 件");
  const whole = await b.locator(".whole-lesson").getAttribute("href");
  assert.match(whole, /\?lang=ja#lesson=partition-design&step=2$/, "the whole lesson opens in the embed's language");
  assert.match(await page.locator("#a").locator("[part=open]").getAttribute("href"), /[?&]lang=ja#/, "Open in the playground carries the language");
  await assertNoEnglish(page, "ja", "the live embeds");

  // The iframe with ?lang=fr, on an English host page: a lesson's step, run.
  await serve("locales-b-fr.html", `<iframe id="f" style="width:100%;height:900px" src="/embed.html?lang=fr#lesson=partition-design&step=2"></iframe>`);
  const frame = page.frameLocator("#f");
  await frame.locator("table-playground .prediction").waitFor({ timeout: 30_000 });
  const inner = page.frames().find((f) => f.url().includes("embed.html"));
  assert.equal(await inner.evaluate(() => document.documentElement.lang), "fr");
  assert.equal(await inner.evaluate(() => document.title), "Bac à sable Table");
  assert.equal(await inner.evaluate(() => document.querySelector("table-playground").shadowRoot.querySelector(".frame").lang), "fr");
  await frame.locator("table-playground .prediction input").nth(2).check();
  await frame.locator("table-playground .run-step").click();
  await frame.locator("table-playground .verdict").waitFor();
  // French groups with a narrow no-break space.
  assert.equal(await frame.locator("table-playground .outcome li").nth(1).innerText(), "54 renvoyées, 2\u202f000 examinées");
  await assertNoEnglish(page, "fr", "the iframe embed");
  assert.deepEqual(errors, []);
  await context.close();
});
