// e2e/code.test.js is responsible for testing the Code view of the wire view
// and the CSV buttons in Chromium: code for each exchange in the language a
// person picks (remembered across visits), Copy (and what it selects where
// the clipboard is refused), the notes beside the code, light and dark, a
// 390 px phone; CSV export and an import with problems; the JavaScript,
// Python and Go copied from the page run on a fresh tableplay serve.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { useBrowser, startServer, root, sendOperation as send } from "./harness.js";
import { fillEntity } from "./remotepage.js";

const env = useBrowser({ before, after });

async function open(context, url = env.server.url) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url + "/");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return { page, errors };
}

// insertTyped creates a table and inserts an entity with an Int64 beyond
// 2^53 and a DateTime with a 100 ns digit, through the page's own controls.
async function insertTyped(page, table) {
  await page.getByLabel("New table name").fill(table);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: table, exact: true }).waitFor();
  await page.getByLabel("PartitionKey").fill("p");
  await page.getByLabel("RowKey").fill("r");
  for (const [n, name, type, value] of [
    [1, "Big", "Edm.Int64", "9007199254740993"],
    [2, "When", "Edm.DateTime", "2026-11-22T12:34:56.1234567Z"],
  ]) {
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByLabel(`Name of property ${n}`).fill(name);
    await page.getByLabel(`Type of property ${n}`).selectOption(type);
    await page.getByLabel(`Value of property ${n}`).fill(value);
  }
  await page.getByLabel("Operation", { exact: true }).selectOption("insert");
  await page.evaluate(() => (document.getElementById("status").textContent = ""));
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("insert:"));
}

