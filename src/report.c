/*
** report.c: JSON, table and CSV reports (see report.h). Uses jansson for JSON,
** sbuf.c for text and units.c for GiB/GB columns.
*/
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "units.h"
#include "vramfit.h"

/* Bytes of the valid UTF-8 sequence at s (1 to 4), or 0 if it is not one: no overlong
** forms, no surrogates, nothing above U+10FFFF (RFC 3629, as jansson checks). */
static size_t utf8_seq(const unsigned char *s) {
  unsigned c = s[0];
  size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
  if (n == 0 || c == 0xc0 || c == 0xc1 || c > 0xf4) return 0;
  for (size_t i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
      (c == 0xf4 && s[1] > 0x8f))
    return 0;
  return n;
}

/* A JSON string of text that may not be valid UTF-8 (a scenario name, a note quoting a
** user's value, a name cut by a fixed-size buffer): each invalid byte becomes U+FFFD,
** so a field is never dropped (json_string() returns NULL on invalid UTF-8). */
static json_t *jstr(const char *s) {
  json_t *j = json_string(s);
  if (j || !s) return j;
  size_t n = strlen(s), o = 0;
  char *buf = malloc(3 * n + 1);
  if (!buf) return NULL;
  for (size_t i = 0; i < n;) {
    size_t k = utf8_seq((const unsigned char *)s + i);
    if (k == 0) {
      memcpy(buf + o, "\xef\xbf\xbd", 3);
      o += 3;
      i++;
      continue;
    }
    memcpy(buf + o, s + i, k);
    o += k;
    i += k;
  }
  buf[o] = '\0';
  j = json_string(buf);
  free(buf);
  return j;
}

static json_t *jint(uint64_t v) {
  return json_integer((json_int_t)v); /* estimate_run keeps every figure below 2^63 */
}

static json_t *json_model(const report_in *in) {
  json_t *o = json_object();
  json_object_set_new(o, "id", jstr(in->m->id));
  json_object_set_new(o, "arch", jstr(in->m->arch));
  json_object_set_new(o, "params", jint(in->e->params));
  json_object_set_new(o, "weight_bytes", jint(in->e->weight_bytes));
  json_object_set_new(o, "trainable_params", jint(in->e->trainable_params));
  json_object_set_new(o, "kv_bytes_per_token", jint(in->e->kv_bytes_per_token));
  json_object_set_new(o, "layers", jint(in->m->layers));
  json_object_set_new(o, "hidden", jint(in->m->hidden));
  return o;
}

static json_t *json_device(const report_in *in) {
  const estimate *e = in->e;
  json_t *cats = json_array();
  for (int i = 0; i < e->b.n; i++) {
    const budget_item *it = &e->b.items[i];
    json_t *c = json_object();
    json_object_set_new(c, "name", json_string(it->name));
    if (it->component) json_object_set_new(c, "component", jstr(it->component));
    json_object_set_new(c, "bytes", jint(it->bytes));
    json_object_set_new(c, "basis", json_string(basis_name(it->basis)));
    json_object_set_new(c, "detail", jstr(it->detail));
    json_array_append_new(cats, c);
  }
  json_t *d = json_object();
  json_object_set_new(d, "role", json_string(in->e->host_backend ? "host" : "gpu"));
  json_object_set_new(d, "gpu", jstr(in->g->name));
  json_object_set_new(d, "memory_bytes", jint(in->g->memory));
  json_object_set_new(d, "count", jint(e->devices));
  json_object_set_new(d, "categories", cats);
  json_object_set_new(d, "total_bytes", jint(e->total));
  json_object_set_new(d, "peak_allocated_bytes", jint(e->peak_allocated));
  json_object_set_new(d, "peak_reserved_bytes", jint(e->peak_reserved));
  json_object_set_new(d, "peak_phase", json_string(e->peak_phase));
  return d;
}

