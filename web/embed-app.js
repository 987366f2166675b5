// web/embed-app.js is responsible for turning one <table-playground>
// element into a live playground once it starts: its own account in the
// page's engine (created here, dropped by destroy), its start state, the
// parts its view names mounted in its shadow root (web/parts.js, the same
// parts as the full page), a table choice when the tables part is not shown,
// and the "Open in the playground" link that carries its state.
import tableplay from "./engine.js";
import { el, replace, debounce } from "./dom.js";
import { createSession } from "./session.js";
import { mountParts, select } from "./parts.js";
import { PARTS } from "./partlist.js";
import { loadSample, sampleUser } from "./sample.js";
import { send } from "./exchange.js";
import { readCapped, shareLink, decode } from "./sharelink.js";
import { mountLessons, lessonDocHash } from "./lessons/view.js";
import { readStartState, stateFix } from "./embed.js";
import { t, onChange, withLang } from "./i18n.js";

// SRC_TIMEOUT_MS bounds a src= start state, its body included, as Connect
// bounds its requests: an answer that never ends becomes an error in the
// embed's box, never "Loading" for ever.
export const SRC_TIMEOUT_MS = 15_000;

// fetchStart fetches a src= start state (the same start state as the
// inline forms, or a bare account document) within SRC_TIMEOUT_MS.
async function fetchStart(src, timeout = SRC_TIMEOUT_MS) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  const fail = (why, fix) => Object.assign(new Error(t("embed.src.failed", { src, why })), { fix });
  const secs = timeout / 1000;
  try {
    let response;
    try {
      response = await fetch(new URL(src, document.baseURI), { signal: controller.signal });
    } catch (e) {
      if (controller.signal.aborted) throw fail(t("embed.src.noAnswer", { s: secs }), t("embed.src.fixAnswer"));
      throw fail(e.message, t("embed.src.fixCORS"));
    }
    if (!response.ok) throw fail(t("embed.src.status", { status: String(response.status) }), t("embed.src.fixAddress"));
    if (!response.body) throw fail(t("embed.src.noBody"), t("embed.src.fixServe"));
    let text;
    try {
      text = await readCapped(response.body, "holds");
    } catch (e) {
      if (controller.signal.aborted) throw fail(t("embed.src.unfinished", { s: secs }), t("embed.src.fixWhole"));
      throw fail(e.message, e instanceof RangeError ? t("embed.src.fixSmaller") : t("embed.src.fixWhole"));
    }
    const r = readStartState(text, t("embed.where.file", { src }));
    if (r.problem) throw Object.assign(new Error(r.problem), { fix: stateFix() });
    return r.state;
  } finally {
    clearTimeout(timer);
  }
}

// tableMissing is the error for a start state whose table its account
// does not hold.
function tableMissing(engine, table) {
  const names = engine.snapshot().tables.map((t) => t.name);
  if (table == null || names.includes(table)) return null;
  return Object.assign(new Error(t("embed.tableMissing", { table })), {
    fix: names.length ? t("embed.tableMissingFix", { names: names.join(", ") }) : t("embed.tableMissingAdd"),
  });
}

// docLessons maps the id of each lesson a lesson-doc attribute put in the
// page's engine to its text: the engine holds one lesson per id, so a
// second embed may show the same lesson but not another one of that id.
const docLessons = new Map();

// lessonDocFailure is the error an embed shows in its box for a lesson-doc
// that cannot be opened.
function lessonDocFailure(reason) {
  return Object.assign(new Error(t("embed.lessonDoc.failed", { reason })), {
    fix: t("embed.lessonDoc.fix"),
  });
}

