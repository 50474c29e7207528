/* Tiered execution on the cpu device (src/backends/cpu/tier.h), through the public API:
 * - tiered: four threads run one executable while it switches from the fast-start tier to
 *   the optimised one; every result equals the interpreter's (within 1e-5), both tiers
 *   ran, and the run counts add up;
 * - baseline and quick: never switch (quick: compiled code, nothing interpreted);
 *   optimized: optimised from the first run;
 * - auto: a program with little interpreted work starts at once on the fast-start tier and
 *   queues its compile at its second run; one whose fast-start run would cost more than its
 *   compile starts on quick code (much data, or a window op calling its body per element);
 *   one the interpreter runs whole is compiled first;
 * - an executable released while its compile is queued or running, twenty times over;
 * - a fork while the compile runs: the child runs the executable correctly.
 * Prints "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L /* setenv, clock_gettime */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "kiln/kiln.h"

enum { ROWS = 8, COLS = 32, THREADS = 4, INPUTS = 6, MAX_RUNS = 100000 };

/* x[8,32], w[32,32] -> (the row sums of t, exp(x) * t), t = a chain of CHAIN tanh, add
 * and multiply ops over x @ w: elementwise work the fast-start tier interprets in well
 * under a millisecond and the optimising compile takes tens of milliseconds over (its math
 * inlined CHAIN / 3 times), so the first runs are on the fast-start tier whatever the
 * machine's speed; the dot runs on oneDNN in both tiers. */
enum { CHAIN = 96 };

static char *small_program(void) {
  size_t cap = 256 * (CHAIN + 16);
  char *t = malloc(cap);
  if (!t) return NULL;
  size_t n = (size_t)snprintf(t, cap,
      "func.func @main(%%x: tensor<8x32xf32>, %%w: tensor<32x32xf32>) -> (tensor<8xf32>, tensor<8x32xf32>) {\n"
      "  %%v0 = stablehlo.dot_general %%x, %%w, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>\n"
      "  %%c = stablehlo.constant dense<0.25> : tensor<8x32xf32>\n");
  static const char *const ops[3] = {"tanh %%v%d", "add %%v%d, %%c", "multiply %%v%d, %%x"};
  for (int i = 0; i < CHAIN; i++) {
    n += (size_t)snprintf(t + n, cap - n, "  %%v%d = stablehlo.", i + 1);
    n += (size_t)snprintf(t + n, cap - n, ops[i % 3], i);
    n += (size_t)snprintf(t + n, cap - n, " : tensor<8x32xf32>\n");
  }
  snprintf(t + n, cap - n,
           "  %%z = stablehlo.constant dense<0.0> : tensor<f32>\n"
           "  %%s = stablehlo.reduce(%%v%d init: %%z) applies stablehlo.add across dimensions = [1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>\n"
           "  %%e = stablehlo.exponential %%x : tensor<8x32xf32>\n"
           "  %%m = stablehlo.multiply %%e, %%v%d : tensor<8x32xf32>\n"
           "  return %%s, %%m : tensor<8xf32>, tensor<8x32xf32>\n"
           "}\n",
           CHAIN, CHAIN);
  return t;
}

static char *k_small;

/* 64 Mi elements through a chain of elementwise ops: interpreting it would cost far more
 * than compiling it. */
static const char *k_large =
    "func.func @main(%x: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {\n"
    "  %a = stablehlo.add %x, %x : tensor<8192x8192xf32>\n"
    "  %b = stablehlo.multiply %a, %x : tensor<8192x8192xf32>\n"
    "  %c = stablehlo.tanh %b : tensor<8192x8192xf32>\n"
    "  return %c : tensor<8192x8192xf32>\n"
    "}\n";

/* A token argument: the planner leaves the function to the interpreter whole. */
/* A running sum over 1024 elements (a window spanning the axis, as jnp.cumsum lowers):
 * little data (its per-element estimate says the fast-start tier), but 2^20 calls of the
 * window's body on that tier, which cost more than a compile: it starts on quick code. */
static const char *k_window =
    "func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.add %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) {window_dimensions = array<i64: 1024>, padding = dense<[[1023, 0]]> : tensor<1x2xi64>} : "
    "(tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>\n"
    "  return %r : tensor<1024xf32>\n"
    "}\n";

