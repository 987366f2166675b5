// web/unbrotli.js is responsible for undoing brotli in the page, for the
// engine from a host that sends files as they are (web/engine.js): brotli's
// own decoder built to wasm (scripts/unbrotli, third_party/brotli). Browsers
// undo brotli only as a server's Content-Encoding, and their
// DecompressionStream knows gzip alone, which is a third bigger on the wire.
// It also holds the bound every inflated file of the engine is kept to
// (capped).

const decoderURL = new URL("./build/unbrotli.wasm", import.meta.url);
// make wasm and make site write unbrotli.wasm.gz beside it.
const decoderGzipURL = new URL(decoderURL);
decoderGzipURL.pathname += ".gz";

// The decoder is about 180 KB; a .gz that inflates past this is not it.
const MAX_DECODER = 1024 * 1024;

// startsWasm says whether bytes begin as every wasm module does ("\0asm"):
// then a host labelled the file with its Content-Encoding and the browser
// undid it already.
function startsWasm(bytes) {
  return bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;
}

// capped passes a byte stream on until more than max bytes passed, then
// fails it, naming what inflated.
export function capped(max, what) {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > max) throw new RangeError(`${what} inflates past ${max} bytes`);
      controller.enqueue(chunk);
    },
  });
}

// loadDecoder fetches and starts the decoder: its .gz, inflated here (the
// host compresses nothing), else the .wasm itself (a copy without the .gz).
// It rejects when the decoder cannot be had; the engine then takes the .gz.
export async function loadDecoder() {
  let response = await fetch(decoderGzipURL);
  if (response.status === 404) response = await fetch(decoderURL);
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (!startsWasm(bytes)) {
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")).pipeThrough(capped(MAX_DECODER, "the brotli decoder"));
    bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
  }
  const { instance } = await WebAssembly.instantiate(bytes);
  return instance.exports;
}

// BrotliDecoderResult of scripts/unbrotli/unbrotli.c.
const BROKEN = 0, ENDED = 1, MORE_INPUT = 2, MORE_OUTPUT = 3;

// unbrotli returns a stream that turns brotli into the bytes it holds with
// decoder (from loadDecoder, one stream at a time), failing once they pass
// max bytes: a few bytes of brotli can say gigabytes, so the bound is kept
// here, chunk by chunk, not after. A stream that already starts as wasm
// passes as it is (see startsWasm).
export function unbrotli(decoder, max) {
  const d = decoder;
  if (!d.unbrotli_start()) throw new RangeError("the brotli decoder has no memory to start");
  const room = d.unbrotli_input_size();
  let first = true, decoded = false, ended = false, size = 0;
  const put = (controller, bytes) => {
    size += bytes.byteLength;
    if (size > max) throw new RangeError(`the engine inflates past ${max} bytes`);
    controller.enqueue(bytes);
  };
  return new TransformStream({
    transform(chunk, controller) {
      if (first) {
        first = false;
        decoded = startsWasm(chunk);
      }
      if (decoded) return put(controller, chunk);
      for (let at = 0; at < chunk.byteLength; at += room) {
        if (ended) throw new Error("bytes follow the end of the brotli stream");
        const part = chunk.subarray(at, at + room);
        new Uint8Array(d.memory.buffer, d.unbrotli_input(), part.byteLength).set(part);
        d.unbrotli_push(part.byteLength);
        // Each step takes input or gives output (brotli's guarantee); the
        // output is bounded by max, so the loop is too.
        for (let result = MORE_OUTPUT; result === MORE_OUTPUT;) {
          result = d.unbrotli_step();
          const n = d.unbrotli_produced();
          // The memory may have grown (a new buffer): read it afresh.
          if (n) put(controller, new Uint8Array(d.memory.buffer, d.unbrotli_output(), n).slice());
          if (result === BROKEN) throw new Error("the brotli stream is broken");
          if (result === ENDED) ended = true;
        }
      }
    },
    flush() {
      if (!decoded && !ended) throw new Error("the brotli stream ends early");
    },
  });
}
