// web/app.js is responsible for starting the full page: the engine first,
// then the page's playground (the well-known account, kept in IndexedDB)
// built from the same parts as every embed (web/parts.js), and the page's
// own header: theme, language, status, account tools.
import * as i18n from "./i18n.js";
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
import { liveText } from "./dom.js";

const $ = (id) => document.getElementById(id);

// The language is chosen, and its catalogue in, before anything renders:
// lang= in the address, else the reader's stored choice, else the
// browser's languages. The static page follows every switch.
await i18n.load(i18n.choose({ requested: i18n.requestedLang() }));
i18n.localize(document.documentElement);
const docsLink = $("docs-link");
const docsHref = docsLink.href;
const followLocale = () => (docsLink.href = i18n.learnURL(docsHref));
followLocale();
i18n.onChange(followLocale);
initPicker($("lang-picker"));
document.documentElement.classList.remove("i18n-pending");

// initPicker fills the header's language picker: a switch re-renders every
// text without a reload, is remembered for the next visit and replaces a
// lang= of the address (which would otherwise win on a reload).
function initPicker(select) {
  const shown = i18n.lang();
  const codes = i18n.LOCALES.includes(shown) ? i18n.LOCALES : [...i18n.LOCALES, shown];
  for (const code of codes) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = i18n.LOCALE_NAMES[code] ?? code;
    select.append(option);
  }
  select.value = shown;
  select.addEventListener("change", async () => {
    const next = select.value;
    await i18n.load(next);
    i18n.remember(next);
    const url = new URL(location.href);
    if (url.searchParams.has("lang")) url.searchParams.set("lang", next);
    url.hash = url.hash.replace(/([#&])lang=[A-Za-z-]+&?/, "$1").replace(/[#&]$/, "");
    if (url.href !== location.href) history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  });
}
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
status.textContent = i18n.t("app.loading");
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
  status.textContent = total ? i18n.t("app.loadingPercent", { percent: Math.round((100 * loaded) / total) }) : i18n.t("app.loading");
});
function controlsReady() {
  for (const node of document.querySelectorAll("main[inert], .account-tools[inert], #lessons[inert], #start-here[inert]")) node.inert = false;
  $("engine-progress").hidden = true;
}

async function start() {
  try {
    await tableplay.ready;
  } catch (err) {
    liveText(status, () => i18n.t("app.failed", { message: err.text?.().message ?? err.message }));
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
  session.setStatus(() => i18n.t("app.ready"));
  openRoom = (r) => connection.open(r);
  if (room) await connection.open(room);
}

start();
