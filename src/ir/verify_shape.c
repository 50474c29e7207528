/* Type and shape rules of the ops that move data around without computing on it:
 * broadcasts, reshapes, transposes, slices, concatenation, padding, iota, reverse,
 * dimension queries, their dynamic variants, tuples and constants (StableHLO spec, "Ops").
 *
 * A `?` dimension is compatible with any size and bounded dimensions (tensor bounds) are
 * checked against static sizes only, as in the spec's "Dynamism" section. Where the spec
 * lets quantization parameters differ (broadcast_in_dim, reshape, transpose with per-axis
 * quantization), element types are compared on storage and expressed types only. */
#include <stdio.h>

#include "ir/verify.h"

/* Longest integer list (and highest rank) the rules handle on the stack. */
#define MAX_DIMS 64

/* ---------------------------------------------------------------- small helpers */

static bool is_tensor(const kiln_type *t) { return t && t->kind == KILN_TYPE_TENSOR; }

static bool is_per_axis(const kiln_type *t) {
  return is_tensor(t) && t->tensor.element->kind == KILN_TYPE_QUANT &&
         t->tensor.element->quant.axis >= 0;
}

static bool is_per_tensor_quant(const kiln_type *t) {
  return is_tensor(t) && t->tensor.element->kind == KILN_TYPE_QUANT &&
         t->tensor.element->quant.axis < 0;
}

static bool is_int_class(kiln_elem e, bool allow_index) {
  kiln_elem_class c = kiln_elem_class_of(e);
  return c == KILN_ELEM_CLASS_I || c == KILN_ELEM_CLASS_U ||
         (allow_index && c == KILN_ELEM_CLASS_X);
}

static bool has_scalar_elem(const kiln_type *t) {
  return is_tensor(t) && t->tensor.element->kind == KILN_TYPE_SCALAR;
}

static const kiln_type *operand_type(const kiln_op *op, int32_t i) { return op->operands[i]->type; }

static const kiln_type *result_type(const kiln_op *op) { return op->results[0].type; }

static const char *tstr(const kiln_type *t, char *buf, size_t cap) {
  if (!t) {
    snprintf(buf, cap, "<null>");
    return buf;
  }
  return kiln_verify_type_str(t, buf, cap);
}

static const char *dim_str(int64_t d, char *buf, size_t cap) {
  if (d == KILN_DIM_DYNAMIC)
    snprintf(buf, cap, "?");
  else
    snprintf(buf, cap, "%lld", (long long)d);
  return buf;
}

/* Overflow-checked arithmetic for sizes computed from attributes. */
static bool add_ok(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
  *out = a + b;
  return true;
}

static bool mul_ok(int64_t a, int64_t b, int64_t *out) {
  bool overflow = a != 0 && b != 0 &&
                  (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                         : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b));
  if (overflow) return false;
  *out = a * b;
  return true;
}

/* ---------------------------------------------------------------- counts and operands */

static kiln_status check_counts(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t min_ops,
                                int32_t max_ops, int32_t results) {
  if (op->num_operands < min_ops || op->num_operands > max_ops) {
    if (min_ops == max_ops)
      return kiln_verify_error(ctx, op, "expects %d operand%s, got %d", min_ops,
                               min_ops == 1 ? "" : "s", op->num_operands);
    return kiln_verify_error(ctx, op, "expects at least %d operand%s, got %d", min_ops,
                             min_ops == 1 ? "" : "s", op->num_operands);
  }
  if (op->num_results != results)
    return kiln_verify_error(ctx, op, "expects %d result%s, got %d", results,
                             results == 1 ? "" : "s", op->num_results);
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!op->operands[i] || !op->operands[i]->type)
      return kiln_verify_error(ctx, op, "operand #%d has no type", i);
  for (int32_t i = 0; i < op->num_results; i++)
    if (!op->results[i].type) return kiln_verify_error(ctx, op, "result #%d has no type", i);
  return NULL;
}

static kiln_status need_tensor(const kiln_verify_ctx *ctx, const kiln_op *op, const char *what,
                               const kiln_type *t) {
  if (is_tensor(t)) return NULL;
  char ts[160];
  return kiln_verify_error(ctx, op, "%s must be a tensor, got %s", what, tstr(t, ts, sizeof ts));
}

/* The usual shape: one tensor operand (operand #0) and one tensor result. */
static kiln_status check_operand_and_result(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "operand", operand_type(op, 0)));
  return need_tensor(ctx, op, "result", result_type(op));
}

static kiln_status need_scalar_tensor(const kiln_verify_ctx *ctx, const kiln_op *op,
                                      const char *what, const kiln_type *t) {
  if (is_tensor(t) && t->tensor.rank == 0) return NULL;
  char ts[160];
  return kiln_verify_error(ctx, op, "%s must be a 0-dimensional tensor, got %s", what,
                           tstr(t, ts, sizeof ts));
}

/* A shape operand (output_shape, output_dimensions, padding of dynamic_pad): a 1-D tensor
 * of integers or index; statically shaped unless allow_dynamic. */
static kiln_status check_shape_operand(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t i,
                                       const char *what, bool allow_dynamic) {
  const kiln_type *t = operand_type(op, i);
  if (is_tensor(t) && t->tensor.rank == 1 && has_scalar_elem(t) &&
      is_int_class(t->tensor.element->elem, true) &&
      (allow_dynamic || t->tensor.dims[0] != KILN_DIM_DYNAMIC))
    return NULL;
  char ts[160];
  return kiln_verify_error(ctx, op,
                           "%s must be a %s1-dimensional tensor of integer or index type, got %s",
                           what, allow_dynamic ? "" : "statically shaped ", tstr(t, ts, sizeof ts));
}

/* start_indices of dynamic_slice / dynamic_update_slice: operands first..end, each a
 * 0-dimensional integer tensor, all of one type. */
