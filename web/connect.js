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
<h2 id="connect-heading">Connect to an endpoint</h2>
<p class="hint">By default the engine in this tab answers. Connect to send the same requests over the network
  to another Table endpoint; the wire view then shows the real exchange. The key or SAS stays in this tab's
  memory for this visit: it is never saved, exported or put in a link.</p>
<p id="connect-target" class="connect-target"></p>
<div id="connect-start" class="stack connect-start" hidden>
  <p class="hint">This site hosts rooms: an account that a class or an audience shares, until it is left idle.</p>
  <div class="row wrap"><button id="connect-start-room" type="button">Start a room</button></div>
  <div id="connect-start-answer" class="answer-box"></div>
  <div id="connect-room-info" class="stack room-info" hidden></div>
</div>
<form id="connect-form" class="stack" novalidate>
  <fieldset class="modes">
    <legend>Connect to</legend>
    <label><input type="radio" name="connect-mode" value="room" checked> A room link</label>
    <label><input type="radio" name="connect-mode" value="serve"> <code>tableplay serve</code></label>
    <label><input type="radio" name="connect-mode" value="azurite"> Azurite</label>
    <label><input type="radio" name="connect-mode" value="account"> A storage account</label>
  </fieldset>
  <div id="connect-room-field" class="stack">
    <label for="connect-room">Room link</label>
    <input id="connect-room" type="url" autocomplete="off" spellcheck="false" aria-describedby="connect-room-hint">
    <p id="connect-room-hint" class="hint">A link ending in <code>#connect=…&amp;sas=…</code>, as a room gives it.</p>
  </div>
  <div id="connect-endpoint-field" class="stack">
    <label for="connect-endpoint">Table endpoint</label>
    <input id="connect-endpoint" type="url" autocomplete="off" spellcheck="false" aria-describedby="connect-endpoint-hint">
    <p id="connect-endpoint-hint" class="hint"></p>
  </div>
  <div id="connect-key-field" class="stack">
    <label for="connect-key">Account key</label>
    <input id="connect-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="connect-key-hint">
    <p id="connect-key-hint" class="hint">Empty: the emulators' well-known key of <code>devstoreaccount1</code>. Requests are signed with Shared Key Lite by the engine.</p>
  </div>
  <div id="connect-sas-field" class="stack">
    <label for="connect-sas">SAS</label>
    <input id="connect-sas" type="password" autocomplete="off" spellcheck="false" aria-describedby="connect-sas-hint">
    <p id="connect-sas-hint" class="hint">An account SAS for the Table service (<code>sv=…&amp;ss=t&amp;srt=sco&amp;sp=…&amp;sig=…</code>), from the portal's "Shared access signature" or <code>az storage account generate-sas</code>.</p>
  </div>
  <div class="row wrap">
    <button id="connect-go" type="submit">Connect to this endpoint</button>
    <button id="connect-leave" type="button" class="secondary" hidden>Disconnect</button>
  </div>
  <div id="connect-answer" class="answer-box"></div>
</form>
<details id="connect-cors" class="connect-cors">
  <summary>Allowing this page (CORS)</summary>
  <div id="connect-cors-text"></div>
</details>
<p id="connect-live" class="hint"></p>`;

const WELL_KNOWN = "devstoreaccount1";

// TEXT is what this control says that other parts show too.
const TEXT = {
  // A SAS that grants no write: the write controls say why they are off.
  readOnly: (sp) => `This link reads only (its SAS grants sp=${sp}): writes are off, since the endpoint would refuse each with 403.`,
  // Where a connected page's writes go, in place of the browser's own save line.
  savedThere: (host) => `Connected: what you write goes to ${host}, not to this browser.`,
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
  if (mode === "room") return [el("p", {}, "Rooms answer CORS for every origin: nothing to set.")];
  if (mode === "account") {
    return [
      el("p", {}, `The storage account must allow this page's origin (${origin}) for the Table service. With the Azure CLI:`),
      code(`az storage cors add --account-name <name> --services t \\\n  --methods ${methods} \\\n  --origins ${origin} --allowed-headers '*' --exposed-headers '*' --max-age 3600`),
      el("p", {}, `Or in the portal: the storage account → Settings → Resource sharing (CORS) → Table service: allowed origins ${origin}, allowed methods all, allowed and exposed headers *, max age 3600; Save.`),
      el("p", {}, "Without exposed headers the browser hides ETag and the continuation headers from the page."),
    ];
  }
  return [
    el("p", {}, `Nothing to set when this page is served by that server (make run, then open it there). From another origin, the account needs a CORS rule for ${origin}, set with Set Table Service Properties, e.g. with the Azure CLI and the emulator's connection string:`),
    code(`az storage cors add --services t --methods ${methods} \\\n  --origins ${origin} --allowed-headers '*' --exposed-headers '*' --max-age 3600 \\\n  --connection-string 'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=<the well-known key>;TableEndpoint=${localEndpoint()};'`),
  ];
}

