/* Data-movement kernels: constants, iota, broadcasts, reshapes, transposes, slices,
 * concatenation, padding, reversal, gather / scatter, dimension sizes, tuples.
 *
 * They move element storage (memcpy of elem_bytes), so one loop serves every element
 * type. Most are one call of copy_box: for every index i of a box, dst[dbase + i . dstr]
 * = src[sbase + i . sstr], with strides chosen per op (zero to broadcast, negative to
 * reverse, scaled to slice or pad). Ops that take their shape from operand values check
 * it against the static dimensions of their result type. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/interp/elementwise.h"
#include "backends/interp/interp.h"

#define MAXR KILN_RTV_MAX_RANK

typedef kiln_interp_ctx ctx_t;
typedef kiln_kernel_args args_t;

/* ------------------------------------------------------------------ element movement */

static bool elem_is_floatlike(kiln_elem e) {
  kiln_elem_class c = kiln_elem_class_of(e);
  return c == KILN_ELEM_CLASS_F || c == KILN_ELEM_CLASS_C;
}

/* A scalar of type `from` as a value of type `to` (only used where the two differ, e.g.
 * scatter's promoted update computation types). */
static kiln_scalar convert_scalar(kiln_scalar s, kiln_elem from, kiln_elem to) {
  bool ff = elem_is_floatlike(from), tf = elem_is_floatlike(to);
  if (ff == tf) return s;
  kiln_scalar r = {{0}, 0};
  if (tf) {
    r.f = kiln_elem_class_of(from) == KILN_ELEM_CLASS_U ? (double)s.u : (double)s.i;
  } else if (kiln_elem_class_of(to) == KILN_ELEM_CLASS_B) {
    r.i = s.f != 0 || s.im != 0;
  } else {
    double t = trunc(s.f);
    r.i = isnan(t) ? 0 : t >= 0x1p63 ? INT64_MAX : t < -0x1p63 ? INT64_MIN : (int64_t)t;
  }
  return r;
}

/* dst[di] = src[si]. */
static inline void put_elem(kiln_rtv *dst, int64_t di, const kiln_rtv *src, int64_t si) {
  uint8_t *dp = dst->data + (size_t)di * dst->elem_bytes;
  const uint8_t *sp = src->data + (size_t)si * src->elem_bytes;
  if (dst->elem == src->elem) {
    memcpy(dp, sp, dst->elem_bytes);
    return;
  }
  kiln_scalar_store(dst->elem, dp, convert_scalar(kiln_scalar_load(src->elem, sp), src->elem, dst->elem));
}

/* n elements of eb bytes from sp (every sstep elements, which may be negative; 0: one
 * element repeated) to dp (every dstep): a memcpy when both are dense, typed moves
 * otherwise. */
static void copy_row(uint8_t *dp, int64_t dstep, const uint8_t *sp, int64_t sstep, int64_t n, size_t eb) {
  if (dstep == 1 && sstep == 1) {
    memcpy(dp, sp, (size_t)n * eb);
    return;
  }
#define COPY_ROW_AS(T)                                                      \
  for (int64_t i = 0; i < n; i++) {                                         \
    T v;                                                                    \
    memcpy(&v, sp + (ptrdiff_t)(i * sstep) * (ptrdiff_t)sizeof v, sizeof v); \
    memcpy(dp + (ptrdiff_t)(i * dstep) * (ptrdiff_t)sizeof v, &v, sizeof v); \
  }
  switch (eb) {
    case 1: COPY_ROW_AS(uint8_t); break;
    case 2: COPY_ROW_AS(uint16_t); break;
    case 4: COPY_ROW_AS(uint32_t); break;
    case 8: COPY_ROW_AS(uint64_t); break;
    default:
      for (int64_t i = 0; i < n; i++)
        memcpy(dp + (ptrdiff_t)(i * dstep) * (ptrdiff_t)eb, sp + (ptrdiff_t)(i * sstep) * (ptrdiff_t)eb, eb);
  }
#undef COPY_ROW_AS
}

/* For every index i of the box ext (rank dimensions):
 * dst[dbase + sum i[d] * dstr[d]] = src[sbase + sum i[d] * sstr[d]]. With one element
 * type the innermost dimension moves as a row (copy_row). */
static void copy_box(kiln_rtv *dst, int64_t dbase, const int64_t *dstr, const kiln_rtv *src, int64_t sbase,
                     const int64_t *sstr, int32_t rank, const int64_t *ext) {
  for (int32_t d = 0; d < rank; d++)
    if (ext[d] <= 0) return;
  int64_t idx[MAXR];
  if (rank) memset(idx, 0, sizeof(int64_t) * (size_t)rank);
  int64_t doff = dbase, soff = sbase;
  bool rows = rank > 0 && dst->elem == src->elem;
  int32_t outer = rows ? rank - 1 : rank; /* the dims the odometer walks */
  for (;;) {
    if (rows)
      copy_row(dst->data + (size_t)doff * dst->elem_bytes, dstr[rank - 1], src->data + (size_t)soff * src->elem_bytes,
               sstr[rank - 1], ext[rank - 1], dst->elem_bytes);
    else put_elem(dst, doff, src, soff);
    int32_t d = outer - 1;
    for (; d >= 0; d--) {
      if (++idx[d] < ext[d]) {
        doff += dstr[d];
        soff += sstr[d];
        break;
      }
      idx[d] = 0;
      doff -= (ext[d] - 1) * dstr[d];
      soff -= (ext[d] - 1) * sstr[d];
    }
    if (d < 0) return;
  }
}

/* dst = src element by element (same element count). */
static void copy_all(kiln_rtv *dst, const kiln_rtv *src) {
  if (dst->elem == src->elem) {
    if (src->count) memcpy(dst->data, src->data, (size_t)src->count * src->elem_bytes);
    return;
  }
  for (int64_t i = 0; i < src->count; i++) put_elem(dst, i, src, i);
}

static void strides_of(const kiln_rtv *v, int64_t *out) { kiln_strides(v->rank, v->dims, out); }

/* ------------------------------------------------------------------ attributes */

typedef struct dlist {
  int32_t n;
  int64_t v[MAXR];
} dlist;

static bool dlist_has(const dlist *l, int64_t x) {
  for (int32_t i = 0; i < l->n; i++)
    if (l->v[i] == x) return true;
  return false;
}

static int32_t dlist_pos(const dlist *l, int64_t x) {
  for (int32_t i = 0; i < l->n; i++)
    if (l->v[i] == x) return i;
  return -1;
}

/* An integer-list attribute (absent: empty, or an error when required). */
static kiln_status attr_list(const ctx_t *ctx, const kiln_op *op, const kiln_attr *a, const char *name, bool required,
                             dlist *l) {
  l->n = 0;
  if (!a) return required ? kiln_interp_error(ctx, op, "requires attribute '%s'", name) : NULL;
  int64_t n = kiln_attr_count(a);
  if (n < 0) return kiln_interp_error(ctx, op, "attribute '%s' must be a list of integers", name);
  if (n > MAXR)
    return kiln_interp_error(ctx, op, "attribute '%s' has %lld entries, more than the %d supported", name, (long long)n,
                             MAXR);
  for (int64_t i = 0; i < n; i++) kiln_attr_i64_at(a, i, &l->v[i]);
  l->n = (int32_t)n;
  return NULL;
}

static kiln_status op_list(const ctx_t *ctx, const kiln_op *op, const char *name, bool required, dlist *l) {
  return attr_list(ctx, op, kiln_op_attr(op, name), name, required, l);
}

/* An integer attribute; absent: dflt when has_dflt, else an error. */
static kiln_status attr_int(const ctx_t *ctx, const kiln_op *op, const kiln_attr *a, const char *name, bool has_dflt,
                            int64_t dflt, int64_t *out) {
  *out = dflt;
  if (!a) return has_dflt ? NULL : kiln_interp_error(ctx, op, "requires attribute '%s'", name);
  if (kiln_attr_count(a) != 1 || !kiln_attr_i64_at(a, 0, out))
    return kiln_interp_error(ctx, op, "attribute '%s' must be an integer", name);
  return NULL;
}

static kiln_status op_int(const ctx_t *ctx, const kiln_op *op, const char *name, int64_t *out) {
  return attr_int(ctx, op, kiln_op_attr(op, name), name, false, 0, out);
}

