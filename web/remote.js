// web/remote.js is responsible for a playground's target when it is a Table
// endpoint outside the tab (a room, `tableplay serve`, Azurite, a storage
// account): an object with the engine's shape (session.engine) whose
// operations go over the network. The engine builds each request and signs
// it with the key, or adds the SAS (tableplay.connect); this module only
// sends it with fetch and hands the answer back to the engine to read. It
// also watches the endpoint for other clients' writes.
//
// remoteEngine(tableplay, link) → the engine-shaped object; link is what
// tableplay.connect returned. Its `remote` says where it points.
// watchChanges(engine, onChange, options) → {stop, resume, state}.

import { t } from "./i18n.js";

// TIMEOUT bounds one request: an endpoint that never answers is reported.
const TIMEOUT = 15_000;

// Headers a page may not set (the browser sends its own): left out of fetch
// so it sends exactly what the wire view shows, save these.
const FORBIDDEN = new Set(["content-length", "host", "connection"]);

// reach sends a request the engine built and reads the whole answer:
// {response} or {error} saying why nothing came back.
export async function reach(request, signal = AbortSignal.timeout(TIMEOUT)) {
  const origin = new URL(request.url).origin;
  let res;
  try {
    res = await fetch(request.url, {
      method: request.method,
      headers: request.headers.filter(([k]) => !FORBIDDEN.has(k.toLowerCase())),
      body: request.body === "" ? undefined : request.body,
      mode: "cors",
      credentials: "omit",
      cache: "no-store",
      signal,
    });
  } catch (err) {
    if (late(err)) return { error: t("remote.late", { origin, s: TIMEOUT / 1000 }) };
    return { error: unreachable(origin) };
  }
  // The body comes after the headers, under the same time bound.
  let body;
  try {
    body = await capped(res);
  } catch (err) {
    if (late(err)) return { error: t("remote.lateBody", { origin, s: TIMEOUT / 1000 }) };
    return { error: t("remote.brokeOff", { origin }) };
  }
  if (body === null) return { error: t("remote.tooLarge", { origin, mib: MAX_ANSWER / 2 ** 20 }) };
  return { response: { status: res.status, statusText: res.statusText || "", headers: [...res.headers], body } };
}

const late = (err) => err?.name === "TimeoutError" || err?.name === "AbortError";

// MAX_ANSWER bounds an answer's body: an endpoint elsewhere may send
// anything (a page of 1,000 entities is a few MiB at most in practice).
const MAX_ANSWER = 32 * 2 ** 20;

// capped reads a response's body as text, or null once it passes
// MAX_ANSWER bytes (the rest is not read).
async function capped(res) {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_ANSWER) {
      reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

// unreachable is the message for a request that got no answer at all: the
// browser does not say which of these it was.
export function unreachable(origin) {
  const same = origin === location.origin;
  return same ? t("remote.unreachable", { origin }) : t("remote.unreachableCORS", { origin, page: location.origin });
}

export function remoteEngine(tableplay, link) {
  const notHere = (id) => ({ error: t(id, { endpoint: link.endpoint }) });
  return {
    ...tableplay.stateless,
    name: link.account,
    remote: link,
    requestFor: (operation) => link.requestFor(operation),
    // run sends the operation's request and reads the answer, in the shape
    // of the engine's run (no stats: the endpoint does not report them).
    async run(operation) {
      const request = link.requestFor(operation);
      if (request.error) return { request, error: request.error };
      const { response, error } = await reach(request);
      if (error) return { request, error };
      const read = tableplay.readExchange(request, response);
      return { request, response, code: read.code ?? "", message: read.message ?? "", requestBytes: read.requestBytes ?? 0, responseBytes: read.responseBytes ?? 0 };
    },
    // fetch sends a request as written (the page's "Send anyway") with
    // run's bounds (time, answer size); it rejects with the reason when no
    // answer came.
    async fetch(url, init = {}) {
      const { response, error } = await reach({ url, method: init.method ?? "GET", headers: init.headers ?? [], body: init.body ?? "" });
      if (error) throw new Error(error);
      const empty = [101, 103, 204, 205, 304].includes(response.status); // no body allowed
      return new Response(empty ? null : response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    codeFor: (operation, language) => link.codeFor(operation, language),
    // The filter is explained without the table's data (it is elsewhere).
    explainFilter: (text) => tableplay.explainFilter(text, ""),
    queryStats: () => ({}),
    queryPicture: () => notHere("remote.notHere.picture"),
    exportCSV: () => notHere("remote.notHere.csv"),
    importCSV: () => notHere("remote.notHere.csv"),
  };
}

// The polling's bounds: every EVERY ms while it works, doubling up to
// SLOWEST after failures, and pausing after IDLE ms without a person on the
// page (a forgotten tab does not poll an endpoint for ever).
const EVERY = 3000;
const SLOWEST = 30_000;
const IDLE = 20 * 60_000;

// watchChanges tells onChange when the endpoint's tables or the selected
// table's first page changed, read by a quiet query every few seconds.
// An endpoint that offers a change feed (a room may) sets
// engine.remote.subscribe(onChange) → stop, and is used instead.
//   select  () → the table whose entities to watch (or null)
//   onState (state) → "live", "slow" (after failures) or "paused"
export function watchChanges(engine, onChange, { select, onState = () => {} }) {
  if (typeof engine.remote.subscribe === "function") {
    const stop = engine.remote.subscribe(onChange);
    onState("live");
    return { stop, resume() {}, poke() {} };
  }
  let timer = null;
  let wait = EVERY;
  let active = Date.now();
  let stopped = false;
  let busy = false;
  const seen = new Map(); // what → the last answer's body
  const poke = () => {
    active = Date.now();
  };
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, poke, { passive: true });

  // same reads one thing quietly and says whether it is as last seen (a
  // first look counts as a change: the page's own read may be older).
  async function same(what, operation) {
    const ran = await engine.run(operation);
    if (ran.error || ran.response.status >= 500) throw new Error(ran.error ?? ran.response.statusText);
    const body = `${ran.response.status}\n${ran.response.body}`;
    const before = seen.get(what);
    seen.set(what, body);
    return before === body;
  }

  async function tick() {
    timer = null;
    if (stopped) return;
    if (Date.now() - active > IDLE) {
      onState("paused");
      return;
    }
    if (!document.hidden && !busy) {
      busy = true;
      try {
        const table = select();
        const tables = await same("tables", { kind: "listTables" });
        const entities = table ? await same("entities " + table, { kind: "query", table, top: 1000, level: "nometadata" }) : true;
        if (stopped) return; // the check outlived the watch: nothing of it is said
        if (!tables || !entities) onChange({ tables: !tables, entities: !entities });
        wait = EVERY;
        onState("live");
      } catch {
        if (stopped) return;
        wait = Math.min(wait * 2, SLOWEST);
        onState("slow");
      } finally {
        busy = false;
      }
    }
    if (!stopped) timer = setTimeout(tick, wait);
  }
  timer = setTimeout(tick, wait);
  onState("live");
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const type of ["pointerdown", "keydown"]) document.removeEventListener(type, poke);
    },
    resume() {
      poke();
      wait = EVERY;
      if (!timer && !stopped) timer = setTimeout(tick, 0);
    },
    // poke counts as a person's activity (the idle pause starts again).
    poke,
  };
}