static const char *k_whole =
    "func.func @main(%t: !stablehlo.token, %x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %a = stablehlo.add %x, %x : tensor<4xf32>\n"
    "  return %a : tensor<4xf32>\n"
    "}\n";

static float g_x[INPUTS][ROWS * COLS], g_w[COLS * COLS];
static float g_want_s[INPUTS][ROWS], g_want_m[INPUTS][ROWS * COLS];

static void fill(float *p, int n, unsigned seed) {
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;
  }
}

static kiln_client *client_for(const char *devices) {
  kiln_client_options o = {.struct_size = sizeof o, .devices = devices};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  if (st) {
    printf("client %s: %s\n", devices, kiln_status_message(st));
    kiln_status_free(st);
  }
  return c;
}

static kiln_executable *compile(kiln_client *c, const char *text) {
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  kiln_program_options po = {.struct_size = sizeof po, .name = "tier.mlir"};
  kiln_status st = kiln_program_create(text, strlen(text), &po, &p);
  if (!st) st = kiln_program_compile(p, kiln_client_device(c, 0), NULL, &x);
  if (st) printf("compile: %s\n", kiln_status_message(st));
  kiln_status_free(st);
  kiln_program_release(p);
  return x;
}

/* Runs x on input k; writes the two results (NULL: not wanted). */
static bool run(kiln_executable *x, kiln_device *d, int k, float *s, float *m) {
  int64_t dx[2] = {ROWS, COLS}, dw[2] = {COLS, COLS};
  kiln_buffer_args ax = {sizeof ax, KILN_ELEMENT_TYPE_F32, 2, dx, g_x[k], sizeof g_x[k]};
  kiln_buffer_args aw = {sizeof aw, KILN_ELEMENT_TYPE_F32, 2, dw, g_w, sizeof g_w};
  kiln_buffer *in[2] = {NULL, NULL}, *out[2] = {NULL, NULL};
  kiln_event *e = NULL;
  kiln_status st = kiln_buffer_create(d, &ax, &in[0]);
  if (!st) st = kiln_buffer_create(d, &aw, &in[1]);
  kiln_execute_args ea = {sizeof ea, in, 2, out, 2, 0, NULL};
  if (!st) st = kiln_executable_execute(x, &ea, &e);
  if (!st) st = kiln_event_wait(e);
  if (!st && s) st = kiln_buffer_copy_to_host(out[0], s, sizeof(float) * ROWS);
  if (!st && m) st = kiln_buffer_copy_to_host(out[1], m, sizeof(float) * ROWS * COLS);
  if (st) printf("run: %s\n", kiln_status_message(st));
  bool ok = !st;
  kiln_status_free(st);
  kiln_event_release(e);
  for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]), kiln_buffer_release(out[i]);
  return ok;
}

static bool close_all(const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (!(fabsf(got[i] - want[i]) <= 1e-5f * (1 + fabsf(want[i])))) {
      printf("element %d: %.9g, interp %.9g\n", i, got[i], want[i]);
      return false;
    }
  return true;
}

static bool matches(kiln_executable *x, kiln_device *d, int k) {
  float s[ROWS], m[ROWS * COLS];
  return run(x, d, k, s, m) && close_all(s, g_want_s[k], ROWS) && close_all(m, g_want_m[k], ROWS * COLS);
}

static kiln_executable_stats_info stats_of(kiln_executable *x) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status_free(kiln_executable_stats(x, &s));
  return s;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Waits (at most 120 s) until no better tier is being compiled. */
static kiln_executable_stats_info settled(kiln_executable *x) {
  double end = now_s() + 120;
  kiln_executable_stats_info s = stats_of(x);
  while (s.tier_pending && now_s() < end) {
    nanosleep(&(struct timespec){0, 2000000}, NULL);
    s = stats_of(x);
  }
  return s;
}

typedef struct worker {
  kiln_executable *x;
  kiln_device *d;
  int id, runs, wrong, after_switch;
} worker;

