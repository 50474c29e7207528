/* Transcendental and elementary functions: the StableHLO ops atan2 cbrt cosine
 * exponential exponential_minus_one log log_plus_one logistic power rsqrt sine sqrt tan
 * tanh and the CHLO ops acos acosh asin asinh atan atanh bessel_i1e cosh digamma erf
 * erf_inv erfc lgamma sinh tan.
 *
 * Floats of every width are computed in double and rounded once on store (for f64 the
 * double result is the result); complex values use complex_math.c. Integer power is
 * exponentiation by squaring in uint64_t arithmetic (the store wraps to the width), with
 * the reference interpreter's rule for negative exponents: 0 unless |base| == 1. */
#define _DEFAULT_SOURCE /* lgamma_r, j1 */
#include <math.h>

#include "backends/interp/complex_math.h"
#include "backends/interp/interp.h"
#include "base/special_series.h"

#define PI 3.14159265358979323846
#define TWO_OVER_SQRT_PI 1.12837916709551257390
#define SQRT_PI_OVER_2 0.88622692545275801365

/* ------------------------------------------------------------------ real functions */

/* a + b = s + *err exactly. */
static double two_sum(double a, double b, double *err) {
  double s = a + b, bb = s - a;
  *err = (a - (s - bb)) + (b - bb);
  return s;
}

static double logistic(double x) {
  if (x >= 0 || isnan(x)) return 1 / (1 + exp(-x));
  double e = exp(x); /* e / (1 + e): no overflow of exp(-x) */
  return e / (1 + e);
}

static double rsqrt(double x) {
  double s = sqrt(x), r = 1 / s;
  if (!isfinite(r) || r == 0) return r;
  return r + r * fma(-s, r, 1.0); /* one correction of the division's rounding */
}

/* Inverse error function: an initial guess refined by Halley steps on erf(y) = x. Near
 * |x| = 1 the residual is taken through erfc, where 1 - |x| is exact. */
static double erf_inv(double x) {
  double ax = fabs(x);
  if (isnan(x) || ax > 1) return NAN;
  if (ax == 1) return copysign(INFINITY, x);
  if (ax == 0) return x;
  double y;
  if (ax < 0.5) { /* Maclaurin series, relative error < 2e-4 */
    double x2 = ax * ax;
    y = SQRT_PI_OVER_2 * ax * (1 + x2 * (PI / 12 + x2 * (7 * PI * PI / 480)));
  } else { /* Winitzki's approximation (a = 0.147), relative error < 2e-3 */
    double l = log(1 - ax) + log1p(ax); /* log(1 - x^2) */
    double t = 2 / (PI * 0.147) + 0.5 * l;
    y = sqrt(sqrt(t * t - l / 0.147) - t);
  }
  for (int i = 0; i < 6; i++) {
    double r = ax < 0.5 ? erf(y) - ax : (1 - ax) - erfc(y); /* erf(y) - x */
    double u = r / (TWO_OVER_SQRT_PI * exp(-y * y));
    double step = u / (1 + y * u);
    y -= step;
    if (fabs(step) <= 0x1p-60 * y) break;
  }
  return copysign(y, x);
}

/* cot(pi x) for non-integer x, with the argument reduced exactly. */
static double cot_pi(double x) {
  double r = x - nearbyint(x); /* exact, |r| <= 0.5 */
  if (fabs(r) == 0.5) return 0;
  return cos(PI * r) / sin(PI * r);
}

/* psi(x0 + t) */
static double digamma_taylor(double t) {
  double p = 0;
  for (int n = KILN_DIGAMMA_TAYLOR_TERMS - 1; n >= 0; n--) p = p * t + kiln_digamma_taylor[n];
  return p * t;
}

/* Digamma: NaN at its poles (0 and the negative integers), as CHLO defines it. Positive x
 * is brought to [1, 2) (exactly: x - n is representable) where the Taylor series at the
 * zero applies; x >= 10 uses the asymptotic series; negative x the reflection formula. */