/* Every entry of l is in [0, limit) (and distinct when unique). */
static kiln_status check_axes(const ctx_t *ctx, const kiln_op *op, const char *name, const dlist *l, int64_t limit,
                              bool unique) {
  for (int32_t i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= limit)
      return kiln_interp_error(ctx, op, "%s[%d] = %lld is out of range [0, %lld)", name, (int)i, (long long)l->v[i],
                               (long long)limit);
    for (int32_t j = 0; unique && j < i; j++)
      if (l->v[j] == l->v[i])
        return kiln_interp_error(ctx, op, "%s[%d] = %lld repeats %s[%d]", name, (int)i, (long long)l->v[i], name,
                                 (int)j);
  }
  return NULL;
}

static kiln_status check_count(const ctx_t *ctx, const kiln_op *op, const char *name, int64_t n, int64_t want) {
  if (n == want) return NULL;
  return kiln_interp_error(ctx, op, "%s has %lld entries where %lld are expected", name, (long long)n, (long long)want);
}

/* ------------------------------------------------------------------ operands and results */

/* Operand i, or NULL when the op has fewer operands. */
static const kiln_rtv *in_at(const args_t *a, int32_t i) { return i >= 0 && i < a->num_in ? a->in[i] : NULL; }

static kiln_status need_tensor(const ctx_t *ctx, const kiln_op *op, const kiln_rtv *v, const char *name) {
  if (v && v->kind == KILN_RTV_TENSOR) return NULL;
  return kiln_interp_error(ctx, op, "%s must be a tensor", name);
}

static bool rtv_is_int(const kiln_rtv *v) {
  return v->kind == KILN_RTV_TENSOR && v->elem_type->kind == KILN_TYPE_SCALAR && kiln_elem_is_int(v->elem);
}

/* Element `flat` of an integer tensor (unsigned values above INT64_MAX saturate). */
static int64_t load_int(const kiln_rtv *v, int64_t flat) {
  kiln_scalar s = kiln_scalar_load(v->elem, v->data + (size_t)flat * v->elem_bytes);
  if (kiln_elem_class_of(v->elem) == KILN_ELEM_CLASS_U && s.u > (uint64_t)INT64_MAX) return INT64_MAX;
  return s.i;
}

/* The value of a 0-d integer tensor (a start index, a size). */
static kiln_status scalar_int(const ctx_t *ctx, const kiln_op *op, const kiln_rtv *v, const char *name, int64_t *out) {
  if (!v || !rtv_is_int(v) || v->count != 1)
    return kiln_interp_error(ctx, op, "%s must be a single-element integer tensor", name);
  *out = load_int(v, 0);
  return NULL;
}

/* The values of a 1-D integer tensor operand with n entries (a shape or padding list). */
static kiln_status list_operand(const ctx_t *ctx, const kiln_op *op, const kiln_rtv *v, const char *name, int64_t n,
                                int64_t *out) {
  if (!v || !rtv_is_int(v) || v->rank != 1)
    return kiln_interp_error(ctx, op, "%s must be a 1-dimensional integer tensor", name);
  KILN_RETURN_IF_ERROR(check_count(ctx, op, name, v->count, n));
  for (int64_t i = 0; i < n; i++) out[i] = load_int(v, i);
  return NULL;
}

/* A shape operand: list_operand with non-negative entries. */
static kiln_status shape_operand(const ctx_t *ctx, const kiln_op *op, const kiln_rtv *v, const char *name, int64_t n,
                                 int64_t *out) {
  KILN_RETURN_IF_ERROR(list_operand(ctx, op, v, name, n, out));
  for (int64_t i = 0; i < n; i++)
    if (out[i] < 0) return kiln_interp_error(ctx, op, "%s[%lld] = %lld is negative", name, (long long)i, (long long)out[i]);
  return NULL;
}

/* Rank of result i's tensor type (-1 for a non-tensor). */
static int32_t result_rank(const args_t *a, int32_t i) {
  const kiln_type *t = a->op->results[i].type;
  return kiln_type_is_tensor(t) ? t->tensor.rank : -1;
}

/* The shape of result i's type, which must be static. */
static kiln_status static_result_dims(const ctx_t *ctx, const args_t *a, int32_t i, int32_t *rank, int64_t *dims) {
  const kiln_type *t = a->op->results[i].type;
  if (!kiln_type_is_tensor(t) || t->tensor.num_elements < 0)
    return kiln_interp_error(ctx, a->op, "result #%d must have a static shape", (int)i);
  if (t->tensor.rank > MAXR) return kiln_interp_error(ctx, a->op, "result rank %d is not supported", (int)t->tensor.rank);
  *rank = t->tensor.rank;
  if (*rank) memcpy(dims, t->tensor.dims, sizeof(int64_t) * (size_t)*rank);
  return NULL;
}

static void dims_text(char *buf, size_t cap, int32_t rank, const int64_t *dims) {
  size_t n = 0;
  buf[0] = 0;
  for (int32_t d = 0; d < rank && n + 24 < cap; d++) {
    int k = dims[d] == KILN_DIM_DYNAMIC ? snprintf(buf + n, cap - n, "%s?", d ? "x" : "")
                                        : snprintf(buf + n, cap - n, "%s%lld", d ? "x" : "", (long long)dims[d]);
    if (k < 0) break;
    n += (size_t)k;
  }
  if (rank == 0) snprintf(buf, cap, "(scalar)");
}

/* Allocates result i with the computed shape after checking it against the result type's
 * static dimensions. */
static kiln_status make_result(const ctx_t *ctx, const args_t *a, int32_t i, int32_t rank, const int64_t *dims) {
  const kiln_type *t = a->op->results[i].type;
  if (!kiln_type_is_tensor(t)) return kiln_interp_error(ctx, a->op, "result #%d must be a tensor", (int)i);
  bool ok = t->tensor.rank == rank;
  for (int32_t d = 0; ok && d < rank; d++) ok = t->tensor.dims[d] == KILN_DIM_DYNAMIC || t->tensor.dims[d] == dims[d];
  for (int32_t d = 0; ok && d < rank; d++) ok = dims[d] >= 0;
  if (!ok) {
    char have[512], want[512];
    dims_text(have, sizeof have, rank, dims);
    dims_text(want, sizeof want, t->tensor.rank, t->tensor.dims);
    return kiln_interp_error(ctx, a->op, "computes result #%d of shape %s, which does not match its type's shape %s",
                             (int)i, have, want);
  }
  kiln_status st = kiln_kernel_result(a, i, rank, dims);
  if (st && !a->out[i]) { /* a size too large (or no memory for it): located, with the shape */
    char have[512];
    dims_text(have, sizeof have, rank, dims);
    kiln_status located = kiln_interp_error(ctx, a->op, "result #%d of shape %s: %s", (int)i, have, kiln_status_message(st));
    kiln_status_free(st);
    st = located;
  }
  return st;
}

/* Clamps x into [0, hi] (hi >= 0). */
static int64_t clamp_start(int64_t x, int64_t hi) { return x < 0 ? 0 : x > hi ? hi : x; }

/* ------------------------------------------------------------------ constant, iota */

static kiln_status fill_scalar_attr(const kiln_attr *v, kiln_rtv *r) {
  kiln_scalar s = {{0}, 0};
  if (v->kind == KILN_ATTR_INT) s.i = kiln_attr_int(v);
  else s.f = v->f;
  s = convert_scalar(s, v->kind == KILN_ATTR_INT ? KILN_ELEM_SI64 : KILN_ELEM_F64, r->elem);
  for (int64_t i = 0; i < r->count; i++) kiln_scalar_store(r->elem, r->data + (size_t)i * r->elem_bytes, s);
  return NULL;
}

/* stablehlo.constant and arith.constant: a DENSE value, or a typed INT / FLOAT scalar. A
 * quantized result holds the storage values of the attribute; while the op runs in the
 * expressed type (dequantize_op_quantize) it yields their dequantized values. */
