// e2e/api.test.js is responsible for testing window.tableplay in Chromium:
// every function on valid and invalid input, and the engine's behaviour
// behind fetch (shared state, comma-bearing headers, bodies, panics).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, openPage } from "./harness.js";

let server, browser, page;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await openPage(browser, server.url));
});

after(async () => {
  await browser?.close();
  server?.stop();
});

test("validateTableName returns rule cards", async () => {
  const r = await page.evaluate(() => [tableplay.validateTableName("ab"), tableplay.validateTableName("Customers"), tableplay.validateTableName("tables")]);
  assert.equal(r[0].valid, false);
  assert.equal(r[0].violations[0].code, "OutOfRangeInput");
  assert.equal(r[0].violations[0].rule.id, "table-name-too-short");
  assert.deepEqual(r[0].violations[0].rule.measure, { value: 2, limit: 3, unit: "characters" });
  assert.equal(r[1].valid, true);
  assert.equal(r[2].violations[0].rule.disputed, true);
});

test("validateEntity returns every violation, size and count", async () => {
  const r = await page.evaluate(() =>
    tableplay.validateEntity({
      PartitionKey: "p",
      RowKey: "r",
      properties: [
        { name: "Text", type: "Edm.String", text: "x".repeat(32768) },
        { name: "bad-name", type: "Edm.Int32", text: "1" },
      ],
    }),
  );
  assert.equal(r.valid, false);
  assert.deepEqual(r.violations.map((v) => v.rule.id), ["property-name-invalid", "string-too-long"]);
  const card = r.violations[1];
  assert.equal(card.code, "PropertyValueTooLarge");
  assert.deepEqual(card.rule.measure, { value: 32768, limit: 32767, unit: "UTF-16 code units" });
  assert.equal(card.rule.disputed, true);
  assert.equal(r.sizeLimit, 1048576);
  assert.equal(r.countLimit, 255);
  const ok = await page.evaluate(() =>
    tableplay.validateEntity({ PartitionKey: "p", RowKey: "r", properties: [{ name: "Age", type: "Int32", text: "36" }, { name: "Name", type: "", text: "Ada" }] }),
  );
  assert.equal(ok.valid, true);
  assert.equal(ok.size, 52); // 4 + 2×2 + (8+6+4) + (8+8+10)
  assert.equal(ok.count, 5);
});

test("previewEntity shows the SDK body and all three levels", async () => {
  const p = await page.evaluate(() =>
    tableplay.previewEntity({ PartitionKey: "p", RowKey: "r", properties: [{ name: "Visits", type: "Edm.Int64", text: "12" }] }, "people"),
  );
  assert.equal(p.valid, true);
  assert.equal(p.request, '{"PartitionKey":"p","RowKey":"r","Visits":"12","Visits@odata.type":"Edm.Int64"}');
  assert.match(p.responses.minimalmetadata, /"Visits@odata.type":"Edm.Int64","Visits":"12"/);
  assert.match(p.responses.fullmetadata, /"odata.type":"devstoreaccount1.people"/);
  assert.doesNotMatch(p.responses.nometadata, /odata/);
  const bad = await page.evaluate(() => tableplay.previewEntity({ PartitionKey: "p", properties: [] }, "people", "minimalmetadata"));
  assert.equal(bad.valid, false);
  assert.equal(bad.violations[0].code, "PropertiesNeedValue");
});

test("explainFilter gives the canonical form or the error position", async () => {
  const [ok, bad] = await page.evaluate(() => [tableplay.explainFilter("5 lt Age and PartitionKey eq 'p'"), tableplay.explainFilter("aaa bbb ccc")]);
  assert.equal(ok.valid, true);
  assert.equal(ok.canonical, "Age gt 5 and PartitionKey eq 'p'");
  assert.equal(ok.keyRange.PartitionKey.from, "p");
  assert.equal(bad.valid, false);
  assert.equal(bad.position, 7);
  assert.equal(bad.error.message, "Syntax error at position 7 in 'aaa bbb ccc'.");
});

test("requestFor builds a signed request the engine accepts", async () => {
  const r = await page.evaluate(async () => {
    const req = tableplay.requestFor({ kind: "createTable", table: "signed" });
    const resp = await tableplay.fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
    const tampered = tableplay.requestFor({ kind: "getTable", table: "signed" });
    const auth = tampered.headers.find((h) => h[0] === "Authorization");
    auth[1] = auth[1].slice(0, -4) + "AAA=";
    const bad = await tableplay.fetch(tampered.url, { method: tampered.method, headers: tampered.headers });
    return { req, status: resp.status, bad: bad.status, code: bad.headers.get("x-ms-error-code") };
  });
  assert.equal(r.status, 201);
  assert.equal(r.bad, 403, "a signature that is present is verified");
  assert.equal(r.code, "AuthenticationFailed");
  assert.ok(r.req.url.endsWith("/devstoreaccount1/Tables"));
  assert.deepEqual(r.req.headers.map((h) => h[0]), ["Accept", "Content-Type", "DataServiceVersion", "x-ms-version", "x-ms-date", "Content-Length", "Authorization"]);
  const err = await page.evaluate(() => tableplay.requestFor({ kind: "teleport" }));
  assert.match(err.error, /unknown operation/);
});

