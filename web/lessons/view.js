// web/lessons/view.js is responsible for the lesson view: the lessons menu,
// one lesson a step at a time (the step asks, the person predicts, the
// engine runs it, then the step explains with the engine's figures), links
// of the form #lesson=<id>&step=<n>, progress remembered in this browser,
// and presenter mode (#present, keys and zoom in ./present.js). It mounts
// into a root element it is given and talks only to the engine it is given:
// on the page that is an account of its own, so a lesson never touches the
// person's workspace, and its exchanges go to the lesson's own wire list.
// Every outcome, rule and byte it shows comes from the engine.
import { el, replace } from "../dom.js";
import { prose, exchange } from "./text.js";
import { Progress } from "./progress.js";
import { resultView, queryView } from "./result.js";
import { savedZoom, applyZoom, zoomControl, presenterKey } from "./present.js";
import { decode } from "../sharelink.js";
import { t, nodes, onChange, learnURL, formatNumber } from "../i18n.js";

// parseHash reads #lesson=<id>&step=<n>[&present] (present alone works too).
export function parseHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const step = Number.parseInt(params.get("step") ?? "1", 10);
  return { id: params.get("lesson"), step: Number.isFinite(step) && step > 0 ? step : 1, present: params.has("present") };
}

export function lessonHash(id, step, present) {
  return `#lesson=${encodeURIComponent(id)}&step=${step}${present ? "&present" : ""}`;
}

// lessonDocHash is the fragment of a link that carries a whole lesson file,
// compressed (web/sharelink.js).
export const lessonDocHash = (code) => `#lesson-doc=${code}`;

// docCode is the code of a #lesson-doc= fragment, without the parameters
// after it (lang=).
const docCode = (hash) => hash.slice(lessonDocHash("").length).split("&")[0];

// stepQuery is what a query step asks, from the lesson's own operation.
function stepQuery(op) {
  if (!op || op.kind !== "query") return null;
  return [["$filter", op.filter], ["$select", op.select], ["$top", op.top]].filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => [k, String(v)]);
}

// tryPlace is where "Try it yourself" starts: the table and query of the
// step, or of the nearest step before it that names a table.
function tryPlace(lesson, step) {
  for (let i = step - 1; i >= 0; i--) {
    const op = lesson.steps[i].operation;
    if (op?.table) return { table: op.table, filter: op.filter ?? lesson.steps[step - 1].filter ?? "", select: op.select ?? "", top: op.top ? String(op.top) : "" };
  }
  return { table: null, filter: lesson.steps[step - 1].filter ?? "", select: "", top: "" };
}