static kiln_status k_constant(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_attr *v = kiln_op_attr(op, "value");
  if (!v) return kiln_interp_error(ctx, op, "requires attribute 'value'");
  if (a->shapes_only) return kiln_kernel_result_static(ctx, a, 0); /* its shape, not its (maybe large) data */
  kiln_rtv *raw = NULL;
  if (v->kind == KILN_ATTR_DENSE) {
    if (!kiln_type_is_tensor(v->type) || v->type->tensor.num_elements < 0)
      return kiln_interp_error(ctx, op, "value must have a statically shaped tensor type");
    KILN_RETURN_IF_ERROR(kiln_rtv_from_dense(v, &raw));
  } else if ((v->kind == KILN_ATTR_INT || v->kind == KILN_ATTR_FLOAT) && v->type) {
    if (v->type->kind == KILN_TYPE_SCALAR) {
      KILN_RETURN_IF_ERROR(kiln_rtv_tensor(v->type, 0, NULL, &raw));
    } else if (kiln_type_is_tensor(v->type) && v->type->tensor.element->kind == KILN_TYPE_SCALAR) {
      KILN_RETURN_IF_ERROR(kiln_rtv_of_type(v->type, &raw));
    } else {
      return kiln_interp_error(ctx, op, "value has an unsupported type");
    }
    fill_scalar_attr(v, raw);
  } else {
    return kiln_interp_error(ctx, op, "value attribute of this kind (e.g. dense_resource) is not supported");
  }
  const kiln_type *want = a->out_elem[0]; /* NULL for a scalar (non-tensor) result */
  const kiln_type *declared = kiln_type_element(op->results[0].type);
  if (declared && declared->kind == KILN_TYPE_QUANT && raw->elem_type->kind == KILN_TYPE_SCALAR) {
    if (raw->elem != declared->quant.storage) {
      kiln_rtv_release(raw);
      return kiln_interp_error(ctx, op, "value's element type is not the storage type of the quantized result");
    }
    raw->elem_type = declared;
    if (want && want->kind != KILN_TYPE_QUANT) { /* running in the expressed type */
      kiln_status st = kiln_interp_dequantize(raw, &a->out[0]);
      kiln_rtv_release(raw);
      return st;
    }
  } else if (want && want != raw->elem_type) {
    kiln_elem e = want->kind == KILN_TYPE_QUANT ? want->quant.storage : want->elem;
    if (e != raw->elem) {
      kiln_rtv_release(raw);
      return kiln_interp_error(ctx, op, "value's element type differs from the result's");
    }
    raw->elem_type = want;
  }
  a->out[0] = raw;
  return NULL;
}

/* iota and dynamic_iota: result[i] = i[iota_dimension]. */
static kiln_status k_iota(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  int32_t rank = 0;
  int64_t dims[MAXR], dim = 0;
  if (op->kind == KILN_OP_DYNAMIC_IOTA) {
    rank = result_rank(a, 0);
    if (rank < 0 || rank > MAXR) return kiln_interp_error(ctx, op, "result must be a tensor");
    KILN_RETURN_IF_ERROR(shape_operand(ctx, op, in_at(a, 0), "output_shape", rank, dims));
  } else {
    KILN_RETURN_IF_ERROR(static_result_dims(ctx, a, 0, &rank, dims));
  }
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "iota_dimension", &dim));
  if (dim < 0 || dim >= rank)
    return kiln_interp_error(ctx, op, "iota_dimension = %lld is out of range for rank %d", (long long)dim, (int)rank);
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, rank, dims));
  kiln_rtv *r = a->out[0];
  int64_t str[MAXR];
  strides_of(r, str);
  for (int64_t i = 0; i < r->count; i++) {
    kiln_scalar s = {{0}, 0};
    s.i = i / str[dim] % dims[dim];
    kiln_scalar_store(r->elem, r->data + (size_t)i * r->elem_bytes, convert_scalar(s, KILN_ELEM_SI64, r->elem));
  }
  return NULL;
}

/* ------------------------------------------------------------------ broadcasts, reshapes, transposes */

/* broadcast_in_dim, dynamic_broadcast_in_dim, and the deprecated broadcast
 * (result shape = broadcast_sizes ++ shape(operand)). */
static kiln_status k_broadcast(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  int32_t rank = 0;
  int64_t dims[MAXR];
  dlist map;
  if (op->kind == KILN_OP_BROADCAST) {
    dlist sizes;
    KILN_RETURN_IF_ERROR(op_list(ctx, op, "broadcast_sizes", true, &sizes));
    if (sizes.n + x->rank > MAXR) return kiln_interp_error(ctx, op, "result rank is too large");
    rank = sizes.n + x->rank;
    for (int32_t i = 0; i < sizes.n; i++) dims[i] = sizes.v[i];
    map.n = x->rank;
    for (int32_t i = 0; i < x->rank; i++) {
      dims[sizes.n + i] = x->dims[i];
      map.v[i] = sizes.n + i;
    }
  } else {
    KILN_RETURN_IF_ERROR(op_list(ctx, op, "broadcast_dimensions", true, &map));
    if (op->kind == KILN_OP_DYNAMIC_BROADCAST_IN_DIM) {
      rank = result_rank(a, 0);
      if (rank < 0 || rank > MAXR) return kiln_interp_error(ctx, op, "result must be a tensor");
      KILN_RETURN_IF_ERROR(shape_operand(ctx, op, in_at(a, 1), "output_dimensions", rank, dims));
    } else {
      KILN_RETURN_IF_ERROR(static_result_dims(ctx, a, 0, &rank, dims));
    }
  }
  KILN_RETURN_IF_ERROR(check_count(ctx, op, "broadcast_dimensions", map.n, x->rank));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "broadcast_dimensions", &map, rank, true));
  int64_t xstr[MAXR], sstr[MAXR] = {0}, rstr[MAXR];
  strides_of(x, xstr);
  for (int32_t i = 0; i < x->rank; i++) {
    int64_t to = dims[map.v[i]];
    if (x->dims[i] == 1) continue;
    if (x->dims[i] != to)
      return kiln_interp_error(ctx, op, "operand dimension %d (size %lld) is neither 1 nor result dimension %lld (size %lld)",
                               (int)i, (long long)x->dims[i], (long long)map.v[i], (long long)to);
    sstr[map.v[i]] = xstr[i];
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, rank, dims));
  strides_of(a->out[0], rstr);
  copy_box(a->out[0], 0, rstr, x, 0, sstr, rank, dims);
  return NULL;
}

/* reshape and dynamic_reshape: the same elements in row-major order. */
static kiln_status k_reshape(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  int32_t rank = 0;
  int64_t dims[MAXR], count = 1;
  if (op->kind == KILN_OP_DYNAMIC_RESHAPE) {
    rank = result_rank(a, 0);
    if (rank < 0 || rank > MAXR) return kiln_interp_error(ctx, op, "result must be a tensor");
    KILN_RETURN_IF_ERROR(shape_operand(ctx, op, in_at(a, 1), "output_shape", rank, dims));
  } else {
    KILN_RETURN_IF_ERROR(static_result_dims(ctx, a, 0, &rank, dims));
  }
  for (int32_t d = 0; d < rank; d++)
    if (!kiln_mul_i64(count, dims[d], &count)) count = -1;
  if (count != x->count)
    return kiln_interp_error(ctx, op, "result has %lld elements but operand has %lld", (long long)count,
                             (long long)x->count);
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, rank, dims));
  copy_all(a->out[0], x);
  return NULL;
}

/* transpose: result[i] = operand[j] with j[permutation[d]] = i[d]. */
static kiln_status k_transpose(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  dlist perm;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "permutation", true, &perm));
  KILN_RETURN_IF_ERROR(check_count(ctx, op, "permutation", perm.n, x->rank));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "permutation", &perm, x->rank, true));
  int64_t dims[MAXR], xstr[MAXR], sstr[MAXR], rstr[MAXR];
  strides_of(x, xstr);
  for (int32_t d = 0; d < x->rank; d++) {
    dims[d] = x->dims[perm.v[d]];
    sstr[d] = xstr[perm.v[d]];
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x->rank, dims));
  strides_of(a->out[0], rstr);
  copy_box(a->out[0], 0, rstr, x, 0, sstr, x->rank, dims);
  return NULL;
}

/* reverse: operand index = dim - 1 - result index along `dimensions`. */
static kiln_status k_reverse(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  dlist rev;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "dimensions", true, &rev));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "dimensions", &rev, x->rank, false));
  int64_t sstr[MAXR], rstr[MAXR], base = 0;
  strides_of(x, sstr);
  for (int32_t d = 0; d < x->rank; d++) {
    if (!dlist_has(&rev, d) || x->dims[d] == 0) continue;
    base += (x->dims[d] - 1) * sstr[d];
    sstr[d] = -sstr[d];
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x->rank, x->dims));
  strides_of(a->out[0], rstr);
  copy_box(a->out[0], 0, rstr, x, base, sstr, x->rank, x->dims);
  return NULL;
}

