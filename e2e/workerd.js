// e2e/workerd.js is responsible for serving rooms in the browser tests:
// workerd (the pinned npm package) running workers/config.capnp as
// `make run-worker` does — the Go entry, the room objects and a site — built
// by `make worker` (make e2e builds it), on a free 127.0.0.1 port with the
// rooms' storage in a temporary directory, stopped (and the directory
// removed) when the test file ends. Without workerd the tests skip with a
// line saying what to run; under make test (TABLEPLAY_REQUIRE_ALL) they fail.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "./harness.js";

const BIN = path.join(root, "node_modules", ".bin", "workerd");
// What config.capnp embeds from workers/build (make worker).
const BUILT = ["room.wasm", "go-glue.js", "entry/app.wasm", "entry/wasm_exec.js", "entry/worker.mjs"];

// workerdMissing says why workerd cannot run here ("" when it can); under
// TABLEPLAY_REQUIRE_ALL a missing workerd throws instead.
export function workerdMissing() {
  if (existsSync(BIN)) return "";
  const why = `workerd is missing (${BIN}): run npm ci`;
  const required = process.env.TABLEPLAY_REQUIRE_ALL;
  if (required && required !== "0") throw new Error(`${why} (TABLEPLAY_REQUIRE_ALL=${required} makes this a failure)`);
  return why;
}

// freePort asks the system for a free loopback port.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// listening resolves once something accepts connections on port.
function accepts(port) {
  return new Promise((resolve) => {
    const c = createConnection({ host: "127.0.0.1", port });
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });
}

// startWorkerd serves workers/ with site as the site's directory and
// resolves with {url, stop, log} once workerd listens (at most 20 s).
// stop() ends it (SIGTERM, SIGKILL after 5 s) and removes its storage.
export async function startWorkerd({ site = path.join(root, "site", "public"), env = {} } = {}) {
  for (const f of BUILT) {
    if (!existsSync(path.join(root, "workers", "build", f))) throw new Error(`workers/build/${f} is missing: run make worker (make e2e builds it)`);
  }
  if (!existsSync(path.join(site, "index.html"))) throw new Error(`${site} has no index.html: run make site (make e2e builds it)`);
  const data = mkdtempSync(path.join(tmpdir(), "tableplay-rooms-"));
  const port = await freePort();
  const { log, done, stop } = spawnGroup(BIN, ["serve", path.join(root, "workers", "config.capnp"), "config",
    "--socket-addr", `http=127.0.0.1:${port}`, "--directory-path", `room-data=${data}`, "--directory-path", `site=${site}`], {
    env: { ...process.env, ROOM_SECRET: "e2e rooms secret", ...env },
  }, () => rmSync(data, { recursive: true, force: true }));
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    if (done()) {
      await stop();
      throw new Error(`workerd exited at start:\n${log()}`);
    }
    if (await accepts(port)) return { url: `http://127.0.0.1:${port}`, stop, log };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`workerd did not listen on 127.0.0.1:${port} within 20 s:\n${log()}`);
}

// spawnGroup runs a command (options as spawn takes them) in a process
// group of its own, so that stopping it ends the command and whatever it
// started, and nothing else; a test run that ends early still ends it.
// log() is what it has written, done() whether it has exited; stop() ends
// it (SIGTERM, SIGKILL after 5 s) and then calls cleanup.
export function spawnGroup(command, args, options, cleanup) {
  let log = "";
  let done = false;
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.on("data", (b) => (log += b));
  child.stderr.on("data", (b) => (log += b));
  const exited = new Promise((resolve) => child.once("exit", () => resolve((done = true))));
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const onExit = () => kill("SIGKILL");
  process.once("exit", onExit);
  const stop = async () => {
    process.removeListener("exit", onExit);
    if (!done) {
      kill("SIGTERM");
      const timer = setTimeout(() => kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    cleanup();
  };
  return { log: () => log, done: () => done, stop };
}

// createRoom asks the Worker at base for a room (POST /rooms) and returns
// its JSON answer.
export async function createRoom(base, options) {
  const res = await fetch(base + "/rooms", { method: "POST", body: options ? JSON.stringify(options) : undefined });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /rooms: ${res.status} ${text}`);
  return JSON.parse(text);
}
