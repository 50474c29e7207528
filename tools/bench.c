/* kiln bench FILE [--function NAME] [--iterations N] [--warmup N] [--input X.npy]...
 * [--device LIST] [--config FILE]: compiles one function once, then times runs of it on
 * given or made-up inputs, and reports the compile time and the time to the first result,
 * the run times, the executable's temporaries, interpreted ops and the preparations its runs
 * made themselves, and the process's peak resident memory during the timed runs; on a
 * device with tiers, a fifth line says which tier the timed runs used, how many runs each
 * tier took and the first run of each tier used. The run line gives the median, min,
 * nearest-rank p99 and max of all timed runs, and the first run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/source.h"
#include "commands.h"
#include "dynamic.h"
#include "inputs.h"
#include "ir/ir.h"
#include "kiln/kiln.h"
#include "peak.h"
#include "select.h"

static const char k_usage[] = "kiln bench FILE.mlir [--function NAME] [--iterations N] [--warmup N] "
                              "[--input X.npy]... [--size N]... " KILN_CLI_DEVICE_USAGE;

enum {
  DEFAULT_WARMUP = 3,
  MIN_AUTO_RUNS = 10,          /* without --iterations: at least these */
  MAX_AUTO_RUNS = 1000000,
  MAX_COUNT = 100000000,       /* the most --iterations or --warmup accepts */
  MAX_SIZES = 16,              /* --size given this often at most */
};
#define AUTO_US 1e6      /* without --iterations: timed runs for about this long */
#define CALIBRATE_US 1e5 /* ... as the mean of at least this long of untimed runs says */
#define RANDOM_SEED 0x6b696c6eu /* "kiln": the same made-up inputs on every run of the tool */

typedef struct bench_opts {
  const char *file, *function;
  const char **inputs;
  int num_inputs;
  long iterations; /* 0: enough for about a second */
  long warmup;
  /* --size: made-up inputs of a shape-polymorphic function at these sizes, each measured
   * in turn with the one executable (none: the inputs' own shapes) */
  long sizes[MAX_SIZES];
  int num_sizes;
  kiln_cli_devices devices;
} bench_opts;

/* An executable ready to run: its inputs and a slot per result. */
typedef struct bench_run {
  kiln_executable *x;
  kiln_buffer **inputs, **results;
  int32_t num_inputs, num_results;
} bench_run;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* The first run of each tier (-1: none yet), found from the executable's run counts after
 * each untimed run (a device without tiers counts none). */
typedef struct tier_firsts {
  double first_us; /* the first untimed run's (-1: none yet) */
  double fast_start_us, optimized_us;
  uint64_t fast_start_runs, optimized_runs; /* the counts after the last run looked at */
  uint32_t start;                           /* the tier before the first run */
} tier_firsts;

/* Which tier counted the run that just took us: the first of its tier sets that figure. */
static kiln_status note_tier(const bench_run *r, double us, tier_firsts *f) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  KILN_RETURN_IF_ERROR(kiln_executable_stats(r->x, &s));
  if (s.fast_start_runs > f->fast_start_runs && f->fast_start_us < 0) f->fast_start_us = us;
  if (s.optimized_runs > f->optimized_runs && f->optimized_us < 0) f->optimized_us = us;
  f->fast_start_runs = s.fast_start_runs;
  f->optimized_runs = s.optimized_runs;
  return NULL;
}

/* One run to completion; its results are dropped at once. With f (untimed runs), the tier
 * it ran on is noted. */
static kiln_status run_once(bench_run *r, double *out_us, tier_firsts *f) {
  kiln_event *e = NULL;
  kiln_execute_args a = {sizeof a, r->inputs, r->num_inputs, r->results, r->num_results, 0, NULL};
  double t0 = now_us();
  kiln_status st = kiln_executable_execute(r->x, &a, &e);
  if (!st) st = kiln_event_wait(e);
  *out_us = now_us() - t0;
  kiln_event_release(e);
  for (int32_t i = 0; i < r->num_results; i++) {
    kiln_buffer_release(r->results[i]);
    r->results[i] = NULL;
  }
  if (!st && f && f->first_us < 0) f->first_us = *out_us;
  if (!st && f) st = note_tier(r, *out_us, f);
  return st;
}

