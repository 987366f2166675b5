// e2e/embedframe.test.js: the embed's footprint on a docs page and its
// start states, in Chromium. The iframe snippet of docs/embedding.md ("The
// iframe form"), unchanged but for the origin, under the documented strict
// CSP with that origin named: no violation, the column's full width, no
// border, and a height that does not change as the embed loads; the element
// form's height from first paint to live (docs/embed-demo.html) and its
// layout shift; the start state as a <template>, as URL-safe base64 and as
// a script whose text a renderer escaped; theme following data-theme on
// <html>; and a src= that never answers, shown as an error in the embed
// within 15 s.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root, launchBrowser } from "./harness.js";
import { staticServer, csp } from "./static.js";

const site = path.join(root, "site", "public");
const docs = readFileSync(path.join(root, "docs", "embedding.md"), "utf8");
const iframeSnippet = docs.match(/<!-- snippet: iframe -->\n```html\n([\s\S]*?)\n```\n/)[1];

let browser;
let play;
before(async () => {
  play = await staticServer(site, "/", { headers: readFileSync(path.join(site, "_headers"), "utf8") });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  play?.stop();
});
const origin = () => play.url.replace(/\/$/, "");

// host serves pages (path → HTML) under a CSP, and holds /hang open.
function host(pages, policy) {
  const held = [];
  const server = createServer((req, res) => {
    const p = new URL(req.url, "http://x").pathname;
    if (p === "/hang.json") {
      held.push(res); // never answered
      return;
    }
    if (!(p in pages)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ...(policy && { "Content-Security-Policy": policy }) });
    res.end(pages[p]);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => {
      for (const r of held) r.destroy();
      server.close();
    },
  })));
}

// Violations of the page's policy are recorded from the first script on.
const recordViolations = () => {
  window.violations = [];
  document.addEventListener("securitypolicyviolation", (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
};

test("the documented iframe snippet under the documented strict CSP: full width, no border, no jump", async () => {
  const snippet = iframeSnippet.replaceAll("https://play.example", origin());
  const docsPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Docs</title><h1>Docs</h1>\n<p>Before.</p>\n${snippet}\n<p id="after">After.</p></html>`;
  const server = await host({ "/": docsPage }, csp(origin()));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(recordViolations);
    // Every height the frame posts is recorded; the embed's stylesheet comes
    // late, as from a slow CDN, so a height posted before it applies (the
    // unstyled content's) would show.
    await context.addInitScript(() => {
      window.posted = [];
      addEventListener("message", (e) => { if (e.data?.type === "tableplay:height") window.posted.push(e.data.height); });
    });
    await context.route(/\/web\/embed\.css$/, async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.url + "/");
    const box = () => page.evaluate(() => {
      const f = document.querySelector("iframe");
      const r = f.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height), border: getComputedStyle(f).borderTopWidth, column: document.body.clientWidth, after: Math.round(document.getElementById("after").getBoundingClientRect().top) };
    });
    const first = await box();
    await page.frameLocator("iframe").locator("table-playground[data-state=ready]").waitFor({ timeout: 60_000 });
    // The frame has reported its live height.
    await page.waitForFunction(() => document.querySelector("iframe").style.height !== "");
    const live = await box();
    console.log(`# iframe snippet: first ${JSON.stringify(first)}, live ${JSON.stringify(live)}`);
    assert.equal(live.width, live.column, "the iframe spans its column");
    assert.equal(live.border, "0px");
    assert.equal(live.height, first.height, `the iframe's height moved from ${first.height} to ${live.height} px as it loaded`);
    const posted = await page.evaluate(() => window.posted);
    assert.ok(posted.length >= 1 && posted.every((h) => h === live.height), `the frame posted heights ${posted} (live ${live.height})`);
    assert.equal(live.after, first.after, "the text below did not move");
    const inner = await page.frameLocator("iframe").locator("html").evaluate((h) => Math.ceil(h.getBoundingClientRect().height));
    assert.ok(Math.abs(inner - live.height) <= 1, `the frame's content is ${inner} px, the iframe ${live.height} px`);
    assert.deepEqual(await page.evaluate(() => window.violations), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    server.stop();
  }
});

test("the element's height does not change from its first paint to live, and it shifts nothing", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const server = await host({
    "/": `<!doctype html><html lang="en"><meta charset="utf-8"><title>Docs</title><script type="module" src="${origin()}/web/embed.js"></script>
<h1>Docs</h1><p>Before.</p>
<table-playground id="a" example="sample" view="editor,wire"></table-playground>
<table-playground id="b" lesson="partition-design" step="1"></table-playground>
<p id="after">After.</p></html>`,
  }, csp(origin()));
  try {
    await context.addInitScript(() => {
      window.shifts = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts += e.value; }).observe({ type: "layout-shift", buffered: true });
    });
    const page = await context.newPage();
    await page.goto(server.url + "/");
    await page.waitForFunction(() => [...document.querySelectorAll("table-playground")].every((e) => e.shadowRoot?.querySelector(".frame")));
    const heights = () => page.evaluate(() => [...document.querySelectorAll("table-playground")].map((e) => Math.round(e.getBoundingClientRect().height)));
    const first = await heights();
    await page.evaluate(() => Promise.all([...document.querySelectorAll("table-playground")].map((e) => e.ready)));
    await page.waitForTimeout(300);
    const live = await heights();
    const shifts = await page.evaluate(() => window.shifts);
    console.log(`# element heights: first paint ${first}, live ${live}; layout shift ${shifts.toFixed(4)}`);
    assert.deepEqual(live, first);
    // What shift is left comes before the element is defined (an empty
    // element until the module loads), under the 0.1 of a stable page.
    assert.ok(shifts < 0.1, `layout shift ${shifts}`);
  } finally {
    await context.close();
    server.stop();
  }
});

