// web/querypicture.js is responsible for the pictures of what the engine
// did: a query's pages drawn on its table's key order (the key range the
// filter narrowed to, the entities each page examined, where each page ended
// and the key its continuation token names), a batch's operations in order
// with the one that failed, and what each cost (requests, entities examined
// and returned, bytes on the wire). Every figure comes from the engine
// (tableplay queryPicture and explainFilter, run's stats and bytes,
// readBatch); this module only draws them.
import { el, number } from "./dom.js";
import { t, nodes } from "./i18n.js";
import { count } from "./counts.js";

const pct = (n, total) => `${total ? (100 * n) / total : 0}%`;

// keyOf says the key a continuation names.
function keyOf(next) {
  const pk = next?.partitionKey;
  const rk = next?.rowKey;
  if (!pk) return "";
  const none = t("picture.none");
  return `PartitionKey ${pk.valid ? `'${pk.key}'` : none}` + (rk ? `, RowKey ${rk.valid ? `'${rk.key}'` : none}` : "");
}

// costView says what a run cost: one request per page, the entities
// examined and returned, the bytes sent and received.
export function costView({ requests, examined = null, returned = null, sent, received }) {
  const parts = [t("picture.requests", { n: requests })];
  if (examined !== null) parts.push(t("picture.examined", { n: number(examined) }));
  if (returned !== null) parts.push(t("picture.returnedN", { n: number(returned) }));
  parts.push(t("picture.sent", { n: sent }), t("picture.received", { n: received }));
  return el("p", { class: "cost" }, el("strong", {}, t("picture.cost")), " ", parts.join(" · "));
}

// queryPictureView draws a run's pages (oldest first, each tableplay
// queryPicture's answer with the page's examined and returned from run's
// stats, pageTo where it ended, and next, its continuation decoded) on one
// strip of the table's key order; statement is the key range in words
// (tableplay explainFilter's).
export function queryPictureView(pages, statement) {
  const first = pages[0];
  const total = first.total;
  const examined = pages.reduce((n, p) => n + p.examined, 0);
  const returned = pages.reduce((n, p) => n + p.returned, 0);
  const label = t("picture.stripLabel", {
    entities: count(total, "entity"), from: number(first.rangeFrom + 1), to: number(first.rangeTo),
    range: count(first.rangeTo - first.rangeFrom, "entity"), pages: pages.length, examined: number(examined), returned: number(returned),
  });
  const strip = el("div", { class: "key-strip", role: "img", "aria-label": label },
    el("div", { class: "key-range-band", style: `left:${pct(first.rangeFrom, total)};width:${pct(first.rangeTo - first.rangeFrom, total)}` }),
    pages.map((p, i) => el("div", { class: "page-band" + (i % 2 ? " odd" : ""), "data-page": i + 1, style: `left:${pct(p.pageFrom, total)};width:${pct(p.pageTo - p.pageFrom, total)}` })),
    pages.filter((p) => p.next).map((p, i) => el("div", { class: "page-cut", "data-page": i + 1, style: `left:${pct(p.pageTo, total)}` })));
  return el("figure", { class: "query-picture" },
    el("div", { class: "strip-ends", "aria-hidden": "true" }, el("span", {}, t("picture.firstKey")), el("span", {}, t("picture.inKeyOrder", { n: total })), el("span", {}, t("picture.lastKey"))),
    strip,
    el("figcaption", {},
      el("p", { class: "picture-figures" },
        el("strong", { class: "examined" }, t("picture.examined", { n: number(examined) })), " · ",
        el("strong", { class: "returned" }, t("picture.returnedN", { n: number(returned) })), " · ", t("picture.holds", { total: number(total), range: number(first.rangeTo - first.rangeFrom) })),
      el("p", { class: "hint" }, statement),
      el("ol", { class: "page-list", "aria-label": t("picture.pagesLabel") },
        pages.map((p, i) => el("li", { "data-page": i + 1 },
          el("strong", {}, t("picture.page", { n: i + 1 })),
          t("picture.pageFigures", { from: number(p.pageFrom + 1), to: number(p.pageTo), examined: number(p.examined), returned: number(p.returned) }),
          p.next
            ? nodes("picture.endedBefore", {
              key: el("code", { class: "token-key" }, keyOf(p.next)),
              token: [el("code", { class: "token" }, p.next.partitionKey?.raw ?? ""), p.next.rowKey ? [" / ", el("code", { class: "token" }, p.next.rowKey.raw)] : null],
              next: i + 2,
            })
            : t("picture.lastPage"))))));
}

// batchPictureView draws a transaction's operations in order, each with
// its answer: all committed, or the one that failed and the others rolled
// back, with the account before and after; a failure's caption is the one
// place that says it (with extra, the way to its exchange, after it).
export function batchPictureView(queue, answer, unchanged, extra = null) {
  const failed = answer.ok ? -1 : answer.failedIndex;
  return el("figure", { class: "batch-picture" },
    el("ol", { class: "batch-ops", "aria-label": t("picture.batchOps") },
      queue.map((op, i) => {
        const part = answer.ok ? answer.parts[i] : i === failed ? answer.parts[0] : null;
        const state = answer.ok ? "committed" : i === failed ? "failed" : "rolled-back";
        const says = answer.ok ? `${part?.status ?? ""} ${part?.statusText ?? ""}`.trim()
          : i === failed ? t("picture.opFailed", { status: `${part?.status} ${part?.statusText}${part?.code ? " · " + part.code : ""}` })
            : i < failed ? t("picture.undone") : t("picture.neverRun");
        return el("li", { class: `batch-op ${state}`, "data-index": i, "data-state": state },
          el("span", { class: "op-index" }, String(i + 1)),
          el("span", { class: "op-kind" }, op.kind),
          el("code", {}, `${op.entity?.PartitionKey ?? ""} / ${op.entity?.RowKey ?? ""}`),
          el("span", { class: "op-state" }, says));
      })),
    el("figcaption", {},
      answer.ok
        ? el("p", {}, t("picture.allCommitted", { n: queue.length }))
        : el("p", { class: "account-state failed-note card", "data-unchanged": String(unchanged) },
          t("picture.failedAt", { n: failed + 1, index: String(failed), part: failedPart(answer.parts[0]) }), " ",
          unchanged ? t("picture.nothingChanged") + " " : "",
          t("picture.noneWritten", { n: queue.length }), " ",
          unchanged === null
            ? nodes("picture.rolledBack", { what: el("strong", {}, t("picture.rolledBackWhat")) })
            : nodes("picture.compared", { what: el("strong", {}, unchanged ? t("picture.unchanged") : t("picture.changed")) }),
          extra ? [" ", extra] : null)));
}

// failedPart says a failed operation's answer: status, code and message.
function failedPart(p) {
  return [`${p?.status ?? ""} ${p?.statusText ?? ""}`.trim(), p?.code, p?.message ? `“${p.message}”` : ""].filter(Boolean).join(" · ");
}
