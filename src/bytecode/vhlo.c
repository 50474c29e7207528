/* VHLO ops to Kiln's StableHLO ops: the op table (vhlo_ops.def), and the attribute
 * rewrites of stablehlo/transforms/VhloLegalizeToStablehlo.cpp: default-valued attributes
 * dropped, separate dimension-number attributes joined into the #stablehlo.* structures,
 * 1-D integer tensors turned back into dense arrays, names made symbols. The result is
 * what the text parser makes of the same StableHLO op. */
#include <string.h>

#include "bytecode/reader.h"
#include "ir/canonical.h"

typedef struct vhlo_op {
  const char *name;
  const char *attrs;
} vhlo_op;

static const vhlo_op k_vhlo[] = {
#define KILN_VHLO_OP(name, attrs) {name, attrs},
#include "bytecode/vhlo_ops.def"
};
enum { NUM_VHLO = sizeof k_vhlo / sizeof k_vhlo[0] };

int kb_vhlo_lookup(const char *name) {
  for (int i = 0; i < NUM_VHLO; i++)
    if (!strcmp(k_vhlo[i].name, name)) return i;
  return -1;
}

const char *const *kb_vhlo_attr_names(kb_reader *r, int vhlo, int32_t *out_count) {
  if (!r->vhlo_names && !(r->vhlo_names = kb_scratch(r, NUM_VHLO, sizeof *r->vhlo_names))) return NULL;
  const char *list = k_vhlo[vhlo].attrs;
  int32_t n = 0;
  for (const char *p = list; *p; p++) n += p == list || p[-1] == ' ';
  if (!r->vhlo_names[vhlo]) {
    const char **names = kb_scratch(r, (size_t)n, sizeof *names);
    if (!names) return NULL;
    const char *p = list;
    for (int32_t i = 0; i < n; i++) {
      const char *end = strchr(p, ' ');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      if (!(names[i] = kiln_arena_strndup(r->m->arena, p, len))) return kb_oom(r), NULL;
      p += len + 1;
    }
    r->vhlo_names[vhlo] = names;
  }
  *out_count = n;
  return r->vhlo_names[vhlo];
}

/* "add_v1" -> "add" (into buf). */
static const char *base_name(int vhlo, char *buf, size_t cap) {
  const char *name = k_vhlo[vhlo].name, *v = strrchr(name, '_');
  size_t n = v ? (size_t)(v - name) : strlen(name);
  if (n >= cap) n = cap - 1;
  memcpy(buf, name, n);
  buf[n] = 0;
  return buf;
}

bool kb_vhlo_kind(int vhlo, kiln_op_kind parent_kind, kiln_op_kind *out) {
  char base[64], full[80];
  base_name(vhlo, base, sizeof base);
  if (!strcmp(base, "func")) *out = KILN_OP_FUNC;
  else if (!strcmp(base, "call")) *out = KILN_OP_CALL;
  else if (!strcmp(base, "return")) *out = parent_kind == KILN_OP_FUNC ? KILN_OP_FUNC_RETURN : KILN_OP_RETURN;
  else {
    size_t n = strlen(base);
    memcpy(full, "stablehlo.", 10);
    memcpy(full + 10, base, n + 1);
    return kiln_op_lookup(full, n + 10, out);
  }
  return true;
}

/* ------------------------------------------------------------------ defaults */

/* The default values VhloLegalizeToStablehlo drops beyond those StableHLO declares
 * default-valued (kiln_op_attr_is_default covers those). */
