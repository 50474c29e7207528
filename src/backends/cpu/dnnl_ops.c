/* The prepared oneDNN op: creating the primitive and its reorders, the epilogue, runs. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/isa.h"
#include "base/fault.h"

/* ================================================================ helpers */

bool kiln_dnnl_type(kiln_elem e, dnnl_data_type_t *out) {
  switch (e) {
    case KILN_ELEM_F32: *out = dnnl_f32; return true;
    case KILN_ELEM_BF16: *out = dnnl_bf16; return true;
    case KILN_ELEM_F16: *out = dnnl_f16; return true;
    case KILN_ELEM_SI8: *out = dnnl_s8; return true;   /* i8 x i8 -> i32 dots only (prepare) */
    case KILN_ELEM_SI32: *out = dnnl_s32; return true;
    default: return false;
  }
}

void kiln_dnnl_dense_strides(int n, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int i = n - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i] > 0 ? dims[i] : 1;
  }
}

kiln_status kiln_dnnl_md(dnnl_memory_desc_t *md, int n, const int64_t *dims, const int64_t *strides,
                         dnnl_data_type_t t) {
  dnnl_dims_t d, s;
  for (int i = 0; i < n; i++) d[i] = dims[i], s[i] = strides[i];
  if (dnnl_memory_desc_init_by_strides(md, n, d, t, s) != dnnl_success)
    return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN refused a %d-dimensional strided view", n);
  return NULL;
}

kiln_status kiln_dnnl_unimplemented(const kiln_op *op, const char *what) {
  return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: %s (oneDNN)", kiln_op_name(op->kind), what);
}

int64_t kiln_dnnl_ints(const kiln_attr *a, int64_t *out, int64_t max) {
  if (!a) return 0;
  int64_t n = kiln_attr_count(a);
  for (int64_t i = 0; i < n && i < max; i++)
    if (!kiln_attr_i64_at(a, i, &out[i])) return -1;
  return n;
}

/* ================================================================ building */

static void release_prims(kiln_cpu_dnnl_op *p) {
  kiln_dnnl_split_release(p);
  if (p->prim) dnnl_primitive_destroy(p->prim);
  p->prim = NULL;
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    if (p->io[i].reorder) dnnl_primitive_destroy(p->io[i].reorder);
    p->io[i].reorder = NULL;
  }
}

static kiln_status dnnl_fail(dnnl_status_t st, const char *what) {
  kiln_status_code code = st == dnnl_unimplemented ? KILN_STATUS_UNIMPLEMENTED
                          : st == dnnl_out_of_memory ? KILN_STATUS_RESOURCE_EXHAUSTED
                                                     : KILN_STATUS_INTERNAL;
  return KILN_STATUS(code, "oneDNN: %s failed (status %d)", what, (int)st);
}

/* Post-ops of the epilogue (see dnnl_ops.h for the order). */
kiln_status kiln_dnnl_make_attr(const kiln_cpu_dnnl_op *p, const dnnl_memory_desc_t *bias_md,
                                dnnl_primitive_attr_t *out) {
  dnnl_primitive_attr_t attr = NULL;
  dnnl_post_ops_t po = NULL;
  dnnl_status_t st = dnnl_primitive_attr_create(&attr);
  if (st == dnnl_success) st = dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
  if (st == dnnl_success) st = dnnl_post_ops_create(&po);
  if (st == dnnl_success && p->epi.scale != 1.0f)
    st = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, p->epi.scale, 0.0f);
  if (st == dnnl_success && p->epi.has_bias && !p->prim_bias && !p->own_bias)
    st = dnnl_post_ops_append_binary(po, dnnl_binary_add, bias_md);
  if (st == dnnl_success && p->epi.relu) st = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f);
  if (st == dnnl_success) st = dnnl_primitive_attr_set_post_ops(attr, po);
  if (po) dnnl_post_ops_destroy(po);
  if (st != dnnl_success) {
    if (attr) dnnl_primitive_attr_destroy(attr);
    return dnnl_fail(st, "setting up the epilogue");
  }
  *out = attr;
  return NULL;
}

