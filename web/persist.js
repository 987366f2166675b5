// web/persist.js is responsible for keeping the account in this browser:
// the engine's snapshot saved in IndexedDB after every change and restored
// on the next visit; when storage is unavailable or full the page says so
// and keeps working in memory.
const DB = "tableplay";
const STORE = "account";
const KEY = "snapshot";

function openDB() {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = indexedDB.open(DB, 1);
    } catch (e) {
      reject(e);
      return;
    }
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function request(db, mode, fn) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

// createPersistence keeps one account (the full page's) in IndexedDB;
// status is the element that says how saving goes.
export function createPersistence(engine, status) {
  const say = (text) => {
    status.textContent = text;
  };
  let db = null;
  let timer;
  // paused holds saves while a shared account is open for the visit only.
  let paused = false;

  // load returns the saved snapshot (a string) or null.
  async function load() {
    try {
      db = await openDB();
      return (await request(db, "readonly", (s) => s.get(KEY))) ?? null;
    } catch {
      db = null;
      say("Storage unavailable: your tables live in memory until you leave.");
      return null;
    }
  }

  // save writes the current account; resolves with the time it took.
  async function save() {
    if (!db || paused) return null;
    const start = performance.now();
    const text = JSON.stringify(engine.snapshot());
    try {
      await request(db, "readwrite", (s) => s.put(text, KEY));
      say(`Saved in this browser at ${new Date().toLocaleTimeString()}.`);
      const ms = performance.now() - start;
      document.body.dataset.saved = String(Number(document.body.dataset.saved ?? 0) + 1);
      document.body.dataset.saveMs = ms.toFixed(1); // for make measure
      return ms;
    } catch (e) {
      say(e?.name === "QuotaExceededError" ? "Storage full: the latest changes are kept in memory only." : "Could not save: changes are kept in memory only.");
      return null;
    }
  }

  // watch saves after every change to this account (an event without an
  // account name counts as the page's).
  function watch() {
    window.addEventListener("tableplay:change", (e) => {
      if ((e.detail?.account ?? engine.name) !== engine.name) return;
      clearTimeout(timer);
      timer = setTimeout(save, 200);
    });
  }

  // pause stops (true) or resumes (false) saving the account.
  function pause(on) {
    paused = on;
  }

  return { load, save, watch, pause };
}