/* ------------------------------------------------------------------ slices */

/* A strided slice start:limit:stride of x (validated) into result 0. */
static kiln_status slice_into(ctx_t *ctx, const args_t *a, const kiln_rtv *x, const int64_t *start,
                              const int64_t *limit, const int64_t *stride) {
  int64_t dims[MAXR], xstr[MAXR], sstr[MAXR], rstr[MAXR], base = 0;
  strides_of(x, xstr);
  for (int32_t d = 0; d < x->rank; d++) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > x->dims[d] || stride[d] <= 0)
      return kiln_interp_error(ctx, a->op,
                               "slice %lld:%lld:%lld is invalid for dimension %d of size %lld (need 0 <= start <= "
                               "limit <= size and stride > 0)",
                               (long long)start[d], (long long)limit[d], (long long)stride[d], (int)d,
                               (long long)x->dims[d]);
    int64_t span = limit[d] - start[d];
    dims[d] = span / stride[d] + (span % stride[d] != 0);
    base += start[d] * xstr[d];
    sstr[d] = dims[d] > 1 ? stride[d] * xstr[d] : 0;
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x->rank, dims));
  strides_of(a->out[0], rstr);
  copy_box(a->out[0], 0, rstr, x, base, sstr, x->rank, dims);
  return NULL;
}

/* slice (attributes) and real_dynamic_slice (operands). */
static kiln_status k_slice(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
  int64_t v[3][MAXR];
  for (int k = 0; k < 3; k++) {
    if (op->kind == KILN_OP_REAL_DYNAMIC_SLICE) {
      if (a->num_in != 4) return kiln_interp_error(ctx, op, "expects 4 operands");
      KILN_RETURN_IF_ERROR(list_operand(ctx, op, in_at(a, 1 + k), names[k], x->rank, v[k]));
    } else {
      dlist l;
      KILN_RETURN_IF_ERROR(op_list(ctx, op, names[k], k < 2, &l));
      if (k == 2 && !kiln_op_attr(op, names[k])) { /* strides default to 1 */
        l.n = x->rank;
        for (int32_t d = 0; d < x->rank; d++) l.v[d] = 1;
      }
      KILN_RETURN_IF_ERROR(check_count(ctx, op, names[k], l.n, x->rank));
      if (x->rank) memcpy(v[k], l.v, sizeof(int64_t) * (size_t)x->rank);
    }
  }
  return slice_into(ctx, a, x, v[0], v[1], v[2]);
}

/* Start indices given as 0-d integer operands first..first+rank-1, clamped into
 * [0, dims[d] - sizes[d]]. */
static kiln_status clamped_starts(ctx_t *ctx, const args_t *a, int32_t first, const kiln_rtv *x, const int64_t *sizes,
                                  int64_t *start) {
  if (a->num_in - first != x->rank)
    return kiln_interp_error(ctx, a->op, "expects %d start indices (the operand rank), got %d", (int)x->rank,
                             (int)(a->num_in - first));
  for (int32_t d = 0; d < x->rank; d++) {
    if (sizes[d] < 0 || sizes[d] > x->dims[d])
      return kiln_interp_error(ctx, a->op, "slice size %lld is out of range for dimension %d of size %lld",
                               (long long)sizes[d], (int)d, (long long)x->dims[d]);
    int64_t s = 0;
    KILN_RETURN_IF_ERROR(scalar_int(ctx, a->op, in_at(a, first + d), "start index", &s));
    start[d] = clamp_start(s, x->dims[d] - sizes[d]);
  }
  return NULL;
}

/* dynamic_slice: a slice_sizes box at the clamped start indices. */
static kiln_status k_dynamic_slice(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  dlist sizes;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "slice_sizes", true, &sizes));
  KILN_RETURN_IF_ERROR(check_count(ctx, op, "slice_sizes", sizes.n, x->rank));
  int64_t start[MAXR], limit[MAXR], ones[MAXR];
  KILN_RETURN_IF_ERROR(clamped_starts(ctx, a, 1, x, sizes.v, start));
  for (int32_t d = 0; d < x->rank; d++) {
    limit[d] = start[d] + sizes.v[d];
    ones[d] = 1;
  }
  return slice_into(ctx, a, x, start, limit, ones);
}

/* dynamic_update_slice: the operand with update written at the clamped start indices. */
static kiln_status k_dynamic_update_slice(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0), *u = in_at(a, 1);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, u, "update"));
  if (u->rank != x->rank) return kiln_interp_error(ctx, op, "update rank differs from operand rank");
  int64_t start[MAXR], rstr[MAXR], ustr[MAXR], base = 0;
  KILN_RETURN_IF_ERROR(clamped_starts(ctx, a, 2, x, u->dims, start));
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x->rank, x->dims));
  kiln_rtv *r = a->out[0];
  copy_all(r, x);
  strides_of(r, rstr);
  strides_of(u, ustr);
  for (int32_t d = 0; d < x->rank; d++) base += start[d] * rstr[d];
  copy_box(r, base, rstr, u, 0, ustr, u->rank, u->dims);
  return NULL;
}

/* ------------------------------------------------------------------ concatenate, pad */

static kiln_status k_concatenate(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  if (a->num_in < 1) return kiln_interp_error(ctx, op, "expects at least one input");
  const kiln_rtv *x0 = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x0, "input #0"));
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "dimension", &dim));
  if (dim < 0 || dim >= x0->rank)
    return kiln_interp_error(ctx, op, "dimension = %lld is out of range for rank %d", (long long)dim, (int)x0->rank);
  int64_t dims[MAXR];
  memcpy(dims, x0->dims, sizeof(int64_t) * (size_t)x0->rank);
  dims[dim] = 0;
  for (int32_t i = 0; i < a->num_in; i++) {
    const kiln_rtv *x = a->in[i];
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "input"));
    bool ok = x->rank == x0->rank;
    for (int32_t d = 0; ok && d < x->rank; d++) ok = d == dim || x->dims[d] == x0->dims[d];
    if (!ok) return kiln_interp_error(ctx, op, "input #%d's shape does not match input #0's", (int)i);
    dims[dim] += x->dims[dim];
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x0->rank, dims));
  kiln_rtv *r = a->out[0];
  int64_t rstr[MAXR], xstr[MAXR], at = 0;
  strides_of(r, rstr);
  for (int32_t i = 0; i < a->num_in; i++) {
    strides_of(a->in[i], xstr);
    copy_box(r, at * rstr[dim], rstr, a->in[i], 0, xstr, r->rank, a->in[i]->dims);
    at += a->in[i]->dims[dim];
  }
  return NULL;
}

/* pad and dynamic_pad: the padding value everywhere, then the operand's elements at
 * low + i * (interior + 1) where that lies inside the result (negative padding drops
 * elements). */
