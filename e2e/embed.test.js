// e2e/embed.test.js is responsible for testing <table-playground> as a docs
// author and a reader meet it: the demo page with three embeds under a
// strict Content-Security-Policy, the engine loaded once and late, accounts
// isolated from each other and from the full page, read-only embeds, inline
// start state, a hostile host stylesheet, the iframe form, "Open in the
// playground", accessible names and a 320 px column.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync } from "node:fs";
import { root, useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

// open loads a page of the server with the strict CSP header added to the
// document, and records console errors, page errors and wasm downloads.
async function open(file, options = {}) {
  const context = await env.context({ viewport: { width: 1280, height: 700 }, ...options });
  const page = await context.newPage();
  const seen = { errors: [], wasm: [] };
  page.on("console", (m) => m.type() === "error" && seen.errors.push(m.text()));
  page.on("pageerror", (e) => seen.errors.push(String(e)));
  page.on("request", (r) => new URL(r.url()).pathname.match(/\.wasm(\.gz)?$/) && seen.wasm.push(r.url()));
  await context.route(/\.html(#.*)?$/, async (route) => {
    const r = await route.fetch();
    await route.fulfill({ response: r, headers: { ...r.headers(), "content-security-policy": CSP } });
  });
  await page.goto(env.server.url + file);
  return { page, context, seen };
}

// start scrolls an embed into view and waits until it is interactive.
async function start(page, id) {
  await page.locator("#" + id).scrollIntoViewIfNeeded();
  return page.evaluate((id) => document.getElementById(id).ready.then((el) => el.account), id);
}

// tables lists an account's tables through the engine.
function tables(page, account) {
  return page.evaluate(async (account) => {
    const r = await tableplay.fetch(`/${account}/Tables`, { headers: { Accept: "application/json;odata=nometadata" } });
    return r.status === 200 ? (await r.json()).value.map((t) => t.TableName).sort() : r.status;
  }, account);
}

test("the demo page under a strict CSP: one late wasm download, three isolated accounts, no console errors", async () => {
  const { page, context, seen } = await open("/docs/embed-demo.html");
  // The CSP is in force: an inline script added to the page does not run.
  const inlineRan = await page.evaluate(async () => {
    const s = document.createElement("script");
    s.textContent = "window.inlineRan = true";
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return window.inlineRan === true;
  });
  assert.equal(inlineRan, false, "the CSP header blocks inline scripts");
  seen.errors.length = 0; // that refusal is the one expected console error
  // Before any embed nears the viewport: previews with Run, no wasm.
  await page.locator("#first").getByRole("button", { name: /^Run / }).waitFor();
  await page.waitForTimeout(500);
  assert.equal(seen.wasm.length, 0, "no wasm before an embed is near the viewport");
  assert.equal(await page.evaluate(() => typeof window.tableplay), "undefined");
  const first = await start(page, "first");
  assert.equal(seen.wasm.length, 1);
  const second = await start(page, "second");
  const third = await start(page, "third");
  assert.equal(seen.wasm.length, 1, "three embeds share one engine");
  assert.equal(new Set([first, second, third, "devstoreaccount1"]).size, 4, "an account each");
  const before = { second: await tables(page, second), third: await tables(page, third), page: await tables(page, "devstoreaccount1") };
  assert.deepEqual(before, { second: ["Orders"], third: ["Devices"], page: [] });
  // Create a table and insert an entity in the first embed.
  const one = page.locator("#first");
  await one.getByLabel("New table name").fill("Isolated");
  await one.getByRole("button", { name: "Create" }).click();
  await one.getByRole("button", { name: "Isolated", exact: true }).waitFor();
  await one.getByLabel("PartitionKey").fill("p");
  await one.getByLabel("RowKey").fill("r");
  await one.getByRole("button", { name: "Send" }).click();
  await one.locator("#exchanges article", { hasText: "201 Created" }).first().waitFor();
  assert.deepEqual(await tables(page, first), ["Isolated", "Products", "Users"]);
  const count = await page.evaluate(async (a) => (await (await tableplay.fetch(`/${a}/Isolated()`, { headers: { Accept: "application/json;odata=nometadata" } })).json()).value.length, first);
  assert.equal(count, 1);
  // The others are as they were.
  assert.deepEqual({ second: await tables(page, second), third: await tables(page, third), page: await tables(page, "devstoreaccount1") }, before);
  assert.equal(await page.locator("#second").locator("#entity-list").count(), 0, "the query embed shows no editor");
  // An embed that leaves the page takes its account with it.
  await page.evaluate(() => document.getElementById("first").remove());
  assert.equal(await tables(page, first), 404);
  assert.equal(seen.wasm.length, 1);
  assert.deepEqual(seen.errors, []);
  await page.screenshot({ path: path.join(env.artifacts, "embed-demo.png"), fullPage: true });
  await context.close();
});

test("the embeds add nothing global besides window.tableplay", async () => {
  const context = await env.context({ viewport: { width: 1280, height: 700 } });
  // The names the window has before any script of the page runs (kept out
  // of sight so that the record adds no name of its own).
  await context.addInitScript(() => {
    const names = Object.getOwnPropertyNames(window);
    Object.defineProperty(window, "__baseline", { value: names, enumerable: false });
  });
  const page = await context.newPage();
  await page.goto(env.server.url + "/docs/embed-demo.html");
  for (const id of ["first", "second", "third"]) await start(page, id);
  const added = await page.evaluate(() => {
    const before = new Set(window.__baseline);
    return Object.getOwnPropertyNames(window).filter((n) => !before.has(n) && n !== "__baseline");
  });
  assert.deepEqual(added, ["tableplay"]);
  // Go's glue asks for these on the global object; it keeps them private.
  assert.deepEqual(await page.evaluate(() => ["Go", "fs", "process", "path", "tableplayBinding"].filter((n) => n in window)), []);
  // The engine still works through them: a write and a read.
  const account = await page.evaluate(() => document.getElementById("first").account);
  const status = await page.evaluate(async (a) => (await tableplay.fetch(`/${a}/Tables`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json;odata=nometadata" }, body: JSON.stringify({ TableName: "Globals" }) })).status, account);
  assert.equal(status, 201);
  assert.ok((await tables(page, account)).includes("Globals"));
  await context.close();
});

test("start=click: nothing loads until Run is pressed", async () => {
  const { page, context, seen } = await open("/e2e/fixtures/embed-host.html");
  const run = page.getByRole("button", { name: "Run Starts on Run" });
  await run.waitFor();
  await page.waitForTimeout(500);
  assert.equal(seen.wasm.length, 0, "in view but not pressed: no wasm");
  await run.click();
  await page.evaluate(() => document.getElementById("lazy").ready);
  assert.equal(seen.wasm.length, 1);
  assert.match(await page.locator("#lazy").getByLabel("Name of property 1").inputValue(), /Name/);
  assert.deepEqual(seen.errors, []);
  await context.close();
});

test("a read-only embed sends nothing that writes", async () => {
  const { page, context, seen } = await open("/docs/embed-demo.html");
  const account = await start(page, "third");
  const snapshot = () => page.evaluate((a) => JSON.stringify(tableplay.account(a).snapshot()), account);
  const before = await snapshot();
  await page.evaluate((a) => {
    window.changes = 0;
    window.addEventListener("tableplay:change", (e) => e.detail.account === a && window.changes++);
  }, account);
  const third = page.locator("#third");
  // The start entity's insert is shown, not sent, as the embed starts.
  await third.locator("#exchanges article", { hasText: "Not sent" }).first().waitFor();
  for (const [i, kind] of ["insert", "insertOrReplace", "delete"].entries()) {
    await third.getByLabel("Operation", { exact: true }).selectOption(kind);
    await third.getByRole("button", { name: "Show the request" }).click();
    await third.locator("#exchanges article", { hasText: "Not sent" }).nth(i + 1).waitFor();
  }
  const shown = await third.locator("#exchanges article").first().innerText();
  assert.match(shown, /DELETE http:\/\/127\.0\.0\.1:\d+\/embed\d+\/Devices\(PartitionKey='sensors',RowKey='t-01'\)/);
  assert.match(await third.locator("#exchanges article").nth(2).innerText(), /POST [^\n]*\/Devices HTTP\/1\.1[\s\S]*"Serial": "9007199254740993"/);
  await page.waitForTimeout(300);
  assert.equal(await snapshot(), before, "the account is unchanged");
  assert.equal(await page.evaluate(() => window.changes), 0, "no change notice");
  assert.deepEqual(seen.errors, []);
  await context.close();
});

test("inline start state: tables, the editor's entity and the query's filter", async () => {
  const { page, context } = await open("/docs/embed-demo.html");
  const account = await start(page, "second");
  const second = page.locator("#second");
  assert.equal(await second.getByLabel("$filter").inputValue(), "PartitionKey eq '2024' and Total gt 100");
  await second.getByRole("button", { name: "Run query" }).click();
  await second.locator('#query-results [role="cell"]').first().waitFor();
  assert.match(await second.locator("#query-summary").innerText(), /^4 returned of 6 examined/);
  assert.equal(await page.evaluate((a) => tableplay.account(a).snapshot().tables[0].entities.length, account), 12);
  // nometadata was asked for: the query went out with it.
  assert.match(await second.locator("#exchanges article").first().innerText(), /GET \S*%24format=application%2Fjson%3Bodata%3Dnometadata/);
  await start(page, "third");
  const third = page.locator("#third");
  assert.equal(await third.getByLabel("PartitionKey").inputValue(), "sensors");
  assert.equal(await third.getByLabel("Name of property 2").inputValue(), "Serial");
  assert.equal(await third.getByLabel("Type of property 2").inputValue(), "Edm.Int64");
  assert.equal(await third.getByLabel("Value of property 2").inputValue(), "9007199254740993");
  assert.equal(await third.getByRole("combobox", { name: "Table" }).inputValue(), "Devices");
  await context.close();
});

test("a hostile host stylesheet leaves the embed's layout intact, and the embed's styles stay inside", async () => {
  const { page, context, seen } = await open("/e2e/fixtures/embed-host.html", { viewport: { width: 900, height: 900 } });
  const hostBefore = await page.evaluate(() => ({
    card: getComputedStyle(document.getElementById("host-card")).backgroundColor,
    button: getComputedStyle(document.getElementById("host-button")).backgroundColor,
  }));
  await page.getByRole("button", { name: "Run Starts on Run" }).click();
  await page.evaluate(() => document.getElementById("lazy").ready);
  const layout = () => page.evaluate(() => {
    const root = document.getElementById("lazy").shadowRoot;
    const box = (sel) => {
      const r = root.querySelector(sel).getBoundingClientRect();
      return [Math.round(r.width), Math.round(r.height)];
    };
    const send = root.querySelector("#run-op");
    return {
      frame: box(".frame"), toolbar: box(".toolbar"), pk: box("#pk"), send: box("#run-op"), rows: box("#prop-rows"),
      font: getComputedStyle(send).fontSize, color: getComputedStyle(root.querySelector(".hint")).color,
      transform: getComputedStyle(send).textTransform,
    };
  });
  const clean = await layout();
  await page.evaluate(() => new Promise((resolve) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "hostile.css", onload: resolve });
    document.head.append(link);
  }));
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("h1")).fontSize), "30px", "the hostile sheet applies to the host page");
  assert.deepEqual(await layout(), clean);
  // The embed's own rules (.card, button) did not reach the host page.
  await page.evaluate(() => document.querySelector('link[href="hostile.css"]').remove());
  assert.deepEqual(await page.evaluate(() => ({
    card: getComputedStyle(document.getElementById("host-card")).backgroundColor,
    button: getComputedStyle(document.getElementById("host-button")).backgroundColor,
  })), hostBefore);
  assert.deepEqual(seen.errors, []);
  await context.close();
});

