// e2e/embed-docs.test.js is responsible for testing the embed as
// documentation content: a lesson shown a step at a time (element and iframe
// form), heights bounded by default with the answer scrolled into view,
// read-only and query embeds that show their start state's result at once
// with no write controls, and code copied from an embed that runs as copied
// against tableplay serve.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { root, useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const run = promisify(execFile);

async function open(file, width = 1280) {
  const context = await env.context({ viewport: { width, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(env.server.url + file);
  return { page, context, errors };
}

async function ready(page, id) {
  await page.locator("#" + id).scrollIntoViewIfNeeded();
  await page.evaluate((id) => document.getElementById(id).ready, id);
}

const height = (page, id) => page.evaluate((id) => Math.round(document.getElementById(id).getBoundingClientRect().height), id);

// inView reports whether an element inside an embed's shadow root lies
// (its top at least) within the embed's scrolling body.
function inView(page, id, selector) {
  return page.evaluate(([id, selector]) => {
    const root = document.getElementById(id).shadowRoot;
    const b = root.querySelector(".body").getBoundingClientRect();
    const t = root.querySelector(selector).getBoundingClientRect();
    return t.top >= b.top - 1 && t.top < b.bottom;
  }, [id, selector]);
}

test("step=1 of a lesson: just that step, ≤ 900 px at 1280 before and after Run, no horizontal scroll at 390", async () => {
  const figures = {};
  for (const width of [1280, 390]) {
    const { page, context, errors } = await open("/e2e/fixtures/step-host.html", width);
    await ready(page, "one");
    const one = page.locator("#one");
    const before = await height(page, "one");
    await one.getByRole("heading", { name: /^Step 1 of 6: / }).waitFor();
    // Only the step: no lesson menu, no other step, no parts.
    assert.equal(await one.getByRole("link", { name: "All lessons" }).count(), 0);
    assert.equal(await one.getByRole("heading", { name: /^Step 2 / }).count(), 0);
    assert.equal(await one.locator("#entity-list, #exchanges, #query-form").count(), 0);
    const whole = await one.getByRole("link", { name: "The whole lesson in the playground" }).getAttribute("href");
    // The link names the embed's language, so the lesson opens in it.
    assert.match(whole, /\/index\.html\?lang=en#lesson=partition-design&step=1$/);
    await one.getByRole("radio").first().check();
    await one.getByRole("button", { name: "Run", exact: true }).click();
    await one.locator(".lesson-result .outcome").waitFor();
    // The part of the result the step is about: the figures.
    assert.match(await one.locator(".lesson-result .outcome").innerText(), /Returned 54, examined 54/);
    assert.equal(await inView(page, "one", ".lesson-result"), true, "the step's result is scrolled into view");
    const afterRun = await height(page, "one");
    figures[width] = { before, after: afterRun };
    const scroll = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, view: innerWidth }));
    if (width === 1280) {
      assert.ok(before <= 900 && afterRun <= 900, `1280 px: ${before} px before Run, ${afterRun} px after`);
    } else {
      assert.ok(scroll.width <= scroll.view, `390 px: the page is ${scroll.width} px wide`);
      await page.screenshot({ path: path.join(env.artifacts, "embed-step-390.png"), fullPage: true });
    }
    // steps="2-3": Next stops at step 3.
    await page.locator("#range").getByRole("button", { name: "Run Steps 2 to 3" }).click();
    await page.evaluate(() => document.getElementById("range").ready);
    const range = page.locator("#range");
    await range.getByRole("heading", { name: /^Step 2 of 6: / }).waitFor();
    await range.getByRole("button", { name: "Next step" }).click();
    await range.getByRole("heading", { name: /^Step 3 of 6: / }).waitFor();
    assert.equal(await range.getByRole("button", { name: "Next step" }).isDisabled(), true);
    assert.deepEqual(errors, []);
    await context.close();
  }
  console.log(`# step embed heights: ${JSON.stringify(figures)}`);
});

test("the iframe form takes lesson and step", async () => {
  const { page, context, errors } = await open("/embed.html#lesson=partition-design&step=2&label=One%20step");
  const el = page.locator("table-playground");
  assert.equal(await el.getAttribute("lesson"), "partition-design");
  assert.equal(await el.getAttribute("step"), "2");
  await page.evaluate(() => document.querySelector("table-playground").ready);
  await el.getByRole("heading", { name: /^Step 2 of 6: / }).waitFor();
  assert.ok(await page.evaluate(() => document.documentElement.getBoundingClientRect().height) <= 700);
  assert.deepEqual(errors, []);
  await context.close();
});

test("every demo embed stays within its height after Send and Run query, the answer in view", async () => {
  for (const width of [1280, 390]) {
    const { page, context, errors } = await open("/docs/embed-demo.html", width);
    for (const id of ["first", "second", "third"]) await ready(page, id);
    const heights = () => page.evaluate(() => ["first", "second", "third"].map((id) => Math.round(document.getElementById(id).getBoundingClientRect().height)));
    const start = await heights();
    const one = page.locator("#first");
    await one.getByLabel("PartitionKey").fill("p");
    await one.getByLabel("RowKey").fill("bounded");
    await one.getByRole("button", { name: "Send" }).click();
    await one.locator("#exchanges article", { hasText: "201 Created" }).first().waitFor();
    await page.waitForTimeout(100);
    assert.equal(await inView(page, "first", "#exchanges article"), true, `${width}: the exchange after Send is in view`);
    const two = page.locator("#second");
    await two.getByLabel("$filter").fill("Total gt 100");
    await two.getByRole("button", { name: "Run query" }).click();
    await two.locator("#query-summary", { hasText: /^9 returned of 12 examined/ }).waitFor();
    await page.waitForTimeout(100);
    assert.equal(await inView(page, "second", "#query-summary"), true, `${width}: the query's figures are in view`);
    const end = await heights();
    for (const h of [...start, ...end]) assert.ok(h <= 640, `${width}: heights ${start} → ${end}`);
    console.log(`# demo embed heights at ${width} px: start ${start}, after Send and Run query ${end}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("read-only and query embeds show their start state's result at once; read-only has no write controls", async () => {
  const { page, context, errors } = await open("/docs/embed-demo.html");
  await ready(page, "second");
  const second = page.locator("#second");
  // The query ran as the embed started.
  await second.locator("#query-summary", { hasText: /^4 returned of 6 examined/ }).waitFor();
  assert.equal(await second.locator('#query-results [role="cell"]').count() > 0, true);
  await ready(page, "third");
  const third = page.locator("#third");
  // The request the start entity would be sent with, shown at once.
  await third.locator("#exchanges article", { hasText: "Not sent" }).first().waitFor();
  assert.match(await third.locator("#exchanges article").first().innerText(), /POST [^\n]*\/Devices HTTP\/1\.1[\s\S]*"Serial": "9007199254740993"/);
  for (const name of ["Add property", "Send", "Create", "Add to batch"]) {
    assert.equal(await third.getByRole("button", { name, exact: true }).count(), 0, `${name} is hidden`);
  }
  assert.equal(await third.getByRole("button", { name: /^Remove property/ }).count(), 0, "Remove is hidden");
  await third.getByRole("button", { name: "Show the request" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

// goModule writes a module that builds a copied Go program offline, from
// the repository's go.mod and go.sum (the module cache holds aztables).
function goModule(dir) {
  const mod = readFileSync(path.join(root, "go.mod"), "utf8").replace(/^module .*$/m, "module copied");
  writeFileSync(path.join(dir, "go.mod"), mod);
  writeFileSync(path.join(dir, "go.sum"), readFileSync(path.join(root, "go.sum")));
}

test("code copied from an embed runs unchanged against tableplay serve (Go and JavaScript)", { timeout: 300_000 }, async () => {
  const { page, context, errors } = await open("/e2e/fixtures/embed-host.html");
  const endpoint = `${env.server.url}/devstoreaccount1`;
  await page.evaluate((endpoint) => {
    for (const [id, target] of [["default", null], ["sandbox", endpoint]]) {
      const el = document.createElement("table-playground");
      el.id = id;
      el.setAttribute("view", "editor,wire");
      if (target) el.setAttribute("code-endpoint", target);
      el.innerHTML = `<script type="application/json">{"account": {"format": "tableplay-account", "version": 1, "tables": [{"name": "Copied", "created": "2026-01-02T03:04:05Z", "entities": []}]},
        "entity": {"PartitionKey": "docs", "RowKey": "r1", "Serial@odata.type": "Edm.Int64", "Serial": "9007199254740993"}}</script>`;
      document.getElementById("column").append(el);
    }
  }, endpoint);
  // copy sends the editor's operation and copies its code in a language.
  async function copy(id, kind, language) {
    const embed = page.locator("#" + id);
    await embed.getByLabel("Operation", { exact: true }).selectOption(kind);
    await embed.getByRole("button", { name: "Send" }).click();
    const x = embed.locator("#exchanges article").first();
    await x.locator("h3", { hasText: kind }).waitFor();
    await x.locator("summary", { hasText: "Code" }).click();
    await x.getByLabel("Language").selectOption(language);
    await x.getByRole("button", { name: /^Copy the .* code$/ }).click();
    return page.evaluate(() => navigator.clipboard.readText());
  }
  await ready(page, "default");
  // By default: the local emulator, its well-known account, the table created first.
  const plain = await copy("default", "insert", "javascript");
  assert.match(plain, /^\/\/ Runs against the local emulator: `tableplay serve` \(or Azurite\) on 127\.0\.0\.1:10002\./);
  assert.match(plain, /AccountName=devstoreaccount1;.*TableEndpoint=http:\/\/127\.0\.0\.1:10002\/devstoreaccount1;/);
  assert.match(plain, /await client\.createTable\(\);/);
  assert.doesNotMatch(plain, /embed\d|127\.0\.0\.1:(?!10002)\d+/, "no embed account and no page address");
  // Pointed at a server (here the test's tableplay serve), the copied
  // programs run as they are.
  await ready(page, "sandbox");
  const js = await copy("sandbox", "insert", "javascript");
  assert.ok(js.includes(`TableEndpoint=${endpoint};`), js);
  const dir = mkdtempSync(path.join(tmpdir(), "copied-"));
  try {
    writeFileSync(path.join(dir, "insert.cjs"), js);
    const inserted = await run("node", [path.join(dir, "insert.cjs")], { env: { ...process.env, NODE_PATH: path.join(root, "node_modules") }, timeout: 60_000 });
    assert.match(inserted.stdout, /^etag W\/"datetime/, inserted.stdout);
    // The Go program that reads it back, copied from the same embed.
    const go = await copy("sandbox", "get", "go");
    goModule(dir);
    writeFileSync(path.join(dir, "main.go"), go);
    const env_ = { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" };
    const got = await run("go", ["run", "."], { cwd: dir, env: env_, timeout: 240_000 });
    assert.match(got.stdout, /entity docs r1/);
    assert.match(got.stdout, /Serial = 9007199254740993/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await context.close();
});
