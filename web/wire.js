// web/wire.js is responsible for the wire view: each action's request (as the
// Go SDK sends it) and the engine's answer, with copy buttons and the Code
// view (web/code-view.js), and one entity at all three metadata levels side
// by side.
//
// mountWire(root, session, {exchanges, levels}) renders into root (either
// part can be left out). It listens for "exchange", "load-entity" and
// "entity-written", and sets session.level from its level choice.
import { el, replace, mount, live } from "./dom.js";
import { copyText } from "./files.js";
import { indent, readable } from "./jsontext.js";
import { errorCodesURL } from "./cards.js";
import { send } from "./exchange.js";
import { mountCodeView } from "./code-view.js";
import { compareView } from "./profilecompare.js";
import { t, textOf, attrOf, learnURL, nodes } from "./i18n.js";

const MAX = 8;
// Bodies longer than this show their start until the person asks for all:
// a 1,000-entity page is ~250 KB of text, too much to lay out at once.
const LONG = 16 * 1024;

const HTML = `
<h2 id="wire-heading" data-i18n="wire.heading">On the wire</h2>
<fieldset class="modes">
  <legend data-i18n="wire.level">Metadata level of reads</legend>
  <label><input type="radio" name="level" value="nometadata"> <span data-i18n="wire.none">None</span></label>
  <label><input type="radio" name="level" value="minimalmetadata" checked> <span data-i18n="wire.minimal">Minimal</span></label>
  <label><input type="radio" name="level" value="fullmetadata"> <span data-i18n="wire.full">Full</span></label>
</fieldset>
<div id="exchanges-part">
  <div id="exchanges" class="exchanges">
    <p class="hint" data-i18n="wire.empty">Every action shows here: the request the Go SDK sends and the engine's answer.</p>
  </div>
  <p id="wire-escapes" class="hint"></p>
</div>
<div id="levels-part">
  <h3 data-i18n="wire.levels">The entity at all three levels</h3>
  <div id="levels" class="levels"><p class="hint" data-i18n="wire.levelsEmpty">Load an entity to compare nometadata, minimalmetadata and fullmetadata.</p></div>
</div>`;

// copyButton copies text(); where the browser refuses, field() (the
// element that shows it) is selected instead.
function copyButton(labelId, title, text, field) {
  return el("button", {
    type: "button", class: "copy", ...attrOf("aria-label", labelId, { title }), "data-i18n": "code.copy",
    onclick: async (e) => {
      e.target.textContent = (await copyText(text(), field())) ? t("code.copied") : t("code.selected");
    },
  }, t("code.copy"));
}

// SPELLING is each header name as the Table service writes it: Go's HTTP
// code says X-Ms-Continuation-Nextpartitionkey and a browser's fetch says
// x-ms-continuation-nextpartitionkey for x-ms-continuation-NextPartitionKey.
// Names are case-insensitive; this is how they are shown.
const SPELLING = new Map([
  "Accept", "Access-Control-Allow-Headers", "Access-Control-Allow-Methods", "Access-Control-Allow-Origin",
  "Access-Control-Expose-Headers", "Access-Control-Max-Age", "Authorization", "Cache-Control", "Content-Encoding",
  "Content-ID", "Content-Length", "Content-Transfer-Encoding", "Content-Type", "DataServiceId", "DataServiceVersion",
  "Date", "ETag", "If-Match", "Location", "MaxDataServiceVersion", "Prefer", "Preference-Applied", "Server",
  "Transfer-Encoding", "Vary", "X-Content-Type-Options", "x-ms-client-request-id", "x-ms-continuation-NextPartitionKey",
  "x-ms-continuation-NextRowKey", "x-ms-continuation-NextTableName", "x-ms-date", "x-ms-error-code", "x-ms-request-id",
  "x-ms-version",
].map((name) => [name.toLowerCase(), name]));

// headerLine is one header as the service spells its name.
const headerLine = ([k, v]) => `${SPELLING.get(k.toLowerCase()) ?? k}: ${v}`;

function requestText(r) {
  const head = [`${r.method} ${r.url} HTTP/1.1`, ...r.headers.map(headerLine)].join("\n");
  return r.body ? `${head}\n\n${r.body}` : head;
}

