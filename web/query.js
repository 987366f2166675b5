// web/query.js is responsible for queries: $filter explained as you type
// (its canonical form, or the error with its position marked), $select and
// $top, results with typed cells, and next pages through the continuation
// tokens the engine returns. One engine run answers a page and its cost
// (examined and returned entities); the first rows show at once and the
// rest follow at the next task, laid out only as they scroll into view, so
// a 1,000-row page never blocks the page.
//
// mountQuery(root, session, {filter}) renders into root, with an optional
// starting $filter. It emits "exchange" and listens for "table-selected".
// Each finished page bumps root's data-query-pages (tests and make measure
// wait on it; data-query-rows says how many rows are in the table).
import { el, replace, debounce, number, mount } from "./dom.js";
import { card } from "./cards.js";
import { send, header } from "./exchange.js";
import { explanationView, tokenView, createHistory, filterPlaceholder } from "./querylab.js";
import { queryPictureView, costView } from "./querypicture.js";
import { t, onChange } from "./i18n.js";
import { live } from "./dom.js";

const GROUP = 50; // rows per group; the first group is laid out at once

const HTML = `
<h2 id="query-heading"><span data-i18n="query.heading">Query</span> <span id="query-table" class="hint"></span></h2>
<form id="query-form" class="stack" novalidate>
  <label for="filter">$filter</label>
  <input id="filter" autocomplete="off" spellcheck="false" aria-describedby="filter-explain" placeholder="PartitionKey eq 'p1' and RowKey ge 'a'">
  <div id="filter-explain" class="explain"></div>
  <div class="row wrap">
    <label for="select">$select</label>
    <input id="select" autocomplete="off" spellcheck="false" placeholder="Name,Age">
    <label for="top">$top</label>
    <input id="top" type="number" min="1" max="1000" inputmode="numeric" placeholder="1000">
    <button type="submit" data-i18n="query.run">Run query</button>
    <button id="next-page" type="button" class="secondary" disabled data-i18n="query.next">Next page</button>
  </div>
</form>
<div id="query-summary" class="query-summary" aria-live="polite"></div>
<div id="query-exchange" class="query-exchange"></div>
<div id="query-picture"></div>
<div id="query-results" class="results"></div>
<h3 id="history-heading" data-i18n="query.runs">Runs</h3>
<ol id="query-history" class="history" aria-labelledby="history-heading"></ol>`;