static kiln_status check_start_indices(const kiln_verify_ctx *ctx, const kiln_op *op,
                                       int32_t first) {
  char ts[160], ts0[160];
  for (int32_t i = first; i < op->num_operands; i++) {
    const kiln_type *t = operand_type(op, i);
    if (!is_tensor(t) || t->tensor.rank != 0 || !has_scalar_elem(t) ||
        !is_int_class(t->tensor.element->elem, false))
      return kiln_verify_error(
          ctx, op, "start_indices operand #%d must be a 0-dimensional integer tensor, got %s", i,
          tstr(t, ts, sizeof ts));
    const kiln_type *t0 = operand_type(op, first);
    if (t->tensor.element->elem != t0->tensor.element->elem)
      return kiln_verify_error(ctx, op,
                               "start_indices operand #%d type %s differs from operand #%d type %s",
                               i, tstr(t, ts, sizeof ts), first, tstr(t0, ts0, sizeof ts0));
  }
  return NULL;
}

/* ---------------------------------------------------------------- element types */

static kiln_status type_error(const kiln_verify_ctx *ctx, const kiln_op *op, const char *what,
                              const kiln_type *t, const char *ref_what, const kiln_type *ref,
                              const char *rule) {
  char ts[160], rs[160];
  return kiln_verify_error(ctx, op, "%s type %s %s %s type %s", what, tstr(t, ts, sizeof ts), rule,
                           ref_what, tstr(ref, rs, sizeof rs));
}

/* element_type(t) = element_type(ref), quantization parameters included. */
static kiln_status same_elem(const kiln_verify_ctx *ctx, const kiln_op *op, const char *what,
                             const kiln_type *t, const char *ref_what, const kiln_type *ref) {
  if (kiln_verify_elems_identical(t->tensor.element, ref->tensor.element)) return NULL;
  return type_error(ctx, op, what, t, ref_what, ref, "does not have the element type of");
}

/* Element types that may differ in quantization parameters only; per-tensor quantized
 * operand and result must still share them (MLIR's verifyQPerTensorScaleAndZeroPoint). */
static kiln_status compatible_elem(const kiln_verify_ctx *ctx, const kiln_op *op,
                                   const kiln_type *operand, const kiln_type *result) {
  if (!kiln_verify_elems_compatible(result->tensor.element, operand->tensor.element))
    return type_error(ctx, op, "result", result, "operand", operand,
                      "does not have the element type of");
  if (is_per_tensor_quant(operand) &&
      !kiln_verify_elems_identical(result->tensor.element, operand->tensor.element))
    return type_error(ctx, op, "result", result, "operand", operand,
                      "must have the quantization parameters of");
  return NULL;
}

/* ---------------------------------------------------------------- integer lists */

typedef struct int_list {
  int64_t n;
  int64_t v[MAX_DIMS];
} int_list;

/* Reads an integer-list attribute; absent optional lists read as empty. */
static kiln_status read_list(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                             bool required, int_list *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  out->n = 0;
  if (!a) return required ? kiln_verify_error(ctx, op, "requires attribute '%s'", name) : NULL;
  int64_t n = kiln_attr_count(a);
  if (n < 0) return kiln_verify_error(ctx, op, "attribute '%s' must be a list of integers", name);
  if (n > MAX_DIMS)
    return kiln_verify_error(ctx, op, "attribute '%s' has %lld entries, more than the %d supported",
                             name, (long long)n, MAX_DIMS);
  for (int64_t i = 0; i < n; i++) kiln_attr_i64_at(a, i, &out->v[i]);
  out->n = n;
  return NULL;
}

static kiln_status read_int(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                            int64_t *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return kiln_verify_error(ctx, op, "requires attribute '%s'", name);
  if (kiln_attr_count(a) != 1 || !kiln_attr_i64_at(a, 0, out))
    return kiln_verify_error(ctx, op, "attribute '%s' must be an integer", name);
  return NULL;
}

/* 0 <= x < limit for an attribute that names a dimension of `of` (rank `limit`). */
static kiln_status check_dim_index(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                                   int64_t x, int32_t limit, const char *of) {
  if (x >= 0 && x < limit) return NULL;
  return kiln_verify_error(ctx, op, "%s = %lld is out of range for %s rank %d", name, (long long)x,
                           of, limit);
}

/* Every entry of l names a distinct dimension of `of` (rank `limit`). */
static kiln_status check_dim_list(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                                  const int_list *l, int32_t limit, const char *of) {
  for (int64_t i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= limit)
      return kiln_verify_error(ctx, op, "%s[%lld] = %lld is out of range for %s rank %d", name,
                               (long long)i, (long long)l->v[i], of, limit);
    for (int64_t j = 0; j < i; j++)
      if (l->v[j] == l->v[i])
        return kiln_verify_error(ctx, op, "%s[%lld] = %lld is a duplicate of %s[%lld]", name,
                                 (long long)i, (long long)l->v[i], name, (long long)j);
  }
  return NULL;
}

static kiln_status check_list_size(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                                   int64_t n, int32_t rank, const char *of) {
  if (n == rank) return NULL;
  return kiln_verify_error(ctx, op, "%s has %lld entries but %s rank is %d", name, (long long)n, of,
                           rank);
}

/* Values of a shape operand when a constant op defines it (as MLIR's matchInts). */
static bool constant_operand(const kiln_op *op, int32_t i, int_list *out) {
  const kiln_op *def = op->operands[i]->def;
  if (!def || (def->kind != KILN_OP_CONSTANT && def->kind != KILN_OP_ARITH_CONSTANT)) return false;
  const kiln_attr *a = kiln_op_attr(def, "value");
  int64_t n = kiln_attr_count(a);
  if (n < 0 || n > MAX_DIMS || a->kind != KILN_ATTR_DENSE) return false;
  for (int64_t k = 0; k < n; k++)
    if (!kiln_attr_i64_at(a, k, &out->v[k])) return false;
  out->n = n;
  return true;
}

/* ---------------------------------------------------------------- inferred shapes */

/* The result has `rank` dimensions compatible with dims (`?` matches anything) and its
 * static sizes respect bounds (NULL, or KILN_DIM_DYNAMIC entries for no bound). */
