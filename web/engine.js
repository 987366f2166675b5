// web/engine.js is responsible for starting the Go engine once for the page's
// life and exposing it as window.tableplay, whose functions web/api.js
// builds from the engine's table of them. It holds no data-model logic:
// every rule, byte of JSON and error comes from the engine.
import { Go, goGlobals } from "./build/go-glue.js";
import { createAPI } from "./api.js";
import { explain, worded } from "./loadfail.js";
import { capped, loadDecoder, unbrotli } from "./unbrotli.js";

const wasmURL = new URL("./build/app.wasm", import.meta.url);
// make site writes app.wasm.br and .gz beside it; same version, same cache life.
const brotliURL = new URL(wasmURL);
brotliURL.pathname += ".br";
const gzipURL = new URL(wasmURL);
gzipURL.pathname += ".gz";
const glueURL = new URL("./build/go-glue.js", import.meta.url);

// The engine's functions land on binding. Go reaches it as the global
// `tableplayBinding` through the glue's private view of the global object, so
// the host page gains no name.
const binding = {};
goGlobals.tableplayBinding = binding;

function emit(name, detail) {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

// Stream, compile while downloading, run once. instantiateStreaming gets the
// response itself (the browser can then cache the compiled code); a clone is
// read only to report progress in bytes on the wire. Content-Length is the
// compressed size when the server sent a compressed variant; the decoded bytes
// counted here are scaled to it by X-Decoded-Length, the raw size. Without
// that header the total is unknown (0) and progress counts decoded bytes.
function reportProgress(response) {
  const wire = Number(response.headers.get("Content-Length")) || 0;
  const encoded = (response.headers.get("Content-Encoding") ?? "identity") !== "identity";
  const raw = encoded ? Number(response.headers.get("X-Decoded-Length")) || 0 : wire;
  const total = raw ? wire : 0;
  const reader = response.body.getReader();
  let decoded = 0;
  const pump = ({ done, value }) => {
    if (!done) decoded += value.byteLength;
    const loaded = total ? (done ? total : Math.min(total, Math.round((decoded * total) / raw))) : decoded;
    emit("tableplay:progress", { loaded, total });
    if (!done) return reader.read().then(pump);
  };
  reader.read().then(pump).catch(() => {});
}

// GLUE_CHECK_WAIT bounds the look at the glue's headers. It is a read from
// the cache that takes milliseconds, but hundreds on a busy machine (seen:
// 370 ms with the engine loading beside it); only a host that does not let
// the browser keep the glue is asked again, and one that slow gets the .br.
const GLUE_CHECK_WAIT = 3000;

// glueEncoding reads the Content-Encoding the glue came with from the HTTP
// cache (the module was just fetched, so this reads no byte off the wire
// where the host lets the browser keep it): true when compressed, null
// when the header is not to be read (another origin that does not expose
// it) or the look fails or takes too long.
async function glueEncoding() {
  try {
    const response = await fetch(glueURL, { cache: "force-cache", signal: AbortSignal.timeout?.(GLUE_CHECK_WAIT) });
    response.body?.cancel().catch(() => {});
    const coding = response.headers.get("Content-Encoding");
    return coding && coding !== "identity" ? true : null;
  } catch {
    return null;
  }
}

// serverCompresses says whether the server compressed the glue: true,
// false, or null when it cannot tell. The glue's Resource Timing tells
// without a request, when it has the sizes; but the browser may not have
// added the entry yet when this module runs (index.html runs it as soon as
// its imports are in), and Chromium gives a copy revalidated by a 304 an
// entry without sizes now and then: the glue's headers tell then.
async function serverCompresses() {
  const entry = performance.getEntriesByName(glueURL.href)[0];
  if (entry?.decodedBodySize) return entry.encodedBodySize < entry.decodedBodySize;
  return glueEncoding();
}

// scripts/build-npm sets this to true in the npm package: a CDN's way with
// .wasm (compressed or not) cannot be known, and the .br bounds the bytes.
const packaged = false;

// wantsPrecompressed says whether to fetch a precompressed engine and undo
// it here: a server that compresses nothing (a plain static host, an object
// store) would send app.wasm's 6.6 MB raw; app.wasm.br is under a fifth of
// that. A server known to compress sends app.wasm as brotli itself.
async function wantsPrecompressed() {
  if (typeof DecompressionStream !== "function") return false;
  if (packaged) return true;
  return (await serverCompresses()) !== true;
}

// MAX_ENGINE bounds what app.wasm.br or .gz may inflate to (app.wasm is
// about 6.6 MB): a damaged or hostile file stops there instead of filling
// memory (instantiation then reports a broken engine).
const MAX_ENGINE = 64 * 1024 * 1024;

// received passes on the body of a precompressed engine, counting the bytes
// received for the progress (the total is the file's length when the host
// sent it as it is; decoded: the browser undid an encoding the headers may
// not show).
function received(response, decoded = false) {
  const encoded = decoded || (response.headers.get("Content-Encoding") ?? "identity") !== "identity";
  const total = encoded ? 0 : Number(response.headers.get("Content-Length")) || 0;
  let loaded = 0;
  return response.body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      emit("tableplay:progress", { loaded: total ? Math.min(loaded, total) : loaded, total });
      controller.enqueue(chunk);
    },
  }));
}

