/*
** fuzz_safetensors.c: libFuzzer target for the safetensors reader (st_read_buffer):
** each input is read without a config, and once it parses, again with a GPTQ and a
** bitsandbytes quantization_config, so the packed-tensor paths run on fuzzed headers.
** Parse with consistent sums, or fail with a message; never crash or leak.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const configs[] = {
    NULL,
    "{\"quantization_config\": {\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": 128}}",
    "{\"quantization_config\": {\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true}}",
};

static bool read_once(const uint8_t *data, size_t size, const char *config) {
  st_model m;
  char err[512];
  err[0] = '\0';
  st_status st = st_read_buffer("fuzz.safetensors", data, size, config, &m, err, sizeof err);
  if (st == ST_OK) {
    uint64_t bytes = 0;
    for (size_t i = 0; i < m.n; i++)
      if (!m.t[i].name || m.t[i].ndim < 0 || m.t[i].ndim > ST_MAX_DIMS ||
          __builtin_add_overflow(bytes, m.t[i].bytes, &bytes))
        abort();
    if (bytes != m.bytes + m.aux_bytes) abort(); /* plain and aux bytes cover every tensor */
  } else if (err[0] == '\0' || !memchr(err, '\0', sizeof err)) {
    abort();
  }
  st_model_free(&m);
  return st == ST_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!read_once(data, size, configs[0])) return 0;
  for (size_t i = 1; i < sizeof configs / sizeof *configs; i++) read_once(data, size, configs[i]);
  return 0;
}