static kiln_status check_result_dims(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t rank,
                                     const int64_t *dims, const int64_t *bounds) {
  const kiln_type *r = result_type(op);
  char ts[160], a[24], b[24];
  if (r->tensor.rank != rank)
    return kiln_verify_error(ctx, op, "result type %s has rank %d, expected rank %d",
                             tstr(r, ts, sizeof ts), r->tensor.rank, rank);
  for (int32_t i = 0; i < rank; i++) {
    int64_t d = r->tensor.dims[i];
    if (!kiln_verify_dims_compatible(d, dims[i]))
      return kiln_verify_error(ctx, op, "result type %s: dimension %d is %s, expected %s",
                               tstr(r, ts, sizeof ts), i, dim_str(d, a, sizeof a),
                               dim_str(dims[i], b, sizeof b));
    if (bounds && bounds[i] != KILN_DIM_DYNAMIC && d != KILN_DIM_DYNAMIC && d > bounds[i])
      return kiln_verify_error(ctx, op,
                               "result type %s: dimension %d is %lld, more than its bound %lld",
                               tstr(r, ts, sizeof ts), i, (long long)d, (long long)bounds[i]);
  }
  return NULL;
}

/* The result has the shape (and bounds) of t. */
static kiln_status check_result_like(const kiln_verify_ctx *ctx, const kiln_op *op,
                                     const char *what, const kiln_type *t) {
  const kiln_type *r = result_type(op);
  if (kiln_verify_shapes_compatible(r, t) && kiln_verify_fits_bounds(r, t) &&
      kiln_verify_fits_bounds(t, r))
    return NULL;
  return type_error(ctx, op, "result", r, what, t, "does not have the shape of");
}

/* A constant shape operand agrees with the result type. */
static kiln_status check_shape_values(const kiln_verify_ctx *ctx, const kiln_op *op,
                                      const char *what, const int_list *s) {
  const kiln_type *r = result_type(op);
  char ts[160];
  for (int64_t i = 0; i < s->n; i++)
    if (s->v[i] < 0 ||
        (i < r->tensor.rank && !kiln_verify_dims_compatible(r->tensor.dims[i], s->v[i])))
      return kiln_verify_error(ctx, op, "%s[%lld] = %lld is incompatible with result type %s", what,
                               (long long)i, (long long)s->v[i], tstr(r, ts, sizeof ts));
  return NULL;
}

/* ---------------------------------------------------------------- quantization */

static bool same_scales(const kiln_type *a, const kiln_type *b) {
  if (a->quant.count != b->quant.count) return false;
  for (int32_t i = 0; i < a->quant.count; i++)
    if (a->quant.scales[i] != b->quant.scales[i] ||
        a->quant.zero_points[i] != b->quant.zero_points[i])
      return false;
  return true;
}

/* reshape_c1/c3, dynamic_reshape_c1/c3: per-axis quantization survives the reshape. */
static kiln_status check_reshape_quant(const kiln_verify_ctx *ctx, const kiln_op *op,
                                       const kiln_type *operand, const kiln_type *result) {
  if (!is_per_axis(operand) || !is_per_axis(result)) return NULL;
  const kiln_type *qo = operand->tensor.element, *qr = result->tensor.element;
  if (!same_scales(qo, qr))
    return type_error(ctx, op, "result", result, "operand", operand,
                      "must have the quantization scales and zero points of");
  int32_t ao = qo->quant.axis, ar = qr->quant.axis;
  if (ao >= operand->tensor.rank || ar >= result->tensor.rank) return NULL;
  if (!kiln_verify_dims_compatible(operand->tensor.dims[ao], result->tensor.dims[ar]))
    return type_error(ctx, op, "result", result, "operand", operand,
                      "must keep the size of the quantization dimension of");
  if (operand->tensor.num_elements < 0 || result->tensor.num_elements < 0) return NULL;
  int64_t po = 1, pr = 1;
  bool ok = true;
  for (int32_t i = 0; i < ao; i++) ok = mul_ok(po, operand->tensor.dims[i], &po) && ok;
  for (int32_t i = 0; i < ar; i++) ok = mul_ok(pr, result->tensor.dims[i], &pr) && ok;
  if (ok && po != pr)
    return type_error(
        ctx, op, "result", result, "operand", operand,
        "must keep the product of the dimensions before the quantization dimension of");
  return NULL;
}

/* broadcast_in_dim_c6, dynamic_broadcast_in_dim_c6. */
static kiln_status check_broadcast_quant(const kiln_verify_ctx *ctx, const kiln_op *op,
                                         const kiln_type *operand, const kiln_type *result,
                                         const int_list *dims) {
  if (!is_per_axis(result) || !is_per_axis(operand)) return NULL;
  const kiln_type *qo = operand->tensor.element, *qr = result->tensor.element;
  int32_t ao = qo->quant.axis, ar = qr->quant.axis;
  if (ao >= dims->n || ar >= result->tensor.rank) return NULL;
  if (ar != dims->v[ao])
    return kiln_verify_error(
        ctx, op, "result quantization_dimension %d must equal broadcast_dimensions[%d] = %lld", ar,
        ao, (long long)dims->v[ao]);
  if (operand->tensor.dims[ao] != 1 || qo->quant.count < 1) return NULL;
  int64_t n = result->tensor.dims[ar];
  for (int64_t i = 0; i < n && i < qr->quant.count; i++)
    if (qr->quant.scales[i] != qo->quant.scales[0] ||
        qr->quant.zero_points[i] != qo->quant.zero_points[0])
      return kiln_verify_error(
          ctx, op,
          "result scale/zero point #%lld must repeat the operand's only scale and zero point",
          (long long)i);
  return NULL;
}

/* ---------------------------------------------------------------- broadcasts */

/* broadcast_in_dim_c2 .. c5 (and the dynamic variant's). */
static kiln_status check_broadcast_dims(const kiln_verify_ctx *ctx, const kiln_op *op,
                                        const kiln_type *operand, const int_list *dims) {
  const kiln_type *result = result_type(op);
  KILN_RETURN_IF_ERROR(
      check_list_size(ctx, op, "broadcast_dimensions", dims->n, operand->tensor.rank, "operand"));
  KILN_RETURN_IF_ERROR(
      check_dim_list(ctx, op, "broadcast_dimensions", dims, result->tensor.rank, "result"));
  char a[24];
  for (int32_t i = 0; i < operand->tensor.rank; i++) {
    int64_t d = operand->tensor.dims[i], r = result->tensor.dims[dims->v[i]];
    if (d != 1 && !kiln_verify_dims_compatible(d, r))
      return kiln_verify_error(ctx, op,
                               "operand dimension %d (size %lld) is neither 1 nor the size of "
                               "result dimension %lld (%s)",
                               i, (long long)d, (long long)dims->v[i], dim_str(r, a, sizeof a));
  }
  return check_broadcast_quant(ctx, op, operand, result, dims);
}

