/* kiln_lapack_prepare: reads a LAPACK custom call (or cholesky / triangular_solve) into a
 * plan, checking everything jaxlib's kernels assume: element types, shapes with the same
 * batch dims, layouts, attributes, and the sizes LAPACK requires, so no run can reach
 * LAPACK's error handler (which ends the process). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/lapack/lapack_internal.h"
#include "base/arena.h"
#include "base/strbuf.h"

/* jaxlib's targets: lapack_<t><name>_ffi, the name of the real and the complex form. */
static const struct {
  const char *real, *complex;
  kiln_lapack_kind kind;
  int32_t num_in, num_out;
} k_targets[] = {
    {"potrf", "potrf", KILN_LAPACK_POTRF, 1, 2}, {"getrf", "getrf", KILN_LAPACK_GETRF, 1, 3},
    {"geqrf", "geqrf", KILN_LAPACK_GEQRF, 1, 2}, {"geqp3", "geqp3", KILN_LAPACK_GEQP3, 2, 3},
    {"orgqr", "ungqr", KILN_LAPACK_ORGQR, 2, 1}, {"ormqr", "unmqr", KILN_LAPACK_ORMQR, 3, 1},
    {"trsm", "trsm", KILN_LAPACK_TRSM, 2, 1},    {"syevd", "heevd", KILN_LAPACK_SYEVD, 1, 3},
    {"gesdd", "gesdd", KILN_LAPACK_GESDD, 1, 5}, {"gesvd", "gesvd", KILN_LAPACK_GESVD, 1, 5},
    {"geev", "geev", KILN_LAPACK_GEEV, 1, 5},    {"gees", "gees", KILN_LAPACK_GEES, 1, 6},
    {"gehrd", "gehrd", KILN_LAPACK_GEHRD, 1, 3}, {"sytrd", "hetrd", KILN_LAPACK_SYTRD, 1, 5},
    {"gtsv", "gtsv", KILN_LAPACK_GTSV, 4, 5},
};
enum { NUM_TARGETS = sizeof k_targets / sizeof k_targets[0] };

/* jaxlib's one target outside LAPACK's naming (its own kernel, perturbed_solve.h); its type
 * is its operands' (kiln_lapack_prepare reads it). Index NUM_TARGETS in find_target. */
static const char k_perturbed[] = "tridiagonal_solve_perturbed_ffi";
enum { PERTURBED_NUM_IN = 4, PERTURBED_NUM_OUT = 1 };

static const kiln_elem k_elem[4] = {KILN_ELEM_F32, KILN_ELEM_F64, KILN_ELEM_C64, KILN_ELEM_C128};
static const kiln_elem k_real[4] = {KILN_ELEM_F32, KILN_ELEM_F64, KILN_ELEM_F32, KILN_ELEM_F64};
static const kiln_elem k_complex[4] = {KILN_ELEM_C64, KILN_ELEM_C128, KILN_ELEM_C64, KILN_ELEM_C128};

/* The target's table index and type, or -1. */
static int find_target(const char *s, size_t n, kiln_lapack_type *type) {
  static const char prefix[] = "lapack_", suffix[] = "_ffi", types[] = "sdcz";
  size_t np = sizeof prefix - 1, ns = sizeof suffix - 1;
  if (n == sizeof k_perturbed - 1 && !memcmp(s, k_perturbed, n)) {
    *type = KILN_LAPACK_S;
    return NUM_TARGETS;
  }
  if (n < np + ns + 2 || memcmp(s, prefix, np) || memcmp(s + n - ns, suffix, ns)) return -1;
  const char *t = strchr(types, s[np]);
  if (!t || !*t) return -1;
  *type = (kiln_lapack_type)(t - types);
  const char *name = s + np + 1;
  size_t len = n - np - 1 - ns;
  for (int i = 0; i < NUM_TARGETS; i++) {
    const char *want = *type >= KILN_LAPACK_C ? k_targets[i].complex : k_targets[i].real;
    if (strlen(want) == len && !memcmp(name, want, len)) return i;
  }
  return -1;
}

static bool target_name(const kiln_op *op, const char **s, size_t *n) {
  const kiln_attr *a = op->kind == KILN_OP_CUSTOM_CALL ? kiln_op_attr(op, "call_target_name") : NULL;
  if (!a || a->kind != KILN_ATTR_STRING) return false;
  *s = a->str.data;
  *n = a->str.len;
  return true;
}

