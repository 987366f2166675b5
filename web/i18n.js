// web/i18n.js is responsible for the page's language: which locale is shown,
// its catalogue of UI messages (web/locales/<lang>/ui.json) and the
// locale's rules for plurals, numbers and dates (Intl). Every string the page
// shows comes from t(); the catalogue of the shown locale is loaded once,
// before anything renders, so t() is synchronous. docs/locales.md describes
// the message format and how a locale is added.

// The locales a reader can choose come from web/locales/index.json (a
// locale is added there and in its folder, with no change here): their
// codes in the picker's order, each one's own name and its Learn segment.
// Unreadable, the page still runs in English. en-XA is the pseudo-locale of
// the layout tests: reachable by lang=en-XA only. The list is fetched as
// this module loads, without holding up the modules that import it;
// locales() resolves once it is in (load waits for it too).
// A versioned build (make site names this module i18n.js?v=…) gives the
// catalogues the same version, so that a browser keeps them as it keeps
// the modules.
const VERSION = /^\?v=[0-9a-f]{12}$/.test(new URL(import.meta.url).search) ? new URL(import.meta.url).search : "";
export let LOCALES = ["en"];
// LOCALE_NAMES names each locale in its own language (the picker's options).
export let LOCALE_NAMES = { en: "English" };
let LEARN = { en: "en-us" };
const INDEX = fetch(new URL(`./locales/index.json${VERSION}`, import.meta.url))
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
  .catch(() => ({ locales: [{ code: "en", name: "English", learn: "en-us" }] }))
  .then((index) => {
    LOCALES = index.locales.map((l) => l.code);
    LOCALE_NAMES = Object.fromEntries(index.locales.map((l) => [l.code, l.name]));
    LEARN = Object.fromEntries(index.locales.map((l) => [l.code, l.learn]));
  });

// locales resolves once LOCALES (and the names and Learn segments) are in.
export function locales() {
  return INDEX;
}

export const PSEUDO = "en-XA";
const STORAGE_KEY = "tableplay-lang";

const state = {
  lang: "en",
  messages: {},
  plural: null,
  number: null,
  listeners: new Set(),
  before: new Set(),
  cache: new Map(),
  loading: null,
  loaded: false,
};

// match returns the supported locale a language tag asks for, or "".
export function match(tag) {
  if (!tag) return "";
  const t = String(tag).trim();
  if (t.toLowerCase() === PSEUDO.toLowerCase()) return PSEUDO;
  const base = t.toLowerCase().split(/[-_]/)[0];
  return LOCALES.includes(base) ? base : "";
}

// storedChoice is the language the reader picked on an earlier visit.
export function storedChoice() {
  try {
    return match(localStorage.getItem(STORAGE_KEY));
  } catch {
    return "";
  }
}

// choose picks the locale to show: the first of the explicit request (a
// lang= parameter or attribute), the reader's stored choice, the given
// fallbacks (e.g. a host page's <html lang>) and the browser's languages
// that is supported; else English.
// An embed passes useBrowser false: its host page's language decides.
export function choose({ requested = "", useStored = true, fallbacks = [], useBrowser = true } = {}) {
  const browser = useBrowser ? navigator.languages || [navigator.language] : [];
  const candidates = [requested, useStored ? storedChoice() : "", ...fallbacks, ...browser];
  for (const c of candidates) {
    const m = match(c);
    if (m) return m;
  }
  return "en";
}

// requestedLang is the lang= of the page's address, in the query or in the
// fragment's parameters (share, lesson and room links carry it there).
export function requestedLang(loc = location) {
  const q = new URLSearchParams(loc.search).get("lang");
  if (q) return q;
  const m = /(?:^#|&)lang=([A-Za-z-]+)/.exec(loc.hash);
  return m ? m[1] : "";
}

// embedLang is the language of the embeds of doc: the lang attribute of its
// first <table-playground> that has one, else the page's lang= (an iframe's
// ?lang=), else the host page's <html lang>, else English. One catalogue
// serves a page, so every embed of a page shows one language (each embed's
// root names it).
export function embedLang(doc = document) {
  const attr = doc.querySelector("table-playground[lang]")?.getAttribute("lang") ?? "";
  return choose({ requested: attr || requestedLang(), useStored: false, fallbacks: [doc.documentElement.lang], useBrowser: false });
}

// remember stores the reader's choice for the next visit.
export function remember(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // storage may be unavailable: the choice lasts this visit
  }
}