static kiln_status verify_broadcast_in_dim(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0);
  KILN_RETURN_IF_ERROR(compatible_elem(ctx, op, operand, result_type(op)));
  int_list dims;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "broadcast_dimensions", true, &dims));
  return check_broadcast_dims(ctx, op, operand, &dims);
}

/* The deprecated broadcast: result shape = broadcast_sizes ++ shape(operand). */
static kiln_status verify_broadcast(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0);
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "operand", operand));
  int_list sizes;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "broadcast_sizes", true, &sizes));
  int64_t rank = sizes.n + operand->tensor.rank;
  if (rank > MAX_DIMS)
    return kiln_verify_error(ctx, op, "result rank %lld exceeds the %d supported", (long long)rank,
                             MAX_DIMS);
  int64_t dims[MAX_DIMS];
  for (int64_t i = 0; i < sizes.n; i++) {
    if (sizes.v[i] < 0)
      return kiln_verify_error(ctx, op, "broadcast_sizes[%lld] = %lld is negative", (long long)i,
                               (long long)sizes.v[i]);
    dims[i] = sizes.v[i];
  }
  for (int32_t i = 0; i < operand->tensor.rank; i++) dims[sizes.n + i] = operand->tensor.dims[i];
  return check_result_dims(ctx, op, (int32_t)rank, dims, NULL);
}

/* dynamic_broadcast_in_dim_c1 .. c10. */
static kiln_status verify_dynamic_broadcast_in_dim(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 2, 2, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  KILN_RETURN_IF_ERROR(check_shape_operand(ctx, op, 1, "output_dimensions", false));
  const kiln_type *operand = operand_type(op, 0), *result = result_type(op);
  KILN_RETURN_IF_ERROR(compatible_elem(ctx, op, operand, result));
  if (result->tensor.rank < operand->tensor.rank)
    return kiln_verify_error(ctx, op, "result rank %d is less than operand rank %d",
                             result->tensor.rank, operand->tensor.rank);
  int_list dims;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "broadcast_dimensions", true, &dims));
  KILN_RETURN_IF_ERROR(check_broadcast_dims(ctx, op, operand, &dims));
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "output_dimensions",
                                       operand_type(op, 1)->tensor.dims[0], result->tensor.rank,
                                       "result"));
  int_list shape;
  if (constant_operand(op, 1, &shape)) {
    KILN_RETURN_IF_ERROR(check_shape_values(ctx, op, "output_dimensions", &shape));
    for (int32_t i = 0; i < operand->tensor.rank; i++) {
      int64_t d = operand->tensor.dims[i];
      if (d != KILN_DIM_DYNAMIC && d != 1 && dims.v[i] < shape.n && d != shape.v[dims.v[i]])
        return kiln_verify_error(
            ctx, op,
            "operand dimension %d (size %lld) is neither 1 nor output_dimensions[%lld] = %lld", i,
            (long long)d, (long long)dims.v[i], (long long)shape.v[dims.v[i]]);
    }
  }
  /* known_expanding_dimensions + known_nonexpanding_dimensions: distinct operand dims. */
  int_list known, more;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "known_expanding_dimensions", false, &known));
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "known_nonexpanding_dimensions", false, &more));
  if (known.n + more.n > MAX_DIMS) return kiln_verify_error(ctx, op, "too many expansion hints");
  for (int64_t i = 0; i < more.n; i++) known.v[known.n++] = more.v[i];
  return check_dim_list(ctx, op, "known_expanding_dimensions + known_nonexpanding_dimensions",
                        &known, operand->tensor.rank, "operand");
}

/* ---------------------------------------------------------------- reshapes and transposes */

/* reshape_c1 .. c3. */
static kiln_status verify_reshape(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0), *result = result_type(op);
  KILN_RETURN_IF_ERROR(compatible_elem(ctx, op, operand, result));
  int64_t no = operand->tensor.num_elements, nr = result->tensor.num_elements;
  if (no >= 0 && nr >= 0 && no != nr)
    return kiln_verify_error(ctx, op, "result has %lld elements but operand has %lld",
                             (long long)nr, (long long)no);
  return check_reshape_quant(ctx, op, operand, result);
}

/* dynamic_reshape_c1 .. c4. */
static kiln_status verify_dynamic_reshape(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 2, 2, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  KILN_RETURN_IF_ERROR(check_shape_operand(ctx, op, 1, "output_shape", false));
  const kiln_type *operand = operand_type(op, 0), *result = result_type(op);
  KILN_RETURN_IF_ERROR(compatible_elem(ctx, op, operand, result));
  int64_t no = operand->tensor.num_elements, nr = result->tensor.num_elements;
  if (no >= 0 && nr >= 0 && no != nr)
    return kiln_verify_error(ctx, op, "result has %lld elements but operand has %lld",
                             (long long)nr, (long long)no);
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "output_shape", operand_type(op, 1)->tensor.dims[0],
                                       result->tensor.rank, "result"));
  int_list shape;
  if (constant_operand(op, 1, &shape)) {
    KILN_RETURN_IF_ERROR(check_shape_values(ctx, op, "output_shape", &shape));
    int64_t count = 1;
    for (int64_t i = 0; i < shape.n; i++)
      if (!mul_ok(count, shape.v[i], &count))
        return kiln_verify_error(ctx, op, "output_shape overflows");
    if (no >= 0 && count != no)
      return kiln_verify_error(ctx, op, "output_shape has %lld elements but operand has %lld",
                               (long long)count, (long long)no);
  }
  return check_reshape_quant(ctx, op, operand, result);
}

