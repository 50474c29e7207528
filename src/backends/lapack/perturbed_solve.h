/* jaxlib's tridiagonal solve with perturbed singular pivots (the custom call
 * `tridiagonal_solve_perturbed_ffi`, jaxlib/tridiagonal_solve_perturbed.h): Gaussian
 * elimination with partial pivoting on one tridiagonal system, its near-zero pivots nudged
 * (or the row scaled up) as the back substitution meets them, the same steps in the same
 * order. A template, included by perturbed_solve.c once per element type with
 *   PS_T          the element type (float, double, float complex, double complex)
 *   PS_R          its real type
 *   PS_NAME(x)    x with the instantiation's suffix
 *   PS_ABS, PS_RE the magnitude and the real part of a PS_T
 *   PS_EPS, PS_MIN, PS_MAX  the real type's epsilon, least normal and largest values
 * No include guard. */

/* LAPACK's xLAMCH safe minimum: the least x whose reciprocal does not overflow. */
static PS_R PS_NAME(safe_min)(void) {
  PS_R tiny = PS_MIN, small = (PS_R)1 / PS_MAX;
  return small < tiny ? tiny : small * ((PS_R)1 + PS_EPS);
}

/* A pivot of magnitude below 1 is moved away from zero by perturb (doubling each time) while
 * dividing the row by it could overflow, or the pivot and the row (k values) are scaled up
 * together when the pivot is tiny but the row is smaller still. */
static void PS_NAME(perturb_pivot)(PS_R perturb, PS_T *pivot, PS_T *row, int64_t k) {
  const PS_R safemin = PS_NAME(safe_min)(), bignum = (PS_R)1 / safemin;
  PS_R abs_pivot = PS_ABS(*pivot);
  if (abs_pivot >= 1) return;
  perturb = fmax(fabs(perturb), safemin);
  perturb = copysign(perturb, PS_RE(*pivot));
  PS_R max_factor = 0;
  for (int64_t j = 0; j < k; j++) max_factor = fmax(max_factor, PS_ABS(row[j]));
  for (bool stop = false; abs_pivot < 1 && !stop; abs_pivot = PS_ABS(*pivot)) {
    if (abs_pivot < safemin) {
      if (abs_pivot == 0 || max_factor * safemin > abs_pivot) {
        *pivot += perturb;
        perturb *= 2;
      } else {
        *pivot *= bignum;
        for (int64_t j = 0; j < k; j++) row[j] *= bignum;
        stop = true;
      }
    } else if (max_factor > abs_pivot * bignum) {
      *pivot += perturb;
      perturb *= 2;
    } else {
      stop = true;
    }
  }
}

/* x = A^-1 rhs for the n x n tridiagonal A (sub-diagonal dl, dl[0] unused; diagonal d;
 * super-diagonal du, du[n-1] unused) and n x k column-major rhs and x. work: 3 n + k
 * elements. */
static void PS_NAME(solve)(int64_t n, int64_t k, const PS_T *dl, const PS_T *d, const PS_T *du, const PS_T *rhs,
                           PS_T *x, PS_T *work) {
  if (n == 0) return;
  PS_T *u0 = work, *u1 = work + n, *u2 = work + 2 * n, *row = work + 3 * n;
#define X(i, j) x[(i) + (j) * n]
#define B(i, j) rhs[(i) + (j) * n]
  if (n == 1) {
    PS_T p = d[0];
    for (int64_t j = 0; j < k; j++) row[j] = B(0, j);
    PS_NAME(perturb_pivot)(PS_EPS * PS_ABS(p), &p, row, k);
    for (int64_t j = 0; j < k; j++) X(0, j) = row[j] / p;
    return;
  }
  /* U of the pivoted LU: its diagonal and two super-diagonals (u0, u1, u2) */
  for (int64_t i = 0; i < 3 * n; i++) work[i] = 0;
  u0[0] = d[0], u1[0] = du[0];
  PS_R max_abs_u = fmax(PS_ABS(u0[0]), PS_ABS(u1[0])), scale1 = PS_ABS(u0[0]) + PS_ABS(u1[0]);
  for (int64_t j = 0; j < k; j++) X(0, j) = B(0, j);
  for (int64_t i = 0; i < n - 1; i++) {
    u0[i + 1] = d[i + 1];
    PS_R scale2 = PS_ABS(dl[i + 1]) + PS_ABS(u0[i + 1]);
    if (i < n - 2) scale2 += PS_ABS(du[i + 1]);
    if (dl[i + 1] == 0) { /* already eliminated */
      scale1 = scale2;
      u1[i + 1] = du[i + 1];
      u2[i] = 0;
      for (int64_t j = 0; j < k; j++) X(i + 1, j) = B(i + 1, j);
    } else {
      PS_R piv1 = u0[i] == 0 ? 0 : PS_ABS(u0[i]) / scale1, piv2 = PS_ABS(dl[i + 1]) / scale2;
      if (piv2 <= piv1) { /* no row exchange */
        scale1 = scale2;
        PS_T factor = dl[i + 1] / u0[i];
        u0[i + 1] -= factor * u1[i];
        u1[i + 1] = du[i + 1];
        u2[i] = 0;
        for (int64_t j = 0; j < k; j++) X(i + 1, j) = B(i + 1, j) - factor * X(i, j);
      } else { /* rows i and i + 1 exchanged */
        PS_T factor = u0[i] / dl[i + 1], utmp = u1[i];
        u0[i] = dl[i + 1];
        u0[i + 1] = utmp - factor * d[i + 1];
        u1[i] = d[i + 1];
        if (i < n - 2) {
          u2[i] = du[i + 1];
          u1[i + 1] = -factor * du[i + 1];
        }
        for (int64_t j = 0; j < k; j++) {
          X(i + 1, j) = X(i, j) - factor * B(i + 1, j);
          X(i, j) = B(i + 1, j);
        }
        scale1 = PS_ABS(u0[i + 1]) + PS_ABS(u1[i + 1]);
      }
    }
    if (i < n - 2) max_abs_u = fmax(max_abs_u, fmax(PS_ABS(u0[i]), fmax(PS_ABS(u1[i]), PS_ABS(u2[i]))));
  }
  max_abs_u = fmax(max_abs_u, PS_ABS(u0[n - 1]));
  /* back substitution, tiny pivots perturbed on the scale of eps * max |U| */
  PS_R perturb = PS_EPS * max_abs_u;
  for (int64_t i = n - 1; i >= 0; i--) {
    PS_T p = u0[i];
    for (int64_t j = 0; j < k; j++) {
      PS_T r = X(i, j);
      if (i + 1 < n) r -= u1[i] * X(i + 1, j);
      if (i + 2 < n) r -= u2[i] * X(i + 2, j);
      row[j] = r;
    }
    PS_NAME(perturb_pivot)(i == n - 1 ? perturb : copysign(perturb, PS_RE(p)), &p, row, k);
    PS_T inv = (PS_T)1 / p;
    for (int64_t j = 0; j < k; j++) X(i, j) = row[j] * inv;
  }
#undef X
#undef B
}
