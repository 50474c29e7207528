/* Kiln's f32 product (src/backends/cpu/sgemm.h) against a double-precision reference: every
 * path (row tiles of 1 to 6 rows, whole and partial column panels, B read in place and
 * copied, both transposes, a single row of C, k of 0, k across the KC block), leading
 * dimensions wider than the rows, alpha and accumulation, NaN and infinity carried through.
 * Each matrix ends at a page the process may not touch, so a read past an operand's last
 * element or a write past C's faults; C's padding between rows holds a sentinel that must
 * survive. Skipped (exit 77) on a host without AVX2 and FMA. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/sgemm.h"
#include "expect.h"
#include "gemm_operands.h"

static uint64_t g_rng = 0x9e3779b97f4a7c15u;

static float next_value(void) { /* small integers and halves: products exact in f32 */
  g_rng = g_rng * 6364136223846793005u + 1442695040888963407u;
  return (float)((int)(g_rng >> 59) - 16) * 0.5f;
}

typedef struct shape {
  char ta, tb;
  int64_t m, n, k, pad; /* pad: extra elements per row of each operand and of C */
  float alpha;
  bool acc;
} shape;

static const float SENTINEL = -12345.0f;

/* Runs one product, compares with the reference; returns whether it matched. */
static bool check(shape s, bool special) {
  gemm_operands o;
  bool ok = gemm_operands_make(s.ta, s.tb, s.m, s.n, s.k, s.pad, sizeof(float), sizeof(float), &o);
  float *a = o.a, *b = o.b, *c = o.c, *c0 = o.c0;
  int64_t lda = o.lda, ldb = o.ldb, ldc = o.ldc;
  size_t na = o.na, nb = o.nb, nc = o.nc;
  EXPECT(ok, "out of memory");
  if (!ok) goto done;
  for (size_t i = 0; i < na; i++) a[i] = next_value();
  for (size_t i = 0; i < nb; i++) b[i] = next_value();
  for (size_t i = 0; i < nc; i++) c[i] = (int64_t)(i % (size_t)ldc) < s.n ? next_value() : SENTINEL;
  if (special) { /* a NaN in A's row 0, an infinity in B's column 0 */
    a[0] = NAN;
    b[0] = INFINITY;
  }
  memcpy(c0, c, nc * sizeof(float));
  kiln_cpu_sgemm_avx2(s.ta, s.tb, s.m, s.n, s.k, s.alpha, a, lda, b, ldb, s.acc, c, ldc);
  char what[300] = "";
  for (int64_t i = 0; i < s.m && ok; i++)
    for (int64_t j = 0; j < ldc && ok; j++) {
      if (i == s.m - 1 && j >= s.n) break;
      float got = c[i * ldc + j];
      if (j >= s.n) {
        ok = got == SENTINEL;
        if (!ok) snprintf(what, sizeof what, "padding of C row %lld overwritten", (long long)i);
        continue;
      }
      double sum = 0, size = 0;
      for (int64_t p = 0; p < s.k; p++) {
        double x = s.ta == 'N' ? a[i * lda + p] : a[p * lda + i], y = s.tb == 'N' ? b[p * ldb + j] : b[j * ldb + p];
        sum += x * y;
        size += fabs(x * y);
      }
      double prev = s.acc ? c0[i * ldc + j] : 0.0, want = (double)s.alpha * sum + prev;
      /* the terms and their partial sums are exact in f32 (multiples of 1/4 below 2^22):
       * what rounds is alpha times each block's sum and its addition to C, a few times */
      double tol = 1e-6 * (fabs((double)s.alpha) * size + fabs(prev));
      ok = isnan(want) ? isnan(got) : isinf(want) ? got == want : fabs(got - want) <= tol;
      if (!ok)
        snprintf(what, sizeof what, "%c%c m %lld n %lld k %lld pad %lld alpha %g acc %d: C[%lld][%lld] = %.9g, want %.9g", s.ta, s.tb,
               (long long)s.m, (long long)s.n, (long long)s.k, (long long)s.pad, s.alpha, s.acc, (long long)i,
               (long long)j, got, want);
    }
  EXPECT(ok, "%s", what);
done:
  gemm_operands_free(&o);
  return ok;
}

int main(void) {
  if (!kiln_cpu_sgemm_supported()) {
    printf("skipped: this host has no AVX2 and FMA\n");
    return 77;
  }
  static const int64_t ms[] = {1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 25, 64};
  static const int64_t ns[] = {1, 3, 8, 9, 15, 16, 17, 31, 32, 33, 47, 100, 513};
  static const int64_t ks[] = {0, 1, 2, 7, 8, 9, 17, 255, 256, 257, 600};
  static const char tr[2] = {'N', 'T'};
  int failures = 0;
  for (int t = 0; t < 4; t++)
    for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
      for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
        for (size_t ki = 0; ki < sizeof ks / sizeof *ks && failures < 20; ki++) {
          size_t v = mi + ni + ki; /* vary the rest along the sweep */
          shape s = {tr[t / 2], tr[t % 2], ms[mi], ns[ni], ks[ki], (int64_t)(v % 3) * 5, v % 4 == 1 ? -2.5f : v % 4 == 2 ? 0.5f : 1.0f,
                     v % 2 == 1};
          failures += !check(s, false);
        }
  /* B stored k x n whose rows are far apart (read in place or copied by the size of the block) */
  for (int t = 0; t < 2; t++) {
    failures += !check((shape){'N', 'N', 40, 64, 300, 2000 * t, 1.0f, false}, false);
    failures += !check((shape){'T', 'N', 30, 48, 520, 1500 * t, 1.0f, true}, false);
  }
  /* NaN and infinity: row 0 of C is NaN; column 0 infinite (or NaN) */
  for (int t = 0; t < 4; t++) {
    failures += !check((shape){tr[t / 2], tr[t % 2], 7, 19, 10, 1, 1.0f, false}, true);
    failures += !check((shape){tr[t / 2], tr[t % 2], 1, 40, 300, 0, 1.0f, true}, true);
  }
  return test_summary();
}
