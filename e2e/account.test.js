// e2e/account.test.js is responsible for testing queries with paging, batch
// transactions, persistence, export/import and share links in the page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const artifacts = env.artifacts;

async function open(context, url = env.server.url + "/") {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return page;
}

// fill writes n entities through the engine directly (setup, not the subject).
async function fill(page, table, n) {
  await page.evaluate(async ({ table, n }) => {
    const h = { Accept: "application/json", "Content-Type": "application/json", Prefer: "return-no-content" };
    await tableplay.fetch("/devstoreaccount1/Tables", { method: "POST", headers: h, body: JSON.stringify({ TableName: table }) });
    for (let i = 0; i < n; i += 100) {
      const ops = [];
      for (let j = i; j < Math.min(n, i + 100); j++) {
        ops.push({ kind: "insert", table, entity: { PartitionKey: "p" + (j % 5), RowKey: String(j).padStart(6, "0"), properties: [{ name: "N", type: "Edm.Int32", text: String(j) }] } });
      }
      // One transaction per partition and hundred.
      for (const pk of ["p0", "p1", "p2", "p3", "p4"]) {
        const part = ops.filter((o) => o.entity.PartitionKey === pk);
        if (!part.length) continue;
        const r = tableplay.requestFor({ kind: "batch", operations: part });
        await tableplay.fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
      }
    }
  }, { table, n });
}

// saved waits until what IndexedDB holds is the engine's account: another
// tab of the same browser, which starts from what is saved, has the same
// tables and entities (a save counter alone can be satisfied by an earlier
// save still in flight).
async function saved(page) {
  const other = await page.context().newPage();
  try {
    await other.goto(env.server.url + "/");
    await other.waitForSelector("body[data-ready=true]", { timeout: 15000 });
    for (let i = 0; i < 100; i++) {
      const [mine, theirs] = await Promise.all([page, other].map((p) => p.evaluate(() => JSON.stringify(tableplay.snapshot().tables))));
      if (mine === theirs) return;
      await page.waitForTimeout(100);
    }
    throw new Error("the account was not saved within 10 s");
  } finally {
    await other.close();
  }
}

// storedNames reads the names of the tables saved in this browser: what a
// new tab of the same browser starts from.
async function storedNames(page) {
  const other = await page.context().newPage();
  try {
    await other.goto(env.server.url + "/");
    await other.waitForSelector("body[data-ready=true]", { timeout: 15000 });
    return await other.evaluate(() => tableplay.snapshot().tables.map((t) => t.name));
  } finally {
    await other.close();
  }
}

async function selectTable(page, name) {
  await page.getByRole("button", { name: "Delete table " + name }).waitFor();
  await page.getByRole("button", { name, exact: true }).click();
  await page.waitForFunction((n) => document.getElementById("query-table").textContent.includes(n), name);
}

async function runQuery(page, next = false) {
  const pages = await page.evaluate(() => Number(document.getElementById("query-panel").dataset.queryPages ?? 0));
  await page.getByRole("button", { name: next ? "Next page" : "Run query" }).click();
  await page.waitForFunction((p) => Number(document.getElementById("query-panel").dataset.queryPages ?? 0) > p, pages);
}

