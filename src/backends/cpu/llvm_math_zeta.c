/* The Hurwitz zeta function and polygamma (f32 inputs computed in f64), as the interpreter
 * computes them (kernels_math.c) and CHLO defines their domains.
 *
 * zeta(s, q) for q > 0: ten terms (q + k)^-s summed, the rest by Euler-Maclaurin from
 * a = q + 10 with twelve Bernoulli corrections. Below zero (integer s only), the m =
 * -floor(q) negative terms are (-1)^s times zeta(s, 1 - p) - zeta(s, 1 - p + m), p the
 * fraction of q: three zetas of positive arguments, in a branch taken only when some lane
 * has q <= 0. polygamma(n, x): digamma for n = 0, else (-1)^(n+1) n! zeta(n + 1, x), n! as
 * exp(lgamma(n + 1)); NaN unless n is a natural number. */
#include "backends/cpu/llvm_math_internal.h"
#include "base/special_series.h"

/* sum_k (q + k)^-s for q > 0, s > 1 (other lanes: any value, no trap). */
static kiln_mv zeta_positive(const kiln_mb *e, kiln_mv s, kiln_mv q) {
  kiln_mv neg_s = kiln_mb_neg(e, s), sum = kiln_mb_c(e, 0.0), a = q;
  for (int k = 0; k < 10; k++, a = kiln_mb_addc(e, a, 1.0)) sum = kiln_mb_add(e, sum, kiln_math_pow(e, a, neg_s));
  kiln_mv tail = kiln_math_pow(e, a, neg_s);
  kiln_mv r = kiln_mb_fma(e, kiln_mb_div(e, kiln_mb_mul(e, a, tail), kiln_mb_addc(e, s, -1.0)), kiln_mb_c(e, 1.0),
                          kiln_mb_mulc(e, tail, 0.5));
  kiln_mv t = kiln_mb_div(e, kiln_mb_mul(e, s, tail), a), a2 = kiln_mb_mul(e, a, a);
  for (int j = 0; j < KILN_ZETA_CORRECTIONS; j++) {
    r = kiln_mb_fma(e, t, kiln_mb_c(e, kiln_zeta_bernoulli[j]), r);
    kiln_mv f = kiln_mb_mul(e, kiln_mb_addc(e, s, 2.0 * j + 1), kiln_mb_addc(e, s, 2.0 * j + 2));
    t = kiln_mb_mul(e, t, kiln_mb_div(e, f, a2));
  }
  /* the tail negligible (or underflowed): the direct sum alone, as the interpreter */
  kiln_mv small = kiln_mb_or(e, kiln_mb_eqc(e, tail, 0.0),
                             kiln_mb_lt(e, kiln_mb_fabs(e, tail), kiln_mb_mulc(e, kiln_mb_fabs(e, sum), 0x1p-60)));
  return kiln_mb_sel(e, small, sum, kiln_mb_add(e, sum, r));
}

typedef struct below_zero {
  kiln_mv s, q;
} below_zero;

/* zeta(s, p) + (-1)^s (zeta(s, 1 - p) - zeta(s, 1 - p + m)) for q < 0, integer s. */
static void zeta_below_zero(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const below_zero *z = ctx;
  kiln_mv fl = kiln_mb_floor(e, z->q);
  kiln_mv p = kiln_mb_sub(e, z->q, fl), m = kiln_mb_neg(e, fl), rp = kiln_mb_sub(e, kiln_mb_c(e, 1.0), p);
  kiln_mv half = kiln_mb_mulc(e, z->s, 0.5);
  kiln_mv even = kiln_mb_eq(e, kiln_mb_floor(e, half), half);
  kiln_mv negative = kiln_mb_sub(e, zeta_positive(e, z->s, rp), zeta_positive(e, z->s, kiln_mb_add(e, rp, m)));
  out[0] = kiln_mb_add(e, zeta_positive(e, z->s, p), kiln_mb_sel(e, even, negative, kiln_mb_neg(e, negative)));
}

