// e2e/harness.js is responsible for the browser tests' fixtures: the native
// server on a free loopback port and Debian's Chromium driven by
// playwright-core. A missing Chromium fails the run; it is never skipped.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const chromiumPath = process.env.CHROME || process.env.CHROMIUM || "/usr/bin/chromium";

// startServer runs bin/tableplay (make e2e builds it) serving the checkout
// (--web) and resolves with its base URL once it prints its address.
export function startServer(...flags) {
  return startBinary("--web", root, ...flags);
}

// startBinary runs bin/tableplay with only the given flags: without --web it
// serves the page embedded in the binary.
export function startBinary(...flags) {
  const bin = path.join(root, "bin", "tableplay");
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run make e2e`);
  // --in-memory: tests never touch the user's data directory.
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--quiet", "--in-memory", ...flags], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // stop ends the server and resolves once it has exited (SIGKILL after 5 s),
  // so a test that needs its port closed can await it rather than sleep.
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start in 10 s")), 10_000);
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop });
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

// launchBrowser starts headless Chromium with the flags this closed network
// needs (no background traffic). --process-per-site keeps one renderer per
// site in a context: a second tab of the page then reuses the first's
// compiled engine (a new tab's start measured at 2.0 CPU-seconds against
// 5.0 on a fresh renderer) rather than compiling it again.
//
// Every context it opens is a returning visitor with an empty account (the
// page's first-visit sample and "start here" path stay out of tests about
// other things); firstVisitContext opens a truly fresh profile.
export async function launchBrowser() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: install Debian's chromium package`);
  }
  const browser = await launchChromium();
  const fresh = browser.newContext.bind(browser);
  browser.firstVisitContext = fresh;
  browser.newContext = async (options) => {
    const context = await fresh(options);
    await context.addInitScript(() => {
      try {
        localStorage.setItem("tableplay:visited", "1");
      } catch {
        // an opaque origin has no storage, and no first visit either
      }
    });
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once("close", () => context.close());
    return page;
  };
  return browser;
}

// firstVisitContext opens a context as a new visitor's: nothing remembered.
export function firstVisitContext(browser, options) {
  return browser.firstVisitContext(options);
}

function launchChromium() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--process-per-site",
    ],
  });
}

// openPage loads the playground and waits for the engine.
export async function openPage(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(url + "/");
  await page.evaluate(() => window.tableplay.ready);
  return { page, context, errors };
}

// useBrowser registers the hooks most browser tests share: the native server
// and Chromium start before the file's tests and stop after them. The
// returned object holds them once started.
//
// env.context(options) is a context for one test on the server's origin
// whose pages start as a new visitor's would (see lendContext).
export function useBrowser(hooks) {
  const env = { artifacts: path.join(root, "e2e", "artifacts") };
  hooks.before(async () => {
    mkdirSync(env.artifacts, { recursive: true });
    env.server = await startServer();
    env.browser = await launchBrowser();
    env.context = lendContext(env.browser, env.server.url);
  });
  hooks.after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}

// assertNamed checks that every visible control a locator finds has an
// accessible name (at least min of them), and returns how many it found.
export async function assertNamed(controls, min) {
  const n = await controls.count();
  if (n < min) throw new Error(`${n} controls, expected at least ${min}`);
  for (let i = 0; i < n; i++) {
    const c = controls.nth(i);
    if (!(await c.isVisible())) continue;
    const snapshot = await c.ariaSnapshot();
    if (!/^- \w+ "[^"]+"/.test(snapshot)) throw new Error(`control ${i} has no accessible name: ${snapshot}`);
  }
  return n;
}

// sendOperation picks an operation (and an If-Match choice) in the page's
// operations form, sends it, waits for the status line to name its answer
// and returns the newest exchange's text.
export async function sendOperation(page, kind, ifMatch) {
  await page.getByLabel("Operation", { exact: true }).selectOption(kind);
  if (ifMatch) await page.locator(`input[name="ifmatch"][value="${ifMatch}"]`).check();
  // Clear the status so the wait below sees this operation's answer, not the last one's.
  await page.evaluate(() => (document.getElementById("status").textContent = ""));
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForFunction((k) => document.getElementById("status").textContent.startsWith(k + ":"), kind);
  return page.locator("#exchanges article").first().innerText();
}

// SHARED_OPTIONS are the context options a lent context takes (set on each
// of its pages); any other option needs a context of its own.
const SHARED_OPTIONS = new Set(["viewport", "colorScheme"]);

// lendContext returns a function that opens what a test uses as a fresh
// context on origin's pages, for tests that only open pages, drive them and
// close: one context of the browser, lent to one test at a time. A new
// context costs its tab a renderer of its own, where the engine is
// compiled again (measured: 2.5 s and 4.9 CPU-seconds to a ready page,
// against 1.3 s and 2.2 in the lent context). While it holds a page that
// keeps the engine compiled (e2e/fixtures/engine.html), each lend closes
// the last test's pages and clears everything the origin stored
// (IndexedDB, localStorage, caches, cookies): its pages start empty, as a
// new visitor's with the page's first visit already seen (launchBrowser).
// The HTTP cache stays warm: tests of bytes on the wire or of a cold start
// take a context of their own. Init scripts and routes a test sets apply to
// its own pages; permissions it grants last until the next lend. Options
// other than viewport and colorScheme, or a second lend while one is out,
// get a context of their own; anything else a context has throws.
export function lendContext(browser, origin) {
  let shared = null;
  let out = false;
  const setUp = async () => {
    const context = await browser.newContext();
    const keeper = await context.newPage();
    await keeper.goto(origin + "/e2e/fixtures/engine.html");
    await keeper.waitForSelector("html[data-ready=true]", { state: "attached", timeout: 30_000 });
    const cdp = await context.newCDPSession(keeper);
    return { context, keeper, cdp };
  };
  return async (options = {}) => {
    if (out || Object.keys(options).some((k) => !SHARED_OPTIONS.has(k))) return browser.newContext(options);
    out = true;
    try {
      shared ??= await setUp();
      for (const p of shared.context.pages()) if (p !== shared.keeper) await p.close();
      await shared.context.clearPermissions();
      await shared.cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
    } catch (error) {
      out = false;
      throw error;
    }
    const mine = new Set();
    const scripts = [];
    const routes = [];
    let closed = false;
    // Each page gets what a test asked of the context: its init scripts and
    // routes are set on the test's pages (the keeper's stay untouched).
    const lent = {
      async newPage() {
        if (closed) throw new Error("this lent context is closed");
        const page = await shared.context.newPage();
        mine.add(page);
        page.once("close", () => mine.delete(page));
        if (options.viewport) await page.setViewportSize(options.viewport);
        if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
        for (const script of scripts) await page.addInitScript(...script);
        for (const route of routes) await page.route(...route);
        return page;
      },
      pages: () => [...mine],
      async addInitScript(...script) {
        scripts.push(script);
        for (const page of mine) await page.addInitScript(...script);
      },
      async route(...route) {
        routes.push(route);
        for (const page of mine) await page.route(...route);
      },
      grantPermissions: (...args) => shared.context.grantPermissions(...args),
      newCDPSession: (page) => shared.context.newCDPSession(page),
      async close() {
        if (closed) return;
        closed = true;
        for (const p of [...mine]) await p.close();
        out = false;
      },
    };
    // What a lent context cannot do says so, not undefined.
    return new Proxy(lent, {
      get(target, prop) {
        if (prop in target || typeof prop === "symbol" || prop === "then") return target[prop];
        throw new Error(`a lent context has no ${String(prop)}: open this test's context with env.browser.newContext`);
      },
    });
  };
}
