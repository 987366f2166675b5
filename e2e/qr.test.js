// e2e/qr.test.js is responsible for testing web/qr.js, the QR encoder of
// room links: each symbol it draws is read back by zbar (Debian's
// zbar-tools, an independent decoder) and must give exactly the text,
// for lengths that reach small, middle and large versions, both levels it
// uses, and UTF-8 text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { qrMatrix } from "../web/qr.js";

const zbar = spawnSync("zbarimg", ["--version"]).status === 0;
const skip = !zbar && !process.env.TABLEPLAY_REQUIRE_ALL && "zbarimg is missing: apt-get install zbar-tools";

// pgm writes a symbol as a greyscale image, 4 pixels a module, with the
// 4-module quiet zone.
function pgm(m, file) {
  const scale = 4;
  const side = (m.length + 8) * scale;
  const pixels = Buffer.alloc(side * side, 255);
  m.forEach((row, y) => row.forEach((on, x) => {
    if (!on) return;
    for (let dy = 0; dy < scale; dy++) pixels.fill(0, ((y + 4) * scale + dy) * side + (x + 4) * scale, ((y + 4) * scale + dy) * side + (x + 5) * scale);
  }));
  writeFileSync(file, Buffer.concat([Buffer.from(`P5\n${side} ${side}\n255\n`), pixels]));
}

// decode reads a symbol back with zbarimg.
function decode(m, dir, name) {
  const file = path.join(dir, name + ".pgm");
  pgm(m, file);
  return execFileSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", "-Sbinary", file], { timeout: 20_000, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
}

test("every QR code web/qr.js draws reads back as its text (zbar)", { skip }, () => {
  if (!zbar) assert.fail("zbarimg is missing: apt-get install zbar-tools (scripts/setup installs it)");
  const dir = mkdtempSync(path.join(tmpdir(), "qr-"));
  try {
    const link = "https://tableplay.example/#connect=/room7k2q9x4m3p8z&sas=se=2026-12-09T00:12:06Z%26sig=HZLQsZqEhryNe3s3e4JJF2hV2h9FrOsT7f/Mc4Qw2F4%253D%26sp=rl%26srt=sco%26ss=t%26sv=2019-02-02";
    const cases = [
      ["short", "HELLO", 21], // version 1
      ["utf8", "Zoë, Łódź, テスト", null],
      ["link", link, null],
      ["long", "x".repeat(300) + "/end", null], // past level M's v11: a version 13 or more
      ["level-l", "y".repeat(2300), 177], // only level L holds it: version 40
    ];
    for (const [name, text, size] of cases) {
      const m = qrMatrix(text);
      assert.equal((m.length - 17) % 4, 0, `${name}: ${m.length} modules is no version's size`);
      if (size) assert.equal(m.length, size, name);
      assert.equal(decode(m, dir, name).replace(/\n$/, ""), text, name);
    }
    assert.throws(() => qrMatrix("z".repeat(3000)), /do not fit/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
