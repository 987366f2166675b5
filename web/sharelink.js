// web/sharelink.js is responsible for share links: an account document
// compressed (deflate, base64url) into the fragment of a link to the full
// playground, up to MAX_FRAGMENT characters.
export const MAX_FRAGMENT = 32 * 1024;
// MAX_ACCOUNT bounds an account arriving by link or file: what a link
// inflates to and what Import reads.
export const MAX_ACCOUNT = 8 * 1024 * 1024;

// mb writes a byte count for people.
export const mb = (n) => `${(n / (1024 * 1024)).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;

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

// readCapped reads a byte stream to text, stopping as soon as it passes
// MAX_ACCOUNT (a RangeError then): what a link inflates to and what an
// account document fetched by URL may hold.
export async function readCapped(stream, what = "it runs") {
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ACCOUNT) {
      await reader.cancel();
      throw new RangeError(`${what} past ${mb(MAX_ACCOUNT)}, the most an account may hold here`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
}

// decode inflates a link's code; a code longer than a link this page makes
// is refused before inflating, and inflation stops at MAX_ACCOUNT (a small
// link can inflate a thousandfold): a RangeError then.
export async function decode(code) {
  if (code.length + 3 > MAX_FRAGMENT) throw new RangeError(`it holds ${code.length.toLocaleString("en-US")} characters, more than a link this page makes`);
  return readCapped(new Blob([fromBase64url(code)]).stream().pipeThrough(new DecompressionStream("deflate-raw")), "it inflates");
}

// shareLink returns the link that opens page (a URL) holding the account
// document text, or null when it is too large for a link.
export async function shareLink(page, text) {
  const code = await encode(text);
  if (code.length + 3 > MAX_FRAGMENT) return { link: null, length: code.length };
  const url = new URL(page);
  url.hash = "s=" + code;
  return { link: url.href, length: code.length };
}
