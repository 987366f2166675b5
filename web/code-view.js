// web/code-view.js is responsible for the Code view of one operation: the
// program the engine generates for it in a chosen language (Go, JavaScript,
// Python, C#, curl), a Copy button, and the engine's notes on how that
// language maps the entity's types beside the code. The chosen language is
// remembered for the next views and visits. Each view owns its state; it
// needs only an element to fill and the operation window.tableplay takes.
import { el, replace } from "./dom.js";
import { copyText } from "./files.js";
import { t, textOf, attrOf, onChange } from "./i18n.js";

const LANGUAGES = [
  ["go", "Go"],
  ["javascript", "JavaScript"],
  ["python", "Python"],
  ["csharp", "C#"],
  ["curl", "curl"],
];
const STORAGE_KEY = "tableplay.codeLanguage";

function rememberedLanguage() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (LANGUAGES.some(([id]) => id === saved)) return saved;
  } catch {
    // Storage may be unavailable (private mode): Go is the default.
  }
  return "go";
}

function rememberLanguage(language) {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered, still shown.
  }
}

// mountCodeView fills container with a collapsed "Code" disclosure for
// operation; the code is generated when it is first opened. target, when
// given ({endpoint, account, createTable}), says where the code connects.
export function mountCodeView(container, operation, engine = window.tableplay, target = null) {
  let language = rememberedLanguage();
  const select = el("select", { class: "code-language" },
    LANGUAGES.map(([value, label]) => el("option", { value, selected: value === language }, label)));
  const copy = el("button", { type: "button", class: "copy" }, t("code.copy"));
  const code = el("code", {});
  const pre = el("pre", { tabindex: 0, class: "code", ...attrOf("aria-label", "code.generated") }, code);
  const notes = el("ul", { class: "code-notes" });
  const aside = el("aside", { class: "code-notes-box", ...attrOf("aria-label", "code.notesLabel") }, el("h5", textOf("code.notes")), notes);
  const body = el("div", { class: "code-body" }, pre, aside);
  const details = el("details", { class: "code-view" },
    el("summary", textOf("code.summary")),
    el("div", { class: "code-head" },
      el("label", {}, el("span", textOf("code.language")), " ", select), copy),
    body);
  let text = "";

  function render() {
    const answer = engine.codeFor(operation, language, target);
    copy.textContent = t("code.copy");
    if (answer.error) {
      text = "";
      copy.disabled = true;
      replace(code, answer.error);
      replace(notes);
      aside.hidden = true;
      return;
    }
    text = answer.code;
    copy.disabled = false;
    copy.setAttribute("aria-label", t("code.copyLabel", { language: labelOf(language) }));
    replace(code, answer.code);
    replace(notes, answer.notes.map((n) => el("li", {}, n)));
    aside.hidden = answer.notes.length === 0;
  }

  select.addEventListener("change", () => {
    language = select.value;
    rememberLanguage(language);
    render();
  });
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    // Another view may have changed the remembered language meanwhile.
    const saved = rememberedLanguage();
    if (saved !== language || !text) {
      language = saved;
      select.value = language;
    }
    render();
  });
  copy.addEventListener("click", async () => {
    copy.textContent = (await copyText(text, code)) ? t("code.copied") : t("code.selected");
  });
  // A switch of language: the generated comments follow it, if shown.
  const stop = onChange(() => {
    if (!details.isConnected) return stop();
    if (details.open && text) render();
  });
  container.append(details);
  return details;
}

const labelOf = (language) => LANGUAGES.find(([id]) => id === language)?.[1] ?? language;
