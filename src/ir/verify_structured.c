/* Verifier rules of the structured ops: reductions and windows (reduce, reduce_window,
 * select_and_scatter), convolutions (convolution, dynamic_conv), dot products (dot_general,
 * dot, chlo.ragged_dot), gather and scatter (gather, dynamic_gather, scatter,
 * torch_index_select), sort, map, fft, linear algebra (triangular_solve, cholesky), batch
 * norm, einsum, and the CHLO ops top_k and scan.
 *
 * The rules are the type and shape constraints of the StableHLO specification
 * (docs/spec.md of openxla/stablehlo). Where the reference verifier
 * (stablehlo/dialect/TypeInference.cpp) accepts more than the text of the specification,
 * the wider reading is taken, so that no program the reference accepts is rejected here:
 *   - a `?` dimension is compatible with any size;
 *   - quantized element types are compared by storage type, storage range, expressed type
 *     and granularity (scales and zero points may differ), as baseline types are;
 *   - the result element type of convolution and dot_general is free for non-quantized
 *     operands (frameworks use it for a preferred accumulation type);
 *   - dot_general's non-quantized lhs and rhs may have different element types: the
 *     reference does not check the spec's C13 (JAX emits f8E4M3FN x f8E5M2 products); the
 *     operands are converted to the result's type, as its interpreter does;
 *   - reducer bodies may widen: init values and inputs need only be promotable to the
 *     body's types, and floating-point precision is not compared there; a reduce body may
 *     work on slices (init values shaped like its arguments) instead of 0-d tensors;
 *   - dynamic_conv's window attributes are only checked once its padding is a constant;
 *   - precision_config may have up to two entries;
 *   - scalar fields missing from dimension-number attributes are 0.
 *
 * Ranks and integer lists longer than VS_MAX_RANK, and variadic ops with more than
 * VS_MAX_VARIADIC inputs, are rejected with an error rather than overflowing the fixed
 * stack buffers used here. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"

#define VS_MAX_RANK 16
#define VS_MAX_LIST (2 * VS_MAX_RANK) /* room for [rank, 2] padding */
#define VS_MAX_VARIADIC 64
#define VS_DYN KILN_DIM_DYNAMIC

#define VS_ERR(...) kiln_verify_error(ctx, op, __VA_ARGS__)

typedef const kiln_verify_ctx vs_ctx;

/* ================================================================ small accessors */

static const kiln_type *otype(const kiln_op *op, int32_t i) { return op->operands[i]->type; }
static const kiln_type *rtype(const kiln_op *op, int32_t i) { return op->results[i].type; }
static int32_t trank(const kiln_type *t) { return t->tensor.rank; }
static int64_t tdim(const kiln_type *t, int32_t i) { return t->tensor.dims[i]; }
static const kiln_type *telem(const kiln_type *t) { return t->tensor.element; }
static bool is_dyn(int64_t d) { return d == VS_DYN; }

typedef struct vs_tbuf {
  char s[192];
} vs_tbuf;

typedef struct vs_dbuf {
  char s[24];
} vs_dbuf;

static const char *ts(const kiln_type *t, vs_tbuf *b) {
  return kiln_verify_type_str(t, b->s, sizeof b->s);
}

static const char *ds(int64_t d, vs_dbuf *b) {
  if (is_dyn(d))
    snprintf(b->s, sizeof b->s, "?");
  else
    snprintf(b->s, sizeof b->s, "%" PRId64, d);
  return b->s;
}

/* "[2, ?, 3]" */
static const char *shape_str(const int64_t *d, int32_t n, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int32_t i = 0; i < n && len < cap; i++) {
    vs_dbuf db;
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", ds(d[i], &db));
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

/* "inputs[2]" */
typedef struct vs_name {
  char s[48];
} vs_name;

static const char *nm(vs_name *b, const char *base, int32_t i) {
  snprintf(b->s, sizeof b->s, "%s[%d]", base, (int)i);
  return b->s;
}

/* ================================================================ element types */

typedef enum vs_ek { VS_EK_INT, VS_EK_FLOAT, VS_EK_COMPLEX, VS_EK_QUANT, VS_EK_OTHER } vs_ek;

static bool is_quant(const kiln_type *e) { return e && e->kind == KILN_TYPE_QUANT; }
static bool is_per_axis(const kiln_type *e) { return is_quant(e) && e->quant.axis >= 0; }

static vs_ek elem_kind(const kiln_type *e) {
  if (!e) return VS_EK_OTHER;
  if (e->kind == KILN_TYPE_QUANT) return VS_EK_QUANT;
  if (e->kind != KILN_TYPE_SCALAR) return VS_EK_OTHER;
  switch (kiln_elem_class_of(e->elem)) {
    case KILN_ELEM_CLASS_B:
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_U: return VS_EK_INT;
    case KILN_ELEM_CLASS_F: return VS_EK_FLOAT;
    case KILN_ELEM_CLASS_C: return VS_EK_COMPLEX;
    case KILN_ELEM_CLASS_X: return VS_EK_OTHER;
  }
  return VS_EK_OTHER;
}

static bool elem_is(const kiln_type *e, kiln_elem which) {
  return e && e->kind == KILN_TYPE_SCALAR && e->elem == which;
}

static int elem_bits(const kiln_type *e) {
  return kiln_elem_bits(e->kind == KILN_TYPE_QUANT ? e->quant.storage : e->elem);
}

/* Compatible element types: equal scalars, or quantized types that agree on storage type,
 * storage range, expressed type and granularity (baseline element types). */
static bool elem_compat(const kiln_type *a, const kiln_type *b) {
  if (!a || !b) return false;
  if (is_quant(a) != is_quant(b)) return false;
  if (!is_quant(a)) return kiln_type_equal(a, b);
  if (a->quant.storage != b->quant.storage || a->quant.expressed != b->quant.expressed)
    return false;
  if (a->quant.has_storage_range && b->quant.has_storage_range &&
      (a->quant.storage_min != b->quant.storage_min ||
       a->quant.storage_max != b->quant.storage_max))
    return false;
  return (a->quant.axis >= 0) == (b->quant.axis >= 0);
}

/* The same, but any two floating-point types match. */
static bool elem_compat_fp(const kiln_type *a, const kiln_type *b) {
  if (elem_kind(a) == VS_EK_FLOAT && elem_kind(b) == VS_EK_FLOAT) return true;
  return elem_compat(a, b);
}

/* is_promotable(from, to): same kind and no narrowing (floating-point precision is not
 * compared; quantized types compare storage width and need the same expressed type). */
static bool elem_promotable(const kiln_type *from, const kiln_type *to) {
  vs_ek a = elem_kind(from), b = elem_kind(to);
  if (a != b) return false;
  if (a == VS_EK_OTHER) return kiln_type_equal(from, to);
  if (a == VS_EK_FLOAT) return true;
  if (a == VS_EK_QUANT && from->quant.expressed != to->quant.expressed) return false;
  return elem_bits(from) <= elem_bits(to);
}

static bool is_int_elem(const kiln_type *e) {
  return e && e->kind == KILN_TYPE_SCALAR && kiln_elem_is_int(e->elem);
}

/* ================================================================ operands and results */

static kiln_status need_counts(vs_ctx *ctx, const kiln_op *op, int32_t operands,
                               int32_t results) {
  if (op->num_operands != operands || op->num_results != results)
    return VS_ERR("expects %d operand(s) and %d result(s), but has %d and %d", (int)operands,
                  (int)results, (int)op->num_operands, (int)op->num_results);
  return NULL;
}

/* A ranked tensor of rank at most VS_MAX_RANK; what names it in the message. */
static kiln_status need_tensor(vs_ctx *ctx, const kiln_op *op, const kiln_type *t,
                               const char *what) {
  vs_tbuf tb;
  if (!t || t->kind != KILN_TYPE_TENSOR)
    return VS_ERR("%s must be a ranked tensor, but has type %s", what, t ? ts(t, &tb) : "?");
  if (trank(t) > VS_MAX_RANK)
    return VS_ERR("%s has rank %d; ranks above %d are not supported", what, (int)trank(t),
                  VS_MAX_RANK);
  return NULL;
}

static kiln_status need_rank(vs_ctx *ctx, const kiln_op *op, const kiln_type *t,
                             const char *what, int32_t rank) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, t, what));
  vs_tbuf tb;
  if (trank(t) != rank)
    return VS_ERR("%s has type %s, but must be a %d-dimensional tensor", what, ts(t, &tb),
                  (int)rank);
  return NULL;
}

/* Operands [first, first + count) are tensors named base[0], base[1], ... */
static kiln_status need_operand_tensors(vs_ctx *ctx, const kiln_op *op, int32_t first,
                                        int32_t count, const char *base) {
  for (int32_t i = 0; i < count; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, otype(op, first + i), nm(&b, base, i)));
  }
  return NULL;
}

static kiln_status need_result_tensors(vs_ctx *ctx, const kiln_op *op, const char *base) {
  for (int32_t i = 0; i < op->num_results; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rtype(op, i), nm(&b, base, i)));
  }
  return NULL;
}

static kiln_status need_variadic(vs_ctx *ctx, const kiln_op *op, int32_t n) {
  if (n > VS_MAX_VARIADIC)
    return VS_ERR("has %d inputs; at most %d are supported", (int)n, VS_MAX_VARIADIC);
  return NULL;
}

/* No operand or result is per-axis quantized: the spec allows only per-tensor quantized
 * tensors for this op. */
static kiln_status need_per_tensor_quant(vs_ctx *ctx, const kiln_op *op) {
  vs_tbuf tb;
  for (int32_t i = 0; i < op->num_operands + op->num_results; i++) {
    bool is_operand = i < op->num_operands;
    const kiln_type *t = is_operand ? otype(op, i) : rtype(op, i - op->num_operands);
    if (t && t->kind == KILN_TYPE_TENSOR && is_per_axis(telem(t)))
      return VS_ERR("%s #%d has type %s, but only per-tensor quantization is allowed here",
                    is_operand ? "operand" : "result",
                    (int)(is_operand ? i : i - op->num_operands), ts(t, &tb));
  }
  return NULL;
}

static bool shapes_compat(const kiln_type *a, const kiln_type *b) {
  if (trank(a) != trank(b)) return false;
  for (int32_t i = 0; i < trank(a); i++)
    if (!kiln_verify_dims_compatible(tdim(a, i), tdim(b, i))) return false;
  return true;
}

/* t (a tensor named what) has the shape expect[0..n). */
static kiln_status check_shape(vs_ctx *ctx, const kiln_op *op, const char *what,
                               const kiln_type *t, const int64_t *expect, int32_t n,
                               const char *rule) {
  bool ok = trank(t) == n;
  for (int32_t i = 0; ok && i < n; i++) ok = kiln_verify_dims_compatible(tdim(t, i), expect[i]);
  if (ok) return NULL;
  vs_tbuf tb;
  char sb[256];
  return VS_ERR("%s has type %s, but %s gives the shape %s", what, ts(t, &tb), rule,
                shape_str(expect, n, sb, sizeof sb));
}

/* t has the same shape as ref (both tensors). */
static kiln_status check_same_shape(vs_ctx *ctx, const kiln_op *op, const char *what,
                                    const kiln_type *t, const char *ref_what,
                                    const kiln_type *ref) {
  if (shapes_compat(t, ref)) return NULL;
  vs_tbuf a, b;
  return VS_ERR("%s has type %s, whose shape differs from that of %s (%s)", what, ts(t, &a),
                ref_what, ts(ref, &b));
}

/* The element type of t (named what) is compatible with that of ref. */
static kiln_status check_same_elem(vs_ctx *ctx, const kiln_op *op, const char *what,
                                   const kiln_type *t, const char *ref_what,
                                   const kiln_type *ref) {
  if (elem_compat(telem(t), telem(ref))) return NULL;
  vs_tbuf a, b;
  return VS_ERR("%s has type %s, whose element type differs from that of %s (%s)", what,
                ts(t, &a), ref_what, ts(ref, &b));
}

/* ================================================================ attributes */

typedef struct vs_list {
  int64_t n;
  int64_t v[VS_MAX_LIST];
  bool present;
} vs_list;

static bool list_push(vs_list *l, int64_t v) {
  if (l->n >= VS_MAX_LIST) return false;
  l->v[l->n++] = v;
  return true;
}

typedef enum vs_lr { VS_LR_OK, VS_LR_NOT_LIST, VS_LR_TOO_LONG } vs_lr;

/* Appends the integers of a (integer list of any spelling, a BOOL, or an ARRAY of those
 * with one level of nesting) to l. */
static vs_lr list_append(vs_list *l, const kiln_attr *a, int depth) {
  if (a->kind == KILN_ATTR_BOOL) return list_push(l, a->b) ? VS_LR_OK : VS_LR_TOO_LONG;
  if (a->kind == KILN_ATTR_ARRAY) {
    for (int32_t i = 0; i < a->array.count; i++) {
      const kiln_attr *item = a->array.items[i];
      bool nested = item->kind == KILN_ATTR_ARRAY;
      if (nested && depth > 0) return VS_LR_NOT_LIST;
      if (!nested && item->kind != KILN_ATTR_INT && item->kind != KILN_ATTR_BOOL)
        return VS_LR_NOT_LIST;
      vs_lr r = list_append(l, item, depth + 1);
      if (r != VS_LR_OK) return r;
    }
    return VS_LR_OK;
  }
  int64_t count = kiln_attr_count(a);
  if (count < 0) return VS_LR_NOT_LIST;
  for (int64_t i = 0; i < count; i++) {
    int64_t v = 0;
    if (!kiln_attr_i64_at(a, i, &v)) return VS_LR_NOT_LIST;
    if (!list_push(l, v)) return VS_LR_TOO_LONG;
  }
  return VS_LR_OK;
}

/* Reads an integer list attribute named name (absent: empty, present = false). */
static kiln_status read_list(vs_ctx *ctx, const kiln_op *op, const kiln_attr *a,
                             const char *name, vs_list *l) {
  l->n = 0;
  l->present = a != NULL;
  if (!a) return NULL;
  switch (list_append(l, a, 0)) {
    case VS_LR_OK: return NULL;
    case VS_LR_NOT_LIST: return VS_ERR("attribute %s must be a list of integers", name);
    case VS_LR_TOO_LONG: break;
  }
  return VS_ERR("attribute %s has more than %d entries, which is not supported", name,
                VS_MAX_LIST);
}

static kiln_status op_list(vs_ctx *ctx, const kiln_op *op, const char *name, vs_list *l) {
  return read_list(ctx, op, kiln_op_attr(op, name), name, l);
}

/* A list field of a structured attribute s (NULL: an empty list). */
static kiln_status field_list(vs_ctx *ctx, const kiln_op *op, const kiln_attr *s,
                              const char *name, vs_list *l) {
  return read_list(ctx, op, s ? kiln_attr_get(s, name) : NULL, name, l);
}

