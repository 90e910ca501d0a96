/*
** replay.c: runs a fuzz target's LLVMFuzzerTestOneInput over files and directories
** without libFuzzer (make test links it with each target under ASan/UBSan, so every
** crash input kept in tests/fuzz/regress/<target>/ is replayed on each test run).
** Prints "replay TARGET: N passed, 0 failed"; a crash aborts the program.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: %s: cannot open\n", path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *nb = realloc(buf, cap *= 2);
    if (!nb) free(buf);
    buf = nb;
  }
  fclose(f);
  if (!buf) return -1;
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

/* A directory: every regular file in it, in no particular order. */
static int replay_path(const char *path, int *count) {
  struct stat st;
  if (stat(path, &st) != 0) return 0; /* an absent directory holds no inputs */
  if (!S_ISDIR(st.st_mode)) return replay_file(path) == 0 ? (++*count, 0) : -1;
  DIR *d = opendir(path);
  if (!d) return -1;
  char sub[4096];
  int rc = 0;
  for (struct dirent *e; rc == 0 && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) rc = replay_file(sub) == 0 ? (++*count, 0) : -1;
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  int count = 0, failed = 0;
  const char *name = argc > 1 ? argv[1] : "fuzz";
  for (int i = 2; i < argc; i++)
    if (replay_path(argv[i], &count) != 0) failed++;
  printf("replay %s: %d passed, %d failed\n", name, count, failed);
  return failed ? 1 : 0;
}
