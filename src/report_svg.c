/*
** report_svg.c: batch pictures as SVG and one self-contained HTML page (see
** report_svg.h). Keeps at most MAX_SERIES lines of MAX_PTS points, MAX_BARS sampled
** scenarios and a MAX_MODELS x MAX_GPUS matrix, whatever the batch's size. Standard C
** only: no engine, no script in the output, nothing fetched.
*/
#include "report_svg.h"

#define GIB 1073741824.0 /* the command side uses only the public header, not src/bytes.h */

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERIES 10
#define MAX_PTS 512
#define MAX_GPUS 16
#define MAX_BARS 40
#define MAX_MODELS 24
#define MAX_CATS 24

typedef struct pt {
  double x;
  uint64_t y;
} pt;
typedef struct series {
  char *key;
  pt v[MAX_PTS];
  size_t n;
} series;
typedef struct gpuline {
  char *name;
  uint64_t mem;
} gpuline;
typedef struct bar {
  size_t index;
  char *name, *gpu;
  uint64_t mem, total, cat[MAX_CATS];
} bar;
typedef struct cell {
  double worst;
  size_t n, fit;
} cell;

struct rsvg {
  size_t expected, stride, rows, errors, dropped;
  int xfield; /* -1 until a numeric workload axis is seen */
  series *s[MAX_SERIES];
  size_t n_series;
  gpuline g[MAX_GPUS];
  size_t n_gpus;
  char *cats[MAX_CATS];
  size_t n_cats;
  bar bars[MAX_BARS];
  size_t n_bars;
  char *models[MAX_MODELS];
  size_t n_models;
  cell m[MAX_MODELS][MAX_GPUS];
};

static const char *const xaxes[] = {"workload.context", "workload.concurrency", "workload.micro_batch",
                                    "workload.seq_len"};
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                      "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b"};
#define NPAL (sizeof palette / sizeof *palette)

const char *rsvg_kind_name(rsvg_kind kind) {
  static const char *const names[] = {"lines", "bars", "matrix"};
  return (unsigned)kind < RSVG_COUNT ? names[kind] : "picture";
}

rsvg *rsvg_new(size_t expected) {
  rsvg *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->expected = expected;
  p->stride = expected > MAX_BARS ? (expected + MAX_BARS - 1) / MAX_BARS : 1;
  p->xfield = -1;
  return p;
}

void rsvg_free(rsvg *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n_series; i++) free(p->s[i]->key), free(p->s[i]);
  for (size_t i = 0; i < p->n_gpus; i++) free(p->g[i].name);
  for (size_t i = 0; i < p->n_cats; i++) free(p->cats[i]);
  for (size_t i = 0; i < p->n_bars; i++) free(p->bars[i].name), free(p->bars[i].gpu);
  for (size_t i = 0; i < p->n_models; i++) free(p->models[i]);
  free(p);
}

/* ---------------------------------------------------------------- collecting */

/* Index of name in list (n entries, at most max), added when absent; -1 if full. */
static int intern(char **list, size_t *n, size_t max, const char *name) {
  for (size_t i = 0; i < *n; i++)
    if (strcmp(list[i], name) == 0) return (int)i;
  if (*n >= max || !(list[*n] = strdup(name))) return -1;
  return (int)(*n)++;
}

static int gpu_slot(rsvg *p, const rsvg_row *r) {
  for (size_t i = 0; i < p->n_gpus; i++)
    if (strcmp(p->g[i].name, r->gpu) == 0) return (int)i;
  if (p->n_gpus >= MAX_GPUS || !(p->g[p->n_gpus].name = strdup(r->gpu))) return -1;
  p->g[p->n_gpus].mem = r->memory_bytes;
  return (int)p->n_gpus++;
}

/* Does axes hold "path=" as one of its comma-separated entries? */
static const char *axis_entry(const char *axes, const char *path) {
  size_t n = strlen(path);
  for (const char *a = axes; a && *a; a = strchr(a, ',') ? strchr(a, ',') + 1 : NULL)
    if (strncmp(a, path, n) == 0 && a[n] == '=') return a;
  return NULL;
}

