// e2e/page.test.js is responsible for testing the playground as a person uses
// it: what is visible after typing, clicking and pressing keys, in Chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser, assertNamed, sendOperation } from "./harness.js";

const env = useBrowser({ before, after });
const artifacts = env.artifacts;

async function open(options = {}) {
  const context = await env.context({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return { page, context, errors };
}

// fillRow sets property row n (1-based) of the editor.
async function fillRow(page, n, name, type, value) {
  await page.getByLabel(`Name of property ${n}`).fill(name);
  await page.getByLabel(`Type of property ${n}`).selectOption(type);
  await page.getByLabel(`Value of property ${n}`).fill(value);
}

async function lastExchange(page) {
  return page.locator("#exchanges article").first().innerText();
}

const send = sendOperation;

test("a person's flow: table, rule, typed insert, three levels, 412, merge vs replace, delete", async () => {
  const { page, context, errors } = await open();
  // An invalid name shows its rule beside the field.
  await page.getByLabel("New table name").fill("1bad");
  await page.locator("#table-name-cards .card").waitFor();
  assert.match(await page.locator("#table-name-cards").innerText(), /InvalidResourceName[\s\S]*starts with a letter/);
  // A valid one creates the table.
  await page.getByLabel("New table name").fill("People");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "People", exact: true }).waitFor();
  assert.match(await lastExchange(page), /HTTP\/1\.1 201 Created/);
  // An entity with Int64, DateTime, Guid, Binary and Double values.
  await page.getByLabel("PartitionKey").fill("team");
  await page.getByLabel("RowKey").fill("ada");
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 1, "Visits", "Edm.Int64", "9223372036854775807");
  for (const [n, name, type, value] of [
    [2, "Joined", "Edm.DateTime", "2021-06-09T01:17:13.2924321Z"],
    [3, "Id", "Edm.Guid", "c9da6455-213d-42c9-9a79-3e9149a57833"],
    [4, "Photo", "Edm.Binary", "QmFy"],
    [5, "Score", "Edm.Double", "1.5"],
  ]) {
    await page.getByRole("button", { name: "Add property" }).click();
    await fillRow(page, n, name, type, value);
  }
  await page.locator("#entity-cards .ok-note").waitFor();
  const inserted = await send(page, "insert");
  assert.match(inserted, /HTTP\/1\.1 201 Created/);
  assert.match(inserted, /"Visits@odata.type": "Edm.Int64"/);
  // The entity at all three levels.
  await page.locator("#levels pre").nth(2).waitFor();
  const levels = await page.locator("#levels pre").allInnerTexts();
  assert.doesNotMatch(levels[0], /odata/);
  assert.match(levels[1], /"Joined@odata.type": "Edm.DateTime"/);
  assert.match(levels[1], /"Photo@odata.type": "Edm.Binary"/);
  assert.match(levels[2], /"odata.type": "devstoreaccount1.People"/);
  assert.match(levels[2], /"Timestamp@odata.type": "Edm.DateTime"/);
  // Merge with the current ETag: the other properties stay.
  await page.getByRole("button", { name: "Remove property 5" }).click();
  await page.getByRole("button", { name: "Remove property 4" }).click();
  await page.getByRole("button", { name: "Remove property 3" }).click();
  await page.getByRole("button", { name: "Remove property 2" }).click();
  await fillRow(page, 1, "Team", "Edm.String", "engines");
  assert.match(await send(page, "merge", "current"), /HTTP\/1\.1 204 No Content/);
  let after = await page.locator("#after").innerText();
  assert.match(after, /"Team": "engines"/);
  assert.match(after, /"Score": 1\.5/, "merge keeps what it does not mention");
  // Replace with the ETag from before the merge: 412.
  assert.match(await send(page, "replace", "stale"), /HTTP\/1\.1 412 Precondition Failed[\s\S]*UpdateConditionNotSatisfied/);
  // Replace with the current ETag: the unmentioned properties go.
  assert.match(await send(page, "replace", "current"), /HTTP\/1\.1 204 No Content/);
  after = await page.locator("#after").innerText();
  assert.match(after, /"Team": "engines"/);
  assert.doesNotMatch(after, /Score/, "replace drops what it does not mention");
  // Delete.
  assert.match(await send(page, "delete", "*"), /HTTP\/1\.1 204 No Content/);
  await page.getByText("No entities yet").waitFor();
  assert.equal(await page.locator("#after").innerText(), "(no such entity)");
  await page.screenshot({ path: path.join(artifacts, "default.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the rule cards are exactly what validateEntity reports", async () => {
  const { page, context } = await open();
  await page.getByLabel("PartitionKey").fill("a/b");
  await page.getByLabel("RowKey").fill("r");
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 1, "bad-name", "Edm.Int32", "1");
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 2, "Long", "Edm.String", "x".repeat(32768));
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 3, "Big", "Edm.Int64", "9223372036854775808");
  // In the form each card sits beside the field it concerns (the key's, or
  // the property's row), in the order of the fields.
  await page.waitForFunction(() => document.querySelectorAll("#editor-part .card").length === 4);
  // What a card folds (its sources, disputes, other implementations) is one
  // click away: opened here, as a reader would.
  await page.locator("#editor-part .card details").evaluateAll((ds) => ds.forEach((d) => (d.open = true)));
  const shown = await page.locator("#editor-part .card").evaluateAll((cards) => cards.map((c) => ({
    code: c.dataset.code, rule: c.dataset.rule, text: c.innerText,
    field: c.closest(".field")?.querySelector("input").id ?? c.closest("tr.card-row")?.previousElementSibling.querySelector(".prop-name").value,
  })));
  const expected = await page.evaluate(() =>
    tableplay.validateEntity({
      PartitionKey: "a/b", RowKey: "r",
      properties: [{ name: "bad-name", type: "Edm.Int32", text: "1" }, { name: "Long", type: "Edm.String", text: "x".repeat(32768) }, { name: "Big", type: "Edm.Int64", text: "9223372036854775808" }],
    }).violations,
  );
  assert.equal(shown.length, expected.length);
  const fieldOrder = ["pk", "rk", "bad-name", "Long", "Big"];
  const fieldOf = (v) => (v.rule.property === "PartitionKey" ? "pk" : v.rule.property === "RowKey" ? "rk" : v.rule.property ?? "bad-name");
  expected.sort((a, b) => fieldOrder.indexOf(fieldOf(a)) - fieldOrder.indexOf(fieldOf(b)));
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i];
    assert.equal(shown[i].field, fieldOf(want), `${want.rule.id} sits beside its field`);
    assert.equal(shown[i].code, want.code);
    assert.equal(shown[i].rule, want.rule.id);
    assert.ok(shown[i].text.includes(want.rule.statement), `statement of ${want.rule.id}`);
    assert.ok(shown[i].text.includes(want.message), `message of ${want.rule.id}`);
    if (want.rule.measure) {
      const m = want.rule.measure;
      assert.ok(shown[i].text.includes(`${m.value.toLocaleString("en-US")} ${m.unit}; the limit is ${m.limit.toLocaleString("en-US")}`), `measure of ${want.rule.id}`);
    }
    if (want.rule.disputed) assert.ok(shown[i].text.includes(want.rule.dispute));
  }
  assert.ok(shown.some((s) => s.text.includes("32,768 UTF-16 code units; the limit is 32,767")));
  // The JSON mode shows the same rules for the same entity, in the Rules section.
  await page.getByLabel("JSON body").check();
  await page.waitForFunction(() => document.querySelectorAll("#entity-cards .card").length === 4);
  assert.deepEqual((await page.locator("#entity-cards .card").evaluateAll((cs) => cs.map((c) => c.dataset.rule))).sort(), expected.map((e) => e.rule.id).sort());
  // Back to the form: nothing lost.
  await page.getByLabel("Form").check();
  assert.equal(await page.getByLabel("Name of property 3").inputValue(), "Big");
  assert.equal(await page.getByLabel("Value of property 3").inputValue(), "9223372036854775808");
  await context.close();
});

