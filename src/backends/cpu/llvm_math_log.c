/* Logarithm family: log, log1p, asinh, acosh, atanh (native precision).
 *
 * x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), s = f/(2+f), and
 * log(1+f) = f - f^2/2 + s (f^2/2 + R(s^2)) where R is a Chebyshev fit of 2 atanh(s)/s - 2
 * (the classic arrangement that keeps the rounding error below one ulp); k ln2 is added in
 * two parts so that k*ln2_hi is exact. */
#include "backends/cpu/llvm_math_internal.h"

static const double kLogR32[] = {0.666666665543, 0.400001220318, 0.285507990436,
                                 0.233310595084};
static const double kLogR64[] = {0.66666666666666696972, 0.39999999999899187899,
                                 0.28571428626119049313, 0.22222211111365678979,
                                 0.18182890831861054869, 0.15331664888039219111,
                                 0.14617150495950962576};

kiln_mv kiln_math_log_decompose(const kiln_mb *e, kiln_mv x, kiln_mv *out_k) {
  int mant = kiln_mb_mant_bits(e);
  /* Subnormals: scale into the normal range first. */
  double min_normal = e->dbl ? 0x1p-1022 : 0x1p-126;
  int up = e->dbl ? 54 : 25;
  kiln_mv tiny = kiln_mb_ltc(e, x, min_normal);
  kiln_mv xs = kiln_mb_sel(e, tiny, kiln_mb_mulc(e, x, e->dbl ? 0x1p54 : 0x1p25), x);
  kiln_mv kadj = kiln_mb_sel(e, tiny, kiln_mb_ci(e, -up), kiln_mb_ci(e, 0));
  /* u = bits(x) - bits(sqrt(1/2)): its exponent field is k, its mantissa that of m. */
  int64_t sqrt_half = e->dbl ? 0x3FE6A09E667F3BCDll : 0x3F3504F3ll;
  kiln_mv u = kiln_mb_isub(e, kiln_mb_bits(e, xs), kiln_mb_ci(e, sqrt_half));
  kiln_mv k = kiln_mb_iadd(e, kiln_mb_ashr(e, u, mant), kadj);
  kiln_mv mbits = kiln_mb_iadd(e, kiln_mb_iand(e, u, kiln_mb_ci(e, ((int64_t)1 << mant) - 1)),
                               kiln_mb_ci(e, sqrt_half));
  *out_k = kiln_mb_itof(e, k);
  return kiln_mb_addc(e, kiln_mb_from_bits(e, mbits), -1.0);
}


kiln_mv kiln_math_log_core(const kiln_mb *e, kiln_mv x, kiln_mv c) {
  kiln_mv kf;
  kiln_mv f = kiln_math_log_decompose(e, x, &kf);
  kiln_mv s = kiln_mb_div(e, f, kiln_mb_addc(e, f, 2.0));
  kiln_mv z = kiln_mb_mul(e, s, s);
  kiln_mv r = e->dbl ? kiln_mb_poly(e, z, kLogR64, 7) : kiln_mb_poly(e, z, kLogR32, 4);
  r = kiln_mb_mul(e, r, z);
  kiln_mv hfsq = kiln_mb_mul(e, kiln_mb_mulc(e, f, 0.5), f);
  /* ln2 = hi + lo with hi short enough that k*hi is exact. */
  double hi = e->dbl ? 0x1.62e42feep-1 : 0x1.62ep-1;
  double lo = e->dbl ? 1.90821492927058770002e-10 : (double)(0x1.62e42fefa39ef358p-1L - 0x1.62ep-1L);
  /* k*lo + c, then s*(hfsq+R) + that, then the classic tail. */
  kiln_mv klo = kiln_mb_fma(e, kf, kiln_mb_c(e, lo), c);
  kiln_mv t = kiln_mb_fma(e, s, kiln_mb_add(e, hfsq, r), klo);
  kiln_mv tail = kiln_mb_sub(e, kiln_mb_sub(e, hfsq, t), f);
  return kiln_mb_sub(e, kiln_mb_mulc(e, kf, hi), tail);
}

/* Special values shared by log and log1p: at the pole p (0 or -1) -inf, below it NaN,
 * +inf stays, NaN stays. */
static kiln_mv log_specials(const kiln_mb *e, kiln_mv x, kiln_mv y, double pole) {
  y = kiln_mb_sel(e, kiln_mb_eq(e, x, kiln_mb_inf(e)), x, y);
  y = kiln_mb_sel(e, kiln_mb_eqc(e, x, pole), kiln_mb_neg(e, kiln_mb_inf(e)), y);
  kiln_mv bad = kiln_mb_or(e, kiln_mb_ltc(e, x, pole), kiln_mb_isnan(e, x));
  return kiln_mb_sel(e, bad, kiln_mb_nan(e), y);
}

