// e2e/connect.test.js is responsible for testing the page as a client of an
// endpoint elsewhere: connected to `tableplay serve` (the native server on a
// free loopback port), the same panels send their requests over the network
// and the wire view shows the real exchange; a second browser sees the
// first's writes appear and a stale ETag gets 412; the key and SAS stay out
// of storage, links, exports and the address bar; "Compare with the engine"
// marks where the endpoint's answer and the tab's differ; a bad endpoint is
// said plainly.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { useBrowser, startServer, assertNamed } from "./harness.js";

const env = useBrowser({ before, after });
const WELL_KNOWN_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

async function open(url = env.server.url + "/", options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Every request the page sends to the server's Table API.
  const sent = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/devstoreaccount1")) sent.push(`${r.method()} ${r.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return { page, context, errors, sent };
}

// connect opens the Connect panel and connects to the tableplay serve at
// endpoint (the page's own server when empty), with the key typed when
// given (else the well-known one).
async function connect(page, { endpoint = "", key = "" } = {}) {
  if (await page.locator("#connect-panel").isHidden()) await page.getByRole("button", { name: "Connect" }).click();
  await page.getByLabel("tableplay serve").check();
  await page.getByLabel("Table endpoint").fill(endpoint);
  await page.getByLabel("Account key").fill(key);
  await page.locator("#connect-go").click();
  await page.waitForFunction(() => /Connected|Not connected/.test(document.querySelector("#connect-answer")?.textContent ?? ""));
  return page.locator("#connect-answer").innerText();
}

async function send(page, kind, ifMatch) {
  await page.getByLabel("Operation", { exact: true }).selectOption(kind);
  if (ifMatch) await page.locator(`input[name="ifmatch"][value="${ifMatch}"]`).check();
  await page.evaluate(() => (document.getElementById("status").textContent = ""));
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForFunction((k) => document.getElementById("status").textContent.startsWith(k + ":"), kind);
  return page.locator("#exchanges article").first().innerText();
}

async function createTable(page, name) {
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name, exact: true }).waitFor();
}

async function insert(page, pk, rk, value) {
  await page.getByLabel("PartitionKey").fill(pk);
  await page.getByLabel("RowKey").fill(rk);
  if (await page.getByLabel("Name of property 1").count() === 0) await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel("Name of property 1").fill("Note");
  await page.getByLabel("Type of property 1").selectOption("Edm.String");
  await page.getByLabel("Value of property 1").fill(value);
  return send(page, "insert");
}

// tabTables lists the tables of the engine in the tab itself.
const tabTables = (page) => page.evaluate(() => JSON.parse(window.tableplay.run({ kind: "listTables" }).response.body).value.map((t) => t.TableName));

// accountSAS signs an account SAS for the Table service with the well-known
// key, as the portal or az storage account generate-sas would.
function accountSAS(permissions = "rwdlacu") {
  const iso = (d) => d.toISOString().replace(/\.\d+Z$/, "Z");
  const p = { sv: "2019-02-02", ss: "t", srt: "sco", sp: permissions, st: iso(new Date(Date.now() - 60_000)), se: iso(new Date(Date.now() + 3_600_000)), spr: "https,http" };
  const sts = ["devstoreaccount1", p.sp, p.ss, p.srt, p.st, p.se, "", p.spr, p.sv].join("\n") + "\n";
  const sig = createHmac("sha256", Buffer.from(WELL_KNOWN_KEY, "base64")).update(sts).digest("base64");
  return new URLSearchParams({ ...p, sig }).toString();
}

test("connected to tableplay serve, the panels create, insert and query over the network, and the wire shows the real exchange", async () => {
  const { page, context, errors, sent } = await open();
  assert.match(await connect(page), /Connected · http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1 answers/);
  assert.equal(await page.locator("body").getAttribute("data-target"), "remote");
  assert.match(await page.locator("#connect-target").innerText(), /Target: http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1 as devstoreaccount1, with its key/);
  await createTable(page, "Remote");
  const created = await page.locator("#exchanges article").first();
  assert.equal(await created.getAttribute("data-remote"), "true");
  const text = await created.innerText();
  assert.match(text, /Sent over the network to http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1/);
  assert.match(text, /POST http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/Tables HTTP\/1\.1/);
  assert.match(text, /Authorization: SharedKeyLite devstoreaccount1:[A-Za-z0-9+/]{43}=/);
  assert.match(text, /HTTP\/1\.1 201 Created/);
  // The native server's answer, as the browser received it.
  assert.match(text, /x-ms-request-id: /i);
  // The table is at the server, not in the tab's engine.
  assert.ok(sent.some((s) => /^POST .*\/devstoreaccount1\/Tables$/.test(s)), sent.join("\n"));
  assert.deepEqual(await tabTables(page), []);

  assert.match(await insert(page, "p", "r1", "over the wire"), /HTTP\/1\.1 201 Created/);
  assert.match(await page.locator("#entity-list").innerText(), /1 entities[\s\S]*r1[\s\S]*Note = over the wire/);
  await page.getByLabel("Filter").fill("Note eq 'over the wire'");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-summary .figures").waitFor();
  assert.match(await page.locator("#query-summary").innerText(), /1 returned/);
  assert.match(await page.locator("#query-results").innerText(), /over the wire/);
  assert.ok(sent.some((s) => /^GET .*\/devstoreaccount1\/Remote\(\)\?.*Note/.test(s)), sent.join("\n"));

  // The code for the exchange runs against the server, with its key.
  const article = page.locator("#exchanges article").first();
  await article.locator("summary", { hasText: "Code" }).click();
  await article.getByLabel("Language").selectOption("python");
  const code = await article.locator("pre.code").innerText();
  assert.ok(code.includes(`TableEndpoint=${env.server.url}/devstoreaccount1`), code);
  assert.ok(code.includes("AccountKey=" + WELL_KNOWN_KEY), code);

  // Disconnecting puts the engine in the tab back.
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.waitForFunction(() => document.body.dataset.target === "engine");
  assert.equal(await page.locator("#table-list").innerText(), "");
  assert.deepEqual(errors, []);
  await context.close();
});
