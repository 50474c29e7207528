/* LAPACK steps of one executable run from several threads at once (src/backends/lapack/
 * kernels.c keeps each run's buffers in the plan for the next run): on the cpu device, a
 * cholesky and a triangular solve; each thread's inputs are its own multiple of one
 * positive definite matrix, and every result must equal, bit for bit, what a run alone gave
 * for the same inputs before the threads started. Prints "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "kiln/kiln.h"

enum { N = 48, RHS = 8, THREADS = 4, RUNS = 60 };

static const char k_program[] =
    "func.func @main(%a: tensor<48x48xf32>, %b: tensor<48x8xf32>) -> tensor<48x8xf32> {\n"
    "  %l = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<48x48xf32>) -> tensor<48x48xf32>\n"
    "  %x = \"stablehlo.triangular_solve\"(%l, %b) {left_side = true, lower = true, unit_diagonal = false,\n"
    "      transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<48x48xf32>, tensor<48x8xf32>) -> tensor<48x8xf32>\n"
    "  return %x : tensor<48x8xf32>\n"
    "}\n";

static kiln_device *g_device;
static kiln_executable *g_x;
static float g_a[THREADS][N * N], g_b[THREADS][N * RHS], g_want[THREADS][N * RHS];

/* One run on thread k's inputs into x; false on any error. */
static bool run(int k, float *x) {
  int64_t ad[2] = {N, N}, bd[2] = {N, RHS};
  kiln_buffer_args aa = {sizeof aa, KILN_ELEMENT_TYPE_F32, 2, ad, g_a[k], sizeof g_a[k]};
  kiln_buffer_args ba = {sizeof ba, KILN_ELEMENT_TYPE_F32, 2, bd, g_b[k], sizeof g_b[k]};
  kiln_buffer *in[2] = {NULL, NULL}, *out[1] = {NULL};
  kiln_event *e = NULL;
  kiln_status st = kiln_buffer_create(g_device, &aa, &in[0]);
  if (!st) st = kiln_buffer_create(g_device, &ba, &in[1]);
  kiln_execute_args args = {sizeof args, in, 2, out, 1, 0, NULL};
  if (!st) st = kiln_executable_execute(g_x, &args, &e);
  if (!st) st = kiln_buffer_copy_to_host(out[0], x, sizeof g_want[k]);
  bool ok = st == NULL;
  kiln_status_free(st);
  kiln_event_release(e);
  for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]);
  kiln_buffer_release(out[0]);
  return ok;
}

static void *run_many(void *arg) {
  int k = (int)(intptr_t)arg, *bad = calloc(1, sizeof *bad);
  float x[N * RHS];
  for (int r = 0; bad && r < RUNS; r++) *bad += !run(k, x) || memcmp(x, g_want[k], sizeof x) != 0;
  return bad;
}

int main(void) {
  setenv("KILN_CPU_TIER", "optimized", 1); /* LAPACK steps from the first run */
  kiln_client_options o = {.struct_size = sizeof o, .devices = "cpu"};
  kiln_client *c = NULL;
  kiln_program *p = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  if (!st) st = kiln_program_create(k_program, strlen(k_program), NULL, &p);
  if (!st) g_device = kiln_client_device(c, 0);
  if (!st) st = kiln_program_compile(p, g_device, NULL, &g_x);
  EXPECT(!st, "setting up: %s", kiln_status_message(st));
  kiln_status_free(st);
  if (!g_x) return test_summary();
  /* A = M M^T / N + I (positive definite), times 1, 2, 3, 4; B's entries small integers */
  static float m[N * N];
  for (int i = 0; i < N * N; i++) m[i] = (float)((i * 37 % 17) - 8) / 8.0f;
  for (int k = 0; k < THREADS; k++) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        float s = i == j ? 1.0f : 0.0f;
        for (int q = 0; q < N; q++) s += m[i * N + q] * m[j * N + q] / N;
        g_a[k][i * N + j] = s * (float)(k + 1);
      }
    for (int i = 0; i < N * RHS; i++) g_b[k][i] = (float)(i % 7 - 3);
    EXPECT(run(k, g_want[k]), "a run alone on inputs %d failed", k);
  }
  /* the solve's answer for multiple k + 1 is the first one's over sqrt(k + 1): distinct */
  EXPECT(memcmp(g_want[0], g_want[1], sizeof g_want[0]) != 0, "the threads' answers differ from one another");
  pthread_t t[THREADS];
  for (int k = 0; k < THREADS; k++) pthread_create(&t[k], NULL, run_many, (void *)(intptr_t)k);
  int bad = 0;
  for (int k = 0; k < THREADS; k++) {
    void *r = NULL;
    pthread_join(t[k], &r);
    bad += r ? *(int *)r : RUNS;
    free(r);
  }
  EXPECT(bad == 0, "%d of %d runs from %d threads wrong or failed", bad, THREADS * RUNS, THREADS);
  kiln_executable_release(g_x);
  kiln_program_release(p);
  kiln_client_release(c);
  return test_summary();
}
