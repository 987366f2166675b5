// e2e/behaviour.test.js is responsible for testing what the page says and
// offers as a person meets it, in Chromium: a reader's own Japanese and
// Polish text shown as text (Before/After, the three metadata levels) while
// the wire keeps the service's escapes and says so once; counts in words
// from one place ("1 entity"); the filter's clause roles said once; a JSON
// body's big untyped integer warned of by the engine; an upsert offered on
// 409 EntityAlreadyExists; a batch numbered from 1 with no ticks on an
// empty queue; headers spelled as the service spells them; the theme
// button following the system's scheme; and, on a new visitor's profile,
// a lesson link opening without "Start here", whose lesson count is the
// menu's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser, firstVisitContext, sendOperation as send } from "./harness.js";
import { createTable, fillEntity } from "./remotepage.js";

const env = useBrowser({ before, after });

async function open(context, hash = "") {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + "/" + hash);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
  return { page, errors };
}

// addProperty fills property row n (adding it when missing).
async function addProperty(page, n, name, type, value) {
  if (await page.getByLabel(`Name of property ${n}`).count() === 0) await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel(`Name of property ${n}`).fill(name);
  await page.getByLabel(`Type of property ${n}`).selectOption(type);
  await page.getByLabel(`Value of property ${n}`).fill(value);
}