static size_t scratchpad_of(const_dnnl_primitive_desc_t pd) {
  const dnnl_memory_desc_t *md = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  return md ? dnnl_memory_desc_get_size(md) : 0;
}

/* The reorder of one tensor that goes through a temporary. */
static kiln_status build_reorder(kiln_cpu_dnnl_op *p, int which, const_dnnl_primitive_attr_t attr) {
  kiln_dnnl_io *io = &p->io[which];
  const dnnl_memory_desc_t *from = which == KILN_DNNL_DST ? &io->tmp_md : &io->user_md;
  const dnnl_memory_desc_t *to = which == KILN_DNNL_DST ? &io->user_md : &io->tmp_md;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_status_t st = dnnl_reorder_primitive_desc_create(&pd, from, p->engine, to, p->engine, attr);
  if (st != dnnl_success) return dnnl_fail(st, "creating a reorder");
  size_t s = scratchpad_of(pd);
  if (s > p->prim_scratch) p->prim_scratch = s;
  st = dnnl_primitive_create(&io->reorder, pd);
  dnnl_primitive_desc_destroy(pd);
  return st == dnnl_success ? NULL : dnnl_fail(st, "creating a reorder");
}

static kiln_status build_with(kiln_cpu_dnnl_op *p, dnnl_primitive_attr_t attr) {
  const void *desc = p->is_conv ? (const void *)&p->conv : (const void *)&p->matmul;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_status_t st = dnnl_primitive_desc_create(&pd, desc, attr, p->engine, NULL);
  if (st != dnnl_success) return dnnl_fail(st, p->is_conv ? "creating a convolution" : "creating a matmul");
  const char *impl = "?";
  dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  bool converts = false; /* computing in f32 (kiln_dnnl_build) */
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) converts |= p->converted[i];
  snprintf(p->impl, sizeof p->impl, "%s%s", impl, converts ? " via f32" : "");
  p->prim_scratch = scratchpad_of(pd);
  static const dnnl_query_t queries[KILN_DNNL_NUM_IO] = {dnnl_query_src_md, dnnl_query_weights_md, dnnl_query_dst_md};
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    kiln_dnnl_io *io = &p->io[i];
    if (!io->tmp_any) continue;
    io->tmp_md = io->prim_md = *dnnl_primitive_desc_query_md(pd, queries[i], 0);
    io->via_tmp = !dnnl_memory_desc_equal(&io->tmp_md, &io->user_md);
  }
  st = dnnl_primitive_create(&p->prim, pd);
  dnnl_primitive_desc_destroy(pd);
  if (st != dnnl_success) return dnnl_fail(st, "creating the primitive");
  /* Reorders take no post-ops: only the scratchpad mode. */
  dnnl_primitive_attr_t rattr = NULL;
  if (dnnl_primitive_attr_create(&rattr) != dnnl_success ||
      dnnl_primitive_attr_set_scratchpad_mode(rattr, dnnl_scratchpad_mode_user) != dnnl_success) {
    if (rattr) dnnl_primitive_attr_destroy(rattr);
    return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: reorder attributes");
  }
  size_t at = 0;
  if (p->flips) { /* the weights reversed (dnnl_conv_run.c) */
    p->flip_offset = at;
    at += kiln_dnnl_round_up((size_t)p->count[KILN_DNNL_WEI] * kiln_elem_storage_bytes(p->elem[KILN_DNNL_WEI]));
  }
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    if (!p->converted[i]) continue;
    p->copy_offset[i] = at;
    at += kiln_dnnl_round_up((size_t)p->count[i] * sizeof(float));
  }
  kiln_status s = NULL;
  for (int i = 0; i < KILN_DNNL_NUM_IO && !s; i++) {
    kiln_dnnl_io *io = &p->io[i];
    if (!io->via_tmp) continue;
    s = build_reorder(p, i, rattr);
    io->tmp_bytes = dnnl_memory_desc_get_size(&io->tmp_md);
    io->tmp_offset = at;
    at += kiln_dnnl_round_up(io->tmp_bytes);
  }
  dnnl_primitive_attr_destroy(rattr);
  if (s) return s;
  /* The scratchpad goes after the temporaries. */
  p->pad_offset = at;
  p->scratch_bytes = at + kiln_dnnl_round_up(p->prim_scratch);
  return NULL;
}