static kiln_status k_pad(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0), *pv = in_at(a, 1);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, pv, "padding_value"));
  if (pv->count != 1) return kiln_interp_error(ctx, op, "padding_value must have one element");
  static const char *const names[3] = {"edge_padding_low", "edge_padding_high", "interior_padding"};
  int64_t p[3][MAXR];
  for (int k = 0; k < 3; k++) {
    if (op->kind == KILN_OP_DYNAMIC_PAD) {
      if (a->num_in != 5) return kiln_interp_error(ctx, op, "expects 5 operands");
      KILN_RETURN_IF_ERROR(list_operand(ctx, op, in_at(a, 2 + k), names[k], x->rank, p[k]));
    } else {
      dlist l;
      KILN_RETURN_IF_ERROR(op_list(ctx, op, names[k], true, &l));
      KILN_RETURN_IF_ERROR(check_count(ctx, op, names[k], l.n, x->rank));
      if (x->rank) memcpy(p[k], l.v, sizeof(int64_t) * (size_t)x->rank);
    }
  }
  int64_t dims[MAXR], step[MAXR];
  for (int32_t d = 0; d < x->rank; d++) {
    int64_t n = x->dims[d], lo = p[0][d], hi = p[1][d], in = p[2][d], gaps, size;
    if (in < 0 || !kiln_add_i64(in, 1, &step[d]))
      return kiln_interp_error(ctx, op, "interior_padding[%d] = %lld is invalid", (int)d, (long long)in);
    if (!kiln_mul_i64(n > 0 ? n - 1 : 0, in, &gaps) || !kiln_add_i64(n, gaps, &size) || !kiln_add_i64(size, lo, &size) ||
        !kiln_add_i64(size, hi, &size))
      return kiln_interp_error(ctx, op, "padding of dimension %d overflows", (int)d);
    if (size < 0)
      return kiln_interp_error(ctx, op, "padding makes dimension %d negative (%lld)", (int)d, (long long)size);
    dims[d] = size;
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x->rank, dims));
  kiln_rtv *r = a->out[0];
  for (int64_t i = 0; i < r->count; i++) put_elem(r, i, pv, 0);
  /* Along each dimension, the operand indices [i0, i1) land inside the result. */
  int64_t rstr[MAXR], xstr[MAXR], dstr[MAXR], ext[MAXR], dbase = 0, sbase = 0;
  strides_of(r, rstr);
  strides_of(x, xstr);
  for (int32_t d = 0; d < x->rank; d++) {
    int64_t lo = p[0][d], s = step[d], i0 = 0, i1 = x->dims[d], room;
    if (lo < 0) i0 = (-(lo + 1)) / s + 1; /* smallest i with lo + i * s >= 0 (lo > INT64_MIN - 1 safe) */
    if (!__builtin_sub_overflow(dims[d], lo, &room)) { /* lo + i * s < dims[d]  <=>  i < ceil(room / s) */
      int64_t lim = room <= 0 ? 0 : (room - 1) / s + 1;
      if (lim < i1) i1 = lim;
    }
    if (i0 >= i1) return NULL; /* nothing of the operand survives */
    ext[d] = i1 - i0;
    dbase += (lo + i0 * s) * rstr[d];
    dstr[d] = ext[d] > 1 ? s * rstr[d] : 0;
    sbase += i0 * xstr[d];
  }
  copy_box(r, dbase, dstr, x, sbase, xstr, x->rank, ext);
  return NULL;
}

/* ------------------------------------------------------------------ gather */

typedef struct gather_dims {
  dlist offset, collapsed, obatch, ibatch, start_map;
  int64_t ivd;
} gather_dims;

/* Index-tensor geometry shared by gather and scatter: the index vector of batch index b
 * (the indices' dimensions without index_vector_dim) starts at flat offset base(b) and
 * steps by vstep. */
typedef struct index_geom {
  const kiln_rtv *t;
  int64_t ivd, vlen, vstep;
  int32_t nbatch;          /* dimensions of the batch index */
  int64_t bdims[MAXR];     /* their sizes */
  int64_t bstr[MAXR];      /* their strides in t */
} index_geom;

static kiln_status index_geom_init(const ctx_t *ctx, const kiln_op *op, const kiln_rtv *t, int64_t ivd, int64_t vlen,
                                   const char *name, index_geom *g) {
  if (!t || !rtv_is_int(t)) return kiln_interp_error(ctx, op, "%s must be an integer tensor", name);
  if (ivd < 0 || ivd > t->rank)
    return kiln_interp_error(ctx, op, "index_vector_dim = %lld is out of range for %s of rank %d", (long long)ivd, name,
                             (int)t->rank);
  int64_t str[MAXR];
  strides_of(t, str);
  g->t = t;
  g->ivd = ivd;
  g->vlen = ivd < t->rank ? t->dims[ivd] : 1;
  g->vstep = ivd < t->rank ? str[ivd] : 0;
  if (g->vlen != vlen)
    return kiln_interp_error(ctx, op, "index vectors of %s have %lld entries, but the dimension map has %lld", name,
                             (long long)g->vlen, (long long)vlen);
  g->nbatch = 0;
  for (int32_t d = 0; d < t->rank; d++) {
    if (d == ivd) continue;
    g->bdims[g->nbatch] = t->dims[d];
    g->bstr[g->nbatch++] = str[d];
  }
  return NULL;
}

/* Position in the batch index of index dimension d (d != ivd). */
static int32_t batch_pos(const index_geom *g, int64_t d) { return (int32_t)(d < g->ivd ? d : d - 1); }

static kiln_status read_gather_dims(const ctx_t *ctx, const kiln_op *op, gather_dims *g) {
  const kiln_attr *s = kiln_op_attr(op, "dimension_numbers");
  if (!s) return kiln_interp_error(ctx, op, "requires attribute 'dimension_numbers'");
  KILN_RETURN_IF_ERROR(attr_list(ctx, op, kiln_attr_get(s, "offset_dims"), "offset_dims", false, &g->offset));
  KILN_RETURN_IF_ERROR(
      attr_list(ctx, op, kiln_attr_get(s, "collapsed_slice_dims"), "collapsed_slice_dims", false, &g->collapsed));
  KILN_RETURN_IF_ERROR(
      attr_list(ctx, op, kiln_attr_get(s, "operand_batching_dims"), "operand_batching_dims", false, &g->obatch));
  KILN_RETURN_IF_ERROR(attr_list(ctx, op, kiln_attr_get(s, "start_indices_batching_dims"),
                                 "start_indices_batching_dims", false, &g->ibatch));
  KILN_RETURN_IF_ERROR(attr_list(ctx, op, kiln_attr_get(s, "start_index_map"), "start_index_map", false, &g->start_map));
  return attr_int(ctx, op, kiln_attr_get(s, "index_vector_dim"), "index_vector_dim", true, 0, &g->ivd);
}

/* gather and dynamic_gather. For each batch index b (the result's non-offset dimensions,
 * which are the start indices' dimensions without index_vector_dim), the operand box of
 * slice_sizes at full_start_index (clamped) + full_batching_index is copied to the
 * result's offset dimensions. */
