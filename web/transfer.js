// web/transfer.js is responsible for moving the full page's account in and
// out: export as a JSON file, import one (checked completely by the engine
// first: a bad file changes nothing), share links that carry the account
// compressed in the URL fragment, and reset. It drives the page header's
// account tools.
import { confirmAction } from "./confirm.js";
import { decode, shareLink, mb, MAX_ACCOUNT, MAX_FRAGMENT } from "./sharelink.js";

// initTransfer wires the account tools of the page for a session;
// persistence is the page's saving (paused while a shared account is open
// for the visit only).
export function initTransfer(session, persistence) {
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

  // openShared opens the account of a link's fragment for this visit only:
  // the saved account stays as it was unless the person chooses Keep. A
  // link longer than the page makes is refused before inflating.
  async function openShared() {
    const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
    if (!m) return false;
    history.replaceState(null, "", location.pathname);
    if (m[1].length + 3 > MAX_FRAGMENT) {
      note(`This link was not opened: it holds ${m[1].length.toLocaleString("en-US")} characters, more than the ${MAX_FRAGMENT.toLocaleString("en-US")} of a link this page makes.`);
      return false;
    }
    let text;
    try {
      text = await decode(m[1]);
    } catch (e) {
      note(e instanceof RangeError ? `This link was not opened: ${e.message}.` : "This link's account could not be read.");
      return false;
    }
    persistence.pause(true);
    try {
      engine.restore(text);
    } catch (e) {
      persistence.pause(false);
      note(`The shared account was refused: ${e.message}`);
      return false;
    }
    $("shared-session").hidden = false;
    note("Opened the shared account for this visit.");
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
  $("keep-shared").addEventListener("click", async () => {
    persistence.pause(false);
    $("shared-session").hidden = true;
    await persistence.save();
    note("Kept: the shared account is now the one saved in this browser.");
  });
  $("discard-shared").addEventListener("click", () => location.reload());
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
