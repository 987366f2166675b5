// The room: a Durable Object holding one hosted account. It runs the
// engine's js/wasm build (engine/, one Go instance per object), hands it
// every Table API request and keeps the account in the object's SQLite
// storage: one journal row per committed change (a batch is one change, so
// one transaction), snapshot rows written by compaction, both loaded and
// replayed when the object starts. workers/CONTRACT.md is what the entry
// Worker may rely on.
import { Go, goGlobals } from "./go-glue.js";
import engineModule from "./room.wasm";

// A row's value stays under the 2 MB limit of the storage: longer records
// and snapshot blocks are cut into parts of this size.
const PART_BYTES = 1 << 20;
// The largest request body the service accepts; a longer one is read only
// this far (plus a byte), and the engine answers 413 RequestBodyTooLarge.
const MAX_BODY = 4 << 20;
// The journal is compacted into snapshot rows once it holds this much.
const COMPACT_BYTES = 4 << 20;
// How soon after the journal passes COMPACT_BYTES the alarm compacts.
const COMPACT_DELAY_MS = 2000;
// Activity is written down at most this often; expiry is checked against it.
const ACTIVITY_WRITE_MS = 60_000;

// Each Go instance finds its binding under a name of its own: several
// objects may share an isolate, and so the glue's goGlobals.
let instances = 0;

