// web/transfer.js is responsible for moving an account in and out: export as
// a JSON file, import one (checked completely by the engine first: a bad file
// changes nothing), share links that carry the account compressed in the URL
// fragment, and reset.
import { confirmAction } from "./confirm.js";
import { emit } from "./state.js";

const $ = (id) => document.getElementById(id);
export const MAX_FRAGMENT = 32 * 1024;
const note = (text) => {
  $("account-note").textContent = text;
};

function base64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

// encode compresses the snapshot's UTF-8 bytes for a URL fragment.
export async function encode(text) {
  return base64url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

export async function decode(code) {
  return new TextDecoder().decode(await pipe(fromBase64url(code), new DecompressionStream("deflate-raw")));
}

function changed() {
  emit("tables-changed");
  emit("entities-changed");
}

function exportFile() {
  const text = JSON.stringify(tableplay.snapshot(), null, 2);
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
    tableplay.restore(text);
  } catch (e) {
    note(`Import refused, nothing changed: ${e.message}`);
    return;
  }
  note(`Imported ${file.name}.`);
  changed();
}

async function share() {
  const code = await encode(JSON.stringify(tableplay.snapshot()));
  if (code.length + 3 > MAX_FRAGMENT) {
    $("share-box").hidden = true;
    note(`This account is too large for a link (${code.length.toLocaleString("en-US")} characters; links hold up to ${MAX_FRAGMENT.toLocaleString("en-US")}). Use Export to share it as a file.`);
    return;
  }
  $("share-link").value = `${location.origin}${location.pathname}#s=${code}`;
  $("share-box").hidden = false;
  note("Anyone opening this link gets a copy of this account.");
}

// openShared restores an account from a link's fragment, asking first when
// this browser already holds tables.
export async function openShared() {
  const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (!m) return false;
  let text;
  try {
    text = await decode(m[1]);
  } catch {
    note("This link's account could not be read.");
    return false;
  }
  const local = tableplay.snapshot().tables.length > 0;
  if (local && !(await confirmAction("Replace the tables in this browser with the shared account?", "Replace"))) {
    note("Kept your tables; the shared account was not loaded.");
    return false;
  }
  try {
    tableplay.restore(text);
  } catch (e) {
    note(`The shared account was refused: ${e.message}`);
    return false;
  }
  history.replaceState(null, "", location.pathname);
  note("Loaded the shared account.");
  changed();
  return true;
}

export function initTransfer() {
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
    if (!(await confirmAction("Delete every table and entity in this browser?", "Reset"))) return;
    tableplay.reset();
    note("The account is empty.");
    changed();
  });
}
