/* Internals of the oneDNN lowering (dnnl_ops.h), shared by its files: dnnl_ops.c (the
 * prepared object, primitive creation, runs), dnnl_dot.c and dnnl_conv.c (reading an op
 * into oneDNN descriptions). Not for other code.
 *
 * A prepared op is one oneDNN primitive (matmul or convolution) over three tensors: source
 * (from lhs), weights (from rhs) and destination (the result). Each tensor is seen by the
 * primitive either directly, as a strided view of the caller's buffer, or through a
 * temporary in scratch that a oneDNN reorder fills from (or empties into) that buffer:
 * for operands whose dimensions cannot be described as one strided view, or whose layout
 * the fast kernels want in another (blocked) format. */
#ifndef KILN_BACKENDS_CPU_DNNL_INTERNAL_H
#define KILN_BACKENDS_CPU_DNNL_INTERNAL_H

#include <dnnl.h>

#include "backends/cpu/conv.h"
#include "backends/cpu/dnnl_ops.h"
#include "base/fault.h"

enum { KILN_DNNL_SRC, KILN_DNNL_WEI, KILN_DNNL_DST, KILN_DNNL_NUM_IO };

/* Every region of an op's scratch starts on a multiple of KILN_DNNL_ALIGN bytes. */
enum { KILN_DNNL_ALIGN = 64 };
static inline size_t kiln_dnnl_round_up(size_t n) { return (n + KILN_DNNL_ALIGN - 1) / KILN_DNNL_ALIGN * KILN_DNNL_ALIGN; }

/* How a run goes: the primitive; only the epilogue applied to zeros (an empty sum: K = 0,
 * no input features, an empty window or input); or nothing (an empty result). */
typedef enum kiln_dnnl_mode { KILN_DNNL_MODE_PRIMITIVE, KILN_DNNL_MODE_ZEROS, KILN_DNNL_MODE_NOTHING } kiln_dnnl_mode;

/* One tensor of the primitive. */
typedef struct kiln_dnnl_io {
  size_t offset;              /* bytes from the caller's pointer to the view's first element */
  dnnl_memory_desc_t user_md; /* the view of the caller's buffer */
  /* Through a temporary: tmp_md has user_md's dimensions (a reorder copies between the
   * two); prim_md is the same bytes as the primitive sees them (possibly another shape).
   * With tmp_any, the primitive chooses the temporary's format and tmp_md = prim_md. */
  bool via_tmp, tmp_any;
  dnnl_memory_desc_t tmp_md, prim_md;
  /* Filled in when the primitive is created. */
  dnnl_primitive_t reorder;
  size_t tmp_offset, tmp_bytes; /* within the scratch */
} kiln_dnnl_io;

/* The primitive cut into `parts` slices along one dimension (dnnl_split.c), each run as a
 * single-threaded primitive of its own on the pool; parts == 0: it runs whole. Part c
 * covers indices [c * (len / parts) + min(c, len % parts), ...) of the cut dimension:
 * the first len % parts parts have one index more (prim[0]) than the others (prim[1]). */
typedef struct kiln_dnnl_split {
  int32_t parts;
  int32_t dim[KILN_DNNL_NUM_IO]; /* the dimension of each tensor cut (of its prim_md); -1: whole */
  int64_t len;
  size_t stride[KILN_DNNL_NUM_IO]; /* bytes per index of the cut dimension */
  bool bias_cut;                   /* the bias lies along the cut dimension */
  size_t bias_stride;
  dnnl_memory_desc_t md[2][KILN_DNNL_NUM_IO], bias_md[2];
  dnnl_primitive_t prim[2];
  size_t scratch;        /* one part's scratchpad, rounded up; parts of them ... */
  size_t scratch_offset; /* ... from here in the scratch */
} kiln_dnnl_split;

/* The matmul as sgemm calls (dnnl_gemm.c) instead of its primitive, when `on`: row-major
 * operands with sgemm's transpose flags and leading dimensions (C is never transposed), one
 * call per matrix of the batch, whose dimensions' strides in each tensor (elements; 0 where
 * an operand's is 1 and broadcast) are bstride; bias_dim: the bias along M (0) or N (1), -1:
 * none; blas: OpenBLAS's sgemm for wide and deep weights; own: Kiln's (sgemm.h) for the
 * others; oneDNN's where neither. An own_i8 op's calls are Kiln's igemm (igemm.h) instead,
 * whose working buffer lies at work_offset in the scratch for a whole run (a split run's
 * parts have theirs in the split's scratch). */
typedef struct kiln_dnnl_gemm {
  bool on, blas, own;
  size_t work_offset;
  char ta, tb;
  int64_t k, lda, ldb, ldc;
  int64_t bstride[KILN_DNNL_NUM_IO][DNNL_MAX_NDIMS];
  int bias_dim;
} kiln_dnnl_gemm;

