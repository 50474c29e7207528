/* Exponential family: exp, expm1, logistic, tanh, sinh, cosh (native precision).
 *
 * exp: Cody-Waite reduction x = n*ln2 + r, |r| <= ln2/2, with ln2 split in two (the first
 * product is formed with fma), then e^r = 1 + r + r^2 P(r) (P a Chebyshev fit of
 * (e^r - 1 - r)/r^2), scaled by 2^n in two exact steps so that results in the subnormal
 * range are rounded once; on an AVX-512 target one vscalef of the float n does the same (no
 * conversion to an integer and back: f32 exp 26 -> 18 instructions a vector; softmax_xent
 * 72 -> 63 us, f64_softmax 898 -> 812, gelu_exact 764 -> 723, least of 6 medians, AMD Zen
 * 4). */
#include <stddef.h>

#include "backends/cpu/llvm_math_internal.h"

static const double kExpP32[] = {0.500000001347, 0.16666666683, 0.0416664648414,
                                  0.00833331029523, 0.00139336593022, 0.00019891517901};
static const double kExpP64[] = {
    0.5, 0.16666666666666670995, 0.041666666666666670507, 0.0083333333333261292249,
    0.0013888888888883162282, 0.00019841269874841251289, 0.000024801587327111870786,
    2.7557255374049217207e-6, 2.7557271966592528283e-7, 2.5105227889120455771e-8,
    2.0915307929440388618e-9};

/* ln2 = LN2_HI + LN2_LO, LN2_HI with trailing zeros (n * LN2_HI is exact for the n of any
 * exp argument in range). */
static double ln2_hi(const kiln_mb *e) { return e->dbl ? 0x1.62e42fefa39efp-1 : 0x1.62e43p-1; }
static double ln2_lo(const kiln_mb *e) { return e->dbl ? 0x1.abc9e3b39803fp-56 : -0x1.05c61p-29; }

/* The reduction shared by exp and expm1: returns r with x = n*ln2 + r, and n (float). x
 * must not be NaN. */
static kiln_mv reduce_ln2(const kiln_mb *e, kiln_mv x, kiln_mv *out_n) {
  kiln_mv n = kiln_mb_rint(e, kiln_mb_mulc(e, x, 0x1.71547652b82fep+0));
  kiln_mv nn = kiln_mb_neg(e, n);
  kiln_mv r = kiln_mb_fma(e, nn, kiln_mb_c(e, ln2_hi(e)), x);
  *out_n = n;
  return kiln_mb_fma(e, nn, kiln_mb_c(e, ln2_lo(e)), r);
}

/* r + r^2 P(r) = e^r - 1 for |r| <= ln2/2. */
static kiln_mv expm1_poly(const kiln_mb *e, kiln_mv r) {
  kiln_mv p = e->dbl ? kiln_mb_poly(e, r, kExpP64, 11) : kiln_mb_poly(e, r, kExpP32, 6);
  return kiln_mb_fma(e, kiln_mb_mul(e, r, r), p, r);
}

/* Clamps x to [lo, hi]; NaN becomes lo (callers restore NaN at the end). */
static kiln_mv clamp(const kiln_mb *e, kiln_mv x, double lo, double hi) {
  kiln_mv c = kiln_mb_sel(e, kiln_mb_gtc(e, x, hi), kiln_mb_c(e, hi), x);
  return kiln_mb_sel(e, kiln_mb_ge(e, c, kiln_mb_c(e, lo)), c, kiln_mb_c(e, lo));
}

typedef struct exp_args {
  kiln_mv x, lo;
  int extra;
  double top;
} exp_args;

/* e^xc 2^extra as p (1 + expm1(r), at least 2^-1/2) and n (an integer, as a float): xc is
 * x clamped, lo added to r where it was not. */
static kiln_mv exp_parts(const kiln_mb *e, const exp_args *a, kiln_mv xc, kiln_mv *out_n) {
  kiln_mv nf;
  kiln_mv r = reduce_ln2(e, xc, &nf);
  if (a->lo) r = kiln_mb_add(e, r, kiln_mb_sel(e, kiln_mb_eq(e, xc, a->x), a->lo, kiln_mb_c(e, 0.0)));
  *out_n = a->extra ? kiln_mb_addc(e, nf, a->extra) : nf;
  return kiln_mb_addc(e, expm1_poly(e, r), 1.0);
}