/* Runs until it has seen the optimised tier for 20 runs (or MAX_RUNS). */
static void *work(void *arg) {
  worker *w = arg;
  for (w->runs = 0; w->runs < MAX_RUNS && w->after_switch < 20; w->runs++) {
    if (!matches(w->x, w->d, (w->id + w->runs) % INPUTS)) w->wrong++;
    if (stats_of(w->x).tier == KILN_TIER_OPTIMIZED) w->after_switch++;
  }
  return NULL;
}

static void test_switch_under_threads(kiln_client *c) {
  setenv("KILN_CPU_TIER", "tiered", 1);
  kiln_executable *x = compile(c, k_small);
  EXPECT(x != NULL, "tiered compile");
  if (!x) return;
  kiln_executable_stats_info s = stats_of(x);
  EXPECT(s.tier == KILN_TIER_FAST_START || s.tier == KILN_TIER_OPTIMIZED, "a tier is reported: %u", s.tier);
  worker w[THREADS];
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (worker){.x = x, .d = kiln_client_device(c, 0), .id = i};
    pthread_create(&t[i], NULL, work, &w[i]);
  }
  int runs = 0, wrong = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    runs += w[i].runs;
    wrong += w[i].wrong;
  }
  s = settled(x);
  EXPECT(wrong == 0, "%d of %d runs from 4 threads differ from the interpreter", wrong, runs);
  EXPECT(s.tier == KILN_TIER_OPTIMIZED && !s.tier_pending, "switched to the optimised tier (tier %u)", s.tier);
  EXPECT(s.fast_start_runs + s.optimized_runs == (uint64_t)runs, "runs counted: %llu + %llu of %d",
         (unsigned long long)s.fast_start_runs, (unsigned long long)s.optimized_runs, runs);
  EXPECT(s.fast_start_runs > 0 && s.optimized_runs > 0, "both tiers ran (%llu fast-start, %llu optimised)",
         (unsigned long long)s.fast_start_runs, (unsigned long long)s.optimized_runs);
  EXPECT(s.code_bytes > 0 && s.interpreted_ops == 0, "the optimised tier's figures: %llu code bytes, %llu interpreted",
         (unsigned long long)s.code_bytes, (unsigned long long)s.interpreted_ops);
  kiln_executable_release(x);
}

static void test_forced(kiln_client *c, const char *mode, uint32_t want_tier) {
  setenv("KILN_CPU_TIER", mode, 1);
  kiln_executable *x = compile(c, k_small);
  EXPECT(x != NULL, "%s compile", mode);
  if (!x) return;
  bool ok = true;
  for (int k = 0; k < INPUTS; k++) ok &= matches(x, kiln_client_device(c, 0), k);
  kiln_executable_stats_info s = settled(x);
  EXPECT(ok, "%s: results equal the interpreter's", mode);
  EXPECT(s.tier == want_tier && !s.tier_pending, "%s: tier %u (want %u)", mode, s.tier, want_tier);
  uint64_t on_want = want_tier == KILN_TIER_OPTIMIZED ? s.optimized_runs : s.fast_start_runs;
  EXPECT(on_want == INPUTS, "%s: %llu of %d runs on its tier", mode, (unsigned long long)on_want, INPUTS);
  if (want_tier == KILN_TIER_FAST_START)
    EXPECT(s.interpreted_ops > 0, "baseline: the fast-start tier interprets the elementwise ops");
  if (want_tier == KILN_TIER_QUICK)
    EXPECT(s.interpreted_ops == 0 && s.code_bytes > 0, "quick: generated code, nothing interpreted (%llu, %llu bytes)",
           (unsigned long long)s.interpreted_ops, (unsigned long long)s.code_bytes);
  kiln_executable_release(x);
}