/* transpose_c1 .. c4. */
static kiln_status verify_transpose(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0), *result = result_type(op);
  KILN_RETURN_IF_ERROR(compatible_elem(ctx, op, operand, result));
  if (is_per_axis(operand) && is_per_axis(result) &&
      !same_scales(operand->tensor.element, result->tensor.element))
    return type_error(ctx, op, "result", result, "operand", operand,
                      "must have the quantization scales and zero points of");
  int_list perm;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "permutation", true, &perm));
  int32_t rank = operand->tensor.rank;
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "permutation", perm.n, rank, "operand"));
  KILN_RETURN_IF_ERROR(check_dim_list(ctx, op, "permutation", &perm, rank, "operand"));
  int64_t dims[MAX_DIMS], bounds[MAX_DIMS];
  for (int32_t i = 0; i < rank; i++) {
    dims[i] = operand->tensor.dims[perm.v[i]];
    bounds[i] = operand->tensor.bounds ? operand->tensor.bounds[perm.v[i]] : KILN_DIM_DYNAMIC;
  }
  KILN_RETURN_IF_ERROR(check_result_dims(ctx, op, rank, dims, bounds));
  if (is_per_axis(result) && is_per_axis(operand)) {
    int32_t ar = result->tensor.element->quant.axis, ao = operand->tensor.element->quant.axis;
    if (ar < rank && perm.v[ar] != ao)
      return kiln_verify_error(
          ctx, op, "operand quantization_dimension %d must equal permutation[%d] = %lld", ao, ar,
          (long long)perm.v[ar]);
  }
  return NULL;
}

/* ---------------------------------------------------------------- slices */

/* slice_c1 .. c5. */
static kiln_status verify_slice(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0);
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "operand", operand));
  int_list start, limit, strides;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "start_indices", true, &start));
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "limit_indices", true, &limit));
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "strides", true, &strides));
  int32_t rank = operand->tensor.rank;
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "start_indices", start.n, rank, "operand"));
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "limit_indices", limit.n, rank, "operand"));
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "strides", strides.n, rank, "operand"));
  int64_t dims[MAX_DIMS];
  for (int32_t i = 0; i < rank; i++) {
    int64_t s = start.v[i], l = limit.v[i], st = strides.v[i];
    int64_t size = operand->tensor.dims[i];
    if (size == KILN_DIM_DYNAMIC && operand->tensor.bounds) size = operand->tensor.bounds[i];
    if (s < 0)
      return kiln_verify_error(ctx, op, "start_indices[%d] = %lld is negative", i, (long long)s);
    if (size != KILN_DIM_DYNAMIC && l > size)
      return kiln_verify_error(ctx, op,
                               "limit_indices[%d] = %lld exceeds operand dimension size %lld", i,
                               (long long)l, (long long)size);
    if (s > l)
      return kiln_verify_error(ctx, op,
                               "start_indices[%d] = %lld is greater than limit_indices[%d] = %lld",
                               i, (long long)s, i, (long long)l);
    if (st <= 0)
      return kiln_verify_error(ctx, op, "strides[%d] = %lld must be positive", i, (long long)st);
    dims[i] = (l - s) / st + ((l - s) % st != 0);
  }
  return check_result_dims(ctx, op, rank, dims, NULL);
}

/* dynamic_slice_c1 .. c5. */
static kiln_status verify_dynamic_slice(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, INT32_MAX, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0);
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "operand", operand));
  int_list sizes;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "slice_sizes", true, &sizes));
  int32_t rank = operand->tensor.rank;
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "slice_sizes", sizes.n, rank, "operand"));
  if (op->num_operands - 1 != rank)
    return kiln_verify_error(ctx, op, "expects %d start_indices (the operand rank), got %d", rank,
                             op->num_operands - 1);
  KILN_RETURN_IF_ERROR(check_start_indices(ctx, op, 1));
  for (int32_t i = 0; i < rank; i++) {
    int64_t size = operand->tensor.dims[i];
    if (sizes.v[i] < 0)
      return kiln_verify_error(ctx, op, "slice_sizes[%d] = %lld is negative", i,
                               (long long)sizes.v[i]);
    if (size != KILN_DIM_DYNAMIC && sizes.v[i] > size)
      return kiln_verify_error(ctx, op,
                               "slice_sizes[%d] = %lld exceeds operand dimension size %lld", i,
                               (long long)sizes.v[i], (long long)size);
  }
  return check_result_dims(ctx, op, rank, sizes.v, NULL);
}

/* dynamic_update_slice_c1 .. c6. */
static kiln_status verify_dynamic_update_slice(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 2, INT32_MAX, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "update", operand_type(op, 1)));
  const kiln_type *operand = operand_type(op, 0), *update = operand_type(op, 1);
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "update", update, "operand", operand));
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "operand", operand));
  int32_t rank = operand->tensor.rank;
  if (update->tensor.rank != rank)
    return kiln_verify_error(ctx, op, "update rank %d does not match operand rank %d",
                             update->tensor.rank, rank);
  if (op->num_operands - 2 != rank)
    return kiln_verify_error(ctx, op, "expects %d start_indices (the operand rank), got %d", rank,
                             op->num_operands - 2);
  KILN_RETURN_IF_ERROR(check_start_indices(ctx, op, 2));
  for (int32_t i = 0; i < rank; i++) {
    int64_t u = update->tensor.dims[i], o = operand->tensor.dims[i];
    if (u != KILN_DIM_DYNAMIC && o != KILN_DIM_DYNAMIC && u > o)
      return kiln_verify_error(
          ctx, op, "update dimension %d (size %lld) exceeds operand dimension size %lld", i,
          (long long)u, (long long)o);
  }
  return check_result_like(ctx, op, "operand", operand);
}

/* real_dynamic_slice: start, limit and strides are 1-D integer tensors of one type with
 * one entry per operand dimension. */
static kiln_status verify_real_dynamic_slice(const kiln_verify_ctx *ctx, const kiln_op *op) {
  static const char *const names[] = {"start_indices", "limit_indices", "strides"};
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 4, 4, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0), *result = result_type(op);
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result, "operand", operand));
  for (int32_t i = 1; i <= 3; i++) {
    KILN_RETURN_IF_ERROR(check_shape_operand(ctx, op, i, names[i - 1], true));
    const kiln_type *t = operand_type(op, i);
    if (i > 1 && !kiln_verify_types_compatible(t, operand_type(op, 1)))
      return type_error(ctx, op, names[i - 1], t, names[0], operand_type(op, 1), "does not match");
    if (t->tensor.dims[0] != KILN_DIM_DYNAMIC)
      KILN_RETURN_IF_ERROR(check_list_size(ctx, op, names[i - 1], t->tensor.dims[0],
                                           operand->tensor.rank, "operand"));
  }
  if (result->tensor.rank != operand->tensor.rank)
    return kiln_verify_error(ctx, op, "result rank %d does not match operand rank %d",
                             result->tensor.rank, operand->tensor.rank);
  return NULL;
}

