// web/query.js is responsible for queries: $filter explained as you type
// (its canonical form, or the error with its position marked), $select and
// $top, results with typed cells, and next pages through the continuation
// tokens the engine returns. One engine run answers a page and its cost
// (examined and returned entities); the first rows show at once and the
// rest follow in chunks, so a 1,000-row page never blocks the page.
//
// mountQuery(root, session, {filter}) renders into root, with an optional
// starting $filter. It emits "exchange" and listens for "table-selected".
// Each finished page bumps root's data-query-pages (tests and make measure
// wait on it; data-query-rows says how many rows are in the table).
import { el, replace, debounce, number, mount } from "./dom.js";
import { card } from "./cards.js";
import { send, header } from "./exchange.js";
import { explanationView, tokenView, createHistory, filterPlaceholder } from "./querylab.js";

const FIRST = 50; // rows laid out before the page answers
const CHUNK = 250; // rows per later slice

const HTML = `
<h2 id="query-heading">Query <span id="query-table" class="hint"></span></h2>
<form id="query-form" class="stack" novalidate>
  <label for="filter">$filter</label>
  <input id="filter" autocomplete="off" spellcheck="false" aria-describedby="filter-explain" placeholder="PartitionKey eq 'p1' and RowKey ge 'a'">
  <div id="filter-explain" class="explain" aria-live="polite"></div>
  <div class="row wrap">
    <label for="select">$select</label>
    <input id="select" autocomplete="off" spellcheck="false" placeholder="Name,Age">
    <label for="top">$top</label>
    <input id="top" type="number" min="1" max="1000" inputmode="numeric" placeholder="1000">
    <button type="submit">Run query</button>
    <button id="next-page" type="button" class="secondary" disabled>Next page</button>
  </div>
</form>
<div id="query-summary" class="query-summary" aria-live="polite"></div>
<div id="query-results" class="results"></div>
<h3 id="history-heading">Runs</h3>
<ol id="query-history" class="history" aria-labelledby="history-heading"></ol>`;

