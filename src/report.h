/*
** report.h: the report of one evaluation as JSON (DESIGN.md's contract), a table a
** person reads (categories in GiB and GB with their basis, the total, the fit table)
** and CSV (one row per GPU).
*/
#ifndef VF_REPORT_H
#define VF_REPORT_H

#include <jansson.h>
#include <stddef.h>

#include "estimate.h"
#include "fit.h"
#include "model.h"

typedef struct report_in {
  const model_desc *m;
  const scenario *s;
  const estimate *e;    /* on the report's GPU */
  const gpu *g;         /* that GPU */
  const fit_row *rows;
  size_t n_rows;
} report_in;

/* NULL on out-of-memory. */
json_t *report_json(const report_in *in);
/* malloc'd text; NULL on out-of-memory. */
char *report_table(const report_in *in);
char *report_csv(const report_in *in);

#endif