/* ---------------------------------------------------------------- concatenate and pad */

/* concatenate_c1 .. c6. */
static kiln_status verify_concatenate(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, INT32_MAX, 1));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "result", result_type(op)));
  for (int32_t i = 0; i < op->num_operands; i++)
    KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "input", operand_type(op, i)));
  const kiln_type *first = operand_type(op, 0);
  int32_t rank = first->tensor.rank;
  int64_t dim;
  KILN_RETURN_IF_ERROR(read_int(ctx, op, "dimension", &dim));
  if (rank == 0) return kiln_verify_error(ctx, op, "cannot concatenate rank-0 inputs");
  KILN_RETURN_IF_ERROR(check_dim_index(ctx, op, "dimension", dim, rank, "input"));
  int64_t dims[MAX_DIMS];
  for (int32_t d = 0; d < rank; d++) dims[d] = d == dim ? 0 : KILN_DIM_DYNAMIC;
  char ts[160], fs[160];
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *t = operand_type(op, i);
    if (!kiln_verify_elems_identical(t->tensor.element, first->tensor.element) ||
        t->tensor.rank != rank)
      return kiln_verify_error(
          ctx, op, "input #%d type %s does not match the element type and rank of input #0 type %s",
          i, tstr(t, ts, sizeof ts), tstr(first, fs, sizeof fs));
    for (int32_t d = 0; d < rank; d++) {
      int64_t s = t->tensor.dims[d];
      if (d == dim) {
        if (s == KILN_DIM_DYNAMIC || dims[d] == KILN_DIM_DYNAMIC)
          dims[d] = KILN_DIM_DYNAMIC;
        else if (!add_ok(dims[d], s, &dims[d]))
          return kiln_verify_error(ctx, op, "concatenated dimension size overflows");
      } else if (!kiln_verify_dims_compatible(s, dims[d])) {
        return kiln_verify_error(
            ctx, op, "input #%d type %s does not match input #0 type %s in dimension %d", i,
            tstr(t, ts, sizeof ts), tstr(first, fs, sizeof fs), d);
      } else if (s != KILN_DIM_DYNAMIC) {
        dims[d] = s;
      }
    }
  }
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "input #0", first));
  return check_result_dims(ctx, op, rank, dims, NULL);
}

/* size + low + high + max(size - 1, 0) * interior, or false on overflow. */
static bool padded_size(int64_t size, int64_t low, int64_t high, int64_t interior, int64_t *out) {
  int64_t gaps;
  return mul_ok(size > 0 ? size - 1 : 0, interior, &gaps) && add_ok(size, low, out) &&
         add_ok(*out, high, out) && add_ok(*out, gaps, out);
}

/* pad_c1 .. c4. */
static kiln_status verify_pad(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 2, 2, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0), *pv = operand_type(op, 1);
  KILN_RETURN_IF_ERROR(need_scalar_tensor(ctx, op, "padding_value", pv));
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "padding_value", pv, "operand", operand));
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "operand", operand));
  int_list low, high, interior;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "edge_padding_low", true, &low));
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "edge_padding_high", true, &high));
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "interior_padding", true, &interior));
  int32_t rank = operand->tensor.rank;
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "edge_padding_low", low.n, rank, "operand"));
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "edge_padding_high", high.n, rank, "operand"));
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "interior_padding", interior.n, rank, "operand"));
  int64_t dims[MAX_DIMS], bounds[MAX_DIMS];
  for (int32_t i = 0; i < rank; i++) {
    if (interior.v[i] < 0)
      return kiln_verify_error(ctx, op, "interior_padding[%d] = %lld is negative", i,
                               (long long)interior.v[i]);
    int64_t size = operand->tensor.dims[i];
    int64_t bound = operand->tensor.bounds ? operand->tensor.bounds[i] : KILN_DIM_DYNAMIC;
    int64_t known = size != KILN_DIM_DYNAMIC ? size : bound, padded = KILN_DIM_DYNAMIC;
    if (known != KILN_DIM_DYNAMIC) {
      if (!padded_size(known, low.v[i], high.v[i], interior.v[i], &padded))
        return kiln_verify_error(ctx, op, "padding of dimension %d overflows", i);
      if (padded < 0)
        return kiln_verify_error(ctx, op, "padding makes dimension %d negative (%lld)", i,
                                 (long long)padded);
    }
    dims[i] = size != KILN_DIM_DYNAMIC ? padded : KILN_DIM_DYNAMIC;
    bounds[i] = size != KILN_DIM_DYNAMIC ? KILN_DIM_DYNAMIC : padded;
  }
  return check_result_dims(ctx, op, rank, dims, bounds);
}