class LessonView {
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.engine = options.engine ?? window.tableplay;
    this.progress = new Progress();
    this.menu = this.engine.lessons();
    this.lesson = null; // the open lesson's view
    this.step = 1; // 1-based
    this.result = null; // the open step's run, once run
    this.choice = null; // the prediction's chosen index
    this.asked = false; // presenter mode: the question was put to the class
    this.recapShown = false; // the lesson's recap is on screen
    this.present = false;
    this.zoom = savedZoom();
    this.wire = []; // this lesson's exchanges, newest first
    this.useHash = options.hash ?? true;
    // An embed may show a few steps only ({first, last}, 1-based): no menu,
    // no lesson summary, a link to the whole lesson instead.
    this.range = options.steps ?? null;
    this.summary = el("summary", {});
    this.details = this.range ? el("div", { class: "lessons-box lesson-steps" }) : el("details", { class: "lessons-box" }, this.summary);
    this.renderSummary();
    this.body = el("div", { class: "lessons-body" });
    this.details.append(this.body);
    replace(root, this.details);
    // On the page the location hash drives the view (links, presenter
    // mode); an embed keeps its place in its own state instead.
    this.place = { id: options.lesson ?? null, step: this.range?.first ?? 1, present: false };
    if (this.useHash) {
      window.addEventListener("hashchange", () => this.route());
      // Captured, so a focused radio never takes a clicker's arrow.
      document.addEventListener("keydown", (e) => this.present && this.lesson && presenterKey(this, e), true);
    }
    this.route(true);
    // A switch of language shows the same place in the new one: the
    // engine's lesson texts are read again, the view's own words re-rendered.
    this.stopLang = onChange(() => this.relocalize());
  }

  renderSummary() {
    replace(this.summary, el("span", { class: "lessons-title" }, t("lessons.title")), " ",
      el("span", { class: "hint" }, t("lessons.menuHint", { n: this.menu.length ?? 0 })));
  }

  // relocalize re-renders what is on screen in the shown language; a step
  // that has run shows its result again (not run again).
  relocalize() {
    if (!this.root.isConnected && !this.details.isConnected) return;
    this.menu = this.engine.lessons();
    this.renderSummary();
    if (!this.lesson) {
      this.renderMenu(this.menuMessage);
      return;
    }
    const fresh = this.engine.lesson(this.lesson.id);
    if (!fresh.error) this.lesson = fresh;
    if (this.recapShown) {
      this.recap();
      return;
    }
    const { result, choice, asked } = this;
    this.renderLesson();
    if (result) {
      this.choice = choice;
      if (choice !== null) this.choose(choice);
      this.showResult(result);
    } else if (asked) {
      this.ask();
    } else if (choice !== null) {
      this.choose(choice);
    }
  }

  // route shows what the hash names. Except on the page's first load, focus
  // moves to the step's heading, so keyboard users continue from there.
  route(first = false) {
    if (this.useHash && location.hash.startsWith(lessonDocHash(""))) {
      this.openDoc(docCode(location.hash));
      return;
    }
    const { id, step, present } = this.useHash ? parseHash(location.hash) : this.place;
    if (present && !id && this.menu.length) {
      // #present alone: the lesson last worked on, where it was left.
      const recent = this.progress.recent() ?? this.menu[0].id;
      location.replace(lessonHash(recent, this.progress.last(recent) ?? 1, true));
      return;
    }
    this.setPresent(present && !!id);
    if (!id) {
      if (this.lesson) this.leave();
      this.renderMenu();
      return;
    }
    if (!this.lesson || this.lesson.id !== id) {
      const view = this.engine.lesson(id);
      if (view.error) {
        this.renderMenu(() => t("lessons.noLesson", { id }));
        return;
      }
      if (this.lesson) this.leave();
      this.lesson = view;
      this.wire = [];
    }
    this.step = Math.min(step, this.lesson.steps.length);
    this.result = null;
    this.choice = null;
    this.asked = false;
    this.recapShown = false;
    this.details.open = true;
    this.renderLesson();
    if (!first || this.present) this.body.querySelector(".lesson-step-title")?.focus();
  }

  // openDoc opens a lesson carried by a link: inflated with a share link's
  // caps, read by the engine's loader, then shown at its first step.
  async openDoc(code) {
    let text;
    try {
      if (!/^[A-Za-z0-9_-]+$/.test(code)) throw new Error(t("lessons.notLessonLink"));
      text = await decode(code);
    } catch (e) {
      this.renderMenu(() => t("lessons.linkNotOpened", { reason: e.message }));
      this.details.open = true;
      return;
    }
    const r = this.engine.addLesson(text);
    if (r.error) {
      this.renderMenu(() => t("lessons.linkNotOpened", { reason: r.error }));
      this.details.open = true;
      return;
    }
    location.replace(lessonHash(r.id, 1, false));
  }

  go(step) {
    if (this.range) step = Math.max(this.range.first, Math.min(this.range.last, step));
    this.navigate(this.lesson.id, step, this.present);
  }

  // navigate moves to a lesson's step (id null: the menu).
  navigate(id, step, present) {
    if (this.useHash) {
      location.hash = id ? lessonHash(id, step, present) : "";
      return;
    }
    this.place = { id, step, present: false };
    this.route();
  }

  // link is an anchor to a place: a real link on the page, a button-like
  // link that keeps the place in an embed.
  link(text, id, step, present, props = {}) {
    const href = id ? lessonHash(id, step, present) : "#";
    return el("a", {
      href, ...props,
      onclick: (e) => {
        if (this.useHash) return;
        e.preventDefault();
        this.navigate(id, step, present);
      },
    }, text);
  }

  // leave closes the lesson; the page gives the person's workspace back if
  // "Try it yourself" had lent it to the lesson.
  leave() {
    this.lesson = null;
    this.result = null;
    this.wire = [];
    this.options.onLeave?.();
  }

  setPresent(on) {
    this.present = on;
    document.documentElement.classList.toggle("presenting", on);
    applyZoom(this.zoom, on);
  }

  // renderMenu shows the menu, under message (a function giving the text,
  // so that a switch of language says it again) when there is one.
  renderMenu(message) {
    this.menuMessage = message;
    const items = this.menu.map((m) => {
      const done = this.progress.done(m.id).size;
      return el("li", {},
        this.link(m.title, m.id, this.progress.last(m.id) ?? 1, false),
        el("span", { class: "hint" }, " — ", prose(m.line, "span"), " "),
        el("span", { class: "steps" }, done ? t("lessons.menuStepsRun", { steps: m.steps, done }) : t("lessons.menuSteps", { steps: m.steps })));
    });
    replace(this.body,
      message ? el("p", { class: "card", role: "alert" }, message()) : null,
      el("p", { class: "hint" }, t("lessons.ownAccount")),
      this.options.record ? el("p", {}, el("button", { type: "button", class: "secondary make-lesson", onclick: () => this.options.record() }, t("lessons.makeLesson")),
        el("span", { class: "hint" }, t("lessons.makeLessonHint"))) : null,
      el("ol", { class: "lesson-menu", "aria-label": t("lessons.title") }, items));
  }

  // targetLine says which implementation answers a step's operation: the
  // profile the step names (docs/lessons.md), in the engine's words, or the
  // account's own; nothing for a lesson that names none.
  targetLine(s) {
    if (!s.operation || !this.lesson.steps.some((x) => x.profile)) return null;
    const p = s.profile ? this.engine.profiles().find((x) => x.name === s.profile) : this.engine.profile();
    return el("p", { class: "lesson-target", "data-profile": p?.name ?? s.profile },
      nodes("lessons.sentTo", { target: el("strong", {}, p?.title ?? s.profile) }));
  }

  // renderSteps shows one step of an embed's range: the step's text, its
  // prediction, Run, and the whole lesson a link away.
  renderSteps() {
    const l = this.lesson;
    const s = l.steps[this.step - 1];
    const { first, last } = this.range;
    const heading = el("h3", { tabindex: -1, class: "lesson-step-title" }, t("lessons.stepOfTitle", { step: this.step, n: l.steps.length, title: s.title }));
    this.runButton = el("button", { type: "button", class: "run-step", onclick: () => this.run() }, t("lessons.run"));
    this.resultBox = el("div", { class: "lesson-result", "aria-live": "polite" });
    const whole = this.options.lessonURL?.(l.id, this.step);
    replace(this.body,
      el("p", { class: "lesson-title" }, l.title),
      heading,
      prose(s.text, "p", { class: "lesson-text" }),
      this.targetLine(s),
      s.predict ? this.predictView(s.predict) : null,
      el("div", { class: "row wrap lesson-buttons" },
        first < last ? el("button", { type: "button", class: "secondary", disabled: this.step === first, onclick: () => this.go(this.step - 1) }, t("lessons.previous")) : null,
        this.runButton,
        first < last ? el("button", { type: "button", class: "secondary next-step", disabled: this.step === last, onclick: () => this.go(this.step + 1) }, t("lessons.next")) : null,
        whole ? el("a", { class: "whole-lesson", href: whole, target: "_blank", rel: "noopener" }, t("lessons.wholeLesson")) : null),
      this.resultBox);
  }

  renderLesson() {
    this.body.classList.remove("ran", "asking");
    if (this.range) return this.renderSteps();
    const l = this.lesson;
    const s = l.steps[this.step - 1];
    const n = l.steps.length;
    const heading = el("h3", { tabindex: -1, class: "lesson-step-title" }, t("lessons.stepHeading", { step: this.step, title: s.title }));
    const predict = s.predict ? this.predictView(s.predict) : null;
    const asks = stepQuery(s.operation);
    this.runButton = el("button", { type: "button", class: "run-step", onclick: () => this.run() }, t("lessons.runStep"));
    this.resultBox = el("div", { class: "lesson-result", "aria-live": "polite" });
    const summary = prose(l.summary, "p", { class: "lesson-summary" });
    const teaches = el("p", { class: "hint" }, nodes("lessons.teaches", { section: el("a", { href: learnURL(l.section.url), target: "_blank", rel: "noopener" }, l.section.title) }));
    replace(this.body,
      el("nav", { class: "lesson-nav row wrap", "aria-label": t("lessons.navLabel") },
        this.link(t("lessons.all"), null, 1, false, { class: "back" }),
        !this.useHash ? null
          : this.present
            ? this.link(t("lessons.leavePresenter"), l.id, this.step, false)
            : this.link(t("lessons.presenter"), l.id, this.step, true),
        this.present ? zoomControl(this) : null,
        // In presenter mode the summary waits in the nav row, folded, so it
        // takes no line of the step's screen.
        this.present ? el("details", { class: "lesson-about" }, el("summary", {}, t("lessons.about")), summary, teaches) : null),
      el("h2", { class: "lesson-title" }, l.title),
      this.present ? null : [summary, teaches],
      el("p", { class: "step-count" }, t("lessons.stepOf", { step: this.step, n })),
      heading,
      prose(s.text, "p", { class: "lesson-text" }),
      this.targetLine(s),
      asks?.length ? el("div", { class: "lesson-asks" }, el("span", { class: "hint" }, `${s.operation.table}:`), queryView(asks)) : null,
      predict,
      el("div", { class: "row wrap lesson-buttons" },
        el("button", { type: "button", class: "secondary", disabled: this.step === 1, onclick: () => this.go(this.step - 1) }, t("lessons.previous")),
        this.runButton,
        this.step < n
          ? el("button", { type: "button", class: "secondary next-step", onclick: () => this.go(this.step + 1) }, t("lessons.next"))
          : el("button", { type: "button", class: "secondary finish", onclick: () => this.recap() }, t("lessons.recapAndNext")),
        el("button", { type: "button", class: "secondary", onclick: () => this.reset() }, t("lessons.reset")),
        this.options.tryIt ? el("button", { type: "button", class: "secondary try-it", onclick: () => this.tryIt() }, t("lessons.tryIt")) : null),
      this.resultBox,
      this.wireView(),
    );
  }

  // wireView is the lesson's own wire list: every exchange this lesson sent,
  // folded.
  wireView() {
    this.wireBox = el("details", { class: "lesson-wire" },
      el("summary", {}, t("lessons.wire", { n: this.wire.length })),
      this.wire.map((x) => el("div", {}, el("h4", {}, t("lessons.step", { step: x.step })), exchange(x.request, x.response, t("lessons.step", { step: x.step })))));
    return this.wireBox;
  }

  predictView(p) {
    const name = `predict-${this.lesson.id}-${this.step}`;
    return el("fieldset", { class: "prediction" },
      el("legend", {}, prose(p.question, "span"), this.present ? el("span", { class: "hint" }, " ", t("lessons.presentHint")) : null),
      p.choices.map((c, i) => el("label", {},
        el("input", { type: "radio", name, value: String(i), onchange: () => { this.choice = i; } }),
        " ", this.present ? el("kbd", {}, formatNumber(i + 1)) : null, " ", prose(c, "span"))));
  }

  // choose answers the prediction (presenter mode's number keys).
  choose(i) {
    const input = this.body.querySelectorAll(".prediction input")[i];
    if (!input) return;
    input.checked = true;
    this.choice = i;
  }

  // ask puts a prediction's question to the class (presenter mode's first
  // →): nothing is run and nothing of the answer shows; the next → runs.
  ask() {
    this.asked = true;
    this.body.classList.add("asking");
    replace(this.resultBox, el("p", { class: "lesson-ask", role: "status" },
      t("lessons.ask")));
    this.body.querySelector(".prediction")?.scrollIntoView({ block: "nearest" });
  }

  // scrollOn shows the rest of a result taller than the screen (presenter
  // mode's → after a run) and answers whether there was any.
  scrollOn() {
    const box = this.resultBox?.getBoundingClientRect();
    if (!box || box.bottom <= window.innerHeight + 2) return false;
    window.scrollBy({ top: Math.min(box.bottom - window.innerHeight + 16, window.innerHeight * 0.8) });
    return true;
  }

  // followingLesson is the lesson after this one in the menu, or null.
  followingLesson() {
    const i = this.menu.findIndex((m) => m.id === this.lesson.id);
    return i >= 0 ? this.menu[i + 1] ?? null : null;
  }

  // recap ends a lesson: what each step was about, which ran, and the
  // lesson that comes next (or the menu after the last one).
  recap() {
    const l = this.lesson;
    const done = this.progress.done(l.id);
    const next = this.followingLesson();
    this.recapShown = true;
    replace(this.body,
      el("nav", { class: "lesson-nav row wrap", "aria-label": t("lessons.navLabel") },
        this.link(t("lessons.all"), null, 1, false, { class: "back" }),
        this.present ? this.link(t("lessons.leavePresenter"), l.id, this.step, false) : null,
        this.present ? zoomControl(this) : null),
      el("section", { class: "lesson-recap", "aria-labelledby": "lesson-recap-heading" },
        el("h3", { id: "lesson-recap-heading", class: "lesson-step-title", tabindex: -1 }, t("lessons.recapTitle", { title: l.title })),
        // The way on first, so it is on the screen whatever the zoom.
        el("p", { class: "row wrap lesson-buttons" },
          next ? this.link(t("lessons.nextLesson", { title: next.title }), next.id, 1, this.present, { class: "next-lesson button-link" }) : this.link(t("lessons.all"), null, 1, false, { class: "next-lesson button-link" }),
          el("button", { type: "button", class: "secondary back-to-step", onclick: () => this.closeRecap() }, t("lessons.backToStep", { step: l.steps.length }))),
        el("ol", { class: "recap-steps" }, l.steps.map((st, i) => el("li", { class: done.has(i + 1) ? "ran" : "" },
          st.title, done.has(i + 1) ? el("span", { class: "hint" }, " · ", t("lessons.recapRun")) : null)))));
    this.body.querySelector("#lesson-recap-heading")?.focus();
    window.scrollTo(0, 0);
  }

  // closeRecap goes back from the recap to the last step (presenter mode's ←).
  closeRecap() {
    this.recapShown = false;
    this.result = null;
    this.choice = null;
    this.asked = false;
    this.renderLesson();
    this.body.querySelector(".lesson-step-title")?.focus();
  }

  // nextLesson opens the following lesson at its first step (presenter
  // mode's → on the recap).
  nextLesson() {
    const next = this.followingLesson();
    this.navigate(next?.id ?? null, 1, next ? this.present : false);
  }

  run() {
    const s = this.lesson.steps[this.step - 1];
    if (s.predict && this.choice === null && !this.present) {
      replace(this.resultBox, el("p", { class: "card", role: "alert" }, t("lessons.chooseFirst")));
      this.body.querySelector(".prediction input")?.focus();
      return;
    }
    const r = this.engine.runLessonStep(this.lesson.id, this.step - 1);
    this.result = r;
    if (!r.error) this.progress.mark(this.lesson.id, this.step);
    if (r.request && r.response) {
      this.wire.unshift({ step: this.step, request: r.request, response: r.response });
      // A step embed has no wire list of its own: the result folds the exchange.
      if (!this.range) this.wireBox.replaceWith(this.wireView());
      this.options.onExchange?.({ operation: s.operation, request: r.request, response: r.response });
    }
    this.options.onChange?.();
    this.showResult(r);
    if (this.present) this.body.querySelector(".lesson-step-title")?.scrollIntoView({ block: "start" });
  }

  // showResult shows a run of the open step: the prediction closed, the
  // right choice marked, the result under the buttons.
  showResult(r) {
    const s = this.lesson.steps[this.step - 1];
    this.result = r;
    for (const input of this.body.querySelectorAll(".prediction input")) input.disabled = true;
    // The right choice is marked where the class looks (and the verdict says it too).
    if (s.predict && !r.error) this.body.querySelectorAll(".prediction label")[s.predict.answer]?.classList.add("right");
    this.resultBox.dataset.ok = String(Boolean(r.ok));
    replace(this.resultBox, resultView(this.lesson, this.step, s, r, this.choice));
    // Presenter mode: the step's setup folds away, so its choices and the
    // result's figures share the screen under the step's title.
    this.body.classList.remove("asking");
    this.body.classList.add("ran");
  }

  reset() {
    const upTo = this.result && !this.result.error ? this.step : this.step - 1;
    const r = this.engine.resetLesson(this.lesson.id, upTo);
    this.options.onChange?.();
    replace(this.resultBox, el("p", { class: r.error ? "card" : "hint", role: "status" },
      r.error ?? (upTo === this.step ? t("lessons.resetAfter") : t("lessons.resetBefore"))));
  }

  // tryIt lends the page's workbench to the lesson: its account as the step
  // left it (or as the step begins, before a run), its table and query.
  tryIt() {
    if (!this.result || this.result.error) this.engine.resetLesson(this.lesson.id, this.step - 1);
    // The workbench answers as the step's implementation did (targetLine).
    const s = this.lesson.steps[this.step - 1];
    const place = { ...tryPlace(this.lesson, this.step), lesson: this.lesson.title, account: this.engine.snapshot(), profile: s?.profile || this.engine.profile().name };
    if (this.present) this.navigate(this.lesson.id, this.step, false);
    this.options.tryIt(place);
  }
}

// mountLessons puts the lesson view into root. options: engine (the
// account the lessons run in: window.tableplay by default; the page gives an
// account of its own), hash (false in an embed: the view keeps its place
// itself instead of in the location hash), lesson (the lesson to open
// first), onExchange(x) with each step's exchange, onChange() after the
// lesson's account changed, steps ({first, last}: show only these steps, with
// a link made by lessonURL(id, step) to the whole lesson), tryIt(place) to lend the page's workbench to the
// lesson ({account, table, filter, select, top, lesson, profile}), onLeave() when
// a lesson is closed, and record() to start "Make a lesson from this".
export function mountLessons(root, options = {}) {
  return new LessonView(root, options);
}
