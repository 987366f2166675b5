// web/persist.js is responsible for keeping the page's account in this
// browser: web/accountstore.js saves it change by change and shares it with
// the page's other tabs; the status element says how saving goes.
//
// createPersistence(engine, status, {onRemote}) → {load, save, watch, pause,
// resume, keep}; onRemote is called after another tab's changes arrived.
import { createAccountStore } from "./accountstore.js";

export function createPersistence(engine, status, { onRemote = () => {} } = {}) {
  const store = createAccountStore(engine, {
    // A routine save is shown, not announced (it follows every write, whose
    // own status is announced); a problem with storage is announced.
    say: (text, { routine = false } = {}) => {
      status.setAttribute("aria-live", routine ? "off" : "polite");
      status.textContent = text;
    },
    onRemote: () => onRemote(),
  });
  return {
    // load puts the saved account into the engine and, from then on, every
    // write to it goes through the store (one sequence for all tabs).
    load: async () => {
      const ok = await store.load();
      engine.keepWrites?.((fn) => store.write(fn));
      return ok;
    },
    save: () => store.save(),
    // watch saves after every change to this account (an event without an
    // account name counts as the page's).
    watch() {
      window.addEventListener("tableplay:change", (e) => {
        if ((e.detail?.account ?? engine.name) !== engine.name) return;
        store.save();
      });
    },
    // pause(true) stops saving and taking in other tabs' changes (a
    // temporary session); pause(false) or resume() brings the saved account back.
    pause: (on = true) => (on ? store.pause() : store.resume()),
    resume: () => store.resume(),
    keep: () => store.keep(),
    get paused() {
      return store.paused;
    },
  };
}
