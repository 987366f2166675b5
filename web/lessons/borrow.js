// web/lessons/borrow.js is responsible for "Try it yourself" on the full
// page: the person's workbench is lent to a lesson — the lesson's account,
// its table and its query — and given back exactly as it was (account,
// selection, draft, query, batch queue, metadata level, and the answers on
// screen) when the person chooses "Back to my workspace" or leaves the
// lesson. While lent, nothing is saved: the saved account stays the
// person's, so a reload gives it back too.
//
// createBorrow({workspace, persistence, parts, session, host}) → {tryIt(place), back()}
//   workspace    {capture, apply} (web/workspace.js)
//   host         the element the "lent" banner is put at the top of
import { el } from "../dom.js";
import { t, nodes, onChange } from "../i18n.js";

// ANSWERS are the parts' answer areas, whose nodes are set aside and put
// back as they were (the wire log, the levels, the query's and the batch's
// answers).
const ANSWERS = ["exchanges", "levels", "filter-explain", "query-summary", "query-results", "query-history", "batch-answer", "batch-result"];

export function createBorrow({ workspace, persistence, parts, session, host }) {
  let kept = null; // {workspace, answers: Map(id → nodes)}
  const banner = el("div", { class: "lesson-borrow", role: "region", "aria-label": t("lessons.borrow.label"), hidden: true });
  host.prepend(banner);
  let lent = null; // the lesson the banner names

  // showBanner says which lesson holds the workbench, in the shown language.
  function showBanner() {
    banner.setAttribute("aria-label", t("lessons.borrow.label"));
    banner.replaceChildren(
      el("p", {}, nodes("lessons.borrow.trying", { lesson: el("strong", {}, t("lessons.borrow.tryingLesson", { lesson: lent })) })),
      el("button", { type: "button", class: "secondary", onclick: () => back() }, t("lessons.borrow.back")));
  }
  onChange(() => {
    if (!banner.hidden && lent !== null) showBanner();
  });

  function keepAnswers() {
    const answers = new Map();
    for (const id of ANSWERS) {
      const node = document.getElementById(id);
      if (node) answers.set(id, [...node.childNodes]);
    }
    for (const id of ANSWERS) document.getElementById(id)?.replaceChildren();
    return answers;
  }

  async function tryIt(place) {
    if (!kept) {
      kept = { workspace: workspace.capture(), answers: keepAnswers() };
      persistence.pause();
    } else {
      for (const id of ANSWERS) document.getElementById(id)?.replaceChildren();
    }
    // place.profile: the implementation the lesson's step answered as (a
    // recording has none: the page's own stays).
    // The lesson's tables come with an empty editor: the person's own draft
    // (the sample's user, say) stays with their workspace, not in a lesson
    // about something else. place.draft keeps one (the recorder's).
    await workspace.apply({
      workspace: 1, profile: place.profile, account: place.account, table: place.table,
      query: { filter: place.filter, select: place.select, top: place.top },
      batch: [], level: kept.workspace.level,
      draft: place.draft ?? { PartitionKey: "", RowKey: "", properties: [] },
    });
    // One banner, one way back: the recorder shows its own (place.banner false).
    if (place.banner === false) {
      banner.hidden = true;
      return;
    }
    lent = place.lesson;
    showBanner();
    banner.hidden = false;
    session.setStatus(() => place.table ? t("lessons.borrow.statusTable", { lesson: place.lesson, table: place.table }) : t("lessons.borrow.statusAccount", { lesson: place.lesson }));
    document.getElementById("query-panel")?.scrollIntoView({ block: "start" });
    document.getElementById("filter")?.focus({ preventScroll: true });
  }

  async function back() {
    if (!kept) return;
    const { workspace: w, answers } = kept;
    kept = null;
    await persistence.resume();
    await workspace.apply(w);
    for (const [id, nodes] of answers) document.getElementById(id)?.replaceChildren(...nodes);
    await parts.tables.refresh();
    // Hidden only once the workspace is back, so the banner going away means
    // the person's own account is on screen again.
    banner.hidden = true;
    lent = null;
    session.setStatus(() => t("lessons.borrow.backStatus"));
  }

  return { tryIt, back };
}