/* The series a row belongs to: its axes without the x axis and the GPU. */
static void series_key(const rsvg *p, const rsvg_row *r, char *out, size_t size) {
  size_t len = 0;
  out[0] = '\0';
  if (!r->axes || !*r->axes) {
    snprintf(out, size, "%s", r->model ? r->model : "scenario");
    return;
  }
  for (const char *a = r->axes; a && *a; a = strchr(a, ',') ? strchr(a, ',') + 1 : NULL) {
    size_t n = strcspn(a, ",");
    size_t xl = strlen(xaxes[p->xfield]);
    int skip = strncmp(a, "gpu=", 4) == 0 || (strncmp(a, xaxes[p->xfield], xl) == 0 && a[xl] == '=');
    if (skip || len + n + 2 >= size) continue;
    len += (size_t)snprintf(out + len, size - len, "%s%.*s", len ? "," : "", (int)n, a);
  }
  if (!len) snprintf(out, size, "%s", r->model ? r->model : "all");
}

static uint64_t x_value(const rsvg *p, const rsvg_row *r) {
  const uint64_t v[] = {r->context, r->concurrency, r->micro_batch, r->seq_len};
  return v[p->xfield];
}

/* Adds (x, y) to a series kept sorted by x; the largest y over GPUs for one x. */
static void series_put(series *s, double x, uint64_t y) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->v[mid].x < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < s->n && s->v[lo].x == x) {
    if (y > s->v[lo].y) s->v[lo].y = y;
    return;
  }
  if (s->n >= MAX_PTS) return;
  memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof *s->v);
  s->v[lo] = (pt){x, y};
  s->n++;
}

static int add_line(rsvg *p, const rsvg_row *r) {
  if (p->xfield < 0)
    for (int i = 0; i < 4 && p->xfield < 0; i++)
      if (axis_entry(r->axes, xaxes[i])) p->xfield = i;
  if (p->xfield < 0) return 0;
  char key[512];
  series_key(p, r, key, sizeof key);
  series *s = NULL;
  for (size_t i = 0; i < p->n_series && !s; i++)
    if (strcmp(p->s[i]->key, key) == 0) s = p->s[i];
  if (!s && p->n_series >= MAX_SERIES) return p->dropped++, 0;
  if (!s) {
    if (!(s = calloc(1, sizeof *s)) || !(s->key = strdup(key))) return free(s), -1;
    p->s[p->n_series++] = s;
  }
  series_put(s, (double)x_value(p, r), r->total_bytes);
  return 0;
}

static int add_bar(rsvg *p, const rsvg_row *r) {
  if (p->n_bars >= MAX_BARS || (r->index - 1) % p->stride != 0) return 0;
  if (p->n_bars && p->bars[p->n_bars - 1].index == r->index) return 0; /* one GPU per scenario */
  bar *b = &p->bars[p->n_bars];
  memset(b, 0, sizeof *b);
  b->index = r->index, b->mem = r->memory_bytes, b->total = r->total_bytes;
  for (size_t i = 0; i < r->n_cats; i++) {
    if (!r->cat_bytes[i]) continue;
    int c = intern(p->cats, &p->n_cats, MAX_CATS, r->cat_names[i]);
    if (c >= 0) b->cat[c] += r->cat_bytes[i];
  }
  if (!(b->name = strdup(r->scenario ? r->scenario : "")) || !(b->gpu = strdup(r->gpu))) {
    free(b->name);
    return -1;
  }
  p->n_bars++;
  return 0;
}

static void add_cell(rsvg *p, const rsvg_row *r, int g) {
  int m = intern(p->models, &p->n_models, MAX_MODELS, r->model ? r->model : "?");
  if (m < 0 || g < 0) return;
  cell *c = &p->m[m][g];
  if (!c->n || r->used_fraction > c->worst) c->worst = r->used_fraction;
  c->n++;
  c->fit += r->fits != 0;
}

int rsvg_add(rsvg *p, const rsvg_row *r) {
  p->rows++;
  if (r->error && *r->error) return p->errors++, 0;
  if (!r->gpu) return 0;
  int g = gpu_slot(p, r);
  add_cell(p, r, g);
  int rc = add_line(p, r);
  return add_bar(p, r) || rc ? -1 : 0;
}

/* ---------------------------------------------------------------- text */

typedef struct buf {
  char *s;
  size_t n, cap;
  bool oom;
} buf;

static void bput(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(buf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (b->s && b->n + (size_t)n < b->cap) {
      b->n += (size_t)n;
      return;
    }
    size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = true;
      return;
    }
    b->s = s, b->cap = cap;
  }
}

/* XML-escaped text, cut to at most max characters (0: whole). */
static void besc(buf *b, const char *t, size_t max) {
  size_t len = strlen(t ? t : "");
  for (size_t i = 0; t && t[i]; i++) {
    if (max && i == max - 1 && len > max) {
      bput(b, "…");
      return;
    }
    switch (t[i]) {
      case '&':
        bput(b, "&amp;");
        break;
      case '<':
        bput(b, "&lt;");
        break;
      case '>':
        bput(b, "&gt;");
        break;
      case '"':
        bput(b, "&quot;");
        break;
      default:
        bput(b, "%c", t[i]);
    }
  }
}