function catalogueURL(lang, part) {
  return new URL(`./locales/${lang}/${part}.json${VERSION}`, import.meta.url);
}

// fetchPart fetches one part (ui, rules, lessons) of a locale's catalogue,
// once per page.
export function fetchPart(lang, part) {
  const key = `${lang}/${part}`;
  if (!state.cache.has(key)) {
    state.cache.set(
      key,
      fetch(catalogueURL(lang, part)).then((r) => {
        if (!r.ok) throw new Error(`${key}.json: ${r.status}`);
        return r.json();
      }),
    );
  }
  return state.cache.get(key);
}

// load makes lang the shown locale: its UI catalogue is fetched, <html lang>
// (or the given root's lang) set and every listener told.
export function load(lang, { root = document.documentElement } = {}) {
  const done = Promise.all([fetchPart(lang, "ui"), INDEX]).then(async ([messages]) => {
    await Promise.all([...state.before].map((fn) => fn(lang)));
    state.lang = lang;
    state.messages = messages;
    state.loaded = true;
    const intl = lang === PSEUDO ? "en" : lang;
    state.plural = new Intl.PluralRules(intl);
    state.number = new Intl.NumberFormat(intl);
    if (root) root.lang = lang;
    for (const fn of state.listeners) fn(lang);
    return lang;
  });
  state.loading ??= done;
  return done;
}

// ready resolves once a catalogue is in: the first load's, or (when no
// load was asked for, as where a file fails before the page starts) the
// locale choose() picks.
export function ready() {
  state.loading ??= INDEX.then(() => load(choose()));
  return state.loading.catch(() => "");
}

// loaded says whether a catalogue is in (t() answers in a language).
export function loaded() {
  return state.loaded;
}

// lang is the shown locale.
export function lang() {
  return state.lang;
}

// beforeSwitch registers fn(lang), which every load awaits before the new
// locale shows: a part that keeps texts of its own (the engine's) takes the
// locale first, so the views that re-render on the switch get them in it.
export function beforeSwitch(fn) {
  state.before.add(fn);
  return () => state.before.delete(fn);
}

// onChange calls fn(lang) after every later switch of locale; it returns the
// function that stops it.
// A signal, when given, stops it as it aborts (a playground's teardown).
export function onChange(fn, signal = null) {
  state.listeners.add(fn);
  const stop = () => state.listeners.delete(fn);
  signal?.addEventListener("abort", stop, { once: true });
  return stop;
}

// formatNumber writes n by the locale's rules (grouping, decimal sign).
export function formatNumber(n) {
  return (state.number || new Intl.NumberFormat("en")).format(n);
}

// formatDate writes a Date (or an ISO string) by the locale's rules.
export function formatDate(d, options = { dateStyle: "medium", timeStyle: "medium" }) {
  const intl = state.lang === PSEUDO ? "en" : state.lang;
  return new Intl.DateTimeFormat(intl, options).format(typeof d === "string" ? new Date(d) : d);
}

// t returns message id in the shown locale with its placeholders filled:
// {name} takes params.name (numbers formatted for the locale) and
// {n, plural, one {…} few {…} many {…} other {…}} picks the locale's plural
// form of params.n, # standing for the formatted number (=0 {…} matches
// exactly). An id the catalogue lacks comes back as itself, so a test sees it.
export function t(id, params = {}) {
  const text = state.messages[id];
  if (typeof text !== "string") return id;
  return format(text, params);
}

// has says whether the catalogue holds id.
export function has(id) {
  return typeof state.messages[id] === "string";
}

function value(v) {
  return typeof v === "number" ? formatNumber(v) : v === undefined || v === null ? "" : String(v);
}

// format fills a message's placeholders (exported for tests).
export function format(text, params = {}, count = null) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "#" && count !== null) {
      out += formatNumber(count);
      i++;
      continue;
    }
    if (c !== "{") {
      out += c;
      i++;
      continue;
    }
    const close = matching(text, i);
    const inner = text.slice(i + 1, close);
    i = close + 1;
    const comma = inner.indexOf(",");
    if (comma < 0) {
      out += value(params[inner.trim()]);
      continue;
    }
    const name = inner.slice(0, comma).trim();
    const rest = inner.slice(comma + 1);
    const kind = rest.slice(0, rest.indexOf(",")).trim();
    if (kind !== "plural") {
      out += value(params[name]);
      continue;
    }
    const n = Number(params[name]);
    out += format(branch(rest.slice(rest.indexOf(",") + 1), n), params, n);
  }
  return out;
}