test("keyboard only: create, select, write and delete with Tab, Enter and Space", async () => {
  const { page, context } = await open();
  const k = page.keyboard;
  const focusVisible = () => page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0;
  });
  await page.getByLabel("New table name").focus();
  await k.type("Keys");
  await k.press("Enter");
  await page.getByRole("button", { name: "Keys", exact: true }).waitFor();
  await page.getByRole("button", { name: "Keys", exact: true }).focus();
  await k.press("Enter");
  await page.waitForFunction(() => document.getElementById("editor-table").textContent.includes("Keys"));
  await page.getByLabel("PartitionKey").focus();
  assert.ok(await focusVisible(), "focus is visible");
  await k.type("p");
  await k.press("Tab");
  await k.type("r");
  await k.press("Tab"); // Add property
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Add property");
  await k.press("Enter"); // focus moves to the new row's name
  await k.type("Count");
  await k.press("Tab"); // type
  await k.press("ArrowDown"); // String → Int32
  await k.press("Tab"); // value
  await k.type("7");
  await page.getByLabel("Operation", { exact: true }).focus();
  await k.press("Tab"); // Send
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Send");
  assert.ok(await focusVisible());
  await k.press("Enter");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("insert: 201"));
  assert.match(await page.locator("#entity-list").innerText(), /Count = 7 Edm\.Int32/);
  // Delete the table: the confirm dialog answers to the keyboard too.
  await page.getByRole("button", { name: "Delete table Keys" }).focus();
  await k.press("Space");
  await page.locator("dialog[open]").waitFor();
  await page.getByRole("button", { name: "Delete", exact: true }).focus();
  await k.press("Enter");
  await page.getByRole("button", { name: "Keys", exact: true }).waitFor({ state: "detached" });
  await context.close();
});

test("every control has an accessible name", async () => {
  const { page, context } = await open();
  await page.getByRole("button", { name: "Load the sample" }).click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  await page.locator("#levels pre").first().waitFor();
  await assertNamed(page.locator("input, select, textarea, button, meter"), 31);
  await context.close();
});

