/* The compile prepares; runs do not (kiln_executable_stats_info.prepared_in_runs).
 *
 *   test_prepare --expect none|some FILE.mlir...
 *
 * For every function of every file: compile it on cpu (the tier KILN_CPU_TIER says), make
 * seeded inputs of its parameter types, run it twice and read how many one-time
 * preparations (a step first executed by a run, a run state made for a run) the runs made
 * themselves. --expect none: every function 0 (the optimised tier's warm-up ran every step
 * before the compile returned, its regions' too); --expect some: above 0 for at least one
 * function (the fast-start tier prepares nothing: the count sees it). With --expect none,
 * also: the first run's result is made in memory the warm-up paged in, even after the
 * caller made an input of its size (its run takes few page faults, not one per page).
 * Prints a line per function, then "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/source.h"
#include "dynamic.h"
#include "expect.h"
#include "ir/ir.h"
#include "kiln/kiln.h"
#include "parse/parse.h"

enum { RUNS = 2 };

/* Compiles function `name` of p, runs it RUNS times on seeded inputs; *out: its count. */
static kiln_status prepared_by_runs(kiln_program *p, kiln_device *dev, const kiln_type *ft, const char *name,
                                    uint64_t *out) {
  int32_t ni = ft->func.num_inputs, nr = ft->func.num_results;
  kiln_executable *x = NULL;
  kiln_buffer **in = calloc((size_t)ni + 1, sizeof *in), **res = calloc((size_t)nr + 1, sizeof *res);
  kiln_compile_options co = {.struct_size = sizeof co, .function = name};
  kiln_status st = in && res ? kiln_program_compile(p, dev, &co, &x) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uint64_t seed = 1;
  if (!st) st = kiln_cli_inputs_at_size(ft, 3, false, &seed, dev, in);
  for (int r = 0; !st && r < RUNS; r++) {
    kiln_execute_args a = {.struct_size = sizeof a, .inputs = in, .num_inputs = ni, .out_results = res, .num_results = nr};
    kiln_event *e = NULL;
    st = kiln_executable_execute(x, &a, &e);
    if (!st) st = kiln_event_wait(e);
    kiln_event_release(e);
    for (int32_t k = 0; k < nr; k++) {
      kiln_buffer_release(res[k]);
      res[k] = NULL;
    }
  }
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  if (!st) st = kiln_executable_stats(x, &s);
  if (!st && !s.reported) st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "the cpu device reports no figures");
  *out = s.prepared_in_runs;
  for (int32_t i = 0; in && i < ni; i++) kiln_buffer_release(in[i]);
  free(in);
  free(res);
  kiln_executable_release(x);
  return st;
}

/* A program with a 16 MiB result, too long to warm up by a run (exec.c: its estimate
 * above 2 ms): the compile prepares its memory without running it, so its step's first
 * execution is its first run's (counted), and that run, after the caller has made an input
 * of the same size (which the allocator's cache would hand the result's block), makes its
 * result in the memory the compile made resident: the run's minor page faults (the
 * process's) stay far below the result's 4096 pages. */
