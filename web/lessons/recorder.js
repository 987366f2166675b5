// web/lessons/recorder.js is responsible for "Make a lesson from this": the
// workbench is lent to a scratch copy of the account as it stands (the
// lesson's start account), the operations the person then sends are
// recorded as steps, the teacher writes each step's text, question,
// choices and explanation, and the engine fills each step's expectation
// from its own answer and reads the lesson back with the loader every
// lesson file goes through. The lesson is exported as a file, as a link
// (#lesson-doc=…, compressed and capped like a share link) that opens it in
// the lesson view, and as an embed (<table-playground lesson-doc=…>).
//
// createRecorder({engine, session, borrow, host}) → {start()}
import { el, replace } from "../dom.js";
import { fileLink } from "../files.js";
import { encode, MAX_FRAGMENT } from "../sharelink.js";
import { lessonDocHash } from "./view.js";
import { t, lang, learnURL, withLang, onChange, PSEUDO } from "../i18n.js";

const MAX_STEPS = 8;
// section is the page a recorded lesson teaches, in the language it is
// written in (the Learn page's own edition of that language).
const section = () => ({
  title: t("lessons.recorder.section"),
  url: learnURL("https://learn.microsoft.com/en-us/rest/api/storageservices/understanding-the-table-service-data-model"),
});

// writtenIn is the language a lesson recorded now is written in: the
// page's (the pseudo-locale's text is English).
const writtenIn = () => (lang() === PSEUDO ? "en" : lang());

// slug makes a lesson id of a title: lower-case letters, digits and '-'.
const slug = (title) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 63) || "my-lesson";

function field(label, control) {
  return el("label", { class: "stack" }, el("span", {}, label), control);
}

// lessonDocShare returns how a lesson file's text is shared: its code
// (deflated as a share link is), the link that opens it on this page and
// the snippet that shows it in an embed (docs/embedding.md); link and embed
// are null when the code is longer than a link may be.
export async function lessonDocShare(text) {
  const code = await encode(text);
  if (code.length + lessonDocHash("").length > MAX_FRAGMENT) return { code, link: null, embed: null };
  return {
    code,
    link: withLang(`${location.origin}${location.pathname}${lessonDocHash(code)}`),
    embed: `<script type="module" src="${new URL("../embed.js", import.meta.url).href}"></script>\n<table-playground lesson-doc="${code}"></table-playground>`,
  };
}

