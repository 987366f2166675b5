// e2e/lessons.test.js is responsible for testing the lesson view in
// Chromium: whole lessons walked step by step answering the predictions
// (one by mouse, one by keyboard alone), links to a step, progress kept
// across a reload, the person's own account given back, presenter mode on
// the arrow keys, and the layout at 1280 and 390 px in light and dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser, assertNamed } from "./harness.js";

const env = useBrowser({ before, after });

async function open(hash = "", options = {}, context = null) {
  const ctx = context ?? (await env.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options }));
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + "/" + hash);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  return { page, context: ctx, errors };
}

// lesson reads a lesson's view from the engine, as the page does.
const lesson = (page, id) => page.evaluate((i) => window.tableplay.lesson(i), id);

const stepCount = (page) => page.locator(".step-count").innerText();

// tabTo presses Tab until the focused element matches fn (at most 60 times).
async function tabTo(page, fn, what) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(fn)) return;
  }
  assert.fail(`Tab never reached ${what}`);
}

async function lastWireStatus(page) {
  return page.locator("#exchanges article .status-line").first().innerText();
}

test("two clients race: the whole lesson by mouse, predictions answered, ETags and timeline per client", async () => {
  const { page, context, errors } = await open("#lesson=two-clients&step=1");
  const view = await lesson(page, "two-clients");
  assert.equal(view.steps.length, 7);
  for (let i = 0; i < view.steps.length; i++) {
    const s = view.steps[i];
    assert.equal(await stepCount(page), `Step ${i + 1} of 7`);
    assert.equal(await page.locator(".lesson-step-title").innerText(), `${i + 1}. ${s.title}`);
    if (s.predict) {
      // The answer is not shown before the person predicts, and Run asks for a prediction first.
      assert.equal(await page.locator(".verdict").count(), 0);
      await page.getByRole("button", { name: "Run step" }).click();
      await page.getByRole("alert").filter({ hasText: "Choose your prediction first." }).waitFor();
      await page.locator(".prediction input").nth(s.predict.answer).check();
    }
    await page.getByRole("button", { name: "Run step" }).click();
    await page.locator(".agrees").waitFor();
    assert.equal(await page.locator(".agrees").innerText(), "The engine did what the lesson says.");
    if (s.predict) assert.match(await page.locator(".verdict").innerText(), /^Your prediction was right/);
    // The exchange is in the page's wire view too, with the step's status.
    assert.match(await lastWireStatus(page), new RegExp(`^HTTP/1.1 ${s.expect.status} `));
    // Each client's column: the ETag it holds and its requests so far.
    const held = await page.locator(".lesson-client .held").allInnerTexts();
    assert.equal(held.length, 2);
    if (i === 1) assert.equal(held[0], held[1], "after both reads A and B hold the same ETag");
    if (i === 3) {
      assert.notEqual(held[0], held[1], "after A's write the ETags differ");
      assert.match(await page.locator('.lesson-client[aria-label="Client B"] .timeline li.current').innerText(), /Step 4: PATCH 412/);
      assert.match(await page.locator(".lesson-entity").last().innerText(), /Count Edm\.Int32 = 7/);
    }
    if (i < view.steps.length - 1) {
      await page.getByRole("button", { name: "Next step" }).click();
      await page.waitForFunction((n) => document.querySelector(".step-count")?.textContent === `Step ${n} of 7`, i + 2);
    }
  }
  assert.match(await page.locator(".lesson-entity").last().innerText(), /Count Edm\.Int32 = 4/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("table names: the whole lesson with the keyboard alone, then progress survives a reload", async () => {
  const { page, context, errors } = await open("");
  const view = await lesson(page, "table-names");
  // Open the lessons box and the lesson from the menu by keyboard.
  await tabTo(page, () => document.activeElement?.matches(".lessons-box > summary"), "the lessons summary");
  await page.keyboard.press("Enter");
  await tabTo(page, () => document.activeElement?.textContent === "Table names", "the Table names link");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.hash === "#lesson=table-names&step=1");
  for (let i = 0; i < view.steps.length; i++) {
    const s = view.steps[i];
    assert.equal(await stepCount(page), `Step ${i + 1} of ${view.steps.length}`);
    if (s.predict) {
      await tabTo(page, () => document.activeElement?.matches(".prediction input"), "the prediction");
      if (s.predict.answer === 0) await page.keyboard.press("Space");
      for (let k = 0; k < s.predict.answer; k++) await page.keyboard.press("ArrowDown");
      assert.equal(await page.locator(".prediction input:checked").getAttribute("value"), String(s.predict.answer));
    }
    await tabTo(page, () => document.activeElement?.textContent === "Run step", "Run step");
    const focusVisible = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(focusVisible, "none", "the focused button shows its focus");
    await page.keyboard.press("Enter");
    await page.locator(".agrees").waitFor();
    assert.equal(await page.locator(".agrees").innerText(), "The engine did what the lesson says.");
    if (s.predict) assert.match(await page.locator(".verdict").innerText(), /^Your prediction was right/);
    if (s.note) assert.match(await page.locator(".lesson-note").innerText(), /disagree/);
    if (s.tableName !== undefined) {
      // The rule cards are the ones validateTableName reports for the name.
      const shown = await page.locator(".lesson-result .card[data-rule]").evaluateAll((cs) => cs.map((c) => c.dataset.rule));
      const report = await page.evaluate((n) => window.tableplay.validateTableName(n), s.tableName);
      assert.deepEqual(shown, report.violations.map((v) => v.rule.id));
      assert.deepEqual(shown, s.expect.rules);
    }
    if (i < view.steps.length - 1) {
      await tabTo(page, () => document.activeElement?.textContent === "Next step", "Next step");
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => location.hash === `#lesson=table-names&step=${n}`, i + 2);
      // The hash changes at once, the view on the hashchange event that follows.
      await page.waitForFunction((n) => document.querySelector(".step-count")?.textContent.startsWith(`Step ${n} `), i + 2);
      // Focus lands on the new step's heading, not back at the top of the page.
      assert.equal(await page.evaluate(() => document.activeElement?.className), "lesson-step-title");
    }
  }
  // The reserved name's step says what the service answers, unlike the docs.
  await page.goto(env.server.url + "/#lesson=table-names&step=3");
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.match(await page.locator(".lesson-note").innerText(), /404.*400/s);
  await page.goto(env.server.url + "/#");
  if (!(await page.locator(".lessons-box").evaluate((d) => d.open))) await page.locator(".lessons-box > summary").click();
  const item = page.locator(".lesson-menu li").filter({ hasText: "Table names" });
  assert.match(await item.innerText(), /6 steps · 6 run/);
  assert.match(await page.locator(".lesson-menu li").filter({ hasText: "Partition design" }).innerText(), /6 steps$/);
  assert.equal(await page.locator(".lesson-menu li").count(), (await page.evaluate(() => window.tableplay.lessons())).length);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a link opens a lesson at a step; Reset lesson and leaving give the account back", async () => {
  const { page, context } = await open("");
  await page.getByLabel("New table name").fill("Mine");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Mine", exact: true }).waitFor();
  await page.evaluate(() => (location.hash = "#lesson=partition-design&step=2"));
  assert.equal(await stepCount(page), "Step 2 of 6");
  await page.locator(".prediction input").nth(2).check();
  await page.getByRole("button", { name: "Run step" }).click();
  assert.match(await page.locator(".outcome").innerText(), /Returned 54, examined 2000/);
  // The lesson's generated tables are the account now: try it yourself.
  await page.getByRole("button", { name: "OrdersByDay", exact: true }).waitFor();
  const count = () => page.evaluate(() => window.tableplay.snapshot().tables.map((t) => `${t.name}:${t.entities.length}`).join(","));
  assert.equal(await count(), "OrdersByCustomer:2000,OrdersByDay:2000");
  await page.evaluate(() => window.tableplay.reset());
  assert.equal(await count(), "");
  await page.getByRole("button", { name: "Reset lesson" }).click();
  assert.equal(await count(), "OrdersByCustomer:2000,OrdersByDay:2000");
  // A reload in the middle of the lesson still gives the account back on leaving.
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await stepCount(page), "Step 2 of 6");
  await page.getByRole("link", { name: "All lessons" }).click();
  await page.getByRole("button", { name: "Mine", exact: true }).waitFor();
  assert.equal(await count(), "Mine:0");
  await context.close();
});