/* An integer attribute (absent: dflt). */
static kiln_status read_int(vs_ctx *ctx, const kiln_op *op, const kiln_attr *a,
                            const char *name, int64_t dflt, int64_t *out) {
  *out = dflt;
  if (!a) return NULL;
  if (a->kind == KILN_ATTR_BOOL) {
    *out = a->b;
    return NULL;
  }
  if (kiln_attr_count(a) != 1 || !kiln_attr_i64_at(a, 0, out))
    return VS_ERR("attribute %s must be an integer", name);
  return NULL;
}

static kiln_status op_int(vs_ctx *ctx, const kiln_op *op, const char *name, int64_t dflt,
                          int64_t *out) {
  return read_int(ctx, op, kiln_op_attr(op, name), name, dflt, out);
}

/* An integer field of a structured attribute (absent: 0, as MLIR's parsers default it). */
static kiln_status field_int(vs_ctx *ctx, const kiln_op *op, const kiln_attr *s,
                             const char *name, int64_t *out) {
  return read_int(ctx, op, s ? kiln_attr_get(s, name) : NULL, name, 0, out);
}

static bool op_bool(const kiln_op *op, const char *name, bool dflt) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return dflt;
  if (a->kind == KILN_ATTR_BOOL) return a->b;
  if (a->kind == KILN_ATTR_UNIT) return true;
  int64_t v = 0;
  return kiln_attr_i64_at(a, 0, &v) ? v != 0 : dflt;
}

/* The keyword of an enum attribute ("FFT"), or NULL. */
static const char *enum_value(const kiln_attr *a) {
  return a && a->kind == KILN_ATTR_ENUM ? a->enumv.value : NULL;
}

static bool str_is(const char *s, const char *t) { return s && strcmp(s, t) == 0; }

/* precision_config: at most two entries, each DEFAULT, HIGH or HIGHEST. */
static kiln_status check_precision_config(vs_ctx *ctx, const kiln_op *op) {
  const kiln_attr *a = kiln_op_attr(op, "precision_config");
  if (!a) return NULL;
  if (a->kind != KILN_ATTR_ARRAY) return VS_ERR("attribute precision_config must be an array");
  if (a->array.count > 2)
    return VS_ERR("precision_config has %d entries, but must have at most 2 (one per operand)",
                  (int)a->array.count);
  for (int32_t i = 0; i < a->array.count; i++) {
    const char *v = enum_value(a->array.items[i]);
    if (!str_is(v, "DEFAULT") && !str_is(v, "HIGH") && !str_is(v, "HIGHEST"))
      return VS_ERR("precision_config[%d] must be one of DEFAULT, HIGH and HIGHEST", (int)i);
  }
  return NULL;
}

/* The integers of a constant operand (defined by stablehlo.constant); false if unknown. */
static bool const_operand_list(const kiln_op *op, int32_t i, vs_list *l) {
  const kiln_op *def = op->operands[i]->def;
  l->n = 0;
  if (!def || def->kind != KILN_OP_CONSTANT) return false;
  const kiln_attr *v = kiln_op_attr(def, "value");
  if (!v && def->num_attrs > 0) v = def->attrs[0].value;
  if (!v || v->kind != KILN_ATTR_DENSE) return false;
  return list_append(l, v, 0) == VS_LR_OK;
}

/* ================================================================ dimension lists */

/* Every entry of l lies in [0, bound). */
static kiln_status check_in_range(vs_ctx *ctx, const kiln_op *op, const char *name,
                                  const vs_list *l, int64_t bound, const char *bound_what) {
  for (int64_t i = 0; i < l->n; i++)
    if (l->v[i] < 0 || l->v[i] >= bound)
      return VS_ERR("%s[%d] = %" PRId64 " is out of range for %s %" PRId64, name, (int)i,
                    l->v[i], bound_what, bound);
  return NULL;
}

/* The concatenation of a and b (b may be NULL) has no repeated entry. */
static kiln_status check_unique(vs_ctx *ctx, const kiln_op *op, const char *na,
                                const vs_list *a, const char *nb, const vs_list *b) {
  int64_t total = a->n + (b ? b->n : 0);
  for (int64_t j = 1; j < total; j++)
    for (int64_t i = 0; i < j; i++) {
      const char *n1 = i < a->n ? na : nb, *n2 = j < a->n ? na : nb;
      int64_t i1 = i < a->n ? i : i - a->n, i2 = j < a->n ? j : j - a->n;
      int64_t v1 = i < a->n ? a->v[i] : b->v[i1], v2 = j < a->n ? a->v[j] : b->v[i2];
      if (v1 == v2)
        return VS_ERR("%s[%d] = %" PRId64 " repeats %s[%d]; dimensions must be unique", n2,
                      (int)i2, v2, n1, (int)i1);
    }
  return NULL;
}

static kiln_status check_sorted(vs_ctx *ctx, const kiln_op *op, const char *name,
                                const vs_list *l) {
  for (int64_t i = 1; i < l->n; i++)
    if (l->v[i] < l->v[i - 1])
      return VS_ERR("%s must be sorted, but %s[%d] = %" PRId64 " follows %" PRId64, name, name,
                    (int)i, l->v[i], l->v[i - 1]);
  return NULL;
}

static bool list_has(const vs_list *l, int64_t v) {
  for (int64_t i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* Named single dimension numbers and lists, checked together (convolution layouts). */
typedef struct vs_dimref {
  const char *name;
  int32_t index; /* -1 for a scalar field */
  int64_t value;
} vs_dimref;

typedef struct vs_dimset {
  int32_t n;
  vs_dimref r[VS_MAX_LIST + 2];
} vs_dimset;

static void dimset_add(vs_dimset *s, const char *name, int32_t index, int64_t value) {
  if (s->n < (int32_t)(sizeof s->r / sizeof s->r[0])) s->r[s->n++] = (vs_dimref){name, index, value};
}

static const char *dimref_name(const vs_dimref *r, vs_name *b) {
  if (r->index < 0) return r->name;
  return nm(b, r->name, r->index);
}

/* Every entry in [0, rank) and no entry repeated. */
static kiln_status check_dimset(vs_ctx *ctx, const kiln_op *op, const vs_dimset *s,
                                int64_t rank, const char *rank_what) {
  vs_name b1, b2;
  for (int32_t i = 0; i < s->n; i++)
    if (s->r[i].value < 0 || s->r[i].value >= rank)
      return VS_ERR("%s = %" PRId64 " is out of range for %s %" PRId64,
                    dimref_name(&s->r[i], &b1), s->r[i].value, rank_what, rank);
  for (int32_t j = 1; j < s->n; j++)
    for (int32_t i = 0; i < j; i++)
      if (s->r[i].value == s->r[j].value)
        return VS_ERR("%s = %" PRId64 " repeats %s; dimension numbers must be unique",
                      dimref_name(&s->r[j], &b1), s->r[j].value, dimref_name(&s->r[i], &b2));
  return NULL;
}

/* ================================================================ regions */

typedef struct vs_region {
  const char *name;
  const kiln_block *block;
  const kiln_op *ret;
} vs_region;

/* Region index of op has one block with num_args arguments ending in a stablehlo.return
 * of num_rets values (num_rets < 0: any number). */
static kiln_status get_region(vs_ctx *ctx, const kiln_op *op, int32_t index, const char *name,
                              int32_t num_args, int32_t num_rets, vs_region *r) {
  r->name = name;
  r->block = index < op->num_regions ? kiln_op_block(op, index) : NULL;
  if (!r->block) return VS_ERR("the %s region is missing or empty", name);
  if (r->block->num_args != num_args)
    return VS_ERR("the %s region takes %d argument(s), but must take %d", name,
                  (int)r->block->num_args, (int)num_args);
  r->ret = kiln_block_terminator(r->block);
  if (!r->ret || r->ret->kind != KILN_OP_RETURN)
    return VS_ERR("the %s region must end with stablehlo.return", name);
  if (num_rets >= 0 && r->ret->num_operands != num_rets)
    return VS_ERR("the %s region returns %d value(s), but must return %d", name,
                  (int)r->ret->num_operands, (int)num_rets);
  return NULL;
}

static kiln_status need_scalar_tensor(vs_ctx *ctx, const kiln_op *op, const kiln_type *t,
                                      const char *what) {
  vs_tbuf tb;
  if (!t || t->kind != KILN_TYPE_TENSOR || trank(t) != 0)
    return VS_ERR("%s has type %s, but must be a 0-dimensional tensor", what,
                  t ? ts(t, &tb) : "?");
  return NULL;
}

/* A block argument or returned value of a region, which must be a ranked tensor. */
static kiln_status region_value(vs_ctx *ctx, const kiln_op *op, const vs_region *r, bool ret,
                                int32_t i, const kiln_type **out) {
  char what[96];
  snprintf(what, sizeof what, "%s region %s #%d", r->name, ret ? "return value" : "argument",
           (int)i);
  *out = ret ? r->ret->operands[i]->type : r->block->args[i].type;
  return need_tensor(ctx, op, *out, what);
}

/* The element type of a region value that must be a 0-d tensor. */
static kiln_status region_scalar(vs_ctx *ctx, const kiln_op *op, const vs_region *r, bool ret,
                                 int32_t i, const kiln_type **out_elem) {
  const kiln_type *t = NULL;
  KILN_RETURN_IF_ERROR(region_value(ctx, op, r, ret, i, &t));
  vs_tbuf tb;
  if (trank(t) != 0)
    return VS_ERR("%s region %s #%d has type %s, but must be a 0-dimensional tensor", r->name,
                  ret ? "return value" : "argument", (int)i, ts(t, &tb));
  *out_elem = telem(t);
  return NULL;
}

/* The region returns one tensor<i1> (select, comparator). */
static kiln_status check_predicate_ret(vs_ctx *ctx, const kiln_op *op, const vs_region *r) {
  const kiln_type *ret = NULL;
  KILN_RETURN_IF_ERROR(region_scalar(ctx, op, r, true, 0, &ret));
  vs_tbuf tb;
  if (!elem_is(ret, KILN_ELEM_I1))
    return VS_ERR("%s region returns %s, but must return tensor<i1>", r->name,
                  ts(r->ret->operands[0]->type, &tb));
  return NULL;
}

/* A reduction body and the operands it folds. */
typedef struct vs_reducer {
  int32_t region;
  const char *name;
  int32_t n;                /* number of accumulators */
  int32_t in_base;          /* operands in_base + i: the values folded in */
  int32_t init_base;        /* operands init_base + i: the initial values */
  bool init_elem_only;      /* only the init operands' element types matter (scatter) */
  const int64_t *allowed;   /* dimensions a value argument may keep (reduce, reduce_window) */
  int32_t num_allowed;
} vs_reducer;

/* The dimensions of b are a subsequence (up to `?`) of allowed[0..n). */
static bool fits_allowed(const kiln_type *b, const int64_t *allowed, int32_t n) {
  int32_t k = 0;
  for (int32_t j = 0; j < n && k < trank(b); j++)
    if (kiln_verify_dims_compatible(allowed[j], tdim(b, k))) k++;
  return k == trank(b);
}

/* Argument #(index) of the body has the type ret of the accumulator it stands for. */
static kiln_status check_acc_arg(vs_ctx *ctx, const kiln_op *op, const vs_region *r,
                                 int32_t index, int32_t acc, bool ignore_fp) {
  const kiln_type *a = NULL, *ret;
  KILN_RETURN_IF_ERROR(region_value(ctx, op, r, false, index, &a));
  KILN_RETURN_IF_ERROR(region_value(ctx, op, r, true, acc, &ret));
  bool same_elem = ignore_fp ? elem_compat_fp(telem(a), telem(ret))
                             : elem_compat(telem(a), telem(ret));
  if (shapes_compat(a, ret) && same_elem) return NULL;
  vs_tbuf t1, t2;
  return VS_ERR("%s region argument #%d has type %s, but the region returns %s as value #%d",
                r->name, (int)index, ts(a, &t1), ts(ret, &t2), (int)acc);
}

/* Operand k's element type (from) is promotable to to, a region value named what. */
static kiln_status check_promotable(vs_ctx *ctx, const kiln_op *op, int32_t k,
                                    const kiln_type *to, const char *what) {
  const kiln_type *from = telem(otype(op, k));
  if (elem_promotable(from, telem(to))) return NULL;
  vs_tbuf t1, t2;
  return VS_ERR("operand #%d has element type %s, which is not promotable to %s, the element "
                "type of %s",
                (int)k, ts(from, &t1), ts(telem(to), &t2), what);
}

/* Accumulator i: init value -> return value i <- arguments i and n + i <- input value. */
static kiln_status check_reducer_acc(vs_ctx *ctx, const kiln_op *op, const vs_reducer *rd,
                                     const vs_region *r, int32_t i) {
  const kiln_type *ret = NULL, *b, *init = otype(op, rd->init_base + i);
  KILN_RETURN_IF_ERROR(region_value(ctx, op, r, true, i, &ret));
  KILN_RETURN_IF_ERROR(check_acc_arg(ctx, op, r, i, i, false));
  KILN_RETURN_IF_ERROR(check_acc_arg(ctx, op, r, rd->n + i, i, true));
  b = r->block->args[rd->n + i].type;
  vs_tbuf t1, t2;
  if (!rd->init_elem_only && !shapes_compat(init, ret))
    return VS_ERR("operand #%d has type %s, whose shape differs from %s, the type the %s region "
                  "returns as value #%d",
                  (int)(rd->init_base + i), ts(init, &t1), ts(ret, &t2), rd->name, (int)i);
  char what[96];
  snprintf(what, sizeof what, "%s region return value #%d", rd->name, (int)i);
  KILN_RETURN_IF_ERROR(check_promotable(ctx, op, rd->init_base + i, ret, what));
  snprintf(what, sizeof what, "%s region argument #%d", rd->name, (int)(rd->n + i));
  KILN_RETURN_IF_ERROR(check_promotable(ctx, op, rd->in_base + i, b, what));
  if (!fits_allowed(b, rd->allowed, rd->num_allowed))
    return VS_ERR("%s region argument #%d has type %s, but must be a 0-dimensional tensor%s",
                  rd->name, (int)(rd->n + i), ts(b, &t1),
                  rd->num_allowed ? " (or keep only result dimensions)" : "");
  return NULL;
}

/* A body (T0, ..., Tn-1, T0, ..., Tn-1) -> (T0, ..., Tn-1); acc[i] gets the element type
 * E_i of return value i. The spec's tensors are 0-d; like the reference, bodies over
 * slices are accepted when the init values have the same shape. */
static kiln_status check_reducer(vs_ctx *ctx, const kiln_op *op, const vs_reducer *rd,
                                 const kiln_type **acc) {
  vs_region r;
  KILN_RETURN_IF_ERROR(get_region(ctx, op, rd->region, rd->name, 2 * rd->n, rd->n, &r));
  for (int32_t i = 0; i < rd->n; i++) {
    KILN_RETURN_IF_ERROR(check_reducer_acc(ctx, op, rd, &r, i));
    acc[i] = telem(r.ret->operands[i]->type);
  }
  return NULL;
}

/* Result i's element type is the body's accumulator type acc[i]. */
static kiln_status check_results_acc(vs_ctx *ctx, const kiln_op *op, const kiln_type **acc,
                                     const char *region) {
  for (int32_t i = 0; i < op->num_results; i++) {
    if (elem_compat(telem(rtype(op, i)), acc[i])) continue;
    vs_tbuf t1, t2;
    return VS_ERR("results[%d] has type %s, but its element type must be %s, the type the %s "
                  "region returns",
                  (int)i, ts(rtype(op, i), &t1), ts(acc[i], &t2), region);
  }
  return NULL;
}

/* ================================================================ windows */

typedef struct vs_window {
  int32_t n;
  int64_t size[VS_MAX_LIST], stride[VS_MAX_LIST], lhs_dil[VS_MAX_LIST], rhs_dil[VS_MAX_LIST];
  int64_t lo[VS_MAX_LIST], hi[VS_MAX_LIST];
  bool padding_known;
} vs_window;

typedef struct vs_window_attrs {
  const char *strides, *lhs_dil, *rhs_dil, *padding, *reversal; /* NULL: not an attribute */
} vs_window_attrs;

/* A per-dimension list attribute of n entries, each positive; absent: all 1. */
static kiln_status read_window_factor(vs_ctx *ctx, const kiln_op *op, const char *name,
                                      int32_t n, int64_t *out) {
  for (int32_t i = 0; i < n; i++) out[i] = 1;
  if (!name) return NULL;
  vs_list l;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, name, &l));
  if (!l.present) return NULL;
  if (l.n != n)
    return VS_ERR("%s has %d entries, but must have one per window dimension (%d)", name,
                  (int)l.n, (int)n);
  for (int32_t i = 0; i < n; i++) {
    if (l.v[i] <= 0)
      return VS_ERR("%s[%d] = %" PRId64 " must be positive", name, (int)i, l.v[i]);
    out[i] = l.v[i];
  }
  return NULL;
}

