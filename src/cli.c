/*
** cli.c: the vramfit command (estimate, fit, batch, inspect, list). Uses only the
** public API of include/vramfit.h plus jansson to read `list` answers; batch is
** src/cli_batch.c (its own options and --help).
** Exit status: 0 success, 1 the workload fits no requested GPU (fit), 2 bad input.
*/
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_batch.h"
#include "vramfit.h"

#define MAX_ARGS 256

typedef struct cli {
  const char *cmd;
  const char *files[MAX_ARGS];
  size_t n_files;
  const char *sets[MAX_ARGS];
  size_t n_sets;
  const char *gpus[MAX_ARGS];
  size_t n_gpus;
  const char *format;
  int tensors, help;
} cli;

static const char *const usage_text =
    "usage: vramfit COMMAND [ARGS]\n"
    "\n"
    "  estimate SCENARIO [--gpu NAME] [--format table|json|csv] [--set KEY=VALUE]...\n"
    "      the memory budget of one scenario on one GPU, category by category\n"
    "  fit SCENARIO [--gpu NAME]... [--format table|json|csv] [--set KEY=VALUE]...\n"
    "      which GPUs hold it, how many are needed, how far each can be pushed\n"
    "  batch FILE... [--format csv|jsonl] [-o OUT] [--fail-fast] [--jobs N] [--fit] [--html F]\n"
    "      every scenario of lists and sweeps, one row each (vramfit batch --help)\n"
    "  inspect PATH [--tensors]\n"
    "      what a .gguf, .safetensors, model directory or config.json holds\n"
    "  list models|gpus|quants|optimizers|runtimes|knobs|architectures\n"
    "\n"
    "SCENARIO is a .lua or .json file, or - for standard input.\n"
    "VRAMFIT_PATH=dir1:dir2 adds script directories (architectures/, scripts/) that\n"
    "override the shipped ones. Exit status: 0 success, 1 nothing fits (fit), 2 bad input.\n";

/* Per-command help: what `vramfit COMMAND --help` prints (batch: src/cli_batch.c). */
static const struct {
  const char *cmd, *text;
} command_help[] = {
    {"estimate",
     "usage: vramfit estimate SCENARIO [--gpu NAME] [--format table|json|csv] [--set KEY=VALUE]...\n\n"
     "The memory budget of the first scenario of SCENARIO on one GPU (the scenario's gpu, the\n"
     "first --gpu, or H100-SXM-80GB), category by category with its basis, the peaks PyTorch\n"
     "would print and what nvidia-smi would show.\n\n"
     "  --gpu NAME        a catalog name or alias (\"NVIDIA H100 80GB HBM3\", \"4090\")\n"
     "  --format F        table (default), json (docs/API.md: the JSON report) or csv\n"
     "  --set KEY=VALUE   override a field by dotted path: --set workload.context=32768\n"},
    {"fit",
     "usage: vramfit fit SCENARIO [--gpu NAME]... [--format table|json|csv] [--set KEY=VALUE]...\n\n"
     "For every requested GPU (the scenario's gpu list, the --gpu options, else the whole\n"
     "catalog): whether the workload fits with headroom, the smallest GPU count where the\n"
     "runtime splits it, and how far one GPU goes (sequences, context; batch, sequence length).\n"
     "Exit status 1 when it fits none of them.\n"},
    {"inspect",
     "usage: vramfit inspect PATH [--tensors]\n\n"
     "What a .gguf file, a .safetensors file or index, a model directory, a config.json or a\n"
     "diffusers folder holds: architecture, parameters, bytes per dtype, the quantization\n"
     "detected, and with --tensors every tensor. Prints JSON.\n"},
    {"list",
     "usage: vramfit list models|gpus|quants|optimizers|runtimes|knobs|architectures [--format json]\n\n"
     "The presets, the GPU catalog, the quantization formats, optimizers, runtimes, every\n"
     "runtime's knobs (runtime.<knob> in a scenario: the value it takes and what it does) and\n"
     "architecture scripts vramfit knows (user directories in VRAMFIT_PATH included).\n"},
};

