// web/loadfail.js is responsible for saying why a file of the playground (a
// module or the engine) could not load, in words a docs author can act on:
// a LoadError whose message names the cause and whose fix says what to
// change. The causes it tells apart: the page's Content-Security-Policy, a
// browser without WebAssembly, a file missing (404) or sent as the wrong
// type, a server that does not share its files with other sites (CORS), and
// a server that cannot be reached. docs/embedding.md lists the same.

// The page's CSP refusals, as the browser reports them (a refused load
// throws only a bare TypeError or CompileError): the latest MAX_REFUSALS,
// as a host page may be refused things all its life.
const MAX_REFUSALS = 100;
const refusals = [];
document.addEventListener("securitypolicyviolation", (e) => {
  refusals.push({ directive: e.effectiveDirective, blocked: e.blockedURI });
  if (refusals.length > MAX_REFUSALS) refusals.shift();
});

// LoadError is a failure to load with its cause (message), its fix and its
// kind: csp, browser, status, type, cors, unreachable or broken.
export class LoadError extends Error {
  constructor(cause, fix, kind) {
    super(cause);
    this.name = "LoadError";
    this.fix = fix;
    this.kind = kind;
  }
}

const HEADERS_DOC = "docs/embedding.md, “Serving the files”";

function originOf(text) {
  try {
    return new URL(text).origin;
  } catch {
    return "";
  }
}

// refused finds the CSP refusal of url (or of WebAssembly), once the
// browser has had a moment to report it (the report comes as a task).
async function refused(url, wasm) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (wasm) {
    const r = refusals.find((v) => v.blocked === "wasm-eval" || v.blocked === "wasm-unsafe-eval");
    if (r) return r;
  }
  return refusals.find((v) => v.blocked === url.href || (v.blocked && originOf(v.blocked) === url.origin));
}

// explain turns error, met while loading url (a module, or the engine when
// wasm is true), into a LoadError; status is the HTTP status when one came.
export async function explain(url, error, { wasm = false, status = 0 } = {}) {
  if (error instanceof LoadError) return error;
  url = new URL(url);
  const where = url.origin;
  if (wasm && (typeof WebAssembly !== "object" || typeof WebAssembly.instantiateStreaming !== "function")) {
    return new LoadError("This browser cannot run WebAssembly, which the playground's engine is.",
      "Open the page in a current Chrome, Edge, Firefox or Safari.", "browser");
  }
  const csp = await refused(url, wasm);
  if (csp && (csp.blocked === "wasm-eval" || csp.blocked === "wasm-unsafe-eval")) {
    return new LoadError("This page's Content-Security-Policy does not allow WebAssembly, so the engine cannot start.",
      "Add 'wasm-unsafe-eval' to the script-src of the page's Content-Security-Policy.", "csp");
  }
  if (csp) {
    return new LoadError(`This page's Content-Security-Policy (${csp.directive}) does not allow loading ${url.href}.`,
      `Add ${where} to the page's script-src, connect-src and style-src (${HEADERS_DOC}).`, "csp");
  }
  if (status) return fromStatus(url, status, "");
  // A bare TypeError: ask again, reading the answer if the server shares it.
  try {
    const r = await fetch(url, { method: "HEAD", cache: "no-store" });
    const type = r.headers.get("Content-Type") ?? "";
    if (!r.ok) return fromStatus(url, r.status, "");
    if (!wasm && !/javascript/.test(type)) return fromStatus(url, r.status, type);
    return new LoadError(`${url.href} loaded, but could not run: ${error?.message ?? error}.`,
      "Serve every file of one build of make site (or of the npm package) together: the modules and the engine must match.", "broken");
  } catch {
    // Not readable: either not shared with this site or not reachable.
  }
  try {
    await fetch(url, { method: "HEAD", mode: "no-cors", cache: "no-store" });
    return new LoadError(`${where} answered, but does not let this site read ${url.pathname} (no Access-Control-Allow-Origin: a CORS refusal; a missing file answered without that header looks the same).`,
      `Send Access-Control-Allow-Origin: * with the playground's files (tableplay serve does; for static hosts see ${HEADERS_DOC}), and check that ${url.href} opens.`, "cors");
  } catch {
    return new LoadError(`${where} could not be reached for ${url.pathname}.`,
      "Check the address in the embed's script src and that the server is up.", "unreachable");
  }
}

function fromStatus(url, status, type) {
  if (type) {
    return new LoadError(`${url.href} is sent as ${type}, which browsers refuse to run as a module script.`,
      "Serve .js files as text/javascript (and .wasm as application/wasm).", "type");
  }
  return new LoadError(`${url.href} answered ${status}${status === 404 ? ": the file is not there" : ""}.`,
    "Copy every file of make site (or of the npm package), web/build included, and name embed.js from that same folder.", "status");
}