static double digamma(double x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x <= 0 && x == nearbyint(x)) return NAN; /* poles, and -inf */
  if (x < 0) return digamma(1 - x) - PI * cot_pi(x);
  if (x < 1) return digamma_taylor((x - KILN_DIGAMMA_X0M1_HI) - KILN_DIGAMMA_X0_LO) - 1 / x; /* psi(x + 1) - 1/x */
  if (x < 10) { /* psi(x) = psi(y) + sum_{k < n} 1 / (y + k), y = x - n in [1, 2) */
    int n = (int)x - 1;
    double y = x - n, s = digamma_taylor((y - KILN_DIGAMMA_X0_HI) - KILN_DIGAMMA_X0_LO), c = 0, e;
    for (int k = 0; k < n; k++) {
      s = two_sum(s, 1 / (y + k), &e);
      c += e;
    }
    return s + c;
  }
  /* ln x - 1/(2x) - sum_k B_2k / (2k x^2k) */
  double w = 1 / (x * x);
  double s = w * (1.0 / 12 - w * (1.0 / 120 - w * (1.0 / 252 - w * (1.0 / 240 - w * (1.0 / 132 -
             w * (691.0 / 32760 - w * (1.0 / 12 - w * (3617.0 / 8160))))))));
  return log(x) - (0.5 / x + s);
}

/* Exponentially scaled modified Bessel function of the first kind, order one:
 * I1(x) e^-|x|, odd. Three regions, each accurate to a few ULP:
 *  |x| <= 2: the power series (x/2) sum_k (x^2/4)^k / (k! (k+1)!) times e^-|x|;
 *  |x| <= 25: I1(x) e^-x = (1/pi) int_0^pi e^(-2x sin^2(t/2)) cos t dt by the trapezoidal
 *             rule, which converges exponentially for this periodic integrand;
 *  |x| > 25: the asymptotic expansion e^x / sqrt(2 pi x) sum_k (-1)^k a_k / x^k (its
 *            smallest term there is below e^-50). */
static double bessel_i1e(double x) {
  double ax = fabs(x), r;
  if (isnan(x)) return x;
  if (ax <= 2) {
    double q = 0.25 * ax * ax, term = 1, sum = 1;
    for (int k = 1; k < 40 && term > 0x1p-60 * sum; k++) {
      term *= q / ((double)k * (double)(k + 1));
      sum += term;
    }
    r = 0.5 * ax * sum * exp(-ax);
  } else if (ax <= 25) {
    enum { N = 64 };
    double s = 0.5 * (1 - exp(-2 * ax)), c = 0, e; /* the endpoints t = 0 and t = pi */
    for (int j = 1; j < N; j++) {
      double t = PI * j / N, h = sin(0.5 * t);
      s = two_sum(s, exp(-2 * ax * h * h) * cos(t), &e);
      c += e;
    }
    r = (s + c) / N;
  } else { /* a_k = prod_{j <= k} (4 - (2j-1)^2) / (8j) */
    double term = 1, sum = 1;
    for (int k = 1; k < 60 && fabs(term) >= 0x1p-60 * fabs(sum); k++) {
      term *= -(4.0 - (double)(2 * k - 1) * (double)(2 * k - 1)) / (8.0 * k * ax);
      sum += term;
    }
    r = sum / sqrt(2 * PI * ax); /* 0 for infinite x */
  }
  return copysign(r, x);
}

/* bessel_i1e on complex numbers, where ODS admits it (HLO_AnyFpOrComplexTensor): the
 * entire function I1 scaled as scipy's ive and Amos's ZBESI (KODE=2) scale it,
 * I1e(z) = I1(z) e^-|Re z|. It is odd and commutes with conjugation, so z is brought
 * to the first quadrant; the real axis uses bessel_i1e, the imaginary one
 * I1(iy) = i J1(y). The regions of the real function, extended to complex z = x + iy:
 *  |z| <= 2: the power series (z/2) sum_k (z^2/4)^k / (k! (k+1)!) times e^-x;
 *  |z| <= 25: I1e(z) = (1/pi) int_0^pi e^(-2x sin^2(t/2)) e^(iy cos t) cos t dt by the
 *             trapezoidal rule; its error is the aliased terms I_(2N +- 1)(z), far
 *             below an ULP for N = 64;
 *  |z| > 25: the two-sided asymptotic expansion (DLMF 10.40.5, upper signs, valid up
 *            to ph z = pi/2) I1(z) = (e^z S(-z) - i e^-z S(z)) / sqrt(2 pi z),
 *            S(w) = sum_k a_k / w^k, whose second term matters near the imaginary
 *            axis. */
