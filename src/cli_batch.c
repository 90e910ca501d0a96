/*
** cli_batch.c: `vramfit batch` (see cli_batch.h and docs/BATCH.md). Uses the public
** batch API of include/vramfit.h (vf_batch_*), report_svg.c for pictures, and POSIX
** fork/pipe for --jobs: each worker inherits its own copy of the opened batch (its own
** engine), evaluates every N-th chunk, and the parent writes rows in scenario order.
*/
#include "cli_batch.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report_svg.h"
#include "vramfit.h"

#define MAX_ARGS 256
#define MAX_JOBS 64
#define CHUNK 512

typedef struct opts {
  const char *files[MAX_ARGS], *sets[MAX_ARGS], *gpus[MAX_ARGS];
  size_t n_files, n_sets, n_gpus;
  const char *output, *html, *svg;
  bool jsonl, fail_fast, fit, help;
  int progress; /* -1: when stderr is a terminal */
  long jobs;
} opts;

/* The fixed category vocabulary of DESIGN.md, one column each; the rest: other_bytes. */
static const char *const cat_cols[] = {
    "weights",          "quant_overhead", "kv_cache",        "activations",     "workspace",
    "logits",           "cuda_context",   "cuda_graphs",     "comm_buffers",    "gradients",
    "optimizer_states", "master_weights", "adapter_weights", "allocator_slack", "vae_decode"};
#define N_CATS (sizeof cat_cols / sizeof *cat_cols)

static const char *const usage =
    "usage: vramfit batch FILE... [--format csv|jsonl] [-o OUT] [--fail-fast] [--jobs N] [--fit]\n"
    "                     [--gpu NAME]... [--set KEY=VALUE]... [--html REPORT.html] [--svg PREFIX]\n"
    "                     [--progress|--no-progress]\n"
    "  one row per scenario and GPU (columns: docs/BATCH.md); a failed scenario is a row with\n"
    "  its error; --fit adds the GPU count and max_* columns; --jobs N uses N worker processes;\n"
    "  --svg writes PREFIX-lines.svg, PREFIX-bars.svg, PREFIX-matrix.svg.\n";

static int bad_usage(const char *what, const char *arg) {
  fprintf(stderr, "vramfit: batch: %s%s\n%s", what, arg ? arg : "", usage);
  return 2;
}

/* "--opt VALUE" or "--opt=VALUE"; NULL when argv[*i] is not opt. */
static const char *value_of(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (strncmp(argv[*i], opt, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] != '\0') return NULL;
  return *i + 1 < argc ? argv[++*i] : "";
}

static int add_arg(const char **list, size_t *n, const char *v, const char *what) {
  if (*n == MAX_ARGS) return bad_usage("too many ", what);
  list[(*n)++] = v;
  return 0;
}

static int parse_value(opts *o, const char *opt, const char *v) {
  if (!strcmp(opt, "--format")) {
    if (strcmp(v, "csv") && strcmp(v, "jsonl") && strcmp(v, "json"))
      return bad_usage("--format: expected csv or jsonl, got ", v);
    o->jsonl = strcmp(v, "csv") != 0;
  } else if (!strcmp(opt, "--jobs")) {
    char *end;
    o->jobs = strtol(v, &end, 10);
    if (*v == '\0' || *end || o->jobs < 1 || o->jobs > MAX_JOBS)
      return bad_usage("--jobs: expected 1 to 64, got ", v);
  } else if (!strcmp(opt, "--set")) {
    if (!strchr(v, '=')) return bad_usage("--set: expected KEY=VALUE, got ", v);
    return add_arg(o->sets, &o->n_sets, v, "--set options");
  } else if (!strcmp(opt, "--gpu")) {
    if (!*v) return bad_usage("--gpu: expected a GPU name", NULL);
    return add_arg(o->gpus, &o->n_gpus, v, "--gpu options");
  } else {
    const char **slot = !strcmp(opt, "-o") ? &o->output : !strcmp(opt, "--html") ? &o->html : &o->svg;
    if (!*v) return bad_usage(opt, ": expected a file name");
    *slot = v;
  }
  return 0;
}

