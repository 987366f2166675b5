// web/operations.js is responsible for writing the editor's entity: the six
// write operations and a read, the If-Match choice (current ETag, *, a stale
// ETag), the entity before and after each write, and "Add to batch".
//
// mountOperations(root, session) renders into root. It reads the entity
// from session.draft(), emits "exchange", "entities-changed",
// "entity-written" and "enqueue" ({operation}), and listens for
// "load-entity" and "table-selected".
import { send, header } from "./exchange.js";
import { readable } from "./jsontext.js";
import { mount, el, live } from "./dom.js";
import { answer } from "./answer.js";
import { t, onChange } from "./i18n.js";

const HTML = `
<h3 data-i18n="operations.heading">Operation</h3>
<form id="operation" class="stack" novalidate>
  <div class="row wrap">
    <label for="op-kind" data-i18n="operations.heading">Operation</label>
    <select id="op-kind">
      <option value="insert" data-i18n="operations.insert">Insert</option>
      <option value="replace" data-i18n="operations.replace">Replace (update)</option>
      <option value="merge" data-i18n="operations.merge">Merge</option>
      <option value="insertOrReplace" data-i18n="operations.insertOrReplace">Insert or replace</option>
      <option value="insertOrMerge" data-i18n="operations.insertOrMerge">Insert or merge</option>
      <option value="delete" data-i18n="operations.delete">Delete</option>
      <option value="get" data-i18n="operations.get">Read (get)</option>
    </select>
    <button id="run-op" type="submit" data-i18n="operations.send">Send</button>
    <button id="queue-op" type="button" class="secondary"></button>
  </div>
  <p id="op-refused" class="hint" hidden></p>
  <div id="op-answer" class="answer-box"></div>
  <fieldset id="if-match" class="modes">
    <legend>If-Match</legend>
    <label><input type="radio" name="ifmatch" value="current" checked> <span data-i18n="operations.current">Current ETag</span></label>
    <label><input type="radio" name="ifmatch" value="*"> <code>*</code> <span data-i18n="operations.any">(any)</span></label>
    <label><input type="radio" name="ifmatch" value="stale"> <span data-i18n="operations.stale">A stale ETag</span></label>
    <p id="etag-note" class="hint"></p>
  </fieldset>
</form>
<div id="before-after" class="before-after" hidden>
  <div><h4 data-i18n="operations.before">Before</h4><pre id="before" tabindex="0"></pre></div>
  <div><h4 data-i18n="operations.after">After</h4><pre id="after" tabindex="0"></pre></div>
</div>`;

// done is what a write's success says, by its kind.
const done = {
  insert: () => t("operations.doneInsert"),
  replace: () => t("operations.doneReplace"),
  merge: () => t("operations.doneMerge"),
  insertOrReplace: () => t("operations.doneInsertOrReplace"),
  insertOrMerge: () => t("operations.doneInsertOrMerge"),
  delete: () => t("operations.doneDelete"),
};

// TEXT is what this part says about ETags and the queue.
const TEXT = {
  noETag: () => t("operations.noETag"),
  held: (etag) => t("operations.held", { etag }),
  notHeld: () => t("operations.notHeld"),
  stale: (etag) => t("operations.staleETag", { etag }),
  noStale: () => t("operations.noStale"),
  exists: () => t("operations.exists"),
  useUpsert: () => t("operations.useUpsert"),
  useReplace: () => t("operations.useReplace"),
  changed: (etag) => t("operations.changed", { etag }),
  noTable: () => t("operations.noTable"),
  badJson: () => t("operations.badJson"),
  readInBatch: () => t("operations.readInBatch"),
};

const conditional = (kind) => kind === "replace" || kind === "merge" || kind === "delete";