static void print_help(const char *cmd) {
  for (size_t i = 0; i < sizeof command_help / sizeof *command_help; i++)
    if (strcmp(command_help[i].cmd, cmd) == 0) {
      fputs(command_help[i].text, stdout);
      return;
    }
  fputs(usage_text, stdout);
}

/* The installed data directory next to the executable (PREFIX/bin/../share/vramfit),
** so an installed tree finds its scripts wherever PREFIX was; NULL if absent. */
static const char *exe_datadir(char *buf, size_t size) {
  ssize_t n = readlink("/proc/self/exe", buf, size - 1);
  if (n <= 0) return NULL;
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (!slash || (size_t)(slash - buf) + 24 >= size) return NULL;
  strcpy(slash, "/../share/vramfit");
  struct stat st;
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : NULL;
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "vramfit: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see 'vramfit --help')\n");
  return 2;
}

/* Options taking a value accept "--opt VALUE" and "--opt=VALUE". */
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] != '\0') return NULL;
  if (*i + 1 >= argc) return "";
  return argv[++*i];
}

static int parse_args(int argc, char **argv, cli *c) {
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) c->help = 1;
    else if (strcmp(a, "--tensors") == 0) c->tensors = 1;
    else if ((v = opt_value(argc, argv, &i, "--format"))) c->format = v;
    else if ((v = opt_value(argc, argv, &i, "--set"))) {
      if (!strchr(v, '=')) return usage_error("--set %s: expected KEY=VALUE", v);
      if (c->n_sets == MAX_ARGS) return usage_error("too many --set options%s", "");
      c->sets[c->n_sets++] = v;
    } else if ((v = opt_value(argc, argv, &i, "--gpu"))) {
      if (!*v) return usage_error("--gpu: expected a GPU name%s", "");
      if (c->n_gpus == MAX_ARGS) return usage_error("too many --gpu options%s", "");
      c->gpus[c->n_gpus++] = v;
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option '%s'", a);
    } else {
      if (c->n_files == MAX_ARGS) return usage_error("too many files%s", "");
      c->files[c->n_files++] = a;
    }
  }
  return 0;
}

static int parse_format(const char *f, vf_format *out, int allow_table) {
  if (!f || strcmp(f, "table") == 0) *out = allow_table ? VF_FORMAT_TABLE : VF_FORMAT_CSV;
  else if (strcmp(f, "json") == 0 || strcmp(f, "jsonl") == 0) *out = VF_FORMAT_JSON;
  else if (strcmp(f, "csv") == 0) *out = VF_FORMAT_CSV;
  else return usage_error("--format %s: expected table, json or csv", f);
  return 0;
}

static void on_message(void *ud, const char *kind, const char *text) {
  (void)ud;
  fprintf(stderr, "vramfit: %s%s%s\n", strcmp(kind, "error") == 0 ? "" : kind,
          strcmp(kind, "error") == 0 ? "" : ": ", text);
}

static int fail_engine(vf_engine *e, vf_status st) {
  const char *msg = vf_engine_error(e);
  fprintf(stderr, "vramfit: %s\n", msg && *msg ? msg : vf_status_message(st));
  return 2;
}

/* fit's exit status: 1 when no requested GPU holds the workload at its layout. */
static int fit_status(vf_engine *e) {
  const vf_result *r;
  if (vf_last_result(e, &r) != VF_OK) return 2;
  for (size_t i = 0; i < r->n_fit; i++)
    if (r->fit[i].fits) return 0;
  return 1;
}

