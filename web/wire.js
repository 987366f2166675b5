// web/wire.js is responsible for the wire view: each action's request (as the
// Go SDK sends it) and the engine's answer, with copy buttons, and one entity
// at all three metadata levels side by side.
import { el, replace } from "./dom.js";
import { indent } from "./jsontext.js";
import { errorCodesURL } from "./cards.js";
import { send } from "./exchange.js";
import { state, on } from "./state.js";
import { mountCodeView } from "./code-view.js";

const MAX = 8;

function copyButton(label, text) {
  return el("button", {
    type: "button", class: "copy", "aria-label": label,
    onclick: async (e) => {
      try {
        await navigator.clipboard.writeText(text);
        e.target.textContent = "Copied";
      } catch {
        e.target.textContent = "Copy failed";
      }
    },
  }, "Copy");
}

function requestText(r) {
  const head = [`${r.method} ${r.url} HTTP/1.1`, ...r.headers.map(([k, v]) => `${k}: ${v}`)].join("\n");
  return r.body ? `${head}\n\n${r.body}` : head;
}

function responseText(r) {
  const head = [`HTTP/1.1 ${r.status} ${r.statusText}`, ...r.headers.map(([k, v]) => `${k}: ${v}`)].join("\n");
  return r.body ? `${head}\n\n${r.body}` : head;
}

function exchangeView(x) {
  const title = `${x.operation.kind}${x.operation.table ? " · " + x.operation.table : ""}`;
  if (x.error) return el("article", { class: "exchange" }, el("h3", {}, title), el("p", { class: "card" }, x.error));
  const req = x.request;
  const res = x.response;
  const code = (res.body.match(/"code":"(\w+)"/) || [])[1];
  const article = el("article", { class: "exchange", "aria-label": `${title}: ${res.status}` },
    el("h3", {}, title),
    el("div", { class: "part-head" }, el("h4", {}, "Request"), copyButton(`Copy the ${title} request`, requestText(req))),
    el("pre", { tabindex: 0, class: "request" },
      `${req.method} ${req.url} HTTP/1.1\n`,
      req.headers.map(([k, v]) => `${k}: ${v}\n`).join(""),
      req.body ? "\n" + indent(req.body) : ""),
    el("div", { class: "part-head" }, el("h4", {}, "Response"), copyButton(`Copy the ${title} response`, responseText(res))),
    el("p", { class: `status-line ${res.status >= 400 ? "bad" : "good"}` }, `HTTP/1.1 ${res.status} ${res.statusText}`,
      code ? [" · ", el("a", { href: errorCodesURL, target: "_blank", rel: "noopener" }, code)] : null),
    el("pre", { tabindex: 0, class: "response" },
      res.headers.map(([k, v]) => `${k}: ${v}\n`).join(""),
      res.body ? "\n" + indent(res.body) : ""),
  );
  mountCodeView(article, x.operation);
  return article;
}

function show(x) {
  const box = document.getElementById("exchanges");
  box.querySelector(":scope > p.hint")?.remove();
  box.prepend(exchangeView(x));
  while (box.children.length > MAX) box.lastElementChild.remove();
}

let loaded = null; // {table, draft} shown at the three levels

async function showLevels() {
  const box = document.getElementById("levels");
  if (!loaded) return;
  const cols = [];
  for (const level of ["nometadata", "minimalmetadata", "fullmetadata"]) {
    const x = await send({ kind: "get", table: loaded.table, entity: { ...loaded.draft, properties: [] }, level });
    const body = x.response?.status === 200 ? indent(x.response.body) : `HTTP ${x.response?.status}`;
    cols.push(el("div", { class: "level" }, el("h4", {}, level), el("pre", { tabindex: 0, "aria-label": `The entity at ${level}` }, body)));
  }
  replace(box, cols);
}

export function initWire() {
  on("exchange", show);
  for (const radio of document.querySelectorAll('input[name="level"]')) {
    radio.addEventListener("change", () => {
      if (radio.checked) state.level = radio.value;
    });
  }
  on("load-entity", ({ draft }) => {
    loaded = { table: state.table, draft };
    showLevels();
  });
  on("entity-written", ({ table, draft }) => {
    loaded = { table, draft };
    showLevels();
  });
}
