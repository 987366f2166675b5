// web/start.js is responsible for a first visit: a new visitor (no visit
// remembered in this browser and an empty saved account) gets the sample
// account and a three-step "start here" path whose first step runs a query
// in the query panel, placed in the first screen. A returning visitor gets
// the saved workspace as it was; Reset still empties the account, and the
// path does not come back once hidden or once the visit is remembered.
//
// initStart(root, {session, engine, linked}) shows the path in root when
// this is a first visit and resolves once the sample is in; linked says the
// page opened a workspace link (never a first visit then).
import { el, live } from "./dom.js";
import { count } from "./counts.js";
import { t, nodes } from "./i18n.js";

const VISITED = "tableplay:visited";

// remembered reads the visit flag; storage that cannot be read counts as a
// visit, so a blocked browser is not given the sample on every load.
function remembered() {
  try {
    return localStorage.getItem(VISITED) !== null;
  } catch {
    return true;
  }
}

function remember() {
  try {
    localStorage.setItem(VISITED, "1");
  } catch {
    // nothing to remember with
  }
}

const FIRST_QUERY = "PartitionKey eq 'users'";

export async function initStart(root, { session, engine, linked }) {
  const first = !linked && !remembered() && (engine.snapshot().tables ?? []).length === 0;
  remember();
  if (!first) return;
  const loaded = new Promise((resolve) => session.on("sample-loaded", resolve));
  session.emit("load-sample");
  await loaded;
  const $ = (id) => document.getElementById(id);
  const hide = () => {
    root.hidden = true;
    delete document.body.dataset.start;
    // The Hide button went with the path: focus moves on to what follows
    // it rather than falling back to the page's start.
    (document.querySelector("#lessons summary") ?? $("filter"))?.focus();
  };
  const runQuery = () => {
    $("filter").value = FIRST_QUERY;
    $("filter").dispatchEvent(new Event("input"));
    $("query-form").requestSubmit();
    $("query-panel").scrollIntoView({ block: "start" });
  };
  const step = (title, text, action, label) =>
    el("li", { class: "start-step" }, el("strong", {}, title), " ", text, " ", el("button", { type: "button", class: "secondary", onclick: action }, label));
  const lessons = engine.lessons().length;
  live(root, () => [
    el("div", { class: "start-head" },
      el("h2", { id: "start-heading" }, t("start.heading")),
      el("p", { class: "hint" }, t("start.sample")),
      el("button", { type: "button", class: "link", onclick: hide }, t("start.hide"))),
    el("ol", { class: "start-steps" },
      step(t("start.queryTitle"), nodes("start.queryText", { query: el("code", {}, FIRST_QUERY) }), runQuery, t("start.queryButton")),
      step(t("start.ruleTitle"), t("start.ruleText"), () => {
        $("editor-panel").scrollIntoView({ block: "start" });
        const age = [...document.querySelectorAll("#prop-rows .prop-name")].find((i) => i.value === "Age");
        age?.closest("tr").querySelector(".prop-value").focus();
      }, t("start.ruleButton")),
      step(t("start.lessonTitle"), t("start.lessonText", { lessons: count(lessons, "lesson") }), () => {
        const details = document.querySelector("#lessons details");
        if (details) details.open = true;
        $("lessons").scrollIntoView({ block: "start" });
        document.querySelector("#lessons summary")?.focus();
      }, t("start.lessonButton")))], session.signal);
  root.hidden = false;
  document.body.dataset.start = "true";
}