static void test_auto(kiln_client *c) {
  setenv("KILN_CPU_TIER", "auto", 1);
  kiln_executable *small = compile(c, k_small), *large = compile(c, k_large);
  EXPECT(small && large, "auto compiles");
  if (small) {
    EXPECT(matches(small, kiln_client_device(c, 0), 0), "auto: small program's result");
    kiln_executable_stats_info s = stats_of(small);
    EXPECT(s.fast_start_runs == 1 && s.tier == KILN_TIER_FAST_START && !s.tier_pending,
           "auto: the small program's first run was on the fast-start tier, and queued no compile (%llu runs, tier "
           "%u, pending %d)",
           (unsigned long long)s.fast_start_runs, s.tier, (int)s.tier_pending);
    EXPECT(matches(small, kiln_client_device(c, 0), 1), "auto: second result");
    s = settled(small);
    EXPECT(s.fast_start_runs == 2 && s.tier == KILN_TIER_OPTIMIZED,
           "auto: the second run queued the compile, and it switched (%llu runs, tier %u)",
           (unsigned long long)s.fast_start_runs, s.tier);
  }
  if (large) {
    kiln_executable_stats_info s = stats_of(large);
    EXPECT(s.tier == KILN_TIER_QUICK && !s.tier_pending, "auto: the large program starts on quick code (tier %u)",
           s.tier);
  }
  kiln_executable *window = compile(c, k_window);
  EXPECT(window != NULL, "auto compiles the running sum");
  if (window) {
    kiln_executable_stats_info s = stats_of(window);
    EXPECT(s.tier == KILN_TIER_QUICK && !s.tier_pending,
           "auto: a window op whose body the fast-start tier would call 2^20 times starts on quick code (tier %u)", s.tier);
  }
  kiln_executable_release(window);
  kiln_executable *whole = compile(c, k_whole);
  EXPECT(whole != NULL, "auto compiles a program the interpreter runs whole");
  if (whole) {
    kiln_executable_stats_info s = stats_of(whole);
    EXPECT(s.tier == KILN_TIER_OPTIMIZED && !s.tier_pending, "auto: one run whole by the interpreter is compiled first "
           "(tier %u)", s.tier);
  }
  kiln_executable_release(small);
  kiln_executable_release(large);
  kiln_executable_release(whole);
}

static void test_release_while_compiling(kiln_client *c) {
  setenv("KILN_CPU_TIER", "tiered", 1);
  int made = 0;
  for (int i = 0; i < 20; i++) {
    kiln_executable *x = compile(c, k_small);
    made += x != NULL;
    if (i % 2 && x) made += matches(x, kiln_client_device(c, 0), i % INPUTS) ? 0 : 100;
    kiln_executable_release(x); /* queued, compiling, or done: all end here */
  }
  EXPECT(made == 20, "twenty executables made, run and released mid-compile (%d)", made);
}

static void test_fork(kiln_client *c) {
  setenv("KILN_CPU_TIER", "tiered", 1);
  kiln_executable *x = compile(c, k_small);
  EXPECT(x != NULL, "compile before fork");
  if (!x) return;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) _exit(matches(x, kiln_client_device(c, 0), 1) && matches(x, kiln_client_device(c, 0), 2) ? 0 : 1);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child of a fork mid-compile runs correctly (status %d)",
         status);
  EXPECT(matches(x, kiln_client_device(c, 0), 3), "and so does the parent");
  kiln_executable_release(x);
}

int main(void) {
  /* every compile here runs LLVM: no code from an earlier run's cache */
  setenv("KILN_CACHE_MAX_BYTES", "0", 1);
  if (!(k_small = small_program())) return 1;
  fill(g_w, COLS * COLS, 7);
  for (int k = 0; k < INPUTS; k++) fill(g_x[k], ROWS * COLS, 100u + (unsigned)k);
  kiln_client *ref = client_for("interp"), *cpu = client_for("cpu");
  if (!ref || !cpu) return 1;
  kiln_executable *rx = compile(ref, k_small);
  for (int k = 0; rx && k < INPUTS; k++)
    EXPECT(run(rx, kiln_client_device(ref, 0), k, g_want_s[k], g_want_m[k]), "interp run %d", k);
  kiln_executable_release(rx);
  test_switch_under_threads(cpu);
  test_forced(cpu, "baseline", KILN_TIER_FAST_START);
  test_forced(cpu, "quick", KILN_TIER_QUICK);
  test_forced(cpu, "optimized", KILN_TIER_OPTIMIZED);
  test_auto(cpu);
  test_release_while_compiling(cpu);
  test_fork(cpu);
  kiln_client_release(cpu);
  kiln_client_release(ref);
  free(k_small);
  return test_summary();
}
