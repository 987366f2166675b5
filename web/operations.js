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
import { mount, el } from "./dom.js";
import { answer } from "./answer.js";

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
  <p id="op-refused" class="hint" hidden></p>
  <div id="op-answer" class="answer-box"></div>
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

const done = {
  insert: "The entity was inserted.",
  replace: "The entity was replaced: properties not in the editor are gone.",
  merge: "The entity was merged: properties not in the editor were kept.",
  insertOrReplace: "The entity was written whole (inserted or replaced).",
  insertOrMerge: "The entity was written (inserted or merged).",
  delete: "The entity was deleted.",
};

// TEXT is what this part says about ETags.
const TEXT = {
  noETag: "This entity has no ETag yet: insert it first.",
  held: (etag) => `Current: ${etag} (the one you read)`,
  notHeld: "Current: none read yet (Send reads the entity first and uses its ETag)",
  stale: (etag) => ` · stale: ${etag}`,
  noStale: " · a stale ETag appears once the entity changes",
  exists: "Insert never overwrites: to write over it, use",
  useUpsert: "Insert or replace (upsert)",
  useReplace: "Replace",
  changed: (etag) => ` · changed by someone else since you loaded it (now ${etag}): a write with your ETag gets 412; Load it again to write over the change.`,
};

const conditional = (kind) => kind === "replace" || kind === "merge" || kind === "delete";

export function mountOperations(root, session, { batch = true } = {}) {
  const $ = mount(root, HTML);
  $("queue-op").hidden = !batch;

  // read fetches the entity quietly (not shown on the wire) as nometadata JSON.
  // hold: the read is the person's (their Send needs an ETag they hold).
  async function read(table, d, { hold = false } = {}) {
    const x = await send(session, { kind: "get", table, entity: { ...d, properties: [] }, level: "nometadata" });
    if (x.response?.status === 200) {
      session[hold ? "holdETag" : "sawETag"](table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
      return readable(x.response.body);
    }
    return "(no such entity)";
  }

  const say = (x, good, extra) => answer(session, $("op-answer"), x, good, extra);

  // sendAnyway offers to send an entity the page refuses, so the service's
  // own answer to it shows: the insert request with the draft's body as
  // written (engine.draftBody).
  function sendAnyway(table, d) {
    return el("button", {
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
    }, "Send anyway");
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
    return el("span", { class: "upsert-hint" }, " ", TEXT.exists, " ", use("insertOrReplace", TEXT.useUpsert), " · ", use("replace", TEXT.useReplace));
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
    note.textContent = !seen.length ? TEXT.noETag
      : (held ? TEXT.held(held) : TEXT.notHeld) +
        (moved ? TEXT.changed(seen.at(-1)) : seen.length > 1 ? TEXT.stale(seen.at(-2)) : TEXT.noStale);
  }

  async function run(e) {
    e.preventDefault();
    session.emit("draft-sent");
    const kind = $("op-kind").value;
    const table = session.table;
    const d = session.draft();
    if (!table) {
      session.setStatus("Select or create a table first.");
      say({ error: "Select or create a table first." });
      return;
    }
    if (!d) {
      session.setStatus("The JSON body cannot be read: fix it first.");
      say({ error: "The JSON body cannot be read: fix it first." });
      return;
    }
    if (kind === "get") {
      const x = await send(session, { kind, table, entity: { ...d, properties: [] }, level: session.level });
      session.emit("exchange", x);
      if (x.response?.status === 200) session.holdETag(table, d.PartitionKey, d.RowKey, header(x.response, "ETag"));
      session.setStatus(`get: ${x.response?.status} ${x.response?.statusText}`);
      say(x, "The entity was read: see it at three levels on the wire.");
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
      session.setStatus(`${kind}: not sent · ${x.error}`);
      say(x, "", kind === "insert" && !session.readonly ? sendAnyway(table, d) : null);
      return;
    }
    if (x.notSent) {
      session.setStatus(`${kind}: not sent (read-only) · the request is on the wire view`);
      return;
    }
    const ok = x.response.status < 300;
    if (ok) session.holdETag(table, d.PartitionKey, d.RowKey, kind === "delete" ? null : header(x.response, "ETag"));
    const after = await read(table, d);
    $("before").textContent = before;
    $("after").textContent = after;
    $("before-after").hidden = false;
    session.setStatus(`${kind}: ${x.response.status} ${x.response.statusText}${x.code ? " · " + x.code : ""}`);
    say(x, done[kind] ?? "Done.", kind === "insert" && x.code === "EntityAlreadyExists" ? upsertHint() : null);
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
    const why = !session.table ? "Select or create a table first." : !d ? "The JSON body cannot be read: fix it first." : kind === "get" ? "A read cannot go in a transaction: choose a write." : "";
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
    $("queue-op").textContent = count ? `Add to batch (${count})` : "Add to batch";
    if (kind === undefined) return;
    session.setStatus(`Queued: ${kind} as operation ${index + 1} (${count} queued)` + (valid ? "." : `; the transaction rules fail at operation ${failedAt + 1}.`));
    $("op-answer").replaceChildren(el("p", { class: `answer ${valid ? "good" : "bad"}` },
      el("span", { class: "answer-status" }, "Queued"), ` · ${kind} as operation ${index + 1} of the batch (${count} queued)`,
      valid ? "." : ` · the transaction rules now fail at operation ${failedAt + 1}: see the batch below.`));
  });
  toggle();
}