function matching(text, open) {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    if (text[j] === "{") depth++;
    else if (text[j] === "}" && --depth === 0) return j;
  }
  return text.length;
}

// branch picks the plural branch of "one {…} other {…}" for n.
function branch(spec, n) {
  const forms = {};
  let i = 0;
  while (i < spec.length) {
    const open = spec.indexOf("{", i);
    if (open < 0) break;
    const key = spec.slice(i, open).trim();
    const close = matching(spec, open);
    forms[key] = spec.slice(open + 1, close);
    i = close + 1;
  }
  if (forms[`=${n}`] !== undefined) return forms[`=${n}`];
  const rule = (state.plural || new Intl.PluralRules("en")).select(n);
  return forms[rule] ?? forms.other ?? "";
}

// localize fills the text of a subtree: data-i18n="id" sets an element's
// text, data-i18n-attr="aria-label:id;placeholder:id2" its attributes, and
// data-i18n-args (JSON) the placeholders of both (set it with textOf /
// attrsOf). It runs again on every switch of locale, on the elements the
// subtree holds then, until signal aborts.
export function localize(root, signal = null) {
  const apply = () => {
    const nodes = root.querySelectorAll ? [root, ...root.querySelectorAll("[data-i18n], [data-i18n-attr]")] : [];
    for (const el of nodes) {
      if (!el.dataset) continue;
      const args = el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : {};
      if (el.dataset.i18n) el.textContent = t(el.dataset.i18n, args);
      if (el.dataset.i18nAttr) {
        for (const pair of el.dataset.i18nAttr.split(";")) {
          const [attr, id] = pair.split(":").map((s) => s.trim());
          if (attr && id) el.setAttribute(attr, t(id, args));
        }
      }
    }
  };
  apply();
  return onChange(apply, signal);
}

// textOf gives an element the text of message id (and keeps it in the shown
// locale through localize): props for dom.js el().
export function textOf(id, params = null) {
  return params ? { "data-i18n": id, "data-i18n-args": JSON.stringify(params), text: t(id, params) } : { "data-i18n": id, text: t(id) };
}

// attrOf gives an element's attribute the text of message id, kept in the
// shown locale through localize (params shared with its text, if any).
export function attrOf(attr, id, params = null) {
  const props = { [attr]: t(id, params ?? {}), "data-i18n-attr": `${attr}:${id}` };
  if (params) props["data-i18n-args"] = JSON.stringify(params);
  return props;
}

// nodes is message id with placeholders filled, as a list of strings and
// the DOM nodes given as params (a link, a code span inside a sentence).
export function nodes(id, params = {}) {
  const keep = [];
  const marked = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof Node !== "undefined" && (v instanceof Node || Array.isArray(v))) {
      marked[k] = `\u0000${keep.length}\u0000`;
      keep.push(v);
    } else marked[k] = v;
  }
  return t(id, marked).split("\u0000").map((part, i) => (i % 2 ? keep[Number(part)] : part)).filter((p) => p !== "");
}

// withLang returns url with lang= naming the shown locale, so that a link
// handed on (share, lesson, room, workspace) opens in the language it was
// made in. The parameter goes in the query: fragments carry links' data.
export function withLang(url) {
  const u = new URL(url, location.href);
  u.searchParams.set("lang", state.lang);
  return u.href;
}

// learnURL rewrites a learn.microsoft.com link to the shown locale's edition
// (its locale segment: en-us, pl-pl, ja-jp, fr-fr).
export function learnURL(url) {
  const seg = LEARN[state.lang] || "en-us";
  return String(url).replace(/^(https:\/\/learn\.microsoft\.com\/)(?:[a-z]{2}-[a-z]{2}\/)?/, `$1${seg}/`);
}

// formatList joins words as the locale does ("a, b and c").
export function formatList(list) {
  const intl = state.lang === PSEUDO ? "en" : state.lang;
  return new Intl.ListFormat(intl, { type: "conjunction" }).format(list);
}
