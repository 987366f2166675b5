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
import { embedLang, load, lang } from "./i18n.js";
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

// STATE_FIX says how to write a start state that every docs generator
// keeps (docs/embedding.md, "Docs generators").
export const STATE_FIX = "Write the start state as JSON (an object with account, table, entity, filter) in a state='…' attribute, or as URL-safe base64 of that JSON, or in a child <template>; docs/embedding.md shows the form for each docs generator.";

// decodeEntities undoes the character references a server-side renderer
// writes into text it escapes (VitePress writes a child script's JSON as
// &quot;…&quot;). The text is parsed in an inert <template>: nothing in
// it runs or loads.
function decodeEntities(text) {
  const t = document.createElement("template");
  t.innerHTML = text;
  return t.content.textContent;
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
  for (const t of tries) {
    try {
      const value = JSON.parse(t);
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return { problem: `The start state in ${where} is JSON but not an object.` };
      }
      if (value.format) return { state: { account: value } }; // a bare account document
      const unknown = Object.keys(value).filter((k) => !START_KEYS.includes(k));
      if (unknown.length) return { problem: `The start state in ${where} has ${unknown.map((k) => `“${k}”`).join(", ")}, which a start state does not take (it takes ${START_KEYS.join(", ")}).` };
      return { state: value };
    } catch (e) {
      first ??= e;
    }
  }
  return { problem: `The start state in ${where} cannot be read as JSON (${first.message}).` };
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
  const found = host.hasAttribute("state") ? [attr("state"), "its state attribute"]
    : template ? [template.content.textContent.trim() || template.textContent, "its <template>"]
    : script ? [script.textContent, "its <script type=\"application/json\">"] : null;
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
    label: attr("label") || "Table playground",
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
  if (c.problem) items.push(el("div", { class: "card failure", role: "alert", part: "failure" }, el("p", {}, el("strong", {}, "This playground will not start: "), c.problem), el("p", {}, el("strong", {}, "Fix: "), STATE_FIX)));
  const tables = c.inline?.account?.tables;
  if (c.lessonDoc !== null) {
    // The code is not read before the engine starts: the size is all it says.
    items.push(el("p", {}, "Shows ", c.stepped ? (c.step ? `step ${c.step} of ` : `steps ${c.steps} of `) : "",
      `a lesson written in the browser (a code of ${c.lessonDoc.length.toLocaleString("en-US")} characters), run in this playground's own account.`));
  } else if (c.lesson && c.stepped) {
    items.push(el("p", {}, "Shows ", c.step ? `step ${c.step}` : `steps ${c.steps}`, " of the lesson ", el("code", {}, c.lesson), ", run in this playground's own account."));
  } else if (c.lesson) {
    items.push(el("p", {}, "Starts the lesson ", el("code", {}, c.lesson), ": each step runs in this playground's own account."));
  } else if (Array.isArray(tables)) {
    items.push(el("p", {}, "Starts with these tables:"),
      el("ul", {}, tables.map((t) => el("li", {}, el("code", {}, String(t?.name)), ` (${t?.entities?.length ?? 0} entities)`))));
  } else if (c.src) {
    items.push(el("p", {}, "Starts from the account at ", el("code", {}, c.src), "."));
  } else if (c.example) {
    items.push(el("p", {}, "Starts with the example ", el("code", {}, c.example), "."));
  } else {
    items.push(el("p", {}, "Starts with an empty account."));
  }
  if (c.inline?.entity) items.push(el("p", {}, "In the editor:"), el("pre", {}, JSON.stringify(c.inline.entity, null, 2)));
  if (c.inline?.filter) items.push(el("p", {}, "$filter: ", el("code", {}, c.inline.filter)));
  if (c.view.length) items.push(el("p", { class: "hint" }, `Shows: ${c.view.join(", ")}${c.readonly ? " · read-only" : ""}.`));
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
    Object.assign(new Error(`${url.href} could not load (${error?.message ?? error}).`), {
      fix: "Check that the address opens and that its server sends Access-Control-Allow-Origin: * with the playground's files (docs/embedding.md).",
    }));
}

class TablePlayground extends HTMLElement {
  #ui = null;
  #app = null;
  #state = "idle"; // idle → starting → ready
  #observer = null;
  #settle = null;
  #scheme = null;

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
    const c = config(this);
    const run = el("button", { type: "button", class: "run", part: "run", "aria-label": `Run ${c.label}` }, "Run");
    const status = el("p", { class: "status", role: "status", "aria-live": "polite", part: "status" }, "A static preview: press Run to try it live.");
    const body = el("div", { class: "body preview", part: "body" }, preview(c));
    const toolbar = el("div", { class: "toolbar", part: "toolbar" }, el("p", { class: "title" }, c.label), el("span", { class: "spacer" }), run);
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
    ui.status.textContent = "The playground could not start.";
    ui.body.classList.remove("preview");
    replace(ui.body, el("div", { class: "card failure", role: "alert", part: "failure" },
      el("p", {}, el("strong", {}, "The playground could not start. "), err?.message ?? String(err)),
      err?.fix ? el("p", {}, el("strong", {}, "Fix: "), err.fix) : null));
  }

  // start loads the engine (once per page) and builds the live playground.
  async start() {
    if (this.#state !== "idle" || !this.#ui) return this.ready;
    this.#state = "starting";
    this.#observer?.disconnect();
    const ui = this.#ui;
    ui.run.disabled = true;
    ui.status.textContent = "Loading the engine…";
    try {
      // The engine module starts the wasm download as it loads; the parts
      // (web/embed-app.js and what it imports) then load while it streams.
      // A module that cannot load is explained (web/loadfail.js), as is an
      // engine that cannot start (tableplay.ready rejects with the cause).
      // A start state that cannot be read stops here, loudly: an empty
      // account in its place would look like a working example.
      if (ui.c.problem) throw Object.assign(new Error(ui.c.problem), { fix: STATE_FIX });
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

// The embeds' language is chosen, and its catalogue in, before any embed
// renders (web/i18n.js embedLang); the host page's own <html lang> is left
// as its author set it.
if (!customElements.get("table-playground")) {
  await load(embedLang(document), { root: null });
  customElements.define("table-playground", TablePlayground);
}
