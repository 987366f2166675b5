// e2e/storage.test.js is responsible for testing the page when this
// browser's storage goes away under it (the origin's data cleared while the
// page is open, IndexedDB refusing to open): every failed save is reported
// and retried, the status never says Saved for a save that did not happen,
// and once storage is back the retry saves the whole account.
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

async function createIn(page, name) {
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name, exact: true }).waitFor();
}

const tableNames = (page) =>
  page.evaluate(async () => {
    const r = await tableplay.fetch("/devstoreaccount1/Tables", { headers: { Accept: "application/json;odata=nometadata" } });
    return (await r.json()).value.map((t) => t.TableName).sort();
  });

// eventually retries check (bounded) until it holds.
async function eventually(what, check) {
  for (let i = 0; i < 150; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(what + " did not happen within 15 s");
}

const status = (page) => page.locator("#storage-status").innerText();
const count = (page, key) => page.evaluate((key) => Number(document.body.dataset[key] ?? 0), key);

test("storage cleared under the open page: the failed saves are reported and retried, never called Saved, and the retry saves the whole account once storage is back", async () => {
  const context = await env.browser.newContext();
  const page = await open(context);
  await createIn(page, "Before");
  await eventually("the first save", async () => /^Saved in this browser/.test(await status(page)));
  const savedBefore = await count(page, "saved");

  // From here every text the status shows is recorded.
  await page.evaluate(() => {
    window.statusSeen = [];
    const node = document.getElementById("storage-status");
    new MutationObserver(() => window.statusSeen.push(node.textContent)).observe(node, { childList: true, characterData: true, subtree: true });
  });
  // IndexedDB refuses to open, and the origin's data goes away (as with
  // Clear site data): the open connection is closed, the database deleted.
  await page.evaluate(() => {
    window.realOpen = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function () {
      throw new DOMException("storage is gone", "UnknownError");
    };
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Storage.clearDataForOrigin", { origin: env.server.url, storageTypes: "indexeddb" });

  // A change now cannot be saved: the status says so, and a retry runs
  // (and fails, and says so) without another change.
  await createIn(page, "During");
  await eventually("the failure reported", async () => /^Not saved/.test(await status(page)));
  await eventually("two failed attempts", async () => (await count(page, "saveFailures")) >= 2);
  assert.equal(await count(page, "saved"), savedBefore, "no save counted while storage was gone");
  assert.match(await status(page), /^Not saved \(storage is gone\).*trying again/);

  // Storage is back: the retry (no new change needed) saves the account.
  await page.evaluate(() => {
    IDBFactory.prototype.open = window.realOpen;
  });
  await eventually("the retry's save", async () => /^Saved in this browser/.test(await status(page)));
  const seen = await page.evaluate(() => window.statusSeen);
  const firstSaved = seen.findIndex((t) => t.startsWith("Saved"));
  assert.ok(seen.slice(0, firstSaved).some((t) => t.startsWith("Not saved")), `failures reported: ${seen.join(" | ")}`);
  assert.ok(seen.slice(0, firstSaved).every((t) => !/Saved in this browser/.test(t)), `Saved shown while storage was gone: ${seen.join(" | ")}`);
  assert.equal(await count(page, "saved"), savedBefore + 1);

  // The saved account is the whole account: a reload has both tables.
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.deepEqual(await tableNames(page), ["Before", "During"]);
  // And saving goes on change by change.
  await createIn(page, "After");
  await eventually("a later save", async () => (await count(page, "saved")) >= 1);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.deepEqual(await tableNames(page), ["After", "Before", "During"]);
  await context.close();
});
