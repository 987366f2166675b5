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

// HEADERS are the answer headers a lesson step may be about: an ETag a write
// returns and the continuation of a query.
const HEADERS = ["ETag", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey"];

// verdict says whether the prediction was right; a wrong guess is followed
// by the reason, which is the explanation itself.
function verdict(predict, choice) {
  if (!predict) return null;
  const right = predict.answer;
  const answer = predict.choices[right];
  if (choice === null) return prose(`The answer: ${answer}`, "p", { class: "verdict" });
  if (choice === right) return prose(`Right: ${answer}`, "p", { class: "verdict good" });
  return prose(`You predicted “${predict.choices[choice]}”; the answer is ${answer}. Here is why:`, "p", { class: "verdict bad" });
}

// queryView lists the request's query as the engine decoded it.
export function queryView(query) {
  if (!query?.length) return null;
  return el("dl", { class: "lesson-query", "aria-label": "The query, decoded" },
    query.map(([k, v]) => [el("dt", {}, k), el("dd", {}, el("code", {}, v))]));
}

function outcomeView(r) {
  const o = r.outcome;
  const items = [];
  if (o.status) items.push(el("li", { class: "outcome-status" }, `Status ${o.status}${o.code ? ` · ${o.code}` : ""}`));
  if (o.valid !== undefined) items.push(el("li", {}, o.valid ? "Valid" : "Invalid"));
  if (r.report?.canonical) items.push(el("li", {}, "Read as ", el("code", {}, r.report.canonical)));
  if (o.size !== undefined) items.push(el("li", {}, `Size ${o.size} bytes, ${o.count} properties`));
  if (o.rowKeys) {
    items.push(el("li", {}, `Returned ${o.returned}${o.scanned !== undefined ? `, examined ${o.scanned}` : ""}${o.more ? ", with a continuation" : ""}`));
    if (o.rowKeys.length && o.rowKeys.length <= 12) items.push(el("li", {}, "RowKeys: ", o.rowKeys.map((k, i) => [i ? ", " : "", el("code", {}, k)])));
  }
  if (o.failedIndex !== undefined && o.failedIndex >= 0) items.push(el("li", {}, `Failing operation: index ${o.failedIndex}`));
  if (o.annotated && r.request?.method === "GET" && !o.rowKeys) {
    items.push(el("li", {}, o.annotated.length ? ["Annotated with @odata.type: ", o.annotated.map((k, i) => [i ? ", " : "", el("code", {}, k)])] : "No @odata.type annotations"));
  }
  for (const [name, value] of r.response?.headers ?? []) {
    if (HEADERS.some((h) => h.toLowerCase() === name.toLowerCase())) items.push(el("li", { class: "outcome-header" }, `${name}: `, el("code", {}, value)));
  }
  return el("ul", { class: "outcome", "aria-label": "Outcome" }, items);
}

// resultView is everything a run shows; step is 1-based, lesson the view.
export function resultView(lesson, step, s, r, choice) {
  if (r.error) return [verdict(s.predict, choice), el("p", { class: "card", role: "alert" }, r.error)];
  const broken = [...(r.report?.violations ?? []), ...(r.report?.error ? [r.report.error] : [])];
  return [
    verdict(s.predict, choice),
    prose(r.explanation, "p", { class: "lesson-explain" }),
    s.note ? prose(`The docs and the service disagree: ${s.note}`, "p", { class: "lesson-note" }) : null,
    outcomeView(r),
    queryView(r.query),
    broken.length ? el("div", { class: "cards" }, broken.map(card)) : null,
    lesson.clients && r.request ? clientsView(lesson, r) : null,
    r.request && r.response
      ? el("details", { class: "lesson-exchange-box" },
        el("summary", {}, `The whole exchange: ${r.request.method} and ${r.response.status} ${r.response.statusText}`),
        exchange(r.request, r.response, `Step ${step}`))
      : null,
  ];
}