struct kiln_cpu_dnnl_op {
  dnnl_engine_t engine;
  kiln_dnnl_mode mode;
  bool is_conv;
  bool is_deconv; /* conv holds a deconvolution's description (an lhs-dilated convolution) */
  dnnl_matmul_desc_t matmul;
  dnnl_convolution_desc_t conv;
  kiln_dnnl_io io[KILN_DNNL_NUM_IO];
  /* The result as the caller sees it (for ZEROS runs and bias checks). */
  kiln_elem out_elem;
  int32_t out_rank;
  int64_t out_dims[DNNL_MAX_NDIMS];
  int64_t out_count;
  /* For each result dimension, the primitive's destination dimension it is part of and
   * whether it is the only one there of size above one (bias placement); -1: none. */
  int32_t out_to_prim[DNNL_MAX_NDIMS];
  bool out_alone[DNNL_MAX_NDIMS];
  /* Tensors computed in f32 for lack of kernels for their type (kiln_dnnl_build): the
   * caller's element type (KILN_ELEM_F32 when not converted) and element count; the f32
   * copy lies at copy_offset in the scratch, and io[i] views it instead of the caller's. */
  kiln_elem elem[KILN_DNNL_NUM_IO];
  int64_t count[KILN_DNNL_NUM_IO];
  bool converted[KILN_DNNL_NUM_IO];
  size_t copy_offset[KILN_DNNL_NUM_IO];
  /* Whether computing in f32 gives the op's exact values (always for floats, whose sums
   * the interpreter keeps in f32; for an i8 x i8 -> i32 dot when every partial sum is an
   * integer f32 holds exactly), and whether it must (i8 without VNNI: oneDNN's kernels
   * saturate pairs of products in i16 there). */
  bool f32_exact, force_f32;
  /* An i8 x i8 -> i32 product on an AVX2 host without VNNI: Kiln's igemm computes it, exact
   * for any K (kiln_dnnl_gemm), whatever kernel oneDNN has for the types; never in f32. */
  bool own_i8;
  kiln_cpu_dnnl_epilogue epi;
  dnnl_memory_desc_t bias_md;
  /* Where the epilogue's bias goes when there is no scale before it: a convolution's is
   * the primitive's own bias argument (prim_bias: conv.bias_desc, the vector prim_bias_md);
   * a deconvolution's with an f32 result and no relu is added by Kiln after the primitive
   * (own_bias: dnnl_conv_run.c). oneDNN's deconvolution runs binary post-ops through a slow
   * path (40 times the plain primitive's time), and its bias argument through a second pass
   * that doubles it (measured, 2026-12-02). Otherwise: a binary post-op (bias_md). */
  bool prim_bias, own_bias;
  dnnl_memory_desc_t prim_bias_md;
  dnnl_primitive_t prim;
  size_t prim_scratch; /* the largest scratchpad of the primitive and the reorders ... */
  size_t pad_offset;   /* ... which lies here in the scratch */
  size_t scratch_bytes;
  kiln_dnnl_split split;
  kiln_dnnl_gemm gemm;
  /* A convolution's weights read reversed along the rhs dimensions marked in flip (window
   * reversal, or a deconvolution's flipped kernel: oneDNN takes no negative strides): each
   * run copies them so into the scratch at flip_offset (dnnl_conv_run.c) first. */
  bool flips;
  bool flip[DNNL_MAX_NDIMS];
  size_t flip_offset;
  /* The convolution as its op reads (conv.h), and whether a window can read the spec's
   * zero padding or an lhs dilation's holes, which oneDNN skips: where it can, products of
   * those zeros with non-finite weights are NaN (dnnl_conv_run.c puts them back). */
  kiln_cpu_conv_dims conv_dims;
  int64_t wei_dims[DNNL_MAX_NDIMS]; /* the rhs operand's (rank out_rank) */
  bool reads_padding;
  char impl[48];
};

/* Element type of a kiln element type: false when oneDNN has none. */
bool kiln_dnnl_type(kiln_elem e, dnnl_data_type_t *out);
/* Row-major strides of dims. */
void kiln_dnnl_dense_strides(int n, const int64_t *dims, int64_t *strides);
/* A strided memory descriptor; INTERNAL status when oneDNN refuses it. */
kiln_status kiln_dnnl_md(dnnl_memory_desc_t *md, int n, const int64_t *dims, const int64_t *strides,
                         dnnl_data_type_t t);
/* An UNIMPLEMENTED status naming op: "<op name>: <message>". */
kiln_status kiln_dnnl_unimplemented(const kiln_op *op, const char *what);

/* Integer-list attributes (any integer-list spelling; an absent attribute is none). */
int64_t kiln_dnnl_ints(const kiln_attr *a, int64_t *out, int64_t max);

