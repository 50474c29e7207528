/* oneDNN primitives run as single-threaded parts on the backend's pool (see
 * dnnl_internal.h: kiln_dnnl_split). Debian's oneDNN is built on OpenMP, whose parallel
 * regions end in a barrier that waits for every thread of the team, scheduled or not; so
 * oneDNN never runs its own threads here: every primitive is created and run with the
 * calling thread's OpenMP thread count at 1, and a large one is cut along one dimension
 * of its tensors into slices, each a primitive of its own (created with the op) or an
 * sgemm call (dnnl_gemm.c), that the pool's threads claim like any other chunks. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/igemm.h"
#include "backends/cpu/pool.h"

/* Below this many multiply-adds a primitive runs whole on the calling thread: each part
 * costs its memory objects and stream (about 1 us), and the pool's hand-off. Below
 * ROW_SPLIT_MACS a matmul is cut along M only (whole when it lacks the rows): its parts
 * stay dense, so oneDNN keeps its brgemm kernel, where column slices (strided) get
 * gemm:jit, whose first use in a process generates its kernels for about 35 ms (measured
 * on Zen 4, oneDNN 2.6): more than the whole compile of a small model. Large products are
 * cut along M too while each part keeps ROW_SLICE_M_LARGE rows (brgemm on dense rows beat
 * gemm:jit on column slices: transformer_large 29.5 against 32.4 ms, vit_large_bf16 12.4
 * against 13.3, mlp_large level; Emerald Rapids, oneDNN 2.7, medians of 3), else along N
 * (each part then reads only its columns of the weights). */
enum { SPLIT_MIN_MACS = 1 << 17, ROW_SPLIT_MACS = 1 << 22, MIN_SLICE_N = 16, MIN_SLICE_M = 4, ROW_SLICE_M_LARGE = 32 };

int kiln_dnnl_single_begin(void) {
  int saved = omp_get_max_threads();
  if (saved != 1) omp_set_num_threads(1);
  return saved;
}

void kiln_dnnl_single_end(int saved) {
  if (saved != 1) omp_set_num_threads(saved);
}

/* md cut to len indices along d (its first elements stay where they are); false when d
 * is blocked (or padded) in md's format. */
static bool slice_md(const dnnl_memory_desc_t *md, int d, int64_t len, dnnl_memory_desc_t *out, size_t *stride) {
  if (md->format_kind != dnnl_blocked || md->offset0 != 0 || md->padded_dims[d] != md->dims[d] ||
      md->padded_offsets[d] != 0)
    return false;
  const dnnl_blocking_desc_t *b = &md->format_desc.blocking;
  for (int i = 0; i < b->inner_nblks; i++)
    if (b->inner_idxs[i] == d) return false;
  *out = *md;
  out->dims[d] = out->padded_dims[d] = len;
  *stride = (size_t)b->strides[d] * dnnl_data_type_size(md->data_type);
  return true;
}

/* The dimension of each tensor to cut (dim[i], -1: whole) and of the destination's
 * cut's size; false when the primitive is not cut. */
static bool choose_dims(const kiln_cpu_dnnl_op *p, int32_t parts, int32_t dim[KILN_DNNL_NUM_IO], int64_t *out_len) {
  const dnnl_memory_desc_t *dst = &p->io[KILN_DNNL_DST].prim_md;
  int n = dst->ndims;
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) dim[i] = -1;
  if (p->is_conv) { /* along the batch */
    if (dst->dims[0] < 2 || p->io[KILN_DNNL_SRC].prim_md.dims[0] != dst->dims[0]) return false;
    dim[KILN_DNNL_SRC] = dim[KILN_DNNL_DST] = 0;
    *out_len = dst->dims[0];
    return true;
  }
  /* matmul [batch..., M, K] x [batch..., K, N]: a batch dimension, else for a small
   * product M or nothing (ROW_SPLIT_MACS), else M when the parts keep enough rows, else N
   * when the slices stay wide, else M */
  for (int i = 0; i < n - 2; i++)
    if (dst->dims[i] >= 2) {
      dim[KILN_DNNL_SRC] = dim[KILN_DNNL_WEI] = dim[KILN_DNNL_DST] = i;
      *out_len = dst->dims[i];
      return true;
    }
  int64_t m = dst->dims[n - 2], nn = dst->dims[n - 1];
  if (kiln_cpu_dnnl_macs(p) < ROW_SPLIT_MACS) { /* small: dense row slices, or whole */
    if (m / parts < MIN_SLICE_M) return false;
    dim[KILN_DNNL_SRC] = dim[KILN_DNNL_DST] = n - 2;
    *out_len = m;
    return true;
  }
  if (m / parts < ROW_SLICE_M_LARGE && (nn / parts >= MIN_SLICE_N || (m < 2 && nn >= 2))) {
    dim[KILN_DNNL_WEI] = dim[KILN_DNNL_DST] = n - 1;
    *out_len = nn;
    return true;
  }
  if (m < 2) return false;
  dim[KILN_DNNL_SRC] = dim[KILN_DNNL_DST] = n - 2;
  *out_len = m;
  return true;
}

