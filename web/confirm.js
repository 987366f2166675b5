// web/confirm.js is responsible for asking before something destructive, in
// an accessible modal dialog.
export function confirmAction(text, okLabel = "Delete") {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-ok").textContent = okLabel;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}