bool kiln_lapack_is_target(const kiln_op *op) {
  const char *s;
  size_t n;
  kiln_lapack_type type;
  return target_name(op, &s, &n) && find_target(s, n, &type) >= 0;
}

/* ---------------------------------------------------------------- checking */

typedef struct checker {
  kiln_lapack_plan *p;
  const char *name; /* "custom call target 'lapack_spotrf_ffi'", "cholesky" */
  int32_t nb;       /* batch dims */
  const int64_t *batch_dims;
  kiln_status st;   /* the first failure */
} checker;

static bool fail(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(checker *c, const char *fmt, ...) {
  if (c->st) return false;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  c->st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: %s", c->name, msg);
  return false;
}

static void put_shape(kiln_strbuf *b, int32_t rank, const int64_t *dims, kiln_elem e) {
  kiln_strbuf_puts(b, "tensor<");
  for (int32_t d = 0; d < rank; d++) {
    if (dims[d] < 0) kiln_strbuf_puts(b, "?x");
    else kiln_strbuf_printf(b, "%lldx", (long long)dims[d]);
  }
  kiln_strbuf_printf(b, "%s>", kiln_elem_name(e));
}

/* Operand (or result) idx, `what`, must be elem e with the batch dims then nd more:
 * d0, d1 (-1: any size). */
static bool want(checker *c, bool result, int32_t idx, const char *what, kiln_elem e, int nd, int64_t d0,
                 int64_t d1) {
  if (c->st) return false;
  kiln_lapack_tensor *t = result ? &c->p->out[idx] : &c->p->in[idx];
  int64_t dims[KILN_LAPACK_MAX_RANK];
  int32_t rank = c->nb + nd;
  bool ok = t->elem == e && t->rank == rank;
  for (int32_t d = 0; d < c->nb; d++) dims[d] = c->batch_dims[d];
  if (nd > 0) dims[c->nb] = d0;
  if (nd > 1) dims[c->nb + 1] = d1;
  for (int32_t d = 0; ok && d < rank; d++) {
    if (result && t->dims[d] < 0) t->dims[d] = dims[d]; /* a `?` dim of a result: the routine's size */
    ok = dims[d] < 0 || t->dims[d] == dims[d];
  }
  if (ok) return true;
  kiln_strbuf want = {0}, got = {0};
  put_shape(&want, rank, dims, e);
  put_shape(&got, t->rank, t->dims, t->elem);
  bool r = fail(c, "%s #%d (%s) must be %s, not %s", result ? "result" : "operand", (int)idx, what,
                want.failed ? "?" : want.data, got.failed ? "?" : got.data);
  free(want.data);
  free(got.data);
  return r;
}

/* A matrix operand (or result) that sets the batch dims; *rows, *cols its last two dims. */
static bool main_matrix(checker *c, bool result, int32_t idx, int64_t *rows, int64_t *cols) {
  const kiln_lapack_tensor *t = result ? &c->p->out[idx] : &c->p->in[idx];
  if (t->rank < 2)
    return fail(c, "%s #%d must be a matrix or a batch of matrices (rank 2 or more), not of rank %d",
                result ? "result" : "operand", (int)idx, (int)t->rank);
  c->nb = t->rank - 2;
  c->batch_dims = t->dims;
  c->p->batch = 1;
  for (int32_t d = 0; d < c->nb; d++) c->p->batch *= t->dims[d];
  *rows = t->dims[t->rank - 2];
  *cols = t->dims[t->rank - 1];
  return true;
}

static bool fits(checker *c, int64_t v, int *out) {
  if (v > INT_MAX / 2) return fail(c, "a dimension of %lld is beyond LAPACK's 32-bit sizes", (long long)v);
  *out = (int)v;
  return true;
}

static bool square(checker *c, int64_t rows, int64_t cols) {
  if (rows != cols) return fail(c, "operand #0 must hold square matrices, not %lldx%lld", (long long)rows, (long long)cols);
  return fits(c, rows, &c->p->n);
}

/* ---------------------------------------------------------------- attributes and layouts */

static const kiln_attr *config(const kiln_op *op) {
  const kiln_attr *a = kiln_op_attr(op, "mhlo.backend_config");
  if (a && a->kind == KILN_ATTR_DICT) return a;
  a = kiln_op_attr(op, "backend_config");
  return a && a->kind == KILN_ATTR_DICT ? a : NULL;
}

/* A character attribute of the backend config (a ui8 holding an ASCII letter) that must be
 * one of `allowed`. */
static bool char_attr(checker *c, const kiln_attr *cfg, const char *name, const char *allowed, char *out) {
  const kiln_attr *a = cfg ? kiln_attr_get(cfg, name) : NULL;
  if (!a) return fail(c, "needs the backend_config attribute '%s' (one of the characters \"%s\")", name, allowed);
  int64_t v = a->kind == KILN_ATTR_INT ? kiln_attr_int(a) : -1;
  if (v <= 0 || v > 127 || !strchr(allowed, (int)v))
    return fail(c, "backend_config attribute '%s' must be the code of one of the characters \"%s\"", name, allowed);
  *out = (char)v;
  return true;
}

static bool bool_attr(checker *c, const kiln_attr *cfg, const char *name, bool *out) {
  const kiln_attr *a = cfg ? kiln_attr_get(cfg, name) : NULL;
  if (!a || a->kind != KILN_ATTR_BOOL) return fail(c, "needs the boolean backend_config attribute '%s'", name);
  *out = a->b;
  return true;
}

static bool int_attr(checker *c, const kiln_attr *cfg, const char *name, int *out) {
  const kiln_attr *a = cfg ? kiln_attr_get(cfg, name) : NULL;
  int64_t v = a && a->kind == KILN_ATTR_INT ? kiln_attr_int(a) : INT64_MIN;
  if (v < INT_MIN || v > INT_MAX) return fail(c, "needs the 32-bit integer backend_config attribute '%s'", name);
  *out = (int)v;
  return true;
}

/* Strides of t's layout: minor_to_major, as jaxlib's operand_layouts / result_layouts
 * give it (NULL: row-major; col_major: matrices column-major, batch outermost). */
static bool set_layout(checker *c, kiln_lapack_tensor *t, const kiln_attr *layout, bool col_major, const char *what,
                       int32_t idx) {
  int64_t m2m[KILN_LAPACK_MAX_RANK];
  int32_t r = t->rank;
  for (int32_t j = 0; j < r; j++) m2m[j] = r - 1 - j;
  if (col_major && r >= 2) m2m[0] = r - 2, m2m[1] = r - 1;
  if (layout) {
    bool seen[KILN_LAPACK_MAX_RANK] = {false};
    bool ok = kiln_attr_count(layout) == r;
    for (int32_t j = 0; ok && j < r; j++)
      ok = kiln_attr_i64_at(layout, j, &m2m[j]) && m2m[j] >= 0 && m2m[j] < r && !seen[m2m[j]] && (seen[m2m[j]] = true);
    if (!ok) return fail(c, "%s #%d has a layout that is not a permutation of its %d dims", what, (int)idx, (int)r);
  }
  int64_t s = 1;
  for (int32_t j = 0; j < r; j++) {
    t->strides[m2m[j]] = s;
    s *= t->dims[m2m[j]];
  }
  return true;
}

/* The layouts of ts[k] from attr, which lists one per operand (or result) of op: of `total`
 * of them, ts[k] is number index_of[k] (NULL: k). */
static bool layouts(checker *c, const kiln_op *op, kiln_lapack_tensor *ts, int32_t n, int32_t total,
                    const int32_t *index_of, const char *attr, const char *what) {
  const kiln_attr *a = kiln_op_attr(op, attr);
  if (a && (a->kind != KILN_ATTR_ARRAY || a->array.count != total))
    return fail(c, "%s must list one layout per %s (%d)", attr, what, (int)total);
  for (int32_t k = 0; k < n; k++) {
    int32_t i = index_of ? index_of[k] : k;
    if (!set_layout(c, &ts[k], a ? a->array.items[i] : NULL, false, what, i)) return false;
  }
  return true;
}

/* A result's dims once the routine's checks have set its `?` ones: all known, and their
 * element count. */
static bool result_known(checker *c, kiln_lapack_tensor *t, int32_t k) {
  t->count = 1;
  for (int32_t d = 0; d < t->rank; d++) {
    if (t->dims[d] < 0) return fail(c, "result #%d has a `?` dim the operands do not determine", (int)k);
    if (!kiln_mul_i64(t->count, t->dims[d], &t->count)) return fail(c, "a tensor has too many elements");
  }
  return true;
}

/* The operands of a custom call that are not the routine's: the result shapes of a
 * dynamic custom call (`indices_of_shape_operands`). Sets p->operand_of and p->num_in. */
static bool routine_operands(checker *c, const kiln_op *op) {
  kiln_lapack_plan *p = c->p;
  const kiln_attr *a = kiln_op_attr(op, "indices_of_shape_operands");
  int64_t n = a ? kiln_attr_count(a) : 0;
  bool shape[KILN_LAPACK_MAX_IN + 8] = {false};
  if (op->num_operands > KILN_LAPACK_MAX_IN + 8) return fail(c, "has %d operands", (int)op->num_operands);
  for (int64_t i = 0; i < n; i++) {
    int64_t v;
    if (!kiln_attr_i64_at(a, i, &v) || v < 0 || v >= op->num_operands || shape[v])
      return fail(c, "indices_of_shape_operands must name distinct operands");
    shape[v] = true;
  }
  p->num_in = 0;
  for (int32_t k = 0; k < op->num_operands; k++) {
    if (shape[k]) continue;
    if (p->num_in == KILN_LAPACK_MAX_IN) return fail(c, "has %d operands", (int)(op->num_operands - n));
    p->operand_of[p->num_in++] = k;
  }
  return true;
}

/* t from a shape; a result's `?` dims stay -1 (`want` sets them), an operand's may not. */
static bool set_tensor(checker *c, kiln_lapack_tensor *t, kiln_elem e, int32_t rank, const int64_t *dims, bool result) {
  if (rank > KILN_LAPACK_MAX_RANK) return fail(c, "rank %d is beyond %d", (int)rank, KILN_LAPACK_MAX_RANK);
  t->elem = e;
  t->rank = rank;
  t->count = 1;
  t->elem_bytes = kiln_elem_storage_bytes(e);
  for (int32_t d = 0; d < rank; d++) {
    if (dims[d] < 0 && result) {
      t->dims[d] = -1;
      continue;
    }
    if (dims[d] < 0) return fail(c, "needs static shapes");
    t->dims[d] = dims[d];
    if (!kiln_mul_i64(t->count, dims[d], &t->count)) return fail(c, "a tensor has too many elements");
  }
  return true;
}

/* ---------------------------------------------------------------- per routine */

static bool check_target(checker *c, const kiln_attr *cfg) {
  kiln_lapack_plan *p = c->p;
  kiln_lapack_type ty = p->type;
  kiln_elem T = k_elem[ty], R = k_real[ty], I = KILN_ELEM_SI32;
  bool cx = ty >= KILN_LAPACK_C;
  int64_t rows = 0, cols = 0;
  switch (p->kind) {
    case KILN_LAPACK_POTRF:
      return main_matrix(c, false, 0, &rows, &cols) && square(c, rows, cols) && char_attr(c, cfg, "uplo", "LU", &p->uplo) &&
             want(c, false, 0, "x", T, 2, rows, cols) && want(c, true, 0, "factor", T, 2, rows, cols) &&
             want(c, true, 1, "info", I, 0, 0, 0);
    case KILN_LAPACK_GETRF:
    case KILN_LAPACK_GEQRF: {
      if (!main_matrix(c, false, 0, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n)) return false;
      int64_t k = rows < cols ? rows : cols;
      bool lu = p->kind == KILN_LAPACK_GETRF;
      return want(c, false, 0, "x", T, 2, rows, cols) && want(c, true, 0, "factors", T, 2, rows, cols) &&
             want(c, true, 1, lu ? "pivots" : "tau", lu ? I : T, 1, k, 0) && (!lu || want(c, true, 2, "info", I, 0, 0, 0));
    }
    case KILN_LAPACK_GEQP3: {
      if (!main_matrix(c, false, 0, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n)) return false;
      int64_t k = rows < cols ? rows : cols;
      return want(c, false, 0, "x", T, 2, rows, cols) && want(c, false, 1, "jpvt", I, 1, cols, 0) &&
             want(c, true, 0, "factors", T, 2, rows, cols) && want(c, true, 1, "jpvt", I, 1, cols, 0) &&
             want(c, true, 2, "tau", T, 1, k, 0);
    }
    case KILN_LAPACK_ORGQR: {
      if (!main_matrix(c, false, 0, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n)) return false;
      if (!want(c, false, 0, "x", T, 2, rows, cols) || !want(c, false, 1, "tau", T, 1, -1, 0) ||
          !want(c, true, 0, "q", T, 2, rows, cols))
        return false;
      p->k = (int)p->in[1].dims[p->in[1].rank - 1];
      if (!(p->m >= p->n && p->n >= p->k))
        return fail(c, "needs rows >= columns >= reflectors (tau's size), not %d, %d, %d", p->m, p->n, p->k);
      return true;
    }
    case KILN_LAPACK_ORMQR: {
      bool left = false, transpose = false;
      int64_t arows, acols;
      if (!bool_attr(c, cfg, "left", &left) || !bool_attr(c, cfg, "transpose", &transpose) ||
          !main_matrix(c, false, 2, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n))
        return false;
      p->side = left ? 'L' : 'R';
      p->trans = !transpose ? 'N' : cx ? 'C' : 'T';
      if (!want(c, false, 0, "a", T, 2, left ? rows : cols, -1) || !want(c, false, 1, "tau", T, 1, -1, 0) ||
          !want(c, false, 2, "c", T, 2, rows, cols) || !want(c, true, 0, "c", T, 2, rows, cols))
        return false;
      arows = p->in[0].dims[p->in[0].rank - 2];
      acols = p->in[0].dims[p->in[0].rank - 1];
      p->k = (int)p->in[1].dims[p->in[1].rank - 1];
      if (p->k > arows || p->k > acols)
        return fail(c, "has %d reflectors (tau's size) for a of %lldx%lld", p->k, (long long)arows, (long long)acols);
      return true;
    }
    case KILN_LAPACK_TRSM: {
      if (!char_attr(c, cfg, "side", "LR", &p->side) || !char_attr(c, cfg, "uplo", "LU", &p->uplo) ||
          !char_attr(c, cfg, "trans_x", "NTC", &p->trans) || !char_attr(c, cfg, "diag", "UN", &p->diag))
        return false;
      if (!main_matrix(c, false, 1, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n)) return false;
      int64_t a = p->side == 'L' ? rows : cols;
      return want(c, false, 0, "a", T, 2, a, a) && want(c, false, 1, "b", T, 2, rows, cols) &&
             want(c, true, 0, "x", T, 2, rows, cols);
    }
    case KILN_LAPACK_SYEVD:
      return char_attr(c, cfg, "uplo", "LU", &p->uplo) && char_attr(c, cfg, "mode", "NV", &p->job) &&
             main_matrix(c, false, 0, &rows, &cols) && square(c, rows, cols) && want(c, false, 0, "x", T, 2, rows, cols) &&
             want(c, true, 0, "eigenvectors", T, 2, rows, cols) && want(c, true, 1, "eigenvalues", R, 1, rows, 0) &&
             want(c, true, 2, "info", I, 0, 0, 0);
    case KILN_LAPACK_GESDD:
    case KILN_LAPACK_GESVD: {
      if (!char_attr(c, cfg, "mode", "ASON", &p->job)) return false;
      if (p->job == 'O') {
        c->st = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: mode 'O' (overwrite x with part of U) is not supported, as in jaxlib", c->name);
        return false;
      }
      if (!main_matrix(c, false, 0, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n)) return false;
      int64_t k = rows < cols ? rows : cols;
      bool full = p->job == 'A', none = p->job == 'N';
      if (!want(c, false, 0, "x", T, 2, rows, cols) || !want(c, true, 0, "x", T, 2, rows, cols) ||
          !want(c, true, 1, "singular values", R, 1, k, 0) ||
          !want(c, true, 2, "u", T, 2, rows, none ? -1 : full ? rows : k) ||
          !want(c, true, 3, "vt", T, 2, none ? -1 : full ? cols : k, none ? -1 : cols) || !want(c, true, 4, "info", I, 0, 0, 0))
        return false;
      return fits(c, p->out[3].dims[p->out[3].rank - 2], &p->k); /* vt's leading dimension */
    }
    case KILN_LAPACK_GEEV: {
      if (!char_attr(c, cfg, "compute_left", "NV", &p->job) || !char_attr(c, cfg, "compute_right", "NV", &p->job2) ||
          !main_matrix(c, false, 0, &rows, &cols) || !square(c, rows, cols) || !want(c, false, 0, "x", T, 2, rows, cols))
        return false;
      int32_t o = 0;
      if (!cx && !want(c, true, o++, "eigenvalues' real parts", T, 1, rows, 0)) return false;
      if (!want(c, true, o++, cx ? "eigenvalues" : "eigenvalues' imaginary parts", T, 1, rows, 0)) return false;
      return want(c, true, o, "left eigenvectors", k_complex[ty], 2, rows, rows) &&
             want(c, true, o + 1, "right eigenvectors", k_complex[ty], 2, rows, rows) &&
             want(c, true, o + 2, "info", I, 0, 0, 0);
    }
    case KILN_LAPACK_GEES: {
      char sort = 0;
      if (!char_attr(c, cfg, "mode", "NV", &p->job) || !char_attr(c, cfg, "sort", "NS", &sort)) return false;
      if (sort != 'N') {
        c->st = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: sorting the eigenvalues (sort 'S') is not supported, as in jaxlib", c->name);
        return false;
      }
      if (!main_matrix(c, false, 0, &rows, &cols) || !square(c, rows, cols) || !want(c, false, 0, "x", T, 2, rows, cols) ||
          !want(c, true, 0, "schur form", T, 2, rows, rows) || !want(c, true, 1, "schur vectors", T, 2, rows, rows))
        return false;
      int32_t o = 2;
      if (!cx && !want(c, true, o++, "eigenvalues' real parts", T, 1, rows, 0)) return false;
      if (!want(c, true, o++, cx ? "eigenvalues" : "eigenvalues' imaginary parts", T, 1, rows, 0)) return false;
      if (p->num_out != o + 2) return fail(c, "has %d results; it needs %d", (int)p->num_out, (int)o + 2);
      return want(c, true, o, "selected eigenvalues", I, 0, 0, 0) && want(c, true, o + 1, "info", I, 0, 0, 0);
    }
    case KILN_LAPACK_GEHRD:
      if (!int_attr(c, cfg, "low", &p->ilo) || !int_attr(c, cfg, "high", &p->ihi) ||
          !main_matrix(c, false, 0, &rows, &cols) || !square(c, rows, cols))
        return false;
      if (p->n > 0 ? !(1 <= p->ilo && p->ilo <= p->ihi && p->ihi <= p->n) : !(p->ilo == 1 && p->ihi == 0))
        return fail(c, "needs 1 <= low <= high <= n (low 1, high 0 when n is 0), not low %d, high %d, n %d", p->ilo,
                    p->ihi, p->n);
      return want(c, false, 0, "x", T, 2, rows, cols) && want(c, true, 0, "x", T, 2, rows, cols) &&
             want(c, true, 1, "tau", T, 1, rows > 0 ? rows - 1 : 0, 0) && want(c, true, 2, "info", I, 0, 0, 0);
    case KILN_LAPACK_SYTRD: {
      if (!char_attr(c, cfg, "uplo", "LU", &p->uplo) || !main_matrix(c, false, 0, &rows, &cols) || !square(c, rows, cols))
        return false;
      int64_t e = rows > 0 ? rows - 1 : 0;
      return want(c, false, 0, "x", T, 2, rows, cols) && want(c, true, 0, "x", T, 2, rows, cols) &&
             want(c, true, 1, "diagonal", R, 1, rows, 0) && want(c, true, 2, "off-diagonal", R, 1, e, 0) &&
             want(c, true, 3, "tau", T, 1, e, 0) && want(c, true, 4, "info", I, 0, 0, 0);
    }
    case KILN_LAPACK_GTSV:
    case KILN_LAPACK_GTSV_PERTURBED: { /* gtsv overwrites its operands (results 0-3, info); the perturbed solve returns x */
      if (!main_matrix(c, false, 3, &rows, &cols) || !fits(c, rows, &p->n) || !fits(c, cols, &p->k)) return false;
      static const char *const names[] = {"dl", "d", "du"};
      bool gtsv = p->kind == KILN_LAPACK_GTSV;
      for (int32_t k = 0; k < 3; k++)
        if (!want(c, false, k, names[k], T, 1, rows, 0) || (gtsv && !want(c, true, k, names[k], T, 1, rows, 0)))
          return false;
      return want(c, false, 3, "b", T, 2, rows, cols) && want(c, true, gtsv ? 3 : 0, "x", T, 2, rows, cols) &&
             (!gtsv || want(c, true, 4, "info", I, 0, 0, 0));
    }
    case KILN_LAPACK_CHOLESKY: break;
  }
  return fail(c, "internal: no checks for this routine");
}

/* stablehlo.cholesky and triangular_solve: the op's own attributes, matrices read
 * column-major (a transposed copy of each row-major matrix). */
static bool check_stablehlo(checker *c, const kiln_op *op) {
  kiln_lapack_plan *p = c->p;
  kiln_elem T = k_elem[p->type];
  int64_t rows = 0, cols = 0;
  const kiln_attr *lower = kiln_op_attr(op, "lower");
  p->uplo = lower && lower->kind == KILN_ATTR_BOOL && lower->b ? 'L' : 'U';
  if (op->kind == KILN_OP_CHOLESKY)
    return main_matrix(c, false, 0, &rows, &cols) && square(c, rows, cols) && want(c, true, 0, "result", T, 2, rows, cols);
  const kiln_attr *left = kiln_op_attr(op, "left_side"), *unit = kiln_op_attr(op, "unit_diagonal");
  const kiln_attr *ta = kiln_op_attr(op, "transpose_a");
  p->side = left && left->kind == KILN_ATTR_BOOL && left->b ? 'L' : 'R';
  p->diag = unit && unit->kind == KILN_ATTR_BOOL && unit->b ? 'U' : 'N';
  const char *tv = ta && ta->kind == KILN_ATTR_ENUM ? ta->enumv.value : "NO_TRANSPOSE";
  p->trans = !strcmp(tv, "NO_TRANSPOSE") ? 'N' : !strcmp(tv, "TRANSPOSE") ? 'T' : !strcmp(tv, "ADJOINT") ? 'C' : 0;
  if (!p->trans) return fail(c, "unknown transpose_a %s", tv);
  if (!main_matrix(c, false, 1, &rows, &cols) || !fits(c, rows, &p->m) || !fits(c, cols, &p->n)) return false;
  int64_t a = p->side == 'L' ? rows : cols;
  return want(c, false, 0, "a", T, 2, a, a) && want(c, true, 0, "result", T, 2, rows, cols);
}

/* Whether t's strides are set_layout's column-major ones (matrices column-major, batch
 * outermost). */
static bool column_major(checker *c, const kiln_lapack_tensor *t) {
  kiln_lapack_tensor want = *t;
  set_layout(c, &want, NULL, true, "operand", 0); /* cannot fail without a layout */
  return t->rank >= 2 && !memcmp(want.strides, t->strides, sizeof t->strides);
}

/* A triangular solve on column-major matrices is, on the row-major arrays the program
 * holds (their transposes), the solve with the other side and the other triangle, its
 * sizes swapped (op(A) X = B is X^T op(A)^T = B^T, and op(A)^T is op applied to A^T):
 * the operands are then copied as they lie, not transposed (256x256 f64 with 256
 * right-hand sides: three transposes were a third of the step). */
static void trsm_as_row_major(checker *c, kiln_lapack_plan *p) {
  if (p->kind != KILN_LAPACK_TRSM || !column_major(c, &p->in[0]) || !column_major(c, &p->in[1]) ||
      !column_major(c, &p->out[0]))
    return;
  set_layout(c, &p->in[0], NULL, false, "operand", 0);
  set_layout(c, &p->in[1], NULL, false, "operand", 1);
  set_layout(c, &p->out[0], NULL, false, "result", 0);
  p->side = p->side == 'L' ? 'R' : 'L';
  p->uplo = p->uplo == 'L' ? 'U' : 'L';
  int m = p->m;
  p->m = p->n, p->n = m;
}

static int type_of(kiln_elem e) {
  for (int t = 0; t < 4; t++)
    if (k_elem[t] == e) return t;
  return -1;
}

kiln_status kiln_lapack_prepare(const kiln_op *op, const kiln_lapack_shape *operands, const kiln_lapack_shape *results,
                                kiln_lapack_plan **out) {
  *out = NULL;
  kiln_lapack_single_threaded();
  const char *s = NULL;
  size_t n = 0;
  kiln_lapack_type type = KILN_LAPACK_S;
  int target = -1;
  if (op->kind == KILN_OP_CUSTOM_CALL) {
    if (!target_name(op, &s, &n) || (target = find_target(s, n, &type)) < 0) return NULL;
  } else if (op->kind == KILN_OP_CHOLESKY || op->kind == KILN_OP_TRIANGULAR_SOLVE) {
    int t = op->num_results == 1 ? type_of(kiln_type_elem(op->results[0].type)) : -1;
    if (t < 0) return NULL;
    for (int32_t k = 0; k < op->num_operands; k++)
      if (!operands && !kiln_type_is_static(op->operands[k]->type)) return NULL;
    if (!kiln_type_is_static(op->results[0].type)) return NULL;
    type = (kiln_lapack_type)t;
  } else {
    return NULL;
  }
  kiln_lapack_plan *p = calloc(1, sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  pthread_mutex_init(&p->lock, NULL);
  char name[160];
  if (target >= 0) snprintf(name, sizeof name, "custom call target '%.*s'", (int)(n < 100 ? n : 100), s);
  else snprintf(name, sizeof name, "%s", kiln_op_name(op->kind));
  checker c = {p, name, 0, NULL, NULL};
  p->type = type;
  bool perturbed = target == NUM_TARGETS;
  p->kind = perturbed      ? KILN_LAPACK_GTSV_PERTURBED
            : target >= 0 ? k_targets[target].kind
            : op->kind == KILN_OP_CHOLESKY ? KILN_LAPACK_CHOLESKY
                                           : KILN_LAPACK_TRSM;
  p->num_out = op->num_results;
  if (target >= 0) routine_operands(&c, op);
  else p->num_in = op->num_operands;
  for (int32_t k = 0; target < 0 && k < p->num_in; k++) p->operand_of[k] = k;
  int32_t want_in = perturbed ? PERTURBED_NUM_IN : target >= 0 ? k_targets[target].num_in : op->kind == KILN_OP_CHOLESKY ? 1 : 2;
  int32_t want_out = perturbed ? PERTURBED_NUM_OUT : target >= 0 ? k_targets[target].num_out : 1;
  if (p->kind == KILN_LAPACK_GEEV && type >= KILN_LAPACK_C) want_out = 4;
  if (p->kind == KILN_LAPACK_GEES && type >= KILN_LAPACK_C) want_out = 5;
  if (!c.st && (p->num_in != want_in || p->num_out != want_out))
    fail(&c, "takes %d operands and has %d results, not %d and %d", (int)want_in, (int)want_out, (int)p->num_in,
         (int)p->num_out);
  for (int32_t k = 0; !c.st && k < p->num_in; k++) {
    int32_t i = p->operand_of[k];
    const kiln_type *t = op->operands[i]->type;
    if (operands) set_tensor(&c, &p->in[k], operands[i].elem, operands[i].rank, operands[i].dims, false);
    else if (kiln_type_is_tensor(t)) set_tensor(&c, &p->in[k], kiln_type_elem(t), t->tensor.rank, t->tensor.dims, false);
    else fail(&c, "operand #%d must be a tensor", (int)i);
  }
  for (int32_t k = 0; !c.st && k < p->num_out; k++) {
    const kiln_type *t = op->results[k].type;
    if (kiln_type_is_tensor(t) && !kiln_type_is_quant_tensor(t))
      set_tensor(&c, &p->out[k], kiln_type_elem(t), results ? results[k].rank : t->tensor.rank,
                 results ? results[k].dims : t->tensor.dims, true);
    else fail(&c, "result #%d must be a tensor", (int)k);
  }
  if (!c.st && perturbed) { /* the type is b's */
    int t = type_of(p->in[3].elem);
    if (t < 0) fail(&c, "operand #3 (b) must be f32, f64, complex<f32> or complex<f64>, not %s", kiln_elem_name(p->in[3].elem));
    else p->type = (kiln_lapack_type)t;
  }
  /* the routine's checks first: they set the results' `?` dims, which their layouts need */
  if (!c.st && target >= 0) {
    if (layouts(&c, op, p->in, p->num_in, op->num_operands, p->operand_of, "operand_layouts", "operand"))
      check_target(&c, config(op));
  } else if (!c.st) {
    for (int32_t k = 0; k < p->num_in; k++) set_layout(&c, &p->in[k], NULL, true, "operand", k);
    check_stablehlo(&c, op);
  }
  for (int32_t k = 0; !c.st && k < p->num_out; k++) result_known(&c, &p->out[k], k);
  if (!c.st && target >= 0) layouts(&c, op, p->out, p->num_out, p->num_out, NULL, "result_layouts", "result");
  else if (!c.st) set_layout(&c, &p->out[0], NULL, true, "result", 0);
  if (!c.st) trsm_as_row_major(&c, p);
  if (!c.st) c.st = kiln_lapack_query(p);
  if (c.st) {
    kiln_lapack_destroy(p);
    return c.st;
  }
  *out = p;
  return NULL;
}

void kiln_lapack_result_shape(const kiln_lapack_plan *plan, int32_t k, int32_t *out_rank, const int64_t **out_dims) {
  *out_rank = plan->out[k].rank;
  *out_dims = plan->out[k].dims;
}

void kiln_lapack_destroy(kiln_lapack_plan *plan) {
  if (!plan) return;
  kiln_lapack_free_buffers(plan);
  pthread_mutex_destroy(&plan->lock);
  free(plan);
}
