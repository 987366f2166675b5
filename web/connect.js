// web/connect.js is responsible for the page's "Connect" control: it
// switches the playground's target from the engine in this tab (the
// default) to a Table endpoint elsewhere (a room link, a local `tableplay
// serve`, Azurite, a storage account) and back. The same parts then send
// their requests over the network (web/remote.js); other clients' writes
// show as they happen; each exchange can be compared with the engine's
// answer (web/compare.js). The key or SAS is handed to the engine and kept
// in memory for this visit only: never saved, never in a link, and a room
// link's fragment is removed from the address bar as the page loads.
//
// A room link is the page's URL with the fragment
//   #connect=<endpoint>&sas=<SAS>[&account=<name>]
// each value read as URLSearchParams reads it (so '%', '&' and '+' in it
// are escaped), the endpoint absolute or a path on the link's origin, e.g.
//   https://site/#connect=/r7k2&sas=se=2026-12-09T00:12:06Z%26sig=…%26sp=rl%26…
//
// takeRoomLink() reads a room link from the address bar and removes it;
// initConnect({button, panel, session, parts, tableplay, room}) mounts the
// control; where the site hosts rooms it offers "Start a room"
// (web/rooms.js).
import { el, replace, mount } from "./dom.js";
import { remoteEngine, watchChanges } from "./remote.js";
import { compareOperation, comparisonView } from "./compare.js";
import { roomsService, startRoom, roomInfo } from "./rooms.js";
import { t, nodes, onChange } from "./i18n.js";

// takeRoomLink returns {endpoint, sas, account} from a room link in the
// address bar (null when there is none) and removes the fragment at once,
// so the SAS is in no history entry, bookmark or shared address.
export function takeRoomLink(href = location.href) {
  const url = new URL(href);
  const params = new URLSearchParams(url.hash.slice(1));
  if (!params.has("connect")) return null;
  if (href === location.href) history.replaceState(history.state, "", url.pathname + url.search);
  // A room link's endpoint may be a path on the link's own origin.
  let endpoint = params.get("connect") ?? "";
  if (endpoint.startsWith("/")) endpoint = new URL(endpoint, url).href;
  return { endpoint, sas: params.get("sas") ?? "", account: params.get("account") ?? "" };
}

const HTML = `
<h2 id="connect-heading" data-i18n="connect.heading"></h2>
<p class="hint" data-i18n="connect.intro"></p>
<p id="connect-target" class="connect-target"></p>
<div id="connect-start" class="stack connect-start" hidden>
  <p class="hint" data-i18n="connect.roomsHint"></p>
  <div class="row wrap"><button id="connect-start-room" type="button" data-i18n="connect.startRoom"></button></div>
  <div id="connect-start-answer" class="answer-box"></div>
  <div id="connect-room-info" class="stack room-info" hidden></div>
</div>
<form id="connect-form" class="stack" novalidate>
  <fieldset class="modes">
    <legend data-i18n="connect.to"></legend>
    <label><input type="radio" name="connect-mode" value="room" checked> <span data-i18n="connect.modeRoom"></span></label>
    <label><input type="radio" name="connect-mode" value="serve"> <code>tableplay serve</code></label>
    <label><input type="radio" name="connect-mode" value="azurite"> Azurite</label>
    <label><input type="radio" name="connect-mode" value="account"> <span data-i18n="connect.modeAccount"></span></label>
  </fieldset>
  <div id="connect-room-field" class="stack">
    <label for="connect-room" data-i18n="connect.roomLink"></label>
    <input id="connect-room" type="url" autocomplete="off" spellcheck="false" aria-describedby="connect-room-hint">
    <p id="connect-room-hint" class="hint"></p>
  </div>
  <div id="connect-endpoint-field" class="stack">
    <label for="connect-endpoint" data-i18n="connect.endpoint"></label>
    <input id="connect-endpoint" type="url" autocomplete="off" spellcheck="false" aria-describedby="connect-endpoint-hint">
    <p id="connect-endpoint-hint" class="hint"></p>
  </div>
  <div id="connect-key-field" class="stack">
    <label for="connect-key" data-i18n="connect.key"></label>
    <input id="connect-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="connect-key-hint">
    <p id="connect-key-hint" class="hint"></p>
  </div>
  <div id="connect-sas-field" class="stack">
    <label for="connect-sas">SAS</label>
    <input id="connect-sas" type="password" autocomplete="off" spellcheck="false" aria-describedby="connect-sas-hint">
    <p id="connect-sas-hint" class="hint"></p>
  </div>
  <div class="row wrap">
    <button id="connect-go" type="submit" data-i18n="connect.go"></button>
    <button id="connect-leave" type="button" class="secondary" hidden data-i18n="connect.leave"></button>
  </div>
  <div id="connect-answer" class="answer-box"></div>
</form>
<details id="connect-cors" class="connect-cors">
  <summary data-i18n="connect.cors"></summary>
  <div id="connect-cors-text"></div>
</details>
<p id="connect-live" class="hint"></p>`;

