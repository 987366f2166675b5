// web/app.js is responsible for starting the full page: the engine first,
// then the page's playground (the well-known account, kept in IndexedDB)
// built from the same parts as every embed (web/parts.js), and the page's
// own header: theme, status, account tools.
import tableplay from "./engine.js";
import { initTheme } from "./theme.js";
import { createSession } from "./session.js";
import { mountParts, pageSlots } from "./parts.js";
import { createPersistence } from "./persist.js";
import { initTransfer } from "./transfer.js";
import { initWorkspace } from "./workspace.js";
import { mountLessons } from "./lessons/view.js";
import { createBorrow } from "./lessons/borrow.js";
import { createRecorder } from "./lessons/recorder.js";
import { initStart } from "./start.js";
import { initConnect, takeRoomLink } from "./connect.js";
import { initTarget } from "./target.js";
import { createComparer } from "./profilecompare.js";

const $ = (id) => document.getElementById(id);
// A room link's endpoint and SAS leave the address bar before anything else
// runs (web/connect.js).
let room = takeRoomLink();
// A room link pasted into the address bar of the open page changes only
// the fragment: it leaves the address bar at once too, and connects once the
// page is ready.
let openRoom = null;
window.addEventListener("hashchange", () => {
  const pasted = takeRoomLink();
  if (!pasted) return;
  if (openRoom) openRoom(pasted);
  else room = pasted;
});
const status = $("status");
initTheme($("theme-toggle"));
// Until the engine is up the controls are inert (a click cannot submit a
// form the page has not taken over yet) and a bar shows the download.
const bar = $("engine-bar");
window.addEventListener("tableplay:progress", (e) => {
  const { loaded, total } = e.detail;
  if (total) {
    bar.max = total;
    bar.value = Math.min(loaded, total);
  }
  status.textContent = total ? `Loading the engine… ${Math.round((100 * loaded) / total)}%` : "Loading the engine…";
});
function controlsReady() {
  for (const node of document.querySelectorAll("main[inert], .account-tools[inert], #lessons[inert], #start-here[inert]")) node.inert = false;
  $("engine-progress").hidden = true;
}

async function start() {
  try {
    await tableplay.ready;
  } catch (err) {
    status.textContent = "The engine could not start: " + err.message;
    $("engine-progress").hidden = true;
    return;
  }
  // Another tab's changes show here as if made here.
  let remote = () => {};
  const persistence = createPersistence(tableplay, $("storage-status"), { onRemote: () => remote() });
  // load puts the saved account into the engine itself (it reports its own
  // problems in the storage status).
  await persistence.load();
  // Let the restore's own change notice pass before listening: restoring
  // what was saved needs no save.
  await null;
  persistence.watch();
  // The wire view can replay an exchange under another profile (web/profilecompare.js).
  const session = createSession({ engine: tableplay, host: document.body, status, profileCompare: createComparer(tableplay) });
  const parts = await mountParts(session, { slots: pageSlots(document) });
  const target = initTarget($("target-picker"), { session, parts, persistence });
  remote = () => {
    target.refresh();
    parts.tables.refresh();
    session.emit("entities-changed");
  };
  initTransfer(session);
  const connection = initConnect({ button: $("connect"), panel: $("connect-panel"), session, parts, tableplay, label: $("account-name") });
  // A workspace link opens in the tab's own account: a connection ends first.
  const workspace = initWorkspace({ session, parts, persistence, target, beforeOpen: () => connection.disconnect() });
  const linked = await workspace.open();
  await parts.tables.refresh();
  // Lessons run in an account of their own, with their own wire list: the
  // person's workspace is lent to one only by "Try it yourself".
  // Their banners sit above the workbench's grid, never in one of its cells.
  const borrow = createBorrow({ workspace, persistence, parts, session, host: $("workbench-banners") });
  const recorder = createRecorder({ engine: tableplay, session, borrow, host: $("workbench-banners") });
  // A room or lesson link opens what it names, not the first-visit sample.
  const lessonLink = /^#lesson(-doc)?=/.test(location.hash);
  await initStart($("start-here"), { session, engine: tableplay, linked: linked || Boolean(room) || lessonLink });
  mountLessons($("lessons"), {
    engine: await tableplay.createAccount("lessons"),
    // A lesson is tried in the tab's own account: a connection ends first.
    tryIt: async (place) => {
      await connection.disconnect();
      return borrow.tryIt(place);
    },
    onLeave: () => borrow.back(),
    // A recording starts from the tab's own account: a connection ends
    // first, or the recorded writes would go to the endpoint.
    record: async () => {
      await connection.disconnect();
      return recorder.start();
    },
  });
  controlsReady();
  document.body.dataset.ready = "true";
  session.setStatus("Ready. The engine runs in this page: nothing leaves your browser.");
  openRoom = (r) => connection.open(r);
  if (room) await connection.open(room);
}

start();
