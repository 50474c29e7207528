/* Running a plan (lapack_internal.h): operands copied into the layout jaxlib's kernels
 * read (matrices column-major; a triangular solve's as they lie, plan.c), one LAPACK call
 * per matrix on the copies (a batch's matrices, or one triangular solve's right-hand sides,
 * shared out over the caller's threads), results copied back into row-major order; and the
 * workspace queries made once per plan. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/lapack/lapack_internal.h"
#include "base/arena.h"
#include "base/fault.h"

static const size_t k_size[4] = {4, 8, 8, 16}, k_rsize[4] = {4, 8, 4, 8};

#define AT(buf, bytes, i) ((void *)((char *)(buf) + (size_t)(i) * (bytes)))

static int lead(int64_t rows) { return rows > 1 ? (int)rows : 1; } /* LAPACK wants >= 1 */

/* ---------------------------------------------------------------- workspace queries */

/* The size a query returned in work[0] (its real part), rounded up with a margin: single
 * precision may hold a large size rounded down. */
static kiln_status query_size(const kiln_lapack_plan *p, const void *w, int info, bool real_work, int *out) {
  if (info) return KILN_STATUS(KILN_STATUS_INTERNAL, "lapack: workspace query failed (info %d)", info);
  bool single = real_work ? k_rsize[p->type] == 4 : p->type == KILN_LAPACK_S || p->type == KILN_LAPACK_C;
  double v = single ? (double)*(const float *)w : *(const double *)w;
  v = ceil(v * (1 + 1e-6)) + 1;
  if (!(v <= 2147483647.0)) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "lapack: a workspace of %g elements", v);
  *out = v > 1 ? (int)v : 1;
  return NULL;
}