static int parse(int argc, char **argv, opts *o) {
  static const char *const valued[] = {"--format", "--jobs", "--set", "--gpu", "-o", "--html", "--svg", NULL};
  memset(o, 0, sizeof *o);
  o->progress = -1, o->jobs = 1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    int k = 0;
    for (; valued[k] && !(v = value_of(argc, argv, &i, valued[k])); k++) {
    }
    if (v) {
      if (parse_value(o, valued[k], v)) return 2;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
      o->help = true;
    else if (!strcmp(a, "--fail-fast"))
      o->fail_fast = true;
    else if (!strcmp(a, "--fit"))
      o->fit = true;
    else if (!strcmp(a, "--progress"))
      o->progress = 1;
    else if (!strcmp(a, "--no-progress"))
      o->progress = 0;
    else if (a[0] == '-' && a[1])
      return bad_usage("unknown option ", a);
    else if (add_arg(o->files, &o->n_files, a, "files"))
      return 2;
  }
  if (!o->help && o->n_files == 0) return bad_usage("expected one or more scenario files", NULL);
  return 0;
}

/* ---------------------------------------------------------------- rows out */

typedef struct out {
  FILE *f;
  bool jsonl, header_done;
  char line[16384];
  size_t n;
} out;

static void put(out *o, const char *s, size_t n) {
  if (o->n + n >= sizeof o->line) n = sizeof o->line - 1 - o->n; /* cut, never overflow */
  memcpy(o->line + o->n, s, n);
  o->n += n;
}

static void puts_(out *o, const char *s) {
  put(o, s, strlen(s));
}

static void put_u64(out *o, uint64_t v) {
  char d[24];
  int i = 24;
  do d[--i] = (char)('0' + v % 10);
  while ((v /= 10) && i > 0);
  put(o, d + i, (size_t)(24 - i));
}

static void put_text(out *o, const char *s) {
  if (!s || (!o->jsonl && !strpbrk(s, ",\"\n\r"))) {
    puts_(o, s ? s : o->jsonl ? "null" : "");
    return;
  }
  put(o, "\"", 1);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    char esc[8];
    if (!o->jsonl)
      put(o, c == '"' ? "\"\"" : s, c == '"' ? 2 : 1);
    else if (c == '"' || c == '\\')
      esc[0] = '\\', esc[1] = (char)c, put(o, esc, 2);
    else if (c < 0x20)
      snprintf(esc, sizeof esc, "\\u%04x", c), put(o, esc, 6);
    else
      put(o, s, 1);
  }
  put(o, "\"", 1);
}

/* The next field: its key in JSON Lines, a separator in CSV. */
static void key(out *o, const char *name) {
  if (o->jsonl) {
    put(o, o->n ? ",\"" : "{\"", 2);
    puts_(o, name);
    put(o, "\":", 2);
  } else if (o->n) {
    put(o, ",", 1);
  }
}

static void field_u64(out *o, const char *name, uint64_t v, bool set) {
  key(o, name);
  if (set)
    put_u64(o, v);
  else if (o->jsonl)
    puts_(o, "null");
}

static void field_text(out *o, const char *name, const char *v) {
  key(o, name);
  put_text(o, v);
}

static void write_header(out *o) {
  static const char *const head =
      "file,index,scenario,axes,model,arch,runtime,kind,params,weight_bytes,context,concurrency,micro_batch,"
      "seq_len,tp,pp,dp,gpu,memory_bytes,devices,fits,used_fraction,total_bytes,peak_allocated_bytes,"
      "peak_reserved_bytes";
  fputs(head, o->f);
  for (size_t i = 0; i < N_CATS; i++) fprintf(o->f, ",%s_bytes", cat_cols[i]);
  fputs(",other_bytes,count,max_concurrency,max_context,max_micro_batch,max_seq_len,error\n", o->f);
  o->header_done = true;
}

