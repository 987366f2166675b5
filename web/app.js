// web/app.js is responsible for starting the page: the engine first, then
// each part of the page, wired through web/state.js.
import "./engine.js";
import { initTheme } from "./theme.js";
import { initTables, refreshTables, selectTable } from "./tables.js";
import { initEditor, setDraft } from "./editor.js";
import { initEntities } from "./entities.js";
import { initOperations } from "./operations.js";
import { initWire } from "./wire.js";
import { loadSample, sampleUser } from "./sample.js";
import { initQuery } from "./query.js";
import { initBatch } from "./batch.js";
import { load, initPersistence } from "./persist.js";
import { initTransfer, openShared } from "./transfer.js";
import { state, emit, setStatus } from "./state.js";
import { mountLessons } from "./lessons/view.js";
import { mountCSV } from "./csv.js";

initTheme(document.getElementById("theme-toggle"));
window.addEventListener("tableplay:progress", (e) => {
  const { loaded, total } = e.detail;
  setStatus(total ? `Loading the engine… ${Math.round((100 * loaded) / total)}%` : "Loading the engine…");
});

async function start() {
  try {
    await tableplay.ready;
  } catch (err) {
    setStatus("The engine could not start: " + err.message);
    return;
  }
  const saved = await load();
  if (saved) {
    try {
      tableplay.restore(saved);
    } catch (err) {
      setStatus("The saved account could not be restored: " + err.message);
    }
  }
  // Let the restore's own change notice pass before listening: restoring
  // what was saved needs no save.
  await null;
  initPersistence();
  initWire();
  initTables();
  initEditor();
  initEntities();
  initOperations();
  initQuery();
  initBatch();
  initTransfer();
  mountCSV(document.getElementById("csv-box"), { table: () => state.table, changed: () => emit("entities-changed") });
  document.getElementById("load-sample").addEventListener("click", async () => {
    const table = await loadSample();
    await refreshTables();
    selectTable(table);
    setDraft(sampleUser);
    emit("load-entity", { draft: sampleUser });
    setStatus("Sample loaded: the user Ada is in the editor.");
  });
  await openShared();
  await refreshTables();
  mountLessons(document.getElementById("lessons"), {
    onExchange: (x) => emit("exchange", x),
    onChange: () => refreshTables(),
    onStatus: setStatus,
  });
  document.body.dataset.ready = "true";
  setStatus("Ready. The engine runs in this page: nothing leaves your browser.");
}

start();
