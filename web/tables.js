// web/tables.js is responsible for the tables column: creating a table with
// live name validation, listing tables in stored case, selecting one and
// deleting one after confirmation.
import { el, replace, debounce } from "./dom.js";
import { cards } from "./cards.js";
import { send } from "./exchange.js";
import { confirmAction } from "./confirm.js";
import { state, emit, on, setStatus } from "./state.js";

const form = () => document.getElementById("create-table");
const input = () => document.getElementById("table-name");

function showNameRules() {
  const name = input().value;
  const box = document.getElementById("table-name-cards");
  if (name === "") {
    replace(box);
    input().removeAttribute("aria-invalid");
    return;
  }
  const report = tableplay.validateTableName(name);
  input().setAttribute("aria-invalid", String(!report.valid));
  replace(box, report.valid ? el("p", { class: "ok-note" }, "A valid table name.") : cards(report.violations));
}


export async function refreshTables() {
  const x = await send({ kind: "listTables" });
  const names = x.response?.status === 200 ? JSON.parse(x.response.body).value.map((t) => t.TableName) : [];
  const list = document.getElementById("table-list");
  replace(
    list,
    names.map((name) =>
      el("li", {},
        el("button", {
          type: "button", class: "select", "aria-current": String(name === state.table),
          onclick: () => selectTable(name),
        }, name),
        el("button", {
          type: "button", class: "secondary", "aria-label": `Delete table ${name}`,
          onclick: async () => {
            if (!(await confirmAction(`Delete the table ${name} and all its entities?`))) return;
            const del = await send({ kind: "deleteTable", table: name });
            emit("exchange", del);
            if (state.table === name) selectTable(null);
            refreshTables();
          },
        }, "Delete"),
      ),
    ),
  );
  document.getElementById("empty-state").hidden = names.length > 0;
  if (state.table && !names.some((n) => n.toLowerCase() === state.table.toLowerCase())) selectTable(null);
  return names;
}

export function selectTable(name) {
  state.table = name;
  for (const b of document.querySelectorAll("#table-list button.select")) {
    b.setAttribute("aria-current", String(b.textContent === name));
  }
  emit("table-selected", { table: name });
}

export function initTables() {
  input().addEventListener("input", debounce(showNameRules, 120));
  form().addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input().value;
    const x = await send({ kind: "createTable", table: name });
    emit("exchange", x);
    if (x.response?.status === 201) {
      input().value = "";
      showNameRules();
      await refreshTables();
      selectTable(name);
      setStatus(`Table ${name} created.`);
    } else {
      showNameRules();
      setStatus(`The service refused the table: see the answer on the wire.`);
    }
  });
  on("tables-changed", refreshTables);
}
