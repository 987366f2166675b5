// web/entities.js is responsible for the entity list of the selected table:
// each entity with its values typed as the engine types them, and a button to
// load it into the editor.
import { el, replace } from "./dom.js";
import { send } from "./exchange.js";
import { state, emit, on, sawETag } from "./state.js";

export async function refreshEntities() {
  const box = document.getElementById("entity-list");
  const table = state.table;
  document.getElementById("entities-table").textContent = table ? `in ${table}` : "";
  if (!table) {
    replace(box, el("p", { class: "hint" }, "Select a table to see its entities."));
    return;
  }
  const x = await send({ kind: "query", table, top: 50 });
  if (x.response?.status !== 200) {
    replace(box, el("p", { class: "hint" }, `The query failed (${x.response?.status}).`));
    return;
  }
  const rows = tableplay.readEntities(x.response.body);
  if (rows.length === 0) {
    replace(box, el("p", { class: "hint" }, "No entities yet: fill in the editor and send an Insert."));
    return;
  }
  replace(
    box,
    rows.map((row) => {
      const d = row.draft;
      sawETag(table, d.PartitionKey, d.RowKey, row.etag);
      return el("div", { class: "entity" },
        el("div", { class: "keys-line" },
          el("span", {}, "PartitionKey ", el("code", {}, d.PartitionKey)),
          el("span", {}, "RowKey ", el("code", {}, d.RowKey)),
          el("span", { class: "hint" }, "Timestamp ", row.timestamp),
          el("button", {
            type: "button", "aria-label": `Load ${d.PartitionKey} / ${d.RowKey} into the editor`,
            onclick: () => emit("load-entity", { draft: d, etag: row.etag }),
          }, "Load")),
        el("div", { class: "values" },
          d.properties.map((p) => el("span", { class: "chip" }, `${p.name} = `, el("code", {}, p.text), " ", el("span", { class: "type" }, p.type))),
        ));
    }),
  );
}

export function initEntities() {
  on("table-selected", refreshEntities);
  on("entities-changed", refreshEntities);
  refreshEntities();
}