/* Padding pairs from a list of 2n integers. */
static void window_set_padding(vs_window *w, const vs_list *l) {
  for (int32_t i = 0; i < w->n; i++) {
    w->lo[i] = l->v[2 * i];
    w->hi[i] = l->v[2 * i + 1];
  }
  w->padding_known = true;
}

/* The padding attribute: an [n, 2] integer tensor (absent: no padding). */
static kiln_status read_window_padding(vs_ctx *ctx, const kiln_op *op, const char *name,
                                       vs_window *w) {
  for (int32_t i = 0; i < w->n; i++) w->lo[i] = w->hi[i] = 0;
  w->padding_known = true;
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return NULL;
  vs_list l;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, a, name, &l));
  const kiln_type *t = a->kind == KILN_ATTR_DENSE ? a->type : NULL;
  bool shape_ok = !t || t->kind != KILN_TYPE_TENSOR || l.n == 0 ||
                  (trank(t) == 2 && tdim(t, 1) == 2);
  if (!shape_ok || l.n != 2 * (int64_t)w->n)
    return VS_ERR("%s must have shape [%d, 2] (a (low, high) pair per window dimension), but "
                  "has %d entries",
                  name, (int)w->n, (int)l.n);
  window_set_padding(w, &l);
  return NULL;
}

/* Reads the window attributes of op for a window of w->n dimensions (w->size set). */
static kiln_status read_window(vs_ctx *ctx, const kiln_op *op, const vs_window_attrs *names,
                               vs_window *w) {
  KILN_RETURN_IF_ERROR(read_window_factor(ctx, op, names->strides, w->n, w->stride));
  KILN_RETURN_IF_ERROR(read_window_factor(ctx, op, names->lhs_dil, w->n, w->lhs_dil));
  KILN_RETURN_IF_ERROR(read_window_factor(ctx, op, names->rhs_dil, w->n, w->rhs_dil));
  if (names->padding) KILN_RETURN_IF_ERROR(read_window_padding(ctx, op, names->padding, w));
  if (names->reversal) {
    vs_list l;
    KILN_RETURN_IF_ERROR(op_list(ctx, op, names->reversal, &l));
    if (l.present && l.n != w->n)
      return VS_ERR("%s has %d entries, but must have one per window dimension (%d)",
                    names->reversal, (int)l.n, (int)w->n);
  }
  return NULL;
}

/* (d - 1) * k + 1, or 0 for d = 0; false on overflow. */
static bool dilate(int64_t d, int64_t k, int64_t *out) {
  if (d == 0) {
    *out = 0;
    return true;
  }
  int64_t m = 0;
  if (__builtin_mul_overflow(d - 1, k, &m)) return false;
  return !__builtin_add_overflow(m, 1, out);
}

/* Number of window positions along dimension i for an input of size in (num_windows of
 * the spec); false on overflow. */
static bool window_count(const vs_window *w, int32_t i, int64_t in, int64_t *out) {
  if (is_dyn(in) || is_dyn(w->size[i]) || !w->padding_known) {
    *out = VS_DYN;
    return true;
  }
  int64_t base = 0, win = 0, padded = 0;
  if (!dilate(in, w->lhs_dil[i], &base) || !dilate(w->size[i], w->rhs_dil[i], &win))
    return false;
  if (__builtin_add_overflow(base, w->lo[i], &padded) ||
      __builtin_add_overflow(padded, w->hi[i], &padded))
    return false;
  *out = (padded <= 0 || win > padded) ? 0 : (padded - win) / w->stride[i] + 1;
  return true;
}

/* out[i] = window_count for input dims in[i]. */
static kiln_status window_shape(vs_ctx *ctx, const kiln_op *op, const vs_window *w,
                                const int64_t *in, int64_t *out) {
  for (int32_t i = 0; i < w->n; i++)
    if (!window_count(w, i, in[i], &out[i]))
      return VS_ERR("window dimension %d: the window arithmetic overflows 64 bits", (int)i);
  return NULL;
}

/* The window_dimensions attribute: one positive entry per dimension of rank. */
static kiln_status read_window_dims(vs_ctx *ctx, const kiln_op *op, int32_t rank,
                                    const char *rank_what, vs_window *w) {
  vs_list l;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "window_dimensions", &l));
  if (l.n != rank)
    return VS_ERR("window_dimensions has %d entries, but must have one per dimension of %s "
                  "(rank %d)",
                  (int)l.n, rank_what, (int)rank);
  w->n = rank;
  for (int32_t i = 0; i < rank; i++) {
    if (l.v[i] <= 0)
      return VS_ERR("window_dimensions[%d] = %" PRId64 " must be positive", (int)i, l.v[i]);
    w->size[i] = l.v[i];
  }
  return NULL;
}

/* ================================================================ reduce */

/* Operands: n inputs then n init values (0-d in the spec; the reference also takes init
 * values shaped like the body's slices); n results. */
static kiln_status check_inputs_inits(vs_ctx *ctx, const kiln_op *op, int32_t *n_out) {
  int32_t n = op->num_operands / 2;
  if (op->num_operands % 2 != 0 || n == 0 || op->num_results != n)
    return VS_ERR("expects N inputs, N init_values and N results with N > 0, but has %d "
                  "operand(s) and %d result(s)",
                  (int)op->num_operands, (int)op->num_results);
  KILN_RETURN_IF_ERROR(need_variadic(ctx, op, n));
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, 0, n, "inputs"));
  for (int32_t i = 0; i < n; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, otype(op, n + i), nm(&b, "init_values", i)));
    if (i > 0)
      KILN_RETURN_IF_ERROR(check_same_shape(ctx, op, nm(&b, "inputs", i), otype(op, i),
                                            "inputs[0]", otype(op, 0)));
  }
  *n_out = n;
  return need_result_tensors(ctx, op, "results");
}

static kiln_status verify_reduce(vs_ctx *ctx, const kiln_op *op) {
  int32_t n = 0;
  KILN_RETURN_IF_ERROR(check_inputs_inits(ctx, op, &n));
  const kiln_type *in = otype(op, 0);
  vs_list dims;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "dimensions", &dims));
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "dimensions", &dims, trank(in), "input rank"));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "dimensions", &dims, NULL, NULL));
  int64_t shape[VS_MAX_RANK];
  int32_t r = 0;
  for (int32_t d = 0; d < trank(in); d++)
    if (!list_has(&dims, d)) shape[r++] = tdim(in, d);
  const kiln_type *acc[VS_MAX_VARIADIC];
  vs_reducer rd = {0, "body", n, 0, n, false, shape, r};
  KILN_RETURN_IF_ERROR(check_reducer(ctx, op, &rd, acc));
  for (int32_t i = 0; i < n; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(check_shape(ctx, op, nm(&b, "results", i), rtype(op, i), shape, r,
                                     "removing the reduced dimensions from the inputs"));
  }
  return check_results_acc(ctx, op, acc, "body");
}

static kiln_status verify_reduce_window(vs_ctx *ctx, const kiln_op *op) {
  int32_t n = 0;
  KILN_RETURN_IF_ERROR(check_inputs_inits(ctx, op, &n));
  const kiln_type *in = otype(op, 0);
  vs_window w;
  KILN_RETURN_IF_ERROR(read_window_dims(ctx, op, trank(in), "the inputs", &w));
  static const vs_window_attrs names = {"window_strides", "base_dilations", "window_dilations",
                                        "padding", NULL};
  KILN_RETURN_IF_ERROR(read_window(ctx, op, &names, &w));
  const kiln_type *acc[VS_MAX_VARIADIC];
  vs_reducer rd = {0, "body", n, 0, n, false, w.size, w.n};
  KILN_RETURN_IF_ERROR(check_reducer(ctx, op, &rd, acc));
  int64_t shape[VS_MAX_RANK];
  KILN_RETURN_IF_ERROR(window_shape(ctx, op, &w, in->tensor.dims, shape));
  for (int32_t i = 0; i < n; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(check_shape(ctx, op, nm(&b, "results", i), rtype(op, i), shape, w.n,
                                     "the window over the inputs"));
  }
  return check_results_acc(ctx, op, acc, "body");
}

/* select: (tensor<E>, tensor<E>) -> tensor<i1> with E the operand's element type. */
static kiln_status check_select_region(vs_ctx *ctx, const kiln_op *op, const kiln_type *e) {
  vs_region r;
  KILN_RETURN_IF_ERROR(get_region(ctx, op, 0, "select", 2, 1, &r));
  vs_tbuf t1, t2;
  for (int32_t i = 0; i < 2; i++) {
    const kiln_type *a = NULL;
    KILN_RETURN_IF_ERROR(region_scalar(ctx, op, &r, false, i, &a));
    if (!elem_compat_fp(a, e))
      return VS_ERR("select region argument #%d has element type %s, but must have the "
                    "operand's element type %s",
                    (int)i, ts(a, &t1), ts(e, &t2));
  }
  return check_predicate_ret(ctx, op, &r);
}

static kiln_status verify_select_and_scatter(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 3, 1));
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  const kiln_type *operand = otype(op, 0), *source = otype(op, 1);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, operand, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, source, "source"));
  KILN_RETURN_IF_ERROR(need_scalar_tensor(ctx, op, otype(op, 2), "init_value"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rtype(op, 0), "result"));
  KILN_RETURN_IF_ERROR(check_select_region(ctx, op, telem(operand)));
  const kiln_type *acc[1];
  vs_reducer rd = {1, "scatter", 1, 1, 2, false, NULL, 0};
  KILN_RETURN_IF_ERROR(check_reducer(ctx, op, &rd, acc));
  vs_window w;
  KILN_RETURN_IF_ERROR(read_window_dims(ctx, op, trank(operand), "operand", &w));
  static const vs_window_attrs names = {"window_strides", NULL, NULL, "padding", NULL};
  KILN_RETURN_IF_ERROR(read_window(ctx, op, &names, &w));
  int64_t shape[VS_MAX_RANK];
  KILN_RETURN_IF_ERROR(window_shape(ctx, op, &w, operand->tensor.dims, shape));
  KILN_RETURN_IF_ERROR(check_shape(ctx, op, "source", source, shape, w.n,
                                   "the window over the operand"));
  vs_tbuf t1, t2;
  if (!elem_compat_fp(telem(source), telem(operand)))
    return VS_ERR("source has type %s, whose element type differs from that of operand (%s)",
                  ts(source, &t1), ts(operand, &t2));
  KILN_RETURN_IF_ERROR(check_same_shape(ctx, op, "result", rtype(op, 0), "operand", operand));
  return check_results_acc(ctx, op, acc, "scatter");
}

/* ================================================================ convolution */

typedef struct vs_conv {
  const kiln_type *lhs, *rhs, *res;
  int64_t in_b, in_f, k_in, k_out, out_b, out_f, fgc, bgc;
  vs_list in_s, k_s, out_s;
} vs_conv;

static kiln_status read_conv_dims(vs_ctx *ctx, const kiln_op *op, vs_conv *c) {
  const kiln_attr *s = kiln_op_attr(op, "dimension_numbers");
  if (!s) return VS_ERR("attribute dimension_numbers is missing");
  KILN_RETURN_IF_ERROR(field_int(ctx, op, s, "input_batch_dimension", &c->in_b));
  KILN_RETURN_IF_ERROR(field_int(ctx, op, s, "input_feature_dimension", &c->in_f));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "input_spatial_dimensions", &c->in_s));
  KILN_RETURN_IF_ERROR(field_int(ctx, op, s, "kernel_input_feature_dimension", &c->k_in));
  KILN_RETURN_IF_ERROR(field_int(ctx, op, s, "kernel_output_feature_dimension", &c->k_out));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "kernel_spatial_dimensions", &c->k_s));
  KILN_RETURN_IF_ERROR(field_int(ctx, op, s, "output_batch_dimension", &c->out_b));
  KILN_RETURN_IF_ERROR(field_int(ctx, op, s, "output_feature_dimension", &c->out_f));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "output_spatial_dimensions", &c->out_s));
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "feature_group_count", 1, &c->fgc));
  return op_int(ctx, op, "batch_group_count", 1, &c->bgc);
}

/* Each spatial list has N - 2 entries; each layout is a permutation-compatible set of
 * unique dimensions below N. */
