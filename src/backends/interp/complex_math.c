/* Complex elementary functions (see complex_math.h).
 *
 * Techniques: inputs are rescaled by powers of two (exact) where squares or sums would
 * overflow or underflow; |z|^2 - 1 and similar cancelling sums are formed from exact
 * products (fma) and summed with error-free transformations; the inverse trigonometric
 * functions use the Hull, Fairgrieve and Tang (1997) decomposition of asin/acos with its
 * safe-region formulas; atanh uses log1p of 4x / ((1 - x)^2 + y^2). Special values
 * (zeros, infinities, NaNs) follow C's Annex G. */
#include "backends/interp/complex_math.h"

#include <float.h>
#include <math.h>

#define PI 3.14159265358979323846
#define PI_2 1.57079632679489661923
#define LN2 0.69314718055994530942
/* ln 2 split so that k * LN2_HI is exact for |k| < 2^11. */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10

static kiln_cplx mk(double re, double im) { return (kiln_cplx){re, im}; }

/* ------------------------------------------------------------------ exact arithmetic */

/* a * b = p + *err exactly. */
static double two_prod(double a, double b, double *err) {
  double p = a * b;
  *err = fma(a, b, -p);
  return p;
}

/* a + b = s + *err exactly. */
static double two_sum(double a, double b, double *err) {
  double s = a + b, bb = s - a;
  *err = (a - (s - bb)) + (b - bb);
  return s;
}

/* Compensated sum of n terms (Ogita, Rump and Oishi's Sum2): as if summed in twice the
 * working precision and rounded once. */
static double sum2(const double *t, int n) {
  double s = t[0], c = 0;
  for (int i = 1; i < n; i++) {
    double e;
    s = two_sum(s, t[i], &e);
    c += e;
  }
  return s + c;
}

/* The binary exponent e of a finite nonzero v: v = f * 2^e with 0.5 <= |f| < 1. */
static int exponent_of(double v) {
  int e;
  (void)frexp(v, &e);
  return e;
}

/* e^x * c, with no spurious overflow or underflow of e^x on its own. */
static double exp_mul(double x, double c) {
  if (fabs(x) < 700) return exp(x) * c;
  double h = exp(0.5 * x);
  return (h * c) * h;
}

/* log(hypot(mx, mn)) for finite mx >= mn >= 0. */
static double log_hypot(double mx, double mn) {
  if (mx == 0) return -INFINITY;
  int e = exponent_of(mx);
  if (e == 0 || e == 1) { /* 0.5 <= mx < 2: |z|^2 - 1 from exact squares, then log1p */
    double xl, yl, xh = two_prod(mx, mx, &xl), yh = two_prod(mn, mn, &yl);
    double t[5] = {xh, -1.0, yh, xl, yl};
    return 0.5 * log1p(sum2(t, 5));
  }
  /* Scale to [0.5, 1) (the smaller part may lose bits only where it cannot matter). */
  double sx = ldexp(mx, -e), sy = ldexp(mn, -e);
  double xl, yl, xh = two_prod(sx, sx, &xl), yh = two_prod(sy, sy, &yl);
  double el, s = two_sum(xh, yh, &el);
  el += xl + yl;
  return (double)e * LN2_HI + (0.5 * (log(s) + el / s) + (double)e * LN2_LO);
}

/* ------------------------------------------------------------------ arithmetic */

kiln_cplx kiln_cplx_add(kiln_cplx a, kiln_cplx b) { return mk(a.re + b.re, a.im + b.im); }

