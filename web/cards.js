// web/cards.js is responsible for showing rule cards: the data of a
// violation exactly as the engine reports it (tableplay.validate*), laid
// out for people, with where Cosmos DB for Table or Azurite answer the rule
// otherwise, in the engine's words (core/profile's differences).
import { el, number } from "./dom.js";
import { t, nodes, learnURL, formatList } from "./i18n.js";

export const errorCodesURL = "https://learn.microsoft.com/en-us/rest/api/storageservices/table-service-error-codes";

// measureText says "32,768 UTF-16 code units; the limit is 32,767" (the
// unit as the engine words it).
export function measureText(m) {
  return t("cards.measure", { value: number(m.value), unit: m.unit, limit: number(m.limit) });
}

// card shows first what the person asked (which rule, what was measured,
// what the service answers) and folds the rest — the rule's source, where
// sources disagree, where other implementations answer otherwise — one
// click away, as every engine datum stays on the card.
export function card(c) {
  const r = c.rule;
  const more = [
    r?.docUrl ? el("p", {}, nodes("cards.rule", { section: el("a", { href: learnURL(r.docUrl), target: "_blank", rel: "noopener" }, r.section) })) : null,
    r?.disputed ? el("p", { class: "dispute" }, nodes("cards.dispute", { dispute: r.dispute ?? "" })) : null,
    profileNotes(c.profiles, false),
  ].filter(Boolean);
  return el(
    "div",
    { class: "card", "data-rule": r?.id ?? "", "data-code": c.code },
    el("p", {},
      el("a", { class: "code", href: learnURL(errorCodesURL), target: "_blank", rel: "noopener" }, c.code),
      ` (${c.status})`,
      r?.property ? ` · ${r.property}` : ""),
    el("p", { class: "statement" }, r?.statement ?? c.message),
    r?.measure ? el("p", { class: "measure" }, measureText(r.measure)) : null,
    r?.detail ? el("p", { class: "detail" }, r.detail) : null,
    el("p", { class: "message" }, nodes("cards.answers", { message: el("q", { lang: "en" }, c.message) })),
    more.length ? el("details", { class: "card-more" }, el("summary", {}, moreLabel(r, c.profiles)), more) : null,
  );
}

// moreLabel names what the folded part of a card holds.
function moreLabel(r, profiles) {
  const parts = [r?.docUrl ? t("cards.moreSource") : null, r?.disputed ? t("cards.moreDispute") : null, profiles?.length ? t("cards.moreOthers") : null].filter(Boolean);
  const text = formatList(parts);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// profileNotes lists differences between implementations ({id, sentence}
// as the engine gives them), or nothing when there are none; folded in a
// <details> unless folded is false (they answer a question a newcomer has
// not asked yet).
export function profileNotes(list, folded = true) {
  if (!list?.length) return null;
  const notes = el("div", { class: "profile-notes" },
    el("p", {}, t("cards.differ")),
    el("ul", {}, list.map((d) => el("li", { "data-difference": d.id }, d.sentence, " ", el("span", { class: "fid" }, `(${d.id})`)))));
  if (!folded) return notes;
  return el("details", { class: "card-more notes-more" }, el("summary", {}, t("cards.differCount", { n: list.length })), notes);
}

export function cards(list) {
  return list.map(card);
}
