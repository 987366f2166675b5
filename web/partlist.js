// web/partlist.js is responsible for the parts of a playground as one table:
// each part is one module and one row here, read by web/parts.js (which
// mounts them), by the full page (its slot for each part, web/app.js), by
// the embed (its views, web/embed.js, and its layout, web/embed-app.js) and
// by docs/embedding.md. It holds data only: web/embed.js reads it before
// any part loads. EVENTS declares the names on a session's bus; a test
// (e2e/parts.test.js) holds every module's emit and on calls to it, and
// each part's row to what its module emits and hears.
//
// A row: name; module and mount, the module's file and the function that
// mounts the part, mount(root, session, options); views, the embed's view
// names that show it (the first one the part's own); slot, the element id
// of the full page that holds it; place, its column in an embed (left,
// right or wide); options(has, given), the options it mounts with, from
// the views shown and mountParts' own; emits and hears, its events.
export const PARTS = [
  { name: "tables", module: "./tables.js", mount: "mountTables", views: ["tables"], slot: "tables-panel", place: "left",
    emits: ["exchange", "load-sample", "table-selected"], hears: ["tables-changed", "target-changed"] },
  { name: "editor", module: "./editor.js", mount: "mountEditor", views: ["editor"], slot: "editor-part", place: "left",
    emits: [], hears: ["draft-sent", "load-entity", "table-selected"] },
  { name: "operations", module: "./operations.js", mount: "mountOperations", views: ["editor"], slot: "operations-part", place: "left",
    options: (has) => ({ batch: has("batch") }),
    emits: ["draft-sent", "enqueue", "entities-changed", "entity-written", "exchange"], hears: ["etag-seen", "load-entity", "queued", "table-selected", "target-changed"] },
  { name: "entities", module: "./entities.js", mount: "mountEntities", views: ["editor"], slot: "entities-part", place: "left",
    emits: ["entities-changed", "load-entity"], hears: ["entities-changed", "table-selected"] },
  { name: "wire", module: "./wire.js", mount: "mountWire", views: ["wire", "levels"], slot: "wire-panel", place: "right",
    options: (has) => ({ exchanges: has("wire"), levels: has("levels") }),
    emits: [], hears: ["entity-written", "exchange", "load-entity", "reveal-exchange"] },
  { name: "query", module: "./query.js", mount: "mountQuery", views: ["query"], slot: "query-panel", place: "wide",
    options: (_, given) => ({ filter: given.filter ?? "" }),
    emits: ["exchange", "reveal-exchange"], hears: ["entities-changed", "table-selected"] },
  { name: "batch", module: "./batch.js", mount: "mountBatch", views: ["batch"], slot: "batch-panel", place: "wide",
    emits: ["entities-changed", "exchange", "queued", "reveal-exchange"], hears: ["enqueue", "target-changed"] },
];

// VIEWS are the embed's view names, in the order of the parts.
export const VIEWS = [...new Set(PARTS.flatMap((p) => p.views))];

// EVENTS are the names a session's bus carries (session.emit, session.on)
// and what each says.
export const EVENTS = {
  "table-selected": "{table}: the playground's current table is another (or none)",
  "tables-changed": "the account's tables were created or deleted: the list reads them again",
  "entities-changed": "entities changed (a write, an import, another tab): lists read them again",
  "entity-written": "{table, draft}: the editor's operation wrote its entity",
  "exchange": "one request and its answer (web/exchange.js), for the wire view",
  "reveal-exchange": "{id}: scroll the wire view to an exchange and open it",
  "load-entity": "{draft, etag?}: put an entity into the editor",
  "draft-sent": "the editor's draft was sent: it is no longer unsaved",
  "enqueue": "{operation}: add an operation to the batch queue",
  "queued": "{count, …}: the batch queue changed",
  "load-sample": "load the sample table and user",
  "sample-loaded": "{table}: the sample is in",
  "target-changed": "{endpoint, writesRefused}: the playground now talks to another endpoint or to the tab's own account",
  "etag-seen": "{table, pk, rk, etag}: a read or a refresh saw an entity's ETag (the one the person holds is not changed)",
};
