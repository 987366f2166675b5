// web/theme.js is responsible for the light/dark toggle: the system's
// scheme by default, the person's choice remembered once they make one.
import { t, onChange } from "./i18n.js";

const KEY = "tableplay-theme";

function systemDark() {
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

export function initTheme(button) {
  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    // storage may be unavailable; the toggle still works for this visit
  }
  const apply = (theme) => {
    if (theme) document.documentElement.dataset.theme = theme;
    const dark = theme ? theme === "dark" : systemDark();
    button.setAttribute("aria-pressed", String(dark));
    button.textContent = dark ? t("theme.light") : t("theme.dark");
  };
  apply(stored);
  onChange(() => apply(document.documentElement.dataset.theme ?? null));
  // Until the person chooses, the button follows the system's scheme as it
  // changes (it would otherwise offer the theme already shown).
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    if (!document.documentElement.dataset.theme) apply(null);
  });
  button.addEventListener("click", () => {
    const dark = button.getAttribute("aria-pressed") === "true";
    const next = dark ? "light" : "dark";
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // see above
    }
    apply(next);
  });
}