test("presenter mode: one step at a time, large, on the arrow keys", async () => {
  const { page, context } = await open("#lesson=etags&step=1&present");
  assert.equal(await page.locator("header.top").isVisible(), false);
  assert.equal(await page.locator("main").isVisible(), false);
  const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector(".lesson-text")).fontSize));
  assert.ok(size >= 22, `presenter text is ${size}px`);
  // atStep waits for the view itself (it follows the hash on the next event).
  const atStep = (n) => page.waitForFunction((k) => document.querySelector(".step-count")?.textContent === `Step ${k} of 5`, n);
  await page.keyboard.press("ArrowRight"); // run step 1
  await page.locator(".lesson-exchange").waitFor();
  assert.equal(await stepCount(page), "Step 1 of 5");
  await page.keyboard.press("ArrowRight"); // to step 2
  await atStep(2);
  assert.equal(await page.locator(".lesson-exchange").count(), 0, "the next step starts without its answer");
  await page.keyboard.press("ArrowRight"); // run step 2
  await page.locator(".lesson-exchange").waitFor();
  await page.keyboard.press("ArrowRight"); // to step 3
  await atStep(3);
  await page.keyboard.press("ArrowRight"); // run step 3: a stale ETag, revealed without a prediction
  assert.match(await page.locator(".verdict").innerText(), /The answer: 412/);
  assert.match(await page.locator(".lesson-exchange .status-line").innerText(), /412 Precondition Failed/);
  await page.keyboard.press("ArrowLeft");
  await atStep(2);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => location.hash === "#lesson=etags&step=2");
  await page.locator("header.top").waitFor({ state: "visible" });
  // #present alone opens the lesson last worked on, where it was left.
  await page.evaluate(() => (location.hash = "#present"));
  await page.waitForFunction(() => location.hash === "#lesson=etags&step=3&present");
  await page.locator("main").waitFor({ state: "hidden" });
  await atStep(3);
  await context.close();
});

