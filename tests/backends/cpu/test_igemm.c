/* Kiln's i8 x i8 -> i32 product (src/backends/cpu/igemm.h) against a 64-bit reference
 * taken modulo 2^32: every path (tiles of 1 to 4 rows, row blocks past MC, whole and
 * partial column panels, both transposes of each operand, odd k, k across the KC block,
 * k of 0), leading dimensions wider than the rows, accumulation, operands at -128 and 127
 * throughout, and a sum that wraps past 2^31. Each matrix ends at a page the process may
 * not touch, so a read past an operand's last element or a write past C's faults; C's
 * padding between rows holds a sentinel that must survive. Skipped (exit 77) on a host
 * without AVX2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/igemm.h"
#include "expect.h"
#include "gemm_operands.h"

static uint64_t g_rng = 0x2545f4914f6cdd1du;

/* kind 0: any i8; 1: -128 and 127 only (the largest products of both signs); 2: -128 */
static int8_t next_value(int kind) {
  g_rng = g_rng * 6364136223846793005u + 1442695040888963407u;
  if (kind == 2) return -128;
  if (kind == 1) return (g_rng >> 63) ? 127 : -128;
  return (int8_t)(g_rng >> 56);
}

typedef struct shape {
  char ta, tb;
  int64_t m, n, k, pad; /* pad: extra elements per row of each operand and of C */
  bool acc;
  int kind;
} shape;

static const int32_t SENTINEL = -12345;

/* Runs one product, compares with the reference; returns whether it matched. */
static bool check(shape s, void *work) {
  gemm_operands o;
  bool ok = gemm_operands_make(s.ta, s.tb, s.m, s.n, s.k, s.pad, 1, sizeof(int32_t), &o);
  int8_t *a = o.a, *b = o.b;
  int32_t *c = o.c, *c0 = o.c0;
  int64_t lda = o.lda, ldb = o.ldb, ldc = o.ldc;
  size_t na = o.na, nb = o.nb, nc = o.nc;
  EXPECT(ok, "out of memory");
  if (!ok) goto done;
  for (size_t i = 0; i < na; i++) a[i] = next_value(s.kind);
  for (size_t i = 0; i < nb; i++) b[i] = next_value(s.kind);
  for (size_t i = 0; i < nc; i++) c[i] = (int64_t)(i % (size_t)ldc) < s.n ? (int32_t)(g_rng >> 40) - (1 << 23) : SENTINEL;
  memcpy(c0, c, nc * sizeof(int32_t));
  kiln_cpu_igemm_avx2(s.ta, s.tb, s.m, s.n, s.k, a, lda, b, ldb, s.acc, c, ldc, work);
  char what[300] = "";
  for (int64_t i = 0; i < s.m && ok; i++)
    for (int64_t j = 0; j < ldc && ok; j++) {
      if (i == s.m - 1 && j >= s.n) break;
      int32_t got = c[i * ldc + j];
      if (j >= s.n) {
        ok = got == SENTINEL;
        if (!ok) snprintf(what, sizeof what, "padding of C row %lld overwritten", (long long)i);
        continue;
      }
      int64_t sum = s.acc ? c0[i * ldc + j] : 0;
      for (int64_t p = 0; p < s.k; p++)
        sum += (int64_t)(s.ta == 'N' ? a[i * lda + p] : a[p * lda + i]) * (s.tb == 'N' ? b[p * ldb + j] : b[j * ldb + p]);
      int32_t want = (int32_t)(uint32_t)(uint64_t)sum; /* modulo 2^32 */
      ok = got == want;
      if (!ok)
        snprintf(what, sizeof what, "%c%c m %lld n %lld k %lld pad %lld acc %d kind %d: C[%lld][%lld] = %d, want %d",
                 s.ta, s.tb, (long long)s.m, (long long)s.n, (long long)s.k, (long long)s.pad, s.acc, s.kind,
                 (long long)i, (long long)j, got, want);
    }
  EXPECT(ok, "%s", what);
done:
  gemm_operands_free(&o);
  return ok;
}

int main(void) {
  if (!kiln_cpu_igemm_supported()) {
    printf("skipped: this host has no AVX2\n");
    return 77;
  }
  void *work = aligned_alloc(32, KILN_CPU_IGEMM_WORK_BYTES);
  if (!work) return 1;
  static const int64_t ms[] = {1, 2, 3, 4, 5, 7, 8, 13, 63, 64, 65, 130};
  static const int64_t ns[] = {1, 3, 8, 9, 15, 16, 17, 33, 100};
  static const int64_t ks[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 255, 256, 257, 600};
  static const char tr[2] = {'N', 'T'};
  int failures = 0;
  for (int t = 0; t < 4; t++)
    for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
      for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
        for (size_t ki = 0; ki < sizeof ks / sizeof *ks && failures < 20; ki++) {
          size_t v = mi + ni + ki; /* vary the rest along the sweep */
          shape s = {tr[t / 2], tr[t % 2], ms[mi], ns[ni], ks[ki], (int64_t)(v % 3) * 5, v % 2 == 1, v % 5 == 0};
          failures += !check(s, work);
        }
  /* the largest products of every sign across several k blocks; a sum past 2^31 wraps */
  for (int t = 0; t < 4; t++) {
    failures += !check((shape){tr[t / 2], tr[t % 2], 9, 37, 2049, 3, t % 2 == 1, 1}, work);
    failures += !check((shape){tr[t / 2], tr[t % 2], 5, 17, 131073 + t, 0, false, 2}, work);
  }
  free(work);
  return test_summary();
}