kiln_cplx kiln_cplx_mul(kiln_cplx a, kiln_cplx b) {
  return mk(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

/* Smith's algorithm, with Annex G's recovery of infinities and zeros. */
kiln_cplx kiln_cplx_div(kiln_cplx a, kiln_cplx b) {
  double c = b.re, d = b.im, re, im;
  if (fabs(c) >= fabs(d)) {
    double r = d / c, den = c + d * r;
    re = (a.re + a.im * r) / den;
    im = (a.im - a.re * r) / den;
  } else {
    double r = c / d, den = c * r + d;
    re = (a.re * r + a.im) / den;
    im = (a.im * r - a.re) / den;
  }
  if (isnan(re) && isnan(im)) {
    if (c == 0 && d == 0 && (!isnan(a.re) || !isnan(a.im))) {
      re = copysign(INFINITY, c) * a.re;
      im = copysign(INFINITY, c) * a.im;
    } else if ((isinf(a.re) || isinf(a.im)) && isfinite(c) && isfinite(d)) {
      double ar = copysign(isinf(a.re) ? 1.0 : 0.0, a.re), ai = copysign(isinf(a.im) ? 1.0 : 0.0, a.im);
      re = INFINITY * (ar * c + ai * d);
      im = INFINITY * (ai * c - ar * d);
    } else if ((isinf(c) || isinf(d)) && isfinite(a.re) && isfinite(a.im)) {
      double cr = copysign(isinf(c) ? 1.0 : 0.0, c), di = copysign(isinf(d) ? 1.0 : 0.0, d);
      re = 0.0 * (a.re * cr + a.im * di);
      im = 0.0 * (a.im * cr - a.re * di);
    }
  }
  return mk(re, im);
}

/* ------------------------------------------------------------------ roots */

/* libm's cbrt refined by one Newton step with the residual y^3 - x formed exactly (libm's
 * may be off by a few ULP). */
double kiln_real_cbrt(double x) {
  if (x == 0 || !isfinite(x)) return cbrt(x);
  int e = exponent_of(x) / 3; /* work on x 8^-e, near 1: no underflow in the error terms */
  double xs = ldexp(x, -3 * e), y = cbrt(xs), el, fl;
  double p = two_prod(y, y, &el), q = two_prod(p, y, &fl);
  double res = (q - xs) + (fl + el * y); /* y^3 - xs; q - xs is exact */
  return ldexp(y - res / (3 * p), e);
}

/* t = sqrt((|x| + |z|) / 2) for finite x, y, not both zero, without overflow/underflow. */
static double sqrt_half_sum(double ax, double ay) {
  int e = exponent_of(fmax(ax, ay));
  int k = e / 2; /* scale by 4^-k: exact, and t scales by 2^k */
  double sx = ldexp(ax, -2 * k), sy = ldexp(ay, -2 * k);
  return ldexp(sqrt(0.5 * (sx + hypot(sx, sy))), k);
}

kiln_cplx kiln_cplx_sqrt(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isinf(y)) return mk(INFINITY, y);
  if (isnan(x)) return mk(x, isnan(y) ? y : x);
  if (isinf(x)) {
    if (x > 0) return mk(x, isnan(y) ? y : copysign(0.0, y));
    return mk(isnan(y) ? y : 0.0, isnan(y) ? INFINITY : copysign(INFINITY, y));
  }
  if (isnan(y)) return mk(y, y);
  if (x == 0 && y == 0) return mk(0.0, y);
  double t = sqrt_half_sum(fabs(x), fabs(y));
  if (x >= 0) return mk(t, y / (2 * t));
  return mk(fabs(y) / (2 * t), copysign(t, y));
}

kiln_cplx kiln_cplx_rsqrt(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (x == 0 && y == 0) return mk(INFINITY, NAN); /* 1 / (0 + 0i) */
  if (!isfinite(x) || !isfinite(y)) {
    kiln_cplx w = kiln_cplx_sqrt(z);
    if (isinf(w.re) || isinf(w.im)) return mk(copysign(0.0, w.re), -copysign(0.0, w.im));
    return mk(NAN, NAN);
  }
  /* 1/sqrt(z) = conj(sqrt(z)) / |z|, computed on z * 4^-k and scaled back by 2^-k. */
  int k = exponent_of(fmax(fabs(x), fabs(y))) / 2;
  double sx = ldexp(x, -2 * k), sy = ldexp(y, -2 * k);
  double h = hypot(sx, sy), t = sqrt(0.5 * (fabs(sx) + h));
  double re, im;
  if (sx >= 0) {
    re = t / h;
    im = -sy / (2 * t * h);
  } else {
    re = fabs(sy) / (2 * t * h);
    im = -copysign(t, sy) / h;
  }
  return mk(ldexp(re, -k), ldexp(im, -k));
}

/* The principal cube root r e^(i theta / 3). With phi = atan2(|y|, |x|) in [0, pi/2]:
 * the angle is phi / 3 for x >= 0 and pi/3 - phi/3 for x < 0 (expanded with cos and sin
 * of pi/3, so no rounded pi/3 enters), mirrored for y < 0. */
kiln_cplx kiln_cplx_cbrt(kiln_cplx z) {
  double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
  if (isnan(x) || isnan(y)) return mk((isinf(x) || isinf(y)) ? INFINITY : NAN, NAN);
  double r;
  if (isinf(ax) || isinf(ay)) r = INFINITY;
  else if (ax == 0 && ay == 0) r = 0;
  else {
    int k = exponent_of(fmax(ax, ay)) / 3; /* scale by 8^-k */
    r = ldexp(kiln_real_cbrt(hypot(ldexp(ax, -3 * k), ldexp(ay, -3 * k))), k);
  }
  double a = atan2(ay, ax) / 3, c = cos(a), s = sin(a);
  if (signbit(x)) {
    const double half_sqrt3 = 0.86602540378443864676;
    double c2 = 0.5 * c + half_sqrt3 * s;
    s = half_sqrt3 * c - 0.5 * s;
    c = c2;
  } else if (ay < ax * 0x1p-900 && isfinite(r)) {
    /* phi underflows: sin(phi / 3) = |y| / (3|x|), formed at a safe scale */
    return mk(r, copysign(ldexp(ldexp(ay, 900) / ax * r / 3, -900), y));
  }
  return mk(r * c, copysign(r * s, y));
}

/* ------------------------------------------------------------------ exp and log */

kiln_cplx kiln_cplx_exp(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (y == 0) return mk(exp(x), y);
  /* An infinite or NaN imaginary part has no defined phase: NaN + iNaN whatever x is (as
   * mpmath and the conformance tests define it; Annex G would keep +-0 for x = -inf and
   * an infinite real part for x = +inf). */
  if (isnan(x) || !isfinite(y)) return mk(NAN, NAN);
  if (isinf(x)) return x < 0 ? mk(0.0 * cos(y), 0.0 * sin(y)) : mk(x * cos(y), x * sin(y));
  return mk(exp_mul(x, cos(y)), exp_mul(x, sin(y)));
}

kiln_cplx kiln_cplx_expm1(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (y == 0) return mk(expm1(x), y);
  if (!isfinite(x) || !isfinite(y)) {
    kiln_cplx e = kiln_cplx_exp(z);
    return mk(e.re - 1, e.im);
  }
  double im = exp_mul(x, sin(y)), re;
  if (fabs(x) < 1) {
    /* e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y/2), summed without losing the small parts */
    double h = sin(0.5 * y), e1, e2;
    double p1 = two_prod(expm1(x), cos(y), &e1), p2 = two_prod(2 * h, h, &e2);
    double t[4] = {p1, -p2, e1, -e2};
    re = sum2(t, 4);
  } else {
    re = exp_mul(x, cos(y)) - 1;
  }
  return mk(re, im);
}

/* log of a complex with a NaN part (Annex G): +inf real part where the other part is
 * infinite, NaN otherwise. */
static kiln_cplx log_nan(double x, double y) { return mk((isinf(x) || isinf(y)) ? INFINITY : NAN, NAN); }

kiln_cplx kiln_cplx_log(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) return log_nan(x, y);
  double im = atan2(y, x), ax = fabs(x), ay = fabs(y);
  if (isinf(ax) || isinf(ay)) return mk(INFINITY, im);
  return mk(log_hypot(fmax(ax, ay), fmin(ax, ay)), im);
}

