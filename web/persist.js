// web/persist.js is responsible for keeping the page's account in this
// browser: web/accountstore.js saves it change by change and shares it with
// the page's other tabs; the status element says how saving goes.
//
// The profile the account answers as (docs/profiles.md) is kept with it, in
// localStorage: it is set before the saved account is read into the
// engine, since a Cosmos account may hold tables Azure would fold into one.
//
// createPersistence(engine, status, {onRemote}) → {load, save, watch, pause,
// resume, keep, rememberProfile}; onRemote is called after another tab's
// changes (or its profile) arrived.
import { createAccountStore } from "./accountstore.js";
import { onChange } from "./i18n.js";

const PROFILE_KEY = "tableplay:profile";

function savedProfile() {
  try {
    return localStorage.getItem(PROFILE_KEY) || "azure";
  } catch {
    return "azure";
  }
}

export function createPersistence(engine, status, { onRemote = () => {} } = {}) {
  // useProfile makes the engine's account answer as the saved profile
  // before the saved account is read into it; what the engine holds then
  // is replaced anyway, so an account that cannot move is emptied first.
  const useProfile = () => {
    const name = savedProfile();
    if (engine.profile().name === name) return;
    try {
      engine.setProfile(name);
    } catch {
      try {
        engine.reset();
        engine.setProfile(name);
      } catch {
        // an unknown name (an older or newer page's): stay as the engine is
      }
    }
  };
  // said writes the status line's text in the shown language (a switch of
  // language writes it again; while connected elsewhere, web/connect.js
  // holds the line and keeps this text to put back).
  let said = null;
  const write = () => {
    const text = typeof said === "function" ? said() : said;
    if (status.dataset.own !== undefined) status.dataset.own = text;
    else status.textContent = text;
  };
  onChange(() => {
    if (said !== null) write();
  });
  const store = createAccountStore(engine, {
    // A routine save is shown, not announced (it follows every write, whose
    // own status is announced); a problem with storage is announced.
    say: (text, { routine = false } = {}) => {
      status.setAttribute("aria-live", routine ? "off" : "polite");
      said = text;
      write();
    },
    onRemote: () => onRemote(),
  });
  const resume = () => {
    useProfile();
    return store.resume();
  };
  return {
    // load puts the saved account into the engine and, from then on, every
    // write to it goes through the store (one sequence for all tabs).
    load: async () => {
      useProfile();
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
      // Another tab chose another profile for the account both share.
      window.addEventListener("storage", (e) => {
        if (e.key !== PROFILE_KEY || store.paused) return;
        try {
          engine.setProfile(savedProfile());
        } catch {
          return;
        }
        onRemote();
      });
    },
    // rememberProfile keeps the profile the account now answers as, unless
    // this is a temporary session (nothing of it is saved).
    rememberProfile() {
      if (store.paused) return;
      try {
        localStorage.setItem(PROFILE_KEY, engine.profile().name);
      } catch {
        // no storage: the choice lasts as long as the tab
      }
    },
    // pause(true) stops saving and taking in other tabs' changes (a
    // temporary session); pause(false) or resume() brings the saved account back.
    pause: (on = true) => (on ? store.pause() : resume()),
    resume,
    keep: async () => {
      const saved = await store.keep();
      try {
        localStorage.setItem(PROFILE_KEY, engine.profile().name);
      } catch {
        // no storage: the choice lasts as long as the tab
      }
      return saved;
    },
    get paused() {
      return store.paused;
    },
  };
}
