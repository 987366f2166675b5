// e2e/measure-hosts.mjs is responsible for the embed's delivery figures on
// the two kinds of host a docs site names (make measure; not a test): a docs
// page on one origin with one <table-playground start="click"> loaded from
// another, that origin being `tableplay serve` (the binary's own page, which
// sends brotli) or make site on a plain static server that compresses
// nothing (its _headers applied). For each, on loopback and with CDP
// throttling at 10 Mbit/s 40 ms, cold (a fresh profile): bytes on the wire
// (the engine with the brotli decoder a plain host needs, and everything the
// visit fetched), and the time from Run to interactive. Budgets: from the
// plain host, everything the visit fetched ≤ 1.7 MB on the wire and ready
// within 0.3 s of the compressed host at 10 Mbit/s. Prints PASS or MISS for
// each and exits 1 when one is missed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { root, startBinary, launchBrowser } from "./harness.js";
import { docsSite, staticServer } from "./static.js";

const RUNS = 3;
const WIRE_BUDGET = 1.7e6;
const READY_GAP_BUDGET = 300;
const site = path.join(root, "site", "public");
const mb = (n) => (n / 1e6).toFixed(2) + " MB";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const over = [];
const throttles = [
  ["loopback", null],
  ["10 Mbit/s, 40 ms", { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 }],
];

// visit opens the docs page cold, presses Run and returns the time to
// interactive and the bytes on the wire (engine, all) once every request
// of the visit finished.
async function visit(browser, url, throttle) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    if (throttle) await cdp.send("Network.emulateNetworkConditions", { offline: false, ...throttle });
    const pending = new Map();
    let all = 0, engine = 0;
    cdp.on("Network.requestWillBeSent", (e) => pending.set(e.requestId, e.request.url));
    const done = (e) => {
      const u = pending.get(e.requestId);
      if (u === undefined) return;
      pending.delete(e.requestId);
      all += e.encodedDataLength ?? 0;
      if (/\/(app|unbrotli)\.wasm(\.gz|\.br)?$/.test(new URL(u).pathname)) engine += e.encodedDataLength ?? 0;
    };
    cdp.on("Network.loadingFinished", done);
    cdp.on("Network.loadingFailed", done);
    await page.goto(url);
    await page.getByRole("button", { name: "Run Measured" }).waitFor();
    const ms = await page.evaluate(async () => {
      const el = document.getElementById("m");
      const t0 = performance.now();
      el.shadowRoot.querySelector("[part=run]").click();
      await el.ready;
      return performance.now() - t0;
    });
    for (let i = 0; i < 100 && pending.size; i++) await new Promise((r) => setTimeout(r, 50));
    return { ms, all, engine };
  } finally {
    await context.close();
  }
}

function budget(label, value, limit, format) {
  const pass = value <= limit;
  console.log(`${label.padEnd(44)} ${format(value).padStart(9)}  budget ≤ ${format(limit)}  ${pass ? "PASS" : "MISS"}`);
  if (!pass) over.push(`${label.trim()} ${format(value)} > ${format(limit)}`);
}

const binary = await startBinary();
const plain = await staticServer(site, "/", { headers: readFileSync(path.join(site, "_headers"), "utf8") });
const browser = await launchBrowser();
const embeds = '<table-playground id="m" example="sample" start="click" label="Measured"></table-playground>';
try {
  const hosts = [];
  for (const [name, base] of [["compressed host (tableplay serve)", binary.url], ["plain static host (make site, no compression)", new URL(plain.url).origin]]) {
    hosts.push({ name, docs: await docsSite({ script: `${base}/web/embed.js`, other: base, embeds }) });
  }
  for (const [tname, throttle] of throttles) {
    const ready = {};
    // The hosts take turns, run by run, so that a change in the machine's
    // load falls on both alike.
    const runsOf = new Map(hosts.map((h) => [h, []]));
    for (let i = 0; i < RUNS; i++) for (const h of hosts) runsOf.get(h).push(await visit(browser, h.docs.url, throttle));
    for (const h of hosts) {
      const runs = runsOf.get(h);
      const r = { ms: median(runs.map((v) => v.ms)), engine: median(runs.map((v) => v.engine)), all: median(runs.map((v) => v.all)) };
      ready[h.name] = r.ms;
      console.log(`embed from another origin, ${h.name}, ${tname} (cold, medians of ${RUNS}; Run → interactive ${runs.map((v) => Math.round(v.ms)).join(", ")} ms):`);
      console.log(`  engine on the wire ${mb(r.engine)}; everything the visit fetched ${mb(r.all)}; Run → interactive ${(r.ms / 1000).toFixed(2)} s`);
      if (h === hosts[1]) budget("  the visit on the wire, plain static host", r.all, WIRE_BUDGET, mb);
    }
    if (throttle) {
      const gap = ready[hosts[1].name] - ready[hosts[0].name];
      budget(`  ready, plain minus compressed host, ${tname}`, gap, READY_GAP_BUDGET, (ms) => (ms / 1000).toFixed(2) + " s");
      const [compressed, plainRuns] = hosts.map((h) => runsOf.get(h));
      const paired = plainRuns.map((v, i) => Math.round(v.ms - compressed[i].ms));
      console.log(`  (run by run, plain minus compressed: ${paired.join(", ")} ms; median ${median(paired)} ms)`);
    }
  }
  for (const h of hosts) h.docs.stop();
  console.log(over.length ? `MISS: ${over.join("; ")}` : "PASS: every figure within its budget");
} finally {
  await browser.close();
  binary.stop();
  plain.stop();
}
process.exitCode = over.length ? 1 : 0;
