// e2e/quiet.test.js is responsible for testing that the editor is quiet
// until useful: new empty typed properties raise no red card until a field
// is changed, a card sits beside the field it concerns, Send shows every
// card the entity earns, and one Send announces one live-region message
// (the status and the code), not the wire log or the cards.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./harness.js";

const env = useBrowser({ before, after });

// cardGaps measures, for every visible rule card beside a field, the
// distance from its field's bottom to the card's top.
function cardGaps(page) {
  return page.evaluate(() => {
    const out = [];
    const visible = (c) => c.getBoundingClientRect().height > 0;
    for (const c of [...document.querySelectorAll("#pk-cards .card, #rk-cards .card")].filter(visible)) {
      const field = c.closest(".field").querySelector("input").getBoundingClientRect();
      out.push({ field: c.closest(".field").querySelector("input").id, gap: c.getBoundingClientRect().top - field.bottom });
    }
    for (const row of document.querySelectorAll("#prop-rows tr.card-row")) {
      const tr = row.previousElementSibling;
      const field = tr.querySelector(".prop-value").getBoundingClientRect();
      for (const c of [...row.querySelectorAll(".card")].filter(visible)) out.push({ field: tr.querySelector(".prop-name").getAttribute("aria-label"), gap: c.getBoundingClientRect().top - field.bottom });
    }
    return out;
  });
}

const redCards = (page) => page.locator("#editor-panel .card").evaluateAll((cs) => cs.filter((c) => c.getBoundingClientRect().height > 0).length);

// gapsAt measures the cards' gaps at each width, on one page.
async function gapsAt(page) {
  const out = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForFunction((w) => window.innerWidth === w, width);
    out.push({ width, gaps: await cardGaps(page) });
  }
  return out;
}

test("at 1280 and 390 px: no red card until a field is touched, each beside its field; one Send, one announcement", async () => {
  const context = await env.context({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  await page.getByLabel("New table name").fill("People");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "People", exact: true }).click();
  await page.getByLabel("PartitionKey").fill("p");
  await page.getByLabel("RowKey").fill("r");
  // Eight empty properties of eight types: nothing filled in yet.
  const types = ["String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid", "Binary"];
  for (let i = 0; i < 8; i++) {
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByLabel(`Type of property ${i + 1}`).selectOption({ label: types[i] });
  }
  await page.waitForTimeout(400);
  assert.equal(await redCards(page), 0, "no red card before a field is touched");
  assert.equal(await page.locator('#editor-panel [aria-invalid="true"]').count(), 0, "no field marked before it is touched");
  const waiting = Number(await page.locator("#entity-cards .rules-summary").getAttribute("data-waiting"));
  assert.ok(waiting >= 8, `the Rules section counts the rules that wait (${waiting})`);
  assert.match(await page.locator("#entity-cards .rules-summary").innerText(), /not met yet by fields you have not filled in/);
  // Touch one field: its card, and only a card of that row, appears beside it.
  await page.getByLabel("Name of property 3").fill("Big");
  await page.getByLabel("Value of property 3").fill("12x");
  await page.locator("#prop-rows tr.card-row .card").first().waitFor();
  const touched = await gapsAt(page);
  for (const { width, gaps } of touched) {
    assert.ok(gaps.length >= 1 && gaps.every((g) => g.field === "Name of property 3"), `at ${width} px: ${JSON.stringify(gaps)}`);
    for (const g of gaps) assert.ok(g.gap >= -1 && g.gap <= 80, `at ${width} px, a card ${g.gap} px from ${g.field}`);
  }
  assert.equal(await page.getByLabel("Value of property 3").getAttribute("aria-invalid"), "true");
  assert.equal(await page.getByLabel("Value of property 4").getAttribute("aria-invalid"), "false");

  // One Send: every live region of the page is watched; exactly one
  // announces, once, with the status and the code.
  await page.evaluate(() => {
    window.announced = [];
    const regions = [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]')];
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        const region = (r.target.nodeType === 1 ? r.target : r.target.parentElement).closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]');
        if (region) window.announced.push(region.id || region.className);
      }
    });
    for (const n of regions) observer.observe(n, { childList: true, subtree: true, characterData: true });
    // Regions added later (an answer line with a role) count too.
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        if (n.nodeType === 1 && (n.matches('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]') || n.querySelector('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]'))) window.announced.push("new region: " + (n.id || n.className));
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.locator("#op-answer .answer").waitFor();
  await page.waitForTimeout(600);
  const announced = await page.evaluate(() => window.announced);
  assert.deepEqual(announced, ["status"], `live regions that spoke: ${announced.join(", ")}`);
  // The page does not send an entity the engine refuses; the one message says so.
  assert.match(await page.locator("#status").innerText(), /^insert: not sent · the entity breaks a rule: /);
  // After Send every card the entity earns is shown, each beside its field.
  assert.ok(await redCards(page) > 1);
  const sent = await gapsAt(page);
  for (const [i, { width, gaps }] of sent.entries()) {
    assert.ok(gaps.length > touched[i].gaps.length, `at ${width} px: ${JSON.stringify(gaps)}`);
    for (const g of gaps) assert.ok(g.gap >= -1 && g.gap <= 80, `at ${width} px, a card ${g.gap} px from ${g.field}`);
  }
  // A Send that writes (and is saved in this browser) is announced once
  // too, with its status: not the wire log, the entity list or the save.
  for (let i = 8; i >= 1; i--) await page.getByRole("button", { name: `Remove property ${i}` }).click();
  await page.locator("#entity-cards .ok-note").waitFor();
  await page.evaluate(() => {
    window.announced = [];
  });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.locator("#op-answer .answer.good").waitFor();
  await page.locator("#storage-status", { hasText: "Saved in this browser" }).waitFor();
  await page.waitForTimeout(600);
  assert.deepEqual(await page.evaluate(() => window.announced), ["status"]);
  assert.match(await page.locator("#status").innerText(), /^insert: 20[14] /);
  await context.close();
});
