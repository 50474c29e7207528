/* Trigonometric family: sin, cos, tan (f32 inputs computed in f64), atan, asin, acos, atan2.
 *
 * sin/cos/tan reduce x = q*pi/2 + r, |r| <= pi/4, then use odd/even polynomials (Chebyshev
 * fits of (sin r - r)/r^3 and (cos r - 1 + r^2/2)/r^4 in r^2). For float inputs below 4096
 * the reduction is Cody-Waite with pi/2 in two doubles (within 2^-93 radians); from there on
 * it is exact: 2/pi is split into 28-bit chunks, each product x*chunk is exact in double, is
 * reduced modulo 4 exactly, and the fractions are summed without error (TwoSum)
 * (reduce_float). Double inputs go through kiln_math_reduce_pio2 (Cody-Waite, then
 * Payne-Hanek from 2^26 on: accurate over the whole range). atan uses two reductions (1/t and (t-1)/(t+1)) onto |u| <= tan(pi/8) and
 * an odd polynomial; asin/acos go through atan2 with sqrt((1-x)(1+x)). */
#include <stddef.h>

#include "backends/cpu/llvm_math_internal.h"

static const double kSin32[] = {-0.166666666639, 0.00833333187427, -0.000198400864996,
                                2.72498952306e-6};
static const double kCos32[] = {0.0416666666643, -0.00138888876717, 2.48006001804e-5,
                                -2.73009336872e-7};
static const double kSin64[] = {-0.16666666666666666666, 0.008333333333333331491,
                                -0.00019841269841265062561, 2.7557319219337310344e-6,
                                -2.5052106231802837884e-8, 1.6058531516797759169e-10,
                                -7.5866910941979583596e-13};
static const double kCos64[] = {0.041666666666666666666, -0.0013888888888888887865,
                                0.000024801587301584645102, -2.7557319221401792411e-7,
                                2.087675579072196362e-9, -1.1470460830795304115e-11,
                                4.7458685530816657967e-14};
static const double kAtan32[] = {-0.333333332792, 0.199999772482, -0.142841506297,
                                 0.110713545712, -0.086245982152, 0.0504793743204};
static const double kAtan64[] = {
    -0.33333333333333333217, 0.19999999999999804328, -0.14285714285659777756,
    0.11111111105150587894, -0.090909087532591129423, 0.076922963680422971183,
    -0.066664247602005201418, 0.058789275544738067651, -0.052304436406869477082,
    0.045515447340221616575, -0.03456931506332608995, 0.016284375050043394596};
/* 2/pi in 28-bit chunks. */
static const double kTwoOverPi28[] = {0x1.45f306cp-1,  0x1.c9c882ap-29, 0x1.4fe13a8p-59,
                                      0x1.f47d4d0p-86, 0x1.bb81b6cp-113, 0x1.4acc9e0p-143,
                                      0x1.0e4107cp-170};

/* Exact reduction of a float value x (held in double) by the 7 chunks of 2/pi: returns r
 * in radians and the quadrant q (integer, only q mod 4 matters) in out[1]. A
 * kiln_mb_where_any branch: ctx is x. */
static void reduce_float_long(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  kiln_mv x = *(const kiln_mv *)ctx;
  kiln_mv hi = NULL, lo = kiln_mb_c(e, 0.0), q = kiln_mb_c(e, 0.0);
  for (size_t i = 0; i < sizeof kTwoOverPi28 / sizeof kTwoOverPi28[0]; i++) {
    kiln_mv p = kiln_mb_mulc(e, x, kTwoOverPi28[i]);
    kiln_mv ip = kiln_mb_rint(e, p);
    kiln_mv t = kiln_mb_sub(e, p, ip);
    kiln_mv q4 = kiln_mb_mulc(e, kiln_mb_floor(e, kiln_mb_mulc(e, ip, 0.25)), -4.0);
    q = kiln_mb_add(e, q, kiln_mb_add(e, ip, q4));
    if (!hi) {
      hi = t;
      continue;
    }
    /* TwoSum(hi, t) */
    kiln_mv s = kiln_mb_add(e, hi, t);
    kiln_mv bv = kiln_mb_sub(e, s, hi);
    kiln_mv err = kiln_mb_add(e, kiln_mb_sub(e, hi, kiln_mb_sub(e, s, bv)), kiln_mb_sub(e, t, bv));
    hi = s;
    lo = kiln_mb_add(e, lo, err);
  }
  kiln_mv k = kiln_mb_rint(e, hi);
  hi = kiln_mb_sub(e, hi, k);
  out[1] = kiln_mb_add(e, q, k);
  out[0] = kiln_mb_mulc(e, kiln_mb_add(e, hi, lo), 1.5707963267948966);
}