static kiln_status k_gather(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  if (a->num_in < 2) return kiln_interp_error(ctx, op, "expects operand and start_indices");
  gather_dims g;
  KILN_RETURN_IF_ERROR(read_gather_dims(ctx, op, &g));
  dlist sizes;
  if (op->kind == KILN_OP_DYNAMIC_GATHER) {
    if (a->num_in != 3) return kiln_interp_error(ctx, op, "expects 3 operands");
    KILN_RETURN_IF_ERROR(shape_operand(ctx, op, in_at(a, 2), "slice_sizes", x->rank, sizes.v));
    sizes.n = x->rank;
  } else {
    KILN_RETURN_IF_ERROR(op_list(ctx, op, "slice_sizes", true, &sizes));
  }
  KILN_RETURN_IF_ERROR(check_count(ctx, op, "slice_sizes", sizes.n, x->rank));
  if (g.offset.n + g.collapsed.n + g.obatch.n != x->rank)
    return kiln_interp_error(ctx, op, "offset_dims, collapsed_slice_dims and operand_batching_dims must cover the "
                                      "operand's %d dimensions",
                             (int)x->rank);
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "collapsed_slice_dims", &g.collapsed, x->rank, true));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "operand_batching_dims", &g.obatch, x->rank, true));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "start_index_map", &g.start_map, x->rank, true));
  for (int32_t i = 0; i < g.obatch.n; i++)
    if (dlist_has(&g.collapsed, g.obatch.v[i]) || dlist_has(&g.start_map, g.obatch.v[i]))
      return kiln_interp_error(ctx, op, "operand_batching_dims[%d] = %lld is also in collapsed_slice_dims or "
                                        "start_index_map", (int)i, (long long)g.obatch.v[i]);
  KILN_RETURN_IF_ERROR(check_count(ctx, op, "start_indices_batching_dims", g.ibatch.n, g.obatch.n));
  index_geom ig;
  KILN_RETURN_IF_ERROR(index_geom_init(ctx, op, in_at(a, 1), g.ivd, g.start_map.n, "start_indices", &ig));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "start_indices_batching_dims", &g.ibatch, ig.t->rank, true));
  if (dlist_has(&g.ibatch, g.ivd))
    return kiln_interp_error(ctx, op, "start_indices_batching_dims must not contain index_vector_dim");
  for (int32_t d = 0; d < x->rank; d++) {
    if (sizes.v[d] < 0 || sizes.v[d] > x->dims[d])
      return kiln_interp_error(ctx, op, "slice_sizes[%d] = %lld is out of range for operand dimension size %lld", (int)d,
                               (long long)sizes.v[d], (long long)x->dims[d]);
    if (sizes.v[d] > 1 && (dlist_has(&g.collapsed, d) || dlist_has(&g.obatch, d)))
      return kiln_interp_error(ctx, op, "slice_sizes[%d] = %lld must be at most 1 for a collapsed or batching dimension",
                               (int)d, (long long)sizes.v[d]);
  }
  for (int32_t i = 0; i < g.obatch.n; i++)
    if (x->dims[g.obatch.v[i]] != ig.t->dims[g.ibatch.v[i]])
      return kiln_interp_error(ctx, op, "operand_batching_dims[%d] and start_indices_batching_dims[%d] differ in size",
                               (int)i, (int)i);
  /* Result shape: batch dimensions in order, offset dimensions at offset_dims. */
  int32_t rank = g.offset.n + ig.nbatch;
  if (rank > MAXR) return kiln_interp_error(ctx, op, "result rank is too large");
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "offset_dims", &g.offset, rank, true));
  int64_t dims[MAXR], win[MAXR]; /* win[k]: operand dimension of the k-th offset dimension */
  int32_t nwin = 0;
  for (int32_t d = 0; d < x->rank; d++)
    if (!dlist_has(&g.collapsed, d) && !dlist_has(&g.obatch, d)) win[nwin++] = d;
  int32_t rbatch[MAXR], nb = 0; /* result dimension of each batch position */
  for (int32_t r = 0; r < rank; r++) {
    int32_t k = dlist_pos(&g.offset, r);
    if (k >= 0) {
      dims[r] = sizes.v[win[k]];
    } else {
      rbatch[nb] = r;
      dims[r] = ig.bdims[nb++];
    }
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, rank, dims));
  kiln_rtv *res = a->out[0];
  if (res->count == 0) return NULL;
  for (int32_t d = 0; d < x->rank; d++)
    if (sizes.v[d] == 0 && (dlist_has(&g.collapsed, d) || dlist_has(&g.obatch, d)))
      return kiln_interp_error(ctx, op, "slice_sizes[%d] = 0 along a collapsed or batching dimension leaves no "
                                        "element for a non-empty result", (int)d);
  int64_t rstr[MAXR], xstr[MAXR], dstr[MAXR], sstr[MAXR], ext[MAXR];
  strides_of(res, rstr);
  strides_of(x, xstr);
  for (int32_t k = 0; k < g.offset.n; k++) {
    ext[k] = sizes.v[win[k]];
    sstr[k] = xstr[win[k]];
    dstr[k] = rstr[g.offset.v[k]];
  }
  int64_t b[MAXR] = {0};
  do {
    int64_t ibase = 0, dbase = 0, sbase = 0;
    for (int32_t k = 0; k < nb; k++) {
      ibase += b[k] * ig.bstr[k];
      dbase += b[k] * rstr[rbatch[k]];
    }
    for (int32_t k = 0; k < g.start_map.n; k++) {
      int64_t od = g.start_map.v[k];
      int64_t s = load_int(ig.t, ibase + k * ig.vstep);
      sbase += clamp_start(s, x->dims[od] - sizes.v[od]) * xstr[od];
    }
    for (int32_t i = 0; i < g.obatch.n; i++) sbase += b[batch_pos(&ig, g.ibatch.v[i])] * xstr[g.obatch.v[i]];
    copy_box(res, dbase, dstr, x, sbase, sstr, g.offset.n, ext);
  } while (kiln_index_next(nb, ig.bdims, b));
  return NULL;
}

/* torch_index_select: result = operand with dimension `dim` replaced by the index
 * tensor's dimensions after its first batch_dims (which are shared with the operand). */
static kiln_status k_torch_index_select(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0), *ix = in_at(a, 1);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  if (!ix || !rtv_is_int(ix)) return kiln_interp_error(ctx, op, "index must be an integer tensor");
  int64_t dim = 0, nbatch = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "dim", &dim));
  KILN_RETURN_IF_ERROR(attr_int(ctx, op, kiln_op_attr(op, "batch_dims"), "batch_dims", true, 0, &nbatch));
  if (dim < 0 || dim >= x->rank || nbatch < 0 || nbatch > dim || nbatch > ix->rank)
    return kiln_interp_error(ctx, op, "dim = %lld and batch_dims = %lld are invalid for operand rank %d and index rank %d",
                             (long long)dim, (long long)nbatch, (int)x->rank, (int)ix->rank);
  for (int32_t d = 0; d < nbatch; d++)
    if (x->dims[d] != ix->dims[d])
      return kiln_interp_error(ctx, op, "batch dimension %d differs between operand and index", (int)d);
  int32_t mid = ix->rank - (int32_t)nbatch, rank = x->rank - 1 + mid;
  if (rank > MAXR) return kiln_interp_error(ctx, op, "result rank is too large");
  int64_t dims[MAXR];
  for (int32_t d = 0; d < rank; d++)
    dims[d] = d < dim ? x->dims[d] : d < dim + mid ? ix->dims[nbatch + d - dim] : x->dims[d - mid + 1];
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, rank, dims));
  kiln_rtv *r = a->out[0];
  if (r->count == 0) return NULL;
  int64_t xstr[MAXR], istr[MAXR], ri[MAXR] = {0};
  strides_of(x, xstr);
  strides_of(ix, istr);
  int64_t k = 0;
  do {
    int64_t xo = 0, io = 0;
    for (int32_t d = 0; d < nbatch; d++) io += ri[d] * istr[d];
    for (int32_t d = 0; d < mid; d++) io += ri[dim + d] * istr[nbatch + d];
    int64_t sel = load_int(ix, io);
    if (sel < 0 || sel >= x->dims[dim])
      return kiln_interp_error(ctx, op, "index %lld is out of range for dimension %lld of size %lld", (long long)sel,
                               (long long)dim, (long long)x->dims[dim]);
    for (int32_t d = 0; d < x->rank; d++)
      xo += (d < dim ? ri[d] : d == dim ? sel : ri[d - 1 + mid]) * xstr[d];
    put_elem(r, k++, x, xo);
  } while (kiln_index_next(rank, dims, ri));
  return NULL;
}

/* ------------------------------------------------------------------ scatter */

typedef struct scatter_dims {
  dlist uwd, iwd, ib, sib, sdod;
  int64_t ivd;
} scatter_dims;

static kiln_status read_scatter_dims(const ctx_t *ctx, const kiln_op *op, scatter_dims *s) {
  const kiln_attr *at = kiln_op_attr(op, "scatter_dimension_numbers");
  if (!at) return kiln_interp_error(ctx, op, "requires attribute 'scatter_dimension_numbers'");
  KILN_RETURN_IF_ERROR(
      attr_list(ctx, op, kiln_attr_get(at, "update_window_dims"), "update_window_dims", false, &s->uwd));
  KILN_RETURN_IF_ERROR(
      attr_list(ctx, op, kiln_attr_get(at, "inserted_window_dims"), "inserted_window_dims", false, &s->iwd));
  KILN_RETURN_IF_ERROR(
      attr_list(ctx, op, kiln_attr_get(at, "input_batching_dims"), "input_batching_dims", false, &s->ib));
  KILN_RETURN_IF_ERROR(attr_list(ctx, op, kiln_attr_get(at, "scatter_indices_batching_dims"),
                                 "scatter_indices_batching_dims", false, &s->sib));
  KILN_RETURN_IF_ERROR(attr_list(ctx, op, kiln_attr_get(at, "scatter_dims_to_operand_dims"),
                                 "scatter_dims_to_operand_dims", false, &s->sdod));
  return attr_int(ctx, op, kiln_attr_get(at, "index_vector_dim"), "index_vector_dim", true, 0, &s->ivd);
}

/* The element type a region argument is given: its declared scalar type, or (for a
 * quantized one while the op runs in the expressed type) that of the values. */
static const kiln_type *region_arg_elem(const kiln_block *b, int32_t i, const kiln_type *fallback) {
  const kiln_type *t = i < b->num_args ? b->args[i].type : NULL;
  const kiln_type *e = t ? kiln_type_element(t) : NULL;
  return e && e->kind == KILN_TYPE_SCALAR ? e : fallback;
}

/* out[at] = the single element of v (dequantized first when v is quantized and out is not). */
static kiln_status store_region_value(const ctx_t *ctx, const kiln_op *op, kiln_rtv *out, int64_t at, const kiln_rtv *v) {
  if (!v || v->kind != KILN_RTV_TENSOR || v->count != 1)
    return kiln_interp_error(ctx, op, "update_computation must return single-element tensors");
  if (v->elem_type->kind == KILN_TYPE_QUANT && out->elem_type->kind != KILN_TYPE_QUANT) {
    kiln_rtv *f;
    KILN_RETURN_IF_ERROR(kiln_interp_dequantize(v, &f));
    put_elem(out, at, f, 0);
    kiln_rtv_release(f);
    return NULL;
  }
  put_elem(out, at, v, 0);
  return NULL;
}

