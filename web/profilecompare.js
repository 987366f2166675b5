// web/profilecompare.js is responsible for the wire view's "Compare with…": the
// same request replayed under two profiles (docs/profiles.md) and both
// answers side by side, the lines that differ marked. The engine answers
// both: each replay runs on a scratch account restored from the account as
// it is now (the page's account is never touched; a copy taken before every
// write would cost each write a snapshot of the whole account), and
// the page only compares the text the engine gave, line by line. The order
// of results is the engine's reading of each body (readEntities), compared
// as text.
//
// createComparer(tableplay) → {profiles, current, replay(x, other)}, for a
// session's `profileCompare`; compareView(result) lays a replay out.
import { el } from "./dom.js";
import { indent } from "./jsontext.js";
import { t } from "./i18n.js";

const SCRATCH = "compare";
// Bodies longer than this are compared line against line, without
// realigning: the alignment's table grows with the product of the lengths.
const ALIGN_LINES = 1500;

export function createComparer(tableplay) {
  // runAs answers x's request on a scratch account of the named profile
  // holding doc: {profile, ran} or {profile, error}.
  async function runAs(name, doc, x) {
    const profile = tableplay.profiles().find((p) => p.name === name) ?? { name, title: name };
    try {
      tableplay.dropAccount(SCRATCH);
    } catch {
      // none left over
    }
    let acct;
    try {
      acct = await tableplay.createAccount(SCRATCH, name);
    } catch (e) {
      return { profile, error: e.message };
    }
    try {
      try {
        acct.restore(JSON.stringify(doc));
      } catch (e) {
        return { profile, error: t("profilecompare.cannotCopy", { profile: profile.title, why: e.message }) };
      }
      const ran = x.raw ? await sendRaw(acct, x) : acct.run(x.operation);
      return ran.error ? { profile, error: ran.error } : { profile, ran };
    } catch (e) {
      return { profile, error: e.message };
    } finally {
      tableplay.dropAccount(SCRATCH);
    }
  }
  // sendRaw sends an exchange whose body went as written (the page's "Send
  // anyway") to acct: the same body under acct's own request line and
  // signature, as web/operations.js sends it.
  async function sendRaw(acct, x) {
    const stand = acct.requestFor({ ...x.operation, entity: { PartitionKey: "p", RowKey: "r", properties: [] } });
    if (stand.error) return { error: stand.error };
    const resp = await tableplay.fetch(stand.url, { method: stand.method, headers: stand.headers, body: x.request.body });
    const body = await resp.text();
    const response = { status: resp.status, statusText: resp.statusText, headers: [...resp.headers.entries()], body };
    return { response, code: resp.status < 300 ? "" : tableplay.readError(body).code ?? "" };
  }
  // replay answers x's operation under the profile it was sent to and
  // under other, each on a copy of the account as it is now; changed says
  // x changed the account, so the copies start after it.
  async function replay(x, other) {
    const doc = tableplay.snapshot();
    const here = x.profile ?? tableplay.profile().name;
    const a = await runAs(here, doc, x);
    const b = await runAs(other, doc, x);
    const changed = Boolean(x.request?.changes || x.raw) && x.response?.status < 300;
    return { sides: [a, b], keys: [a, b].map((s) => keysOf(tableplay, s)), changed };
  }
  // One replay at a time: they share the scratch account's name.
  let queue = Promise.resolve();
  return {
    profiles: () => tableplay.profiles(),
    current: () => tableplay.profile(),
    replay(x, other) {
      const next = queue.then(() => replay(x, other));
      queue = next.catch(() => {});
      return next;
    },
  };
}

// keysOf is the engine's reading of a side's body: the entities' keys in
// body order, or null when the body holds none.
function keysOf(tableplay, side) {
  const body = side.ran?.response?.body ?? "";
  if (!body.startsWith("{")) return null;
  const list = tableplay.readEntities(body);
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.map((e) => `${e.draft.PartitionKey} / ${e.draft.RowKey}`);
}

// marks returns, for two lists of lines, which lines of each are not in a
// longest common subsequence (the lines a text diff shows as changed).
export function marks(a, b) {
  if (a.length > ALIGN_LINES || b.length > ALIGN_LINES) {
    const n = Math.max(a.length, b.length);
    const same = Array.from({ length: n }, (_, i) => a[i] === b[i]);
    return [a.map((_, i) => !same[i]), b.map((_, i) => !same[i])];
  }
  const w = b.length + 1;
  const t = new Uint16Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      t[i * w + j] = a[i] === b[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    }
  }
  const ma = a.map(() => true);
  const mb = b.map(() => true);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ma[i++] = false;
      mb[j++] = false;
    } else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) i++;
    else j++;
  }
  return [ma, mb];
}