/* Where the epilogue's bias goes (prim_bias, own_bias: dnnl_internal.h). */
static kiln_status set_prim_bias(kiln_cpu_dnnl_op *p) {
  bool plain = p->epi.has_bias && p->epi.scale == 1.0f;
  p->own_bias = plain && p->is_deconv && !p->epi.relu && p->out_elem == KILN_ELEM_F32;
  p->prim_bias = plain && p->is_conv && !p->is_deconv;
  memset(&p->conv.bias_desc, 0, sizeof p->conv.bias_desc); /* format undef: no bias */
  if (!p->prim_bias) return NULL;
  int64_t len = p->io[KILN_DNNL_DST].prim_md.dims[1], one = 1;
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&p->prim_bias_md, 1, &len, &one, p->bias_md.data_type));
  p->conv.bias_desc = p->prim_bias_md;
  return NULL;
}

/* Primitives are made for one thread (they would otherwise start an OpenMP team, whatever
 * the thread count when they run): large ones are split over the pool instead. */
static kiln_status build_once(kiln_cpu_dnnl_op *p) {
  release_prims(p);
  p->prim_scratch = p->scratch_bytes = 0;
  KILN_RETURN_IF_ERROR(set_prim_bias(p));
  dnnl_primitive_attr_t attr = NULL;
  KILN_RETURN_IF_ERROR(kiln_dnnl_make_attr(p, &p->bias_md, &attr));
  int threads = kiln_dnnl_single_begin();
  kiln_status s = build_with(p, attr);
  if (!s) kiln_dnnl_gemm_plan(p);
  if (!s) kiln_dnnl_split_build(p);
  kiln_dnnl_single_end(threads);
  dnnl_primitive_attr_destroy(attr);
  if (s) release_prims(p);
  return s;
}

/* Has the primitive compute in f32: every tensor of another type is converted, whole, to an
 * f32 copy in the scratch (convert_in, exactly) that the primitive (or its reorder) reads
 * instead, and the result is written to such a copy and rounded to nearest even into the
 * caller's buffer (convert_out). oneDNN's own reorders convert too, but 20 times slower.
 * False when all are f32 already. */
static bool compute_in_f32(kiln_cpu_dnnl_op *p) {
  bool changed = false;
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    kiln_dnnl_io *io = &p->io[i];
    if (io->user_md.data_type == dnnl_f32) continue;
    changed = p->converted[i] = true;
    io->offset = io->offset / kiln_elem_storage_bytes(p->elem[i]) * sizeof(float);
    io->user_md.data_type = dnnl_f32;
    if (io->tmp_any) /* the primitive picks the temporary's format again */
      dnnl_memory_desc_init_by_tag(&io->prim_md, io->user_md.ndims, io->user_md.dims, dnnl_f32, dnnl_format_tag_any);
    else
      io->prim_md.data_type = io->tmp_md.data_type = dnnl_f32;
  }
  if (p->is_conv) {
    p->conv.src_desc = p->io[KILN_DNNL_SRC].prim_md;
    p->conv.weights_desc = p->io[KILN_DNNL_WEI].prim_md;
    p->conv.dst_desc = p->io[KILN_DNNL_DST].prim_md;
    p->conv.accum_data_type = dnnl_f32;
  } else {
    p->matmul.src_desc = p->io[KILN_DNNL_SRC].prim_md;
    p->matmul.weights_desc = p->io[KILN_DNNL_WEI].prim_md;
    p->matmul.dst_desc = p->io[KILN_DNNL_DST].prim_md;
    p->matmul.accum_data_type = dnnl_f32;
  }
  return changed;
}

