/*
** fuzz_scenario.c: libFuzzer target for the scenario loader: the input is scenario
** text, Lua or JSON (JSON when it starts with '{' or '['), evaluated through
** vf_estimate_string with small limits; the input's length picks the report format,
** so the JSON, table and CSV writers all see what a fuzzed scenario leaves in them.
*/
#include <stdint.h>

#include "fuzz_engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const vf_format formats[] = {VF_FORMAT_JSON, VF_FORMAT_TABLE, VF_FORMAT_CSV};
  if (size > 65536) return 0;
  fuzz_eval((const char *)data, size, "fuzz.lua", formats[size % 3]);
  return 0;
}
