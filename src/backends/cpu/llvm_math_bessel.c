/* chlo.bessel_i1e on real values: I1(x) e^-|x|. It is odd.
 *
 * f64: for a = |x| up to 25 its power series e^-a (a/2) sum_k (a^2/4)^k / (k! (k+1)!),
 * whose terms are all positive (no cancellation), 40 terms within 2e-18 at 25; beyond, the
 * asymptotic series (1 / sqrt(2 pi a)) sum_k d_k a^-k, d_k = prod_{j <= k} -(4 - (2j -
 * 1)^2) / (8j), 22 terms within 2e-18 from 25 on. The coefficients are computed in long
 * double when the code is built, each then rounded once.
 *
 * f32, in f32: Chebyshev series fitted when the code is built (interpolation at 64
 * Chebyshev nodes of the long double function above), evaluated by Clenshaw's recurrence:
 * up to 6, of i1e(a) (1 + a) / a in t = a/3 - 1 (the factor keeps the sum within a
 * factor of 2.5 over the interval, so the recurrence does not cancel), then times a / (1 +
 * a); beyond, of i1e(a) sqrt(a) in s = 12/a - 1, then over sqrt(a). 3.1 ULP at most
 * measured (the recurrence's roundings; the product and quotient kept exact took it only to
 * 2.9), where XLA:CPU's f32 i1e has 10.5.
 *
 * NaN stays NaN; infinities give a signed zero. */
#include "backends/cpu/llvm_math_internal.h"

#include <math.h>

enum { SERIES_TERMS = 40, ASYM_TERMS = 22 };
#define SPLIT 25.0
/* the f32 kernel's Chebyshev series: terms on each side, the split, the fitting nodes */
enum { NEAR_TERMS = 17, FAR_TERMS = 10, FIT_NODES = 64 };
#define SPLIT_F32 6.0

/* A far side's coefficients and a = |x|, for the kernels below. */
typedef struct far_side {
  const double *coef;
  kiln_mv a;
} far_side;

/* The asymptotic side at a (> SPLIT, or infinite: w = 0, the result 0), over every lane. */
static void i1e_far(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const far_side *f = ctx;
  kiln_mv af = kiln_mb_sel(e, kiln_mb_le(e, f->a, kiln_mb_c(e, SPLIT)), kiln_mb_c(e, SPLIT), f->a);
  kiln_mv w = kiln_mb_div(e, kiln_mb_c(e, 1.0), af);
  kiln_mv p = kiln_mb_poly(e, w, f->coef, ASYM_TERMS);
  out[0] = kiln_mb_div(e, p, kiln_mb_mulc(e, kiln_mb_sqrt(e, af), 0x1.40d931ff62705p+1)); /* sqrt(2 pi) sqrt(a): no overflow */
}

/* i1e(a) for a >= 0 in long double, by the series or the asymptotic series above. */
static long double i1e_ld(long double a) {
  if (a <= SPLIT) {
    long double u = a * a / 4, term = 1, sum = 0;
    for (int k = 0; k < 60; k++) { /* past the f64 kernel's 40 terms: long double's precision */
      sum += term;
      term *= u / ((long double)(k + 1) * (long double)(k + 2));
    }
    return expl(-a) * (a / 2) * sum;
  }
  long double d = 1, sum = 0, w = 1 / a;
  for (int k = 0; k < ASYM_TERMS; k++) {
    sum += d;
    d *= -(4.0L - (long double)(2 * k + 1) * (2 * k + 1)) / (8.0L * (k + 1)) * w;
  }
  return sum / sqrtl(2 * 3.14159265358979323846264338327950288L * a);
}

/* The near side's function of t in [-1, 1] and the far side's of s in (-1, 1]. */
static long double near_fn(long double t) {
  long double a = (long double)SPLIT_F32 / 2 * (t + 1);
  return a == 0 ? 0.5L : i1e_ld(a) * (1 + a) / a;
}
static long double far_fn(long double s) {
  long double a = 2 * (long double)SPLIT_F32 / (s + 1);
  return i1e_ld(a) * sqrtl(a);
}

