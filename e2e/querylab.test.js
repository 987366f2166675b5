// e2e/querylab.test.js is responsible for testing the query panel as a
// teacher uses it for "partition keys and query cost": key bounds stated
// exactly, the filter clause by clause with type mismatches, syntax errors
// counted from 1 with the fix for a symbol, decoded continuation tokens, a
// history of runs with examined against returned, a placeholder made of the
// table's own data, and results readable on a phone; at 1280 and 390 px, in
// light and dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const shot = (name) => path.join(env.artifacts, `${process.env.SHOT_TAG ?? "after"}-${name}.png`);

async function open(width, colorScheme) {
  const context = await env.context({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  await page.getByLabel("New table name").fill("Orders");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "Orders", exact: true }).waitFor();
  // Ten customers' orders; Placed is a real DateTime for cust01..cust04 and
  // a date-looking String (sent without its annotation) for the others.
  await page.evaluate(async () => {
    const h = { Accept: "application/json", "Content-Type": "application/json", Prefer: "return-no-content" };
    for (let c = 1; c <= 10; c++) {
      for (let o = 1; o <= 3; o++) {
        const pk = "cust" + String(c).padStart(2, "0");
        const body = { PartitionKey: pk, RowKey: "order" + o, Amount: c * 10 + o, Placed: `2024-0${o}-0${o}T10:00:00Z` };
        if (c <= 4) body["Placed@odata.type"] = "Edm.DateTime";
        await tableplay.fetch("/devstoreaccount1/Orders", { method: "POST", headers: h, body: JSON.stringify(body) });
      }
    }
  });
  await page.getByRole("button", { name: "Orders", exact: true }).click();
  return { page, context };
}

async function runQuery(page, filter, top = "") {
  await page.getByLabel("$filter").fill(filter);
  await page.getByLabel("$top").fill(top);
  const pages = await page.evaluate(() => Number(document.getElementById("query-panel").dataset.queryPages ?? 0));
  await page.getByRole("button", { name: "Run query" }).click();
  await page.waitForFunction((p) => Number(document.getElementById("query-panel").dataset.queryPages ?? 0) > p, pages);
}

// One page through every width and scheme: what is said does not depend
// on them, what fits does (checked at each).
const LOOKS = [[1280, "light"], [390, "dark"], [390, "light"], [1280, "dark"]];

async function look(page, width, scheme) {
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((w) => window.innerWidth === w, width);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `at ${width} px, ${scheme}, the page scrolls sideways by ${overflow} px`);
}

test("query lab at 1280 and 390 px, light and dark: exact bounds, clauses, mismatches, hints, tokens, history", async () => {
  const { page, context } = await open(1280, "light");
  // The screenshots for the closing note first (the old page fails below).
  await runQuery(page, "Amount gt 50");
  await runQuery(page, "PartitionKey ge 'cust05' and PartitionKey lt 'cust08' and Amount gt 50", "4");
  await page.getByLabel("$filter").fill("Placed gt datetime'2023-01-01T00:00:00Z'");
  await page.locator("#filter-explain .mismatch").waitFor();
  for (const [width, scheme] of LOOKS) {
    await look(page, width, scheme);
    await page.locator("#query-panel").screenshot({ path: shot(`query-${width}-${scheme}`) });
  }
  await look(page, 1280, "light");
  await page.getByLabel("$top").fill("");
  await page.locator("#query-history").evaluate((ol) => ol?.replaceChildren());
  // Texts: the placeholder is made of this table, not of an example's users.
  await page.waitForFunction(() => document.getElementById("filter").placeholder.includes("cust01"));
  assert.doesNotMatch(await page.getByLabel("$filter").getAttribute("placeholder"), /users|Age/);
  // Exact bounds: lt excludes its bound.
  await page.getByLabel("$filter").fill("PartitionKey ge 'cust05' and PartitionKey lt 'cust08'");
  await page.locator("#filter-explain .key-range", { hasText: "cust05" }).waitFor();
  assert.equal(await page.locator("#filter-explain .key-range").innerText(), "Scans PartitionKey ≥ 'cust05' and < 'cust08'; only entities in that range are examined.");
  const roles = await page.locator("#filter-explain .clauses > li").evaluateAll((lis) => lis.map((li) => li.dataset.role));
  assert.deepEqual(roles, ["range", "range"]);
  // A type mismatch is explained, with how many entities it concerns.
  await page.getByLabel("$filter").fill("Placed gt datetime'2023-01-01T00:00:00Z'");
  await page.locator("#filter-explain .mismatch").waitFor();
  assert.match(await page.locator("#filter-explain .mismatch").innerText(), /18 of 30 entities read hold Placed as Edm\.String, which does not compare with the Edm\.DateTime constant: for them Placed gt datetime'2023-01-01T00:00:00Z' is false/);
  assert.match(await page.locator("#filter-explain .clauses").innerText(), /per entity/);
  // A symbol for an operator: where (counted from 1) and the fix.
  await page.getByLabel("$filter").fill("Amount > 50");
  await page.locator("#filter-explain .hint-fix").waitFor();
  assert.equal(await page.locator("#filter-explain .hint-fix").innerText(), "$filter writes its operators as lowercase words: use gt instead of >.");
  assert.match(await page.locator("#filter-explain .where").innerText(), /counting from 1, the mistake is '>' at character 8/);
  assert.equal(await page.locator("#filter-explain mark").innerText(), ">");
  for (const [width, scheme] of LOOKS) await look(page, width, scheme);
  await look(page, 1280, "light");
  // Runs: a whole-table scan and a key-range scan, compared as bars.
  await runQuery(page, "Amount gt 50");
  await runQuery(page, "PartitionKey ge 'cust05' and PartitionKey lt 'cust08' and Amount gt 50");
  const runs = await page.locator("#query-history meter").evaluateAll((ms) => ms.map((m) => [m.value, m.max]));
  assert.deepEqual(runs, [[9, 9], [18, 30]], "newest first: returned against examined");
  assert.match(await page.locator("#query-history li").first().innerText(), /9 returned · 9 examined/);
  assert.match(await page.locator(".query-summary").innerText(), /9 returned of 9 examined/);
  // Tokens decoded beside the raw form.
  await runQuery(page, "", "4");
  assert.match(await page.locator(".query-summary").innerText(), /NextPartitionKey 1!8!Y3VzdDAy → cust02/);
  assert.match(await page.locator(".query-summary").innerText(), /NextRowKey 1!8!b3JkZXIy → order2/);
  // Phone and desktop: results keep their words whole (a scrollable table,
  // not one letter a line).
  for (const [width, scheme] of LOOKS) {
    await look(page, width, scheme);
    const cell = await page.locator('#query-results [role="cell"]').first().evaluate((td) => ({ h: td.getBoundingClientRect().height, w: td.scrollWidth, cw: td.clientWidth }));
    assert.ok(cell.h < 60 && cell.w <= cell.cw + 1, `at ${width} px, ${scheme}, a cell ${JSON.stringify(cell)}`);
  }
  await context.close();
});
