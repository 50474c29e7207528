/* A bias add fused into the oneDNN step of the convolution it reads (cpu.h,
 * kiln_cpu_conv_fuse_bias): conv + broadcast(bias) becomes part of the convolution's step
 * (oneDNN's bias argument of a forward convolution; a deconvolution's bias is added by
 * dnnl_conv_run.c after the primitive, oneDNN's own being slower there), instead of the
 * convolution's result going through memory into a loop that adds a vector broadcast along
 * its (often short, innermost) feature dimension.
 * Only f32 results, whose sum oneDNN rounds once as the add would; the vector must be a
 * parameter or a constant, stored before any step runs. */
#include <stdlib.h>

#include "backends/cpu/conv.h"
#include "backends/cpu/cpu.h"
#include "backends/cpu/dnnl_ops.h"

static void count_uses(const kiln_block *b, int32_t n, int32_t *uses) {
  for (const kiln_op *op = b->first; op; op = op->next) {
    for (int32_t k = 0; k < op->num_operands; k++)
      if (op->operands[k]->id >= 0 && op->operands[k]->id < n) uses[op->operands[k]->id]++;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (const kiln_block *inner = op->regions[r].first; inner; inner = inner->next) count_uses(inner, n, uses);
  }
}

/* The vector of len elements that v broadcasts along its dimension axis (through
 * broadcast_in_dim and reshape ops that keep every other dimension at 1), when it is a
 * parameter of body or a dense constant that is not a splat; else NULL. */
static const kiln_value *bias_vector(const kiln_value *v, int64_t axis, int64_t len, const kiln_block *body) {
  for (;;) {
    const kiln_type *t = v->type;
    if (t->tensor.rank == 1 && axis == 0 && t->tensor.dims[0] == len) break;
    const kiln_op *d = v->def;
    if (!d || d->num_operands != 1 || (d->kind != KILN_OP_BROADCAST_IN_DIM && d->kind != KILN_OP_RESHAPE)) return NULL;
    const kiln_type *it = d->operands[0]->type;
    int64_t j = -1;
    if (d->kind == KILN_OP_BROADCAST_IN_DIM) {
      const kiln_attr *bd = kiln_op_attr(d, "broadcast_dimensions");
      for (int32_t k = 0; k < it->tensor.rank; k++) {
        int64_t dk;
        if (!kiln_attr_i64_at(bd, k, &dk)) return NULL;
        if (dk == axis) j = k;
        else if (it->tensor.dims[k] != 1) return NULL;
      }
    } else { /* a reshape of a tensor of ones but along one dimension, len there */
      for (int32_t k = 0; k < t->tensor.rank; k++)
        if (k != axis && t->tensor.dims[k] != 1) return NULL;
      for (int32_t k = 0; k < it->tensor.rank; k++) {
        if (it->tensor.dims[k] == len && j < 0) j = k;
        else if (it->tensor.dims[k] != 1) return NULL;
      }
    }
    if (j < 0 || it->tensor.dims[j] != len) return NULL;
    v = d->operands[0];
    axis = j;
  }
  if (!v->def) return v->block == body ? v : NULL;
  const kiln_attr *dense = v->def->kind == KILN_OP_CONSTANT ? kiln_op_attr(v->def, "value") : NULL;
  return dense && dense->kind == KILN_ATTR_DENSE && !dense->dense.splat ? v : NULL;
}

static bool static_f32(const kiln_type *t) {
  return kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t) &&
         kiln_type_elem(t) == KILN_ELEM_F32;
}

/* Plans add (one of whose operands is conv's only use) with conv when the other operand
 * is a bias vector along conv's output features and oneDNN fuses it. */
static kiln_status try_fuse(kiln_cpu_executable *x, const kiln_block *body, const kiln_op *add, const kiln_op *conv,
                            const kiln_value *other) {
  kiln_cpu_conv_dims c;
  kiln_status st = kiln_cpu_conv_read(conv, &c);
  if (st) { /* the interpreter reports what is wrong with it */
    kiln_status_free(st);
    return NULL;
  }
  const kiln_type *ot = conv->results[0].type;
  const kiln_value *bias = bias_vector(other, c.ofd, ot->tensor.dims[c.ofd], body);
  if (!bias || !static_f32(bias->type)) return NULL;
  struct kiln_cpu_dnnl_op *p = NULL;
  bool via_pad;
  KILN_RETURN_IF_ERROR(kiln_cpu_conv_prepare_dnnl(conv, &p, &via_pad));
  if (!p) return NULL;
  kiln_cpu_dnnl_epilogue e = {.scale = 1.0f, .has_bias = true, .bias_dim = (int)c.ofd, .relu = false};
  st = kiln_cpu_dnnl_set_epilogue(p, &e);
  if (st) {
    kiln_cpu_dnnl_destroy(p);
    if (kiln_status_code_of(st) != KILN_STATUS_UNIMPLEMENTED) return st;
    kiln_status_free(st);
    return NULL;
  }
  if (!x->conv_bias) {
    x->conv_bias = kiln_arena_alloc_array(x->arena, (size_t)x->num_values + 1, sizeof *x->conv_bias);
    if (!x->conv_bias) {
      kiln_cpu_dnnl_destroy(p);
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    for (int32_t v = 0; v <= x->num_values; v++) x->conv_bias[v] = (kiln_cpu_conv_bias){0};
  }
  kiln_cpu_conv_bias *fb = &x->conv_bias[conv->results[0].id];
  *fb = (kiln_cpu_conv_bias){.dnnl = p, .via_pad = via_pad, .bias = bias->id, .out = add->results[0].id};
  x->conv_bias[add->results[0].id].fused_add = true;
  return NULL;
}

kiln_status kiln_cpu_conv_fuse_bias(kiln_cpu_executable *x, const kiln_block *body) {
  x->conv_bias = NULL;
  if (x->baseline) return NULL;
  int32_t n = x->num_values, *uses = calloc((size_t)n + 1, sizeof *uses);
  if (!uses) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  count_uses(body, n, uses);
  kiln_status st = NULL;
  for (const kiln_op *op = body->first; op && !st; op = op->next) {
    if (op->kind != KILN_OP_ADD || op->num_operands != 2 || op->num_results != 1 || !static_f32(op->results[0].type))
      continue;
    for (int32_t side = 0; side < 2 && !st; side++) {
      const kiln_op *conv = op->operands[side]->def;
      if (!conv || conv->kind != KILN_OP_CONVOLUTION || conv->parent != body || uses[conv->results[0].id] != 1 ||
          !static_f32(conv->results[0].type))
        continue;
      st = try_fuse(x, body, op, conv, op->operands[1 - side]);
      if (x->conv_bias && x->conv_bias[op->results[0].id].fused_add) break;
    }
  }
  free(uses);
  return st;
}

void kiln_cpu_conv_fuse_bias_release(kiln_cpu_executable *x) {
  for (int32_t v = 0; x->conv_bias && v <= x->num_values; v++) {
    kiln_cpu_dnnl_destroy(x->conv_bias[v].dnnl);
    x->conv_bias[v].dnnl = NULL;
  }
}