/* Floats below SHORT_REDUCTION_LIMIT in magnitude reduce as x - q pi/2 with pi/2 as two
 * doubles (PIO2_HI + PIO2_LO, 106 bits), each product taken off by one fused multiply-add:
 * q < 2^12, so the sum drops at most 2^-93 radians, and each rounding is relative to r (the
 * first subtraction cancels exactly inside the fma), where such a float is at least 2^-29
 * or so from a multiple of pi/2: r keeps about 50 bits (the float's sine needs 25). Larger
 * ones by all 7 chunks of 2/pi (lanes taken apart only when a vector holds one:
 * kiln_mb_where_any). 3 chunks of 2/pi before (exact, about 40 operations against 4), with
 * bit for bit the same results on 3.8M floats (uniform in +-4096 and +-10, and the 128
 * nearest each multiple of pi/2 below 4096): sine, cosine and tangent of them 13.8 -> 7.2
 * ms, 1,000 steps of an ODE of 4 sines 67 -> 48 us (AVX-512 host, 2026-12-07). */
#define SHORT_REDUCTION_LIMIT 4096.0
#define PIO2_HI 0x1.921fb54442d18p+0
#define PIO2_LO 0x1.1a62633145c07p-54

/* x - q pi/2 for q the integer nearest x 2/pi (SHORT_REDUCTION_LIMIT). */
static kiln_mv reduce_float_short(const kiln_mb *e, kiln_mv x, kiln_mv *out_q) {
  kiln_mv q = kiln_mb_rint(e, kiln_mb_mulc(e, x, 0x1.45f306dc9c883p-1));
  kiln_mv nq = kiln_mb_neg(e, q);
  *out_q = q;
  return kiln_mb_fma(e, nq, kiln_mb_c(e, PIO2_LO), kiln_mb_fma(e, nq, kiln_mb_c(e, PIO2_HI), x));
}

/* The reduction of a float x (held in double), exact or all but. */
static kiln_mv reduce_float(const kiln_mb *e, kiln_mv x, kiln_mv *out_q) {
  kiln_mv rq[2];
  rq[0] = reduce_float_short(e, x, &rq[1]);
  kiln_mb_where_any(e, kiln_mb_gtc(e, kiln_mb_fabs(e, x), SHORT_REDUCTION_LIMIT), 2, rq, reduce_float_long, &x);
  *out_q = rq[1];
  return rq[0];
}

/* sin r and cos r for |r| <= pi/4 about: odd and even polynomials in r^2. */
static void sincos_reduced(const kiln_mb *e, kiln_mv r, kiln_mv *out_s, kiln_mv *out_c) {
  bool small = e->narrow || !e->dbl;
  kiln_mv z = kiln_mb_mul(e, r, r);
  kiln_mv ps = small ? kiln_mb_poly(e, z, kSin32, 4) : kiln_mb_poly(e, z, kSin64, 7);
  *out_s = kiln_mb_fma(e, kiln_mb_mul(e, r, z), ps, r);
  kiln_mv pc = small ? kiln_mb_poly(e, z, kCos32, 4) : kiln_mb_poly(e, z, kCos64, 7);
  /* cos = w + (((1 - w) - z/2) + z^2 Q) with w = 1 - z/2 */
  kiln_mv hz = kiln_mb_mulc(e, z, 0.5);
  kiln_mv w = kiln_mb_sub(e, kiln_mb_c(e, 1.0), hz);
  kiln_mv corr = kiln_mb_fma(e, kiln_mb_mul(e, z, z), pc,
                             kiln_mb_sub(e, kiln_mb_sub(e, kiln_mb_c(e, 1.0), w), hz));
  *out_c = kiln_mb_add(e, w, corr);
}

void kiln_math_sincos_pi(const kiln_mb *e, kiln_mv r, kiln_mv *out_s, kiln_mv *out_c) {
  kiln_mv a = kiln_mb_fabs(e, r);
  kiln_mv far = kiln_mb_gtc(e, a, 0.25);
  kiln_mv w = kiln_mb_sel(e, far, kiln_mb_sub(e, kiln_mb_c(e, 0.5), a), a); /* exact (Sterbenz) */
  /* pi w with pi = hi + lo */
  double hi = e->dbl ? 0x1.921fb54442d18p+1 : 0x1.921fb6p+1;
  double lo = e->dbl ? 0x1.1a62633145c07p-53 : -0x1.777a5cp-24;
  kiln_mv t = kiln_mb_fma(e, w, kiln_mb_c(e, hi), kiln_mb_mulc(e, w, lo));
  kiln_mv s, c;
  sincos_reduced(e, t, &s, &c);
  *out_s = kiln_mb_copysign(e, kiln_mb_sel(e, far, c, s), r);
  *out_c = kiln_mb_sel(e, far, s, c);
}

