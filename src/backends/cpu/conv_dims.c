/* Reading a convolution's attributes (conv.h). */
#include <string.h>

#include "backends/cpu/conv.h"

static kiln_status bad(const char *what) {
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "convolution: %s", what);
}

static bool scalar_field(const kiln_attr *dn, const char *name, int32_t rank, int64_t *v) {
  const kiln_attr *a = kiln_attr_get(dn, name);
  *v = 0; /* a missing scalar field is 0 */
  if (a && !kiln_attr_i64_at(a, 0, v)) return false;
  return *v >= 0 && *v < rank;
}

static bool list_field(const kiln_attr *dn, const char *name, int32_t ns, int32_t rank, int64_t *v) {
  const kiln_attr *a = kiln_attr_get(dn, name);
  if ((a ? kiln_attr_count(a) : 0) != ns) return false;
  for (int32_t i = 0; i < ns; i++)
    if (!kiln_attr_i64_at(a, i, &v[i]) || v[i] < 0 || v[i] >= rank) return false;
  return true;
}

/* A window attribute of n entries (absent: all dflt); bools read as 0 / 1. */
static bool window_attr(const kiln_op *op, const char *name, int32_t n, int64_t dflt, int64_t *v) {
  const kiln_attr *a = kiln_op_attr(op, name);
  for (int32_t i = 0; i < n; i++) v[i] = dflt;
  if (!a) return true;
  if (a->kind == KILN_ATTR_ARRAY) {
    if (a->array.count != n) return false;
    for (int32_t i = 0; i < n; i++) {
      const kiln_attr *e = a->array.items[i];
      if (e->kind == KILN_ATTR_BOOL) v[i] = e->b;
      else if (e->kind == KILN_ATTR_INT) v[i] = kiln_attr_int(e);
      else return false;
    }
    return true;
  }
  if (kiln_attr_count(a) != n) return false;
  for (int32_t i = 0; i < n; i++)
    if (!kiln_attr_i64_at(a, i, &v[i])) return false;
  return true;
}

static int64_t count_attr(const kiln_op *op, const char *name) {
  int64_t v = 1;
  const kiln_attr *a = kiln_op_attr(op, name);
  return a && kiln_attr_i64_at(a, 0, &v) ? v : 1;
}

kiln_status kiln_cpu_conv_read(const kiln_op *op, kiln_cpu_conv_dims *c) {
  memset(c, 0, sizeof *c);
  if (op->num_operands != 2 || op->num_results != 1) return bad("needs 2 operands and 1 result");
  const kiln_type *lt = op->operands[0]->type, *rt = op->operands[1]->type, *ot = op->results[0].type;
  int32_t rank = lt->tensor.rank;
  if (rank < 2 || rank > KILN_CPU_MAX_RANK || rt->tensor.rank != rank || ot->tensor.rank != rank)
    return bad("operands of one rank, at least 2");
  c->ns = rank - 2;
  const kiln_attr *dn = kiln_op_attr(op, "dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT) return bad("needs dimension_numbers");
  if (!scalar_field(dn, "input_batch_dimension", rank, &c->ib) ||
      !scalar_field(dn, "input_feature_dimension", rank, &c->ifd) ||
      !list_field(dn, "input_spatial_dimensions", c->ns, rank, c->is) ||
      !scalar_field(dn, "kernel_input_feature_dimension", rank, &c->kif) ||
      !scalar_field(dn, "kernel_output_feature_dimension", rank, &c->kof) ||
      !list_field(dn, "kernel_spatial_dimensions", c->ns, rank, c->ks) ||
      !scalar_field(dn, "output_batch_dimension", rank, &c->ob) ||
      !scalar_field(dn, "output_feature_dimension", rank, &c->ofd) ||
      !list_field(dn, "output_spatial_dimensions", c->ns, rank, c->os))
    return bad("dimension numbers out of range");
  int64_t pad[2 * KILN_CPU_CONV_MAX_SPATIAL], rev[KILN_CPU_CONV_MAX_SPATIAL];
  if (!window_attr(op, "window_strides", c->ns, 1, c->stride) || !window_attr(op, "lhs_dilation", c->ns, 1, c->ldil) ||
      !window_attr(op, "rhs_dilation", c->ns, 1, c->rdil) || !window_attr(op, "padding", 2 * c->ns, 0, pad) ||
      !window_attr(op, "window_reversal", c->ns, 0, rev))
    return bad("window attributes of the wrong length");
  for (int32_t i = 0; i < c->ns; i++) {
    c->pad_lo[i] = pad[2 * i];
    c->pad_hi[i] = pad[2 * i + 1];
    c->reverse[i] = rev[i] != 0;
    if (c->stride[i] < 1 || c->ldil[i] < 1 || c->rdil[i] < 1) return bad("strides and dilations must be positive");
  }
  c->fgc = count_attr(op, "feature_group_count");
  c->bgc = count_attr(op, "batch_group_count");
  const int64_t *ld = lt->tensor.dims, *rd = rt->tensor.dims;
  memcpy(c->lhs_dims, ld, sizeof *ld * (size_t)rank);
  if (c->fgc < 1 || c->bgc < 1 || (c->fgc > 1 && c->bgc > 1) || ld[c->ib] % c->bgc || ld[c->ifd] % c->fgc ||
      rd[c->kof] % c->fgc || rd[c->kof] % c->bgc || ld[c->ifd] / c->fgc != rd[c->kif])
    return bad("group counts do not divide the dimensions");
  return NULL;
}

bool kiln_cpu_conv_prepad(kiln_cpu_conv_dims *c) {
  for (int32_t i = 0; i < c->ns; i++) {
    int64_t *d = &c->lhs_dims[c->is[i]], span;
    if (*d <= 0 || !kiln_mul_i64(*d - 1, c->ldil[i], &span) || !kiln_add_i64(span, 1 + c->pad_lo[i], &span) ||
        !kiln_add_i64(span, c->pad_hi[i], &span) || span <= 0)
      return false;
    *d = span;
    c->pad_lo[i] = c->pad_hi[i] = 0;
    c->ldil[i] = 1;
  }
  return true;
}
