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
import { t, onChange } from "./i18n.js";
import { live } from "./dom.js";

// TEXT is what this part says. Operations are numbered from 1, as people
// count; the service's answer names them from 0, said beside the number
// (web/querypicture.js).
const TEXT = {
  empty: () => t("batch.empty"),
  committed: (n) => t("batch.committed", { operations: count(n, "operation") }),
  queued: (n) => t("batch.queued", { operations: count(n, "operation") }),
};

const HTML = `
<h2 id="batch-heading" data-i18n="batch.heading">Batch transaction</h2>
<p class="hint" data-i18n="batch.intro">Queue writes with “Add to batch” under the editor, then submit them as one atomic transaction.</p>
<ul id="batch-rules" class="rules" aria-label="Transaction rules" data-i18n-attr="aria-label:batch.rules"></ul>
<ol id="batch-queue" class="queue" aria-label="Queued operations, in order" data-i18n-attr="aria-label:batch.queue"></ol>
<div class="row wrap">
  <button id="submit-batch" type="button"></button>
  <button id="clear-batch" type="button" class="secondary" data-i18n="batch.clear">Clear queue</button>
</div>
<div id="batch-answer" class="answer-box" aria-live="polite"></div>
<div id="batch-result" class="stack"></div>`;

export function mountBatch(root, session) {
  const $ = mount(root, HTML, session.signal);
  const engine = session.engine;
  let queue = [];

  function render(failed = -1) {
    const check = engine.checkBatch(queue);
    // An empty queue meets no rule yet: no ticks until there is a write.
    const idle = queue.length === 0;
    replace($("batch-rules"), check.rules.map((r) => el("li", { class: idle ? "idle" : r.ok ? "ok" : "bad" }, r.statement, r.id === "batch-size" && !idle ? t("batch.sizeOf", { count: number(check.count), limit: number(check.limit) }) : "")),
      idle ? el("li", { class: "idle hint" }, TEXT.empty()) : null);
    replace($("batch-queue"), queue.map((op, i) => {
      const name = `${i + 1}: ${op.kind} ${op.entity.PartitionKey} / ${op.entity.RowKey}`;
      return el("li", { class: i === failed || (i === check.index && !check.valid) ? "failed" : "", "data-index": i },
        el("div", { class: "row" },
          el("span", {}, `${op.kind} `, el("code", {}, op.entity.PartitionKey), " / ", el("code", {}, op.entity.RowKey), " ", t("batch.inTable", { table: op.table })),
          el("button", { type: "button", class: "secondary", "aria-label": t("batch.upLabel", { name }), disabled: i === 0, onclick: () => move(i, -1) }, t("batch.up")),
          el("button", { type: "button", class: "secondary", "aria-label": t("batch.downLabel", { name }), disabled: i === queue.length - 1, onclick: () => move(i, 1) }, t("batch.down")),
          el("button", { type: "button", class: "secondary", "aria-label": t("batch.removeLabel", { name }), onclick: () => { queue.splice(i, 1); render(); session.emit("queued", { count: queue.length }); } }, t("batch.remove"))),
        i === check.index && check.error ? card(check.error) : null);
    }));
    $("submit-batch").disabled = queue.length === 0 || Boolean(session.writesRefused);
    $("submit-batch").textContent = queue.length ? t("batch.submitCount", { n: queue.length }) : t("batch.submit");
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
      live($("batch-result"), () => el("p", { class: "hint" }, t("batch.readOnly")), session.signal);
      return;
    }
    const answer = engine.readBatch(header(x.response, "Content-Type") ?? "", x.response.body);
    const unchanged = !answer.ok && (before === null ? null : JSON.stringify(engine.snapshot()) === before);
    // A failure is said once, in the picture's caption, with the way to its
    // exchange.
    const reveal = () => el("button", { type: "button", class: "link", onclick: () => session.emit("reveal-exchange", { id: x.id }) }, t("answer.see"));
    const picture = () => [batchPictureView(sentQueue, answer, unchanged, answer.ok ? null : reveal()),
      costView({ requests: 1, sent: x.bytes?.request ?? 0, received: x.bytes?.response ?? 0 })];
    const committed = sentQueue.length;
    if (answer.ok) answerLine(session, $("batch-answer"), x, () => TEXT.committed(committed));
    else replace($("batch-answer"));
    if (answer.ok) {
      live($("batch-result"), () => [
        el("p", { class: "ok-note" }, TEXT.committed(answer.parts.length)),
        picture(),
        el("ol", { class: "queue" }, answer.parts.map((p, i) => el("li", {}, `${sentQueue[i].kind}: ${p.status} ${p.statusText}`, p.etag ? [" · ETag ", el("code", { class: "etag" }, p.etag)] : "")))], session.signal);
      queue = [];
      render();
      session.emit("queued", { count: 0 });
    } else {
      live($("batch-result"), picture, session.signal);
      render(answer.failedIndex);
    }
    session.emit("entities-changed");
  }

  session.on("enqueue", ({ operation }) => {
    queue.push(operation);
    const check = render();
    session.emit("queued", { count: queue.length, index: queue.length - 1, kind: operation.kind, valid: check.valid, failedAt: check.index });
    const n = queue.length;
    live($("batch-result"), () => el("p", { class: "hint" }, TEXT.queued(n)), session.signal);
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
  onChange(() => render(), session.signal);
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
