/* Element types: float formats round-trip through their storage bits, round to nearest
 * even, and handle the formats' special values. */
#include <math.h>
#include <stdio.h>

#include "ir/ir.h"

static int g_passed, g_failed;

static void expect_bits(kiln_elem e, double v, unsigned long long want, const char *what) {
  unsigned long long got = kiln_elem_float_to_bits(e, v);
  if (got == want) g_passed++;
  else printf("FAIL %s: %s(%g) = 0x%llx, expected 0x%llx\n", what, kiln_elem_name(e), v, got, want), g_failed++;
}

static void expect_value(kiln_elem e, unsigned long long bits, double want, const char *what) {
  double got = kiln_elem_float_from_bits(e, bits);
  if (got == want || (isnan(got) && isnan(want))) g_passed++;
  else printf("FAIL %s: %s(0x%llx) = %g, expected %g\n", what, kiln_elem_name(e), bits, got, want), g_failed++;
}

int main(void) {
  expect_bits(KILN_ELEM_F16, 1.0, 0x3c00, "f16 one");
  expect_bits(KILN_ELEM_F16, 65504.0, 0x7bff, "f16 max");
  expect_bits(KILN_ELEM_F16, 65520.0, 0x7c00, "f16 overflow rounds to inf");
  expect_bits(KILN_ELEM_F16, 5.960464477539063e-08, 0x0001, "f16 min subnormal");
  expect_bits(KILN_ELEM_BF16, 1.0 + 1.0 / 256, 0x3f80, "bf16 tie to even (down)");
  expect_bits(KILN_ELEM_BF16, 1.0 + 3.0 / 256, 0x3f82, "bf16 tie to even (up)");
  expect_bits(KILN_ELEM_F8E4M3FN, 448.0, 0x7e, "e4m3fn max");
  expect_bits(KILN_ELEM_F8E4M3FN, 1000.0, 0x7f, "e4m3fn overflow is NaN");
  expect_bits(KILN_ELEM_F8E4M3FN, -0.0, 0x80, "e4m3fn negative zero");
  expect_bits(KILN_ELEM_F8E4M3FNUZ, -0.0, 0x00, "e4m3fnuz has no negative zero");
  expect_bits(KILN_ELEM_F8E4M3FNUZ, NAN, 0x80, "e4m3fnuz NaN");
  expect_bits(KILN_ELEM_F8E5M2, INFINITY, 0x7c, "e5m2 inf");
  expect_bits(KILN_ELEM_F8E5M2FNUZ, 1.0, 0x40, "e5m2fnuz bias 16");
  expect_bits(KILN_ELEM_F8E4M3B11FNUZ, 1.0, 0x58, "e4m3b11fnuz bias 11");
  expect_bits(KILN_ELEM_F4E2M1FN, 6.0, 0x7, "f4 max");
  expect_bits(KILN_ELEM_F4E2M1FN, 100.0, 0x7, "f4 saturates");
  expect_bits(KILN_ELEM_F4E2M1FN, 0.5, 0x1, "f4 subnormal");
  expect_bits(KILN_ELEM_F6E3M2FN, 28.0, 0x1f, "f6e3m2 max");
  expect_bits(KILN_ELEM_F6E2M3FN, 7.5, 0x1f, "f6e2m3 max");
  expect_bits(KILN_ELEM_F8E8M0FNU, 1.0, 127, "e8m0 one");
  expect_bits(KILN_ELEM_F8E8M0FNU, 0.25, 125, "e8m0 quarter");
  expect_value(KILN_ELEM_F8E4M3FN, 0x7f, NAN, "e4m3fn NaN pattern");
  expect_value(KILN_ELEM_F8E4M3, 0x78, INFINITY, "e4m3 inf");
  expect_value(KILN_ELEM_F8E3M4, 0x3c, 1.75, "e3m4 value");
  expect_value(KILN_ELEM_F16, 0x0001, 5.960464477539063e-08, "f16 subnormal value");
  /* Every pattern of every small float decodes and re-encodes to itself (NaNs aside). */
  for (int e = 0; e < KILN_ELEM_COUNT; e++) {
    if (!kiln_elem_is_float((kiln_elem)e) || kiln_elem_bits((kiln_elem)e) > 16) continue;
    int bad = 0;
    for (unsigned long long b = 0; b < (1ull << kiln_elem_bits((kiln_elem)e)); b++) {
      double v = kiln_elem_float_from_bits((kiln_elem)e, b);
      if (!isnan(v) && kiln_elem_float_to_bits((kiln_elem)e, v) != b) bad++;
    }
    if (bad) printf("FAIL %s: %d patterns do not round-trip\n", kiln_elem_name((kiln_elem)e), bad), g_failed++;
    else g_passed++;
  }
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
