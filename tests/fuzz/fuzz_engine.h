/*
** fuzz_engine.h: the engine shared by the fuzz targets that go through the public API
** (fuzz_scenario.c, fuzz_config.c): made once per process with small limits (20 M
** instructions, 64 MiB of Lua heap) and the embedded scripts only, and one check of
** the contract: success gives a report, failure a non-empty message, never a crash.
*/
#ifndef VF_FUZZ_ENGINE_H
#define VF_FUZZ_ENGINE_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "vramfit.h"

static vf_engine *fuzz_engine(void) {
  static vf_engine *e;
  if (!e) {
    vf_options opt;
    vf_options_init(&opt);
    opt.data_dir = "/nonexistent";
    opt.instruction_limit = 20000000;
    opt.memory_limit = 64u << 20;
    if (vf_engine_new(&opt, &e) != VF_OK) abort();
  }
  return e;
}

/* Evaluates text; the report must be there (and parse, for JSON) or the message set. */
static void fuzz_eval(const char *text, size_t len, const char *name, vf_format format) {
  vf_engine *e = fuzz_engine();
  vf_request req = {NULL, 0, NULL, 0, format, 0};
  const char *out = NULL;
  vf_status st = vf_estimate_string(e, text, len, name, &req, &out);
  if (st == VF_OK) {
    if (!out) abort();
    if (format == VF_FORMAT_JSON) {
      json_t *j = json_loads(out, 0, NULL);
      if (!j) abort(); /* the report is always valid JSON (valid UTF-8 included) */
      /* DESIGN.md's fields are never dropped (json_string() gives NULL on bad UTF-8) */
      if (!json_is_string(json_object_get(j, "scenario")) || !json_is_object(json_object_get(j, "model")))
        abort();
      json_decref(j);
    }
  } else if (vf_engine_error(e)[0] == '\0') {
    abort();
  }
}

#endif