function responseText(r) {
  const head = [`HTTP/1.1 ${r.status} ${r.statusText}`, ...r.headers.map(headerLine)].join("\n");
  return r.body ? `${head}\n\n${r.body}` : head;
}

// bodyText shows a body indented; a long one shows its start and a button
// that shows the rest.
function bodyText(pre, body) {
  if (body.length <= LONG) return ["\n" + indent(body)];
  const more = el("button", { type: "button", class: "secondary more", ...textOf("wire.wholeBody", { n: body.length }) });
  more.addEventListener("click", () => {
    more.remove();
    pre.lastChild.textContent = "\n" + indent(body);
  });
  return [more, document.createTextNode("\n" + indent(body.slice(0, LONG)) + "\n…")];
}

// compareControl offers "Compare with the engine" for an exchange with an
// endpoint elsewhere (session.compare, set by web/connect.js): the same
// operation sent again there and run by the engine in the tab.
function compareControl(session, x) {
  if (!x.remote || !session.compare || x.operation.kind === "batch" && !x.operation.operations?.length) return null;
  const from = el("select", { class: "compare-from", ...attrOf("aria-label", "wire.engineState") },
    el("option", { value: "endpoint", ...textOf("wire.onEndpointCopy") }),
    el("option", { value: "tab", ...textOf("wire.onTab") }));
  const box = el("div", { class: "compare-result" });
  const button = el("button", { type: "button", class: "secondary compare", ...textOf("wire.compareEngine") });
  button.addEventListener("click", async () => {
    button.disabled = true;
    replace(box, el("p", { class: "hint" }, t("wire.comparing")));
    try {
      const view = await session.compare(x.operation, from.value, x.remote);
      replace(box, view);
      // No data-same: not compared (the view says why).
      const same = view.dataset.same;
      session.setStatus(same === undefined ? () => t("wire.notCompared") : same === "true" ? () => t("wire.comparedSame") : () => t("wire.comparedDiffer"));
    } finally {
      button.disabled = false;
    }
  });
  const again = x.request?.changes ? el("p", { class: "hint", ...textOf("wire.again") }) : null;
  return el("div", { class: "compare-box" }, el("div", { class: "row wrap" }, button, from), again, box);
}

// profileCompareControl offers to replay an exchange under another profile
// (session.profileCompare, web/profilecompare.js) and shows both answers below it.
function profileCompareControl(x, compare, title) {
  const here = x.profile ?? compare.current().name;
  const id = `compare-with-${x.id}`;
  const select = el("select", { id },
    compare.profiles().filter((p) => p.name !== here).map((p) => el("option", { value: p.name }, p.title)));
  const result = el("div", { class: "compare-result" });
  const button = el("button", {
    type: "button", class: "secondary", ...attrOf("aria-label", "wire.compareLabel", { title }),
    onclick: async () => {
      button.disabled = true;
      try {
        result.replaceChildren(compareView(await compare.replay(x, select.value)));
      } finally {
        button.disabled = false;
      }
    },
  }, t("wire.compare"));
  button.dataset.i18n = "wire.compare";
  return el("div", { class: "compare-control" },
    el("div", { class: "row wrap" }, el("label", { for: id, ...textOf("wire.compareWith") }), select, button), result);
}

