/* The gamma family: lgamma and digamma (f32 inputs computed in f64), from the series the
 * interpreter uses (base/special_series.h); every lane computes every region and selects.
 *
 * lgamma, z > -0.5: below 1.5 lgamma(z) = lgamma(z + n) - log|z ... (z + n - 1)|, n = 1 or 2;
 * in [1.5, 10) lgamma(z) = lgamma(y) + log(y ... (z - 1)), y = z - n in [1.5, 2.5) (exact);
 * lgamma(y) from its Taylor series at 2, where it vanishes, so that the relative accuracy
 * holds near both zeros (1 and 2); from 10 on Stirling's series, arranged as
 * z (log z - 1) - log(z) / 2 + log(2 pi) / 2 + S(1/z) so that no term overflows before the
 * result. Below -0.5 by reflection: log(pi / |sin(pi z)|) - lgamma(1 - z), sin(pi z) of the
 * exact fraction z - rint(z); its terms cancel near lgamma's negative zeros, where the
 * error is a few ULPs of the larger term, not of the result (SLEEF's lgamma has the same
 * limit). Poles (0 and the negative integers) and infinities: +inf.
 *
 * digamma, as the interpreter's: negative x by reflection psi(1 - x) - pi cot(pi x);
 * (0, 1) as psi(x + 1) - 1/x; [1, 10) brought to y in [1, 2) by psi(y + n) = psi(y) +
 * sum_k 1/(y + k) (one division: the sum kept as a fraction), psi(y) from the Taylor series
 * at its zero x0 (shifted by x0 in two parts); from 10 on the asymptotic series. NaN at the
 * poles and at -inf. */
#include <stddef.h>

#include "backends/cpu/llvm_math.h"
#include "backends/cpu/llvm_math_internal.h"
#include "base/special_series.h"

#define LOG_PI 0x1.250d048e7a1bdp+0        /* log(pi) */
#define HALF_LOG_2PI 0x1.d67f1c864beb5p-1  /* log(2 pi) / 2 */
#define PI 0x1.921fb54442d18p+1

/* Terms of the series for a float's result (computed in double, rounded once): within 2^-34
 * relative, see base/special_series_fit.py; the asymptotic series from 10 on need 4. */
static int terms(const kiln_mb *e, int f64, int f32) { return e->narrow ? f32 : f64; }

/* Stirling: lgamma(z) - (z - 1/2) log z + z - log(2 pi)/2 = (1/z) sum_k B_2k/(2k (2k-1)) z^-2(k-1) */
static const double kStirling[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
                                   -691.0 / 360360, 1.0 / 156, -3617.0 / 122400};
/* digamma: log z - 1/(2z) - (1/z^2) sum_k B_2k/(2k) z^-2(k-1) */
static const double kDigammaAsym[] = {1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132,
                                      -691.0 / 32760, 1.0 / 12, -3617.0 / 8160};

/* Lanes where x is a pole of lgamma/digamma (zero, a negative integer, -inf); r is
 * x - rint(x), exact. */
static kiln_mv pole_of(const kiln_mb *e, kiln_mv x, kiln_mv *out_r) {
  kiln_mv fin = kiln_mb_not(e, kiln_mb_or(e, kiln_mb_isnan(e, x), kiln_mb_isinf(e, x)));
  kiln_mv xs = kiln_mb_sel(e, fin, x, kiln_mb_c(e, 0.5));
  *out_r = kiln_mb_sub(e, xs, kiln_mb_rint(e, xs));
  kiln_mv nonpos = kiln_mb_not(e, kiln_mb_gtc(e, x, 0.0));
  kiln_mv integral = kiln_mb_or(e, kiln_mb_eqc(e, *out_r, 0.0), kiln_mb_isinf(e, x));
  return kiln_mb_and(e, kiln_mb_and(e, nonpos, integral), kiln_mb_not(e, kiln_mb_isnan(e, x)));
}