static const struct {
  const char *op, *attr;
  kiln_default rule;
} k_defaults[] = {
    {"func", "sym_visibility", KILN_DEFAULT_EMPTY_STRING}, {"func", "arg_attrs", KILN_DEFAULT_EMPTY_ARRAY},
    {"func", "res_attrs", KILN_DEFAULT_EMPTY_ARRAY},
    {"all_gather", "channel_id", KILN_DEFAULT_ZERO}, {"all_gather", "use_global_device_ids", KILN_DEFAULT_FALSE},
    {"all_reduce", "channel_id", KILN_DEFAULT_ZERO}, {"all_reduce", "use_global_device_ids", KILN_DEFAULT_FALSE},
    {"reduce_scatter", "channel_id", KILN_DEFAULT_ZERO}, {"reduce_scatter", "use_global_device_ids", KILN_DEFAULT_FALSE},
    {"all_to_all", "channel_id", KILN_DEFAULT_ZERO}, {"collective_permute", "channel_id", KILN_DEFAULT_ZERO},
    {"collective_broadcast", "channel_id", KILN_DEFAULT_ZERO}, {"collective_broadcast", "has_dynamic_root", KILN_DEFAULT_FALSE},
    {"collective_reduce", "channel_id", KILN_DEFAULT_ZERO}, {"collective_reduce", "use_global_device_ids", KILN_DEFAULT_FALSE},
    {"collective_reduce", "has_dynamic_root", KILN_DEFAULT_FALSE},
    {"compare", "compare_type", KILN_DEFAULT_ENUM_NOTYPE},
    {"convolution", "window_strides", KILN_DEFAULT_ALL_ONE}, {"convolution", "padding", KILN_DEFAULT_ALL_ZERO},
    {"convolution", "lhs_dilation", KILN_DEFAULT_ALL_ONE}, {"convolution", "rhs_dilation", KILN_DEFAULT_ALL_ONE},
    {"convolution", "window_reversal", KILN_DEFAULT_ALL_ZERO}, {"convolution", "precision_config", KILN_DEFAULT_PRECISION},
    {"dynamic_conv", "window_strides", KILN_DEFAULT_ALL_ONE}, {"dynamic_conv", "lhs_dilation", KILN_DEFAULT_ALL_ONE},
    {"dynamic_conv", "rhs_dilation", KILN_DEFAULT_ALL_ONE}, {"dynamic_conv", "window_reversal", KILN_DEFAULT_ALL_ZERO},
    {"dynamic_conv", "precision_config", KILN_DEFAULT_PRECISION}, {"dynamic_conv", "padding", KILN_DEFAULT_ALL_ZERO},
    {"custom_call", "backend_config", KILN_DEFAULT_EMPTY_CONFIG}, {"custom_call", "result_tilings", KILN_DEFAULT_EMPTY_ARRAY},
    {"dot_general", "precision_config", KILN_DEFAULT_PRECISION}, {"dot", "precision_config", KILN_DEFAULT_PRECISION},
    {"dynamic_broadcast_in_dim", "known_expanding_dimensions", KILN_DEFAULT_EMPTY_TENSOR},
    {"dynamic_broadcast_in_dim", "known_nonexpanding_dimensions", KILN_DEFAULT_EMPTY_TENSOR},
    {"infeed", "layout", KILN_DEFAULT_EMPTY_ARRAY},
    {"recv", "source_target_pairs", KILN_DEFAULT_EMPTY_TENSOR}, {"send", "source_target_pairs", KILN_DEFAULT_EMPTY_TENSOR},
    {"reduce_window", "window_strides", KILN_DEFAULT_ALL_ONE}, {"reduce_window", "base_dilations", KILN_DEFAULT_ALL_ONE},
    {"reduce_window", "window_dilations", KILN_DEFAULT_ALL_ONE}, {"reduce_window", "padding", KILN_DEFAULT_ALL_ZERO},
    {"select_and_scatter", "window_strides", KILN_DEFAULT_ALL_ONE}, {"select_and_scatter", "padding", KILN_DEFAULT_ALL_ZERO},
};

static bool dropped(const char *base, kiln_op_kind kind, const kiln_named_attr *a) {
  if (kiln_op_attr_is_default(kind, a->name, a->value)) return true;
  for (size_t k = 0; k < sizeof k_defaults / sizeof k_defaults[0]; k++)
    if (!strcmp(k_defaults[k].op, base) && !strcmp(k_defaults[k].attr, a->name)) return kiln_attr_is_default(a->value, k_defaults[k].rule);
  return false;
}

/* ------------------------------------------------------------------ rewrites */