/* The lanes whose result is subnormal or zero (x below exp_impl's normal bound `top`, not
 * NaN), rounded as integers (kiln_mb_scale_small_lanes); x below `least` underflows to 0.
 * Other lanes compute at `least` (no NaN or huge value reaches an integer conversion). */
static void exp_small(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const exp_args *a = ctx;
  double least = e->dbl ? -746.0 : -104.5;
  kiln_mv in = kiln_mb_and(e, kiln_mb_ltc(e, a->x, a->top), kiln_mb_ge(e, a->x, kiln_mb_c(e, least)));
  kiln_mv n, p = exp_parts(e, a, kiln_mb_sel(e, in, a->x, kiln_mb_c(e, least)), &n);
  out[0] = kiln_mb_scale_small_lanes(e, p, kiln_mb_ftoi(e, n), -1); /* p >= 2^-1/2 */
}

/* With `apart`, x is clamped where e^x 2^extra is normal (n + extra >= emin + 1, so
 * p 2^(n + extra) is too) and lanes below, when a vector has one, are computed apart
 * (exp_small): a multiply whose result is subnormal or underflows costs a microcode assist
 * on Intel cores (about 150 cycles; softmax's masked entries are e^-inf). Without, x is
 * clamped where the result underflows and scaled in two steps: the kernels that call exp
 * inside their own (pow, zeta, ...) keep this form, as LLVM 14 miscompiled zeta of f16 with
 * the branch inlined into it eleven times (AVX512-FP16 host; correct at -O0, in f32 and
 * without the branch). */
static kiln_mv exp_impl(const kiln_mb *e, kiln_mv x, kiln_mv lo, int extra, bool apart) {
  int emin = e->dbl ? -1022 : -126;
  double normal = ((double)(emin + 1 - extra) + 0.5) * 0x1.62e42fefa39efp-1;
  double least = e->dbl ? -746.0 : -104.5; /* below: certainly underflowed */
  kiln_mv xc = clamp(e, x, apart ? normal : least, e->dbl ? 711.0 : 89.5); /* above: certainly overflowed */
  exp_args a = {x, lo, extra, normal};
  kiln_mv n, p = exp_parts(e, &a, xc, &n);
  kiln_mv y = kiln_mb_scale_f(e, p, n);
  if (apart) kiln_mb_where_any(e, kiln_mb_ltc(e, x, normal), 1, &y, exp_small, &a);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, y);
}

kiln_mv kiln_math_exp_scaled(const kiln_mb *e, kiln_mv x, int extra) {
  return exp_impl(e, x, NULL, extra, false);
}
kiln_mv kiln_math_exp_dd(const kiln_mb *e, kiln_mv hi, kiln_mv lo, int extra) {
  return exp_impl(e, hi, lo, extra, false);
}

kiln_mv kiln_math_exp(const kiln_mb *e, kiln_mv x) { return kiln_math_exp_scaled(e, x, 0); }

kiln_mv kiln_math_exp_op(const kiln_mb *e, kiln_mv x) { return exp_impl(e, x, NULL, 0, true); }

/* f32 only. r = hi - n LN2_HI is exact: LN2_HI has 21 significant bits, so the difference
 * is a multiple of min(ulp(hi), 2^-21) below ln2/2 in magnitude, which takes at most 23
 * bits for |hi| >= 0.5, and for smaller hi n is 0 (r = hi) or +-1 (Sterbenz). lo - n LN2_LO
 * enters as a first-order correction c (below 2^-17 in magnitude): e^(r + c) - 1 = p + c
 * (1 + p) up to c^2. So q's error is the polynomial's alone. */
kiln_mv kiln_math_exp_parts(const kiln_mb *e, kiln_mv hi, kiln_mv lo, kiln_mv *out_n) {
  kiln_mv n = kiln_mb_rint(e, kiln_mb_mulc(e, hi, 0x1.71547652b82fep+0));
  kiln_mv nn = kiln_mb_neg(e, n);
  kiln_mv r = kiln_mb_fma(e, nn, kiln_mb_c(e, ln2_hi(e)), hi);
  kiln_mv c = kiln_mb_fma(e, nn, kiln_mb_c(e, ln2_lo(e)), lo);
  kiln_mv p = expm1_poly(e, r);
  *out_n = n;
  return kiln_mb_fma(e, c, kiln_mb_addc(e, p, 1.0), p);
}

