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

// config reads an element's attributes and its inline start state (a child
// <script type="application/json">, read as data, never run).
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
  const script = host.querySelector(':scope > script[type="application/json"]');
  if (script) {
    try {
      inline = JSON.parse(script.textContent);
      if (inline?.format) inline = { account: inline }; // a bare account document
    } catch (e) {
      problem = `The inline start state is not JSON: ${e.message}`;
    }
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
  if (c.problem) items.push(el("p", { class: "card" }, c.problem));
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
    const frame = el("div", { class: "frame", part: "frame", role: "region", "aria-label": c.label }, toolbar, status, body);
    // The whole embed is bounded (the body scrolls inside): by its height
    // attribute, else by DEFAULT_HEIGHT.
    frame.style.maxHeight = !c.height ? DEFAULT_HEIGHT : /^\d+$/.test(c.height) ? c.height + "px" : c.height;
    replace(this.shadowRoot,
      el("link", { rel: "stylesheet", href: new URL("parts.css", here).href }),
      el("link", { rel: "stylesheet", href: new URL("embed.css", here).href }),
      c.lesson || c.lessonDoc !== null ? el("link", { rel: "stylesheet", href: new URL("lessons/lessons.css", here).href }) : null,
      frame);
    this.#ui = { c, run, status, body, toolbar, frame };
    run.addEventListener("click", () => this.start());
    if (!c.onClick) {
      this.#observer = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) this.start();
      }, { rootMargin: "200px" });
      this.#observer.observe(this);
    }
  }

  disconnectedCallback() {
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