test("the lesson view at 1280 and 390 px, light and dark, without overflow", async () => {
  for (const [name, options] of [
    ["lesson-1280-light", { colorScheme: "light" }],
    ["lesson-1280-dark", { colorScheme: "dark" }],
    ["lesson-390-light", { viewport: { width: 390, height: 844 }, colorScheme: "light" }],
    ["lesson-390-dark", { viewport: { width: 390, height: 844 }, colorScheme: "dark" }],
  ]) {
    for (const present of [false, true]) {
      const { page, context } = await open(`#lesson=two-clients&step=4${present ? "&present" : ""}`, options);
      await page.locator(".prediction input").nth(1).check();
      await page.getByRole("button", { name: "Run step" }).click();
      await page.locator(".lesson-clients").waitFor();
      const layout = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        width: window.innerWidth,
        bg: getComputedStyle(document.querySelector(".lessons-box")).backgroundColor,
        columns: [...document.querySelectorAll(".lesson-client")].map((c) => c.getBoundingClientRect().width),
      }));
      assert.ok(layout.scroll <= layout.width, `${name}: page is ${layout.scroll}px wide in a ${layout.width}px window`);
      assert.equal(layout.columns.length, 2);
      if (name.includes("dark")) assert.equal(layout.bg, "rgb(30, 30, 36)", `${name}: dark panel`);
      else assert.equal(layout.bg, "rgb(255, 255, 255)", `${name}: light panel`);
      await page.screenshot({ path: path.join(env.artifacts, `${name}${present ? "-present" : ""}.png`), fullPage: false });
      if (!present) {
        // The menu too.
        await page.getByRole("link", { name: "All lessons" }).click();
        await page.locator(".lesson-menu").waitFor();
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= layout.width, `${name} menu: page is ${wide}px wide in a ${layout.width}px window`);
        await page.locator("#lessons").screenshot({ path: path.join(env.artifacts, `${name}-menu.png`) });
      }
      await context.close();
    }
  }
});

