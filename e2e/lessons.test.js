// e2e/lessons.test.js is responsible for testing the lesson view in
// Chromium: whole lessons walked step by step answering the predictions
// (one by mouse, one by keyboard alone), each step explained after its run
// and never before, links to a step, progress kept across a reload, a
// lesson in its own account and wire list with "Try it yourself" lending
// the workbench and giving it back exactly, presenter mode on a clicker's
// keys (→, PageDown, Space, number keys) and its zoom, and the layout at
// 1280 and 390 px in light and dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { useBrowser, assertNamed, root } from "./harness.js";

const env = useBrowser({ before, after });

async function open(hash = "", options = {}, context = null) {
  const ctx = context ?? (await env.context({ viewport: { width: 1280, height: 900 }, ...options }));
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

test("two clients race: the whole lesson by mouse, predictions answered, ETags and timeline per client", async () => {
  const { page, context, errors } = await open("#lesson=two-clients&step=1");
  const view = await lesson(page, "two-clients");
  assert.equal(view.steps.length, 7);
  for (let i = 0; i < view.steps.length; i++) {
    const s = view.steps[i];
    assert.equal(await stepCount(page), `Step ${i + 1} of 7`);
    assert.equal(await page.locator(".lesson-step-title").innerText(), `${i + 1}. ${s.title}`);
    // Nothing explains the step before it runs.
    assert.equal(await page.locator(".lesson-explain").count(), 0);
    if (s.predict) {
      // The answer is not shown before the person predicts, and Run asks for a prediction first.
      assert.equal(await page.locator(".verdict").count(), 0);
      await page.getByRole("button", { name: "Run step" }).click();
      await page.getByRole("alert").filter({ hasText: "Choose your prediction first." }).waitFor();
      await page.locator(".prediction input").nth(s.predict.answer).check();
    }
    await page.getByRole("button", { name: "Run step" }).click();
    await page.locator(".lesson-explain").waitFor();
    // The explanation carries the engine's status; the author's self-check
    // is data for tests, never text for learners.
    assert.match(await page.locator(".lesson-explain").innerText(), new RegExp(`\\b${s.expect.status}\\b`));
    assert.equal(await page.locator(".lesson-result").getAttribute("data-ok"), "true");
    assert.doesNotMatch(await page.locator("#lessons").innerText(), /did what the lesson says/);
    if (s.predict) assert.match(await page.locator(".verdict").innerText(), /^Right: /);
    // The exchange is in the lesson's own wire list, with the step's status,
    // and not in the page's wire view.
    assert.match(await page.locator(".lesson-wire summary").innerText(), new RegExp(`: ${i + 1} exchange`));
    assert.match(await page.locator(".lesson-wire .status-line").first().textContent(), new RegExp(`^HTTP/1.1 ${s.expect.status} `));
    assert.equal(await page.locator("#exchanges article").count(), 0);
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

test("works on Azurite, fails on Azure: each step names who answers and gets that implementation's answer", async () => {
  const { page, context, errors } = await open("#lesson=azurite-vs-azure&step=1");
  const view = await lesson(page, "azurite-vs-azure");
  assert.equal(view.steps.length, 8);
  const titles = Object.fromEntries((await page.evaluate(() => window.tableplay.profiles())).map((p) => [p.name, p.title]));
  for (let i = 0; i < view.steps.length; i++) {
    const s = view.steps[i];
    assert.equal(await stepCount(page), `Step ${i + 1} of 8`);
    assert.equal(await page.locator(".lesson-target").innerText(), `Sent to ${titles[s.profile ?? "azure"]}`);
    await page.locator(".prediction input").nth(s.predict.answer).check();
    await page.getByRole("button", { name: "Run step" }).click();
    await page.locator(".lesson-explain").waitFor();
    assert.equal(await page.locator(".lesson-result").getAttribute("data-ok"), "true");
    assert.match(await page.locator(".verdict").innerText(), /^Right: /);
    // The answer is the named implementation's: its Server header.
    await page.waitForFunction((n) => document.querySelector(".lesson-wire summary")?.textContent.includes(`: ${n} exchange`), i + 1);
    const answer = await page.locator(".lesson-wire > div").first().locator("pre").last().textContent();
    assert.match(answer, s.profile === "azurite-3.37" ? /Server: Azurite-Table\/3\.37\.0/i : /Server: Windows-Azure-Table/i);
    if (i < view.steps.length - 1) {
      await page.getByRole("button", { name: "Next step" }).click();
      await page.waitForFunction((n) => document.querySelector(".step-count")?.textContent === `Step ${n} of 8`, i + 2);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("Try it yourself answers as the step's implementation, and Back gives the person's own profile back", async () => {
  const { page, context, errors } = await open("");
  await page.getByLabel("Answer as", { exact: true }).selectOption("cosmos");
  await page.waitForFunction(() => document.body.dataset.profile === "cosmos");
  const profile = () => page.evaluate(() => ({ engine: window.tableplay.profile().name, picker: document.getElementById("target").value }));
  for (const [step, want] of [[1, "azurite-3.37"], [2, "azure"]]) {
    await page.evaluate((h) => (location.hash = h), `#lesson=azurite-vs-azure&step=${step}`);
    await page.waitForFunction((n) => document.querySelector(".step-count")?.textContent === `Step ${n} of 8`, step);
    await page.getByRole("button", { name: "Try it yourself" }).click();
    await page.getByRole("button", { name: "Back to my workspace" }).waitFor();
    assert.deepEqual(await profile(), { engine: want, picker: want }, `step ${step}`);
    await page.getByRole("button", { name: "Back to my workspace" }).click();
    await page.waitForFunction(() => document.querySelector(".lesson-borrow")?.hidden);
    assert.deepEqual(await profile(), { engine: "cosmos", picker: "cosmos" });
  }
  // The saved choice is the person's, not a lesson's.
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal((await profile()).engine, "cosmos");
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
    await page.locator(".lesson-explain").waitFor();
    assert.equal(await page.locator(".lesson-result").getAttribute("data-ok"), "true");
    if (s.predict) assert.match(await page.locator(".verdict").innerText(), /^Right: /);
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
  // The reserved name's step says what the service answers, unlike the
  // docs, once it has run (the note would give the answer away before).
  await page.goto(env.server.url + "/#lesson=table-names&step=3");
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator(".lesson-note").count(), 0);
  await page.locator(".prediction input").nth(1).check();
  await page.getByRole("button", { name: "Run step" }).click();
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

test("a lesson runs in its own account and wire list; Try it yourself lends the workbench and gives it back exactly", async () => {
  const { page, context, errors } = await open("");
  // The person's workspace: a table, selected, a query run (its answers on
  // screen), a filter typed and an operation queued.
  await page.getByLabel("New table name").fill("Mine");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Mine", exact: true }).click();
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-results > *").first().waitFor();
  await page.locator("#filter").fill("RowKey eq 'mine'");
  const workspace = () => page.evaluate(() => ({
    tables: window.tableplay.snapshot().tables.map((t) => `${t.name}:${t.entities.length}`).join(","),
    selected: document.querySelector("#query-table")?.textContent,
    filter: document.querySelector("#filter").value,
    queue: document.querySelector("#batch-queue").innerHTML,
    exchanges: document.querySelector("#exchanges").innerHTML,
    results: document.querySelector("#query-results").innerHTML,
  }));
  const mine = await workspace();
  assert.equal(mine.tables, "Mine:0");
  assert.match(mine.exchanges, /article/);

  // A link opens the lesson at step 2; its run touches nothing of the workspace.
  await page.evaluate(() => (location.hash = "#lesson=partition-design&step=2"));
  await page.waitForFunction(() => document.querySelector(".step-count")?.textContent === "Step 2 of 6");
  await page.locator(".prediction input").nth(2).check();
  await page.getByRole("button", { name: "Run step" }).click();
  assert.match(await page.locator(".outcome").innerText(), /Returned 54, examined 2,000/);
  assert.match(await page.locator(".lesson-explain").innerText(), /^54 returned, 2,000 examined/);
  assert.match(await page.locator(".lesson-result .lesson-query").innerText(), /\$filter\s+Customer eq 'customer-07'/);
  assert.deepEqual(await workspace(), mine, "the lesson left the workspace as it was");
  const lessonTables = await page.evaluate(() => window.tableplay.account("lessons").snapshot().tables.map((t) => `${t.name}:${t.entities.length}`).join(","));
  assert.equal(lessonTables, "OrdersByCustomer:2000,OrdersByDay:2000");

  // Try it yourself: the workbench holds the lesson's tables, with the
  // step's table and filter selected, and none of the person's answers.
  await page.getByRole("button", { name: "Try it yourself" }).click();
  await page.getByRole("button", { name: "Back to my workspace" }).waitFor();
  const trying = await workspace();
  assert.equal(trying.tables, "OrdersByCustomer:2000,OrdersByDay:2000");
  assert.match(trying.selected, /OrdersByDay/);
  assert.equal(trying.filter, "Customer eq 'customer-07'");
  assert.doesNotMatch(trying.exchanges, /article/);
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#exchanges article").first().waitFor();

  // Back: exactly the workspace as it was.
  await page.getByRole("button", { name: "Back to my workspace" }).click();
  await page.waitForFunction(() => document.querySelector(".lesson-borrow")?.hidden);
  assert.deepEqual(await workspace(), mine);
  // Lent again, then leaving the lesson gives it back too; so does a reload.
  await page.getByRole("button", { name: "Try it yourself" }).click();
  await page.getByRole("button", { name: "Back to my workspace" }).waitFor();
  await page.getByRole("link", { name: "All lessons" }).click();
  await page.waitForFunction(() => document.querySelector(".lesson-borrow")?.hidden);
  assert.deepEqual(await workspace(), mine);
  await page.evaluate(() => (location.hash = "#lesson=partition-design&step=2"));
  await page.getByRole("button", { name: "Try it yourself" }).click();
  await page.getByRole("button", { name: "Back to my workspace" }).waitFor();
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal((await workspace()).tables, "Mine:0");
  assert.deepEqual(errors, []);
  await context.close();
});

// walk presses only key (and the number keys for predictions) through a
// whole lesson in presenter mode: every step runs, none makes the page
// taller than twice the window or wider than it, and a focused radio never
// takes the key.
async function walk(page, id, key) {
  await page.evaluate((h) => (location.hash = h), `#lesson=${id}&step=1&present`);
  const view = await lesson(page, id);
  const n = view.steps.length;
  await page.waitForFunction((k) => document.querySelector(".step-count")?.textContent === `Step 1 of ${k}`, n);
  for (let i = 0; i < n; i++) {
    const s = view.steps[i];
    assert.equal(await stepCount(page), `Step ${i + 1} of ${n}`);
    assert.equal(await page.locator(".lesson-explain").count(), 0, `${id} step ${i + 1}: nothing explained before the run`);
    if (s.predict) {
      // Focus on a radio, as after a click, must not let the key move it.
      await page.locator(".prediction input").first().focus();
      await page.keyboard.press(String(s.predict.answer + 1));
      assert.equal(await page.locator(".prediction input:checked").getAttribute("value"), String(s.predict.answer));
    }
    await page.keyboard.press(key); // run
    await page.locator(".lesson-explain").waitFor();
    if (s.predict) {
      assert.match(await page.locator(".verdict").innerText(), /^Right: /, `${id} step ${i + 1}`);
      assert.equal(await page.locator(".prediction input:checked").getAttribute("value"), String(s.predict.answer));
    }
    assert.equal(await page.locator(".lesson-result").getAttribute("data-ok"), "true");
    const h = await page.evaluate(() => ({ page: document.documentElement.scrollHeight, wide: document.documentElement.scrollWidth, vh: innerHeight, vw: innerWidth }));
    assert.ok(h.page <= 2 * h.vh, `${id} step ${i + 1}: the page is ${h.page}px tall in a ${h.vh}px window`);
    assert.ok(h.wide <= h.vw, `${id} step ${i + 1}: ${h.wide}px wide`);
    if (i < n - 1) {
      // Advance: a result taller than the screen is shown to its end first
      // (a press or two), then the next step opens.
      const next = () => page.evaluate((k) => document.querySelector(".step-count")?.textContent.startsWith(`Step ${k} `), i + 2);
      for (let p = 0; p < 4 && !(await next()); p++) await page.keyboard.press(key);
      await page.waitForFunction((k) => document.querySelector(".step-count")?.textContent.startsWith(`Step ${k} `), i + 2);
    }
  }
}

test("presenter mode: two lessons walked with → alone and one with PageDown, predictions by number keys", async () => {
  const { page, context, errors } = await open("", { viewport: { width: 1280, height: 720 } });
  await walk(page, "partition-design", "ArrowRight");
  await walk(page, "two-clients", "ArrowRight");
  assert.equal(await page.locator("header.top").isVisible(), false);
  assert.equal(await page.locator("main").isVisible(), false);
  await walk(page, "etags", "PageDown");
  // ← and PageUp go back; Space runs too.
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.querySelector(".step-count")?.textContent === "Step 4 of 5");
  await page.keyboard.press("PageUp");
  await page.waitForFunction(() => document.querySelector(".step-count")?.textContent === "Step 3 of 5");
  // Unanswered, the first Space puts the question to the class and gives
  // nothing away; the second runs the step.
  await page.keyboard.press(" ");
  await page.locator(".lesson-ask").waitFor();
  assert.equal(await page.locator(".verdict").count(), 0);
  await page.keyboard.press(" ");
  await page.locator(".lesson-explain").waitFor();
  assert.match(await page.locator(".verdict").innerText(), /The answer: 412/);
  // The answer is folded to what the step is about; the exchange expands.
  assert.match(await page.locator(".outcome-status").innerText(), /Status 412 · UpdateConditionNotSatisfied/);
  assert.equal(await page.locator(".lesson-exchange-box").evaluate((d) => d.open), false);
  await page.locator(".lesson-exchange-box > summary").click();
  assert.match(await page.locator(".lesson-result .lesson-exchange .status-line").innerText(), /412 Precondition Failed/);
  // The summary is reachable.
  await page.locator(".lesson-about > summary").click();
  assert.match(await page.locator(".lesson-about .lesson-summary").innerText(), /ETag/);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => location.hash === "#lesson=etags&step=3");
  await page.locator("header.top").waitFor({ state: "visible" });
  // #present alone opens the lesson last worked on, where it was left.
  await page.evaluate(() => (location.hash = "#present"));
  await page.waitForFunction(() => location.hash === "#lesson=etags&step=3&present");
  await page.locator("main").waitFor({ state: "hidden" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("presenter zoom: 100 to 200 % without a horizontal scroll at 1280×720; Try it yourself leaves presenter mode", async () => {
  const { page, context } = await open("#lesson=paging&step=1&present", { viewport: { width: 1280, height: 720 } });
  const size = () => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector(".lesson-text")).fontSize));
  const base = await size();
  assert.ok(base >= 22, `presenter text is ${base}px`);
  await page.keyboard.press("ArrowRight"); // asks
  await page.keyboard.press("ArrowRight"); // runs
  await page.locator(".lesson-explain").waitFor();
  assert.match(await page.locator(".outcome").innerText(), /x-ms-continuation-NextRowKey: \S+/i);
  for (let i = 0; i < 6; i++) await page.getByRole("button", { name: "Larger text" }).click();
  assert.equal(await page.locator(".zoom-value").innerText(), "200 %");
  assert.ok(Math.abs((await size()) - 2 * base) < 1, `200 % is ${await size()}px against ${base}px`);
  await page.locator(".lesson-exchange-box > summary").click();
  const wide = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  assert.ok(wide[0] <= wide[1], `at 200 % the page is ${wide[0]}px wide in ${wide[1]}px`);
  await page.getByRole("button", { name: "Smaller text" }).click();
  assert.equal(await page.locator(".zoom-value").innerText(), "175 %");
  // The zoom is kept; out of presenter mode the type is the page's.
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator(".zoom-value").innerText(), "175 %");
  await page.getByRole("button", { name: "Try it yourself" }).click();
  await page.locator("header.top").waitFor({ state: "visible" });
  await page.getByRole("button", { name: "Back to my workspace" }).waitFor();
  assert.match(await page.locator("#query-table").innerText(), /Readings/);
  assert.ok((await size()) < base, "out of presenter mode the zoom does not apply");
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
  await second.locator(".lesson-explain").waitFor();
  assert.equal(await second.locator(".lesson-result").getAttribute("data-ok"), "true");
  assert.equal(await second.getByRole("link", { name: "Presenter mode" }).count(), 0);
  await second.getByRole("link", { name: "All lessons" }).click();
  await second.locator(".lesson-menu").waitFor();
  assert.equal(await page.evaluate(() => location.hash), "", "the page's hash is untouched");
  assert.equal(await page.locator("#lessons .step-count").count(), 0, "the page's own view did not move");
  assert.deepEqual(errors, []);
  await context.close();
});

test("<table-playground lesson=…> runs the lesson in its own account, its exchanges in its own wire view", async () => {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
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
    await embed.locator(".lesson-explain").waitFor();
    assert.equal(await embed.locator(".lesson-result").getAttribute("data-ok"), "true");
    assert.match(await embed.locator("#exchanges article .status-line").first().innerText(), new RegExp(`^HTTP/1.1 ${s.expect.status} `));
    if (i < 3) await embed.getByRole("button", { name: "Next step" }).click();
  }
  assert.match(await embed.locator('.lesson-client[aria-label="Client B"] .timeline li.current').innerText(), /Step 4: PATCH 412/);
  assert.equal(await page.evaluate(() => location.hash), "", "an embed leaves the page's hash alone");
  assert.deepEqual(await tablesOf("devstoreaccount1"), [], "the page's own account is untouched");
  assert.deepEqual(errors, []);
  await context.close();
});

// The lesson recorded below is kept, as exported, in core/lesson/testdata,
// where `go test ./core/lesson` loads it with the loader and runs its steps
// (TestRecordedInThePage). Each run compares its fresh export with it;
// TABLEPLAY_WRITE_RECORDED=1 writes the fresh export there instead.
const RECORDED = path.join(root, "core", "lesson", "testdata", "recorded.json");

// comparable drops what differs from run to run: the start account's times.
function comparable(doc) {
  const d = structuredClone(doc);
  for (const t of d.start.tables) {
    delete t.created;
    for (const e of t.entities) delete e.Timestamp;
  }
  return d;
}

test("Make a lesson from this: recorded in the page, written, checked by the engine, exported as a file, an embed and a link that opens on a fresh profile", async () => {
  const { page, context, errors } = await open("");
  await page.getByLabel("New table name").fill("Mine");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Mine", exact: true }).waitFor();
  await page.locator(".lessons-box > summary").click();
  await page.getByRole("button", { name: "Make a lesson from this" }).click();
  await page.getByRole("heading", { name: "Making a lesson" }).waitFor();
  // Four actions in the scratch account.
  await page.getByLabel("New table name").fill("Pets");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Pets", exact: true }).click();
  await page.getByLabel("PartitionKey").fill("p");
  await page.getByLabel("RowKey").fill("rex");
  await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel("Name of property 1").fill("Age");
  await page.getByLabel("Type of property 1").selectOption("Edm.Int32");
  await page.getByLabel("Value of property 1").fill("3");
  await page.getByLabel("Operation", { exact: true }).selectOption("insert");
  for (let i = 0; i < 2; i++) {
    await page.evaluate(() => (document.getElementById("status").textContent = ""));
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("insert:"));
  }
  await page.locator("#filter").fill("Age gt 2");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator(".lesson-recorder").filter({ hasText: "Recording: 4 actions" }).waitFor();
  // The person's own account is set aside meanwhile.
  assert.equal(await page.evaluate(() => window.tableplay.snapshot().tables.map((t) => t.name).join(",")), "Mine,Pets");

  await page.getByRole("button", { name: "Stop and write the lesson" }).click();
  const panel = page.locator(".lesson-recorder");
  await panel.getByLabel("Lesson title").fill("Pets and conflicts");
  await panel.getByLabel("One line for the menu").fill("Insert twice and see what the second insert answers.");
  const texts = ["Create a table for pets.", "Insert `rex`, three years old.", "Insert `rex` again, the same keys.", "Query the pets older than two."];
  for (let i = 0; i < 4; i++) await panel.locator(`[name=step-${i + 1}-text]`).fill(texts[i]);
  await panel.locator("[name=step-3-question]").fill("What does the second insert answer?");
  await panel.locator("[name=step-3-choices]").fill("201 Created\n409 Conflict");
  await panel.locator("[name=step-3-answer]").fill("1"); // wrong: the engine answers 409
  await panel.locator("[name=step-3-explain]").fill("{status} {code}: insert never overwrites.");
  await panel.locator("[name=step-4-explain]").fill("{returned} returned of {scanned} examined.");
  await panel.getByRole("button", { name: "Check and export" }).click();
  assert.match(await panel.getByRole("alert").innerText(), /not made: step 3: the right choice names 201 but the step expects 409/);
  await panel.locator("[name=step-3-answer]").fill("2");
  await panel.getByRole("button", { name: "Check and export" }).click();
  await panel.locator(".lesson-file").waitFor();
  const text = await page.evaluate(async () => (await fetch(document.querySelector(".lesson-file").href)).text());
  const doc = JSON.parse(text);
  assert.equal(doc.id, "pets-and-conflicts");
  assert.deepEqual(doc.start.tables.map((t) => t.name), ["Mine"], "the start account is the account when recording started");
  assert.deepEqual(doc.steps.map((s) => `${s.operation.kind} ${s.expect.status}${s.expect.code ? " " + s.expect.code : ""}`),
    ["createTable 201", "insert 201", "insert 409 EntityAlreadyExists", "query 200"]);
  assert.deepEqual([doc.steps[3].expect.returned, doc.steps[3].expect.scanned, doc.steps[3].expect.rowKeys], [1, 1, ["rex"]]);
  if (process.env.TABLEPLAY_WRITE_RECORDED === "1") writeFileSync(RECORDED, text);
  assert.deepEqual(comparable(doc), comparable(JSON.parse(readFileSync(RECORDED, "utf8"))), "the fresh export matches core/lesson/testdata/recorded.json");

  // The link opens the lesson on a fresh profile, and its steps do what it says.
  const link = await panel.locator(".lesson-link").inputValue();
  assert.match(link, /#lesson-doc=[A-Za-z0-9_-]+$/);
  // Beside it, the embed that shows the lesson in another page, with the same code.
  const snippet = await panel.locator(".lesson-embed").inputValue();
  assert.match(snippet, /^<script type="module" src="http:\/\/[^"]+\/web\/embed\.js"><\/script>\n/);
  assert.ok(snippet.endsWith(`<table-playground lesson-doc="${link.split("#lesson-doc=")[1]}"></table-playground>`), snippet);
  await panel.getByRole("button", { name: "Done: back to my workspace" }).click();
  // The recorder shows no borrow banner (it has its own): the status line
  // says when the workspace is back.
  await page.waitForFunction(() => document.getElementById("status").textContent === "Your workspace is back as you left it.");
  assert.equal(await page.evaluate(() => window.tableplay.snapshot().tables.map((t) => t.name).join(",")), "Mine");
  const fresh = await env.context({ viewport: { width: 1280, height: 900 } });
  const other = await fresh.newPage();
  await other.goto(link);
  await other.waitForSelector("body[data-ready=true]");
  await other.waitForFunction(() => location.hash === "#lesson=pets-and-conflicts&step=1");
  assert.equal(await other.locator(".lesson-title").innerText(), "Pets and conflicts");
  for (let i = 0; i < 4; i++) {
    await other.waitForFunction((k) => document.querySelector(".step-count")?.textContent === `Step ${k} of 4`, i + 1);
    assert.equal(await other.locator(".lesson-text").innerText(), texts[i].replaceAll("`", ""));
    if (i === 2) await other.locator(".prediction input").nth(1).check();
    await other.getByRole("button", { name: "Run step" }).click();
    await other.locator(".lesson-explain").waitFor();
    assert.equal(await other.locator(".lesson-result").getAttribute("data-ok"), "true");
    if (i === 2) assert.match(await other.locator(".lesson-explain").innerText(), /^409 EntityAlreadyExists: insert never overwrites\./);
    if (i === 3) assert.equal(await other.locator(".lesson-explain").innerText(), "1 returned of 1 examined.");
    if (i < 3) await other.getByRole("button", { name: "Next step" }).click();
  }
  // A link that is not a lesson is refused with a reason, like a share link.
  await other.goto(env.server.url + "/#lesson-doc=AAAA");
  await other.reload();
  await other.waitForSelector("body[data-ready=true]");
  assert.match(await other.locator("#lessons .card").innerText(), /This lesson link was not opened/);
  await fresh.close();
  assert.deepEqual(errors, []);
  await context.close();
});