test("query 2,500 entities with a filter, page through, each match exactly once", async () => {
  const context = await env.context();
  const page = await open(context);
  await fill(page, "Many", 2500);
  await saved(page);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await selectTable(page, "Many");
  // A broken filter shows where it breaks.
  await page.getByLabel("$filter").fill("N gt 5 and and");
  await page.locator("#filter-explain mark").waitFor();
  assert.match(await page.locator("#filter-explain").innerText(), /Syntax error at position \d+/);
  // Every third entity of partition p2 and p4 with N < 2000.
  await page.getByLabel("$filter").fill("(PartitionKey eq 'p2' or PartitionKey eq 'p4') and N lt 2000");
  await page.locator("#filter-explain .canonical").waitFor();
  await page.getByLabel("$top").fill("300");
  await runQuery(page);
  const seen = new Map();
  let pages = 0;
  const summaries = [];
  for (;;) {
    pages++;
    // Every row of the page is in the results table (rows off screen are
    // skipped by layout, not left out), numbered for assistive technology.
    const table = page.getByRole("table", { name: "Query results" });
    const keys = await table.evaluate((t) => {
      const rows = [...t.querySelectorAll('[role="row"]')];
      const body = rows.filter((r) => r.querySelector('[role="cell"]'));
      if (Number(t.getAttribute("aria-rowcount")) !== rows.length) throw new Error(`aria-rowcount ${t.getAttribute("aria-rowcount")}, ${rows.length} rows`);
      rows.forEach((r, i) => {
        if (Number(r.getAttribute("aria-rowindex")) !== i + 1) throw new Error(`row ${i + 1} has aria-rowindex ${r.getAttribute("aria-rowindex")}`);
      });
      return body.map((r) => {
        const cells = r.querySelectorAll('[role="cell"]');
        return cells[0].textContent + "/" + cells[1].textContent;
      });
    });
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
    summaries.push(await page.locator("#query-summary").innerText());
    if (await page.getByRole("button", { name: "Next page" }).isDisabled()) break;
    assert.ok(pages < 20, "bounded paging");
    await runQuery(page, true);
  }
  const expected = [];
  for (let j = 0; j < 2000; j++) if (j % 5 === 2 || j % 5 === 4) expected.push("p" + (j % 5) + "/" + String(j).padStart(6, "0"));
  assert.equal(seen.size, expected.length);
  for (const k of expected) assert.equal(seen.get(k), 1, k);
  assert.ok(pages >= 3, `${pages} pages`);
  assert.match(summaries[0], /300 returned of [\d,]+ examined · more pages/);
  // The tokens are shown with the keys they name.
  assert.match(summaries[0], /NextPartitionKey 1!\d+![A-Za-z0-9*_-]+ → p[24]/);
  assert.match(summaries[0], /The next page starts at PartitionKey 'p[24]', RowKey '\d{6}', that entity included\./);
  assert.match(summaries.at(-1), /no more pages/);
  await context.close();
});

