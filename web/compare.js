// web/compare.js is responsible for "Compare with the engine": one
// operation sent to the connected endpoint and run by the engine in this tab,
// on a scratch account holding the same state, and the differences between
// the two answers (status, error code, headers, body), as the engine lists
// them (tableplay.compareAnswers).
//
// compareOperation(tableplay, remote, operation, from) resolves with
// {endpoint, engine, comparison} or {error}; from is "endpoint" (the
// scratch account is a copy of the operation's table as the endpoint holds
// it now) or "tab" (a copy of this tab's own account).
// comparisonView(result) draws it.
import { el } from "./dom.js";
import { header } from "./exchange.js";
import { t } from "./i18n.js";

// COPY bounds the entities copied from the endpoint: five pages of 1,000.
const PAGES = 5;

const tableOf = (operation) => operation.table || operation.operations?.[0]?.table || "";

// copyFromEndpoint puts the operation's table, as the endpoint holds it now,
// into the scratch account (every table name, for a list of tables).
async function copyFromEndpoint(remote, scratch, operation) {
  const listed = await remote.run({ kind: "listTables" });
  if (listed.error || listed.response.status !== 200) throw new Error(listed.error ?? t("compare.listFailed", { status: String(listed.response.status) }));
  const names = JSON.parse(listed.response.body).value.map((t) => t.TableName);
  const wanted = tableOf(operation).toLowerCase();
  for (const name of names) {
    if (operation.kind !== "listTables" && name.toLowerCase() !== wanted) continue;
    scratch.run({ kind: "createTable", table: name });
    if (operation.kind === "listTables") continue;
    let next = {};
    for (let i = 0; i < PAGES; i++) {
      const page = await remote.run({ kind: "query", table: name, top: 1000, ...next });
      if (page.error || page.response.status !== 200) throw new Error(page.error ?? t("compare.readFailed", { name, status: String(page.response.status) }));
      for (const row of remote.readEntities(page.response.body)) scratch.run({ kind: "insertOrReplace", table: name, entity: row.draft });
      const npk = header(page.response, "x-ms-continuation-NextPartitionKey");
      if (!npk) break;
      next = { nextPartitionKey: npk, nextRowKey: header(page.response, "x-ms-continuation-NextRowKey") ?? "" };
    }
  }
}

export async function compareOperation(tableplay, remote, operation, from = "endpoint") {
  let scratch;
  try {
    scratch = await tableplay.createAccount();
    if (from === "tab") scratch.restore(tableplay.snapshot());
    else await copyFromEndpoint(remote, scratch, operation);
    const endpoint = await remote.run(operation);
    if (endpoint.error) return { error: endpoint.error };
    const engine = scratch.run(operation);
    if (engine.error) return { error: engine.error };
    const engineBase = new URL(engine.request.url).origin + "/" + scratch.name;
    const comparison = tableplay.compareAnswers({ endpoint: endpoint.response, engine: engine.response, endpointBase: remote.remote.endpoint, engineBase });
    if (comparison.error) return { error: comparison.error };
    return { endpoint, engine, comparison, from };
  } catch (err) {
    return { error: err.message };
  } finally {
    if (scratch) tableplay.dropAccount(scratch.name);
  }
}

export function comparisonView(result) {
  if (result.error) return el("div", { class: "comparison" }, el("p", { class: "answer bad" }, t("compare.notCompared", { error: result.error })));
  const { comparison: c, endpoint, engine, from } = result;
  const unexpected = c.differences.filter((d) => !d.expected).length + (c.more ?? 0);
  const expected = c.differences.filter((d) => d.expected).length + (c.moreExpected ?? 0);
  const whose = from === "tab" ? t("compare.onTab") : t("compare.onEndpoint");
  return el("div", { class: "comparison", "data-same": String(c.same) },
    el("p", { class: `answer ${c.same ? "good" : "bad"}` },
      el("span", { class: "answer-status" }, c.same ? t("compare.same") : t("compare.differences", { n: unexpected })),
      " · ", t("compare.statuses", { endpoint: String(endpoint.response.status), engine: String(engine.response.status), whose }),
      " · ", t("compare.bodies", { endpoint: endpoint.response.body.length, engine: engine.response.body.length }),
      expected ? [" · ", t("compare.expected", { n: expected })] : ""),
    c.differences.length
      ? el("div", { class: "scroll-x", tabindex: 0, role: "region", "aria-label": t("compare.region") },
        el("table", { class: "differences" },
          el("caption", {}, t("compare.caption")),
          el("thead", {}, el("tr", {}, [t("compare.what"), t("compare.endpoint"), t("compare.engine")].map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, c.differences.map((d) =>
            el("tr", { class: d.expected ? "expected" : "differs" },
              el("th", { scope: "row" }, d.part, d.name ? [" ", el("code", {}, d.name)] : null,
                el("span", { class: "verdict" }, " ", d.expected ? t("compare.isExpected") : t("compare.differs"))),
              el("td", {}, el("code", {}, d.endpoint || t("picture.none"))),
              el("td", {}, el("code", {}, d.engine || t("picture.none"))))))))
      : null,
    c.more || c.moreExpected ? el("p", { class: "hint" }, t("compare.notListed", { more: c.more ?? 0, expected: c.moreExpected ?? 0 })) : null);
}