static kiln_status check_conv_layout(vs_ctx *ctx, const kiln_op *op, const vs_conv *c) {
  int32_t n = trank(c->lhs);
  const vs_list *lists[3] = {&c->in_s, &c->k_s, &c->out_s};
  static const char *names[3] = {"input_spatial_dimensions", "kernel_spatial_dimensions",
                                 "output_spatial_dimensions"};
  for (int k = 0; k < 3; k++)
    if (lists[k]->n != n - 2)
      return VS_ERR("%s has %d entries, but operands of rank %d have %d spatial dimensions",
                    names[k], (int)lists[k]->n, (int)n, (int)(n - 2));
  vs_dimset in = {0}, ker = {0}, out = {0};
  dimset_add(&in, "input_batch_dimension", -1, c->in_b);
  dimset_add(&ker, "kernel_input_feature_dimension", -1, c->k_in);
  dimset_add(&out, "output_batch_dimension", -1, c->out_b);
  for (int32_t i = 0; i < n - 2; i++) {
    dimset_add(&in, names[0], i, c->in_s.v[i]);
    dimset_add(&ker, names[1], i, c->k_s.v[i]);
    dimset_add(&out, names[2], i, c->out_s.v[i]);
  }
  dimset_add(&in, "input_feature_dimension", -1, c->in_f);
  dimset_add(&ker, "kernel_output_feature_dimension", -1, c->k_out);
  dimset_add(&out, "output_feature_dimension", -1, c->out_f);
  KILN_RETURN_IF_ERROR(check_dimset(ctx, op, &in, n, "lhs rank"));
  KILN_RETURN_IF_ERROR(check_dimset(ctx, op, &ker, n, "rhs rank"));
  return check_dimset(ctx, op, &out, n, "result rank");
}

/* The group counts and the feature and batch sizes they divide. */
static kiln_status check_conv_groups(vs_ctx *ctx, const kiln_op *op, const vs_conv *c) {
  if (c->fgc <= 0)
    return VS_ERR("feature_group_count = %" PRId64 " must be positive", c->fgc);
  if (c->bgc <= 0) return VS_ERR("batch_group_count = %" PRId64 " must be positive", c->bgc);
  if (c->fgc > 1 && c->bgc > 1)
    return VS_ERR("feature_group_count (%" PRId64 ") and batch_group_count (%" PRId64
                  ") must not both exceed 1",
                  c->fgc, c->bgc);
  int64_t batch = tdim(c->lhs, (int32_t)c->in_b), feat = tdim(c->lhs, (int32_t)c->in_f);
  int64_t k_in = tdim(c->rhs, (int32_t)c->k_in), k_out = tdim(c->rhs, (int32_t)c->k_out);
  if (!is_dyn(batch) && batch % c->bgc != 0)
    return VS_ERR("lhs batch dimension size %" PRId64
                  " must be divisible by batch_group_count (%" PRId64 ")",
                  batch, c->bgc);
  if (!is_dyn(feat) && feat % c->fgc != 0)
    return VS_ERR("lhs feature dimension size %" PRId64
                  " must be divisible by feature_group_count (%" PRId64 ")",
                  feat, c->fgc);
  if (!is_dyn(feat) && !is_dyn(k_in) && feat / c->fgc != k_in)
    return VS_ERR("rhs kernel input feature dimension size %" PRId64
                  " must equal the lhs feature dimension size %" PRId64
                  " divided by feature_group_count (%" PRId64 ")",
                  k_in, feat, c->fgc);
  if (!is_dyn(k_out) && k_out % c->bgc != 0)
    return VS_ERR("rhs kernel output feature dimension size %" PRId64
                  " must be divisible by batch_group_count (%" PRId64 ")",
                  k_out, c->bgc);
  if (!is_dyn(k_out) && k_out % c->fgc != 0)
    return VS_ERR("rhs kernel output feature dimension size %" PRId64
                  " must be divisible by feature_group_count (%" PRId64 ")",
                  k_out, c->fgc);
  return NULL;
}

/* Quantization rules shared by convolution and dot_general. */
static kiln_status check_conv_dot_quant(vs_ctx *ctx, const kiln_op *op, const kiln_type *l,
                                        const kiln_type *r, const kiln_type *res) {
  vs_tbuf t1, t2, t3;
  if (!is_quant(r) || is_quant(l) != is_quant(res))
    return VS_ERR("with quantized types, rhs must be quantized and lhs and result must both "
                  "be quantized or both not (lhs %s, rhs %s, result %s)",
                  ts(l, &t1), ts(r, &t2), ts(res, &t3));
  if (!is_quant(l)) {
    if (!elem_is(l, r->quant.expressed) || !kiln_type_equal(l, res))
      return VS_ERR("lhs element type %s, the expressed type of rhs (%s) and the result "
                    "element type %s must be equal",
                    ts(l, &t1), ts(r, &t2), ts(res, &t3));
    return NULL;
  }
  if (l->quant.storage != r->quant.storage)
    return VS_ERR("lhs (%s) and rhs (%s) must have the same storage type", ts(l, &t1),
                  ts(r, &t2));
  if (l->quant.expressed != r->quant.expressed || l->quant.expressed != res->quant.expressed)
    return VS_ERR("lhs (%s), rhs (%s) and result (%s) must have the same expressed type",
                  ts(l, &t1), ts(r, &t2), ts(res, &t3));
  if (!is_per_axis(r) && is_per_axis(res))
    return VS_ERR("rhs (%s) is per-tensor quantized, so the result (%s) must be too",
                  ts(r, &t1), ts(res, &t2));
  return NULL;
}

static kiln_status check_conv_types(vs_ctx *ctx, const kiln_op *op, const vs_conv *c) {
  const kiln_type *l = telem(c->lhs), *r = telem(c->rhs), *res = telem(c->res);
  vs_tbuf t1, t2;
  if (!is_quant(l) && !is_quant(r) && !is_quant(res)) {
    if (!elem_compat(l, r))
      return VS_ERR("lhs element type %s and rhs element type %s must be equal", ts(l, &t1),
                    ts(r, &t2));
    return NULL;
  }
  if (is_per_axis(r) && r->quant.axis != c->k_out)
    return VS_ERR("rhs is quantized along dimension %d, but must be along "
                  "kernel_output_feature_dimension (%" PRId64 ")",
                  (int)r->quant.axis, c->k_out);
  if (is_per_axis(res) && res->quant.axis != c->out_f)
    return VS_ERR("result is quantized along dimension %d, but must be along "
                  "output_feature_dimension (%" PRId64 ")",
                  (int)res->quant.axis, c->out_f);
  return check_conv_dot_quant(ctx, op, l, r, res);
}

/* The inferred result shape; the spatial sizes are `?` when the padding is unknown. */
static kiln_status check_conv_result(vs_ctx *ctx, const kiln_op *op, const vs_conv *c,
                                     const vs_window *w) {
  int32_t n = trank(c->lhs);
  int64_t in[VS_MAX_RANK], out[VS_MAX_RANK], shape[VS_MAX_RANK];
  for (int32_t i = 0; i < w->n; i++) in[i] = tdim(c->lhs, (int32_t)c->in_s.v[i]);
  KILN_RETURN_IF_ERROR(window_shape(ctx, op, w, in, out));
  for (int32_t i = 0; i < w->n; i++) shape[c->out_s.v[i]] = out[i];
  int64_t batch = tdim(c->lhs, (int32_t)c->in_b);
  shape[c->out_b] = is_dyn(batch) ? VS_DYN : batch / c->bgc;
  shape[c->out_f] = tdim(c->rhs, (int32_t)c->k_out);
  return check_shape(ctx, op, "result", c->res, shape, n, "the convolution of lhs and rhs");
}

/* The padding operand of dynamic_conv: an integer tensor of shape [N - 2, 2]; its values
 * join the window when it is a constant. */
static kiln_status read_dynamic_padding(vs_ctx *ctx, const kiln_op *op, vs_window *w) {
  const kiln_type *p = otype(op, 2);
  KILN_RETURN_IF_ERROR(need_rank(ctx, op, p, "padding", 2));
  vs_tbuf tb;
  if (!is_int_elem(telem(p)) || !kiln_verify_dims_compatible(tdim(p, 0), w->n) || !kiln_verify_dims_compatible(tdim(p, 1), 2))
    return VS_ERR("padding has type %s, but must be an integer tensor of shape [%d, 2]",
                  ts(p, &tb), (int)w->n);
  vs_list l;
  w->padding_known = const_operand_list(op, 2, &l) && l.n == 2 * (int64_t)w->n;
  if (w->padding_known) window_set_padding(w, &l);
  return NULL;
}

static kiln_status verify_conv_common(vs_ctx *ctx, const kiln_op *op, bool dynamic) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, dynamic ? 3 : 2, 1));
  vs_conv c;
  c.lhs = otype(op, 0);
  c.rhs = otype(op, 1);
  c.res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, c.lhs, "lhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, c.rhs, "rhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, c.res, "result"));
  vs_tbuf t1, t2;
  if (trank(c.lhs) < 2)
    return VS_ERR("lhs has type %s, but must have rank 2 or more", ts(c.lhs, &t1));
  if (trank(c.rhs) != trank(c.lhs))
    return VS_ERR("lhs (%s) and rhs (%s) must have the same rank", ts(c.lhs, &t1),
                  ts(c.rhs, &t2));
  KILN_RETURN_IF_ERROR(read_conv_dims(ctx, op, &c));
  KILN_RETURN_IF_ERROR(check_conv_layout(ctx, op, &c));
  KILN_RETURN_IF_ERROR(check_conv_groups(ctx, op, &c));
  KILN_RETURN_IF_ERROR(check_precision_config(ctx, op));
  vs_window w;
  w.n = trank(c.lhs) - 2;
  for (int32_t i = 0; i < w.n; i++) w.size[i] = tdim(c.rhs, (int32_t)c.k_s.v[i]);
  vs_window_attrs names = {"window_strides", "lhs_dilation", "rhs_dilation",
                           dynamic ? NULL : "padding", "window_reversal"};
  w.padding_known = true;
  if (dynamic) KILN_RETURN_IF_ERROR(read_dynamic_padding(ctx, op, &w));
  /* As in the reference, dynamic_conv's window is only checked once its padding is known:
   * before that the result's spatial sizes are unknown anyway. */
  if (w.padding_known) KILN_RETURN_IF_ERROR(read_window(ctx, op, &names, &w));
  KILN_RETURN_IF_ERROR(check_conv_result(ctx, op, &c, &w));
  return check_conv_types(ctx, op, &c);
}

static kiln_status verify_convolution(vs_ctx *ctx, const kiln_op *op) {
  return verify_conv_common(ctx, op, false);
}

static kiln_status verify_dynamic_conv(vs_ctx *ctx, const kiln_op *op) {
  return verify_conv_common(ctx, op, true);
}

/* ================================================================ dot products */

typedef struct vs_dot {
  vs_list lb, rb, lc, rc;
} vs_dot;

static kiln_status read_dot_dims(vs_ctx *ctx, const kiln_op *op, const kiln_attr *s,
                                 vs_dot *d) {
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "lhs_batching_dimensions", &d->lb));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "rhs_batching_dimensions", &d->rb));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "lhs_contracting_dimensions", &d->lc));
  return field_list(ctx, op, s, "rhs_contracting_dimensions", &d->rc);
}

/* Pairs of lhs/rhs dimensions (batching or contracting) have compatible sizes. */
static kiln_status check_dim_pairs(vs_ctx *ctx, const kiln_op *op, const kiln_type *lhs,
                                   const kiln_type *rhs, const vs_list *l, const vs_list *r,
                                   const char *kind) {
  for (int64_t i = 0; i < l->n; i++) {
    int64_t a = tdim(lhs, (int32_t)l->v[i]), b = tdim(rhs, (int32_t)r->v[i]);
    vs_dbuf d1, d2;
    if (!kiln_verify_dims_compatible(a, b))
      return VS_ERR("lhs_%s_dimensions[%d] (lhs dimension %" PRId64 ", size %s) and "
                    "rhs_%s_dimensions[%d] (rhs dimension %" PRId64 ", size %s) must have the "
                    "same size",
                    kind, (int)i, l->v[i], ds(a, &d1), kind, (int)i, r->v[i], ds(b, &d2));
  }
  return NULL;
}

/* dot_general constraints on the dimension numbers (C1-C10). */
static kiln_status check_dot_dims(vs_ctx *ctx, const kiln_op *op, const kiln_type *lhs,
                                  const kiln_type *rhs, const vs_dot *d) {
  if (d->lb.n != d->rb.n)
    return VS_ERR("lhs_batching_dimensions has %d entries and rhs_batching_dimensions %d; they "
                  "must have the same size",
                  (int)d->lb.n, (int)d->rb.n);
  if (d->lc.n != d->rc.n)
    return VS_ERR("lhs_contracting_dimensions has %d entries and rhs_contracting_dimensions "
                  "%d; they must have the same size",
                  (int)d->lc.n, (int)d->rc.n);
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "lhs_batching_dimensions", &d->lb,
                                    "lhs_contracting_dimensions", &d->lc));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "rhs_batching_dimensions", &d->rb,
                                    "rhs_contracting_dimensions", &d->rc));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "lhs_batching_dimensions", &d->lb, trank(lhs), "lhs rank"));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "lhs_contracting_dimensions", &d->lc, trank(lhs), "lhs rank"));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "rhs_batching_dimensions", &d->rb, trank(rhs), "rhs rank"));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "rhs_contracting_dimensions", &d->rc, trank(rhs), "rhs rank"));
  KILN_RETURN_IF_ERROR(check_dim_pairs(ctx, op, lhs, rhs, &d->lb, &d->rb, "batching"));
  return check_dim_pairs(ctx, op, lhs, rhs, &d->lc, &d->rc, "contracting");
}

/* Appends the dimensions of t that are in none of the lists a, b, c (c may be NULL). */
static void append_free_dims(const kiln_type *t, const vs_list *a, const vs_list *b,
                             const vs_list *c, int64_t *out, int32_t *n) {
  for (int32_t i = 0; i < trank(t); i++)
    if (!list_has(a, i) && !list_has(b, i) && !(c && list_has(c, i))) out[(*n)++] = tdim(t, i);
}

/* batch dims + lhs free dims + rhs free dims (rhs_extra: more rhs dims to skip). */
static void dot_result_shape(const kiln_type *lhs, const kiln_type *rhs, const vs_dot *d,
                             const vs_list *rhs_extra, int64_t *out, int32_t *n) {
  for (int64_t i = 0; i < d->lb.n; i++) {
    int64_t a = tdim(lhs, (int32_t)d->lb.v[i]);
    out[(*n)++] = is_dyn(a) ? tdim(rhs, (int32_t)d->rb.v[i]) : a;
  }
  append_free_dims(lhs, &d->lb, &d->lc, NULL, out, n);
  append_free_dims(rhs, &d->rb, &d->rc, rhs_extra, out, n);
}

