// scripts/wasm-sizes.mjs is responsible for saying what each Go package adds
// to the linked app.wasm: the bytes of its function bodies (code section),
// named through the wasm "name" section of a build that keeps its symbols.
// Data (strings, tables, type data) is one total, as the linker does not name
// it by package.
//   node scripts/wasm-sizes.mjs app-with-symbols.wasm [N]
import { readFileSync } from "node:fs";

const [file, top = "25"] = process.argv.slice(2);
const bytes = readFileSync(file);
let pos = 8; // magic and version

function leb() {
  let result = 0, shift = 0, b;
  do {
    b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return result;
}
function name() {
  const n = leb();
  const s = bytes.toString("utf8", pos, pos + n);
  pos += n;
  return s;
}

let imported = 0;
const bodySizes = [];
const names = new Map();
const sections = {};
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = leb();
  const end = pos + size;
  if (id === 2) { // imports: functions among them take the first indexes
    for (let i = leb(); i > 0; i--) {
      name(); name();
      const kind = bytes[pos++];
      if (kind === 0) { leb(); imported++; }
      else if (kind === 1) { pos++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 3) { pos += 2; }
    }
  } else if (id === 10) {
    for (let i = leb(); i > 0; i--) {
      const n = leb();
      bodySizes.push(n);
      pos += n;
    }
  } else if (id === 0) {
    const section = name();
    if (section === "name") {
      while (pos < end) {
        const sub = bytes[pos++];
        const subEnd = leb() + pos;
        if (sub === 1) for (let i = leb(); i > 0; i--) names.set(leb(), name());
        pos = subEnd;
      }
    }
  }
  sections[id] = (sections[id] ?? 0) + size;
  pos = end;
}
if (names.size === 0) {
  console.error(`${file} has no name section: build it without -ldflags=-s`);
  process.exit(1);
}

// The package of a Go symbol, as the linker names it ("/" written "_" in the
// standard library): everything before the first dot after the last slash
// outside type arguments ("github.com/tidwall/btree.(*BTreeG[…]).Get" →
// "github.com/tidwall/btree").
function pkgOf(symbol) {
  const cut = [symbol.indexOf("["), symbol.indexOf("(")].filter((i) => i >= 0);
  const head = cut.length ? symbol.slice(0, Math.min(...cut)) : symbol;
  const domain = /^[a-z0-9-]+(\.[a-z0-9-]+)+_/.exec(head); // github.com_owner_repo…
  const from = Math.max(head.lastIndexOf("/") + 1, domain ? domain[0].length : 0);
  const dot = head.indexOf(".", from);
  return (dot === -1 ? head : head.slice(0, dot)).replaceAll("_", "/");
}
const byPkg = new Map();
bodySizes.forEach((n, i) => {
  const pkg = pkgOf(names.get(imported + i) ?? "?");
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + n);
});
const kb = (n) => (n / 1024).toFixed(1).padStart(8) + " KB";
const code = bodySizes.reduce((a, b) => a + b, 0);
console.log(`${kb(code)}  code, in ${bodySizes.length} functions; ${kb(sections[11] ?? 0)}  data`);
for (const [pkg, n] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`${kb(n)}  ${pkg}`);
}