export function initConnect({ button, panel, session, parts, tableplay, label = null }) {
  const $ = mount(panel, HTML);
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
      $("connect-endpoint-hint").textContent = m === "serve"
        ? "Empty: the tableplay serve this page came from (or 127.0.0.1:10002). Path style: the account name is the first segment."
        : "Empty: Azurite's table endpoint on 127.0.0.1:10002.";
    } else {
      endpoint.placeholder = "https://<name>.table.core.windows.net";
      $("connect-endpoint-hint").textContent = "The account's Table endpoint, as the portal's Endpoints page lists it.";
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
      if (!room) throw new Error("A room link is the page's address with #connect=…&sas=… after it.");
      return room;
    }
    const endpoint = $("connect-endpoint").value.trim() || $("connect-endpoint").placeholder;
    if (m === "account") return { endpoint, sas: $("connect-sas").value.trim() };
    const key = $("connect-key").value.trim();
    return key ? { endpoint, key } : { endpoint, wellKnownKey: true };
  }

  const say = (good, ...text) => replace($("connect-answer"), el("p", { class: `answer ${good ? "good" : "bad"}` }, ...text));

  function describe() {
    const r = current?.engine.remote;
    replace($("connect-target"), r
      ? ["Target: ", el("strong", {}, r.endpoint), ` as ${r.account}, with its ${r.auth === "sas" ? "SAS" : "key"}.`]
      : ["Target: ", el("strong", {}, "the engine in this tab"), "."]);
    button.textContent = r ? "Connected" : "Connect";
    button.classList.toggle("connected", Boolean(r));
    $("connect-leave").hidden = !r;
    if (label) label.textContent = r ? `${r.account} at ${new URL(r.endpoint).host}` : WELL_KNOWN;
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
      say(false, el("span", { class: "answer-status" }, "Not connected"), " · ", err.message);
      session.setStatus(`Not connected: ${err.message}`);
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
    const unread = listed?.error ? `${probe.response.status} ${probe.response.statusText}, but ${listed.error}: this is not a Table endpoint's answer.` : "";
    const refused = probe.error ?? (unread || (probe.response.status === 200 || narrow ? "" : `${probe.response.status} ${probe.response.statusText}${probe.code ? " · " + probe.code : ""}${probe.message ? ": " + probe.message : ""}` +
      (probe.response.status === 403 ? " Check the key or SAS (and the clock: a signature's date must be within 15 minutes)." : "")));
    if (refused) {
      link.disconnect();
      say(false, el("span", { class: "answer-status" }, "Not connected"), " · ", refused);
      session.setStatus(`Not connected: ${refused}`);
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
      const why = `${link.endpoint} answered, but its answers cannot be read (${err.message}); the engine in this tab answers again.`;
      say(false, el("span", { class: "answer-status" }, "Not connected"), " · ", why);
      session.setStatus(`Not connected: ${why}`);
      return false;
    }
    // A newer connect or a disconnect took over while the tables were read.
    if (current?.engine !== engine) return false;
    current.watcher = watchChanges(engine, ({ tables }) => {
      if (tables) parts.tables.refresh();
      session.emit("entities-changed");
    }, { select: () => session.table, onState: live });
    describe();
    say(true, el("span", { class: "answer-status" }, "Connected"), ` · ${link.endpoint} answers; every panel now sends its requests there.`,
      narrow ? ` This SAS may not list the tables (${probe.code}): the tables panel stays empty, yet its tables answer.` : "");
    session.setStatus(`Connected to ${link.endpoint}: requests go over the network.`);
    return true;
  }

  function live(state) {
    const text = {
      live: "Live: other clients' writes show here within a few seconds.",
      slow: "The endpoint did not answer the last check: checking less often (up to every 30 s).",
      paused: "Live updates paused after 20 minutes without activity.",
    }[state];
    replace($("connect-live"), text, state === "paused"
      ? [" ", el("button", { type: "button", class: "link", onclick: () => current?.watcher.resume() }, "Resume")] : null);
  }

  async function disconnect({ quiet = false } = {}) {
    if (!current) return;
    current.watcher?.stop();
    current.engine.remote.disconnect();
    current = null;
    replace($("connect-live"));
    describe();
    if (quiet) return;
    await retarget(own);
    say(true, el("span", { class: "answer-status" }, "Disconnected"), " · the engine in this tab answers again.");
    session.setStatus("Disconnected: the engine in this tab answers again.");
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
  async function startAndJoin() {
    const go = $("connect-start-room");
    go.disabled = true;
    const answer = (good, ...text) => replace($("connect-start-answer"), el("p", { class: `answer ${good ? "good" : "bad"}` }, ...text));
    answer(true, "Starting a room…");
    try {
      const { room, error } = await startRoom(await roomsService());
      if (error) {
        answer(false, el("span", { class: "answer-status" }, "No room"), " · ", error);
        session.setStatus(error);
        return;
      }
      if (!(await connect(takeRoomLink(room.writeLink)))) {
        answer(false, el("span", { class: "answer-status" }, "No room"), ` · ${room.account} was created, but the page could not connect to it (see below).`);
        return;
      }
      replace($("connect-room-info"), roomInfo(room, (text) => session.setStatus(text)));
      $("connect-room-info").hidden = false;
      answer(true, el("span", { class: "answer-status" }, "Room started"), ` · ${room.account}: this page is connected with the write link. Share a link below.`);
      session.setStatus(`Room ${room.account} started and connected: share its write link with a class, its read link with an audience.`);
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
      return comparisonView({ error: `this exchange went to ${where?.endpoint ?? "another endpoint"}, and the page is not connected there now. Connect to it again to compare.` });
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
      say(false, el("span", { class: "answer-status" }, "Not connected"), " · ", err.message);
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
