// web/editor.js is responsible for the entity editor: keys and property rows
// (or the raw JSON body), validated by the engine as you type, with one rule
// card per violation and meters for size and property count. Switching back
// to the JSON body after editing in the form changes only the members that
// changed in the person's own text (the engine's editBody).
//
// mountEditor(root, session) renders into root, sets session.draft and
// returns {draft, setDraft}. It listens for "table-selected" and
// "load-entity".
import { el, replace, debounce, number, mount } from "./dom.js";
import { cards } from "./cards.js";
import { indent } from "./jsontext.js";
import { t, onChange } from "./i18n.js";

const TYPES = ["Edm.String", "Edm.Int32", "Edm.Int64", "Edm.Double", "Edm.Boolean", "Edm.DateTime", "Edm.Guid", "Edm.Binary"];

const HTML = `
<h2 id="editor-heading"><span data-i18n="editor.heading">Entity editor</span> <span id="editor-table" class="hint"></span></h2>
<fieldset class="modes">
  <legend data-i18n="editor.mode">Editor mode</legend>
  <label><input type="radio" name="mode" value="form" checked> <span data-i18n="editor.form">Form</span></label>
  <label><input type="radio" name="mode" value="json"> <span data-i18n="editor.json">JSON body</span></label>
</fieldset>
<div id="form-mode" class="stack">
  <div class="keys">
    <div class="field">
      <label for="pk">PartitionKey</label>
      <input id="pk" autocomplete="off" spellcheck="false">
      <div id="pk-cards" class="field-cards"></div>
    </div>
    <div class="field">
      <label for="rk">RowKey</label>
      <input id="rk" autocomplete="off" spellcheck="false">
      <div id="rk-cards" class="field-cards"></div>
    </div>
  </div>
  <table class="props">
    <caption data-i18n="editor.properties">Properties</caption>
    <thead><tr><th scope="col" data-i18n="editor.name">Name</th><th scope="col" data-i18n="editor.type">Type</th><th scope="col" data-i18n="editor.value">Value</th><th scope="col"><span class="visually-hidden" data-i18n="editor.remove">Remove</span></th></tr></thead>
    <tbody id="prop-rows"></tbody>
  </table>
  <button id="add-row" type="button" data-i18n="editor.addProperty">Add property</button>
</div>
<div id="json-mode" class="stack" hidden>
  <label for="json-body" data-i18n="editor.jsonBody">OData entity body (JSON)</label>
  <textarea id="json-body" rows="12" spellcheck="false"></textarea>
  <p id="json-note" class="hint" aria-live="polite"></p>
</div>
<div class="meters">
  <label for="size-meter" data-i18n="editor.size">Entity size</label>
  <meter id="size-meter" min="0" max="1048576" value="0"></meter>
  <span id="size-text" class="hint"></span>
  <label for="count-meter" data-i18n="editor.properties">Properties</label>
  <meter id="count-meter" min="0" max="255" value="0"></meter>
  <span id="count-text" class="hint"></span>
</div>
<h3 data-i18n="editor.rules">Rules</h3>
<div id="entity-cards" class="cards"></div>`;

// Examples per type, shown in an empty value field (the values themselves
// are the wire's, the same in every language).
const EXAMPLES = {
  "Edm.String": () => t("editor.exampleText"),
  "Edm.Int32": () => t("editor.example", { value: "42" }),
  "Edm.Int64": () => t("editor.example", { value: "9223372036854775807" }),
  "Edm.Double": () => t("editor.example", { value: "3.25" }),
  "Edm.Boolean": () => t("editor.exampleBoolean"),
  "Edm.DateTime": () => t("editor.example", { value: "2024-05-01T10:00:00.0000000Z" }),
  "Edm.Guid": () => t("editor.example", { value: "c9da6455-213d-42c9-9a79-3e9149a57833" }),
  "Edm.Binary": () => t("editor.exampleBinary", { value: "AQID" }),
};

