// e2e/catalogue.test.js is responsible for the locale catalogues as data
// (no browser): every locale web/locales/index.json lists holds every UI
// message English holds, with the same placeholders and the plural forms its
// language needs; no catalogue holds a message the code never asks for, and
// the code asks for none the catalogue lacks; the files are in the shape
// scripts/i18nfmt writes (en-XA current); and each locale's glossary is what
// its catalogues say: the locale's term wherever English uses the English
// one, and none of the words the glossary says to avoid.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { root } from "./harness.js";

const locales = path.join(root, "web", "locales");
const read = (...p) => JSON.parse(readFileSync(path.join(...p), "utf8"));
const index = read(locales, "index.json");
const LANGS = index.locales.map((l) => l.code);
const OTHERS = LANGS.filter((l) => l !== "en");
const part = (lang, name) => (existsSync(path.join(locales, lang, `${name}.json`)) ? read(locales, lang, `${name}.json`) : null);
const en = part("en", "ui");

// placeholders lists a message's placeholder names (a plural's own name
// included, its branches' keywords not), sorted.
function placeholders(text) {
  const names = new Set();
  const walk = (s) => {
    for (let i = 0; i < s.length; i++) {
      if (s[i] !== "{") continue;
      let depth = 0;
      let j = i;
      for (; j < s.length; j++) {
        if (s[j] === "{") depth++;
        else if (s[j] === "}" && --depth === 0) break;
      }
      const inner = s.slice(i + 1, j);
      const comma = inner.indexOf(",");
      names.add((comma < 0 ? inner : inner.slice(0, comma)).trim());
      if (comma >= 0) for (const b of branches(inner)) walk(b.text);
      i = j;
    }
  };
  walk(text);
  return [...names].sort();
}

// branches are the {key, text} of a plural placeholder's inside.
function branches(inner) {
  const rest = inner.slice(inner.indexOf(",", inner.indexOf(",") + 1) + 1);
  const out = [];
  let i = 0;
  while (i < rest.length) {
    const open = rest.indexOf("{", i);
    if (open < 0) break;
    let depth = 0;
    let j = open;
    for (; j < rest.length; j++) {
      if (rest[j] === "{") depth++;
      else if (rest[j] === "}" && --depth === 0) break;
    }
    out.push({ key: rest.slice(i, open).trim(), text: rest.slice(open + 1, j) });
    i = j + 1;
  }
  return out;
}

