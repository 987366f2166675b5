// e2e/mdx.test.js: the page snippet of docs/embedding.md ("Docs
// generators"), unchanged, compiled as MDX by MDX's own compiler
// (@mdx-js/mdx 3.1.1, the MDX of Docusaurus 3) and run with a JSX runtime
// that records the elements it is asked for: each <table-playground> comes
// out with every attribute as written — the state attribute's JSON
// readable as JSON — and the inline forms that MDX cannot read fail to
// compile, as the docs say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./harness.js";

const docs = readFileSync(path.join(root, "docs", "embedding.md"), "utf8");
const page = docs.match(/<!-- snippet: page -->\n```markdown\n([\s\S]*?)\n```\n/)[1];

// runtime is a JSX runtime whose elements are plain records.
function runtime() {
  const made = [];
  const jsx = (type, props) => {
    made.push({ type, props });
    return { type, props };
  };
  return { made, jsx, jsxs: jsx, Fragment: "fragment" };
}

test("the documented page compiles as MDX and keeps each element's attributes", async () => {
  const { evaluate } = await import("@mdx-js/mdx");
  const rt = runtime();
  const { default: Content } = await evaluate(page, { ...rt, development: false });
  Content({});
  const embeds = rt.made.filter((e) => e.type === "table-playground");
  assert.equal(embeds.length, 2);
  const [query, step] = embeds.map((e) => e.props);
  const written = [...page.matchAll(/<table-playground ([^\n]*?)><\/table-playground>/g)].map((m) => m[1]);
  const attrs = (text) => Object.fromEntries([...text.matchAll(/([a-z-]+)=(?:'([^']*)'|"([^"]*)")/g)].map((m) => [m[1], m[2] ?? m[3]]));
  const { children: _q, ...queryAttrs } = query;
  const { children: _s, ...stepAttrs } = step;
  assert.deepEqual(queryAttrs, attrs(written[0]));
  assert.deepEqual(stepAttrs, attrs(written[1]));
  const state = JSON.parse(query.state);
  assert.equal(state.table, "Orders");
  assert.equal(state.account.tables[0].entities.length, 2);
  assert.deepEqual(JSON.parse(query.expect), { status: 200, returned: 1, scanned: 2 });
});

test("a child script or template with JSON does not compile as MDX (why the docs use the attribute)", async () => {
  const { compile } = await import("@mdx-js/mdx");
  for (const child of [`<script type="application/json">{"table": "Orders"}</script>`, `<template>{"table": "Orders"}</template>`]) {
    await assert.rejects(compile(`<table-playground>\n${child}\n</table-playground>\n`), /acorn|expression/i, child);
  }
});
