/*
** tmpdir.h: a fresh folder per test run under $TMPDIR (else /tmp), and its removal,
** so that two runs at once (the plain and sanitizer builds, or two checkouts) never
** write each other's files and a run leaves nothing behind. Header-only, all static.
** The including file defines _XOPEN_SOURCE 700 (for mkdtemp and nftw) before any header.
*/
#ifndef VF_TMPDIR_H
#define VF_TMPDIR_H

#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* out = "<$TMPDIR or /tmp>/vf_test_<tag>_XXXXXX", created; false when it cannot be */
static inline bool tu_tmpdir(char *out, size_t n, const char *tag) {
  const char *dir = getenv("TMPDIR");
  int w = snprintf(out, n, "%s/vf_test_%s_XXXXXX", dir && *dir ? dir : "/tmp", tag);
  return w > 0 && (size_t)w < n && mkdtemp(out) != NULL;
}

static inline int tu_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

/* removes the folder and everything under it (files first: FTW_DEPTH; links not followed) */
static inline void tu_rmtree(const char *path) {
  if (path && *path) nftw(path, tu_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A test file's run folder: tu_base, made by tu_tmp_setup (the cmocka group setup; the folder's
** tag is TU_TMPDIR_TAG, defined before this header) and removed by tu_tmp_teardown */
#ifdef TU_TMPDIR_TAG
static char tu_base[256];

static int tu_tmp_setup(void **state) {
  (void)state;
  return tu_tmpdir(tu_base, sizeof tu_base, TU_TMPDIR_TAG) ? 0 : -1;
}

static int tu_tmp_teardown(void **state) {
  (void)state;
  tu_rmtree(tu_base);
  return 0;
}

/* tu_base + "/" + name, in one of four buffers used in turn (a path lives for three more calls) */
static const char *at(const char *name) {
  static char path[4][320];
  static unsigned k;
  char *p = path[k++ % 4];
  snprintf(p, sizeof path[0], "%s/%s", tu_base, name);
  return p;
}
#endif

#endif