static kiln_status check_dot_quant(vs_ctx *ctx, const kiln_op *op, const kiln_type *l,
                                   const kiln_type *r, const kiln_type *res, const vs_dot *d) {
  if (is_quant(r)) {
    for (int32_t i = 0; i < r->quant.count; i++)
      if (r->quant.zero_points && r->quant.zero_points[i] != 0)
        return VS_ERR("rhs zero points must be 0, but zero point #%d is %" PRId64, (int)i,
                      r->quant.zero_points[i]);
    if (is_per_axis(r) && list_has(&d->rc, r->quant.axis))
      return VS_ERR("rhs is quantized along dimension %d, which must not be one of "
                    "rhs_contracting_dimensions",
                    (int)r->quant.axis);
  }
  return check_conv_dot_quant(ctx, op, l, r, res);
}

/* The precision type field name of an algorithm, as an element type (COUNT: unknown). */
static kiln_elem algorithm_type(const kiln_attr *alg, const char *name) {
  const kiln_attr *a = kiln_attr_get(alg, name);
  if (!a || a->kind != KILN_ATTR_TYPE || !a->type || a->type->kind != KILN_TYPE_SCALAR)
    return KILN_ELEM_COUNT;
  return a->type->elem;
}

static bool is_f8(kiln_elem e) {
  return e == KILN_ELEM_F8E3M4 || e == KILN_ELEM_F8E4M3 || e == KILN_ELEM_F8E4M3FN ||
         e == KILN_ELEM_F8E5M2 || e == KILN_ELEM_F8E4M3FNUZ || e == KILN_ELEM_F8E4M3B11FNUZ ||
         e == KILN_ELEM_F8E5M2FNUZ;
}

/* The algorithms known to be supported on some hardware (the reference's best-effort
 * table): lhs, rhs, accumulation type and number of primitive operations, with one
 * component each and precise accumulation, or any f8 pair accumulating in f32. */
static kiln_status check_known_algorithm(vs_ctx *ctx, const kiln_op *op, const kiln_attr *alg) {
  static const struct {
    kiln_elem lhs, rhs, acc;
    int64_t ops;
  } known[] = {
      {KILN_ELEM_F16, KILN_ELEM_F16, KILN_ELEM_F16, 1},
      {KILN_ELEM_F16, KILN_ELEM_F16, KILN_ELEM_F32, 1},
      {KILN_ELEM_BF16, KILN_ELEM_BF16, KILN_ELEM_BF16, 1},
      {KILN_ELEM_BF16, KILN_ELEM_BF16, KILN_ELEM_F32, 1},
      {KILN_ELEM_BF16, KILN_ELEM_BF16, KILN_ELEM_F32, 3},
      {KILN_ELEM_BF16, KILN_ELEM_BF16, KILN_ELEM_F32, 6},
      {KILN_ELEM_BF16, KILN_ELEM_BF16, KILN_ELEM_F32, 9},
      {KILN_ELEM_TF32, KILN_ELEM_TF32, KILN_ELEM_F32, 1},
      {KILN_ELEM_TF32, KILN_ELEM_TF32, KILN_ELEM_F32, 3},
      {KILN_ELEM_F32, KILN_ELEM_F32, KILN_ELEM_F32, 1},
      {KILN_ELEM_F64, KILN_ELEM_F64, KILN_ELEM_F64, 1},
  };
  kiln_elem l = algorithm_type(alg, "lhs_precision_type");
  kiln_elem r = algorithm_type(alg, "rhs_precision_type");
  kiln_elem a = algorithm_type(alg, "accumulation_type");
  if (l == KILN_ELEM_COUNT || r == KILN_ELEM_COUNT || a == KILN_ELEM_COUNT) return NULL;
  int64_t lc = 0, rc = 0, ops = 0;
  KILN_RETURN_IF_ERROR(
      read_int(ctx, op, kiln_attr_get(alg, "lhs_component_count"), "lhs_component_count", 1, &lc));
  KILN_RETURN_IF_ERROR(
      read_int(ctx, op, kiln_attr_get(alg, "rhs_component_count"), "rhs_component_count", 1, &rc));
  KILN_RETURN_IF_ERROR(read_int(ctx, op, kiln_attr_get(alg, "num_primitive_operations"),
                                "num_primitive_operations", 1, &ops));
  const kiln_attr *imprecise = kiln_attr_get(alg, "allow_imprecise_accumulation");
  bool fast = imprecise && imprecise->kind == KILN_ATTR_BOOL && imprecise->b;
  bool ok = false;
  if (lc == 1 && rc == 1) {
    ok = is_f8(l) && is_f8(r) && a == KILN_ELEM_F32 && ops == 1;
    for (size_t i = 0; !ok && !fast && i < sizeof known / sizeof known[0]; i++)
      ok = known[i].lhs == l && known[i].rhs == r && known[i].acc == a && known[i].ops == ops;
  }
  if (ok) return NULL;
  return VS_ERR("dot algorithm {lhs %s, rhs %s, accumulation %s, components %" PRId64
                " x %" PRId64 ", %" PRId64 " primitive operation(s)%s} is not known to be "
                "supported on any hardware",
                kiln_elem_name(l), kiln_elem_name(r), kiln_elem_name(a), lc, rc, ops,
                fast ? ", imprecise accumulation" : "");
}

/* An algorithm attribute, when set, has positive counts and DEFAULT precisions. */
static kiln_status check_dot_algorithm(vs_ctx *ctx, const kiln_op *op) {
  const kiln_attr *alg = kiln_op_attr(op, "algorithm");
  if (!alg || alg->kind != KILN_ATTR_STRUCT) return NULL;
  static const char *counts[] = {"lhs_component_count", "rhs_component_count",
                                 "num_primitive_operations"};
  for (int i = 0; i < 3; i++) {
    int64_t v = 0;
    KILN_RETURN_IF_ERROR(read_int(ctx, op, kiln_attr_get(alg, counts[i]), counts[i], 1, &v));
    if (v < 1) return VS_ERR("algorithm %s = %" PRId64 " must be positive", counts[i], v);
  }
  KILN_RETURN_IF_ERROR(check_known_algorithm(ctx, op, alg));
  const kiln_attr *pc = kiln_op_attr(op, "precision_config");
  for (int32_t i = 0; pc && pc->kind == KILN_ATTR_ARRAY && i < pc->array.count; i++) {
    const char *v = enum_value(pc->array.items[i]);
    if (v && strcmp(v, "DEFAULT") != 0)
      return VS_ERR("precision_config[%d] is %s, but must be DEFAULT when an algorithm is set",
                    (int)i, v);
  }
  return NULL;
}

static kiln_status verify_dot_general(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 2, 1));
  const kiln_type *lhs = otype(op, 0), *rhs = otype(op, 1), *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, lhs, "lhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rhs, "rhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  KILN_RETURN_IF_ERROR(check_precision_config(ctx, op));
  vs_dot d;
  KILN_RETURN_IF_ERROR(read_dot_dims(ctx, op, kiln_op_attr(op, "dot_dimension_numbers"), &d));
  KILN_RETURN_IF_ERROR(check_dot_dims(ctx, op, lhs, rhs, &d));
  int64_t shape[2 * VS_MAX_RANK];
  int32_t n = 0;
  dot_result_shape(lhs, rhs, &d, NULL, shape, &n);
  KILN_RETURN_IF_ERROR(check_shape(ctx, op, "result", res, shape, n,
                                   "batching + lhs free + rhs free dimensions"));
  KILN_RETURN_IF_ERROR(check_dot_algorithm(ctx, op));
  const kiln_type *l = telem(lhs), *r = telem(rhs), *e = telem(res);
  if (is_quant(l) || is_quant(r) || is_quant(e)) return check_dot_quant(ctx, op, l, r, e, &d);
  return NULL; /* element types: see the wider readings above (C13) */
}

/* stablehlo.dot: vector or matrix operands, contracting lhs's last and rhs's first
 * dimension. */
static kiln_status verify_dot(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 2, 1));
  const kiln_type *lhs = otype(op, 0), *rhs = otype(op, 1), *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, lhs, "lhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rhs, "rhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  KILN_RETURN_IF_ERROR(check_precision_config(ctx, op));
  vs_tbuf t1, t2;
  int32_t lr = trank(lhs), rr = trank(rhs);
  if (lr < 1 || lr > 2 || rr < 1 || rr > 2)
    return VS_ERR("lhs (%s) and rhs (%s) must both have rank 1 or 2", ts(lhs, &t1),
                  ts(rhs, &t2));
  vs_dbuf d1, d2;
  if (!kiln_verify_dims_compatible(tdim(lhs, lr - 1), tdim(rhs, 0)))
    return VS_ERR("lhs dimension %d (size %s) and rhs dimension 0 (size %s) are contracted and "
                  "must have the same size",
                  (int)(lr - 1), ds(tdim(lhs, lr - 1), &d1), ds(tdim(rhs, 0), &d2));
  int64_t shape[2];
  int32_t n = 0;
  if (lr == 2) shape[n++] = tdim(lhs, 0);
  if (rr == 2) shape[n++] = tdim(rhs, 1);
  return check_shape(ctx, op, "result", res, shape, n, "the matrix product of lhs and rhs");
}

/* The leading dimensions group_sizes has before its group count: the lhs batching
 * dimensions (only those before the ragged one when it is a batching dimension), then the
 * lhs contracting dimensions before a contracting ragged dimension, or the lhs free
 * dimensions before a non-contracting one. */
static int32_t ragged_prefix(const kiln_type *lhs, const vs_dot *d, int64_t ragged,
                             int64_t *out) {
  int32_t n = 0;
  for (int64_t i = 0; i < d->lb.n; i++) {
    if (d->lb.v[i] == ragged) return n;
    out[n++] = tdim(lhs, (int32_t)d->lb.v[i]);
  }
  if (list_has(&d->lc, ragged)) {
    for (int64_t i = 0; i < d->lc.n && d->lc.v[i] != ragged; i++)
      out[n++] = tdim(lhs, (int32_t)d->lc.v[i]);
    return n;
  }
  for (int32_t i = 0; i < ragged; i++)
    if (!list_has(&d->lb, i) && !list_has(&d->lc, i)) out[n++] = tdim(lhs, i);
  return n;
}

/* group_sizes: [g], or the prefix dimensions followed by g. */
static kiln_status check_group_sizes(vs_ctx *ctx, const kiln_op *op, const vs_dot *d,
                                     int64_t ragged, const kiln_type *sizes) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, sizes, "group_sizes"));
  vs_tbuf tb;
  if (trank(sizes) < 1 || !is_int_elem(telem(sizes)))
    return VS_ERR("group_sizes has type %s, but must be an integer tensor of rank 1 or more",
                  ts(sizes, &tb));
  if (trank(sizes) == 1) return NULL;
  int64_t prefix[VS_MAX_RANK];
  int32_t n = ragged_prefix(otype(op, 0), d, ragged, prefix);
  bool ok = trank(sizes) == n + 1;
  for (int32_t i = 0; ok && i < n; i++) ok = kiln_verify_dims_compatible(tdim(sizes, i), prefix[i]);
  char sb[256];
  if (!ok)
    return VS_ERR("group_sizes has type %s, but must have the leading dimensions %s followed "
                  "by the group count",
                  ts(sizes, &tb), shape_str(prefix, n, sb, sizeof sb));
  return NULL;
}

/* chlo.ragged_dot: dot_general with one ragged lhs dimension split into groups. */
static kiln_status check_ragged_groups(vs_ctx *ctx, const kiln_op *op, const kiln_type *rhs,
                                       const vs_dot *d, const vs_list *ragged,
                                       const vs_list *group, const kiln_type *sizes) {
  if (ragged->n != 1)
    return VS_ERR("lhs_ragged_dimensions has %d entries, but must have exactly 1",
                  (int)ragged->n);
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "lhs_ragged_dimensions", ragged,
                                      trank(otype(op, 0)), "lhs rank"));
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "rhs_group_dimensions", group, trank(rhs),
                                      "rhs rank"));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "rhs_group_dimensions", group,
                                    "rhs_batching_dimensions", &d->rb));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "rhs_group_dimensions", group,
                                    "rhs_contracting_dimensions", &d->rc));
  bool non_contracting = !list_has(&d->lb, ragged->v[0]) && !list_has(&d->lc, ragged->v[0]);
  if (non_contracting != (group->n == 1) || (!non_contracting && group->n != 0))
    return VS_ERR("rhs_group_dimensions has %d entries, but must have %d when the lhs ragged "
                  "dimension is %s",
                  (int)group->n, non_contracting ? 1 : 0,
                  non_contracting ? "a non-contracting dimension"
                                  : "a batching or contracting dimension");
  KILN_RETURN_IF_ERROR(check_group_sizes(ctx, op, d, ragged->v[0], sizes));
  int64_t groups = tdim(sizes, trank(sizes) - 1);
  vs_dbuf d1, d2;
  if (non_contracting && !kiln_verify_dims_compatible(groups, tdim(rhs, (int32_t)group->v[0])))
    return VS_ERR("rhs group dimension %" PRId64 " has size %s, but group_sizes has %s groups",
                  group->v[0], ds(tdim(rhs, (int32_t)group->v[0]), &d1), ds(groups, &d2));
  return NULL;
}

static kiln_status verify_ragged_dot(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 3, 1));
  const kiln_type *lhs = otype(op, 0), *rhs = otype(op, 1), *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, lhs, "lhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rhs, "rhs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  KILN_RETURN_IF_ERROR(check_precision_config(ctx, op));
  const kiln_attr *s = kiln_op_attr(op, "ragged_dot_dimension_numbers");
  vs_dot d;
  vs_list ragged, group;
  KILN_RETURN_IF_ERROR(read_dot_dims(ctx, op, s, &d));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "lhs_ragged_dimensions", &ragged));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "rhs_group_dimensions", &group));
  KILN_RETURN_IF_ERROR(check_dot_dims(ctx, op, lhs, rhs, &d));
  KILN_RETURN_IF_ERROR(check_ragged_groups(ctx, op, rhs, &d, &ragged, &group, otype(op, 2)));
  int64_t shape[2 * VS_MAX_RANK + 1];
  int32_t n = 0;
  if (list_has(&d.lc, ragged.v[0])) shape[n++] = tdim(otype(op, 2), trank(otype(op, 2)) - 1);
  dot_result_shape(lhs, rhs, &d, &group, shape, &n);
  return check_shape(ctx, op, "result", res, shape, n, "the ragged dot of lhs and rhs");
}

/* ================================================================ gather */

typedef struct vs_gather {
  vs_list offset, collapsed, obatch, ibatch, start_map, slice;
  int64_t ivd;
  bool slice_known; /* slice holds values (dynamic_gather: only for a constant) */
} vs_gather;

