/* kiln_bench_pool: what a hand-off to the cpu backend's thread pool (src/backends/cpu/pool.h)
 * costs, against the same chunks run inline on the calling thread in the same run.
 *
 *   kiln_bench_pool [--threads N] [--calls N]
 *
 * A call is `threads` chunks, each updating its own n floats
 * (n = 16 to 16384), repeated back to back so that the workers are spinning when each call
 * comes (the case of a loop's steps and a scan's iterations). Each line gives the median
 * time of a call over 5 blocks of --calls calls, split through the pool and inline, and
 * their ratio; the split pays where the ratio is below 1 (pool.c's cost model). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/pool.h"

enum { MAX_N = 16384, BLOCKS = 5 };

typedef struct job {
  float *data; /* threads x MAX_N */
  int64_t n;
} job;

static void chunk(void *ctx, int32_t c, int32_t thread) {
  const job *j = ctx;
  float *d = j->data + (int64_t)c * MAX_N;
  for (int64_t i = 0; i < j->n; i++) d[i] = d[i] * 0.999f + 1.0f;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median over BLOCKS blocks of `calls` calls, ns a call. */
static double time_calls(kiln_cpu_pool *p, int32_t chunks, job *j, long calls, bool split) {
  double t[BLOCKS];
  for (int b = 0; b < BLOCKS; b++) {
    double t0 = now_ns();
    for (long i = 0; i < calls; i++) {
      if (split) kiln_cpu_pool_run(p, chunks, INT64_MAX, chunk, j);
      else
        for (int32_t c = 0; c < chunks; c++) chunk(j, c, 0);
    }
    t[b] = (now_ns() - t0) / (double)calls;
  }
  qsort(t, BLOCKS, sizeof *t, cmp_double);
  return t[BLOCKS / 2];
}

int main(int argc, char **argv) {
  int32_t threads = 2;
  long calls = 20000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc) calls = atol(argv[++i]);
    else {
      fprintf(stderr, "usage: kiln_bench_pool [--threads N] [--calls N]\n");
      return 2;
    }
  }
  kiln_cpu_pool *p = NULL;
  kiln_status st = kiln_cpu_pool_create(threads, &p);
  float *data = calloc((size_t)threads * MAX_N, sizeof *data);
  if (st || !data || threads < 2 || calls < 1) {
    fprintf(stderr, "kiln_bench_pool: %s\n", st ? kiln_status_message(st) : "bad --threads (>= 2) or --calls, or no memory");
    kiln_status_free(st);
    kiln_cpu_pool_destroy(p);
    free(data);
    return 2;
  }
  printf("%d threads, %d chunks a call, %ld calls a block, median of %d blocks\n", (int)threads, (int)threads,
         calls, BLOCKS);
  printf("%8s %12s %12s %8s\n", "n", "split ns", "inline ns", "ratio");
  for (int64_t n = 16; n <= MAX_N; n *= 4) {
    job j = {data, n};
    time_calls(p, threads, &j, calls / 10 + 1, true); /* warm-up: workers running */
    double split = time_calls(p, threads, &j, calls, true), inl = time_calls(p, threads, &j, calls, false);
    printf("%8lld %12.0f %12.0f %8.2f\n", (long long)n, split, inl, split / inl);
  }
  kiln_cpu_pool_destroy(p);
  free(data);
  return 0;
}
