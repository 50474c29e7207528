/* Row-block runs' LOCAL values (src/backends/cpu/tiling.c, parallel.c), through the public
 * API: a softmax's exponentials, made and read only inside its run, live a block of rows
 * at a time in per-thread scratch (the run's temporaries shrink to a fraction of them)
 * and the results are right on every run, over the pool's threads; the same values read
 * after the run, or returned, stay whole; a pool of more threads than an executable's
 * scratch has room for (compiled while KILN_CPU_THREADS said 1) runs the run on the
 * caller, with the same results. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/api.h"

enum { ROWS = 512, COLS = 1000, RUNS = 20 }; /* many blocks of rows; a row ends in a vector tail */

static kiln_device *g_device;

/* max, exp(x - max), its sum and the quotient: one row-block run. `tail` follows the
 * quotient with what else the function does, `ret` is what it returns. */
static kiln_executable *compile_softmax(const char *tail, const char *ret) {
  char text[4096];
  snprintf(text, sizeof text,
           "func.func @main(%%x: tensor<512x1000xf32>) -> %s {\n"
           "  %%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
           "  %%zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
           "  %%m = stablehlo.reduce(%%x init: %%ninf) applies stablehlo.maximum across dimensions = [1] : "
           "(tensor<512x1000xf32>, tensor<f32>) -> tensor<512xf32>\n"
           "  %%mb = stablehlo.broadcast_in_dim %%m, dims = [0] : (tensor<512xf32>) -> tensor<512x1000xf32>\n"
           "  %%d = stablehlo.subtract %%x, %%mb : tensor<512x1000xf32>\n"
           "  %%e = stablehlo.exponential %%d : tensor<512x1000xf32>\n"
           "  %%s = stablehlo.reduce(%%e init: %%zero) applies stablehlo.add across dimensions = [1] : "
           "(tensor<512x1000xf32>, tensor<f32>) -> tensor<512xf32>\n"
           "  %%sb = stablehlo.broadcast_in_dim %%s, dims = [0] : (tensor<512xf32>) -> tensor<512x1000xf32>\n"
           "  %%r = stablehlo.divide %%e, %%sb : tensor<512x1000xf32>\n"
           "%s}\n",
           ret, tail);
  return kiln_test_compile(g_device, text);
}

static float g_x[ROWS * COLS];
static double g_softmax[ROWS * COLS], g_exp[ROWS * COLS]; /* in double, the reference */

static void reference(void) {
  for (int64_t i = 0; i < ROWS * COLS; i++) g_x[i] = (float)((i * 7919) % 2003) / 200.0f - 5.0f;
  for (int64_t r = 0; r < ROWS; r++) {
    const float *x = &g_x[r * COLS];
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < COLS; c++) m = x[c] > m ? x[c] : m;
    for (int64_t c = 0; c < COLS; c++) s += g_exp[r * COLS + c] = exp((double)x[c] - m);
    for (int64_t c = 0; c < COLS; c++) g_softmax[r * COLS + c] = g_exp[r * COLS + c] / s;
  }
}

/* Whether b holds want (transposed: want's rows are b's columns) to 2e-5 (a sum of 1000 f32). */
static bool close_to(kiln_buffer *b, const double *want, bool transposed) {
  float *got = malloc(sizeof(float) * ROWS * COLS);
  kiln_status st = kiln_buffer_copy_to_host(b, got, sizeof(float) * ROWS * COLS);
  bool ok = !st;
  for (int64_t i = 0; ok && i < ROWS * COLS; i++) {
    double w = transposed ? want[(i % ROWS) * COLS + i / ROWS] : want[i];
    if (!(fabs(got[i] - w) <= 2e-5 * fabs(w))) {
      printf("  element %lld: %.9g, want %.9g\n", (long long)i, got[i], w);
      ok = false;
    }
  }
  if (st) printf("  copy: %s\n", kiln_status_message(st));
  kiln_status_free(st);
  free(got);
  return ok;
}

