/* cbrt and pow. Float inputs are computed in double and rounded once (see llvm_math.c).
 *
 * cbrt: |x| = 2^(3k) * t with t in [1, 8), a linear first guess, two Halley steps (each
 * cubes the relative error), then for double one Newton step on an fma-exact residual.
 * pow: C99 special cases, magnitude exp(y * log|x|). */
#include <math.h>
#include <stddef.h>

#include "backends/cpu/llvm_math_internal.h"

kiln_mv kiln_math_cbrt(const kiln_mb *e, kiln_mv x) {
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv tiny = kiln_mb_ltc(e, a, 0x1p-1022);
  kiln_mv as = kiln_mb_sel(e, tiny, kiln_mb_mulc(e, a, 0x1p54), a);
  kiln_mv bits = kiln_mb_bits(e, as);
  kiln_mv ex = kiln_mb_isub(e, kiln_mb_ashr(e, bits, 52), kiln_mb_ci(e, 1023));
  ex = kiln_mb_sel(e, tiny, kiln_mb_isub(e, ex, kiln_mb_ci(e, 54)), ex);
  kiln_mv exf = kiln_mb_itof(e, ex);
  kiln_mv kf = kiln_mb_floor(e, kiln_mb_div(e, exf, kiln_mb_c(e, 3.0)));
  kiln_mv jf = kiln_mb_fma(e, kf, kiln_mb_c(e, -3.0), exf); /* 0, 1 or 2 */
  kiln_mv m = kiln_mb_from_bits(e, kiln_mb_iadd(e, kiln_mb_iand(e, bits, kiln_mb_ci(e, (1ll << 52) - 1)),
                                                  kiln_mb_ci(e, 1023ll << 52)));
  kiln_mv t = kiln_mb_mul(e, m, kiln_mb_pow2i(e, kiln_mb_ftoi(e, jf)));
  /* cbrt(m) ~ 1 + 0.26 (m - 1) on [1, 2), times cbrt(2^j) */
  kiln_mv y = kiln_mb_fma(e, m, kiln_mb_c(e, 0.2599210498948732), kiln_mb_c(e, 0.7400789501051268));
  kiln_mv cj = kiln_mb_selc(e, kiln_mb_eqc(e, jf, 1.0), 1.2599210498948732, kiln_mb_c(e, 1.0));
  cj = kiln_mb_selc(e, kiln_mb_eqc(e, jf, 2.0), 1.5874010519681994, cj);
  y = kiln_mb_mul(e, y, cj);
  for (int i = 0; i < 2; i++) { /* y *= (y^3 + 2t) / (2y^3 + t) */
    kiln_mv y3 = kiln_mb_mul(e, kiln_mb_mul(e, y, y), y);
    kiln_mv num = kiln_mb_fma(e, t, kiln_mb_c(e, 2.0), y3);
    kiln_mv den = kiln_mb_fma(e, y3, kiln_mb_c(e, 2.0), t);
    y = kiln_mb_mul(e, y, kiln_mb_div(e, num, den));
  }
  if (!e->narrow) { /* y -= (y^3 - t) / (3 y^2), residual exact to ~2^-106 */
    kiln_mv y2 = kiln_mb_mul(e, y, y);
    kiln_mv y2l = kiln_mb_fma(e, y, y, kiln_mb_neg(e, y2));
    kiln_mv res = kiln_mb_fma(e, y2l, y, kiln_mb_fma(e, y2, y, kiln_mb_neg(e, t)));
    y = kiln_mb_sub(e, y, kiln_mb_div(e, res, kiln_mb_mulc(e, y2, 3.0)));
  }
  y = kiln_mb_mul(e, y, kiln_mb_pow2i(e, kiln_mb_ftoi(e, kf)));
  y = kiln_mb_copysign(e, y, x);
  kiln_mv keep = kiln_mb_or(e, kiln_mb_isnan(e, x), kiln_mb_or(e, kiln_mb_isinf(e, x), kiln_mb_eqc(e, x, 0.0)));
  return kiln_mb_sel(e, keep, x, y);
}

/* (2 atanh(s)/s - 2 - (2/3) z) / z^2 with z = s^2, |s| <= 0.1716 (Chebyshev fit). */
static const double kLogTail64[] = {0.39999999999999999817, 0.2857142857142936859,
                                    0.22222222221654444197, 0.18181818335719505015,
                                    0.15384594927618588556, 0.13334806591541503151,
                                    0.11706185532868764555, 0.11723709794230087386};

/* log(x) as hi + lo to about 2^-100 relative, for x > 0 finite (double only): with
 * s = f/(2+f) in double-double, log = k ln2 + 2s + (2/3) s^3 + s^3 z R'(z). */