export function mountEditor(root, session) {
  const $ = mount(root, HTML, session.signal);
  const engine = session.engine;
  let mode = "form";
  let table = null;
  // The person's JSON text when they last left the JSON mode, so coming back
  // edits it in place instead of writing a new one.
  let personText = null;
  // The fields the person has changed ("pk", "rk", a property's row), and
  // whether the entity was sent: until then a field's cards wait.
  const touched = new Set();
  let sent = false;
  // The rows there when the entity was sent or loaded: a row added after
  // that is the person's new, empty row, and waits to be touched.
  let judged = new WeakSet();
  const shown = (field) => touched.has(field) || (sent && (typeof field === "string" || judged.has(field)));
  const judgeAll = () => {
    sent = true;
    judged = new WeakSet(propRows());
  };

  // propRows are the property rows (the rows of cards between them aside).
  const propRows = () => [...$("prop-rows").querySelectorAll(":scope > tr.prop")];

  function rowElement(row = { name: "", type: "Edm.String", text: "" }) {
    const tr = el("tr", { class: "prop" });
    const n = () => propRows().indexOf(tr) + 1;
    const types = TYPES.includes(row.type) ? TYPES : [...TYPES, row.type];
    const name = el("input", { class: "prop-name", value: row.name, autocomplete: "off", spellcheck: false });
    const type = el("select", { class: "prop-type" }, types.map((t) => el("option", { value: t, selected: t === row.type }, t.replace("Edm.", ""))));
    const value = el("input", { class: "prop-value", value: row.text, autocomplete: "off", spellcheck: false });
    const remove = el("button", { type: "button", class: "secondary" }, t("editor.remove"));
    // Now / New GUID fill a value people cannot type from memory.
    const fill = el("button", { type: "button", class: "secondary fill" });
    const typeChanged = () => {
      value.placeholder = EXAMPLES[type.value]?.() ?? "";
      fill.hidden = type.value !== "Edm.DateTime" && type.value !== "Edm.Guid";
      fill.textContent = type.value === "Edm.Guid" ? t("editor.newGuid") : t("editor.now");
      if (tr.isConnected) fill.setAttribute("aria-label", t("editor.fillLabel", { what: fill.textContent, n: n() }));
    };
    fill.addEventListener("click", () => {
      value.value = type.value === "Edm.Guid" ? crypto.randomUUID() : new Date().toISOString();
      validateSoon();
    });
    type.addEventListener("change", typeChanged);
    for (const input of [name, value]) input.addEventListener("input", () => touched.add(tr));
    typeChanged();
    tr.append(el("td", { class: "p-name" }, name), el("td", { class: "p-type" }, type), el("td", { class: "p-value" }, value, fill), el("td", { class: "p-remove" }, remove));
    remove.addEventListener("click", () => {
      const rows = propRows();
      const next = rows[rows.indexOf(tr) + 1] ?? rows[rows.indexOf(tr) - 1];
      if (tr.nextElementSibling?.classList.contains("card-row")) tr.nextElementSibling.remove();
      tr.remove();
      labelRows();
      validateSoon();
      (next?.querySelector("input") ?? $("add-row")).focus();
    });
    tr.labelWith = () => {
      typeChanged();
      remove.textContent = t("editor.remove");
      name.setAttribute("aria-label", t("editor.nameOf", { n: n() }));
      type.setAttribute("aria-label", t("editor.typeOf", { n: n() }));
      value.setAttribute("aria-label", t("editor.valueOf", { n: n() }));
      remove.setAttribute("aria-label", t("editor.removeOf", { n: n() }));
      fill.setAttribute("aria-label", t("editor.fillLabel", { what: fill.textContent, n: n() }));
    };
    return tr;
  }

  function labelRows() {
    for (const tr of propRows()) tr.labelWith();
  }

  // formDraft reads the form as the engine's draft.
  function formDraft() {
    return {
      PartitionKey: $("pk").value,
      RowKey: $("rk").value,
      properties: propRows().map((tr) => ({
        name: tr.querySelector(".prop-name").value,
        type: tr.querySelector(".prop-type").value,
        text: tr.querySelector(".prop-value").value,
      })),
    };
  }

  function fillForm(d) {
    touched.clear();
    sent = false;
    $("pk").value = d.PartitionKey ?? "";
    $("rk").value = d.RowKey ?? "";
    replace($("prop-rows"), (d.properties ?? []).map(rowElement));
    labelRows();
  }

  // draft returns the editor's entity whatever the mode; null when the JSON
  // body cannot be read at all.
  function draft() {
    if (mode === "form") return formDraft();
    return engine.parseBody($("json-body").value).draft ?? null;
  }

  function setDraft(d) {
    personText = null;
    if (mode === "form") fillForm(d);
    else $("json-body").value = indent(engine.draftBody(d));
    // A loaded entity is the person's to judge at once.
    judgeAll();
    validate();
  }

  // fieldsOf places each violation: "pk" or "rk" as the engine names the
  // key, a property's row when the engine finds the rule broken by that row
  // alone (each row is asked about on its own), else null (the entity as a
  // whole: duplicates, its size, its property count).
  function fieldsOf(violations) {
    const d = formDraft();
    const keyOf = (v) => (v.rule?.property === "PartitionKey" ? "pk" : v.rule?.property === "RowKey" ? "rk" : null);
    const placed = new Map();
    const rowRules = new Set();
    propRows().forEach((tr, i) => {
      const own = engine.validateEntity({ PartitionKey: d.PartitionKey, RowKey: d.RowKey, properties: [d.properties[i]] }).violations.filter((v) => !keyOf(v));
      for (const v of own) rowRules.add(v.rule?.id ?? v.code);
      if (own.length) placed.set(tr, own);
    });
    const general = [];
    for (const v of violations) {
      const key = keyOf(v);
      if (key) placed.set(key, [...(placed.get(key) ?? []), v]);
      else if (!rowRules.has(v.rule?.id ?? v.code)) general.push(v);
    }
    return { placed, general };
  }

  function markFields(placed) {
    $("pk").setAttribute("aria-invalid", String(shown("pk") && placed.has("pk")));
    $("rk").setAttribute("aria-invalid", String(shown("rk") && placed.has("rk")));
    for (const tr of propRows()) {
      const list = shown(tr) ? placed.get(tr) ?? [] : [];
      tr.querySelector(".prop-name").setAttribute("aria-invalid", String(list.some((v) => v.rule?.id?.startsWith("property-name"))));
      tr.querySelector(".prop-value").setAttribute("aria-invalid", String(list.some((v) => !v.rule?.id?.startsWith("property-name"))));
    }
  }

  // placeCards puts each shown field's cards beside it and answers the
  // violations of no field and how many wait for their field to be touched.
  function placeCards(violations) {
    const { placed, general } = fieldsOf(violations);
    for (const row of $("prop-rows").querySelectorAll("tr.card-row")) row.remove();
    replace($("pk-cards"), shown("pk") ? cards(placed.get("pk") ?? []) : null);
    replace($("rk-cards"), shown("rk") ? cards(placed.get("rk") ?? []) : null);
    let waiting = 0;
    let beside = 0;
    for (const [field, list] of placed) {
      if (!shown(field)) {
        waiting += list.length;
        continue;
      }
      beside += list.length;
      if (typeof field !== "string") field.after(el("tr", { class: "card-row" }, el("td", { colspan: 4 }, el("div", { class: "field-cards" }, cards(list)))));
    }
    markFields(placed);
    return { general, waiting, beside };
  }

  // summary says how the rules stand in one line.
  function summary(total, { waiting, beside }, generalShown) {
    const parts = [];
    if (beside) parts.push(t("editor.summaryBeside", { n: beside }));
    if (generalShown) parts.push(t("editor.summaryGeneral", { n: generalShown }));
    if (waiting) parts.push(t("editor.summaryWaiting", { n: waiting }));
    return el("p", { class: "rules-summary hint", "data-broken": total, "data-waiting": waiting }, t("editor.summary", { parts: parts.join(" · ") }));
  }

  // validate asks the engine about the editor's content and shows the answer.
  function validate() {
    const report = mode === "form" ? engine.validateEntity(formDraft()) : engine.parseBody($("json-body").value);
    const d = mode === "form" ? formDraft() : null;
    const untouched = d && d.PartitionKey === "" && d.RowKey === "" && d.properties.length === 0;
    let rules;
    if (mode === "form" && !report.valid) {
      const placing = placeCards(report.violations);
      // Rules about the whole entity wait too while some field's do (eight
      // new rows share one empty name: a duplicate nobody wrote yet).
      const general = placing.waiting === 0 ? placing.general : [];
      placing.waiting += placing.general.length - general.length;
      rules = [summary(report.violations.length, placing, general.length), cards(general)];
    } else {
      if (mode === "form") placeCards([]);
      rules = untouched
        ? el("p", { class: "hint" }, t("editor.empty"))
        : report.valid ? el("p", { class: "ok-note" }, t("editor.valid")) : cards(report.violations);
    }
    replace($("entity-cards"), rules, (report.notes ?? []).map((n) => el("p", { class: "note" }, n.says)));
    $("size-meter").value = Math.min(report.size, report.sizeLimit);
    $("size-meter").max = report.sizeLimit;
    $("size-text").textContent = t("editor.sizeText", { size: number(report.size), limit: number(report.sizeLimit) });
    $("count-meter").value = Math.min(report.count, report.countLimit);
    $("count-meter").max = report.countLimit;
    $("count-text").textContent = t("editor.countText", { count: number(report.count), limit: number(report.countLimit) });
    return report;
  }

  const validateSoon = debounce(validate, 150);

  function switchMode(next) {
    if (next === mode) return;
    if (next === "json") {
      const edited = personText === null ? null : engine.editBody(personText, formDraft());
      $("json-body").value = edited?.body ?? indent(engine.draftBody(formDraft()));
      $("json-note").textContent = "";
    } else {
      const text = $("json-body").value;
      const parsed = engine.parseBody(text);
      if (!parsed.draft) {
        // Unreadable JSON: stay, so nothing typed is lost.
        $("json-note").textContent = t("editor.fixJson", { message: parsed.violations[0].message, detail: parsed.violations[0].rule?.detail ?? "" });
        root.querySelector('input[name="mode"][value="json"]').checked = true;
        return;
      }
      personText = text;
      fillForm(parsed.draft);
    }
    mode = next;
    $("form-mode").hidden = mode !== "form";
    $("json-mode").hidden = mode !== "json";
    validate();
  }

  for (const key of ["pk", "rk"]) $(key).addEventListener("input", () => touched.add(key));
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
  for (const radio of root.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener("change", () => radio.checked && switchMode(radio.value));
  }
  const tableLine = () => ($("editor-table").textContent = table ? t("editor.forTable", { table }) : "");
  session.on("table-selected", ({ table: selected }) => {
    table = selected;
    tableLine();
  });
  // A switch of language words every label, card and line again.
  onChange(() => {
    tableLine();
    labelRows();
    $("json-note").textContent = "";
    validate();
  }, session.signal);
  session.on("load-entity", ({ draft: d }) => setDraft(d));
  // Sending (or queueing) the entity shows every card it earns.
  session.on("draft-sent", () => {
    judgeAll();
    validate();
  });
  session.draft = draft;
  fillForm({ PartitionKey: "", RowKey: "", properties: [] });
  validate();
  return { draft, setDraft };
}