/* Runs x RUNS times on g_x; whether every run's results matched want (NULL: not checked). */
static bool runs_match(kiln_executable *x, int32_t results, const double *const *want, const bool *transposed) {
  int64_t dims[2] = {ROWS, COLS};
  kiln_buffer_args a = {sizeof a, KILN_ELEMENT_TYPE_F32, 2, dims, g_x, sizeof g_x};
  kiln_buffer *in = NULL, *out[2] = {NULL, NULL};
  kiln_status st = kiln_buffer_create(g_device, &a, &in);
  bool ok = !st;
  for (int32_t run = 0; ok && run < RUNS; run++) {
    kiln_event *e = NULL;
    kiln_execute_args args = {sizeof args, &in, 1, out, results, 0, NULL};
    st = kiln_executable_execute(x, &args, &e);
    if (!st) st = kiln_event_wait(e);
    kiln_event_release(e);
    ok = !st;
    for (int32_t k = 0; k < results; k++) {
      if (ok && want[k]) ok = close_to(out[k], want[k], transposed[k]);
      kiln_buffer_release(out[k]);
      out[k] = NULL;
    }
  }
  if (st) printf("  run: %s\n", kiln_status_message(st));
  kiln_status_free(st);
  kiln_buffer_release(in);
  return ok;
}

static uint64_t temporaries(const kiln_executable *x) { return kiln_test_stats(x).temporary_bytes; }

static const uint64_t EXP_BYTES = sizeof(float) * ROWS * COLS;

/* The exponentials only the run reads: in its scratch, not whole. */
static void test_local(void) {
  kiln_executable *x = compile_softmax("  return %r : tensor<512x1000xf32>\n", "tensor<512x1000xf32>");
  if (!x) return;
  const double *want[1] = {g_softmax};
  bool transposed[1] = {false};
  uint64_t t = temporaries(x);
  EXPECT(t < EXP_BYTES / 4, "the exponentials in per-thread scratch: %llu bytes of temporaries, %llu whole",
         (unsigned long long)t, (unsigned long long)EXP_BYTES);
  EXPECT(runs_match(x, 1, want, transposed), "softmax on every run");
  kiln_executable_release(x);
}

/* The exponentials read after the run (a transpose) or returned stay whole. */
static void test_whole(void) {
  kiln_executable *x = compile_softmax("  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<512x1000xf32>) -> "
                                       "tensor<1000x512xf32>\n  return %r, %t : tensor<512x1000xf32>, tensor<1000x512xf32>\n",
                                       "(tensor<512x1000xf32>, tensor<1000x512xf32>)");
  if (x) {
    const double *want[2] = {g_softmax, g_exp};
    bool transposed[2] = {false, true};
    EXPECT(temporaries(x) >= EXP_BYTES, "read after the run: whole (%llu bytes)", (unsigned long long)temporaries(x));
    EXPECT(runs_match(x, 2, want, transposed), "softmax and the transposed exponentials");
    kiln_executable_release(x);
  }
  x = compile_softmax("  return %r, %e : tensor<512x1000xf32>, tensor<512x1000xf32>\n",
                      "(tensor<512x1000xf32>, tensor<512x1000xf32>)");
  if (x) {
    const double *want[2] = {g_softmax, g_exp};
    bool transposed[2] = {false, false};
    EXPECT(runs_match(x, 2, want, transposed), "softmax and the returned exponentials");
    kiln_executable_release(x);
  }
}

/* Compiled for one thread, run on the pool's two: the run stays on the caller. */
static void test_more_threads(void) {
  setenv("KILN_CPU_THREADS", "1", 1);
  kiln_executable *x = compile_softmax("  return %r : tensor<512x1000xf32>\n", "tensor<512x1000xf32>");
  setenv("KILN_CPU_THREADS", "2", 1);
  if (!x) return;
  const double *want[1] = {g_softmax};
  bool transposed[1] = {false};
  EXPECT(temporaries(x) < EXP_BYTES / 8, "scratch for one thread: %llu bytes", (unsigned long long)temporaries(x));
  EXPECT(runs_match(x, 1, want, transposed), "softmax on a pool larger than the scratch");
  kiln_executable_release(x);
}

int main(void) {
  setenv("KILN_CPU_THREADS", "2", 1); /* the pool: two threads whatever the host */
  setenv("KILN_CPU_TIER", "optimized", 1);
  reference();
  kiln_client *client = kiln_test_cpu_client();
  if (!client) return 1;
  g_device = kiln_client_device(client, 0);
  test_local();
  test_whole();
  test_more_threads();
  kiln_client_release(client);
  return test_summary();
}
