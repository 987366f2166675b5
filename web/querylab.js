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

const roleNames = { range: "narrows the key range", entity: "per entity", mismatch: "type mismatch" };

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
  return el("pre", { class: "marked", "aria-label": `The mistake starts at character ${start + 1}` },
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
    el("p", {}, "Canonical form: ", el("code", { class: "canonical" }, x.canonical)),
    el("p", { class: "key-range" }, x.keyRange.statement),
    el("ol", { class: "clauses", "aria-label": "The filter clause by clause" },
      (x.clauses ?? []).map((c) =>
        el("li", { class: "clause " + c.role, "data-role": c.role },
          el("code", {}, c.text), " ", el("span", { class: "role" }, roleNames[c.role] ?? c.role), ": ", saysAfter(roleNames[c.role] ?? c.role, c.says),
          (c.mismatches ?? []).length ? el("ul", { class: "mismatches" }, c.mismatches.map((m) => el("li", { class: "mismatch" }, m.says))) : null))),
  ];
}

// tokenView shows the continuation tokens of a page beside the keys they name.
export function tokenView(t) {
  const token = (label, tok) =>
    tok ? el("li", {}, `${label} `, el("code", { class: "token" }, tok.raw), " → ", tok.valid ? el("code", { class: "token-key" }, tok.key) : "names no key") : null;
  return el("div", { class: "tokens" },
    el("ul", { "aria-label": "Continuation tokens" }, token("NextPartitionKey", t.partitionKey), token("NextRowKey", t.rowKey), token("NextTableName", t.tableName)),
    t.says ? el("p", {}, t.says) : null);
}

// createHistory keeps the runs of one query panel (newest first, at most
// max) in list, each with examined against returned drawn as a meter. add
// returns the run's entry; its update takes the figures again once a next
// page of the same run is read (pages counts them).
export function createHistory(list, max = 10) {
  let runs = 0;
  return {
    add({ filter, scanned, returned, statement, more, pages = 1 }) {
      runs++;
      const n = runs;
      const meter = el("meter", { min: 0 });
      const figures = el("p", { class: "run-figures" });
      const title = el("strong", {});
      const show = (f) => {
        const paged = f.pages > 1 ? `, ${number(f.pages)} pages` : "";
        const label = `Run ${n}${paged}: ${number(f.returned)} returned of ${number(f.scanned)} examined`;
        title.textContent = f.pages > 1 ? `Run ${n}, page ${f.pages}` : `Run ${n}`;
        Object.assign(meter, { max: Math.max(f.scanned, 1), value: f.returned, title: label });
        meter.setAttribute("aria-label", label);
        figures.textContent = `${number(f.returned)} returned · ${number(f.scanned)} examined` + (f.scanned ? ` · ${Math.round((100 * f.returned) / f.scanned)}% of the scan was kept` : "") +
          (f.pages > 1 ? ` · ${number(f.pages)} pages, ${number(f.pages)} requests` : "") + (f.more ? " · more pages" : "");
      };
      show({ scanned, returned, more, pages });
      const li = el("li", { class: "run" },
        el("p", {}, title, " ", filter ? el("code", {}, filter) : "(no filter)"),
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
