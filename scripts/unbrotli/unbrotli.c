/* scripts/unbrotli/unbrotli.c is the wasm face of brotli's own decoder
 * (third_party/brotli), built by make wasm into web/build/unbrotli.wasm for
 * web/unbrotli.js: a page on a host that compresses nothing fetches
 * app.wasm.br and undoes it here, as a server's Content-Encoding would have.
 *
 * One stream at a time, through two fixed buffers in the module's memory:
 * the page copies up to INPUT bytes to unbrotli_input(), calls
 * unbrotli_push(n), then unbrotli_step() until it asks for more input; each
 * step leaves unbrotli_produced() bytes at unbrotli_output(). The decoder's
 * window is at most 16 MiB (large windows are not enabled) and the linker
 * caps the memory (Makefile), so a hostile stream ends in an error, never in
 * unbounded memory. */
#include <stddef.h>
#include <stdint.h>
#include <brotli/decode.h>

#define INPUT (64 * 1024)
#define OUTPUT (256 * 1024)

static BrotliDecoderState *state;
static uint8_t input[INPUT];
static uint8_t output[OUTPUT];
static const uint8_t *next_in;
static size_t avail_in;
static size_t produced;

__attribute__((export_name("unbrotli_input"))) uint8_t *unbrotli_input(void) { return input; }
__attribute__((export_name("unbrotli_input_size"))) size_t unbrotli_input_size(void) { return INPUT; }
__attribute__((export_name("unbrotli_output"))) uint8_t *unbrotli_output(void) { return output; }
__attribute__((export_name("unbrotli_produced"))) size_t unbrotli_produced(void) { return produced; }

/* unbrotli_start begins a new stream, dropping any earlier one; 0 when the
 * decoder could not be made (out of memory). */
__attribute__((export_name("unbrotli_start"))) int unbrotli_start(void) {
  if (state) BrotliDecoderDestroyInstance(state);
  state = BrotliDecoderCreateInstance(NULL, NULL, NULL);
  avail_in = 0;
  produced = 0;
  return state != NULL;
}

/* unbrotli_push hands the decoder the n bytes the page wrote at
 * unbrotli_input(). */
__attribute__((export_name("unbrotli_push"))) void unbrotli_push(size_t n) {
  next_in = input;
  avail_in = n > INPUT ? INPUT : n;
}

/* unbrotli_step decodes into the output buffer and says what is next, as
 * BrotliDecoderResult does: 0 the stream is broken, 1 it ended (2 or 3 with
 * input left over would be a longer stream than brotli's), 2 push more
 * input, 3 call again for more output. */
__attribute__((export_name("unbrotli_step"))) int unbrotli_step(void) {
  if (!state) return BROTLI_DECODER_RESULT_ERROR;
  uint8_t *next_out = output;
  size_t avail_out = OUTPUT;
  BrotliDecoderResult r = BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, NULL);
  produced = OUTPUT - avail_out;
  /* Bytes after the end of the stream are not brotli's: refuse them. */
  if (r == BROTLI_DECODER_RESULT_SUCCESS && avail_in != 0) return BROTLI_DECODER_RESULT_ERROR;
  return r;
}

