/* Stacks (jnp.stack of columns: a concatenation of pieces one long along the joined dim,
 * src/backends/cpu/compile.c: small_stack), through the public API: a stack of cheap pieces
 * fuses into its reader (none of its bytes among the temporaries) while their ops times its
 * points stay within a bound, one of expensive pieces only while the pieces times the
 * points stay few (stored when larger); each right on the pool's threads. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/api.h"

enum { MAX_ROWS = 65536, PIECES = 3 };

static kiln_device *g_device;
static float g_x[MAX_ROWS];

/* stack([x * 2, x - 1, f(x)], axis 1) + 1 over `rows` rows, f = x * x or exp. */
static kiln_executable *compile_stack(int rows, const char *f) {
  char text[4096];
  /* %1$d the rows, %2$s the third piece (POSIX's numbered arguments) */
  snprintf(text, sizeof text,
           "func.func @main(%%x: tensor<%1$dxf32>) -> tensor<%1$dx3xf32> {\n"
           "  %%two = stablehlo.constant dense<2.0> : tensor<%1$dxf32>\n"
           "  %%one = stablehlo.constant dense<1.0> : tensor<%1$dxf32>\n"
           "  %%a = stablehlo.multiply %%x, %%two : tensor<%1$dxf32>\n"
           "  %%b = stablehlo.subtract %%x, %%one : tensor<%1$dxf32>\n"
           "  %%c = %2$s : tensor<%1$dxf32>\n"
           "  %%a1 = stablehlo.reshape %%a : (tensor<%1$dxf32>) -> tensor<%1$dx1xf32>\n"
           "  %%b1 = stablehlo.reshape %%b : (tensor<%1$dxf32>) -> tensor<%1$dx1xf32>\n"
           "  %%c1 = stablehlo.reshape %%c : (tensor<%1$dxf32>) -> tensor<%1$dx1xf32>\n"
           "  %%s = stablehlo.concatenate %%a1, %%b1, %%c1, dim = 1 : (tensor<%1$dx1xf32>, tensor<%1$dx1xf32>, "
           "tensor<%1$dx1xf32>) -> tensor<%1$dx3xf32>\n"
           "  %%ones = stablehlo.constant dense<1.0> : tensor<%1$dx3xf32>\n"
           "  %%r = stablehlo.add %%s, %%ones : tensor<%1$dx3xf32>\n"
           "  return %%r : tensor<%1$dx3xf32>\n}\n",
           rows, f);
  return kiln_test_compile(g_device, text);
}

/* Whether x's result on g_x's first `rows` values is the reference (exact; exp within 2e-7
 * relative). */
static bool right(kiln_executable *x, int rows, bool exp_piece) {
  int64_t dims[1] = {rows};
  kiln_buffer_args a = {sizeof a, KILN_ELEMENT_TYPE_F32, 1, dims, g_x, sizeof(float) * (size_t)rows};
  kiln_buffer *in = NULL, *out = NULL;
  kiln_event *e = NULL;
  kiln_status st = kiln_buffer_create(g_device, &a, &in);
  kiln_execute_args args = {sizeof args, &in, 1, &out, 1, 0, NULL};
  if (!st) st = kiln_executable_execute(x, &args, &e);
  if (!st) st = kiln_event_wait(e);
  static float got[MAX_ROWS * PIECES];
  if (!st) st = kiln_buffer_copy_to_host(out, got, sizeof(float) * (size_t)rows * PIECES);
  bool ok = !st;
  if (st) printf("  run: %s\n", kiln_status_message(st));
  for (int i = 0; ok && i < rows; i++) {
    float v = g_x[i], want[PIECES] = {v * 2.0f + 1.0f, (v - 1.0f) + 1.0f, exp_piece ? expf(v) + 1.0f : v * v + 1.0f};
    for (int k = 0; k < PIECES && ok; k++) {
      float w = want[k], g = got[i * PIECES + k];
      ok = exp_piece && k == 2 ? fabsf(g - w) <= 2e-7f * fabsf(w) : g == w;
      if (!ok) printf("  row %d piece %d: %.9g, want %.9g\n", i, k, g, w);
    }
  }
  kiln_status_free(st);
  kiln_event_release(e);
  kiln_buffer_release(out);
  kiln_buffer_release(in);
  return ok;
}

static uint64_t temporaries(const kiln_executable *x) { return kiln_test_stats(x).temporary_bytes; }

/* rows, the third piece, whether the stack must fuse (no stack's worth of temporaries). */
static void check(int rows, const char *f, bool exp_piece, bool fused) {
  kiln_executable *x = compile_stack(rows, f);
  if (!x) return;
  uint64_t t = temporaries(x), stack = sizeof(float) * (uint64_t)rows * PIECES;
  if (fused)
    EXPECT(t < stack, "%d rows of %s: fused, but %llu bytes of temporaries", rows, f, (unsigned long long)t);
  else
    EXPECT(t >= stack, "%d rows of %s: stored, but %llu bytes of temporaries", rows, f, (unsigned long long)t);
  EXPECT(right(x, rows, exp_piece), "%d rows of %s: values", rows, f);
  kiln_executable_release(x);
}

int main(void) {
  setenv("KILN_CPU_THREADS", "2", 1); /* the pool: two threads whatever the host */
  setenv("KILN_CPU_TIER", "optimized", 1);
  kiln_client *client = kiln_test_cpu_client();
  if (!client) return 1;
  g_device = kiln_client_device(client, 0);
  for (int i = 0; i < MAX_ROWS; i++) g_x[i] = (float)((i * 7919) % 2003) / 400.0f - 2.5f;
  check(4096, "stablehlo.multiply %x, %x", false, true);    /* 12,288 point-pieces, cheap */
  check(MAX_ROWS, "stablehlo.multiply %x, %x", false, false); /* 196,608 points times its ops: stored */
  check(4096, "stablehlo.exponential %x", true, false);       /* 12,288 with an exp: stored */
  check(512, "stablehlo.exponential %x", true, true);         /* 1,536: few enough */
  kiln_client_release(client);
  return test_summary();
}