static kiln_cplx bessel_i1e_cplx(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) return (kiln_cplx){NAN, NAN};
  if (y == 0) return (kiln_cplx){bessel_i1e(x), y}; /* I1' > 0 on the real axis */
  if (x == 0) return (kiln_cplx){x, j1(y)};
  if (isinf(x) || isinf(y)) return (kiln_cplx){copysign(0, x), copysign(0, y)}; /* |I1e| -> 0 */
  double sign_re = x < 0 ? -1 : 1, sign_im = y < 0 ? -1 : 1;
  x = fabs(x);
  y = fabs(y);
  double az = hypot(x, y), re, im;
  if (az <= 2) {
    kiln_cplx q = {0.25 * (x - y) * (x + y), 0.5 * x * y}, term = {1, 0}, sum = {1, 0};
    for (int k = 1; k < 40 && fabs(term.re) + fabs(term.im) > 0x1p-60 * (fabs(sum.re) + fabs(sum.im)); k++) {
      double d = (double)k * (double)(k + 1);
      term = kiln_cplx_mul(term, (kiln_cplx){q.re / d, q.im / d});
      sum = kiln_cplx_add(sum, term);
    }
    kiln_cplx r = kiln_cplx_mul((kiln_cplx){0.5 * x, 0.5 * y}, sum);
    double scale = exp(-x);
    re = r.re * scale;
    im = r.im * scale;
  } else if (az <= 25) {
    enum { N = 64 };
    double e2 = exp(-2 * x); /* the endpoints t = 0 and t = pi */
    double sr = 0.5 * (cos(y) - e2 * cos(y)), si = 0.5 * (sin(y) + e2 * sin(y)), cr = 0, ci = 0, e;
    for (int j = 1; j < N; j++) {
      double t = PI * j / N, h = sin(0.5 * t), c = cos(t), w = exp(-2 * x * h * h) * c;
      sr = two_sum(sr, w * cos(y * c), &e);
      cr += e;
      si = two_sum(si, w * sin(y * c), &e);
      ci += e;
    }
    re = (sr + cr) / N;
    im = (si + ci) / N;
  } else { /* a_k = prod_{j <= k} (4 - (2j-1)^2) / (8j) */
    kiln_cplx w = kiln_cplx_div((kiln_cplx){1, 0}, (kiln_cplx){x, y}); /* 1/z */
    kiln_cplx term = {1, 0}, s_minus = {1, 0}, s_plus = {1, 0};
    for (int k = 1; k < 60 && fabs(term.re) + fabs(term.im) >= 0x1p-60; k++) {
      double a = (4.0 - (double)(2 * k - 1) * (double)(2 * k - 1)) / (8.0 * k);
      term = kiln_cplx_mul(term, (kiln_cplx){a * w.re, a * w.im});
      s_plus = kiln_cplx_add(s_plus, term);
      s_minus = kiln_cplx_add(s_minus, (kiln_cplx){k % 2 ? -term.re : term.re, k % 2 ? -term.im : term.im});
    }
    /* e^-x I1(z) = e^iy S(-z) - i e^-2x e^-iy S(z) */
    double e2 = exp(-2 * x);
    kiln_cplx u = kiln_cplx_mul((kiln_cplx){cos(y), sin(y)}, s_minus);
    kiln_cplx v = kiln_cplx_mul((kiln_cplx){-e2 * sin(y), -e2 * cos(y)}, s_plus); /* -i e^-2x e^-iy */
    kiln_cplx r = kiln_cplx_div(kiln_cplx_add(u, v), kiln_cplx_sqrt((kiln_cplx){2 * PI * x, 2 * PI * y}));
    re = r.re;
    im = r.im;
  }
  return (kiln_cplx){sign_re * re, sign_im * im};
}