test("each exchange has a Code view: language picked and remembered, Copy, notes beside the code", async () => {
  // Below 1200 px the wire view spans the page: wide enough for notes beside
  // the code (in the three-column layout they follow it).
  const context = await env.context({ viewport: { width: 1100, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  const { page, errors } = await open(context);
  await insertTyped(page, "Coded");
  const exchange = page.locator("#exchanges article").first();
  assert.match(await exchange.locator("h3").innerText(), /^insert/);
  // Every exchange shown has its own Code view.
  const articles = await page.locator("#exchanges article").count();
  assert.equal(await page.locator("#exchanges article details.code-view").count(), articles);
  await exchange.locator("summary", { hasText: "Code" }).click();
  const code = exchange.locator("pre.code");
  await exchange.locator("pre.code", { hasText: "package main" }).waitFor();
  assert.match(await code.innerText(), /aztables\.EDMInt64\(9007199254740993\)/);
  assert.match(await code.innerText(), /time\.Date\(2026, 11, 22, 12, 34, 56, 123456700, time\.UTC\)/);
  // JavaScript: the Int64 as a typed string, and the notes on what it loses.
  await exchange.getByLabel("Language").selectOption("javascript");
  assert.match(await code.innerText(), /Big: \{ value: "9007199254740993", type: "Int64" \}/);
  const notes = await exchange.locator(".code-notes").innerText();
  assert.match(notes, /2\^53/);
  assert.match(notes, /finer than a millisecond/);
  // Copy puts exactly the code on the clipboard.
  await exchange.getByRole("button", { name: "Copy the JavaScript code" }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await code.innerText());
  // The notes sit beside the code at this width.
  await code.scrollIntoViewIfNeeded();
  const [codeBox, notesBox] = [await code.boundingBox(), await exchange.locator(".code-notes-box").boundingBox()];
  assert.ok(notesBox.x >= codeBox.x + codeBox.width - 1, "notes are beside the code");
  await page.screenshot({ path: path.join(env.artifacts, "code-view.png"), fullPage: true });
  // A new visit opens code views in the remembered language.
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await page.getByRole("button", { name: "Coded", exact: true }).click();
  await page.getByLabel("New table name").fill("Second");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "Second", exact: true }).waitFor();
  const next = page.locator("#exchanges article").first();
  await next.locator("summary", { hasText: "Code" }).click();
  await next.locator("pre.code", { hasText: "createTable" }).waitFor();
  assert.equal(await next.getByLabel("Language").inputValue(), "javascript");
  assert.match(await next.locator("pre.code").innerText(), /createTable\("Second"\)/);
  // curl: signed with a SAS the engine made.
  await next.getByLabel("Language").selectOption("curl");
  assert.match(await next.locator("pre.code").innerText(), /SAS='se=[^']*&sig=[^']*&sp=rwdlacu&[^']*&srt=sco&ss=t&[^']*sv=2019-02-02'/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("where the browser refuses the clipboard, Copy selects what it would have copied", async () => {
  const context = await env.context({ viewport: { width: 1100, height: 900 } });
  // A refusal, as an insecure origin or a denied permission gives.
  await context.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("refused", "NotAllowedError"));
  });
  const { page, errors } = await open(context);
  await insertTyped(page, "Refused");
  const exchange = page.locator("#exchanges article").first();
  await exchange.locator("summary", { hasText: "Code" }).click();
  const code = exchange.locator("pre.code");
  await exchange.locator("pre.code", { hasText: "package main" }).waitFor();
  const copyCode = exchange.getByRole("button", { name: "Copy the Go code" });
  await copyCode.click();
  await page.waitForFunction(() => getSelection().toString().includes("package main"));
  assert.equal(await copyCode.innerText(), "Selected: copy it");
  // The selection is the code (a selection's text has no last line break).
  assert.equal((await page.evaluate(() => getSelection().toString())).trimEnd(), (await code.innerText()).trimEnd());
  // The wire view's Copy of a request behaves the same.
  const copyRequest = exchange.getByRole("button", { name: /^Copy the .* request$/ });
  await copyRequest.click();
  await page.waitForFunction(() => getSelection().toString().startsWith("POST "));
  assert.equal(await copyRequest.innerText(), "Selected: copy it");
  // The longer label stays inside its button and its heading row.
  for (const button of [copyCode, copyRequest]) {
    const fits = await button.evaluate((b) => b.scrollWidth <= b.clientWidth + 1 && b.getBoundingClientRect().right <= b.parentElement.getBoundingClientRect().right + 1);
    assert.ok(fits, `${await button.getAttribute("aria-label")} overflows`);
  }
  await exchange.screenshot({ path: path.join(env.artifacts, "code-copy-refused.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the Code view in dark and light at 390 px stays inside the page", async () => {
  for (const scheme of ["light", "dark"]) {
    const context = await env.context({ viewport: { width: 390, height: 844 }, colorScheme: scheme });
    const { page, errors } = await open(context);
    await insertTyped(page, `Phone${scheme}`);
    const exchange = page.locator("#exchanges article").first();
    await exchange.locator("summary", { hasText: "Code" }).click();
    await exchange.locator("pre.code", { hasText: "connectionString" }).waitFor();
    await exchange.getByLabel("Language").selectOption("python");
    await exchange.locator("pre.code").waitFor();
    const layout = await page.evaluate(() => {
      const pre = document.querySelector("#exchanges article pre.code");
      const notes = document.querySelector("#exchanges article .code-notes-box");
      return {
        scroll: document.documentElement.scrollWidth,
        width: window.innerWidth,
        preRight: pre.getBoundingClientRect().right,
        notesTop: notes.getBoundingClientRect().top,
        preBottom: pre.getBoundingClientRect().bottom,
        codeColor: getComputedStyle(pre).color,
        codeBg: getComputedStyle(pre).backgroundColor,
      };
    });
    assert.ok(layout.scroll <= layout.width, `${scheme}: page is ${layout.scroll}px wide in ${layout.width}px`);
    assert.ok(layout.preRight <= layout.width, `${scheme}: the code box overflows`);
    assert.ok(layout.notesTop >= layout.preBottom - 1, `${scheme}: on a phone the notes follow the code`);
    assert.notEqual(layout.codeColor, layout.codeBg);
    if (scheme === "dark") assert.equal(layout.codeBg, "rgb(42, 42, 51)");
    else assert.equal(layout.codeBg, "rgb(240, 240, 243)");
    await exchange.locator("details.code-view").screenshot({ path: path.join(env.artifacts, `code-view-390-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("CSV: export keeps Int64 and 100 ns exact; a file with problems imports nothing and names line and column", async () => {
  const context = await env.context({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(context);
  await insertTyped(page, "Sheet");
  const csv = await page.evaluate(() => tableplay.exportCSV("Sheet").csv);
  assert.match(csv, /^PartitionKey,RowKey,Timestamp,Big,Big@type,When,When@type\r\n/);
  assert.match(csv, /p,r,[^,]+,9007199254740993,Edm\.Int64,2026-11-22T12:34:56\.1234567Z,Edm\.DateTime\r\n$/);
  // The Export button downloads the same file.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  assert.equal(download.suggestedFilename(), "Sheet.csv");
  // A bad file through the Import button: nothing written, each problem placed.
  const before = await page.evaluate(() => JSON.stringify(tableplay.snapshot()));
  await page.locator("#csv-box input[type=file]").setInputFiles({
    name: "bad.csv", mimeType: "text/csv",
    buffer: Buffer.from("\ufeffPartitionKey,RowKey,N,N@type\r\np,a,1,Int32\r\np,b,x,Int32\r\np,c,1,Edm.Geography\r\n"),
  });
  const problems = page.locator("#csv-box .csv-problems li");
  await problems.first().waitFor();
  assert.deepEqual(await problems.allInnerTexts(), [
    "Line 3, column N: Edm.Int32 'x': not an integer",
    'Line 4, column N@type: unknown type "Edm.Geography": use one of the eight Edm types',
  ]);
  assert.equal(await page.evaluate(() => JSON.stringify(tableplay.snapshot())), before);
  // A good one lands and the entity list shows it.
  await page.locator("#csv-box input[type=file]").setInputFiles({
    name: "good.csv", mimeType: "text/csv",
    buffer: Buffer.from("PartitionKey,RowKey,Note\r\np,z,\"two\r\nlines\"\r\n"),
  });
  await page.locator("#csv-box .ok-note", { hasText: "Imported 1 entity into Sheet." }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

// runProgram runs a copied program and answers its exit and output
// (bounded in time).
async function runProgram(file, args, options = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { timeout: 240_000, ...options });
    return { failed: false, stdout, stderr };
  } catch (err) {
    if (err.killed) throw new Error(`${file} ${args.join(" ")} timed out`);
    return { failed: true, stdout: err.stdout ?? "", stderr: err.stderr ?? String(err) };
  }
}

// The pinned modules a copied Go program builds with: the repository's own
// go.mod and go.sum under another module name, settled offline from the
// module cache.
function goModule(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "go.mod"), readFileSync(path.join(root, "go.mod"), "utf8").replace(/^module .*$/m, "module copied"));
  writeFileSync(path.join(dir, "go.sum"), readFileSync(path.join(root, "go.sum")));
}

const pythonWithAzure = () => spawnSync("/usr/bin/python3", ["-c", "import azure.data.tables"]).status === 0;

test("code copied from the page runs on a fresh tableplay serve: the insert creates its table, and an error prints its status and the service's code", { timeout: 420_000 }, async (t) => {
  const dir = path.join(env.artifacts, "fresh-code");
  mkdirSync(dir, { recursive: true });
  const languages = [
    ["javascript", "insert.cjs", (file) => [process.execPath, [file]]],
    ["python", "insert.py", (file) => ["/usr/bin/python3", [file]]],
    ["go", "main.go", () => ["go", ["run", "."], { cwd: path.join(dir, "go"), env: { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local", PATH: `${process.env.PATH}:/usr/local/go/bin` } }]],
  ];
  if (!pythonWithAzure()) {
    if (process.env.TABLEPLAY_REQUIRE_ALL) assert.fail("python3-azure is missing: apt-get install python3-azure (.ci/run installs it)");
    t.diagnostic("python3-azure is missing: the Python program is not run (apt-get install python3-azure)");
    languages.splice(1, 1);
  }
  for (const [language, name, command] of languages) {
    // Each language meets its own fresh server: no table, no entity.
    const server = await startServer();
    try {
      const context = await env.context();
      const { page, errors } = await open(context, server.url);
      await page.getByLabel("New table name").fill("Fresh");
      await page.getByRole("button", { name: "Create" }).click();
      await page.getByRole("button", { name: "Fresh", exact: true }).waitFor();
      await fillEntity(page, "p", "r", "copied");
      assert.match(await send(page, "insert"), /201 Created/);
      const exchange = page.locator("#exchanges article").first();
      await exchange.locator("summary", { hasText: "Code" }).click();
      await exchange.getByLabel("Language").selectOption(language);
      const code = await exchange.locator("pre.code").innerText();
      assert.deepEqual(errors, []);
      await context.close();
      assert.ok(code.includes(server.url), `${language} names the page's server: ${code.slice(0, 300)}`);
      if (language === "go") {
        assert.match(code, /^\/\/ go mod init example && go get github\.com\/Azure\/azure-sdk-for-go\/sdk\/data\/aztables@v1\.4\.1/m);
        goModule(path.join(dir, "go"));
      }
      const file = language === "go" ? path.join(dir, "go", name) : path.join(dir, name);
      writeFileSync(file, code);
      const [bin, args, options] = command(file);
      // On the fresh server the insert succeeds: the program made the table.
      const first = await runProgram(bin, args, options);
      assert.equal(first.failed, false, `${language} on a fresh server:\n${first.stdout}\n${first.stderr}`);
      const listed = await fetch(`${server.url}/devstoreaccount1/Fresh()?${new URLSearchParams({ $filter: "RowKey eq 'r'" })}`, { headers: { Accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" } });
      if (listed.status === 200) assert.equal((await listed.json()).value[0]?.Note, "copied");
      // Again: the table is kept, the entity exists, and the error says
      // its status and the service's code.
      const again = await runProgram(bin, args, options);
      assert.equal(again.failed, true, `${language} second run:\n${again.stdout}`);
      assert.match(again.stderr, /409\b[\s\S]*EntityAlreadyExists/, `${language}: ${again.stderr}`);
      if (language !== "go") assert.match(again.stderr, /^409 EntityAlreadyExists /m, `${language} prints status and code first: ${again.stderr}`);
      t.diagnostic(`${language}: fresh server insert ok; second run says ${again.stderr.split("\n").find((l) => /409/.test(l))?.slice(0, 80)}`);
    } finally {
      await server.stop();
    }
  }
});
