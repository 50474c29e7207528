/* Fault injection on the cpu device (a KILN_FAULT_INJECTION build: src/base/fault.h).
 *
 *   test_faults [--every K] [--size N] FILE.mlir...
 *
 * For every function of every file: compile it on cpu, make seeded inputs of its parameter
 * types (a shape-polymorphic function's at size N, default 3: tools/dynamic.h), run it
 * until its tier is final (settle), then once more counting the fault points a run
 * reaches (P), then for n = 1, 1 + K, 1 + 2K, ... <= P make the n-th point fail: that run
 * must return an error and no result; after each, a run with no fault must give the
 * counting run's results byte for byte. Leaks show under LeakSanitizer (the sanitizer
 * build). Prints a line per function (its tier, P, the points tried and those that failed
 * cleanly), then "N passed, M failed" (functions). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/fault.h"
#include "base/source.h"
#include "dynamic.h"
#include "inputs.h"
#include "ir/ir.h"
#include "kiln/kiln.h"
#include "parse/parse.h"

typedef struct run_set {
  kiln_executable *x;
  int32_t num_inputs, num_results;
  kiln_buffer **inputs, **results;
  uint8_t **expected; /* the first run's results */
  size_t *expected_bytes;
} run_set;

typedef struct options {
  int64_t every; /* K: every K-th fault point is tried */
  int64_t size;  /* N: the size of a shape-polymorphic function's symbolic dimensions */
} options;

static int g_passed, g_failed;

