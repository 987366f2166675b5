// e2e/rooms.test.js is responsible for testing the page in a room, end to
// end: workerd serving workers/ (the Go entry, the room objects, the site;
// e2e/workerd.js) on a free loopback port, and Chromium. "Start a room" on
// the page the Worker serves creates a room, connects and shows the links to
// share; two browsers on one write link see each other's writes, a stale
// ETag gets 412 and a failing batch leaves nothing either sees; the read
// link reads and its writes get the service's 403; the page on another
// origin (tableplay serve) connects to a room by CORS; the generated code
// for a room runs against it with node.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { useBrowser, assertNamed, firstVisitContext, sendOperation as send } from "./harness.js";
import { startWorkerd, createRoom, workerdMissing } from "./workerd.js";
import { createTable, fillEntity, insert, stored, race } from "./remotepage.js";

const skip = workerdMissing() || false;
const env = useBrowser({ before, after });
let worker = null;
// workerd starts while the browser does (useBrowser's hook).
const starting = skip ? null : startWorkerd().catch((err) => err);

before(async () => {
  const started = await starting;
  if (started instanceof Error) throw started;
  worker = started;
});
after(async () => {
  await worker?.stop();
});

// open loads a page (a room link connects as it loads) and waits for the
// engine; connected waits for the room too.
async function open(url, options = {}) {
  const { fresh = false, ...rest } = options;
  // fresh: a new visitor's profile, nothing remembered (env.browser's
  // contexts are returning visitors).
  const context = await (fresh ? firstVisitContext(env.browser, { viewport: { width: 1280, height: 900 }, ...rest })
    : env.context({ viewport: { width: 1280, height: 900 }, ...rest }));
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
  return { page, context, errors };
}

async function connected(url, options) {
  const o = await open(url, options);
  await o.page.waitForFunction(() => /Connected|Not connected/.test(document.querySelector("#connect-answer")?.textContent ?? ""));
  assert.match(await o.page.locator("#connect-answer").innerText(), /^Connected/);
  return o;
}

// sasOf is a room link's SAS (the fragment's sas parameter).
const sasOf = (link) => new URLSearchParams(new URL(link).hash.slice(1)).get("sas");