export function mountOperations(root, session, { batch = true } = {}) {
  const $ = mount(root, HTML, session.signal);
  $("queue-op").hidden = !batch;
  let queued = 0;
  const queueLabel = () => ($("queue-op").textContent = queued ? t("operations.queueCount", { n: queued }) : t("operations.queue"));
  queueLabel();

  // read fetches the entity quietly (not shown on the wire) as nometadata JSON.
  // hold: the read is the person's (their Send needs an ETag they hold).
  async function read(table, d, { hold = false } = {}) {
    const x = await send(session, { kind: "get", table, entity: { ...d, properties: [] }, level: "nometadata" });
    if (x.response?.status === 200) {
      session[hold ? "holdETag" : "sawETag"](table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
      return readable(x.response.body);
    }
    return t("operations.noEntity");
  }

  const say = (x, good, extra) => answer(session, $("op-answer"), x, good, extra);

  // sendAnyway offers to send an entity the page refuses, so the service's
  // own answer to it shows: the insert request with the draft's body as
  // written (engine.draftBody).
  function sendAnyway(table, d) {
    return () => el("button", {
      type: "button", class: "secondary",
      onclick: async () => {
        const stand = session.engine.requestFor({ kind: "insert", table, entity: { PartitionKey: "p", RowKey: "r", properties: [] } });
        const request = { ...stand, body: session.engine.draftBody(d) };
        // raw: the body went as written, so a comparison replays the body.
        const compared = session.profileCompare && !session.engine.remote ? { raw: true, profile: session.profileCompare.current().name } : {};
        const remote = session.engine.remote ? { endpoint: session.engine.remote.endpoint } : undefined;
        let resp;
        try {
          resp = await session.engine.fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
        } catch (err) {
          // An endpoint elsewhere that did not answer: said as send says it.
          const x = { operation: { kind: "insert", table, entity: d }, request, error: err.message, remote };
          session.emit("exchange", x);
          session.setStatus(`insert: ${err.message}`);
          say(x);
          return;
        }
        const body = await resp.text();
        const x = {
          ...compared,
          operation: { kind: "insert", table, entity: d }, request,
          response: { status: resp.status, statusText: resp.statusText, headers: [...resp.headers.entries()], body },
          ...(resp.status < 300 ? {} : session.engine.readError(body)),
          remote,
        };
        session.emit("exchange", x);
        say(x, done.insert);
        if (x.response.status < 300) session.emit("entities-changed");
      },
    }, t("operations.sendAnyway"));
  }

  // upsertHint offers the writes that do not mind an existing entity.
  function upsertHint() {
    const use = (kind, label) => el("button", {
      type: "button", class: "link",
      onclick: () => {
        $("op-kind").value = kind;
        toggle();
        $("run-op").focus();
      },
    }, label);
    return () => el("span", { class: "upsert-hint" }, " ", TEXT.exists(), " ", use("insertOrReplace", TEXT.useUpsert()), " · ", use("replace", TEXT.useReplace()));
  }

  // describeETags says which ETags the If-Match choices stand for: the one
  // the person holds (their Load, Get or write) and, when a refresh has
  // seen a newer one since, that the entity changed under them.
  function describeETags() {
    const d = session.draft();
    const note = $("etag-note");
    const stale = root.querySelector('input[name="ifmatch"][value="stale"]');
    if (!session.table || !d) {
      note.textContent = "";
      return;
    }
    const seen = session.etagsOf(session.table, d.PartitionKey, d.RowKey);
    const held = session.heldETag(session.table, d.PartitionKey, d.RowKey);
    stale.disabled = seen.length < 2;
    const moved = held && seen.length && seen.at(-1) !== held;
    note.dataset.changed = String(Boolean(moved));
    note.textContent = !seen.length ? TEXT.noETag()
      : (held ? TEXT.held(held) : TEXT.notHeld()) +
        (moved ? TEXT.changed(seen.at(-1)) : seen.length > 1 ? TEXT.stale(seen.at(-2)) : TEXT.noStale());
  }

  async function run(e) {
    e.preventDefault();
    session.emit("draft-sent");
    const kind = $("op-kind").value;
    const table = session.table;
    const d = session.draft();
    if (!table) {
      session.setStatus(TEXT.noTable);
      say({ error: TEXT.noTable });
      return;
    }
    if (!d) {
      session.setStatus(TEXT.badJson);
      say({ error: TEXT.badJson });
      return;
    }
    if (kind === "get") {
      const x = await send(session, { kind, table, entity: { ...d, properties: [] }, level: session.level });
      session.emit("exchange", x);
      if (x.response?.status === 200) session.holdETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
      session.setStatus(`get: ${x.response?.status} ${x.response?.statusText}`);
      say(x, () => t("operations.doneGet"));
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
        // The ETag the person holds; none held (keys typed, never read):
        // this Send reads the entity first, and that read is theirs.
        if (!session.heldETag(table, d.PartitionKey, d.RowKey)) await read(table, d, { hold: true });
        op.ifMatch = session.heldETag(table, d.PartitionKey, d.RowKey) ?? "*";
      }
    }
    const before = await read(table, d);
    const x = await send(session, op);
    session.emit("exchange", x);
    if (x.error) {
      session.setStatus(() => t("operations.statusNotSent", { kind, error: x.error }));
      say(x, "", kind === "insert" && !session.readonly ? sendAnyway(table, d) : null);
      return;
    }
    if (x.notSent) {
      session.setStatus(() => t("operations.statusReadOnly", { kind }));
      return;
    }
    const ok = x.response.status < 300;
    if (ok) session.holdETag(table, d.PartitionKey, d.RowKey, kind === "delete" ? null : header(x.response, "ETag"));
    const after = await read(table, d);
    $("before").textContent = before;
    $("after").textContent = after;
    $("before-after").hidden = false;
    session.setStatus(`${kind}: ${x.response.status} ${x.response.statusText}${x.code ? " · " + x.code : ""}`);
    say(x, done[kind] ?? (() => t("operations.done")), kind === "insert" && x.code === "EntityAlreadyExists" ? upsertHint() : null);
    session.emit("entities-changed");
    session.emit("entity-written", { table, draft: d });
    describeETags();
  }

  $("operation").addEventListener("submit", run);
  // A target that refuses writes (a read link) leaves Read on and says
  // why the writes are off.
  const toggle = () => {
    $("if-match").hidden = !conditional($("op-kind").value);
    const refused = session.writesRefused ?? "";
    $("run-op").disabled = Boolean(refused) && $("op-kind").value !== "get";
    $("queue-op").disabled = Boolean(refused);
    $("op-refused").hidden = !refused;
    $("op-refused").textContent = refused;
    describeETags();
  };
  session.on("target-changed", () => toggle());
  $("op-kind").addEventListener("change", toggle);
  $("queue-op").addEventListener("click", () => {
    session.emit("draft-sent");
    const d = session.draft();
    const kind = $("op-kind").value;
    const why = !session.table ? TEXT.noTable : !d ? TEXT.badJson : kind === "get" ? TEXT.readInBatch : null;
    if (why) {
      say({ error: why });
      return;
    }
    session.emit("enqueue", { operation: { kind, table: session.table, entity: structuredClone(d) } });
  });
  session.on("load-entity", ({ draft: d, etag }) => {
    if (session.table) session.holdETag(session.table, d.PartitionKey, d.RowKey, etag);
    describeETags();
  });
  session.on("table-selected", describeETags);
  session.on("etag-seen", describeETags);
  // The batch part says how the queue stands; the count goes on the button.
  // index and failedAt count from 0, as the engine does; people count from 1.
  session.on("queued", ({ count, index, kind, valid, failedAt }) => {
    queued = count;
    queueLabel();
    if (kind === undefined) return;
    const p = { kind, n: index + 1, count, failed: failedAt + 1 };
    session.setStatus(() => (valid ? t("operations.statusQueued", p) : t("operations.statusQueuedFails", p)));
    live($("op-answer"), () => el("p", { class: `answer ${valid ? "good" : "bad"}` },
      el("span", { class: "answer-status" }, t("operations.queued")), " · ", valid ? t("operations.queuedAs", p) : t("operations.queuedFails", p)), session.signal);
  });
  onChange(() => {
    queueLabel();
    describeETags();
    const refused = session.writesRefused ?? "";
    $("op-refused").textContent = refused;
  }, session.signal);
  toggle();
}