kiln_status kiln_lapack_query(kiln_lapack_plan *p) {
  const kiln_lapack_fns *f = &kiln_lapack_routines[p->type];
  double w[2] = {0, 0}, dummy[4] = {0, 0, 0, 0}, rw[2] = {0, 0};
  int iw = 0, idummy[2] = {0, 0}, info = 0, query = -1, m = p->m, n = p->n, k = p->k;
  int ldm = lead(m), ldn = lead(n), mn = m < n ? m : n;
  bool cx = p->type >= KILN_LAPACK_C;
  char sortn = 'N';
  p->lwork = p->lrwork = p->liwork = 1;
  switch (p->kind) {
    case KILN_LAPACK_GEQRF: f->geqrf(&m, &n, dummy, &ldm, dummy, w, &query, &info); break;
    case KILN_LAPACK_GEQP3:
      if (cx) f->geqp3_c(&m, &n, dummy, &ldm, idummy, dummy, w, &query, rw, &info);
      else f->geqp3_r(&m, &n, dummy, &ldm, idummy, dummy, w, &query, &info);
      p->lrwork = 2 * n > 1 ? 2 * n : 1;
      break;
    case KILN_LAPACK_ORGQR: f->orgqr(&m, &n, &k, dummy, &ldm, dummy, w, &query, &info); break;
    case KILN_LAPACK_ORMQR: {
      int lda = lead(p->side == 'L' ? p->in[0].dims[p->in[0].rank - 2] : n);
      f->ormqr(&p->side, &p->trans, &m, &n, &k, dummy, &lda, dummy, dummy, &ldm, w, &query, &info, 1, 1);
      break;
    }
    case KILN_LAPACK_SYEVD:
      if (cx) f->heevd(&p->job, &p->uplo, &n, dummy, &ldn, dummy, w, &query, rw, &query, &iw, &query, &info, 1, 1);
      else f->syevd(&p->job, &p->uplo, &n, dummy, &ldn, dummy, w, &query, &iw, &query, &info, 1, 1);
      if (!info && cx) KILN_RETURN_IF_ERROR(query_size(p, rw, info, true, &p->lrwork));
      p->liwork = iw > 1 ? iw : 1;
      break;
    case KILN_LAPACK_GESDD:
    case KILN_LAPACK_GESVD: {
      int ldvt = lead(p->k);
      if (p->kind == KILN_LAPACK_GESDD && cx)
        f->gesdd_c(&p->job, &m, &n, dummy, &ldm, dummy, dummy, &ldm, dummy, &ldvt, w, &query, rw, idummy, &info, 1);
      else if (p->kind == KILN_LAPACK_GESDD)
        f->gesdd_r(&p->job, &m, &n, dummy, &ldm, dummy, dummy, &ldm, dummy, &ldvt, w, &query, idummy, &info, 1);
      else if (cx)
        f->gesvd_c(&p->job, &p->job, &m, &n, dummy, &ldm, dummy, dummy, &ldm, dummy, &ldvt, w, &query, rw, &info, 1, 1);
      else f->gesvd_r(&p->job, &p->job, &m, &n, dummy, &ldm, dummy, dummy, &ldm, dummy, &ldvt, w, &query, &info, 1, 1);
      /* real workspace of the complex forms, as LAPACK documents it (no query) */
      int64_t mx = m > n ? m : n, r = 5 * (int64_t)mn;
      if (p->kind == KILN_LAPACK_GESDD && p->job != 'N') {
        int64_t a = 5 * (int64_t)mn * mn + 5 * (int64_t)mn, b = 2 * mx * mn + 2 * (int64_t)mn * mn + mn;
        r = a > b ? a : b;
      } else if (p->kind == KILN_LAPACK_GESDD) r = 7 * (int64_t)mn;
      if (r > 2147483647) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "lapack: an SVD workspace of %lld", (long long)r);
      p->lrwork = r > 1 ? (int)r : 1;
      p->liwork = 8 * mn > 1 ? 8 * mn : 1;
      break;
    }
    case KILN_LAPACK_GEEV:
      if (cx) f->geev_c(&p->job, &p->job2, &n, dummy, &ldn, dummy, dummy, &ldn, dummy, &ldn, w, &query, rw, &info, 1, 1);
      else f->geev_r(&p->job, &p->job2, &n, dummy, &ldn, dummy, dummy, dummy, &ldn, dummy, &ldn, w, &query, &info, 1, 1);
      p->lrwork = 2 * n > 1 ? 2 * n : 1;
      break;
    case KILN_LAPACK_GEES: {
      int sdim = 0;
      if (cx) f->gees_c(&p->job, &sortn, NULL, &n, dummy, &ldn, &sdim, dummy, dummy, &ldn, w, &query, rw, NULL, &info, 1, 1);
      else f->gees_r(&p->job, &sortn, NULL, &n, dummy, &ldn, &sdim, dummy, dummy, dummy, &ldn, w, &query, NULL, &info, 1, 1);
      p->lrwork = n > 1 ? n : 1;
      break;
    }
    case KILN_LAPACK_GEHRD: f->gehrd(&n, &p->ilo, &p->ihi, dummy, &ldn, dummy, w, &query, &info); break;
    case KILN_LAPACK_SYTRD: f->sytrd(&p->uplo, &n, dummy, &ldn, dummy, dummy, dummy, w, &query, &info, 1); break;
    case KILN_LAPACK_GTSV_PERTURBED: { /* U's three diagonals and a row */
      int64_t need = 3 * (int64_t)n + k;
      if (need > INT_MAX) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "lapack: a tridiagonal workspace of %lld", (long long)need);
      p->lwork = need > 1 ? (int)need : 1;
      return NULL;
    }
    default: return NULL; /* no workspace */
  }
  return query_size(p, w, info, false, &p->lwork);
}

/* ---------------------------------------------------------------- layouts */

/* Copies between row-major order and t's physical layout (to_physical: src row-major),
 * RELAYOUT_ROWS rows (of the last logical dim) at a time, element by element across them:
 * a column-major matrix's consecutive rows are neighbours in memory, so each step of the
 * row writes (or reads) one run instead of one element per row at a stride: a 512x512 f32
 * matrix and 512x64 right-hand sides into column-major order 0.91 -> 0.25 ms on a Zen 3
 * core, the copies' fresh pages included. */
enum { RELAYOUT_ROWS = 16 };

#define RELAYOUT_BLOCK(bytes)                                                                 \
  for (int64_t j = 0; j < len; j++)                                                         \
    for (int64_t r = 0; r < nr; r++) {                                                      \
      int64_t logical = (row0 + r) * len + j, physical = base[r] + j * step;                \
      if (to_physical) memcpy(AT(dst, bytes, physical), AT(src, bytes, logical), bytes);    \
      else memcpy(AT(dst, bytes, logical), AT(src, bytes, physical), bytes);                \
    }