int64_t kiln_cpu_dnnl_macs(const kiln_cpu_dnnl_op *p) {
  const dnnl_memory_desc_t *src = &p->io[KILN_DNNL_SRC].prim_md, *wei = &p->io[KILN_DNNL_WEI].prim_md,
                           *dst = &p->io[KILN_DNNL_DST].prim_md;
  int64_t out = 1, w = 1;
  for (int i = 0; i < dst->ndims; i++) out *= dst->dims[i];
  if (!p->is_conv) return out * src->dims[src->ndims - 1];
  for (int i = 0; i < wei->ndims; i++) w *= wei->dims[i];
  if (p->is_deconv) { /* each source element meets O/G * window weights */
    int64_t in = 1;
    for (int i = 0; i < src->ndims; i++) in *= src->dims[i];
    return in * (w / (src->dims[1] > 0 ? src->dims[1] : 1));
  }
  return out * (w / (dst->dims[1] > 0 ? dst->dims[1] : 1));
}

void kiln_dnnl_split_release(kiln_cpu_dnnl_op *p) {
  for (int k = 0; k < 2; k++) {
    if (p->split.prim[k]) dnnl_primitive_destroy(p->split.prim[k]);
    p->split.prim[k] = NULL;
  }
  p->split.parts = 0;
}

/* Part k of len indices: its slices and, unless sgemm runs the parts (p->gemm), its
 * primitive; false (nothing made) when oneDNN has no fast kernel. */
static bool build_part(kiln_cpu_dnnl_op *p, int k, int64_t len) {
  kiln_dnnl_split *sp = &p->split;
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) {
    sp->md[k][i] = p->io[i].prim_md;
    if (sp->dim[i] >= 0 && !slice_md(&p->io[i].prim_md, sp->dim[i], len, &sp->md[k][i], &sp->stride[i])) return false;
  }
  dnnl_memory_desc_t bias = p->prim_bias ? p->prim_bias_md : p->bias_md; /* a convolution's is not cut */
  sp->bias_cut = p->epi.has_bias && !p->prim_bias && !p->own_bias && bias.dims[sp->dim[KILN_DNNL_DST]] > 1;
  if (sp->bias_cut && !slice_md(&p->bias_md, sp->dim[KILN_DNNL_DST], len, &bias, &sp->bias_stride)) return false;
  sp->bias_md[k] = bias;
  if (p->gemm.on) {
    if (p->own_i8) sp->scratch = kiln_dnnl_round_up(KILN_CPU_IGEMM_WORK_BYTES);
    return true;
  }
  dnnl_matmul_desc_t mm = p->matmul;
  dnnl_convolution_desc_t conv = p->conv;
  if (p->is_conv) {
    conv.src_desc = sp->md[k][KILN_DNNL_SRC];
    conv.weights_desc = sp->md[k][KILN_DNNL_WEI];
    conv.dst_desc = sp->md[k][KILN_DNNL_DST];
  } else {
    mm.src_desc = sp->md[k][KILN_DNNL_SRC];
    mm.weights_desc = sp->md[k][KILN_DNNL_WEI];
    mm.dst_desc = sp->md[k][KILN_DNNL_DST];
  }
  dnnl_primitive_attr_t attr = NULL;
  kiln_status s = kiln_dnnl_make_attr(p, &bias, &attr);
  if (s) {
    kiln_status_free(s);
    return false;
  }
  dnnl_primitive_desc_t pd = NULL;
  dnnl_status_t st = dnnl_primitive_desc_create(&pd, p->is_conv ? (const void *)&conv : (const void *)&mm, attr, p->engine, NULL);
  dnnl_primitive_attr_destroy(attr);
  if (st != dnnl_success) return false;
  const char *impl = "?";
  dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  const dnnl_memory_desc_t *pad = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  size_t scratch = pad ? dnnl_memory_desc_get_size(pad) : 0;
  bool ok = strncmp(impl, "ref", 3) != 0 || kiln_dnnl_is_ref(p);
  if (ok) ok = dnnl_primitive_create(&sp->prim[k], pd) == dnnl_success;
  dnnl_primitive_desc_destroy(pd);
  if (ok && kiln_dnnl_round_up(scratch) > sp->scratch) sp->scratch = kiln_dnnl_round_up(scratch);
  return ok;
}

void kiln_dnnl_split_build(kiln_cpu_dnnl_op *p) {
  kiln_dnnl_split_release(p);
  kiln_dnnl_split *sp = &p->split;
  int32_t threads = kiln_cpu_pool_threads(kiln_cpu_pool_shared());
  int64_t len;
  if (threads < 2 || p->mode != KILN_DNNL_MODE_PRIMITIVE || kiln_cpu_dnnl_macs(p) < SPLIT_MIN_MACS ||
      !choose_dims(p, threads, sp->dim, &len))
    return;
  int32_t parts = len < threads ? (int32_t)len : threads;
  sp->len = len;
  sp->scratch = 0;
  bool ok = build_part(p, 0, (len + parts - 1) / parts);
  if (ok && len % parts) ok = build_part(p, 1, len / parts);
  if (!ok) {
    kiln_dnnl_split_release(p);
    return;
  }
  sp->parts = parts;
  sp->scratch_offset = p->scratch_bytes;
  p->scratch_bytes += (size_t)parts * sp->scratch;
}