/* dynamic_pad_c1 .. c4. */
static kiln_status verify_dynamic_pad(const kiln_verify_ctx *ctx, const kiln_op *op) {
  static const char *const names[] = {"edge_padding_low", "edge_padding_high", "interior_padding"};
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 5, 5, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0), *pv = operand_type(op, 1);
  const kiln_type *result = result_type(op);
  KILN_RETURN_IF_ERROR(need_scalar_tensor(ctx, op, "padding_value", pv));
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "padding_value", pv, "operand", operand));
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result, "operand", operand));
  int32_t rank = operand->tensor.rank;
  for (int32_t i = 2; i < 5; i++) {
    KILN_RETURN_IF_ERROR(check_shape_operand(ctx, op, i, names[i - 2], false));
    const kiln_type *t = operand_type(op, i);
    if (i > 2 && !kiln_verify_types_compatible(t, operand_type(op, 2)))
      return type_error(ctx, op, names[i - 2], t, names[0], operand_type(op, 2), "does not match");
  }
  KILN_RETURN_IF_ERROR(
      check_list_size(ctx, op, names[0], operand_type(op, 2)->tensor.dims[0], rank, "operand"));
  if (result->tensor.rank != rank)
    return kiln_verify_error(ctx, op, "result rank %d does not match operand rank %d",
                             result->tensor.rank, rank);
  int_list pads[3];
  bool have[3], known = true;
  for (int32_t k = 0; k < 3; k++) {
    have[k] = constant_operand(op, 2 + k, &pads[k]);
    known = known && have[k] && pads[k].n == rank;
  }
  for (int64_t i = 0; have[2] && i < pads[2].n; i++)
    if (pads[2].v[i] < 0)
      return kiln_verify_error(ctx, op, "interior_padding[%lld] = %lld is negative", (long long)i,
                               (long long)pads[2].v[i]);
  if (!known || operand->tensor.num_elements < 0) return NULL;
  int64_t dims[MAX_DIMS];
  for (int32_t i = 0; i < rank; i++)
    if (!padded_size(operand->tensor.dims[i], pads[0].v[i], pads[1].v[i], pads[2].v[i], &dims[i]))
      return kiln_verify_error(ctx, op, "padding of dimension %d overflows", i);
  return check_result_dims(ctx, op, rank, dims, NULL);
}

/* ---------------------------------------------------------------- iota and reverse */

/* iota_c1; the result is a statically shaped tensor of rank >= 1. */
static kiln_status verify_iota(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 0, 0, 1));
  const kiln_type *r = result_type(op);
  char ts[160];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "result", r));
  const kiln_type *e = r->tensor.element;
  bool ok = e->kind == KILN_TYPE_QUANT
                ? e->quant.axis < 0
                : e->kind == KILN_TYPE_SCALAR && kiln_elem_class_of(e->elem) != KILN_ELEM_CLASS_B &&
                      kiln_elem_class_of(e->elem) != KILN_ELEM_CLASS_X;
  if (!ok)
    return kiln_verify_error(ctx, op,
                             "result must be a tensor of integer, floating-point, complex or "
                             "per-tensor quantized elements, got %s",
                             tstr(r, ts, sizeof ts));
  if (!kiln_type_is_static(r))
    return kiln_verify_error(ctx, op, "result type %s must have a static shape",
                             tstr(r, ts, sizeof ts));
  if (r->tensor.rank == 0)
    return kiln_verify_error(ctx, op, "result type %s must have rank >= 1", tstr(r, ts, sizeof ts));
  int64_t dim;
  KILN_RETURN_IF_ERROR(read_int(ctx, op, "iota_dimension", &dim));
  return check_dim_index(ctx, op, "iota_dimension", dim, r->tensor.rank, "result");
}

/* dynamic_iota_c1, dynamic_iota_c2. */
static kiln_status verify_dynamic_iota(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_shape_operand(ctx, op, 0, "output_shape", false));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "result", result_type(op)));
  int32_t rank = result_type(op)->tensor.rank;
  int64_t dim;
  KILN_RETURN_IF_ERROR(read_int(ctx, op, "iota_dimension", &dim));
  KILN_RETURN_IF_ERROR(check_dim_index(ctx, op, "iota_dimension", dim, rank, "result"));
  KILN_RETURN_IF_ERROR(check_list_size(ctx, op, "output_shape", operand_type(op, 0)->tensor.dims[0],
                                       rank, "result"));
  int_list shape;
  if (constant_operand(op, 0, &shape)) return check_shape_values(ctx, op, "output_shape", &shape);
  return NULL;
}

/* reverse_c1 .. c3. */
static kiln_status verify_reverse(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  const kiln_type *operand = operand_type(op, 0);
  KILN_RETURN_IF_ERROR(same_elem(ctx, op, "result", result_type(op), "operand", operand));
  int_list dims;
  KILN_RETURN_IF_ERROR(read_list(ctx, op, "dimensions", true, &dims));
  KILN_RETURN_IF_ERROR(
      check_dim_list(ctx, op, "dimensions", &dims, operand->tensor.rank, "operand"));
  return check_result_like(ctx, op, "operand", operand);
}

/* ---------------------------------------------------------------- dimension sizes */

static bool is_i32_scalar(const kiln_type *t) {
  return is_tensor(t) && t->tensor.rank == 0 && has_scalar_elem(t) &&
         t->tensor.element->elem == KILN_ELEM_SI32;
}

/* get_dimension_size_c1; the result is tensor<i32>. */
static kiln_status verify_get_dimension_size(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "operand", operand_type(op, 0)));
  int64_t dim;
  KILN_RETURN_IF_ERROR(read_int(ctx, op, "dimension", &dim));
  KILN_RETURN_IF_ERROR(
      check_dim_index(ctx, op, "dimension", dim, operand_type(op, 0)->tensor.rank, "operand"));
  if (is_i32_scalar(result_type(op))) return NULL;
  char ts[160];
  return kiln_verify_error(ctx, op, "result must be tensor<i32>, got %s",
                           tstr(result_type(op), ts, sizeof ts));
}

/* set_dimension_size: operand with dimension `dimension` resized to `size`. */
static kiln_status verify_set_dimension_size(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 2, 2, 1));
  KILN_RETURN_IF_ERROR(check_operand_and_result(ctx, op));
  char ts[160];
  if (!is_i32_scalar(operand_type(op, 1)))
    return kiln_verify_error(ctx, op, "size must be tensor<i32>, got %s",
                             tstr(operand_type(op, 1), ts, sizeof ts));
  const kiln_type *operand = operand_type(op, 0), *result = result_type(op);
  int64_t dim;
  KILN_RETURN_IF_ERROR(read_int(ctx, op, "dimension", &dim));
  KILN_RETURN_IF_ERROR(check_dim_index(ctx, op, "dimension", dim, operand->tensor.rank, "operand"));
  if (!kiln_verify_elems_compatible(result->tensor.element, operand->tensor.element))
    return type_error(ctx, op, "result", result, "operand", operand,
                      "does not have the element type of");
  int64_t dims[MAX_DIMS], bounds[MAX_DIMS];
  for (int32_t i = 0; i < operand->tensor.rank; i++) {
    dims[i] = i == dim ? KILN_DIM_DYNAMIC : operand->tensor.dims[i];
    bounds[i] = i == dim ? operand->tensor.dims[i] : KILN_DIM_DYNAMIC;
  }
  return check_result_dims(ctx, op, operand->tensor.rank, dims, bounds);
}