export function createRecorder({ engine, session, borrow, host }) {
  let recording = null; // {start, ops}
  let made = null; // frees the URL of the lesson file made last
  const panel = el("section", { class: "lesson-recorder", "aria-label": t("lessons.recorder.label"), hidden: true });
  host.prepend(panel);
  const say = el("p", { role: "status" });

  session.on("exchange", (x) => {
    if (!recording || recording.writing || !x?.operation || !x.request || x.notSent) return;
    if (recording.ops.length >= MAX_STEPS) {
      say.textContent = t("lessons.recorder.full", { max: MAX_STEPS });
      return;
    }
    recording.ops.push(structuredClone(x.operation));
    showRecording();
  });

  function showRecording() {
    const n = recording.ops.length;
    panel.setAttribute("aria-label", t("lessons.recorder.label"));
    say.textContent = t("lessons.recorder.recording", { n, min: 3, max: MAX_STEPS });
    replace(panel,
      el("h2", {}, t("lessons.recorder.making")),
      el("p", { class: "hint" }, t("lessons.recorder.makingHint")),
      say,
      el("ol", { class: "recorded" }, recording.ops.map((op) => el("li", {}, el("code", {}, `${op.kind} ${op.table ?? ""}`)))),
      el("div", { class: "row wrap" },
        el("button", { type: "button", disabled: n < 3, onclick: write }, t("lessons.recorder.stop")),
        el("button", { type: "button", class: "secondary", onclick: cancel }, t("lessons.recorder.cancel"))));
  }

  // A switch of language while recording says the recording's words in
  // it; the form of the lesson's words keeps what the teacher typed and
  // relabels its fields.
  onChange(() => {
    if (!recording || panel.hidden) return;
    if (!recording.writing) showRecording();
    else recording.relabel?.();
  });

  async function start() {
    if (recording) return;
    const account = engine.snapshot();
    recording = { start: account, ops: [] };
    panel.hidden = false;
    await borrow.tryIt({ account, table: session.table, filter: document.getElementById("filter")?.value ?? "", select: "", top: "", lesson: t("lessons.recorder.newLesson"), draft: session.draft?.() ?? undefined, banner: false });
    showRecording();
    panel.scrollIntoView({ block: "start" });
  }

  async function cancel() {
    made?.abort();
    made = null;
    recording = null;
    panel.hidden = true;
    await borrow.back();
  }

  // write shows the form for the lesson's words, one fieldset a step.
  function write() {
    recording.writing = true;
    const lessonTitle = el("input", { name: "title", required: true });
    const line = el("input", { name: "line" });
    const summary = el("textarea", { name: "summary", rows: 2 });
    const steps = recording.ops.map((op, i) => ({
      op,
      title: el("input", { name: `step-${i + 1}-title`, value: `${op.kind} ${op.table ?? ""}`.trim() }),
      text: el("textarea", { name: `step-${i + 1}-text`, rows: 2 }),
      question: el("input", { name: `step-${i + 1}-question` }),
      choices: el("textarea", { name: `step-${i + 1}-choices`, rows: 3 }),
      answer: el("input", { name: `step-${i + 1}-answer`, type: "number", min: 1, max: 4, value: "1" }),
      explain: el("textarea", { name: `step-${i + 1}-explain`, rows: 2, value: "{status} {code}." }),
    }));
    const out = el("div", { class: "stack", "aria-live": "polite" });
    // form lays out the fields (their values are kept across a switch of
    // language: the same inputs are put back under new labels).
    const form = () => replace(panel,
      el("h2", {}, t("lessons.recorder.write")),
      el("p", { class: "hint" }, t("lessons.recorder.writeHint", { placeholders: "{status}, {code}, {returned}, {scanned}, {more}, {rowKeys}, {failedIndex}" })),
      field(t("lessons.recorder.title"), lessonTitle), field(t("lessons.recorder.line"), line), field(t("lessons.recorder.summary"), summary),
      steps.map((s, i) => el("fieldset", { class: "stack recorded-step" },
        el("legend", {}, t("lessons.recorder.stepLegend", { step: i + 1 }), " ", el("code", {}, `${s.op.kind} ${s.op.table ?? ""}`)),
        field(t("lessons.recorder.stepTitle"), s.title), field(t("lessons.recorder.stepText"), s.text),
        field(t("lessons.recorder.question"), s.question), field(t("lessons.recorder.choices"), s.choices),
        field(t("lessons.recorder.answer"), s.answer), field(t("lessons.recorder.explain"), s.explain))),
      el("div", { class: "row wrap" },
        el("button", { type: "button", onclick: () => check() }, t("lessons.recorder.check")),
        el("button", { type: "button", class: "secondary", onclick: cancel }, t("lessons.recorder.cancel"))),
      out);
    recording.relabel = form;
    form();
    lessonTitle.focus();

    async function check() {
      const title = lessonTitle.value.trim();
      const doc = {
        id: slug(title), order: 100, title, line: line.value.trim() || title, summary: summary.value.trim() || title,
        section: section(), lang: writtenIn(), start: recording.start,
        steps: steps.map((s) => {
          const step = { title: s.title.value.trim(), text: s.text.value.trim(), explain: s.explain.value.trim(), operation: s.op, expect: {} };
          const choices = s.choices.value.split("\n").map((c) => c.trim()).filter(Boolean);
          if (s.question.value.trim()) step.predict = { question: s.question.value.trim(), choices, answer: Number(s.answer.value) - 1 };
          return step;
        }),
      };
      const r = engine.completeLesson(doc);
      if (r.error) {
        replace(out, el("p", { class: "card", role: "alert" }, t("lessons.recorder.notMade", { error: r.error })));
        return;
      }
      const text = JSON.stringify(r.lesson, null, 2) + "\n";
      // The file's URL is freed when the person leaves the recorder.
      made?.abort();
      made = new AbortController();
      const { code, link, embed } = await lessonDocShare(text);
      replace(out,
        el("p", { role: "status" }, t("lessons.recorder.made", { title, n: doc.steps.length })),
        el("p", {}, fileLink(`${doc.id}.json`, text, "application/json", { class: "lesson-file" }, t("lessons.recorder.download", { file: `${doc.id}.json` }), made.signal),
          t("lessons.recorder.downloadHint")),
        link
          ? [el("label", { class: "stack" }, t("lessons.recorder.linkLabel"), el("input", { class: "lesson-link", readonly: true, value: link })),
            el("label", { class: "stack" }, t("lessons.recorder.embedLabel"),
              el("textarea", { class: "lesson-embed", readonly: true, rows: 3, value: embed }))]
          : el("p", { class: "card" }, t("lessons.recorder.tooLarge", { n: code.length, max: MAX_FRAGMENT })),
        el("button", { type: "button", class: "secondary", onclick: cancel }, t("lessons.recorder.done")));
    }
  }

  return { start };
}