typedef struct scatter_run {
  int32_t n;
  const kiln_region *region;
  const kiln_block *block;
  kiln_rtv **args, **res; /* 2n and n slots */
  /* a one-op update computation applied without running the region: `return %update`
   * (replace), or fn on (current, update) or (update, current) */
  bool replace, swapped;
  kiln_ew_fn fn;
  kiln_ew ew;
} scatter_run;

/* Recognises an update computation of one input whose body is `return %b` or
 * `return op(%a, %b)` (either order) on the input's own element type. */
static void scatter_fast_path(const args_t *a, scatter_run *sr) {
  const kiln_block *b = sr->block;
  const kiln_rtv *x = a->out[0];
  const kiln_rtv *up = a->in[2];
  if (sr->n != 1 || b->next || b->num_args != 2 || x->elem_type->kind != KILN_TYPE_SCALAR ||
      up->elem_type->kind != KILN_TYPE_SCALAR || up->elem != x->elem)
    return;
  for (int32_t i = 0; i < 2; i++) {
    const kiln_type *t = b->args[i].type;
    if (!kiln_type_is_tensor(t) || t->tensor.rank != 0 || kiln_type_element(t)->kind != KILN_TYPE_SCALAR ||
        kiln_type_elem(t) != x->elem)
      return;
  }
  const kiln_op *ret = b->last;
  if (!ret || ret->num_operands != 1) return;
  if (b->first == ret) {
    sr->replace = ret->operands[0] == &b->args[1];
    return;
  }
  const kiln_op *op = b->first;
  if (op->next != ret || ret->operands[0] != &op->results[0] || op->num_operands != 2) return;
  const kiln_value *p = op->operands[0], *q = op->operands[1];
  bool straight = p == &b->args[0] && q == &b->args[1], crossed = p == &b->args[1] && q == &b->args[0];
  if (!straight && !crossed) return;
  if (!kiln_type_is_tensor(op->results[0].type) || kiln_type_elem(op->results[0].type) != x->elem) return;
  sr->fn = kiln_ew_binary_fn(op, x->elem, &sr->ew);
  sr->swapped = crossed;
}

/* results...[at] = update_computation(results...[at], updates...[u]). */
static kiln_status scatter_apply(ctx_t *ctx, const args_t *a, scatter_run *sr, int64_t at, int64_t u) {
  int32_t n = sr->n;
  kiln_status st = NULL;
  if (sr->replace || sr->fn) {
    kiln_rtv *x = a->out[0];
    const kiln_rtv *up = a->in[2];
    uint8_t *dst = x->data + (size_t)at * x->elem_bytes;
    kiln_scalar v = kiln_scalar_load(up->elem, up->data + (size_t)u * up->elem_bytes);
    if (sr->fn) {
      kiln_scalar cur = kiln_scalar_load(x->elem, dst);
      kiln_scalar args[2] = {sr->swapped ? v : cur, sr->swapped ? cur : v};
      v = sr->fn(&sr->ew, args);
    }
    kiln_scalar_store(x->elem, dst, v);
    return NULL;
  }
  for (int32_t i = 0; !st && i < 2 * n; i++) {
    const kiln_rtv *src = i < n ? a->out[i] : a->in[n + 1 + (i - n)];
    const kiln_type *e = region_arg_elem(sr->block, i, a->out[i % n]->elem_type);
    st = kiln_rtv_tensor(e, 0, NULL, &sr->args[i]);
    if (!st) put_elem(sr->args[i], 0, src, i < n ? at : u);
  }
  if (!st) st = kiln_interp_region(ctx, sr->region, sr->args, 2 * n, sr->res, n);
  for (int32_t i = 0; !st && i < n; i++) st = store_region_value(ctx, a->op, a->out[i], at, sr->res[i]);
  for (int32_t i = 0; i < 2 * n; i++) {
    kiln_rtv_release(sr->args[i]);
    sr->args[i] = NULL;
  }
  for (int32_t i = 0; i < n; i++) {
    kiln_rtv_release(sr->res[i]);
    sr->res[i] = NULL;
  }
  return st;
}

static kiln_status scatter_check(ctx_t *ctx, const args_t *a, int32_t n, const scatter_dims *s, index_geom *ig) {
  const kiln_op *op = a->op;
  const kiln_rtv *x = in_at(a, 0), *u = in_at(a, n + 1);
  for (int32_t i = 0; i < n; i++) {
    const kiln_rtv *xi = a->in[i], *ui = a->in[n + 1 + i];
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, xi, "inputs"));
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, ui, "updates"));
    bool ok = xi->rank == x->rank && ui->rank == u->rank;
    for (int32_t d = 0; ok && d < x->rank; d++) ok = xi->dims[d] == x->dims[d];
    for (int32_t d = 0; ok && d < u->rank; d++) ok = ui->dims[d] == u->dims[d];
    if (!ok) return kiln_interp_error(ctx, op, "inputs and updates must each have one shape");
  }
  if (s->uwd.n + s->iwd.n + s->ib.n != x->rank)
    return kiln_interp_error(ctx, op, "update_window_dims, inserted_window_dims and input_batching_dims must cover the "
                                      "inputs' %d dimensions",
                             (int)x->rank);
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "update_window_dims", &s->uwd, u->rank, true));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "inserted_window_dims", &s->iwd, x->rank, true));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "input_batching_dims", &s->ib, x->rank, true));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "scatter_dims_to_operand_dims", &s->sdod, x->rank, true));
  KILN_RETURN_IF_ERROR(check_count(ctx, op, "scatter_indices_batching_dims", s->sib.n, s->ib.n));
  KILN_RETURN_IF_ERROR(index_geom_init(ctx, op, in_at(a, n), s->ivd, s->sdod.n, "scatter_indices", ig));
  KILN_RETURN_IF_ERROR(check_axes(ctx, op, "scatter_indices_batching_dims", &s->sib, ig->t->rank, true));
  if (dlist_has(&s->sib, s->ivd))
    return kiln_interp_error(ctx, op, "scatter_indices_batching_dims must not contain index_vector_dim");
  if (u->rank - s->uwd.n != ig->nbatch)
    return kiln_interp_error(ctx, op, "updates must have rank %d (scatter dimensions plus update_window_dims)",
                             (int)(ig->nbatch + s->uwd.n));
  for (int32_t d = 0, k = 0; d < u->rank; d++)
    if (!dlist_has(&s->uwd, d) && u->dims[d] != ig->bdims[k++])
      return kiln_interp_error(ctx, op, "updates dimension %d differs from the matching scatter_indices dimension", (int)d);
  return NULL;
}

/* scatter: results = inputs, then for every update index (in row-major order) whose whole
 * update window lies inside the inputs, results...[r] = update_computation(results...[r],
 * updates...[u]). A window that does not fit whole is skipped whole, as XLA does and as
 * JAX's FILL_OR_DROP mode (scatters with mode="drop", and the transposes of gathers with
 * mode="fill") relies on: the spec's text skips element by element, which gives JAX
 * gradients that disagree with its gathers'. */