/* (op, attribute) pairs StableHLO keeps as dense arrays (i64, or i1 for window_reversal). */
static const struct {
  const char *op, *attr;
} k_dense_arrays[] = {
    {"fft", "fft_length"}, {"broadcast", "broadcast_sizes"}, {"dynamic_slice", "slice_sizes"},
    {"reverse", "dimensions"}, {"transpose", "permutation"}, {"pad", "edge_padding_low"},
    {"pad", "edge_padding_high"}, {"pad", "interior_padding"}, {"slice", "start_indices"},
    {"slice", "limit_indices"}, {"slice", "strides"}, {"broadcast_in_dim", "broadcast_dimensions"},
    {"dynamic_broadcast_in_dim", "broadcast_dimensions"}, {"dynamic_broadcast_in_dim", "known_expanding_dimensions"},
    {"dynamic_broadcast_in_dim", "known_nonexpanding_dimensions"}, {"select_and_scatter", "window_dimensions"},
    {"select_and_scatter", "window_strides"}, {"reduce_window", "window_dimensions"},
    {"reduce_window", "window_strides"}, {"reduce_window", "base_dilations"}, {"reduce_window", "window_dilations"},
    {"map", "dimensions"}, {"reduce", "dimensions"}, {"gather", "slice_sizes"},
    {"convolution", "lhs_dilation"}, {"convolution", "rhs_dilation"}, {"convolution", "window_strides"},
    {"convolution", "window_reversal"}, {"dynamic_conv", "lhs_dilation"}, {"dynamic_conv", "rhs_dilation"},
    {"dynamic_conv", "window_strides"}, {"dynamic_conv", "window_reversal"},
};

/* The dimension-number structures: which VHLO attributes join into which field, in the
 * order MLIR prints them; a list field is left out when empty unless `always`. */
typedef struct dims_field {
  const char *attr;
  bool scalar, always;
} dims_field;

typedef struct dims_struct {
  const char *ops[2];
  const char *attr, *name;
  dims_field fields[9];
} dims_struct;

static const dims_struct k_dims[] = {
    {{"convolution", "dynamic_conv"}, "dimension_numbers", "conv",
     {{"input_batch_dimension", true, true}, {"input_feature_dimension", true, true}, {"input_spatial_dimensions", false, true},
      {"kernel_input_feature_dimension", true, true}, {"kernel_output_feature_dimension", true, true},
      {"kernel_spatial_dimensions", false, true}, {"output_batch_dimension", true, true},
      {"output_feature_dimension", true, true}, {"output_spatial_dimensions", false, true}}},
    {{"dot_general", NULL}, "dot_dimension_numbers", "dot",
     {{"lhs_batching_dimensions", false, false}, {"rhs_batching_dimensions", false, false},
      {"lhs_contracting_dimensions", false, false}, {"rhs_contracting_dimensions", false, false}}},
    {{"gather", "dynamic_gather"}, "dimension_numbers", "gather",
     {{"offset_dims", false, false}, {"collapsed_slice_dims", false, false}, {"operand_batching_dims", false, false},
      {"start_indices_batching_dims", false, false}, {"start_index_map", false, false}, {"index_vector_dim", true, true}}},
    {{"scatter", NULL}, "scatter_dimension_numbers", "scatter",
     {{"update_window_dims", false, false}, {"inserted_window_dims", false, false}, {"input_batching_dims", false, false},
      {"scatter_indices_batching_dims", false, false}, {"scatter_dims_to_operand_dims", false, false},
      {"index_vector_dim", true, true}}},
    {{"dot_general", NULL}, "algorithm", "dot_algorithm",
     {{"lhs_precision_type", true, true}, {"rhs_precision_type", true, true}, {"accumulation_type", true, true},
      {"lhs_component_count", true, true}, {"rhs_component_count", true, true},
      {"num_primitive_operations", true, true}, {"allow_imprecise_accumulation", true, true}}},
    {{"recv", "send"}, "channel_handle", "channel_handle", {{"channel_id", true, true}, {"channel_type", true, true}}},
};

static const char *const k_collectives[] = {"all_gather", "all_reduce", "all_to_all", "collective_permute",
                                             "reduce_scatter", "collective_broadcast", "collective_reduce", NULL};

static const kiln_attr *find(const kiln_named_attr *in, int32_t n, const char *name) {
  for (int32_t i = 0; i < n; i++)
    if (in[i].name && !strcmp(in[i].name, name)) return in[i].value;
  return NULL;
}