kiln_cplx kiln_cplx_log1p(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) return log_nan(x, y);
  double xp1 = x + 1, im = atan2(y, xp1), ay = fabs(y);
  if (isinf(x) || isinf(ay)) return mk(INFINITY, im);
  double mx = fmax(fabs(xp1), ay), mn = fmin(fabs(xp1), ay);
  if (mx == 0) return mk(-INFINITY, im);
  int e = exponent_of(mx);
  if (e == 0 || e == 1) {
    /* |1 + z| in [0.5, 3): log1p(2x + x^2 + y^2) with exact squares (|x| < 3, |y| < 2).
     * Where 1 + z is small, x + 1 is exact and the other branch is accurate. */
    double xl, yl, xh = two_prod(x, x, &xl), yh = two_prod(y, y, &yl);
    double t[5] = {2 * x, yh, xh, yl, xl};
    return mk(0.5 * log1p(sum2(t, 5)), im);
  }
  return mk(log_hypot(mx, mn), im);
}

/* 1 / (1 + e^-z). With c = cos(y/2), for x >= 0 and v = e^-x:
 *   re = (1 + v cos y) / D = (-expm1(-x) + 2 v c^2) / D,  im = v sin y / D,
 *   D = |1 + e^-z|^2 = expm1(-x)^2 + 4 v c^2,
 * sums of non-negative terms only; for x < 0 and u = e^x, e^z / (1 + e^z):
 *   re = u (u + cos y) / D,  im = u sin y / D,  D = expm1(x)^2 + 4 u c^2,
 * with u + cos y = expm1(x) + 2 c^2 where u is near 1. */
