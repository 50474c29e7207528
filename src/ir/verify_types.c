/* Type comparisons shared by the verifier's rule families (declared in ir/verify.h). */
#include "ir/verify.h"

static bool is_tensor(const kiln_type *t) { return t && t->kind == KILN_TYPE_TENSOR; }


bool kiln_verify_dims_compatible(int64_t a, int64_t b) {
  return a == KILN_DIM_DYNAMIC || b == KILN_DIM_DYNAMIC || a == b;
}

/* Same rank and pairwise compatible dimensions (MLIR's verifyCompatibleShape). */
bool kiln_verify_shapes_compatible(const kiln_type *a, const kiln_type *b) {
  if (!is_tensor(a) || !is_tensor(b) || a->tensor.rank != b->tensor.rank) return false;
  for (int32_t i = 0; i < a->tensor.rank; i++)
    if (!kiln_verify_dims_compatible(a->tensor.dims[i], b->tensor.dims[i])) return false;
  return true;
}

/* No static size of one side exceeds a bound of the other. */
bool kiln_verify_fits_bounds(const kiln_type *sized, const kiln_type *bounded) {
  if (!bounded->tensor.bounds) return true;
  for (int32_t i = 0; i < sized->tensor.rank; i++) {
    int64_t d = sized->tensor.dims[i], b = bounded->tensor.bounds[i];
    if (d != KILN_DIM_DYNAMIC && b != KILN_DIM_DYNAMIC && d > b) return false;
  }
  return true;
}

static int64_t storage_min(const kiln_type *q) {
  if (q->quant.has_storage_range) return q->quant.storage_min;
  int bits = kiln_elem_bits(q->quant.storage);
  if (kiln_elem_class_of(q->quant.storage) == KILN_ELEM_CLASS_U) return 0;
  return bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
}

static int64_t storage_max(const kiln_type *q) {
  if (q->quant.has_storage_range) return q->quant.storage_max;
  int bits = kiln_elem_bits(q->quant.storage);
  if (bits >= 63) return INT64_MAX;
  if (kiln_elem_class_of(q->quant.storage) == KILN_ELEM_CLASS_U) return ((int64_t)1 << bits) - 1;
  return ((int64_t)1 << (bits - 1)) - 1;
}

/* baseline_element_type equality: quantization parameters may differ. */
bool kiln_verify_elems_compatible(const kiln_type *a, const kiln_type *b) {
  if (!a || !b || a->kind != b->kind) return false;
  if (a->kind == KILN_TYPE_SCALAR) return a->elem == b->elem;
  if (a->kind != KILN_TYPE_QUANT) return false;
  return a->quant.storage == b->quant.storage && a->quant.expressed == b->quant.expressed &&
         storage_min(a) == storage_min(b) && storage_max(a) == storage_max(b) &&
         (a->quant.axis >= 0) == (b->quant.axis >= 0);
}

/* Full equality of two element types, quantization parameters included. */
bool kiln_verify_elems_identical(const kiln_type *a, const kiln_type *b) {
  if (!kiln_verify_elems_compatible(a, b)) return false;
  if (a->kind != KILN_TYPE_QUANT) return true;
  if (a->quant.axis != b->quant.axis || a->quant.count != b->quant.count) return false;
  for (int32_t i = 0; i < a->quant.count; i++)
    if (a->quant.scales[i] != b->quant.scales[i] ||
        a->quant.zero_points[i] != b->quant.zero_points[i])
      return false;
  return true;
}

bool kiln_verify_types_compatible(const kiln_type *a, const kiln_type *b) {
  if (!is_tensor(a) || !is_tensor(b)) return kiln_type_equal(a, b);
  return kiln_verify_shapes_compatible(a, b) && kiln_verify_fits_bounds(a, b) &&
         kiln_verify_fits_bounds(b, a) &&
         kiln_verify_elems_compatible(a->tensor.element, b->tensor.element);
}