static double log_gamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

/* sum_{k >= 0} (q + k)^-s for s > 1, q > 0: ten terms summed directly, the rest by
 * Euler-Maclaurin from a = q + 10: a^(1-s)/(s-1) + a^-s/2 + sum_j B_2j/(2j)! s(s+1)...
 * (s+2j-2) a^(-s-2j+1), twelve corrections. */
static double zeta_positive(double s, double q) {
  double sum = 0, a = q;
  for (int k = 0; k < 10; k++, a += 1) sum += pow(a, -s);
  double tail = pow(a, -s);
  if (tail == 0 || fabs(tail) < fabs(sum) * 0x1p-60) return sum;
  double r = a * tail / (s - 1) + 0.5 * tail, t = s * tail / a, a2 = a * a;
  for (int j = 0; j < KILN_ZETA_CORRECTIONS; j++) {
    r += kiln_zeta_bernoulli[j] * t;
    t *= (s + 2 * j + 1) * (s + 2 * j + 2) / a2;
  }
  return sum + r;
}

/* The Hurwitz zeta function sum_{k >= 0} (q + k)^-s, as CHLO defines chlo.zeta: +inf at
 * s = 1 and at the poles q = 0, -1, ... for even integer s (NaN for other s there), NaN
 * for s < 1 and for non-integer (or infinite) s when q <= 0. Below zero (integer s), the m = -floor(q)
 * negative terms are (-1)^s times those of zeta(s, 1 - p) up to zeta(s, 1 - p + m), p the
 * fraction of q: no Euler-Maclaurin from a negative start (CHLO's own decomposition starts
 * it at q + 10, wrong below -10). */
static double hurwitz_zeta(double s, double q) {
  if (isnan(s) || isnan(q)) return NAN;
  if (s == 1) return INFINITY;
  bool s_int = s == floor(s) && !isinf(s); /* an infinite s is no integer (nor even) */
  if (q <= 0 && q == floor(q)) return s_int && fmod(s, 2) == 0 ? INFINITY : NAN;
  if (s < 1 || (q <= 0 && !s_int)) return NAN;
  if (q > 0) return zeta_positive(s, q);
  double p = q - floor(q), m = -floor(q), sign = fmod(s, 2) == 0 ? 1 : -1;
  return zeta_positive(s, p) + sign * (zeta_positive(s, 1 - p) - zeta_positive(s, 1 - p + m));
}

/* The polygamma function psi^(n)(x) as CHLO defines chlo.polygamma: NaN unless n is a
 * (finite) natural number, digamma for n = 0, else (-1)^(n+1) n! zeta(n + 1, x). */
static double polygamma(double n, double x) {
  if (isnan(n) || isnan(x) || n < 0 || n != floor(n) || isinf(n)) return NAN;
  if (n == 0) return digamma(x);
  double sign = fmod(n, 2) == 1 ? 1 : -1;
  return sign * exp(lgamma(n + 1)) * hurwitz_zeta(n + 1, x);
}

/* ------------------------------------------------------------------ op table */

typedef double (*real_fn)(double);
typedef kiln_cplx (*cplx_fn)(kiln_cplx);
typedef double (*real_fn2)(double, double);
typedef kiln_cplx (*cplx_fn2)(kiln_cplx, kiln_cplx);

typedef struct unary_fns {
  real_fn re;
  cplx_fn cx; /* NULL: the op is not defined on complex numbers */
} unary_fns;