static kiln_status k_scatter(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  int32_t n = (a->num_in - 1) / 2;
  if (a->num_in < 3 || a->num_in % 2 == 0 || a->num_out != n)
    return kiln_interp_error(ctx, op, "expects N inputs, scatter_indices, N updates and N results");
  if (op->num_regions < 1 || !op->regions[0].first)
    return kiln_interp_error(ctx, op, "requires an update_computation region");
  scatter_dims s;
  index_geom ig;
  KILN_RETURN_IF_ERROR(read_scatter_dims(ctx, op, &s));
  KILN_RETURN_IF_ERROR(scatter_check(ctx, a, n, &s, &ig));
  const kiln_rtv *x = in_at(a, 0), *u = in_at(a, n + 1);
  for (int32_t i = 0; i < n; i++) {
    KILN_RETURN_IF_ERROR(make_result(ctx, a, i, x->rank, x->dims));
    copy_all(a->out[i], a->in[i]);
  }
  int32_t usd[MAXR], nusd = 0, win[MAXR], nwin = 0; /* update scatter dims; input window dims */
  int64_t wsize[MAXR];                                /* the window's size along each input dim */
  for (int32_t d = 0; d < u->rank; d++)
    if (!dlist_has(&s.uwd, d)) usd[nusd++] = d;
  for (int32_t d = 0; d < x->rank; d++) {
    wsize[d] = 1;
    if (!dlist_has(&s.iwd, d) && !dlist_has(&s.ib, d)) win[nwin++] = d;
  }
  for (int32_t k = 0; k < nwin; k++) wsize[win[k]] = u->dims[s.uwd.v[k]];
  if (u->count == 0) return NULL;
  scatter_run sr = {.n = n,
                    .region = &op->regions[0],
                    .block = op->regions[0].first,
                    .args = calloc((size_t)(2 * n), sizeof(kiln_rtv *)),
                    .res = calloc((size_t)n, sizeof(kiln_rtv *))};
  kiln_status st = sr.args && sr.res ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) scatter_fast_path(a, &sr);
  int64_t ui[MAXR] = {0}, ri[MAXR], xstr[MAXR];
  strides_of(x, xstr);
  int64_t uflat = 0;
  do {
    if (st) break;
    int64_t ibase = 0;
    for (int32_t k = 0; k < nusd; k++) ibase += ui[usd[k]] * ig.bstr[k];
    memset(ri, 0, sizeof(int64_t) * (size_t)x->rank);
    bool ok = true;
    for (int32_t k = 0; ok && k < s.sdod.n; k++)
      ok = kiln_add_i64(ri[s.sdod.v[k]], load_int(ig.t, ibase + k * ig.vstep), &ri[s.sdod.v[k]]);
    for (int32_t i = 0; ok && i < s.ib.n; i++)
      ok = kiln_add_i64(ri[s.ib.v[i]], ui[usd[batch_pos(&ig, s.sib.v[i])]], &ri[s.ib.v[i]]);
    for (int32_t d = 0; ok && d < x->rank; d++) ok = ri[d] >= 0 && ri[d] <= x->dims[d] - wsize[d]; /* the window's start */
    for (int32_t k = 0; ok && k < nwin; k++) ri[win[k]] += ui[s.uwd.v[k]];
    int64_t at = 0;
    for (int32_t d = 0; ok && d < x->rank; d++) at += ri[d] * xstr[d];
    if (ok) st = scatter_apply(ctx, a, &sr, at, uflat);
    uflat++;
  } while (kiln_index_next(u->rank, u->dims, ui));
  free(sr.args);
  free(sr.res);
  return st;
}

/* ------------------------------------------------------------------ dimension sizes, tuples, tensor.insert */

static kiln_status k_get_dimension_size(ctx_t *ctx, const args_t *a) {
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, x, "operand"));
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, a->op, "dimension", &dim));
  if (dim < 0 || dim >= x->rank)
    return kiln_interp_error(ctx, a->op, "dimension = %lld is out of range for rank %d", (long long)dim, (int)x->rank);
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, 0, NULL));
  kiln_scalar s = {{0}, 0};
  s.i = x->dims[dim];
  kiln_scalar_store(a->out[0]->elem, a->out[0]->data, convert_scalar(s, KILN_ELEM_SI64, a->out[0]->elem));
  return NULL;
}

/* set_dimension_size: the operand with dimension `dimension` cut to `size` elements (at
 * most its static size, which is the result's bound). */
static kiln_status k_set_dimension_size(ctx_t *ctx, const args_t *a) {
  const kiln_rtv *x = in_at(a, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, x, "operand"));
  int64_t dim = 0, size = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, a->op, "dimension", &dim));
  if (dim < 0 || dim >= x->rank)
    return kiln_interp_error(ctx, a->op, "dimension = %lld is out of range for rank %d", (long long)dim, (int)x->rank);
  KILN_RETURN_IF_ERROR(scalar_int(ctx, a->op, in_at(a, 1), "size", &size));
  if (size < 0 || size > x->dims[dim])
    return kiln_interp_error(ctx, a->op, "size %lld is out of range for dimension %lld of size %lld", (long long)size,
                             (long long)dim, (long long)x->dims[dim]);
  int64_t start[MAXR] = {0}, limit[MAXR], ones[MAXR];
  for (int32_t d = 0; d < x->rank; d++) {
    limit[d] = d == dim ? size : x->dims[d];
    ones[d] = 1;
  }
  return slice_into(ctx, a, x, start, limit, ones);
}

static kiln_status k_tuple(ctx_t *ctx, const args_t *a) {
  (void)ctx;
  return kiln_rtv_tuple(a->in, a->num_in, &a->out[0]);
}

static kiln_status k_get_tuple_element(ctx_t *ctx, const args_t *a) {
  const kiln_rtv *t = in_at(a, 0);
  int64_t index = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, a->op, "index", &index));
  if (!t || t->kind != KILN_RTV_TUPLE) return kiln_interp_error(ctx, a->op, "operand must be a tuple");
  if (index < 0 || index >= t->num_items)
    return kiln_interp_error(ctx, a->op, "index %lld is out of range for a tuple of %d elements", (long long)index,
                             (int)t->num_items);
  a->out[0] = kiln_rtv_retain(t->items[index]);
  return NULL;
}

/* tensor.insert %scalar into %dest[%i, ...]: a copy of dest with one element replaced. */
static kiln_status k_tensor_insert(ctx_t *ctx, const args_t *a) {
  const kiln_op *op = a->op;
  if (a->num_in < 2) return kiln_interp_error(ctx, op, "expects a scalar and a destination");
  const kiln_rtv *v = in_at(a, 0), *dest = in_at(a, 1);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, dest, "destination"));
  if (!v || v->kind != KILN_RTV_TENSOR || v->count != 1) return kiln_interp_error(ctx, op, "the inserted value must be a scalar");
  if (a->num_in - 2 != dest->rank)
    return kiln_interp_error(ctx, op, "expects %d indices, got %d", (int)dest->rank, (int)(a->num_in - 2));
  int64_t str[MAXR], at = 0;
  strides_of(dest, str);
  for (int32_t d = 0; d < dest->rank; d++) {
    int64_t i = 0;
    KILN_RETURN_IF_ERROR(scalar_int(ctx, op, in_at(a, 2 + d), "index", &i));
    if (i < 0 || i >= dest->dims[d])
      return kiln_interp_error(ctx, op, "index %lld is out of range for dimension %d of size %lld", (long long)i, (int)d,
                               (long long)dest->dims[d]);
    at += i * str[d];
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, dest->rank, dest->dims));
  copy_all(a->out[0], dest);
  put_elem(a->out[0], at, v, 0);
  return NULL;
}

/* ------------------------------------------------------------------ lookup */

kiln_interp_kernel kiln_interp_shape_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_CONSTANT:
    case KILN_OP_ARITH_CONSTANT: return k_constant;
    case KILN_OP_IOTA:
    case KILN_OP_DYNAMIC_IOTA: return k_iota;
    case KILN_OP_BROADCAST_IN_DIM:
    case KILN_OP_BROADCAST:
    case KILN_OP_DYNAMIC_BROADCAST_IN_DIM: return k_broadcast;
    case KILN_OP_RESHAPE:
    case KILN_OP_DYNAMIC_RESHAPE: return k_reshape;
    case KILN_OP_TRANSPOSE: return k_transpose;
    case KILN_OP_REVERSE: return k_reverse;
    case KILN_OP_SLICE:
    case KILN_OP_REAL_DYNAMIC_SLICE: return k_slice;
    case KILN_OP_DYNAMIC_SLICE: return k_dynamic_slice;
    case KILN_OP_DYNAMIC_UPDATE_SLICE: return k_dynamic_update_slice;
    case KILN_OP_CONCATENATE: return k_concatenate;
    case KILN_OP_PAD:
    case KILN_OP_DYNAMIC_PAD: return k_pad;
    case KILN_OP_GATHER:
    case KILN_OP_DYNAMIC_GATHER: return k_gather;
    case KILN_OP_TORCH_INDEX_SELECT: return k_torch_index_select;
    case KILN_OP_SCATTER: return k_scatter;
    case KILN_OP_GET_DIMENSION_SIZE: return k_get_dimension_size;
    case KILN_OP_SET_DIMENSION_SIZE: return k_set_dimension_size;
    case KILN_OP_TUPLE: return k_tuple;
    case KILN_OP_GET_TUPLE_ELEMENT: return k_get_tuple_element;
    case KILN_OP_TENSOR_INSERT: return k_tensor_insert;
    default: return NULL;
  }
}
