// e2e/parity.test.js is responsible for proving that the engine in the page
// answers exactly as the native server: the same signed requests go to both,
// and every page request to /devstoreaccount1/ is aborted, so the in-page
// engine answers by itself.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, openPage } from "./harness.js";

let server, browser, page;
let aborted = 0;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await openPage(browser, server.url));
  await page.route("**/devstoreaccount1/**", (route) => {
    aborted++;
    return route.abort();
  });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const draft = (rk, props = []) => ({ PartitionKey: "p", RowKey: rk, properties: props });

// The sequence: every operation kind, successes and the service's errors.
const operations = [
  { kind: "createTable", table: "parity" },
  { kind: "createTable", table: "PARITY" },
  { kind: "createTable", table: "bad-name" },
  { kind: "getTable", table: "parity" },
  { kind: "listTables" },
  { kind: "insert", table: "parity", entity: draft("a", [{ name: "N", type: "Edm.Int64", text: "42" }, { name: "D", type: "Edm.Double", text: "2" }]) },
  { kind: "insert", table: "parity", entity: draft("a") },
  { kind: "insert", table: "parity", entity: draft("b", [{ name: "When", type: "Edm.DateTime", text: "2021-06-09T01:17:13.2924321Z" }]) },
  { kind: "insert", table: "parity", entity: draft("c", [{ name: "Id", type: "Edm.Guid", text: "c9da6455-213d-42c9-9a79-3e9149a57833" }]) },
  { kind: "get", table: "parity", entity: draft("a"), level: "fullmetadata" },
  { kind: "get", table: "parity", entity: draft("missing") },
  { kind: "merge", table: "parity", entity: draft("a", [{ name: "M", type: "Edm.Boolean", text: "true" }]) },
  { kind: "replace", table: "parity", entity: draft("b"), ifMatch: `W/"datetime'2000-01-01T00%3A00%3A00Z'"` },
  { kind: "insertOrReplace", table: "parity", entity: draft("d", [{ name: "X", type: "Edm.Binary", text: "QmFy" }]) },
  { kind: "insertOrMerge", table: "parity", entity: draft("d", [{ name: "Y", type: "Edm.Int32", text: "7" }]) },
  { kind: "query", table: "parity", top: 2 },
  { kind: "query", table: "parity", top: 2, nextPartitionKey: "1!4!cA--", nextRowKey: "1!4!Yw--" },
  { kind: "query", table: "parity", filter: "N eq 42L or Y ge 7", select: "N,Y,Missing", level: "nometadata" },
  { kind: "query", table: "parity", filter: "aaa bbb ccc" },
  { kind: "query", table: "nothere" },
  { kind: "delete", table: "parity", entity: draft("c") },
  { kind: "delete", table: "parity", entity: draft("c") },
  { kind: "deleteTable", table: "parity" },
  { kind: "deleteTable", table: "parity" },
];

// normalize hides what differs between any two runs: dates, ids, ETags and
// Timestamps (the engines' clocks differ by the time between requests).
function normalize(text) {
  return text
    .replace(/datetime'[^']*'/g, "datetime'T'")
    .replace(/"Timestamp":"[^"]*"/g, '"Timestamp":"T"')
    .replace(/RequestId:[^\\]*\\nTime:[^"]*/g, "RequestId:R\\nTime:T");
}

const headersThatMatter = [
  "content-type",
  "location",
  "dataserviceid",
  "preference-applied",
  "x-ms-continuation-nextpartitionkey",
  "x-ms-continuation-nextrowkey",
  "x-ms-continuation-nexttablename",
  "x-ms-error-code",
  "x-ms-version",
];

function summary(status, headers, body) {
  const h = {};
  for (const k of headersThatMatter) if (headers[k] !== undefined) h[k] = headers[k];
  h.etag = headers.etag === undefined ? "absent" : "present";
  const code = (body.match(/"code":"(\w+)"/) || [])[1];
  return { status, code, headers: h, body: normalize(body) };
}

test("the page engine and the native server answer alike", async () => {
  const requests = await page.evaluate((ops) => ops.map((op) => tableplay.requestFor(op)), operations);
  const inPage = await page.evaluate(async (reqs) => {
    const out = [];
    for (const r of reqs) {
      const resp = await tableplay.fetch(r.url, { method: r.method, headers: r.headers, body: r.body || undefined });
      out.push({ status: resp.status, headers: Object.fromEntries(resp.headers), body: await resp.text() });
    }
    return out;
  }, requests);
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i];
    assert.equal(r.error, undefined, `${operations[i].kind}: ${r.error}`);
    const headers = r.headers.filter(([k]) => k !== "Content-Length");
    const resp = await fetch(r.url, { method: r.method, headers, body: r.body || undefined });
    const native = summary(resp.status, Object.fromEntries(resp.headers), await resp.text());
    const mine = summary(inPage[i].status, inPage[i].headers, inPage[i].body);
    assert.deepEqual(mine, native, `${i}: ${r.method} ${r.url}`);
  }
  assert.equal(aborted, 0, "the page never reached the network for the API");
  // The sequence covers successes and the service's errors.
  const statuses = inPage.map((x) => x.status);
  for (const s of [200, 201, 204, 400, 404, 409, 412]) assert.ok(statuses.includes(s), `status ${s} covered: ${statuses}`);
});

test("page requests to the API are aborted during the parity test", async () => {
  const failed = await page.evaluate(async () => {
    try {
      await fetch("/devstoreaccount1/Tables");
      return false;
    } catch {
      return true;
    }
  });
  assert.equal(failed, true);
  assert.ok(aborted >= 1);
});
