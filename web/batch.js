// web/batch.js is responsible for batch transactions: a queue of writes
// (reorder, remove), the transaction rules checked by the engine as the queue
// grows, and the answer: every ETag, or the failing operation's index and
// the fact that nothing was written.
//
// mountBatch(root, session) renders into root and returns {queued,
// setQueue}. It listens for "enqueue" ({operation}) and emits "exchange",
// "entities-changed" and "queued" ({count, …}).
import { el, replace, number, mount } from "./dom.js";
import { card } from "./cards.js";
import { send, header } from "./exchange.js";
import { answer as answerLine } from "./answer.js";
import { batchPictureView, costView } from "./querypicture.js";
import { count } from "./counts.js";

// TEXT is what this part says. Operations are numbered from 1, as people
// count; the service's answer names them from 0, said beside the number
// (web/querypicture.js).
const TEXT = {
  empty: "The queue is empty: these rules are checked once a write is queued.",
  committed: (n) => `Committed ${count(n, "operation")} in one transaction.`,
  queued: (n) => `Queued: ${count(n, "operation")}.`,
};

const HTML = `
<h2 id="batch-heading">Batch transaction</h2>
<p class="hint">Queue writes with “Add to batch” under the editor, then submit them as one atomic transaction.</p>
<ul id="batch-rules" class="rules" aria-label="Transaction rules"></ul>
<ol id="batch-queue" class="queue" aria-label="Queued operations, in order"></ol>
<div class="row wrap">
  <button id="submit-batch" type="button">Submit transaction</button>
  <button id="clear-batch" type="button" class="secondary">Clear queue</button>
</div>
<div id="batch-answer" class="answer-box" aria-live="polite"></div>
<div id="batch-result" class="stack"></div>`;

export function mountBatch(root, session) {
  const $ = mount(root, HTML);
  const engine = session.engine;
  let queue = [];

  function render(failed = -1) {
    const check = engine.checkBatch(queue);
    // An empty queue meets no rule yet: no ticks until there is a write.
    const idle = queue.length === 0;
    replace($("batch-rules"), check.rules.map((r) => el("li", { class: idle ? "idle" : r.ok ? "ok" : "bad" }, r.statement, r.id === "batch-size" && !idle ? ` (${number(check.count)} of ${number(check.limit)})` : "")),
      idle ? el("li", { class: "idle hint" }, TEXT.empty) : null);
    replace($("batch-queue"), queue.map((op, i) => {
      const name = `${i + 1}: ${op.kind} ${op.entity.PartitionKey} / ${op.entity.RowKey}`;
      return el("li", { class: i === failed || (i === check.index && !check.valid) ? "failed" : "", "data-index": i },
        el("div", { class: "row" },
          el("span", {}, `${op.kind} `, el("code", {}, op.entity.PartitionKey), " / ", el("code", {}, op.entity.RowKey), ` in ${op.table}`),
          el("button", { type: "button", class: "secondary", "aria-label": `Move operation ${name} up`, disabled: i === 0, onclick: () => move(i, -1) }, "Up"),
          el("button", { type: "button", class: "secondary", "aria-label": `Move operation ${name} down`, disabled: i === queue.length - 1, onclick: () => move(i, 1) }, "Down"),
          el("button", { type: "button", class: "secondary", "aria-label": `Remove operation ${name}`, onclick: () => { queue.splice(i, 1); render(); session.emit("queued", { count: queue.length }); } }, "Remove")),
        i === check.index && check.error ? card(check.error) : null);
    }));
    $("submit-batch").disabled = queue.length === 0 || Boolean(session.writesRefused);
    $("submit-batch").textContent = queue.length ? `Submit transaction (${queue.length})` : "Submit transaction";
    return check;
  }

  function move(i, by) {
    const [op] = queue.splice(i, 1);
    queue.splice(i + by, 0, op);
    render();
  }

  async function submit() {
    // Only the engine's own account can be seen before and after; an
    // endpoint elsewhere answers for its own tables.
    const engine = session.engine;
    const before = engine.snapshot ? JSON.stringify(engine.snapshot()) : null;
    const sentQueue = structuredClone(queue);
    const x = await send(session, { kind: "batch", operations: queue });
    session.emit("exchange", x);
    if (x.error) {
      replace($("batch-result"), el("p", { class: "card" }, x.error));
      return;
    }
    if (x.notSent) {
      replace($("batch-result"), el("p", { class: "hint" }, "Not sent: this playground is read-only. The request is on the wire view."));
      return;
    }
    const answer = engine.readBatch(header(x.response, "Content-Type") ?? "", x.response.body);
    const unchanged = !answer.ok && (before === null ? null : JSON.stringify(engine.snapshot()) === before);
    // A failure is said once, in the picture's caption, with the way to its
    // exchange.
    const reveal = el("button", { type: "button", class: "link", onclick: () => session.emit("reveal-exchange", { id: x.id }) }, "See the exchange");
    const picture = [batchPictureView(sentQueue, answer, unchanged, answer.ok ? null : reveal),
      costView({ requests: 1, sent: x.bytes?.request ?? 0, received: x.bytes?.response ?? 0 })];
    if (answer.ok) answerLine(session, $("batch-answer"), x, TEXT.committed(queue.length));
    else replace($("batch-answer"));
    if (answer.ok) {
      replace($("batch-result"),
        el("p", { class: "ok-note" }, TEXT.committed(answer.parts.length)),
        picture,
        el("ol", { class: "queue" }, answer.parts.map((p, i) => el("li", {}, `${queue[i].kind}: ${p.status} ${p.statusText}`, p.etag ? [" · ETag ", el("code", { class: "etag" }, p.etag)] : ""))));
      queue = [];
      render();
      session.emit("queued", { count: 0 });
    } else {
      replace($("batch-result"), picture);
      render(answer.failedIndex);
    }
    session.emit("entities-changed");
  }

  session.on("enqueue", ({ operation }) => {
    queue.push(operation);
    const check = render();
    session.emit("queued", { count: queue.length, index: queue.length - 1, kind: operation.kind, valid: check.valid, failedAt: check.index });
    $("batch-result").replaceChildren(el("p", { class: "hint" }, TEXT.queued(queue.length)));
  });
  $("submit-batch").addEventListener("click", submit);
  session.on("target-changed", () => render());
  $("clear-batch").addEventListener("click", () => {
    queue = [];
    render();
    session.emit("queued", { count: 0 });
    replace($("batch-result"));
  });
  render();
  // queued and setQueue read and replace the queue (workspace links).
  return {
    queued: () => structuredClone(queue),
    setQueue(ops) {
      queue = Array.isArray(ops) ? structuredClone(ops) : [];
      render();
      session.emit("queued", { count: queue.length });
    },
  };
}