static bool has_epilogue(const kiln_cpu_dnnl_op *p) { return p->epi.scale != 1.0f || p->epi.has_bias || p->epi.relu; }

kiln_status kiln_dnnl_build(kiln_cpu_dnnl_op *p) {
  if (p->mode != KILN_DNNL_MODE_PRIMITIVE) {
    release_prims(p);
    p->prim_scratch = p->scratch_bytes = 0;
    snprintf(p->impl, sizeof p->impl, "none");
    return NULL;
  }
  kiln_status s = build_once(p);
  /* Types without fast kernels on this CPU (bf16 and f16 below AVX-512, f16 mostly) are
   * computed in f32: the same sums as the interpreter's, which keeps them in f32. An op
   * with an epilogue keeps the types it was prepared with. */
  bool no_kernel = s ? kiln_status_code_of(s) == KILN_STATUS_UNIMPLEMENTED : kiln_dnnl_is_ref(p);
  if ((no_kernel || p->force_f32) && !p->own_i8 && p->f32_exact && !has_epilogue(p) && compute_in_f32(p)) {
    kiln_status_free(s);
    s = build_once(p);
  }
  return s;
}

bool kiln_dnnl_is_ref(const kiln_cpu_dnnl_op *p) { return strncmp(p->impl, "ref", 3) == 0; }

/* ================================================================ public */

static kiln_status prepare(const kiln_op *op, const struct kiln_cpu_conv_dims *dims, kiln_cpu_dnnl_op **out) {
  *out = NULL;
  if (!op) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "no op");
  bool conv = op->kind == KILN_OP_CONVOLUTION;
  if (!conv && op->kind != KILN_OP_DOT_GENERAL && op->kind != KILN_OP_DOT)
    return kiln_dnnl_unimplemented(op, "not a dot_general, dot or convolution");
  if (op->num_operands != 2 || op->num_results != 1)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: needs 2 operands and 1 result", kiln_op_name(op->kind));
  const kiln_type *types[3] = {op->operands[0]->type, op->operands[1]->type, op->results[0].type};
  for (int i = 0; i < 3; i++) {
    if (!kiln_type_is_tensor(types[i]) || !kiln_type_is_static(types[i]))
      return kiln_dnnl_unimplemented(op, "needs static tensor types");
    if (kiln_type_is_quant_tensor(types[i])) return kiln_dnnl_unimplemented(op, "quantized tensors");
    dnnl_data_type_t t;
    if (!kiln_dnnl_type(kiln_type_elem(types[i]), &t))
      return kiln_dnnl_unimplemented(op, "element type without oneDNN kernels");
    if (types[i]->tensor.rank > DNNL_MAX_NDIMS) return kiln_dnnl_unimplemented(op, "rank above 12");
  }
  /* integers: i8 x i8 -> i32 dots, whose sums oneDNN keeps in i32 (dnnl_dot.c says when) */
  bool integer = !kiln_elem_is_float(kiln_type_elem(types[0])) || !kiln_elem_is_float(kiln_type_elem(types[1])) ||
                 !kiln_elem_is_float(kiln_type_elem(types[2]));
  if (integer && (conv || kiln_type_elem(types[0]) != KILN_ELEM_SI8 || kiln_type_elem(types[1]) != KILN_ELEM_SI8 ||
                  kiln_type_elem(types[2]) != KILN_ELEM_SI32))
    return kiln_dnnl_unimplemented(op, "integer types other than an i8 x i8 -> i32 dot");
  kiln_cpu_dnnl_op *p = calloc(1, sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  p->epi.scale = 1.0f;
  p->epi.bias_dim = -1;
  p->f32_exact = !integer; /* dnnl_dot.c decides for i8 */
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) p->elem[i] = kiln_type_elem(types[i]), p->count[i] = types[i]->tensor.num_elements;
  const kiln_type *rt = types[2];
  p->out_elem = kiln_type_elem(rt);
  p->out_rank = rt->tensor.rank;
  for (int32_t i = 0; i < rt->tensor.rank; i++) p->out_dims[i] = rt->tensor.dims[i], p->out_to_prim[i] = -1;
  p->out_count = rt->tensor.num_elements;
  kiln_status s = kiln_cpu_isa_setup(NULL);
  if (!s && dnnl_engine_create(&p->engine, dnnl_cpu, 0) != dnnl_success)
    s = KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: no CPU engine");
  if (!s) s = conv ? kiln_dnnl_prepare_conv(op, dims, p) : kiln_dnnl_prepare_dot(op, p);
  if (s) {
    kiln_cpu_dnnl_destroy(p);
    return s;
  }
  *out = p;
  return NULL;
}