typedef enum { TRIG_SIN, TRIG_COS, TRIG_TAN } trig_kind;

static kiln_mv trig(const kiln_mb *e, kiln_mv x, trig_kind kind) {
  kiln_mv bad = kiln_mb_or(e, kiln_mb_isnan(e, x), kiln_mb_isinf(e, x));
  kiln_mv xs = kiln_mb_sel(e, bad, kiln_mb_c(e, 0.0), x);
  kiln_mv qf;
  /* a float (computed in double: every entry here is f32_via_f64) reduces in straight-line
   * code (reduce_float); a double needs Payne-Hanek from 2^26 on (llvm_math_reduce.c) */
  kiln_mv r = e->narrow ? reduce_float(e, xs, &qf) : kiln_math_reduce_pio2(e, xs, &qf);
  kiln_mv s, c;
  sincos_reduced(e, r, &s, &c);
  kiln_mv q = kiln_mb_ftoi(e, qf);
  kiln_mv odd = LLVMBuildTrunc(e->b, q, e->bt, "");
  kiln_mv y;
  if (kind == TRIG_TAN) {
    y = kiln_mb_sel(e, odd, kiln_mb_div(e, kiln_mb_neg(e, c), s), kiln_mb_div(e, s, c));
  } else {
    if (kind == TRIG_COS) q = kiln_mb_iadd(e, q, kiln_mb_ci(e, 1));
    kiln_mv odd2 = LLVMBuildTrunc(e->b, q, e->bt, "");
    kiln_mv half = LLVMBuildTrunc(e->b, kiln_mb_ashr(e, q, 1), e->bt, "");
    y = kiln_mb_sel(e, odd2, c, s);
    y = kiln_mb_sel(e, half, kiln_mb_neg(e, y), y);
  }
  return kiln_mb_sel(e, bad, kiln_mb_nan(e), y);
}

kiln_mv kiln_math_sin(const kiln_mb *e, kiln_mv x) { return trig(e, x, TRIG_SIN); }
kiln_mv kiln_math_cos(const kiln_mb *e, kiln_mv x) { return trig(e, x, TRIG_COS); }
kiln_mv kiln_math_tan(const kiln_mb *e, kiln_mv x) { return trig(e, x, TRIG_TAN); }

/* k*pi/4 for k = 0..4 as hi + lo. */
static void pio4_multiple(const kiln_mb *e, kiln_mv k, kiln_mv *out_hi, kiln_mv *out_lo) {
  static const double hi64[5] = {0, 0x1.921fb54442d18p-1, 0x1.921fb54442d18p+0,
                                 0x1.2d97c7f3321d2p+1, 0x1.921fb54442d18p+1};
  static const double lo64[5] = {0, 0x1.1a62633145c07p-55, 0x1.1a62633145c07p-54,
                                 0x1.a79394c9e8a0ap-54, 0x1.1a62633145c07p-53};
  static const double hi32[5] = {0, 0x1.921fb6p-1, 0x1.921fb6p+0, 0x1.2d97c8p+1, 0x1.921fb6p+1};
  static const double lo32[5] = {0, -0x1.777a5cp-26, -0x1.777a5cp-25, -0x1.99bc5cp-28,
                                 -0x1.777a5cp-24};
  const double *h = e->dbl ? hi64 : hi32, *l = e->dbl ? lo64 : lo32;
  kiln_mv hi = kiln_mb_c(e, 0.0), lo = kiln_mb_c(e, 0.0);
  for (int i = 1; i < 5; i++) {
    kiln_mv is = kiln_mb_eqc(e, k, (double)i);
    hi = kiln_mb_selc(e, is, h[i], hi);
    lo = kiln_mb_selc(e, is, l[i], lo);
  }
  *out_hi = hi;
  *out_lo = lo;
}