static void relayout(void *dst, const void *src, const kiln_lapack_tensor *t, bool to_physical) {
  size_t es = t->elem_bytes;
  bool row_major = true;
  int64_t expect = 1;
  for (int32_t d = t->rank - 1; d >= 0; d--) {
    if (t->dims[d] > 1 && t->strides[d] != expect) row_major = false;
    expect *= t->dims[d];
  }
  if (row_major) {
    memcpy(dst, src, (size_t)t->count * es);
    return;
  }
  int32_t last = t->rank - 1;
  int64_t len = t->dims[last], step = t->strides[last], idx[KILN_LAPACK_MAX_RANK] = {0}, off = 0;
  int64_t rows = len > 0 ? t->count / len : 0, base[RELAYOUT_ROWS];
  for (int64_t row0 = 0; row0 < rows; row0 += RELAYOUT_ROWS) {
    int64_t nr = rows - row0 < RELAYOUT_ROWS ? rows - row0 : RELAYOUT_ROWS;
    for (int64_t r = 0; r < nr; r++) { /* the physical offsets of the block's rows */
      base[r] = off;
      for (int32_t d = last - 1; d >= 0; d--) {
        off += t->strides[d];
        if (++idx[d] < t->dims[d]) break;
        off -= t->strides[d] * t->dims[d];
        idx[d] = 0;
      }
    }
    switch (es) { /* the usual sizes as constants, so that each memcpy is a move */
      case 4: RELAYOUT_BLOCK(4); break;
      case 8: RELAYOUT_BLOCK(8); break;
      case 16: RELAYOUT_BLOCK(16); break;
      default: RELAYOUT_BLOCK(es); break;
    }
  }
}
#undef RELAYOUT_BLOCK

/* ---------------------------------------------------------------- helpers */

static bool all_finite(const void *a, int64_t reals, bool single) {
  for (int64_t i = 0; i < reals; i++)
    if (!isfinite(single ? (double)((const float *)a)[i] : ((const double *)a)[i])) return false;
  return true;
}

/* geev's real eigenvectors to complex ones: a column j with wi[j] = 0 is real; a pair
 * j, j+1 (wi[j] > 0) holds re and im of v_j, and v_{j+1} is its conjugate. */
static void unpack_vectors(int n, const void *wi, const void *v, void *out, bool single) {
  for (int j = 0; j < n; j++) {
    double im = single ? ((const float *)wi)[j] : ((const double *)wi)[j];
    bool pair = im != 0 && j + 1 < n;
    for (int i = 0; i < n; i++) {
      int64_t a = (int64_t)j * n + i, b = (int64_t)(j + 1) * n + i;
      double re_v = single ? ((const float *)v)[a] : ((const double *)v)[a];
      double im_v = pair ? (single ? ((const float *)v)[b] : ((const double *)v)[b]) : 0;
      if (single) {
        float *o = out;
        o[2 * a] = (float)re_v, o[2 * a + 1] = (float)im_v;
        if (pair) o[2 * b] = (float)re_v, o[2 * b + 1] = (float)-im_v;
      } else {
        double *o = out;
        o[2 * a] = re_v, o[2 * a + 1] = im_v;
        if (pair) o[2 * b] = re_v, o[2 * b + 1] = -im_v;
      }
    }
    if (pair) j++;
  }
}

/* stablehlo.cholesky of a matrix that is not positive definite (potrf's info > 0): the
 * factor's entries from the failing column on are NaN, as the interpreter's are. */
static void nan_fill(const kiln_lapack_plan *p, void *a, int info) {
  int n = p->n;
  size_t rs = k_rsize[p->type], parts = k_size[p->type] / rs;
  for (int j = info - 1; j < n; j++)
    for (int i = j; i < n; i++) {
      int64_t e = p->uplo == 'L' ? (int64_t)j * n + i : (int64_t)i * n + j;
      for (size_t q = 0; q < parts; q++) {
        if (rs == 4) ((float *)a)[e * (int64_t)parts + (int64_t)q] = NAN;
        else ((double *)a)[e * (int64_t)parts + (int64_t)q] = NAN;
      }
    }
}

/* ---------------------------------------------------------------- run */

/* One thread's workspaces, made on its first part of a call, and its first error. */
typedef struct scratch {
  void *work, *rwork, *tmp1, *tmp2, *tmp3;
  int *iwork;
  bool ready;
  kiln_status st;
} scratch;

static void *alloc_bytes(int64_t count, size_t size) {
  size_t bytes;
  if (count < 1) count = 1;
  return kiln_mul_size((size_t)count, size, &bytes) ? kiln_fault_calloc(1, bytes) : NULL;
}

