// web/parts.js is responsible for putting a playground together from its
// parts: each part named in slots is mounted into its element on one
// session, and the parts are wired to each other through the session's bus.
// The full page and every embed are built by this one function.
//
// mountParts(session, slots, {batch, filter}) → {tables, editor}; "load-sample"
// loads the sample and emits "sample-loaded" once it is in.
//   slots   {tables, editor, operations, entities, wire, levels, query, batch}:
//           an element for each part to show (wire and levels may share one)
//   filter  a $filter to start the query box with
import { mountTables } from "./tables.js";
import { mountEditor } from "./editor.js";
import { mountOperations } from "./operations.js";
import { mountEntities } from "./entities.js";
import { mountWire } from "./wire.js";
import { mountQuery } from "./query.js";
import { mountBatch } from "./batch.js";
import { loadSample, sampleUser } from "./sample.js";

export function mountParts(session, slots, { filter = "" } = {}) {
  const out = {};
  if (slots.tables) out.tables = mountTables(slots.tables, session);
  if (slots.editor) out.editor = mountEditor(slots.editor, session);
  if (slots.operations) mountOperations(slots.operations, session, { batch: Boolean(slots.batch) });
  if (slots.entities) mountEntities(slots.entities, session);
  if (slots.wire || slots.levels) mountWire(slots.wire ?? slots.levels, session, { exchanges: Boolean(slots.wire), levels: Boolean(slots.levels) });
  if (slots.query) mountQuery(slots.query, session, { filter });
  if (slots.batch) out.batch = mountBatch(slots.batch, session);
  session.on("load-sample", async () => {
    const table = await loadSample(session);
    await out.tables?.refresh();
    select(session, out, table);
    out.editor?.setDraft(sampleUser);
    session.emit("load-entity", { draft: sampleUser });
    session.setStatus("Sample loaded: the user Ada is in the editor.");
    session.emit("sample-loaded", { table });
  });
  return out;
}

// select makes a table the playground's current one, through the tables
// part when there is one.
export function select(session, parts, table) {
  if (parts.tables) parts.tables.select(table);
  else {
    session.table = table;
    session.emit("table-selected", { table });
  }
}