const headerLines = (r) => r.headers.map(([k, v]) => `${k}: ${v}`);
const bodyLines = (r) => (r.body ? indent(r.body).split("\n") : []);

// summaryItem is one line of the summary: what was compared, each side's
// value and whether they differ.
function summaryItem(kind, label, differs, text) {
  return el("li", { class: differs ? "differs" : "same", "data-diff": kind },
    el("strong", {}, t("profilecompare.label", { label })), " ", differs ? t("profilecompare.differs") : t("profilecompare.same"), " · ", text);
}

// compareView lays out a replay: the summary, then both answers with the
// lines that differ marked.
export function compareView({ sides, keys, changed }) {
  const [a, b] = sides;
  const title = t("profilecompare.pair", { a: a.profile.title, b: b.profile.title });
  const box = el("section", { class: "compare", "aria-label": t("profilecompare.aria", { title }) },
    el("h4", {}, t("profilecompare.heading", { title })),
    el("p", { class: "hint" }, changed ? t("profilecompare.changedHint") : t("profilecompare.hint")));
  if (a.error || b.error) {
    box.append(el("ul", { class: "compare-summary" },
      sides.map((s) => el("li", { class: s.error ? "differs" : "same", "data-diff": "run" },
        el("strong", {}, t("profilecompare.label", { label: s.profile.title })), " ", s.error ?? `${s.ran.response.status} ${s.ran.response.statusText}`))));
    return box;
  }
  const ra = a.ran.response;
  const rb = b.ran.response;
  const [ha, hb] = marks(headerLines(ra), headerLines(rb));
  const [ba, bb] = marks(bodyLines(ra), bodyLines(rb));
  const count = (m) => m.filter(Boolean).length;
  const items = [
    summaryItem("status", t("profilecompare.status"), ra.status !== rb.status, `${ra.status} ${ra.statusText} · ${rb.status} ${rb.statusText}`),
    summaryItem("code", t("profilecompare.code"), (a.ran.code ?? "") !== (b.ran.code ?? ""), `${a.ran.code || t("profilecompare.none")} · ${b.ran.code || t("profilecompare.none")}`),
    summaryItem("headers", t("profilecompare.headers"), count(ha) + count(hb) > 0, t("profilecompare.oneSide", { a: count(ha), b: count(hb) })),
    summaryItem("body", t("profilecompare.body"), ra.body !== rb.body, t("profilecompare.oneSideBytes", { a: count(ba), b: count(bb), sizeA: ra.body.length, sizeB: rb.body.length })),
  ];
  if (keys[0] && keys[1]) {
    const sameSet = [...keys[0]].sort().join("\n") === [...keys[1]].sort().join("\n");
    const sameOrder = keys[0].join("\n") === keys[1].join("\n");
    const label = sameOrder ? t("profilecompare.sameOrder") : sameSet ? t("profilecompare.otherOrder") : t("profilecompare.otherEntities");
    items.push(summaryItem("order", t("profilecompare.order"), !sameOrder, `${label}: ${keys[0].join(", ")} · ${keys[1].join(", ")}`));
  }
  box.append(el("ul", { class: "compare-summary" }, items));
  const column = (side, r, hm, bm) => {
    const pre = el("pre", { tabindex: 0, class: "compare-answer", "aria-label": t("profilecompare.answerAs", { profile: side.profile.title }) });
    const line = (text, marked) => (marked ? el("mark", { class: "diff-line" }, text + "\n") : text + "\n");
    pre.append(line(`HTTP/1.1 ${r.status} ${r.statusText}`, ra.status !== rb.status));
    pre.append(...headerLines(r).map((t, i) => line(t, hm[i])));
    if (r.body) pre.append("\n", ...bodyLines(r).map((t, i) => line(t, bm[i])));
    return el("div", { class: "compare-side", "data-profile": side.profile.name }, el("h5", {}, side.profile.title), pre);
  };
  box.append(el("div", { class: "compare-sides" }, column(a, ra, ha, ba), column(b, rb, hb, bb)));
  return box;
}