/* A 1-D integer tensor as array<i64: ...> (array<i1: ...> for booleans). */
static const kiln_attr *dense_array(kb_reader *r, const kiln_attr *a, size_t at) {
  int64_t n = kiln_attr_count(a);
  if (a->kind != KILN_ATTR_DENSE || a->type->tensor.rank != 1 || n < 0 || !kiln_elem_is_int(kiln_type_elem(a->type))) {
    kb_fail(r, at, "expected a 1-D integer tensor attribute");
    return NULL;
  }
  int64_t *v = kb_alloc(r, (size_t)n, sizeof *v);
  if (!v) return NULL;
  for (int64_t i = 0; i < n; i++) kiln_attr_i64_at(a, i, &v[i]);
  kiln_attr *d = (kiln_attr *)kiln_attr_make_i64_array(r->m, v, n);
  if (!d) return kb_oom(r), NULL;
  if (kiln_type_elem(a->type) == KILN_ELEM_I1 && !(d->type = kiln_type_scalar(r->m, KILN_ELEM_I1))) return kb_oom(r), NULL;
  return d;
}

static const kiln_attr *untyped_int(kb_reader *r, const kiln_attr *a, size_t at) {
  if (a->kind != KILN_ATTR_INT) {
    kb_fail(r, at, "expected an integer attribute");
    return NULL;
  }
  const kiln_attr *i = kiln_attr_make_int(r->m, kiln_attr_int(a), NULL);
  if (!i) kb_oom(r);
  return i;
}

static bool op_is(const char *base, const char *const *ops, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (ops[i] && !strcmp(ops[i], base)) return true;
  return false;
}

/* Joins the fields of the structures of op `base`; marks the attributes it used. */
static bool join_structs(kb_reader *r, const char *base, const kiln_named_attr *in, int32_t n, bool *used,
                         kiln_named_attr *out, int32_t *out_n, size_t at) {
  for (size_t k = 0; k < sizeof k_dims / sizeof k_dims[0]; k++) {
    const dims_struct *d = &k_dims[k];
    if (!op_is(base, d->ops, 2) || !find(in, n, d->fields[0].attr)) continue;
    const kiln_attr *first = find(in, n, d->fields[0].attr);
    bool absent = !strcmp(d->name, "dot_algorithm") && first->kind == KILN_ATTR_TYPE && first->type->kind == KILN_TYPE_NONE;
    kiln_attr *s = absent ? NULL : kiln_attr_new(r->m, KILN_ATTR_STRUCT);
    if (!absent && (!s || !(s->strct.fields = kb_alloc(r, 9, sizeof *s->strct.fields)))) return kb_oom(r);
    for (int f = 0; f < 9 && d->fields[f].attr; f++) {
      const dims_field *fd = &d->fields[f];
      for (int32_t i = 0; i < n; i++)
        if (!strcmp(in[i].name, fd->attr)) used[i] = true;
      const kiln_attr *v = find(in, n, fd->attr);
      if (absent || (!v && !fd->always)) continue; /* older versions lack batching dims */
      if (!v) return kb_fail(r, at, "expected the attribute '%s' of %s", fd->attr, d->attr);
      if (fd->scalar && v->kind == KILN_ATTR_INT) v = untyped_int(r, v, at);
      else if (!fd->scalar) v = dense_array(r, v, at);
      if (!v) return false;
      if (!fd->always && kiln_attr_count(v) == 0) continue;
      const char *fname = fd->attr;
      if (!strcmp(d->name, "channel_handle")) fname = f == 0 ? "handle" : "type";
      s->strct.fields[s->strct.count++] = (kiln_named_attr){fname, v};
    }
    if (absent) continue;
    s->strct.dialect = "stablehlo";
    s->strct.name = d->name;
    out[(*out_n)++] = (kiln_named_attr){d->attr, s};
  }
  return true;
}

static const kiln_attr *symbol(kb_reader *r, const kiln_attr *a, size_t at) {
  if (a->kind != KILN_ATTR_STRING) {
    kb_fail(r, at, "expected a string naming a function");
    return NULL;
  }
  kiln_attr *s = kiln_attr_new(r->m, KILN_ATTR_SYMBOL);
  if (!s) return kb_oom(r), NULL;
  s->symbol = a->str.data;
  return s;
}