static kiln_status read_gather_dims(vs_ctx *ctx, const kiln_op *op, vs_gather *g) {
  const kiln_attr *s = kiln_op_attr(op, "dimension_numbers");
  if (!s) return VS_ERR("attribute dimension_numbers is missing");
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "offset_dims", &g->offset));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "collapsed_slice_dims", &g->collapsed));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "operand_batching_dims", &g->obatch));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "start_indices_batching_dims", &g->ibatch));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, s, "start_index_map", &g->start_map));
  return field_int(ctx, op, s, "index_vector_dim", &g->ivd);
}

/* index_vector_dim within [0, rank(indices)] and the index vector length. */
static kiln_status check_index_vector(vs_ctx *ctx, const kiln_op *op, const kiln_type *idx,
                                      const char *idx_name, int64_t ivd, const vs_list *map,
                                      const char *map_name) {
  if (ivd < 0 || ivd > trank(idx))
    return VS_ERR("index_vector_dim = %" PRId64 " is out of range for %s rank %d (it may equal "
                  "the rank)",
                  ivd, idx_name, (int)trank(idx));
  int64_t len = ivd == trank(idx) ? 1 : tdim(idx, (int32_t)ivd);
  vs_dbuf db;
  if (!kiln_verify_dims_compatible(len, map->n))
    return VS_ERR("%s has %d entries, but the index vectors of %s (dimension %" PRId64
                  ") have %s",
                  map_name, (int)map->n, idx_name, ivd, ds(len, &db));
  return NULL;
}

/* Batching dimensions of the operand and of the indices (gather C13-C17, scatter
 * C14-C18). */
static kiln_status check_batching(vs_ctx *ctx, const kiln_op *op, const kiln_type *operand,
                                  const char *on, const vs_list *ob, const kiln_type *idx,
                                  const char *in, const vs_list *ib, int64_t ivd) {
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, in, ib, NULL, NULL));
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, in, ib, trank(idx), "index tensor rank"));
  if (list_has(ib, ivd))
    return VS_ERR("%s must not contain index_vector_dim (%" PRId64 ")", in, ivd);
  if (ob->n != ib->n)
    return VS_ERR("%s has %d entries and %s %d; they must have the same size", on, (int)ob->n,
                  in, (int)ib->n);
  for (int64_t i = 0; i < ob->n; i++) {
    int64_t a = tdim(operand, (int32_t)ob->v[i]), b = tdim(idx, (int32_t)ib->v[i]);
    vs_dbuf d1, d2;
    if (!kiln_verify_dims_compatible(a, b))
      return VS_ERR("%s[%d] (size %s) and %s[%d] (size %s) must have the same size", on,
                    (int)i, ds(a, &d1), in, (int)i, ds(b, &d2));
  }
  return NULL;
}

/* slice_sizes: one entry per operand dimension, within the operand, at most 1 along the
 * collapsed and batching dimensions. */
static kiln_status check_slice_sizes(vs_ctx *ctx, const kiln_op *op, const kiln_type *operand,
                                     const vs_gather *g) {
  if (g->slice.n != trank(operand))
    return VS_ERR("slice_sizes has %d entries, but must have one per operand dimension (%d)",
                  (int)g->slice.n, (int)trank(operand));
  if (!g->slice_known) return NULL;
  for (int32_t i = 0; i < trank(operand); i++) {
    int64_t s = g->slice.v[i], d = tdim(operand, i);
    if (s < 0 || (!is_dyn(d) && s > d))
      return VS_ERR("slice_sizes[%d] = %" PRId64 " is out of range for operand dimension %d "
                    "(size %" PRId64 ")",
                    (int)i, s, (int)i, d);
    if (s > 1 && (list_has(&g->collapsed, i) || list_has(&g->obatch, i)))
      return VS_ERR("slice_sizes[%d] = %" PRId64 " must be at most 1, since dimension %d is %s",
                    (int)i, s, (int)i,
                    list_has(&g->collapsed, i) ? "in collapsed_slice_dims"
                                               : "in operand_batching_dims");
  }
  return NULL;
}

/* shape(result) = combine(batch dims of the indices, offset dims of the slice). */
static kiln_status check_gather_result(vs_ctx *ctx, const kiln_op *op, const kiln_type *idx,
                                       const vs_gather *g, const kiln_type *res) {
  int32_t idx_rank = trank(idx) + (g->ivd == trank(idx) ? 1 : 0);
  int32_t rank = (int32_t)g->offset.n + idx_rank - 1;
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "offset_dims", &g->offset, rank, "result rank"));
  int64_t shape[2 * VS_MAX_RANK];
  int32_t b = 0, o = 0;
  for (int32_t r = 0; r < rank; r++) {
    if (list_has(&g->offset, r)) {
      while (list_has(&g->collapsed, o) || list_has(&g->obatch, o)) o++;
      shape[r] = g->slice_known ? g->slice.v[o] : VS_DYN;
      o++;
    } else {
      if (b == g->ivd) b++;
      shape[r] = tdim(idx, b++);
    }
  }
  return check_shape(ctx, op, "result", res, shape, rank, "gathering slice_sizes slices");
}

static kiln_status check_gather(vs_ctx *ctx, const kiln_op *op, const vs_gather *g) {
  const kiln_type *operand = otype(op, 0), *idx = otype(op, 1), *res = rtype(op, 0);
  int64_t implied = g->offset.n + g->collapsed.n + g->obatch.n;
  vs_tbuf tb;
  if (implied != trank(operand))
    return VS_ERR("operand has rank %d, but offset_dims, collapsed_slice_dims and "
                  "operand_batching_dims have %" PRId64 " entries together",
                  (int)trank(operand), implied);
  if (!is_int_elem(telem(idx)))
    return VS_ERR("start_indices has type %s, but must have an integer element type",
                  ts(idx, &tb));
  KILN_RETURN_IF_ERROR(check_index_vector(ctx, op, idx, "start_indices", g->ivd, &g->start_map,
                                          "start_index_map"));
  KILN_RETURN_IF_ERROR(check_sorted(ctx, op, "offset_dims", &g->offset));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "offset_dims", &g->offset, NULL, NULL));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "collapsed_slice_dims", &g->collapsed,
                                    "operand_batching_dims", &g->obatch));
  KILN_RETURN_IF_ERROR(check_sorted(ctx, op, "collapsed_slice_dims", &g->collapsed));
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "collapsed_slice_dims", &g->collapsed,
                                      trank(operand), "operand rank"));
  KILN_RETURN_IF_ERROR(check_sorted(ctx, op, "operand_batching_dims", &g->obatch));
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "operand_batching_dims", &g->obatch,
                                      trank(operand), "operand rank"));
  KILN_RETURN_IF_ERROR(check_batching(ctx, op, operand, "operand_batching_dims", &g->obatch,
                                      idx, "start_indices_batching_dims", &g->ibatch, g->ivd));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "start_index_map", &g->start_map,
                                    "operand_batching_dims", &g->obatch));
  KILN_RETURN_IF_ERROR(check_in_range(ctx, op, "start_index_map", &g->start_map,
                                      trank(operand), "operand rank"));
  KILN_RETURN_IF_ERROR(check_slice_sizes(ctx, op, operand, g));
  KILN_RETURN_IF_ERROR(check_gather_result(ctx, op, idx, g, res));
  vs_tbuf t2;
  if (!kiln_type_equal(telem(res), telem(operand)))
    return VS_ERR("result has type %s, whose element type differs from that of operand (%s)",
                  ts(res, &tb), ts(operand, &t2));
  return NULL;
}

static kiln_status need_gather_operands(vs_ctx *ctx, const kiln_op *op, int32_t operands) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, operands, 1));
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, otype(op, 0), "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, otype(op, 1), "start_indices"));
  return need_tensor(ctx, op, rtype(op, 0), "result");
}

static kiln_status verify_gather(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_gather_operands(ctx, op, 2));
  vs_gather g;
  KILN_RETURN_IF_ERROR(read_gather_dims(ctx, op, &g));
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "slice_sizes", &g.slice));
  g.slice_known = true;
  return check_gather(ctx, op, &g);
}

static kiln_status verify_dynamic_gather(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_gather_operands(ctx, op, 3));
  const kiln_type *sizes = otype(op, 2);
  KILN_RETURN_IF_ERROR(need_rank(ctx, op, sizes, "slice_sizes", 1));
  vs_tbuf tb;
  if (!is_int_elem(telem(sizes)))
    return VS_ERR("slice_sizes has type %s, but must have an integer element type",
                  ts(sizes, &tb));
  vs_gather g;
  KILN_RETURN_IF_ERROR(read_gather_dims(ctx, op, &g));
  g.slice_known = const_operand_list(op, 2, &g.slice);
  if (!g.slice_known) {
    int64_t n = tdim(sizes, 0);
    g.slice.n = is_dyn(n) || n > VS_MAX_LIST ? trank(otype(op, 0)) : n;
  }
  return check_gather(ctx, op, &g);
}

/* ================================================================ scatter */

typedef struct vs_scatter {
  vs_list uwd, iwd, ib, sib, sdod;
  int64_t ivd;
  int64_t idx[VS_MAX_RANK + 1]; /* scatter_indices dims, with a trailing 1 if ivd == rank */
  int32_t idx_rank;
} vs_scatter;

static kiln_status read_scatter_dims(vs_ctx *ctx, const kiln_op *op, vs_scatter *s) {
  const kiln_attr *a = kiln_op_attr(op, "scatter_dimension_numbers");
  if (!a) return VS_ERR("attribute scatter_dimension_numbers is missing");
  KILN_RETURN_IF_ERROR(field_list(ctx, op, a, "update_window_dims", &s->uwd));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, a, "inserted_window_dims", &s->iwd));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, a, "input_batching_dims", &s->ib));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, a, "scatter_indices_batching_dims", &s->sib));
  KILN_RETURN_IF_ERROR(field_list(ctx, op, a, "scatter_dims_to_operand_dims", &s->sdod));
  return field_int(ctx, op, a, "index_vector_dim", &s->ivd);
}

/* Dimension numbers against inputs[0] (C2, C7-C21). */
static kiln_status check_scatter_dims(vs_ctx *ctx, const kiln_op *op, const kiln_type *in,
                                      const kiln_type *upd, const kiln_type *idx,
                                      const vs_scatter *s) {
  int64_t implied = s->uwd.n + s->iwd.n + s->ib.n;
  if (implied != trank(in))
    return VS_ERR("inputs have rank %d, but update_window_dims, inserted_window_dims and "
                  "input_batching_dims have %" PRId64 " entries together",
                  (int)trank(in), implied);
  KILN_RETURN_IF_ERROR(check_sorted(ctx, op, "update_window_dims", &s->uwd));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "update_window_dims", &s->uwd, NULL, NULL));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "update_window_dims", &s->uwd, trank(upd), "updates rank"));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "inserted_window_dims", &s->iwd,
                                    "input_batching_dims", &s->ib));
  KILN_RETURN_IF_ERROR(check_sorted(ctx, op, "inserted_window_dims", &s->iwd));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "inserted_window_dims", &s->iwd, trank(in), "inputs rank"));
  KILN_RETURN_IF_ERROR(check_sorted(ctx, op, "input_batching_dims", &s->ib));
  KILN_RETURN_IF_ERROR(
      check_in_range(ctx, op, "input_batching_dims", &s->ib, trank(in), "inputs rank"));
  KILN_RETURN_IF_ERROR(check_batching(ctx, op, in, "input_batching_dims", &s->ib, idx,
                                      "scatter_indices_batching_dims", &s->sib, s->ivd));
  KILN_RETURN_IF_ERROR(check_index_vector(ctx, op, idx, "scatter_indices", s->ivd, &s->sdod,
                                          "scatter_dims_to_operand_dims"));
  KILN_RETURN_IF_ERROR(check_unique(ctx, op, "scatter_dims_to_operand_dims", &s->sdod,
                                    "input_batching_dims", &s->ib));
  return check_in_range(ctx, op, "scatter_dims_to_operand_dims", &s->sdod, trank(in),
                        "inputs rank");
}

/* rank(updates) = rank(scatter_indices) - 1 + size(update_window_dims) (C4). */
static kiln_status check_updates_rank(vs_ctx *ctx, const kiln_op *op, const kiln_type *upd,
                                      const vs_scatter *s) {
  int64_t expect_rank = s->idx_rank - 1 + s->uwd.n;
  vs_tbuf tb;
  if (trank(upd) != expect_rank)
    return VS_ERR("updates have type %s, but must have rank %" PRId64
                  " (scatter_indices rank - 1 + size of update_window_dims)",
                  ts(upd, &tb), expect_rank);
  return NULL;
}

/* shape(updates) = combine(scatter dims of the indices, window dims <= the inputs) (C4);
 * the dimension numbers are valid. */
static kiln_status check_updates_shape(vs_ctx *ctx, const kiln_op *op, const kiln_type *in,
                                       const kiln_type *upd, const vs_scatter *s) {
  int32_t w = 0, sc = 0;
  for (int32_t i = 0; i < trank(upd); i++) {
    int64_t u = tdim(upd, i);
    vs_dbuf d1, d2;
    if (list_has(&s->uwd, i)) {
      while (list_has(&s->iwd, w) || list_has(&s->ib, w)) w++;
      int64_t bound = tdim(in, w++);
      if (!is_dyn(u) && !is_dyn(bound) && u > bound)
        return VS_ERR("updates window dimension %d has size %" PRId64 ", more than the size "
                      "%" PRId64 " of inputs dimension %d",
                      (int)i, u, bound, (int)(w - 1));
      continue;
    }
    if (sc == s->ivd) sc++;
    if (!kiln_verify_dims_compatible(u, s->idx[sc]))
      return VS_ERR("updates scatter dimension %d has size %s, but scatter_indices dimension "
                    "%d has size %s",
                    (int)i, ds(u, &d1), (int)sc, ds(s->idx[sc], &d2));
    sc++;
  }
  return NULL;
}

static kiln_status need_scatter_operands(vs_ctx *ctx, const kiln_op *op, int32_t *n_out) {
  int32_t n = (op->num_operands - 1) / 2;
  if (op->num_operands < 3 || op->num_operands % 2 == 0 || op->num_results != n)
    return VS_ERR("expects N inputs, scatter_indices, N updates and N results with N > 0, but "
                  "has %d operand(s) and %d result(s)",
                  (int)op->num_operands, (int)op->num_results);
  KILN_RETURN_IF_ERROR(need_variadic(ctx, op, n));
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, 0, n, "inputs"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, otype(op, n), "scatter_indices"));
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, n + 1, n, "updates"));
  KILN_RETURN_IF_ERROR(need_result_tensors(ctx, op, "results"));
  for (int32_t i = 1; i < n; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(check_same_shape(ctx, op, nm(&b, "inputs", i), otype(op, i),
                                          "inputs[0]", otype(op, 0)));
    KILN_RETURN_IF_ERROR(check_same_shape(ctx, op, nm(&b, "updates", i), otype(op, n + 1 + i),
                                          "updates[0]", otype(op, n + 1)));
  }
  vs_tbuf tb;
  if (!is_int_elem(telem(otype(op, n))))
    return VS_ERR("scatter_indices has type %s, but must have an integer element type",
                  ts(otype(op, n), &tb));
  *n_out = n;
  return NULL;
}

