// e2e/pictures.test.js is responsible for testing the pictures of what the
// engine did, as the query and batch panels draw them: the lesson
// "partition-design"'s scan of 2,000 orders that returns 54, a paged query's
// page cuts with the keys its tokens name, the Runs history counting a next
// page as a page of the same run, the query's own exchange beside it, and a
// failed batch with its failing index and the account unchanged.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./harness.js";

const env = useBrowser({ before, after });

async function open(context) {
  const page = await context.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return page;
}

async function selectTable(page, name) {
  await page.getByRole("button", { name: "Delete table " + name }).waitFor();
  await page.getByRole("button", { name, exact: true }).click();
  await page.waitForFunction((n) => document.getElementById("query-table").textContent.includes(n), name);
}

async function runQuery(page, { filter = null, top = null, next = false } = {}) {
  if (filter !== null) await page.getByLabel("$filter").fill(filter);
  if (top !== null) await page.getByLabel("$top").fill(top);
  const pages = await page.evaluate(() => Number(document.getElementById("query-panel").dataset.queryPages ?? 0));
  await page.getByRole("button", { name: next ? "Next page" : "Run query" }).click();
  await page.waitForFunction((p) => Number(document.getElementById("query-panel").dataset.queryPages ?? 0) > p, pages);
}

// lessonAccount puts a lesson's start account into the page's own account
// (saved in this browser) and reloads, so the panels list its tables.
async function lessonAccount(page, id) {
  await page.evaluate(async (lesson) => {
    const r = window.tableplay.resetLesson(lesson, 0);
    if (r.error) throw new Error(r.error);
  }, id);
  // The account is saved change by change; wait until a reload finds it.
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250);
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
    if (await page.getByRole("button", { name: "Delete table OrdersByDay" }).count()) return;
  }
  throw new Error("the lesson's account was not kept");
}

// ordersByDay opens the page at 1280×800 on the lesson's account, OrdersByDay
// selected and $select set.
async function ordersByDay(select) {
  const context = await env.context({ viewport: { width: 1280, height: 800 } });
  const page = await open(context);
  await lessonAccount(page, "partition-design");
  await selectTable(page, "OrdersByDay");
  await page.getByLabel("$select").fill(select);
  return { page, context };
}

test("partition-design step 2's query: 2,000 examined, 54 returned, drawn on the key order, with its cost and exchange", async () => {
  const { page, context } = await ordersByDay("RowKey,Total");
  await runQuery(page, { filter: "Customer eq 'customer-07'" });
  const picture = page.locator("#query-picture");
  assert.match(await picture.locator(".picture-figures").innerText(), /^2,000 examined · 54 returned · the table holds 2,000/);
  // The strip: the key range is the whole table, and the one page spans it.
  const bands = await picture.evaluate((p) => {
    const strip = p.querySelector(".key-strip").getBoundingClientRect();
    const box = (s) => [...p.querySelectorAll(s)].map((b) => {
      const r = b.getBoundingClientRect();
      return [Math.round((100 * (r.left - strip.left)) / strip.width), Math.round((100 * r.width) / strip.width)];
    });
    return { range: box(".key-range-band"), pages: box(".page-band"), cuts: p.querySelectorAll(".page-cut").length };
  });
  assert.deepEqual(bands, { range: [[0, 100]], pages: [[0, 100]], cuts: 0 });
  assert.match(await picture.locator(".cost").innerText(), /^Cost: 1 request · 2,000 examined · 54 returned · [\d,]+ bytes sent · [\d,]+ bytes received$/);
  const [sent, received] = (await picture.locator(".cost").innerText()).match(/[\d,]+(?= bytes)/g).map((n) => Number(n.replaceAll(",", "")));
  assert.ok(sent > 300 && received > 54 * 40, `bytes ${sent} / ${received}`);
  // The query's own exchange is beside the query, its query string decoded.
  const exchange = page.locator("#query-exchange");
  assert.match(await exchange.innerText(), /GET \/devstoreaccount1\/OrdersByDay\(\)\?\$filter=Customer eq 'customer-07'&.*\$select=RowKey,Total/);
  assert.match(await exchange.innerText(), /→ 200 OK/);
  const gap = await page.evaluate(() => document.getElementById("query-exchange").getBoundingClientRect().top - document.getElementById("query-form").getBoundingClientRect().bottom);
  assert.ok(gap >= 0 && gap < 200, `the exchange is ${gap} px below the query form`);

  // The same customer keyed by customer: one partition of the 2,000.
  await selectTable(page, "OrdersByCustomer");
  await runQuery(page, { filter: "PartitionKey eq 'customer-07'" });
  assert.match(await picture.locator(".picture-figures").innerText(), /^54 examined · 54 returned · the table holds 2,000; the key range 54\./);
  const narrowed = await picture.evaluate((p) => {
    const strip = p.querySelector(".key-strip").getBoundingClientRect();
    const r = p.querySelector(".key-range-band").getBoundingClientRect();
    return [(r.left - strip.left) / strip.width, r.width / strip.width];
  });
  assert.ok(narrowed[0] > 0.1 && narrowed[1] < 0.05, `the key range band ${narrowed}`);
  await context.close();
});

