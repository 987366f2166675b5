// web/sharelink.js is responsible for share links: an account document
// compressed (deflate, base64url) into the fragment of a link to the full
// playground, up to MAX_FRAGMENT characters.
import { t, withLang } from "./i18n.js";

export const MAX_FRAGMENT = 32 * 1024;
// MAX_ACCOUNT bounds an account arriving by link or file: what a link
// inflates to and what Import reads.
export const MAX_ACCOUNT = 8 * 1024 * 1024;

// mb writes a byte count for people, by the shown locale's rules.
export const mb = (n) => t("share.mb", { n: Math.round((n / (1024 * 1024)) * 10) / 10 });

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

// PAST are the messages of what passed the bound.
const PAST = { runs: "share.past.runs", inflates: "share.past.inflates", holds: "share.past.holds" };

// readCapped reads a byte stream to text, stopping as soon as it passes
// MAX_ACCOUNT (a RangeError then): what a link inflates to and what an
// account document fetched by URL may hold.
// what says what passed the bound: "runs", "inflates" or "holds".
export async function readCapped(stream, what = "runs") {
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ACCOUNT) {
      await reader.cancel();
      throw new RangeError(t(PAST[what], { max: mb(MAX_ACCOUNT) }));
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
}

// decode inflates a link's code; a code longer than a link this page makes
// is refused before inflating, and inflation stops at MAX_ACCOUNT (a small
// link can inflate a thousandfold): a RangeError then.
export async function decode(code) {
  if (code.length + 3 > MAX_FRAGMENT) throw new RangeError(t("share.tooLong", { n: code.length }));
  return readCapped(new Blob([fromBase64url(code)]).stream().pipeThrough(new DecompressionStream("deflate-raw")), "inflates");
}

// shareLink returns the link that opens page (a URL) holding the account
// document text, or null when it is too large for a link.
export async function shareLink(page, text) {
  const code = await encode(text);
  if (code.length + 3 > MAX_FRAGMENT) return { link: null, length: code.length };
  const url = new URL(page);
  url.hash = "s=" + code;
  return { link: withLang(url.href), length: code.length };
}
