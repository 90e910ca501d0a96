/*
** estimate.c: embedding example. Estimates a scenario (a file given as the first
** argument, or Llama-3.1-8B-Instruct serving 8,192-token chats) through libvramfit and
** prints the model, the budget and the fit on a few GPUs, from the vf_result structs.
** Build against an installed tree: cc estimate.c $(pkg-config --cflags --libs vramfit)
*/
#include <stdio.h>
#include <vramfit.h>

static const char chat[] =
    "return { name = \"chat-8b\", model = \"meta-llama/Llama-3.1-8B-Instruct\", dtype = \"bf16\",\n"
    "         workload = { kind = \"inference\", context = 8192, concurrency = 4 } }\n";

static void print_result(const vf_result *r) {
  printf("model %s (%s)\n", r->model_id, r->arch);
  printf("params %llu\n", (unsigned long long)r->params);
  printf("weight_bytes %llu\n", (unsigned long long)r->weight_bytes);
  for (size_t i = 0; i < r->n_categories; i++)
    printf("  %-18s %15llu B  %s\n", r->categories[i].name, (unsigned long long)r->categories[i].bytes,
           r->categories[i].basis);
  printf("total_bytes %llu on %s\n", (unsigned long long)r->total_bytes, r->gpu);
  for (size_t i = 0; i < r->n_fit; i++) {
    const vf_fit_row *f = &r->fit[i];
    printf("fit %s %s used %.1f%% count %llu max_concurrency %llu\n", f->gpu, f->fits ? "yes" : "no",
           100.0 * f->used_fraction, (unsigned long long)f->count, (unsigned long long)f->max_concurrency);
  }
}

int main(int argc, char **argv) {
  vf_engine *e = NULL;
  vf_status st = vf_engine_new(NULL, &e);
  if (st != VF_OK) {
    fprintf(stderr, "estimate: %s\n", vf_status_message(st));
    return 2;
  }
  const char *gpus[] = {"L40S", "RTX-4090-24GB"};
  vf_request req = {NULL, 0, gpus, 2, VF_FORMAT_JSON, 1};
  const char *json = NULL;
  const vf_result *r = NULL;
  st = argc > 1 ? vf_estimate_file(e, argv[1], &req, &json)
                : vf_estimate_string(e, chat, sizeof chat - 1, "chat.lua", &req, &json);
  if (st == VF_OK) st = vf_last_result(e, &r);
  if (st != VF_OK) {
    fprintf(stderr, "estimate: %s: %s\n", vf_status_message(st), vf_engine_error(e));
    vf_engine_free(e);
    return 2;
  }
  printf("vramfit %s\n", vf_version());
  print_result(r);
  vf_engine_free(e);
  return 0;
}
