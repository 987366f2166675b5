// web/transfer.js is responsible for moving the full page's account in and
// out: export as a JSON file, import one (checked completely by the engine
// first: a bad file changes nothing, and a file over MAX_ACCOUNT is not
// read), and reset; share links are web/workspace.js's. It drives the page
// header's account tools.
import { confirmAction } from "./confirm.js";
import { copyText, download } from "./files.js";
import { mb, MAX_ACCOUNT } from "./sharelink.js";

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
    download("tableplay-account.json", JSON.stringify(engine.snapshot(), null, 2), "application/json");
    note("Exported the account as tableplay-account.json.");
  }

  async function importFile(file) {
    if (file.size > MAX_ACCOUNT) {
      note(`Import refused, nothing changed: the file is ${mb(file.size)}; an account file may be at most ${mb(MAX_ACCOUNT)}.`);
      return;
    }
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

  $("export").addEventListener("click", exportFile);
  $("import-file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) importFile(f);
    e.target.value = "";
  });
  $("copy-share").addEventListener("click", async () => {
    note((await copyText($("share-link").value, $("share-link"))) ? "Link copied." : "Select the link and copy it.");
  });
  $("reset").addEventListener("click", async () => {
    if (!(await confirmAction(session.host, "Delete every table and entity in this browser?", "Reset"))) return;
    engine.reset();
    note("The account is empty.");
    changed();
  });
}
