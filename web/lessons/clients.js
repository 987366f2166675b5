// web/lessons/clients.js is responsible for the two-client view of the
// concurrency lessons: each client's column with the ETag it holds and the
// requests it sent, and the entity before and after the step.
import { el } from "../dom.js";
import { entity } from "./text.js";
import { t } from "../i18n.js";

export function clientsView(lesson, result) {
  const columns = lesson.clients.map((name) => {
    const events = result.timeline.filter((e) => e.client === name);
    return el("section", { class: "lesson-client", "aria-label": t("lessons.client", { name }) },
      el("h4", {}, t("lessons.client", { name })),
      el("p", {}, t("lessons.holdsETag"), " ", el("code", { class: "held" }, result.held?.[name] || t("lessons.noETagYet"))),
      el("ul", { class: "timeline", "aria-label": t("lessons.clientRequests", { name }) },
        events.map((e) => el("li", { class: e.step === result.step ? "current" : "" },
          t("lessons.timelineStep", { step: e.step + 1, method: e.method }), " ", el("span", { class: `status-line ${e.status >= 400 ? "bad" : "good"}` }, String(e.status)),
          e.etag ? [" → ", el("code", {}, e.etag)] : null))),
    );
  });
  return el("div", { class: "lesson-clients" },
    el("div", { class: "lesson-client-row" }, columns),
    el("div", { class: "lesson-client-row" }, entity(result.before, t("lessons.entityBefore")), entity(result.after, t("lessons.entityAfter"))),
  );
}
