// web/sharelink.js is responsible for share links: an account document
// compressed (deflate, base64url) into the fragment of a link to the full
// playground, up to MAX_FRAGMENT characters.
export const MAX_FRAGMENT = 32 * 1024;

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

// shareLink returns the link that opens page (a URL) holding the account
// document text, or null when it is too large for a link.
export async function shareLink(page, text) {
  const code = await encode(text);
  if (code.length + 3 > MAX_FRAGMENT) return { link: null, length: code.length };
  const url = new URL(page);
  url.hash = "s=" + code;
  return { link: url.href, length: code.length };
}