/* atan2(a, b) for a, b >= 0, not NaN, not both 0; reflected to pi - that when neg_b. */
static kiln_mv atan2_core(const kiln_mb *e, kiln_mv a, kiln_mv b, kiln_mv neg_b) {
  kiln_mv both_inf = kiln_mb_and(e, kiln_mb_isinf(e, a), kiln_mb_isinf(e, b));
  a = kiln_mb_sel(e, both_inf, kiln_mb_c(e, 1.0), a);
  b = kiln_mb_sel(e, both_inf, kiln_mb_c(e, 1.0), b);
  kiln_mv swap = kiln_mb_gt(e, a, b);
  kiln_mv mn = kiln_mb_sel(e, swap, b, a), mx = kiln_mb_sel(e, swap, a, b);
  kiln_mv huge = kiln_mb_gtc(e, mx, e->dbl ? 0x1p1000 : 0x1p120);
  mn = kiln_mb_sel(e, huge, kiln_mb_mulc(e, mn, 0.25), mn);
  mx = kiln_mb_sel(e, huge, kiln_mb_mulc(e, mx, 0.25), mx);
  kiln_mv mid = kiln_mb_gt(e, mn, kiln_mb_mulc(e, mx, 0.41421356237309503));
  kiln_mv num = kiln_mb_sel(e, mid, kiln_mb_sub(e, mn, mx), mn);
  kiln_mv den = kiln_mb_sel(e, mid, kiln_mb_add(e, mn, mx), mx);
  kiln_mv u = kiln_mb_div(e, num, den);
  kiln_mv z = kiln_mb_mul(e, u, u);
  kiln_mv p = e->dbl ? kiln_mb_poly(e, z, kAtan64, 12) : kiln_mb_poly(e, z, kAtan32, 6);
  kiln_mv wtail = kiln_mb_mul(e, kiln_mb_mul(e, u, z), p); /* atan(u) = u + wtail */
  /* result = K*pi/4 + sgn*(u + wtail), K and sgn from the reflections. */
  kiln_mv k = kiln_mb_selc(e, mid, 1.0, kiln_mb_c(e, 0.0));
  kiln_mv sgn = kiln_mb_c(e, 1.0);
  k = kiln_mb_sel(e, swap, kiln_mb_sub(e, kiln_mb_c(e, 2.0), k), k);
  sgn = kiln_mb_selc(e, swap, -1.0, sgn);
  k = kiln_mb_sel(e, neg_b, kiln_mb_sub(e, kiln_mb_c(e, 4.0), k), k);
  sgn = kiln_mb_sel(e, neg_b, kiln_mb_neg(e, sgn), sgn);
  kiln_mv khi, klo;
  pio4_multiple(e, k, &khi, &klo);
  kiln_mv t = kiln_mb_add(e, kiln_mb_fma(e, sgn, wtail, klo), kiln_mb_mul(e, sgn, u));
  return kiln_mb_add(e, khi, t);
}

kiln_mv kiln_math_atan2_pos(const kiln_mb *e, kiln_mv a, kiln_mv b) {
  kiln_mv f = LLVMConstNull(e->bt);
  return atan2_core(e, a, b, f);
}

kiln_mv kiln_math_atan(const kiln_mb *e, kiln_mv x) {
  kiln_mv y = kiln_math_atan2_pos(e, kiln_mb_fabs(e, x), kiln_mb_c(e, 1.0));
  y = kiln_mb_sel(e, kiln_mb_isnan(e, x), x, y);
  return kiln_mb_copysign(e, y, x);
}

kiln_mv kiln_math_atan2(const kiln_mb *e, kiln_mv y, kiln_mv x) {
  kiln_mv neg_x = kiln_mb_ltc(e, kiln_mb_copysign(e, kiln_mb_c(e, 1.0), x), 0.0);
  kiln_mv a = kiln_mb_fabs(e, y), b = kiln_mb_fabs(e, x);
  kiln_mv y0 = kiln_mb_eqc(e, a, 0.0);
  kiln_mv r = atan2_core(e, kiln_mb_sel(e, y0, kiln_mb_c(e, 0.0), a),
                         kiln_mb_sel(e, y0, kiln_mb_c(e, 1.0), b), neg_x);
  r = kiln_mb_copysign(e, r, y);
  kiln_mv nan = kiln_mb_or(e, kiln_mb_isnan(e, x), kiln_mb_isnan(e, y));
  return kiln_mb_sel(e, nan, kiln_mb_add(e, x, y), r);
}

/* sqrt((1-x)(1+x)) */
static kiln_mv cos_of_asin(const kiln_mb *e, kiln_mv x) {
  kiln_mv a = kiln_mb_sub(e, kiln_mb_c(e, 1.0), x), b = kiln_mb_addc(e, x, 1.0);
  return kiln_mb_sqrt(e, kiln_mb_mul(e, a, b));
}

kiln_mv kiln_math_asin(const kiln_mb *e, kiln_mv x) {
  return kiln_math_atan2(e, x, cos_of_asin(e, x));
}
kiln_mv kiln_math_acos(const kiln_mb *e, kiln_mv x) {
  return kiln_math_atan2(e, cos_of_asin(e, x), x);
}