/* The inputs: the --input files, or one made-up tensor per parameter. */
static kiln_status make_inputs(const bench_opts *o, long size, const kiln_source *src, kiln_device *device,
                               bench_run *r) {
  if (o->num_inputs) {
    return kiln_cli_inputs_read(src, o->function, o->inputs, o->num_inputs, 0, device, r->inputs);
  }
  kiln_module *m = NULL;
  const kiln_type *ft = NULL;
  kiln_status st = kiln_cli_function_type(src, o->function, &m, &ft);
  uint64_t seed = RANDOM_SEED;
  if (!st && size) st = kiln_cli_inputs_at_size(ft, size, false, &seed, device, r->inputs);
  for (int32_t i = 0; !st && !size && i < r->num_inputs; i++)
    st = kiln_cli_input_random(ft->func.inputs[i], NULL, (int)i, &seed, device, &r->inputs[i]);
  kiln_module_destroy(m);
  return st;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* How many timed runs: --iterations, or about a second's worth by the mean time of the
 * warm-up runs after the first (the cold one: a new signature's compile, a tier's start),
 * which untimed runs extend to at least CALIBRATE_US when they are shorter. */
static kiln_status count_runs(const bench_opts *o, bench_run *r, double warm_us, tier_firsts *f, long *out_runs) {
  if (o->iterations) {
    *out_runs = o->iterations;
    return NULL;
  }
  double total = warm_us, t;
  long runs = o->warmup > 1 ? o->warmup - 1 : 0;
  for (; total < CALIBRATE_US && runs < MAX_AUTO_RUNS; runs++) {
    KILN_RETURN_IF_ERROR(run_once(r, &t, f));
    total += t;
  }
  double n = total > 0 ? AUTO_US * (double)runs / total : MAX_AUTO_RUNS;
  *out_runs = n < MIN_AUTO_RUNS ? MIN_AUTO_RUNS : n > MAX_AUTO_RUNS ? MAX_AUTO_RUNS : (long)n;
  return NULL;
}

/* The peak line: the high-water mark read right after the timed runs (peak, have_peak)
 * against the resident size just before them. */
typedef struct peak_reading {
  bool reset, have_before, have_peak;
  uint64_t before, peak;
} peak_reading;

static void print_memory(const kiln_executable *x, const peak_reading *m) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  if (st) printf("temporaries: not reported (%s)\n", kiln_status_message(st));
  else if (s.reported)
    printf("temporaries: %llu bytes; interpreted ops: %llu; prepared by runs: %llu\n",
           (unsigned long long)s.temporary_bytes, (unsigned long long)s.interpreted_ops,
           (unsigned long long)s.prepared_in_runs);
  else printf("temporaries: not reported\n");
  kiln_status_free(st);
  unsigned long long peak = m->peak, above = m->peak > m->before ? m->peak - m->before : 0;
  if (!m->have_peak) printf("peak memory: not available (no VmHWM in /proc/self/status)\n");
  else if (!m->reset || !m->have_before)
    printf("peak memory: %llu bytes (the whole process's: its high-water mark could not be reset)\n", peak);
  else printf("peak memory: %llu bytes (%llu above the resident size before the runs)\n", peak, above);
}

/* The compile line; when the device's compile cache was used, whether it supplied the
 * code: "(code cache hit)", "(code cache miss)" or "(code cache: 2 of 3 modules hit)". */
static void print_compile(const kiln_executable *x, double compile_ms, double first_result_ms) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  unsigned long long hits = st ? 0 : s.code_cache_hits, all = st ? 0 : s.code_cache_hits + s.code_cache_misses;
  printf("compile: %.2f ms", compile_ms);
  if (all && (hits == 0 || hits == all)) printf(" (code cache %s)", hits ? "hit" : "miss");
  else if (all) printf(" (code cache: %llu of %llu modules hit)", hits, all);
  printf("; first result %.2f ms", first_result_ms);
  if (!st && s.signatures)
    printf("; signatures compiled %llu, their code from %llu LLVM compiles", (unsigned long long)s.signatures,
           (unsigned long long)s.code_compiles);
  printf("\n");
  kiln_status_free(st);
}