static void test_first_run_pages(kiln_device *dev) {
  enum { N = 1 << 22 };
  static const char text[] = "func.func @main(%x: tensor<4194304xf32>) -> tensor<4194304xf32> {\n"
                             "  %y = stablehlo.add %x, %x : tensor<4194304xf32>\n"
                             "  return %y : tensor<4194304xf32>\n}\n";
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  kiln_buffer *in = NULL, *res = NULL;
  kiln_event *e = NULL;
  float *host = calloc(N, sizeof *host);
  int64_t dims[1] = {N};
  kiln_status st = host ? kiln_program_create(text, sizeof text - 1, NULL, &p) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_program_compile(p, dev, NULL, &x);
  for (int64_t i = 0; !st && i < N; i++) host[i] = (float)(i % 7);
  kiln_buffer_args ba = {sizeof ba, KILN_ELEMENT_TYPE_F32, 1, dims, host, (size_t)N * sizeof *host};
  if (!st) st = kiln_buffer_create(dev, &ba, &in);
  struct rusage before, after;
  getrusage(RUSAGE_SELF, &before);
  kiln_execute_args a = {.struct_size = sizeof a, .inputs = &in, .num_inputs = 1, .out_results = &res, .num_results = 1};
  if (!st) st = kiln_executable_execute(x, &a, &e);
  if (!st) st = kiln_event_wait(e);
  getrusage(RUSAGE_SELF, &after);
  long faults = after.ru_minflt - before.ru_minflt;
  EXPECT(!st, "the 16 MiB program: %s", kiln_status_message(st));
  if (!st) EXPECT(faults < 512, "the first run took %ld minor page faults (its result has 4096 pages)", faults);
  if (!st) st = kiln_buffer_copy_to_host(res, host, (size_t)N * sizeof *host); /* the input's copy: free again */
  EXPECT(!st, "the 16 MiB program's result: %s", st ? kiln_status_message(st) : "");
  if (!st) EXPECT(host[0] == 0 && host[1] == 2 && host[N - 1] == (float)(2 * ((N - 1) % 7)), "the first run's result: %g %g %g",
                  (double)host[0], (double)host[1], (double)host[N - 1]);
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  if (!st) st = kiln_executable_stats(x, &s);
  EXPECT(!st, "the 16 MiB program's figures: %s", st ? kiln_status_message(st) : "");
  if (!st) EXPECT(s.prepared_in_runs == 1, "the long program's first run executed its step first: %llu counted",
                  (unsigned long long)s.prepared_in_runs);
  printf("first run of a 16 MiB result: %ld minor page faults, %llu prepared by it\n", faults, (unsigned long long)s.prepared_in_runs);
  kiln_status_free(st);
  kiln_event_release(e);
  kiln_buffer_release(res);
  kiln_buffer_release(in);
  kiln_executable_release(x);
  kiln_program_release(p);
  free(host);
}

/* Each function of the file at path: its count, checked against expect_none. *total adds them. */
static void one_file(kiln_device *dev, const char *path, bool expect_none, uint64_t *total) {
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  EXPECT(!st, "%s: %s", path, st ? kiln_status_message(st) : "");
  if (st) {
    kiln_status_free(st);
    return;
  }
  kiln_module *m = NULL;
  kiln_program *p = NULL;
  kiln_program_options po = {.struct_size = sizeof po, .name = path};
  st = kiln_parse_module(&src, &m);
  if (!st) st = kiln_program_create(src.text, src.len, &po, &p);
  EXPECT(!st, "%s: %s", path, st ? kiln_status_message(st) : "");
  for (int32_t i = 0; !st && i < kiln_program_function_count(p); i++) {
    kiln_function_info info = {.struct_size = sizeof info};
    uint64_t n = 0;
    st = kiln_program_function(p, i, &info);
    const kiln_op *f = st ? NULL : kiln_module_lookup_func(m, info.name);
    if (!st && f) st = prepared_by_runs(p, dev, kiln_func_type(f), info.name, &n);
    EXPECT(!st && f, "%s @%s: %s", path, info.name, st ? kiln_status_message(st) : "no such function");
    if (st || !f) break;
    printf("%s @%s: %llu prepared by runs\n", path, info.name, (unsigned long long)n);
    if (expect_none) EXPECT(n == 0, "%s @%s: its runs prepared %llu things the compile had not", path, info.name,
                            (unsigned long long)n);
    *total += n;
  }
  kiln_status_free(st);
  kiln_program_release(p);
  kiln_module_destroy(m);
  kiln_source_free(&src);
}

int main(int argc, char **argv) {
  if (argc < 4 || strcmp(argv[1], "--expect") || (strcmp(argv[2], "none") && strcmp(argv[2], "some"))) {
    fprintf(stderr, "usage: test_prepare --expect none|some FILE.mlir...\n");
    return 2;
  }
  bool expect_none = !strcmp(argv[2], "none");
  kiln_client_options co = {.struct_size = sizeof co, .devices = "cpu"};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&co, &c);
  if (st) {
    fprintf(stderr, "test_prepare: %s\n", kiln_status_message(st));
    kiln_status_free(st);
    return 1;
  }
  uint64_t total = 0;
  for (int i = 3; i < argc; i++) one_file(kiln_client_device(c, 0), argv[i], expect_none, &total);
  if (expect_none) test_first_run_pages(kiln_client_device(c, 0));
  if (!expect_none) EXPECT(total > 0, "the fast-start tier's runs prepared nothing: the count does not count");
  kiln_client_release(c);
  return test_summary();
}