static char *btake(buf *b) {
  if (b->oom) {
    free(b->s);
    return NULL;
  }
  return b->s ? b->s : strdup("");
}

static void svg_open(buf *b, const char *id, int w, int h, const char *title) {
  bput(b,
       "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
       "font-family=\"sans-serif\" font-size=\"12\" role=\"img\"><title>",
       id, w, h, w, h);
  besc(b, title, 0);
  bput(b, "</title><rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>", w, h);
}

/* A step of 1, 2 or 5 x 10^k GiB that cuts [0, max] into about n parts. */
static double nice_step(double max, int n) {
  double raw = max / n, mag = pow(10, floor(log10(raw > 0 ? raw : 1)));
  double f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void y_grid(buf *b, double ymax_gib, int x0, int x1, int y0, int y1) {
  double step = nice_step(ymax_gib, 5);
  for (double v = 0; v <= ymax_gib + 1e-9; v += step) {
    double y = y1 - (v / ymax_gib) * (y1 - y0);
    bput(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>", x0, x1, y, y);
    bput(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g GiB</text>", x0 - 6, y + 4, v);
  }
}

/* ---------------------------------------------------------------- lines */

typedef struct frame {
  double xmin, xmax, ymax;
  bool logx;
  int x0, x1, y0, y1;
} frame;

static double fx(const frame *f, double x) {
  double t = f->logx ? (log2(x) - log2(f->xmin)) / (log2(f->xmax) - log2(f->xmin))
                     : (x - f->xmin) / (f->xmax - f->xmin);
  return f->x0 + (f->xmax > f->xmin ? t : 0.5) * (f->x1 - f->x0);
}

static double fy(const frame *f, double bytes) {
  return f->y1 - bytes / GIB / f->ymax * (f->y1 - f->y0);
}

static frame lines_frame(const rsvg *p, int w, int h) {
  frame f = {INFINITY, -INFINITY, 1, false, 80, w - 170, 20, h - 50};
  for (size_t i = 0; i < p->n_series; i++)
    for (size_t k = 0; k < p->s[i]->n; k++) {
      const pt *q = &p->s[i]->v[k];
      if (q->x < f.xmin) f.xmin = q->x;
      if (q->x > f.xmax) f.xmax = q->x;
      if (q->y / GIB > f.ymax) f.ymax = q->y / GIB;
    }
  for (size_t i = 0; i < p->n_gpus; i++)
    if (p->g[i].mem / GIB > f.ymax) f.ymax = p->g[i].mem / GIB;
  f.ymax *= 1.05;
  f.logx = f.xmin > 0 && f.xmax / f.xmin >= 16;
  return f;
}

static void x_ticks(buf *b, const frame *f, const series *s) {
  size_t every = s->n > 10 ? (s->n + 9) / 10 : 1;
  for (size_t k = 0; k < s->n; k += every)
    bput(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>", fx(f, s->v[k].x), f->y1 + 16,
         s->v[k].x);
}

/* Dashed capacity lines, labels pushed apart where GPUs have about the same memory. */
static void capacity_lines(buf *b, const rsvg *p, const frame *f) {
  size_t order[MAX_GPUS];
  for (size_t i = 0; i < p->n_gpus; i++) order[i] = i;
  for (size_t i = 1; i < p->n_gpus; i++) /* largest memory (highest line) first */
    for (size_t k = i; k > 0 && p->g[order[k]].mem > p->g[order[k - 1]].mem; k--) {
      size_t t = order[k];
      order[k] = order[k - 1], order[k - 1] = t;
    }
  double last = -100;
  for (size_t i = 0; i < p->n_gpus; i++) {
    const gpuline *g = &p->g[order[i]];
    double y = fy(f, (double)g->mem), ty = y + 4 < last + 14 ? last + 14 : y + 4;
    last = ty;
    bput(b,
         "<g class=\"capacity\"><line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
         "stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%.1f\">",
         f->x0, f->x1, y, y, f->x1 + 6, ty);
    besc(b, g->name, 24);
    bput(b, "</text></g>");
  }
}

static void legend(buf *b, int x, int y, const char *const *names, size_t n, const char *const *colors,
                   size_t nc) {
  for (size_t i = 0; i < n; i++) {
    int yy = y + (int)i * 18;
    bput(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">", x, yy,
         colors[i % nc], x + 18, yy + 10);
    besc(b, names[i], 90);
    bput(b, "</text>");
  }
}

static void lines_svg(buf *b, const rsvg *p) {
  int w = 820, h = 440 + 18 * (int)p->n_series;
  frame f = lines_frame(p, w, 420);
  svg_open(b, "vf-lines", w, h, "memory against a swept axis, each GPU's capacity dashed");
  if (p->xfield < 0 || !p->n_series) {
    bput(b,
         "<text x=\"20\" y=\"40\">no workload axis (context, concurrency, micro_batch, seq_len) was "
         "swept</text></svg>");
    return;
  }
  y_grid(b, f.ymax, f.x0, f.x1, f.y0, f.y1);
  x_ticks(b, &f, p->s[0]);
  bput(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%s</text>", (f.x0 + f.x1) / 2, f.y1 + 36,
       xaxes[p->xfield], f.logx ? " (log scale)" : "");
  capacity_lines(b, p, &f);
  const char *names[MAX_SERIES];
  for (size_t i = 0; i < p->n_series; i++) {
    const series *s = p->s[i];
    names[i] = s->key;
    bput(b, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
         palette[i % NPAL]);
    for (size_t k = 0; k < s->n; k++)
      bput(b, "%s%.1f,%.1f", k ? " " : "", fx(&f, s->v[k].x), fy(&f, (double)s->v[k].y));
    bput(b, "\"><title>");
    besc(b, s->key, 0);
    bput(b, "</title></polyline>");
  }
  legend(b, f.x0, 430, names, p->n_series, palette, NPAL);
  bput(b, "</svg>");
}

/* ---------------------------------------------------------------- bars */

static void bar_rects(buf *b, const rsvg *p, const bar *r, double x, const frame *f) {
  double y = f->y1;
  for (size_t c = 0; c < p->n_cats; c++) {
    if (!r->cat[c]) continue;
    double hgt = (double)r->cat[c] / GIB / f->ymax * (f->y1 - f->y0);
    y -= hgt;
    bput(b, "<rect class=\"cat\" x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.2f\" fill=\"%s\"><title>", x,
         y, hgt, palette[c % NPAL]);
    besc(b, p->cats[c], 0);
    bput(b, ": %.2f GiB</title></rect>", (double)r->cat[c] / GIB);
  }
  double cy = fy(f, (double)r->mem);
  bput(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\"><title>",
       x - 3, x + 17, cy, cy);
  besc(b, r->gpu, 0);
  bput(b, " capacity</title></line>");
}

static void bars_svg(buf *b, const rsvg *p) {
  int n = (int)p->n_bars, w = 100 + 22 * (n > 20 ? n : 20) + 200, h = 420;
  frame f = {0, 1, 1, false, 80, w - 200, 20, h - 60};
  for (size_t i = 0; i < p->n_bars; i++) {
    double t = (double)(p->bars[i].total > p->bars[i].mem ? p->bars[i].total : p->bars[i].mem) / GIB;
    if (t > f.ymax) f.ymax = t;
  }
  f.ymax *= 1.05;
  if (24 + 18 * (int)p->n_cats > h) h = 24 + 18 * (int)p->n_cats;
  svg_open(b, "vf-bars", w, h, "memory by category per scenario, the GPU's capacity marked");
  y_grid(b, f.ymax, f.x0, f.x1, f.y0, f.y1);
  for (size_t i = 0; i < p->n_bars; i++) {
    const bar *r = &p->bars[i];
    double x = f.x0 + 8 + 22.0 * (double)i;
    bput(b, "<g class=\"bar\"><title>");
    besc(b, r->name, 0);
    bput(b, " on ");
    besc(b, r->gpu, 0);
    bput(b, ": %.2f GiB</title>", (double)r->total / GIB);
    bar_rects(b, p, r, x, &f);
    bput(b, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%zu</text></g>", x + 7,
         f.y1 + 14, r->index);
  }
  bput(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">scenario number</text>", (f.x0 + f.x1) / 2,
       f.y1 + 36);
  legend(b, f.x1 + 20, 24, (const char *const *)p->cats, p->n_cats, palette, NPAL);
  bput(b, "</svg>");
}

/* ---------------------------------------------------------------- matrix */

/* Headroom = 1 - the worst used fraction over the model's scenarios on that GPU. */
static const char *cell_color(const cell *c) {
  if (!c->n) return "#f0f0f0";
  if (c->fit == 0) return "#d73027";
  if (c->fit < c->n) return "#fc8d59";
  if (1 - c->worst < 0.2) return "#fee08b";
  return 1 - c->worst < 0.5 ? "#91cf60" : "#1a9850";
}

static void matrix_cells(buf *b, const rsvg *p, size_t m, int y) {
  for (size_t g = 0; g < p->n_gpus; g++) {
    const cell *c = &p->m[m][g];
    int x = 270 + (int)g * 120;
    bput(b, "<g class=\"cell\"><rect x=\"%d\" y=\"%d\" width=\"116\" height=\"26\" fill=\"%s\"/>", x, y,
         cell_color(c));
    if (c->n)
      bput(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.0f%% · %zu/%zu fit</text>", x + 58, y + 17,
           c->worst * 100, c->fit, c->n);
    bput(b, "</g>");
  }
}

static void matrix_svg(buf *b, const rsvg *p) {
  int w = 290 + 120 * (int)(p->n_gpus ? p->n_gpus : 1), h = 180 + 30 * (int)p->n_models;
  if (w < 620) w = 620;
  svg_open(b, "vf-matrix", w, h, "fit matrix: models x GPUs, coloured by headroom");
  for (size_t g = 0; g < p->n_gpus; g++) {
    bput(b, "<text x=\"%d\" y=\"30\" text-anchor=\"middle\">", 328 + (int)g * 120);
    besc(b, p->g[g].name, 18);
    bput(b, "</text><text x=\"%d\" y=\"46\" text-anchor=\"middle\" fill=\"#555\">%.1f GiB</text>",
         328 + (int)g * 120, (double)p->g[g].mem / GIB);
  }
  for (size_t m = 0; m < p->n_models; m++) {
    int y = 56 + (int)m * 30;
    bput(b, "<text x=\"262\" y=\"%d\" text-anchor=\"end\">", y + 17);
    besc(b, p->models[m], 40);
    bput(b, "<title>");
    besc(b, p->models[m], 0);
    bput(b, "</title></text>");
    matrix_cells(b, p, m, y);
  }
  static const char *const keys[] = {"fits, headroom >= 50%", "fits, headroom >= 20%", "fits, headroom < 20%",
                                     "some scenarios fit", "none fits"};
  static const char *const cols[] = {"#1a9850", "#91cf60", "#fee08b", "#fc8d59", "#d73027"};
  int y0 = 66 + 30 * (int)p->n_models;
  legend(b, 20, y0, keys, 5, cols, 5);
  bput(b,
       "<text x=\"20\" y=\"%d\" fill=\"#555\">cell: the worst used fraction over the scenarios, and how many "
       "fit with the scenario's headroom</text></svg>",
       y0 + 5 * 18 + 12);
}

/* ---------------------------------------------------------------- documents */

static void picture(buf *b, const rsvg *p, rsvg_kind kind) {
  if (kind == RSVG_LINES)
    lines_svg(b, p);
  else if (kind == RSVG_BARS)
    bars_svg(b, p);
  else
    matrix_svg(b, p);
}

char *rsvg_svg(const rsvg *p, rsvg_kind kind) {
  buf b = {0};
  bput(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  picture(&b, p, kind);
  bput(&b, "\n");
  return btake(&b);
}

char *rsvg_html(const rsvg *p, const char *title) {
  static const char *const heads[] = {"Memory against the swept axis", "Where the memory goes",
                                      "Which GPUs hold which models"};
  buf b = {0};
  bput(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
  besc(&b, title, 0);
  bput(&b,
       "</title><style>body{font-family:sans-serif;margin:24px;color:#222}"
       "section{margin:24px 0}svg{display:block;max-width:100%%;height:auto;border:1px solid #ddd}"
       "p.note{color:#555}</style></head><body><h1>");
  besc(&b, title, 0);
  bput(&b, "</h1><p id=\"vf-summary\">%zu rows, %zu failed scenarios, %zu GPUs, %zu models.</p>", p->rows,
       p->errors, p->n_gpus, p->n_models);
  for (int k = 0; k < RSVG_COUNT; k++) {
    bput(&b, "<section id=\"vf-%s-section\"><h2>%s</h2>", rsvg_kind_name((rsvg_kind)k), heads[k]);
    picture(&b, p, (rsvg_kind)k);
    bput(&b, "</section>");
  }
  if (p->dropped)
    bput(&b, "<p class=\"note\">%zu rows belong to series beyond the first %d and are not drawn.</p>",
         p->dropped, MAX_SERIES);
  bput(&b,
       "<p class=\"note\">Bars: every %zu%s scenario; lines: the largest total over the GPUs at each "
       "point.</p>"
       "</body></html>\n",
       p->stride, p->stride == 1 ? "" : "th");
  return btake(&b);
}