static kiln_status verify_scatter(vs_ctx *ctx, const kiln_op *op) {
  int32_t n = 0;
  KILN_RETURN_IF_ERROR(need_scatter_operands(ctx, op, &n));
  const kiln_type *in = otype(op, 0), *idx = otype(op, n), *upd = otype(op, n + 1);
  vs_scatter s;
  KILN_RETURN_IF_ERROR(read_scatter_dims(ctx, op, &s));
  if (s.ivd < 0 || s.ivd > trank(idx))
    return VS_ERR("index_vector_dim = %" PRId64 " is out of range for scatter_indices rank %d "
                  "(it may equal the rank)",
                  s.ivd, (int)trank(idx));
  s.idx_rank = trank(idx);
  for (int32_t i = 0; i < s.idx_rank; i++) s.idx[i] = tdim(idx, i);
  if (s.ivd == s.idx_rank) s.idx[s.idx_rank++] = 1;
  const kiln_type *acc[VS_MAX_VARIADIC];
  vs_reducer rd = {0, "update_computation", n, 0, n + 1, true, NULL, 0};
  KILN_RETURN_IF_ERROR(check_reducer(ctx, op, &rd, acc));
  KILN_RETURN_IF_ERROR(check_updates_rank(ctx, op, upd, &s));
  KILN_RETURN_IF_ERROR(check_scatter_dims(ctx, op, in, upd, idx, &s));
  KILN_RETURN_IF_ERROR(check_updates_shape(ctx, op, in, upd, &s));
  for (int32_t i = 0; i < n; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(
        check_same_shape(ctx, op, nm(&b, "results", i), rtype(op, i), "inputs[0]", in));
  }
  return check_results_acc(ctx, op, acc, "update_computation");
}

/* ================================================================ sort and map */

/* Argument i of region r is a 0-d tensor of the element type of inputs[i / per_input]. */
static kiln_status check_args_of_inputs(vs_ctx *ctx, const kiln_op *op, const vs_region *r,
                                        int32_t per_input) {
  vs_tbuf t1, t2;
  for (int32_t i = 0; i < r->block->num_args; i++) {
    const kiln_type *a = NULL, *e = telem(otype(op, i / per_input));
    KILN_RETURN_IF_ERROR(region_scalar(ctx, op, r, false, i, &a));
    if (!kiln_type_equal(a, e))
      return VS_ERR("%s region argument #%d has element type %s, but must have the element "
                    "type %s of inputs[%d]",
                    r->name, (int)i, ts(a, &t1), ts(e, &t2), (int)(i / per_input));
  }
  return NULL;
}

static kiln_status verify_sort(vs_ctx *ctx, const kiln_op *op) {
  int32_t n = op->num_operands;
  if (n == 0 || op->num_results != n)
    return VS_ERR("expects N inputs and N results with N > 0, but has %d operand(s) and %d "
                  "result(s)",
                  (int)n, (int)op->num_results);
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, 0, n, "inputs"));
  KILN_RETURN_IF_ERROR(need_result_tensors(ctx, op, "results"));
  const kiln_type *in0 = otype(op, 0);
  for (int32_t i = 0; i < n; i++) {
    vs_name b, c;
    KILN_RETURN_IF_ERROR(
        check_same_shape(ctx, op, nm(&b, "inputs", i), otype(op, i), "inputs[0]", in0));
    KILN_RETURN_IF_ERROR(
        check_same_shape(ctx, op, nm(&b, "results", i), rtype(op, i), "inputs[0]", in0));
    KILN_RETURN_IF_ERROR(check_same_elem(ctx, op, nm(&b, "results", i), rtype(op, i),
                                         nm(&c, "inputs", i), otype(op, i)));
  }
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "dimension", -1, &dim));
  int64_t r = trank(in0);
  if (dim < -r || dim >= r)
    return VS_ERR("dimension = %" PRId64 " is out of range [-%" PRId64 ", %" PRId64
                  ") for input rank %" PRId64,
                  dim, r, r, r);
  vs_region reg;
  KILN_RETURN_IF_ERROR(get_region(ctx, op, 0, "comparator", 2 * n, 1, &reg));
  KILN_RETURN_IF_ERROR(check_args_of_inputs(ctx, op, &reg, 2));
  return check_predicate_ret(ctx, op, &reg);
}

static kiln_status verify_map(vs_ctx *ctx, const kiln_op *op) {
  int32_t n = op->num_operands;
  if (n == 0 || op->num_results != 1)
    return VS_ERR("expects N > 0 inputs and one result, but has %d operand(s) and %d result(s)",
                  (int)n, (int)op->num_results);
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, 0, n, "inputs"));
  const kiln_type *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  for (int32_t i = 0; i < n; i++) {
    vs_name b;
    KILN_RETURN_IF_ERROR(
        check_same_shape(ctx, op, nm(&b, "inputs", i), otype(op, i), "result", res));
  }
  vs_list dims;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "dimensions", &dims));
  bool ok = dims.n == trank(otype(op, 0));
  for (int64_t i = 0; ok && i < dims.n; i++) ok = dims.v[i] == i;
  if (!ok)
    return VS_ERR("dimensions must list every dimension of the inputs in order (0 to %d)",
                  (int)trank(otype(op, 0)) - 1);
  vs_region reg;
  KILN_RETURN_IF_ERROR(get_region(ctx, op, 0, "computation", n, 1, &reg));
  KILN_RETURN_IF_ERROR(check_args_of_inputs(ctx, op, &reg, 1));
  vs_tbuf t1, t2;
  const kiln_type *ret = NULL;
  KILN_RETURN_IF_ERROR(region_scalar(ctx, op, &reg, true, 0, &ret));
  if (!elem_compat(telem(res), ret))
    return VS_ERR("result has type %s, but its element type must be %s, the type the "
                  "computation region returns",
                  ts(res, &t1), ts(ret, &t2));
  return NULL;
}

/* ================================================================ fft */

typedef enum vs_fft { VS_FFT, VS_IFFT, VS_RFFT, VS_IRFFT } vs_fft;

static kiln_status read_fft_type(vs_ctx *ctx, const kiln_op *op, vs_fft *out) {
  static const char *names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
  const char *v = enum_value(kiln_op_attr(op, "fft_type"));
  for (int i = 0; i < 4; i++)
    if (str_is(v, names[i])) {
      *out = (vs_fft)i;
      return NULL;
    }
  return VS_ERR("fft_type must be one of FFT, IFFT, RFFT and IRFFT");
}

/* Element types: FFT/IFFT complex -> same; RFFT float -> complex; IRFFT complex -> float. */
static kiln_status check_fft_elems(vs_ctx *ctx, const kiln_op *op, vs_fft kind,
                                   const kiln_type *in, const kiln_type *out) {
  const kiln_type *a = telem(in), *b = telem(out);
  vs_tbuf t1, t2;
  bool real_in = kind == VS_RFFT;
  bool in_ok = real_in ? elem_is(a, KILN_ELEM_F32) || elem_is(a, KILN_ELEM_F64)
                       : elem_kind(a) == VS_EK_COMPLEX;
  if (!in_ok)
    return VS_ERR("operand has type %s, but %s needs %s", ts(in, &t1),
                  real_in ? "RFFT" : "FFT, IFFT and IRFFT",
                  real_in ? "an f32 or f64 element type" : "a complex element type");
  kiln_elem want = kind == VS_RFFT    ? (a->elem == KILN_ELEM_F32 ? KILN_ELEM_C64 : KILN_ELEM_C128)
                   : kind == VS_IRFFT ? kiln_elem_complex_part(a->elem)
                                      : a->elem;
  if (!elem_is(b, want))
    return VS_ERR("result has type %s, but for operand %s its element type must be %s",
                  ts(out, &t1), ts(in, &t2), kiln_elem_name(want));
  return NULL;
}

static kiln_status verify_fft(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 1, 1));
  const kiln_type *in = otype(op, 0), *out = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, in, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, out, "result"));
  vs_fft kind = VS_FFT;
  KILN_RETURN_IF_ERROR(read_fft_type(ctx, op, &kind));
  vs_list len;
  KILN_RETURN_IF_ERROR(op_list(ctx, op, "fft_length", &len));
  int32_t r = trank(in), l = (int32_t)len.n;
  if (l < 1 || l > 3) return VS_ERR("fft_length has %d entries, but must have 1 to 3", (int)l);
  if (l > r)
    return VS_ERR("fft_length has %d entries, more than the operand rank %d", (int)l, (int)r);
  KILN_RETURN_IF_ERROR(check_fft_elems(ctx, op, kind, in, out));
  int64_t shape[VS_MAX_RANK];
  for (int32_t i = 0; i < r; i++) shape[i] = tdim(in, i);
  int32_t checked = kind == VS_RFFT ? l : kind == VS_IRFFT ? l - 1 : 0;
  for (int32_t i = 0; i < checked; i++) {
    vs_dbuf db;
    if (!kiln_verify_dims_compatible(tdim(in, r - l + i), len.v[i]))
      return VS_ERR("operand dimension %d has size %s, but fft_length[%d] = %" PRId64,
                    (int)(r - l + i), ds(tdim(in, r - l + i), &db), (int)i, len.v[i]);
  }
  int64_t last = len.v[l - 1];
  if (kind == VS_RFFT && last != 0) shape[r - 1] = last / 2 + 1;
  if (kind == VS_IRFFT) {
    int64_t d = tdim(in, r - 1);
    vs_dbuf db;
    if (!(kiln_verify_dims_compatible(d, 0) && last == 0) && !kiln_verify_dims_compatible(d, last / 2 + 1))
      return VS_ERR("operand dimension %d has size %s, but IRFFT needs fft_length[-1] / 2 + 1 "
                    "= %" PRId64,
                    (int)(r - 1), ds(d, &db), last / 2 + 1);
    shape[r - 1] = last;
  }
  return check_shape(ctx, op, "result", out, shape, r, "the fft of the operand");
}

/* ================================================================ linear algebra */

/* A batch of square matrices: rank >= 2, the two minor dimensions equal. */
static kiln_status need_square_batch(vs_ctx *ctx, const kiln_op *op, const kiln_type *a,
                                     const char *what) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, a, what));
  vs_tbuf tb;
  int32_t r = trank(a);
  if (r < 2) return VS_ERR("%s has type %s, but must have rank 2 or more", what, ts(a, &tb));
  if (!kiln_verify_dims_compatible(tdim(a, r - 2), tdim(a, r - 1)))
    return VS_ERR("%s has type %s, but its two minor dimensions must have the same size", what,
                  ts(a, &tb));
  vs_ek k = elem_kind(telem(a));
  if (k != VS_EK_FLOAT && k != VS_EK_COMPLEX && k != VS_EK_QUANT)
    return VS_ERR("%s has type %s, but must have a floating-point, complex or quantized element "
                  "type",
                  what, ts(a, &tb));
  return NULL;
}

static kiln_status verify_cholesky(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 1, 1));
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  const kiln_type *a = otype(op, 0), *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_square_batch(ctx, op, a, "a"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  KILN_RETURN_IF_ERROR(check_same_shape(ctx, op, "result", res, "a", a));
  return check_same_elem(ctx, op, "result", res, "a", a);
}

static kiln_status verify_triangular_solve(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 2, 1));
  KILN_RETURN_IF_ERROR(need_per_tensor_quant(ctx, op));
  const kiln_type *a = otype(op, 0), *b = otype(op, 1), *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_square_batch(ctx, op, a, "a"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, b, "b"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  KILN_RETURN_IF_ERROR(check_same_elem(ctx, op, "b", b, "a", a));
  vs_tbuf t1, t2;
  int32_t r = trank(a);
  if (trank(b) != r)
    return VS_ERR("a (%s) and b (%s) must have the same rank", ts(a, &t1), ts(b, &t2));
  bool left = op_bool(op, "left_side", false);
  int32_t shared = left ? r - 2 : r - 1;
  vs_dbuf d1, d2;
  if (!kiln_verify_dims_compatible(tdim(a, r - 1), tdim(b, shared)))
    return VS_ERR("b dimension %d (size %s) must match the size %s of a's matrices (left_side "
                  "= %s)",
                  (int)shared, ds(tdim(b, shared), &d1), ds(tdim(a, r - 1), &d2),
                  left ? "true" : "false");
  for (int32_t i = 0; i < r - 2; i++)
    if (!kiln_verify_dims_compatible(tdim(a, i), tdim(b, i)))
      return VS_ERR("batch dimension %d of a (size %s) and of b (size %s) must match", (int)i,
                    ds(tdim(a, i), &d1), ds(tdim(b, i), &d2));
  const kiln_attr *t = kiln_op_attr(op, "transpose_a");
  const char *tv = enum_value(t);
  if (t && !str_is(tv, "NO_TRANSPOSE") && !str_is(tv, "TRANSPOSE") && !str_is(tv, "ADJOINT"))
    return VS_ERR("transpose_a must be one of NO_TRANSPOSE, TRANSPOSE and ADJOINT");
  KILN_RETURN_IF_ERROR(check_same_shape(ctx, op, "result", res, "b", b));
  return check_same_elem(ctx, op, "result", res, "b", b);
}

/* ================================================================ batch norm */

/* Operand and result layout of a batch_norm op: 'M' marks a tensor of the operand's shape,
 * 'S' a 1-d tensor of one entry per feature. */
typedef struct vs_bn {
  int32_t num_operands, num_results;
  const char *roles;        /* operands then results */
  const char *const *names; /* operands then results */
} vs_bn;

static kiln_status check_bn_value(vs_ctx *ctx, const kiln_op *op, const kiln_type *t,
                                  const char *what, char role, int64_t features) {
  const kiln_type *operand = otype(op, 0);
  vs_tbuf t1;
  vs_dbuf d1;
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, t, what));
  vs_ek k = elem_kind(telem(t));
  if ((k != VS_EK_FLOAT && k != VS_EK_QUANT) || is_per_axis(telem(t)))
    return VS_ERR("%s has type %s, but must have a floating-point or per-tensor quantized "
                  "element type",
                  what, ts(t, &t1));
  KILN_RETURN_IF_ERROR(check_same_elem(ctx, op, what, t, "operand", operand));
  if (role == 'M') return check_same_shape(ctx, op, what, t, "operand", operand);
  if (trank(t) != 1 || !kiln_verify_dims_compatible(tdim(t, 0), features))
    return VS_ERR("%s has type %s, but must be 1-dimensional with one entry per feature (%s)",
                  what, ts(t, &t1), ds(features, &d1));
  return NULL;
}