static const unary_fns k_unary[KILN_OP_COUNT] = {
    [KILN_OP_CBRT] = {kiln_real_cbrt, kiln_cplx_cbrt},
    [KILN_OP_COSINE] = {cos, kiln_cplx_cos},
    [KILN_OP_EXPONENTIAL] = {exp, kiln_cplx_exp},
    [KILN_OP_EXPONENTIAL_MINUS_ONE] = {expm1, kiln_cplx_expm1},
    [KILN_OP_LOG] = {log, kiln_cplx_log},
    [KILN_OP_LOG_PLUS_ONE] = {log1p, kiln_cplx_log1p},
    [KILN_OP_LOGISTIC] = {logistic, kiln_cplx_logistic},
    [KILN_OP_RSQRT] = {rsqrt, kiln_cplx_rsqrt},
    [KILN_OP_SINE] = {sin, kiln_cplx_sin},
    [KILN_OP_SQRT] = {sqrt, kiln_cplx_sqrt},
    [KILN_OP_TAN] = {tan, kiln_cplx_tan},
    [KILN_OP_TANH] = {tanh, kiln_cplx_tanh},
    [KILN_OP_CHLO_ACOS] = {acos, kiln_cplx_acos},
    [KILN_OP_CHLO_ACOSH] = {acosh, kiln_cplx_acosh},
    [KILN_OP_CHLO_ASIN] = {asin, kiln_cplx_asin},
    [KILN_OP_CHLO_ASINH] = {asinh, kiln_cplx_asinh},
    [KILN_OP_CHLO_ATAN] = {atan, kiln_cplx_atan},
    [KILN_OP_CHLO_ATANH] = {atanh, kiln_cplx_atanh},
    [KILN_OP_CHLO_BESSEL_I1E] = {bessel_i1e, bessel_i1e_cplx},
    [KILN_OP_CHLO_COSH] = {cosh, kiln_cplx_cosh},
    [KILN_OP_CHLO_DIGAMMA] = {digamma, NULL},
    [KILN_OP_CHLO_ERF] = {erf, NULL},
    [KILN_OP_CHLO_ERF_INV] = {erf_inv, NULL},
    [KILN_OP_CHLO_ERFC] = {erfc, NULL},
    [KILN_OP_CHLO_LGAMMA] = {log_gamma, NULL},
    [KILN_OP_CHLO_SINH] = {sinh, kiln_cplx_sinh},
    [KILN_OP_CHLO_TAN] = {tan, kiln_cplx_tan},
};

/* ------------------------------------------------------------------ kernels */

/* The element type of the single result and the operands' checks shared by both loops. */
static kiln_status check_elementwise(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t nin, kiln_elem *out) {
  if (a->num_in != nin || a->num_out != 1) return kiln_interp_error(ctx, a->op, "expects %d operands and 1 result", (int)nin);
  const kiln_rtv *x = a->in[0];
  for (int32_t i = 0; i < nin; i++) {
    const kiln_rtv *v = a->in[i];
    if (!v || v->kind != KILN_RTV_TENSOR) return kiln_interp_error(ctx, a->op, "operand #%d is not a tensor", (int)i);
    if (v->elem != x->elem || v->rank != x->rank || v->count != x->count)
      return kiln_interp_error(ctx, a->op, "operands differ in element type or shape");
    for (int32_t d = 0; d < x->rank; d++)
      if (v->dims[d] != x->dims[d]) return kiln_interp_error(ctx, a->op, "operands differ in shape");
  }
  const kiln_type *rt = a->out_elem[0];
  if (!rt || rt->kind != KILN_TYPE_SCALAR) return kiln_interp_error(ctx, a->op, "result is not a tensor of numbers");
  *out = rt->elem;
  return NULL;
}

static kiln_status unsupported(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_elem e) {
  return kiln_interp_error(ctx, a->op, "is not defined on %s elements", kiln_elem_name(e));
}