kiln_status kiln_cpu_dnnl_prepare(const kiln_op *op, kiln_cpu_dnnl_op **out) { return prepare(op, NULL, out); }

kiln_status kiln_cpu_dnnl_prepare_conv(const kiln_op *op, const struct kiln_cpu_conv_dims *dims, kiln_cpu_dnnl_op **out) {
  if (!op || op->kind != KILN_OP_CONVOLUTION || !dims) {
    *out = NULL;
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "not a convolution with its dims");
  }
  return prepare(op, dims, out);
}

kiln_status kiln_cpu_dnnl_set_epilogue(kiln_cpu_dnnl_op *p, const kiln_cpu_dnnl_epilogue *e) {
  if (!p || !e) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "no op or epilogue");
  if (p->elem[KILN_DNNL_DST] == KILN_ELEM_SI32)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "oneDNN: no epilogue on an integer dot (its float scale and bias)");
  kiln_cpu_dnnl_epilogue old = p->epi;
  dnnl_memory_desc_t old_bias = p->bias_md;
  bool was_ref = kiln_dnnl_is_ref(p);
  if (e->has_bias) {
    if (e->bias_dim < 0 || e->bias_dim >= p->out_rank)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "bias dimension %d out of range", e->bias_dim);
    if (p->mode == KILN_DNNL_MODE_PRIMITIVE) {
      int32_t d = p->out_to_prim[e->bias_dim];
      if (d < 0 || !p->out_alone[e->bias_dim])
        return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "oneDNN: a bias along result dimension %d is not fusable here",
                           e->bias_dim);
      const dnnl_memory_desc_t *dst = &p->io[KILN_DNNL_DST].prim_md;
      int64_t dims[DNNL_MAX_NDIMS], strides[DNNL_MAX_NDIMS];
      for (int i = 0; i < dst->ndims; i++) dims[i] = i == d ? dst->dims[i] : 1;
      kiln_dnnl_dense_strides(dst->ndims, dims, strides);
      dnnl_data_type_t bt = dnnl_f32; /* the result's type (the primitive's may be f32 instead) */
      kiln_dnnl_type(p->out_elem, &bt);
      KILN_RETURN_IF_ERROR(kiln_dnnl_md(&p->bias_md, dst->ndims, dims, strides, bt));
    }
  }
  p->epi = *e;
  if (!p->epi.has_bias) p->epi.bias_dim = -1;
  kiln_status s = kiln_dnnl_build(p);
  if (!s && !was_ref && kiln_dnnl_is_ref(p))
    s = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "oneDNN: the epilogue is only fusable with reference kernels");
  if (s) {
    p->epi = old;
    p->bias_md = old_bias;
    kiln_status again = kiln_dnnl_build(p);
    kiln_status_free(again); /* it was built with these settings before */
  }
  return s;
}

/* ---------------------------------------------------------------- runs */