export function mountQuery(root, session, { filter = "" } = {}) {
  const $ = mount(root, HTML, session.signal);
  let next = null; // continuation of the last page
  // The run the pages belong to: a next page is another page of it, drawn on
  // the same strip, counted in the same cost and history entry.
  let current = null;
  let picture = null; // draws the last page's picture once its rows are in
  let rendering = 0; // bumped per page, so a stale slice stops
  let answered = null; // the table the answers on screen belong to

  function explain() {
    const text = $("filter").value;
    const box = $("filter-explain");
    if (text.trim() === "") {
      $("filter").removeAttribute("aria-invalid");
      replace(box, el("p", { class: "hint" }, t("query.noFilter")));
      return;
    }
    const x = session.engine.explainFilter(text, session.table ?? "");
    $("filter").setAttribute("aria-invalid", String(!x.valid));
    replace(box, explanationView(x, text));
  }

  // placeholder suggests a filter made of the selected table's own data.
  async function placeholder() {
    let row = null;
    const table = session.table;
    if (table) {
      const x = await send(session, { kind: "query", table, top: 1, level: "nometadata" });
      if (table !== session.table) return; // another table's turn now
      if (x.response?.status === 200) row = session.engine.readEntities(x.response.body)[0] ?? null;
    }
    $("filter").placeholder = filterPlaceholder(session.engine, row);
    $("select").placeholder = row ? row.draft.properties.map((p) => p.name).slice(0, 3).join(",") || "Name,Age" : "Name,Age";
  }

  function rowElement(r, i, columns, hasKeys) {
    const row = el("div", { role: "row", "aria-rowindex": i + 2 });
    if (hasKeys) row.append(el("div", { role: "cell" }, r.draft.PartitionKey ?? ""), el("div", { role: "cell" }, r.draft.RowKey ?? ""));
    const byName = new Map(r.draft.properties.map((p) => [p.name, p]));
    for (const c of columns) {
      const p = byName.get(c);
      row.append(p ? el("div", { role: "cell" }, p.text, el("span", { class: "type" }, p.type)) : el("div", { role: "cell" }));
    }
    return row;
  }

  // resultsTable lays the rows out as an ARIA table on one CSS grid: each
  // column as wide as its longest value (within bounds), so every row lines
  // up without the browser measuring all rows together, as a <table> does.
  // The rows come in groups whose layout and paint the browser skips while
  // they are off screen (content-visibility), yet every row stays in the
  // document for find-in-page and screen readers. The first group is laid
  // out now; the rest are added after the first paint, and done is called
  // once every row is in.
  function resultsTable(rows, done) {
    const columns = [...new Set(rows.flatMap((r) => r.draft.properties.map((p) => p.name)))];
    const hasKeys = rows.some((r) => r.draft.PartitionKey !== undefined);
    const names = hasKeys ? ["PartitionKey", "RowKey", ...columns] : columns;
    const widths = names.map((n) => n.length + 2); // headers are bold
    const at = new Map(names.map((n, i) => [n, i]));
    for (const r of rows) {
      if (hasKeys) {
        widths[0] = Math.max(widths[0], (r.draft.PartitionKey ?? "").length);
        widths[1] = Math.max(widths[1], (r.draft.RowKey ?? "").length);
      }
      for (const p of r.draft.properties) {
        const i = at.get(p.name);
        widths[i] = Math.max(widths[i], p.text.length, p.type.length);
      }
    }
    const table = el("div", { role: "table", class: "grid-table", "aria-label": t("query.results"), "data-i18n-attr": "aria-label:query.results", "aria-rowcount": rows.length + 1, "aria-colcount": names.length },
      el("div", { role: "rowgroup" }, el("div", { role: "row", "aria-rowindex": 1 }, names.map((n) => el("div", { role: "columnheader" }, n)))));
    // Each column at least as wide as its longest value, up to 40
    // characters (longer ones wrap), sharing any room left; the table never
    // narrower than that, so a phone scrolls it sideways.
    const least = widths.map((w) => `calc(${Math.min(Math.max(w, 4), 40) + 1}ch + 0.8 * var(--rem))`);
    table.style.setProperty("--columns", least.map((w) => `minmax(${w}, 1fr)`).join(" "));
    table.style.setProperty("--least", `calc(${least.join(" + ")})`);
    const run = ++rendering;
    const group = (from) => {
      const g = el("div", { role: "rowgroup", class: "rows" });
      for (let i = from; i < Math.min(from + GROUP, rows.length); i++) g.append(rowElement(rows[i], i, columns, hasKeys));
      table.append(g);
    };
    group(0);
    // The first rows paint before the rest are built.
    requestAnimationFrame(() => setTimeout(() => {
      if (run !== rendering) return;
      performance.mark("tableplay:query-first-rows");
      for (let from = GROUP; from < rows.length; from += GROUP) group(from);
      done();
    }, 0));
    return table;
  }

  // finished marks the end of a page for tests and make measure, which
  // read the performance marks tableplay:query (run), tableplay:query-first-rows
  // (painted) and tableplay:query-complete (every row in), the last run's only.
  function finished(rows) {
    performance.mark("tableplay:query-complete");
    // The picture asks the engine to place the page in the key order (a few
    // scans of counting): after the rows, so they paint first.
    picture?.();
    picture = null;
    root.dataset.queryRows = String(rows);
    root.dataset.queryPages = String(Number(root.dataset.queryPages ?? 0) + 1);
  }

  // exchangeView is the query's own exchange, beside the query: the request
  // line with its query string decoded, the status, and a way to the whole
  // exchange in the wire view.
  function exchangeView(x) {
    const r = x.request;
    let target = r.url;
    try {
      const u = new URL(r.url);
      target = decodeURIComponent(u.pathname + u.search.replaceAll("+", " "));
    } catch {
      // shown as sent
    }
    return el("div", { class: "query-exchange-box" },
      el("p", {}, el("code", { class: "request-line" }, `${r.method} ${target}`)),
      x.response ? el("p", {}, "→ ", el("code", { class: "status-line" }, `${x.response.status} ${x.response.statusText}`), x.code ? [" · ", el("code", {}, x.code)] : null,
        x.id ? [" ", el("button", { type: "button", class: "link", onclick: () => session.emit("reveal-exchange", { id: x.id }), "data-i18n": "query.seeExchange" }, t("query.seeExchange"))] : null) : null);
  }

  // asked numbers the queries sent: an answer that arrives after a newer
  // query or another table's selection is shown on the wire only (an
  // endpoint elsewhere may answer late).
  let asked = 0;
  async function run(continuation) {
    const mine = ++asked;
    const table = session.table;
    if (!table) {
      live($("query-summary"), () => t("query.noTable"), session.signal);
      return;
    }
    const op = { kind: "query", table, level: session.level };
    if ($("filter").value.trim()) op.filter = $("filter").value;
    if ($("select").value.trim()) op.select = $("select").value;
    if ($("top").value) op.top = Number($("top").value);
    if (!continuation || !current) current = { pages: [], requests: 0, sent: 0, received: 0, examined: 0, returned: 0, entry: null, statement: null };
    if (continuation) Object.assign(op, continuation);
    for (const name of ["tableplay:query", "tableplay:query-first-rows", "tableplay:query-complete"]) performance.clearMarks(name);
    performance.mark("tableplay:query");
    const x = await send(session, op);
    session.emit("exchange", x);
    if (mine !== asked) return;
    replace($("query-exchange"), x.request && !x.request.error ? exchangeView(x) : null);
    rendering++;
    if (x.error || x.response.status !== 200) {
      live($("query-summary"), () => x.error ?? t("query.failed", { status: `${x.response.status} ${x.response.statusText}` }), session.signal);
      replace($("query-results"));
      replace($("query-picture"));
      next = null;
      current = null;
      picture = null;
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
    live($("query-summary"), () => [
      el("p", { class: "figures" }, el("strong", {}, t("query.returned", { n: number(rows.length) })), x.stats ? t("query.ofExamined", { n: number(x.stats.scanned) }) : "", next ? t("query.morePages") : t("query.noMorePages")),
      more ? tokenView(more) : null], session.signal);
    const cost = current;
    cost.requests++;
    cost.sent += x.bytes?.request ?? 0;
    cost.received += x.bytes?.response ?? 0;
    cost.examined += x.stats?.scanned ?? 0;
    cost.returned += rows.length;
    const pictured = () => [costView(cost), cost.pages.length ? queryPictureView(cost.pages, cost.statement) : null];
    live($("query-picture"), pictured, session.signal);
    cost.statement ??= (op.filter ? session.engine.explainFilter(op.filter, table) : null)?.keyRange?.statement ?? t("query.wholeTable");
    const examined = x.stats?.scanned ?? 0;
    picture = () => {
      const placed = session.engine.queryPicture(op);
      if (placed.error || cost !== current) return;
      // The page examined what run's stats say, from where the engine
      // places its start; it ended where its continuation starts.
      cost.pages.push({ ...placed, examined, returned: rows.length, pageTo: placed.pageFrom + examined, next: more });
      live($("query-picture"), pictured, session.signal);
    };
    if (x.stats) {
      const figures = { scanned: cost.examined, returned: cost.returned, pages: cost.requests, more: Boolean(next) };
      if (continuation && current.entry) current.entry.update(figures);
      else current.entry = history.add({ filter: op.filter ?? "", ...figures, statement: cost.statement });
    }
    if (rows.length === 0) {
      live($("query-results"), () => el("p", { class: "hint" }, t("query.noMatch")), session.signal);
      finished(0);
      return;
    }
    replace($("query-results"), el("div", { class: "scroll-x", tabindex: 0, role: "region", "aria-label": t("query.resultsRegion"), "data-i18n-attr": "aria-label:query.resultsRegion" }, resultsTable(rows, () => finished(rows.length))));
  }

  const history = createHistory($("query-history"), 10, session.signal);
  $("filter").value = filter;
  $("filter").addEventListener("input", debounce(explain, 120));
  $("query-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run(null);
  });
  $("next-page").addEventListener("click", () => next && run(next));
  const tableLine = () => ($("query-table").textContent = answered ? t("query.inTable", { table: answered }) : "");
  onChange(() => {
    tableLine();
    explain();
  }, session.signal);
  session.on("table-selected", ({ table }) => {
    asked++;
    $("query-table").textContent = table ? t("query.inTable", { table }) : "";
    // Another table's answer must not stand under this table's heading.
    if (table !== answered) for (const id of ["query-summary", "query-exchange", "query-picture", "query-results"]) replace($(id));
    answered = table;
    next = null;
    current = null;
    $("next-page").disabled = true;
    explain();
    placeholder();
  });
  session.on("entities-changed", placeholder);
  explain();
}