static kiln_status unary_kernel(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const unary_fns *f = &k_unary[a->op->kind];
  kiln_elem oe = KILN_ELEM_COUNT;
  KILN_RETURN_IF_ERROR(check_elementwise(ctx, a, 1, &oe));
  const kiln_rtv *x = a->in[0];
  kiln_elem_class cls = kiln_elem_class_of(x->elem);
  bool real = cls == KILN_ELEM_CLASS_F && f->re;
  if (!real && !(cls == KILN_ELEM_CLASS_C && f->cx)) return unsupported(ctx, a, x->elem);
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, x->rank, x->dims));
  kiln_rtv *r = a->out[0];
  for (int64_t i = 0; i < x->count; i++) {
    kiln_scalar s = kiln_scalar_load(x->elem, x->data + (size_t)i * x->elem_bytes);
    if (real) {
      s.f = f->re(s.f);
    } else {
      kiln_cplx v = f->cx((kiln_cplx){s.f, s.im});
      s.f = v.re;
      s.im = v.im;
    }
    kiln_scalar_store(oe, r->data + (size_t)i * r->elem_bytes, s);
  }
  return NULL;
}

/* base^exponent in two's complement arithmetic modulo 2^64. */
static uint64_t int_pow(kiln_scalar base, kiln_scalar exponent, bool is_signed) {
  uint64_t b = base.u, e = exponent.u, r = 1;
  if (is_signed && exponent.i < 0) {
    if (base.i == 1) return 1;
    if (base.i == -1) return (e & 1) ? (uint64_t)-1 : 1;
    return 0;
  }
  for (; e; e >>= 1) {
    if (e & 1) r *= b;
    b *= b;
  }
  return r;
}

typedef struct binary_fns {
  real_fn2 re;
  cplx_fn2 cx; /* NULL: the op is not defined on complex numbers */
} binary_fns;

static const binary_fns k_binary[KILN_OP_COUNT] = {
    [KILN_OP_ATAN2] = {atan2, kiln_cplx_atan2},
    [KILN_OP_POWER] = {pow, kiln_cplx_pow}, /* and integers: int_pow */
    [KILN_OP_CHLO_POLYGAMMA] = {polygamma, NULL},
    [KILN_OP_CHLO_ZETA] = {hurwitz_zeta, NULL},
};

static kiln_status binary_kernel(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  bool power = a->op->kind == KILN_OP_POWER;
  real_fn2 re = k_binary[a->op->kind].re;
  cplx_fn2 cx = k_binary[a->op->kind].cx;
  kiln_elem oe = KILN_ELEM_COUNT;
  KILN_RETURN_IF_ERROR(check_elementwise(ctx, a, 2, &oe));
  const kiln_rtv *x = a->in[0], *y = a->in[1];
  kiln_elem_class cls = kiln_elem_class_of(x->elem);
  bool integer = cls == KILN_ELEM_CLASS_I || cls == KILN_ELEM_CLASS_U || cls == KILN_ELEM_CLASS_B;
  if ((cls == KILN_ELEM_CLASS_C && !cx) || cls == KILN_ELEM_CLASS_X || (integer && !power))
    return unsupported(ctx, a, x->elem);
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, x->rank, x->dims));
  kiln_rtv *r = a->out[0];
  for (int64_t i = 0; i < x->count; i++) {
    kiln_scalar s = kiln_scalar_load(x->elem, x->data + (size_t)i * x->elem_bytes);
    kiln_scalar t = kiln_scalar_load(y->elem, y->data + (size_t)i * y->elem_bytes);
    if (integer) {
      s.u = int_pow(s, t, cls == KILN_ELEM_CLASS_I);
    } else if (cls == KILN_ELEM_CLASS_F) {
      s.f = re(s.f, t.f);
    } else {
      kiln_cplx v = cx((kiln_cplx){s.f, s.im}, (kiln_cplx){t.f, t.im});
      s.f = v.re;
      s.im = v.im;
    }
    kiln_scalar_store(oe, r->data + (size_t)i * r->elem_bytes, s);
  }
  return NULL;
}

kiln_interp_kernel kiln_interp_math_lookup(kiln_op_kind kind) {
  if ((unsigned)kind < KILN_OP_COUNT && k_binary[kind].re) return binary_kernel;
  if ((unsigned)kind < KILN_OP_COUNT && k_unary[kind].re) return unary_kernel;
  return NULL;
}
