// e2e/parts.test.js is responsible for holding the playground's parts to
// their table (web/partlist.js) without a browser: every name a module
// emits or hears on a session's bus is declared in EVENTS, each declared
// name is both emitted and heard, each part's row lists exactly what its
// module emits and hears and names a mount function it exports and a slot
// index.html has, docs/embedding.md names the embed's views as VIEWS, and
// no module sets a session field that web/session.js does not declare.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PARTS, VIEWS, EVENTS } from "../web/partlist.js";

const root = new URL("..", import.meta.url).pathname;
const read = (file) => readFileSync(join(root, file), "utf8");

// modules are web/'s modules (web/build is generated), by path.
function modules(dir = "web") {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const path = `${dir}/${d.name}`;
    if (d.isDirectory()) return path === "web/build" ? [] : modules(path);
    return d.name.endsWith(".js") ? [path] : [];
  });
}

// bus is what a module's source emits and hears: session.emit("name"…)
// and session.on("name"…).
function bus(source) {
  const names = (verb) => [...new Set([...source.matchAll(new RegExp(`session\\.${verb}\\(\\s*["'\`]([^"'\`]+)["'\`]`, "g"))].map((m) => m[1]))].sort();
  return { emits: names("emit"), hears: names("on") };
}

const all = modules().map((path) => ({ path, source: read(path), ...bus(read(path)) }));

test("every event a module emits or hears is declared, and each declared one is emitted and heard", () => {
  const declared = Object.keys(EVENTS);
  for (const m of all) {
    for (const name of [...m.emits, ...m.hears]) assert.ok(declared.includes(name), `${m.path} uses "${name}", which web/partlist.js EVENTS does not declare`);
  }
  for (const name of declared) {
    assert.ok(all.some((m) => m.emits.includes(name)), `no module emits "${name}"`);
    assert.ok(all.some((m) => m.hears.includes(name)), `no module hears "${name}"`);
  }
  // The scan sees the bus: at least the parts' own events.
  assert.ok(all.filter((m) => m.emits.length || m.hears.length).length >= PARTS.length);
});

test("each part's row says what its module emits and hears, mounts and where it goes", () => {
  const page = read("index.html");
  const names = new Set();
  for (const part of PARTS) {
    assert.ok(!names.has(part.name), `two rows name ${part.name}`);
    names.add(part.name);
    const path = join("web", part.module);
    const m = all.find((x) => x.path === path);
    assert.ok(m, `${part.name}: no module ${path}`);
    assert.deepEqual(m.emits, [...part.emits].sort(), `${part.name}: ${path} emits ${m.emits}; its row says ${part.emits}`);
    assert.deepEqual(m.hears, [...part.hears].sort(), `${part.name}: ${path} hears ${m.hears}; its row says ${part.hears}`);
    assert.match(m.source, new RegExp(`export (async )?function ${part.mount}\\(`), `${path} exports no ${part.mount}`);
    assert.match(page, new RegExp(`id="${part.slot}"`), `index.html has no slot ${part.slot} for ${part.name}`);
    assert.ok(["left", "right", "wide"].includes(part.place), `${part.name}: place ${part.place}`);
    assert.ok(part.views.length > 0, `${part.name} is in no view`);
  }
});

test("docs/embedding.md names the embed's views, the table's", () => {
  const row = read("docs/embedding.md").split("\n").find((l) => l.startsWith("| `view` |"));
  assert.ok(row, "docs/embedding.md has no view attribute row");
  const listed = [...row.split("in any combination:")[1].matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
  assert.deepEqual(listed, VIEWS);
});

test("no module gives a session a field web/session.js does not declare", () => {
  const made = read("web/session.js");
  const literal = made.slice(made.indexOf("  const session = {"));
  const declared = new Set([...literal.matchAll(/^ {4}(\w+)[:(,]/gm)].map((m) => m[1]));
  for (const field of ["engine", "table", "level", "codeTarget", "compare", "profileCompare", "draft", "emit"]) assert.ok(declared.has(field), `the scan misses ${field}`);
  for (const m of all) {
    for (const [, field] of m.source.matchAll(/\bsession\.(\w+)\s*=[^=]/g)) assert.ok(declared.has(field), `${m.path} sets session.${field}, which createSession does not declare`);
    for (const [, field] of m.source.matchAll(/\bsession\??\.(\w+)/g)) {
      if (field !== "js") assert.ok(declared.has(field), `${m.path} reads session.${field}, which createSession does not declare`);
    }
  }
});
