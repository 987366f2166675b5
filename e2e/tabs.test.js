// e2e/tabs.test.js is responsible for testing two tabs of the page in one
// browser: neither loses the other's changes, and each sees the other's
// writes as a second client of one service would (a stale ETag gets 412,
// also when both write at the same moment); and the page's saving when this
// browser's storage goes away under it.
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

const tableNames = (page) =>
  page.evaluate(async () => {
    const r = await tableplay.fetch("/devstoreaccount1/Tables", { headers: { Accept: "application/json;odata=nometadata" } });
    return (await r.json()).value.map((t) => t.TableName).sort();
  });

// createIn creates a table through the page's own form, as a person does.
async function createIn(page, name) {
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name, exact: true }).waitFor();
}

// deafContext is a browser context whose tabs drop the messages of their
// other tabs while window.deaf is set: a tab that has not heard of a write.
async function deafContext() {
  const context = await env.context();
  await context.addInitScript(() => {
    const Real = BroadcastChannel;
    window.BroadcastChannel = class extends Real {
      set onmessage(f) {
        super.onmessage = (e) => {
          if (!window.deaf) f(e);
        };
      }
    };
  });
  return context;
}

// eventually retries check (bounded) until it holds.
async function eventually(what, check) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(what + " did not happen within 10 s");
}

test("two tabs: a table created in each survives a reload of either", async () => {
  const context = await env.context();
  const a = await open(context);
  const b = await open(context);
  await createIn(b, "FromB");
  await createIn(a, "FromA");
  // Both saves land; then each tab, reloaded, has both tables.
  await eventually("both saves", async () => Number(await a.evaluate(() => document.body.dataset.saved ?? 0)) >= 1 && Number(await b.evaluate(() => document.body.dataset.saved ?? 0)) >= 1);
  // Tab A's next change must not replace the account saved by tab B.
  await a.evaluate(() => tableplay.fetch("/devstoreaccount1/FromA", { method: "POST", headers: { Accept: "application/json", "Content-Type": "application/json" }, body: JSON.stringify({ PartitionKey: "p", RowKey: "1" }) }));
  await eventually("A's insert saved", async () => Number(await a.evaluate(() => document.body.dataset.saved ?? 0)) >= 2);
  await a.reload();
  await a.waitForSelector("body[data-ready=true]");
  assert.deepEqual(await tableNames(a), ["FromA", "FromB"], "tab B's table survived tab A's saves");
  await b.reload();
  await b.waitForSelector("body[data-ready=true]");
  assert.deepEqual(await tableNames(b), ["FromA", "FromB"]);
  const count = await b.evaluate(async () => (await (await tableplay.fetch("/devstoreaccount1/FromA()", { headers: { Accept: "application/json;odata=nometadata" } })).json()).value.length);
  assert.equal(count, 1);
  await context.close();
});