/* The narrowed line, when some runs used fewer threads than the device has (the host's
 * CPUs busy with other work: kiln_executable_stats_info.runs_narrowed). */
static void print_narrowed(const kiln_executable *x) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  if (!st && s.runs_narrowed)
    printf("narrowed runs: %llu on fewer threads (the host's CPUs busy with other work)\n",
           (unsigned long long)s.runs_narrowed);
  kiln_status_free(st);
}

/* The nearest-rank percentile pct (0 < pct <= 100) of the n >= 1 sorted samples: the
 * least sample that at least pct% of all samples are at or below (the ceil(pct * n / 100)-th
 * smallest; with fewer than 100 samples the 99th is the greatest). */
static double nearest_rank(const double *sorted, long n, long pct) {
  long rank = (pct * n + 99) / 100;
  return sorted[(rank < 1 ? 1 : rank > n ? n : rank) - 1];
}

/* The most a device may take to make its optimised tier ready before the timed runs. */
#define SETTLE_MAX_US (600.0 * 1e6)

/* Waits until x runs its final tier (a device with tiers compiles its optimised code in the
 * background: the timed runs measure that code, not a mix). A program still on its
 * fast-start tier with nothing queued gets untimed runs first (at most SETTLE_RUNS: the
 * cpu device's auto policy queues the compile at a program's second run, so fewer warm-up
 * runs would leave it unqueued; a device forced to its fast-start tier stays there).
 * *out_ms: how long after the compile returned (compile_end_us) the optimised tier was
 * found ready; -1 when it was ready before the first check, or the device has no tiers. */
#define SETTLE_RUNS 2
static kiln_status settle(bench_run *r, double compile_end_us, tier_firsts *f, double *out_ms) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  *out_ms = -1;
  kiln_status st = kiln_executable_stats(r->x, &s);
  bool fast_start = s.tier == KILN_TIER_FAST_START || s.tier == KILN_TIER_QUICK;
  for (int i = 0; !st && i < SETTLE_RUNS && fast_start && !s.tier_pending; i++) {
    double t;
    st = run_once(r, &t, f);
    if (!st) st = kiln_executable_stats(r->x, &s);
    fast_start = s.tier == KILN_TIER_FAST_START || s.tier == KILN_TIER_QUICK;
  }
  bool waited = false;
  double start = now_us();
  while (!st && s.tier_pending && now_us() - start < SETTLE_MAX_US) {
    waited = true;
    nanosleep(&(struct timespec){0, 200000}, NULL);
    st = kiln_executable_stats(r->x, &s);
  }
  if (waited) *out_ms = (now_us() - compile_end_us) / 1e3;
  return st;
}

static const char *tier_name(uint32_t tier) {
  return tier == KILN_TIER_OPTIMIZED ? "optimised" : tier == KILN_TIER_QUICK ? "quick code" : "fast-start";
}

/* The tier line, for a device with tiers: which tier the timed runs used, how many runs
 * each tier took (the fast-start ones: on quick code, when it started there), when the
 * optimised code was ready, and the first run of each tier used (a fast-start tier's first
 * run is the cold start; the optimised tier's first run shows what its compile left to a
 * run). */
static void print_tier(const kiln_executable *x, double settled_ms, const tier_firsts *f) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  if (!st && s.tier != KILN_TIER_NONE) {
    printf("tier: %s; runs: %llu %s, %llu optimised", tier_name(s.tier), (unsigned long long)s.fast_start_runs,
           f->start == KILN_TIER_QUICK ? "on quick code" : "fast-start", (unsigned long long)s.optimized_runs);
    if (settled_ms >= 0) printf("; optimised code ready %.2f ms after the compile", settled_ms);
    printf("; first run");
    if (f->fast_start_us >= 0)
      printf(" %.2f us %s%s", f->fast_start_us, f->start == KILN_TIER_QUICK ? "on quick code" : "fast-start",
             f->optimized_us >= 0 ? "," : "");
    if (f->optimized_us >= 0) printf(" %.2f us optimised", f->optimized_us);
    printf("\n");
  }
  kiln_status_free(st);
}

