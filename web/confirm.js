// web/confirm.js is responsible for asking before something destructive, in
// an accessible modal dialog added to the playground's host element the
// first time it is needed.
import { el } from "./dom.js";
import { t, textOf } from "./i18n.js";

function dialogIn(host) {
  let dialog = host.querySelector(":scope > dialog.confirm");
  if (dialog) return dialog;
  dialog = el("dialog", { class: "confirm", id: "confirm", "aria-labelledby": "confirm-text" },
    el("form", { method: "dialog" },
      el("p", { id: "confirm-text" }),
      el("div", { class: "row" },
        el("button", { value: "cancel", type: "submit", ...textOf("confirm.cancel") }),
        el("button", { value: "ok", type: "submit", class: "danger", id: "confirm-ok" }, t("confirm.delete")))));
  host.append(dialog);
  return dialog;
}

// confirmAction resolves true when the person confirms.
export function confirmAction(host, text, okLabel = t("confirm.delete")) {
  const dialog = dialogIn(host);
  dialog.querySelector("#confirm-text").textContent = text;
  dialog.querySelector("#confirm-ok").textContent = okLabel;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}
