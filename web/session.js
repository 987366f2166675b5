// web/session.js is responsible for what the parts of one playground share:
// its engine account, the selected table, the metadata level of reads, the
// ETags seen per entity (so a stale one can be offered), the ETag the person
// holds for each (the one their own read or write brought) and an event bus.
// Every playground (the full page, each embed) has its own session; nothing
// here is module-level state.
//
// createSession({engine, host, readonly, status, profileCompare}):
//   engine          the account's functions (tableplay.account(name) or tableplay)
//   host            the element that holds the parts (dialogs are added here)
//   readonly        writes are shown as the request that would be sent, not run
//   status          an element for one-line status messages (optional)
//   profileCompare  replays an exchange under another profile (the full
//                   page's, web/profilecompare.js; null in an embed)
// The session's `destroy()` removes every bus listener the parts added.
// Its fields are all declared here; the bus's event names are declared in
// web/partlist.js (EVENTS).
import { liveText } from "./dom.js";

export function createSession({ engine, host, readonly = false, status = null, profileCompare = null }) {
  const bus = new EventTarget();
  const teardown = new AbortController();
  const etags = new Map(); // "table\u0000pk\u0000rk" → ETags in the order seen
  // held: the ETag of the person's own last read or write of each entity
  // (Load, a Get, a write's answer). A background refresh adds to etags
  // only: an If-Match the person sends is one they read.
  const held = new Map();
  const key = (table, pk, rk) => [table, pk, rk].join("\u0000");
  const session = {
    engine,
    host,
    readonly,
    table: null,
    level: "minimalmetadata",
    signal: teardown.signal,
    profileCompare,
    // codeTarget ({endpoint, account, createTable}) is where copied code
    // connects: an embed's, set when its start state is read; null for the
    // page's own server or the emulator.
    codeTarget: null,
    // compare(operation, from, where) sends an exchange's operation again
    // to the endpoint it went to (web/connect.js sets it); null where the
    // playground cannot connect.
    compare: null,
    // writesRefused says why the connected endpoint's SAS cannot write
    // (web/connect.js sets it); "" where writes may be sent.
    writesRefused: "",
    // draft is replaced by the editor when one is mounted.
    draft: () => null,
    emit(type, detail = {}) {
      bus.dispatchEvent(new CustomEvent(type, { detail }));
    },
    on(type, fn) {
      bus.addEventListener(type, (e) => fn(e.detail), { signal: teardown.signal });
    },
    // sawETag records an ETag an answer carried for an entity.
    // A new one is told as "etag-seen" ({table, pk, rk, etag}).
    sawETag(table, pk, rk, etag) {
      if (!etag) return;
      const list = etags.get(key(table, pk, rk)) ?? [];
      if (list.at(-1) === etag) return;
      list.push(etag);
      etags.set(key(table, pk, rk), list);
      session.emit("etag-seen", { table, pk, rk, etag });
    },
    etagsOf: (table, pk, rk) => etags.get(key(table, pk, rk)) ?? [],
    // holdETag records the ETag the person's own read or write brought
    // (null: the entity is gone, as after their delete); it is seen too.
    holdETag(table, pk, rk, etag) {
      if (etag) {
        held.set(key(table, pk, rk), etag);
        this.sawETag(table, pk, rk, etag);
      } else held.delete(key(table, pk, rk));
    },
    heldETag: (table, pk, rk) => held.get(key(table, pk, rk)) ?? null,
    // forgetETags drops every ETag seen and held (the target changed:
    // another endpoint's entities are other entities).
    forgetETags: () => {
      etags.clear();
      held.clear();
    },
    // setStatus shows one line: a text, or a function that words it (with
    // i18n.js t()), called again when the reader switches language.
    setStatus(text) {
      if (status) liveText(status, typeof text === "function" ? text : () => text, teardown.signal);
    },
    destroy() {
      teardown.abort();
    },
  };
  return session;
}
