// e2e/workspace.test.js is responsible for testing workspace links as a docs
// author and their readers use them: the link carries the whole workspace
// (tables, selected table, editor, query inputs, batch queue, metadata
// level); opening it is a temporary session that leaves the reader's saved
// account alone until Keep; the link stays in the address bar; Reset to link
// puts the workspace back; at 1280 and 390 px, light and dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { useBrowser } from "./harness.js";

const env = useBrowser({ before, after });
const shot = (name) => path.join(env.artifacts, `${process.env.SHOT_TAG ?? "after"}-${name}.png`);

async function open(context, url = env.server.url + "/") {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return page;
}

const tables = (page) => page.evaluate(() => tableplay.snapshot().tables.map((t) => t.name).sort());

// savedTables is what a new tab of the same browser starts from.
async function savedTables(context) {
  const other = await open(context);
  try {
    return await tables(other);
  } finally {
    await other.close();
  }
}

async function createTable(page, name) {
  await page.getByLabel("New table name").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name, exact: true }).waitFor();
}

// The author writes on a phone in dark, the reader reads on a desktop in
// light; the shared workspace is looked at in both.
test("a workspace link from 390 px, dark, to 1280 px, light: the whole workspace, a temporary session, Keep and Reset to link", async () => {
  const author = await env.context({ viewport: { width: 390, height: 900 }, colorScheme: "dark" });
  const page = await open(author);
  await page.getByRole("button", { name: "Load the sample" }).click();
  await page.getByRole("button", { name: "Users", exact: true }).waitFor();
  await page.getByRole("button", { name: "Users", exact: true }).click();
  await page.getByLabel("RowKey").fill("grace");
  await page.getByLabel("$filter").fill("Age gt 30");
  await page.getByLabel("$select").fill("Name,Age");
  await page.getByLabel("$top").fill("7");
  await page.getByRole("radio", { name: "Full" }).check();
  await page.getByLabel("Operation", { exact: true }).selectOption("insert");
  await page.getByRole("button", { name: "Add to batch" }).click();
  await page.getByRole("button", { name: "Share link" }).click();
  await page.locator("#share-box").waitFor();
  const link = await page.locator("#share-link").inputValue();
  assert.match(link, /#w=[A-Za-z0-9_-]+$/);

  // A reader with an account of their own.
  const reader = await env.context({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  const own = await open(reader);
  await createTable(own, "Mine");
  await own.close();
  assert.deepEqual(await savedTables(reader), ["Mine"]);
  const shared = await open(reader, link);
  // No question first: the workspace opens, as the link has it.
  assert.equal(await shared.locator("dialog[open]").count(), 0);
  await shared.getByRole("region", { name: "Shared workspace" }).waitFor();
  for (const [width, scheme] of [[390, "dark"], [1280, "light"]]) {
    await shared.setViewportSize({ width, height: 900 });
    await shared.emulateMedia({ colorScheme: scheme });
    await shared.waitForFunction((w) => window.innerWidth === w, width);
    await shared.screenshot({ path: shot(`workspace-${width}-${scheme}`) });
    const overflow = await shared.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `at ${width} px the shared workspace scrolls sideways by ${overflow} px`);
  }
  assert.deepEqual(await tables(shared), ["Products", "Users"]);
  assert.equal(await shared.getByRole("button", { name: "Users", exact: true }).getAttribute("aria-current"), "true");
  assert.equal(await shared.getByLabel("RowKey").inputValue(), "grace");
  assert.equal(await shared.getByLabel("$filter").inputValue(), "Age gt 30");
  assert.equal(await shared.getByLabel("$select").inputValue(), "Name,Age");
  assert.equal(await shared.getByLabel("$top").inputValue(), "7");
  assert.equal(await shared.getByRole("radio", { name: "Full" }).isChecked(), true);
  await shared.getByRole("button", { name: "Add to batch (1)" }).waitFor();
  assert.equal(shared.url(), link, "the link stays in the address bar");
  // Changes in the temporary session are not saved; the reader's account is as it was.
  await createTable(shared, "Scratch");
  assert.deepEqual(await savedTables(reader), ["Mine"]);
  // Reset to link puts the workspace back.
  await shared.getByRole("button", { name: "Reset to link" }).click();
  await shared.getByRole("button", { name: "Scratch", exact: true }).waitFor({ state: "detached" });
  assert.deepEqual(await tables(shared), ["Products", "Users"]);
  // Opening the link again gives the example again, not the reader's old state.
  await shared.reload();
  await shared.waitForSelector("body[data-ready=true]");
  assert.deepEqual(await tables(shared), ["Products", "Users"]);
  // Keep makes it the saved account.
  await shared.getByRole("button", { name: "Keep" }).click();
  await shared.getByRole("region", { name: "Shared workspace" }).waitFor({ state: "hidden" });
  for (let i = 0; i < 50 && JSON.stringify(await savedTables(reader)) !== '["Products","Users"]'; i++) await shared.waitForTimeout(100);
  assert.deepEqual(await savedTables(reader), ["Products", "Users"]);
  await author.close();
  await reader.close();
});

test("Leave goes back to the saved account", async () => {
  const author = await env.context();
  const page = await open(author);
  await createTable(page, "Linked");
  await page.getByRole("button", { name: "Share link" }).click();
  await page.locator("#share-box").waitFor();
  const link = await page.locator("#share-link").inputValue();
  const reader = await env.context();
  const own = await open(reader);
  await createTable(own, "Mine");
  // Pasted into the address bar of an open page (only the fragment changes).
  await own.goto(link);
  await own.getByRole("region", { name: "Shared workspace" }).waitFor();
  assert.deepEqual(await tables(own), ["Linked"]);
  await own.getByRole("button", { name: "Leave" }).click();
  await own.getByRole("button", { name: "Mine", exact: true }).waitFor();
  assert.deepEqual(await tables(own), ["Mine"]);
  assert.equal(new URL(own.url()).hash, "");
  await author.close();
  await reader.close();
});
