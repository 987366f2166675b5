// web/operations.js is responsible for writing the editor's entity: the six
// write operations and a read, the If-Match choice (current ETag, *, a stale
// ETag), the entity before and after each write, and "Add to batch".
//
// mountOperations(root, session) renders into root. It reads the entity
// from session.draft(), emits "exchange", "entities-changed",
// "entity-written" and "enqueue" ({operation}), and listens for
// "load-entity" and "table-selected".
import { send, header } from "./exchange.js";
import { indent } from "./jsontext.js";
import { mount } from "./dom.js";

const HTML = `
<h3>Operation</h3>
<form id="operation" class="stack" novalidate>
  <div class="row wrap">
    <label for="op-kind">Operation</label>
    <select id="op-kind">
      <option value="insert">Insert</option>
      <option value="replace">Replace (update)</option>
      <option value="merge">Merge</option>
      <option value="insertOrReplace">Insert or replace</option>
      <option value="insertOrMerge">Insert or merge</option>
      <option value="delete">Delete</option>
      <option value="get">Read (get)</option>
    </select>
    <button id="run-op" type="submit">Send</button>
    <button id="queue-op" type="button" class="secondary">Add to batch</button>
  </div>
  <fieldset id="if-match" class="modes">
    <legend>If-Match</legend>
    <label><input type="radio" name="ifmatch" value="current" checked> Current ETag</label>
    <label><input type="radio" name="ifmatch" value="*"> <code>*</code> (any)</label>
    <label><input type="radio" name="ifmatch" value="stale"> A stale ETag</label>
    <p id="etag-note" class="hint"></p>
  </fieldset>
</form>
<div id="before-after" class="before-after" hidden>
  <div><h4>Before</h4><pre id="before" tabindex="0"></pre></div>
  <div><h4>After</h4><pre id="after" tabindex="0"></pre></div>
</div>`;

const conditional = (kind) => kind === "replace" || kind === "merge" || kind === "delete";

export function mountOperations(root, session, { batch = true } = {}) {
  const $ = mount(root, HTML);
  $("queue-op").hidden = !batch;

  // read fetches the entity quietly (not shown on the wire) as nometadata JSON.
  function read(table, d) {
    const x = send(session, { kind: "get", table, entity: { ...d, properties: [] }, level: "nometadata" });
    if (x.response?.status === 200) {
      session.sawETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
      return indent(x.response.body);
    }
    return "(no such entity)";
  }

  // describeETags says which ETags the If-Match choices stand for.
  function describeETags() {
    const d = session.draft();
    const note = $("etag-note");
    const stale = root.querySelector('input[name="ifmatch"][value="stale"]');
    if (!session.table || !d) {
      note.textContent = "";
      return;
    }
    const seen = session.etagsOf(session.table, d.PartitionKey, d.RowKey);
    stale.disabled = seen.length < 2;
    note.textContent = seen.length
      ? `Current: ${seen.at(-1)}` + (seen.length > 1 ? ` · stale: ${seen.at(-2)}` : " · a stale ETag appears once the entity changes")
      : "This entity has no ETag yet: insert it first.";
  }

  function run(e) {
    e.preventDefault();
    const kind = $("op-kind").value;
    const table = session.table;
    const d = session.draft();
    if (!table) {
      session.setStatus("Select or create a table first.");
      return;
    }
    if (!d) {
      session.setStatus("The JSON body cannot be read: fix it first.");
      return;
    }
    if (kind === "get") {
      const x = send(session, { kind, table, entity: { ...d, properties: [] }, level: session.level });
      session.emit("exchange", x);
      if (x.response?.status === 200) session.sawETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
      session.setStatus(`get: ${x.response?.status} ${x.response?.statusText}`);
      describeETags();
      return;
    }
    const op = { kind, table, entity: d };
    if (conditional(kind)) {
      const choice = root.querySelector('input[name="ifmatch"]:checked').value;
      const seen = session.etagsOf(table, d.PartitionKey, d.RowKey);
      if (choice === "*") op.ifMatch = "*";
      else if (choice === "stale") op.ifMatch = seen.at(-2) ?? seen.at(-1) ?? "*";
      else {
        read(table, d); // learn the current ETag right before the write
        op.ifMatch = session.etagsOf(table, d.PartitionKey, d.RowKey).at(-1) ?? "*";
      }
    }
    const before = read(table, d);
    const x = send(session, op);
    session.emit("exchange", x);
    if (x.error) {
      session.setStatus(x.error);
      return;
    }
    if (x.notSent) {
      session.setStatus(`${kind}: not sent (read-only) · the request is on the wire view`);
      return;
    }
    const ok = x.response.status < 300;
    if (ok) session.sawETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
    const after = read(table, d);
    $("before").textContent = before;
    $("after").textContent = after;
    $("before-after").hidden = false;
    session.setStatus(`${kind}: ${x.response.status} ${x.response.statusText}`);
    session.emit("entities-changed");
    session.emit("entity-written", { table, draft: d });
    describeETags();
  }

  $("operation").addEventListener("submit", run);
  const toggle = () => {
    $("if-match").hidden = !conditional($("op-kind").value);
    describeETags();
  };
  $("op-kind").addEventListener("change", toggle);
  $("queue-op").addEventListener("click", () => {
    const d = session.draft();
    const kind = $("op-kind").value;
    if (!session.table || !d || kind === "get") return;
    session.emit("enqueue", { operation: { kind, table: session.table, entity: structuredClone(d) } });
  });
  session.on("load-entity", ({ draft: d, etag }) => {
    if (session.table) session.sawETag(session.table, d.PartitionKey, d.RowKey, etag);
    describeETags();
  });
  session.on("table-selected", describeETags);
  toggle();
}
