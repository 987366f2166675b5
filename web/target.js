// web/target.js is responsible for the full page's target picker: which
// implementation of the Table API the account answers as (Azure Table
// Storage, Cosmos DB for Table, Azurite 3.37; docs/profiles.md). The choice
// is the engine's (setProfile): the page only offers the engine's list,
// shows the engine's answer and, when the engine refuses (two tables whose
// names differ only in case, on the way back to a profile that folds case),
// its message.
//
// initTarget(root, {session, parts, persistence}) renders the picker into
// root and returns {refresh}, which shows the profile the engine holds
// (after a workspace or a saved account changed it). The session's
// "target-changed" ({endpoint}, web/connect.js) disables it while another
// endpoint answers.
import { el, replace } from "./dom.js";
import { t, nodes, onChange } from "./i18n.js";

export function initTarget(root, { session, parts, persistence }) {
  const engine = session.engine;
  const select = el("select", { id: "target", "aria-describedby": "target-active target-note" },
    engine.profiles().map((p) => el("option", { value: p.name }, p.title)));
  const active = el("span", { id: "target-active", class: "target-active" });
  const note = el("p", { id: "target-note", class: "target-note" });
  const label = el("label", { for: "target" }, t("target.label"));
  replace(root, label, select, active, note);
  // note's words, kept as a function so that a switch of language says
  // them again.
  let noted = null;
  const say = (fn) => {
    noted = fn;
    note.textContent = fn ? fn() : "";
  };

  function refresh() {
    const p = engine.profile();
    select.value = p.name;
    replace(active, nodes("target.active", { profile: el("strong", {}, p.title) }));
    document.body.dataset.profile = p.name;
    return p;
  }

  // While the page is connected to an endpoint elsewhere (web/connect.js),
  // that endpoint answers as itself: the picker, which sets the engine in
  // this tab, waits.
  session.on("target-changed", ({ endpoint }) => {
    select.disabled = Boolean(endpoint);
    note.classList.remove("bad");
    say(endpoint ? () => t("target.connected", { endpoint }) : null);
  });

  select.addEventListener("change", async () => {
    const before = engine.profile();
    const want = select.value;
    try {
      engine.setProfile(want);
    } catch (e) {
      refresh();
      note.classList.add("bad");
      say(() => t("target.still", { profile: before.title, why: e.message }));
      session.setStatus(() => t("target.kept", { profile: before.title, why: e.message }));
      return;
    }
    const now = refresh();
    persistence.rememberProfile();
    note.classList.remove("bad");
    say(null);
    await parts.tables.refresh();
    session.emit("entities-changed");
    session.setStatus(() => t("target.changed", { profile: now.title }));
  });

  refresh();
  onChange(() => {
    label.textContent = t("target.label");
    refresh();
    if (noted) note.textContent = noted();
  });
  return { refresh };
}
