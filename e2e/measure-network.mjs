// e2e/measure-network.mjs is responsible for the delivery figures (make
// measure; not a test): app.wasm raw / gzip / brotli as built, then for the
// page served by the one binary (bin/tableplay, page embedded), in Chromium:
// bytes on the wire and time from navigation to tableplay.ready on loopback
// and with CDP throttling (10 Mbit/s 40 ms, 50 Mbit/s 20 ms), cold (a fresh
// profile) and on a second visit (HTTP cache, revalidated). It prints each
// figure against its budget and exits 1 when one is over.
//   node e2e/measure-network.mjs [BASE_URL]   (default: start bin/tableplay)
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { root, startBinary, launchBrowser } from "./harness.js";

const RUNS = 3;
const mb = (n) => (n / 1e6).toFixed(2) + " MB";
const build = path.join(root, "web", "build");
const size = (f) => statSync(path.join(build, f)).size;
console.log(`app.wasm: ${mb(size("app.wasm"))} raw, ${mb(size("app.wasm.gz"))} gzip -9, ${mb(size("app.wasm.br"))} brotli -11 (budget: 1.90 MB gzip, 1.40 MB brotli)`);
const over = [];
if (size("app.wasm.gz") > 1.9e6) over.push("gzip size");
if (size("app.wasm.br") > 1.4e6) over.push("brotli size");

const profiles = [
  { name: "loopback", conditions: null },
  { name: "10 Mbit/s, 40 ms", conditions: { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 }, budget: 1600 },
  { name: "50 Mbit/s, 20 ms", conditions: { latency: 20, downloadThroughput: 50e6 / 8, uploadThroughput: 50e6 / 8 }, budget: 700 },
];
const SECOND_VISIT_BUDGET = 400;
const WIRE_BUDGET = 1.7e6;

// visit loads the page in page and returns {ms, bytes}: navigation to ready
// (the page's own clock) and the bytes Chromium received for the requests the
// visit made (headers included), counted once every one of them finished.
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
  const ms = await page.evaluate(async () => {
    for (let i = 0; i < 200 && !window.tableplay; i++) await new Promise((r) => setTimeout(r, 10));
    await window.tableplay.ready;
    return performance.now();
  });
  for (let i = 0; i < 100 && pending.size; i++) await new Promise((r) => setTimeout(r, 50));
  cdp.off("Network.requestWillBeSent", sent);
  cdp.off("Network.loadingFinished", done);
  cdp.off("Network.loadingFailed", done);
  return { ms, bytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const server = process.argv[2] ? { url: process.argv[2], stop() {} } : await startBinary();
const browser = await launchBrowser();
try {
  for (const p of profiles) {
    const cold = [], warm = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext(); // a fresh profile and cache
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      if (p.conditions) await cdp.send("Network.emulateNetworkConditions", { offline: false, ...p.conditions });
      cold.push(await visit(page, cdp, server.url + "/"));
      warm.push(await visit(page, cdp, server.url + "/"));
      await context.close();
    }
    const c = median(cold.map((v) => v.ms)), w = median(warm.map((v) => v.ms));
    const bytes = median(cold.map((v) => v.bytes)), wbytes = median(warm.map((v) => v.bytes));
    const verdict = (ok) => (ok ? "ok" : "OVER");
    let line = `${p.name.padEnd(17)} cold: ${mb(bytes)} on the wire, ready in ${(c / 1000).toFixed(2)} s`;
    if (p.budget) {
      line += ` (budget ${(p.budget / 1000).toFixed(1)} s: ${verdict(c <= p.budget)})`;
      if (c > p.budget) over.push(`ready at ${p.name}`);
    }
    line += `; second visit: ${(wbytes / 1e3).toFixed(1)} kB, ready in ${(w / 1000).toFixed(2)} s (budget ${SECOND_VISIT_BUDGET / 1000} s: ${verdict(w <= SECOND_VISIT_BUDGET)})`;
    if (w > SECOND_VISIT_BUDGET) over.push(`second visit at ${p.name}`);
    console.log(line + `   [cold runs ${cold.map((v) => Math.round(v.ms)).join(", ")} ms]`);
    if (bytes > WIRE_BUDGET) over.push(`wire bytes at ${p.name}`);
  }
  console.log(`budget: ≤ ${mb(WIRE_BUDGET)} on the wire; ${over.length ? "OVER: " + over.join(", ") : "all figures within budget"}`);
} finally {
  await browser.close();
  server.stop();
}
process.exitCode = over.length ? 1 : 0;