static kiln_mv log_dd(const kiln_mb *e, kiln_mv x, kiln_mv *out_lo) {
  kiln_mv kf;
  kiln_mv f = kiln_math_log_decompose(e, x, &kf);
  kiln_mv dh = kiln_mb_addc(e, f, 2.0);
  kiln_mv dl = kiln_mb_sub(e, f, kiln_mb_addc(e, dh, -2.0));
  kiln_mv sh = kiln_mb_div(e, f, dh);
  kiln_mv rho = kiln_mb_fma(e, kiln_mb_neg(e, sh), dh, f);
  rho = kiln_mb_fma(e, kiln_mb_neg(e, sh), dl, rho);
  kiln_mv sl = kiln_mb_div(e, rho, dh);
  kiln_mv z = kiln_mb_mul(e, sh, sh);
  kiln_mv zl = kiln_mb_fma(e, sh, sh, kiln_mb_neg(e, z));
  kiln_mv s3 = kiln_mb_mul(e, z, sh);
  kiln_mv s3l = kiln_mb_fma(e, z, sh, kiln_mb_neg(e, s3));
  s3l = kiln_mb_fma(e, zl, sh, s3l);
  s3l = kiln_mb_fma(e, kiln_mb_mulc(e, z, 3.0), sl, s3l);
  double c_hi = 0x1.5555555555555p-1, c_lo = 0x1.5555555555555p-55; /* 2/3 */
  kiln_mv th = kiln_mb_mulc(e, s3, c_hi);
  kiln_mv tl = kiln_mb_fma(e, s3, kiln_mb_c(e, c_hi), kiln_mb_neg(e, th));
  tl = kiln_mb_fma(e, s3, kiln_mb_c(e, c_lo), tl);
  tl = kiln_mb_fma(e, s3l, kiln_mb_c(e, c_hi), tl);
  kiln_mv tail = kiln_mb_mul(e, kiln_mb_mul(e, s3, z), kiln_mb_poly(e, z, kLogTail64, 8));
  double l2h = 0x1.62e42fefa39efp-1, l2l = 0x1.abc9e3b39803fp-56;
  kiln_mv ph = kiln_mb_mulc(e, kf, l2h);
  kiln_mv pl = kiln_mb_fma(e, kf, kiln_mb_c(e, l2h), kiln_mb_neg(e, ph));
  pl = kiln_mb_fma(e, kf, kiln_mb_c(e, l2l), pl);
  kiln_mv e1, e2;
  kiln_mv a = kiln_mb_two_sum(e, ph, kiln_mb_add(e, sh, sh), &e1);
  kiln_mv b = kiln_mb_two_sum(e, a, th, &e2);
  kiln_mv lo = kiln_mb_add(e, kiln_mb_add(e, e1, e2), kiln_mb_add(e, pl, kiln_mb_add(e, sl, sl)));
  lo = kiln_mb_add(e, lo, kiln_mb_add(e, tl, tail));
  kiln_mv hi = kiln_mb_add(e, b, lo);
  *out_lo = kiln_mb_sub(e, lo, kiln_mb_sub(e, hi, b));
  return hi;
}

kiln_mv kiln_math_pow(const kiln_mb *e, kiln_mv x, kiln_mv y) {
  kiln_mv one = kiln_mb_c(e, 1.0);
  kiln_mv ax = kiln_mb_fabs(e, x);
  kiln_mv axs = kiln_mb_sel(e, kiln_mb_gtc(e, ax, 0.0), ax, one);
  kiln_mv lgl = NULL;
  kiln_mv lg = e->narrow ? kiln_math_log_core(e, axs, kiln_mb_c(e, 0.0)) : log_dd(e, axs, &lgl);
  lg = kiln_mb_selc(e, kiln_mb_eqc(e, ax, 0.0), -INFINITY, lg);
  lg = kiln_mb_sel(e, kiln_mb_isinf(e, ax), ax, lg);
  lg = kiln_mb_sel(e, kiln_mb_isnan(e, x), x, lg);
  kiln_mv z = kiln_mb_mul(e, y, lg);
  z = kiln_mb_sel(e, kiln_mb_eqc(e, lg, 0.0), kiln_mb_c(e, 0.0), z); /* |x| = 1, y = inf */
  kiln_mv r;
  if (lgl) { /* z + zl = y * (lg + lgl); zl is dropped where z is not finite */
    kiln_mv zl = kiln_mb_fma(e, y, lg, kiln_mb_neg(e, z));
    zl = kiln_mb_fma(e, y, lgl, zl);
    kiln_mv fin = kiln_mb_and(e, kiln_mb_ltc(e, kiln_mb_fabs(e, z), 1e300),
                              kiln_mb_ltc(e, kiln_mb_fabs(e, zl), 1.0));
    zl = kiln_mb_sel(e, fin, zl, kiln_mb_c(e, 0.0));
    r = kiln_math_exp_dd(e, z, zl, 0);
  } else {
    r = kiln_math_exp(e, z);
  }
  kiln_mv is_int = kiln_mb_eq(e, kiln_mb_floor(e, y), y);
  kiln_mv hy = kiln_mb_mulc(e, y, 0.5);
  kiln_mv odd = kiln_mb_and(e, is_int, kiln_mb_not(e, kiln_mb_eq(e, kiln_mb_floor(e, hy), hy)));
  kiln_mv neg = kiln_mb_ltc(e, kiln_mb_copysign(e, one, x), 0.0);
  r = kiln_mb_sel(e, kiln_mb_and(e, odd, neg), kiln_mb_neg(e, r), r);
  kiln_mv bad = kiln_mb_and(e, kiln_mb_ltc(e, x, 0.0), kiln_mb_not(e, is_int));
  bad = kiln_mb_and(e, bad, kiln_mb_not(e, kiln_mb_isinf(e, x)));
  r = kiln_mb_sel(e, bad, kiln_mb_nan(e), r);
  kiln_mv unit = kiln_mb_or(e, kiln_mb_eqc(e, x, 1.0), kiln_mb_eqc(e, y, 0.0));
  return kiln_mb_sel(e, unit, one, r);
}