export function mountQuery(root, session, { filter = "" } = {}) {
  const $ = mount(root, HTML);
  let next = null; // continuation of the last page
  let rendering = 0; // bumped per page, so a stale slice stops

  function explain() {
    const text = $("filter").value;
    const box = $("filter-explain");
    if (text.trim() === "") {
      $("filter").removeAttribute("aria-invalid");
      replace(box, el("p", { class: "hint" }, "No filter: every entity of the table is examined."));
      return;
    }
    const x = session.engine.explainFilter(text, session.table ?? "");
    $("filter").setAttribute("aria-invalid", String(!x.valid));
    replace(box, explanationView(x, text));
  }

  // placeholder suggests a filter made of the selected table's own data.
  function placeholder() {
    let row = null;
    if (session.table) {
      const x = send(session, { kind: "query", table: session.table, top: 1, level: "nometadata" });
      if (x.response?.status === 200) row = session.engine.readEntities(x.response.body)[0] ?? null;
    }
    $("filter").placeholder = filterPlaceholder(session.engine, row);
    $("select").placeholder = row ? row.draft.properties.map((p) => p.name).slice(0, 3).join(",") || "Name,Age" : "Name,Age";
  }

  function rowElement(r, columns, hasKeys) {
    const tr = document.createElement("tr");
    if (hasKeys) tr.append(el("td", {}, r.draft.PartitionKey ?? ""), el("td", {}, r.draft.RowKey ?? ""));
    const byName = new Map(r.draft.properties.map((p) => [p.name, p]));
    for (const c of columns) {
      const p = byName.get(c);
      tr.append(p ? el("td", {}, p.text, el("span", { class: "type" }, p.type)) : el("td"));
    }
    return tr;
  }

  // resultsTable lays out the first rows now and the rest in slices; done
  // is called once every row is in.
  function resultsTable(rows, done) {
    const columns = [...new Set(rows.flatMap((r) => r.draft.properties.map((p) => p.name)))];
    const hasKeys = rows.some((r) => r.draft.PartitionKey !== undefined);
    const tbody = el("tbody");
    const table = el("table", {},
      el("caption", { class: "visually-hidden" }, "Query results"),
      el("thead", {}, el("tr", {},
        hasKeys ? [el("th", { scope: "col" }, "PartitionKey"), el("th", { scope: "col" }, "RowKey")] : null,
        columns.map((c) => el("th", { scope: "col" }, c)))),
      tbody);
    const run = ++rendering;
    const slice = (from, to) => {
      const part = document.createDocumentFragment();
      for (let i = from; i < Math.min(to, rows.length); i++) part.append(rowElement(rows[i], columns, hasKeys));
      tbody.append(part);
    };
    slice(0, FIRST);
    let at = FIRST;
    const more = () => {
      if (run !== rendering) return;
      if (at >= rows.length) return done();
      slice(at, at + CHUNK);
      at += CHUNK;
      setTimeout(more, 0);
    };
    // The first rows paint before the rest are laid out.
    requestAnimationFrame(() => setTimeout(more, 0));
    return table;
  }

  function finished(rows) {
    root.dataset.queryRows = String(rows);
    root.dataset.queryPages = String(Number(root.dataset.queryPages ?? 0) + 1);
  }

  function run(continuation) {
    const table = session.table;
    if (!table) {
      replace($("query-summary"), "Select a table first.");
      return;
    }
    const op = { kind: "query", table, level: session.level };
    if ($("filter").value.trim()) op.filter = $("filter").value;
    if ($("select").value.trim()) op.select = $("select").value;
    if ($("top").value) op.top = Number($("top").value);
    if (continuation) Object.assign(op, continuation);
    const x = send(session, op);
    session.emit("exchange", x);
    rendering++;
    if (x.error || x.response.status !== 200) {
      replace($("query-summary"), x.error ?? `The query failed: ${x.response.status} ${x.response.statusText}`);
      replace($("query-results"));
      next = null;
      $("next-page").disabled = true;
      finished(0);
      return;
    }
    const rows = session.engine.readEntities(x.response.body);
    const npk = header(x.response, "x-ms-continuation-NextPartitionKey");
    const nrk = header(x.response, "x-ms-continuation-NextRowKey");
    next = npk ? { nextPartitionKey: npk, nextRowKey: nrk ?? "" } : null;
    $("next-page").disabled = !next;
    const more = next ? session.engine.decodeContinuation(next) : null;
    replace($("query-summary"),
      el("p", { class: "figures" }, el("strong", {}, `${number(rows.length)} returned`), x.stats ? ` of ${number(x.stats.scanned)} examined` : "", next ? " · more pages" : " · no more pages"),
      more ? tokenView(more) : null);
    if (x.stats) {
      const explained = op.filter ? session.engine.explainFilter(op.filter, table) : null;
      history.add({ filter: op.filter ?? "", scanned: x.stats.scanned, returned: rows.length, more: Boolean(next), statement: explained?.keyRange?.statement ?? "Scans the whole table." });
    }
    if (rows.length === 0) {
      replace($("query-results"), el("p", { class: "hint" }, "No entity matches."));
      finished(0);
      return;
    }
    replace($("query-results"), el("div", { class: "scroll-x", tabindex: 0, role: "region", "aria-label": "Query results, scrolls sideways" }, resultsTable(rows, () => finished(rows.length))));
  }

  const history = createHistory($("query-history"));
  $("filter").value = filter;
  $("filter").addEventListener("input", debounce(explain, 120));
  $("query-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run(null);
  });
  $("next-page").addEventListener("click", () => next && run(next));
  session.on("table-selected", ({ table }) => {
    $("query-table").textContent = table ? `in ${table}` : "";
    next = null;
    $("next-page").disabled = true;
    explain();
    placeholder();
  });
  session.on("entities-changed", placeholder);
  explain();
}
