// e2e/target.test.js is responsible for testing the full page's target
// picker and the wire view's comparison of profiles in Chromium
// (docs/playground.md, docs/profiles.md): the picker switches the answer of
// a sorted query, of a table name differing only in case and of a
// 253-property entity as each profile answers them, survives a reload, and
// reports the engine's refusal; "Compare with…" marks the differences; rule
// cards carry the profiles' differences in the engine's words.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, assertNamed } from "./harness.js";

let server, browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function open(context) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(server.url + "/");
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  return { page, errors };
}

async function pick(page, name) {
  await page.evaluate(() => (document.getElementById("status").textContent = ""));
  await page.getByLabel("Answer as", { exact: true }).selectOption(name);
  await page.waitForFunction(() => document.getElementById("status").textContent !== "");
}

async function createTable(page, name) {
  await page.evaluate(() => (document.getElementById("status").textContent = ""));
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.waitForFunction(() => document.getElementById("status").textContent !== "");
  return page.locator("#exchanges article").first();
}

const tableNames = (page) => page.locator("#table-list button.select").allInnerTexts();

// compare opens "Compare with…" on an exchange and waits for both answers.
async function compare(article, profile) {
  await article.locator(".compare-control select").selectOption(profile);
  await article.locator(".compare-control button").click();
  const box = article.locator("section.compare");
  await box.waitFor();
  return box;
}

const summary = async (box, kind) => box.locator(`[data-diff="${kind}"]`).getAttribute("class");

