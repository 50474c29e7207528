/* The per-type tables of LAPACK/BLAS routines (routines.h). */
#include "backends/lapack/routines.h"

#include <pthread.h>

void openblas_set_num_threads(int n);
int blas_thread_shutdown_(void);

/* One thread, and the server threads OpenBLAS started when it was loaded stopped: idle,
 * they spin (sched_yield) for about 100 ms after the load, taking a core from a process's
 * compile and first runs (a quarter of the CPU samples of `kiln bench` of cnn_large_f16
 * for one run, 2 cores, 2026-12-07). OpenBLAS starts them again should a call of the
 * host's want them. */
static void set_one_thread(void) {
  openblas_set_num_threads(1);
  blas_thread_shutdown_();
}

void kiln_lapack_single_threaded(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, set_one_thread);
}

/* The Fortran symbols, declared with routines.h's types (their data arguments as void *). */
#define KILN_DECLARE4(type, base) extern type s##base##_, d##base##_, c##base##_, z##base##_;
KILN_DECLARE4(kiln_potrf_fn, potrf)
KILN_DECLARE4(kiln_getrf_fn, getrf)
KILN_DECLARE4(kiln_geqrf_fn, geqrf)
KILN_DECLARE4(kiln_trsm_fn, trsm)
KILN_DECLARE4(kiln_gehrd_fn, gehrd)
KILN_DECLARE4(kiln_gtsv_fn, gtsv)
#undef KILN_DECLARE4
extern kiln_geqp3_r_fn sgeqp3_, dgeqp3_;
extern kiln_geqp3_c_fn cgeqp3_, zgeqp3_;
extern kiln_orgqr_fn sorgqr_, dorgqr_, cungqr_, zungqr_;
extern kiln_ormqr_fn sormqr_, dormqr_, cunmqr_, zunmqr_;
extern kiln_syevd_fn ssyevd_, dsyevd_;
extern kiln_heevd_fn cheevd_, zheevd_;
extern kiln_gesdd_r_fn sgesdd_, dgesdd_;
extern kiln_gesdd_c_fn cgesdd_, zgesdd_;
extern kiln_gesvd_r_fn sgesvd_, dgesvd_;
extern kiln_gesvd_c_fn cgesvd_, zgesvd_;
extern kiln_geev_r_fn sgeev_, dgeev_;
extern kiln_geev_c_fn cgeev_, zgeev_;
extern kiln_gees_r_fn sgees_, dgees_;
extern kiln_gees_c_fn cgees_, zgees_;
extern kiln_sytrd_fn ssytrd_, dsytrd_, chetrd_, zhetrd_;

#define KILN_COMMON(p)                                                                                     \
  .potrf = p##potrf_, .getrf = p##getrf_, .geqrf = p##geqrf_, .trsm = p##trsm_, .gehrd = p##gehrd_,           \
  .gtsv = p##gtsv_
#define KILN_REAL(p)                                                                                          \
  KILN_COMMON(p), .geqp3_r = p##geqp3_, .orgqr = p##orgqr_, .ormqr = p##ormqr_, .syevd = p##syevd_,        \
      .gesdd_r = p##gesdd_, .gesvd_r = p##gesvd_, .geev_r = p##geev_, .gees_r = p##gees_, .sytrd = p##sytrd_
#define KILN_COMPLEX(p)                                                                                       \
  KILN_COMMON(p), .geqp3_c = p##geqp3_, .orgqr = p##ungqr_, .ormqr = p##unmqr_, .heevd = p##heevd_,        \
      .gesdd_c = p##gesdd_, .gesvd_c = p##gesvd_, .geev_c = p##geev_, .gees_c = p##gees_, .sytrd = p##hetrd_

const kiln_lapack_fns kiln_lapack_routines[4] = {{KILN_REAL(s)}, {KILN_REAL(d)}, {KILN_COMPLEX(c)}, {KILN_COMPLEX(z)}};