/* Stores v as element i of a float buffer of type e. */
static void store_float(kiln_elem e, void *buf, int64_t i, float v) {
  if (e == KILN_ELEM_F32) {
    ((float *)buf)[i] = v;
    return;
  }
  if (e == KILN_ELEM_SI32) { /* an integer dot has no epilogue: v is 0 */
    ((int32_t *)buf)[i] = (int32_t)v;
    return;
  }
  ((uint16_t *)buf)[i] = (uint16_t)kiln_elem_float_to_bits(e, v);
}

static float load_float(kiln_elem e, const void *buf, int64_t i) {
  if (e == KILN_ELEM_F32) return ((const float *)buf)[i];
  return (float)kiln_elem_float_from_bits(e, ((const uint16_t *)buf)[i]);
}

/* A run whose sums are all empty: the epilogue applied to zeros. */
static void run_zeros(const kiln_cpu_dnnl_op *p, const kiln_cpu_dnnl_args *a) {
  int64_t inner = 1, len = 1;
  if (p->epi.has_bias) {
    len = p->out_dims[p->epi.bias_dim];
    for (int32_t d = p->epi.bias_dim + 1; d < p->out_rank; d++) inner *= p->out_dims[d];
  }
  for (int64_t i = 0; i < p->out_count; i++) {
    float v = 0.0f;
    if (p->epi.has_bias) v += load_float(p->out_elem, a->bias, i / inner % len);
    if (p->epi.relu && !(v > 0.0f)) v = v != v ? v : 0.0f;
    store_float(p->out_elem, a->out, i, v);
  }
}

typedef struct run_mems {
  dnnl_memory_t m[16];
  int n;
} run_mems;

static dnnl_memory_t mem(const kiln_cpu_dnnl_op *p, run_mems *rm, const dnnl_memory_desc_t *md, const void *ptr) {
  dnnl_memory_t m = NULL;
  if (KILN_DNNL_RUN_CALL(dnnl_memory_create(&m, md, p->engine, (void *)ptr)) != dnnl_success) return NULL;
  rm->m[rm->n++] = m;
  return m;
}