// hints are the form's hints that hold code: written with nodes, so the
// code stays code in every language.
function hints($) {
  const code = (text) => el("code", {}, text);
  replace($("connect-room-hint"), nodes("connect.roomHint", { fragment: code("#connect=…&sas=…") }));
  replace($("connect-key-hint"), nodes("connect.keyHint", { account: code("devstoreaccount1") }));
  replace($("connect-sas-hint"), nodes("connect.sasHint", { sas: code("sv=…&ss=t&srt=sco&sp=…&sig=…"), command: code("az storage account generate-sas") }));
}

const WELL_KNOWN = "devstoreaccount1";

// TEXT is what this control says that other parts show too.
const TEXT = {
  // A SAS that grants no write: the write controls say why they are off.
  readOnly: (sp) => t("connect.readOnly", { sp }),
  // Where a connected page's writes go, in place of the browser's own save line.
  savedThere: (host) => t("connect.savedThere", { host }),
};

// writesRefused says why a SAS cannot write entities or tables (its
// permissions have none of add, update, delete, write), or "" when it can.
function writesRefused(sas) {
  if (!sas) return "";
  const sp = new URLSearchParams(sas).get("sp") ?? "";
  return sp && !/[audw]/.test(sp) ? TEXT.readOnly(sp) : "";
}

// localEndpoint is where a local emulator is: the server this page came
// from when that is one, else the emulators' default address.
function localEndpoint() {
  const local = /^(127\.0\.0\.1|localhost|\[::1\])$/.test(location.hostname) && location.protocol === "http:";
  return (local ? location.origin : "http://127.0.0.1:10002") + "/" + WELL_KNOWN;
}

// corsHelp says how to let this page's origin reach each kind of endpoint.
function corsHelp(mode) {
  const origin = location.origin;
  const methods = "DELETE GET HEAD MERGE OPTIONS PATCH POST PUT";
  const code = (text) => el("pre", { class: "code", tabindex: 0 }, el("code", {}, text));
  if (mode === "room") return [el("p", {}, t("connect.corsRoom"))];
  if (mode === "account") {
    return [
      el("p", {}, t("connect.corsAccount", { origin })),
      code(`az storage cors add --account-name <name> --services t \\\n  --methods ${methods} \\\n  --origins ${origin} --allowed-headers '*' --exposed-headers '*' --max-age 3600`),
      el("p", {}, t("connect.corsPortal", { origin })),
      el("p", {}, t("connect.corsExposed")),
    ];
  }
  return [
    el("p", {}, t("connect.corsLocal", { origin })),
    code(`az storage cors add --services t --methods ${methods} \\\n  --origins ${origin} --allowed-headers '*' --exposed-headers '*' --max-age 3600 \\\n  --connection-string 'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=<the well-known key>;TableEndpoint=${localEndpoint()};'`),
  ];
}

