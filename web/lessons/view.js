// web/lessons/view.js is responsible for the lesson view: the lessons menu,
// one lesson a step at a time (prediction first, then the step run through
// the engine with its exchange), links of the form #lesson=<id>&step=<n>,
// progress remembered in this browser, and presenter mode (#present). It
// mounts into a root element it is given and talks only to the engine
// (window.tableplay unless it is given another);
// every outcome, rule and byte it shows comes from the engine.
import { el, replace } from "../dom.js";
import { prose, exchange } from "./text.js";
import { clientsView } from "./clients.js";
import { Progress } from "./progress.js";
import { card } from "../cards.js";

// parseHash reads #lesson=<id>&step=<n>[&present] (present alone works too).
export function parseHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const step = Number.parseInt(params.get("step") ?? "1", 10);
  return { id: params.get("lesson"), step: Number.isFinite(step) && step > 0 ? step : 1, present: params.has("present") };
}

export function lessonHash(id, step, present) {
  return `#lesson=${encodeURIComponent(id)}&step=${step}${present ? "&present" : ""}`;
}

const STASH = "tableplay-lesson-aside";

function stashed() {
  try {
    const text = sessionStorage.getItem(STASH);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function stash(doc) {
  try {
    if (doc) sessionStorage.setItem(STASH, JSON.stringify(doc));
    else sessionStorage.removeItem(STASH);
  } catch {
    // too large or unavailable: kept in memory for this visit
  }
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
    this.present = false;
    this.useHash = options.hash ?? true;
    // the person's own account while a lesson uses it (kept for the tab on
    // the page; an embed's account is its own and lives as long as it does)
    this.saved = this.useHash ? stashed() : null;
    // An embed may show a few steps only ({first, last}, 1-based): no menu,
    // no lesson summary, a link to the whole lesson instead.
    this.range = options.steps ?? null;
    this.details = this.range ? el("div", { class: "lessons-box lesson-steps" })
      : el("details", { class: "lessons-box" },
        el("summary", {}, el("span", { class: "lessons-title" }, "Lessons"),
          el("span", { class: "hint" }, ` ${this.menu.length ?? 0} guided walks through the data model, each step run by the engine`)));
    this.body = el("div", { class: "lessons-body" });
    this.details.append(this.body);
    replace(root, this.details);
    // On the page the location hash drives the view (links, presenter
    // mode); an embed keeps its place in its own state instead.
    this.place = { id: options.lesson ?? null, step: this.range?.first ?? 1, present: false };
    if (this.useHash) {
      window.addEventListener("hashchange", () => this.route());
      document.addEventListener("keydown", (e) => this.key(e));
    }
    this.route(true);
  }

  // route shows what the hash names. Except on the page's first load, focus
  // moves to the step's heading, so keyboard users continue from there.
  route(first = false) {
    const { id, step, present } = this.useHash ? parseHash(location.hash) : this.place;
    if (present && !id && this.menu.length) {
      // #present alone: the lesson last worked on, where it was left.
      const recent = this.progress.recent() ?? this.menu[0].id;
      location.replace(lessonHash(recent, this.progress.last(recent) ?? 1, true));
      return;
    }
    this.setPresent(present && !!id);
    if (!id) {
      if (this.lesson || this.saved) this.leave();
      this.renderMenu();
      return;
    }
    if (!this.lesson || this.lesson.id !== id) {
      const view = this.engine.lesson(id);
      if (view.error) {
        this.renderMenu(`No lesson “${id}”.`);
        return;
      }
      this.lesson = view;
    }
    this.step = Math.min(step, this.lesson.steps.length);
    this.result = null;
    this.choice = null;
    this.details.open = true;
    this.renderLesson();
    if (!first || this.present) this.body.querySelector(".lesson-step-title")?.focus();
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

  // leave gives the person their own account back.
  leave() {
    this.lesson = null;
    this.result = null;
    if (this.saved) {
      try {
        this.engine.restore(this.saved);
      } catch (err) {
        this.options.onStatus?.(`Your account could not be restored: ${err.message}`);
      }
      this.saved = null;
      if (this.useHash) stash(null);
      this.options.onChange?.();
    }
  }

  // setAside keeps the person's own account before a lesson first replaces
  // it, in memory and for this tab (so a reload mid-lesson still gives it
  // back on leaving).
  setAside() {
    if (this.saved) return;
    this.saved = this.engine.snapshot();
    if (this.useHash) stash(this.saved);
  }

  setPresent(on) {
    this.present = on;
    document.documentElement.classList.toggle("presenting", on);
  }

  renderMenu(message) {
    const items = this.menu.map((m) => {
      const done = this.progress.done(m.id).size;
      return el("li", {},
        this.link(m.title, m.id, this.progress.last(m.id) ?? 1, false),
        el("span", { class: "hint" }, " — ", prose(m.line, "span"), " "),
        el("span", { class: "steps" }, `${m.steps} steps${done ? ` · ${done} run` : ""}`));
    });
    replace(this.body,
      message ? el("p", { class: "card", role: "alert" }, message) : null,
      el("p", { class: "hint" }, "A lesson uses the account: your own tables are set aside while it runs and come back when you leave it."),
      el("ol", { class: "lesson-menu", "aria-label": "Lessons" }, items));
  }

  // renderSteps shows one step of an embed's range: the step's text, its
  // prediction, Run, and the whole lesson a link away.
  renderSteps() {
    const l = this.lesson;
    const s = l.steps[this.step - 1];
    const { first, last } = this.range;
    const heading = el("h3", { tabindex: -1, class: "lesson-step-title" }, `Step ${this.step} of ${l.steps.length}: ${s.title}`);
    this.runButton = el("button", { type: "button", class: "run-step", onclick: () => this.run() }, "Run");
    this.resultBox = el("div", { class: "lesson-result", "aria-live": "polite" });
    const whole = this.options.lessonURL?.(l.id, this.step);
    replace(this.body,
      el("p", { class: "lesson-title" }, l.title),
      heading,
      prose(s.text, "p", { class: "lesson-text" }),
      s.note ? prose(`The docs and the service disagree: ${s.note}`, "p", { class: "lesson-note" }) : null,
      s.predict ? this.predictView(s.predict) : null,
      el("div", { class: "row wrap lesson-buttons" },
        first < last ? el("button", { type: "button", class: "secondary", disabled: this.step === first, onclick: () => this.go(this.step - 1) }, "Previous step") : null,
        this.runButton,
        first < last ? el("button", { type: "button", class: "secondary next-step", disabled: this.step === last, onclick: () => this.go(this.step + 1) }, "Next step") : null,
        whole ? el("a", { class: "whole-lesson", href: whole, target: "_blank", rel: "noopener" }, "The whole lesson in the playground") : null),
      this.resultBox);
  }

  renderLesson() {
    if (this.range) return this.renderSteps();
    const l = this.lesson;
    const s = l.steps[this.step - 1];
    const n = l.steps.length;
    const heading = el("h3", { tabindex: -1, class: "lesson-step-title" }, `${this.step}. ${s.title}`);
    const predict = s.predict ? this.predictView(s.predict) : null;
    this.runButton = el("button", { type: "button", class: "run-step", onclick: () => this.run() }, "Run step");
    this.resultBox = el("div", { class: "lesson-result", "aria-live": "polite" });
    replace(this.body,
      el("nav", { class: "lesson-nav row wrap", "aria-label": "Lesson" },
        this.link("All lessons", null, 1, false, { class: "back" }),
        !this.useHash ? null
          : this.present
            ? this.link("Leave presenter mode", l.id, this.step, false)
            : this.link("Presenter mode", l.id, this.step, true)),
      el("h2", { class: "lesson-title" }, l.title),
      this.present ? null : prose(l.summary, "p", { class: "lesson-summary" }),
      this.present ? null : el("p", { class: "hint" }, "Teaches: ", el("a", { href: l.section.url, target: "_blank", rel: "noopener" }, l.section.title)),
      el("p", { class: "step-count" }, `Step ${this.step} of ${n}`),
      heading,
      prose(s.text, "p", { class: "lesson-text" }),
      s.note ? prose(`The docs and the service disagree: ${s.note}`, "p", { class: "lesson-note" }) : null,
      predict,
      el("div", { class: "row wrap lesson-buttons" },
        el("button", { type: "button", class: "secondary", disabled: this.step === 1, onclick: () => this.go(this.step - 1) }, "Previous step"),
        this.runButton,
        el("button", { type: "button", class: "secondary next-step", disabled: this.step === n, onclick: () => this.go(this.step + 1) }, "Next step"),
        el("button", { type: "button", class: "secondary", onclick: () => this.reset() }, "Reset lesson")),
      this.resultBox,
      this.present ? null : el("p", { class: "hint try-it" },
        "Try it yourself: after a step the account is the lesson's, so the editor, queries and batches below act on it. “Reset lesson” puts it back as the step left it."),
    );
  }

  predictView(p) {
    const name = `predict-${this.lesson.id}-${this.step}`;
    return el("fieldset", { class: "prediction" },
      el("legend", {}, prose(p.question, "span")),
      p.choices.map((c, i) => el("label", {},
        el("input", { type: "radio", name, value: String(i), onchange: () => { this.choice = i; } }),
        " ", prose(c, "span"))));
  }

  run() {
    const s = this.lesson.steps[this.step - 1];
    if (s.predict && this.choice === null && !this.present) {
      replace(this.resultBox, el("p", { class: "card", role: "alert" }, "Choose your prediction first."));
      this.body.querySelector(".prediction input")?.focus();
      return;
    }
    this.setAside();
    const r = this.engine.runLessonStep(this.lesson.id, this.step - 1);
    this.result = r;
    if (!r.error) this.progress.mark(this.lesson.id, this.step);
    if (r.request && r.response) {
      this.options.onExchange?.({ operation: s.operation, request: r.request, response: r.response });
    }
    this.options.onChange?.();
    this.renderResult(s, r);
  }

  renderResult(s, r) {
    const parts = [];
    if (s.predict) {
      const right = s.predict.answer;
      if (this.choice === null) parts.push(prose(`The answer: ${s.predict.choices[right]}`, "p", { class: "verdict" }));
      else if (this.choice === right) parts.push(prose(`Your prediction was right: ${s.predict.choices[right]}`, "p", { class: "verdict good" }));
      else parts.push(prose(`You predicted “${s.predict.choices[this.choice]}”; the answer is ${s.predict.choices[right]}`, "p", { class: "verdict bad" }));
    }
    if (r.error) {
      parts.push(el("p", { class: "card", role: "alert" }, r.error));
    } else {
      parts.push(el("p", { class: r.ok ? "agrees good" : "agrees bad" },
        r.ok ? "The engine did what the lesson says." : `The engine differs from the lesson: ${r.diffs.join("; ")}`));
      parts.push(this.outcomeView(r));
      // A check's rule cards, as the editor shows them.
      const broken = [...(r.report?.violations ?? []), ...(r.report?.error ? [r.report.error] : [])];
      if (broken.length) parts.push(el("div", { class: "cards" }, broken.map(card)));
      if (this.lesson.clients && r.request) parts.push(clientsView(this.lesson, r));
      if (r.request && r.response) {
        const x = exchange(r.request, r.response, `Step ${this.step}`);
        // In a step embed the outcome above is what the step is about; the
        // exchange is a click away.
        parts.push(this.range ? el("details", { class: "step-exchange" }, el("summary", {}, "The request and the answer"), x) : x);
      }
    }
    replace(this.resultBox, parts);
  }

  outcomeView(r) {
    const o = r.outcome;
    const items = [];
    if (o.status) items.push(el("li", {}, `Status ${o.status}${o.code ? ` · ${o.code}` : ""}`));
    if (o.valid !== undefined) items.push(el("li", {}, o.valid ? "Valid" : "Invalid"));
    if (r.report?.canonical) items.push(el("li", {}, "Read as ", el("code", {}, r.report.canonical)));
    if (o.size !== undefined) items.push(el("li", {}, `Size ${o.size} bytes, ${o.count} properties`));
    if (o.rowKeys) {
      items.push(el("li", {}, `Returned ${o.returned}${o.scanned !== undefined ? `, examined ${o.scanned}` : ""}${o.more ? ", with a continuation" : ""}`));
      if (o.rowKeys.length && o.rowKeys.length <= 30) items.push(el("li", {}, "RowKeys: ", o.rowKeys.map((k, i) => [i ? ", " : "", el("code", {}, k)])));
    }
    if (o.failedIndex !== undefined && o.failedIndex >= 0) items.push(el("li", {}, `Failing operation: index ${o.failedIndex}`));
    if (o.annotated && r.request?.method === "GET" && !o.rowKeys) {
      items.push(el("li", {}, o.annotated.length ? ["Annotated with @odata.type: ", o.annotated.map((k, i) => [i ? ", " : "", el("code", {}, k)])] : "No @odata.type annotations"));
    }
    return el("ul", { class: "outcome", "aria-label": "Outcome" }, items);
  }

  reset() {
    this.setAside();
    const upTo = this.result && !this.result.error ? this.step : this.step - 1;
    const r = this.engine.resetLesson(this.lesson.id, upTo);
    this.options.onChange?.();
    replace(this.resultBox, el("p", { class: r.error ? "card" : "hint", role: "status" },
      r.error ?? (upTo === this.step ? "The account is back as this step left it." : "The account is back as this step begins.")));
  }

  key(e) {
    if (!this.present || !this.lesson) return;
    if (e.target.closest?.("input, textarea, select")) return;
    if (e.key === "ArrowRight") {
      e.preventDefault();
      if (!this.result) this.run();
      else if (this.step < this.lesson.steps.length) this.go(this.step + 1);
    } else if (e.key === "ArrowLeft") {
      e.preventDefault();
      if (this.step > 1) this.go(this.step - 1);
    } else if (e.key === "Escape") {
      this.navigate(this.lesson.id, this.step, false);
    }
  }
}

// mountLessons puts the lesson view into root. options: engine (the account's
// functions; window.tableplay by default), hash (false in an embed: the view
// keeps its place itself instead of in the location hash), lesson (the
// lesson to open first), steps ({first, last}: show only these steps, with
// a link made by lessonURL(id, step) to the whole lesson), onExchange(x) to show a step's exchange in the wire
// view, onChange() after the account changed, onStatus(text) for messages.
export function mountLessons(root, options = {}) {
  return new LessonView(root, options);
}
