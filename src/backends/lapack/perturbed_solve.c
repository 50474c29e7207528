/* The tridiagonal solve with perturbed singular pivots (perturbed_solve.h) for the four
 * element types, batch by batch (kernels.c runs the batch's systems). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "backends/lapack/lapack_internal.h"

#define PS_EPS FLT_EPSILON
#define PS_MIN FLT_MIN
#define PS_MAX FLT_MAX
#define PS_R float
#define PS_T float
#define PS_NAME(x) x##_s
#define PS_ABS fabsf
#define PS_RE(v) (v)
#include "backends/lapack/perturbed_solve.h"
#undef PS_T
#undef PS_NAME
#undef PS_ABS
#undef PS_RE
#define PS_T float complex
#define PS_NAME(x) x##_c
#define PS_ABS cabsf
#define PS_RE crealf
#include "backends/lapack/perturbed_solve.h"
#undef PS_T
#undef PS_NAME
#undef PS_ABS
#undef PS_RE
#undef PS_R
#undef PS_EPS
#undef PS_MIN
#undef PS_MAX

#define PS_EPS DBL_EPSILON
#define PS_MIN DBL_MIN
#define PS_MAX DBL_MAX
#define PS_R double
#define PS_T double
#define PS_NAME(x) x##_d
#define PS_ABS fabs
#define PS_RE(v) (v)
#include "backends/lapack/perturbed_solve.h"
#undef PS_T
#undef PS_NAME
#undef PS_ABS
#undef PS_RE
#define PS_T double complex
#define PS_NAME(x) x##_z
#define PS_ABS cabs
#define PS_RE creal
#include "backends/lapack/perturbed_solve.h"

void kiln_lapack_perturbed_solve(kiln_lapack_type type, int64_t n, int64_t k, const void *dl, const void *d,
                                 const void *du, const void *rhs, void *x, void *work) {
  switch (type) {
    case KILN_LAPACK_S: solve_s(n, k, dl, d, du, rhs, x, work); break;
    case KILN_LAPACK_D: solve_d(n, k, dl, d, du, rhs, x, work); break;
    case KILN_LAPACK_C: solve_c(n, k, dl, d, du, rhs, x, work); break;
    case KILN_LAPACK_Z: solve_z(n, k, dl, d, du, rhs, x, work); break;
  }
}