// openLessonDoc reads a lesson-doc code as the page reads a #lesson-doc=
// link (the share link's caps, then the engine's lesson loader) and returns
// the lesson's id.
async function openLessonDoc(engine, code) {
  if (!/^[A-Za-z0-9_-]+$/.test(code)) throw lessonDocFailure(t("embed.lessonDoc.notCode"));
  let text;
  try {
    text = await decode(code);
  } catch (e) {
    throw lessonDocFailure(e instanceof RangeError ? e.message : t("embed.lessonDoc.unreadable"));
  }
  let id;
  try {
    id = JSON.parse(text)?.id;
  } catch {
    // not JSON: the loader below says so
  }
  if (docLessons.has(id) && docLessons.get(id) !== text) throw lessonDocFailure(t("embed.lessonDoc.sameId", { id }));
  const r = engine.addLesson(text);
  if (r.error) throw lessonDocFailure(r.error);
  docLessons.set(r.id, text);
  return r.id;
}

// exampleLesson reports whether an example names a lesson of the gallery:
// the embed then starts from that lesson's start account.
function exampleLesson(engine, id) {
  return engine.lessons().some((l) => l.id === id);
}

// stepRange reads step="N" or steps="A-B" for a lesson of n steps:
// {first, last} (1-based), null when neither is given, or {error}.
function stepRange(step, steps, n) {
  if (step == null && steps == null) return null;
  if (step != null && steps != null) return { error: t("embed.steps.both") };
  const [a, b] = step != null ? [step, step] : String(steps).split("-");
  const first = Number(a);
  const last = Number(b);
  if (!Number.isInteger(first) || !Number.isInteger(last) || first < 1 || last < first || last > n) {
    return { error: t("embed.steps.range", { attr: step != null ? `step="${step}"` : `steps="${steps}"`, n }) };
  }
  return { first, last };
}

// startState applies the element's start state to its new account and
// returns {table, entity, filter} to show.
async function startState(c, session) {
  const engine = session.engine;
  // src= holds the same start state as the inline forms; what is written
  // inline wins field by field.
  const inline = c.src && !c.inline?.account ? { ...(await fetchStart(c.src)), ...c.inline } : (c.inline ?? {});
  if (c.lesson) {
    // The lesson's account as its first step shown begins.
    const view = engine.lesson(c.lesson);
    const range = view.error ? null : stepRange(c.step, c.steps, view.steps.length);
    const r = engine.resetLesson(c.lesson, range?.first ? range.first - 1 : 0);
    const problem = r.error ?? range?.error;
    const note = problem ? t("embed.lessonNotStarted", { lesson: c.lesson, why: problem }) : "";
    return { note, range: range?.error ? null : range, table: engine.snapshot().tables[0]?.name ?? null, entity: null, filter: "" };
  }
  if (inline.account) {
    try {
      engine.restore(inline.account);
    } catch (e) {
      throw Object.assign(new Error(t("embed.accountNotLoaded", { why: e.message })), { fix: t("embed.accountNotLoadedFix") });
    }
  } else if (c.example && c.example !== "sample" && exampleLesson(engine, c.example)) {
    // A lesson's data, without its steps.
    const r = engine.resetLesson(c.example, 0);
    const note = r.error ? t("embed.exampleNotStarted", { example: c.example, why: r.error }) : "";
    const missing = tableMissing(engine, inline.table);
    if (missing) throw missing;
    return { note, table: inline.table ?? engine.snapshot().tables[0]?.name ?? null, entity: inline.entity ?? null, filter: inline.filter ?? "" };
  } else if (c.example) {
    const note = c.example === "sample" ? "" : t("embed.noExample", { example: c.example });
    return { note, table: await loadSample(session), entity: inline.entity ?? sampleUser, filter: inline.filter ?? "" };
  }
  const missing = tableMissing(engine, inline.table);
  if (missing) throw missing;
  return { table: inline.table ?? engine.snapshot().tables[0]?.name ?? null, entity: inline.entity ?? null, filter: inline.filter ?? "" };
}