/* ---------------------------------------------------------------- tuples and constants */

/* Types that may flow into each other: tensors compatibly, tuples element by element,
 * anything else by equality. */
static bool values_compatible(const kiln_type *a, const kiln_type *b) {
  if (!a || !b) return false;
  if (is_tensor(a) && is_tensor(b)) return kiln_verify_types_compatible(a, b);
  if (a->kind == KILN_TYPE_TUPLE && b->kind == KILN_TYPE_TUPLE) {
    if (a->tuple.count != b->tuple.count) return false;
    for (int32_t i = 0; i < a->tuple.count; i++)
      if (!values_compatible(a->tuple.types[i], b->tuple.types[i])) return false;
    return true;
  }
  return kiln_type_equal(a, b);
}

/* tuple_c1. */
static kiln_status verify_tuple(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 0, INT32_MAX, 1));
  const kiln_type *r = result_type(op);
  char ts[160], os[160];
  if (r->kind != KILN_TYPE_TUPLE || r->tuple.count != op->num_operands)
    return kiln_verify_error(ctx, op, "result type %s must be a tuple of %d elements",
                             tstr(r, ts, sizeof ts), op->num_operands);
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!values_compatible(r->tuple.types[i], operand_type(op, i)))
      return kiln_verify_error(
          ctx, op, "result tuple element #%d type %s does not match operand #%d type %s", i,
          tstr(r->tuple.types[i], ts, sizeof ts), i, tstr(operand_type(op, i), os, sizeof os));
  return NULL;
}

/* get_tuple_element_c1, get_tuple_element_c2. */
static kiln_status verify_get_tuple_element(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 1, 1, 1));
  const kiln_type *t = operand_type(op, 0), *r = result_type(op);
  char ts[160], rs[160];
  if (t->kind != KILN_TYPE_TUPLE)
    return kiln_verify_error(ctx, op, "operand must be a tuple, got %s", tstr(t, ts, sizeof ts));
  int64_t index;
  KILN_RETURN_IF_ERROR(read_int(ctx, op, "index", &index));
  if (index < 0 || index >= t->tuple.count)
    return kiln_verify_error(ctx, op, "index %lld is out of range for operand type %s",
                             (long long)index, tstr(t, ts, sizeof ts));
  const kiln_type *e = t->tuple.types[index];
  if (values_compatible(r, e)) return NULL;
  return kiln_verify_error(ctx, op, "result type %s does not match tuple element #%lld type %s",
                           tstr(r, rs, sizeof rs), (long long)index, tstr(e, ts, sizeof ts));
}

/* constant_c1: type(value) = type(output); a quantized output holds its storage values. */
static kiln_status verify_constant(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_counts(ctx, op, 0, 0, 1));
  const kiln_type *r = result_type(op);
  const kiln_attr *value = kiln_op_attr(op, "value");
  char ts[160], vs[160];
  if (!value) return kiln_verify_error(ctx, op, "requires attribute 'value'");
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, "result", r));
  if (!kiln_type_is_static(r))
    return kiln_verify_error(ctx, op, "result type %s must have a static shape",
                             tstr(r, ts, sizeof ts));
  const kiln_type *v = value->type;
  if (value->kind == KILN_ATTR_OPAQUE) return NULL; /* dense_resource<...> and the like */
  if (value->kind != KILN_ATTR_DENSE || !is_tensor(v))
    return kiln_verify_error(ctx, op, "attribute 'value' must be a dense elements attribute");
  const kiln_type *re = r->tensor.element, *ve = v->tensor.element;
  bool elem_ok = kiln_verify_elems_identical(ve, re) ||
                 (re->kind == KILN_TYPE_QUANT && ve->kind == KILN_TYPE_SCALAR &&
                  ve->elem == re->quant.storage);
  bool shape_ok = v->tensor.rank == r->tensor.rank;
  for (int32_t i = 0; shape_ok && i < r->tensor.rank; i++)
    shape_ok = v->tensor.dims[i] == r->tensor.dims[i];
  if (elem_ok && shape_ok) return NULL;
  return kiln_verify_error(ctx, op, "value type %s does not match result type %s",
                           tstr(v, vs, sizeof vs), tstr(r, ts, sizeof ts));
}

/* ---------------------------------------------------------------- lookup */

kiln_verify_fn kiln_verify_shape_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_BROADCAST_IN_DIM: return verify_broadcast_in_dim;
    case KILN_OP_BROADCAST: return verify_broadcast;
    case KILN_OP_DYNAMIC_BROADCAST_IN_DIM: return verify_dynamic_broadcast_in_dim;
    case KILN_OP_RESHAPE: return verify_reshape;
    case KILN_OP_DYNAMIC_RESHAPE: return verify_dynamic_reshape;
    case KILN_OP_TRANSPOSE: return verify_transpose;
    case KILN_OP_SLICE: return verify_slice;
    case KILN_OP_DYNAMIC_SLICE: return verify_dynamic_slice;
    case KILN_OP_DYNAMIC_UPDATE_SLICE: return verify_dynamic_update_slice;
    case KILN_OP_REAL_DYNAMIC_SLICE: return verify_real_dynamic_slice;
    case KILN_OP_CONCATENATE: return verify_concatenate;
    case KILN_OP_PAD: return verify_pad;
    case KILN_OP_DYNAMIC_PAD: return verify_dynamic_pad;
    case KILN_OP_IOTA: return verify_iota;
    case KILN_OP_DYNAMIC_IOTA: return verify_dynamic_iota;
    case KILN_OP_REVERSE: return verify_reverse;
    case KILN_OP_GET_DIMENSION_SIZE: return verify_get_dimension_size;
    case KILN_OP_SET_DIMENSION_SIZE: return verify_set_dimension_size;
    case KILN_OP_TUPLE: return verify_tuple;
    case KILN_OP_GET_TUPLE_ELEMENT: return verify_get_tuple_element;
    case KILN_OP_CONSTANT: return verify_constant;
    default: return NULL;
  }
}