test("dark scheme and a 390 px phone render without overflow", async () => {
  for (const [name, options] of [
    ["dark", { colorScheme: "dark" }],
    ["phone", { viewport: { width: 390, height: 844 } }],
    ["phone-dark", { viewport: { width: 390, height: 844 }, colorScheme: "dark" }],
  ]) {
    const { page, context } = await open(options);
    await page.getByRole("button", { name: "Load the sample" }).click();
    await page.locator("#levels pre").first().waitFor();
    const layout = await page.evaluate(() => {
      const panels = [...document.querySelectorAll(".panel")].map((p) => p.getBoundingClientRect());
      const overlaps = panels.some((a, i) => panels.some((b, j) => i < j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
      return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, overlaps, bg: getComputedStyle(document.body).backgroundColor };
    });
    assert.ok(layout.scroll <= layout.width, `${name}: page is ${layout.scroll}px wide in a ${layout.width}px window`);
    assert.equal(layout.overlaps, false, `${name}: panels overlap`);
    if (name.includes("dark")) assert.equal(layout.bg, "rgb(20, 20, 24)", `${name}: dark background`);
    await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
    await context.close();
  }
});

test("the theme toggle overrides the system scheme", async () => {
  const { page, context } = await open({ colorScheme: "light" });
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await bg(), "rgb(247, 247, 245)");
  await page.getByRole("button", { name: "Dark theme" }).click();
  assert.equal(await bg(), "rgb(20, 20, 24)");
  assert.equal(await page.getByRole("button", { name: "Light theme" }).getAttribute("aria-pressed"), "true");
  await context.close();
});

test("markup in names and values never runs", async () => {
  const { page, context } = await open();
  await page.evaluate(() => {
    window.__touched = false;
    Object.defineProperty(window, "trap", { get() { window.__touched = true; return 1; } });
  });
  const payloads = ['<script>window.__touched=true;trap</script>', '"><img src=x onerror="window.__touched=true;trap">', "<svg onload=trap>", "';trap;'"];
  await page.getByLabel("New table name").fill(payloads[1]);
  await page.locator("#table-name-cards .card").first().waitFor();
  await page.getByLabel("New table name").fill("Markup");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "Markup", exact: true }).waitFor();
  // Keys may not hold '/', so the <script> payload goes into a value.
  await page.getByLabel("PartitionKey").fill("<b onmouseover=trap>");
  await page.getByLabel("RowKey").fill(payloads[2]);
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 1, "Html", "Edm.String", payloads[1]);
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 2, "Script", "Edm.String", payloads[0]);
  await page.getByRole("button", { name: "Add property" }).click();
  await fillRow(page, 3, payloads[3], "Edm.String", "x");
  await page.locator("#editor-part .card").first().waitFor(); // the bad name's rule card shows it as text
  await page.getByRole("button", { name: "Remove property 3" }).click();
  await send(page, "insert");
  await page.getByRole("button", { name: /^Load / }).first().waitFor();
  await page.getByRole("button", { name: /^Load / }).first().click();
  await page.locator("#levels pre").first().waitFor();
  await page.waitForTimeout(300);
  const result = await page.evaluate(() => ({
    touched: window.__touched,
    imgs: document.querySelectorAll("img").length,
    scripts: document.querySelectorAll("script").length,
    svgs: document.querySelectorAll("svg").length,
  }));
  // index.html's own two scripts (web/engine.js, web/app.js), no more.
  assert.deepEqual(result, { touched: false, imgs: 0, scripts: 2, svgs: 0 });
  assert.match(await page.locator("#entity-list").innerText(), /<svg onload=trap>/);
  await context.close();
});

test("the JSON body keeps the person's text when the form changes one member", async () => {
  const { page, context, errors } = await open();
  await page.getByLabel("JSON body").check();
  const mine = '{\n    "PartitionKey": "p",   "RowKey": "r",\n  "Ratio": 2.50,\n  "Count": 1,\n  "Big@odata.type": "Edm.Int64", "Big": "7"\n}';
  await page.getByLabel("OData entity body (JSON)").fill(mine);
  await page.getByLabel("Form").check();
  assert.equal(await page.getByLabel("Name of property 2").inputValue(), "Count");
  await page.getByLabel("Value of property 2").fill("5");
  await page.getByLabel("Type of property 3").selectOption("Edm.String");
  await page.getByLabel("JSON body").check();
  const text = await page.getByLabel("OData entity body (JSON)").inputValue();
  // Only Count's value and Big's type changed; spacing, order and 2.50 are as typed.
  assert.equal(text, '{\n    "PartitionKey": "p",   "RowKey": "r",\n  "Ratio": 2.50,\n  "Count": 5, "Big": "7"\n}');
  assert.equal(await page.evaluate((t) => tableplay.parseBody(t).valid, text), true);
  assert.deepEqual(errors, []);
  await context.close();
});