static kiln_status scratch_alloc(const kiln_lapack_plan *p, scratch *s) {
  size_t ts = k_size[p->type], rs = k_rsize[p->type];
  int64_t sq = p->kind == KILN_LAPACK_GEEV ? (int64_t)p->n * p->n : 0; /* geev's copies */
  s->work = alloc_bytes(p->lwork, ts), s->rwork = alloc_bytes(p->lrwork, rs);
  s->iwork = alloc_bytes(p->liwork, sizeof(int));
  s->tmp1 = alloc_bytes(sq, ts), s->tmp2 = alloc_bytes(sq, ts), s->tmp3 = alloc_bytes(sq, ts);
  if (s->work && s->rwork && s->tmp1 && s->tmp2 && s->tmp3 && s->iwork) return NULL;
  free(s->work), free(s->rwork), free(s->tmp1), free(s->tmp2), free(s->tmp3), free(s->iwork);
  s->work = s->rwork = s->tmp1 = s->tmp2 = s->tmp3 = NULL, s->iwork = NULL; /* a later run tries again */
  return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "lapack: out of memory");
}

static void scratch_free(scratch *s) {
  free(s->work), free(s->rwork), free(s->tmp1), free(s->tmp2), free(s->tmp3), free(s->iwork);
  kiln_status_free(s->st);
}

static void copy_in(const kiln_lapack_plan *p, void *const *pout, void *const *pin, int32_t out, int32_t in) {
  memcpy(pout[out], pin[in], (size_t)p->in[in].count * p->in[in].elem_bytes);
}

/* The results the routines overwrite in place start as copies of operands, every matrix of
 * the batch, before the matrices are shared out. */
static void copy_operands(const kiln_lapack_plan *p, void *const *pin, void *const *pout) {
  switch (p->kind) {
    case KILN_LAPACK_GEEV: break; /* copies each matrix into scratch */
    case KILN_LAPACK_GEQP3: copy_in(p, pout, pin, 0, 0), copy_in(p, pout, pin, 1, 1); break;
    case KILN_LAPACK_ORMQR: copy_in(p, pout, pin, 0, 2); break;
    case KILN_LAPACK_TRSM: copy_in(p, pout, pin, 0, 1); break;
    case KILN_LAPACK_GTSV:
      for (int32_t q = 0; q < 4; q++) copy_in(p, pout, pin, q, q);
      break;
    case KILN_LAPACK_GTSV_PERTURBED: break; /* writes x whole */
    default: copy_in(p, pout, pin, 0, 0); break;
  }
}

/* The info of a routine whose info is no result (geqrf, geqp3, orgqr, ormqr): below zero,
 * an argument it refused (the plan's bug), reported; an armed fault point fails it too. */
static kiln_status checked(const char *routine, int info) {
  if (kiln_fault_point()) info = -1;
  return info < 0 ? KILN_STATUS(KILN_STATUS_INTERNAL, "lapack: %s refused its argument %d", routine, -info) : NULL;
}

/* A triangular solve's right-hand sides cut into `slices` (its columns for side L, its rows
 * for side R: each is solved on its own), slices [j0, j1) of matrix b in one call. */
static void trsm_rhs(const kiln_lapack_plan *p, void *const *pin, void *const *pout, int64_t b, int64_t j0,
                     int64_t j1, int64_t slices) {
  static const float one_s[2] = {1, 0};
  static const double one_d[2] = {1, 0};
  const kiln_lapack_fns *f = &kiln_lapack_routines[p->type];
  size_t ts = k_size[p->type];
  const void *one = k_rsize[p->type] == 4 ? (const void *)one_s : (const void *)one_d;
  int m = p->m, n = p->n, ldm = lead(m), na = p->side == 'L' ? m : n, lda = lead(na);
  const void *a = AT(pin[0], ts, b * (int64_t)na * na);
  char *x = AT(pout[0], ts, b * (int64_t)m * n);
  if (kiln_lapack_small(p)) { /* small matrices are batched: never sliced */
    kiln_lapack_small_trsm(p, a, lda, x, ldm);
    return;
  }
  int rhs = p->side == 'L' ? n : m, r0 = (int)(rhs * j0 / slices), r1 = (int)(rhs * j1 / slices), count = r1 - r0;
  if (count <= 0) return;
  bool left = p->side == 'L';
  f->trsm(&p->side, &p->uplo, &p->trans, &p->diag, left ? &m : &count, left ? &count : &n, one, a, &lda,
          AT(x, ts, left ? (int64_t)r0 * ldm : r0), &ldm, 1, 1, 1, 1);
}

