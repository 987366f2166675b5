// web/accountstore.js is responsible for keeping one account in this
// browser's IndexedDB so that every tab of the page works on the same
// account, as clients of one service do:
//   - a change is saved as the engine's own change record (tableplay.changes()),
//     appended to a log: two tabs never overwrite each other's account;
//   - the saved account is the last base snapshot plus the log; a tab that
//     starts folds the log into a new base in the same transaction;
//   - a write (write(fn)) runs inside one IndexedDB readwrite transaction
//     that first applies what other tabs appended since this tab last read
//     the log, then runs the engine call, then appends its records. The
//     browser runs readwrite transactions over the same stores one at a time
//     across all tabs, so the writes of all tabs form one sequence: of two
//     tabs sending one If-Match at the same moment, the second sees the
//     first's change and gets 412, as on the service;
//   - after a save the tab tells its other tabs (BroadcastChannel), which
//     read the log the same way, so a change shows there without a write;
//   - a save that fails (storage full, storage cleared under the page) is
//     reported and retried; the retry saves the whole account.
// The records are opaque here: only the engine reads them.
import { t, formatDate } from "./i18n.js";

const DB = "tableplay";
const VERSION = 2;
const BASE = "account"; // key "snapshot": the base account document; key "meta": {epoch, through}
const LOG = "changes"; // auto-numbered change records after the base
const KEY = "snapshot";
const META = "meta";
const RETRY_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];

function openDB() {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = indexedDB.open(DB, VERSION);
    } catch (e) {
      reject(e);
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(BASE)) db.createObjectStore(BASE);
      if (!db.objectStoreNames.contains(LOG)) db.createObjectStore(LOG, { autoIncrement: true });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error(t("persist.blocked")));
  });
}

// done resolves when a transaction commits.
const done = (tx) =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error(t("persist.aborted")));
  });

// A base written whole (not folded from the log) gets a new epoch: a tab
// holding another one reads the account afresh. Random, so a database
// recreated after the browser cleared storage never repeats one.
const newEpoch = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