static json_t *json_runtime(const report_in *in) {
  json_t *r = json_object();
  json_object_set_new(r, "name", jstr(in->s->runtime));
  json_object_set_new(r, "peak_allocated_bytes", jint(in->e->peak_allocated));
  json_object_set_new(r, "peak_reserved_bytes", jint(in->e->peak_reserved));
  json_object_set_new(r, "peak_phase", json_string(in->e->peak_phase));
  for (int i = 0; i < in->e->n_figs; i++) {
    const est_figure *f = &in->e->figs[i];
    json_object_set_new(r, f->name, f->is_real ? json_real(f->real) : jint(f->value));
  }
  return r;
}

/* The max_* keys follow the workload's kind, not which figures are non-zero: a row where
** nothing fits (all 0) said max_micro_batch / max_seq_len for inference and video too. */
static json_t *json_fit_row(const fit_row *f, wl_kind kind) {
  json_t *o = json_object();
  json_object_set_new(o, "gpu", jstr(f->g.name));
  json_object_set_new(o, "memory_bytes", jint(f->g.memory));
  json_object_set_new(o, "usable_bytes", jint(f->usable));
  json_object_set_new(o, "count", jint(f->count));
  json_object_set_new(o, "layout", jstr(f->layout));
  json_object_set_new(o, "fits", json_boolean(f->fits));
  json_object_set_new(o, "used_fraction", json_real(f->used_fraction));
  json_object_set_new(o, "total_bytes", jint(f->total));
  if (f->launch[0]) json_object_set_new(o, "launch", jstr(f->launch));
  if (kind == WL_IMAGE || kind == WL_VIDEO) {
    json_object_set_new(o, "max_width", jint(f->max_width));
    json_object_set_new(o, "max_height", jint(f->max_height));
    if (kind == WL_VIDEO) json_object_set_new(o, "max_frames", jint(f->max_frames));
  } else if (kind == WL_INFERENCE) {
    json_object_set_new(o, "max_concurrency", jint(f->max_concurrency));
    json_object_set_new(o, "max_context", jint(f->max_context));
  } else {
    json_object_set_new(o, "max_micro_batch", jint(f->max_micro_batch));
    json_object_set_new(o, "max_seq_len", jint(f->max_seq_len));
  }
  return o;
}

json_t *report_json(const report_in *in) {
  json_t *o = json_object();
  if (!o) return NULL;
  json_object_set_new(o, "vramfit", json_string(VF_VERSION_STRING));
  json_object_set_new(o, "scenario", jstr(in->s->name));
  json_object_set_new(o, "model", json_model(in));
  json_t *devs = json_array();
  json_array_append_new(devs, json_device(in));
  json_object_set_new(o, "devices", devs);
  json_object_set_new(o, "runtime", json_runtime(in));
  json_t *fit = json_array();
  for (size_t i = 0; i < in->n_rows; i++) json_array_append_new(fit, json_fit_row(&in->rows[i], in->s->kind));
  json_object_set_new(o, "fit", fit);
  json_t *notes = json_array();
  for (int i = 0; i < in->s->n_notes; i++) json_array_append_new(notes, jstr(in->s->notes[i]));
  json_object_set_new(o, "assumptions", notes);
  json_object_set_new(o, "warnings", json_array());
  return o;
}

static void table_header(sbuf *b, const report_in *in) {
  char grouped[40], iec[32], si[32];
  units_format_grouped(in->e->params, grouped, sizeof grouped);
  sbuf_printf(b, "vramfit %s: %s\n\n", VF_VERSION_STRING, in->s->name);
  sbuf_printf(b, "model     %s (%s), %s parameters\n", in->m->id, in->m->arch, grouped);
  units_format_grouped(in->e->weight_bytes, grouped, sizeof grouped);
  units_format_iec(in->e->weight_bytes, iec, sizeof iec);
  units_format_si(in->e->weight_bytes, si, sizeof si);
  sbuf_printf(b, "weights   %s B = %s = %s\n", grouped, iec, si);
  units_format_iec(in->g->memory, iec, sizeof iec);
  const char *kind = in->s->kind == WL_TRAIN   ? "training"
                     : in->s->kind == WL_IMAGE ? "image generation"
                     : in->s->kind == WL_VIDEO ? "video generation"
                                               : "inference";
  if (in->e->host_backend) {
    char mem[48] = ""; /* the machine's RAM when the scenario gives it */
    if (in->g->memory) snprintf(mem, sizeof mem, " (%s)", iec);
    sbuf_printf(b, "device    host memory%s, CPU backend, %s on %s, peak in %s\n\n", mem, kind, in->s->runtime,
                in->e->peak_phase);
  } else
    sbuf_printf(b, "device    %s (%s), %llu GPU%s, %s on %s, peak in %s\n\n", in->g->name, iec,
                (unsigned long long)in->e->devices, in->e->devices == 1 ? "" : "s", kind, in->s->runtime,
                in->e->peak_phase);
}

