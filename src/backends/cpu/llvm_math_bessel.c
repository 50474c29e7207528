/* chlo.bessel_i1e on real values: I1(x) e^-|x| (f32 inputs computed in f64). It is odd;
 * for a = |x| up to 25 its power series e^-a (a/2) sum_k (a^2/4)^k / (k! (k+1)!), whose
 * terms are all positive (no cancellation), 40 terms within 2e-18 at 25 (32 for a float's
 * result); beyond, the asymptotic series (1 / sqrt(2 pi a)) sum_k d_k a^-k,
 * d_k = prod_{j <= k} -(4 - (2j - 1)^2) / (8j), 22 terms within 2e-18 from 25 on (8 for a
 * float). The coefficients are computed in long double when the code is built, each then
 * rounded once. NaN stays NaN; infinities give a signed zero. */
#include "backends/cpu/llvm_math_internal.h"

enum { SERIES_TERMS = 40, SERIES_TERMS_F32 = 32, ASYM_TERMS = 22, ASYM_TERMS_F32 = 8 };
#define SPLIT 25.0

/* The asymptotic side at a (> SPLIT, or infinite: w = 0, the result 0), over every lane. */
typedef struct far_side {
  const double *asym;
  kiln_mv a;
} far_side;

static void i1e_far(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const far_side *f = ctx;
  kiln_mv af = kiln_mb_sel(e, kiln_mb_le(e, f->a, kiln_mb_c(e, SPLIT)), kiln_mb_c(e, SPLIT), f->a);
  kiln_mv w = kiln_mb_div(e, kiln_mb_c(e, 1.0), af);
  kiln_mv p = kiln_mb_poly(e, w, f->asym, e->narrow ? ASYM_TERMS_F32 : ASYM_TERMS);
  out[0] = kiln_mb_div(e, p, kiln_mb_mulc(e, kiln_mb_sqrt(e, af), 0x1.40d931ff62705p+1)); /* sqrt(2 pi) sqrt(a): no overflow */
}

kiln_mv kiln_math_bessel_i1e(const kiln_mb *e, kiln_mv x) {
  double series[SERIES_TERMS], asym[ASYM_TERMS];
  long double fk = 1; /* k! (k+1)! */
  for (int k = 0; k < SERIES_TERMS; k++) {
    series[k] = (double)(1.0L / fk);
    fk *= (long double)(k + 1) * (long double)(k + 2);
  }
  long double d = 1;
  for (int k = 0; k < ASYM_TERMS; k++) {
    asym[k] = (double)d;
    d *= -(4.0L - (long double)(2 * k + 1) * (2 * k + 1)) / (8.0L * (k + 1));
  }
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv near_side = kiln_mb_le(e, a, kiln_mb_c(e, SPLIT));
  kiln_mv an = kiln_mb_sel(e, near_side, a, kiln_mb_c(e, SPLIT));
  kiln_mv u = kiln_mb_mulc(e, kiln_mb_mul(e, an, an), 0.25);
  kiln_mv s = kiln_mb_poly(e, u, series, e->narrow ? SERIES_TERMS_F32 : SERIES_TERMS);
  kiln_mv r = kiln_mb_mul(e, kiln_mb_mul(e, kiln_math_exp(e, kiln_mb_neg(e, an)), kiln_mb_mulc(e, an, 0.5)), s);
  far_side f = {asym, a}; /* most programs never reach it: computed only when a lane does */
  kiln_mb_where_any(e, kiln_mb_not(e, near_side), 1, &r, i1e_far, &f);
  r = kiln_mb_copysign(e, r, x);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, r);
}