function exchangeView(x, engine, target, session) {
  const title = `${x.operation.kind}${x.operation.table ? " · " + x.operation.table : ""}`;
  // An error is either a request the engine would not build (never sent)
  // or one that got no answer.
  const sent = !x.error || (x.request && !x.request.error);
  const endpoint = { endpoint: x.remote?.endpoint };
  const where = x.remote ? el("p", { class: "hint where", ...textOf(!sent ? "wire.notSentTo" : x.error ? "wire.noAnswer" : "wire.sentTo", endpoint) }) : null;
  if (x.error) return el("article", { class: "exchange" }, el("h3", {}, title), where, el("p", { class: "card" }, x.error));
  const req = x.request;
  const request = [
    el("div", { class: "part-head" }, el("h4", textOf("wire.request")), copyButton("wire.copyRequest", title, () => requestText(req), () => request[1])),
    el("pre", { tabindex: 0, class: "request" },
      `${req.method} ${req.url} HTTP/1.1\n`,
      req.headers.map((h) => headerLine(h) + "\n").join(""),
      req.body ? "\n" + indent(req.body) : ""),
  ];
  if (x.notSent) {
    return el("article", { class: "exchange", ...attrOf("aria-label", "wire.notSentLabel", { title }) }, el("h3", {}, title), request,
      el("p", { class: "status-line not-sent", ...textOf("wire.readOnly") }));
  }
  const res = x.response;
  const code = (res.body.slice(0, 200).match(/"code":"(\w+)"/) || [])[1];
  const pre = el("pre", { tabindex: 0, class: "response" }, res.headers.map((h) => headerLine(h) + "\n").join(""));
  if (res.body) pre.append(...bodyText(pre, res.body));
  const article = el("article", { class: "exchange", "aria-label": `${title}: ${res.status}`, "data-remote": x.remote ? "true" : null },
    el("h3", {}, title),
    where,
    request,
    el("div", { class: "part-head" }, el("h4", textOf("wire.response")), copyButton("wire.copyResponse", title, () => responseText(res), () => pre)),
    el("p", { class: `status-line ${res.status >= 400 ? "bad" : "good"}` }, `HTTP/1.1 ${res.status} ${res.statusText}`,
      code ? [" · ", el("a", { href: learnURL(errorCodesURL), target: "_blank", rel: "noopener" }, code)] : null),
    pre,
  );
  if (!x.remote && session.profileCompare) article.append(profileCompareControl(x, session.profileCompare, title));
  mountCodeView(article, x.operation, engine, target);
  const compare = compareControl(session, x);
  if (compare) article.append(compare);
  return article;
}

export function mountWire(root, session, { exchanges = true, levels = true } = {}) {
  const $ = mount(root, HTML, session.signal);
  live($("wire-escapes"), () => nodes("wire.escapes", { escape: el("code", {}, "\\u") }), session.signal);
  $("exchanges-part").hidden = !exchanges;
  $("levels-part").hidden = !levels;
  let loaded = null; // {table, draft} shown at the three levels

  let shown = 0; // numbers the exchanges, so an answer can point to its own

  function show(x) {
    const box = $("exchanges");
    box.querySelector(":scope > p.hint")?.remove();
    x.id ??= ++shown;
    const view = exchangeView(x, session.engine, session.codeTarget, session);
    view.dataset.exchange = String(x.id);
    view.tabIndex = -1;
    box.prepend(view);
    while (box.children.length > MAX) box.lastElementChild.remove();
  }

  // reveal scrolls to an exchange and highlights it.
  function reveal({ id }) {
    const view = $("exchanges").querySelector(`[data-exchange="${Number(id)}"]`);
    if (!view) return;
    for (const old of root.querySelectorAll(".exchange.highlight")) old.classList.remove("highlight");
    view.classList.add("highlight");
    view.scrollIntoView({ block: "nearest", behavior: "smooth" });
    view.focus({ preventScroll: true });
  }

  // asked numbers the showings: an endpoint elsewhere may answer an older
  // one after a newer one, whose entity then stays shown.
  let asked = 0;
  async function showLevels() {
    if (!loaded || !levels) return;
    const mine = ++asked;
    const { table, draft } = loaded;
    const cols = [];
    for (const level of ["nometadata", "minimalmetadata", "fullmetadata"]) {
      const x = await send(session, { kind: "get", table, entity: { ...draft, properties: [] }, level });
      if (mine !== asked) return;
      const body = x.response?.status === 200 ? readable(x.response.body) : x.error ?? `HTTP ${x.response?.status}`;
      cols.push(el("div", { class: "level" }, el("h4", {}, level), el("pre", { tabindex: 0, ...attrOf("aria-label", "wire.entityAt", { level }) }, body)));
    }
    replace($("levels"), cols);
  }

  for (const radio of root.querySelectorAll('input[name="level"]')) {
    radio.checked = radio.value === session.level;
    radio.addEventListener("change", () => {
      if (radio.checked) session.level = radio.value;
    });
  }
  if (exchanges) {
    session.on("exchange", show);
    session.on("reveal-exchange", reveal);
  }
  session.on("load-entity", ({ draft }) => {
    loaded = { table: session.table, draft };
    showLevels();
  });
  session.on("entity-written", ({ table, draft }) => {
    loaded = { table, draft };
    showLevels();
  });
}
