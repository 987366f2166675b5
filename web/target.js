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

export function initTarget(root, { session, parts, persistence }) {
  const engine = session.engine;
  const select = el("select", { id: "target", "aria-describedby": "target-active target-note" },
    engine.profiles().map((p) => el("option", { value: p.name }, p.title)));
  const active = el("span", { id: "target-active", class: "target-active" });
  const note = el("p", { id: "target-note", class: "target-note" });
  replace(root,
    el("label", { for: "target" }, "Answer as"),
    select,
    active,
    note);

  function refresh() {
    const p = engine.profile();
    select.value = p.name;
    replace(active, "Answering as ", el("strong", {}, p.title));
    document.body.dataset.profile = p.name;
    return p;
  }

  // While the page is connected to an endpoint elsewhere (web/connect.js),
  // that endpoint answers as itself: the picker, which sets the engine in
  // this tab, waits.
  session.on("target-changed", ({ endpoint }) => {
    select.disabled = Boolean(endpoint);
    note.classList.remove("bad");
    note.textContent = endpoint ? `Connected: ${endpoint} answers as itself; the picker applies to the engine in this tab after Disconnect.` : "";
  });

  select.addEventListener("change", async () => {
    const before = engine.profile();
    const want = select.value;
    try {
      engine.setProfile(want);
    } catch (e) {
      refresh();
      note.classList.add("bad");
      note.textContent = `Still ${before.title}: ${e.message}.`;
      session.setStatus(`The engine kept ${before.title}: ${e.message}.`);
      return;
    }
    const now = refresh();
    persistence.rememberProfile();
    note.classList.remove("bad");
    note.textContent = "";
    await parts.tables.refresh();
    session.emit("entities-changed");
    session.setStatus(`The account now answers as ${now.title}; its tables are kept.`);
  });

  refresh();
  return { refresh };
}