/** Room is the Durable Object class (binding ROOMS in the entry Worker). */
export class Room {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    this.sql = ctx.storage.sql;
    this.engine = null; // the Go instance's binding, once open
    this.failure = ""; // why the stored account cannot be served
    this.journalBytes = 0;
    this.second = 0; // the second requests are being counted in, and their count
    this.inSecond = 0;
    this.refusedInSecond = 0; // requests the engine refused on their head, counted apart
    this.lastActive = 0;
    this.activityWritten = 0;
    ctx.blockConcurrencyWhile(() => this.start());
  }

  // start reads the room's record and, for a live room, loads the account.
  async start() {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS journal (seq INTEGER NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (seq, part))`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS snapshot (block INTEGER NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (block, part))`);
    this.meta = Object.fromEntries(this.sql.exec(`SELECT k, v FROM meta`).toArray().map((r) => [r.k, r.v]));
    // Requests of the last ACTIVITY_WRITE_MS before a restart may not be
    // written down: the room may have been used as late as then (or now),
    // and expiring it earlier would delete a room in use.
    this.activityWritten = Number(this.meta.lastActive || 0);
    this.lastActive = Math.max(this.activityWritten, Math.min(this.activityWritten + ACTIVITY_WRITE_MS, Date.now()));
    if (this.meta.account && !this.meta.expired) await this.open();
  }

  // open starts a Go instance and loads the snapshot and the journal into
  // it. Damage (a missing part, a gap in the journal, a record the engine
  // refuses) stops here with a message; nothing is changed or served.
  async open() {
    this.engine = null;
    this.failure = "";
    try {
      const binding = await startEngine();
      binding.append = (first, rows) => this.append(first, rows);
      const snapshotSeq = Number(this.meta.snapshotSeq || 0);
      const blocks = readParts(this.sql.exec(`SELECT block AS n, part, parts, data FROM snapshot ORDER BY block, part`), "snapshot block", 0);
      const records = readParts(this.sql.exec(`SELECT seq AS n, part, parts, data FROM journal ORDER BY seq, part`), "journal record", snapshotSeq + 1);
      this.journalBytes = records.reduce((n, r) => n + r.byteLength, 0);
      const why = binding.open(this.meta.account, this.meta.key, blocks, records, snapshotSeq + records.length);
      if (why) throw new Error(why);
      this.engine = binding;
    } catch (e) {
      this.failure = `room ${this.meta.account}: ${e.message}; refusing to serve it, nothing was changed`;
      console.error(this.failure);
    }
  }

  // append is the engine's journal: the change records first … first+n-1,
  // each one row (in parts when long), in one transaction. It throws when
  // the storage refuses, and the engine answers 500.
  append(first, rows) {
    this.ctx.storage.transactionSync(() => {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        const parts = Math.max(1, Math.ceil(row.byteLength / PART_BYTES));
        for (let p = 0; p < parts; p++) {
          this.sql.exec(`INSERT INTO journal (seq, part, parts, data) VALUES (?, ?, ?, ?)`, first + i, p, parts, row.subarray(p * PART_BYTES, (p + 1) * PART_BYTES));
        }
        this.journalBytes += row.byteLength;
      }
    });
    if (this.journalBytes >= COMPACT_BYTES) this.schedule(Date.now() + COMPACT_DELAY_MS);
  }

  async fetch(request) {
    const now = Number(request.headers.get("x-tableplay-room-now")) || Date.now();
    if (request.headers.has("x-tableplay-room-control")) return this.control(request, now);
    return this.api(request, now);
  }

  // api answers a Table API request with the engine, or with the room's
  // own error when there is no room to answer from. The engine judges the
  // head first (signature, resource, declared length): a request it
  // refuses there is answered without reading a byte of its body, and is
  // counted in a budget of its own, so that nobody without the room's key
  // fills the isolate with bodies or spends the owner's requests. A
  // request let through is counted against the room's requests per
  // second, its body read (bounded), and only then, with no await before
  // the commit, checked against the limits: the engine answers
  // synchronously, so concurrent writes meet the limits one after another.
  async api(request, now) {
    const refused = await this.refuse(request, now);
    if (refused) return refused;
    const limits = JSON.parse(this.meta.limits || "{}");
    const second = Math.floor(now / 1000);
    if (second !== this.second) [this.second, this.inSecond, this.refusedInSecond] = [second, 0, 0];
    const headers = [];
    for (const [k, v] of request.headers) if (!k.startsWith("x-tableplay-room-")) headers.push([k, v]);
    const remote = request.headers.get("x-tableplay-room-remote") || "";
    const declared = declaredLength(request);
    let engine = this.engine;
    let begun = engine.head(request.method, request.url, headers, declared, now, remote);
    if (typeof begun !== "number") {
      if (limits.rps > 0 && ++this.refusedInSecond > limits.rps) return this.fail(503, "ServerBusy", "The server is busy.", now);
      this.active(now);
      return toResponse(begun, request.method);
    }
    if (limits.rps > 0 && ++this.inSecond > limits.rps) {
      engine.finish(begun, null);
      return this.fail(503, "ServerBusy", "The server is busy.", now);
    }
    const writes = !["GET", "HEAD", "OPTIONS", "DELETE"].includes(request.method);
    // Reads and deletes always work, so a full room can be emptied.
    let full = writes && this.full(limits, now);
    if (full) {
      engine.finish(begun, null);
      return full;
    }
    const body = await readBody(request, declared);
    // While the body came, the alarm may have expired the room, or a write
    // that could not be stored may have dropped its engine (and a later
    // request opened another): the request begins again on the engine
    // there is now.
    if (this.meta.expired || this.engine !== engine) {
      if (this.engine === engine) engine.finish(begun, null);
      const again = await this.refuse(request, now);
      if (again) return again;
      engine = this.engine;
      begun = engine.head(request.method, request.url, headers, declared, now, remote);
      if (typeof begun !== "number") return toResponse(begun, request.method);
    }
    // Checked again with the body in hand, just before the commit: writes
    // that waited for their bodies together are judged one at a time.
    full = writes && this.full(limits, now);
    if (full) {
      engine.finish(begun, null);
      return full;
    }
    const out = engine.finish(begun, body === undefined ? undefined : body);
    if (out.broken) {
      // The account in memory is ahead of the storage: start again from
      // the storage with the next request.
      console.error(`room ${this.meta.account}: ${out.broken}`);
      this.engine = null;
    }
    this.active(now);
    return toResponse(out, request.method, this.env);
  }

  // full is the room's refusal of a write when it is at a limit, or null.
  full(limits, now) {
    if (limits.entities > 0 && this.engine.usage() >= limits.entities) {
      return this.fail(403, "RoomLimitExceeded", `The room holds ${limits.entities} entities, its limit; delete some before writing more.`, now);
    }
    if (limits.bytes > 0 && this.sql.databaseSize >= limits.bytes) {
      return this.fail(403, "RoomLimitExceeded", `The room holds ${limits.bytes} bytes, its limit; delete some before writing more.`, now);
    }
    return null;
  }

  // refuse is the room's own answer when it has no engine to answer a
  // Table API request with (opening it when it can), or null when
  // this.engine is ready.
  async refuse(request, now) {
    const name = this.meta.account || new URL(request.url).pathname.split("/")[1] || "";
    if (this.meta.expired) return this.fail(404, "ResourceNotFound", `The room ${name} expired at ${new Date(Number(this.meta.expired)).toISOString()} and its data was deleted.`, now);
    // An account no room has is answered as the service answers any
    // resource it does not have.
    if (!this.meta.account) return this.fail(404, "ResourceNotFound", "The specified resource does not exist.", now);
    if (!this.engine && !this.failure) await this.open();
    if (!this.engine) return this.fail(500, "InternalError", "The room's stored data cannot be loaded; it is kept as it is.", now);
    return null;
  }

  // active notes activity, written down at most once a minute, and keeps
  // the expiry alarm set.
  active(now) {
    this.lastActive = Math.max(this.lastActive, now);
    if (now - this.activityWritten < ACTIVITY_WRITE_MS) return;
    this.activityWritten = now;
    this.setMeta({ lastActive: String(this.lastActive) });
    this.scheduleExpiry();
  }

  scheduleExpiry() {
    const idle = Number(this.meta.idleSeconds || 0);
    if (idle > 0) this.schedule(this.lastActive + idle * 1000);
  }

  // schedule sets the one alarm to at, unless it is set sooner already.
  async schedule(at) {
    try {
      const cur = await this.ctx.storage.getAlarm();
      if (cur === null || cur > at) await this.ctx.storage.setAlarm(at);
    } catch (e) {
      // A later write or the next activity sets it again.
      console.error(`room ${this.meta.account}: setting the alarm failed: ${e.message}`);
    }
  }

  // alarm expires an idle room or compacts the journal, whichever is due.
  async alarm() {
    if (!this.meta.account || this.meta.expired) return;
    const now = Date.now();
    const idle = Number(this.meta.idleSeconds || 0);
    if (idle > 0 && now >= this.lastActive + idle * 1000) {
      this.expire(now);
      return;
    }
    if (this.engine && this.journalBytes >= COMPACT_BYTES) this.compact();
    this.scheduleExpiry();
  }

  // compact writes the account as snapshot rows and deletes the journal
  // rows they hold, in one transaction: the engine answers synchronously,
  // so no change comes between its blocks and the delete.
  compact() {
    const snap = this.engine.compact();
    if (typeof snap === "string" || snap === null) {
      console.error(`room ${this.meta.account}: compaction failed (the journal keeps growing, nothing is lost): ${snap}`);
      return;
    }
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(`DELETE FROM snapshot`);
      snap.blocks.forEach((b, n) => {
        const parts = Math.max(1, Math.ceil(b.byteLength / PART_BYTES));
        for (let p = 0; p < parts; p++) {
          this.sql.exec(`INSERT INTO snapshot (block, part, parts, data) VALUES (?, ?, ?, ?)`, n, p, parts, b.subarray(p * PART_BYTES, (p + 1) * PART_BYTES));
        }
      });
      this.sql.exec(`DELETE FROM journal WHERE seq <= ?`, snap.seq);
      this.setMeta({ snapshotSeq: String(snap.seq) });
    });
    this.journalBytes = 0;
  }

  // expire deletes the account and its key, keeping a tombstone so that
  // requests say the room expired and the name is never given again.
  expire(now) {
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(`DELETE FROM journal`);
      this.sql.exec(`DELETE FROM snapshot`);
      this.sql.exec(`DELETE FROM meta`);
      this.meta = { account: this.meta.account };
      this.setMeta({ account: this.meta.account, expired: String(now) });
    });
    this.engine = null;
    this.journalBytes = 0;
  }

  setMeta(kv) {
    for (const [k, v] of Object.entries(kv)) {
      this.sql.exec(`INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`, k, v);
      this.meta[k] = v;
    }
  }

  // control serves the entry's requests about the room itself
  // (CONTRACT.md, "Control requests").
  async control(request, now) {
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/_room/create") return this.create(await request.json().catch(() => null), now);
    if (request.method === "POST" && path === "/_room/admit") return this.admit(await request.json().catch(() => null), now);
    if (request.method === "GET" && path === "/_room/info") {
      if (!this.meta.account) return json(404, { error: "no room" });
      return json(200, this.info());
    }
    if (request.method === "DELETE" && path === "/_room") {
      if (!this.meta.account || this.meta.expired) return json(404, { error: "no room" });
      this.expire(now);
      return new Response(null, { status: 204 });
    }
    return json(404, { error: "no such control request" });
  }

  // admit is the registry's part (the object the entry names "_rooms",
  // which holds no room): it counts the rooms created in the current
  // window, per client and in total, and answers 429 with the bound met
  // once either is reached. The counts are kept in memory only (no
  // client's address is written down); a restart of the registry starts
  // the window's counts again.
  admit(req, now) {
    if (this.meta.account) return json(409, { error: "a room is no registry" });
    if (!req || typeof req.client !== "string") return json(400, { error: "the body must be {client, perClient, total, windowSeconds}" });
    const windowMs = Math.max(1, Math.floor(Number(req.windowSeconds) || 3600)) * 1000;
    const window = Math.floor(now / windowMs);
    if (this.admits?.window !== window) this.admits = { window, total: 0, clients: new Map() };
    const a = this.admits;
    const retryAfter = Math.ceil(((window + 1) * windowMs - now) / 1000);
    const perClient = Math.floor(Number(req.perClient) || 0);
    const total = Math.floor(Number(req.total) || 0);
    const mine = a.clients.get(req.client) || 0;
    if (perClient > 0 && mine >= perClient) return json(429, { refused: "client", retryAfter });
    if (total > 0 && a.total >= total) return json(429, { refused: "total", retryAfter });
    a.clients.set(req.client, mine + 1);
    a.total++;
    return json(200, { admitted: true });
  }

  create(req, now) {
    if (this.meta.account) return json(409, { error: "exists" });
    if (!req || typeof req.account !== "string" || !req.account || typeof req.key !== "string" || !req.key) {
      return json(400, { error: "the body must be {account, key, idleSeconds, limits}" });
    }
    const limits = {};
    for (const k of ["entities", "bytes", "rps"]) limits[k] = Math.max(0, Math.floor(Number(req.limits?.[k]) || 0));
    this.ctx.storage.transactionSync(() => {
      this.setMeta({
        account: req.account,
        key: req.key,
        created: String(now),
        idleSeconds: String(Math.max(0, Math.floor(Number(req.idleSeconds) || 0))),
        limits: JSON.stringify(limits),
        lastActive: String(now),
      });
    });
    this.lastActive = this.activityWritten = now;
    this.scheduleExpiry();
    return this.open().then(() => (this.engine ? json(201, this.info()) : json(500, { error: this.failure })));
  }

  info() {
    const m = this.meta;
    const idle = Number(m.idleSeconds || 0);
    const out = { account: m.account, created: m.created && new Date(Number(m.created)).toISOString() };
    if (m.expired) return { ...out, expired: new Date(Number(m.expired)).toISOString() };
    return {
      ...out,
      expires: idle > 0 ? new Date(this.lastActive + idle * 1000).toISOString() : null,
      records: this.sql.exec(`SELECT COUNT(DISTINCT seq) AS n FROM journal`).one().n,
      snapshotBlocks: this.sql.exec(`SELECT COUNT(DISTINCT block) AS n FROM snapshot`).one().n,
      bytes: this.sql.databaseSize,
      entities: this.engine ? this.engine.usage() : null,
    };
  }

  // fail is the room's own answer in the service's error format.
  async fail(status, code, message, now) {
    startedEngine ||= await startEngine();
    return toResponse(startedEngine.fail(status, code, message, now, crypto.randomUUID()), "GET");
  }
}

