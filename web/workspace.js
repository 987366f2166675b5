// web/workspace.js is responsible for the full page's workspace links: the
// whole workspace (the account, the selected table, the editor's draft, the
// query inputs, the batch queue and the metadata level) compressed in a
// link's fragment, in the manner of the TypeScript playground. Opening one
// starts a temporary session: the saved account is untouched until the
// person chooses Keep; the link stays in the address bar; Reset to link puts
// the workspace back as the link has it; Leave returns to the saved account.
// Links that carry only an account (#s=, from older pages and embeds) open
// the same way.
//
// The workspace also says which profile the account answers as
// (docs/profiles.md): a link made on Cosmos opens on Cosmos.
//
// initWorkspace({session, parts, persistence, target, beforeOpen}) wires the Share link button
// and the shared-session banner and returns {open, capture, apply} (capture
// and apply also lend the workbench to a lesson: web/lessons/borrow.js).
// beforeOpen() runs before a link's workspace is put into the page (the
// full page ends a connection to an endpoint elsewhere: web/connect.js).
import { encode, decode, MAX_FRAGMENT } from "./sharelink.js";
import { t, withLang } from "./i18n.js";

export function initWorkspace({ session, parts, persistence, target = null, beforeOpen = async () => {} }) {
  const $ = (id) => document.getElementById(id);
  const engine = session.engine;
  const note = (text) => {
    $("account-note").textContent = text;
  };
  let opened = null; // the workspace of the link this session started from

  // capture is the workspace as a link carries it.
  function capture() {
    return {
      workspace: 1,
      profile: engine.profile().name,
      account: engine.snapshot(),
      table: session.table,
      draft: session.draft(),
      query: { filter: $("filter").value, select: $("select").value, top: $("top").value },
      batch: parts.batch?.queued() ?? [],
      level: session.level,
    };
  }

  // apply puts a workspace (or a bare account document) into the page.
  async function apply(w) {
    if (w.profile && w.profile !== engine.profile().name) {
      // The account is replaced next: one that cannot move is emptied first.
      try {
        engine.setProfile(w.profile);
      } catch {
        engine.reset();
        engine.setProfile(w.profile);
      }
    }
    target?.refresh();
    engine.restore(JSON.stringify(w.workspace ? w.account : w));
    await parts.tables.refresh();
    parts.tables.select(w.table ?? null);
    if (w.draft) parts.editor.setDraft(w.draft);
    $("filter").value = w.query?.filter ?? "";
    $("select").value = w.query?.select ?? "";
    $("top").value = w.query?.top ?? "";
    $("filter").dispatchEvent(new Event("input"));
    parts.batch?.setQueue(w.batch ?? []);
    const level = w.level ?? "minimalmetadata";
    const radio = document.querySelector(`input[name="level"][value="${CSS.escape(level)}"]`);
    if (radio) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
      session.level = level;
    }
    session.emit("entities-changed");
  }

  async function share() {
    const code = await encode(JSON.stringify(capture()));
    if (code.length + 3 > MAX_FRAGMENT) {
      $("share-box").hidden = true;
      note(t("workspace.tooLarge", { n: code.length, max: MAX_FRAGMENT }));
      return;
    }
    // The link names the shown language: it opens in the same one.
    $("share-link").value = withLang(`${location.origin}${location.pathname}#w=${code}`);
    $("share-box").hidden = false;
    note(t("workspace.carries"));
  }

  // open starts a temporary session from the link in the address bar;
  // false when there is none.
  async function open() {
    // lang= after the code is the link's language (web/i18n.js reads it).
    const m = location.hash.match(/^#([ws])=([A-Za-z0-9_-]+)(?:&lang=[A-Za-z-]+)?$/);
    if (!m) return false;
    if (m[2].length + 3 > MAX_FRAGMENT) {
      note(t("workspace.tooLong", { n: m[2].length, max: MAX_FRAGMENT }));
      return false;
    }
    let w;
    try {
      w = JSON.parse(await decode(m[2]));
    } catch (e) {
      note(e instanceof RangeError ? t("workspace.notOpened", { why: e.message }) : t("workspace.unreadable"));
      return false;
    }
    await beforeOpen();
    persistence.pause();
    try {
      await apply(w);
    } catch (e) {
      await persistence.resume();
      target?.refresh();
      await parts.tables.refresh();
      note(t("workspace.refused", { why: e.message }));
      return false;
    }
    opened = w;
    $("shared-session").hidden = false;
    note("");
    return true;
  }

  const leaveLink = () => history.replaceState(null, "", location.pathname + location.search);

  $("share").addEventListener("click", share);
  // A link pasted into the address bar of an open page changes only the fragment.
  window.addEventListener("hashchange", () => open());
  $("keep-shared").addEventListener("click", async () => {
    await persistence.keep();
    opened = null;
    $("shared-session").hidden = true;
    leaveLink();
    note(t("workspace.kept"));
  });
  $("reset-to-link").addEventListener("click", async () => {
    if (!opened) return;
    await apply(opened);
    note(t("workspace.asLink"));
  });
  $("discard-shared").addEventListener("click", async () => {
    opened = null;
    $("shared-session").hidden = true;
    leaveLink();
    await persistence.resume();
    target?.refresh();
    await parts.tables.refresh();
    parts.tables.select(null);
    parts.batch?.setQueue([]);
    session.emit("entities-changed");
    note(t("workspace.back"));
  });
  return { open, capture, apply };
}
