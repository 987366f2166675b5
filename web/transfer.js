// web/transfer.js is responsible for moving the full page's account in and
// out: export as a JSON file, import one (checked completely by the engine
// first: a bad file changes nothing, and a file over MAX_ACCOUNT is not
// read), and reset; share links are web/workspace.js's. It drives the page
// header's account tools.
import { confirmAction } from "./confirm.js";
import { copyText, download } from "./files.js";
import { mb, MAX_ACCOUNT } from "./sharelink.js";
import { t } from "./i18n.js";

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
    note(t("transfer.exported", { file: "tableplay-account.json" }));
  }

  async function importFile(file) {
    if (file.size > MAX_ACCOUNT) {
      note(t("transfer.tooLarge", { size: mb(file.size), max: mb(MAX_ACCOUNT) }));
      return;
    }
    const text = await file.text();
    try {
      engine.restore(text);
    } catch (e) {
      note(t("transfer.refused", { why: e.message }));
      return;
    }
    note(t("transfer.imported", { file: file.name }));
    changed();
  }

  $("export").addEventListener("click", exportFile);
  $("import-file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) importFile(f);
    e.target.value = "";
  });
  $("copy-share").addEventListener("click", async () => {
    note((await copyText($("share-link").value, $("share-link"))) ? t("transfer.copied") : t("transfer.select"));
  });
  $("reset").addEventListener("click", async () => {
    if (!(await confirmAction(session.host, t("transfer.resetQuestion"), t("transfer.reset")))) return;
    engine.reset();
    note(t("transfer.empty"));
    changed();
  });
}