// startedEngine is any open binding of this isolate, for answers that need
// the service's error format but no account (fail reads no state).
let startedEngine = null;

// startEngine starts a Go instance and resolves with its binding once its
// functions are registered.
async function startEngine() {
  const name = `tableplayRoom${++instances}`;
  const binding = {};
  const ready = new Promise((resolve) => (binding.ready = resolve));
  goGlobals[name] = binding;
  const go = new Go();
  go.env = { TABLEPLAY_BINDING: name };
  const instance = await WebAssembly.instantiate(engineModule, go.importObject);
  const exited = go.run(instance).then(() => {
    throw new Error("the engine exited");
  });
  try {
    await Promise.race([ready, exited]);
  } finally {
    delete goGlobals[name];
  }
  return binding;
}

// readParts joins the rows of a table (n, part, parts, data), in order,
// into whole values; numbering must start at first (0 for any) and leave no
// gap, and every value must have all its parts.
function readParts(cursor, what, first) {
  const out = [];
  let cur = null;
  let expect = first;
  for (const row of cursor) {
    const data = new Uint8Array(row.data);
    if (row.part === 0) {
      if (cur) throw new Error(`${what} ${cur.n} lacks parts ${cur.chunks.length}-${cur.parts - 1}`);
      if (first > 0 && row.n !== expect) throw new Error(`${what} ${row.n} follows ${expect - 1}: ${what}s ${expect}-${row.n - 1} are missing`);
      expect = row.n + 1;
      cur = { n: row.n, parts: row.parts, chunks: [data] };
    } else if (!cur || cur.n !== row.n || row.part !== cur.chunks.length || row.parts !== cur.parts) {
      throw new Error(`${what} ${row.n}: part ${row.part} out of order`);
    } else {
      cur.chunks.push(data);
    }
    if (cur.chunks.length === cur.parts) {
      out.push(join(cur.chunks));
      cur = null;
    }
  }
  if (cur) throw new Error(`${what} ${cur.n} lacks parts ${cur.chunks.length}-${cur.parts - 1}`);
  return out;
}

