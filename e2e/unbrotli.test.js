// e2e/unbrotli.test.js is responsible for testing web/unbrotli.js, the
// page's brotli decoder (brotli's C decoder built to wasm by make wasm), in
// Node: it gives back app.wasm from app.wasm.br byte for byte whatever the
// chunks, and a broken, cut, overlong, inflating, random or damaged stream
// fails with its cause, within the engine's bound and the decoder's capped
// memory (the random cases from a fixed seed stand for a fuzz target).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { brotliCompressSync, constants } from "node:zlib";
import path from "node:path";
import { root } from "./harness.js";
import { unbrotli } from "../web/unbrotli.js";

const build = path.join(root, "web", "build");
const MAX = 64 * 1024 * 1024; // web/engine.js's MAX_ENGINE
const MEMORY_CAP = 64 * 1024 * 1024; // the Makefile's --max-memory

async function decoder() {
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(build, "unbrotli.wasm")));
  return instance.exports;
}

// run sends bytes through unbrotli in chunks of the given sizes (cycled)
// and returns the bytes out, or the error the stream failed with.
async function run(d, bytes, sizes = [65536], max = MAX) {
  const chunks = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length];
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  const source = new ReadableStream({
    pull(controller) {
      if (chunks.length) controller.enqueue(chunks.shift());
      else controller.close();
    },
  });
  try {
    return Buffer.from(await new Response(source.pipeThrough(unbrotli(d, max))).arrayBuffer());
  } catch (error) {
    return error;
  }
}

const sha = (b) => createHash("sha256").update(b).digest("hex");

test("app.wasm.br gives back app.wasm, in any chunks", async () => {
  const d = await decoder();
  const raw = readFileSync(path.join(build, "app.wasm"));
  const br = readFileSync(path.join(build, "app.wasm.br"));
  for (const sizes of [[65536], [1, 7, 1000, 70000, 3], [br.length]]) {
    const out = await run(d, br, sizes);
    assert.ok(Buffer.isBuffer(out), `chunks ${sizes}: ${out}`);
    assert.equal(out.length, raw.length);
    assert.equal(sha(out), sha(raw), `chunks ${sizes}`);
  }
  assert.ok(d.memory.buffer.byteLength <= 16 * 1024 * 1024, `decoder memory ${d.memory.buffer.byteLength}`);
});

test("a stream already undone by the browser (it starts as wasm) passes as it is", async () => {
  const raw = readFileSync(path.join(build, "app.wasm"));
  const out = await run(await decoder(), raw);
  assert.equal(sha(out), sha(raw));
});

test("a cut, overlong or broken stream fails with its cause", async () => {
  const d = await decoder();
  const br = readFileSync(path.join(build, "app.wasm.br"));
  assert.match(String(await run(d, br.subarray(0, br.length - 100))), /ends early/);
  assert.match(String(await run(d, Buffer.concat([br, Buffer.from("more")]))), /bytes follow the end|broken/);
  assert.match(String(await run(d, Buffer.concat([br, Buffer.from("more")]), [br.length + 4])), /broken/);
  // Not brotli at all (an HTML error page sent as 200).
  assert.match(String(await run(d, Buffer.from("<!doctype html><title>404</title>".repeat(20)))), /broken/);
  // The decoder starts afresh after a failure.
  const raw = readFileSync(path.join(build, "app.wasm"));
  assert.equal(sha(await run(d, br)), sha(raw));
});

test("a stream that inflates past the bound fails there, the decoder's memory capped", async () => {
  // 80 MiB of zeros is a few KB of brotli: one chunk of input says more
  // than the bound.
  const bomb = brotliCompressSync(Buffer.alloc(80 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  assert.ok(bomb.length < 65_536, `${bomb.length} bytes`);
  const d = await decoder();
  const error = await run(d, bomb);
  assert.ok(error instanceof RangeError, String(error));
  assert.match(error.message, /inflates past 67108864 bytes/);
  assert.ok(d.memory.buffer.byteLength <= MEMORY_CAP, `decoder memory ${d.memory.buffer.byteLength}`);
  // A small bound holds as well.
  assert.match(String(await run(d, readFileSync(path.join(build, "app.wasm.br")), [65536], 1_000_000)), /inflates past 1000000 bytes/);
});

// A fixed-seed generator, so a failing case can be replayed.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("random and damaged streams end, in an answer or an error, within the bound", async () => {
  const d = await decoder();
  const br = readFileSync(path.join(build, "app.wasm.br"));
  const next = random(25);
  const cases = [];
  for (let i = 0; i < 200; i++) cases.push(Buffer.from(Array.from({ length: 1 + Math.floor(next() * 2048) }, () => Math.floor(next() * 256))));
  // app.wasm.br's first 64 KB with a few bytes changed: valid headers, then damage.
  for (let i = 0; i < 30; i++) {
    const b = Buffer.from(br.subarray(0, 65536));
    for (let k = 0; k < 1 + i % 4; k++) b[Math.floor(next() * b.length)] ^= 1 << Math.floor(next() * 8);
    cases.push(b);
  }
  const max = 8 * 1024 * 1024;
  for (const [i, bytes] of cases.entries()) {
    const out = await run(d, bytes, [4096], max);
    if (Buffer.isBuffer(out)) assert.ok(out.length <= max, `case ${i}: ${out.length} bytes`);
    else assert.match(String(out), /broken|ends early|bytes follow|inflates past/, `case ${i}`);
  }
  assert.ok(d.memory.buffer.byteLength <= MEMORY_CAP, `decoder memory ${d.memory.buffer.byteLength}`);
});