kiln_mv kiln_math_log(const kiln_mb *e, kiln_mv x) {
  return log_specials(e, x, kiln_math_log_core(e, x, kiln_mb_c(e, 0.0)), 0.0);
}

/* log1p(x) = log(u) + err/u with u = 1 + x rounded and err its exact rounding error. */
kiln_mv kiln_math_log1p(const kiln_mb *e, kiln_mv x) {
  kiln_mv u = kiln_mb_addc(e, x, 1.0);
  kiln_mv bb = kiln_mb_addc(e, u, -1.0);
  kiln_mv err = kiln_mb_add(e, kiln_mb_sub(e, kiln_mb_c(e, 1.0), kiln_mb_sub(e, u, bb)),
                            kiln_mb_sub(e, x, bb));
  kiln_mv y = kiln_math_log_core(e, u, kiln_mb_div(e, err, u));
  y = log_specials(e, x, y, -1.0);
  return kiln_mb_sel(e, kiln_mb_eqc(e, x, 0.0), x, y);
}

/* Above this, asinh/acosh use log(2|x|) = log1p(|x| - 1) + ln2. */
static double big_arg(const kiln_mb *e) { return e->dbl ? 0x1p28 : 0x1p13; }

kiln_mv kiln_math_asinh(const kiln_mb *e, kiln_mv x) {
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv big = kiln_mb_gtc(e, a, big_arg(e));
  kiln_mv as = kiln_mb_sel(e, big, kiln_mb_c(e, 1.0), a);
  kiln_mv a2 = kiln_mb_mul(e, as, as);
  /* a + a^2 / (1 + sqrt(1 + a^2)) */
  kiln_mv w = kiln_mb_add(e, as, kiln_mb_div(e, a2, kiln_mb_addc(e, kiln_mb_sqrt(e, kiln_mb_addc(e, a2, 1.0)), 1.0)));
  w = kiln_mb_sel(e, big, kiln_mb_addc(e, a, -1.0), w);
  kiln_mv y = kiln_math_log1p(e, w);
  y = kiln_mb_sel(e, big, kiln_mb_addc(e, y, 0.6931471805599453), y);
  return kiln_mb_copysign(e, y, x);
}

kiln_mv kiln_math_acosh(const kiln_mb *e, kiln_mv x) {
  kiln_mv big = kiln_mb_gtc(e, x, big_arg(e));
  kiln_mv t = kiln_mb_addc(e, kiln_mb_sel(e, big, kiln_mb_c(e, 2.0), x), -1.0);
  /* t + sqrt(2t + t^2), t = x - 1 */
  kiln_mv w = kiln_mb_add(e, t, kiln_mb_sqrt(e, kiln_mb_fma(e, t, t, kiln_mb_add(e, t, t))));
  w = kiln_mb_sel(e, big, kiln_mb_addc(e, x, -1.0), w);
  kiln_mv y = kiln_math_log1p(e, w);
  y = kiln_mb_sel(e, big, kiln_mb_addc(e, y, 0.6931471805599453), y);
  kiln_mv bad = kiln_mb_not(e, kiln_mb_ge(e, x, kiln_mb_c(e, 1.0)));
  return kiln_mb_sel(e, kiln_mb_and(e, bad, kiln_mb_not(e, kiln_mb_isnan(e, x))), kiln_mb_nan(e), y);
}

/* atanh|x| = log1p(2a/(1-a))/2, written as log1p(2a + 2a*a/(1-a))/2 for a < 1/2. */
kiln_mv kiln_math_atanh(const kiln_mb *e, kiln_mv x) {
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv a2 = kiln_mb_add(e, a, a);
  kiln_mv om = kiln_mb_sub(e, kiln_mb_c(e, 1.0), a);
  kiln_mv w_big = kiln_mb_div(e, a2, om);
  kiln_mv w_small = kiln_mb_fma(e, a2, kiln_mb_div(e, a, om), a2);
  kiln_mv w = kiln_mb_sel(e, kiln_mb_ltc(e, a, 0.5), w_small, w_big);
  kiln_mv y = kiln_mb_mulc(e, kiln_math_log1p(e, w), 0.5);
  y = kiln_mb_sel(e, kiln_mb_gtc(e, a, 1.0), kiln_mb_nan(e), y);
  return kiln_mb_copysign(e, y, x);
}
