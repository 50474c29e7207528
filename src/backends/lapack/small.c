/* getrf and trsm on small real matrices (lapack_internal.h: kiln_lapack_small), natively:
 * a LAPACK call costs about 150 ns before it computes anything (OpenBLAS's argument checks
 * and buffers), which is all of a 3x3 matrix's work; `jnp.linalg.inv` of 1,000 of them
 * made three such calls each. The algorithms are LAPACK's unblocked ones: getf2 (partial
 * pivoting on the first largest magnitude, the column scaled by the pivot's reciprocal,
 * a rank-one update) and the reference trsm (each element's sum subtracted in the order
 * of the solved elements, divided by the diagonal), on column-major matrices. */
#include <math.h>

#include "backends/lapack/lapack_internal.h"

bool kiln_lapack_small(const kiln_lapack_plan *p) {
  return (p->type == KILN_LAPACK_S || p->type == KILN_LAPACK_D) &&
         (p->kind == KILN_LAPACK_GETRF || p->kind == KILN_LAPACK_TRSM) && p->m <= KILN_LAPACK_SMALL &&
         p->n <= KILN_LAPACK_SMALL;
}

/* One generic body per real type: T the element, SUF the functions' suffix. */
#define SMALL_ROUTINES(T, SUF, TINY)                                                                          \
  static void getrf_##SUF(int m, int n, T *a, int lda, int32_t *ipiv, int32_t *info) {                        \
    int mn = m < n ? m : n;                                                                                   \
    *info = 0;                                                                                                \
    for (int j = 0; j < mn; j++) {                                                                            \
      int p = j;                                                                                              \
      T best = (T)fabs((double)a[j + (size_t)j * lda]);                                                       \
      for (int i = j + 1; i < m; i++) {                                                                       \
        T v = (T)fabs((double)a[i + (size_t)j * lda]);                                                        \
        if (v > best) best = v, p = i;                                                                        \
      }                                                                                                       \
      ipiv[j] = p + 1;                                                                                        \
      T piv = a[p + (size_t)j * lda];                                                                         \
      if (piv != 0) {                                                                                         \
        if (p != j)                                                                                           \
          for (int c = 0; c < n; c++) {                                                                       \
            T t = a[j + (size_t)c * lda];                                                                     \
            a[j + (size_t)c * lda] = a[p + (size_t)c * lda], a[p + (size_t)c * lda] = t;                      \
          }                                                                                                   \
        if ((T)fabs((double)piv) >= TINY) {                                                                   \
          T r = 1 / piv;                                                                                      \
          for (int i = j + 1; i < m; i++) a[i + (size_t)j * lda] *= r;                                        \
        } else {                                                                                              \
          for (int i = j + 1; i < m; i++) a[i + (size_t)j * lda] /= piv;                                      \
        }                                                                                                     \
      } else if (!*info) {                                                                                    \
        *info = j + 1;                                                                                        \
      }                                                                                                       \
      for (int c = j + 1; c < n; c++) {                                                                       \
        T t = a[j + (size_t)c * lda];                                                                         \
        for (int i = j + 1; i < m; i++) a[i + (size_t)c * lda] -= a[i + (size_t)j * lda] * t;                 \
      }                                                                                                       \
    }                                                                                                         \
  }                                                                                                           \
                                                                                                              \
  /* op(A) x = b for one vector x (len elements, step apart), op(A)(i, k) = A(i, k), or A(k, i)             \
   * when transposed; lower: of op(A). */                                                                    \
  static void solve_##SUF(const T *a, int lda, bool transposed, bool lower, bool unit, T *x, int len,        \
                          size_t step) {                                                                      \
    for (int s = 0; s < len; s++) {                                                                           \
      int i = lower ? s : len - 1 - s;                                                                        \
      T t = x[i * step];                                                                                      \
      for (int q = 0; q < s; q++) {                                                                           \
        int k = lower ? q : len - 1 - q;                                                                      \
        t -= (transposed ? a[k + (size_t)i * lda] : a[i + (size_t)k * lda]) * x[k * step];                   \
      }                                                                                                       \
      x[i * step] = unit ? t : t / a[i + (size_t)i * lda];                                                    \
    }                                                                                                         \
  }                                                                                                           \
                                                                                                              \
  /* B = op(A)^-1 B (side L) or B op(A)^-1 (side R), B m x n: column by column, or row by row as            \
   * op(A)^T x = b. */                                                                                        \
  static void trsm_##SUF(char side, char uplo, char trans, char diag, int m, int n, const T *a, int lda, T *b, \
                         int ldb) {                                                                           \
    bool tr = trans != 'N', unit = diag == 'U', left = side == 'L';                                           \
    bool t = left ? tr : !tr; /* the transposition solved */                                                  \
    bool lower = (uplo == 'L') != t;                                                                          \
    if (left)                                                                                                 \
      for (int j = 0; j < n; j++) solve_##SUF(a, lda, t, lower, unit, b + (size_t)j * ldb, m, 1);             \
    else                                                                                                      \
      for (int i = 0; i < m; i++) solve_##SUF(a, lda, t, lower, unit, b + i, n, (size_t)ldb);                 \
  }
SMALL_ROUTINES(float, s, 0x1p-126f)
SMALL_ROUTINES(double, d, 0x1p-1022)
#undef SMALL_ROUTINES

void kiln_lapack_small_getrf(const kiln_lapack_plan *p, void *a, int lda, int32_t *ipiv, int32_t *info) {
  if (p->type == KILN_LAPACK_S) getrf_s(p->m, p->n, a, lda, ipiv, info);
  else getrf_d(p->m, p->n, a, lda, ipiv, info);
}

void kiln_lapack_small_trsm(const kiln_lapack_plan *p, const void *a, int lda, void *b, int ldb) {
  if (p->type == KILN_LAPACK_S) trsm_s(p->side, p->uplo, p->trans, p->diag, p->m, p->n, a, lda, b, ldb);
  else trsm_d(p->side, p->uplo, p->trans, p->diag, p->m, p->n, a, lda, b, ldb);
}