// asDraft accepts an editor draft ({PartitionKey, RowKey, properties}) or
// an entity written as an OData body, read by the engine.
function asDraft(engine, entity) {
  if (!entity || Array.isArray(entity.properties)) return entity;
  return engine.parseBody(JSON.stringify(entity)).draft ?? null;
}

// reveal scrolls box (the embed's body) so that target is in view, without
// scrolling the host page as scrollIntoView would.
function reveal(box, target) {
  if (!box || !target) return;
  const b = box.getBoundingClientRect();
  const t = target.getBoundingClientRect();
  // An answer whose start is in view already stays where it is.
  if (t.top >= b.top && t.top <= b.bottom - 48) return;
  if (t.top < b.top || t.height > b.height) box.scrollTop += t.top - b.top - 8;
  else box.scrollTop += t.bottom - b.bottom + 8;
}

// answerOf is the element showing the answer to the latest action: the
// query's figures for a query, else the newest exchange.
function answerOf(root, operation) {
  return (operation?.kind === "query" && root.querySelector("#query-summary")) || root.querySelector("#exchanges article");
}

// tableChoice is the toolbar's table select for views without the tables
// part; it follows creates and deletes.
function tableChoice(session, parts) {
  const choice = el("select", { "aria-label": t("embed.table"), part: "table-select" });
  const refresh = async () => {
    const x = await send(session, { kind: "listTables" });
    const names = x.response?.status === 200 ? JSON.parse(x.response.body).value.map((table) => table.TableName) : [];
    choice.setAttribute("aria-label", t("embed.table"));
    replace(choice, names.length ? names.map((n) => el("option", { value: n, selected: n === session.table }, n)) : el("option", { value: "" }, t("embed.noTable")));
  };
  choice.addEventListener("change", () => select(session, parts, choice.value || null));
  session.on("exchange", ({ operation }) => {
    if (operation.kind === "createTable" || operation.kind === "deleteTable") refresh();
  });
  session.on("table-selected", refresh);
  return { choice, refresh };
}