/* ---------------------------------------------------------------- runs */

typedef struct split_run {
  const kiln_cpu_dnnl_op *p;
  const uint8_t *base[KILN_DNNL_NUM_IO], *bias;
  uint8_t *scratch;
  _Atomic int failed; /* a dnnl_status_t */
} split_run;

static void run_part(void *ctx, int32_t c, int32_t thread) {
  split_run *r = ctx;
  const kiln_cpu_dnnl_op *p = r->p;
  const kiln_dnnl_split *sp = &p->split;
  kiln_dnnl_single_begin(); /* a pool thread: oneDNN stays on it (left so) */
  int64_t lo = sp->len / sp->parts, rem = sp->len % sp->parts, start = c * lo + (c < rem ? c : rem);
  int k = rem && c >= rem ? 1 : 0;
  const uint8_t *at[KILN_DNNL_NUM_IO]; /* the part's tensors and bias */
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) at[i] = r->base[i] + (sp->dim[i] >= 0 ? (size_t)start * sp->stride[i] : 0);
  const uint8_t *bias = r->bias ? r->bias + (sp->bias_cut ? (size_t)start * sp->bias_stride : 0) : NULL;
  if (p->gemm.on) {
    dnnl_status_t st = kiln_dnnl_gemm_run(p, at[KILN_DNNL_SRC], at[KILN_DNNL_WEI], (void *)at[KILN_DNNL_DST], bias,
                                          &sp->md[k][KILN_DNNL_DST], r->scratch + (size_t)c * sp->scratch);
    if (st != dnnl_success) atomic_store(&r->failed, (int)st);
    return;
  }
  dnnl_memory_t m[KILN_DNNL_NUM_IO + 2] = {NULL};
  dnnl_exec_arg_t args[KILN_DNNL_NUM_IO + 2];
  static const int arg_of[KILN_DNNL_NUM_IO] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
  dnnl_status_t st = dnnl_success;
  int n = 0;
  for (int i = 0; i < KILN_DNNL_NUM_IO && st == dnnl_success; i++) {
    st = KILN_DNNL_RUN_CALL(dnnl_memory_create(&m[n], &sp->md[k][i], p->engine, (void *)at[i]));
    if (st == dnnl_success) args[n] = (dnnl_exec_arg_t){arg_of[i], m[n]}, n++;
  }
  if (st == dnnl_success && p->epi.has_bias && !p->own_bias) {
    st = KILN_DNNL_RUN_CALL(dnnl_memory_create(&m[n], &sp->bias_md[k], p->engine, (void *)bias));
    int idx = p->epi.scale != 1.0f ? 1 : 0;
    int arg = p->prim_bias ? DNNL_ARG_BIAS : DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) | DNNL_ARG_SRC_1;
    if (st == dnnl_success) args[n] = (dnnl_exec_arg_t){arg, m[n]}, n++;
  }
  if (st == dnnl_success && sp->scratch) {
    dnnl_memory_desc_t smd;
    dnnl_dims_t d = {(dnnl_dim_t)sp->scratch};
    dnnl_memory_desc_init_by_tag(&smd, 1, d, dnnl_u8, dnnl_a);
    st = KILN_DNNL_RUN_CALL(dnnl_memory_create(&m[n], &smd, p->engine, r->scratch + (size_t)c * sp->scratch));
    if (st == dnnl_success) args[n] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, m[n]}, n++;
  }
  dnnl_stream_t strm = NULL;
  if (st == dnnl_success) st = KILN_DNNL_RUN_CALL(dnnl_stream_create(&strm, p->engine, dnnl_stream_default_flags));
  if (st == dnnl_success) st = KILN_DNNL_RUN_CALL(dnnl_primitive_execute(sp->prim[k], strm, n, args));
  if (st == dnnl_success) st = KILN_DNNL_RUN_CALL(dnnl_stream_wait(strm));
  if (strm) dnnl_stream_destroy(strm);
  for (int i = 0; i < n; i++) dnnl_memory_destroy(m[i]);
  if (st != dnnl_success) atomic_store(&r->failed, (int)st);
}

kiln_status kiln_dnnl_split_run(const kiln_cpu_dnnl_op *p, const void *const seen[KILN_DNNL_NUM_IO], const void *bias,
                                uint8_t *scratch) {
  split_run r = {.p = p, .bias = bias, .scratch = scratch ? scratch + p->split.scratch_offset : NULL};
  for (int i = 0; i < KILN_DNNL_NUM_IO; i++) r.base[i] = seen[i];
  kiln_cpu_pool_run(kiln_cpu_pool_shared(), p->split.parts, kiln_cpu_dnnl_macs(p), run_part, &r);
  int st = atomic_load(&r.failed);
  return st ? KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN: running a part of the primitive failed (status %d)", st) : NULL;
}
