/*
** mkmodel.c: writes synthetic model files for tests (built by make, not installed).
**   mkmodel gguf OUT.gguf [--arch A --layers N --embd N --ff N --heads N --heads-kv N
**                          --vocab N --ctx N --experts N --experts-used N --ftype T --tied --gate-up
**                          and for the newer architectures (mkmodel_lib.h): --head-dim --nextn
**                          --expert-ff --shared --dense-lead --interval --ssm-conv --ssm-state
**                          --ssm-groups --ssm-vheads --q-lora --kv-lora --rope;
**                          granitehybrid: --nope --granite-scales;
**                          gemma4: --global-head-dim --global-heads-kv --kv-shared --ple --k-eq-v 0|1
**                          --double-wide 0|1]
**   mkmodel safetensors OUT.safetensors | safetensors-sharded DIR | gptq DIR | diffusers DIR
**   mkmodel bad KIND OUT        (KIND: mkmodel bad list)
** Uses mkmodel_lib.c; exit status 0 on success, 2 on bad usage or failure.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkmodel_lib.h"

typedef struct opt_u {
  const char *flag;
  size_t off; /* offset of the unsigned field in mk_llama */
} opt_u;

static const opt_u uopts[] = {
    {"--layers", offsetof(mk_llama, layers)},   {"--embd", offsetof(mk_llama, embd)},
    {"--ff", offsetof(mk_llama, ff)},           {"--heads", offsetof(mk_llama, heads)},
    {"--heads-kv", offsetof(mk_llama, heads_kv)}, {"--vocab", offsetof(mk_llama, vocab)},
    {"--ctx", offsetof(mk_llama, ctx)},         {"--experts", offsetof(mk_llama, experts)},
    {"--experts-used", offsetof(mk_llama, experts_used)},
    {"--head-dim", offsetof(mk_llama, head_dim)}, {"--nextn", offsetof(mk_llama, nextn)},
    {"--expert-ff", offsetof(mk_llama, expert_ff)}, {"--shared", offsetof(mk_llama, shared)},
    {"--dense-lead", offsetof(mk_llama, dense_lead)}, {"--interval", offsetof(mk_llama, interval)},
    {"--ssm-conv", offsetof(mk_llama, ssm_conv)}, {"--ssm-state", offsetof(mk_llama, ssm_state)},
    {"--ssm-groups", offsetof(mk_llama, ssm_groups)}, {"--ssm-vheads", offsetof(mk_llama, ssm_vheads)},
    {"--q-lora", offsetof(mk_llama, q_lora)}, {"--kv-lora", offsetof(mk_llama, kv_lora)},
    {"--rope", offsetof(mk_llama, rope)},       {"--swa", offsetof(mk_llama, swa)},
    {"--w-scale", offsetof(mk_llama, w_scale)},
    {"--global-head-dim", offsetof(mk_llama, g_head_dim)}, {"--global-heads-kv", offsetof(mk_llama, g_heads_kv)},
    {"--kv-shared", offsetof(mk_llama, kv_shared)}, {"--ple", offsetof(mk_llama, ple)},
    {"--k-eq-v", offsetof(mk_llama, k_eq_v)},   {"--double-wide", offsetof(mk_llama, double_wide)},
};

static int usage(const char *msg) {
  fprintf(stderr, "mkmodel: %s\nusage: mkmodel gguf OUT [options] | safetensors OUT | "
          "safetensors-sharded DIR | gptq DIR | diffusers DIR | bad KIND OUT | bad list\n", msg);
  return 2;
}

static int set_opt(mk_llama *o, const char *flag, const char *val) {
  if (!strcmp(flag, "--arch")) return o->arch = val, 0;
  if (!strcmp(flag, "--name")) return o->name = val, 0;
  if (!strcmp(flag, "--ftype")) return mk_llama_ftype(o, val) ? 0 : usage("unknown --ftype");
  for (size_t i = 0; i < sizeof uopts / sizeof uopts[0]; i++)
    if (!strcmp(flag, uopts[i].flag)) {
      char *end;
      unsigned long v = strtoul(val, &end, 10);
      if (*end || !*val || v > 1000000) return usage("expected a number");
      *(unsigned *)((char *)o + uopts[i].off) = (unsigned)v;
      return 0;
    }
  return usage("unknown option");
}

static int cmd_gguf(int argc, char **argv) {
  mk_llama o;
  mk_buf b = {0};
  char err[256];
  uint64_t data, params;
  mk_llama_defaults(&o);
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--tied")) {
      o.tied = true;
      continue;
    }
    if (!strcmp(argv[i], "--gate-up")) {
      o.gate_up = true;
      continue;
    }
    if (!strcmp(argv[i], "--nope")) {
      o.nope = true;
      continue;
    }
    if (!strcmp(argv[i], "--granite-scales")) {
      o.granite_scales = true;
      continue;
    }
    if (i + 1 >= argc) return usage("option without a value");
    if (set_opt(&o, argv[i], argv[i + 1])) return 2;
    i++;
  }
  bool ok = mk_gguf_llama(&o, &b, &data, &params, err, sizeof err) &&
            mk_write_file(argv[2], b.p, b.len, data, err, sizeof err);
  if (ok)
    printf("{\"file\":\"%s\",\"bytes\":%llu,\"tensor_bytes\":%llu,\"params\":%llu}\n", argv[2],
           (unsigned long long)(b.len + data), (unsigned long long)data,
           (unsigned long long)params);
  mk_buf_free(&b);
  return ok ? 0 : usage(err);
}

static int cmd_bad(int argc, char **argv) {
  mk_buf b = {0};
  char err[256];
  if (argc == 3 && !strcmp(argv[2], "list")) {
    for (int i = 0; mk_bad_kinds[i]; i++) puts(mk_bad_kinds[i]);
    return 0;
  }
  if (argc != 4) return usage("bad KIND OUT");
  bool ok = mk_bad(argv[2], &b, err, sizeof err) &&
            mk_write_file(argv[3], b.p, b.len, 0, err, sizeof err);
  mk_buf_free(&b);
  return ok ? 0 : usage(err);
}

static int cmd_hf(const char *what, const char *out) {
  mk_hf o;
  char err[256];
  mk_hf_defaults(&o);
  if (!strcmp(what, "gptq")) o.gptq_bits = 4;
  bool ok;
  if (!strcmp(what, "diffusers"))
    ok = mk_diffusers_dir(out, err, sizeof err);
  else if (!strcmp(what, "safetensors")) { /* OUT.safetensors with config.json beside it */
    char dir[4096];
    const char *slash = strrchr(out, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - out) : 1, slash ? out : ".");
    ok = mk_hf_dir(dir, &o, 1, err, sizeof err);
    char made[4200];
    if (ok && snprintf(made, sizeof made, "%s/model.safetensors", dir) > 0 && strcmp(made, out))
      ok = rename(made, out) == 0 || usage("cannot rename model.safetensors");
  } else
    ok = mk_hf_dir(out, &o, !strcmp(what, "safetensors-sharded") ? 2 : 1, err, sizeof err);
  return ok ? 0 : usage(err);
}

int main(int argc, char **argv) {
  if (argc < 3) return usage("missing arguments");
  if (!strcmp(argv[1], "gguf")) return cmd_gguf(argc, argv);
  if (!strcmp(argv[1], "bad")) return cmd_bad(argc, argv);
  if (argc == 3) return cmd_hf(argv[1], argv[2]);
  return usage("unknown command");
}
