// e2e/connect.test.js is responsible for testing the page as a client of an
// endpoint elsewhere: connected to `tableplay serve` (the native server on a
// free loopback port), the same panels send their requests over the network
// and the wire view shows the real exchange; a second browser sees the
// first's writes appear and a stale ETag gets 412; the key and SAS stay out
// of storage, links, exports and the address bar; "Compare with the engine"
// marks where the endpoint's answer and the tab's differ; a bad endpoint is
// said plainly.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { useBrowser, startServer, assertNamed, sendOperation } from "./harness.js";
import { createTable, fillEntity, insert, stored, race } from "./remotepage.js";

const env = useBrowser({ before, after });
const WELL_KNOWN_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

async function open(url = env.server.url + "/", options = {}) {
  const context = await env.context({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Every request the page sends to the server's Table API.
  const sent = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/devstoreaccount1")) sent.push(`${r.method()} ${r.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return { page, context, errors, sent };
}

// connect opens the Connect panel and connects to the tableplay serve at
// endpoint (the page's own server when empty), with the key typed when
// given (else the well-known one).
async function connect(page, { endpoint = "", key = "" } = {}) {
  if (await page.locator("#connect-panel").isHidden()) await page.getByRole("button", { name: "Connect", exact: true }).click();
  await page.getByLabel("tableplay serve").check();
  await page.getByLabel("Table endpoint").fill(endpoint);
  await page.getByLabel("Account key").fill(key);
  await page.evaluate(() => document.querySelector("#connect-answer").replaceChildren());
  await page.getByRole("button", { name: "Connect to this endpoint" }).click();
  await page.waitForFunction(() => /Connected|Not connected/.test(document.querySelector("#connect-answer")?.textContent ?? ""));
  return page.locator("#connect-answer").innerText();
}

const send = sendOperation;

// tabTables lists the tables of the engine in the tab itself.
const tabTables = (page) => page.evaluate(() => JSON.parse(window.tableplay.run({ kind: "listTables" }).response.body).value.map((t) => t.TableName));

// accountSAS signs an account SAS for the Table service with the well-known
// key, as the portal or az storage account generate-sas would.
function accountSAS(permissions = "rwdlacu") {
  const iso = (d) => d.toISOString().replace(/\.\d+Z$/, "Z");
  const p = { sv: "2019-02-02", ss: "t", srt: "sco", sp: permissions, st: iso(new Date(Date.now() - 60_000)), se: iso(new Date(Date.now() + 3_600_000)), spr: "https,http" };
  const sts = ["devstoreaccount1", p.sp, p.ss, p.srt, p.st, p.se, "", p.spr, p.sv].join("\n") + "\n";
  const sig = createHmac("sha256", Buffer.from(WELL_KNOWN_KEY, "base64")).update(sts).digest("base64");
  return new URLSearchParams({ ...p, sig }).toString();
}

// slowly has the page's requests whose address matches pattern answered
// 1.5 s late (a far or busy endpoint). answered() resolves, once one of them
// was answered and nothing the page asked is pending twice in a row, with
// whether one was answered.
async function slowly(page, pattern) {
  let late = 0;
  let pending = 0;
  await page.route((url) => pattern.test(decodeURIComponent(url.href)), async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue().catch(() => {});
  });
  page.on("request", () => pending++);
  page.on("requestfinished", (r) => {
    pending--;
    if (pattern.test(decodeURIComponent(r.url()))) late++;
  });
  page.on("requestfailed", () => pending--);
  return {
    async answered() {
      for (let i = 0, quiet = 0; i < 100 && quiet < 2; i++) {
        await new Promise((r) => setTimeout(r, 150));
        quiet = late > 0 && pending === 0 ? quiet + 1 : 0;
      }
      return late > 0;
    },
  };
}

test("connected to tableplay serve, the panels create, insert and query over the network, and the wire shows the real exchange", async () => {
  const { page, context, errors, sent } = await open();
  assert.match(await connect(page), /Connected · http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1 answers/);
  assert.equal(await page.locator("body").getAttribute("data-target"), "remote");
  assert.match(await page.locator("#connect-target").innerText(), /Target: http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1 as devstoreaccount1, with its key/);
  await createTable(page, "Remote");
  const created = await page.locator("#exchanges article").first();
  assert.equal(await created.getAttribute("data-remote"), "true");
  const text = await created.innerText();
  assert.match(text, /Sent over the network to http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1/);
  assert.match(text, /POST http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/Tables HTTP\/1\.1/);
  assert.match(text, /Authorization: SharedKeyLite devstoreaccount1:[A-Za-z0-9+/]{43}=/);
  assert.match(text, /HTTP\/1\.1 201 Created/);
  // The native server's answer, as the browser received it.
  assert.match(text, /x-ms-request-id: /i);
  // The table is at the server, not in the tab's engine.
  assert.ok(sent.some((s) => /^POST .*\/devstoreaccount1\/Tables$/.test(s)), sent.join("\n"));
  assert.deepEqual(await tabTables(page), []);

  assert.match(await insert(page, "p", "r1", "over the wire"), /HTTP\/1\.1 201 Created/);
  await page.locator("#entity-list", { hasText: "Note = over the wire" }).waitFor();
  assert.match(await page.locator("#entity-list").innerText(), /1 entity\n[\s\S]*r1[\s\S]*Note = over the wire/);
  await page.locator("#filter").fill("Note eq 'over the wire'");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-summary .figures").waitFor();
  assert.match(await page.locator("#query-summary").innerText(), /1 returned/);
  // Rows off screen are not laid out (content-visibility: auto), and
  // innerText leaves out what is not laid out: read the text itself.
  assert.match(await page.locator("#query-results").textContent(), /over the wire/);
  assert.ok(sent.some((s) => /^GET .*\/devstoreaccount1\/Remote\(\)\?.*Note/.test(s)), sent.join("\n"));

  // A transaction that fails at its second insert: the server's answer
  // names it, and nothing of it is at the server.
  await page.getByLabel("RowKey").fill("r2");
  await page.getByRole("button", { name: "Add to batch" }).click();
  await page.getByLabel("RowKey").fill("r1");
  await page.getByRole("button", { name: /^Add to batch/ }).click();
  await page.getByRole("button", { name: /^Submit transaction/ }).click();
  await page.locator("#batch-result .failed-note").waitFor();
  assert.match(await page.locator("#batch-result").innerText(), /failed at operation 2 \(index 1 in the service's answer\): 409 Conflict · EntityAlreadyExists[\s\S]*the endpoint rolled it back/);
  await page.locator("#entity-list .list-count").waitFor();
  assert.doesNotMatch(await page.locator("#entity-list").innerText(), /r2/);
  assert.ok(sent.some((s) => /^POST .*\/devstoreaccount1\/\$batch$/.test(s)), sent.join("\n"));

  // The code for the exchange runs against the server, with its key.
  // Exchanges are numbered as they arrive: the newest after this query's is
  // its own, so the Code view opened is this query's, not an earlier one's.
  const newest = () => page.evaluate(() => Number(document.querySelector("#exchanges article")?.dataset.exchange ?? 0));
  const before = await newest();
  await page.locator("#filter").fill("RowKey eq 'r1'");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.waitForFunction((n) => {
    const first = document.querySelector("#exchanges article");
    return Number(first?.dataset.exchange ?? 0) > n && /query/.test(first.querySelector("h3")?.textContent ?? "");
  }, before);
  const article = page.locator(`#exchanges article[data-exchange="${await newest()}"]`);
  await article.locator("summary", { hasText: "Code" }).click();
  await article.getByLabel("Language").selectOption("python");
  const code = await article.locator("pre.code").innerText();
  assert.ok(code.includes(`TableEndpoint=${env.server.url}/devstoreaccount1`), code);
  assert.ok(code.includes("AccountKey=" + WELL_KNOWN_KEY), code);

  // The profile picker is the tab's engine's: it waits while the endpoint answers.
  assert.equal(await page.getByLabel("Answer as", { exact: true }).isDisabled(), true);
  assert.match(await page.locator("#target-note").innerText(), /Connected: http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1 answers as itself/);

  // Disconnecting puts the engine in the tab back.
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.waitForFunction(() => document.body.dataset.target === "engine");
  assert.equal(await page.getByLabel("Answer as", { exact: true }).isDisabled(), false);
  assert.equal(await page.locator("#target-note").innerText(), "");
  assert.equal(await page.locator("#table-list").innerText(), "");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a second browser connected to the same server sees the first's writes appear, and its stale ETag gets 412", async () => {
  const a = await open();
  const b = await open();
  await connect(a.page);
  await connect(b.page);
  // A's new table and entity appear in B without B doing anything; B's
  // stale ETag gets 412.
  await race(a.page, b.page, "Shared");
  // The server kept A's write.
  await a.page.getByLabel("Operation", { exact: true }).selectOption("get");
  assert.match(await send(a.page, "get"), /"Note":\s*"second"/);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});

test("a room link connects with its SAS, and neither the SAS nor a key lands in the address bar, storage, a share link or an export", async () => {
  const sas = accountSAS();
  const sig = new URLSearchParams(sas).get("sig");
  const endpoint = env.server.url + "/devstoreaccount1";
  const link = `${env.server.url}/#connect=${encodeURIComponent(endpoint)}&sas=${encodeURIComponent(sas)}`;
  const { page, context, errors } = await open(link);
  await page.waitForFunction(() => document.body.dataset.target === "remote");
  assert.equal(await page.evaluate(() => location.href), env.server.url + "/");
  assert.match(await page.locator("#connect-target").innerText(), /as devstoreaccount1, with its SAS/);
  await createTable(page, "Roomy");
  const created = await page.locator("#exchanges article").first().innerText();
  assert.match(created, /201 Created/);
  assert.ok(created.includes("sig="), "the SAS request carries its signature on the wire");
  assert.doesNotMatch(created, /Authorization:/);
  await insert(page, "p", "r", "in a room");
  // The code for a room uses the room's endpoint and SAS.
  const article = page.locator("#exchanges article").first();
  await article.locator("summary", { hasText: "Code" }).click();
  await article.getByLabel("Language").selectOption("javascript");
  const code = await article.locator("pre.code").innerText();
  assert.ok(code.includes(`TableEndpoint=${endpoint};SharedAccessSignature=${sas}`), code);
  assert.doesNotMatch(code, /AccountKey/);
  // A key typed in is cleared from the form once the engine holds it.
  await connect(page, { key: WELL_KNOWN_KEY });
  assert.equal(await page.getByLabel("Account key").inputValue(), "");
  await page.getByRole("button", { name: "Share link" }).click();
  // The link is made asynchronously: read it once it is there, so the check
  // below looks at a real link, not an empty field.
  await page.waitForFunction(() => document.getElementById("share-link")?.value.includes("#w="));
  const share = await page.locator("#share-link").inputValue();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const exported = readFileSync(await (await download).path(), "utf8");
  const kept = await stored(page);
  for (const [where, text] of [["the share link", share], ["the export", exported], ["storage", kept], ["the address bar", await page.evaluate(() => location.href)]]) {
    for (const secret of [sig, encodeURIComponent(sig), WELL_KNOWN_KEY, "sig="]) assert.ok(!text.includes(secret), `${where} holds ${secret}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a room link pasted into the address bar of the open page leaves it at once and connects", async () => {
  const sas = accountSAS();
  const sig = new URLSearchParams(sas).get("sig");
  const endpoint = env.server.url + "/devstoreaccount1";
  const { page, context, errors } = await open();
  await page.evaluate((hash) => (location.hash = hash), `connect=${encodeURIComponent(endpoint)}&sas=${encodeURIComponent(sas)}`);
  await page.waitForFunction(() => document.body.dataset.target === "remote", null, { timeout: 10_000 });
  assert.equal(await page.evaluate(() => location.href), env.server.url + "/");
  assert.match(await page.locator("#connect-target").innerText(), /as devstoreaccount1, with its SAS/);
  for (const secret of [sig, encodeURIComponent(sig)]) assert.ok(!(await page.evaluate(() => location.href)).includes(secret));
  assert.deepEqual(errors, []);
  await context.close();
});

test("the three levels show the entity loaded last, though the endpoint answers an earlier one later", async () => {
  const { page, context, errors } = await open();
  await connect(page);
  await createTable(page, "Levels");
  await insert(page, "p", "r1", "first");
  await insert(page, "p", "r2", "second");
  await page.locator("#entity-list", { hasText: "Note = second" }).waitFor();
  // The endpoint is slow to answer for r1 (a far endpoint, a busy one).
  const slow = await slowly(page, /RowKey='r1'/);
  await page.getByRole("button", { name: "Load p / r1 into the editor" }).click();
  await page.getByRole("button", { name: "Load p / r2 into the editor" }).click();
  assert.ok(await slow.answered(), "r1's answer came");
  const levels = await page.locator("#levels pre").allInnerTexts();
  assert.equal(levels.length, 3);
  for (const text of levels) {
    assert.match(text, /"RowKey": "r2"/);
    assert.doesNotMatch(text, /r1/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a query the endpoint answers after another table was selected is not shown under that table", async () => {
  const { page, context, errors } = await open();
  await connect(page);
  await createTable(page, "Early");
  await insert(page, "p", "r1", "from early");
  // A second table (the wire's "Copy the createTable …" buttons also say Create).
  await page.getByLabel("New table name").fill("Later");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Later", exact: true }).waitFor();
  await page.getByRole("button", { name: "Early", exact: true }).click();
  await page.locator("#entity-list", { hasText: "Note = from early" }).waitFor();
  const slow = await slowly(page, /\/Early\(\)/);
  await page.getByRole("button", { name: "Run query" }).click();
  await page.getByRole("button", { name: "Later", exact: true }).click();
  assert.ok(await slow.answered(), "Early's answer came");
  assert.equal(await page.locator("#query-table").innerText(), "in Later");
  assert.doesNotMatch(await page.locator("#query-panel").innerText(), /from early|returned/);
  // The exchange itself is on the wire, as it happened.
  assert.match(await page.locator("#exchanges").innerText(), /query · Early/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a connect the endpoint answers after a newer one began is dropped: the newer connection stays", async () => {
  const sas = accountSAS();
  const endpoint = env.server.url + "/devstoreaccount1";
  const { page, context, errors } = await open();
  // The key's first read is slow; the SAS's (with sig= after it) is not.
  const slow = await slowly(page, /\/Tables\?\$top=1$/);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await page.getByLabel("tableplay serve").check();
  await page.getByRole("button", { name: "Connect to this endpoint" }).click();
  await page.evaluate((hash) => (location.hash = hash), `connect=${encodeURIComponent(endpoint)}&sas=${encodeURIComponent(sas)}`);
  await page.waitForFunction(() => /with its SAS/.test(document.querySelector("#connect-target")?.textContent ?? ""));
  assert.ok(await slow.answered(), "the key's read was answered");
  assert.match(await page.locator("#connect-target").innerText(), /as devstoreaccount1, with its SAS/);
  assert.equal(await page.locator("body").getAttribute("data-target"), "remote");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a check of the endpoint that answers after the watch stopped says nothing and schedules no other", async () => {
  const { page, context, errors } = await open();
  const seen = await page.evaluate(async () => {
    const { watchChanges } = await import("/web/remote.js");
    let answer;
    let runs = 0;
    const engine = {
      remote: { endpoint: "http://127.0.0.1:9/devstoreaccount1" },
      run: () => {
        runs++;
        return new Promise((resolve) => (answer = resolve));
      },
    };
    const states = [];
    const changes = [];
    const watch = watchChanges(engine, (c) => changes.push(c), { select: () => null, onState: (s) => states.push(s) });
    // The first check comes after a few seconds.
    for (let i = 0; i < 100 && !answer; i++) await new Promise((r) => setTimeout(r, 100));
    watch.stop();
    const before = states.length;
    answer({ response: { status: 200, body: "{\"value\":[]}" } });
    await new Promise((r) => setTimeout(r, 100));
    return { after: states.slice(before), changes, runs };
  });
  assert.deepEqual(seen, { after: [], changes: [], runs: 1 });
  assert.deepEqual(errors, []);
  await context.close();
});

test("Send anyway to an endpoint that does not answer says so beside Send", async () => {
  const { page, context, errors } = await open();
  await connect(page);
  await createTable(page, "Anyway");
  await fillEntity(page, "p", "a/b", "blocked");
  await send(page, "insert");
  assert.match(await page.locator("#op-answer .answer").innerText(), /^Not sent · /);
  assert.match(await page.locator("#exchanges article").first().innerText(), /^insert · Anyway\s+Not sent to http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\.\s+the entity breaks a rule/);
  // Sent anyway, the endpoint's own 400 shows.
  await page.getByRole("button", { name: "Send anyway" }).click();
  await page.locator("#op-answer .answer", { hasText: "400" }).waitFor();
  assert.match(await page.locator("#op-answer .answer").innerText(), /^400 Bad Request · OutOfRangeInput · The 'RowKey' parameter of value 'a\/b' is out of range\./);
  await send(page, "insert");
  // The endpoint is gone by the time the person sends anyway.
  await page.route((url) => url.pathname.endsWith("/Anyway"), (route) => route.abort());
  await page.getByRole("button", { name: "Send anyway" }).click();
  await page.locator("#op-answer .answer", { hasText: "No answer from" }).waitFor();
  assert.match(await page.locator("#op-answer .answer").innerText(), /^Not sent · No answer from http:\/\/127\.0\.0\.1:\d+: nothing is listening there/);
  assert.match(await page.locator("#exchanges article").first().innerText(), /insert · Anyway\s+Sent over the network to http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1: no answer came\.\s+No answer from/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Make a lesson from this disconnects first: what is recorded runs in the tab, not at the endpoint", async () => {
  const { page, context, errors, sent } = await open();
  await connect(page);
  await createTable(page, "AtServer");
  await page.locator(".lessons-box > summary").click();
  await page.getByRole("button", { name: "Make a lesson from this" }).click();
  await page.getByRole("heading", { name: "Making a lesson" }).waitFor();
  await page.waitForFunction(() => document.body.dataset.target === "engine");
  const before = sent.length;
  await page.getByLabel("New table name").fill("Recorded");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Recorded", exact: true }).waitFor();
  assert.deepEqual(sent.slice(before).filter((s) => /\/Tables$/.test(s) && s.startsWith("POST")), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a workspace link opened while connected disconnects first and shows the link's tables", async () => {
  const { page, context, errors } = await open();
  await page.getByLabel("New table name").fill("Linked");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("button", { name: "Share link" }).click();
  await page.waitForFunction(() => document.getElementById("share-link")?.value.includes("#w="));
  const link = await page.locator("#share-link").inputValue();
  await page.getByRole("button", { name: "Reset" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset" }).click();
  await page.waitForFunction(() => !document.querySelector("#table-list button.select"));
  await connect(page);
  await page.evaluate((hash) => (location.hash = hash), new URL(link).hash);
  await page.waitForFunction(() => document.body.dataset.target === "engine");
  await page.getByRole("button", { name: "Linked", exact: true }).waitFor();
  assert.equal(await page.locator("#shared-session").isHidden(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Compare with the engine: the same answer on a copy of the endpoint's table, the differences on the tab's own account", async () => {
  const { page, context, errors } = await open();
  await connect(page);
  await createTable(page, "Compared");
  // A write's comparison says it sends the write again; a read's does not.
  assert.match(await insert(page, "p", "r1", "only at the server"), /Compare with the engine[\s\S]*sends the write to the endpoint again/);
  await page.locator("#filter").fill("PartitionKey eq 'p'");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-summary .figures").waitFor();
  const article = page.locator("#exchanges article").first();
  assert.match(await article.locator("h3").innerText(), /query · Compared/);
  assert.doesNotMatch(await article.innerText(), /sends the write/);
  await article.getByRole("button", { name: "Compare with the engine" }).click();
  const result = article.locator(".comparison");
  await result.waitFor();
  assert.equal(await result.getAttribute("data-same"), "true", await result.innerText());
  assert.match(await result.innerText(), /Same answer · endpoint 200, engine 200 \(on a copy of the endpoint's table\)[\s\S]*expected/);
  // The entity's Timestamp and ETag are the copy's own: expected, not a difference.
  assert.match(await result.locator("tr.expected").allInnerTexts().then((t) => t.join("\n")), /Timestamp|odata\.etag/);
  // The tab's own account lacks the table: the engine answers 404.
  await article.getByLabel("The engine's state").selectOption("tab");
  await article.getByRole("button", { name: "Compare with the engine" }).click();
  await page.waitForFunction((el) => el.querySelector(".comparison")?.dataset.same === "false", await article.elementHandle());
  const differs = await article.locator(".comparison").innerText();
  assert.match(differs, /endpoint 200, engine 404 \(on a copy of this tab's account\)/);
  assert.match(differs, /status\s+differs\s+200 OK\s+404 Not Found/);
  assert.match(differs, /code\s+differs\s+\(none\)\s+TableNotFound/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("an exchange's Compare after Disconnect is refused: it never runs the operation in the tab's own account", async () => {
  const { page, context, errors } = await open();
  await connect(page);
  await createTable(page, "GoneAway");
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.waitForFunction(() => document.body.dataset.target === "engine");
  const article = page.locator("#exchanges article", { hasText: "createTable · GoneAway" }).first();
  await article.getByRole("button", { name: "Compare with the engine" }).click();
  await article.locator(".comparison").waitFor();
  assert.match(await article.locator(".comparison").innerText(), /Not compared: this exchange went to http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1, and the page is not connected there now/);
  assert.equal(await page.locator("#status").innerText(), "Not compared with the engine: the exchange says why.");
  // The create was not sent to the engine in the tab.
  assert.deepEqual(await tabTables(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a bad endpoint, a wrong key and a non-URL are each refused with a clear message, and the tab's engine stays the target", async () => {
  const { page, context, errors } = await open();
  const closed = await startServer();
  await closed.stop();
  const gone = new URL(closed.url).origin;
  assert.match(await connect(page, { endpoint: gone + "/devstoreaccount1" }),
    new RegExp(`Not connected · No answer from ${gone.replace(/\./g, "\\.")}: nothing is listening there, the address is wrong, or it does not allow this page \\(${env.server.url.replace(/\./g, "\\.")}\\) by CORS`));
  assert.match(await connect(page, { key: "AAAA" }), /Not connected · 403 Forbidden · AuthenticationFailed[\s\S]*Check the key or SAS/);
  assert.match(await connect(page, { endpoint: "127.0.0.1:10002" }), /Not connected · the endpoint must be an http:\/\/ or https:\/\/ URL/);
  assert.equal(await page.locator("body").getAttribute("data-target"), "engine");
  assert.match(await page.locator("#connect-target").innerText(), /the engine in this tab/);
  assert.deepEqual(errors, []);
  await context.close();
});

// signed sends a request to a server's well-known account signed with
// Shared Key Lite, as any SDK would (a test's own client).
function signed(base, method, pathAndQuery, body, type) {
  const url = new URL(base + pathAndQuery);
  const date = new Date().toUTCString();
  const comp = url.searchParams.get("comp");
  const sts = `${date}\n/devstoreaccount1${url.pathname}${comp ? "?comp=" + comp : ""}`;
  const sig = createHmac("sha256", Buffer.from(WELL_KNOWN_KEY, "base64")).update(sts).digest("base64");
  const headers = { "x-ms-date": date, "x-ms-version": "2019-02-02", Accept: "application/json;odata=nometadata", Authorization: `SharedKeyLite devstoreaccount1:${sig}` };
  if (type) headers["Content-Type"] = type;
  return fetch(url, { method, body, headers });
}

test("an endpoint whose answer passes 32 MiB is cut off there, with a message", async () => {
  // A hostile endpoint: it allows any origin, then streams 40 MiB.
  const hostile = createServer((req, res) => {
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*", "Access-Control-Allow-Methods": "*" };
    if (req.method === "OPTIONS") return res.writeHead(200, cors).end();
    res.writeHead(200, { ...cors, "Content-Type": "application/json" });
    const chunk = Buffer.alloc(1 << 20, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 40 && res.write(chunk)) sent++;
      if (sent >= 40) res.end();
      else res.once("drain", () => { sent++; more(); });
    };
    more();
  });
  await new Promise((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  try {
    const { page, context, errors } = await open();
    const endpoint = `http://127.0.0.1:${hostile.address().port}/devstoreaccount1`;
    assert.match(await connect(page, { endpoint }), /Not connected · http:\/\/127\.0\.0\.1:\d+ sent an answer over 32 MiB: the page stopped reading it\./);
    assert.equal(await page.locator("body").getAttribute("data-target"), "engine");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    hostile.closeAllConnections();
    hostile.close();
  }
});

test("an endpoint whose answer breaks off is said plainly, and the tab's engine stays the target", async () => {
  // It allows any origin, sends the headers and part of a body, then hangs up.
  const broken = createServer((req, res) => {
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*", "Access-Control-Allow-Methods": "*" };
    if (req.method === "OPTIONS") return res.writeHead(200, cors).end();
    res.writeHead(200, { ...cors, "Content-Type": "application/json", "Content-Length": "1000" });
    res.write('{"value":[', () => setTimeout(() => res.destroy(), 50));
  });
  await new Promise((resolve) => broken.listen(0, "127.0.0.1", resolve));
  try {
    const { page, context, errors } = await open();
    const endpoint = `http://127.0.0.1:${broken.address().port}/devstoreaccount1`;
    assert.match(await connect(page, { endpoint }), /Not connected · The answer from http:\/\/127\.0\.0\.1:\d+ broke off before its end\./);
    assert.equal(await page.locator("body").getAttribute("data-target"), "engine");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    broken.closeAllConnections();
    broken.close();
  }
});

test("an endpoint whose list of tables is malformed is refused before anything points there, and the target line tells the truth", async () => {
  // It allows any origin and answers every request 200 with the body of
  // the mode asked: the probe's list, or (mode "later") a good probe and
  // a malformed full list after it.
  let mode = "";
  const odd = createServer((req, res) => {
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*", "Access-Control-Allow-Methods": "*" };
    if (req.method === "OPTIONS") return res.writeHead(200, cors).end();
    const probe = /top=1/.test(req.url);
    const bodies = { value: '{"value":"x"}', cut: '{"value":[{"TableName":"a"}', nulls: '{"value":null}', html: "<html><body>hello</body></html>" };
    const body = mode === "later" ? (probe ? '{"value":[{"TableName":"a"}]}' : '{"value":"x"}') : bodies[mode];
    res.writeHead(200, { ...cors, "Content-Type": mode === "html" ? "text/html" : "application/json;odata=nometadata" }).end(body);
  });
  await new Promise((resolve) => odd.listen(0, "127.0.0.1", resolve));
  try {
    const { page, context, errors } = await open();
    const endpoint = `http://127.0.0.1:${odd.address().port}/devstoreaccount1`;
    for (const m of ["value", "cut", "nulls", "html", "later"]) {
      mode = m;
      const said = await connect(page, { endpoint });
      assert.match(said, m === "later" ? /Not connected · .*its answers cannot be read/ : /Not connected · 200 OK, but the list of tables .*not a Table endpoint's answer/, m);
      assert.equal(await page.locator("body").getAttribute("data-target"), "engine", m);
      assert.match(await page.locator("#connect-target").innerText(), /the engine in this tab/, m);
      // The forms send to the tab's engine: a table made now is the tab's.
      assert.equal(await page.evaluate(async () => (await window.tableplay.run({ kind: "createTable", table: "Here" + Date.now() })).response.status), 201, m);
    }
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    odd.closeAllConnections();
    odd.close();
  }
});

test("from another origin the page connects once the account's CORS rule allows it, and reads the exposed headers", async () => {
  const other = await startServer();
  try {
    const { page, context, errors } = await open();
    const endpoint = other.url + "/devstoreaccount1";
    // No rule yet: the browser gets no answer it may read, and says so.
    assert.match(await connect(page, { endpoint }), /Not connected · No answer from http:\/\/127\.0\.0\.1:\d+: [\s\S]*does not allow this page \(http:\/\/127\.0\.0\.1:\d+\) by CORS/);
    const rule = `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule><AllowedOrigins>${env.server.url}</AllowedOrigins><AllowedMethods>DELETE,GET,HEAD,MERGE,OPTIONS,PATCH,POST,PUT</AllowedMethods><AllowedHeaders>*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`;
    const set = await signed(other.url, "PUT", "/devstoreaccount1/?restype=service&comp=properties", rule, "application/xml");
    assert.equal(set.status, 202, await set.text());
    assert.match(await connect(page, { endpoint }), /Connected/);
    await createTable(page, "Across");
    assert.match(await insert(page, "p", "r", "cross-origin"), /201 Created[\s\S]*etag: W\/"datetime'/i);
    // The entity really is at the other server.
    const read = await signed(other.url, "GET", "/devstoreaccount1/Across(PartitionKey='p',RowKey='r')");
    assert.equal(read.status, 200);
    assert.equal((await read.json()).Note, "cross-origin");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    other.stop();
  }
});

test("the Connect panel is named, fits 320 px and reads in the dark theme", async () => {
  const { page, context, errors } = await open(undefined, { viewport: { width: 320, height: 800 }, colorScheme: "dark" });
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  assert.equal(await page.getByRole("button", { name: "Connect", exact: true }).getAttribute("aria-expanded"), "true");
  const panel = page.getByRole("region", { name: "Connect to an endpoint" });
  await panel.waitFor();
  for (const mode of ["A room link", "tableplay serve", "Azurite", "A storage account"]) {
    await page.getByLabel(mode).check();
    await assertNamed(panel.locator("input:visible, button:visible, select:visible"), 3);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 320, `${mode}: the page is ${wide} px wide at 320`);
  }
  // The CORS help names this page's origin and the az command.
  await page.getByText("Allowing this page (CORS)").click();
  assert.match(await page.locator("#connect-cors-text").innerText(), new RegExp(`az storage cors add --account-name <name> --services t[\\s\\S]*--origins ${env.server.url.replace(/\./g, "\\.")}`));
  const colors = await page.evaluate(() => {
    const s = getComputedStyle(document.getElementById("connect-panel"));
    return { fg: s.color, bg: s.backgroundColor };
  });
  assert.notEqual(colors.fg, colors.bg);
  assert.match(colors.bg, /rgb\((\d|[1-4]\d),/, "a dark panel in the dark theme");
  assert.deepEqual(errors, []);
  await context.close();
});
