/* The CPU backend's oneDNN lowering of contractions: stablehlo.dot_general, stablehlo.dot and
 * stablehlo.convolution with static shapes, run on dense row-major buffers.
 *
 * kiln_cpu_dnnl_prepare reads one op (dimension numbers, window attributes, group counts,
 * element types) and creates the oneDNN primitive once; kiln_cpu_dnnl_run executes it on
 * buffers. What oneDNN cannot compute exactly as the op says comes back as
 * KILN_STATUS_UNIMPLEMENTED, and the caller runs its own code instead; nothing is ever
 * computed approximately. Supported:
 *   - element types: f32, bf16, f16. The result type may differ (bf16 x bf16 -> f32). Sums
 *     are kept in f32, as the reference interpreter keeps them. Where oneDNN has no fast
 *     kernel for the types on this CPU (or under KILN_CPU_ISA, isa.h: bf16 below AVX-512,
 *     f16 on most CPUs), the f32 kernel runs on f32 copies of the operands (in the
 *     scratch) and the result is rounded back to nearest even, as the interpreter rounds.
 *     An i8 x i8 -> i32 dot_general or dot sums in i32: oneDNN's
 *     s8 kernels where the ISA has VNNI (isa.h: exact), else the f32 kernel on f32 copies
 *     while K <= 1024 (every partial sum an integer f32 holds: exact), else UNIMPLEMENTED;
 *     no epilogue. Other integers, f64, complex, quantized tensors: UNIMPLEMENTED.
 *   - dot_general: any batching and contracting dimensions in any position, rank-1 and
 *     rank-0-result forms, K = 0 (zeros), empty tensors. Operands whose dimensions cannot
 *     be described as strided [batch..., M, K] / [batch..., K, N] views are copied into
 *     that order first (a oneDNN reorder into scratch). precision_config is ignored: f32
 *     is always computed in full f32 (the strictest setting).
 *   - convolution: any dimension numbers (NHWC, NCHW, HWIO, OIHW, ...), 1 to 3 spatial
 *     dimensions (0 is run as 1 of size one), window strides, padding (negative padding
 *     crops the input), rhs (kernel) dilation, feature_group_count, batch_group_count,
 *     window reversal (the weights copied reversed per run). lhs dilation with window
 *     strides 1 as a deconvolution (holes skipped, not multiplied); with strides above 1,
 *     padding that reaches past the window, or where only reference deconvolution kernels
 *     exist: UNIMPLEMENTED (conv.c pads and dilates the lhs into a copy first,
 *     kiln_cpu_dnnl_prepare_conv). Where a window meets the spec's zero padding or holes
 *     and a weight is inf or NaN, the result is NaN, as the spec's 0 * inf.
 *
 * Ownership: prepare returns a new object owned by the caller (kiln_cpu_dnnl_destroy). It
 * keeps no pointer into the op or its module. Thread-safety: prepare, set_epilogue and
 * destroy need exclusive access to their object; kiln_cpu_dnnl_run and run_ex only read it,
 * so any number of runs of one prepared op may go on at once on distinct output and scratch
 * buffers. oneDNN never starts its OpenMP threads: primitives are made for one thread, and
 * large ones are cut into parts that run on the backend's pool (pool.h, dnnl_split.c). */
#ifndef KILN_BACKENDS_CPU_DNNL_OPS_H
#define KILN_BACKENDS_CPU_DNNL_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"
#include "kiln/status.h"

typedef struct kiln_cpu_dnnl_op kiln_cpu_dnnl_op;

/* Prepares a DOT_GENERAL, DOT or CONVOLUTION op whose operand and result types are static
 * tensors. UNIMPLEMENTED when oneDNN cannot do this op / type combination; INVALID_ARGUMENT
 * for an op whose attributes do not fit its operands (the verifier rejects those). */
