// web/tables.js is responsible for the tables part: creating a table with
// live name validation, listing tables in stored case, selecting one and
// deleting one after confirmation.
//
// mountTables(root, session) renders into root and returns {refresh,
// select}. It emits "exchange" and "table-selected" on the session and
// listens for "tables-changed".
import { el, replace, debounce, mount } from "./dom.js";
import { cards, profileNotes } from "./cards.js";
import { send } from "./exchange.js";
import { confirmAction } from "./confirm.js";
import { answer } from "./answer.js";
import { t, onChange } from "./i18n.js";

const HTML = `
<h2 id="tables-heading" data-i18n="tables.heading">Tables</h2>
<form id="create-table" class="stack" novalidate>
  <label for="table-name" data-i18n="tables.newName">New table name</label>
  <div class="row">
    <input id="table-name" name="table-name" autocomplete="off" spellcheck="false" aria-describedby="table-name-cards">
    <button type="submit" data-i18n="tables.create">Create</button>
  </div>
  <p id="tables-refused" class="hint" hidden></p>
  <div id="table-name-cards" class="cards"></div>
  <div id="table-answer" class="answer-box"></div>
</form>
<div id="empty-state" class="empty" hidden>
  <p><span data-i18n="tables.emptyStart">Start here: create a table (a name such as</span> <code>Customers</code><span data-i18n="tables.emptyEnd">), then write an entity into it. Or load two example tables with a user and a product.</span></p>
  <button id="load-sample" type="button" data-i18n="tables.loadSample">Load the sample</button>
</div>
<ul id="table-list" class="table-list" aria-label="Tables in the account" data-i18n-attr="aria-label:tables.list"></ul>`;

export function mountTables(root, session) {
  const $ = mount(root, HTML, session.signal);
  const input = $("table-name");

  function showNameRules() {
    const name = input.value;
    const box = $("table-name-cards");
    if (name === "") {
      replace(box);
      input.removeAttribute("aria-invalid");
      return;
    }
    const report = session.engine.validateTableName(name);
    input.setAttribute("aria-invalid", String(!report.valid));
    // Whatever the name, where implementations treat names otherwise.
    replace(box, report.valid ? el("p", { class: "ok-note" }, t("tables.valid")) : cards(report.violations),
      profileNotes(session.engine.differences?.("table-name")));
  }

  let latest = 0; // the newest refresh: an older answer arriving later is dropped
  async function refresh() {
    const mine = ++latest;
    const x = await send(session, { kind: "listTables" });
    const names = x.response?.status === 200 ? JSON.parse(x.response.body).value.map((t) => t.TableName) : [];
    if (mine !== latest) return names;
    // No answer at all (an endpoint elsewhere, unreachable): the list stays.
    if (x.error) {
      session.setStatus(() => t("tables.notListed", { error: x.error }));
      return names;
    }
    replace(
      $("table-list"),
      names.map((name) =>
        el("li", {},
          el("button", {
            type: "button", class: "select", "aria-current": String(name === session.table),
            onclick: () => select(name),
          }, name),
          el("button", {
            type: "button", class: "secondary", "aria-label": t("tables.deleteLabel", { name }), disabled: Boolean(session.writesRefused),
            onclick: async () => {
              if (!(await confirmAction(session.host, t("tables.confirmDelete", { name })))) return;
              const del = await send(session, { kind: "deleteTable", table: name });
              session.emit("exchange", del);
              if (!del.notSent) answer(session, $("table-answer"), del, () => t("tables.deleted", { name }));
              const line = `deleteTable: ${del.response?.status ?? ""} ${del.response?.statusText ?? del.error ?? ""}${del.code ? " · " + del.code : ""}`;
              session.setStatus(del.notSent ? () => t("tables.readOnly") : line);
              if (session.table === name) select(null);
              refresh();
            },
          }, t("tables.delete")),
        ),
      ),
    );
    $("empty-state").hidden = names.length > 0;
    if (session.table && !names.some((n) => n.toLowerCase() === session.table.toLowerCase())) select(null);
    return names;
  }

  function select(name) {
    session.table = name;
    for (const b of root.querySelectorAll("#table-list button.select")) {
      b.setAttribute("aria-current", String(b.textContent === name));
    }
    session.emit("table-selected", { table: name });
  }

  input.addEventListener("input", debounce(showNameRules, 120));
  $("create-table").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value;
    const x = await send(session, { kind: "createTable", table: name });
    session.emit("exchange", x);
    if (!x.notSent) answer(session, $("table-answer"), x, () => t("tables.created", { name }));
    if (x.response?.status === 201) {
      input.value = "";
      showNameRules();
      await refresh();
      select(name);
      session.setStatus(() => t("tables.created", { name }));
    } else {
      showNameRules();
      session.setStatus(x.notSent ? () => t("tables.readOnly") : () => t("tables.refused"));
    }
  });
  $("load-sample").addEventListener("click", () => session.emit("load-sample"));
  // A target that refuses writes (a read link): no create, no delete.
  session.on("target-changed", () => {
    const refused = session.writesRefused ?? "";
    $("create-table").querySelector("button[type=submit]").disabled = Boolean(refused);
    $("tables-refused").hidden = !refused;
    $("tables-refused").textContent = refused;
  });
  session.on("tables-changed", refresh);
  onChange(() => {
    showNameRules();
    refresh();
  }, session.signal);
  return { refresh, select };
}