// plurals lists the branch keys of each plural placeholder of a message.
function plurals(text) {
  const found = [];
  const re = /\{\s*(\w+)\s*,\s*plural\s*,/g;
  for (let m; (m = re.exec(text)); ) {
    let depth = 0;
    let j = m.index;
    for (; j < text.length; j++) {
      if (text[j] === "{") depth++;
      else if (text[j] === "}" && --depth === 0) break;
    }
    found.push({ name: m[1], keys: branches(text.slice(m.index + 1, j)).map((b) => b.key) });
  }
  return found;
}

test("the picker's locales come from index.json, each with a folder, a name and a Learn segment", () => {
  assert.ok(LANGS.includes("en"), "English is not listed");
  for (const l of index.locales) {
    assert.ok(existsSync(path.join(locales, l.code, "ui.json")), `${l.code}/ui.json is missing`);
    assert.ok(existsSync(path.join(locales, l.code, "glossary.json")), `${l.code}/glossary.json is missing`);
    assert.ok(l.name && /^[a-z]{2}-[a-z]{2}$/.test(l.learn), `${l.code}: name ${l.name}, learn ${l.learn}`);
  }
});

test("every locale holds every UI message, with English's placeholders and its language's plural forms", () => {
  const problems = [];
  for (const lang of [...OTHERS, "en-XA"]) {
    const ui = part(lang, "ui");
    assert.ok(ui, `${lang}/ui.json is missing`);
    const categories = new Intl.PluralRules(lang === "en-XA" ? "en" : lang).resolvedOptions().pluralCategories;
    for (const [id, text] of Object.entries(en)) {
      if (typeof ui[id] !== "string") {
        problems.push(`${lang}: ${id} is missing`);
        continue;
      }
      const want = placeholders(text).join(",");
      const got = placeholders(ui[id]).join(",");
      if (want !== got) problems.push(`${lang}: ${id} has placeholders {${got}}, English {${want}}`);
      for (const p of plurals(ui[id])) {
        const keys = p.keys.filter((k) => !k.startsWith("="));
        const strange = keys.filter((k) => !categories.includes(k));
        if (strange.length) problems.push(`${lang}: ${id} has plural forms ${strange.join(", ")}, which ${lang} does not use`);
        if (!keys.includes("other")) problems.push(`${lang}: ${id}'s plural {${p.name}} has no "other" form`);
        // Polish counts need one, few and many: "1 jednostka, 2 jednostki, 5 jednostek".
        for (const need of categories.filter((c) => c !== "other" && c !== "many" && c !== "two" && c !== "zero")) {
          if (!keys.includes(need)) problems.push(`${lang}: ${id}'s plural {${p.name}} lacks the "${need}" form`);
        }
        if (lang === "pl" && !keys.includes("many")) problems.push(`pl: ${id}'s plural {${p.name}} lacks the "many" form`);
      }
    }
    for (const id of Object.keys(ui)) if (!(id in en)) problems.push(`${lang}: ${id} is not an English message`);
  }
  assert.deepEqual(problems, []);
});

// The code's sources: the page's and the embed's modules and markup.
function sources() {
  const files = [];
  for (const dir of ["web", "web/lessons"]) {
    for (const f of readdirSync(path.join(root, dir))) if (f.endsWith(".js")) files.push(path.join(dir, f));
  }
  files.push("index.html", "embed.html");
  return files.filter((f) => existsSync(path.join(root, f))).map((f) => ({ file: f, text: readFileSync(path.join(root, f), "utf8") }));
}

test("no catalogue holds a message the code never uses, and the code asks for none it lacks", () => {
  const used = new Set();
  const asked = [];
  const dynamic = [];
  for (const { file, text } of sources()) {
    // An id is used where the code names it whole: as a string literal
    // (t("query.run"), a table of ids) or in data-i18n / data-i18n-attr.
    for (const m of text.matchAll(/["'`]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)["'`]/g)) used.add(m[1]);
    for (const m of text.matchAll(/data-i18n="([^"]+)"/g)) used.add(m[1]);
    for (const m of text.matchAll(/data-i18n-attr="([^"]+)"/g)) for (const pair of m[1].split(";")) used.add(pair.split(":")[1]?.trim());
    for (const m of text.matchAll(/(?<![.\w$])(?:t|textOf|nodes)\(\s*"([^"]+)"/g)) asked.push({ file, id: m[1] });
    for (const m of text.matchAll(/\battrOf\(\s*"[^"]+",\s*"([^"]+)"/g)) asked.push({ file, id: m[1] });
    for (const m of text.matchAll(/data-i18n(?:-attr)?="([^"]+)"/g)) {
      for (const id of m[1].includes(":") ? m[1].split(";").map((p) => p.split(":")[1]?.trim()) : [m[1]]) asked.push({ file, id });
    }
    // An id put together at run time cannot be checked: the code names
    // every id whole.
    for (const m of text.matchAll(/\b(?:t|textOf|nodes)\(\s*`[^`]*\$\{/g)) dynamic.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(dynamic, [], "message ids built at run time (name each id whole, e.g. in a table of ids)");
  const missing = asked.filter(({ id }) => /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/.test(id) && !(id in en)).map(({ file, id }) => `${file}: ${id}`);
  assert.deepEqual([...new Set(missing)], [], "the code asks for ids English lacks");
  const unused = Object.keys(en).filter((id) => !used.has(id));
  assert.deepEqual(unused, [], "ui.json ids no code uses");
});

test("the catalogues are in i18nfmt's shape and en-XA is what English makes", () => {
  execFileSync("go", ["run", "./scripts/i18nfmt", "-check"], { cwd: root, stdio: "pipe" });
});

// texts flattens a catalogue part to {path: text}; lessons are read as the
// lesson files (English) and the locale's overlay hold them, path by path.
function texts(lang, name) {
  const out = {};
  const flat = (v, p) => {
    if (typeof v === "string") out[p] = v;
    else if (Array.isArray(v)) v.forEach((x, i) => flat(x, `${p}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) if (k !== "_about") flat(x, p ? `${p}.${k}` : k);
  };
  if (name === "lessons" && lang === "en") {
    for (const f of readdirSync(path.join(root, "lessons")).filter((f) => f.endsWith(".json"))) {
      const l = read(root, "lessons", f);
      const keep = { title: l.title, line: l.line, summary: l.summary, section: { title: l.section?.title }, steps: (l.steps ?? []).map((s) => ({ title: s.title, text: s.text, explain: s.explain, note: s.note, question: s.question, choices: s.choices })) };
      flat(keep, l.id);
    }
    return out;
  }
  const v = part(lang, name);
  if (v) flat(v, "");
  return out;
}

// Latin-script terms are matched by each word's stem (Polish and French
// inflect them: jednostka, jednostki, jednostek); others whole.
function termPattern(term) {
  if (!/^[\p{Script=Latin}\s'’-]+$/u.test(term)) return (s) => s.includes(term);
  const stems = term.toLowerCase().split(/\s+/).map((w) => w.slice(0, Math.max(Math.min(w.length, 3), w.length - 2)));
  return (s) => {
    const low = s.toLowerCase().replaceAll("’", "'");
    return stems.every((st) => low.includes(st.replaceAll("’", "'")));
  };
}

// englishUses says whether English text uses the term, what is not a use
// of the word aside: the products' names (Azure Table, the Table service,
// a Table endpoint, Cosmos DB for Table, Set Table Service Properties), placeholders, `code`, "quoted" wire text and
// fidelity ids (capitals joined by hyphens) and package names (Azure.Data.Tables,
// @azure/data-tables, azure-data-tables).
function englishUses(term) {
  const words = term.split(" ");
  const last = words.pop();
  const forms = last.endsWith("y") ? `${last.slice(0, -1)}(?:y|ies)` : `${last}s?`;
  const re = new RegExp(`\\b${[...words, forms].join("\\s+")}\\b`, "i");
  const aside = /\bAzure Table\b|\bTable service\b|\bCosmos DB for Table\b|\{[^{}]*\}|`[^`]*`|"[^"]*"|\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b|@?[\w.-]+[./@][\w./-]*[A-Za-z]|\b[a-z]+(?:-[a-z]+)*-tables\b|\bTable (?:endpoint|playground|Service Properties)\b/g;
  return (s) => re.test(s.replace(aside, ""));
}

test("each locale's glossary is what its catalogues use, and no word it says to avoid appears", () => {
  const english = read(locales, "en", "glossary.json").terms;
  const problems = [];
  for (const lang of OTHERS) {
    const glossary = read(locales, lang, "glossary.json").terms;
    for (const name of ["ui", "rules", "lessons"]) {
      const theirs = texts(lang, name);
      const ours = texts("en", name);
      for (const [key, { term, avoid = [] }] of Object.entries(glossary)) {
        const uses = englishUses(english[key].term);
        const has = termPattern(term);
        for (const [p, text] of Object.entries(ours)) {
          if (typeof theirs[p] !== "string" || !uses(text)) continue;
          if (!has(theirs[p])) problems.push(`${lang}/${name} ${p}: English says "${english[key].term}", this does not say "${term}": ${theirs[p]}`);
        }
        for (const word of avoid) {
          const re = /^[\p{Script=Latin}\s'’-]+$/u.test(word) ? new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, "iu") : null;
          for (const [p, text] of Object.entries(theirs)) {
            if (re ? re.test(text) : text.includes(word)) problems.push(`${lang}/${name} ${p}: "${word}" is to be avoided (${term}): ${text}`);
          }
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});