test("a reader's data, counts, clause roles, big integers, upserts, batches and headers read as a person expects", { timeout: 90_000 }, async () => {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(context);
  await createTable(page, "Mixed");

  // Japanese and Polish values: text in Before/After and the three levels.
  await fillEntity(page, "p", "r", "テスト");
  await addProperty(page, 2, "City", "Edm.String", "Łódź, Zoë");
  assert.match(await send(page, "insert"), /201 Created/);
  await page.getByLabel("Value of property 1").fill("テスト、二回目");
  assert.match(await send(page, "replace", "current"), /204 No Content/);
  const [before, afterText] = [await page.locator("#before").innerText(), await page.locator("#after").innerText()];
  assert.match(before, /"Note": "テスト"/);
  assert.match(afterText, /"Note": "テスト、二回目"/);
  assert.match(afterText, /"City": "Łódź, Zoë"/);
  for (const text of [before, afterText]) assert.doesNotMatch(text, /\\u[0-9a-f]{4}/i);
  await page.getByRole("button", { name: "Load p / r into the editor" }).click();
  const levels = page.locator("#levels pre");
  await page.locator("#levels pre", { hasText: "Łódź" }).nth(2).waitFor();
  assert.equal(await levels.count(), 3);
  for (const text of await levels.allInnerTexts()) {
    assert.match(text, /テスト、二回目/);
    assert.doesNotMatch(text, /\\u[0-9a-f]{4}/i);
  }
  // The wire keeps the bytes as the service wrote them, and says so once.
  await send(page, "get");
  assert.match(await page.locator("#exchanges article").first().innerText(), /\\u30c6\\u30b9\\u30c8/);
  assert.match(await page.locator("#wire-escapes").innerText(), /^Bodies here keep the characters as sent, indented for reading: like the service, the wire writes each non-ASCII character in JSON as a \\u escape\.$/);
  assert.equal(await page.locator("#wire-escapes").count(), 1);
  await page.screenshot({ path: path.join(env.artifacts, "behaviour-text.png"), fullPage: true });

  // One entity is "1 entity".
  assert.match(await page.locator("#entity-list .list-count").innerText(), /^1 of 1 entity$/);

  // The clause's role is said once.
  await page.locator("#filter").fill("PartitionKey eq 'p'");
  const clause = page.locator("#filter-explain li.clause").first();
  await clause.waitFor();
  assert.match(await clause.innerText(), /^PartitionKey eq 'p' narrows the key range: Only entities with/);
  assert.doesNotMatch(await clause.innerText(), /key range: narrows the key range/i);

  // Headers as the service spells them: a page of one of two entities.
  // (The loaded entity's rows are City, then Note: both are set again.)
  await fillEntity(page, "p", "r2", "second");
  await addProperty(page, 2, "City", "Edm.String", "Kraków");
  assert.match(await send(page, "insert"), /201 Created/);
  await page.locator("#filter").fill("");
  await page.locator("#top").fill("1");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-summary .figures").waitFor();
  const query = await page.locator("#exchanges article").first().innerText();
  assert.match(query, /^x-ms-continuation-NextPartitionKey: /m);
  assert.match(query, /^x-ms-continuation-NextRowKey: /m);
  assert.match(query, /^ETag: |^Content-Type: /m);
  assert.doesNotMatch(query, /X-Ms-|Nextpartitionkey/);

  // 409 EntityAlreadyExists offers the writes that overwrite.
  await fillEntity(page, "p", "r2", "again");
  await addProperty(page, 2, "City", "Edm.String", "Kraków");
  assert.match(await send(page, "insert"), /409 Conflict/);
  const hint = page.locator("#op-answer .upsert-hint");
  assert.match(await hint.innerText(), /Insert never overwrites: to write over it, use Insert or replace \(upsert\) · Replace/);
  await hint.getByRole("button", { name: "Insert or replace (upsert)" }).click();
  assert.equal(await page.getByLabel("Operation", { exact: true }).inputValue(), "insertOrReplace");
  assert.match(await send(page, "insertOrReplace"), /204 No Content/);

  // A JSON body's untyped 9007199254740993: the engine says what is stored.
  await page.getByLabel("JSON body", { exact: true }).check();
  await page.getByLabel("OData entity body (JSON)").fill('{"PartitionKey":"p","RowKey":"big","Big":9007199254740993}');
  const warned = page.locator("#entity-cards .note", { hasText: "Big is the whole number" });
  await warned.waitFor();
  assert.match(await warned.innerText(), /a Double cannot hold it: 9007199254740992 is stored, not 9007199254740993\. To keep it an integer, send "Big": "9007199254740993" with "Big@odata\.type": "Edm\.Int64"\./);
  await page.getByLabel("Form", { exact: true }).check();

  // The batch: no ticks on an empty queue, operations counted from 1.
  assert.equal(await page.locator("#batch-rules li.ok").count(), 0);
  assert.match(await page.locator("#batch-rules").innerText(), /The queue is empty/);
  await page.getByLabel("Operation", { exact: true }).selectOption("insert");
  await fillEntity(page, "b", "1", "one");
  await addProperty(page, 2, "City", "Edm.String", "Gdańsk");
  await page.getByRole("button", { name: /^Add to batch/ }).click();
  await page.getByLabel("RowKey").fill("1");
  await page.getByRole("button", { name: /^Add to batch/ }).click();
  assert.match(await page.locator("#op-answer").innerText(), /insert as operation 2 of the batch \(2 queued\)/);
  assert.equal(await page.getByRole("button", { name: "Remove operation 1: insert b / 1" }).count(), 1);
  assert.ok(await page.locator("#batch-rules li.ok").count() > 0, "a queued write meets rules");
  await page.getByRole("button", { name: /^Submit transaction/ }).click();
  await page.locator("#batch-result .failed-note").waitFor();
  const failed = (await page.locator("#batch-result .failed-note").innerText()).match(/failed at operation (\d+) \(index (\d+) in the service's answer\): \d{3} [\w ]+ · InvalidDuplicateRow/);
  assert.ok(failed, await page.locator("#batch-result").innerText());
  assert.equal(Number(failed[1]), Number(failed[2]) + 1);
  assert.equal(await page.locator("#batch-answer").innerText(), "", "the failure is said once, in the picture's caption");
  assert.deepEqual(await page.locator("#batch-result .op-index").allInnerTexts(), ["1", "2"]);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a new visitor's lesson link opens the lesson, not Start here; Start here counts the menu's lessons; the theme button follows the system", { timeout: 60_000 }, async () => {
  const linked = await firstVisitContext(env.browser, { viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(linked, "#lesson=etags&step=1");
  assert.equal(await page.locator("#start-here").isVisible(), false, "Start here shows over a lesson link");
  assert.equal(await page.locator("body").getAttribute("data-start"), null);
  await linked.close();

  const fresh = await firstVisitContext(env.browser, { viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  const first = await open(fresh);
  await first.page.locator("#start-here").waitFor();
  const lessons = await first.page.evaluate(() => window.tableplay.lessons().length);
  assert.ok(lessons > 1);
  assert.match(await first.page.locator("#start-here").innerText(), new RegExp(`Take a lesson\\. ${lessons} lessons, short, each step run by the engine\\.`));
  assert.match(await first.page.locator("#lessons summary").innerText(), new RegExp(`${lessons} guided walks`));
  // The system's scheme changes: the button offers the other one.
  const button = first.page.locator("#theme-toggle");
  assert.equal(await button.innerText(), "Dark theme");
  await first.page.emulateMedia({ colorScheme: "dark" });
  await first.page.waitForFunction(() => document.getElementById("theme-toggle").textContent === "Light theme");
  assert.equal(await button.getAttribute("aria-pressed"), "true");
  await first.page.emulateMedia({ colorScheme: "light" });
  await first.page.waitForFunction(() => document.getElementById("theme-toggle").textContent === "Dark theme");
  assert.deepEqual([...errors, ...first.errors], []);
  await fresh.close();
});