static void table_line(sbuf *b, int width, const char *name, uint64_t bytes, const char *basis, const char *detail) {
  sbuf_printf(b, "%-*s %9.2f %9.2f  %-10s %s\n", width, name, units_gib(bytes), units_gb(bytes), basis, detail);
}

static void table_budget(sbuf *b, const report_in *in) {
  const estimate *e = in->e;
  /* the name column is 18 wide, or as wide as the longest category shown
  ** (paged_optimizer_states is 22), so the figures stay in their columns */
  int width = 18;
  for (int i = 0; i < e->b.n; i++) {
    size_t len = strlen(e->b.items[i].name);
    if (e->b.items[i].bytes && len > (size_t)width && len < 64) width = (int)len;
  }
  sbuf_printf(b, "%-*s %9s %9s  %-10s %s\n", width, e->host_backend ? "category (host)" : "category (per GPU)", "GiB",
              "GB", "basis", "how");
  for (int i = 0; i < e->b.n; i++) {
    const budget_item *it = &e->b.items[i];
    if (it->bytes == 0) continue;
    table_line(b, width, it->name, it->bytes, basis_name(it->basis), it->detail);
  }
  for (int i = 0; i < 72 + width - 18; i++) sbuf_printf(b, "-");
  sbuf_printf(b, "\n");
  table_line(b, width, "peak allocated", e->peak_allocated, "",
             e->allocated_label ? e->allocated_label : "torch.cuda.max_memory_allocated()");
  table_line(b, width, "peak reserved", e->peak_reserved, "",
             e->reserved_label ? e->reserved_label : "torch.cuda.max_memory_reserved()");
  table_line(b, width, "total", e->total, "", e->total_label ? e->total_label : "what nvidia-smi shows");
}

/* image/video: whether the scenario as given fits, the least offload mode that fits, and
** how far that mode goes */
static void table_fit_gen(sbuf *b, const report_in *in) {
  bool video = in->s->kind == WL_VIDEO;
  sbuf_printf(b, "\n%-28s %9s %5s %7s %-20s %14s %10s\n", "fit (headroom kept free)", "GiB", "as is", "used",
              "fits with", "max size", video ? "max frames" : "");
  for (size_t i = 0; i < in->n_rows; i++) {
    const fit_row *f = &in->rows[i];
    char size[32] = "-";
    if (f->max_width) snprintf(size, sizeof size, "%llux%llu", (unsigned long long)f->max_width,
                               (unsigned long long)f->max_height);
    sbuf_printf(b, "%-28s %9.2f %5s %6.1f%% %-20s %14s", f->g.name, units_gib(f->g.memory), f->fits ? "yes" : "no",
                f->used_fraction * 100.0, f->layout, size);
    if (video) sbuf_printf(b, " %10llu", (unsigned long long)f->max_frames);
    sbuf_printf(b, "\n");
  }
}

