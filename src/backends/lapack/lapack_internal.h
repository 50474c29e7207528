/* What plan.c (reading and checking an op) hands kernels.c (running it). */
#ifndef KILN_BACKENDS_LAPACK_INTERNAL_H
#define KILN_BACKENDS_LAPACK_INTERNAL_H

#include <pthread.h>

#include "backends/lapack/lapack.h"
#include "backends/lapack/routines.h"

#define KILN_LAPACK_MAX_RANK 64
#define KILN_LAPACK_MAX_IN 4
#define KILN_LAPACK_MAX_OUT 6

typedef enum kiln_lapack_kind {
  KILN_LAPACK_POTRF,
  KILN_LAPACK_GETRF,
  KILN_LAPACK_GEQRF,
  KILN_LAPACK_GEQP3,
  KILN_LAPACK_ORGQR,
  KILN_LAPACK_ORMQR,
  KILN_LAPACK_TRSM,
  KILN_LAPACK_SYEVD,
  KILN_LAPACK_GESDD,
  KILN_LAPACK_GESVD,
  KILN_LAPACK_GEEV,
  KILN_LAPACK_GEES,
  KILN_LAPACK_GEHRD,
  KILN_LAPACK_SYTRD,
  KILN_LAPACK_GTSV,
  KILN_LAPACK_GTSV_PERTURBED, /* jaxlib's tridiagonal_solve_perturbed_ffi (perturbed_solve.c) */
  KILN_LAPACK_CHOLESKY, /* stablehlo.cholesky: potrf, the failed part of the triangle NaN */
} kiln_lapack_kind;

typedef enum kiln_lapack_type { KILN_LAPACK_S, KILN_LAPACK_D, KILN_LAPACK_C, KILN_LAPACK_Z } kiln_lapack_type;

/* An operand or result: logical shape, and the element strides of its physical layout
 * (the one jaxlib's kernels read: matrices column-major, batch dims outermost). */
typedef struct kiln_lapack_tensor {
  kiln_elem elem;
  int32_t rank;
  int64_t dims[KILN_LAPACK_MAX_RANK];
  int64_t strides[KILN_LAPACK_MAX_RANK];
  int64_t count;
  size_t elem_bytes;
} kiln_lapack_tensor;

struct kiln_lapack_plan {
  kiln_lapack_kind kind;
  kiln_lapack_type type;
  int32_t num_in, num_out;
  kiln_lapack_tensor in[KILN_LAPACK_MAX_IN], out[KILN_LAPACK_MAX_OUT];
  int32_t operand_of[KILN_LAPACK_MAX_IN]; /* in[k] is the op's operand operand_of[k] (shape operands skipped) */
  int64_t batch; /* matrices */
  int m, n, k;   /* the routine's sizes (kernels.c says which is which per kind) */
  char uplo, side, trans, diag, job, job2;
  int ilo, ihi;
  int lwork, lrwork, liwork; /* from the workspace queries (at least 1) */
  /* The buffers of finished runs (operand and result copies, workspaces), kept for the
   * next (kernels.c): a run that allocated them anew wrote fresh pages, 1 to 1.5 us each
   * on a VM (a 256x256 potrf's 0.15 ms spent 0.3 ms on its buffers). */
  pthread_mutex_t lock;
  struct kiln_lapack_buffers *idle;
};

/* Frees the kept buffers (kiln_lapack_destroy). */
void kiln_lapack_free_buffers(kiln_lapack_plan *p);

/* The largest m and n of a real getrf or trsm that small.c runs natively. */
#define KILN_LAPACK_SMALL 16

/* Whether p is such a plan (small.c). */
bool kiln_lapack_small(const kiln_lapack_plan *p);
/* p's routine on one matrix, as LAPACK's getrf (m x n, column-major, lda) and trsm (A
 * triangular, B m x n, alpha 1) would compute it; p must be kiln_lapack_small. Reentrant. */
void kiln_lapack_small_getrf(const kiln_lapack_plan *p, void *a, int lda, int32_t *ipiv, int32_t *info);
void kiln_lapack_small_trsm(const kiln_lapack_plan *p, const void *a, int lda, void *b, int ldb);

/* x = A^-1 rhs for one tridiagonal system of a GTSV_PERTURBED plan, as jaxlib's kernel
 * computes it (perturbed_solve.h): n x k column-major rhs and x; dl, d, du n each; work
 * 3 n + k elements of the type. Reentrant. */
void kiln_lapack_perturbed_solve(kiln_lapack_type type, int64_t n, int64_t k, const void *dl, const void *d,
                                 const void *du, const void *rhs, void *x, void *work);

/* Workspace queries (lwork = -1) for a checked plan; kernels.c. */
kiln_status kiln_lapack_query(kiln_lapack_plan *p);

#endif
