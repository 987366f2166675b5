// web/embed-frame.js is responsible for the iframe form of the embed
// (embed.html): it reads the element's attributes from the URL fragment
// (#example=sample&view=editor,wire&readonly, or state=<share code> for an
// inline start state), shows one <table-playground>, and posts its height to
// the parent page ({type: "tableplay:height", height}) whenever it changes,
// so the host page can size the iframe.
import { languageReady } from "./embed.js";
import { lang, t, localize } from "./i18n.js";
import { decode } from "./sharelink.js";

// Every attribute the element takes (docs/embedding.md), readonly aside.
const ATTRIBUTES = ["example", "lesson", "lesson-doc", "step", "steps", "src", "view", "level", "theme", "height", "label", "start", "playground", "code-endpoint", "code-account"];

async function build() {
  // The element is drawn in its language from the start, so the first
  // height posted is its own; the frame's document names that language.
  await languageReady;
  document.documentElement.lang = lang();
  // The frame's title (embed.html, data-i18n) in that language too.
  localize(document.head);
  const params = new URLSearchParams(location.hash.slice(1));
  const playground = document.createElement("table-playground");
  for (const name of ATTRIBUTES) if (params.has(name)) playground.setAttribute(name, params.get(name));
  if (params.has("readonly")) playground.setAttribute("readonly", "");
  if (params.has("state")) {
    const inline = document.createElement("script");
    inline.type = "application/json";
    try {
      inline.textContent = await decode(params.get("state"));
    } catch (e) {
      // The element shows the sample and says why the state was not used.
      playground.setAttribute("label", t("embed.frame.stateUnused", { why: e instanceof RangeError ? e.message : t("embed.frame.unreadable") }));
    }
    playground.append(inline);
  }
  playground.style.setProperty("--tp-margin", "0");
  document.body.style.margin = "0";
  document.body.append(playground);
  // The element's stylesheets (links in its shadow root) reserve its
  // space; a height posted before they apply is the unstyled content's,
  // and the iframe would jump from it to the real one. The iframe keeps
  // its height attribute until then.
  const sheets = [...(playground.shadowRoot?.querySelectorAll("link[rel=stylesheet]") ?? [])];
  await Promise.all(sheets.map((l) => l.sheet ? null : new Promise((done) => {
    l.addEventListener("load", done, { once: true });
    l.addEventListener("error", done, { once: true });
  })));
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last || window.parent === window) return;
    last = height;
    window.parent.postMessage({ type: "tableplay:height", height }, "*");
  };
  new ResizeObserver(post).observe(document.documentElement);
  post();
}

build();