function join(chunks) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

// declaredLength is a request's Content-Length, -1 when it has none (or
// one that is not a length).
function declaredLength(request) {
  const v = request.headers.get("content-length");
  const n = v === null ? NaN : Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : -1;
}

// readBody reads a request's body, no further than MAX_BODY + 1 bytes: a
// body declared or found longer is answered as its length (a number), the
// engine's 413 RequestBodyTooLarge, and the rest is never read.
async function readBody(request, declared) {
  if (!request.body) return undefined;
  if (declared > MAX_BODY) {
    await request.body.cancel().catch(() => {});
    return declared;
  }
  const reader = request.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    n += value.byteLength;
    if (n > MAX_BODY) {
      await reader.cancel().catch(() => {});
      return n;
    }
  }
  return join(chunks.length ? chunks : [new Uint8Array(0)]);
}

// toResponse turns the engine's answer into a Response, its headers as the
// engine set them; HEAD and the statuses that have no body carry none.
function toResponse(out, method, env) {
  const headers = new Headers();
  for (const [k, v] of out.headers) headers.append(k, v);
  const empty = method === "HEAD" || out.status === 204 || out.status === 304;
  // Under wrangler dev, miniflare labels an answer that has no Content-Type
  // "Content-Encoding: gzip" when the client accepts gzip, bodiless ones
  // too, and the JS SDK then fails to gunzip the empty body of its first
  // 204. workers/.dev.vars, which only wrangler dev reads, sets
  // ROOM_DEV_IDENTITY: such answers then say "identity", which miniflare
  // leaves alone. Deployed and under workerd they are the engine's bytes.
  if (empty && env?.ROOM_DEV_IDENTITY === "1" && !headers.has("content-encoding")) headers.set("content-encoding", "identity");
  return new Response(empty ? null : out.body, { status: out.status, statusText: out.statusText, headers });
}

function json(status, value) {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

// The default export makes this a module Worker, as wrangler requires of a
// script that defines a Durable Object class (workerd's own config needs
// none). Clients reach rooms through the entry Worker; a request sent to
// this script directly gets a 404.
export default {
  fetch() {
    return new Response("this script holds the rooms' Durable Objects; requests go through the entry Worker\n", { status: 404 });
  },
};
