// e2e/profiles.test.js is responsible for testing the profile functions of
// window.tableplay in Chromium (docs/profiles.md): listing the profiles, an
// account made to answer as Cosmos DB for Table, and switching the page's
// account and back.
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

test("profiles lists azure first, then cosmos", async () => {
  const list = await page.evaluate(() => tableplay.profiles());
  assert.deepEqual(list.slice(0, 2), [
    { name: "azure", title: "Azure Table Storage" },
    { name: "cosmos", title: "Azure Cosmos DB for Table" },
  ]);
  assert.deepEqual(await page.evaluate(() => tableplay.profile()), { name: "azure", title: "Azure Table Storage" });
});

test("a cosmos account keeps case-differing tables apart; azure folds them", async () => {
  const r = await page.evaluate(async () => {
    const cosmos = await tableplay.createAccount("cosmoslab", "cosmos");
    const azure = await tableplay.createAccount("azurelab");
    const create = async (acct, name) =>
      (await tableplay.fetch(`${location.origin}/${acct}/Tables`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json;odata=nometadata" },
        body: JSON.stringify({ TableName: name }),
      })).status;
    const out = {
      profile: cosmos.profile().name,
      cosmos: [await create("cosmoslab", "People"), await create("cosmoslab", "people")],
      azure: [await create("azurelab", "People"), await create("azurelab", "people")],
    };
    tableplay.dropAccount("cosmoslab");
    tableplay.dropAccount("azurelab");
    return out;
  });
  assert.equal(r.profile, "cosmos");
  assert.deepEqual(r.cosmos, [201, 201]);
  assert.deepEqual(r.azure, [201, 409]);
});

test("setProfile switches an account and keeps its tables; a fold that would lose one is refused", async () => {
  const r = await page.evaluate(async () => {
    const acct = await tableplay.createAccount("switchlab");
    const list = async () =>
      (await (await tableplay.fetch(`${location.origin}/switchlab/Tables`, { headers: { Accept: "application/json;odata=nometadata" } })).text());
    await acct.run({ kind: "createTable", table: "People" });
    acct.setProfile("cosmos");
    const type = (await tableplay.fetch(`${location.origin}/switchlab/Tables`, { headers: { Accept: "application/json;odata=nometadata" } })).headers.get("content-type");
    const created = (await acct.run({ kind: "createTable", table: "people" })).response.status;
    let refused = "";
    try {
      acct.setProfile("azure");
    } catch (e) {
      refused = e.message;
    }
    let unknown = "";
    try {
      acct.setProfile("nosuch");
    } catch (e) {
      unknown = e.message;
    }
    const out = { type, created, refused, unknown, tables: await list(), profile: acct.profile().name };
    tableplay.dropAccount("switchlab");
    return out;
  });
  assert.equal(r.type, "application/json;odata=nometadata");
  assert.equal(r.created, 201);
  assert.match(r.refused, /cannot be kept/);
  assert.match(r.unknown, /no profile "nosuch"/);
  assert.equal(r.profile, "cosmos");
  assert.equal(r.tables, '{"value":[{"TableName":"People"},{"TableName":"people"}]}');
});