kiln_status kiln_cpu_dnnl_prepare(const kiln_op *op, kiln_cpu_dnnl_op **out);
/* The same for a CONVOLUTION as dims describe it (conv.h): kiln_cpu_conv_read's reading,
 * possibly made to read a padded and dilated lhs (kiln_cpu_conv_prepad), whose dims the
 * runs' lhs buffer then has. */
struct kiln_cpu_conv_dims;
kiln_status kiln_cpu_dnnl_prepare_conv(const kiln_op *op, const struct kiln_cpu_conv_dims *dims, kiln_cpu_dnnl_op **out);

/* A fused epilogue, applied to each result element r (the sum of products), in this order:
 *   r = r * scale          (skipped when scale == 1)
 *   r = r + bias[i]        (when has_bias: i is the element's index along bias_dim)
 *   r = max(r, 0)          (when relu)
 * then rounded to the result type once. The bias is a dense vector of the result's element
 * type, given to each run (kiln_cpu_dnnl_args.bias). bias_dim is a result dimension: for a
 * convolution its output feature dimension; for dot_general any result dimension that is
 * the only dimension of size above one among the batch, lhs-free or rhs-free dimensions it
 * belongs to (normally the last: rhs's single free dimension). */
typedef struct kiln_cpu_dnnl_epilogue {
  float scale;
  bool has_bias;
  int bias_dim;
  bool relu;
} kiln_cpu_dnnl_epilogue;

/* Sets the epilogue (replacing any earlier one) and re-creates the primitive. Call it
 * before the first run. UNIMPLEMENTED when oneDNN cannot fuse it here (or could only with
 * its slow reference kernels where the plain op had fast ones); the op is then left as it
 * was. */
kiln_status kiln_cpu_dnnl_set_epilogue(kiln_cpu_dnnl_op *p, const kiln_cpu_dnnl_epilogue *e);

/* Buffers of one run: dense row-major lhs, rhs and result (distinct, not overlapping),
 * the bias vector when the epilogue has one, and scratch: at least
 * kiln_cpu_dnnl_scratch_bytes(p) bytes aligned to 64, or NULL to have the run allocate
 * (and free) it itself. One scratch buffer may not serve two runs at once. */
typedef struct kiln_cpu_dnnl_args {
  const void *lhs, *rhs, *bias;
  void *out;
  void *scratch;
} kiln_cpu_dnnl_args;

kiln_status kiln_cpu_dnnl_run_ex(const kiln_cpu_dnnl_op *p, const kiln_cpu_dnnl_args *a);
/* kiln_cpu_dnnl_run_ex without a bias and with scratch allocated by the run when needed. */
kiln_status kiln_cpu_dnnl_run(const kiln_cpu_dnnl_op *p, const void *lhs, const void *rhs, void *out);

/* Scratch a run needs: oneDNN's scratchpad plus room for the operands it copies into
 * another order first. 0 when none. */
size_t kiln_cpu_dnnl_scratch_bytes(const kiln_cpu_dnnl_op *p);
/* oneDNN's name of the kernel it chose ("brg:avx512_core", "gemm:jit", "ref:any", ...),
 * followed by " via f32" when the op's bf16/f16 tensors are converted for it, or "none"
 * when a run needs no kernel (empty result, or all zeros). Borrowed from p. */
const char *kiln_cpu_dnnl_impl(const kiln_cpu_dnnl_op *p);
/* The multiply-adds of one run of p (of its primitive, whose shapes may be p's op's
 * reshaped). */
int64_t kiln_cpu_dnnl_macs(const kiln_cpu_dnnl_op *p);
/* Does now what p's first run would set up in oneDNN once for the whole process: the
 * generation of its f32 gemm's kernels when p runs oneDNN's gemm (about 25 ms at the first
 * gemm of a process on an AVX-512 host, 2026-12-07; each later one pays nothing).
 * Thread-safe; nothing when p does not run that gemm. */
void kiln_cpu_dnnl_prepare_library(const kiln_cpu_dnnl_op *p);
void kiln_cpu_dnnl_destroy(kiln_cpu_dnnl_op *p); /* NULL allowed */

#endif