kiln_cplx kiln_cplx_logistic(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    kiln_cplx one = mk(1, 0);
    if (!(x < 0)) return kiln_cplx_div(one, kiln_cplx_add(one, kiln_cplx_exp(mk(-x, -y))));
    kiln_cplx e = kiln_cplx_exp(z);
    return kiln_cplx_div(e, kiln_cplx_add(one, e));
  }
  double c = cos(0.5 * y), cc = 2 * c * c, s = sin(y);
  if (x >= 0) {
    double m = expm1(-x), v = exp(-x), d = fma(m, m, 2 * v * cc);
    return mk((v * cc - m) / d, v * s / d);
  }
  double m = expm1(x), u = exp(x), d = fma(m, m, 2 * u * cc);
  double t = u < 0.5 ? u + cos(y) : m + cc; /* e^x + cos y, whichever form cancels less */
  return mk(u * t / d, u * s / d);
}

kiln_cplx kiln_cplx_pow(kiln_cplx a, kiln_cplx b) {
  if (b.re == 0 && b.im == 0) return mk(1, 0);
  if (a.re == 0 && a.im == 0 && !isnan(b.re) && !isnan(b.im)) {
    if (b.re > 0) return mk(0, 0);
    if (b.im == 0) return mk(INFINITY, 0);
    return mk(NAN, NAN);
  }
  return kiln_cplx_exp(kiln_cplx_mul(b, kiln_cplx_log(a)));
}

kiln_cplx kiln_cplx_atan2(kiln_cplx y, kiln_cplx x) {
  kiln_cplx num = kiln_cplx_add(x, mk(-y.im, y.re)); /* x + i y */
  kiln_cplx den = kiln_cplx_sqrt(kiln_cplx_add(kiln_cplx_mul(x, x), kiln_cplx_mul(y, y)));
  kiln_cplx l = kiln_cplx_log(kiln_cplx_div(num, den));
  return mk(l.im, -l.re); /* -i * l */
}

/* ------------------------------------------------------------------ hyperbolic and trigonometric */

kiln_cplx kiln_cplx_sinh(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return mk(sinh(x), y);
    double c = cos(y), s = sin(y);
    if (x == 0) return mk(x * c, s);
    if (fabs(x) < 700) return mk(sinh(x) * c, cosh(x) * s);
    double h = exp(0.5 * fabs(x)); /* sinh x ~ sign(x) cosh x ~ e^|x| / 2 */
    return mk(copysign(1.0, x) * ((0.5 * h * c) * h), (0.5 * h * s) * h);
  }
  if (isinf(x)) {
    if (y == 0) return mk(x, y);
    if (isfinite(y)) return mk(x * cos(y), fabs(x) * sin(y));
    return mk(x, NAN);
  }
  if (isnan(x)) return mk(x, y == 0 ? y : NAN);
  return mk(x == 0 ? x : NAN, NAN); /* finite x, infinite or NaN y */
}