/* The routine's calls for matrices [b0, b1) of the batch. */
static kiln_status run_matrices(const kiln_lapack_plan *p, void *const *pin, void *const *pout, scratch *s,
                                int64_t b0, int64_t b1) {
  const kiln_lapack_fns *f = &kiln_lapack_routines[p->type];
  size_t ts = k_size[p->type], rs = k_rsize[p->type];
  bool cx = p->type >= KILN_LAPACK_C, single = rs == 4, small = kiln_lapack_small(p);
  int m = p->m, n = p->n, k = p->k, ldm = lead(m), ldn = lead(n), mn = m < n ? m : n, info = 0;
  int64_t mat = (int64_t)m * n, sq = (int64_t)n * n;
  char sortn = 'N';
  kiln_status st = NULL;
  switch (p->kind) {
    case KILN_LAPACK_POTRF:
    case KILN_LAPACK_CHOLESKY:
      for (int64_t b = b0; b < b1; b++) {
        void *a = AT(pout[0], ts, b * sq);
        f->potrf(&p->uplo, &n, a, &ldn, &info, 1);
        if (p->kind == KILN_LAPACK_POTRF) ((int32_t *)pout[1])[b] = info;
        else if (info > 0) nan_fill(p, a, info);
      }
      break;
    case KILN_LAPACK_GETRF:
      for (int64_t b = b0; b < b1; b++)
        if (small)
          kiln_lapack_small_getrf(p, AT(pout[0], ts, b * mat), ldm, (int32_t *)pout[1] + b * mn, (int32_t *)pout[2] + b);
        else
          f->getrf(&m, &n, AT(pout[0], ts, b * mat), &ldm, (int32_t *)pout[1] + b * mn, (int32_t *)pout[2] + b);
      break;
    case KILN_LAPACK_GEQRF:
      for (int64_t b = b0; !st && b < b1; b++) {
        f->geqrf(&m, &n, AT(pout[0], ts, b * mat), &ldm, AT(pout[1], ts, b * mn), s->work, &p->lwork, &info);
        st = checked("geqrf", info);
      }
      break;
    case KILN_LAPACK_GEQP3:
      for (int64_t b = b0; !st && b < b1; b++) {
        void *a = AT(pout[0], ts, b * mat), *tau = AT(pout[2], ts, b * mn);
        int32_t *jpvt = (int32_t *)pout[1] + b * n;
        if (cx) f->geqp3_c(&m, &n, a, &ldm, jpvt, tau, s->work, &p->lwork, s->rwork, &info);
        else f->geqp3_r(&m, &n, a, &ldm, jpvt, tau, s->work, &p->lwork, &info);
        st = checked("geqp3", info);
      }
      break;
    case KILN_LAPACK_ORGQR:
      for (int64_t b = b0; !st && b < b1; b++) {
        f->orgqr(&m, &n, &k, AT(pout[0], ts, b * mat), &ldm, AT(pin[1], ts, b * k), s->work, &p->lwork, &info);
        st = checked("orgqr", info);
      }
      break;
    case KILN_LAPACK_ORMQR: {
      const kiln_lapack_tensor *A = &p->in[0];
      int64_t astep = A->dims[A->rank - 2] * A->dims[A->rank - 1];
      int lda = lead(p->side == 'L' ? A->dims[A->rank - 2] : n);
      for (int64_t b = b0; !st && b < b1; b++) {
        f->ormqr(&p->side, &p->trans, &m, &n, &k, AT(pin[0], ts, b * astep), &lda, AT(pin[1], ts, b * k),
                 AT(pout[0], ts, b * mat), &ldm, s->work, &p->lwork, &info, 1, 1);
        st = checked("ormqr", info);
      }
      break;
    }
    case KILN_LAPACK_TRSM:
      for (int64_t b = b0; b < b1; b++) trsm_rhs(p, pin, pout, b, 0, 1, 1);
      break;
    case KILN_LAPACK_SYEVD:
      for (int64_t b = b0; b < b1; b++) {
        void *a = AT(pout[0], ts, b * sq), *w = AT(pout[1], rs, b * n);
        int32_t *inf = (int32_t *)pout[2] + b;
        if (cx)
          f->heevd(&p->job, &p->uplo, &n, a, &ldn, w, s->work, &p->lwork, s->rwork, &p->lrwork, s->iwork, &p->liwork, inf, 1, 1);
        else f->syevd(&p->job, &p->uplo, &n, a, &ldn, w, s->work, &p->lwork, s->iwork, &p->liwork, inf, 1, 1);
      }
      break;
    case KILN_LAPACK_GESDD:
    case KILN_LAPACK_GESVD: {
      const kiln_lapack_tensor *U = &p->out[2], *VT = &p->out[3];
      int64_t ustep = U->dims[U->rank - 2] * U->dims[U->rank - 1], vstep = VT->dims[VT->rank - 2] * VT->dims[VT->rank - 1];
      int ldvt = lead(k);
      for (int64_t b = b0; b < b1; b++) {
        void *a = AT(pout[0], ts, b * mat), *sv = AT(pout[1], rs, b * mn);
        void *u = AT(pout[2], ts, b * ustep), *vt = AT(pout[3], ts, b * vstep);
        int32_t *inf = (int32_t *)pout[4] + b;
        if (p->kind == KILN_LAPACK_GESDD && cx)
          f->gesdd_c(&p->job, &m, &n, a, &ldm, sv, u, &ldm, vt, &ldvt, s->work, &p->lwork, s->rwork, s->iwork, inf, 1);
        else if (p->kind == KILN_LAPACK_GESDD)
          f->gesdd_r(&p->job, &m, &n, a, &ldm, sv, u, &ldm, vt, &ldvt, s->work, &p->lwork, s->iwork, inf, 1);
        else if (cx)
          f->gesvd_c(&p->job, &p->job, &m, &n, a, &ldm, sv, u, &ldm, vt, &ldvt, s->work, &p->lwork, s->rwork, inf, 1, 1);
        else f->gesvd_r(&p->job, &p->job, &m, &n, a, &ldm, sv, u, &ldm, vt, &ldvt, s->work, &p->lwork, inf, 1, 1);
      }
      break;
    }
    case KILN_LAPACK_GEEV: {
      int32_t o = cx ? 0 : 1; /* the real form has two eigenvalue results */
      size_t cs = 2 * rs;     /* the eigenvectors are complex either way */
      for (int64_t b = b0; b < b1; b++) {
        int32_t *inf = (int32_t *)pout[o + 3] + b;
        memcpy(s->tmp1, AT(pin[0], ts, b * sq), (size_t)sq * ts);
        if (!all_finite(s->tmp1, sq * (int64_t)(ts / rs), single)) {
          *inf = -4; /* jaxlib's answer for a matrix with NaN or infinity */
          continue;
        }
        void *vl = AT(pout[o + 1], cs, b * sq), *vr = AT(pout[o + 2], cs, b * sq);
        if (cx) {
          f->geev_c(&p->job, &p->job2, &n, s->tmp1, &ldn, AT(pout[0], ts, b * n), vl, &ldn, vr, &ldn, s->work,
                    &p->lwork, s->rwork, inf, 1, 1);
          continue;
        }
        void *wi = AT(pout[1], ts, b * n);
        f->geev_r(&p->job, &p->job2, &n, s->tmp1, &ldn, AT(pout[0], ts, b * n), wi, s->tmp2, &ldn, s->tmp3, &ldn,
                  s->work, &p->lwork, inf, 1, 1);
        if (*inf == 0 && p->job == 'V') unpack_vectors(n, wi, s->tmp2, vl, single);
        if (*inf == 0 && p->job2 == 'V') unpack_vectors(n, wi, s->tmp3, vr, single);
      }
      break;
    }
    case KILN_LAPACK_GEES: {
      int32_t o = cx ? 3 : 4; /* sdim, then info */
      for (int64_t b = b0; b < b1; b++) {
        void *a = AT(pout[0], ts, b * sq), *vs = AT(pout[1], ts, b * sq), *w = AT(pout[2], ts, b * n);
        int32_t *sdim = (int32_t *)pout[o] + b, *inf = (int32_t *)pout[o + 1] + b;
        if (cx) f->gees_c(&p->job, &sortn, NULL, &n, a, &ldn, sdim, w, vs, &ldn, s->work, &p->lwork, s->rwork, NULL, inf, 1, 1);
        else
          f->gees_r(&p->job, &sortn, NULL, &n, a, &ldn, sdim, w, AT(pout[3], ts, b * n), vs, &ldn, s->work, &p->lwork,
                    NULL, inf, 1, 1);
      }
      break;
    }
    case KILN_LAPACK_GEHRD: {
      int64_t e = n > 0 ? n - 1 : 0;
      for (int64_t b = b0; b < b1; b++)
        f->gehrd(&n, &p->ilo, &p->ihi, AT(pout[0], ts, b * sq), &ldn, AT(pout[1], ts, b * e), s->work, &p->lwork,
                 (int32_t *)pout[2] + b);
      break;
    }
    case KILN_LAPACK_SYTRD: {
      int64_t e = n > 0 ? n - 1 : 0;
      for (int64_t b = b0; b < b1; b++)
        f->sytrd(&p->uplo, &n, AT(pout[0], ts, b * sq), &ldn, AT(pout[1], rs, b * n), AT(pout[2], rs, b * e),
                 AT(pout[3], ts, b * e), s->work, &p->lwork, (int32_t *)pout[4] + b, 1);
      break;
    }
    case KILN_LAPACK_GTSV:
      for (int64_t b = b0; b < b1; b++)
        f->gtsv(&n, &k, AT(pout[0], ts, b * n + 1), AT(pout[1], ts, b * n), AT(pout[2], ts, b * n),
                AT(pout[3], ts, b * (int64_t)n * k), &ldn, (int32_t *)pout[4] + b);
      break;
    case KILN_LAPACK_GTSV_PERTURBED:
      for (int64_t b = b0; b < b1; b++)
        kiln_lapack_perturbed_solve(p->type, n, k, AT(pin[0], ts, b * n), AT(pin[1], ts, b * n), AT(pin[2], ts, b * n),
                                    AT(pin[3], ts, b * (int64_t)n * k), AT(pout[0], ts, b * (int64_t)n * k), s->work);
      break;
  }
  return st;
}