/* One attribute that is no part of a structure: rewritten, dropped (*out NULL) or kept. */
static bool convert_one(kb_reader *r, const char *base, const kiln_named_attr *a, kiln_named_attr *out, size_t at) {
  *out = *a;
  bool collective = op_is(base, (const char *const *)k_collectives, sizeof k_collectives / sizeof k_collectives[0]);
  if (collective && !strcmp(a->name, "channel_id")) {
    kiln_attr *s = kiln_attr_new(r->m, KILN_ATTR_STRUCT);
    const kiln_attr *h = untyped_int(r, a->value, at), *t = kiln_attr_make_int(r->m, 0, NULL);
    if (!s || !h || !t || !(s->strct.fields = kb_alloc(r, 2, sizeof *s->strct.fields))) return r->err ? false : kb_oom(r);
    s->strct.dialect = "stablehlo";
    s->strct.name = "channel_handle";
    s->strct.count = 2;
    s->strct.fields[0] = (kiln_named_attr){"handle", h};
    s->strct.fields[1] = (kiln_named_attr){"type", t};
    *out = (kiln_named_attr){"channel_handle", s};
    return true;
  }
  if (collective && (!strcmp(a->name, "use_global_device_ids") || !strcmp(a->name, "has_dynamic_root"))) {
    if (a->value->kind != KILN_ATTR_BOOL) return kb_fail(r, at, "expected a boolean '%s'", a->name);
    out->value = a->value->b ? kiln_attr_new(r->m, KILN_ATTR_UNIT) : NULL;
    if (a->value->b && !out->value) return kb_oom(r);
    if (!a->value->b) out->name = NULL;
    return true;
  }
  if ((!strcmp(base, "call") && !strcmp(a->name, "callee")) || (!strcmp(base, "composite") && !strcmp(a->name, "decomposition")))
    return (out->value = symbol(r, a->value, at)) != NULL;
  if (!strcmp(base, "custom_call") && !strcmp(a->name, "called_computations")) {
    if (a->value->kind != KILN_ATTR_ARRAY) return kb_fail(r, at, "expected an array of function names");
    kiln_attr *arr = kiln_attr_new(r->m, KILN_ATTR_ARRAY);
    if (!arr || !(arr->array.items = kb_alloc(r, (size_t)a->value->array.count, sizeof *arr->array.items))) return r->err ? false : kb_oom(r);
    for (int32_t i = 0; i < a->value->array.count; i++)
      if (!(arr->array.items[i] = symbol(r, a->value->array.items[i], at))) return false;
    arr->array.count = a->value->array.count;
    out->value = arr;
    return true;
  }
  for (size_t i = 0; i < sizeof k_dense_arrays / sizeof k_dense_arrays[0]; i++)
    if (!strcmp(base, k_dense_arrays[i].op) && !strcmp(a->name, k_dense_arrays[i].attr))
      return (out->value = dense_array(r, a->value, at)) != NULL;
  return true;
}

bool kb_vhlo_attrs(kb_reader *r, int vhlo, size_t at, const kiln_named_attr *in, int32_t n, kiln_named_attr *out, int32_t *out_n) {
  char base[64];
  base_name(vhlo, base, sizeof base);
  bool used[64] = {false};
  if (n > 64) return kb_fail(r, at, "expected at most 64 attributes on an op");
  kiln_op_kind kind = KILN_OP_COUNT;
  kb_vhlo_kind(vhlo, KILN_OP_MODULE, &kind);
  *out_n = 0;
  for (int32_t i = 0; i < n; i++) used[i] = dropped(base, kind, &in[i]);
  if (!strcmp(base, "custom_call")) { /* layouts go together */
    const kiln_attr *ol = find(in, n, "operand_layouts"), *rl = find(in, n, "result_layouts");
    if (ol && rl && kiln_attr_is_default(ol, KILN_DEFAULT_EMPTY_ARRAY) && kiln_attr_is_default(rl, KILN_DEFAULT_EMPTY_ARRAY))
      for (int32_t i = 0; i < n; i++) used[i] |= !strcmp(in[i].name, "operand_layouts") || !strcmp(in[i].name, "result_layouts");
  }
  if (!join_structs(r, base, in, n, used, out, out_n, at)) return false;
  for (int32_t i = 0; i < n; i++) {
    if (used[i]) continue;
    if (!convert_one(r, base, &in[i], &out[*out_n], at)) return false;
    if (out[*out_n].name) (*out_n)++;
  }
  return true;
}
