/* The LAPACK and BLAS routines Kiln calls (OpenBLAS's, CMakeLists.txt; Fortran 77
 * interface, LP64: 32-bit integers; gfortran's hidden lengths of CHARACTER arguments as
 * trailing size_t), one table per element type: [0] single, [1] double, [2] complex, [3] double complex. Data
 * pointers are void * (Fortran passes addresses; the table picks the element type).
 * Routines whose real and complex forms take different arguments (workspaces for real
 * parts, eigenvalues as two arrays) have an _r and a _c entry; the other one is NULL.
 * The pthread OpenBLAS locks its buffer pool, and LAPACK keeps no state between calls:
 * every routine is safe to call from several threads at once, once
 * kiln_lapack_single_threaded has held OpenBLAS's own threads to one. */
#ifndef KILN_BACKENDS_LAPACK_ROUTINES_H
#define KILN_BACKENDS_LAPACK_ROUTINES_H

#include <stddef.h>

/* Has OpenBLAS compute every call on its calling thread (openblas_set_num_threads(1), once
 * per process; thread-safe) and stops the threads it started at its load: Kiln's callers
 * split the work over their own threads. Call it before the first routine of a plan runs
 * (the cpu backend calls it when it is probed). The setting is OpenBLAS's, process-wide:
 * a host that loaded the same libopenblas.so.0 for its own use shares it. */
void kiln_lapack_single_threaded(void);

typedef void kiln_potrf_fn(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
typedef void kiln_getrf_fn(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
typedef void kiln_geqrf_fn(const int *m, const int *n, void *a, const int *lda, void *tau, void *work,
                           const int *lwork, int *info);
typedef void kiln_geqp3_r_fn(const int *m, const int *n, void *a, const int *lda, int *jpvt, void *tau, void *work,
                             const int *lwork, int *info);
typedef void kiln_geqp3_c_fn(const int *m, const int *n, void *a, const int *lda, int *jpvt, void *tau, void *work,
                             const int *lwork, void *rwork, int *info);
typedef void kiln_orgqr_fn(const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau,
                           void *work, const int *lwork, int *info);
typedef void kiln_ormqr_fn(const char *side, const char *trans, const int *m, const int *n, const int *k,
                           const void *a, const int *lda, const void *tau, void *c, const int *ldc, void *work,
                           const int *lwork, int *info, size_t, size_t);
typedef void kiln_trsm_fn(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
                          const int *n, const void *alpha, const void *a, const int *lda, void *b, const int *ldb,
                          size_t, size_t, size_t, size_t);
typedef void kiln_syevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w,
                           void *work, const int *lwork, int *iwork, const int *liwork, int *info, size_t, size_t);
typedef void kiln_heevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w,
                           void *work, const int *lwork, void *rwork, const int *lrwork, int *iwork,
                           const int *liwork, int *info, size_t, size_t);
typedef void kiln_gesdd_r_fn(const char *jobz, const int *m, const int *n, void *a, const int *lda, void *s, void *u,
                             const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, int *iwork,
                             int *info, size_t);
typedef void kiln_gesdd_c_fn(const char *jobz, const int *m, const int *n, void *a, const int *lda, void *s, void *u,
                             const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, void *rwork,
                             int *iwork, int *info, size_t);
typedef void kiln_gesvd_r_fn(const char *jobu, const char *jobvt, const int *m, const int *n, void *a, const int *lda,
                             void *s, void *u, const int *ldu, void *vt, const int *ldvt, void *work,
                             const int *lwork, int *info, size_t, size_t);
typedef void kiln_gesvd_c_fn(const char *jobu, const char *jobvt, const int *m, const int *n, void *a, const int *lda,
                             void *s, void *u, const int *ldu, void *vt, const int *ldvt, void *work,
                             const int *lwork, void *rwork, int *info, size_t, size_t);
typedef void kiln_geev_r_fn(const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *wr,
                            void *wi, void *vl, const int *ldvl, void *vr, const int *ldvr, void *work,
                            const int *lwork, int *info, size_t, size_t);
typedef void kiln_geev_c_fn(const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *w,
                            void *vl, const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork,
                            void *rwork, int *info, size_t, size_t);
/* select is not referenced with sort = 'N', the only sort Kiln passes; bwork neither. */
typedef void kiln_gees_r_fn(const char *jobvs, const char *sort, void *select, const int *n, void *a, const int *lda,
                            int *sdim, void *wr, void *wi, void *vs, const int *ldvs, void *work, const int *lwork,
                            int *bwork, int *info, size_t, size_t);
typedef void kiln_gees_c_fn(const char *jobvs, const char *sort, void *select, const int *n, void *a, const int *lda,
                            int *sdim, void *w, void *vs, const int *ldvs, void *work, const int *lwork, void *rwork,
                            int *bwork, int *info, size_t, size_t);
typedef void kiln_gehrd_fn(const int *n, const int *ilo, const int *ihi, void *a, const int *lda, void *tau,
                           void *work, const int *lwork, int *info);
typedef void kiln_sytrd_fn(const char *uplo, const int *n, void *a, const int *lda, void *d, void *e, void *tau,
                           void *work, const int *lwork, int *info, size_t);
typedef void kiln_gtsv_fn(const int *n, const int *nrhs, void *dl, void *d, void *du, void *b, const int *ldb,
                          int *info);

typedef struct kiln_lapack_fns {
  kiln_potrf_fn *potrf;
  kiln_getrf_fn *getrf;
  kiln_geqrf_fn *geqrf;
  kiln_geqp3_r_fn *geqp3_r;
  kiln_geqp3_c_fn *geqp3_c;
  kiln_orgqr_fn *orgqr; /* orgqr / ungqr */
  kiln_ormqr_fn *ormqr; /* ormqr / unmqr */
  kiln_trsm_fn *trsm;
  kiln_syevd_fn *syevd;
  kiln_heevd_fn *heevd;
  kiln_gesdd_r_fn *gesdd_r;
  kiln_gesdd_c_fn *gesdd_c;
  kiln_gesvd_r_fn *gesvd_r;
  kiln_gesvd_c_fn *gesvd_c;
  kiln_geev_r_fn *geev_r;
  kiln_geev_c_fn *geev_c;
  kiln_gees_r_fn *gees_r;
  kiln_gees_c_fn *gees_c;
  kiln_gehrd_fn *gehrd;
  kiln_sytrd_fn *sytrd; /* sytrd / hetrd */
  kiln_gtsv_fn *gtsv;
} kiln_lapack_fns;

/* Indexed by kiln_lapack_type (lapack_internal.h). */
extern const kiln_lapack_fns kiln_lapack_routines[4];

#endif