/* Warm-up runs, then the timed runs, then the report. The first run is the executable's
 * first execution after compiling, the cold start: the first warm-up run, or with --warmup 0
 * the first of the runs that settle it on a tier, or the first timed run (then also among
 * the timed runs' figures); the first result is the compile and that run. Between the warm-up and the timed runs, a device with tiers gets to
 * its final one (settle); a tier whose first run is none of the untimed runs had its
 * first run timed: the first timed run (the timed runs are all on the final tier). */
static kiln_status measure(const bench_opts *o, bench_run *r, double compile_ms, double compile_end_us) {
  double warm_us = 0, first_us = -1, t, settled_ms = -1;
  tier_firsts f = {-1, -1, -1, 0, 0, KILN_TIER_NONE};
  kiln_executable_stats_info s0 = {.struct_size = sizeof s0};
  KILN_RETURN_IF_ERROR(kiln_executable_stats(r->x, &s0));
  f.start = s0.tier;
  for (long i = 0; i < o->warmup; i++) {
    KILN_RETURN_IF_ERROR(run_once(r, &t, &f));
    if (i == 0) first_us = t;
    else warm_us += t;
  }
  KILN_RETURN_IF_ERROR(settle(r, compile_end_us, &f, &settled_ms));
  long n = 0;
  KILN_RETURN_IF_ERROR(count_runs(o, r, warm_us, &f, &n));
  double *samples = malloc((size_t)n * sizeof *samples);
  if (!samples) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory for %ld samples", n);
  for (long i = 0; i < n; i++) samples[i] = -1; /* resident before the runs, not during them */
  peak_reading m = {0};
  m.reset = kiln_cli_peak_reset();
  m.have_before = kiln_cli_resident_bytes(&m.before);
  kiln_status st = NULL;
  for (long i = 0; !st && i < n; i++) st = run_once(r, &samples[i], NULL);
  m.have_peak = kiln_cli_peak_bytes(&m.peak); /* before sorting, which allocates */
  if (!st) st = note_tier(r, samples[0], &f); /* the final tier, when the timed runs were its first */
  if (!st) {
    /* no warm-up: the first untimed run (settling on a tier), else the first timed run */
    if (first_us < 0) first_us = f.first_us >= 0 ? f.first_us : samples[0];
    qsort(samples, (size_t)n, sizeof *samples, compare_doubles);
    double median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    print_compile(r->x, compile_ms, compile_ms + first_us / 1e3);
    printf("run: median %.2f us (min %.2f, p99 %.2f, max %.2f) over %ld runs; first run %.2f us\n", median,
           samples[0], nearest_rank(samples, n, 99), samples[n - 1], n, first_us);
    print_memory(r->x, &m);
    print_tier(r->x, settled_ms, &f);
    print_narrowed(r->x);
  }
  free(samples);
  return st;
}