static kiln_status exec(const kiln_cpu_dnnl_op *p, const kiln_cpu_dnnl_args *a, uint8_t *scratch, dnnl_stream_t strm,
                        run_mems *rm) {
  const void *user[KILN_DNNL_NUM_IO] = {a->lhs, a->rhs, a->out};
  const void *seen[KILN_DNNL_NUM_IO]; /* what the primitive reads or writes */
  if (p->flips) {
    kiln_dnnl_conv_flip(p, user[KILN_DNNL_WEI], scratch + p->flip_offset);
    user[KILN_DNNL_WEI] = scratch + p->flip_offset;
  }
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    if (!p->converted[i]) continue;
    float *copy = (float *)(scratch + p->copy_offset[i]);
    if (i != KILN_DNNL_DST) kiln_dnnl_convert_in(p->elem[i], user[i], copy, p->count[i]);
    user[i] = copy;
  }
  uint8_t *pad = scratch ? scratch + p->pad_offset : NULL;
  dnnl_memory_t pad_mem = NULL;
  if (p->prim_scratch) {
    dnnl_memory_desc_t smd;
    dnnl_dims_t d = {(dnnl_dim_t)p->prim_scratch};
    dnnl_memory_desc_init_by_tag(&smd, 1, d, dnnl_u8, dnnl_a);
    if (!(pad_mem = mem(p, rm, &smd, pad))) return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: memory object");
  }
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    const kiln_dnnl_io *io = &p->io[i];
    const uint8_t *u = (const uint8_t *)user[i] + io->offset;
    seen[i] = io->via_tmp ? scratch + io->tmp_offset : u;
    if (!io->via_tmp || i == KILN_DNNL_DST) continue;
    dnnl_memory_t from = mem(p, rm, &io->user_md, u), to = mem(p, rm, &io->tmp_md, seen[i]);
    if (!from || !to) return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: memory object");
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}, {DNNL_ARG_SCRATCHPAD, pad_mem}};
    dnnl_status_t st = KILN_DNNL_RUN_CALL(dnnl_primitive_execute(io->reorder, strm, pad_mem ? 3 : 2, args));
    if (st != dnnl_success) return dnnl_fail(st, "running a reorder");
  }
  dnnl_exec_arg_t args[6];
  int n = 0;
  static const int arg_of[KILN_DNNL_NUM_IO] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    dnnl_memory_t m = mem(p, rm, &p->io[i].prim_md, seen[i]);
    if (!m) return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: memory object");
    args[n++] = (dnnl_exec_arg_t){arg_of[i], m};
  }
  if (p->epi.has_bias && !p->own_bias) {
    dnnl_memory_t m = mem(p, rm, p->prim_bias ? &p->prim_bias_md : &p->bias_md, a->bias);
    if (!m) return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: memory object");
    int idx = p->epi.scale != 1.0f ? 1 : 0;
    args[n++] = (dnnl_exec_arg_t){p->prim_bias ? DNNL_ARG_BIAS : DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) | DNNL_ARG_SRC_1, m};
  }
  if (pad_mem) args[n++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, pad_mem};
  if (p->split.parts) {
    KILN_RETURN_IF_ERROR(kiln_dnnl_split_run(p, seen, a->bias, scratch));
  } else if (p->gemm.on) {
    dnnl_status_t st = kiln_dnnl_gemm_run(p, seen[KILN_DNNL_SRC], seen[KILN_DNNL_WEI], (void *)seen[KILN_DNNL_DST],
                                          a->bias, &p->io[KILN_DNNL_DST].prim_md, scratch + p->gemm.work_offset);
    if (st != dnnl_success) return dnnl_fail(st, p->own_i8 ? "running igemm" : "running sgemm");
  } else {
    dnnl_status_t st = KILN_DNNL_RUN_CALL(dnnl_primitive_execute(p->prim, strm, n, args));
    if (st != dnnl_success) return dnnl_fail(st, "running the primitive");
  }
  dnnl_status_t st;
  const kiln_dnnl_io *io = &p->io[KILN_DNNL_DST];
  if (io->via_tmp) {
    dnnl_memory_t from = mem(p, rm, &io->tmp_md, seen[KILN_DNNL_DST]);
    /* into the f32 copy when the result is converted (user_md describes f32 then) */
    dnnl_memory_t to = mem(p, rm, &io->user_md, (uint8_t *)user[KILN_DNNL_DST] + io->offset);
    if (!from || !to) return KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: memory object");
    dnnl_exec_arg_t rargs[3] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}, {DNNL_ARG_SCRATCHPAD, pad_mem}};
    st = KILN_DNNL_RUN_CALL(dnnl_primitive_execute(io->reorder, strm, pad_mem ? 3 : 2, rargs));
    if (st != dnnl_success) return dnnl_fail(st, "running a reorder");
  }
  st = KILN_DNNL_RUN_CALL(dnnl_stream_wait(strm));
  if (st != dnnl_success) return dnnl_fail(st, "waiting for the stream");
  if (p->converted[KILN_DNNL_DST]) kiln_dnnl_convert_out(p->elem[KILN_DNNL_DST], user[KILN_DNNL_DST], a->out, p->count[KILN_DNNL_DST]);
  if (p->own_bias) kiln_dnnl_conv_add_bias(p, a->bias, a->out);
  return NULL;
}

