/* chlo.next_after(x, y) on the raw bits, as the interpreter's (kernels_elementwise.c): NaN if
 * either is NaN, y if x = y, the smallest subnormal signed like y from a zero x, else one
 * step of x's bit pattern toward y (down toward zero, up away from it). Native precision
 * only: a step is one ULP of the type computed in. */
#include "backends/cpu/llvm_math_internal.h"

kiln_mv kiln_math_next_after(const kiln_mb *e, kiln_mv x, kiln_mv y) {
  int64_t sign = e->dbl ? INT64_MIN : INT32_MIN;
  kiln_mv xb = kiln_mb_bits(e, x), yb = kiln_mb_bits(e, y);
  kiln_mv mag = kiln_mb_ci(e, ~sign);
  kiln_mv xa = kiln_mb_iand(e, xb, mag), ya = kiln_mb_iand(e, yb, mag);
  kiln_mv xneg = LLVMBuildICmp(e->b, LLVMIntSLT, xb, kiln_mb_ci(e, 0), "");
  kiln_mv yneg = LLVMBuildICmp(e->b, LLVMIntSLT, yb, kiln_mb_ci(e, 0), "");
  kiln_mv down = kiln_mb_or(e, LLVMBuildICmp(e->b, LLVMIntUGT, xa, ya, ""), LLVMBuildXor(e->b, xneg, yneg, ""));
  kiln_mv step = kiln_mb_iadd(e, xb, LLVMBuildSelect(e->b, down, kiln_mb_ci(e, -1), kiln_mb_ci(e, 1), ""));
  kiln_mv from_zero = kiln_mb_iadd(e, kiln_mb_iand(e, yb, kiln_mb_ci(e, sign)), kiln_mb_ci(e, 1));
  kiln_mv r = kiln_mb_from_bits(e, LLVMBuildSelect(e->b, kiln_mb_eqc(e, x, 0.0), from_zero, step, ""));
  r = kiln_mb_sel(e, kiln_mb_eq(e, x, y), y, r);
  return kiln_mb_sel(e, kiln_mb_or(e, kiln_mb_isnan(e, x), kiln_mb_isnan(e, y)), kiln_mb_nan(e), r);
}
