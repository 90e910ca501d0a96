/*
** fuzz_config.c: libFuzzer target for the config.json path: the input is the text of
** a Hugging Face config.json, spliced into a JSON scenario as model.config (so the
** architecture is chosen by its model_type), then converted to Lua, built into an
** architecture description by architectures/<family>.lua, read back by lua_read.c
** and estimated. An odd length trains instead of serving.
*/
#include <stdint.h>
#include <stdio.h>

#include "fuzz_engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char head[] = "{\"model\": {\"config\": ";
static const char infer_tail[] =
    "}, \"workload\": {\"kind\": \"inference\", \"context\": 4096, \"concurrency\": 4}, \"gpu\": \"H100\"}";
static const char train_tail[] =
    "}, \"workload\": {\"kind\": \"train\", \"method\": \"full\", \"micro_batch\": 2, \"seq_len\": 1024},"
    " \"parallel\": {\"dp\": 8, \"strategy\": \"zero3\"}, \"gpu\": \"H100\"}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536) return 0;
  const char *tail = size % 2 ? train_tail : infer_tail;
  size_t n = sizeof head - 1 + size + strlen(tail);
  char *text = malloc(n);
  if (!text) return 0;
  memcpy(text, head, sizeof head - 1);
  memcpy(text + sizeof head - 1, data, size);
  memcpy(text + sizeof head - 1 + size, tail, strlen(tail));
  fuzz_eval(text, n, "config.json", VF_FORMAT_JSON);
  free(text);
  return 0;
}
