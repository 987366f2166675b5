// web/querypicture.js is responsible for the pictures of what the engine
// did: a query's pages drawn on its table's key order (the key range the
// filter narrowed to, the entities each page examined, where each page ended
// and the key its continuation token names), a batch's operations in order
// with the one that failed, and what each cost (requests, entities examined
// and returned, bytes on the wire). Every figure comes from the engine
// (tableplay queryPicture and explainFilter, run's stats and bytes,
// readBatch); this module only draws them.
import { el, number } from "./dom.js";

const pct = (n, total) => `${total ? (100 * n) / total : 0}%`;
const plural = (n, one, many = one + "s") => `${number(n)} ${n === 1 ? one : many}`;

// keyOf says the key a continuation names.
function keyOf(next) {
  const pk = next?.partitionKey;
  const rk = next?.rowKey;
  if (!pk) return "";
  return `PartitionKey ${pk.valid ? `'${pk.key}'` : "(none)"}` + (rk ? `, RowKey ${rk.valid ? `'${rk.key}'` : "(none)"}` : "");
}

// costView says what a run cost: one request per page, the entities
// examined and returned, the bytes sent and received.
export function costView({ requests, examined = null, returned = null, sent, received }) {
  const parts = [plural(requests, "request") + (requests === 1 ? "" : ` (${plural(requests, "page")})`)];
  if (examined !== null) parts.push(`${number(examined)} examined`);
  if (returned !== null) parts.push(`${number(returned)} returned`);
  parts.push(`${number(sent)} bytes sent`, `${number(received)} bytes received`);
  return el("p", { class: "cost" }, el("strong", {}, "Cost: "), parts.join(" · "));
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
  const label = `The table's ${plural(total, "entity", "entities")} in key order; the key range covers positions ${number(first.rangeFrom + 1)} to ${number(first.rangeTo)}` +
    ` (${plural(first.rangeTo - first.rangeFrom, "entity", "entities")}); ${plural(pages.length, "page")} examined ${number(examined)} and returned ${number(returned)}.`;
  const strip = el("div", { class: "key-strip", role: "img", "aria-label": label },
    el("div", { class: "key-range-band", style: `left:${pct(first.rangeFrom, total)};width:${pct(first.rangeTo - first.rangeFrom, total)}` }),
    pages.map((p, i) => el("div", { class: "page-band" + (i % 2 ? " odd" : ""), "data-page": i + 1, style: `left:${pct(p.pageFrom, total)};width:${pct(p.pageTo - p.pageFrom, total)}` })),
    pages.filter((p) => p.next).map((p, i) => el("div", { class: "page-cut", "data-page": i + 1, style: `left:${pct(p.pageTo, total)}` })));
  return el("figure", { class: "query-picture" },
    el("div", { class: "strip-ends", "aria-hidden": "true" }, el("span", {}, "first key"), el("span", {}, `${number(total)} entities in key order`), el("span", {}, "last key")),
    strip,
    el("figcaption", {},
      el("p", { class: "picture-figures" },
        el("strong", { class: "examined" }, `${number(examined)} examined`), " · ",
        el("strong", { class: "returned" }, `${number(returned)} returned`), ` · the table holds ${number(total)}; the key range ${number(first.rangeTo - first.rangeFrom)}.`),
      el("p", { class: "hint" }, statement),
      el("ol", { class: "page-list", "aria-label": "Pages of this run" },
        pages.map((p, i) => el("li", { "data-page": i + 1 },
          el("strong", {}, `Page ${i + 1}`),
          `: examined positions ${number(p.pageFrom + 1)}–${number(p.pageTo)} (${number(p.examined)}), returned ${number(p.returned)}; `,
          p.next
            ? ["ended before ", el("code", { class: "token-key" }, keyOf(p.next)), ": its continuation token ", el("code", { class: "token" }, p.next.partitionKey?.raw ?? ""), p.next.rowKey ? [" / ", el("code", { class: "token" }, p.next.rowKey.raw)] : null, ` names that key, where page ${i + 2} starts.`]
            : "the last page: no continuation.")))));
}

// batchPictureView draws a transaction's operations in order, each with
// its answer: all committed, or the one that failed and the others rolled
// back, with the account before and after; a failure's caption is the one
// place that says it (with extra, the way to its exchange, after it).
export function batchPictureView(queue, answer, unchanged, extra = null) {
  const failed = answer.ok ? -1 : answer.failedIndex;
  return el("figure", { class: "batch-picture" },
    el("ol", { class: "batch-ops", "aria-label": "The transaction's operations, in order" },
      queue.map((op, i) => {
        const part = answer.ok ? answer.parts[i] : i === failed ? answer.parts[0] : null;
        const state = answer.ok ? "committed" : i === failed ? "failed" : "rolled-back";
        const says = answer.ok ? `${part?.status ?? ""} ${part?.statusText ?? ""}`.trim()
          : i === failed ? `failed: ${part?.status} ${part?.statusText}${part?.code ? " · " + part.code : ""}`
            : i < failed ? "undone with the rest" : "never run";
        return el("li", { class: `batch-op ${state}`, "data-index": i, "data-state": state },
          el("span", { class: "op-index" }, String(i + 1)),
          el("span", { class: "op-kind" }, op.kind),
          el("code", {}, `${op.entity?.PartitionKey ?? ""} / ${op.entity?.RowKey ?? ""}`),
          el("span", { class: "op-state" }, says));
      })),
    el("figcaption", {},
      answer.ok
        ? el("p", {}, `All ${plural(queue.length, "operation")} committed together, in this order.`)
        : el("p", { class: "account-state failed-note card", "data-unchanged": String(unchanged) },
          `The transaction failed at operation ${failed + 1} (index ${failed} in the service's answer): ${failedPart(answer.parts[0])}. `,
          unchanged ? "Nothing changed: " : "",
          `none of the ${plural(queue.length, "operation")} was written; `,
          unchanged === null
            ? [el("strong", {}, "the endpoint rolled it back"), " (by its own answer: its tables are not in this tab to look at)."]
            : [el("strong", {}, unchanged ? "the account is unchanged" : "the account changed"), " (compared with the engine's snapshot before and after)."],
          extra ? [" ", extra] : null)));
}

// failedPart says a failed operation's answer: status, code and message.
function failedPart(p) {
  return [`${p?.status ?? ""} ${p?.statusText ?? ""}`.trim(), p?.code, p?.message ? `“${p.message}”` : ""].filter(Boolean).join(" · ");
}
