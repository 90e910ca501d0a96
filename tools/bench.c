/*
** bench.c: `make bench`: batch speed and memory, printed, never asserted. Evaluations
** per second of a 100,000-point sweep (context x concurrency x GPU) for a dense and a
** MoE model on one core (vf_batch_* of include/vramfit.h, CPU time), the same through
** the command, a cold start to one answered scenario, and the peak memory (maxrss) of
** a 1,000,000-row sweep streamed to /dev/null. Usage: bench PATH/TO/vramfit
*/
#define _DEFAULT_SOURCE /* wait4() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vramfit.h"

static char dir[64];

static double now(clockid_t clk) {
  struct timespec t;
  clock_gettime(clk, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *scenario_file(const char *name, const char *model, const char *conc_hi, const char *gpus) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s.lua", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  fprintf(f,
          "return sweep { base = { name = '%s', model = '%s', dtype = 'bf16',\n"
          "  workload = { kind = 'inference', context = 8192 } },\n"
          "  axes = { ['workload.context'] = range(1024, 131072, 'double'),\n"
          "           ['workload.concurrency'] = range(1, %s, 1), gpu = { %s } } }\n",
          name, model, conc_hi, gpus);
  fclose(f);
  return path;
}

/* One core, the library alone: every point of the file, CPU time and wall time. */
static void bench_library(const char *label, const char *path) {
  vf_batch *b = NULL;
  char err[2048];
  double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
  vf_request req = {NULL, 0, NULL, 0, VF_FORMAT_CSV, 0};
  if (vf_batch_open(NULL, path, &req, &b, err, sizeof err) != VF_OK) {
    printf("%-34s failed: %s\n", label, err);
    return;
  }
  size_t n = vf_batch_count(b), rows = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
    const vf_point *r;
    size_t nr;
    failed += vf_batch_eval(b, i, &r, &nr) != VF_OK;
    rows += nr;
  }
  double cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = now(CLOCK_MONOTONIC) - w0;
  printf("%-34s %7zu points %7zu rows %5zu failed  %9.0f evals/s (CPU %.3f s)  %9.0f/s wall  fast path %zu\n",
         label, n, rows, failed, (double)n / cpu, cpu, (double)n / wall, vf_batch_fast_count(b));
  vf_batch_free(b);
}

/* Runs the command; wall seconds and the child's rusage. */
static double run(char *const argv[], struct rusage *ru) {
  double w0 = now(CLOCK_MONOTONIC);
  fflush(NULL); /* the child must not print what is buffered here */
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout)) _exit(127);
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || wait4(pid, &status, 0, ru) < 0) return -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fprintf(stderr, "bench: %s exited %d\n", argv[1], status);
  return now(CLOCK_MONOTONIC) - w0;
}

static void bench_command(const char *bin, const char *label, const char *path, const char *jobs) {
  char *argv[] = {(char *)bin, "batch",     (char *)path, "--no-progress", "--jobs", (char *)jobs,
                  "-o",        "/dev/null", NULL};
  struct rusage ru;
  double wall = run(argv, &ru);
  double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               (double)ru.ru_stime.tv_usec / 1e6;
  printf("%-34s %.3f s wall, %.3f s CPU, peak memory %.1f MB (maxrss)\n", label, wall, cpu,
         (double)ru.ru_maxrss / 1024.0);
}

static void bench_cold(const char *bin) {
  char *argv[] = {(char *)bin, "estimate", "examples/demo.lua", "--format", "json", NULL};
  double best = 1e9, sum = 0;
  struct rusage ru;
  for (int i = 0; i < 5; i++) {
    double t = run(argv, &ru);
    sum += t;
    if (t < best) best = t;
  }
  printf("%-34s best %.1f ms, mean %.1f ms of 5 (process start to the JSON report)\n",
         "cold start, one scenario", best * 1e3, sum / 5 * 1e3);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: bench PATH/TO/vramfit\n");
    return 2;
  }
  snprintf(dir, sizeof dir, "/tmp/vramfit-bench-XXXXXX");
  if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
  const char *gpus = "'L40S', 'H100', 'H200', 'A100-80GB', 'RTX-4090-24GB'";
  char dense[128], moe[128], big[128];
  snprintf(dense, sizeof dense, "%s",
           scenario_file("dense", "meta-llama/Llama-3.1-8B-Instruct", "2500", gpus));
  snprintf(moe, sizeof moe, "%s", scenario_file("moe", "mistralai/Mixtral-8x7B-v0.1", "2500", gpus));
  snprintf(big, sizeof big, "%s",
           scenario_file("million", "meta-llama/Llama-3.1-8B-Instruct", "25000", gpus));
  printf("vramfit %s bench (targets: >= 200,000 evals/s on one core, < 20 ms cold, < 50 MB)\n", vf_version());
  bench_library("100k sweep, dense (Llama-3.1-8B)", dense);
  bench_library("100k sweep, MoE (Mixtral-8x7B)", moe);
  bench_cold(argv[1]);
  bench_command(argv[1], "command, 100k dense, --jobs 1", dense, "1");
  bench_command(argv[1], "command, 100k dense, --jobs 2", dense, "2");
  bench_command(argv[1], "command, 1,000,000 rows, --jobs 1", big, "1");
  unlink(dense), unlink(moe), unlink(big), rmdir(dir);
  return 0;
}
