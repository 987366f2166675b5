// e2e/crossorigin.test.js is responsible for testing the embed as a docs
// site on another origin meets it: a docs page on one origin (127.0.0.1:A)
// under a strict Content-Security-Policy that names the other origin, with
// three <table-playground> elements and one iframe loaded from 127.0.0.1:B,
// where B is `tableplay serve` (the binary's own page, compressed), make
// site on a plain static server that compresses nothing (with its _headers
// applied, as Netlify does), and the npm package of make npm unpacked the
// way jsDelivr lays a package out. Each embed starts and answers a write and
// a read; the engine crosses the wire once per origin, within its budget.
// When the engine cannot load (the CSP forbids wasm, CORS, 404), the embed
// says why in its own box.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root, startBinary, launchBrowser } from "./harness.js";
import { docsSite, staticServer } from "./static.js";

const site = path.join(root, "site", "public");
const build = path.join(root, "web", "build");
const WIRE_BUDGET = 1.7e6;
let browser;

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

// The three element embeds of the docs page (the iframe comes first when
// the test has one).
const EMBEDS = `<table-playground id="one" example="sample" label="Editor example">If this stays, the playground's script did not load.</table-playground>
<table-playground id="two" example="sample" view="query" label="Query example"></table-playground>
<table-playground id="three" example="sample" readonly label="Read-only example"></table-playground>`;

