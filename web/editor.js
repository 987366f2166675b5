// web/editor.js is responsible for the entity editor: keys and property rows
// (or the raw JSON body), validated by the engine as you type, with one rule
// card per violation and meters for size and property count.
import { el, replace, debounce, number } from "./dom.js";
import { cards } from "./cards.js";
import { indent } from "./jsontext.js";
import { on } from "./state.js";

const TYPES = ["Edm.String", "Edm.Int32", "Edm.Int64", "Edm.Double", "Edm.Boolean", "Edm.DateTime", "Edm.Guid", "Edm.Binary"];
const $ = (id) => document.getElementById(id);
let mode = "form";

function rowElement(row = { name: "", type: "Edm.String", text: "" }) {
  const tr = el("tr", { class: "prop" });
  const n = () => [...$("prop-rows").children].indexOf(tr) + 1;
  const types = TYPES.includes(row.type) ? TYPES : [...TYPES, row.type];
  const name = el("input", { class: "prop-name", value: row.name, autocomplete: "off", spellcheck: false });
  const type = el("select", { class: "prop-type" }, types.map((t) => el("option", { value: t, selected: t === row.type }, t.replace("Edm.", ""))));
  const value = el("input", { class: "prop-value", value: row.text, autocomplete: "off", spellcheck: false });
  const remove = el("button", { type: "button", class: "secondary" }, "Remove");
  tr.append(el("td", {}, name), el("td", {}, type), el("td", {}, value), el("td", {}, remove));
  remove.addEventListener("click", () => {
    const next = tr.nextElementSibling ?? tr.previousElementSibling;
    tr.remove();
    labelRows();
    validateSoon();
    (next?.querySelector("input") ?? $("add-row")).focus();
  });
  tr.labelWith = () => {
    name.setAttribute("aria-label", `Name of property ${n()}`);
    type.setAttribute("aria-label", `Type of property ${n()}`);
    value.setAttribute("aria-label", `Value of property ${n()}`);
    remove.setAttribute("aria-label", `Remove property ${n()}`);
  };
  return tr;
}

function labelRows() {
  for (const tr of $("prop-rows").children) tr.labelWith();
}

// formDraft reads the form as the engine's draft.
function formDraft() {
  return {
    PartitionKey: $("pk").value,
    RowKey: $("rk").value,
    properties: [...$("prop-rows").children].map((tr) => ({
      name: tr.querySelector(".prop-name").value,
      type: tr.querySelector(".prop-type").value,
      text: tr.querySelector(".prop-value").value,
    })),
  };
}

function fillForm(draft) {
  $("pk").value = draft.PartitionKey ?? "";
  $("rk").value = draft.RowKey ?? "";
  replace($("prop-rows"), (draft.properties ?? []).map(rowElement));
  labelRows();
}

// draft returns the editor's entity whatever the mode; null when the JSON
// body cannot be read at all.
export function draft() {
  if (mode === "form") return formDraft();
  return tableplay.parseBody($("json-body").value).draft ?? null;
}

export function setDraft(d) {
  if (mode === "form") fillForm(d);
  else $("json-body").value = indent(tableplay.draftBody(d));
  validate();
}

function markFields(violations) {
  const bad = new Set(violations.map((v) => v.rule?.property).filter(Boolean));
  $("pk").setAttribute("aria-invalid", String(bad.has("PartitionKey")));
  $("rk").setAttribute("aria-invalid", String(bad.has("RowKey")));
  for (const tr of $("prop-rows").children) {
    const name = tr.querySelector(".prop-name").value;
    tr.querySelector(".prop-name").setAttribute("aria-invalid", String(bad.has(name) && violations.some((v) => v.rule?.property === name && v.rule.id.startsWith("property-name"))));
    tr.querySelector(".prop-value").setAttribute("aria-invalid", String(bad.has(name) && violations.some((v) => v.rule?.property === name && !v.rule.id.startsWith("property-name"))));
  }
}

// validate asks the engine about the editor's content and shows the answer.
export function validate() {
  const report = mode === "form" ? tableplay.validateEntity(formDraft()) : tableplay.parseBody($("json-body").value);
  replace($("entity-cards"), report.valid ? el("p", { class: "ok-note" }, "The entity satisfies every rule.") : cards(report.violations));
  if (mode === "form") markFields(report.violations);
  $("size-meter").value = Math.min(report.size, report.sizeLimit);
  $("size-meter").max = report.sizeLimit;
  $("size-text").textContent = `${number(report.size)} of ${number(report.sizeLimit)} bytes by the published formula`;
  $("count-meter").value = Math.min(report.count, report.countLimit);
  $("count-meter").max = report.countLimit;
  $("count-text").textContent = `${number(report.count)} of ${number(report.countLimit)}, counting PartitionKey, RowKey and Timestamp`;
  return report;
}

const validateSoon = debounce(validate, 150);

function switchMode(next) {
  if (next === mode) return;
  if (next === "json") {
    $("json-body").value = indent(tableplay.draftBody(formDraft()));
    $("json-note").textContent = "";
  } else {
    const parsed = tableplay.parseBody($("json-body").value);
    if (!parsed.draft) {
      // Unreadable JSON: stay, so nothing typed is lost.
      $("json-note").textContent = "Fix the JSON first: " + parsed.violations[0].message + " " + (parsed.violations[0].rule?.detail ?? "");
      document.querySelector('input[name="mode"][value="json"]').checked = true;
      return;
    }
    fillForm(parsed.draft);
  }
  mode = next;
  $("form-mode").hidden = mode !== "form";
  $("json-mode").hidden = mode !== "json";
  validate();
}

export function initEditor() {
  $("form-mode").addEventListener("input", validateSoon);
  $("form-mode").addEventListener("change", validateSoon);
  $("json-body").addEventListener("input", validateSoon);
  $("add-row").addEventListener("click", () => {
    const tr = rowElement();
    $("prop-rows").append(tr);
    labelRows();
    tr.querySelector("input").focus();
    validateSoon();
  });
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener("change", () => radio.checked && switchMode(radio.value));
  }
  on("table-selected", ({ table }) => {
    $("editor-table").textContent = table ? `for table ${table}` : "";
  });
  on("load-entity", ({ draft: d }) => setDraft(d));
  fillForm({ PartitionKey: "", RowKey: "", properties: [] });
  validate();
}

