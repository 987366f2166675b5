// web/operations.js is responsible for writing the editor's entity: the six
// write operations, the If-Match choice (current ETag, *, a stale ETag) and
// the entity before and after each write.
import { send, header } from "./exchange.js";
import { indent } from "./jsontext.js";
import { draft } from "./editor.js";
import { state, emit, on, sawETag, etagsOf, setStatus } from "./state.js";

const $ = (id) => document.getElementById(id);
const conditional = (kind) => kind === "replace" || kind === "merge" || kind === "delete";

// read fetches the entity quietly (not shown on the wire) as nometadata JSON.
async function read(table, d) {
  const x = await send({ kind: "get", table, entity: { ...d, properties: [] }, level: "nometadata" });
  if (x.response?.status === 200) {
    sawETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
    return indent(x.response.body);
  }
  return "(no such entity)";
}

function ifMatchChoice() {
  return document.querySelector('input[name="ifmatch"]:checked').value;
}

// describeETags says which ETags the If-Match choices stand for.
export function describeETags() {
  const d = draft();
  const note = $("etag-note");
  const stale = document.querySelector('input[name="ifmatch"][value="stale"]');
  if (!state.table || !d) {
    note.textContent = "";
    return;
  }
  const seen = etagsOf(state.table, d.PartitionKey, d.RowKey);
  stale.disabled = seen.length < 2;
  note.textContent = seen.length
    ? `Current: ${seen.at(-1)}` + (seen.length > 1 ? ` · stale: ${seen.at(-2)}` : " · a stale ETag appears once the entity changes")
    : "This entity has no ETag yet: insert it first.";
}

async function run(e) {
  e.preventDefault();
  const kind = $("op-kind").value;
  const table = state.table;
  const d = draft();
  if (!table) {
    setStatus("Select or create a table first.");
    return;
  }
  if (!d) {
    setStatus("The JSON body cannot be read: fix it first.");
    return;
  }
  if (kind === "get") {
    const x = await send({ kind, table, entity: { ...d, properties: [] }, level: state.level });
    emit("exchange", x);
    if (x.response?.status === 200) sawETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
    setStatus(`get: ${x.response?.status} ${x.response?.statusText}`);
    describeETags();
    return;
  }
  const op = { kind, table, entity: d };
  if (conditional(kind)) {
    const choice = ifMatchChoice();
    const seen = etagsOf(table, d.PartitionKey, d.RowKey);
    if (choice === "*") op.ifMatch = "*";
    else if (choice === "stale") op.ifMatch = seen.at(-2) ?? seen.at(-1) ?? "*";
    else {
      await read(table, d); // learn the current ETag right before the write
      op.ifMatch = etagsOf(table, d.PartitionKey, d.RowKey).at(-1) ?? "*";
    }
  }
  const before = await read(table, d);
  const x = await send(op);
  emit("exchange", x);
  if (x.error) {
    setStatus(x.error);
    return;
  }
  const ok = x.response.status < 300;
  if (ok) sawETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
  const after = await read(table, d);
  $("before").textContent = before;
  $("after").textContent = after;
  $("before-after").hidden = false;
  setStatus(`${kind}: ${x.response.status} ${x.response.statusText}`);
  emit("entities-changed");
  emit("entity-written", { table, draft: d });
  describeETags();
}

export function initOperations() {
  $("operation").addEventListener("submit", run);
  const toggle = () => {
    $("if-match").hidden = !conditional($("op-kind").value);
    describeETags();
  };
  $("op-kind").addEventListener("change", toggle);
  on("load-entity", ({ draft: d, etag }) => {
    if (state.table) sawETag(state.table, d.PartitionKey, d.RowKey, etag);
    describeETags();
  });
  on("table-selected", describeETags);
  toggle();
}
