// web/lessons/text.js is responsible for the lesson view's small renderers:
// prose with `code` spans, an HTTP exchange, an entity's properties. Text
// always enters the DOM as text.
import { el } from "../dom.js";
import { t } from "../i18n.js";

// prose turns plain text with `code` spans into nodes.
export function prose(text, tag = "p", props = {}) {
  const parts = String(text).split("`");
  return el(tag, props, parts.map((part, i) => (i % 2 ? el("code", {}, part) : part)));
}

const lines = (headers) => headers.map(([k, v]) => `${k}: ${v}\n`).join("");

// pretty indents a JSON body; anything else is shown as it is.
function pretty(body) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

// exchange shows a request and the engine's answer.
export function exchange(request, response, label) {
  return el("div", { class: "lesson-exchange" },
    el("h4", {}, t("lessons.request")),
    el("pre", { tabindex: 0, "aria-label": t("lessons.requestLabel", { label }) },
      `${request.method} ${request.url} HTTP/1.1\n`, lines(request.headers), request.body ? "\n" + pretty(request.body) : ""),
    el("h4", {}, t("lessons.response")),
    el("p", { class: `status-line ${response.status >= 400 ? "bad" : "good"}` }, `HTTP/1.1 ${response.status} ${response.statusText}`),
    el("pre", { tabindex: 0, "aria-label": t("lessons.responseLabel", { label }) },
      lines(response.headers), response.body ? "\n" + pretty(response.body) : ""),
  );
}

// entity lists an entity's state: absent, or its ETag and typed properties.
export function entity(state, caption) {
  if (!state) return null;
  if (state.absent) return el("div", { class: "lesson-entity" }, el("h4", {}, caption), el("p", { class: "hint" }, t("lessons.noEntity")));
  return el("div", { class: "lesson-entity" },
    el("h4", {}, caption),
    el("p", { class: "hint mono" }, state.etag),
    el("ul", {}, (state.properties ?? []).map((p) => el("li", {}, el("code", {}, p.name), ` ${p.type} = `, el("code", {}, p.text)))),
  );
}
