/*
** report_svg.h: pictures of a batch (vramfit batch --svg / --html): memory against a
** swept axis with each GPU's capacity as a line, stacked category bars per scenario,
** and the fit matrix (models x GPUs) coloured by headroom. Rows are added as they
** stream by; what is kept is bounded (samples, capped series), so memory stays flat.
** Plain C, no engine: the command (src/cli_batch.c) feeds it batch rows.
*/
#ifndef VF_REPORT_SVG_H
#define VF_REPORT_SVG_H

#include <stddef.h>
#include <stdint.h>

typedef struct rsvg rsvg;

/* One batch row (one scenario on one GPU); strings are copied when kept. */
typedef struct rsvg_row {
  size_t index; /* scenario index, 1-based */
  const char *scenario, *axes, *model, *gpu, *error;
  uint64_t memory_bytes, total_bytes;
  double used_fraction;
  int fits;
  uint64_t context, concurrency, micro_batch, seq_len;
  const char *const *cat_names; /* category columns, e.g. "kv_cache" */
  const uint64_t *cat_bytes;
  size_t n_cats;
} rsvg_row;

typedef enum rsvg_kind { RSVG_LINES = 0, RSVG_BARS, RSVG_MATRIX, RSVG_COUNT } rsvg_kind;

/* expected: scenarios the batch will have (to sample the bars evenly); 0 if unknown. */
rsvg *rsvg_new(size_t expected);
void rsvg_free(rsvg *p);
/* 0 on success, -1 out of memory (the picture then misses the row). */
int rsvg_add(rsvg *p, const rsvg_row *row);
/* A standalone SVG document (malloc'ed; NULL on out of memory). */
char *rsvg_svg(const rsvg *p, rsvg_kind kind);
/* One self-contained HTML page with every picture inline; no script, no network. */
char *rsvg_html(const rsvg *p, const char *title);
/* The file-name suffix of a picture: "lines", "bars", "matrix". */
const char *rsvg_kind_name(rsvg_kind kind);

#endif
