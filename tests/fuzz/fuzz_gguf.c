/*
** fuzz_gguf.c: libFuzzer target for the GGUF reader (gguf_read_buffer). Every input
** must either parse, with tensors that lie inside the buffer and sums that add up, or
** fail with a message; never crash, leak or read out of bounds. Built by `make fuzz`
** (clang, -fsanitize=fuzzer) and replayed without libFuzzer by tests/fuzz/replay.c.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gguf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_info(const gguf_info *g, size_t size) {
  uint64_t bytes = 0;
  size_t nonempty = 0;
  for (size_t i = 0; i < g->n_tensors; i++) {
    const gguf_tensor *t = &g->tensors[i];
    nonempty += t->elements > 0;
    if (!t->name || t->ndim > GGUF_MAX_DIMS) abort(); /* ndim 0: a scalar, one element */
    if (__builtin_add_overflow(bytes, t->bytes, &bytes)) abort();
    if (t->offset > size || g->data_start > size) abort(); /* the data lies in the buffer */
  }
  /* the inventory leaves out empty tensors (a zero dimension): they hold no bytes */
  if (bytes != g->tensor_bytes || g->inv.n != nonempty) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gguf_info g;
  char err[512];
  memset(&g, 0, sizeof g);
  err[0] = '\0';
  gguf_status st = gguf_read_buffer(data, size, &g, err, sizeof err);
  if (st == GGUF_OK)
    check_info(&g, size);
  else if (err[0] == '\0' || !memchr(err, '\0', sizeof err))
    abort(); /* a failure always says what was wrong */
  gguf_info_free(&g);
  return 0;
}
