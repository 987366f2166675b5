// web/query.js is responsible for queries: $filter explained as you type
// (its canonical form, or the error with its position marked), $select and
// $top, results with typed cells, and next pages through the continuation
// tokens the engine returns.
import { el, replace, debounce, number } from "./dom.js";
import { card } from "./cards.js";
import { send, header } from "./exchange.js";
import { state, emit, on } from "./state.js";

const $ = (id) => document.getElementById(id);
let next = null; // continuation of the last page

function explain() {
  const text = $("filter").value;
  const box = $("filter-explain");
  if (text.trim() === "") {
    $("filter").removeAttribute("aria-invalid");
    replace(box, el("p", { class: "hint" }, "No filter: every entity of the table."));
    return;
  }
  const x = tableplay.explainFilter(text);
  $("filter").setAttribute("aria-invalid", String(!x.valid));
  if (x.valid) {
    const range = x.keyRange?.PartitionKey
      ? `Scans PartitionKey ${x.keyRange.PartitionKey.from ?? "…"} to ${x.keyRange.PartitionKey.to ?? "…"}` + (x.keyRange.RowKey ? `, RowKey ${x.keyRange.RowKey.from ?? "…"} to ${x.keyRange.RowKey.to ?? "…"}` : "")
      : "Scans the whole table.";
    replace(box, el("p", {}, "Canonical form: ", el("code", { class: "canonical" }, x.canonical)), el("p", { class: "hint" }, x.keyRange?.empty ? "No key can match: nothing is scanned." : range));
    return;
  }
  const parts = [];
  if (x.position >= 0) {
    // Mark the character just before the position the message names.
    const units = [...text];
    let at = 0;
    let index = units.length;
    for (let i = 0; i < units.length; i++) {
      at += units[i].length;
      if (at >= x.position) {
        index = i;
        break;
      }
    }
    parts.push(el("pre", { class: "marked", "aria-label": `Error at position ${x.position}` },
      units.slice(0, index).join(""), el("mark", {}, units[index] ?? " "), units.slice(index + 1).join("")));
  }
  replace(box, parts, card(x.error));
}

function resultsTable(rows, sel) {
  const columns = [];
  for (const r of rows) for (const p of r.draft.properties) if (!columns.includes(p.name)) columns.push(p.name);
  const hasKeys = rows.some((r) => r.draft.PartitionKey !== undefined);
  return el("table", {},
    el("caption", { class: "visually-hidden" }, "Query results"),
    el("thead", {}, el("tr", {},
      hasKeys ? [el("th", { scope: "col" }, "PartitionKey"), el("th", { scope: "col" }, "RowKey")] : null,
      columns.map((c) => el("th", { scope: "col" }, c)))),
    el("tbody", {}, rows.map((r) => el("tr", {},
      hasKeys ? [el("td", {}, r.draft.PartitionKey ?? ""), el("td", {}, r.draft.RowKey ?? "")] : null,
      columns.map((c) => {
        const p = r.draft.properties.find((q) => q.name === c);
        return el("td", {}, p ? [p.text, el("span", { class: "type" }, p.type)] : "");
      })))));
}

async function run(continuation) {
  const table = state.table;
  if (!table) {
    $("query-summary").textContent = "Select a table first.";
    return;
  }
  const op = { kind: "query", table, level: state.level };
  if ($("filter").value.trim()) op.filter = $("filter").value;
  if ($("select").value.trim()) op.select = $("select").value;
  if ($("top").value) op.top = Number($("top").value);
  if (continuation) Object.assign(op, continuation);
  const x = await send(op);
  emit("exchange", x);
  if (x.error || x.response.status !== 200) {
    $("query-summary").textContent = x.error ?? `The query failed: ${x.response.status} ${x.response.statusText}`;
    replace($("query-results"));
    next = null;
    $("next-page").disabled = true;
    return;
  }
  const rows = tableplay.readEntities(x.response.body);
  const stats = tableplay.queryStats(op);
  const npk = header(x.response, "x-ms-continuation-NextPartitionKey");
  const nrk = header(x.response, "x-ms-continuation-NextRowKey");
  next = npk ? { nextPartitionKey: npk, nextRowKey: nrk ?? "" } : null;
  $("next-page").disabled = !next;
  $("query-summary").textContent =
    `${number(rows.length)} returned` +
    (stats.error ? "" : `, ${number(stats.scanned)} examined`) +
    (next ? ` · more: NextPartitionKey ${npk}, NextRowKey ${nrk}` : " · no more pages");
  replace($("query-results"), rows.length ? resultsTable(rows) : el("p", { class: "hint" }, "No entity matches."));
  document.body.dataset.queryPages = String(Number(document.body.dataset.queryPages ?? 0) + 1);
}

export function initQuery() {
  $("filter").addEventListener("input", debounce(explain, 120));
  $("query-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run(null);
  });
  $("next-page").addEventListener("click", () => next && run(next));
  on("table-selected", ({ table }) => {
    $("query-table").textContent = table ? `in ${table}` : "";
    next = null;
    $("next-page").disabled = true;
  });
  explain();
}