/* The first n Chebyshev coefficients of f on [-1, 1] (f ~ sum c_k T_k), interpolated at
 * FIT_NODES nodes of the first kind. */
static void cheb_fit(long double (*f)(long double), double *c, int n) {
  const long double pi = 3.14159265358979323846264338327950288L;
  long double fx[FIT_NODES];
  for (int j = 0; j < FIT_NODES; j++) fx[j] = f(cosl(pi * (j + 0.5L) / FIT_NODES));
  for (int k = 0; k < n; k++) {
    long double sum = 0;
    for (int j = 0; j < FIT_NODES; j++) sum += fx[j] * cosl(pi * k * (j + 0.5L) / FIT_NODES);
    c[k] = (double)(sum * (k ? 2.0L : 1.0L) / FIT_NODES);
  }
}

/* sum c_k T_k(t) by Clenshaw's recurrence. */
static kiln_mv clenshaw(const kiln_mb *e, kiln_mv t, const double *c, int n) {
  kiln_mv t2 = kiln_mb_add(e, t, t), b1 = kiln_mb_c(e, 0), b2 = kiln_mb_c(e, 0);
  for (int k = n - 1; k >= 1; k--) {
    kiln_mv b0 = kiln_mb_fma(e, t2, b1, kiln_mb_sub(e, kiln_mb_c(e, c[k]), b2));
    b2 = b1;
    b1 = b0;
  }
  return kiln_mb_fma(e, t, b1, kiln_mb_sub(e, kiln_mb_c(e, c[0]), b2));
}

/* The f32 far side at a (> SPLIT_F32, or infinite: the result 0), over every lane. */
static void i1e_far_f32(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const far_side *f = ctx;
  kiln_mv af = kiln_mb_sel(e, kiln_mb_le(e, f->a, kiln_mb_c(e, SPLIT_F32)), kiln_mb_c(e, 2 * SPLIT_F32), f->a);
  kiln_mv s = kiln_mb_addc(e, kiln_mb_div(e, kiln_mb_c(e, 2 * SPLIT_F32), af), -1.0);
  out[0] = kiln_mb_div(e, clenshaw(e, s, f->coef, FAR_TERMS), kiln_mb_sqrt(e, af));
}

static kiln_mv i1e_f32(const kiln_mb *e, kiln_mv x) {
  double near_c[NEAR_TERMS], far_c[FAR_TERMS];
  cheb_fit(near_fn, near_c, NEAR_TERMS);
  cheb_fit(far_fn, far_c, FAR_TERMS);
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv near_side = kiln_mb_le(e, a, kiln_mb_c(e, SPLIT_F32));
  kiln_mv an = kiln_mb_sel(e, near_side, a, kiln_mb_c(e, SPLIT_F32));
  kiln_mv t = kiln_mb_fma(e, an, kiln_mb_c(e, 2 / SPLIT_F32), kiln_mb_c(e, -1.0));
  kiln_mv r = kiln_mb_div(e, kiln_mb_mul(e, an, clenshaw(e, t, near_c, NEAR_TERMS)), kiln_mb_addc(e, an, 1.0));
  far_side f = {far_c, a};
  kiln_mb_where_any(e, kiln_mb_not(e, near_side), 1, &r, i1e_far_f32, &f);
  r = kiln_mb_copysign(e, r, x);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, r);
}

kiln_mv kiln_math_bessel_i1e(const kiln_mb *e, kiln_mv x) {
  if (!e->dbl) return i1e_f32(e, x);
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
  kiln_mv s = kiln_mb_poly(e, u, series, SERIES_TERMS);
  kiln_mv r = kiln_mb_mul(e, kiln_mb_mul(e, kiln_math_exp(e, kiln_mb_neg(e, an)), kiln_mb_mulc(e, an, 0.5)), s);
  far_side f = {asym, a}; /* most programs never reach it: computed only when a lane does */
  kiln_mb_where_any(e, kiln_mb_not(e, near_side), 1, &r, i1e_far, &f);
  r = kiln_mb_copysign(e, r, x);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, r);
}