test("two tabs are two clients of one service: B sees A's table live, and A's stale ETag after B's write gets 412", async () => {
  const context = await env.context();
  const a = await open(context);
  const b = await open(context);
  await createIn(a, "Shared");
  // B's tables column shows it without a reload.
  await b.getByRole("button", { name: "Shared", exact: true }).waitFor({ timeout: 10000 });
  const h = { Accept: "application/json;odata=nometadata", "Content-Type": "application/json" };
  const etagA = await a.evaluate(async (h) => {
    const r = await tableplay.fetch("/devstoreaccount1/Shared", { method: "POST", headers: h, body: JSON.stringify({ PartitionKey: "p", RowKey: "r", V: 1 }) });
    return r.headers.get("ETag");
  }, h);
  await eventually("B sees A's entity", async () => (await b.evaluate(async () => (await tableplay.fetch("/devstoreaccount1/Shared(PartitionKey='p',RowKey='r')", { headers: { Accept: "application/json" } })).status)) === 200);
  const etagB = await b.evaluate(async () => (await tableplay.fetch("/devstoreaccount1/Shared(PartitionKey='p',RowKey='r')", { headers: { Accept: "application/json" } })).headers.get("ETag"));
  assert.equal(etagB, etagA, "both tabs see the same version");
  // B replaces it (a new ETag); A, still holding the old ETag, is refused.
  const statusB = await b.evaluate(async ({ h, etag }) => (await tableplay.fetch("/devstoreaccount1/Shared(PartitionKey='p',RowKey='r')", { method: "PUT", headers: { ...h, "If-Match": etag }, body: JSON.stringify({ PartitionKey: "p", RowKey: "r", V: 2 }) })).status, { h, etag: etagB });
  assert.equal(statusB, 204);
  await eventually("A sees B's write", async () => (await a.evaluate(async () => (await (await tableplay.fetch("/devstoreaccount1/Shared(PartitionKey='p',RowKey='r')", { headers: { Accept: "application/json;odata=nometadata" } })).json()).V)) === 2);
  const statusA = await a.evaluate(async ({ h, etag }) => (await tableplay.fetch("/devstoreaccount1/Shared(PartitionKey='p',RowKey='r')", { method: "PUT", headers: { ...h, "If-Match": etag }, body: JSON.stringify({ PartitionKey: "p", RowKey: "r", V: 3 }) })).status, { h, etag: etagA });
  assert.equal(statusA, 412, "A's ETag is stale after B's write");
  await context.close();
});

// The race of two tabs on one ETag: each round tab A inserts a fresh
// entity, both tabs read it, and both MERGE it with that ETag at the same
// instant (the pages share the clock). One service answers one 204 and one
// 412; a fresh tab then reads the winner's change from what was saved.
test("two tabs merging one entity with the same If-Match at the same moment: one 204 and one 412, and the 204's change is what was saved", async () => {
  const rounds = 30;
  const context = await env.context();
  const a = await open(context);
  const b = await open(context);
  await createIn(a, "Race");
  await b.getByRole("button", { name: "Race", exact: true }).waitFor({ timeout: 10000 });
  const url = (i) => `/devstoreaccount1/Race(PartitionKey='p',RowKey='r${i}')`;
  const etagIn = (page, i) => page.evaluate(async (u) => (await tableplay.fetch(u, { headers: { Accept: "application/json" } })).headers.get("ETag"), url(i));
  const merge = (page, i, etag, at, by) =>
    page.evaluate(
      async ({ u, etag, at, by, i }) => {
        await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
        const r = await tableplay.fetch(u, { method: "MERGE", headers: { "Content-Type": "application/json", "If-Match": etag }, body: JSON.stringify({ By: by, Round: i }) });
        return r.status;
      },
      { u: url(i), etag, at, by, i },
    );
  const winners = [];
  let doubles = 0;
  for (let i = 0; i < rounds; i++) {
    await a.evaluate((i) => tableplay.fetch("/devstoreaccount1/Race", { method: "POST", headers: { Accept: "application/json;odata=nometadata", "Content-Type": "application/json" }, body: JSON.stringify({ PartitionKey: "p", RowKey: "r" + i, By: "" }) }), i);
    const etag = await etagIn(a, i);
    await eventually(`B sees round ${i}'s entity`, async () => (await etagIn(b, i)) === etag);
    const at = Date.now() + 40;
    const [sa, sb] = await Promise.all([merge(a, i, etag, at, "A"), merge(b, i, etag, at, "B")]);
    if (sa === 204 && sb === 204) doubles++;
    winners.push(sa === 204 && sb === 412 ? "A" : sb === 204 && sa === 412 ? "B" : `${sa}/${sb}`);
  }
  console.log(`race: ${rounds} rounds, ${doubles} with two 204s; winners ${winners.join("")}`);
  assert.equal(doubles, 0, "two tabs both succeeded with one ETag");
  assert.ok(winners.every((w) => w === "A" || w === "B"), `each round one 204 and one 412: ${winners}`);
  // A fresh tab reads the saved account: each round's entity holds its winner's change.
  const c = await open(context);
  const saved = await c.evaluate(async () => (await (await tableplay.fetch("/devstoreaccount1/Race()", { headers: { Accept: "application/json;odata=nometadata" } })).json()).value);
  const byRound = Object.fromEntries(saved.map((e) => [e.RowKey, e.By]));
  assert.deepEqual(winners.map((_, i) => byRound["r" + i]), winners, "after a reload each round's acknowledged change is there");
  await context.close();
});