test("the iframe form posts its height to the host page", async () => {
  const { page, context, seen } = await open("/e2e/fixtures/iframe-host.html");
  await page.waitForFunction(() => window.heights.length > 0);
  const frame = page.frameLocator("#frame");
  await frame.locator("table-playground[data-state=ready]").waitFor();
  await page.waitForFunction(() => {
    const f = document.getElementById("frame");
    return Math.abs(f.getBoundingClientRect().height - window.heights.at(-1)) < 1 && window.heights.at(-1) > 400;
  });
  const { heights, inner } = await page.evaluate(() => ({
    heights: window.heights,
    inner: document.getElementById("frame").contentDocument.documentElement.scrollHeight,
  }));
  // The space is reserved from the first paint: one height may be all it posts.
  assert.ok(heights.length >= 1, `heights ${heights}`);
  assert.ok(Math.abs(heights.at(-1) - inner) <= 1, `last height ${heights.at(-1)} vs content ${inner}`);
  // The iframe's fragment carried the attributes.
  assert.equal(await frame.locator("table-playground").getAttribute("view"), "editor,wire");
  assert.equal(await frame.locator("table-playground").getAttribute("readonly"), "");
  assert.deepEqual(seen.errors, []);
  await context.close();
});

test("Open in the playground carries the embed's state to the full page", async () => {
  const { page, context } = await open("/docs/embed-demo.html");
  const account = await start(page, "first");
  const one = page.locator("#first");
  await one.getByLabel("New table name").fill("Carried");
  await one.getByRole("button", { name: "Create" }).click();
  await one.getByRole("button", { name: "Carried", exact: true }).waitFor();
  const link = one.getByRole("link", { name: "Open in the playground" });
  // Wait (bounded) for the link made after the last change: it carries the new table.
  const carries = () => page.evaluate(async () => {
    const code = document.getElementById("first").shadowRoot.querySelector("[part=open]").href.split("#s=")[1];
    if (!code) return false;
    const { decode } = await import("/web/sharelink.js");
    return (await decode(code)).includes('"Carried"');
  });
  for (let i = 0; i < 100 && !(await carries()); i++) await page.waitForTimeout(50);
  assert.equal(await carries(), true, "the link carries the new table");
  const href = await link.getAttribute("href");
  const expected = await page.evaluate((a) => JSON.stringify(tableplay.account(a).snapshot().tables), account);
  const fresh = await env.context();
  const full = await fresh.newPage();
  await full.goto(href);
  await full.waitForSelector("body[data-ready=true]");
  await full.getByRole("button", { name: "Carried", exact: true }).waitFor();
  assert.equal(await full.evaluate(() => JSON.stringify(tableplay.snapshot().tables)), expected);
  await fresh.close();
  await context.close();
});

