// e2e/measure-network.mjs is responsible for the delivery figures (make
// measure; not a test): app.wasm raw / gzip / brotli as built, then for the
// page served by the one binary (bin/tableplay, page embedded), in Chromium:
// bytes on the wire and time from navigation to tableplay.ready on loopback
// and with CDP throttling (10 Mbit/s 40 ms, 50 Mbit/s 20 ms), cold (a fresh
// profile) and on a second visit (HTTP cache), each with the median timeline
// of where the time goes. It prints each figure against its budget with PASS
// or MISS and exits 1 when one is missed.
//   node e2e/measure-network.mjs [BASE_URL]   (default: start bin/tableplay)
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { root, startBinary, launchBrowser } from "./harness.js";

const RUNS = 3;
const mb = (n) => (n / 1e6).toFixed(2) + " MB";
const build = path.join(root, "web", "build");
const size = (f) => statSync(path.join(build, f)).size;
const over = [];
console.log(`app.wasm: ${mb(size("app.wasm"))} raw`);
budget("  gzip -9", size("app.wasm.gz"), 1.9e6, mb);
budget("  brotli -11", size("app.wasm.br"), 1.4e6, mb);

const profiles = [
  { name: "loopback", conditions: null },
  { name: "10 Mbit/s, 40 ms", conditions: { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 }, budget: 1600 },
  { name: "50 Mbit/s, 20 ms", conditions: { latency: 20, downloadThroughput: 50e6 / 8, uploadThroughput: 50e6 / 8 }, budget: 700 },
];
const SECOND_VISIT_BUDGET = 400;
const WIRE_BUDGET = 1.7e6;

// timeline is installed in every page before its own scripts: it marks when
// the engine's compilation starts and ends (instantiateStreaming), when
// window.tableplay appears and is ready, and when the page declares itself
// ready (body[data-ready]), for the breakdown of where the time goes.
function timeline() {
  const mark = (name) => performance.getEntriesByName(name).length || performance.mark(name);
  const streaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (...args) => {
    mark("m:compile");
    const result = await streaming.apply(WebAssembly, args);
    mark("m:instantiated");
    return result;
  };
  let tp;
  Object.defineProperty(window, "tableplay", {
    configurable: true,
    get: () => tp,
    set(v) {
      tp = v;
      mark("m:modules");
      v.ready.then(() => mark("m:ready"), () => {});
    },
  });
  new MutationObserver(() => document.body?.dataset.ready && mark("m:page-ready")).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
}

// visit loads the page in page and returns {ms, bytes, phases}: navigation to
// ready (the page's own clock), the bytes Chromium received for the requests
// the visit made (headers included), counted once every one of them
// finished, and the timeline's marks.
async function visit(page, cdp, url) {
  let bytes = 0;
  const pending = new Set();
  const sent = (e) => pending.add(e.requestId);
  const done = (e) => {
    if (pending.delete(e.requestId)) bytes += e.encodedDataLength ?? 0;
  };
  cdp.on("Network.requestWillBeSent", sent);
  cdp.on("Network.loadingFinished", done);
  cdp.on("Network.loadingFailed", done);
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  const { ms, phases } = await page.evaluate(async () => {
    await window.tableplay.ready;
    const at = (name) => performance.getEntriesByName(name)[0];
    const nav = performance.getEntriesByType("navigation")[0];
    const wasm = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname.endsWith("/app.wasm"));
    const m = (name) => at(name)?.startTime ?? NaN;
    return {
      ms: m("m:ready"),
      phases: {
        html: nav.responseEnd,
        modules: m("m:modules"),
        wasm: wasm?.responseEnd ?? NaN,
        compile: m("m:compile"),
        instantiated: m("m:instantiated"),
        ready: m("m:ready"),
        page: m("m:page-ready"),
      },
    };
  });
  for (let i = 0; i < 100 && pending.size; i++) await new Promise((r) => setTimeout(r, 50));
  cdp.off("Network.requestWillBeSent", sent);
  cdp.off("Network.loadingFinished", done);
  cdp.off("Network.loadingFailed", done);
  return { ms, bytes, phases };
}

// phaseLine prints the median timeline of visits: each step's time since
// navigation, in ms.
function phaseLine(visits) {
  const names = {
    html: "HTML",
    modules: "modules run",
    wasm: "wasm received",
    compile: "compile starts",
    instantiated: "instantiated",
    ready: "engine ready",
    page: "page ready",
  };
  return Object.entries(names).map(([k, label]) => `${label} ${Math.round(median(visits.map((v) => v.phases[k])))}`).join(" · ");
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => (ms / 1000).toFixed(2) + " s";

// budget prints a figure beside its budget with PASS or MISS (a figure with
// no budget is printed alone) and keeps every miss for the summary.
function budget(label, value, limit, format, where = "app.wasm") {
  if (limit === undefined) return console.log(`${label.padEnd(22)} ${format(value).padStart(9)}`);
  const pass = value <= limit;
  console.log(`${label.padEnd(22)} ${format(value).padStart(9)}  budget ≤ ${format(limit)}  ${pass ? "PASS" : "MISS"}`);
  if (!pass) over.push(`${label.trim()} (${where}) ${format(value)} > ${format(limit)}`);
}
const server = process.argv[2] ? { url: process.argv[2], stop() {} } : await startBinary();
const browser = await launchBrowser();
try {
  for (const p of profiles) {
    const cold = [], warm = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext(); // a fresh profile and cache
      const page = await context.newPage();
      await page.addInitScript(timeline);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      if (p.conditions) await cdp.send("Network.emulateNetworkConditions", { offline: false, ...p.conditions });
      cold.push(await visit(page, cdp, server.url + "/"));
      warm.push(await visit(page, cdp, server.url + "/"));
      await context.close();
    }
    const c = median(cold.map((v) => v.ms)), w = median(warm.map((v) => v.ms));
    const bytes = median(cold.map((v) => v.bytes)), wbytes = median(warm.map((v) => v.bytes));
    console.log(`${p.name}, cold (${RUNS} fresh profiles; runs ${cold.map((v) => Math.round(v.ms)).join(", ")} ms):`);
    budget(`  bytes on the wire`, bytes, WIRE_BUDGET, mb, p.name);
    budget(`  ready`, c, p.budget, seconds, p.name);
    console.log(`    timeline (ms since navigation): ${phaseLine(cold)}`);
    console.log(`${p.name}, second visit (HTTP cache; runs ${warm.map((v) => Math.round(v.ms)).join(", ")} ms):`);
    budget(`  bytes on the wire`, wbytes, undefined, (n) => (n / 1e3).toFixed(1) + " kB");
    budget(`  ready`, w, SECOND_VISIT_BUDGET, seconds, `${p.name}, second visit`);
    console.log(`    timeline (ms since navigation): ${phaseLine(warm)}`);
  }
  console.log(over.length ? `MISS: ${over.join("; ")}` : "PASS: every figure within its budget");
} finally {
  await browser.close();
  server.stop();
}
process.exitCode = over.length ? 1 : 0;