kiln_mv kiln_math_zeta(const kiln_mb *e, kiln_mv s, kiln_mv q) {
  kiln_mv nan_in = kiln_mb_or(e, kiln_mb_isnan(e, s), kiln_mb_isnan(e, q));
  kiln_mv s_int = kiln_mb_and(e, kiln_mb_eq(e, kiln_mb_floor(e, s), s), kiln_mb_not(e, kiln_mb_isinf(e, s)));
  kiln_mv half = kiln_mb_mulc(e, s, 0.5);
  kiln_mv s_even = kiln_mb_and(e, s_int, kiln_mb_eq(e, kiln_mb_floor(e, half), half));
  kiln_mv q_nonpos = kiln_mb_not(e, kiln_mb_gtc(e, q, 0.0));
  kiln_mv pole = kiln_mb_and(e, q_nonpos, kiln_mb_eq(e, kiln_mb_floor(e, q), q));
  kiln_mv domain = kiln_mb_or(e, kiln_mb_ltc(e, s, 1.0), kiln_mb_and(e, q_nonpos, kiln_mb_not(e, s_int)));
  /* the lanes below zero computed apart; here every lane's q made positive */
  kiln_mv below = kiln_mb_and(e, kiln_mb_ltc(e, q, 0.0),
                              kiln_mb_not(e, kiln_mb_or(e, kiln_mb_or(e, pole, domain), nan_in)));
  kiln_mv qp = kiln_mb_sel(e, kiln_mb_gtc(e, q, 0.0), q, kiln_mb_c(e, 1.0));
  kiln_mv sp = kiln_mb_sel(e, kiln_mb_gtc(e, s, 1.0), s, kiln_mb_c(e, 2.0));
  kiln_mv v = zeta_positive(e, sp, qp);
  below_zero z = {sp, kiln_mb_sel(e, below, q, kiln_mb_c(e, -0.5))};
  kiln_mb_where_any(e, below, 1, &v, zeta_below_zero, &z);
  v = kiln_mb_sel(e, domain, kiln_mb_nan(e), v);
  v = kiln_mb_sel(e, pole, kiln_mb_sel(e, s_even, kiln_mb_inf(e), kiln_mb_nan(e)), v);
  v = kiln_mb_sel(e, kiln_mb_eqc(e, s, 1.0), kiln_mb_inf(e), v);
  return kiln_mb_sel(e, nan_in, kiln_mb_nan(e), v);
}

kiln_mv kiln_math_polygamma(const kiln_mb *e, kiln_mv n, kiln_mv x) {
  kiln_mv natural = kiln_mb_and(e, kiln_mb_eq(e, kiln_mb_floor(e, n), n), kiln_mb_not(e, kiln_mb_ltc(e, n, 0.0)));
  natural = kiln_mb_and(e, natural, kiln_mb_not(e, kiln_mb_isinf(e, n)));
  kiln_mv nn = kiln_mb_sel(e, natural, n, kiln_mb_c(e, 1.0)), np1 = kiln_mb_addc(e, nn, 1.0);
  kiln_mv factorial = kiln_math_exp(e, kiln_math_lgamma(e, np1));
  kiln_mv half = kiln_mb_mulc(e, nn, 0.5); /* n odd: +1 (of n itself: n + 1 may round) */
  kiln_mv sign = kiln_mb_sel(e, kiln_mb_eq(e, kiln_mb_floor(e, half), half), kiln_mb_c(e, -1.0), kiln_mb_c(e, 1.0));
  kiln_mv v = kiln_mb_mul(e, kiln_mb_mul(e, sign, factorial), kiln_math_zeta(e, np1, x));
  v = kiln_mb_sel(e, kiln_mb_eqc(e, n, 0.0), kiln_math_digamma(e, x), v);
  kiln_mv bad = kiln_mb_or(e, kiln_mb_not(e, natural), kiln_mb_or(e, kiln_mb_isnan(e, n), kiln_mb_isnan(e, x)));
  return kiln_mb_sel(e, bad, kiln_mb_nan(e), v);
}
