// web/answer.js is responsible for answering an action beside the control
// that caused it: one line with the status, the service's error code, one
// sentence (the service's own message for an error) and a link to the
// exchange in the wire view, which scrolls there and highlights it.
import { el, live } from "./dom.js";
import { t } from "./i18n.js";

// answer puts the line for exchange x into box; good is the sentence for a
// success (a function words it again after a switch of language). A blocked action (x.error: the page did not send it) says why.
// The link asks the session's wire view to reveal the exchange. The line is
// not a live region: the page's status announces each action once.
export function answer(session, box, x, good, extra = null) {
  const words = (v) => (typeof v === "function" ? v() : v);
  if (x.error) {
    live(box, () => el("p", { class: "answer bad" }, el("span", { class: "answer-status" }, t("answer.notSent")), " · ", words(x.error), words(extra)), session.signal);
    return;
  }
  const res = x.response;
  const ok = res.status < 300;
  const { code, message } = ok ? { code: "", message: "" } : x;
  // The service's own message stays as it sent it (English).
  live(box, () =>
    el("p", { class: `answer ${ok ? "good" : "bad"}` },
      el("span", { class: "answer-status" }, `${res.status} ${res.statusText}`),
      code ? [" · ", el("code", {}, code)] : null,
      " · ", ok ? words(good) : message ? el("span", { lang: "en" }, message) : t("answer.refused"),
      x.id ? [" ", el("button", { type: "button", class: "link", onclick: () => session.emit("reveal-exchange", { id: x.id }) }, t("answer.see"))] : null,
      words(extra)), session.signal);
}
