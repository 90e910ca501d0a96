/*
** test_holdout20_llamacpp.c: llama.cpp startup buffers of 2026 builds held out of
** shared/calibration (round 20, 2026-12-02), predicted by vramfit through the public API before
** any change. Tolerances as the brief's: KV to the printed MiB, compute within 10 % (here every
** compute figure also holds to the printed MiB, and is checked so).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "apiutil.h"

#define MIB (1024ll * 1024ll)

/* ---- miztiik/yen-idhazh docs/reference/benchmarks/what-llama-server-reports-about-itself.md
** (commit d1ecf8591bafe13c544f9207305034ef24fd6c38, "Last Updated 2026-09-18"): llama-server
** b10444 (5f754ea0e) on a CPU host (no GPU), Qwen3-8B-Q4_K_M.gguf (5,027,783,488 B), one slot
** ("n_slots = 1, n_ctx_slot = 8192, kv_unified = 'false'"), -lv 4, three starts each with no -fa
** flag (auto, resolved on), -fa on and -fa off, every figure identical across the three:
** "llama_kv_cache: CPU KV buffer size" 1152.00 MiB (36 layers x 8192 cells x 1024 x 2 x 2 B),
** "sched_reserve: CPU compute buffer size" 112.01 MiB with flash attention, 572.01 without.
** n_batch / n_ubatch are not printed: llama-server's 2048 / 512 taken.
** Predicted (no change): all three exact (117,452,832 B and 599,793,696 B of compute) */
#define QWEN3_8B_CPU                                                                                   \
  "return { model = 'Qwen/Qwen3-8B', quant = 'gguf:Q4_K_M', runtime = { name = 'llamacpp',"            \
  " device = 'cpu', version = 'b10444', n_ctx = 8192, n_batch = 2048, n_ubatch = 512, n_seq_max = 1%s" \
  " }, workload = { kind = 'inference', context = 8192 } }"

static json_t *qwen3_8b_cpu(vf_engine *e, const char *fa) {
  return tu_eval_okf(e, QWEN3_8B_CPU, fa);
}

static void test_holdout20_qwen3_8b_cpu_fa(void **state) {
  static const struct {
    const char *knob, *compute;
  } runs[] = {{"", "112.01"}, {", flash_attn = true", "112.01"}, {", flash_attn = false", "572.01"}};
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    json_t *j = qwen3_8b_cpu(*state, runs[i].knob);
    tu_printed_mib(j, "runtime.kv_buffer_bytes", "1152.00", "CPU KV");
    tu_printed_mib(j, "runtime.host_compute_buffer_bytes", runs[i].compute, "CPU compute");
    json_decref(j);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_holdout20_qwen3_8b_cpu_fa),
  };
  return cmocka_run_group_tests(tests, tu_engine_setup, tu_engine_teardown);
}
