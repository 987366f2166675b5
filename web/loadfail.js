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

// The catalogue is imported when a failure is explained, not with this
// module: the engine, which imports this, starts without waiting for it.
const i18n = () => import("./i18n.js");

// LoadError is a failure to load with its cause (message), its fix and its
// kind: csp, browser, status, type, cors, unreachable or broken. Cause and
// fix are catalogue messages (web/locales, loadfail.*); text() words them
// again in the shown locale after a switch.
export class LoadError extends Error {
  constructor(cause, fix, kind, { words = null } = {}) {
    super(cause);
    this.name = "LoadError";
    this.fix = fix;
    this.kind = kind;
    this.words = words;
  }

  // text is {message, fix} in the shown locale.
  text() {
    if (!this.words) return { message: this.message, fix: this.fix };
    const [t, causeId, fixId, params] = this.words;
    return { message: t(causeId, params), fix: t(fixId, params) };
  }
}

// worded makes a LoadError from catalogue ids, once a catalogue is in.
export async function worded(kind, causeId, fixId, params = {}) {
  const { t, ready } = await i18n();
  await ready();
  return new LoadError(t(causeId, params), t(fixId, params), kind, { words: [t, causeId, fixId, params] });
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
  const p = { url: url.href, origin: where, path: url.pathname, doc: HEADERS_DOC };
  if (wasm && (typeof WebAssembly !== "object" || typeof WebAssembly.instantiateStreaming !== "function")) {
    return worded("browser", "loadfail.browser", "loadfail.browserFix", p);
  }
  const csp = await refused(url, wasm);
  if (csp && (csp.blocked === "wasm-eval" || csp.blocked === "wasm-unsafe-eval")) {
    return worded("csp", "loadfail.cspWasm", "loadfail.cspWasmFix", p);
  }
  if (csp) return worded("csp", "loadfail.csp", "loadfail.cspFix", { ...p, directive: csp.directive });
  if (status) return fromStatus(p, status, "");
  // A bare TypeError: ask again, reading the answer if the server shares it.
  try {
    const r = await fetch(url, { method: "HEAD", cache: "no-store" });
    const type = r.headers.get("Content-Type") ?? "";
    if (!r.ok) return fromStatus(p, r.status, "");
    if (!wasm && !/javascript/.test(type)) return fromStatus(p, r.status, type);
    return worded("broken", "loadfail.broken", "loadfail.brokenFix", { ...p, message: String(error?.message ?? error) });
  } catch {
    // Not readable: either not shared with this site or not reachable.
  }
  try {
    await fetch(url, { method: "HEAD", mode: "no-cors", cache: "no-store" });
    return worded("cors", "loadfail.cors", "loadfail.corsFix", p);
  } catch {
    return worded("unreachable", "loadfail.unreachable", "loadfail.unreachableFix", p);
  }
}

function fromStatus(p, status, type) {
  if (type) return worded("type", "loadfail.type", "loadfail.typeFix", { ...p, type });
  return worded("status", status === 404 ? "loadfail.missing" : "loadfail.status", "loadfail.statusFix", { ...p, status: String(status) });
}