test("requests share state, keep comma-bearing headers, work without a body", async () => {
  const r = await page.evaluate(async () => {
    const h = { Accept: "application/json;odata=nometadata", "Content-Type": "application/json" };
    await tableplay.fetch("/devstoreaccount1/Tables", { method: "POST", headers: h, body: JSON.stringify({ TableName: "shared" }) });
    const statuses = [];
    for (let i = 0; i < 50; i++) {
      const resp = await tableplay.fetch("/devstoreaccount1/shared", { method: "POST", headers: h, body: JSON.stringify({ PartitionKey: "p", RowKey: String(i) }) });
      statuses.push(resp.status);
    }
    const list = await (await tableplay.fetch("/devstoreaccount1/shared()", { headers: h })).json();
    // A signed request: its x-ms-date carries a comma ("Sun, 22 Nov …").
    const signed = tableplay.requestFor({ kind: "get", table: "shared", entity: { PartitionKey: "p", RowKey: "7", properties: [] } });
    const got = await tableplay.fetch(signed.url, { method: signed.method, headers: signed.headers });
    const date = signed.headers.find((x) => x[0] === "x-ms-date")[1];
    // DELETE without a body.
    const del = await tableplay.fetch("/devstoreaccount1/shared(PartitionKey='p',RowKey='7')", { method: "DELETE", headers: { "If-Match": "*" } });
    return { statuses, count: list.value.length, got: got.status, date, del: del.status };
  });
  assert.ok(r.statuses.every((s) => s === 201), String(r.statuses));
  assert.equal(r.count, 50);
  assert.match(r.date, /^[A-Z][a-z]{2}, \d\d /);
  assert.equal(r.got, 200, "a signed request with a comma in x-ms-date is authenticated");
  assert.equal(r.del, 204);
});

test("a panic is a 500 and the engine keeps working", async () => {
  const r = await page.evaluate(async () => {
    const p = await tableplay.fetch("/_tableplay/panic");
    const body = await p.json();
    const after = await tableplay.fetch("/devstoreaccount1/Tables", { headers: { Accept: "application/json" } });
    return { status: p.status, code: body["odata.error"].code, after: after.status };
  });
  assert.deepEqual(r, { status: 500, code: "InternalError", after: 200 });
});

test("snapshot, restore and the change event", async () => {
  const r = await page.evaluate(async () => {
    let changes = 0;
    window.addEventListener("tableplay:change", () => changes++);
    const h = { Accept: "application/json", "Content-Type": "application/json" };
    await tableplay.fetch("/devstoreaccount1/Tables", { method: "POST", headers: h, body: JSON.stringify({ TableName: "snap" }) });
    await tableplay.fetch("/devstoreaccount1/snap", { method: "POST", headers: h, body: JSON.stringify({ PartitionKey: "p", RowKey: "r", "N@odata.type": "Edm.Int64", N: "9007199254740993" }) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const doc = tableplay.snapshot();
    let refused = "";
    try {
      tableplay.restore({ ...doc, version: 99 });
    } catch (e) {
      refused = e.message;
    }
    await tableplay.fetch("/devstoreaccount1/Tables('snap')", { method: "DELETE" });
    tableplay.restore(doc);
    const back = await (await tableplay.fetch("/devstoreaccount1/snap(PartitionKey='p',RowKey='r')", { headers: { Accept: "application/json;odata=nometadata" } })).text();
    return { changes, format: doc.format, refused, back };
  });
  assert.ok(r.changes >= 2, `changes: ${r.changes}`);
  assert.equal(r.format, "tableplay-account");
  assert.match(r.refused, /version 99/);
  assert.match(r.back, /"N":"9007199254740993"/);
});

test("the loader finds app.wasm from its own URL and reports progress", async () => {
  const context = await browser.newContext();
  const nested = await context.newPage();
  await nested.goto(server.url + "/e2e/fixtures/nested/page.html");
  const r = await nested.evaluate(async () => {
    await window.tableplay.ready;
    const resp = await tableplay.fetch("/devstoreaccount1/Tables", { headers: { Accept: "application/json" } });
    return { status: resp.status, progress: window.progress };
  });
  await context.close();
  assert.equal(r.status, 200);
  assert.ok(r.progress.length > 0, "progress events while downloading");
  const last = r.progress.at(-1);
  assert.ok(last.loaded > 1_000_000, `loaded ${last.loaded} bytes`);
  if (last.total) assert.equal(last.loaded, last.total);
});
