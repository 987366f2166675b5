// e2e/ux.test.js is responsible for testing the page where people said it
// hurt: controls while the engine loads, disabled controls, answers beside
// the action that caused them, the editor's ergonomics and the entity list
// on a phone; at 1280 and 390 px, light and dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const shot = (name) => path.join(env.artifacts, `${process.env.SHOT_TAG ?? "after"}-${name}.png`);
const layouts = [[1280, "light"], [390, "dark"]];

// open loads the page; with holdEngine the engine's download waits until
// the returned release is called (or 30 s pass), so the loading state lasts
// as long as the test looks at it, however slow the machine.
async function open(width = 1280, colorScheme = "light", { holdEngine = false } = {}) {
  const context = await env.context({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  let release = () => {};
  if (holdEngine) {
    const held = new Promise((r) => {
      release = r;
      setTimeout(r, 30000);
    });
    await page.route("**/build/app.wasm*", async (route) => {
      await held;
      await route.continue();
    });
  }
  await page.goto(env.server.url + "/");
  if (!holdEngine) await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return { page, context, release };
}

// resize turns one page to another width and scheme.
async function resize(page, width, colorScheme) {
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction((w) => window.innerWidth === w, width);
}

async function createTable(page, name) {
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name, exact: true }).waitFor();
}

for (const [width, scheme] of layouts) {
  test(`states at ${width} px, ${scheme}: a progress bar while the engine loads, inert controls, disabled buttons that look disabled`, async () => {
    const { page, context, release } = await open(width, scheme, { holdEngine: true });
    await page.waitForSelector("#status");
    await page.screenshot({ path: shot(`loading-${width}-${scheme}`) });
    // A progress bar while the wasm loads.
    assert.equal(await page.getByRole("progressbar").isVisible(), true, "a progress bar while loading");
    // Controls do nothing until the engine is ready: the panels and the
    // account tools are inert, and the tables' form, which would submit
    // natively (as ?table-name=…), is mounted only once the engine can
    // take it over; a click where it will be reaches nothing.
    assert.equal(await page.locator("main.layout").evaluate((e) => e.inert), true, "the panels are inert while loading");
    assert.equal(await page.locator("#create-table").count(), 0, "the tables' form exists before the engine is ready");
    await page.locator("#tables-panel").click({ force: true, timeout: 2000 });
    assert.equal(await page.locator(".account-tools").evaluate((e) => e.inert), true, "the account tools are inert while loading");
    release();
    await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
    assert.equal(new URL(page.url()).search, "", "the form was not submitted as a query string");
    assert.equal(await page.locator(".account-tools").evaluate((e) => e.inert), false);
    assert.equal(await page.getByRole("progressbar").isVisible(), false, "the bar goes once ready");
    // Disabled buttons look disabled.
    const next = page.getByRole("button", { name: "Next page" });
    assert.equal(await next.isDisabled(), true);
    const look = await next.evaluate((b) => Number(getComputedStyle(b).opacity));
    assert.ok(look < 0.7, `a disabled button's opacity is ${look}`);
    await context.close();
  });
}

// inView reports whether an element is inside the viewport.
const inView = (locator) =>
  locator.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  });

async function send(page, kind, ifMatch) {
  await page.getByLabel("Operation", { exact: true }).selectOption(kind);
  if (ifMatch) await page.locator(`input[name="ifmatch"][value="${ifMatch}"]`).check();
  await page.locator("#op-answer").evaluate((b) => b.replaceChildren());
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.locator("#op-answer .answer").waitFor();
  return page.locator("#op-answer .answer").innerText();
}