// pageText is everything a page holds: its markup, its fields' values and
// what it stored.
const pageText = async (page) => (await page.evaluate(() => [document.documentElement.outerHTML,
  ...[...document.querySelectorAll("input, textarea")].map((i) => i.value)].join("\n"))) + "\n" + (await stored(page));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test("Start a room on the page the Worker serves: a room is created and connected, its links shown to copy, its key kept nowhere", { skip, timeout: 40_000 }, async (t) => {
  const { page, context, errors } = await open(worker.url + "/", { permissions: ["clipboard-read", "clipboard-write"] });
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  const start = page.getByRole("button", { name: "Start a room" });
  await start.waitFor();
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/rooms");
  const t0 = Date.now();
  await start.click();
  await page.locator("#connect-start-answer", { hasText: "Room started" }).waitFor({ timeout: 20_000 });
  const ms = Date.now() - t0;
  t.diagnostic(`figure: Start a room → page connected ${ms} ms`);
  const created = await (await answered).json();
  assert.equal(await page.locator("body").getAttribute("data-target"), "remote");
  assert.match(await page.locator("#connect-target").innerText(), new RegExp(`Target: ${worker.url.replace(/\./g, "\\.")}/${created.account} as ${created.account}, with its SAS`));
  // The links to share are the room's, each copied by its button; each
  // names the page's language (lang= in its query), so the class sees the
  // room in it.
  const shown = (link) => { const u = new URL(link); u.searchParams.set("lang", "en"); return u.href; };
  assert.equal(await page.getByLabel("Write link", { exact: true }).inputValue(), shown(created.writeLink));
  assert.equal(await page.getByLabel("Read link", { exact: true }).inputValue(), shown(created.readLink));
  await page.getByRole("button", { name: "Copy the read link" }).click();
  await page.waitForFunction(() => /read link is copied/.test(document.getElementById("status").textContent));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown(created.readLink));
  await page.getByRole("button", { name: "Copy the write link" }).click();
  // The copy is asynchronous: read the clipboard once the page says it is done.
  await page.waitForFunction(() => /write link is copied/.test(document.getElementById("status").textContent));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown(created.writeLink));
  // Each link has a QR code for a projector, drawn when opened; zbar (an
  // independent decoder) reads the read link's back from the screen.
  t.diagnostic(`figure: room links ${created.readLink.length} (read) and ${created.writeLink.length} (write) characters`);
  await page.locator("#room-read-link-qr summary").click();
  const shot = path.join(env.artifacts, "rooms", "read-link-qr.png");
  mkdirSync(path.dirname(shot), { recursive: true });
  await page.locator("#room-read-link-qr svg").screenshot({ path: shot });
  assert.equal(await page.getByRole("img", { name: "QR code of the read link" }).count(), 1);
  if (spawnSync("zbarimg", ["--version"]).status !== 0) assert.fail("zbarimg is missing: apt-get install zbar-tools (scripts/setup installs it)");
  const read = spawnSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", shot], { timeout: 20_000 });
  assert.equal(read.stdout.toString().trim(), shown(created.readLink));
  // The expiry and the deployment's limits (docs/hosting.md's defaults).
  const terms = await page.locator("#room-terms").innerText();
  assert.match(terms, /^The links work until \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M\. The room is deleted sooner if it gets no request for 7 days\. Limits: 20,000 entities, 16 MiB, 100 requests a second\.$/);
  // The room works: a table made here is in the room.
  await createTable(page, "Class");
  const list = await fetch(`${created.endpoint}/Tables?${sasOf(created.readLink)}`, { headers: { Accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" } });
  assert.deepEqual((await list.json()).value, [{ TableName: "Class" }]);
  // The key came in the answer of POST /rooms and went nowhere.
  const held = await pageText(page);
  for (const secret of [created.key, encodeURIComponent(created.key), created.connectionString]) assert.ok(!held.includes(secret), `the page holds ${secret}`);
  // The SAS is in memory and in the panel's fields, never stored.
  const kept = await stored(page);
  for (const secret of [new URLSearchParams(sasOf(created.writeLink)).get("sig"), "sig="]) assert.ok(!kept.includes(secret), `storage holds ${secret}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Start a room is named, fits 320 px and reads in the dark theme; a page elsewhere naming the rooms service offers it too, and a refusal is said", { skip, timeout: 40_000 }, async () => {
  const { page, context, errors } = await open(worker.url + "/", { viewport: { width: 320, height: 800 }, colorScheme: "dark" });
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await page.getByRole("button", { name: "Start a room" }).click();
  await page.locator("#connect-start-answer", { hasText: "Room started" }).waitFor({ timeout: 20_000 });
  await assertNamed(page.locator("#connect-start").locator("input:visible, button:visible"), 5);
  // The write link's QR code fits the phone and is dark on light in the
  // dark theme too.
  await page.locator("#room-write-link-qr summary").click();
  const qr = await page.locator("#room-write-link-qr svg").boundingBox();
  assert.ok(qr && qr.width >= 200 && qr.x >= 0 && qr.x + qr.width <= 320, `the QR code at 320 px: ${JSON.stringify(qr)}`);
  await page.locator("#connect-start").screenshot({ path: path.join(env.artifacts, "rooms", "room-qr-320-dark.png") });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 320, `the page is ${wide} px wide at 320`);
  const colors = await page.evaluate(() => {
    const s = getComputedStyle(document.getElementById("room-write-link"));
    return { fg: s.color, bg: s.backgroundColor };
  });
  assert.notEqual(colors.fg, colors.bg);
  assert.match(colors.bg, /rgba?\((\d|[1-5]\d),/, `a dark field in the dark theme: ${colors.bg}`);
  assert.deepEqual(errors, []);
  await context.close();
  // A page elsewhere that names the rooms service offers it, and the room
  // it starts there answers it across origins; a service that refuses is
  // said, and the tab's engine stays the target.
  const nameService = (page, href) => page.evaluate((h) => document.head.append(Object.assign(document.createElement("meta"), { name: "tableplay-rooms", content: h })), href);
  const wrong = await open(env.server.url + "/");
  await nameService(wrong.page, env.server.url + "/rooms");
  await wrong.page.getByRole("button", { name: "Connect", exact: true }).click();
  await wrong.page.getByRole("button", { name: "Start a room" }).click();
  await wrong.page.locator("#connect-start-answer", { hasText: "No room" }).waitFor();
  assert.match(await wrong.page.locator("#connect-start-answer").innerText(), /^No room · The room was not created: 404 Not Found · ResourceNotFound: The specified resource does not exist\./);
  assert.equal(await wrong.page.locator("body").getAttribute("data-target"), "engine");
  assert.equal(await wrong.page.locator("#connect-room-info").isHidden(), true);
  await wrong.context.close();
  const named = await open(env.server.url + "/");
  await nameService(named.page, worker.url + "/rooms");
  await named.page.getByRole("button", { name: "Connect", exact: true }).click();
  await named.page.getByRole("button", { name: "Start a room" }).click();
  await named.page.locator("#connect-start-answer", { hasText: "Room started" }).waitFor({ timeout: 20_000 });
  assert.match(await named.page.locator("#connect-target").innerText(), new RegExp(`Target: ${worker.url.replace(/\./g, "\\.")}/room\\w{12} as room\\w{12}, with its SAS`));
  await createTable(named.page, "Elsewhere");
  assert.deepEqual(named.errors, []);
  await named.context.close();
});

test("two browsers on one write link see each other's writes; a stale ETag gets 412; a failing batch leaves nothing either sees", { skip, timeout: 40_000 }, async (t) => {
  const room = await createRoom(worker.url);
  const a = await connected(room.writeLink);
  const b = await connected(room.writeLink);
  assert.equal(await a.page.evaluate(() => location.href), worker.url + "/", "the link's SAS left the address bar");
  // A's table and entity appear in B without B doing anything (polling);
  // B's stale ETag gets 412.
  await race(a.page, b.page, "Race");

  // A's transaction fails at its second insert: the room rolls it back and
  // neither page ever shows its first entity.
  await a.page.getByLabel("Operation", { exact: true }).selectOption("insert");
  await fillEntity(a.page, "p", "batch-new", "never");
  await a.page.getByRole("button", { name: "Add to batch" }).click();
  await a.page.getByLabel("RowKey").fill("r1");
  await a.page.getByRole("button", { name: /^Add to batch/ }).click();
  await a.page.getByRole("button", { name: /^Submit transaction/ }).click();
  await a.page.locator("#batch-result .failed-note").waitFor();
  assert.match(await a.page.locator("#batch-result").innerText(), /failed at operation 2 \(index 1 in the service's answer\): 409 Conflict · EntityAlreadyExists[\s\S]*the endpoint rolled it back/);
  // B writes after the batch; A sees B's write (so A has read the room
  // after the batch), and neither ever shows the batch's entity.
  assert.match(await insert(b.page, "p", "after", "after the batch"), /201 Created/);
  await a.page.locator("#entity-list", { hasText: "Note = after the batch" }).waitFor({ timeout: 10_000 });
  for (const { page } of [a, b]) {
    await page.locator("#entity-list", { hasText: "Note = after the batch" }).waitFor({ timeout: 10_000 });
    const list = await page.locator("#entity-list").innerText();
    assert.doesNotMatch(list, /batch-new|never/);
    assert.match(list, /Note = second/);
  }

  // A page write in a room, click to answer shown: the figure.
  const times = [];
  for (let i = 0; i < 7; i++) {
    await fillEntity(a.page, "w", `w${i}`, `write ${i}`);
    const t0 = performance.now();
    assert.match(await send(a.page, "insert"), /201 Created/);
    times.push(performance.now() - t0);
  }
  // The same writes as the browser timed their requests (the insert's POST
  // to the table's own path; the polling reads /Race() and /Tables).
  const wire = await a.page.evaluate((p) => performance.getEntriesByType("resource")
    .filter((e) => new URL(e.name).pathname === p).slice(-7).map((e) => e.duration), `/${room.account}/Race`);
  t.diagnostic(`figure: a page write in a room, p50 ${median(times).toFixed(0)} ms click → answer shown, ${median(wire).toFixed(0)} ms its request on the wire (${times.length} writes)`);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});

test("an ETag is the one the student read: after the room's refresh brings a classmate's write, Current ETag still sends the loaded one and gets 412", { skip, timeout: 40_000 }, async () => {
  const room = await createRoom(worker.url);
  const a = await connected(room.writeLink);
  const b = await connected(room.writeLink);
  await createTable(a.page, "Held");
  await b.page.getByRole("button", { name: "Held", exact: true }).waitFor({ timeout: 10_000 });
  await b.page.getByRole("button", { name: "Held", exact: true }).click();
  assert.match(await insert(a.page, "p", "r1", "first"), /201 Created/);
  // Both students Load the entity as it is now.
  for (const { page } of [a, b]) {
    await page.locator("#entity-list", { hasText: "Note = first" }).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Load p / r1 into the editor" }).click();
  }
  const loaded = await b.page.locator("#etag-note").innerText();
  const held = loaded.match(/Current: (W\/"[^"]+")/)?.[1];
  assert.ok(held, loaded);
  // Student 1 replaces with the ETag they read: the first write wins.
  await a.page.getByLabel("Value of property 1").fill("second");
  assert.match(await send(a.page, "replace", "current"), /204 No Content/);
  // Student 2's page refreshes (the room's polling) and shows the change;
  // the wait is for that refresh, bounded.
  await b.page.locator("#entity-list", { hasText: "Note = second" }).waitFor({ timeout: 10_000 });
  const note = await b.page.locator("#etag-note").innerText();
  // Student 2 writes with "Current ETag": the one they loaded, so 412.
  await b.page.getByLabel("Value of property 1").fill("from b");
  const second = await send(b.page, "replace", "current");
  assert.ok(second.includes(`If-Match: ${held}`), second);
  assert.match(second, /412 Precondition Failed[\s\S]*UpdateConditionNotSatisfied/);
  assert.match(note, /changed by someone else since you loaded it/);
  assert.ok(note.startsWith(`Current: ${held}`), `the refresh moved the held ETag: ${note}`);
  // The room keeps student 1's value.
  const got = await fetch(`${room.endpoint}/Held(PartitionKey='p',RowKey='r1')?${sasOf(room.readLink)}`, { headers: { Accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" } });
  assert.equal((await got.json()).Note, "second");
  // Loading again takes the new ETag, and the write then wins.
  await b.page.getByRole("button", { name: "Load p / r1 into the editor" }).click();
  await b.page.getByLabel("Value of property 1").fill("from b, after reading");
  assert.match(await send(b.page, "replace", "current"), /204 No Content/);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});

test("the read link reads the room; its write controls are off with the reason, and a write with its SAS gets the service's 403 AuthorizationPermissionMismatch", { skip, timeout: 40_000 }, async () => {
  const room = await createRoom(worker.url);
  // The teacher's table and entity, written with the write link's SAS.
  const write = (path, body) => fetch(`${room.endpoint}/${path}?${sasOf(room.writeLink)}`, { method: "POST", body: JSON.stringify(body),
    headers: { Accept: "application/json;odata=nometadata", "Content-Type": "application/json", "x-ms-version": "2019-02-02", Prefer: "return-no-content" } });
  assert.equal((await write("Tables", { TableName: "Shown" })).status, 204);
  assert.equal((await write("Shown", { PartitionKey: "p", RowKey: "r", Note: "for the audience" })).status, 204);

  // A new visitor opening the link gets the room, not the first-visit sample.
  const r = await connected(room.readLink, { fresh: true });
  assert.equal(await r.page.locator("#start-here").isVisible(), false, "Start here shows over a room link");
  assert.equal(await r.page.locator("body").getAttribute("data-start"), null);
  await r.page.getByRole("button", { name: "Shown", exact: true }).click();
  await r.page.locator("#entity-list", { hasText: "Note = for the audience" }).waitFor({ timeout: 10_000 });
  // Every write would answer 403: the page says so and offers none, while
  // Read stays on.
  await fillEntity(r.page, "p", "r2", "from the audience");
  await r.page.getByLabel("Operation", { exact: true }).selectOption("insert");
  const reason = /This link reads only \(its SAS grants sp=rl\): writes are off, since the endpoint would refuse each with 403\./;
  assert.equal(await r.page.getByRole("button", { name: "Send" }).isDisabled(), true);
  assert.equal(await r.page.getByRole("button", { name: "Add to batch" }).isDisabled(), true);
  assert.match(await r.page.locator("#op-refused").innerText(), reason);
  assert.equal(await r.page.getByRole("button", { name: "Create" }).isDisabled(), true);
  assert.match(await r.page.locator("#tables-refused").innerText(), reason);
  assert.equal(await r.page.getByRole("button", { name: "Delete table Shown" }).isDisabled(), true);
  await r.page.screenshot({ path: path.join(env.artifacts, "rooms", "read-link-1280.png") });
  await r.page.getByLabel("RowKey").fill("r");
  assert.match(await send(r.page, "get"), /200 OK/);
  // The page's reason is the service's answer: the read link's SAS writes nothing.
  const direct = await fetch(`${room.endpoint}/Shown?${sasOf(room.readLink)}`, { method: "POST", body: JSON.stringify({ PartitionKey: "p", RowKey: "r2" }),
    headers: { Accept: "application/json;odata=nometadata", "Content-Type": "application/json", "x-ms-version": "2019-02-02" } });
  assert.equal(direct.status, 403);
  assert.match(await direct.text(), /AuthorizationPermissionMismatch/);
  // Connected, the storage line says where the data is.
  assert.match(await r.page.locator("#storage-status").innerText(), new RegExp(`^Connected: what you write goes to ${new URL(room.endpoint).host.replace(/\./g, "\\.")}, not to this browser\.`));
  // Nothing was written.
  const list = await fetch(`${room.endpoint}/Shown()?${sasOf(room.readLink)}`, { headers: { Accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" } });
  assert.deepEqual((await list.json()).value.map((e) => e.RowKey), ["r"]);
  assert.deepEqual(r.errors, []);
  await r.context.close();
});

test("the page on another origin connects to a room (and offers no Start a room): the room's CORS allows the page's headers and exposes the ones it reads", { skip, timeout: 40_000 }, async () => {
  const room = await createRoom(worker.url);
  const sas = sasOf(room.writeLink);
  const origin = env.server.url;
  // The preflight of a signed write with every header the page sends.
  const asked = "accept,content-type,dataserviceversion,if-match,prefer,x-ms-client-request-id,x-ms-date,x-ms-version";
  const pre = await fetch(`${room.endpoint}/Tables?${sas}`, { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "MERGE", "Access-Control-Request-Headers": asked } });
  assert.equal(pre.status, 200, await pre.text());
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods"), /MERGE/);
  assert.deepEqual(pre.headers.get("access-control-allow-headers").toLowerCase().split(",").sort(), asked.split(","));
  const got = await fetch(`${room.endpoint}/Tables?${sas}`, { headers: { Origin: origin, Accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" } });
  assert.equal(got.status, 200);
  const exposed = got.headers.get("access-control-expose-headers").toLowerCase().split(",");
  for (const h of ["etag", "location", "date", "x-ms-request-id", "preference-applied", "x-ms-continuation-nextpartitionkey", "x-ms-continuation-nextrowkey", "x-ms-continuation-nexttablename"]) {
    assert.ok(exposed.includes(h), `${h} is not exposed: ${exposed}`);
  }

  // The page served by tableplay serve, given the room link.
  const link = `${origin}/#connect=${encodeURIComponent(room.endpoint)}&sas=${encodeURIComponent(sas)}`;
  const { page, context, errors } = await connected(link);
  assert.match(await page.locator("#connect-target").innerText(), new RegExp(`Target: ${room.endpoint.replace(/\./g, "\\.")} as ${room.account}, with its SAS`));
  // tableplay serve answers no POST /rooms: once the page has asked, no
  // "Start a room".
  await page.locator("#connect-panel[data-rooms=none]").waitFor();
  assert.equal(await page.locator("#connect-start").isHidden(), true);
  await createTable(page, "Across");
  // The browser lets the page read the headers it needs across origins.
  assert.match(await insert(page, "p", "r1", "one"), /201 Created[\s\S]*etag: W\/"datetime'[\s\S]*/i);
  assert.match(await insert(page, "p", "r2", "two"), /201 Created/);
  await page.locator("#top").fill("1");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-summary .figures").waitFor();
  const next = page.getByRole("button", { name: "Next page" });
  assert.equal(await next.isEnabled(), true, "the continuation headers reached the page");
  await next.click();
  await page.locator("#query-results", { hasText: "two" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("the code shown for a room uses its endpoint and SAS, and the JavaScript program runs against the room with node", { skip, timeout: 40_000 }, async () => {
  const room = await createRoom(worker.url);
  const sas = sasOf(room.writeLink);
  const { page, context, errors } = await connected(room.writeLink);
  await createTable(page, "Coded");
  assert.match(await insert(page, "p", "r", "from the page"), /201 Created/);
  await page.locator("#filter").fill("PartitionKey eq 'p'");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#query-summary .figures").waitFor();
  const article = page.locator("#exchanges article").first();
  await article.locator("summary", { hasText: "Code" }).click();
  const code = {};
  for (const language of ["javascript", "python", "go"]) {
    await article.getByLabel("Language").selectOption(language);
    code[language] = await article.locator("pre.code").innerText();
    assert.ok(code[language].includes(room.endpoint), `${language}: ${code[language]}`);
    assert.ok(code[language].includes(sas) || code[language].includes(new URLSearchParams(sas).get("sig")), `${language} carries the SAS: ${code[language]}`);
    assert.doesNotMatch(code[language], /AccountKey/);
  }
  assert.ok(code.javascript.includes(`TableEndpoint=${room.endpoint};SharedAccessSignature=${sas}`), code.javascript);
  // Run as a reader would, from the checkout (so it finds the pinned
  // @azure/data-tables).
  const dir = path.join(env.artifacts, "rooms");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "room-query.cjs");
  writeFileSync(file, code.javascript);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 20_000 });
  assert.match(stdout, /from the page/);
  assert.deepEqual(errors, []);
  await context.close();
});