/* A call's matrices cut into parts, run by the threads kiln_lapack_run was given. */
typedef struct parts_ctx {
  const kiln_lapack_plan *p;
  void *const *pin, *const *pout;
  scratch *scratch; /* by thread */
  int64_t parts, slices; /* items: the batch's matrices, each cut into `slices` (trsm_rhs) */
} parts_ctx;

static void run_part(void *arg, int32_t part, int32_t thread) {
  parts_ctx *c = arg;
  scratch *s = &c->scratch[thread];
  if (!s->ready && !s->st) {
    s->st = scratch_alloc(c->p, s);
    s->ready = !s->st;
  }
  if (s->st) return; /* kiln_lapack_run reports it */
  int64_t items = c->p->batch * c->slices, each = items / c->parts, extra = items % c->parts;
  int64_t i0 = part * each + (part < extra ? part : extra), i1 = i0 + each + (part < extra ? 1 : 0);
  if (c->slices == 1) {
    s->st = run_matrices(c->p, c->pin, c->pout, s, i0, i1);
    return;
  }
  for (int64_t i = i0, next; i < i1; i = next) { /* a matrix's adjacent slices in one call */
    int64_t b = i / c->slices;
    next = (b + 1) * c->slices < i1 ? (b + 1) * c->slices : i1;
    trsm_rhs(c->p, c->pin, c->pout, b, i - b * c->slices, next - b * c->slices, c->slices);
  }
}