static void row_categories(out *o, const vf_point *p, bool ok) {
  uint64_t sums[N_CATS + 1] = {0};
  for (size_t i = 0; ok && i < p->n_categories; i++) {
    size_t c = 0;
    while (c < N_CATS && strcmp(cat_cols[c], p->categories[i].name)) c++;
    sums[c] += p->categories[i].bytes;
  }
  char name[48];
  for (size_t c = 0; c <= N_CATS; c++) {
    snprintf(name, sizeof name, "%s_bytes", c < N_CATS ? cat_cols[c] : "other");
    field_u64(o, name, sums[c], ok);
  }
}

static void row_figures(out *o, const vf_point *p, bool ok) {
  const struct {
    const char *k;
    uint64_t v;
  } u[] = {{"params", p->params},
           {"weight_bytes", p->weight_bytes},
           {"context", p->context},
           {"concurrency", p->concurrency},
           {"micro_batch", p->micro_batch},
           {"seq_len", p->seq_len},
           {"tp", p->tp},
           {"pp", p->pp},
           {"dp", p->dp}};
  for (size_t i = 0; i < sizeof u / sizeof *u; i++) field_u64(o, u[i].k, u[i].v, ok);
  field_text(o, "gpu", ok ? p->gpu : NULL);
  field_u64(o, "memory_bytes", p->memory_bytes, ok);
  field_u64(o, "devices", p->devices, ok);
  key(o, "fits");
  if (ok)
    puts_(o, p->fits ? "true" : "false");
  else if (o->jsonl)
    puts_(o, "null");
  key(o, "used_fraction");
  char num[32];
  snprintf(num, sizeof num, "%.6f", p->used_fraction);
  puts_(o, ok ? num : o->jsonl ? "null" : "");
  field_u64(o, "total_bytes", p->total_bytes, ok);
  field_u64(o, "peak_allocated_bytes", p->peak_allocated_bytes, ok);
  field_u64(o, "peak_reserved_bytes", p->peak_reserved_bytes, ok);
}

static void write_row(out *o, const char *file, const vf_point *p) {
  bool ok = p->error == NULL, solved = ok && p->solved;
  if (!o->jsonl && !o->header_done) write_header(o);
  o->n = 0;
  field_text(o, "file", file);
  field_u64(o, "index", p->index + 1, true);
  field_text(o, "scenario", p->scenario);
  field_text(o, "axes", p->axes);
  const char *texts[][2] = {
      {"model", p->model_id}, {"arch", p->arch}, {"runtime", p->runtime}, {"kind", p->kind}};
  for (size_t i = 0; i < 4; i++) field_text(o, texts[i][0], ok ? texts[i][1] : NULL);
  row_figures(o, p, ok);
  row_categories(o, p, ok);
  field_u64(o, "count", p->count, solved);
  field_u64(o, "max_concurrency", p->max_concurrency, solved);
  field_u64(o, "max_context", p->max_context, solved);
  field_u64(o, "max_micro_batch", p->max_micro_batch, solved);
  field_u64(o, "max_seq_len", p->max_seq_len, solved);
  field_text(o, "error", p->error);
  puts_(o, o->jsonl ? "}\n" : "\n");
  fwrite(o->line, 1, o->n, o->f);
}

/* ---------------------------------------------------------------- pictures */

static void plot_row(rsvg *pl, const vf_point *p) {
  const char *names[64];
  uint64_t bytes[64];
  size_t n = p->n_categories < 64 ? p->n_categories : 64;
  for (size_t i = 0; !p->error && i < n; i++)
    names[i] = p->categories[i].name, bytes[i] = p->categories[i].bytes;
  rsvg_row r = {p->index + 1, p->scenario,     p->axes,        p->model_id,      p->gpu,
                p->error,     p->memory_bytes, p->total_bytes, p->used_fraction, p->fits,
                p->context,   p->concurrency,  p->micro_batch, p->seq_len,       names,
                bytes,        p->error ? 0 : n};
  rsvg_add(pl, &r);
}