static void fail(const char *what, const char *fn, kiln_status st) {
  printf("FAIL %s: %s%s%s\n", fn, what, st ? ": " : "", st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  g_failed++;
}

static void release_results(run_set *r) {
  for (int32_t k = 0; k < r->num_results; k++) {
    kiln_buffer_release(r->results[k]);
    r->results[k] = NULL;
  }
}

static kiln_status run(run_set *r) {
  kiln_execute_args a = {.struct_size = sizeof a, .inputs = r->inputs, .num_inputs = r->num_inputs,
                         .out_results = r->results, .num_results = r->num_results};
  kiln_event *ev = NULL;
  kiln_status st = kiln_executable_execute(r->x, &a, &ev);
  if (!st) st = kiln_event_wait(ev);
  kiln_event_release(ev);
  return st;
}

/* Whether the results equal the expected bytes (storing them when expected is unset). */
static kiln_status compare(run_set *r, bool store, bool *same) {
  *same = true;
  for (int32_t k = 0; k < r->num_results; k++) {
    size_t n = kiln_buffer_byte_size(r->results[k]);
    uint8_t *got = malloc(n ? n : 1);
    if (!got) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    kiln_status st = n ? kiln_buffer_copy_to_host(r->results[k], got, n) : NULL;
    if (st) {
      free(got);
      return st;
    }
    if (store) {
      r->expected[k] = got;
      r->expected_bytes[k] = n;
      continue;
    }
    *same = *same && n == r->expected_bytes[k] && !memcmp(got, r->expected[k], n);
    free(got);
  }
  return NULL;
}

/* Runs before a sweep: the cpu tier policy (KILN_CPU_TIER's default, auto) queues the
 * optimising compile by a program's second run at the latest (src/backends/cpu/tier.c). */
enum { SETTLE_RUNS = 2 };

/* Runs r until its tier is final and no compile is pending: a background compile reaches
 * fault points of its own, and a tier switch mid-sweep changes the steps and the count.
 * The sweep covers the tier that stays (KILN_CPU_TIER=baseline: the fast-start one). */
static kiln_status settle(run_set *r, uint32_t *out_tier) {
  kiln_fault_arm(0);
  for (int runs = 0;;) {
    kiln_executable_stats_info s = {.struct_size = sizeof s};
    KILN_RETURN_IF_ERROR(kiln_executable_stats(r->x, &s));
    *out_tier = s.tier;
    if (s.tier_pending) {
      nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
      continue;
    }
    if (runs++ == SETTLE_RUNS) return NULL;
    kiln_status st = run(r);
    release_results(r);
    KILN_RETURN_IF_ERROR(st);
  }
}

static const char *tier_name(uint32_t tier) {
  return tier == KILN_TIER_OPTIMIZED ? "optimized" : tier == KILN_TIER_FAST_START ? "fast-start" : "untiered";
}

static void sweep(run_set *r, const char *fn, const options *o) {
  uint32_t tier = KILN_TIER_NONE;
  kiln_status st = settle(r, &tier);
  if (st) return fail("settling the tier", fn, st);
  kiln_fault_arm(0);
  st = run(r);
  int64_t points = kiln_fault_points();
  bool same;
  if (!st) st = compare(r, true, &same);
  release_results(r);
  if (st) return fail("the run with no fault failed", fn, st);
  int64_t failed_as_injected = 0, tried = 0;
  for (int64_t n = 1; n <= points; n += o->every) {
    tried++;
    kiln_fault_arm(n);
    st = run(r);
    kiln_fault_arm(0);
    bool none = true;
    for (int32_t k = 0; k < r->num_results; k++) none = none && !r->results[k];
    if (!st) {
      char what[96];
      snprintf(what, sizeof what, "fault point %lld of %lld did not fail the run", (long long)n, (long long)points);
      release_results(r);
      fail(what, fn, NULL);
      continue;
    }
    kiln_status_free(st);
    if (!none) {
      release_results(r);
      fail("a failed run left results", fn, NULL);
      continue;
    }
    st = run(r);
    if (!st) st = compare(r, false, &same);
    release_results(r);
    if (st || !same) {
      char what[96];
      snprintf(what, sizeof what, "the run after fault point %lld %s", (long long)n, st ? "failed" : "gave other results");
      fail(what, fn, st);
      continue;
    }
    failed_as_injected++;
  }
  printf("%s (%s): %lld fault points, %lld tried, %lld failed cleanly and ran right afterwards\n", fn, tier_name(tier),
         (long long)points, (long long)tried, (long long)failed_as_injected);
  if (failed_as_injected == tried) g_passed++;
}

static void one_function(kiln_program *p, kiln_device *dev, const kiln_module *m, const char *path, const char *name,
                         const options *o) {
  char fn[512];
  snprintf(fn, sizeof fn, "%s @%s", path, name);
  const kiln_op *f = kiln_module_lookup_func(m, name);
  const kiln_type *ft = f ? kiln_func_type(f) : NULL;
  if (!ft) return fail("no such function", fn, NULL);
  run_set r = {.num_inputs = ft->func.num_inputs, .num_results = ft->func.num_results};
  kiln_compile_options co = {.struct_size = sizeof co, .function = name};
  kiln_status st = kiln_program_compile(p, dev, &co, &r.x);
  r.inputs = calloc((size_t)r.num_inputs + 1, sizeof *r.inputs);
  r.results = calloc((size_t)r.num_results + 1, sizeof *r.results);
  r.expected = calloc((size_t)r.num_results + 1, sizeof *r.expected);
  r.expected_bytes = calloc((size_t)r.num_results + 1, sizeof *r.expected_bytes);
  if (!st && !(r.inputs && r.results && r.expected && r.expected_bytes))
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uint64_t seed = 1;
  if (!st) st = kiln_cli_inputs_at_size(ft, o->size, false, &seed, dev, r.inputs);
  if (st) fail("setting up", fn, st);
  else sweep(&r, fn, o);
  for (int32_t i = 0; r.inputs && i < r.num_inputs; i++) kiln_buffer_release(r.inputs[i]);
  for (int32_t k = 0; r.expected && k < r.num_results; k++) free(r.expected[k]);
  free(r.inputs);
  free(r.results);
  free(r.expected);
  free(r.expected_bytes);
  kiln_executable_release(r.x);
}

static void one_file(kiln_device *dev, const char *path, const options *o) {
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  if (st) return fail("reading", path, st);
  kiln_module *m = NULL;
  kiln_program *p = NULL;
  kiln_program_options po = {.struct_size = sizeof po, .name = path};
  st = kiln_parse_module(&src, &m);
  if (!st) st = kiln_program_create(src.text, src.len, &po, &p);
  if (st) fail("parsing", path, st);
  for (int32_t i = 0; !st && i < kiln_program_function_count(p); i++) {
    kiln_function_info info = {.struct_size = sizeof info};
    st = kiln_program_function(p, i, &info);
    if (st) fail("listing functions", path, st);
    else one_function(p, dev, m, path, info.name, o);
  }
  kiln_program_release(p);
  kiln_module_destroy(m);
  kiln_source_free(&src);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* each function's line as it is done, also when a timeout stops the test */
  options o = {.every = 1, .size = 3};
  int first = 1;
  for (; first + 1 < argc; first += 2) {
    if (!strcmp(argv[first], "--every")) o.every = strtoll(argv[first + 1], NULL, 10);
    else if (!strcmp(argv[first], "--size")) o.size = strtoll(argv[first + 1], NULL, 10);
    else break;
  }
  if (o.every < 1 || o.size < 0 || first >= argc) {
    fprintf(stderr, "usage: test_faults [--every K] [--size N] FILE.mlir...\n");
    return 2;
  }
  kiln_client_options co = {.struct_size = sizeof co, .devices = "cpu", .flags = KILN_CLIENT_IGNORE_ENV};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&co, &c);
  if (st) {
    fprintf(stderr, "test_faults: %s\n", kiln_status_message(st));
    kiln_status_free(st);
    return 1;
  }
  for (int i = first; i < argc; i++) one_file(kiln_client_device(c, 0), argv[i], &o);
  kiln_client_release(c);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