/* Into how many slices to cut each matrix's right-hand sides: a triangular solve of fewer
 * matrices than threads (LAPACK's routine on one thread: 256x256 with 256 right-hand sides,
 * f64, 0.95 ms alone; Intel host with AVX-512) in slices of at least MIN_RHS columns or
 * rows, a few per thread; 1 for every other call. */
enum { MIN_RHS = 32 };
static int64_t rhs_slices(const kiln_lapack_plan *p, const kiln_lapack_threads *threads) {
  if (p->kind != KILN_LAPACK_TRSM || kiln_lapack_small(p) || !threads || threads->threads < 2 ||
      p->batch >= threads->threads)
    return 1;
  int64_t rhs = p->side == 'L' ? p->n : p->m, slices = rhs / MIN_RHS, most = (int64_t)threads->threads * 4;
  return slices < 1 ? 1 : slices > most ? most : slices;
}

/* The eigen, Schur and singular value routines run several LAPACK stages a matrix, each
 * with a fixed cost the flops miss: an 8x8 ssyevd took 4.5 us (Zen 4) for 512 of them, so
 * 128 (573 us) ran on the calling thread alone; STAGED_WORK more a matrix shares them out
 * (485 us on 2 threads; XLA:CPU 430-450). */
enum { STAGED_WORK = 1 << 14 };
static bool staged(kiln_lapack_kind k) {
  return k == KILN_LAPACK_SYEVD || k == KILN_LAPACK_GESDD || k == KILN_LAPACK_GESVD || k == KILN_LAPACK_GEEV ||
         k == KILN_LAPACK_GEES;
}

/* About the flops of the whole call, the threads' measure of work: per matrix m * n times
 * the larger size (a tridiagonal solve's n * nrhs), and STAGED_WORK for a staged routine's,
 * saturated. */