static kiln_status verify_batch_norm(vs_ctx *ctx, const kiln_op *op, const vs_bn *bn) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, bn->num_operands, bn->num_results));
  const kiln_type *operand = otype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, operand, "operand"));
  int64_t fi = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "feature_index", -1, &fi));
  if (fi < 0 || fi >= trank(operand))
    return VS_ERR("feature_index = %" PRId64 " is out of range for operand rank %d", fi,
                  (int)trank(operand));
  int64_t features = tdim(operand, (int32_t)fi);
  for (int32_t i = 0; i < bn->num_operands + bn->num_results; i++) {
    const kiln_type *t = i < bn->num_operands ? otype(op, i) : rtype(op, i - bn->num_operands);
    KILN_RETURN_IF_ERROR(check_bn_value(ctx, op, t, bn->names[i], bn->roles[i], features));
  }
  return NULL;
}

static kiln_status verify_batch_norm_grad(vs_ctx *ctx, const kiln_op *op) {
  static const char *names[] = {"operand",      "scale",      "mean",       "variance",
                                "grad_output",  "grad_operand", "grad_scale", "grad_offset"};
  static const vs_bn bn = {5, 3, "MSSSMMSS", names};
  return verify_batch_norm(ctx, op, &bn);
}

static kiln_status verify_batch_norm_inference(vs_ctx *ctx, const kiln_op *op) {
  static const char *names[] = {"operand", "scale", "offset", "mean", "variance", "result"};
  static const vs_bn bn = {5, 1, "MSSSSM", names};
  return verify_batch_norm(ctx, op, &bn);
}

static kiln_status verify_batch_norm_training(vs_ctx *ctx, const kiln_op *op) {
  static const char *names[] = {"operand", "scale", "offset", "output", "batch_mean",
                                "batch_var"};
  static const vs_bn bn = {3, 3, "MSSMSS", names};
  return verify_batch_norm(ctx, op, &bn);
}

/* ================================================================ index select, einsum */

/* torch_index_select: result = operand[:dim] + index[batch_dims:] + operand[dim + 1:],
 * the leading batch_dims dimensions shared by operand and index. */
static kiln_status verify_torch_index_select(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 2, 1));
  const kiln_type *operand = otype(op, 0), *index = otype(op, 1), *res = rtype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, operand, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, index, "index"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, res, "result"));
  vs_tbuf tb;
  if (!is_int_elem(telem(index)))
    return VS_ERR("index has type %s, but must have an integer element type", ts(index, &tb));
  int64_t dim = 0, batch = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "dim", 0, &dim));
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "batch_dims", 0, &batch));
  if (dim < 0 || dim >= trank(operand))
    return VS_ERR("dim = %" PRId64 " is out of range for operand rank %d", dim,
                  (int)trank(operand));
  if (batch < 0 || batch > dim || batch > trank(index))
    return VS_ERR("batch_dims = %" PRId64 " must lie in [0, min(dim, index rank)]", batch);
  vs_dbuf d1, d2;
  for (int32_t i = 0; i < batch; i++)
    if (!kiln_verify_dims_compatible(tdim(operand, i), tdim(index, i)))
      return VS_ERR("batch dimension %d of operand (size %s) and of index (size %s) must match",
                    (int)i, ds(tdim(operand, i), &d1), ds(tdim(index, i), &d2));
  int64_t shape[2 * VS_MAX_RANK];
  int32_t n = 0;
  for (int32_t i = 0; i < dim; i++) shape[n++] = tdim(operand, i);
  for (int32_t i = (int32_t)batch; i < trank(index); i++) shape[n++] = tdim(index, i);
  for (int32_t i = (int32_t)dim + 1; i < trank(operand); i++) shape[n++] = tdim(operand, i);
  KILN_RETURN_IF_ERROR(
      check_shape(ctx, op, "result", res, shape, n, "selecting index entries along dim"));
  return check_same_elem(ctx, op, "result", res, "operand", operand);
}

/* Counts the labels of one einsum term s[0..len): letters, "..." standing for any number of
 * dimensions. Returns false on a character that is not a label. */
static bool einsum_term(const char *s, size_t len, int32_t *labels, bool *ellipsis) {
  *labels = 0;
  *ellipsis = false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == '.' && i + 2 < len && s[i + 1] == '.' && s[i + 2] == '.') {
      *ellipsis = true;
      i += 2;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      (*labels)++;
    } else if (c != ' ') {
      return false;
    }
  }
  return true;
}

static kiln_status check_einsum_term(vs_ctx *ctx, const kiln_op *op, const char *s, size_t len,
                                     const kiln_type *t, const char *what) {
  int32_t labels;
  bool ellipsis;
  if (!einsum_term(s, len, &labels, &ellipsis))
    return VS_ERR("einsum_config term '%.*s' for %s has a character that is not a label",
                  (int)len, s, what);
  vs_tbuf tb;
  if (ellipsis ? trank(t) < labels : trank(t) != labels)
    return VS_ERR("einsum_config term '%.*s' has %d label(s), but %s has type %s", (int)len, s,
                  (int)labels, what, ts(t, &tb));
  return NULL;
}

/* einsum_config "in0,in1->out" (einsum) or "in->out" (unary_einsum): one label per
 * dimension of each operand and of the result. */
static kiln_status verify_einsum_common(vs_ctx *ctx, const kiln_op *op, int32_t operands) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, operands, 1));
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, 0, operands, "operands"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rtype(op, 0), "result"));
  const kiln_attr *a = kiln_op_attr(op, "einsum_config");
  if (!a || a->kind != KILN_ATTR_STRING)
    return VS_ERR("attribute einsum_config must be a string");
  const char *s = a->str.data, *end = s + a->str.len;
  const char *arrow = NULL;
  for (const char *p = s; p + 1 < end && !arrow; p++)
    if (p[0] == '-' && p[1] == '>') arrow = p;
  if (!arrow) return VS_ERR("einsum_config must have the form 'inputs->output'");
  const char *term = s;
  for (int32_t i = 0; i < operands; i++) {
    const char *stop = term;
    while (stop < arrow && *stop != ',') stop++;
    if ((i + 1 < operands) != (stop < arrow))
      return VS_ERR("einsum_config must have one comma-separated term per operand (%d)",
                    (int)operands);
    vs_name b;
    KILN_RETURN_IF_ERROR(check_einsum_term(ctx, op, term, (size_t)(stop - term), otype(op, i),
                                           nm(&b, "operands", i)));
    term = stop + 1;
  }
  return check_einsum_term(ctx, op, arrow + 2, (size_t)(end - arrow - 2), rtype(op, 0),
                           "the result");
}

static kiln_status verify_einsum(vs_ctx *ctx, const kiln_op *op) {
  return verify_einsum_common(ctx, op, 2);
}

static kiln_status verify_unary_einsum(vs_ctx *ctx, const kiln_op *op) {
  return verify_einsum_common(ctx, op, 1);
}

/* ================================================================ chlo.top_k, chlo.scan */

static kiln_status verify_top_k(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_counts(ctx, op, 1, 2));
  const kiln_type *in = otype(op, 0);
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, in, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rtype(op, 0), "values"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, rtype(op, 1), "indices"));
  vs_tbuf tb;
  int32_t r = trank(in);
  if (r < 1) return VS_ERR("operand has type %s, but must have rank 1 or more", ts(in, &tb));
  int64_t k = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "k", -1, &k));
  if (k < 0) return VS_ERR("k = %" PRId64 " must be a non-negative integer", k);
  int64_t last = tdim(in, r - 1);
  if (!is_dyn(last) && last < k)
    return VS_ERR("k = %" PRId64 " exceeds the size %" PRId64 " of the operand's last dimension",
                  k, last);
  int64_t shape[VS_MAX_RANK];
  for (int32_t i = 0; i < r; i++) shape[i] = tdim(in, i);
  shape[r - 1] = k;
  KILN_RETURN_IF_ERROR(check_shape(ctx, op, "values", rtype(op, 0), shape, r,
                                   "the operand with k entries in the last dimension"));
  KILN_RETURN_IF_ERROR(check_shape(ctx, op, "indices", rtype(op, 1), shape, r,
                                   "the operand with k entries in the last dimension"));
  KILN_RETURN_IF_ERROR(check_same_elem(ctx, op, "values", rtype(op, 0), "operand", in));
  if (!elem_is(telem(rtype(op, 1)), KILN_ELEM_SI32))
    return VS_ERR("indices has type %s, but must have element type i32",
                  ts(rtype(op, 1), &tb));
  return NULL;
}

/* Scan inputs are the leading operands whose body argument drops the scan dimension;
 * the init values (carries) follow with arguments of their own type. */
static kiln_status scan_split(vs_ctx *ctx, const kiln_op *op, const kiln_block *b, int64_t dim,
                              int32_t *num_inputs) {
  int32_t n = 0;
  while (n < op->num_operands) {
    const kiln_type *a = b->args[n].type;
    if (!a || a->kind != KILN_TYPE_TENSOR || trank(otype(op, n)) != trank(a) + 1) break;
    n++;
  }
  const kiln_attr *seg = kiln_op_attr(op, "operandSegmentSizes");
  int64_t v = 0;
  if (seg && kiln_attr_i64_at(seg, 0, &v)) n = (int32_t)v;
  if (n < 0 || n > op->num_operands)
    return VS_ERR("operandSegmentSizes does not fit the %d operands", (int)op->num_operands);
  int64_t size = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "scan_dim_size", VS_DYN, &size));
  for (int32_t i = 0; i < n; i++) {
    if (dim >= trank(otype(op, i)))
      return VS_ERR("dimension = %" PRId64 " is out of range for inputs[%d] of rank %d", dim,
                    (int)i, (int)trank(otype(op, i)));
    int64_t d = tdim(otype(op, i), (int32_t)dim);
    vs_dbuf d1, d2;
    if (!kiln_verify_dims_compatible(d, size))
      return VS_ERR("inputs[%d] has scan dimension size %s, but the scan runs over %s steps",
                    (int)i, ds(d, &d1), ds(size, &d2));
    if (is_dyn(size)) size = d;
  }
  *num_inputs = n;
  return NULL;
}

/* Body argument i matches operand i (an input without its scan dimension). */
static kiln_status check_scan_arg(vs_ctx *ctx, const kiln_op *op, const kiln_block *b,
                                  int32_t i, bool is_input, int64_t dim) {
  const kiln_type *t = otype(op, i), *a = b->args[i].type;
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, a, "body argument"));
  int64_t shape[VS_MAX_RANK];
  int32_t n = 0;
  for (int32_t d = 0; d < trank(t); d++)
    if (!is_input || d != dim) shape[n++] = tdim(t, d);
  bool ok = trank(a) == n && elem_compat(telem(a), telem(t));
  for (int32_t d = 0; ok && d < n; d++) ok = kiln_verify_dims_compatible(tdim(a, d), shape[d]);
  vs_tbuf t1, t2;
  if (!ok)
    return VS_ERR("body region argument #%d has type %s, which does not fit operand #%d (%s)%s",
                  (int)i, ts(a, &t1), (int)i, ts(t, &t2),
                  is_input ? " without its scan dimension" : "");
  return NULL;
}

static kiln_status verify_scan(vs_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_operand_tensors(ctx, op, 0, op->num_operands, "operands"));
  KILN_RETURN_IF_ERROR(need_result_tensors(ctx, op, "results"));
  if (op->num_operands == 0 && op->num_results == 0)
    return VS_ERR("needs at least one input or output");
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(op_int(ctx, op, "dimension", 0, &dim));
  if (dim < 0) return VS_ERR("dimension = %" PRId64 " must be non-negative", dim);
  vs_region reg;
  KILN_RETURN_IF_ERROR(get_region(ctx, op, 0, "body", op->num_operands, op->num_results, &reg));
  int32_t inputs = 0;
  KILN_RETURN_IF_ERROR(scan_split(ctx, op, reg.block, dim, &inputs));
  for (int32_t i = 0; i < op->num_operands; i++)
    KILN_RETURN_IF_ERROR(check_scan_arg(ctx, op, reg.block, i, i < inputs, dim));
  int32_t carries = op->num_operands - inputs, outputs = op->num_results - carries;
  if (outputs < 0)
    return VS_ERR("has %d result(s), fewer than its %d init value(s)", (int)op->num_results,
                  (int)carries);
  for (int32_t i = 0; i < op->num_results; i++) {
    const kiln_type *ret = reg.ret->operands[i]->type, *res = rtype(op, i);
    vs_tbuf t1, t2;
    bool ok = ret->kind == KILN_TYPE_TENSOR && elem_compat(telem(ret), telem(res)) &&
              trank(res) == trank(ret) + (i < outputs ? 1 : 0);
    if (!ok)
      return VS_ERR("results[%d] has type %s, which does not fit the body's return value #%d "
                    "(%s)%s",
                    (int)i, ts(res, &t1), (int)i, ts(ret, &t2),
                    i < outputs ? " with the scan dimension added" : "");
  }
  return NULL;
}

/* ================================================================ lookup */

kiln_verify_fn kiln_verify_structured_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_REDUCE: return verify_reduce;
    case KILN_OP_REDUCE_WINDOW: return verify_reduce_window;
    case KILN_OP_SELECT_AND_SCATTER: return verify_select_and_scatter;
    case KILN_OP_CONVOLUTION: return verify_convolution;
    case KILN_OP_DYNAMIC_CONV: return verify_dynamic_conv;
    case KILN_OP_DOT_GENERAL: return verify_dot_general;
    case KILN_OP_DOT: return verify_dot;
    case KILN_OP_CHLO_RAGGED_DOT: return verify_ragged_dot;
    case KILN_OP_GATHER: return verify_gather;
    case KILN_OP_DYNAMIC_GATHER: return verify_dynamic_gather;
    case KILN_OP_SCATTER: return verify_scatter;
    case KILN_OP_SORT: return verify_sort;
    case KILN_OP_MAP: return verify_map;
    case KILN_OP_FFT: return verify_fft;
    case KILN_OP_TRIANGULAR_SOLVE: return verify_triangular_solve;
    case KILN_OP_CHOLESKY: return verify_cholesky;
    case KILN_OP_BATCH_NORM_GRAD: return verify_batch_norm_grad;
    case KILN_OP_BATCH_NORM_INFERENCE: return verify_batch_norm_inference;
    case KILN_OP_BATCH_NORM_TRAINING: return verify_batch_norm_training;
    case KILN_OP_TORCH_INDEX_SELECT: return verify_torch_index_select;
    case KILN_OP_EINSUM: return verify_einsum;
    case KILN_OP_UNARY_EINSUM: return verify_unary_einsum;
    case KILN_OP_CHLO_TOP_K: return verify_top_k;
    case KILN_OP_CHLO_SCAN: return verify_scan;
    default: return NULL;
  }
}
