// web/lessons/result.js is responsible for what a lesson step shows once it
// has run: whether the prediction was right, the step's explanation (the
// engine's figures filled in by the engine), the docs note, the outcome in a
// few lines — the status, the rows, the one header the step is about — the
// query decoded, and the full exchange folded away. The author's self-check
// (the outcome against the lesson's claim) is kept as data-ok for tests and
// never shown.
import { el } from "../dom.js";
import { prose, exchange } from "./text.js";
import { clientsView } from "./clients.js";
import { card } from "../cards.js";
import { t, nodes } from "../i18n.js";

// HEADERS are the answer headers a lesson step may be about: an ETag a write
// returns and the continuation of a query.
const HEADERS = ["ETag", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey"];

// verdict says whether the prediction was right; a wrong guess is followed
// by the reason, which is the explanation itself.
function verdict(predict, choice) {
  if (!predict) return null;
  const right = predict.answer;
  const answer = predict.choices[right];
  if (choice === null) return prose(t("lessons.verdictAnswer", { answer }), "p", { class: "verdict" });
  if (choice === right) return prose(t("lessons.verdictRight", { answer }), "p", { class: "verdict good" });
  return prose(t("lessons.verdictWrong", { chosen: predict.choices[choice], answer }), "p", { class: "verdict bad" });
}

// queryView lists the request's query as the engine decoded it.
export function queryView(query) {
  if (!query?.length) return null;
  return el("dl", { class: "lesson-query", "aria-label": t("lessons.queryLabel") },
    query.map(([k, v]) => [el("dt", {}, k), el("dd", {}, el("code", {}, v))]));
}

function outcomeView(r) {
  const o = r.outcome;
  const items = [];
  // The status is a code, not a quantity: it is never grouped.
  if (o.status) items.push(el("li", { class: "outcome-status" }, t("lessons.outcomeStatus", { status: String(o.status) }), o.code ? ` · ${o.code}` : ""));
  if (o.valid !== undefined) items.push(el("li", {}, o.valid ? t("lessons.valid") : t("lessons.invalid")));
  if (r.report?.canonical) items.push(el("li", {}, nodes("lessons.readAs", { canonical: el("code", {}, r.report.canonical) })));
  if (o.size !== undefined) items.push(el("li", {}, t("lessons.size", { size: o.size, count: o.count })));
  if (o.rowKeys) {
    const returned = [t("lessons.returned", { returned: o.returned })];
    if (o.scanned !== undefined) returned.push(t("lessons.examined", { scanned: o.scanned }));
    if (o.more) returned.push(t("lessons.continued"));
    items.push(el("li", {}, returned.join(t("lessons.listSep"))));
    if (o.rowKeys.length && o.rowKeys.length <= 12) items.push(el("li", {}, "RowKeys: ", o.rowKeys.map((k, i) => [i ? ", " : "", el("code", {}, k)])));
  }
  if (o.failedIndex !== undefined && o.failedIndex >= 0) items.push(el("li", {}, t("lessons.failedIndex", { index: o.failedIndex })));
  if (o.annotated && r.request?.method === "GET" && !o.rowKeys) {
    items.push(el("li", {}, o.annotated.length ? nodes("lessons.annotated", { names: o.annotated.map((k, i) => [i ? ", " : "", el("code", {}, k)]).flat() }) : t("lessons.notAnnotated")));
  }
  for (const [name, value] of r.response?.headers ?? []) {
    if (HEADERS.some((h) => h.toLowerCase() === name.toLowerCase())) items.push(el("li", { class: "outcome-header" }, `${name}: `, el("code", {}, value)));
  }
  return el("ul", { class: "outcome", "aria-label": t("lessons.outcomeLabel") }, items);
}

// resultView is everything a run shows; step is 1-based, lesson the view.
export function resultView(lesson, step, s, r, choice) {
  if (r.error) return [verdict(s.predict, choice), el("p", { class: "card", role: "alert" }, r.error)];
  const broken = [...(r.report?.violations ?? []), ...(r.report?.error ? [r.report.error] : [])];
  return [
    verdict(s.predict, choice),
    prose(r.explanation, "p", { class: "lesson-explain" }),
    s.note ? prose(t("lessons.note", { note: s.note }), "p", { class: "lesson-note" }) : null,
    outcomeView(r),
    queryView(r.query),
    broken.length ? el("div", { class: "cards" }, broken.map(card)) : null,
    lesson.clients && r.request ? clientsView(lesson, r) : null,
    r.request && r.response
      ? el("details", { class: "lesson-exchange-box" },
        el("summary", {}, t("lessons.wholeExchange", { method: r.request.method, status: String(r.response.status), statusText: r.response.statusText })),
        exchange(r.request, r.response, t("lessons.step", { step })))
      : null,
  ];
}