test("the picker names the active profile; a case-differing table name is two tables on Cosmos, a conflict on Azure; the choice survives a reload; the way back is refused with the engine's words", async () => {
  const context = await browser.newContext();
  const { page, errors } = await open(context);
  const picker = page.getByLabel("Answer as", { exact: true });
  assert.equal(await picker.inputValue(), "azure");
  assert.equal(await page.locator("#target-active").innerText(), "Answering as Azure Table Storage");
  assert.deepEqual(await picker.locator("option").allInnerTexts(), ["Azure Table Storage", "Azure Cosmos DB for Table", "Azurite 3.37"]);

  // Azure folds case: the second name is a conflict.
  await createTable(page, "People");
  const conflict = await createTable(page, "people");
  assert.match(await conflict.locator(".status-line").innerText(), /409 Conflict · TableAlreadyExists/);
  assert.deepEqual(await tableNames(page), ["People"]);
  // The difference view marks it: the same request is 201 on Cosmos.
  const box = await compare(conflict, "cosmos");
  assert.equal(await summary(box, "status"), "differs");
  assert.equal(await summary(box, "code"), "differs");
  assert.match(await box.locator('[data-diff="status"]').innerText(), /409 Conflict · 201 Created/);
  assert.match(await box.locator('[data-diff="code"]').innerText(), /TableAlreadyExists · none/);
  assert.match(await box.locator('.compare-side[data-profile="cosmos"] mark').first().innerText(), /201 Created/);

  // On Cosmos the same name is another table.
  await pick(page, "cosmos");
  assert.equal(await page.locator("#target-active").innerText(), "Answering as Azure Cosmos DB for Table");
  assert.equal(await page.evaluate(() => document.body.dataset.profile), "cosmos");
  const created = await createTable(page, "people");
  assert.match(await created.locator(".status-line").innerText(), /201 Created/);
  assert.deepEqual(await tableNames(page), ["People", "people"]);
  // An account holding both cannot be copied as Azure: the comparison says
  // so in the engine's words.
  const refused = await compare(created, "azure");
  assert.match(await refused.locator('[data-diff="run"].differs').innerText(), /^Azure Table Storage: this account cannot be copied as Azure Table Storage: .*people/i);
  assert.match(await refused.locator(".hint").innerText(), /^This request changed the account/);

  // A reload keeps the profile and both tables.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  assert.equal(await page.getByLabel("Answer as", { exact: true }).inputValue(), "cosmos");
  assert.equal(await page.locator("#target-active").innerText(), "Answering as Azure Cosmos DB for Table");
  assert.deepEqual(await tableNames(page), ["People", "people"]);

  // Back to Azure would lose a table: the engine refuses, the page says why
  // and stays on Cosmos.
  await pick(page, "azure");
  assert.equal(await page.getByLabel("Answer as", { exact: true }).inputValue(), "cosmos");
  assert.match(await page.locator("#target-note").innerText(), /^Still Azure Cosmos DB for Table: the account's tables cannot be kept under that profile: .*people/i);
  assert.equal(await page.locator("#target-active").innerText(), "Answering as Azure Cosmos DB for Table");
  assert.deepEqual(await tableNames(page), ["People", "people"]);

  // With one of them gone the way back is open.
  await page.getByRole("button", { name: "Delete table people", exact: true }).click();
  await page.locator("#confirm-ok").click();
  await page.waitForFunction(() => [...document.querySelectorAll("#table-list button.select")].length === 1);
  await pick(page, "azure");
  assert.equal(await page.locator("#target-active").innerText(), "Answering as Azure Table Storage");
  assert.equal(await page.locator("#target-note").innerText(), "");
  await assertNamed(page.locator(".target-picker select, .compare-control select, .compare-control button"), 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a sorted query: Azure answers in key order, Cosmos in write order; the difference view marks the order", async () => {
  const context = await browser.newContext();
  const { page, errors } = await open(context);
  await createTable(page, "Orders");
  for (const rk of ["c", "a", "b"]) {
    await page.getByLabel("PartitionKey").fill("p");
    await page.getByLabel("RowKey").fill(rk);
    await page.evaluate(() => (document.getElementById("status").textContent = ""));
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("insert:"));
  }
  const runQuery = async () => {
    await page.evaluate(() => (document.getElementById("query-summary").textContent = ""));
    await page.getByRole("button", { name: "Run query" }).click();
    await page.waitForFunction(() => document.getElementById("query-summary").textContent !== "");
    const article = page.locator("#exchanges article").first();
    const body = await article.locator("pre.response").innerText();
    return { article, rowKeys: [...body.matchAll(/"RowKey": ?"(\w)"/g)].map((m) => m[1]).join("") };
  };
  const azure = await runQuery();
  assert.equal(azure.rowKeys, "abc");
  await pick(page, "cosmos");
  const cosmos = await runQuery();
  assert.equal(cosmos.rowKeys, "cab");

  const box = await compare(cosmos.article, "azure");
  assert.equal(await summary(box, "status"), "same");
  assert.equal(await summary(box, "order"), "differs");
  assert.match(await box.locator('[data-diff="order"]').innerText(), /the same entities in another order: p \/ c, p \/ a, p \/ b · p \/ a, p \/ b, p \/ c/);
  assert.equal(await summary(box, "body"), "differs");
  assert.equal(await summary(box, "headers"), "differs");
  assert.ok((await box.locator('.compare-side[data-profile="azure"] mark').count()) > 3);
  await pick(page, "azure");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a 253-property entity, sent anyway: each profile's own 400 TooManyProperties; the card says Azurite accepts it; the difference view marks the headers", async () => {
  const context = await browser.newContext();
  const { page, errors } = await open(context);
  // The editor holds 253 rows when a workspace link brings them (typing
  // them would take minutes); the link also names the profile.
  const code = await page.evaluate(async () => {
    const { encode } = await import("./web/sharelink.js");
    const properties = Array.from({ length: 253 }, (_, i) => ({ name: `P${i}`, type: "Edm.Int32", text: String(i) }));
    return encode(JSON.stringify({
      workspace: 1, profile: "cosmos",
      account: { format: "tableplay-account", version: 1, tables: [{ name: "Wide", created: "2026-01-01T00:00:00.0000000Z", entities: [] }] },
      table: "Wide", draft: { PartitionKey: "p", RowKey: "r", properties }, query: {}, batch: [], level: "minimalmetadata",
    }));
  });
  await page.goto(`${server.url}/#w=${code}`);
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  assert.equal(await page.getByLabel("Answer as", { exact: true }).inputValue(), "cosmos");
  assert.equal(await page.locator("#shared-session").isVisible(), true);
  // The card, in the engine's words, says where the profiles differ.
  const card = page.locator('#entity-cards .card[data-rule="too-many-properties"]');
  const answers = {};
  for (const profile of ["azure", "cosmos", "azurite-3.37"]) {
    await pick(page, profile);
    await page.evaluate(() => (document.getElementById("status").textContent = ""));
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByRole("button", { name: "Send anyway" }).click();
    await page.waitForFunction((n) => document.querySelectorAll("#exchanges article .status-line").length > n, Object.keys(answers).length);
    const article = page.locator("#exchanges article").first();
    answers[profile] = { article, status: await article.locator(".status-line").innerText(), text: await article.locator("pre.response").innerText() };
  }
  await card.waitFor();
  // Other implementations' notes are folded on the card, one click away.
  await card.locator("details.card-more > summary").click();
  assert.match(await card.locator('[data-difference="F-PROPERTY-COUNT"]').innerText(), /^Azurite 3\.37 accepts more than 252 properties and Azure Table Storage does not; the azurite-3\.37 profile refuses them as Azure does\. \(F-PROPERTY-COUNT\)$/);
  for (const p of ["azure", "cosmos", "azurite-3.37"]) assert.match(answers[p].status, /400 Bad Request · TooManyProperties/);
  assert.match(answers.azure.text, /x-ms-version: 2019-02-02[\s\S]*"lang": "en-US"[\s\S]*Time:/);
  assert.match(answers.cosmos.text, /Content-Type: application\/json;odata=fullmetadata[\s\S]*"lang": "en-us"[\s\S]*RequestID:/);
  assert.doesNotMatch(answers.cosmos.text, /x-ms-version/);
  assert.match(answers["azurite-3.37"].text, /server: Azurite-Table\/3\.37\.0[\s\S]*x-ms-error-code: TooManyProperties/i);

  const box = await compare(answers["azurite-3.37"].article, "azure");
  assert.equal(await summary(box, "status"), "same");
  assert.equal(await summary(box, "code"), "same");
  assert.equal(await summary(box, "headers"), "differs");
  const marked = await box.locator('.compare-side[data-profile="azurite-3.37"] mark').allInnerTexts();
  assert.ok(marked.some((t) => t.startsWith("server: Azurite-Table/3.37.0")), marked.join(""));
  assert.ok(marked.some((t) => t.startsWith("x-ms-error-code: TooManyProperties")), marked.join(""));
  // Leaving the link's workspace brings back the saved account's profile.
  await page.getByRole("button", { name: "Leave" }).click();
  await page.waitForFunction(() => document.body.dataset.profile === "azure");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the table name field says where profiles treat names otherwise; the picker fits 320 px in the dark theme and works by keyboard", async () => {
  const context = await browser.newContext({ viewport: { width: 320, height: 700 }, colorScheme: "dark" });
  const { page, errors } = await open(context);
  await page.getByLabel("New table name").fill("People");
  const notes = page.locator("#table-name-cards .profile-notes");
  // Folded until asked for: one click opens them.
  await page.locator("#table-name-cards details.notes-more > summary").click();
  await notes.waitFor();
  assert.match(await notes.locator('[data-difference="F-COSMOS-TABLE-CASE"]').innerText(), /^On Cosmos DB for Table, names that differ only in case are different tables/);
  assert.match(await notes.locator('[data-difference="F-AZURITE-GET-TABLE"]').innerText(), /^Azurite 3\.37 compares case/);
  // Keyboard: focus the picker and choose with the arrow keys.
  await page.getByLabel("Answer as", { exact: true }).focus();
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.body.dataset.profile === "cosmos");
  assert.equal(await page.locator("#target-active").innerText(), "Answering as Azure Cosmos DB for Table");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than 320`);
  const box = await page.locator("#target-picker").boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 320, JSON.stringify(box));
  const colors = await page.locator("#target-active").evaluate((n) => [getComputedStyle(n).color, getComputedStyle(document.body).backgroundColor]);
  assert.notEqual(colors[0], colors[1]);
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => document.body.dataset.profile === "azure");
  assert.deepEqual(errors, []);
  await context.close();
});

test("two tabs share the account and its profile: a switch in one shows in the other", async () => {
  const context = await browser.newContext();
  const a = await open(context);
  const b = await open(context);
  await pick(a.page, "azurite-3.37");
  await b.page.waitForFunction(() => document.body.dataset.profile === "azurite-3.37");
  assert.equal(await b.page.getByLabel("Answer as", { exact: true }).inputValue(), "azurite-3.37");
  assert.equal(await b.page.locator("#target-active").innerText(), "Answering as Azurite 3.37");
  // B's next answer is Azurite's.
  const created = await createTable(b.page, "Shared");
  assert.match(await created.locator("pre.response").innerText(), /Server: Azurite-Table\/3\.37\.0/);
  await pick(a.page, "azure");
  await b.page.waitForFunction(() => document.body.dataset.profile === "azure");
  assert.deepEqual([...a.errors, ...b.errors], []);
  await context.close();
});
