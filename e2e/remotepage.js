// e2e/remotepage.js is responsible for what the tests of the page connected
// to an endpoint elsewhere share (e2e/connect.test.js against tableplay
// serve, e2e/rooms.test.js against rooms in workerd): making a table and an
// entity through the panels, what a page stored, and two pages racing on one
// entity.
import assert from "node:assert/strict";
import { sendOperation as send } from "./harness.js";

// createTable makes a table with the tables panel and waits for it.
export async function createTable(page, name) {
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name, exact: true }).waitFor();
}

// fillEntity puts an entity with one string property, Note, in the editor.
export async function fillEntity(page, pk, rk, value) {
  await page.getByLabel("PartitionKey").fill(pk);
  await page.getByLabel("RowKey").fill(rk);
  if (await page.getByLabel("Name of property 1").count() === 0) await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel("Name of property 1").fill("Note");
  await page.getByLabel("Type of property 1").selectOption("Edm.String");
  await page.getByLabel("Value of property 1").fill(value);
}

// insert sends that entity as an insert and returns the exchange's text.
export async function insert(page, pk, rk, value) {
  await fillEntity(page, pk, rk, value);
  return send(page, "insert");
}

// stored reads everything a page's origin keeps: localStorage,
// sessionStorage and every IndexedDB store's records.
export const stored = (page) => page.evaluate(async () => {
  const out = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
  for (const { name } of await indexedDB.databases()) {
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open(name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    for (const store of db.objectStoreNames) {
      const all = db.transaction(store).objectStore(store).getAll();
      out.push(JSON.stringify(await new Promise((resolve) => (all.onsuccess = () => resolve(all.result)))));
    }
    db.close();
  }
  return out.join("\n");
});

// race has two pages connected to one endpoint: A's new table and entity
// appear in B without B doing anything; B loads the entity, A replaces it,
// B sees the change, and B's replace with its stale ETag gets 412.
export async function race(a, b, table) {
  await createTable(a, table);
  await b.getByRole("button", { name: table, exact: true }).waitFor({ timeout: 10_000 });
  await b.getByRole("button", { name: table, exact: true }).click();
  assert.match(await insert(a, "p", "r1", "first"), /201 Created/);
  await b.locator("#entity-list", { hasText: "Note = first" }).waitFor({ timeout: 10_000 });
  await b.getByRole("button", { name: "Load p / r1 into the editor" }).click();
  await a.getByLabel("Value of property 1").fill("second");
  assert.match(await send(a, "replace", "*"), /204 No Content/);
  await b.locator("#entity-list", { hasText: "Note = second" }).waitFor({ timeout: 10_000 });
  await b.getByLabel("Value of property 1").fill("from b");
  const stale = await send(b, "replace", "stale");
  assert.match(stale, /If-Match: W\/"datetime'/);
  assert.match(stale, /412 Precondition Failed[\s\S]*UpdateConditionNotSatisfied/);
  assert.match(await b.locator("#op-answer").innerText(), /412 Precondition Failed · UpdateConditionNotSatisfied/);
}