const asWasm = (body) => new Response(body, { headers: { "Content-Type": "application/wasm" } });

// gunzipped turns the response for app.wasm.gz into the engine's bytes. A
// host that labels .gz files Content-Encoding: gzip sends them typed as the
// .wasm they decode to, and the browser has undone the gzip already: those
// pass as they are.
function gunzipped(response) {
  const decoded = (response.headers.get("Content-Type") ?? "").startsWith("application/wasm");
  const body = received(response, decoded);
  return asWasm(decoded ? body : body.pipeThrough(new DecompressionStream("gzip")).pipeThrough(capped(MAX_ENGINE, "the engine")));
}

// unbrotlied fetches app.wasm.br and the decoder together and returns the
// engine's bytes, or null when the .br is not there (an older make site, a
// hand-picked upload) or the decoder cannot be had (the same, or a CSP that
// refuses it): the .gz then.
async function unbrotlied() {
  const decoder = loadDecoder().catch(() => null);
  let fetched;
  try {
    fetched = await fetch(brotliURL);
  } catch (error) {
    throw await explain(brotliURL, error, { wasm: true });
  }
  if (fetched.status === 404 || !(await decoder)) {
    fetched.body?.cancel();
    return null;
  }
  if (!fetched.ok) throw await explain(brotliURL, null, { wasm: true, status: fetched.status });
  return asWasm(received(fetched).pipeThrough(unbrotli(await decoder, MAX_ENGINE)));
}

// engineResponse fetches the engine the smallest way this server allows and
// returns a response instantiateStreaming takes.
async function engineResponse() {
  const precompressed = await wantsPrecompressed();
  if (precompressed) {
    const response = await unbrotlied();
    if (response) return { url: brotliURL, response };
  }
  let url = precompressed ? gzipURL : wasmURL;
  let fetched;
  try {
    fetched = await fetch(url);
    // A copy without the .gz (an older make site, a hand-picked upload).
    if (fetched.status === 404 && url === gzipURL) fetched = await fetch((url = wasmURL));
  } catch (error) {
    throw await explain(url, error, { wasm: true });
  }
  if (!fetched.ok) throw await explain(url, null, { wasm: true, status: fetched.status });
  if (url === gzipURL) return { url, response: gunzipped(fetched) };
  reportProgress(fetched.clone());
  // A host that does not know .wasm sends another type, which streaming
  // compilation refuses: relabel the bytes then (losing only the code cache).
  const response = (fetched.headers.get("Content-Type") ?? "").startsWith("application/wasm")
    ? fetched
    : new Response(fetched.body, { headers: { "Content-Type": "application/wasm" } });
  return { url, response };
}

async function start() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiateStreaming !== "function") {
    throw await explain(wasmURL, null, { wasm: true });
  }
  const { url, response } = await engineResponse();
  const go = new Go();
  let signalReady;
  const readyNow = new Promise((resolve) => {
    signalReady = resolve;
  });
  // The engine calls ready once its functions are on the binding.
  binding.ready = () => signalReady();
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(response, go.importObject));
  } catch (error) {
    const why = await explain(url, error, { wasm: true });
    // A refused compile is the CSP's; any other is bytes that are not this
    // engine (a broken copy, an HTML error page sent as 200).
    if (why.kind === "csp" || !(error instanceof WebAssembly.CompileError)) throw why;
    throw await worded("broken", "engine.notEngine", "engine.notEngineFix", { url: url.href, message: error.message });
  }
  binding.notifyChange = changed;
  go.run(instance).then(() => emit("tableplay:exit", {}));
  await readyNow;
  install();
}

const ready = start();
const { tableplay, install, changed } = createAPI(binding, ready);

window.tableplay = tableplay;
export default tableplay;