// open loads the docs page and records console errors and every engine
// response: its URL, where it came from and its bytes on the wire.
async function open(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const engine = new Map();
  cdp.on("Network.responseReceived", (e) => {
    if (/\/(app|unbrotli)\.wasm(\.gz|\.br)?$/.test(new URL(e.response.url).pathname)) engine.set(e.requestId, { url: e.response.url, bytes: 0, headers: e.response.headers });
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = engine.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.addInitScript(() => {
    window.progressSeen = [];
    window.addEventListener("tableplay:progress", (e) => window.progressSeen.push(e.detail));
  });
  await page.goto(url);
  return { context, page, engine, errors };
}

// writeAndRead creates a table in an embed's account and lists the tables,
// through the engine of the document it runs in.
async function writeAndRead(target, id) {
  return target.evaluate(async (id) => {
    const el = document.getElementById(id) ?? document.querySelector("table-playground");
    const account = (await el.ready).account;
    const headers = { Accept: "application/json;odata=nometadata", "Content-Type": "application/json" };
    const write = await tableplay.fetch(`/${account}/Tables`, { method: "POST", headers, body: JSON.stringify({ TableName: "FromDocs" }) });
    const read = await tableplay.fetch(`/${account}/Tables`, { headers });
    return { write: write.status, tables: (await read.json()).value.map((t) => t.TableName) };
  }, id);
}

// embedsWork starts every embed of the docs page, checks each answers a
// write and a read (the query embed through its Run query button too), and
// returns the engine responses seen. missing: the console's lines about
// files the test left out (404) are expected.
async function embedsWork(url, { iframe, missing = false }) {
  const { context, page, engine, errors } = await open(url);
  try {
    for (const id of ["one", "two", "three"]) {
      await page.locator("#" + id).scrollIntoViewIfNeeded();
      const r = await writeAndRead(page, id);
      assert.equal(r.write, 201, `${id}: the write`);
      assert.ok(r.tables.includes("FromDocs") && r.tables.includes("Users"), `${id}: the read: ${r.tables}`);
    }
    const two = page.locator("#two");
    await two.getByRole("button", { name: "Run query" }).click();
    await two.locator('#query-results [role="cell"]').first().waitFor();
    const accounts = await page.evaluate(() => ["one", "two", "three"].map((id) => document.getElementById(id).account));
    assert.equal(new Set(accounts).size, 3, "an account each");
    if (iframe) {
      await page.locator("#frame").scrollIntoViewIfNeeded();
      const frame = page.frameLocator("#frame");
      await frame.locator("table-playground").waitFor();
      const inner = page.frames().find((f) => f.url().includes("embed.html"));
      const r = await writeAndRead(inner, "");
      assert.deepEqual([r.write, r.tables.includes("FromDocs")], [201, true], "the iframe's write and read");
    }
    assert.deepEqual(errors.filter((e) => !(missing && /status of 404/.test(e))), []);
    // Every engine request finished (or came from the cache) before ready.
    return { responses: [...engine.values()], progress: await page.evaluate(() => window.progressSeen) };
  } finally {
    await context.close();
  }
}

// onceOnTheWire checks that the engine (app.wasm*, or the brotli decoder
// when decoder names its file) crossed the wire once, as file (the URL's
// name) with the bytes of sent (the file in web/build on the wire): one
// response with its bytes, any other from the HTTP cache. All of them stay
// within the budget (unless budget is false).
function onceOnTheWire(responses, file, sent = file, decoder = "", budget = true) {
  const once = (name, sent) => {
    const size = statSync(path.join(build, sent)).size;
    const wire = responses.filter((r) => r.bytes > 10_000 && new URL(r.url).pathname.split("/").at(-1) === name);
    assert.equal(wire.length, 1, `${name} downloaded once: ${JSON.stringify(responses.map((r) => [r.url, r.bytes]))}`);
    assert.ok(wire[0].url.includes("/" + name + "?v="), `${name} fetched (a versioned URL): ${wire[0].url}`);
    assert.ok(wire[0].bytes <= size + 2_000 && wire[0].bytes >= size, `${wire[0].bytes} bytes on the wire for ${name} (${size})`);
    return wire[0];
  };
  if (decoder) once(decoder, decoder);
  else assert.deepEqual(responses.filter((r) => r.url.includes("/unbrotli.wasm") && r.bytes > 10_000), [], "no brotli decoder downloaded");
  if (budget) assert.ok(responses.reduce((n, r) => n + r.bytes, 0) <= WIRE_BUDGET, "the engine within 1.7 MB on the wire");
  return once(file, sent);
}

test("a docs page embeds from tableplay serve on another origin: three elements and an iframe, one compressed engine download", async () => {
  const server = await startBinary();
  const docs = await docsSite({ script: `${server.url}/web/embed.js`, other: server.url, frame: `${server.url}/embed.html`, embeds: EMBEDS });
  try {
    const { responses } = await embedsWork(docs.url, { iframe: true });
    const sent = onceOnTheWire(responses, "app.wasm", "app.wasm.br");
    assert.equal(sent.headers["content-encoding"] ?? sent.headers["Content-Encoding"], "br");
  } finally {
    docs.stop();
    server.stop();
  }
});

test("a docs page embeds from make site on a plain static server (no compression, its _headers applied): the engine as app.wasm.br with its decoder, once, within 1.7 MB", async () => {
  const host = await staticServer(site, "/", { headers: readFileSync(path.join(site, "_headers"), "utf8") });
  const other = new URL(host.url).origin;
  const docs = await docsSite({ script: `${other}/web/embed.js`, other, frame: `${other}/embed.html`, embeds: EMBEDS });
  try {
    const { responses, progress } = await embedsWork(docs.url, { iframe: true });
    const sent = onceOnTheWire(responses, "app.wasm.br", "app.wasm.br", "unbrotli.wasm.gz");
    assert.equal(sent.headers["content-encoding"] ?? sent.headers["Content-Encoding"], undefined, "the server compressed nothing");
    // Progress counts the bytes on the wire, before they are decompressed.
    const br = statSync(path.join(build, "app.wasm.br")).size;
    assert.deepEqual(progress.at(-1), { loaded: br, total: br });
    assert.ok(progress.every((p, i) => p.total === br && (i === 0 || p.loaded >= progress[i - 1].loaded)), `monotonic, in wire bytes: ${JSON.stringify(progress.slice(0, 5))}`);
  } finally {
    docs.stop();
    host.stop();
  }
});

// A copy of make site without the brotli decoder (a hand-picked upload):
// the embed takes app.wasm.gz instead, and starts. (What arrived of the .br,
// fetched beside the decoder and dropped when it was missing, is on the wire
// too: no budget here.)
test("a plain static host without the brotli decoder: the embed takes app.wasm.gz", async () => {
  const host = await staticServer(site, "/", {
    headers: readFileSync(path.join(site, "_headers"), "utf8"),
    answer: (rel) => (rel.startsWith("web/build/unbrotli.wasm") ? 404 : 0),
  });
  const other = new URL(host.url).origin;
  const docs = await docsSite({ script: `${other}/web/embed.js`, other, embeds: EMBEDS });
  try {
    onceOnTheWire((await embedsWork(docs.url, { iframe: false, missing: true })).responses, "app.wasm.gz", "app.wasm.gz", "", false);
  } finally {
    docs.stop();
    host.stop();
  }
});

// The tarball of make npm, unpacked as jsDelivr serves a package:
// /npm/NAME@VERSION/FILE, every file readable by any origin, the scripts
// compressed and the .wasm not (the case the package's loader must survive:
// it takes the .br whatever the scripts say). jsDelivr sends HTML as
// text/plain, so the iframe form is not offered from it (docs/embedding.md).
test("the npm package, unpacked as jsDelivr lays it out, embeds on another origin", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tableplay-npm-"));
  try {
    execFileSync(path.join(root, "scripts", "build-npm"), [path.join(dir, "pkg"), site], { stdio: "ignore" });
    const tgz = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir, path.join(dir, "pkg")], { cwd: dir, encoding: "utf8" }).trim().split("\n").at(-1);
    const pkg = JSON.parse(readFileSync(path.join(dir, "pkg", "package.json"), "utf8"));
    const where = path.join(dir, "cdn", "npm", `${pkg.name}@${pkg.version}`);
    mkdirSync(where, { recursive: true });
    execFileSync("tar", ["-xzf", path.join(dir, tgz), "-C", where, "--strip-components=1"]);
    for (const f of ["package.json", "embed.js", "web/embed.js", "web/engine.js", "web/build/go-glue.js", "web/build/app.wasm.br", "web/build/unbrotli.wasm.gz", "web/build/app.wasm.gz", "web/build/app.wasm"]) {
      assert.ok(statSync(path.join(where, f)).isFile(), `${f} in the tarball`);
    }
    const cdn = await staticServer(path.join(dir, "cdn"), "/", {
      answer: (rel, headers) => Object.assign(headers, { "access-control-allow-origin": "*", "timing-allow-origin": "*" }) && 0,
      gzip: /\.js$/,
    });
    const other = new URL(cdn.url).origin;
    const docs = await docsSite({ script: `${other}/npm/${pkg.name}@${pkg.version}/embed.js`, other, embeds: EMBEDS });
    try {
      onceOnTheWire((await embedsWork(docs.url, { iframe: false })).responses, "app.wasm.br", "app.wasm.br", "unbrotli.wasm.gz");
    } finally {
      docs.stop();
      cdn.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// failure loads the docs page from make site on a static server changed by
// answer, with or without WebAssembly in its CSP, starts the first embed and
// returns what its box shows.
async function failure({ answer, wasm = true }) {
  const host = await staticServer(site, "/", { headers: readFileSync(path.join(site, "_headers"), "utf8"), answer });
  const other = new URL(host.url).origin;
  const docs = await docsSite({ script: `${other}/web/embed.js`, other, wasm, embeds: EMBEDS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(docs.url);
    const failed = await page.evaluate(() => document.getElementById("one").ready.then(() => "", (e) => e.message));
    const alert = page.locator("#one").getByRole("alert");
    const box = await alert.boundingBox();
    assert.ok(box && box.height > 20 && box.width > 200, "a visible message in the embed's box");
    return { failed, shown: await alert.innerText(), state: await page.locator("#one").getAttribute("data-state") };
  } finally {
    await context.close();
    docs.stop();
    host.stop();
  }
}

test("the engine cannot load: the embed names the cause and the fix in its own box", async () => {
  // A CSP without 'wasm-unsafe-eval'.
  let r = await failure({ wasm: false });
  assert.equal(r.state, "failed");
  assert.match(r.shown, /Content-Security-Policy does not allow WebAssembly/);
  assert.match(r.shown, /Fix: Add 'wasm-unsafe-eval' to the script-src/);
  assert.match(r.failed, /does not allow WebAssembly/, "ready rejects with the same cause");
  // The engine sent without Access-Control-Allow-Origin.
  r = await failure({ answer: (rel, headers) => (rel.startsWith("web/build/app.wasm") && delete headers["access-control-allow-origin"], 0) });
  assert.match(r.shown, /does not let this site read \/web\/build\/app\.wasm\.br \(no Access-Control-Allow-Origin/);
  assert.match(r.shown, /Fix: Send Access-Control-Allow-Origin: \*/);
  // The engine missing from the host.
  r = await failure({ answer: (rel) => (rel.startsWith("web/build/app.wasm") ? 404 : 0) });
  assert.match(r.shown, /app\.wasm\?v=[0-9a-f]{12} answered 404: the file is not there/);
  assert.match(r.shown, /Fix: Copy every file of make site/);
  // A module of the embed missing.
  r = await failure({ answer: (rel) => (rel === "web/embed-app.js" ? 404 : 0) });
  assert.match(r.shown, /embed-app\.js\?v=[0-9a-f]{12} answered 404/);
});
