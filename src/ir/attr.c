#include <string.h>

#include "ir/ir.h"

int64_t kiln_attr_int(const kiln_attr *a) {
  uint64_t m = a->i.magnitude;
  return (int64_t)(a->i.negative ? (uint64_t)0 - m : m);
}

static bool dense_equal(const kiln_attr *a, const kiln_attr *b) {
  return a->dense.splat == b->dense.splat && a->dense.nbytes == b->dense.nbytes &&
         memcmp(a->dense.data, b->dense.data, a->dense.nbytes) == 0;
}

static bool named_equal(const kiln_named_attr *a, const kiln_named_attr *b, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    if (!a[i].name != !b[i].name || (a[i].name && strcmp(a[i].name, b[i].name))) return false;
    if (!kiln_attr_equal(a[i].value, b[i].value)) return false;
  }
  return true;
}

static bool str_eq(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

bool kiln_attr_equal(const kiln_attr *a, const kiln_attr *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  if (!a->type != !b->type || (a->type && !kiln_type_equal(a->type, b->type))) return false;
  switch (a->kind) {
    case KILN_ATTR_UNIT: return true;
    case KILN_ATTR_BOOL: return a->b == b->b;
    case KILN_ATTR_INT: return a->i.magnitude == b->i.magnitude && a->i.negative == b->i.negative;
    case KILN_ATTR_FLOAT: return memcmp(&a->f, &b->f, sizeof a->f) == 0;
    case KILN_ATTR_STRING:
      return a->str.len == b->str.len && memcmp(a->str.data, b->str.data, a->str.len) == 0;
    case KILN_ATTR_TYPE: return true; /* compared through ->type */
    case KILN_ATTR_ARRAY:
      if (a->array.count != b->array.count) return false;
      for (int32_t i = 0; i < a->array.count; i++)
        if (!kiln_attr_equal(a->array.items[i], b->array.items[i])) return false;
      return true;
    case KILN_ATTR_DENSE_ARRAY:
      if (a->dense_array.count != b->dense_array.count) return false;
      if (a->dense_array.ints)
        return memcmp(a->dense_array.ints, b->dense_array.ints, sizeof(int64_t) * (size_t)a->dense_array.count) == 0;
      return memcmp(a->dense_array.floats, b->dense_array.floats, sizeof(double) * (size_t)a->dense_array.count) == 0;
    case KILN_ATTR_DENSE: return dense_equal(a, b);
    case KILN_ATTR_DICT:
      return a->dict.count == b->dict.count && named_equal(a->dict.entries, b->dict.entries, a->dict.count);
    case KILN_ATTR_SYMBOL: return strcmp(a->symbol, b->symbol) == 0;
    case KILN_ATTR_ENUM:
      return str_eq(a->enumv.dialect, b->enumv.dialect) && str_eq(a->enumv.name, b->enumv.name) &&
             str_eq(a->enumv.value, b->enumv.value);
    case KILN_ATTR_STRUCT:
      return str_eq(a->strct.dialect, b->strct.dialect) && str_eq(a->strct.name, b->strct.name) &&
             a->strct.count == b->strct.count && named_equal(a->strct.fields, b->strct.fields, a->strct.count);
    case KILN_ATTR_OPAQUE: return strcmp(a->opaque, b->opaque) == 0;
  }
  return false;
}

const kiln_attr *kiln_attr_get(const kiln_attr *a, const char *name) {
  if (!a) return NULL;
  const kiln_named_attr *e;
  int32_t n;
  if (a->kind == KILN_ATTR_DICT) e = a->dict.entries, n = a->dict.count;
  else if (a->kind == KILN_ATTR_STRUCT) e = a->strct.fields, n = a->strct.count;
  else return NULL;
  for (int32_t i = 0; i < n; i++)
    if (e[i].name && strcmp(e[i].name, name) == 0) return e[i].value;
  return NULL;
}

static bool dense_is_int(const kiln_attr *a) {
  return a->kind == KILN_ATTR_DENSE && kiln_elem_is_int(kiln_type_elem(a->type)) &&
         !kiln_type_is_quant_tensor(a->type);
}

int64_t kiln_attr_count(const kiln_attr *a) {
  if (!a) return -1;
  switch (a->kind) {
    case KILN_ATTR_INT: return 1;
    case KILN_ATTR_ARRAY:
      for (int32_t i = 0; i < a->array.count; i++)
        if (a->array.items[i]->kind != KILN_ATTR_INT) return -1;
      return a->array.count;
    case KILN_ATTR_DENSE_ARRAY: return a->dense_array.ints ? a->dense_array.count : -1;
    case KILN_ATTR_DENSE: return dense_is_int(a) ? a->type->tensor.num_elements : -1;
    default: return -1;
  }
}

static int64_t load_int(const uint8_t *p, kiln_elem e) {
  size_t n = kiln_elem_storage_bytes(e);
  uint64_t u = 0;
  memcpy(&u, p, n); /* little-endian host (x86-64, aarch64) */
  bool sign = kiln_elem_class_of(e) == KILN_ELEM_CLASS_I || e == KILN_ELEM_INDEX;
  if (sign && n < 8 && (u >> (n * 8 - 1)) & 1) u |= ~(uint64_t)0 << (n * 8);
  return (int64_t)u;
}

bool kiln_attr_i64_at(const kiln_attr *a, int64_t i, int64_t *out) {
  int64_t n = kiln_attr_count(a);
  if (i < 0 || i >= n) return false;
  switch (a->kind) {
    case KILN_ATTR_INT: *out = kiln_attr_int(a); return true;
    case KILN_ATTR_ARRAY: *out = kiln_attr_int(a->array.items[i]); return true;
    case KILN_ATTR_DENSE_ARRAY: *out = a->dense_array.ints[i]; return true;
    case KILN_ATTR_DENSE: {
      kiln_elem e = kiln_type_elem(a->type);
      size_t sz = kiln_elem_storage_bytes(e);
      *out = load_int(a->dense.data + (a->dense.splat ? 0 : (size_t)i * sz), e);
      return true;
    }
    default: return false;
  }
}
