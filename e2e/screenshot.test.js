// e2e/screenshot.test.js is responsible for the README's screenshot,
// docs/screenshot.png: it checks that the checked-in file is a PNG of the
// size the page is shot at and that the state it shows still renders on the
// page (a table, a typed entity in the editor, the insert on the wire, all
// in view). UPDATE_SCREENSHOT=1 rewrites the file from the page; no other
// run writes it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { useBrowser, root } from "./harness.js";

const env = useBrowser({ before, after });
const file = path.join(root, "docs", "screenshot.png");
const viewport = { width: 1280, height: 800 };
const update = process.env.UPDATE_SCREENSHOT === "1";

// pngSize reads a PNG's signature and its IHDR chunk: {width, height}, or
// an error for anything that is not a PNG.
function pngSize(bytes) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(signature)) throw new Error("not a PNG: bad signature");
  if (bytes.toString("latin1", 12, 16) !== "IHDR") throw new Error("not a PNG: no IHDR chunk first");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// inView reports whether an element is visible inside the viewport: whole,
// or with partly, its top and at least 200 px of it (a long exchange runs on
// below the fold).
const inView = (locator, partly = false) =>
  locator.evaluate((e, partly) => {
    const r = e.getBoundingClientRect();
    const across = r.width > 0 && r.left >= 0 && r.right <= window.innerWidth;
    const down = partly ? r.top >= 0 && Math.min(r.bottom, window.innerHeight) - r.top >= 200 : r.top >= 0 && r.bottom <= window.innerHeight;
    return across && r.height > 0 && down;
  }, partly);

// depict puts the page in the state the screenshot shows: a table, an entity
// with typed properties in the editor, its insert answered on the wire.
async function depict(page) {
  await page.getByLabel("New table name").fill("People");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "People", exact: true }).waitFor();
  await page.getByLabel("PartitionKey").fill("team");
  await page.getByLabel("RowKey").fill("ada");
  for (const [n, name, type, value] of [
    [1, "Visits", "Edm.Int64", "9223372036854775807"],
    [2, "Joined", "Edm.DateTime", "2021-06-09T01:17:13.2924321Z"],
    [3, "Score", "Edm.Double", "1.5"],
  ]) {
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByLabel(`Name of property ${n}`).fill(name);
    await page.getByLabel(`Type of property ${n}`).selectOption(type);
    await page.getByLabel(`Value of property ${n}`).fill(value);
  }
  await page.locator("#entity-cards .ok-note").waitFor();
  await page.getByLabel("Operation", { exact: true }).selectOption("insert");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("insert:"));
  await page.evaluate(() => window.scrollTo(0, 0));
}

test("docs/screenshot.png is a 1280×800 PNG of a page state that still renders", async () => {
  const context = await env.browser.newContext({ viewport, colorScheme: "light" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  await depict(page);

  // What the picture shows is on screen: the table, the editor's keys and
  // typed rows, and the insert's exchange in the wire view.
  assert.equal(await inView(page.getByRole("button", { name: "People", exact: true })), true, "the table is in view");
  assert.equal(await inView(page.getByLabel("PartitionKey")), true, "the editor's keys are in view");
  assert.equal(await inView(page.getByLabel("Type of property 1")), true, "a typed property row is in view");
  const exchange = page.locator("#exchanges article").first();
  assert.match(await exchange.innerText(), /HTTP\/1\.1 201 Created[\s\S]*"Visits@odata.type": "Edm.Int64"/);
  assert.equal(await inView(exchange, true), true, "the insert's exchange is in view");
  assert.deepEqual(errors, []);

  if (update) await page.screenshot({ path: file });
  assert.ok(existsSync(file), "docs/screenshot.png is missing: UPDATE_SCREENSHOT=1 node --test e2e/screenshot.test.js makes it");
  assert.deepEqual(pngSize(readFileSync(file)), viewport, "docs/screenshot.png is the viewport's size");
  await context.close();
});

test("pngSize refuses what is not a PNG", () => {
  assert.throws(() => pngSize(Buffer.from("GIF89a not a png at all, long enough to hold a header")), /bad signature/);
  assert.deepEqual(pngSize(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from("IHDR"),
    Buffer.from([0, 0, 5, 0, 0, 0, 3, 32, 8, 6, 0, 0, 0, 0, 0, 0, 0]),
  ])), { width: 1280, height: 800 });
});
