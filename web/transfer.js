// web/transfer.js is responsible for moving an account in and out: export as
// a JSON file, import one (checked completely by the engine first: a bad file
// changes nothing), share links that carry the account compressed in the URL
// fragment, and reset.
import { confirmAction } from "./confirm.js";
import { emit } from "./state.js";
import { pause, save } from "./persist.js";

const $ = (id) => document.getElementById(id);
export const MAX_FRAGMENT = 32 * 1024;
// MAX_ACCOUNT bounds an account arriving by link or file: what a link
// inflates to and what Import reads.
export const MAX_ACCOUNT = 8 * 1024 * 1024;
const mb = (n) => `${(n / (1024 * 1024)).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
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

// decode inflates a link's code, stopping as soon as the output passes
// MAX_ACCOUNT (a small link can inflate a thousandfold).
export async function decode(code) {
  const reader = new Blob([fromBase64url(code)]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ACCOUNT) {
      await reader.cancel();
      throw new RangeError(`it inflates past ${mb(MAX_ACCOUNT)}, the most an account may hold here`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
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
  if (file.size > MAX_ACCOUNT) {
    note(`Import refused, nothing changed: the file is ${mb(file.size)}; an account file may be at most ${mb(MAX_ACCOUNT)}.`);
    return;
  }
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

// openShared opens the account of a link's fragment for this visit only:
// the saved account stays as it was unless the person chooses Keep. A
// link longer than the page makes is refused before inflating.
export async function openShared() {
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
  pause(true);
  try {
    tableplay.restore(text);
  } catch (e) {
    pause(false);
    note(`The shared account was refused: ${e.message}`);
    return false;
  }
  $("shared-session").hidden = false;
  note("Opened the shared account for this visit.");
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
  $("keep-shared").addEventListener("click", async () => {
    pause(false);
    $("shared-session").hidden = true;
    await save();
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
    if (!(await confirmAction("Delete every table and entity in this browser?", "Reset"))) return;
    tableplay.reset();
    note("The account is empty.");
    changed();
  });
}