test("a paged query shows where each page ended and the key each token names, as pages of one run", async () => {
  const { page, context } = await ordersByDay("RowKey");
  await runQuery(page, { filter: "Customer eq 'customer-07'", top: "20" });
  const picture = page.locator("#query-picture");
  const first = await picture.locator(".page-list li").first().innerText();
  // The token is shown raw and decoded, and it names the key the page ended before.
  const m = first.match(/^Page 1: examined positions 1–([\d,]+) \(([\d,]+)\), returned 20; ended before PartitionKey '(\d{4}-\d\d-\d\d)', RowKey '(order-\d{4})': its continuation token (1!\d+!\S+) \/ (1!\d+!\S+) names that key, where page 2 starts\.$/);
  assert.ok(m, first);
  const token = await page.evaluate((raw) => window.tableplay.decodeContinuation({ nextPartitionKey: raw }).partitionKey.key, m[5]);
  assert.equal(token, m[3]);
  await runQuery(page, { next: true });
  await runQuery(page, { next: true });
  const items = await picture.locator(".page-list li").allInnerTexts();
  assert.equal(items.length, 3);
  assert.match(items[1], /^Page 2: examined positions ([\d,]+)–/);
  assert.equal(Number(items[1].match(/positions ([\d,]+)/)[1].replaceAll(",", "")), Number(m[1].replaceAll(",", "")) + 1, "page 2 starts where page 1 ended");
  assert.match(items[2], /Page 3: .*returned 14; the last page: no continuation\./);
  assert.equal(await picture.locator(".page-cut").count(), 2, "a cut where each of the first two pages ended");
  assert.equal(await picture.locator(".page-band").count(), 3);
  assert.match(await picture.locator(".picture-figures").innerText(), /^2,000 examined · 54 returned/);
  assert.match(await picture.locator(".cost").innerText(), /^Cost: 3 requests \(3 pages\) · 2,000 examined · 54 returned/);
  // The Runs history: one run, now at page 3, not three runs.
  const runs = await page.locator("#query-history li").allInnerTexts();
  assert.equal(runs.length, 1, runs.join("\n"));
  assert.match(runs[0], /^Run 1, page 3/);
  assert.match(runs[0], /54 returned · 2,000 examined .* 3 pages, 3 requests/);
  await runQuery(page, { filter: "PartitionKey eq '2026-01-05'", top: "" });
  assert.match((await page.locator("#query-history li").allInnerTexts())[0], /^Run 2 /);
  await context.close();
});

test("a failed batch shows its operations in order, the failing index and the account unchanged", async () => {
  const context = await env.context({ viewport: { width: 1280, height: 800 } });
  const page = await open(context);
  await page.getByLabel("New table name").fill("Orders");
  await page.getByRole("button", { name: "Create" }).click();
  await selectTable(page, "Orders");
  await page.evaluate(async () => {
    const h = { Accept: "application/json", "Content-Type": "application/json", Prefer: "return-no-content" };
    await window.tableplay.fetch("/devstoreaccount1/Orders", { method: "POST", headers: h, body: JSON.stringify({ PartitionKey: "o", RowKey: "2", N: 1 }) });
  });
  const queue = async (rk) => {
    await page.getByLabel("PartitionKey").fill("o");
    await page.getByLabel("RowKey").fill(rk);
    await page.getByRole("button", { name: "Add to batch" }).click();
  };
  for (const rk of ["1", "2", "3"]) await queue(rk);
  const before = await page.evaluate(() => JSON.stringify(window.tableplay.snapshot()));
  await page.getByRole("button", { name: /Submit transaction/ }).click();
  const ops = page.locator("#batch-result .batch-op");
  await ops.first().waitFor();
  const states = await ops.evaluateAll((lis) => lis.map((li) => [li.dataset.index, li.dataset.state, li.querySelector(".op-state").textContent]));
  assert.deepEqual(states.map(([i, s]) => [i, s]), [["0", "rolled-back"], ["1", "failed"], ["2", "rolled-back"]]);
  assert.match(states[1][2], /failed: 409 Conflict · EntityAlreadyExists/);
  assert.equal(states[0][2], "undone with the rest");
  assert.equal(states[2][2], "never run");
  assert.equal(await page.locator("#batch-result .account-state").getAttribute("data-unchanged"), "true");
  assert.match(await page.locator("#batch-result .account-state").innerText(), /failed at operation 2 \(index 1 in the service's answer\): 409 Conflict · EntityAlreadyExists[^]*Nothing changed: none of the 3 operations was written; the account is unchanged/);
  assert.equal(await page.evaluate(() => JSON.stringify(window.tableplay.snapshot())), before);
  assert.match(await page.locator("#batch-result .cost").innerText(), /^Cost: 1 request · [\d,]+ bytes sent · [\d,]+ bytes received$/);
  await context.close();
});
