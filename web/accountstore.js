// web/accountstore.js is responsible for keeping one account in this
// browser's IndexedDB so that every tab of the page works on the same
// account, as clients of one service do:
//   - a change is saved as the engine's own change record (tableplay.changes()),
//     appended to a log: two tabs never overwrite each other's account;
//   - the saved account is the last base snapshot plus the log; a tab that
//     starts folds the log into a new base in the same transaction;
//   - after a tab stores its records it hands them to its other tabs
//     (BroadcastChannel), which apply them with tableplay.applyChange: a
//     table created in one tab appears in the other, and an ETag the other
//     tab still holds is stale afterwards (412), as on the service.
// The records are opaque here: only the engine reads them.
const DB = "tableplay";
const VERSION = 2;
const BASE = "account"; // key "snapshot": the base account document
const LOG = "changes"; // auto-numbered change records after the base
const KEY = "snapshot";

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
    req.onblocked = () => reject(new Error("an older tab holds the saved account open"));
  });
}

// done resolves when a transaction commits.
const done = (tx) =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("aborted"));
  });

// createAccountStore keeps engine's account. say(text) reports how saving
// goes; onRemote() is called after another tab's changes were applied here.
export function createAccountStore(engine, { say = () => {}, onRemote = () => {} } = {}) {
  let db = null;
  let channel = null;
  let folded = 0; // the highest log key the last fold read
  let paused = false; // a temporary session: nothing saved, nothing taken in
  let early = []; // messages that arrived while loading

  // fold reads the base and the log into the engine inside one transaction
  // and, when compact is set, writes them back as one base.
  function fold(compact) {
    const tx = db.transaction([BASE, LOG], compact ? "readwrite" : "readonly");
    const base = tx.objectStore(BASE).get(KEY);
    const log = tx.objectStore(LOG);
    const keys = log.getAllKeys();
    const values = log.getAll();
    let problem = "";
    values.onsuccess = () => {
      if (base.result) {
        try {
          engine.restore(base.result);
        } catch (err) {
          problem = "The saved account could not be restored: " + err.message;
        }
      } else if (keys.result.length) {
        engine.reset();
      }
      for (const rec of values.result) {
        try {
          engine.applyChange(rec);
        } catch (err) {
          problem ||= "A saved change could not be applied: " + err.message;
        }
      }
      engine.changes(); // what restoring recorded is already saved
      const last = keys.result.at(-1) ?? 0;
      folded = Math.max(folded, last);
      if (compact && last && !problem) {
        tx.objectStore(BASE).put(JSON.stringify(engine.snapshot()), KEY);
        log.delete(IDBKeyRange.upperBound(last));
      }
    };
    return done(tx).then(() => problem);
  }

  function take(msg) {
    if (paused) return;
    if (msg.type === "reload") {
      fold(false).then(onRemote);
      return;
    }
    let applied = 0;
    for (const [key, rec] of msg.records) {
      if (key <= folded) continue; // already read from the log
      try {
        engine.applyChange(rec);
        applied++;
      } catch (err) {
        say("A change from another tab could not be applied: " + err.message);
      }
    }
    engine.changes();
    if (applied) onRemote();
  }

  // load puts the saved account into the engine; it resolves with false when
  // storage is unavailable (the page then works in memory).
  async function load() {
    try {
      db = await openDB();
    } catch {
      db = null;
      say("Storage unavailable: your tables live in memory until you leave.");
      return false;
    }
    if (typeof BroadcastChannel === "function") {
      channel = new BroadcastChannel("tableplay-account");
      channel.onmessage = (e) => (early ? early.push(e.data) : take(e.data));
    }
    try {
      const problem = await fold(true);
      if (problem) say(problem);
    } catch {
      say("The saved account could not be read: changes are kept in memory only.");
    }
    const waiting = early;
    early = null;
    waiting.forEach(take);
    return true;
  }

  let chain = Promise.resolve();

  // save stores the changes the engine made since the last save; with
  // whole set (or when the engine kept too many to list) it replaces the
  // saved account with this one and tells the other tabs to reload.
  function save(whole = false) {
    if (!db || paused) return Promise.resolve(null);
    const { changes, full } = engine.changes();
    if (!whole && !full && !changes.length) return Promise.resolve(null);
    const start = performance.now();
    const run = async () => {
      const tx = db.transaction([BASE, LOG], "readwrite");
      const adds = [];
      if (whole || full) {
        tx.objectStore(BASE).put(JSON.stringify(engine.snapshot()), KEY);
        tx.objectStore(LOG).clear();
      } else {
        for (const rec of changes) adds.push(tx.objectStore(LOG).add(JSON.stringify(rec)));
      }
      try {
        await done(tx);
      } catch (e) {
        say(e?.name === "QuotaExceededError" ? "Storage full: the latest changes are kept in memory only." : "Could not save: changes are kept in memory only.");
        return null;
      }
      if (whole || full) {
        channel?.postMessage({ type: "reload" });
      } else {
        const records = adds.map((r, i) => [r.result, JSON.stringify(changes[i])]);
        channel?.postMessage({ type: "changes", records });
      }
      say(`Saved in this browser at ${new Date().toLocaleTimeString()}.`);
      const ms = performance.now() - start;
      document.body.dataset.saved = String(Number(document.body.dataset.saved ?? 0) + 1);
      document.body.dataset.saveMs = ms.toFixed(1); // for make measure
      return ms;
    };
    chain = chain.then(run);
    return chain;
  }

  return {
    load,
    save,
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
      if (db) await fold(false);
    },
    // keep ends a temporary session by making this account the saved one.
    async keep() {
      paused = false;
      engine.changes();
      return save(true);
    },
  };
}