static int write_file(const char *path, const char *text) {
  FILE *f = text ? fopen(path, "w") : NULL;
  bool ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) fprintf(stderr, "vramfit: batch: cannot write %s\n", path);
  return ok ? 0 : 2;
}

static int write_pictures(const opts *o, const rsvg *pl) {
  int rc = 0;
  for (int k = 0; o->svg && k < RSVG_COUNT; k++) {
    char path[4096];
    snprintf(path, sizeof path, "%s-%s.svg", o->svg, rsvg_kind_name((rsvg_kind)k));
    char *svg = rsvg_svg(pl, (rsvg_kind)k);
    rc |= write_file(path, svg);
    free(svg);
  }
  if (o->html) {
    char *html = rsvg_html(pl, "vramfit batch report");
    rc |= write_file(o->html, html);
    free(html);
  }
  return rc;
}

/* ---------------------------------------------------------------- progress */

typedef struct progress {
  bool on;
  size_t done, total;
  struct timespec start, last;
} progress;

static double since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void progress_draw(progress *pg, bool final) {
  if (!pg->on || (!final && since(&pg->last) < 0.1)) return;
  clock_gettime(CLOCK_MONOTONIC, &pg->last);
  double el = since(&pg->start), rate = el > 0 ? (double)pg->done / el : 0;
  double frac = pg->total ? (double)pg->done / (double)pg->total : 1;
  double eta = rate > 0 ? (double)(pg->total - pg->done) / rate : 0;
  char bar[31];
  for (int i = 0; i < 30; i++) bar[i] = i < (int)(frac * 30) ? '#' : '-';
  bar[30] = '\0';
  fprintf(stderr, "\r[%s] %3.0f%% %zu/%zu scenarios  %.0f/s  ETA %d:%02d%s", bar, frac * 100, pg->done,
          pg->total, rate, (int)eta / 60, (int)eta % 60, final ? "\n" : "");
  fflush(stderr);
}

/* ---------------------------------------------------------------- workers */

/* A row on the pipe: the struct (pointers rebuilt on arrival), then its strings and
** categories. index SIZE_MAX ends a chunk. */
enum { S_SCENARIO, S_AXES, S_ERROR, S_MODEL, S_ARCH, S_RUNTIME, S_KIND, S_GPU, N_STR };

static void send_str(FILE *f, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;
  fwrite(&n, sizeof n, 1, f);
  if (s) fwrite(s, 1, n, f);
}

static void send_row(FILE *f, const vf_point *p) {
  fwrite(p, sizeof *p, 1, f);
  const char *s[N_STR] = {p->scenario, p->axes, p->error, p->model_id, p->arch, p->runtime, p->kind, p->gpu};
  for (int i = 0; i < N_STR; i++) send_str(f, s[i]);
  for (size_t i = 0; i < p->n_categories; i++) {
    fwrite(&p->categories[i].bytes, sizeof(uint64_t), 1, f);
    send_str(f, p->categories[i].name);
  }
}

typedef struct wrow {
  vf_point p;
  char *s[N_STR];
  vf_category cats[64];
  char *names[64];
} wrow;

static char *recv_str(FILE *f, bool *ok) {
  uint32_t n;
  if (fread(&n, sizeof n, 1, f) != 1) return *ok = false, NULL;
  if (n == UINT32_MAX) return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, n, f) != n) return free(s), *ok = false, NULL;
  s[n] = '\0';
  return s;
}

static void wrow_free(wrow *w) {
  for (int i = 0; i < N_STR; i++) free(w->s[i]), w->s[i] = NULL;
  for (size_t i = 0; i < w->p.n_categories && i < 64; i++) free(w->names[i]), w->names[i] = NULL;
}

