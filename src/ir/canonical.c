/* Canonical forms (canonical.h): the field order of the #stablehlo.* structures and the
 * default-valued attributes of StableHLO's ODS op definitions. */
#include "ir/canonical.h"

#include <string.h>

/* The structures whose fields MLIR prints in a fixed order, whatever order they were
 * written in (StablehloAttrs.td). */
static const struct {
  const char *name;
  const char *fields[8];
} k_struct_orders[] = {
    {"dot", {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions", "rhs_contracting_dimensions"}},
    {"gather", {"offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims", "start_index_map", "index_vector_dim"}},
    {"scatter", {"update_window_dims", "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim"}},
    {"dot_algorithm", {"lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count", "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"}},
    {"channel_handle", {"handle", "type"}},
    {"output_operand_alias", {"output_tuple_indices", "operand_index", "operand_tuple_indices"}},
    {"result_accuracy", {"atol", "rtol", "ulps", "mode"}},
    {"replica_group_mesh_axes", {"mesh", "axes"}},
    {"axis_ref", {"name", "sub_axis_info"}},
    {"mesh_axis", {"name", "size"}},
    {"mesh", {"axes", "device_ids"}},
};

static int field_rank(const char *const *order, const char *name) {
  int k = 0;
  for (; k < 8 && order[k]; k++)
    if (name && !strcmp(order[k], name)) return k;
  return k;
}

void kiln_attr_struct_canonicalize(kiln_attr *s) {
  if (!s || s->kind != KILN_ATTR_STRUCT || !s->strct.dialect || strcmp(s->strct.dialect, "stablehlo")) return;
  for (size_t t = 0; t < sizeof k_struct_orders / sizeof k_struct_orders[0]; t++) {
    if (strcmp(k_struct_orders[t].name, s->strct.name)) continue;
    const char *const *order = k_struct_orders[t].fields;
    if (s->strct.count > 8) return; /* more fields than any of them has: kept as written */
    /* insertion sort: stable, and at most 8 fields */
    for (int32_t i = 1; i < s->strct.count; i++) {
      kiln_named_attr f = s->strct.fields[i];
      int rank = field_rank(order, f.name);
      int32_t j = i;
      for (; j > 0 && field_rank(order, s->strct.fields[j - 1].name) > rank; j--) s->strct.fields[j] = s->strct.fields[j - 1];
      s->strct.fields[j] = f;
    }
    return;
  }
}

static bool is_int(const kiln_attr *a, int64_t v) { return a->kind == KILN_ATTR_INT && kiln_attr_int(a) == v; }

static bool all_equal(const kiln_attr *a, int64_t v) {
  if (a->kind != KILN_ATTR_DENSE || !kiln_elem_is_int(kiln_type_elem(a->type))) return false;
  int64_t n = kiln_attr_count(a), x;
  for (int64_t i = 0; i < n; i++)
    if (!kiln_attr_i64_at(a, i, &x) || x != v) return false;
  return n > 0 || a->dense.splat;
}

static bool is_enum(const kiln_attr *a, const char *value) {
  return a->kind == KILN_ATTR_ENUM && !strcmp(a->enumv.value, value);
}

static bool is_zero_float(const kiln_attr *a) { return a->kind == KILN_ATTR_FLOAT && a->f == 0; }

bool kiln_attr_is_default(const kiln_attr *a, kiln_default rule) {
  switch (rule) {
    case KILN_DEFAULT_FALSE: return a->kind == KILN_ATTR_BOOL && !a->b;
    case KILN_DEFAULT_ZERO: return is_int(a, 0);
    case KILN_DEFAULT_ONE: return is_int(a, 1);
    case KILN_DEFAULT_MINUS_ONE: return is_int(a, -1);
    case KILN_DEFAULT_EMPTY_ARRAY: return a->kind == KILN_ATTR_ARRAY && a->array.count == 0;
    case KILN_DEFAULT_EMPTY_STRING: return a->kind == KILN_ATTR_STRING && a->str.len == 0;
    case KILN_DEFAULT_EMPTY_DICT: return a->kind == KILN_ATTR_DICT && a->dict.count == 0;
    case KILN_DEFAULT_EMPTY_CONFIG:
      return kiln_attr_is_default(a, KILN_DEFAULT_EMPTY_STRING) || kiln_attr_is_default(a, KILN_DEFAULT_EMPTY_DICT);
    case KILN_DEFAULT_EMPTY_TENSOR: return a->kind == KILN_ATTR_DENSE && a->dense.nbytes == 0;
    case KILN_DEFAULT_ALL_ONE: return all_equal(a, 1);
    case KILN_DEFAULT_ALL_ZERO: return all_equal(a, 0);
    case KILN_DEFAULT_ENUM_NOTYPE: return is_enum(a, "NOTYPE");
    case KILN_DEFAULT_PRECISION:
      if (a->kind != KILN_ATTR_ARRAY) return false;
      for (int32_t i = 0; i < a->array.count; i++)
        if (!is_enum(a->array.items[i], "DEFAULT")) return false;
      return true;
    case KILN_DEFAULT_RESULT_ACCURACY: {
      if (a->kind != KILN_ATTR_STRUCT || strcmp(a->strct.name, "result_accuracy") || a->strct.count != 4) return false;
      const kiln_named_attr *f = a->strct.fields;
      return is_zero_float(f[0].value) && is_zero_float(f[1].value) && is_int(f[2].value, 0) && is_enum(f[3].value, "DEFAULT");
    }
  }
  return false;
}

/* StableHLO's default-valued attributes (DefaultValuedOptionalAttr, DefaultValuedStrAttr in
 * StablehloOps.td); KILN_OP_COUNT stands for every op. */
static const struct {
  kiln_op_kind op;
  const char *attr;
  kiln_default rule;
} k_ods_defaults[] = {
    {KILN_OP_CUSTOM_CALL, "api_version", KILN_DEFAULT_ONE},
    {KILN_OP_CUSTOM_CALL, "has_side_effect", KILN_DEFAULT_FALSE},
    {KILN_OP_CUSTOM_CALL, "called_computations", KILN_DEFAULT_EMPTY_ARRAY},
    {KILN_OP_CUSTOM_CALL, "output_operand_aliases", KILN_DEFAULT_EMPTY_ARRAY},
    {KILN_OP_COMPOSITE, "version", KILN_DEFAULT_ZERO},
    {KILN_OP_COMPOSITE, "composite_attributes", KILN_DEFAULT_EMPTY_DICT},
    {KILN_OP_CHOLESKY, "lower", KILN_DEFAULT_FALSE},
    {KILN_OP_GATHER, "indices_are_sorted", KILN_DEFAULT_FALSE},
    {KILN_OP_DYNAMIC_GATHER, "indices_are_sorted", KILN_DEFAULT_FALSE},
    {KILN_OP_SCATTER, "indices_are_sorted", KILN_DEFAULT_FALSE},
    {KILN_OP_SCATTER, "unique_indices", KILN_DEFAULT_FALSE},
    {KILN_OP_SORT, "dimension", KILN_DEFAULT_MINUS_ONE},
    {KILN_OP_SORT, "is_stable", KILN_DEFAULT_FALSE},
    {KILN_OP_SEND, "is_host_transfer", KILN_DEFAULT_FALSE},
    {KILN_OP_RECV, "is_host_transfer", KILN_DEFAULT_FALSE},
    {KILN_OP_INFEED, "infeed_config", KILN_DEFAULT_EMPTY_STRING},
    {KILN_OP_OUTFEED, "outfeed_config", KILN_DEFAULT_EMPTY_STRING},
    {KILN_OP_COUNT, "result_accuracy", KILN_DEFAULT_RESULT_ACCURACY},
};

bool kiln_op_attr_is_default(kiln_op_kind kind, const char *name, const kiln_attr *value) {
  for (size_t i = 0; i < sizeof k_ods_defaults / sizeof k_ods_defaults[0]; i++)
    if ((k_ods_defaults[i].op == kind || k_ods_defaults[i].op == KILN_OP_COUNT) && !strcmp(k_ods_defaults[i].attr, name))
      return kiln_attr_is_default(value, k_ods_defaults[i].rule);
  return false;
}