for (const [width, scheme] of layouts) {
  test(`answers beside the action at ${width} px, ${scheme}: status, code, a sentence, the exchange highlighted; batch counts; a blocked key sent anyway`, async () => {
    const { page, context } = await open(width, scheme);
    await createTable(page, "People");
    const created = page.locator("#table-answer .answer");
    assert.match(await created.innerText(), /^201 Created · Table People created\. See the exchange$/);
    assert.equal(await inView(created), true, "the answer is where the person looks");
    await page.getByLabel("PartitionKey").fill("team");
    await page.getByLabel("RowKey").fill("ada");
    assert.match(await send(page, "insert"), /^201 Created · The entity was inserted\./);
    assert.equal(await inView(page.locator("#op-answer .answer")), true);
    // The link scrolls the wire view to the exchange and highlights it.
    await page.locator("#op-answer").getByRole("button", { name: "See the exchange" }).click();
    const shown = page.locator("#exchanges article.highlight");
    await shown.waitFor();
    assert.match(await shown.innerText(), /insert · People[\s\S]*HTTP\/1\.1 201 Created/);
    await page.waitForFunction(() => {
      const r = document.querySelector("#exchanges article.highlight").getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
    await page.screenshot({ path: shot(`answer-${width}-${scheme}`) });
    // A 412 answers beside Send, with the service's code and message.
    await send(page, "replace");
    assert.match(await send(page, "replace", "stale"), /^412 Precondition Failed · UpdateConditionNotSatisfied · The update condition specified in the request was not satisfied\./);
    // Add to batch counts.
    await page.getByLabel("Operation", { exact: true }).selectOption("insert");
    await page.getByLabel("RowKey").fill("b1");
    await page.getByRole("button", { name: "Add to batch" }).click();
    await page.getByLabel("RowKey").fill("b2");
    await page.getByRole("button", { name: "Add to batch" }).click();
    await page.getByRole("button", { name: "Add to batch (2)" }).waitFor();
    assert.match(await page.locator("#op-answer .answer").innerText(), /Queued · insert as operation 2 of the batch \(2 queued\)/);
    // A key the page blocks: said beside Send, and sent anyway the service's 400 shows.
    await page.getByLabel("RowKey").fill("a/b");
    assert.match(await send(page, "insert"), /^Not sent · /);
    await page.getByRole("button", { name: "Send anyway" }).click();
    await page.locator("#op-answer .answer", { hasText: "400" }).waitFor();
    assert.match(await page.locator("#op-answer .answer").innerText(), /^400 Bad Request · OutOfRangeInput · The 'RowKey' parameter of value 'a\/b' is out of range\./);
    await context.close();
  });
}

test("editor at 1280 and 390 px, light and dark: a wide value field, examples per type, Now and New GUID, meters while invalid, no praise for an empty editor, JSON notes", async () => {
  const { page, context } = await open(...layouts[0]);
  await createTable(page, "Events");
  assert.doesNotMatch(await page.locator("#entity-cards").innerText(), /satisfies every rule/, "an empty editor is not praised");
  await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel("Type of property 1").selectOption("Edm.DateTime");
  const value = page.getByLabel("Value of property 1");
  assert.match(await value.getAttribute("placeholder"), /2024-05-01T10:00:00/);
  for (const layout of layouts) {
    await resize(page, ...layout);
    const w = await value.evaluate((i) => i.getBoundingClientRect().width);
    assert.ok(w >= 220, `at ${layout[0]} px, the Value field is ${w} px wide`);
  }
  await resize(page, ...layouts[0]);
  await page.getByRole("button", { name: "Now for property 1" }).click();
  assert.match(await value.inputValue(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await page.getByLabel("Type of property 1").selectOption("Edm.Guid");
  await page.getByRole("button", { name: "New GUID for property 1" }).click();
  assert.match(await value.inputValue(), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  await page.getByLabel("Name of property 1").fill("Id");
  // Meters keep measuring while a key is bad: 4 + 2×(2 + 3) + (8 + 2×2 + 16).
  await page.getByLabel("PartitionKey").fill("pp");
  await page.getByLabel("RowKey").fill("a/b");
  const keyCard = page.locator("#rk-cards .card", { hasText: "OutOfRangeInput" });
  await keyCard.waitFor();
  // Texts: the place of the bad character counted as people count.
  assert.match(await keyCard.innerText(), /'\/' at character 2 \(counting from 1\)/);
  // Rule cards name the fidelity note they cite in words.
  await keyCard.locator("details.card-more > summary").click();
  assert.match(await keyCard.locator(".dispute").innerText(), /see the fidelity note “forbidden characters in keys”, F-KEY-CHARACTERS/);
  await page.waitForFunction(() => document.getElementById("size-text").textContent.startsWith("42 of"));
  assert.match(await page.locator("#count-text").innerText(), /^4 of 255/);
  for (const [width, scheme] of layouts) {
    await resize(page, width, scheme);
    await page.screenshot({ path: shot(`editor-${width}-${scheme}`) });
  }
  await context.close();
});


test("editor JSON mode notes an unannotated date stored as a String", async () => {
  const { page, context } = await open();
  await page.getByLabel("JSON body").check();
  await page.getByLabel("OData entity body (JSON)").fill('{"PartitionKey":"p","RowKey":"r","Joined":"2024-05-01T10:00:00Z"}');
  await page.locator("#entity-cards .note").waitFor();
  assert.match(await page.locator("#entity-cards .note").innerText(), /Joined looks like a DateTime but has no "Joined@odata.type": "Edm.DateTime" annotation, so the service stores it as an Edm.String/);
  await context.close();
});

test('the entity list pages at 1280 and 390 px, light and dark: "50 of 2,000" and Show more', async () => {
  const { page, context } = await open(...layouts[0]);
  await createTable(page, "Many");
  await page.evaluate(async () => {
    for (let i = 0; i < 2000; i += 100) {
      const ops = [];
      for (let j = i; j < i + 100; j++) ops.push({ kind: "insert", table: "Many", entity: { PartitionKey: "p", RowKey: String(j).padStart(5, "0"), properties: [] } });
      const r = tableplay.requestFor({ kind: "batch", operations: ops });
      await tableplay.fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
    }
  });
  await page.getByRole("button", { name: "Many", exact: true }).click();
  await page.locator("#entity-list", { hasText: "of 2,000" }).waitFor();
  assert.match(await page.locator("#entity-list .list-count").innerText(), /^50 of 2,000 entities$/);
  assert.equal(await page.locator("#entity-list .entity").count(), 50);
  await page.getByRole("button", { name: "Show 50 more" }).click();
  await page.locator("#entity-list .list-count", { hasText: "100 of 2,000" }).waitFor();
  assert.equal(await page.locator("#entity-list .entity").count(), 100);
  for (const [width, scheme] of layouts) {
    await resize(page, width, scheme);
    await page.locator("#entity-list .list-count").screenshot({ path: shot(`entities-${width}-${scheme}`) });
  }
  await context.close();
});