/* 1: a row, 0: the chunk's end, -1: the worker died. */
static int recv_row(FILE *f, wrow *w) {
  bool ok = true;
  if (fread(&w->p, sizeof w->p, 1, f) != 1) return -1;
  if (w->p.index == SIZE_MAX) return 0;
  for (int i = 0; i < N_STR; i++) w->s[i] = recv_str(f, &ok);
  if (w->p.n_categories > 64) return -1;
  for (size_t i = 0; i < w->p.n_categories; i++) {
    ok = ok && fread(&w->cats[i].bytes, sizeof(uint64_t), 1, f) == 1;
    w->names[i] = recv_str(f, &ok);
    w->cats[i] = (vf_category){w->names[i] ? w->names[i] : "", NULL, w->cats[i].bytes, "", ""};
  }
  w->p.scenario = w->s[S_SCENARIO], w->p.axes = w->s[S_AXES], w->p.error = w->s[S_ERROR];
  w->p.model_id = w->s[S_MODEL], w->p.arch = w->s[S_ARCH], w->p.runtime = w->s[S_RUNTIME];
  w->p.kind = w->s[S_KIND], w->p.gpu = w->s[S_GPU], w->p.categories = w->cats;
  return ok ? 1 : -1;
}

static void worker(vf_batch *b, FILE *f, size_t w, size_t jobs, bool fail_fast) {
  size_t n = vf_batch_count(b);
  vf_point end = {.index = SIZE_MAX};
  for (size_t c = w; c * CHUNK < n; c += jobs) {
    bool stop = false;
    for (size_t i = c * CHUNK; i < n && i < (c + 1) * CHUNK && !stop; i++) {
      const vf_point *rows;
      size_t nr;
      stop = vf_batch_eval(b, i, &rows, &nr) != VF_OK && fail_fast;
      for (size_t r = 0; r < nr; r++) send_row(f, &rows[r]);
    }
    fwrite(&end, sizeof end, 1, f);
    if (stop || ferror(f)) break;
  }
  fflush(f);
}

/* ---------------------------------------------------------------- running */

typedef struct run {
  const opts *o;
  out out;
  rsvg *plot;
  progress pg;
  int status;
  bool stopped;
} run;

/* Writes a row; false when --fail-fast ends the batch here. */
static bool emit(run *r, const char *file, const vf_point *p) {
  write_row(&r->out, file, p);
  if (r->plot) plot_row(r->plot, p);
  if (!p->error) return true;
  r->status = 2;
  return !r->o->fail_fast;
}

static void run_inline(run *r, vf_batch *b, const char *file) {
  size_t n = vf_batch_count(b);
  for (size_t i = 0; i < n && !r->stopped; i++) {
    const vf_point *rows;
    size_t nr;
    vf_batch_eval(b, i, &rows, &nr);
    for (size_t k = 0; k < nr && !r->stopped; k++) r->stopped = !emit(r, file, &rows[k]);
    r->pg.done++;
    progress_draw(&r->pg, false);
  }
}

/* Starts worker w; returns its read end, or NULL. */
static FILE *spawn(vf_batch *b, size_t w, size_t jobs, bool fail_fast, FILE **open, pid_t *pid) {
  int fd[2];
  if (pipe(fd) != 0) return NULL;
  fflush(NULL); /* nothing buffered is written twice */
  *pid = fork();
  if (*pid == 0) {
    for (size_t k = 0; k < w; k++) fclose(open[k]);
    close(fd[0]);
    FILE *f = fdopen(fd[1], "w");
    if (f) worker(b, f, w, jobs, fail_fast);
    _exit(f && fclose(f) == 0 ? 0 : 1);
  }
  close(fd[1]);
  if (*pid < 0) return close(fd[0]), NULL;
  return fdopen(fd[0], "r");
}

/* Reads chunk after chunk, each from the worker that made it, so rows keep the order. */
static void collect(run *r, FILE **in, size_t jobs, size_t chunks, const char *file) {
  wrow w = {0};
  for (size_t c = 0; c < chunks && !r->stopped; c++) {
    int got = 0;
    size_t last = SIZE_MAX;
    while (!r->stopped && (got = recv_row(in[c % jobs], &w)) == 1) {
      if (w.p.index != last) r->pg.done++, last = w.p.index;
      r->stopped = !emit(r, file, &w.p);
      wrow_free(&w);
      progress_draw(&r->pg, false);
    }
    if (!r->stopped && got < 0) {
      wrow_free(&w);
      fprintf(stderr, "vramfit: batch: a worker process ended early (%s)\n", file);
      r->status = 2, r->stopped = true;
    }
  }
}