static void table_fit(sbuf *b, const report_in *in) {
  if (in->n_rows == 0) return; /* nothing to judge against (a CPU run without its host memory) */
  if (in->s->kind == WL_IMAGE || in->s->kind == WL_VIDEO) {
    table_fit_gen(b, in);
    return;
  }
  bool inf = in->s->kind == WL_INFERENCE;
  /* the layout column is 10 wide, or as wide as its longest entry ("needs a sharded strategy",
  ** "kv pool < 1 request"), so the figures after it stay in their columns */
  int width = 10;
  for (size_t i = 0; i < in->n_rows; i++) {
    size_t len = strlen(in->rows[i].layout);
    if (len > (size_t)width && len < sizeof in->rows[i].layout) width = (int)len;
  }
  sbuf_printf(b, "\n%-28s %9s %5s %7s %6s %-*s %12s %12s\n", "fit (headroom kept free)", "GiB", "fits", "used",
              "count", width, "layout", inf ? "max seqs" : "max batch", inf ? "max context" : "max seq_len");
  for (size_t i = 0; i < in->n_rows; i++) {
    const fit_row *f = &in->rows[i];
    sbuf_printf(b, "%-28s %9.2f %5s %6.1f%% %6llu %-*s %12llu %12llu%s%s\n", f->g.name, units_gib(f->g.memory),
                f->fits ? "yes" : "no", f->used_fraction * 100.0, (unsigned long long)f->count, width,
                (f->count || f->layout[0]) ? f->layout : "-", (unsigned long long)(inf ? f->max_concurrency : f->max_micro_batch),
                (unsigned long long)(inf ? f->max_context : f->max_seq_len), f->launch[0] ? "  " : "", f->launch);
  }
}

char *report_table(const report_in *in) {
  sbuf b = {0};
  table_header(&b, in);
  table_budget(&b, in);
  table_fit(&b, in);
  if (in->s->n_notes) sbuf_printf(&b, "\nassumptions:\n");
  for (int i = 0; i < in->s->n_notes; i++) sbuf_printf(&b, "  - %s\n", in->s->notes[i]);
  return sbuf_take(&b);
}

/* A CSV field: quoted, with quotes doubled, when it holds a comma, quote or newline. */
static void csv_field(sbuf *b, const char *s) {
  if (!strpbrk(s, ",\"\n\r")) {
    sbuf_printf(b, "%s", s);
    return;
  }
  sbuf_printf(b, "\"");
  for (; *s; s++) sbuf_printf(b, *s == '"' ? "\"\"" : "%c", *s);
  sbuf_printf(b, "\"");
}

/* The peaks and category columns are the estimate's, made on the report's GPU: a fit row
** for another GPU leaves them empty rather than repeat that GPU's figures beside its own
** total (vLLM's KV cache grows with the GPU; `vramfit batch` gives every row its own). */
char *report_csv(const report_in *in) {
  sbuf b = {0};
  const estimate *e = in->e;
  sbuf_printf(&b, "scenario,model,arch,params,weight_bytes,gpu,memory_bytes,fits,count,used_fraction,total_bytes,"
                  "peak_allocated_bytes,peak_reserved_bytes,kv_cache_bytes,activations_bytes,max_concurrency,"
                  "max_context,max_micro_batch,max_seq_len\n");
  for (size_t i = 0; i < in->n_rows; i++) {
    const fit_row *f = &in->rows[i];
    bool own = strcmp(f->g.name, in->g->name) == 0 && f->g.memory == in->g->memory;
    csv_field(&b, in->s->name);
    sbuf_printf(&b, ",");
    csv_field(&b, in->m->id);
    sbuf_printf(&b, ",");
    csv_field(&b, in->m->arch);
    sbuf_printf(&b, ",%llu,%llu,", (unsigned long long)e->params, (unsigned long long)e->weight_bytes);
    csv_field(&b, f->g.name);
    sbuf_printf(&b, ",%llu,%s,%llu,%.4f,%llu,", (unsigned long long)f->g.memory, f->fits ? "true" : "false",
                (unsigned long long)f->count, f->used_fraction, (unsigned long long)f->total);
    if (own)
      sbuf_printf(&b, "%llu,%llu,%llu,%llu", (unsigned long long)e->peak_allocated,
                  (unsigned long long)e->peak_reserved, (unsigned long long)budget_get(&e->b, "kv_cache"),
                  (unsigned long long)budget_get(&e->b, "activations"));
    else
      sbuf_printf(&b, ",,,");
    sbuf_printf(&b, ",%llu,%llu,%llu,%llu\n", (unsigned long long)f->max_concurrency,
                (unsigned long long)f->max_context, (unsigned long long)f->max_micro_batch,
                (unsigned long long)f->max_seq_len);
  }
  return sbuf_take(&b);
}