/* expm1(x) = 2^n (q + (1 - 2^-n)) with q = expm1(r); exact for n = 0. */
kiln_mv kiln_math_expm1(const kiln_mb *e, kiln_mv x) {
  kiln_mv xc = e->dbl ? clamp(e, x, -45.0, 710.0) : clamp(e, x, -25.0, 89.5);
  kiln_mv nf;
  kiln_mv q = expm1_poly(e, reduce_ln2(e, xc, &nf));
  double cap = e->dbl ? 60.0 : 30.0; /* 2^-n is below rounding beyond this */
  kiln_mv mf = kiln_mb_sel(e, kiln_mb_gtc(e, nf, cap), kiln_mb_c(e, cap), nf);
  kiln_mv t = kiln_mb_sub(e, kiln_mb_c(e, 1.0),
                          kiln_mb_pow2i(e, kiln_mb_ftoi(e, kiln_mb_neg(e, mf))));
  kiln_mv y = kiln_mb_scale_f(e, kiln_mb_add(e, q, t), nf);
  y = kiln_mb_sel(e, kiln_mb_isnan(e, x), x, y);
  return kiln_mb_sel(e, kiln_mb_eqc(e, x, 0.0), x, y);
}

kiln_mv kiln_math_expm1_op(const kiln_mb *e, kiln_mv x) { return kiln_math_expm1(e, x); }

/* num / (a + b), a + b summed exactly (kiln_mb_two_sum) and the quotient corrected by its
 * remainder, so that only num's own error remains. */
static kiln_mv div_exact_sum(const kiln_mb *e, kiln_mv num, kiln_mv a, kiln_mv b) {
  kiln_mv err, d = kiln_mb_two_sum(e, a, b, &err);
  kiln_mv q = kiln_mb_div(e, num, d);
  kiln_mv r = kiln_mb_fma(e, kiln_mb_neg(e, q), d, num);
  r = kiln_mb_fma(e, kiln_mb_neg(e, q), err, r);
  return kiln_mb_add(e, q, kiln_mb_div(e, r, d));
}

/* 1/(1+e^-x) for x >= 0, e^x/(1+e^x) otherwise: never overflows, underflows correctly.
 * The quotient is corrected for the rounding of 1 + t, so f32 is computed in f32. */
kiln_mv kiln_math_logistic(const kiln_mb *e, kiln_mv x) {
  kiln_mv t = kiln_math_exp(e, kiln_mb_neg(e, kiln_mb_fabs(e, x)));
  kiln_mv one = kiln_mb_c(e, 1.0);
  kiln_mv num = kiln_mb_sel(e, kiln_mb_ge(e, x, kiln_mb_c(e, 0.0)), one, t);
  return div_exact_sum(e, num, t, one);
}

/* f32 tanh(a) = a + a^3 P(a^2) for 0 <= a <= 0.6 and sinh(a) likewise for 0 <= a <= 1:
 * Chebyshev fits of P, errors 1e-9 and 2e-10 (llvm_math_hyperbolic_fit.py prints them). */
static const double kSinhP32[] = {0.16666666646842134, 0.0083333396759170609, 0.00019838101968683889, 2.8062802582276946e-6};
static const double kTanhP32[] = {-0.33333333231207925, 0.13333312866861799, -0.053961551781342691,
                                  0.021788321997108521, -0.0084100708015307364, 0.0023707656404977878};

/* f32 tanh in about half the vector ops of the corrected quotient below (1.27 ULP measured):
 * the odd polynomial up to |x| = 0.6, beyond it 1 - 2/(e^2a + 1) with e^2a from the exp
 * kernel, a capped at 10 (tanh rounds to 1 in f32 from 9.02): e^2a is then normal, so 2^n
 * scales it in one step. The quotient's error, under 2 ULP of q <= 0.46, is under 1 ULP
 * of 1 - q >= 0.54. A NaN takes the polynomial (which keeps it) and reaches the exp kernel
 * as 10, so no NaN is converted to an integer. */