static void run_jobs(run *r, vf_batch *b, const char *file) {
  size_t n = vf_batch_count(b), chunks = (n + CHUNK - 1) / CHUNK, jobs = (size_t)r->o->jobs;
  if (jobs > chunks) jobs = chunks ? chunks : 1;
  FILE *in[MAX_JOBS] = {NULL};
  pid_t pids[MAX_JOBS];
  size_t started = 0;
  for (; started < jobs; started++)
    if (!(in[started] = spawn(b, started, jobs, r->o->fail_fast, in, &pids[started]))) break;
  if (started < jobs) {
    fprintf(stderr, "vramfit: batch: cannot start %zu worker processes\n", jobs);
    r->status = 2, r->stopped = true;
  } else {
    collect(r, in, jobs, chunks, file);
  }
  for (size_t k = 0; k < started; k++) {
    if (r->stopped) kill(pids[k], SIGTERM);
    fclose(in[k]);
    waitpid(pids[k], NULL, 0);
  }
}

static void run_file(run *r, const vf_options *opt, const vf_request *req, const char *file) {
  vf_batch *b = NULL;
  char err[2048];
  if (vf_batch_open(opt, file, req, &b, err, sizeof err) != VF_OK) {
    fprintf(stderr, "vramfit: %s\n", err[0] ? err : "out of memory");
    r->status = 2;
    r->stopped = r->o->fail_fast;
    return;
  }
  r->pg.total += vf_batch_count(b);
  if (!r->plot && (r->o->html || r->o->svg)) r->plot = rsvg_new(vf_batch_count(b));
  if (r->o->jobs > 1)
    run_jobs(r, b, file);
  else
    run_inline(r, b, file);
  vf_batch_free(b);
}

/* VRAMFIT_PATH=dir1:dir2 and VRAMFIT_DATADIR, as the other commands read them. */
static char *env_options(vf_options *opt, const char **dirs, size_t max) {
  vf_options_init(opt);
  char *env = getenv("VRAMFIT_PATH") ? strdup(getenv("VRAMFIT_PATH")) : NULL;
  size_t n = 0;
  char *save = NULL;
  for (char *t = env ? strtok_r(env, ":", &save) : NULL; t && n + 1 < max; t = strtok_r(NULL, ":", &save))
    dirs[n++] = t;
  dirs[n] = NULL;
  opt->script_dirs = dirs;
  opt->data_dir = getenv("VRAMFIT_DATADIR");
  return env;
}

int cli_batch(int argc, char **argv) {
  opts o;
  if (parse(argc, argv, &o)) return 2;
  if (o.help) return fputs(usage, stdout), 0;
  FILE *f = o.output ? fopen(o.output, "w") : stdout;
  if (!f) return bad_usage("-o: cannot open for writing: ", o.output);
  const char *dirs[64];
  vf_options opt;
  char *env = env_options(&opt, dirs, 64);
  vf_request req = {o.sets, o.n_sets, o.gpus, o.n_gpus, VF_FORMAT_CSV, o.fit};
  run r = {.o = &o, .out = {.f = f, .jsonl = o.jsonl}};
  r.pg.on = o.progress == 1 || (o.progress < 0 && isatty(STDERR_FILENO));
  clock_gettime(CLOCK_MONOTONIC, &r.pg.start);
  for (size_t k = 0; k < o.n_files && !r.stopped; k++) run_file(&r, &opt, &req, o.files[k]);
  progress_draw(&r.pg, true);
  if (!o.jsonl && !r.out.header_done && r.status == 0) write_header(&r.out);
  if ((o.output ? fclose(f) : fflush(f)) != 0) r.status = bad_usage("cannot write the output", NULL);
  if (r.plot && write_pictures(&o, r.plot)) r.status = 2;
  rsvg_free(r.plot);
  free(env);
  return r.status;
}