kiln_cplx kiln_cplx_cosh(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return mk(cosh(x), x * y);
    double c = cos(y), s = sin(y);
    if (x == 0) return mk(c, x * s);
    if (fabs(x) < 700) return mk(cosh(x) * c, sinh(x) * s);
    double h = exp(0.5 * fabs(x));
    return mk((0.5 * h * c) * h, copysign(1.0, x) * ((0.5 * h * s) * h));
  }
  if (isinf(x)) {
    if (y == 0) return mk(INFINITY, copysign(0.0, x) * y);
    if (isfinite(y)) return mk(INFINITY * cos(y), x * sin(y));
    return mk(INFINITY, NAN);
  }
  if (isnan(x)) return mk(x, y == 0 ? y : NAN);
  return mk(NAN, x == 0 ? x : NAN); /* finite x, infinite or NaN y */
}

kiln_cplx kiln_cplx_tanh(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x)) return mk(x, y == 0 ? y : NAN);
  if (isinf(x)) return mk(copysign(1.0, x), isfinite(y) ? copysign(0.0, sin(y) * cos(y)) : copysign(0.0, y));
  /* finite x, infinite or NaN y: NaN + iNaN, also for x = +-0, as C99's Annex G (G.6.2.6),
   * XLA and mpmath have it (C17's DR 471 made it +-0 + iNaN). So tan(+-inf + iy) is
   * NaN + iNaN for every finite y. */
  if (!isfinite(y)) return mk(NAN, NAN);
  if (y == 0) return mk(tanh(x), y);
  double s = sin(y), c = cos(y);
  if (fabs(x) > 22) { /* tanh x == +-1 in double; imag = sin 2y / (cosh 2x + cos 2y) */
    return mk(copysign(1.0, x), 4 * s * c * exp(-2 * fabs(x)));
  }
  /* tanh(x + iy) = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): no cancellation. */
  double sh = sinh(x), ch = cosh(x);
  /* cos^2 y: from cos 2y where cos 2y > -1/2 (little cancellation, one rounding) */
  double c2 = fabs(c) > 0.5 && fabs(y) < 0x1p1000 ? 0.5 + 0.5 * cos(2 * y) : c * c;
  double d = fma(sh, sh, c2);
  double sc = fabs(y) < 0x1p1000 ? 0.5 * sin(2 * y) : s * c; /* sin y cos y, rounded once */
  return mk(sh * ch / d, sc / d);
}

/* f(z) = -i g(iz) and f(z) = g(iz) helpers. */
static kiln_cplx times_i(kiln_cplx z) { return mk(-z.im, z.re); }
static kiln_cplx times_minus_i(kiln_cplx z) { return mk(z.im, -z.re); }

kiln_cplx kiln_cplx_sin(kiln_cplx z) { return times_minus_i(kiln_cplx_sinh(times_i(z))); }
kiln_cplx kiln_cplx_cos(kiln_cplx z) { return kiln_cplx_cosh(times_i(z)); }
kiln_cplx kiln_cplx_tan(kiln_cplx z) { return times_minus_i(kiln_cplx_tanh(times_i(z))); }

/* ------------------------------------------------------------------ inverse functions */

/* For x, y >= 0, not NaN: with a = (hypot(x + 1, y) + hypot(x - 1, y)) / 2,
 *   *q = sqrt(a^2 - x^2) (so real(asin(x + iy)) = atan2(x, q)),
 *   *l = log(a + sqrt(a^2 - 1)) (= imag(asin(x + iy)) for y >= 0),
 * each evaluated with Hull et al.'s cancellation-free forms. */
