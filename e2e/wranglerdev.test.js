// e2e/wranglerdev.test.js: the rooms under `wrangler dev` (the pinned
// wrangler and its miniflare), started with the repo's own configs
// (workers/wrangler.toml and workers/wrangler.rooms.toml, on what make
// worker site built) as docs/hosting.md says, driven by the JavaScript SDK
// (@azure/data-tables): a room is created through the entry, then a table,
// inserts, a merge, reads, a query and deletes. miniflare marks answers
// without a Content-Type as gzip when the client accepts it, bodiless ones
// too; the SDK's first 204 then failed to gunzip ("unexpected end of
// file"). workers/.dev.vars makes those answers say identity
// (workers/room/room.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "./harness.js";
import { createRoom, freePort, spawnGroup } from "./workerd.js";

const WRANGLER = path.join(root, "node_modules", ".bin", "wrangler");
const BUILT = ["workers/build/room.js", "workers/build/room.wasm", "workers/build/go-glue.js", "workers/build/entry/worker.mjs", "site/public/index.html"];

function missing() {
  if (existsSync(WRANGLER) && existsSync(path.join(root, "node_modules", "@azure", "data-tables"))) return "";
  const why = `wrangler or @azure/data-tables is missing under node_modules: run npm ci`;
  const required = process.env.TABLEPLAY_REQUIRE_ALL;
  if (required && required !== "0") throw new Error(`${why} (TABLEPLAY_REQUIRE_ALL=${required} makes this a failure)`);
  return why;
}

// startWranglerDev runs wrangler dev on a free loopback port with its
// state in a temporary folder, and resolves once it says it is ready (at
// most 90 s on a loaded 2-core machine).
async function startWranglerDev() {
  for (const f of BUILT) if (!existsSync(path.join(root, f))) throw new Error(`${f} is missing: run make worker site (make e2e builds them)`);
  const state = mkdtempSync(path.join(tmpdir(), "tableplay-wrangler-"));
  const port = await freePort();
  const { log, done, stop } = spawnGroup(WRANGLER, ["dev", "-c", "wrangler.toml", "-c", "wrangler.rooms.toml", "--ip", "127.0.0.1", "--port", String(port),
    "--persist-to", path.join(state, "persist"), "--inspector-port", String(await freePort()), "--show-interactive-dev-session=false"], {
    cwd: path.join(root, "workers"),
    // Nothing leaves the machine: no metrics, no Request.cf download, no
    // logs or config outside the temporary folder.
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_LOG_PATH: path.join(state, "logs"), XDG_CONFIG_HOME: path.join(state, "config") },
  }, () => rmSync(state, { recursive: true, force: true }));
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    if (done()) break;
    if (/Ready on http/.test(log())) {
      // Ready is printed once the entry listens; the rooms script may
      // still be starting.
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
        const res = await fetch(`http://127.0.0.1:${port}/rooms`, { method: "OPTIONS" }).catch(() => null);
        if (res) return { url: `http://127.0.0.1:${port}`, stop, log };
      }
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`wrangler dev did not start:\n${log()}`);
}

test("the JavaScript SDK works against a room under wrangler dev with the repo's configs", { timeout: 180_000 }, async (t) => {
  const why = missing();
  if (why) return t.skip(why);
  const { TableClient, TableServiceClient, odata } = await import("@azure/data-tables");
  const dev = await startWranglerDev();
  try {
    const room = await createRoom(dev.url);
    assert.match(room.connectionString, new RegExp(`TableEndpoint=${dev.url}/${room.account};`));
    const options = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
    const service = TableServiceClient.fromConnectionString(room.connectionString, options);
    await service.createTable("Orders"); // the first 204: it failed here before
    const client = TableClient.fromConnectionString(room.connectionString, "Orders", options);
    await client.createEntity({ partitionKey: "2024", rowKey: "a", Customer: "Ada", Total: 120.5 });
    await client.createEntity({ partitionKey: "2024", rowKey: "b", Customer: "Grace", Total: 80 });
    await client.updateEntity({ partitionKey: "2024", rowKey: "a", Note: "rush" }, "Merge");
    const a = await client.getEntity("2024", "a");
    assert.equal(a.Customer, "Ada");
    assert.equal(a.Note, "rush");
    assert.equal(a.Total, 120.5);
    const big = [];
    for await (const e of client.listEntities({ queryOptions: { filter: odata`PartitionKey eq '2024' and Total gt 100` } })) big.push(e.rowKey);
    assert.deepEqual(big, ["a"]);
    await client.deleteEntity("2024", "b");
    await assert.rejects(client.getEntity("2024", "b"), (e) => e.statusCode === 404);

    // The bodiless answer as a client that accepts gzip sees it: no body,
    // and an encoding nothing has to undo. The rest of the room's headers
    // are the engine's.
    const sas = new URLSearchParams(room.writeLink.split("#")[1]).get("sas");
    const res = await fetch(`${room.endpoint}/Tables('Orders')?${sas}`, { method: "DELETE", headers: { "Accept-Encoding": "gzip", "x-ms-version": "2019-02-02" } });
    assert.equal(res.status, 204, await res.clone().text());
    assert.equal(res.headers.get("content-encoding"), "identity");
    assert.equal((await res.arrayBuffer()).byteLength, 0);
    assert.match(res.headers.get("x-ms-request-id") ?? "", /^[0-9a-f-]{36}$/);
    assert.equal(res.headers.get("x-ms-version"), "2019-02-02");
  } catch (e) {
    e.message += `\n--- wrangler dev said:\n${dev.log().slice(-4000)}`;
    throw e;
  } finally {
    await dev.stop();
  }
});
