// e2e/firstvisit.test.js is responsible for testing a first visit: a fresh
// profile's first screen at 1280×800 shows the sample account, a runnable
// "start here" step and the query panel without scrolling; the step runs;
// a returning visitor gets the saved workspace without the path; Reset
// still gives an empty account, and the sample does not come back.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser, firstVisitContext } from "./harness.js";

const env = useBrowser({ before, after });

// inFirstScreen says an element is whole inside the viewport, unscrolled.
const inFirstScreen = (locator) =>
  locator.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return window.scrollY === 0 && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
  });

test("a fresh profile lands on the sample with a runnable first step and the query panel in view; returning and Reset", async () => {
  const context = await firstVisitContext(env.browser, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  const start = page.locator("#start-here");
  await start.getByRole("heading", { name: "Start here" }).waitFor();
  // The sample account is loaded.
  for (const t of ["Users", "Products"]) await page.getByRole("button", { name: t, exact: true }).waitFor();
  // The first screen: a runnable step and the query panel, unscrolled.
  const run = start.getByRole("button", { name: "Run this query" });
  assert.ok(await inFirstScreen(run), "the first step's button is in the first screen");
  for (const [what, locator] of [
    ["the query heading", page.locator("#query-heading")],
    ["the $filter box", page.getByLabel("$filter")],
    ["Run query", page.getByRole("button", { name: "Run query" })],
  ]) assert.ok(await inFirstScreen(locator), `${what} is in the first screen`);
  await page.screenshot({ path: path.join(env.artifacts, "first-visit-1280.png") });
  // The step runs: one partition of Users, its picture and cost.
  await run.click();
  await page.locator("#query-picture .picture-figures").waitFor();
  assert.match(await page.locator("#query-picture .picture-figures").innerText(), /^1 examined · 1 returned · the table holds 1/);
  assert.match(await page.locator("#query-exchange").innerText(), /\$filter=PartitionKey eq 'users'/);
  // A returning visitor: the saved account, no path.
  await page.waitForFunction(() => !/Saving/.test(document.getElementById("storage-status").textContent));
  await page.reload();
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  for (const t of ["Users", "Products"]) await page.getByRole("button", { name: t, exact: true }).waitFor();
  assert.equal(await start.isVisible(), false, "no start path on a return visit");
  // Reset empties the account; the sample does not come back.
  await page.getByRole("button", { name: "Reset" }).click();
  await page.getByRole("button", { name: "Reset", exact: true }).last().click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor({ state: "detached" });
  await page.waitForTimeout(500);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  assert.deepEqual(await page.evaluate(() => window.tableplay.snapshot().tables), []);
  assert.equal(await start.isVisible(), false);
  await context.close();
});

test("a fresh profile opening a workspace link gets the link, not the sample", async () => {
  const context = await firstVisitContext(env.browser, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  // A link made on this page carries only an empty account.
  await page.getByRole("button", { name: "Reset" }).click();
  await page.getByRole("button", { name: "Reset", exact: true }).last().click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Share link" }).click();
  await page.waitForFunction(() => document.getElementById("share-link").value.includes("#w="));
  const link = await page.getByLabel("Link to this workspace").inputValue();
  const other = await firstVisitContext(env.browser, { viewport: { width: 1280, height: 800 } });
  const fresh = await other.newPage();
  await fresh.goto(link);
  await fresh.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  assert.equal(await fresh.locator("#start-here").isVisible(), false);
  assert.equal(await fresh.getByRole("button", { name: "Users", exact: true }).count(), 0);
  await other.close();
  await context.close();
});
