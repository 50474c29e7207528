/* Complex elementary functions for the reference interpreter, in double precision.
 *
 * Each function is accurate to a few ULP over the whole complex plane: near branch cuts,
 * for huge and tiny magnitudes (no spurious overflow or underflow in intermediates) and
 * with the signed zeros and infinities of C's Annex G. Branch cuts follow the usual
 * conventions (the sign of a zero imaginary part picks the side). complex64 values are
 * computed with the same functions and rounded on store. */
#ifndef KILN_INTERP_COMPLEX_MATH_H
#define KILN_INTERP_COMPLEX_MATH_H

typedef struct kiln_cplx {
  double re, im;
} kiln_cplx;

/* The real cube root, within about half an ULP (libm's cbrt plus a Newton step). */
double kiln_real_cbrt(double x);

kiln_cplx kiln_cplx_add(kiln_cplx a, kiln_cplx b);
kiln_cplx kiln_cplx_mul(kiln_cplx a, kiln_cplx b);
kiln_cplx kiln_cplx_div(kiln_cplx a, kiln_cplx b); /* scaled, no spurious overflow */

kiln_cplx kiln_cplx_sqrt(kiln_cplx z);
kiln_cplx kiln_cplx_rsqrt(kiln_cplx z);
kiln_cplx kiln_cplx_cbrt(kiln_cplx z);
kiln_cplx kiln_cplx_exp(kiln_cplx z);
kiln_cplx kiln_cplx_expm1(kiln_cplx z);
kiln_cplx kiln_cplx_log(kiln_cplx z);
kiln_cplx kiln_cplx_log1p(kiln_cplx z);
kiln_cplx kiln_cplx_logistic(kiln_cplx z);
kiln_cplx kiln_cplx_pow(kiln_cplx a, kiln_cplx b);
kiln_cplx kiln_cplx_atan2(kiln_cplx y, kiln_cplx x); /* -i log((x + iy) / sqrt(x^2 + y^2)) */

kiln_cplx kiln_cplx_sinh(kiln_cplx z);
kiln_cplx kiln_cplx_cosh(kiln_cplx z);
kiln_cplx kiln_cplx_tanh(kiln_cplx z);
kiln_cplx kiln_cplx_sin(kiln_cplx z);
kiln_cplx kiln_cplx_cos(kiln_cplx z);
kiln_cplx kiln_cplx_tan(kiln_cplx z);

kiln_cplx kiln_cplx_asin(kiln_cplx z);
kiln_cplx kiln_cplx_acos(kiln_cplx z);
kiln_cplx kiln_cplx_asinh(kiln_cplx z);
kiln_cplx kiln_cplx_acosh(kiln_cplx z);
kiln_cplx kiln_cplx_atan(kiln_cplx z);
kiln_cplx kiln_cplx_atanh(kiln_cplx z);

#endif
