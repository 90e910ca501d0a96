/*
** test_ggml_alloc_sim.c: the ggml-alloc model (src/ggml_alloc_sim.c) on hand-made graphs,
** and the llama.cpp decoder graph (src/lc_graph.c) against the compute buffers the real
** llama.cpp (node-llama-cpp's bundle, commit 80fb11a) reserved for the conformance
** models, read byte-exact from ggml_gallocr_get_buffer_size.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ggml_alloc_sim.h"

static int node1(gs_graph *g, uint64_t bytes, unsigned how, int src) {
  int s[1] = {src};
  return gs_node(g, bytes, how, -1, s, 1);
}

static uint64_t plan(gs_graph *g) {
  uint64_t size = 0;
  assert_true(gs_plan(g, 32, &size));
  gs_free(g);
  return size;
}

/* an in-place op takes over its only parent: one 256 B block; a second consumer of the
** parent forbids it: 512 B */
static void test_inplace(void **state) {
  (void)state;
  gs_graph *g = gs_new();
  node1(g, 256, GS_INPLACE, gs_leaf(g, 256));
  assert_int_equal(plan(g), 256);
  g = gs_new();
  int x = gs_leaf(g, 256);
  node1(g, 256, GS_INPLACE, x);
  node1(g, 64, 0, x);
  assert_int_equal(plan(g), 256 + 256 + 64);
}

/* x at 0, y at 256 (x freed: hole 0..256), z best-fits the hole, y is freed and merges
** with the open end, q (512) lands at 256: 768. With y an output y stays: q at 512, 1024 */
static void test_best_fit_and_outputs(void **state) {
  (void)state;
  for (int out = 0; out < 2; out++) {
    gs_graph *g = gs_new();
    int y = node1(g, 256, 0, gs_leaf(g, 256));
    if (out) gs_set_output(g, y);
    node1(g, 512, 0, node1(g, 256, 0, y));
    assert_int_equal(plan(g), out ? 1024 : 768);
  }
}

/* a view keeps its source alive until the view's consumer ran: a leaf at 0 (32 B), x at
** 32..160 (100 B padded to 128), b takes the leaf's hole, x's last direct consumer; c,
** reading x through the view, cannot reuse x's block: 160 + 128 = 288 (160 without view) */
static void test_views(void **state) {
  (void)state;
  gs_graph *g = gs_new();
  int x = node1(g, 100, 0, gs_leaf(g, 32));
  int v = gs_node(g, 0, 0, x, &x, 1);
  node1(g, 32, 0, x);
  node1(g, 128, 0, v);
  assert_int_equal(plan(g), 288);
}

/* ggml_backend_sched on two backends (a GPU, then the host): a host input x (256 B) feeds
** a GPU weight op y; the split copies x into the GPU (a dependency node keeps x until the
** copy), so the GPU buffer holds the copy (256) and y (512, 128-aligned: 512), the host
** buffer x, then y's copy back (512) and the host op on the host weights (64, op_offload
** off) above it: x is freed once copied; two splits */
static void test_sched_copies(void **state) {
  (void)state;
  gs_graph *g = gs_new();
  int wg = gs_ext_at(g, 0, true), wh = gs_ext_at(g, 1, true);
  int x = gs_leaf(g, 256);
  int s2[2] = {wg, x};
  int y = gs_node(g, 512, 0, -1, s2, 2);
  int s3[2] = {wh, y};
  gs_node(g, 64, 0, -1, s3, 2);
  assert_int_equal(gs_n_nodes(g), 2);
  assert_int_equal(gs_sched(g, 2, 1, false), 2);
  uint64_t align[2] = {128, 32}, sizes[2];
  assert_true(gs_plan_n(g, align, sizes));
  assert_int_equal(sizes[0], 256 + 512);
  assert_int_equal(sizes[1], 512 + 64);
  gs_free(g);
  /* pipeline copies: 4 of each split input, never freed, and 4 of the graph input */
  g = gs_new();
  wg = gs_ext_at(g, 0, true);
  x = gs_leaf(g, 256);
  s2[0] = wg, s2[1] = x;
  gs_node(g, 512, 0, -1, s2, 2);
  assert_int_equal(gs_sched(g, 2, 4, false), 1);
  assert_true(gs_plan_n(g, align, sizes));
  assert_int_equal(sizes[0], 4 * 256 + 512);
  assert_int_equal(sizes[1], 4 * 256);
  gs_free(g);
}

/* op_offload: two ops on host weights of 1000 B (copies 128-aligned: 1024) run on the
** GPU, each in a split of its own (a weight from another backend starts a split once the
** current one has inputs): split 1 copies w1 (0..1024) and the host input x (1024..1280),
** y goes above (1280..1792); both copies are freed after y, and split 2's copy of w2 takes
** the freed 1280 B at 0, z (512 B) goes above y: 2304 B. Off, both ops stay on the host. */
static void test_sched_weight_copies(void **state) {
  (void)state;
  for (int off = 0; off < 2; off++) {
    gs_graph *g = gs_new();
    int x = gs_leaf(g, 256);
    int w1 = gs_ext_sized(g, 1, true, 1000);
    int s1[2] = {w1, x};
    int y = gs_node(g, 512, 0, -1, s1, 2);
    int w2 = gs_ext_sized(g, 1, true, 1000);
    int s2[2] = {w2, y};
    gs_node(g, 512, 0, -1, s2, 2);
    assert_int_equal(gs_sched(g, 2, 1, off == 0), off == 0 ? 2 : 1);
    uint64_t align[2] = {128, 32}, sizes[2];
    assert_true(gs_plan_n(g, align, sizes));
    assert_int_equal(sizes[0], off == 0 ? 2304 : 0);
    assert_int_equal(sizes[1], off == 0 ? 256 : 256 + 512 + 512);
    assert_int_equal(gs_unsized_copies(g), 0);
    gs_free(g);
  }
}

