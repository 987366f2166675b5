// web/querylab.js is responsible for showing what a query costs and why, as
// the engine explains it: the filter clause by clause (which clause narrows
// the key range, which is evaluated per entity, where a type mismatch fixes
// the answer), the key range stated exactly, a syntax error's place counted
// as people count with the fix for a symbol, continuation tokens with the
// keys they name, and a history of runs comparing examined with returned.
// It only lays out what tableplay.explainFilter, decodeContinuation and
// queryStats answer.
import { el, number } from "./dom.js";
import { card } from "./cards.js";
import { t, onChange } from "./i18n.js";

// roleNames name a clause's role; the engine's sentence after it is its own.
const roleNames = { range: () => t("querylab.range"), entity: () => t("querylab.entity"), mismatch: () => t("querylab.mismatch") };
const roleName = (role) => roleNames[role]?.() ?? role;

// saysAfter is the engine's sentence after its role's name, without the
// words the name has just said ("narrows the key range: Narrows the key
// range: only …" reads "narrows the key range: only …").
function saysAfter(role, says = "") {
  if (!says.toLowerCase().startsWith(role.toLowerCase())) return says;
  const rest = says.slice(role.length).replace(/^[\s:,]+/, "");
  return rest ? rest[0].toUpperCase() + rest.slice(1) : says;
}

// markSpan shows text with the UTF-16 span [start, end) marked.
function markSpan(text, start, end) {
  const units = [...text];
  let at = 0;
  const before = [];
  const inside = [];
  const after = [];
  for (const ch of units) {
    (at < start ? before : at < end ? inside : after).push(ch);
    at += ch.length;
  }
  return el("pre", { class: "marked", "aria-label": t("querylab.mistakeAt", { n: start + 1 }) },
    before.join(""), el("mark", {}, inside.join("") || " "), after.join(""));
}

// explanationView lays out tableplay.explainFilter's answer for text.
export function explanationView(x, text) {
  if (!x.valid) {
    return [
      x.span ? markSpan(text, x.span.start, x.span.end) : null,
      x.where ? el("p", { class: "where" }, x.where) : null,
      x.hint ? el("p", { class: "hint-fix" }, x.hint) : null,
      card(x.error),
    ];
  }
  return [
    el("p", {}, t("querylab.canonical"), " ", el("code", { class: "canonical" }, x.canonical)),
    el("p", { class: "key-range" }, x.keyRange.statement),
    el("ol", { class: "clauses", "aria-label": t("querylab.clauses") },
      (x.clauses ?? []).map((c) =>
        el("li", { class: "clause " + c.role, "data-role": c.role },
          el("code", {}, c.text), " ", el("span", { class: "role" }, roleName(c.role)), ": ", saysAfter(roleName(c.role), c.says),
          (c.mismatches ?? []).length ? el("ul", { class: "mismatches" }, c.mismatches.map((m) => el("li", { class: "mismatch" }, m.says))) : null))),
  ];
}

// tokenView shows the continuation tokens of a page beside the keys they name.
export function tokenView(tokens) {
  const token = (label, tok) =>
    tok ? el("li", {}, `${label} `, el("code", { class: "token" }, tok.raw), " → ", tok.valid ? el("code", { class: "token-key" }, tok.key) : t("querylab.noKey")) : null;
  return el("div", { class: "tokens" },
    el("ul", { "aria-label": t("querylab.tokens") }, token("NextPartitionKey", tokens.partitionKey), token("NextRowKey", tokens.rowKey), token("NextTableName", tokens.tableName)),
    tokens.says ? el("p", {}, tokens.says) : null);
}

// createHistory keeps the runs of one query panel (newest first, at most
// max) in list, each with examined against returned drawn as a meter. add
// returns the run's entry; its update takes the figures again once a next
// page of the same run is read (pages counts them).
// A signal, when given, ends its following of the shown locale.
export function createHistory(list, max = 10, signal = null) {
  let runs = 0;
  return {
    add({ filter, scanned, returned, statement, more, pages = 1 }) {
      runs++;
      const n = runs;
      const meter = el("meter", { min: 0 });
      const figures = el("p", { class: "run-figures" });
      const title = el("strong", {});
      const none = el("span", {});
      let last = null;
      const show = (f) => {
        last = f;
        const p = { run: n, pages: f.pages, returned: number(f.returned), scanned: number(f.scanned) };
        const label = f.pages > 1 ? t("querylab.runLabelPages", p) : t("querylab.runLabel", p);
        title.textContent = f.pages > 1 ? t("querylab.runPage", p) : t("querylab.run", p);
        Object.assign(meter, { max: Math.max(f.scanned, 1), value: f.returned, title: label });
        meter.setAttribute("aria-label", label);
        figures.textContent = t("querylab.figures", p) + (f.scanned ? t("querylab.kept", { percent: Math.round((100 * f.returned) / f.scanned) }) : "") +
          (f.pages > 1 ? t("querylab.pages", { n: f.pages }) : "") + (f.more ? t("query.morePages") : "");
        none.textContent = t("querylab.noFilter");
      };
      show({ scanned, returned, more, pages });
      const stop = onChange(() => (li.isConnected ? show(last) : stop()), signal);
      const li = el("li", { class: "run" },
        el("p", {}, title, " ", filter ? el("code", {}, filter) : none),
        meter, figures,
        statement ? el("p", { class: "hint" }, statement) : null);
      list.prepend(li);
      while (list.children.length > max) list.lastElementChild.remove();
      return { update: show };
    },
    clear() {
      list.replaceChildren();
    },
  };
}

// filterPlaceholder is the engine's suggested filter for the selected
// table's first entity (its PartitionKey and one typed property).
export function filterPlaceholder(engine, row) {
  return engine.filterExample(row?.draft ?? null);
}