static int64_t work_of(const kiln_lapack_plan *p) {
  double m = p->m > 1 ? p->m : 1, n = p->n > 1 ? p->n : 1, k = p->k > 1 ? p->k : 1, big = m > n ? m : n;
  bool tridiagonal = p->kind == KILN_LAPACK_GTSV || p->kind == KILN_LAPACK_GTSV_PERTURBED;
  double w = (tridiagonal ? n * k : m * n * (big > k ? big : k)) * (double)p->batch;
  if (staged(p->kind)) w += (double)STAGED_WORK * (double)p->batch;
  return w < 0x1p62 ? (int64_t)w : INT64_C(1) << 62;
}

/* A run's buffers: the operands' and results' copies and a workspace per thread. */
typedef struct kiln_lapack_buffers {
  struct kiln_lapack_buffers *next; /* in the plan's idle list */
  void *pin[KILN_LAPACK_MAX_IN], *pout[KILN_LAPACK_MAX_OUT];
  int32_t slots;
  scratch *s; /* slots of them, allocated by the first part a thread runs */
} buffers;

static void buffers_free(buffers *b) {
  if (!b) return;
  for (int32_t k = 0; k < KILN_LAPACK_MAX_IN; k++) free(b->pin[k]);
  for (int32_t k = 0; k < KILN_LAPACK_MAX_OUT; k++) free(b->pout[k]);
  for (int32_t t = 0; b->s && t < b->slots; t++) scratch_free(&b->s[t]);
  free(b->s);
  free(b);
}

void kiln_lapack_free_buffers(kiln_lapack_plan *p) {
  while (p->idle) {
    buffers *b = p->idle;
    p->idle = b->next;
    buffers_free(b);
  }
}

/* Buffers with room for `slots` threads: kept ones (their results zeroed, as new ones
 * are) or new ones; NULL when out of memory. */
static buffers *buffers_take(kiln_lapack_plan *p, int32_t slots) {
  pthread_mutex_lock(&p->lock);
  buffers **at = &p->idle;
  while (*at && (*at)->slots < slots) at = &(*at)->next;
  buffers *b = *at;
  if (b) *at = b->next;
  pthread_mutex_unlock(&p->lock);
  if (b) {
    for (int32_t k = 0; k < p->num_out; k++) memset(b->pout[k], 0, (size_t)p->out[k].count * p->out[k].elem_bytes);
    return b;
  }
  b = kiln_fault_calloc(1, sizeof *b);
  bool ok = b && (b->s = kiln_fault_calloc((size_t)slots, sizeof *b->s));
  if (b) b->slots = slots;
  for (int32_t k = 0; ok && k < p->num_in; k++) ok = (b->pin[k] = alloc_bytes(p->in[k].count, p->in[k].elem_bytes));
  for (int32_t k = 0; ok && k < p->num_out; k++) ok = (b->pout[k] = alloc_bytes(p->out[k].count, p->out[k].elem_bytes));
  if (ok) return b;
  buffers_free(b);
  return NULL;
}

static void buffers_give(kiln_lapack_plan *p, buffers *b) {
  pthread_mutex_lock(&p->lock);
  b->next = p->idle;
  p->idle = b;
  pthread_mutex_unlock(&p->lock);
}

kiln_status kiln_lapack_run(const kiln_lapack_plan *plan, const void *const *in, void *const *out,
                            const kiln_lapack_threads *threads) {
  kiln_lapack_plan *p = (kiln_lapack_plan *)plan; /* its idle buffers change; the plan does not */
  int64_t work = work_of(p), slices = rhs_slices(p, threads), items = p->batch * slices;
  int32_t parts = threads && threads->threads > 1 && items > 1 ? threads->parts(threads->ctx, work, items) : 1;
  buffers *b = buffers_take(p, parts > 1 ? threads->threads : 1);
  if (!b) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "lapack: out of memory");
  void *const *pin = b->pin, *const *pout = b->pout;
  kiln_status st = NULL;
  for (int32_t k = 0; k < p->num_in; k++) relayout(pin[k], in[p->operand_of[k]], &p->in[k], true);
  copy_operands(p, pin, pout);
  parts_ctx c = {p, pin, pout, b->s, parts, slices};
  if (parts > 1) threads->run(threads->ctx, parts, work, run_part, &c);
  else run_part(&c, 0, 0);
  for (int32_t t = 0; t < b->slots; t++) { /* the first error (a workspace that failed to allocate tries again next run) */
    if (!st) st = b->s[t].st;
    else kiln_status_free(b->s[t].st);
    b->s[t].st = NULL;
  }
  for (int32_t k = 0; !st && k < p->num_out; k++) relayout(out[k], pout[k], &p->out[k], false);
  buffers_give(p, b);
  return st;
}
