// web/lessons/clients.js is responsible for the two-client view of the
// concurrency lessons: each client's column with the ETag it holds and the
// requests it sent, and the entity before and after the step.
import { el } from "../dom.js";
import { entity } from "./text.js";

export function clientsView(lesson, result) {
  const columns = lesson.clients.map((name) => {
    const events = result.timeline.filter((e) => e.client === name);
    return el("section", { class: "lesson-client", "aria-label": `Client ${name}` },
      el("h4", {}, `Client ${name}`),
      el("p", {}, "Holds ETag ", el("code", { class: "held" }, result.held?.[name] || "none yet")),
      el("ul", { class: "timeline", "aria-label": `Requests of client ${name}` },
        events.map((e) => el("li", { class: e.step === result.step ? "current" : "" },
          `Step ${e.step + 1}: ${e.method} `, el("span", { class: `status-line ${e.status >= 400 ? "bad" : "good"}` }, String(e.status)),
          e.etag ? [" → ", el("code", {}, e.etag)] : null))),
    );
  });
  return el("div", { class: "lesson-clients" },
    el("div", { class: "lesson-client-row" }, columns),
    el("div", { class: "lesson-client-row" }, entity(result.before, "Entity before"), entity(result.after, "Entity after")),
  );
}