/* The product of (y + j) for j < n (n a small integer-valued float, at most `most`). */
static kiln_mv rising(const kiln_mb *e, kiln_mv y, kiln_mv n, int most, kiln_mv *out_sum_num) {
  kiln_mv p = kiln_mb_c(e, 1.0), num = kiln_mb_c(e, 0.0);
  for (int j = 0; j < most; j++) {
    kiln_mv take = kiln_mb_gtc(e, n, (double)j);
    kiln_mv f = kiln_mb_addc(e, y, (double)j);
    if (out_sum_num) /* sum 1/(y + j) = num / p */
      num = kiln_mb_sel(e, take, kiln_mb_fma(e, num, f, p), num);
    p = kiln_mb_sel(e, take, kiln_mb_mul(e, p, f), p);
  }
  if (out_sum_num) *out_sum_num = num;
  return p;
}

/* What a reflection needs: the exact fraction r = x - rint(x) and the function at 1 - x
 * (the context of the reflected formulas, run only where some lane is negative:
 * kiln_mb_where_any). */
typedef struct reflection {
  kiln_mv r, at_1mx;
} reflection;

/* lgamma(z) for z > -0.5 finite, not zero. */
static kiln_mv lgamma_pos(const kiln_mb *e, kiln_mv z) {
  kiln_mv lt05 = kiln_mb_ltc(e, z, 0.5), lt15 = kiln_mb_ltc(e, z, 1.5);
  kiln_mv big = kiln_mb_not(e, kiln_mb_ltc(e, z, 10.0));
  kiln_mv zm = kiln_mb_sel(e, kiln_mb_or(e, lt15, big), kiln_mb_c(e, 1.5), z);
  kiln_mv n = kiln_mb_floor(e, kiln_mb_addc(e, zm, -1.5));
  kiln_mv y = kiln_mb_sub(e, zm, n); /* exact: y + j for j < n is representable */
  kiln_mv p = rising(e, y, n, 8, NULL);
  kiln_mv t = kiln_mb_sel(e, lt15, kiln_mb_sel(e, lt05, z, kiln_mb_addc(e, z, -1.0)), kiln_mb_addc(e, y, -2.0));
  kiln_mv q = kiln_mb_sel(e, lt05, kiln_mb_mul(e, z, kiln_mb_addc(e, z, 1.0)), z);
  kiln_mv arg = kiln_mb_sel(e, lt15, q, kiln_mb_sel(e, big, z, p));
  kiln_mv l = kiln_math_log_core(e, kiln_mb_fabs(e, arg), kiln_mb_c(e, 0.0));
  kiln_mv series = kiln_mb_mul(e, t, kiln_mb_poly(e, t, kiln_lgamma_taylor2,
                                                   terms(e, KILN_LGAMMA_TAYLOR2_TERMS, KILN_LGAMMA_TAYLOR2_TERMS_F32)));
  kiln_mv near = kiln_mb_add(e, series, kiln_mb_sel(e, lt15, kiln_mb_neg(e, l), l));
  kiln_mv w = kiln_mb_div(e, kiln_mb_c(e, 1.0), z);
  kiln_mv s = kiln_mb_mul(e, w, kiln_mb_poly(e, kiln_mb_mul(e, w, w), kStirling, terms(e, 8, 4)));
  kiln_mv far = kiln_mb_fma(e, z, kiln_mb_addc(e, l, -1.0),
                            kiln_mb_add(e, kiln_mb_fma(e, l, kiln_mb_c(e, -0.5), kiln_mb_c(e, HALF_LOG_2PI)), s));
  return kiln_mb_sel(e, big, far, near);
}

/* log(pi / |sin(pi x)|) - lgamma(1 - x) */
static void lgamma_reflected(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const reflection *rf = ctx;
  kiln_mv s, c;
  kiln_math_sincos_pi(e, rf->r, &s, &c);
  kiln_mv log_sin = kiln_math_log_core(e, kiln_mb_fabs(e, s), kiln_mb_c(e, 0.0));
  out[0] = kiln_mb_sub(e, kiln_mb_sub(e, kiln_mb_c(e, LOG_PI), log_sin), rf->at_1mx);
}

kiln_mv kiln_math_lgamma(const kiln_mb *e, kiln_mv x) {
  kiln_mv r;
  kiln_mv pole = pole_of(e, x, &r);
  kiln_mv special = kiln_mb_or(e, kiln_mb_or(e, pole, kiln_mb_isnan(e, x)), kiln_mb_isinf(e, x));
  kiln_mv neg = kiln_mb_and(e, kiln_mb_ltc(e, x, -0.5), kiln_mb_not(e, special));
  kiln_mv z = kiln_mb_sel(e, neg, kiln_mb_sub(e, kiln_mb_c(e, 1.0), x), x);
  z = kiln_mb_sel(e, special, kiln_mb_c(e, 2.0), z);
  kiln_mv lz = lgamma_pos(e, z);
  reflection rf = {r, lz};
  kiln_mv y = lz;
  kiln_mb_where_any(e, neg, 1, &y, lgamma_reflected, &rf);
  y = kiln_mb_sel(e, kiln_mb_or(e, pole, kiln_mb_isinf(e, x)), kiln_mb_inf(e), y);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, y);
}