static int bench(const bench_opts *o) {
  kiln_source src = {0};
  kiln_program *p = NULL;
  bench_run r = {0};
  kiln_client *c = kiln_cli_client("bench", &o->devices);
  if (!c) return 1;
  kiln_device *device = kiln_client_device(c, 0);
  kiln_function_info info = {.struct_size = sizeof info};
  kiln_status st = kiln_source_read(o->file, &src);
  double t0 = now_us();
  kiln_program_options po = {sizeof po, o->file, 1};
  if (!st) st = kiln_program_create(src.text, src.len, &po, &p);
  if (!st) st = kiln_program_find_function(p, o->function, &info);
  if (!st && o->num_inputs && info.num_inputs != o->num_inputs)
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     "@%s takes %d inputs, %d given (--input X.npy once per input, or none for made-up inputs)",
                     o->function, (int)info.num_inputs, o->num_inputs);
  kiln_compile_options co = {.struct_size = sizeof co, .function = o->function};
  if (!st) st = kiln_program_compile(p, device, &co, &r.x);
  double compile_end_us = now_us(), compile_ms = (compile_end_us - t0) / 1e3;
  r.num_inputs = info.num_inputs;
  r.num_results = info.num_results;
  if (!st) {
    r.inputs = calloc((size_t)r.num_inputs + 1, sizeof *r.inputs);
    r.results = calloc((size_t)r.num_results + 1, sizeof *r.results);
    if (!r.inputs || !r.results) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (int k = 0; !st && k < (o->num_sizes ? o->num_sizes : 1); k++) {
    long size = o->num_sizes ? o->sizes[k] : 0;
    for (int32_t i = 0; i < r.num_inputs; i++) kiln_buffer_release(r.inputs[i]), r.inputs[i] = NULL;
    if (o->num_sizes) printf("size %ld\n", size);
    st = make_inputs(o, size, &src, device, &r);
    if (!st) st = measure(o, &r, compile_ms, compile_end_us);
    fflush(stdout);
  }
  if (st) fprintf(stderr, "kiln bench: %s\n", kiln_status_message(st));
  int rc = st ? 1 : 0;
  kiln_status_free(st);
  for (int32_t i = 0; r.inputs && i < r.num_inputs; i++) kiln_buffer_release(r.inputs[i]);
  free(r.inputs);
  free(r.results);
  kiln_executable_release(r.x);
  kiln_program_release(p);
  kiln_client_release(c);
  kiln_source_free(&src);
  return rc;
}

/* A count option's value: a whole number in [min, MAX_COUNT]. */
static bool parse_count(const char *option, const char *text, long min, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < min || v > MAX_COUNT) {
    fprintf(stderr, "kiln bench: %s takes a whole number from %ld to %d, not '%s'\n", option, min, MAX_COUNT, text);
    return false;
  }
  *out = v;
  return true;
}

int kiln_cmd_bench(int argc, char **argv) {
  bench_opts o = {.function = "main", .warmup = DEFAULT_WARMUP};
  o.inputs = calloc((size_t)argc + 1, sizeof *o.inputs);
  if (!o.inputs) return 1;
  bool bad = false;
  for (int i = 1; i < argc && !bad; i++) {
    const char *a = argv[i];
    bool takes_value = !strcmp(a, "--function") || !strcmp(a, "--input") || !strcmp(a, "--iterations") ||
                       !strcmp(a, "--warmup") || !strcmp(a, "--size");
    if (kiln_cli_device_option("bench", argc, argv, &i, &o.devices, &bad)) {
      continue;
    } else if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "kiln bench: %s needs a value\nusage: %s\n", a, k_usage);
      bad = true;
    } else if (!strcmp(a, "--function")) {
      o.function = argv[++i];
    } else if (!strcmp(a, "--input")) {
      o.inputs[o.num_inputs++] = argv[++i];
    } else if (!strcmp(a, "--iterations")) {
      bad = !parse_count(a, argv[++i], 1, &o.iterations);
    } else if (!strcmp(a, "--warmup")) {
      bad = !parse_count(a, argv[++i], 0, &o.warmup);
    } else if (!strcmp(a, "--size") && o.num_sizes == MAX_SIZES) {
      fprintf(stderr, "kiln bench: --size given more than %d times\n", (int)MAX_SIZES);
      bad = true;
    } else if (!strcmp(a, "--size")) {
      bad = !parse_count(a, argv[++i], 1, &o.sizes[o.num_sizes++]);
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "kiln bench: unknown option '%s'\nusage: %s\n", a, k_usage);
      bad = true;
    } else if (o.file) {
      fprintf(stderr, "kiln bench: one program at a time ('%s' and '%s')\n", o.file, a);
      bad = true;
    } else {
      o.file = a;
    }
  }
  if (!bad && !o.file) {
    fprintf(stderr, "kiln bench: no program given\nusage: %s\n", k_usage);
    bad = true;
  }
  int rc = bad ? 1 : bench(&o);
  free(o.inputs);
  return rc;
}