test("start states as a <template>, URL-safe base64 and an escaped script; theme following data-theme; a src that never answers", { timeout: 90_000 }, async () => {
  const state = {
    account: { format: "tableplay-account", version: 1, tables: [{ name: "Orders", created: "2026-01-02T03:04:05Z", entities: [
      { PartitionKey: "2024", RowKey: "a", Timestamp: "2026-01-02T03:04:05Z", properties: [["Total", "Edm.Double", "120.5"]] },
      { PartitionKey: "2024", RowKey: "b", Timestamp: "2026-01-02T03:04:05Z", properties: [["Total", "Edm.Double", "80"]] }] }] },
    table: "Orders", filter: "Total gt 100",
  };
  const json = JSON.stringify(state);
  const escaped = json.replaceAll('"', "&quot;");
  const b64 = Buffer.from(json).toString("base64url");
  const server = await host({
    "/": `<!doctype html><html lang="en"><meta charset="utf-8"><title>Docs</title><script type="module" src="${origin()}/web/embed.js"></script>
<table-playground id="template" view="query,wire" start="click"><template>${escaped}</template></table-playground>
<table-playground id="base64" view="query,wire" start="click" state="${b64}"></table-playground>
<table-playground id="escaped" view="query,wire" start="click"><script type="application/json">${escaped}</script></table-playground>
<table-playground id="hang" view="query,wire" start="click" src="/hang.json"></table-playground></html>`,
  }, csp(origin()));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.url + "/");
    const started = Date.now();
    const hang = page.evaluate(() => document.getElementById("hang").start().then(() => "started", (e) => e.message));
    hang.catch(() => {}); // awaited below; a failure before then closes the page
    for (const id of ["template", "base64", "escaped"]) {
      await page.evaluate((id) => document.getElementById(id).start(), id);
      const figures = page.locator(`#${id} #query-summary .figures`);
      await figures.waitFor();
      assert.match(await figures.innerText(), /^1 returned of 2 examined/, id);
    }
    // The page's own theme switch (Docusaurus's data-theme), live.
    const scheme = () => page.evaluate(() => getComputedStyle(document.getElementById("base64").shadowRoot.querySelector(".frame")).colorScheme);
    assert.equal(await scheme(), "light dark", "a page that says nothing leaves it to the system");
    await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
    await page.waitForFunction(() => getComputedStyle(document.getElementById("base64").shadowRoot.querySelector(".frame")).colorScheme === "dark");
    await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
    await page.waitForFunction(() => getComputedStyle(document.getElementById("base64").shadowRoot.querySelector(".frame")).colorScheme === "light");
    // The src that never answers: an error in the box after 15 s, not "Loading" for ever.
    const message = await hang;
    const waited = (Date.now() - started) / 1000;
    assert.match(message, /The start state at \/hang\.json did not load: its server sent no answer within 15 s/);
    assert.ok(waited >= 14 && waited < 40, `gave up after ${waited} s`);
    const box = page.locator("#hang [part=failure]");
    assert.match(await box.innerText(), /did not load: its server sent no answer within 15 s[\s\S]*Fix: Check that the src address opens/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    server.stop();
  }
});
