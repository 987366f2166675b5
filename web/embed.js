// web/embed.js is responsible for the <table-playground> element: a small,
// live playground that any page embeds with one module script. Before it
// runs, each element shows a light static preview of its start state and a
// Run control; the engine (one per page, shared by every element) and the
// parts load only when an element nears the viewport or Run is pressed.
// Each element then gets its own account in the engine, dropped when the
// element leaves the DOM. Attributes and theming: docs/embedding.md.
//
// This module is the bootstrap: it holds no engine code; web/embed-app.js
// (loaded on start) builds the playground.
import { el, replace } from "./dom.js";
import { embedLang, load, lang, loaded, locales, t, nodes, onChange } from "./i18n.js";

// The embeds' language is chosen, and its catalogue in, before any embed
// renders (web/i18n.js embedLang); the host page's own <html lang> is left
// as its author set it.
// Should the catalogue not come, the embed is drawn all the same.
let languageSettled = false;
// languageReady settles once the embeds' language is in (or failed).
export const languageReady = locales().then(() => load(embedLang(document), { root: null })).catch(() => {}).finally(() => (languageSettled = true));
const language = languageReady;
import { VIEWS } from "./partlist.js";

const here = new URL("./", import.meta.url);

// playgroundURL resolves the "Open in the playground" target; only an http(s)
// address is taken (an attribute or an iframe fragment could otherwise make
// the link run script), else the full page beside this module.
function playgroundURL(value, base) {
  const fallback = new URL("../index.html", base).href;
  if (!value) return fallback;
  try {
    const url = new URL(value, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : fallback;
  } catch {
    return fallback;
  }
}

// DEFAULT_HEIGHT bounds an embed without a height attribute: it scrolls
// inside beyond that, so a long answer never pushes the article apart.
const DEFAULT_HEIGHT = "640px";

// httpURL is value when it is an absolute http(s) address, else "".
function httpURL(value) {
  try {
    const url = new URL(value ?? "");
    return url.protocol === "http:" || url.protocol === "https:" ? url.href.replace(/\/$/, "") : "";
  } catch {
    return "";
  }
}

// START_KEYS are the fields of a start state (docs/embedding.md); a bare
// account document (it has "format") is taken as {account: it}.
const START_KEYS = ["account", "table", "entity", "filter"];

// stateFix says how to write a start state that every docs generator
// keeps (docs/embedding.md, "Docs generators").
export const stateFix = () => t("embed.stateFix");

// decodeEntities undoes the character references a server-side renderer
// writes into text it escapes (VitePress writes a child script's JSON as
// &quot;…&quot;). The text is parsed in an inert <template>: nothing in
// it runs or loads.
function decodeEntities(text) {
  const tpl = document.createElement("template");
  tpl.innerHTML = text;
  return tpl.content.textContent;
}

// fromBase64url reads URL-safe base64 (padding optional) as UTF-8 text, or
// null when it is not that.
function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return null;
  try {
    const bin = atob(text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
}

// readStartState reads a start state's text (from where: its place, for
// the message) into {state} or {problem}: JSON, else the same with its
// character references decoded, else URL-safe base64 of the JSON.
export function readStartState(text, where) {
  const raw = text.trim();
  const tries = [raw];
  if (/&(#\d+|#x[0-9a-f]+|[a-z]+);/i.test(raw) && !raw.includes("<")) tries.push(decodeEntities(raw));
  const b64 = fromBase64url(raw);
  if (b64 !== null) tries.push(b64.trim());
  let first = null;
  for (const attempt of tries) {
    try {
      const value = JSON.parse(attempt);
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return { problem: t("embed.state.notObject", { where }) };
      }
      if (value.format) return { state: { account: value } }; // a bare account document
      const unknown = Object.keys(value).filter((k) => !START_KEYS.includes(k));
      if (unknown.length) return { problem: t("embed.state.unknown", { where, fields: unknown.map((k) => t("embed.quoted", { k })).join(", "), keys: START_KEYS.join(", ") }) };
      return { state: value };
    } catch (e) {
      first ??= e;
    }
  }
  return { problem: t("embed.state.notJSON", { where, why: first.message }) };
}

// config reads an element's attributes and its inline start state: a
// state attribute, else a child <template>, else a child
// <script type="application/json"> (read as data, never run).
function config(host) {
  const attr = (name) => host.getAttribute(name);
  // lesson-doc carries a lesson written in the browser (the code of its
  // #lesson-doc= link), opened like a gallery lesson once the engine runs.
  const lessonDoc = attr("lesson") ? null : attr("lesson-doc");
  // A lesson shown a step at a time shows only its steps unless a view is named.
  const stepped = (attr("lesson") || lessonDoc !== null) && (host.hasAttribute("step") || host.hasAttribute("steps"));
  const view = (attr("view") ?? (stepped ? "" : "editor,wire")).split(",").map((v) => v.trim()).filter((v) => VIEWS.includes(v));
  let inline = null;
  let problem = "";
  const template = host.querySelector(":scope > template");
  const script = host.querySelector(':scope > script[type="application/json"]');
  // Vue renders a <template>'s children into the element itself on the
  // client, not into its content.
  const found = host.hasAttribute("state") ? [attr("state"), t("embed.where.attribute")]
    : template ? [template.content.textContent.trim() || template.textContent, t("embed.where.template")]
    : script ? [script.textContent, t("embed.where.script")] : null;
  if (found) {
    const r = readStartState(found[0], found[1]);
    inline = r.state ?? null;
    problem = r.problem ?? "";
  }
  return {
    example: attr("example"),
    lesson: attr("lesson"),
    lessonDoc,
    step: attr("step"),
    steps: attr("steps"),
    stepped,
    src: attr("src"),
    inline,
    problem,
    view: view.length || stepped ? view : ["editor", "wire"],
    level: ["nometadata", "minimalmetadata", "fullmetadata"].includes(attr("level")) ? attr("level") : "minimalmetadata",
    height: attr("height"),
    readonly: host.hasAttribute("readonly"),
    onClick: attr("start") === "click",
    label: attr("label") || t("embed.label"),
    named: Boolean(attr("label")),
    playground: playgroundURL(attr("playground"), here),
    // Where copied code connects: the local emulator unless the author
    // names a sandbox (an http(s) account URL and its account name).
    codeEndpoint: httpURL(attr("code-endpoint")),
    codeAccount: attr("code-account") ?? "",
  };
}

// preview lists what the playground will start with, from the start state
// as written (no engine yet).
function preview(c) {
  const items = [];
  if (c.problem) items.push(el("div", { class: "card failure", role: "alert", part: "failure" }, el("p", {}, el("strong", {}, t("embed.willNotStart")), " ", c.problem), el("p", {}, el("strong", {}, t("embed.fix")), " ", stateFix())));
  const tables = c.inline?.account?.tables;
  const code = (text) => el("code", {}, text);
  // Which steps a stepped lesson shows: step="2" or steps="2-4".
  const which = () => (c.step ? t("embed.preview.step", { step: c.step }) : t("embed.preview.steps", { steps: c.steps }));
  if (c.lessonDoc !== null) {
    // The code is not read before the engine starts: the size is all it says.
    items.push(el("p", {}, c.stepped
      ? t("embed.preview.docSteps", { which: which(), n: c.lessonDoc.length })
      : t("embed.preview.doc", { n: c.lessonDoc.length })));
  } else if (c.lesson && c.stepped) {
    items.push(el("p", {}, nodes("embed.preview.lessonSteps", { which: which(), lesson: code(c.lesson) })));
  } else if (c.lesson) {
    items.push(el("p", {}, nodes("embed.preview.lesson", { lesson: code(c.lesson) })));
  } else if (Array.isArray(tables)) {
    items.push(el("p", {}, t("embed.preview.tables")),
      el("ul", {}, tables.map((x) => el("li", {}, code(String(x?.name)), " ", t("embed.preview.entities", { n: x?.entities?.length ?? 0 })))));
  } else if (c.src) {
    items.push(el("p", {}, nodes("embed.preview.src", { src: code(c.src) })));
  } else if (c.example) {
    items.push(el("p", {}, nodes("embed.preview.example", { example: code(c.example) })));
  } else {
    items.push(el("p", {}, t("embed.preview.empty")));
  }
  if (c.inline?.entity) items.push(el("p", {}, t("embed.preview.editor")), el("pre", {}, JSON.stringify(c.inline.entity, null, 2)));
  if (c.inline?.filter) items.push(el("p", {}, "$filter: ", code(c.inline.filter)));
  if (c.view.length) items.push(el("p", { class: "hint" }, t(c.readonly ? "embed.preview.showsReadonly" : "embed.preview.shows", { views: c.view.join(", ") })));
  return items;
}

// pageScheme is the host page's colour scheme, "dark" or "light", as the
// docs generators mark it (html.dark: VitePress; data-theme: Docusaurus
// and others; data-md-color-scheme: Material for MkDocs; a color-scheme of
// one value), else as its background shows; "" when the page says nothing
// (the embed then follows the system).
function pageScheme() {
  const nodes = [document.documentElement, document.body].filter(Boolean);
  for (const n of nodes) {
    if (n.classList.contains("dark")) return "dark";
    const named = (n.getAttribute("data-theme") ?? n.getAttribute("data-color-scheme") ?? n.getAttribute("data-bs-theme") ?? "").toLowerCase();
    if (named.includes("dark")) return "dark";
    if (named.includes("light")) return "light";
    const md = n.getAttribute("data-md-color-scheme");
    if (md === "slate") return "dark";
    if (md === "default") return "light";
  }
  for (const n of nodes) {
    const cs = getComputedStyle(n).colorScheme.trim().split(/\s+/);
    if (cs.length === 1 && (cs[0] === "dark" || cs[0] === "light")) return cs[0];
  }
  for (const n of nodes.reverse()) {
    const m = getComputedStyle(n).backgroundColor.match(/^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/);
    if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) continue;
    const luma = (0.2126 * m[1] + 0.7152 * m[2] + 0.0722 * m[3]) / 255;
    return luma < 0.45 ? "dark" : "light";
  }
  return "";
}

// followers are the connected elements that follow the page's scheme; one
// observer watches the page for them all, across client-side navigation
// (a replaced <body> is observed anew).
const followers = new Set();
let pageWatch = null;
function followPage(update) {
  followers.add(update);
  update();
  if (pageWatch) return;
  const all = () => followers.forEach((f) => f());
  const attributeFilter = ["class", "style", "data-theme", "data-color-scheme", "data-bs-theme", "data-md-color-scheme"];
  let body = null;
  const observer = new MutationObserver(() => {
    if (document.body !== body) {
      body = document.body;
      if (body) observer.observe(body, { attributes: true, attributeFilter });
    }
    all();
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter, childList: true });
  body = document.body;
  if (body) observer.observe(body, { attributes: true, attributeFilter });
  const media = matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", all);
  pageWatch = { observer, media, all };
}
function unfollowPage(update) {
  followers.delete(update);
  if (followers.size || !pageWatch) return;
  pageWatch.observer.disconnect();
  pageWatch.media.removeEventListener("change", pageWatch.all);
  pageWatch = null;
}

// explained says why url could not load (web/loadfail.js, fetched only
// then: it is not part of the bootstrap), or, when even that cannot load,
// names the file and the likely fix.
function explained(url, error) {
  return import("./loadfail.js").then(({ explain }) => explain(url, error), () =>
    Object.assign(new Error(t("embed.moduleFailed", { url: url.href, why: error?.message ?? String(error) })), {
      fix: t("embed.moduleFix"),
    }));
}

class TablePlayground extends HTMLElement {
  #ui = null;
  #app = null;
  #state = "idle"; // idle → starting → ready
  #observer = null;
  #settle = null;
  #scheme = null;
  #stopLang = null;

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.#renew();
  }

  // account is the name of this element's account in the engine (null
  // until it runs): reach it with tableplay.fetch(`/${el.account}/…`).
  get account() {
    return this.#app?.account ?? null;
  }

  #renew() {
    let settle;
    // ready resolves once the playground is interactive.
    this.ready = new Promise((resolve, reject) => (settle = { resolve, reject }));
    this.ready.catch(() => {}); // a failure is shown in the element too
    this.#settle = settle;
  }

  connectedCallback() {
    if (this.#ui) return;
    // Drawn once the language's catalogue is in.
    if (!loaded() && !languageSettled) {
      language.then(() => this.isConnected && this.connectedCallback());
      return;
    }
    const c = config(this);
    const run = el("button", { type: "button", class: "run", part: "run", "aria-label": t("embed.runLabel", { label: c.label }) }, t("embed.run"));
    const status = el("p", { class: "status", role: "status", "aria-live": "polite", part: "status" }, t("embed.previewStatus"));
    const body = el("div", { class: "body preview", part: "body" }, preview(c));
    const title = el("p", { class: "title" }, c.label);
    const toolbar = el("div", { class: "toolbar", part: "toolbar" }, title, el("span", { class: "spacer" }), run);
    const frame = el("div", { class: "frame", part: "frame", role: "region", "aria-label": c.label, lang: lang() }, toolbar, status, body);
    // The whole embed is bounded (the body scrolls inside): by its height
    // attribute, else by DEFAULT_HEIGHT.
    const bound = !c.height ? DEFAULT_HEIGHT : /^\d+$/.test(c.height) ? c.height + "px" : c.height;
    frame.style.maxHeight = bound;
    // The space the live playground will take is reserved from the first
    // paint (preview and live alike), so the page does not jump as it
    // starts: the whole bound for parts that fill it (an editor, a query,
    // a batch, a whole lesson), about a step's height for a lesson shown a
    // step at a time (web/embed.css).
    frame.style.setProperty("--bound", bound);
    const fills = c.view.some((v) => v !== "tables" && v !== "wire") || ((c.lesson || c.lessonDoc !== null) && !c.stepped);
    const reserve = fills ? "reserve-full" : c.stepped ? "reserve-step" : "";
    if (reserve) frame.classList.add(reserve);
    replace(this.shadowRoot,
      el("link", { rel: "stylesheet", href: new URL("parts.css", here).href }),
      el("link", { rel: "stylesheet", href: new URL("embed.css", here).href }),
      c.lesson || c.lessonDoc !== null ? el("link", { rel: "stylesheet", href: new URL("lessons/lessons.css", here).href }) : null,
      frame);
    this.#ui = { c, run, status, body, toolbar, frame };
    // A switch of language: the preview and its controls say it again (a
    // live playground words itself: web/embed-app.js); the root names it.
    this.#stopLang = onChange(() => {
      frame.lang = lang();
      if (!c.named) {
        c.label = t("embed.label");
        title.textContent = c.label;
        frame.setAttribute("aria-label", c.label);
      }
      run.setAttribute("aria-label", t("embed.runLabel", { label: c.label }));
      run.textContent = t("embed.run");
      if (this.#state === "idle") {
        status.textContent = t("embed.previewStatus");
        replace(body, preview(c));
      } else if (this.#state === "starting" && this.dataset.state !== "failed") {
        status.textContent = t("embed.loading");
      }
    });
    // theme="auto" (the default) and theme="page" follow the host page's
    // scheme, live; light and dark are fixed (web/embed.css).
    this.#scheme = () => {
      const theme = this.getAttribute("theme") ?? "auto";
      const scheme = theme === "auto" || theme === "page" ? pageScheme() : "";
      if (frame.dataset.scheme !== scheme) frame.dataset.scheme = scheme;
    };
    followPage(this.#scheme);
    // A failure is shown in the box and through ready, not as an
    // unhandled rejection of these calls.
    run.addEventListener("click", () => this.start().catch(() => {}));
    if (!c.onClick) {
      this.#observer = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) this.start().catch(() => {});
      }, { rootMargin: "200px" });
      this.#observer.observe(this);
    }
  }

  disconnectedCallback() {
    unfollowPage(this.#scheme);
    this.#stopLang?.();
    this.#stopLang = null;
    this.#observer?.disconnect();
    this.#observer = null;
    this.#app?.destroy();
    this.#app = null;
    this.#ui = null;
    if (this.#state !== "idle") {
      this.#state = "idle";
      this.#renew();
    }
  }

  // failed shows, in the element's own box, why it could not start and what
  // fixes it: never an empty box.
  #failed(ui, err) {
    this.dataset.state = "failed";
    ui.status.textContent = t("embed.failed");
    ui.body.classList.remove("preview");
    replace(ui.body, el("div", { class: "card failure", role: "alert", part: "failure" },
      el("p", {}, el("strong", {}, t("embed.failed")), " ", err?.message ?? String(err)),
      err?.fix ? el("p", {}, el("strong", {}, t("embed.fix")), " ", err.fix) : null));
  }

  // start loads the engine (once per page) and builds the live playground.
  async start() {
    await language;
    if (this.#state !== "idle" || !this.#ui) return this.ready;
    this.#state = "starting";
    this.#observer?.disconnect();
    const ui = this.#ui;
    ui.run.disabled = true;
    ui.status.textContent = t("embed.loading");
    try {
      // The engine module starts the wasm download as it loads; the parts
      // (web/embed-app.js and what it imports) then load while it streams.
      // A module that cannot load is explained (web/loadfail.js), as is an
      // engine that cannot start (tableplay.ready rejects with the cause).
      // A start state that cannot be read stops here, loudly: an empty
      // account in its place would look like a working example.
      if (ui.c.problem) throw Object.assign(new Error(ui.c.problem), { fix: stateFix() });
      const load = (url) => import(url).catch(async (error) => Promise.reject(await explained(new URL(url, import.meta.url), error)));
      await load("./engine.js");
      const { startPlayground } = await load("./embed-app.js");
      const app = await startPlayground(this, ui);
      if (this.#ui !== ui) {
        app.destroy(); // the element left the page while it started
        return this.ready;
      }
      this.#app = app;
      this.#state = "ready";
      this.dataset.state = "ready";
      this.#settle.resolve(this);
    } catch (err) {
      if (this.#ui === ui) this.#failed(ui, err);
      this.#settle.reject(err);
    }
    return this.ready;
  }
}

if (!customElements.get("table-playground")) customElements.define("table-playground", TablePlayground);