// createAccountStore keeps engine's account. say(text, {routine}) reports how saving
// (text a string, or a function that writes it in the shown language)
// goes (routine for an ordinary save); onRemote() is called after another
// tab's changes were applied here.
export function createAccountStore(engine, { say = () => {}, onRemote = () => {} } = {}) {
  let db = null;
  let usable = false; // storage opened once: a lost connection is reopened
  let channel = null;
  let epoch = null; // the base this tab's engine started from (null: read it afresh)
  let applied = 0; // the highest log key this tab's engine holds
  let paused = false; // a temporary session: nothing saved, nothing taken in
  let dirty = false; // a save failed: only a whole save is correct now
  let held = { changes: [], full: false }; // drained, not yet stored
  let failures = 0;
  let retryTimer = 0;

  // drain moves the engine's unsaved records into held.
  function drain() {
    const d = engine.changes();
    held.changes.push(...d.changes);
    held.full ||= d.full;
  }

  // catchUp brings the engine up to the saved account inside tx, then calls
  // next(meta, changed, problem). It reads the log records after applied; or
  // the base and the whole log (a new base, this tab's first read, or records
  // of this tab not stored yet, which must follow the others' as in the log:
  // they are applied again on top). When this tab's own save failed (dirty)
  // it reads only the log records after applied, on top of its account.
  // With read unset, or dirty with those records gone (a new base, a fold),
  // or when it holds too many records to apply again and would have to read
  // a new base, it reads nothing: the tab writes its whole account next.
  function catchUp(tx, next, read = true) {
    const metaReq = tx.objectStore(BASE).get(META);
    metaReq.onsuccess = () => {
      const meta = metaReq.result ?? { epoch: "", through: 0 };
      if (!read) return next(meta, false, "");
      if (dirty) {
        // The whole account goes next; what other tabs stored since this
        // tab last read goes into it first, while the log still holds it
        // (the same base, not folded away), or the whole write would
        // erase their acknowledged writes.
        if (epoch !== meta.epoch || meta.through > applied) return next(meta, false, "");
        return readLog(meta, false, next);
      }
      drain(); // this tab's own unsaved records stay held
      const afresh = epoch !== meta.epoch || meta.through > applied;
      if (afresh && held.full) {
        dirty = true;
        return next(meta, false, "");
      }
      readLog(meta, afresh, next);
    };
    function readLog(meta, afresh, next) {
      const log = tx.objectStore(LOG);
      const range = afresh ? null : IDBKeyRange.lowerBound(applied, true);
      const base = afresh ? tx.objectStore(BASE).get(KEY) : null;
      const keys = log.getAllKeys(range);
      const values = log.getAll(range);
      values.onsuccess = () => {
        if (!afresh && !dirty && values.result.length && held.changes.length && !held.full) return readLog(meta, true, next);
        let problem = "";
        if (afresh) {
          try {
            if (base.result) engine.restore(base.result);
            else if (epoch !== null || keys.result.length) engine.reset();
          } catch (err) {
            problem = t("persist.notRestored", { why: err.message });
          }
          epoch = meta.epoch;
          applied = meta.through;
        }
        values.result.forEach((rec, i) => {
          if (keys.result[i] <= applied) return;
          try {
            engine.applyChange(rec);
          } catch (err) {
            problem ||= t("persist.changeNotApplied", { why: err.message });
          }
          applied = keys.result[i];
        });
        if (afresh) {
          for (const rec of held.changes) {
            try {
              engine.applyChange(rec);
            } catch (err) {
              problem ||= t("persist.ownNotApplied", { why: err.message });
            }
          }
        }
        engine.changes(); // what reading recorded is already saved (or held)
        next(meta, afresh || values.result.length > 0, problem);
      };
    }
  }

  // store writes held into tx after catchUp: the records, or the whole
  // account when asked, when the engine kept too many to list, or after a
  // failed save. It returns what to do once the transaction commits.
  function store(tx, meta, whole) {
    const log = tx.objectStore(LOG);
    const records = held.changes;
    const all = whole || dirty || held.full;
    held = { changes: [], full: false };
    if (all) {
      const fresh = newEpoch();
      tx.objectStore(BASE).put(JSON.stringify(engine.snapshot()), KEY);
      tx.objectStore(BASE).put({ epoch: fresh, through: 0 }, META);
      log.clear();
      return { wrote: true, commit: () => ((epoch = fresh), (applied = 0), (dirty = false)) };
    }
    let last = applied;
    for (const rec of records) {
      const add = log.add(typeof rec === "string" ? rec : JSON.stringify(rec));
      add.onsuccess = () => (last = Math.max(last, add.result));
    }
    return { wrote: records.length > 0, commit: () => (applied = Math.max(applied, last)) };
  }

  // attempt runs one transaction: catch up, run fn (a synchronous call into
  // the engine, or null), store. It resolves with fn's answer and what was
  // done; it rejects with the storage's error, having run fn regardless
  // (ran.value holds the answer then).
  async function attempt(fn, ran, { whole = false, write = true } = {}) {
    if (!db) {
      db = await openDB();
      db.onclose = lost;
    }
    const tx = db.transaction([BASE, LOG], write ? "readwrite" : "readonly");
    const committed = done(tx);
    let after = null;
    let remote = false;
    let problem = "";
    catchUp(tx, (meta, changed, trouble) => {
      remote = changed;
      problem = trouble;
      if (fn) {
        ran.done = true;
        try {
          ran.value = fn();
        } catch (err) {
          ran.error = err;
        }
      }
      drain();
      if (write) after = store(tx, meta, whole);
    }, !whole); // a whole save replaces the saved account with this one as it is
    await committed;
    after?.commit();
    if (problem) say(problem);
    if (remote) onRemote();
    return after;
  }

  // lost is the browser closing the connection (storage cleared under the
  // page): the next save reopens it and writes the whole account.
  function lost() {
    db = null;
    dirty = true;
    say(() => t("persist.cleared"));
  }

  function failed(err) {
    try {
      db?.close();
    } catch {
      // already closed
    }
    db = null;
    dirty = true;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures++;
    const full = err?.name === "QuotaExceededError";
    const message = err?.message || String(err);
    const s = Math.round(wait / 100) / 10;
    say(() => t("persist.notSaved", { why: full ? t("persist.full") : message, s }));
    document.body.dataset.saveFailures = String(failures);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = 0;
      save();
    }, wait);
  }

  // The tab's transactions run one after another: each starts from the
  // engine state and the log position the previous one left.
  let chain = Promise.resolve();
  function serial(job) {
    const p = chain.then(job);
    chain = p.catch(() => {});
    return p;
  }

  const idle = () => !usable || paused;

  // run is one write or save: fn (or null) and what it changed, stored.
  // It resolves with {value, ms}; ms is null when nothing was saved.
  function run(fn, options) {
    return serial(async () => {
      const ran = { done: false, value: undefined, error: undefined };
      const start = performance.now();
      let ms = null;
      if (idle()) {
        if (fn) ran.value = fn();
        return { value: ran.value, ms };
      }
      try {
        const after = await attempt(fn, ran, options);
        if (after?.wrote) {
          channel?.postMessage({ type: "changes" });
          ms = performance.now() - start;
          failures = 0;
          const at = new Date();
          say(() => t("persist.saved", { time: formatDate(at, { timeStyle: "medium" }) }), { routine: true });
          document.body.dataset.saved = String(Number(document.body.dataset.saved ?? 0) + 1);
          document.body.dataset.saveMs = ms.toFixed(1); // for make measure
        }
      } catch (err) {
        if (fn && !ran.done) {
          try {
            ran.value = fn();
          } catch (e) {
            ran.error = e;
          }
        }
        failed(err);
      }
      if (ran.error) throw ran.error;
      return { value: ran.value, ms };
    });
  }

  // take reads what another tab announced.
  function take() {
    if (idle()) return;
    run(null, { write: dirty || held.changes.length > 0 }).catch(() => {});
  }

  // load puts the saved account into the engine; it resolves with false when
  // storage is unavailable (the page then works in memory).
  async function load() {
    try {
      db = await openDB();
      db.onclose = lost;
    } catch {
      db = null;
      say(() => t("persist.unavailable"));
      return false;
    }
    usable = true;
    if (typeof BroadcastChannel === "function") {
      channel = new BroadcastChannel("tableplay-account");
      channel.onmessage = () => take();
    }
    try {
      await fold();
    } catch {
      say(() => t("persist.unreadable"));
    }
    return true;
  }

  // fold reads the base and the whole log into the engine and writes them
  // back as one base (the log before it deleted), in one transaction.
  function fold() {
    return serial(async () => {
      epoch = null;
      held = { changes: [], full: false };
      engine.changes();
      const tx = db.transaction([BASE, LOG], "readwrite");
      const committed = done(tx);
      let problem = "";
      catchUp(tx, (meta, changed, trouble) => {
        problem = trouble;
        if (applied > meta.through && !problem) {
          tx.objectStore(BASE).put(JSON.stringify(engine.snapshot()), KEY);
          tx.objectStore(BASE).put({ epoch, through: applied }, META);
          tx.objectStore(LOG).delete(IDBKeyRange.upperBound(applied));
        }
      });
      await committed;
      if (problem) say(problem);
    });
  }

  // save stores the changes the engine made since the last save; with
  // whole set it replaces the saved account with this one. It resolves with
  // the milliseconds it took, or null when nothing was saved.
  function save(whole = false) {
    if (idle()) return Promise.resolve(null);
    drain();
    if (!whole && !dirty && !held.full && !held.changes.length) return Promise.resolve(null);
    return run(null, { whole }).then((r) => r.ms);
  }

  return {
    load,
    save,
    // write runs fn, a synchronous call into the engine that may change the
    // account, as one write of the account all tabs share, and resolves
    // with its answer once the change is stored (or reported unsaved).
    write: (fn) => run(fn).then((r) => r.value),
    // pause stops saving and taking in other tabs' changes (a temporary
    // session); resume reloads the saved account into the engine.
    pause() {
      paused = true;
      engine.changes();
    },
    get paused() {
      return paused;
    },
    async resume() {
      paused = false;
      if (!usable) return;
      epoch = null;
      held = { changes: [], full: false };
      engine.changes();
      await run(null, { write: false }).catch(() => {});
    },
    // keep ends a temporary session by making this account the saved one.
    async keep() {
      paused = false;
      engine.changes();
      return save(true);
    },
  };
}
