// e2e/measure-embed.mjs is responsible for the embed's figures and the query
// view's (not a test: it prints, it asserts nothing): the bootstrap an
// embedding page downloads before the wasm (gzip -9 of each file), the time
// from Run to interactive on loopback and with the network throttled to
// 10 Mbit/s (40 ms RTT) through CDP, the memory each extra embed costs, and
// how long a 1,000-result query takes to show its first rows and its whole
// list on the full page. Run: make measure.
import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { root, startServer, launchBrowser } from "./harness.js";

const kb = (n) => (n / 1024).toFixed(1) + " KB";
const gzip = (file) => zlib.gzipSync(readFileSync(file), { level: 9 }).length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// MEASURE_ONLY=query runs the query figure alone (e.g. against an older
// checkout, for a before/after on the same machine and load).
const only = process.env.MEASURE_ONLY ?? "";
const server = await startServer();
const browser = await launchBrowser();
try {
  // The bootstrap: every script and stylesheet requested before the wasm.
  if (!only) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const files = [];
    let wasmAt = -1;
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname.endsWith(".wasm")) wasmAt = files.length;
      else if (/\.(m?js|css)$/.test(u.pathname)) files.push(u.pathname);
    });
    await page.goto(server.url + "/e2e/fixtures/embed-host.html");
    await page.getByRole("button", { name: "Run Starts on Run" }).waitFor();
    await page.waitForTimeout(300);
    const preview = [...files];
    await page.getByRole("button", { name: "Run Starts on Run" }).click();
    await page.evaluate(() => document.getElementById("lazy").ready);
    const before = files.slice(0, wasmAt);
    const size = (list) => list.reduce((n, f) => n + gzip(path.join(root, f)), 0);
    console.log(`embed bootstrap before Run: ${kb(size(preview))} gzip -9 (${preview.length} files: ${preview.map((f) => path.basename(f)).join(", ")})`);
    console.log(`embed bootstrap up to the wasm request: ${kb(size(before))} gzip -9 (${before.length} files)`);
    await context.close();
  }

  // Run → interactive, cold (a fresh profile each time).
  for (const [name, throttle] of only ? [] : [["loopback", null], ["10 Mbit/s, 40 ms RTT", { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 }]]) {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (throttle) {
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", { offline: false, ...throttle });
      }
      await page.goto(server.url + "/e2e/fixtures/embed-host.html");
      await page.getByRole("button", { name: "Run Starts on Run" }).waitFor();
      times.push(await page.evaluate(async () => {
        const el = document.getElementById("lazy");
        const t0 = performance.now();
        el.shadowRoot.querySelector("[part=run]").click();
        await el.ready;
        return performance.now() - t0;
      }));
      await context.close();
    }
    console.log(`embed Run → interactive, ${name}: median ${median(times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")} ms)`);
  }

  // Memory: one embed, then ten, on one page.
  if (!only) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(server.url + "/e2e/fixtures/embed-host.html");
    await page.getByRole("button", { name: "Run Starts on Run" }).click();
    await page.evaluate(() => document.getElementById("lazy").ready);
    const sample = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const heap = await cdp.send("Runtime.getHeapUsage");
      const dom = await cdp.send("Memory.getDOMCounters");
      const go = await page.evaluate(() => tableplay.memory());
      return { js: heap.usedSize, nodes: dom.nodes, go: go.heapAlloc };
    };
    const one = await sample();
    const extra = 9;
    await page.evaluate(async (n) => {
      const made = [];
      for (let i = 0; i < n; i++) {
        const el = document.createElement("table-playground");
        el.setAttribute("example", "sample");
        el.setAttribute("start", "click");
        document.body.append(el);
        made.push(el.start());
      }
      await Promise.all(made);
    }, extra);
    const ten = await sample();
    const per = (k) => (ten[k] - one[k]) / extra;
    console.log(`memory per extra embed (sample data, editor and wire view): JS heap ${kb(per("js"))}, Go heap ${kb(per("go"))}, ${per("nodes").toFixed(0)} DOM nodes`);
    await context.close();
  }

  // The full page's query view: 1,000 results.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready=true]");
    // The table is made through the page (so it is selected), its entities
    // through the engine directly.
    await page.getByLabel("New table name").fill("Render");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("button", { name: "Render", exact: true }).waitFor();
    await page.evaluate(async () => {
      for (let i = 0; i < 1000; i += 100) {
        const ops = [];
        for (let j = i; j < i + 100; j++) ops.push({ kind: "insert", table: "Render", entity: { PartitionKey: "p", RowKey: String(j).padStart(6, "0"), properties: [{ name: "Name", type: "Edm.String", text: "Customer " + j }, { name: "Age", type: "Edm.Int32", text: String(20 + (j % 50)) }, { name: "Visits", type: "Edm.Int64", text: String(j * 1000) }] } });
        const r = tableplay.requestFor({ kind: "batch", operations: ops });
        await tableplay.fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
      }
    });
    const runs = [];
    for (let i = 0; i < 5; i++) {
      runs.push(await page.evaluate(async () => {
        const box = document.getElementById("query-results");
        box.replaceChildren();
        await new Promise(requestAnimationFrame);
        const t0 = performance.now();
        let first = null;
        let firstPaint = null;
        const all = new Promise((resolve) => {
          const seen = () => {
            const n = box.querySelectorAll(".rows > [role=row]").length; // the results grid's data rows
            if (n > 0 && first === null) {
              first = performance.now() - t0;
              requestAnimationFrame(() => (firstPaint = performance.now() - t0));
            }
            if (n >= 1000) {
              mo.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - t0));
            }
          };
          const mo = new MutationObserver(seen);
          mo.observe(box, { childList: true, subtree: true });
        });
        [...document.querySelectorAll("button")].find((b) => b.textContent === "Run query").click();
        const whole = await all;
        return { first, firstPaint: firstPaint ?? whole, whole };
      }));
    }
    const pick = (k) => median(runs.map((r) => r[k])).toFixed(0);
    console.log(`query of 1,000 results on the page: first rows in the DOM ${pick("first")} ms, first rows painted ${pick("firstPaint")} ms, all 1,000 rows laid out and painted ${pick("whole")} ms (medians of ${runs.length})`);
    await context.close();
  }
} finally {
  await browser.close();
  server.stop();
}