static void asin_kernel(double x, double y, double *q, double *l) {
  /* Above 2^28, a = hypot(x, y) and log(a + sqrt(a^2 - 1)) = log(2a) to within 2^-56. */
  const double big = 0x1p28, safe_min = 0x1p-509; /* sqrt(DBL_MIN) * 4 */
  double mx = fmax(x, y);
  if (mx >= big) {
    double mn = fmin(x, y), r = isinf(mx) ? (isinf(mn) ? 1.0 : 0.0) : mn / mx;
    *q = y;
    *l = LN2 + log(mx) + 0.5 * log1p(r * r);
    return;
  }
  double xp1 = x + 1, xm1 = x - 1;
  double r = hypot(xp1, y), s = hypot(xm1, y), a = 0.5 * (r + s);
  double apx = a + x, yy = y * y, rpxp1 = r + xp1;
  if (x <= 1) *q = sqrt(0.5 * apx * (yy / rpxp1 + (s - xm1)));
  else *q = y * sqrt(0.5 * apx / rpxp1 + 0.5 * apx / (s + xm1));
  if (y < safe_min && x < 1) { /* y^2 is negligible next to 1 - x^2 */
    *l = y / sqrt((1 - x) * (1 + x));
    return;
  }
  double am1; /* a - 1 */
  if (x >= 1) am1 = 0.5 * yy / rpxp1 + 0.5 * (s + xm1);
  else if (a <= 1.5) am1 = 0.5 * yy / rpxp1 + 0.5 * yy / (s - xm1);
  else am1 = a - 1;
  *l = log1p(am1 + sqrt(am1 * (a + 1)));
}

kiln_cplx kiln_cplx_asinh(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x)) return mk(isinf(y) ? INFINITY : NAN, y == 0 ? y : NAN);
  if (isnan(y)) return mk(isinf(x) ? x : NAN, NAN);
  double q, l;
  asin_kernel(fabs(y), fabs(x), &q, &l); /* asinh(z) = -i asin(iz) */
  return mk(copysign(l, x), atan2(y, q));
}

kiln_cplx kiln_cplx_asin(kiln_cplx z) { return times_minus_i(kiln_cplx_asinh(times_i(z))); }

kiln_cplx kiln_cplx_acos(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return mk(NAN, isnan(y) ? INFINITY : -y);          /* NaN -+ i inf */
    if (isinf(y)) return mk(NAN, -y);                                  /* NaN + iNaN: NaN -+ i inf */
    if (x == 0) return mk(PI_2, NAN);
    return mk(NAN, NAN);
  }
  double q, l;
  asin_kernel(fabs(x), fabs(y), &q, &l);
  return mk(atan2(q, x), -copysign(l, y));
}

kiln_cplx kiln_cplx_acosh(kiln_cplx z) {
  double x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) {
    if (isinf(x) || isinf(y)) return mk(INFINITY, NAN);
    return mk(NAN, NAN);
  }
  double q, l;
  asin_kernel(fabs(x), fabs(y), &q, &l);
  return mk(l, copysign(atan2(q, x), y));
}

kiln_cplx kiln_cplx_atanh(kiln_cplx z) {
  double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(y)) return mk(copysign(0.0, x), copysign(PI_2, y));
    if (isinf(x) || x == 0) return mk(copysign(0.0, x), NAN);
    return mk(NAN, NAN);
  }
  if (isinf(ax) || isinf(ay)) return mk(copysign(0.0, x), copysign(PI_2, y));
  double mx = fmax(ax, ay);
  if (mx > 0x1p500) { /* atanh z = 1/z + O(1/z^3): real part x / |z|^2 */
    int e = exponent_of(mx);
    double sx = ldexp(ax, -e), h = hypot(sx, ldexp(ay, -e));
    return mk(copysign(ldexp((sx / h) / h, -e), x), copysign(PI_2, y));
  }
  double re;
  double am1 = 1 - ax;
  if (fabs(am1) < 0x1p-30 && ay < 0x1p-30) {
    /* 4x / ((1-x)^2 + y^2) is huge (and the denominator may underflow): log1p(t) = log(t) */
    re = 0.25 * log(4 * ax) - 0.5 * log(hypot(am1, ay));
  } else {
    re = 0.25 * log1p(4 * ax / fma(am1, am1, ay * ay));
  }
  /* imag = atan2(2y, 1 - x^2 - y^2) / 2 with 1 - x^2 - y^2 from exact squares */
  double xl, yl, xh = two_prod(ax, ax, &xl), yh = two_prod(ay, ay, &yl);
  double t[5] = {1.0, -xh, -yh, -xl, -yl};
  return mk(copysign(re, x), 0.5 * atan2(2 * y, sum2(t, 5)));
}

kiln_cplx kiln_cplx_atan(kiln_cplx z) { return times_minus_i(kiln_cplx_atanh(times_i(z))); }
