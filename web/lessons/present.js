// web/lessons/present.js is responsible for presenter mode's keys and zoom:
// a clicker's → / PageDown / Space first ask (a step with a prediction puts
// its question to the class and gives nothing away), then run the step,
// then show the rest of a result taller than the screen, then advance; the
// last step's → shows the recap and the next lesson. ← / PageUp go back;
// the number keys answer the prediction (the arrows never move its
// choice); the zoom (100 to 200 %) is kept in this browser.
import { el } from "../dom.js";
import { t } from "../i18n.js";

const ZOOM = "tableplay-present-zoom";
export const ZOOMS = [100, 125, 150, 175, 200];

export function savedZoom() {
  try {
    const z = Number(localStorage.getItem(ZOOM));
    return ZOOMS.includes(z) ? z : 100;
  } catch {
    return 100;
  }
}

// applyZoom sets the presenter's type size (100 % when not presenting).
export function applyZoom(z, on) {
  document.documentElement.style.setProperty("--present-zoom", on ? String(z / 100) : "1");
  try {
    localStorage.setItem(ZOOM, String(z));
  } catch {
    // kept for this visit
  }
}

// zoomControl is the presenter's − / + with the size between.
export function zoomControl(view) {
  const step = (d) => {
    const i = Math.min(ZOOMS.length - 1, Math.max(0, ZOOMS.indexOf(view.zoom) + d));
    view.zoom = ZOOMS[i];
    applyZoom(view.zoom, true);
    label.textContent = t("lessons.zoomValue", { zoom: view.zoom });
  };
  const label = el("output", { class: "zoom-value", "aria-live": "polite" }, t("lessons.zoomValue", { zoom: view.zoom }));
  return el("span", { class: "zoom row", role: "group", "aria-label": t("lessons.zoomLabel") },
    el("button", { type: "button", class: "secondary", "aria-label": t("lessons.zoomSmaller"), onclick: () => step(-1) }, "A−"),
    label,
    el("button", { type: "button", class: "secondary", "aria-label": t("lessons.zoomLarger"), onclick: () => step(1) }, "A+"));
}

// presenterKey handles one keydown in presenter mode; it answers whether the
// key was the presenter's. Typing fields keep their keys; radios and
// buttons do not (a clicker's → must never move a radio's choice).
export function presenterKey(view, e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return false;
  const t = e.target;
  if (t?.closest?.("textarea, select, [contenteditable]") || (t?.matches?.("input") && !t.matches("[type=radio], [type=checkbox]"))) return false;
  const n = view.lesson.steps.length;
  const s = view.lesson.steps[view.step - 1];
  if (e.key === "ArrowRight" || e.key === "PageDown" || e.key === " ") {
    if (view.recapShown) view.nextLesson();
    else if (!view.result && s.predict && view.choice === null && !view.asked) view.ask();
    else if (!view.result) view.run();
    else if (!view.scrollOn()) {
      if (view.step < n) view.go(view.step + 1);
      else view.recap();
    }
  } else if (e.key === "ArrowLeft" || e.key === "PageUp") {
    if (view.recapShown) view.closeRecap();
    else if (view.step > 1) view.go(view.step - 1);
  } else if (/^[1-9]$/.test(e.key)) {
    const i = Number(e.key) - 1;
    if (!s.predict || i >= s.predict.choices.length || view.result) return false;
    view.choose(i);
  } else if (e.key === "Escape") {
    view.navigate(view.lesson.id, view.step, false);
  } else {
    return false;
  }
  e.preventDefault();
  e.stopPropagation();
  return true;
}