export async function startPlayground(host, ui) {
  let c = ui.c;
  window.addEventListener("tableplay:progress", function progress(e) {
    const { loaded, total } = e.detail;
    if (total && loaded >= total) window.removeEventListener("tableplay:progress", progress);
    if (host.dataset.state !== "ready" && total) ui.status.textContent = t("embed.loadingPercent", { percent: Math.round((100 * loaded) / total) });
  });
  await tableplay.ready;
  const engine = await tableplay.createAccount();
  const session = createSession({ engine, host: ui.frame, status: ui.status });
  let start;
  try {
    // A lesson written in the browser, once loaded, is shown as a lesson.
    if (c.lessonDoc !== null) c = { ...c, lesson: await openLessonDoc(engine, c.lessonDoc) };
    start = await startState(c, session);
    start.draft = asDraft(engine, start.entity);
    if (start.entity && !start.draft) {
      throw Object.assign(new Error(t("embed.entityUnreadable")), {
        fix: t("embed.entityFix", { body: '{"PartitionKey": …, "RowKey": …, properties…}', draft: "{PartitionKey, RowKey, properties: [{name, type, text}]}" }),
      });
    }
  } catch (err) {
    tableplay.dropAccount(engine.name);
    throw err;
  }
  session.readonly = c.readonly;
  session.level = c.level;
  // Copied code connects to the emulator (or the author's sandbox), with
  // the table it uses created first: it runs as copied.
  session.codeTarget = { endpoint: c.codeEndpoint, account: c.codeAccount, createTable: true };

  // The parts, laid out in two columns when there is room for both sides.
  const has = (v) => c.view.includes(v);
  const shown = PARTS.filter((p) => p.views.some(has));
  const slots = Object.fromEntries(shown.map((p) => [p.name, el("div")]));
  const column = (place) => shown.filter((p) => p.place === place).map((p) => slots[p.name]);
  const [left, right, wide] = [column("left"), column("right"), column("wide")];
  // A lesson, when the element names one, runs above the parts.
  const lessonSlot = c.lesson ? el("div", { class: "wide lesson-slot" }) : null;
  for (const w of wide) w.classList.add("wide");
  const two = left.length > 0 && right.length > 0;
  replace(ui.body, lessonSlot, two ? [el("div", {}, left), el("div", {}, right), wide] : [left, wide, right]);
  ui.body.className = two ? "body two" : "body";
  ui.frame.classList.toggle("readonly", c.readonly);

  const parts = await mountParts(session, { slots, views: c.view, filter: start.filter });
  const toolbar = [];
  let choice = null;
  if (!slots.tables && c.view.length) {
    choice = tableChoice(session, parts);
    toolbar.push(choice.choice);
  }
  const open = el("a", { part: "open", href: withLang(c.playground), target: "_blank", rel: "noopener" }, t("embed.open"));
  toolbar.push(open);
  ui.run.replaceWith(...toolbar);
  let lessons = null;
  if (lessonSlot) {
    lessons = mountLessons(lessonSlot, {
      engine,
      hash: false,
      lesson: c.lesson,
      steps: start.range,
      // A lesson-doc's lesson exists on the full page only through its link.
      lessonURL: (id, step) => withLang(c.playground.split("#")[0] + (c.lessonDoc !== null ? lessonDocHash(c.lessonDoc) : `#lesson=${encodeURIComponent(id)}&step=${step}`)),
      onExchange: (x) => session.emit("exchange", x),
      onChange: () => {
        parts.tables?.refresh();
        choice?.refresh();
      },
      onStatus: (text) => session.setStatus(text),
    });
  }

  // The link carries the account's state to the full page.
  const relink = debounce(async () => {
    const { link } = await shareLink(c.playground, JSON.stringify(engine.snapshot()));
    open.href = link ?? withLang(c.playground);
    open.title = link ? t("embed.openTitle") : t("embed.openTooLarge");
  }, 200);
  const changed = (e) => e.detail?.account === engine.name && relink();
  window.addEventListener("tableplay:change", changed);
  relink();

  await parts.tables?.refresh();
  if (start.table) select(session, parts, start.table);
  else choice?.refresh();
  const draft = start.draft;
  if (draft) parts.editor?.setDraft(draft);
  // Read-only: Send becomes a button that shows the request, and the start
  // entity's request is shown at once; a query shows its start result.
  const form = (id) => ui.body.querySelector(`#${id}`);
  if (c.readonly && form("run-op")) form("run-op").textContent = t("embed.showRequest");
  // After the reader's action (a control inside has focus; the start
  // state's own results below do not move the view) its answer is scrolled
  // into view inside the embed.
  session.on("exchange", ({ operation } = {}) => {
    if (!host.shadowRoot.activeElement) return;
    requestAnimationFrame(() => reveal(ui.body, c.lesson ? ui.body.querySelector(".lesson-result") : answerOf(ui.body, operation)));
  });
  if (c.readonly && draft && form("operation")) form("operation").requestSubmit();
  if (has("query") && start.table && form("query-form")) form("query-form").requestSubmit();
  // A start-state problem stays in view beside the live line.
  const live = () => t(c.readonly ? "embed.liveReadonly" : "embed.live", { account: engine.name });
  session.setStatus(() => (start.note ? `${start.note} ${live()}` : live()));
  // A switch of language: the embed's own words again (the parts and the
  // lesson view follow it themselves).
  const stopLang = onChange(() => {
    open.textContent = t("embed.open");
    relink();
    choice?.refresh();
    if (c.readonly && form("run-op")) form("run-op").textContent = t("embed.showRequest");
  });

  return {
    account: engine.name,
    destroy() {
      stopLang();
      lessons?.stopLang();
      window.removeEventListener("tableplay:change", changed);
      session.destroy();
      try {
        tableplay.dropAccount(engine.name);
      } catch {
        // already gone
      }
    },
  };
}
