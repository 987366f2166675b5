// web/csv.js is responsible for the CSV buttons of the entity list: export
// the selected table in Azure Storage Explorer's CSV layout (typed columns)
// and import such a file into it, all or nothing, with every problem named by
// line and column. The engine reads and writes the file; this only moves it.
import { el, replace } from "./dom.js";
import { download } from "./files.js";
import { t, textOf } from "./i18n.js";

// MAX_CSV is the largest file the engine's CSV reader takes (16 MiB, its
// MaxBytes): a larger file is refused without reading it into memory.
const MAX_CSV = 16 << 20;

// mountCSV fills container with the two buttons. table() names the selected
// table (or null); changed() is called after an import wrote entities.
export function mountCSV(container, { table, changed, engine = window.tableplay }) {
  const result = el("div", { class: "csv-result", "aria-live": "polite" });
  const file = el("input", { type: "file", accept: ".csv,text/csv", hidden: true });
  const exportButton = el("button", { type: "button", class: "secondary", ...textOf("csv.download") });
  const importButton = el("button", { type: "button", class: "secondary", ...textOf("csv.load") });

  exportButton.addEventListener("click", () => {
    const name = table();
    if (!name) {
      replace(result, el("p", { class: "hint" }, t("operations.noTable")));
      return;
    }
    const answer = engine.exportCSV(name);
    if (answer.error) {
      replace(result, el("p", { class: "card" }, `${answer.error.code ?? ""} ${answer.error.message ?? answer.error}`));
      return;
    }
    download(`${name}.csv`, answer.csv, "text/csv");
    const note = t("csv.exported", { n: answer.count, file: `${name}.csv` });
    replace(
      result,
      answer.truncated
        ? el("p", { class: "card" }, note, " ", t("csv.truncated", { n: answer.count }))
        : el("p", { class: "ok-note" }, note),
    );
  });

  importButton.addEventListener("click", () => {
    if (!table()) {
      replace(result, el("p", { class: "hint" }, t("operations.noTable")));
      return;
    }
    file.click();
  });
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    file.value = "";
    if (!chosen) return;
    // The engine refuses more than its CSV bound; a larger file is not read.
    if (chosen.size > MAX_CSV) {
      replace(result, el("p", { class: "card" }, t("csv.tooLarge", { size: chosen.size, max: MAX_CSV })));
      return;
    }
    importText(await chosen.text());
  });

  // importText is also what a test or a drop target calls. An import into
  // the page's account is a write kept in the tab's store: it resolves once
  // stored.
  async function importText(text) {
    const name = table();
    const answer = await engine.importCSV(name, text);
    if (answer.ok) {
      replace(result, el("p", { class: "ok-note" }, t("csv.imported", { n: answer.imported, table: name })));
      changed();
      return;
    }
    const items = (answer.problems ?? []).map((p) =>
      el("li", {}, (p.column ? t("csv.lineColumn", { line: p.line, column: p.column }) : t("csv.line", { line: p.line })), ": ", p.code ? p.code + " · " : "", p.message));
    replace(result,
      el("p", { class: "card" }, answer.error ? `${answer.error.code}: ${answer.error.message}` : t("csv.problems")),
      items.length ? el("ul", { class: "csv-problems" }, items) : null);
  }

  container.append(exportButton, importButton, file, result);
  return { importText };
}
