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
import { el, replace } from "./dom.js";
import { count } from "./counts.js";

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
  replace(root,
    el("div", { class: "start-head" },
      el("h2", { id: "start-heading" }, "Start here"),
      el("p", { class: "hint" }, "A sample account is loaded: the tables Users and Products, and the user Ada in the editor."),
      el("button", { type: "button", class: "link", onclick: hide }, "Hide")),
    el("ol", { class: "start-steps" },
      step("Run a query.", ["Read one partition of Users with ", el("code", {}, FIRST_QUERY), ": see what the engine examined and returned."], runQuery, "Run this query"),
      step("Break a rule.", "In the editor, give Age the value 3.5: the rule card appears beside the field; Send shows what the service answers.", () => {
        $("editor-panel").scrollIntoView({ block: "start" });
        const age = [...document.querySelectorAll("#prop-rows .prop-name")].find((i) => i.value === "Age");
        age?.closest("tr").querySelector(".prop-value").focus();
      }, "Go to the editor"),
      step("Take a lesson.", `${count(engine.lessons().length, "lesson")}, short, each step run by the engine.`, () => {
        const details = document.querySelector("#lessons details");
        if (details) details.open = true;
        $("lessons").scrollIntoView({ block: "start" });
        document.querySelector("#lessons summary")?.focus();
      }, "Open the lessons")));
  root.hidden = false;
  document.body.dataset.start = "true";
}