/* Creates the primitive (with the epilogue's post-ops), the reorders and the scratch layout
 * from the descriptions in p. UNIMPLEMENTED when oneDNN has no kernel for them. Releases
 * whatever an earlier call created first. */
kiln_status kiln_dnnl_build(kiln_cpu_dnnl_op *p);
/* The primitive attributes: the user scratchpad and the epilogue's post-ops, the bias
 * described by bias_md. The caller destroys *out. */
kiln_status kiln_dnnl_make_attr(const kiln_cpu_dnnl_op *p, const dnnl_memory_desc_t *bias_md,
                                dnnl_primitive_attr_t *out);
/* Whether the chosen kernel is oneDNN's slow reference one. */
bool kiln_dnnl_is_ref(const kiln_cpu_dnnl_op *p);

/* Conversions of whole tensors of n elements of type e (bf16 or f16; si8 in, si32 out) to
 * f32 and back (rounding to nearest even, as the interpreter rounds; si32 from f32 values
 * that are whole numbers in its range), over the pool's threads when large
 * (dnnl_convert.c). */
void kiln_dnnl_convert_in(kiln_elem e, const void *in, float *out, int64_t n);
void kiln_dnnl_convert_out(kiln_elem e, const float *in, void *out, int64_t n);

/* A oneDNN call of a run (memory objects, streams, executing, waiting): a fault point
 * (src/base/fault.h) at which the call is not made and fails with dnnl_runtime_error. */
#define KILN_DNNL_RUN_CALL(call) (kiln_fault_point() ? dnnl_runtime_error : (call))

/* oneDNN on the calling thread alone (dnnl_split.c): begin sets the thread's OpenMP
 * thread count to 1 and returns the old one, which end restores. Primitives are created
 * and run between the two, so oneDNN never starts OpenMP threads. */
int kiln_dnnl_single_begin(void);
void kiln_dnnl_single_end(int saved);
/* Cuts a built primitive into parts when it is large enough and the pool has threads,
 * adding their scratch to p->scratch_bytes (nothing when it cannot: it then runs whole);
 * release destroys the parts. */
void kiln_dnnl_split_build(kiln_cpu_dnnl_op *p);
void kiln_dnnl_split_release(kiln_cpu_dnnl_op *p);
/* Runs the parts on the pool: seen[i] is tensor i as the primitive sees it, bias the
 * epilogue's bias (or NULL), scratch the run's scratch. */
kiln_status kiln_dnnl_split_run(const kiln_cpu_dnnl_op *p, const void *const seen[KILN_DNNL_NUM_IO], const void *bias,
                                uint8_t *scratch);

/* Direct sgemm calls for f32 matmuls whose primitive is oneDNN's gemm-based one or that
 * multiply matrices by vectors (dnnl_gemm.c says when), and igemm
 * calls for own_i8 products (dnnl_gemm.c): plan sets p->gemm from the built primitive's
 * description (adding an igemm's working buffer to the scratch), before
 * kiln_dnnl_split_build (whose parts then need no primitives of their own); run computes
 * the block of the destination that dst_md describes (the whole's, or a part's) whose
 * operands start at src, wei and dst (and whose bias starts at bias), the epilogue
 * included, on the calling thread; work: the working buffer of an igemm (else unused). */
void kiln_dnnl_gemm_plan(kiln_cpu_dnnl_op *p);
dnnl_status_t kiln_dnnl_gemm_run(const kiln_cpu_dnnl_op *p, const void *src, const void *wei, void *dst,
                                 const void *bias, const dnnl_memory_desc_t *dst_md, void *work);

/* Around a convolution's primitive (dnnl_conv_run.c): copies the weights rhs (the caller's,
 * dense, p->elem[KILN_DNNL_WEI]) reversed along p->flip into out; and, after a run, sets to
 * NaN each result element whose window multiplies zero padding or a hole by a non-finite
 * weight (nothing when p->reads_padding is false or every weight is finite). */
void kiln_dnnl_conv_flip(const kiln_cpu_dnnl_op *p, const void *rhs, void *out);
kiln_status kiln_dnnl_conv_padding_nans(const kiln_cpu_dnnl_op *p, const void *rhs, void *out);
/* out (the f32 result, dense) += bias along the epilogue's bias dimension (own_bias). */
void kiln_dnnl_conv_add_bias(const kiln_cpu_dnnl_op *p, const float *bias, float *out);

/* Reading the ops (dnnl_dot.c, dnnl_conv.c): fill p's descriptions and mode and build. */
kiln_status kiln_dnnl_prepare_dot(const kiln_op *op, kiln_cpu_dnnl_op *p);
/* dims: the convolution as conv.c sees it (a padded lhs), or NULL to read it from op. */
kiln_status kiln_dnnl_prepare_conv(const kiln_op *op, const struct kiln_cpu_conv_dims *dims, kiln_cpu_dnnl_op *p);

#endif