// A tab that has not heard of the other's write (its messages held back)
// still answers as the one service: its write first reads what the other
// tab stored, through tableplay.fetch and through the page's own form.
test("a tab that missed the other's write still gets 412 for the ETag it holds, from the API and from the form", async () => {
  const context = await deafContext();
  const a = await open(context);
  const b = await open(context);
  await createIn(a, "Deaf");
  await b.getByRole("button", { name: "Deaf", exact: true }).waitFor({ timeout: 10000 });
  const u = "/devstoreaccount1/Deaf(PartitionKey='p',RowKey='r')";
  const h = { Accept: "application/json;odata=nometadata", "Content-Type": "application/json" };
  const write = (page, method, ifMatch, body) => page.evaluate(async ({ u, h, method, ifMatch, body }) => (await tableplay.fetch(u, { method, headers: ifMatch ? { ...h, "If-Match": ifMatch } : h, body: JSON.stringify(body) })).status, { u, h, method, ifMatch, body });
  const etagIn = (page) => page.evaluate(async (u) => (await tableplay.fetch(u, { headers: { Accept: "application/json" } })).headers.get("ETag"), u);
  assert.equal(await write(a, "PUT", null, { V: 1 }), 204);
  await eventually("B sees the entity", async () => (await etagIn(b)) === (await etagIn(a)));
  const old = await etagIn(b);

  await b.evaluate(() => (window.deaf = true));
  assert.equal(await write(a, "MERGE", "*", { V: 2 }), 204);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await etagIn(b), old, "B has not heard of A's write");
  assert.equal(await write(b, "MERGE", old, { V: 20 }), 412, "B's stale ETag through tableplay.fetch");

  const held = await etagIn(b); // B read A's write with its own
  assert.equal(await write(a, "MERGE", "*", { V: 3 }), 204);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await etagIn(b), held, "B has not heard of A's second write");
  await b.getByRole("button", { name: "Deaf", exact: true }).click();
  await b.getByLabel("PartitionKey").fill("p");
  await b.getByLabel("RowKey").fill("r");
  await b.getByLabel("Operation", { exact: true }).selectOption("merge");
  await b.locator('input[name="ifmatch"][value="current"]').check();
  await b.evaluate(() => (document.getElementById("status").textContent = ""));
  await b.getByRole("button", { name: "Send" }).click();
  await b.waitForFunction(() => document.getElementById("status").textContent.startsWith("merge:"));
  assert.match(await b.locator("#status").innerText(), /^merge: 412/, "the form's merge with the ETag B held");

  // What was saved is A's last write.
  const c = await open(context);
  const v = await c.evaluate(async (u) => (await (await tableplay.fetch(u, { headers: { Accept: "application/json;odata=nometadata" } })).json()).V, u);
  assert.equal(v, 3);
  await context.close();
});

