#include <string.h>

#include "ir/ir.h"

static bool types_equal(const kiln_type *const *a, const kiln_type *const *b, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    if (!kiln_type_equal(a[i], b[i])) return false;
  return true;
}

bool kiln_type_equal(const kiln_type *a, const kiln_type *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case KILN_TYPE_SCALAR: return a->elem == b->elem;
    case KILN_TYPE_QUANT:
      if (a->quant.storage != b->quant.storage || a->quant.expressed != b->quant.expressed ||
          a->quant.axis != b->quant.axis || a->quant.count != b->quant.count ||
          a->quant.storage_min != b->quant.storage_min ||
          a->quant.storage_max != b->quant.storage_max)
        return false;
      for (int32_t i = 0; i < a->quant.count; i++)
        if (a->quant.scales[i] != b->quant.scales[i] ||
            a->quant.zero_points[i] != b->quant.zero_points[i])
          return false;
      return true;
    case KILN_TYPE_TENSOR:
      if (a->tensor.rank != b->tensor.rank || !kiln_type_equal(a->tensor.element, b->tensor.element))
        return false;
      if (memcmp(a->tensor.dims, b->tensor.dims, sizeof(int64_t) * (size_t)a->tensor.rank)) return false;
      if (!a->tensor.bounds != !b->tensor.bounds) return false;
      if (a->tensor.bounds &&
          memcmp(a->tensor.bounds, b->tensor.bounds, sizeof(int64_t) * (size_t)a->tensor.rank))
        return false;
      if (!a->tensor.encoding != !b->tensor.encoding) return false;
      return !a->tensor.encoding || kiln_attr_equal(a->tensor.encoding, b->tensor.encoding);
    case KILN_TYPE_TUPLE:
    case KILN_TYPE_FUTURE:
      return a->tuple.count == b->tuple.count && types_equal(a->tuple.types, b->tuple.types, a->tuple.count);
    case KILN_TYPE_FUNCTION:
      return a->func.num_inputs == b->func.num_inputs && a->func.num_results == b->func.num_results &&
             types_equal(a->func.inputs, b->func.inputs, a->func.num_inputs) &&
             types_equal(a->func.results, b->func.results, a->func.num_results);
    case KILN_TYPE_OPAQUE: return strcmp(a->opaque, b->opaque) == 0;
    case KILN_TYPE_TOKEN:
    case KILN_TYPE_NONE: return true;
  }
  return false;
}

bool kiln_type_is_tensor(const kiln_type *t) { return t && t->kind == KILN_TYPE_TENSOR; }

const kiln_type *kiln_type_element(const kiln_type *t) {
  return kiln_type_is_tensor(t) ? t->tensor.element : NULL;
}

kiln_elem kiln_type_elem(const kiln_type *t) {
  const kiln_type *e = kiln_type_element(t);
  if (!e) return KILN_ELEM_COUNT;
  return e->kind == KILN_TYPE_QUANT ? e->quant.storage : e->elem;
}

bool kiln_type_is_quant_tensor(const kiln_type *t) {
  const kiln_type *e = kiln_type_element(t);
  return e && e->kind == KILN_TYPE_QUANT;
}

bool kiln_type_is_static(const kiln_type *t) {
  return kiln_type_is_tensor(t) && t->tensor.num_elements >= 0;
}