test("a failing batch rolls back and names its index; a succeeding one shows ETags", async () => {
  const context = await env.context();
  const page = await open(context);
  await page.getByLabel("New table name").fill("Orders");
  await page.getByRole("button", { name: "Create" }).click();
  await selectTable(page, "Orders");
  const queue = async (rk) => {
    await page.getByLabel("PartitionKey").fill("o");
    await page.getByLabel("RowKey").fill(rk);
    await page.getByLabel("Operation", { exact: true }).selectOption("insert");
    await page.getByRole("button", { name: "Add to batch" }).click();
  };
  await queue("1");
  await queue("2");
  await queue("1"); // the same entity twice: the rules say so before sending
  await page.locator("#batch-rules li.bad").waitFor();
  assert.match(await page.locator("#batch-rules").innerText(), /Each entity appears at most once/);
  assert.match(await page.locator("#batch-queue li.failed").innerText(), /InvalidDuplicateRow/);
  await page.getByRole("button", { name: /^Remove operation 3: insert o \/ 1$/ }).click();
  await page.waitForFunction(() => !document.querySelector("#batch-rules li.bad"));
  // Succeeds: every operation's ETag.
  await page.getByRole("button", { name: "Submit transaction" }).click();
  await page.locator("#batch-result .ok-note").waitFor();
  assert.equal(await page.locator("#batch-result code.etag").count(), 2);
  // Fails in the middle: a duplicate insert at index 1 of three.
  await queue("3");
  await queue("1");
  await queue("4");
  await page.getByRole("button", { name: "Submit transaction" }).click();
  await page.locator("#batch-result .failed-note").waitFor();
  const result = await page.locator("#batch-result").innerText();
  assert.match(result, /failed at operation 2 \(index 1 in the service's answer\): 409 Conflict · EntityAlreadyExists · “1:The specified entity already exists\.”/);
  assert.match(result, /Nothing changed/);
  assert.match(await page.locator("#batch-queue li.failed").innerText(), /insert o \/ 1/);
  const rows = await page.evaluate(async () => (await (await tableplay.fetch("/devstoreaccount1/Orders()", { headers: { Accept: "application/json;odata=nometadata" } })).json()).value.map((e) => e.RowKey));
  assert.deepEqual(rows, ["1", "2"], "the failed transaction wrote nothing");
  await context.close();
});

test("reload keeps the data, reset removes it, export and import bring it back, a corrupt import changes nothing", async () => {
  const context = await env.context({ acceptDownloads: true });
  const page = await open(context);
  await page.getByRole("button", { name: "Load the sample" }).click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  await saved(page);
  const before = await page.evaluate(() => JSON.stringify(tableplay.snapshot().tables));
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  // The account came back from IndexedDB as it was saved, and restoring it
  // neither saved again nor warned (a warning would mean storage failed).
  assert.equal(await page.evaluate(() => JSON.stringify(tableplay.snapshot().tables)), before);
  assert.equal(await page.locator("#storage-status").innerText(), "");
  assert.equal(await page.evaluate(() => document.body.dataset.saved ?? "0"), "0");
  // Export.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const file = path.join(artifacts, "export.json");
  await (await download).saveAs(file);
  const exported = JSON.parse(readFileSync(file, "utf8"));
  assert.equal(exported.format, "tableplay-account");
  assert.deepEqual(exported.tables.map((t) => t.name), ["Products", "Users"]);
  // Reset, after confirming.
  await page.getByRole("button", { name: "Reset" }).click();
  await page.getByRole("button", { name: "Reset", exact: true }).last().click();
  await page.getByRole("button", { name: "Load the sample" }).waitFor();
  assert.equal(await page.locator("#table-list li").count(), 0);
  await saved(page);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator("#table-list li").count(), 0, "reset is saved too");
  // Import.
  await page.locator("#import-file").setInputFiles(file);
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  // A tampered file: refused with the reason, nothing changed.
  const bad = path.join(artifacts, "tampered.json");
  const tampered = JSON.parse(readFileSync(file, "utf8"));
  const visits = tampered.tables.find((t) => t.name === "Users").entities[0].properties.find((p) => p[0] === "Visits");
  visits[2] = "98765x43210";
  writeFileSync(bad, JSON.stringify(tampered));
  await page.locator("#import-file").setInputFiles(bad);
  await page.waitForFunction(() => document.getElementById("account-note").textContent.startsWith("Import refused"));
  assert.match(await page.locator("#account-note").innerText(), /nothing changed: table \d \("Users"\), entity 1: property "Visits"/);
  assert.equal(await page.locator("#table-list li").count(), 2);
  await context.close();
});

test("a share link opens the same account for the visit, saved only on Keep; an oversized one is refused", async () => {
  const a = await env.context();
  const page = await open(a);
  await page.getByRole("button", { name: "Load the sample" }).click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  await page.getByRole("button", { name: "Share link" }).click();
  await page.locator("#share-box").waitFor(); // compression is asynchronous
  const link = await page.getByLabel("Link to this workspace").inputValue();
  assert.match(link, /#w=[A-Za-z0-9_-]+$/);
  const original = await page.evaluate(() => JSON.stringify(tableplay.snapshot().tables));
  const b = await env.context();
  const fresh = await open(b, link);
  await fresh.getByRole("button", { name: "Users", exact: true }).waitFor();
  assert.equal(await fresh.evaluate(() => JSON.stringify(tableplay.snapshot().tables)), original);
  // (web/workspace.js's tests cover the temporary session, Keep and Reset to link.)
  await b.close();
  // Too large: 600 entities of random text do not fit in 32 KB compressed.
  await page.evaluate(async () => {
    const h = { Accept: "application/json", "Content-Type": "application/json", Prefer: "return-no-content" };
    await tableplay.fetch("/devstoreaccount1/Tables", { method: "POST", headers: h, body: JSON.stringify({ TableName: "Big" }) });
    for (let i = 0; i < 600; i++) {
      const noise = Array.from(crypto.getRandomValues(new Uint8Array(48)), (x) => x.toString(36)).join("");
      await tableplay.fetch("/devstoreaccount1/Big", { method: "POST", headers: h, body: JSON.stringify({ PartitionKey: "p", RowKey: String(i), Noise: noise }) });
    }
  });
  await page.getByRole("button", { name: "Share link" }).click();
  await page.waitForFunction(() => document.getElementById("account-note").textContent.includes("too large for a link"));
  assert.equal(await page.locator("#share-box").isHidden(), true, "no link is produced");
  assert.match(await page.locator("#account-note").innerText(), /Use Export/);
  await a.close();
});

test("without IndexedDB the page says so and keeps working in memory", async () => {
  const context = await env.context();
  await context.addInitScript(() => {
    Object.defineProperty(window, "indexedDB", { get() { throw new DOMException("blocked", "SecurityError"); } });
  });
  const page = await open(context);
  assert.match(await page.locator("#storage-status").innerText(), /Storage unavailable/);
  await page.getByRole("button", { name: "Load the sample" }).click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  assert.match(await page.locator("#entity-list").innerText(), /Ada Lovelace/);
  await context.close();
});

test("a link longer than the page makes, a link that inflates past 8 MB and an import over 8 MB are refused", async () => {
  const context = await env.context();
  await context.addInitScript(() => {
    // Count inflations, to see that an oversized link is refused before one.
    window.inflations = 0;
    const Inner = window.DecompressionStream;
    window.DecompressionStream = class extends Inner {
      constructor(...args) {
        super(...args);
        window.inflations++;
      }
    };
  });
  const page = await open(context);
  await page.evaluate(async () => {
    const h = { Accept: "application/json", "Content-Type": "application/json" };
    await tableplay.fetch("/devstoreaccount1/Tables", { method: "POST", headers: h, body: JSON.stringify({ TableName: "Mine" }) });
  });
  await saved(page);
  const names = () => page.evaluate(() => tableplay.snapshot().tables.map((t) => t.name));
  const visit = async (fragment) => {
    await page.goto("about:blank");
    await page.goto(env.server.url + "/#s=" + fragment);
    await page.waitForSelector("body[data-ready=true]");
    await page.waitForFunction(() => document.getElementById("account-note").textContent !== "");
    return page.locator("#account-note").innerText();
  };
  // Longer than any link the page makes (32 KB): refused unread.
  assert.match(await visit("A".repeat(40000)), /not opened: it holds 40,000 characters, more than the 32,768/);
  assert.equal(await page.evaluate(() => window.inflations), 0, "nothing was inflated");
  assert.deepEqual(await names(), ["Mine"]);
  // 9 MiB of spaces deflate to a few KB: inflation stops at 8 MB.
  const bomb = deflateRawSync(Buffer.alloc(9 * 1024 * 1024, 0x20)).toString("base64url");
  assert.ok(bomb.length < 32 * 1024, `the bomb is a valid-sized link (${bomb.length})`);
  assert.match(await visit(bomb), /not opened: it inflates past 8 MB/);
  assert.deepEqual(await names(), ["Mine"]);
  assert.deepEqual(await storedNames(page), ["Mine"]);
  // An import over the same cap is refused before it is read.
  await page.locator("#import-file").setInputFiles({ name: "big.json", mimeType: "application/json", buffer: Buffer.alloc(9 * 1024 * 1024, 0x20) });
  await page.waitForFunction(() => document.getElementById("account-note").textContent.includes("Import refused"));
  assert.match(await page.locator("#account-note").innerText(), /Import refused, nothing changed: the file is 9 MB; an account file may be at most 8 MB/);
  assert.deepEqual(await names(), ["Mine"]);
  await context.close();
});
