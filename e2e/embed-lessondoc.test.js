// e2e/embed-lessondoc.test.js is responsible for testing a lesson written
// in the browser shown in an embed: <table-playground lesson-doc="…"> with
// the code the recorder exports (built here by the recorder's own function
// from core/lesson/testdata/recorded.json, the lesson e2e/lessons.test.js
// records), its steps run in the embed's own account, a range of them, the
// iframe form, and codes that cannot be opened explained in the box.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync } from "node:fs";
import { root, useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const RECORDED = readFileSync(path.join(root, "core", "lesson", "testdata", "recorded.json"), "utf8");

async function open(file) {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(env.server.url + file);
  return { page, context, errors };
}

// share builds a lesson file's code, link and embed snippet the way the
// recorder's export does (web/lessons/recorder.js, in the page).
const share = (page, text) => page.evaluate(async (t) => (await import("/web/lessons/recorder.js")).lessonDocShare(t), text);

// mount adds an embed with these attributes to the page and waits for it to
// start: "ready" or the failure it shows.
function mount(page, attributes) {
  return page.evaluate(async (a) => {
    const embed = document.createElement("table-playground");
    for (const [k, v] of Object.entries(a)) embed.setAttribute(k, v);
    document.body.append(embed);
    try {
      await embed.start();
      return "ready";
    } catch (e) {
      return `failed: ${e.message}`;
    }
  }, attributes);
}

test("lesson-doc: a recorded lesson's code, mounted in an embed, runs steps 3-4 in the embed's own account; the whole lesson beside it", async () => {
  const { page, context, errors } = await open("/e2e/fixtures/lessondoc-host.html");
  const { code, link, embed } = await share(page, RECORDED);
  assert.match(code, /^[A-Za-z0-9_-]+$/);
  assert.ok(link.endsWith(`#lesson-doc=${code}`));
  assert.ok(embed.endsWith(`<table-playground lesson-doc="${code}"></table-playground>`), embed);
  assert.equal(await mount(page, { id: "range", "lesson-doc": code, steps: "3-4", label: "Pets" }), "ready");
  const range = page.locator("#range");
  await range.getByRole("heading", { name: /^Step 3 of 4: insert Pets/ }).waitFor();
  assert.equal(await range.getByRole("heading", { name: /^Step [124] / }).count(), 0, "only the range's steps");
  const whole = await range.getByRole("link", { name: "The whole lesson in the playground" }).getAttribute("href");
  assert.ok(whole.endsWith(`/index.html?lang=en#lesson-doc=${code}`), whole);
  // Step 3: the second insert of rex, predicted right.
  await range.locator(".prediction input").nth(1).check();
  await range.getByRole("button", { name: "Run", exact: true }).click();
  await range.locator(".lesson-explain").waitFor();
  assert.equal(await range.locator(".lesson-result").getAttribute("data-ok"), "true");
  assert.match(await range.locator(".lesson-explain").innerText(), /^409 EntityAlreadyExists: insert never overwrites\./);
  await range.getByRole("button", { name: "Next step" }).click();
  await range.getByRole("heading", { name: /^Step 4 of 4: / }).waitFor();
  await range.getByRole("button", { name: "Run", exact: true }).click();
  await range.locator(".lesson-explain").waitFor();
  assert.equal(await range.locator(".lesson-result").getAttribute("data-ok"), "true");
  assert.equal(await range.locator(".lesson-explain").innerText(), "1 returned of 1 examined.");
  assert.equal(await range.getByRole("button", { name: "Next step" }).isDisabled(), true);
  // The steps ran in the embed's own account, which started as the
  // lesson's account before step 3; the page's account is untouched.
  const account = await page.evaluate(() => document.getElementById("range").account);
  assert.notEqual(account, "devstoreaccount1");
  const entities = await page.evaluate((n) => window.tableplay.account(n).snapshot().tables.map((t) => `${t.name}:${t.entities.length}`), account);
  assert.deepEqual(entities, ["Mine:0", "Pets:1"]);
  assert.deepEqual(await page.evaluate(() => window.tableplay.snapshot().tables), []);

  // The same code in a second embed, without step: the whole lesson.
  assert.equal(await mount(page, { id: "all", "lesson-doc": code }), "ready");
  await page.locator("#all .step-count", { hasText: "Step 1 of 4" }).waitFor();
  assert.equal(await page.locator("#all .lesson-title").innerText(), "Pets and conflicts");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the iframe form takes lesson-doc and step", async () => {
  const { page: host, context } = await open("/e2e/fixtures/lessondoc-host.html");
  const { code } = await share(host, RECORDED);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${env.server.url}/embed.html#lesson-doc=${code}&step=2`);
  const el = page.locator("table-playground");
  assert.equal(await el.getAttribute("lesson-doc"), code);
  await page.evaluate(() => document.querySelector("table-playground").ready);
  await el.getByRole("heading", { name: /^Step 2 of 4: insert Pets/ }).waitFor();
  await el.getByRole("button", { name: "Run", exact: true }).click();
  await el.locator(".lesson-explain").waitFor();
  assert.equal(await el.locator(".lesson-result").getAttribute("data-ok"), "true");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a lesson-doc that cannot be opened says why in the embed's box: tampered, oversized, not a code, another lesson's id", async () => {
  const { page, context, errors } = await open("/e2e/fixtures/lessondoc-host.html");
  const { code } = await share(page, RECORDED);
  const mid = Math.floor(code.length / 2);
  const other = JSON.stringify({ ...JSON.parse(RECORDED), summary: "Another lesson that took the same id." });
  const cases = [
    ["tampered", code.slice(0, mid) + "A".repeat(40) + code.slice(mid + 40), /was not opened: /],
    ["oversized", "A".repeat(32 * 1024), /was not opened: it holds 32,768 characters, more than a link this page makes/],
    ["not-a-code", "<b>lesson</b>", /was not opened: it is not a lesson code/],
    ["first", code, null],
    ["same-id", (await share(page, other)).code, /was not opened: another playground on this page shows a different lesson with the id “pets-and-conflicts”/],
  ];
  for (const [id, value, reason] of cases) {
    const outcome = await mount(page, { id, "lesson-doc": value, steps: "1-2" });
    if (!reason) {
      assert.equal(outcome, "ready", id);
      continue;
    }
    assert.match(outcome, reason, id);
    const box = page.locator(`#${id}`);
    const alert = box.getByRole("alert");
    assert.match(await alert.innerText(), /The playground could not start\. The lesson in its lesson-doc attribute was not opened: /, id);
    assert.match(await alert.innerText(), reason, id);
    assert.match(await alert.innerText(), /Fix: Copy the embed code again/, id);
    assert.equal(await box.getAttribute("data-state"), "failed", id);
    const { height } = await box.boundingBox();
    assert.ok(height >= 100, `${id}: the box is ${height} px tall`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