static int cmd_estimate(vf_engine *e, cli *c, int fit) {
  if (c->n_files != 1) return usage_error("%s: expected one SCENARIO file (or - for stdin)", c->cmd);
  vf_request req = {c->sets, c->n_sets, c->gpus, c->n_gpus, VF_FORMAT_TABLE, fit};
  if (parse_format(c->format, &req.format, 1)) return 2;
  const char *out;
  vf_status st = vf_estimate_file(e, c->files[0], &req, &out);
  if (st != VF_OK) return fail_engine(e, st);
  fputs(out, stdout);
  if (req.format == VF_FORMAT_JSON) fputc('\n', stdout);
  return fit ? fit_status(e) : 0;
}

static int cmd_inspect(vf_engine *e, cli *c) {
  if (c->n_files != 1) return usage_error("inspect: expected one PATH%s", "");
  if (c->format && strcmp(c->format, "json") != 0) return usage_error("inspect --format %s: expected json", c->format);
  const char *out;
  vf_status st = vf_inspect(e, c->files[0], c->tensors, &out);
  if (st != VF_OK) return fail_engine(e, st);
  printf("%s\n", out);
  return 0;
}

static int cmd_list(vf_engine *e, cli *c) {
  if (c->n_files != 1) return usage_error("list: expected models, gpus, quants, optimizers, runtimes, knobs or architectures%s", "");
  const char *out;
  vf_status st = vf_list(e, c->files[0], &out);
  if (st != VF_OK) return fail_engine(e, st);
  if (c->format && strcmp(c->format, "json") == 0) {
    printf("%s\n", out);
    return 0;
  }
  json_t *arr = json_loads(out, 0, NULL);
  size_t i;
  json_t *it;
  json_array_foreach(arr, i, it) {
    printf("%-48s %s\n", json_string_value(json_object_get(it, "name")),
           json_string_value(json_object_get(it, "summary")));
  }
  json_decref(arr);
  return 0;
}

/* VRAMFIT_PATH=dir1:dir2 as a NULL-terminated list; the string is modified. */
static void split_path(char *path, const char **dirs, size_t max) {
  size_t n = 0;
  for (char *tok = strtok(path, ":"); tok && n + 1 < max; tok = strtok(NULL, ":")) dirs[n++] = tok;
  dirs[n] = NULL;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage_text, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("vramfit %s\n", vf_version());
    return 0;
  }
  cli c = {0};
  c.cmd = argv[1];
  static const char *const cmds[] = {"estimate", "fit", "batch", "inspect", "list", NULL};
  int known = 0;
  for (int i = 0; cmds[i]; i++) known |= strcmp(cmds[i], c.cmd) == 0;
  if (!known) return usage_error("unknown command '%s'", c.cmd);
  if (strcmp(c.cmd, "batch") == 0) return cli_batch(argc, argv); /* src/cli_batch.c: its own options and engines */
  if (parse_args(argc, argv, &c)) return 2;
  if (c.help) {
    print_help(c.cmd);
    return 0;
  }
  char *env = getenv("VRAMFIT_PATH") ? strdup(getenv("VRAMFIT_PATH")) : NULL;
  const char *dirs[64] = {NULL};
  if (env) split_path(env, dirs, 64);
  vf_options opt;
  vf_options_init(&opt);
  opt.script_dirs = dirs;
  opt.message = on_message;
  char exe[4096];
  const char *data = getenv("VRAMFIT_DATADIR");
  if (!data) data = exe_datadir(exe, sizeof exe);
  if (data) opt.data_dir = data;
  vf_engine *e = NULL;
  vf_status st = vf_engine_new(&opt, &e);
  int rc;
  if (st != VF_OK)
    rc = 2;
  else if (strcmp(c.cmd, "estimate") == 0 || strcmp(c.cmd, "fit") == 0)
    rc = cmd_estimate(e, &c, strcmp(c.cmd, "fit") == 0);
  else if (strcmp(c.cmd, "inspect") == 0)
    rc = cmd_inspect(e, &c);
  else
    rc = cmd_list(e, &c);
  vf_engine_free(e);
  free(env);
  return rc;
}