kiln_status kiln_cpu_dnnl_run_ex(const kiln_cpu_dnnl_op *p, const kiln_cpu_dnnl_args *a) {
  if (!p || !a || !a->lhs || !a->rhs || !a->out)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "oneDNN run: missing op or buffer");
  if (p->epi.has_bias && !a->bias)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "oneDNN run: the epilogue needs a bias buffer");
  if (p->mode == KILN_DNNL_MODE_NOTHING) return NULL;
  if (p->mode == KILN_DNNL_MODE_ZEROS) {
    run_zeros(p, a);
    return p->is_conv ? kiln_dnnl_conv_padding_nans(p, a->rhs, a->out) : NULL;
  }
  uint8_t *scratch = a->scratch, *owned = NULL;
  if (!scratch && p->scratch_bytes) {
    scratch = owned = kiln_fault_aligned_alloc(KILN_DNNL_ALIGN, p->scratch_bytes);
    if (!owned) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory (%zu bytes of scratch)", p->scratch_bytes);
  }
  dnnl_stream_t strm = NULL;
  kiln_status s = NULL;
  run_mems rm = {.n = 0};
  int threads = kiln_dnnl_single_begin();
  if (KILN_DNNL_RUN_CALL(dnnl_stream_create(&strm, p->engine, dnnl_stream_default_flags)) != dnnl_success)
    s = KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: no stream");
  else
    s = exec(p, a, scratch, strm, &rm);
  kiln_dnnl_single_end(threads);
  for (int i = 0; i < rm.n; i++) dnnl_memory_destroy(rm.m[i]);
  if (strm) dnnl_stream_destroy(strm);
  free(owned);
  if (!s && p->is_conv) s = kiln_dnnl_conv_padding_nans(p, a->rhs, a->out);
  return s;
}

kiln_status kiln_cpu_dnnl_run(const kiln_cpu_dnnl_op *p, const void *lhs, const void *rhs, void *out) {
  kiln_cpu_dnnl_args a = {.lhs = lhs, .rhs = rhs, .out = out};
  return kiln_cpu_dnnl_run_ex(p, &a);
}

size_t kiln_cpu_dnnl_scratch_bytes(const kiln_cpu_dnnl_op *p) { return p ? p->scratch_bytes : 0; }

const char *kiln_cpu_dnnl_impl(const kiln_cpu_dnnl_op *p) { return p ? p->impl : "none"; }

/* A gemm of a few elements: oneDNN generates all of its f32 gemm kernels at its first. */
static void first_sgemm(void) {
  float a[64] = {0}, b[64] = {0}, c[64];
  dnnl_sgemm('N', 'N', 8, 8, 8, 1.0f, a, 8, b, 8, 0.0f, c, 8);
}

/* Whether prim, whose source has type t, runs oneDNN's f32 gemm. */
static bool f32_gemm(const_dnnl_primitive_t prim, dnnl_data_type_t t) {
  const_dnnl_primitive_desc_t pd = NULL;
  const char *impl = NULL;
  return prim && t == dnnl_f32 && dnnl_primitive_get_primitive_desc(prim, &pd) == dnnl_success &&
         dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl &&
         strncmp(impl, "gemm:jit", 8) == 0;
}

void kiln_cpu_dnnl_prepare_library(const kiln_cpu_dnnl_op *p) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (!p || p->mode != KILN_DNNL_MODE_PRIMITIVE) return;
  /* the primitive or a part of a split one (each its own, whose kernel may differ), or
   * dnnl_sgemm where neither OpenBLAS nor Kiln's sgemm takes the product */
  bool gemm = p->gemm.on ? !p->gemm.own && !p->gemm.blas && !p->own_i8 : f32_gemm(p->prim, p->io[KILN_DNNL_SRC].prim_md.data_type);
  for (int k = 0; k < 2 && !p->gemm.on && p->split.parts; k++) gemm |= f32_gemm(p->split.prim[k], p->split.md[k][KILN_DNNL_SRC].data_type);
  if (gemm) pthread_once(&once, first_sgemm);
}

void kiln_cpu_dnnl_destroy(kiln_cpu_dnnl_op *p) {
  if (!p) return;
  release_prims(p);
  if (p->engine) dnnl_engine_destroy(p->engine);
  free(p);
}
