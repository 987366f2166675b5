// e2e/generators.test.js: the embed in real docs generators, built offline
// from the snippets of docs/embedding.md ("Docs generators") unchanged but
// for the origin: VitePress 1.6.4 (the pinned npm dev dependency), Debian's
// MkDocs 1.4.2 with its own theme and with Material 8.2.5 (instant
// navigation). Each site is built once, served by a plain static server,
// with the playground (make site) on another origin. In Chromium: the
// query embed shows its start state's answer, a lesson step runs, the
// embed follows the site's own dark-mode switch (or its light page), after
// client-side navigation too, and a page whose state was cut shows the
// error in the embed; tableplay check-docs passes on the built pages and
// fails on the cut one.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { root, launchBrowser } from "./harness.js";
import { staticServer } from "./static.js";

const run = promisify(execFile);
const site = path.join(root, "site", "public");
const work = path.join(root, "e2e", "artifacts", "generators");
const docs = readFileSync(path.join(root, "docs", "embedding.md"), "utf8");

// snippet is the fenced block after <!-- snippet: name --> in embedding.md.
function snippet(name) {
  const m = docs.match(new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`));
  if (!m) throw new Error(`docs/embedding.md has no snippet ${name}`);
  return m[1] + "\n";
}

// The page snippet with its state cut short: not JSON any more.
const cut = (page) => {
  const bad = page.replace(`"filter": "Total gt 100"}'`, `"filter": "Total gt 100"'`);
  assert.notEqual(bad, page);
  return bad;
};

function required(what, ok) {
  if (ok) return "";
  const why = `${what} is missing`;
  const req = process.env.TABLEPLAY_REQUIRE_ALL;
  if (req && req !== "0") throw new Error(`${why} (TABLEPLAY_REQUIRE_ALL=${req} makes this a failure; scripts/setup installs it)`);
  return why;
}

let browser;
let play;
before(async () => {
  if (!existsSync(path.join(site, "web", "embed.js"))) throw new Error("site/public is not built: run make site (make e2e builds it)");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  play = await staticServer(site, "/", { headers: readFileSync(path.join(site, "_headers"), "utf8") });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  play?.stop();
});

const origin = () => play.url.replace(/\/$/, "");
const withOrigin = (text) => text.replaceAll("https://play.example", origin());

function write(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

// checkDocs runs the built binary's check-docs on files: {code, out}.
function checkDocs(...files) {
  const r = spawnSync(path.join(root, "bin", "tableplay"), ["check-docs", ...files], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

// frameScheme is what an embed's frame shows: its color-scheme and whether
// its background is dark.
function frameScheme(page, index) {
  return page.evaluate((i) => {
    const frame = document.querySelectorAll("table-playground")[i].shadowRoot.querySelector(".frame");
    const [r, g, b] = getComputedStyle(frame).backgroundColor.match(/[\d.]+/g).map(Number);
    return { scheme: getComputedStyle(frame).colorScheme, dark: 0.2126 * r + 0.7152 * g + 0.0722 * b < 100 };
  }, index);
}

// embedsWork checks the page snippet's two embeds on the page open in
// page: the query answers from the state, and the lesson step runs.
async function embedsWork(page) {
  await page.waitForFunction(() => document.querySelectorAll("table-playground").length === 2, null, { timeout: 30_000 });
  const query = page.locator("table-playground").nth(0);
  const step = page.locator("table-playground").nth(1);
  await query.scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelectorAll("table-playground")[0].ready);
  await query.locator("#query-summary .figures").waitFor({ timeout: 30_000 });
  assert.match(await query.locator("#query-summary .figures").innerText(), /^1 returned of 2 examined/);
  await step.scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelectorAll("table-playground")[1].ready);
  await step.getByRole("heading", { name: /^Step 1 of 6: / }).waitFor();
  await step.getByRole("radio").first().check();
  await step.getByRole("button", { name: "Run", exact: true }).click();
  await step.locator(".lesson-result .outcome").waitFor();
  assert.match(await step.locator(".lesson-result .outcome").innerText(), /Returned 54, examined 54/);
}

// badStateShown checks that the cut state's embed says so, with the fix.
async function badStateShown(page) {
  const bad = page.locator("table-playground").nth(0);
  await bad.locator("[role=alert]").first().waitFor({ timeout: 30_000 });
  assert.match(await bad.locator("[role=alert]").first().innerText(), /start state in its state attribute cannot be read as JSON[\s\S]*Fix: Write the start state as JSON/);
  const rejected = await page.evaluate(() => {
    const el = document.querySelector("table-playground");
    return el.start().then(() => "", (e) => e.message);
  });
  assert.match(rejected, /cannot be read as JSON/);
  assert.match(await bad.locator("[part=failure]").innerText(), /The playground could not start/);
}

test("VitePress 1.6.4: the documented config and page, built and served", { timeout: 300_000 }, async (t) => {
  const bin = path.join(root, "node_modules", ".bin", "vitepress");
  const why = required("vitepress (npm ci)", existsSync(bin));
  if (why) return t.skip(why);
  const dir = path.join(work, "vitepress");
  const page = snippet("page");
  write(dir, {
    "docs/.vitepress/config.mjs": withOrigin(snippet("vitepress-config")),
    "docs/index.md": `# Guide\n\n${page}\n[The next page](./next)\n`,
    "docs/next.md": `# Next\n\n${page}`,
    "docs/bad.md": `# Bad\n\n${cut(page)}`,
  });
  const started = Date.now();
  await run(bin, ["build", "docs"], { cwd: dir, timeout: 240_000, env: { ...process.env, CI: "true" } });
  console.log(`# VitePress build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const dist = path.join(dir, "docs", ".vitepress", "dist");

  // check-docs on the sources and on the build: the good pages pass, the cut one fails.
  const good = checkDocs(path.join(dir, "docs", "index.md"), path.join(dist, "index.html"), path.join(dist, "next.html"));
  assert.equal(good.code, 0, good.out);
  assert.match(good.out, /6 examples in 3 files, 0 problems/);
  const bad = checkDocs(path.join(dist, "bad.html"));
  assert.notEqual(bad.code, 0);
  assert.match(bad.out, /bad\.html:\d+: the start state in its state attribute is not JSON/);

  const server = await staticServer(dist, "/");
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  try {
    const p = await context.newPage();
    const errors = [];
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(server.url + "index.html");
    await embedsWork(p);
    assert.deepEqual(await frameScheme(p, 0), { scheme: "light", dark: false });
    // The site's own switch: html.dark, and the embeds follow at once.
    await p.locator(".VPNavBarAppearance .VPSwitchAppearance").click();
    await p.waitForFunction(() => document.documentElement.classList.contains("dark"));
    await p.waitForFunction(() => document.querySelector("table-playground").shadowRoot.querySelector(".frame").dataset.scheme === "dark");
    assert.deepEqual(await frameScheme(p, 0), { scheme: "dark", dark: true });
    assert.deepEqual(await frameScheme(p, 1), { scheme: "dark", dark: true });
    // Client-side navigation: no new document, the embeds start again
    // with their state, still dark.
    await p.evaluate(() => (window.sameDocument = true));
    await p.getByRole("link", { name: "The next page" }).click();
    await p.waitForURL(/next/);
    await p.getByRole("heading", { name: "Next", level: 1 }).waitFor();
    assert.equal(await p.evaluate(() => window.sameDocument), true, "VitePress navigated on the client");
    await embedsWork(p);
    assert.deepEqual(await frameScheme(p, 0), { scheme: "dark", dark: true });
    await p.locator(".VPNavBarAppearance .VPSwitchAppearance").click();
    await p.waitForFunction(() => document.querySelector("table-playground").shadowRoot.querySelector(".frame").dataset.scheme === "light");
    assert.deepEqual(await frameScheme(p, 0), { scheme: "light", dark: false });
    await p.screenshot({ path: path.join(work, "vitepress-next.png") });
    await p.goto(server.url + "bad.html");
    await badStateShown(p);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    server.stop();
  }
});

for (const theme of ["mkdocs", "material"]) {
  test(`MkDocs 1.4.2 (${theme === "mkdocs" ? "its own theme" : "Material 8.2.5, instant navigation"}): the documented mkdocs.yml, main.html and page`, { timeout: 180_000 }, async (t) => {
    const have = spawnSync("mkdocs", ["--version"], { encoding: "utf8" }).status === 0 &&
      (theme === "mkdocs" || existsSync("/usr/share/mkdocs/themes/material/base.html"));
    const why = required(theme === "mkdocs" ? "mkdocs (Debian's mkdocs)" : "Material for MkDocs (Debian's mkdocs-material)", have);
    if (why) return t.skip(why);
    const dir = path.join(work, `mkdocs-${theme}`);
    const page = snippet("page");
    write(dir, {
      "mkdocs.yml": snippet(theme === "mkdocs" ? "mkdocs-yml" : "mkdocs-material-yml"),
      "overrides/main.html": withOrigin(snippet("mkdocs-main-html")),
      "docs/index.md": `# Guide\n\n${page}\n[The next page](next.md)\n`,
      "docs/next.md": `# Next\n\n${page}`,
      "docs/bad.md": `# Bad\n\n${cut(page)}`,
    });
    const started = Date.now();
    await run("mkdocs", ["build", "--quiet"], { cwd: dir, timeout: 120_000 });
    console.log(`# MkDocs (${theme}) build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const built = path.join(dir, "site");
    const good = checkDocs(path.join(dir, "docs", "index.md"), path.join(built, "index.html"), path.join(built, "next", "index.html"));
    assert.equal(good.code, 0, good.out);
    assert.match(good.out, /6 examples in 3 files, 0 problems/);
    const bad = checkDocs(path.join(built, "bad", "index.html"));
    assert.notEqual(bad.code, 0);
    assert.match(bad.out, /index\.html:\d+: the start state in its state attribute is not JSON/);

    const server = await staticServer(built, "/");
    // The system is dark: a page that is light keeps the embed light.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    try {
      const p = await context.newPage();
      const errors = [];
      // MkDocs' own theme loads highlight.js from a CDN, which this closed
      // network cannot reach: its own "hljs is not defined" is not ours.
      p.on("pageerror", (e) => /hljs is not defined/.test(String(e)) || errors.push(String(e)));
      await p.goto(server.url);
      await embedsWork(p);
      if (theme === "mkdocs") {
        // MkDocs' own theme is light whatever the system says; so is the embed.
        assert.deepEqual(await frameScheme(p, 0), { scheme: "light", dark: false });
        await p.getByRole("link", { name: "The next page" }).click();
        await p.waitForURL(/next/);
        await embedsWork(p);
      } else {
        assert.equal(await p.evaluate(() => document.body.dataset.mdColorScheme), "default");
        assert.deepEqual(await frameScheme(p, 0), { scheme: "light", dark: false });
        await p.locator("label[title='Switch to dark mode']").click();
        await p.waitForFunction(() => document.body.dataset.mdColorScheme === "slate");
        await p.waitForFunction(() => document.querySelector("table-playground").shadowRoot.querySelector(".frame").dataset.scheme === "dark");
        assert.deepEqual(await frameScheme(p, 0), { scheme: "dark", dark: true });
        // Instant navigation: the content is swapped in the same document.
        await p.evaluate(() => (window.sameDocument = true));
        await p.getByRole("link", { name: "The next page" }).click();
        await p.waitForURL(/next/);
        await p.getByRole("heading", { name: "Next", level: 1 }).waitFor();
        assert.equal(await p.evaluate(() => window.sameDocument), true, "Material navigated on the client");
        await embedsWork(p);
        assert.deepEqual(await frameScheme(p, 0), { scheme: "dark", dark: true });
      }
      await p.screenshot({ path: path.join(work, `mkdocs-${theme}-next.png`) });
      await p.goto(server.url + "bad/");
      await badStateShown(p);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      server.stop();
    }
  });
}