test("every lesson control has an accessible name", async () => {
  const { page, context } = await open("#lesson=writes&step=2");
  await page.locator(".prediction input").first().check();
  await page.getByRole("button", { name: "Run step" }).click();
  assert.match(await page.locator(".lessons-box > summary").innerText(), /^Lessons/);
  await assertNamed(page.locator("#lessons :is(a, button, input)"), 8);
  await context.close();
});

test("mounted without the hash (as an embed would), a view keeps its own place", async () => {
  const { page, context, errors } = await open("");
  await page.evaluate(async () => {
    const { mountLessons } = await import(new URL("web/lessons/view.js", document.baseURI).href);
    const root = document.createElement("section");
    root.id = "second";
    root.setAttribute("aria-label", "Second lesson view");
    document.body.append(root);
    mountLessons(root, { hash: false, lesson: "keys" });
  });
  const second = page.locator("#second");
  assert.equal(await second.locator(".step-count").innerText(), "Step 1 of 6");
  await second.getByRole("button", { name: "Next step" }).click();
  assert.equal(await second.locator(".step-count").innerText(), "Step 2 of 6");
  await second.locator(".prediction input").nth(1).check();
  await second.getByRole("button", { name: "Run step" }).click();
  assert.equal(await second.locator(".agrees").innerText(), "The engine did what the lesson says.");
  assert.equal(await second.getByRole("link", { name: "Presenter mode" }).count(), 0);
  await second.getByRole("link", { name: "All lessons" }).click();
  await second.locator(".lesson-menu").waitFor();
  assert.equal(await page.evaluate(() => location.hash), "", "the page's hash is untouched");
  assert.equal(await page.locator("#lessons .step-count").count(), 0, "the page's own view did not move");
  assert.deepEqual(errors, []);
  await context.close();
});

test("<table-playground lesson=…> runs the lesson in its own account, its exchanges in its own wire view", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + "/e2e/fixtures/lesson-host.html");
  const embed = page.locator("#race");
  assert.match(await embed.locator(".preview").innerText(), /Starts the lesson two-clients/);
  await embed.getByRole("button", { name: "Run Two clients race" }).click();
  const account = await page.evaluate(() => document.getElementById("race").ready.then((el) => el.account));
  assert.notEqual(account, "devstoreaccount1");
  // The account starts as the lesson's start account.
  const tablesOf = (name) => page.evaluate((n) => window.tableplay.account(n).snapshot().tables.map((t) => t.name), name);
  assert.deepEqual(await tablesOf(account), ["Stock"]);
  const view = await page.evaluate(() => window.tableplay.lesson("two-clients"));
  for (let i = 0; i < 4; i++) {
    assert.equal(await embed.locator(".step-count").innerText(), `Step ${i + 1} of 7`);
    const s = view.steps[i];
    if (s.predict) await embed.locator(".prediction input").nth(s.predict.answer).check();
    await embed.getByRole("button", { name: "Run step" }).click();
    assert.equal(await embed.locator(".agrees").innerText(), "The engine did what the lesson says.");
    assert.match(await embed.locator("#exchanges article .status-line").first().innerText(), new RegExp(`^HTTP/1.1 ${s.expect.status} `));
    if (i < 3) await embed.getByRole("button", { name: "Next step" }).click();
  }
  assert.match(await embed.locator('.lesson-client[aria-label="Client B"] .timeline li.current').innerText(), /Step 4: PATCH 412/);
  assert.equal(await page.evaluate(() => location.hash), "", "an embed leaves the page's hash alone");
  assert.deepEqual(await tablesOf("devstoreaccount1"), [], "the page's own account is untouched");
  assert.deepEqual(errors, []);
  await context.close();
});