// Keep replaces the saved account with the temporary session's as it is,
// even when other tabs wrote (and a new tab folded the log) meanwhile; the
// other tabs then read it afresh.
test("Keep in one tab while another wrote: the saved account is the kept one, in every tab", async () => {
  const context = await env.context();
  const a = await open(context);
  await createIn(a, "Linked");
  await a.getByRole("button", { name: "Share link" }).click();
  await a.locator("#share-box").waitFor();
  const link = await a.locator("#share-link").inputValue();
  const b = await context.newPage();
  await b.goto(link);
  await b.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  await b.getByRole("region", { name: "Shared workspace" }).waitFor();
  await createIn(a, "Other");
  await eventually("A's table saved", async () => Number(await a.evaluate(() => document.body.dataset.saved ?? 0)) >= 2);
  await (await open(context)).close(); // a new tab folds the log into the base
  await b.getByRole("button", { name: "Keep" }).click();
  await b.getByRole("region", { name: "Shared workspace" }).waitFor({ state: "hidden" });
  await eventually("Keep saved", async () => /^Saved/.test(await b.locator("#storage-status").innerText()));
  await eventually("A reads the kept account", async () => JSON.stringify(await tableNames(a)) === '["Linked"]');
  assert.deepEqual(await tableNames(await open(context)), ["Linked"]);
  await context.close();
});

// A change of this tab that is not a write through the keeper (Reset here)
// is stored after what other tabs stored first; the tab then shows the
// account as the log has it, the same a fresh tab reads.
test("Reset in a tab that missed another tab's write: the tab shows what a fresh tab reads", async () => {
  const context = await deafContext();
  const a = await open(context);
  const b = await open(context);
  await createIn(a, "Old");
  await eventually("B sees A's table", async () => (await tableNames(b)).includes("Old"));
  await a.evaluate(() => (window.deaf = true));
  await b.evaluate(() => tableplay.fetch("/devstoreaccount1/Tables", { method: "POST", headers: { Accept: "application/json;odata=nometadata", "Content-Type": "application/json" }, body: '{"TableName":"FromB"}' }));
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await tableNames(a), ["Old"], "A has not heard of B's table");
  const saves = Number(await a.evaluate(() => document.body.dataset.saved ?? 0));
  await a.getByRole("button", { name: "Reset" }).click();
  await a.getByRole("button", { name: "Reset", exact: true }).last().click();
  await eventually("A's reset saved", async () => Number(await a.evaluate(() => document.body.dataset.saved ?? 0)) > saves);
  const fresh = await tableNames(await open(context));
  assert.deepEqual(await tableNames(a), fresh, "the tab and the saved account agree");
  await context.close();
});

// The page when storage goes away under it (the origin's data cleared while
// it is open, IndexedDB refusing to open): every failed save is reported and
// retried, the status never says Saved for a save that did not happen, and
// once storage is back the retry saves the whole account.
const status = (page) => page.locator("#storage-status").innerText();
const count = (page, key) => page.evaluate((key) => Number(document.body.dataset[key] ?? 0), key);

test("storage cleared under the open page: the failed saves are reported and retried, never called Saved, and the retry saves the whole account once storage is back", async () => {
  const context = await env.context();
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

// A tab whose save failed (here its transactions refused for a while)
// writes its whole account on the retry; another tab's write stored
// meanwhile must be in it, not overwritten by it.
test("a failed save retried in one tab keeps what another tab stored meanwhile", async () => {
  const context = await env.context();
  const a = await open(context);
  const b = await open(context);
  await createIn(a, "Before");
  await eventually("B sees A's table", async () => (await tableNames(b)).includes("Before"));
  await a.evaluate(() => {
    window.realTransaction = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function () {
      throw new DOMException("storage is busy", "UnknownError");
    };
  });
  await createIn(a, "FromA");
  await eventually("A's failure reported", async () => /^Not saved/.test(await status(a)));
  const savedB = await count(b, "saved");
  await createIn(b, "FromB");
  await eventually("B's table saved", async () => (await count(b, "saved")) > savedB);
  await a.evaluate(() => {
    IDBDatabase.prototype.transaction = window.realTransaction;
  });
  await eventually("A's retry saved", async () => /^Saved in this browser/.test(await status(a)));
  assert.deepEqual(await tableNames(await open(context)), ["Before", "FromA", "FromB"], "a fresh tab reads every stored write");
  await context.close();
});
