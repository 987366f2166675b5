// web/entities.js is responsible for the entity list of the selected table:
// each entity with its values typed as the engine types them, and a button to
// load it into the editor.
//
// mountEntities(root, session, {csv}) renders into root, with the CSV
// buttons (web/csv.js) unless csv is false. It emits "load-entity" and
// listens for "table-selected" and "entities-changed".
import { el, replace, mount, number } from "./dom.js";
import { send, header } from "./exchange.js";
import { mountCSV } from "./csv.js";
import { count } from "./counts.js";
import { t, onChange } from "./i18n.js";

const HTML = `
<h3><span data-i18n="entities.heading">Entities</span> <span id="entities-table" class="hint"></span></h3>
<div id="csv-box" class="csv-box"></div>
<div id="entity-list" class="entity-list"></div>`;

export function mountEntities(root, session, { csv = true } = {}) {
  const $ = mount(root, HTML, session.signal);
  if (csv && !session.readonly) {
    mountCSV($("csv-box"), { table: () => session.table, changed: () => session.emit("entities-changed"), engine: session.engine });
  } else $("csv-box").remove();

  const PAGE = 50;
  let shown = PAGE; // grows by a page with "Show more"
  let latest = 0; // the newest refresh; an older one still reading stops

  async function refresh(more = false) {
    shown = more === true ? shown + PAGE : PAGE;
    const box = $("entity-list");
    const table = session.table;
    const mine = ++latest;
    $("entities-table").textContent = table ? t("entities.inTable", { table }) : "";
    // CSV is the engine's own account's (its reader writes to the store).
    const csvBox = root.querySelector("#csv-box");
    if (csvBox) csvBox.hidden = Boolean(session.engine.remote);
    if (!table) {
      replace(box, el("p", { class: "hint" }, t("entities.noTable")));
      return;
    }
    // The first pages, read through their continuation tokens as a client
    // pages, up to what is shown (bounded).
    let x;
    let rows = [];
    let next = {};
    let further = false; // the last page read named a next one
    for (let i = 0; i < 100 && rows.length < shown; i++) {
      x = await send(session, { kind: "query", table, top: Math.min(1000, shown - rows.length), ...next });
      if (mine !== latest) return;
      if (x.response?.status !== 200) break;
      rows = rows.concat(session.engine.readEntities(x.response.body));
      const npk = header(x.response, "x-ms-continuation-NextPartitionKey");
      further = Boolean(npk);
      if (!npk) break;
      next = { nextPartitionKey: npk, nextRowKey: header(x.response, "x-ms-continuation-NextRowKey") ?? "" };
    }
    if (x.response?.status !== 200) {
      replace(box, el("p", { class: "hint" }, x.error ? t("entities.notAnswered", { error: x.error }) : t("entities.failed", { status: String(x.response?.status) })));
      return;
    }
    // An endpoint elsewhere does not say how many entities it holds.
    const total = session.engine.queryStats({ kind: "query", table, top: 1 }).total;
    if (rows.length === 0) {
      replace(box, el("p", { class: "hint" }, t("entities.none")));
      return;
    }
    replace(
      box,
      el("p", { class: "list-count" }, total === undefined ? (further ? t("entities.countMore", { count: count(rows.length, "entity") }) : count(rows.length, "entity")) : t("entities.countOf", { shown: number(rows.length), total: count(total, "entity") })),
      rows.map((row) => {
        const d = row.draft;
        session.sawETag(table, d.PartitionKey, d.RowKey, row.etag);
        return el("div", { class: "entity" },
          el("div", { class: "keys-line" },
            el("span", {}, "PartitionKey ", el("code", {}, d.PartitionKey)),
            el("span", {}, "RowKey ", el("code", {}, d.RowKey)),
            el("span", { class: "hint" }, "Timestamp ", row.timestamp),
            el("button", {
              type: "button", "aria-label": t("entities.loadLabel", { pk: d.PartitionKey, rk: d.RowKey }),
              onclick: () => session.emit("load-entity", { draft: d, etag: row.etag }),
            }, t("entities.load"))),
          el("div", { class: "values" },
            d.properties.map((p) => el("span", { class: "chip" }, `${p.name} = `, el("code", {}, p.text), " ", el("span", { class: "type" }, p.type))),
          ));
      }),
      (total === undefined ? further : rows.length < total) ? el("button", { type: "button", class: "secondary", onclick: () => refresh(true) }, t("entities.showMore", { n: total === undefined ? PAGE : Math.min(PAGE, total - rows.length) })) : null,
    );
  }

  session.on("table-selected", () => refresh());
  session.on("entities-changed", () => refresh());
  // A switch of language reads the list again, as shown (its pages kept).
  onChange(() => {
    shown -= PAGE;
    refresh(true);
  }, session.signal);
  refresh();
  return { refresh };
}
