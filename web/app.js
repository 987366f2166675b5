// web/app.js is responsible for starting the full page: the engine first,
// then the page's playground (the well-known account, kept in IndexedDB)
// built from the same parts as every embed (web/parts.js), and the page's
// own header: theme, status, account tools.
import tableplay from "./engine.js";
import { initTheme } from "./theme.js";
import { createSession } from "./session.js";
import { mountParts } from "./parts.js";
import { createPersistence } from "./persist.js";
import { initTransfer } from "./transfer.js";
import { mountLessons } from "./lessons/view.js";

const $ = (id) => document.getElementById(id);
const status = $("status");
initTheme($("theme-toggle"));
window.addEventListener("tableplay:progress", (e) => {
  const { loaded, total } = e.detail;
  status.textContent = total ? `Loading the engine… ${Math.round((100 * loaded) / total)}%` : "Loading the engine…";
});

async function start() {
  try {
    await tableplay.ready;
  } catch (err) {
    status.textContent = "The engine could not start: " + err.message;
    return;
  }
  const persistence = createPersistence(tableplay, $("storage-status"));
  const saved = await persistence.load();
  if (saved) {
    try {
      tableplay.restore(saved);
    } catch (err) {
      status.textContent = "The saved account could not be restored: " + err.message;
    }
  }
  // Let the restore's own change notice pass before listening: restoring
  // what was saved needs no save.
  await null;
  persistence.watch();
  const session = createSession({ engine: tableplay, host: document.body, status });
  const parts = mountParts(session, {
    tables: $("tables-panel"),
    editor: $("editor-part"),
    operations: $("operations-part"),
    entities: $("entities-part"),
    wire: $("wire-panel"),
    levels: $("wire-panel"),
    query: $("query-panel"),
    batch: $("batch-panel"),
  });
  const transfer = initTransfer(session, persistence);
  await transfer.openShared();
  await parts.tables.refresh();
  mountLessons($("lessons"), {
    engine: tableplay,
    onExchange: (x) => session.emit("exchange", x),
    onChange: () => parts.tables.refresh(),
    onStatus: (text) => session.setStatus(text),
  });
  document.body.dataset.ready = "true";
  session.setStatus("Ready. The engine runs in this page: nothing leaves your browser.");
}

start();