static kiln_mv tanh_f32(const kiln_mb *e, kiln_mv x) {
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv t = kiln_mb_mul(e, a, a);
  kiln_mv small = kiln_mb_fma(e, kiln_mb_mul(e, a, t), kiln_mb_poly(e, t, kTanhP32, 6), a);
  kiln_mv b = kiln_mb_sel(e, kiln_mb_ltc(e, a, 10.0), a, kiln_mb_c(e, 10.0));
  kiln_mv nf, r = reduce_ln2(e, kiln_mb_add(e, b, b), &nf);
  kiln_mv ex = kiln_mb_mul(e, kiln_mb_addc(e, expm1_poly(e, r), 1.0), kiln_mb_pow2i(e, kiln_mb_ftoi(e, nf)));
  kiln_mv big = kiln_mb_sub(e, kiln_mb_c(e, 1.0), kiln_mb_div(e, kiln_mb_c(e, 2.0), kiln_mb_addc(e, ex, 1.0)));
  return kiln_mb_copysign(e, kiln_mb_sel(e, kiln_mb_ge(e, a, kiln_mb_c(e, 0.6)), big, small), x);
}

/* tanh|x| = m/(m+2) with m = expm1(2|x|); |x| is capped where tanh is 1. The quotient is
 * corrected for the rounding of m + 2 and its own: its error is then about m's (f64; f32
 * takes tanh_f32). */
kiln_mv kiln_math_tanh(const kiln_mb *e, kiln_mv x) {
  if (!e->dbl) return tanh_f32(e, x);
  kiln_mv a = kiln_mb_fabs(e, x);
  a = kiln_mb_sel(e, kiln_mb_gtc(e, a, 40.0), kiln_mb_c(e, 40.0), a);
  kiln_mv m = kiln_math_expm1(e, kiln_mb_add(e, a, a));
  return kiln_mb_copysign(e, div_exact_sum(e, m, m, kiln_mb_c(e, 2.0)), x);
}

/* For |x| < 1 from m = expm1|x| (the f32 sinh: its odd polynomial, as
 * tanh_f32's: m's quotient in f32 was 2.1 ULP off there); beyond from h = e^|x|/2 (exact halving, no early
 * overflow): sinh = h - 1/(4h), cosh = h + 1/(4h). */
static kiln_mv sinh_cosh(const kiln_mb *e, kiln_mv x, bool is_cosh) {
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv small = kiln_mb_ltc(e, a, 1.0);
  kiln_mv m = kiln_math_expm1(e, kiln_mb_sel(e, small, a, kiln_mb_c(e, 1.0)));
  kiln_mv m1 = kiln_mb_addc(e, m, 1.0);
  kiln_mv h = kiln_math_exp_scaled(e, a, -1);
  kiln_mv q = kiln_mb_div(e, kiln_mb_c(e, 0.25), h);
  kiln_mv lo, hi;
  if (is_cosh) {
    /* 1 + m^2 / (2 (1 + m)) */
    lo = kiln_mb_addc(e, kiln_mb_div(e, kiln_mb_mul(e, m, m), kiln_mb_add(e, m1, m1)), 1.0);
    hi = kiln_mb_add(e, h, q);
  } else if (!e->dbl) {
    kiln_mv u = kiln_mb_mul(e, a, a);
    lo = kiln_mb_fma(e, kiln_mb_mul(e, a, u), kiln_mb_poly(e, u, kSinhP32, 4), a);
    hi = kiln_mb_sub(e, h, q);
  } else {
    /* (m + m/(m+1)) / 2 */
    lo = kiln_mb_mulc(e, kiln_mb_add(e, m, kiln_mb_div(e, m, m1)), 0.5);
    hi = kiln_mb_sub(e, h, q);
  }
  kiln_mv y = kiln_mb_sel(e, small, lo, hi);
  return is_cosh ? y : kiln_mb_copysign(e, y, x);
}

kiln_mv kiln_math_sinh(const kiln_mb *e, kiln_mv x) { return sinh_cosh(e, x, false); }
kiln_mv kiln_math_cosh(const kiln_mb *e, kiln_mv x) { return sinh_cosh(e, x, true); }