test("every control in the embeds has an accessible name; 320 px without horizontal scroll", async () => {
  for (const width of [1280, 320]) {
    const { page, context, seen } = await open("/docs/embed-demo.html", { viewport: { width, height: 700 } });
    for (const id of ["first", "second", "third"]) await start(page, id);
    const controls = page.locator("table-playground").locator("input, select, textarea, button, meter, a");
    const n = await controls.count();
    assert.ok(n > 40, `${n} controls`);
    for (let i = 0; i < n; i++) {
      const c = controls.nth(i);
      if (!(await c.isVisible())) continue;
      const snapshot = await c.ariaSnapshot();
      assert.match(snapshot, /^- '?\w+ "[^"]+"/, `control ${i} has no accessible name: ${snapshot}`);
    }
    const scroll = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(scroll.scroll <= scroll.width, `${width}: the page is ${scroll.scroll}px wide in ${scroll.width}px`);
    assert.deepEqual(seen.errors, []);
    if (width === 320) await page.screenshot({ path: path.join(env.artifacts, "embed-320.png"), fullPage: true });
    await context.close();
  }
});

test("example names a lesson: the embed starts from its data; the embed's exchanges have the Code view", async () => {
  const lesson = JSON.parse(readFileSync(path.join(root, "lessons", "writes.json"), "utf8"));
  const expected = lesson.start.tables.map((t) => [t.name, t.entities.length]).sort();
  assert.ok(expected.length > 0, "the lesson starts with tables");
  const { page, context, seen } = await open("/e2e/fixtures/embed-host.html");
  await page.evaluate(() => {
    for (const [id, example] of [["from-lesson", "writes"], ["unknown", "no-such-example"]]) {
      const el = document.createElement("table-playground");
      // A script URL is never taken as the playground's address.
      if (id === "unknown") el.setAttribute("playground", "javascript:alert(1)");
      el.id = id;
      el.setAttribute("example", example);
      el.setAttribute("view", "editor,wire");
      document.getElementById("column").append(el);
    }
  });
  const account = await start(page, "from-lesson");
  const got = await page.evaluate((a) => tableplay.account(a).snapshot().tables.map((t) => [t.name, t.entities.length]).sort(), account);
  assert.deepEqual(got, expected);
  // An example that is neither a lesson nor the sample says so and starts from the sample.
  const other = await start(page, "unknown");
  assert.deepEqual(await tables(page, other), ["Products", "Users"]);
  await page.locator("#unknown").getByText(/There is no example named “no-such-example”/).waitFor();
  const openHref = await page.evaluate(() => document.getElementById("unknown").shadowRoot.querySelector("[part=open]").href);
  assert.match(openHref, /^http:\/\/127\.0\.0\.1:\d+\/index\.html/);
  // A write in the embed shows its exchange with a Code view, as on the page.
  const embed = page.locator("#from-lesson");
  await embed.getByLabel("PartitionKey").fill("p");
  await embed.getByLabel("RowKey").fill("code");
  await embed.getByRole("button", { name: "Send" }).click();
  const exchange = embed.locator("#exchanges article", { hasText: "201 Created" }).first();
  await exchange.waitFor();
  await exchange.locator("summary", { hasText: "Code" }).click();
  await exchange.getByLabel("Language").selectOption("python");
  assert.match(await exchange.locator("pre.code").innerText(), /create_entity\(/);
  assert.deepEqual(seen.errors, []);
  await context.close();
});