/* The CUDA backend's fused MoE weighted reduction (gs_keep_until): MUL's sources (the
** experts' outputs and their weights) kept until the last add. On the GPU: x's copy at 0
** (256 B), down 256..768, the weights 768..896 (128-aligned), the copy freed; without the
** dependency the MUL takes down's block in place and the add the copy's hole: 896 B. With
** it down has a second consumer, so the MUL's 512 B go above: 1408 B. On the host the
** dependency is not added (no graph_optimize): 512 + 32 + the add's 256 over x. */
static uint64_t moe_reduce(int n_backends, bool keep) {
  gs_graph *g = gs_new();
  int w = gs_ext_at(g, 0, true), x = gs_leaf(g, 256);
  int s2[2] = {w, x};
  int down = gs_node(g, 512, 0, -1, s2, 2), wt = gs_node(g, 32, 0, -1, s2, 2);
  s2[0] = down, s2[1] = wt;
  int weighted = gs_node(g, 512, GS_INPLACE, -1, s2, 2);
  s2[0] = gs_node(g, 256, 0, weighted, &weighted, 1), s2[1] = gs_node(g, 256, 0, weighted, &weighted, 1);
  int out = gs_node(g, 256, GS_INPLACE, -1, s2, 2);
  if (keep) gs_keep_until(g, weighted, out);
  assert_true(gs_sched(g, n_backends, 1, false) > 0);
  uint64_t align[2] = {128, 128}, sizes[2];
  assert_true(gs_plan_n(g, align, sizes));
  gs_free(g);
  return sizes[0];
}

static void test_keep_until(void **state) {
  (void)state;
  assert_int_equal(moe_reduce(2, false), 896);
  assert_int_equal(moe_reduce(2, true), 1408);
  assert_int_equal(moe_reduce(1, true), moe_reduce(1, false));
}

static lc_graph_spec gqa4(uint64_t n_kv, bool fa) {
  /* mkmodel --layers 2 --embd 2048 --ff 5632 --heads 32 --heads-kv 8 --vocab 32768 */
  return (lc_graph_spec){.n_tok = 512, .n_stream = 1, .n_layer = 2, .hidden = 2048, .vocab = 32768,
                         .heads = 32, .kv_heads = 8, .head_k = 64, .head_v = 64, .ffn = 5632,
                         .n_kv = {n_kv, n_kv}, .fa = fa, .gated = true, .rot_k_n = 64};
}

static uint64_t buffer(const lc_graph_spec *sp) {
  uint64_t size = 0;
  assert_true(lc_graph_compute_buffer(sp, 32, &size));
  return size;
}

/* llama-gqa4-q4_k, ctx 512, ubatch 512, no flash attention: 87.01 MiB = 91236352 B. The
** 64 MiB logits do not fit the 32 MiB hole the KQ scores left and go above the highest
** live tensor (the output norm, never freed): 91236352 - 67108864 = 23.01 MiB below. */
static void test_llama_gqa4_no_fa(void **state) {
  (void)state;
  lc_graph_spec sp = gqa4(512, false);
  assert_int_equal(buffer(&sp), 91236352);
  sp.n_kv[0] = sp.n_kv[1] = 2048; /* ctx 8192 over 4 streams: 161490944 B (154.01 MiB) */
  sp.n_stream = 4;
  assert_int_equal(buffer(&sp), 161490944);
}

/* flash attention, f16 and q8_0 caches (the Hadamard rotations of the quantized rows
** add 64x64 inputs and same-size matmuls): 75499520 B both (72.00 MiB) */
static void test_llama_gqa4_fa(void **state) {
  (void)state;
  lc_graph_spec sp = gqa4(512, true);
  assert_int_equal(buffer(&sp), 75499520);
  sp.rot_k = sp.rot_v = true;
  assert_int_equal(buffer(&sp), 75499520);
}

/* llama-moe8x2-q4_k (4 layers, 512 embd, 1024 ff per expert, 8 experts, 2 used, 8/2
** heads, 8192 vocab), ctx 512: 18876416 B */
static void test_llama_moe(void **state) {
  (void)state;
  lc_graph_spec sp = {.n_tok = 512, .n_stream = 1, .n_layer = 4, .hidden = 512, .vocab = 8192,
                      .heads = 8, .kv_heads = 2, .head_k = 64, .head_v = 64, .ffn = 1024,
                      .experts = 8, .experts_used = 2, .n_kv = {512, 512}, .gated = true};
  assert_int_equal(buffer(&sp), 18876416);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_inplace),       cmocka_unit_test(test_best_fit_and_outputs),
      cmocka_unit_test(test_views),         cmocka_unit_test(test_sched_copies),
      cmocka_unit_test(test_sched_weight_copies), cmocka_unit_test(test_keep_until),
      cmocka_unit_test(test_llama_gqa4_no_fa), cmocka_unit_test(test_llama_gqa4_fa),
      cmocka_unit_test(test_llama_moe),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
