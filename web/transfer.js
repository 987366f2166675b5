// web/transfer.js is responsible for moving the full page's account in and
// out: export as a JSON file, import one (checked completely by the engine
// first: a bad file changes nothing), share links that carry the account
// compressed in the URL fragment, and reset. It drives the page header's
// account tools.
import { confirmAction } from "./confirm.js";
import { decode, shareLink, MAX_FRAGMENT } from "./sharelink.js";

// initTransfer wires the account tools of the page for a session.
export function initTransfer(session) {
  const $ = (id) => document.getElementById(id);
  const engine = session.engine;
  const note = (text) => {
    $("account-note").textContent = text;
  };
  const changed = () => {
    session.emit("tables-changed");
    session.emit("entities-changed");
  };

  function exportFile() {
    const text = JSON.stringify(engine.snapshot(), null, 2);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    a.download = "tableplay-account.json";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    note("Exported the account as tableplay-account.json.");
  }

  async function importFile(file) {
    const text = await file.text();
    try {
      engine.restore(text);
    } catch (e) {
      note(`Import refused, nothing changed: ${e.message}`);
      return;
    }
    note(`Imported ${file.name}.`);
    changed();
  }

  async function share() {
    const { link, length } = await shareLink(location.origin + location.pathname, JSON.stringify(engine.snapshot()));
    if (!link) {
      $("share-box").hidden = true;
      note(`This account is too large for a link (${length.toLocaleString("en-US")} characters; links hold up to ${MAX_FRAGMENT.toLocaleString("en-US")}). Use Export to share it as a file.`);
      return;
    }
    $("share-link").value = link;
    $("share-box").hidden = false;
    note("Anyone opening this link gets a copy of this account.");
  }

  // openShared restores an account from a link's fragment, asking first when
  // this browser already holds tables.
  async function openShared() {
    const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
    if (!m) return false;
    let text;
    try {
      text = await decode(m[1]);
    } catch {
      note("This link's account could not be read.");
      return false;
    }
    const local = engine.snapshot().tables.length > 0;
    if (local && !(await confirmAction(session.host, "Replace the tables in this browser with the shared account?", "Replace"))) {
      note("Kept your tables; the shared account was not loaded.");
      return false;
    }
    try {
      engine.restore(text);
    } catch (e) {
      note(`The shared account was refused: ${e.message}`);
      return false;
    }
    history.replaceState(null, "", location.pathname);
    note("Loaded the shared account.");
    changed();
    return true;
  }

  $("export").addEventListener("click", exportFile);
  $("import-file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) importFile(f);
    e.target.value = "";
  });
  $("share").addEventListener("click", share);
  $("copy-share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share-link").value);
      note("Link copied.");
    } catch {
      $("share-link").select();
      note("Select the link and copy it.");
    }
  });
  $("reset").addEventListener("click", async () => {
    if (!(await confirmAction(session.host, "Delete every table and entity in this browser?", "Reset"))) return;
    engine.reset();
    note("The account is empty.");
    changed();
  });
  return { openShared };
}