export function initConnect({ button, panel, session, parts, tableplay, label = null }) {
  const $ = mount(panel, HTML);
  hints($);
  const own = session.engine; // the engine in this tab
  let current = null; // {engine, watcher} while connected

  const mode = () => panel.querySelector('input[name="connect-mode"]:checked').value;
  function showMode() {
    const m = mode();
    $("connect-room-field").hidden = m !== "room";
    $("connect-endpoint-field").hidden = m === "room";
    $("connect-key-field").hidden = m === "room" || m === "account";
    $("connect-sas-field").hidden = m !== "account";
    const endpoint = $("connect-endpoint");
    if (m === "serve" || m === "azurite") {
      endpoint.placeholder = m === "serve" ? localEndpoint() : `http://127.0.0.1:10002/${WELL_KNOWN}`;
      $("connect-endpoint-hint").textContent = m === "serve" ? t("connect.serveHint") : t("connect.azuriteHint");
    } else {
      endpoint.placeholder = "https://<name>.table.core.windows.net";
      $("connect-endpoint-hint").textContent = t("connect.accountHint");
    }
    replace($("connect-cors-text"), corsHelp(m));
  }

  // connection reads the form into what tableplay.connect takes.
  function connection() {
    const m = mode();
    if (m === "room") {
      const text = $("connect-room").value.trim();
      let room = null;
      try {
        room = takeRoomLink(new URL(text).href);
      } catch {
        // not a URL: said below
      }
      if (!room) throw new Error(t("connect.notRoomLink"));
      return room;
    }
    const endpoint = $("connect-endpoint").value.trim() || $("connect-endpoint").placeholder;
    if (m === "account") return { endpoint, sas: $("connect-sas").value.trim() };
    const key = $("connect-key").value.trim();
    return key ? { endpoint, key } : { endpoint, wellKnownKey: true };
  }

  // say shows the form's answer; what (a function) writes it, so that a
  // switch of language says it again.
  let said = null;
  const say = (good, what) => {
    said = [good, what];
    replace($("connect-answer"), el("p", { class: `answer ${good ? "good" : "bad"}` }, ...what()));
  };
  const status = (id) => el("span", { class: "answer-status" }, t(id));

  function describe() {
    const r = current?.engine.remote;
    replace($("connect-target"), r
      ? nodes(r.auth === "sas" ? "connect.targetSAS" : "connect.targetKey", { endpoint: el("strong", {}, r.endpoint), account: r.account })
      : nodes("connect.targetEngine", { engine: el("strong", {}, t("connect.thisEngine")) }));
    button.textContent = r ? t("connect.connected") : t("connect.button");
    button.classList.toggle("connected", Boolean(r));
    $("connect-leave").hidden = !r;
    if (label) label.textContent = r ? t("connect.accountAt", { account: r.account, host: new URL(r.endpoint).host }) : WELL_KNOWN;
    // The storage line speaks of this browser's copy: while connected, the
    // data is elsewhere, and it says so (its own text comes back after).
    const saved = document.getElementById("storage-status");
    if (saved && r) {
      saved.dataset.own ??= saved.textContent;
      saved.textContent = TEXT.savedThere(new URL(r.endpoint).host);
    } else if (saved?.dataset.own !== undefined) {
      saved.textContent = saved.dataset.own;
      delete saved.dataset.own;
    }
    document.body.dataset.target = r ? "remote" : "engine";
  }

  // retarget points every part at engine and reads its tables afresh.
  async function retarget(engine, refused = "") {
    session.engine = engine;
    session.writesRefused = refused;
    session.forgetETags();
    session.emit("target-changed", { endpoint: engine.remote?.endpoint ?? null, writesRefused: refused });
    parts.tables.select(null);
    await parts.tables.refresh();
    session.emit("entities-changed");
  }

  // attempt numbers the connects begun and the disconnects asked for: a
  // connect whose probe answers after a newer one began, or after the
  // person disconnected, is dropped.
  let attempt = 0;
  async function connect(c) {
    const mine = ++attempt;
    let link;
    try {
      link = tableplay.connect(c);
    } catch (err) {
      say(false, () => [status("connect.notConnected"), " · ", err.message]);
      session.setStatus(() => t("connect.notConnectedStatus", { why: err.message }));
      return false;
    }
    const engine = remoteEngine(tableplay, link);
    // One quiet read proves the endpoint answers and takes the key or SAS.
    const probe = await engine.run({ kind: "listTables", top: 1 });
    if (mine !== attempt) {
      link.disconnect();
      return false;
    }
    // A SAS may grant entities but not the list of tables: that is a
    // connection still, with a note.
    const narrow = probe.response?.status === 403 && /^Authorization\w*Mismatch$/.test(probe.code);
    // The list must be one the engine can read before anything points
    // there: an endpoint that answers 200 with something else is refused.
    const listed = probe.response?.status === 200 ? tableplay.readTables(probe.response.body ?? "") : null;
    // The status line, code and message are the endpoint's own (English
    // as sent); the page's words around them are the reader's.
    const unread = listed?.error ? t("connect.notTable", { status: `${probe.response.status} ${probe.response.statusText}`, why: listed.error }) : "";
    const refused = probe.error ?? (unread || (probe.response.status === 200 || narrow ? "" : `${probe.response.status} ${probe.response.statusText}${probe.code ? " · " + probe.code : ""}${probe.message ? ": " + probe.message : ""}` +
      (probe.response.status === 403 ? " " + t("connect.check403") : "")));
    if (refused) {
      link.disconnect();
      say(false, () => [status("connect.notConnected"), " · ", refused]);
      session.setStatus(() => t("connect.notConnectedStatus", { why: refused }));
      return false;
    }
    await disconnect({ quiet: true });
    current = { engine };
    // The key and SAS live in the engine now, not in the form.
    for (const id of ["connect-key", "connect-sas", "connect-room"]) $(id).value = "";
    describe(); // the target line says where requests go from here on
    try {
      await retarget(engine, writesRefused(c.sas));
    } catch (err) {
      // The endpoint's later answers could not be read: back to the tab's
      // engine, saying so, rather than half connected.
      if (current?.engine === engine) {
        current = null;
        link.disconnect();
        describe();
        await retarget(own).catch(() => {});
      }
      const why = t("connect.unreadable", { endpoint: link.endpoint, why: err.message });
      say(false, () => [status("connect.notConnected"), " · ", why]);
      session.setStatus(() => t("connect.notConnectedStatus", { why }));
      return false;
    }
    // A newer connect or a disconnect took over while the tables were read.
    if (current?.engine !== engine) return false;
    current.watcher = watchChanges(engine, ({ tables }) => {
      if (tables) parts.tables.refresh();
      session.emit("entities-changed");
    }, { select: () => session.table, onState: live });
    describe();
    say(true, () => [status("connect.connected"), " · ", t("connect.answers", { endpoint: link.endpoint }),
      narrow ? " " + t("connect.narrow", { code: probe.code }) : ""]);
    session.setStatus(() => t("connect.connectedStatus", { endpoint: link.endpoint }));
    return true;
  }

  let liveState = null;
  function live(state) {
    liveState = state;
    const text = { live: t("connect.live"), slow: t("connect.slow", { s: 30 }), paused: t("connect.paused", { min: 20 }) }[state];
    replace($("connect-live"), text, state === "paused"
      ? [" ", el("button", { type: "button", class: "link", onclick: () => current?.watcher.resume() }, t("connect.resume"))] : null);
  }

  async function disconnect({ quiet = false } = {}) {
    if (!current) return;
    current.watcher?.stop();
    current.engine.remote.disconnect();
    current = null;
    liveState = null;
    replace($("connect-live"));
    describe();
    if (quiet) return;
    await retarget(own);
    say(true, () => [status("connect.disconnected"), " · ", t("connect.backToEngine")]);
    session.setStatus(() => t("connect.disconnectedStatus"));
  }

  // offerRooms shows "Start a room" once the site is found to host rooms
  // (asked when the panel first opens).
  let offered = false;
  async function offerRooms() {
    if (offered) return;
    offered = true;
    const service = await roomsService();
    $("connect-start").hidden = !service;
    panel.dataset.rooms = service ? "offered" : "none"; // the question is answered
  }

  // startAndJoin creates a room, connects to it with its write link and
  // shows the links to share.
  let started = null; // the start answer's [good, what]
  let shownRoom = null; // the room whose links are shown
  async function startAndJoin() {
    const go = $("connect-start-room");
    go.disabled = true;
    const answer = (good, what) => {
      started = [good, what];
      replace($("connect-start-answer"), el("p", { class: `answer ${good ? "good" : "bad"}` }, ...what()));
    };
    answer(true, () => [t("connect.starting")]);
    try {
      const { room, error } = await startRoom(await roomsService());
      if (error) {
        answer(false, () => [status("connect.noRoom"), " · ", error]);
        session.setStatus(error);
        return;
      }
      if (!(await connect(takeRoomLink(room.writeLink)))) {
        answer(false, () => [status("connect.noRoom"), " · ", t("connect.roomUnreached", { account: room.account })]);
        return;
      }
      shownRoom = room;
      replace($("connect-room-info"), roomInfo(room, (text) => session.setStatus(text)));
      $("connect-room-info").hidden = false;
      answer(true, () => [status("connect.roomStarted"), " · ", t("connect.roomJoined", { account: room.account })]);
      session.setStatus(() => t("connect.roomStatus", { account: room.account }));
    } finally {
      go.disabled = false;
    }
  }

  // compare sends an exchange's operation again to the endpoint it went to
  // (where), only while the page is still connected there: never to the
  // tab's own account or to another endpoint connected since.
  session.compare = async (operation, from, where) => {
    const engine = current?.engine;
    if (!engine || engine.remote.endpoint !== where?.endpoint) {
      return comparisonView({ error: t("connect.compareElsewhere", { endpoint: where?.endpoint ?? t("connect.anotherEndpoint") }) });
    }
    return comparisonView(await compareOperation(tableplay, engine, operation, from));
  };

  for (const radio of panel.querySelectorAll('input[name="connect-mode"]')) radio.addEventListener("change", showMode);
  $("connect-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    let c;
    try {
      c = connection();
    } catch (err) {
      say(false, () => [status("connect.notConnected"), " · ", err.message]);
      return;
    }
    $("connect-go").disabled = true;
    try {
      await connect(c);
    } finally {
      $("connect-go").disabled = false;
    }
  });
  // leave is the person's disconnect: a connect still under way stops too.
  const leave = () => {
    attempt++;
    return disconnect();
  };
  $("connect-leave").addEventListener("click", () => leave());
  $("connect-start-room").addEventListener("click", startAndJoin);
  button.setAttribute("aria-expanded", "false");
  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) {
      panel.querySelector("input:not([type=radio])")?.focus();
      offerRooms();
    }
  });
  showMode();
  describe();
  // A switch of language: the panel's words, the target line and the
  // answers on screen are said again (the static text by localize).
  onChange(() => {
    hints($);
    showMode();
    describe();
    if (said) say(...said);
    if (started) replace($("connect-start-answer"), el("p", { class: `answer ${started[0] ? "good" : "bad"}` }, ...started[1]()));
    if (liveState && current) live(liveState);
    if (shownRoom && !$("connect-room-info").hidden) {
      const open = [...$("connect-room-info").querySelectorAll("details[open]")].map((d) => d.id);
      replace($("connect-room-info"), roomInfo(shownRoom, (text) => session.setStatus(text)));
      for (const id of open) document.getElementById(id)?.setAttribute("open", "");
    }
  });
  return {
    // open connects to a room link taken from the address bar.
    async open(room) {
      panel.hidden = false;
      button.setAttribute("aria-expanded", "true");
      offerRooms();
      return connect(room);
    },
    disconnect: leave,
  };
}
