// web/parts.js is responsible for putting a playground together from its
// parts, the rows of web/partlist.js: each part shown is mounted into its
// element on one session, and the parts are wired to each other through the
// session's bus. The full page and every embed are built by this one
// function.
//
// mountParts(session, {slots, views, filter}) resolves with {tables,
// editor, batch} (what the parts that have one return); "load-sample" loads
// the sample and emits "sample-loaded" once it is in.
//   slots   an element for each part by its name (two parts may share one)
//   views   the view names to show (web/partlist.js VIEWS; all by default)
//   filter  a $filter to start the query box with
import { PARTS, VIEWS } from "./partlist.js";
import { loadSample, sampleUser } from "./sample.js";
import { t } from "./i18n.js";

// The parts' modules start loading with this one, beside the engine.
const modules = Promise.all(PARTS.map((p) => import(new URL(p.module, import.meta.url).href)));

export async function mountParts(session, { slots, views = VIEWS, filter = "" }) {
  const loaded = await modules;
  const has = (view) => views.includes(view);
  const out = {};
  PARTS.forEach((part, i) => {
    const root = slots[part.name];
    if (!root || !part.views.some(has)) return;
    out[part.name] = loaded[i][part.mount](root, session, part.options?.(has, { filter }));
  });
  session.on("load-sample", async () => {
    const table = await loadSample(session);
    await out.tables?.refresh();
    select(session, out, table);
    out.editor?.setDraft(sampleUser);
    session.emit("load-entity", { draft: sampleUser });
    session.setStatus(() => t("parts.sampleLoaded"));
    session.emit("sample-loaded", { table });
  });
  return out;
}

// pageSlots is each part's element of the full page (its row's slot).
export const pageSlots = (doc) => Object.fromEntries(PARTS.map((p) => [p.name, doc.getElementById(p.slot)]));

// select makes a table the playground's current one, through the tables
// part when there is one.
export function select(session, parts, table) {
  if (parts.tables) parts.tables.select(table);
  else {
    session.table = table;
    session.emit("table-selected", { table });
  }
}