/* psi(1 - x) - pi cot(pi x) */
static void digamma_reflected(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const reflection *rf = ctx;
  kiln_mv s, c;
  kiln_math_sincos_pi(e, rf->r, &s, &c);
  out[0] = kiln_mb_sub(e, rf->at_1mx, kiln_mb_div(e, kiln_mb_mulc(e, c, PI), s));
}

kiln_mv kiln_math_digamma(const kiln_mb *e, kiln_mv x) {
  kiln_mv r;
  kiln_mv pole = pole_of(e, x, &r);
  kiln_mv special = kiln_mb_or(e, kiln_mb_or(e, pole, kiln_mb_isnan(e, x)), kiln_mb_isinf(e, x));
  kiln_mv neg = kiln_mb_and(e, kiln_mb_ltc(e, x, 0.0), kiln_mb_not(e, special));
  kiln_mv z = kiln_mb_sel(e, neg, kiln_mb_sub(e, kiln_mb_c(e, 1.0), x), x);
  z = kiln_mb_sel(e, special, kiln_mb_c(e, 2.0), z);
  kiln_mv lt1 = kiln_mb_ltc(e, z, 1.0), big = kiln_mb_not(e, kiln_mb_ltc(e, z, 10.0));
  kiln_mv zm = kiln_mb_sel(e, kiln_mb_or(e, lt1, big), kiln_mb_c(e, 1.0), z);
  kiln_mv n = kiln_mb_addc(e, kiln_mb_floor(e, zm), -1.0);
  kiln_mv y = kiln_mb_sub(e, zm, n);
  kiln_mv u = kiln_mb_sel(e, lt1, kiln_mb_addc(e, kiln_mb_addc(e, z, -KILN_DIGAMMA_X0M1_HI), -KILN_DIGAMMA_X0_LO),
                          kiln_mb_addc(e, kiln_mb_addc(e, y, -KILN_DIGAMMA_X0_HI), -KILN_DIGAMMA_X0_LO));
  kiln_mv series = kiln_mb_mul(e, u, kiln_mb_poly(e, u, kiln_digamma_taylor,
                                                   terms(e, KILN_DIGAMMA_TAYLOR_TERMS, KILN_DIGAMMA_TAYLOR_TERMS_F32)));
  kiln_mv num;
  kiln_mv den = rising(e, y, n, 8, &num);
  /* -1/z below 1, else the sum num/den: one division */
  kiln_mv frac = kiln_mb_div(e, kiln_mb_sel(e, lt1, kiln_mb_c(e, -1.0), num), kiln_mb_sel(e, lt1, z, den));
  kiln_mv near = kiln_mb_add(e, series, frac);
  kiln_mv zb = kiln_mb_sel(e, big, z, kiln_mb_c(e, 10.0));
  kiln_mv inv = kiln_mb_div(e, kiln_mb_c(e, 1.0), zb);
  kiln_mv w = kiln_mb_mul(e, inv, inv);
  kiln_mv tail = kiln_mb_fma(e, w, kiln_mb_poly(e, w, kDigammaAsym, terms(e, 8, 4)), kiln_mb_mulc(e, inv, 0.5));
  kiln_mv far = kiln_mb_sub(e, kiln_math_log_core(e, zb, kiln_mb_c(e, 0.0)), tail);
  kiln_mv psi = kiln_mb_sel(e, big, far, near);
  reflection rf = {r, psi};
  kiln_mv v = psi;
  kiln_mb_where_any(e, neg, 1, &v, digamma_reflected, &rf);
  v = kiln_mb_sel(e, pole, kiln_mb_nan(e), v);
  return kiln_mb_sel(e, kiln_mb_or(e, kiln_mb_isnan(e, x), kiln_mb_eq(e, x, kiln_mb_inf(e))), x, v);
}
