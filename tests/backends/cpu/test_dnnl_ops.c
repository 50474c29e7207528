/* The oneDNN lowering of dot_general / dot / convolution (src/backends/cpu/dnnl_ops.h)
 * against the reference interpreter: each case is a one-op function, run by both on the
 * same random inputs, with results compared within float tolerance. Cases cover the
 * dimension-number layouts, degenerate shapes, element types (and the refusals), the fused
 * epilogue, caller-given scratch and concurrent runs of one prepared op.
 *
 *   test_dnnl_ops           the cases; closes with "N passed, N failed"
 *   test_dnnl_ops --bench   also f32 2048^3 through this path vs dnnl_sgemm (GFLOP/s) */
#define _POSIX_C_SOURCE 200809L
#include <dnnl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/dnnl_ops.h"
#include "backends/interp/interp.h"
#include "expect.h"
#include "parse/parse.h"

typedef enum expect_kind { OK, UNIMPL } expect_kind;

typedef struct tcase {
  const char *lhs, *rhs, *out; /* tensor types */
  const char *op;              /* the op from its operands on, "%0 = " and the types added */
  expect_kind expect;
} tcase;

#define DOT(l, r, o, dims) {l, r, o, "stablehlo.dot_general %a, %b, " dims, OK}
#define CONV(l, r, o, rest) {l, r, o, "stablehlo.convolution(%a, %b) " rest, OK}
#define G1 "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"
#define NHWC "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"

static const tcase k_cases[] = {
    DOT("tensor<4x8xf32>", "tensor<8x5xf32>", "tensor<4x5xf32>", "contracting_dims = [1] x [0]"),
    DOT("tensor<8x4xf32>", "tensor<8x5xf32>", "tensor<4x5xf32>", "contracting_dims = [0] x [0]"),
    DOT("tensor<4x8xf32>", "tensor<5x8xf32>", "tensor<4x5xf32>", "contracting_dims = [1] x [1]"),
    DOT("tensor<8x4xf32>", "tensor<5x8xf32>", "tensor<4x5xf32>", "contracting_dims = [0] x [1]"),
    DOT("tensor<3x4x8xf32>", "tensor<3x8x5xf32>", "tensor<3x4x5xf32>", "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
    DOT("tensor<4x3x8xf32>", "tensor<8x3x5xf32>", "tensor<3x4x5xf32>", "batching_dims = [1] x [1], contracting_dims = [2] x [0]"),
    DOT("tensor<4x8x3xf32>", "tensor<5x8x3xf32>", "tensor<3x4x5xf32>", "batching_dims = [2] x [2], contracting_dims = [1] x [1]"),
    DOT("tensor<4x6x7xf32>", "tensor<6x7x5xf32>", "tensor<4x5xf32>", "contracting_dims = [1, 2] x [0, 1]"),
    DOT("tensor<4x6x7xf32>", "tensor<7x6x5xf32>", "tensor<4x5xf32>", "contracting_dims = [1, 2] x [1, 0]"),
    DOT("tensor<6x4x7xf32>", "tensor<7x5x6xf32>", "tensor<4x5xf32>", "contracting_dims = [2, 0] x [0, 2]"),
    DOT("tensor<8xf32>", "tensor<8xf32>", "tensor<f32>", "contracting_dims = [0] x [0]"),
    DOT("tensor<4x8xf32>", "tensor<8xf32>", "tensor<4xf32>", "contracting_dims = [1] x [0]"),
    DOT("tensor<8xf32>", "tensor<8x5xf32>", "tensor<5xf32>", "contracting_dims = [0] x [0]"),
    DOT("tensor<4xf32>", "tensor<5xf32>", "tensor<4x5xf32>", "contracting_dims = [] x []"),
    DOT("tensor<4x0xf32>", "tensor<0x5xf32>", "tensor<4x5xf32>", "contracting_dims = [1] x [0]"),
    DOT("tensor<0x8xf32>", "tensor<8x5xf32>", "tensor<0x5xf32>", "contracting_dims = [1] x [0]"),
    DOT("tensor<2x3x8xf32>", "tensor<8x4x5xf32>", "tensor<2x3x4x5xf32>", "contracting_dims = [2] x [0]"),
    DOT("tensor<2x8x3xf32>", "tensor<4x8x5xf32>", "tensor<2x3x4x5xf32>", "contracting_dims = [1] x [1]"),
    DOT("tensor<2x3x4x8xf32>", "tensor<2x3x8x5xf32>", "tensor<2x3x4x5xf32>",
        "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]"),
    DOT("tensor<3x2x4x8xf32>", "tensor<2x3x8x5xf32>", "tensor<3x2x4x5xf32>",
        "batching_dims = [0, 1] x [1, 0], contracting_dims = [3] x [2]"),
    DOT("tensor<4x2x8x3xf32>", "tensor<8x3x5x2xf32>", "tensor<2x3x4x5xf32>",
        "batching_dims = [1, 3] x [3, 1], contracting_dims = [2] x [0]"),
    DOT("tensor<1x4x1x8xf32>", "tensor<8x1x5xf32>", "tensor<1x4x1x1x5xf32>", "contracting_dims = [3] x [0]"),
    DOT("tensor<1x4x8xf32>", "tensor<1x8x5xf32>", "tensor<1x4x5xf32>", "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
    DOT("tensor<4x1x8xf32>", "tensor<1x8x5xf32>", "tensor<4x5xf32>", "contracting_dims = [1, 2] x [0, 1]"),
    DOT("tensor<64x128xf32>", "tensor<128x96xf32>", "tensor<64x96xf32>", "contracting_dims = [1] x [0]"),
    DOT("tensor<130x257xf32>", "tensor<67x257xf32>", "tensor<130x67xf32>", "contracting_dims = [1] x [1]"),
    DOT("tensor<5x33x17xf32>", "tensor<5x17x9xf32>", "tensor<5x33x9xf32>", "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
    DOT("tensor<16x32xbf16>", "tensor<32x24xbf16>", "tensor<16x24xbf16>", "contracting_dims = [1] x [0]"),
    DOT("tensor<16x32xbf16>", "tensor<24x32xbf16>", "tensor<16x24xf32>", "contracting_dims = [1] x [1]"),
    /* bf16 and f16 where this CPU (or KILN_CPU_ISA) has no kernels for them: through f32 */
    DOT("tensor<5x33x17xbf16>", "tensor<9x5x17xbf16>", "tensor<5x33x9xbf16>",
        "batching_dims = [0] x [1], contracting_dims = [2] x [2]"),
    DOT("tensor<16x32xf16>", "tensor<32x24xf16>", "tensor<16x24xf16>", "contracting_dims = [1] x [0]"),
    DOT("tensor<4x32xf16>", "tensor<32xf16>", "tensor<4xf32>", "contracting_dims = [1] x [0]"),
    {"tensor<4x8xf32>", "tensor<8x5xf32>", "tensor<4x5xf32>", "\"stablehlo.dot\"(%a, %b)", OK},
    {"tensor<4x8xi32>", "tensor<8x5xi32>", "tensor<4x5xi32>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]", UNIMPL},
    {"tensor<4x8xf64>", "tensor<8x5xf64>", "tensor<4x5xf64>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]", UNIMPL},
    /* convolutions */
    CONV("tensor<2x8x8x3xf32>", "tensor<3x3x3x4xf32>", "tensor<2x8x8x4xf32>", NHWC ", window = {pad = [[1, 1], [1, 1]]} " G1),
    CONV("tensor<2x3x8x8xf32>", "tensor<4x3x3x3xf32>", "tensor<2x4x6x6xf32>",
         "dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} " G1),
    CONV("tensor<1x9x9x4xf32>", "tensor<3x3x4x8xf32>", "tensor<1x4x4x8xf32>",
         NHWC ", window = {stride = [2, 2], pad = [[1, 0], [0, 1]]} " G1),
    CONV("tensor<1x10x10x2xf32>", "tensor<3x3x2x3xf32>", "tensor<1x6x6x3xf32>", NHWC ", window = {rhs_dilate = [2, 2]} " G1),
    CONV("tensor<1x6x6x4xf32>", "tensor<3x3x2x6xf32>", "tensor<1x4x4x6xf32>",
         NHWC ", window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}"),
    CONV("tensor<1x6x6x4xf32>", "tensor<3x3x1x4xf32>", "tensor<1x4x4x4xf32>",
         NHWC ", window = {} {batch_group_count = 1 : i64, feature_group_count = 4 : i64}"),
    CONV("tensor<4x6x6x3xf32>", "tensor<3x3x3x4xf32>", "tensor<2x4x4x4xf32>",
         NHWC ", window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}"),
    CONV("tensor<2x10x3xf32>", "tensor<3x3x5xf32>", "tensor<2x8x5xf32>", "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} " G1),
    CONV("tensor<1x5x5x5x2xf32>", "tensor<2x2x2x2x3xf32>", "tensor<1x4x4x4x3xf32>",
         "dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {} " G1),
    CONV("tensor<4x3xf32>", "tensor<3x5xf32>", "tensor<4x5xf32>", "dim_numbers = [b, f]x[i, o]->[b, f], window = {} " G1),
    CONV("tensor<1x8x8x2xf32>", "tensor<3x3x2x2xf32>", "tensor<1x4x6x2xf32>", NHWC ", window = {pad = [[-1, -1], [0, 0]]} " G1),
    CONV("tensor<1x8x8x2xf32>", "tensor<3x3x2x2xf32>", "tensor<1x7x8x2xf32>", NHWC ", window = {pad = [[2, -1], [1, 1]]} " G1),
    CONV("tensor<3x7x2x6xf32>", "tensor<3x3x4x2xf32>", "tensor<5x2x4x5xf32>",
         "dim_numbers = [f, 0, b, 1]x[i, 0, o, 1]->[1, b, f, 0], window = {} " G1),
    CONV("tensor<2x7x7x3xf32>", "tensor<4x3x3x3xf32>", "tensor<2x4x3x3xf32>",
         "dim_numbers = [b, 0, 1, f]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2]} " G1),
    CONV("tensor<2x8x8x4xbf16>", "tensor<3x3x4x8xbf16>", "tensor<2x8x8x8xbf16>", NHWC ", window = {pad = [[1, 1], [1, 1]]} " G1),
    CONV("tensor<2x8x8x4xf16>", "tensor<3x3x4x8xf16>", "tensor<2x3x6x8xf16>", NHWC ", window = {stride = [2, 1]} " G1),
    /* grouped f16/bf16 (f32 copies where the CPU lacks kernels): feature groups, batch
     * groups (the source a 5-D view), 3 spatial dimensions, padded */
    CONV("tensor<2x8x8x8xf16>", "tensor<3x3x4x8xf16>", "tensor<2x8x8x8xf16>",
         NHWC ", window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}"),
    CONV("tensor<4x8x8x4xf16>", "tensor<3x3x4x8xf16>", "tensor<2x6x6x8xf16>",
         NHWC ", window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}"),
    CONV("tensor<4x8x8x4xf32>", "tensor<3x3x4x8xf32>", "tensor<2x6x6x8xf32>",
         NHWC ", window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}"),
    CONV("tensor<4x8x8x4xbf16>", "tensor<3x3x4x8xbf16>", "tensor<2x5x6x8xbf16>",
         NHWC ", window = {pad = [[0, -1], [1, -1]]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}"),
    CONV("tensor<2x5x5x5x6xf16>", "tensor<2x2x2x2x6xf16>", "tensor<2x4x4x4x6xf16>",
         "dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {} "
         "{batch_group_count = 1 : i64, feature_group_count = 3 : i64}"),
    CONV("tensor<0x5x5x2xf32>", "tensor<3x3x2x2xf32>", "tensor<0x3x3x2xf32>", NHWC ", window = {} " G1),
    CONV("tensor<1x5x5x0xf32>", "tensor<3x3x0x2xf32>", "tensor<1x3x3x2xf32>", NHWC ", window = {} " G1),
    CONV("tensor<2x16x16x32xf32>", "tensor<3x3x32x32xf32>", "tensor<2x16x16x32xf32>", NHWC ", window = {pad = [[1, 1], [1, 1]]} " G1),
    /* large enough to be cut into parts on the pool (dnnl_split.c), in sizes that do not
     * divide evenly: along N (the bias cut with it), a batch dimension, M, the batch of a
     * convolution; bf16 through f32 copies where the CPU lacks its kernels */
    DOT("tensor<64x256xf32>", "tensor<256x1031xf32>", "tensor<64x1031xf32>", "contracting_dims = [1] x [0]"),
    DOT("tensor<3x40x64xf32>", "tensor<3x64x48xf32>", "tensor<3x40x48xf32>",
        "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
    DOT("tensor<1031x256xf32>", "tensor<256x20xf32>", "tensor<1031x20xf32>", "contracting_dims = [1] x [0]"),
    CONV("tensor<3x16x16x16xf32>", "tensor<3x3x16x16xf32>", "tensor<3x16x16x16xf32>", NHWC ", window = {pad = [[1, 1], [1, 1]]} " G1),
    DOT("tensor<64x256xbf16>", "tensor<256x515xbf16>", "tensor<64x515xf32>", "contracting_dims = [1] x [0]"),
    /* lhs dilation (transposed convolutions) as oneDNN deconvolutions: the zoo decoder's
     * layer, other layouts, dilations, paddings (negative ones), rhs dilation, groups,
     * batch groups, window reversal, 1 to 3 spatial dimensions, bf16 and f16, a batch
     * cut into parts; refused: window strides, padding past the window */
    CONV("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x9x9x1xf32>", NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} " G1),
    CONV("tensor<2x4x4x8xf32>", "tensor<4x4x8x4xf32>", "tensor<2x8x8x4xf32>", NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} " G1),
    CONV("tensor<1x3x5x5xf32>", "tensor<4x3x3x3xf32>", "tensor<1x4x10x12xf32>",
         "dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 2], [0, 1]], lhs_dilate = [2, 3]} " G1),
    CONV("tensor<1x5x5x2xf32>", "tensor<3x3x2x3xf32>", "tensor<1x7x8x3xf32>", NHWC ", window = {pad = [[-1, 1], [2, -1]], lhs_dilate = [2, 2]} " G1),
    CONV("tensor<1x6x6x4xf32>", "tensor<3x3x4x4xf32>", "tensor<1x9x13x4xf32>",
         NHWC ", window = {pad = [[1, 1], [3, 3]], lhs_dilate = [2, 2], rhs_dilate = [2, 2]} " G1),
    CONV("tensor<1x5x5x4xf32>", "tensor<3x3x2x6xf32>", "tensor<1x11x11x6xf32>",
         NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}"),
    CONV("tensor<4x5x5x3xf32>", "tensor<3x3x3x4xf32>", "tensor<2x9x9x4xf32>",
         NHWC ", window = {pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}"),
    CONV("tensor<2x5x5x3xf32>", "tensor<3x3x3x4xf32>", "tensor<2x10x9x4xf32>",
         NHWC ", window = {pad = [[2, 1], [1, 1]], lhs_dilate = [2, 2], reverse = [true, false]} " G1),
    CONV("tensor<2x10x3xf32>", "tensor<3x3x5xf32>", "tensor<2x29x5xf32>",
         "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 1]], lhs_dilate = [3]} " G1),
    CONV("tensor<1x3x3x3x2xf32>", "tensor<2x2x2x2x3xf32>", "tensor<1x6x6x6x3xf32>",
         "dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {pad = [[1, 1], [1, 1], [1, 1]], lhs_dilate = [2, 2, 2]} " G1),
    CONV("tensor<3x5x2x6xf32>", "tensor<3x3x4x2xf32>", "tensor<12x2x4x5xf32>",
         "dim_numbers = [f, 0, b, 1]x[i, 0, o, 1]->[1, b, f, 0], window = {pad = [[1, 1], [1, 1]], lhs_dilate = [1, 2]} " G1),
    CONV("tensor<2x4x4x8xbf16>", "tensor<4x4x8x4xbf16>", "tensor<2x8x8x4xbf16>", NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} " G1),
    CONV("tensor<2x4x4x8xf16>", "tensor<4x4x8x4xf16>", "tensor<2x8x8x4xf16>", NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} " G1),
    CONV("tensor<1x5x5x4xf16>", "tensor<3x3x2x6xf16>", "tensor<1x11x11x6xf16>",
         NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}"),
    CONV("tensor<3x8x8x16xf32>", "tensor<4x4x16x16xf32>", "tensor<3x16x16x16xf32>", NHWC ", window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} " G1),
    /* window reversal without lhs dilation: the weights copied reversed */
    CONV("tensor<2x8x8x3xf32>", "tensor<3x3x3x4xf32>", "tensor<2x8x8x4xf32>", NHWC ", window = {pad = [[1, 1], [1, 1]], reverse = [false, true]} " G1),
    {"tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x5x5x1xf32>",
     "stablehlo.convolution(%a, %b) " NHWC ", window = {stride = [2, 2], pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} " G1, UNIMPL},
    {"tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x11x9x1xf32>",
     "stablehlo.convolution(%a, %b) " NHWC ", window = {pad = [[3, 3], [2, 2]], lhs_dilate = [2, 2]} " G1, UNIMPL},
};

/* ---------------------------------------------------------------- one case */

typedef struct loaded {
  kiln_module *m;
  const kiln_op *func, *op;
  char *text;
} loaded;

static kiln_status load(const tcase *c, loaded *L) {
  memset(L, 0, sizeof *L);
  size_t cap = 2048 + strlen(c->op);
  L->text = malloc(cap);
  if (!L->text) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  snprintf(L->text, cap,
           "func.func @main(%%a: %s, %%b: %s) -> %s {\n  %%0 = %s : (%s, %s) -> %s\n  return %%0 : %s\n}\n", c->lhs,
           c->rhs, c->out, c->op, c->lhs, c->rhs, c->out, c->out);
  kiln_source src = kiln_source_view("case.mlir", L->text, strlen(L->text), 1);
  KILN_RETURN_IF_ERROR(kiln_parse_module(&src, &L->m));
  KILN_RETURN_IF_ERROR(kiln_verify_module(L->m, &src));
  kiln_module_number_values(L->m);
  L->func = kiln_module_lookup_func(L->m, "main");
  L->op = L->func ? kiln_op_block(L->func, 0)->first : NULL;
  if (!L->op) return KILN_STATUS(KILN_STATUS_INTERNAL, "no op");
  return NULL;
}

static void unload(loaded *L) {
  if (L->m) kiln_module_destroy(L->m);
  free(L->text);
}

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static float rnd(void) {
  g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
  return (float)((double)(g_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* A random tensor of type t as an interpreter value (its data is also the dense buffer). */
static kiln_status random_value(const kiln_type *t, kiln_rtv **out) {
  KILN_RETURN_IF_ERROR(kiln_rtv_of_type(t, out));
  kiln_rtv *v = *out;
  for (int64_t i = 0; i < v->count; i++) {
    if (v->elem == KILN_ELEM_F32) ((float *)v->data)[i] = rnd();
    else if (v->elem == KILN_ELEM_SI32) ((int32_t *)v->data)[i] = (int32_t)(rnd() * 8);
    else if (v->elem == KILN_ELEM_F64) ((double *)v->data)[i] = rnd();
    else ((uint16_t *)v->data)[i] = (uint16_t)kiln_elem_float_to_bits(v->elem, rnd());
  }
  return NULL;
}

static double get(kiln_elem e, const void *buf, int64_t i) {
  if (e == KILN_ELEM_F32) return ((const float *)buf)[i];
  return kiln_elem_float_from_bits(e, ((const uint16_t *)buf)[i]);
}

/* Compares got with want (count elements of e); returns the number of mismatches. */
static int64_t compare(kiln_elem e, const void *got, const void *want, int64_t count, double *worst) {
  double rtol = e == KILN_ELEM_F32 ? 1e-4 : 1.6e-2, atol = e == KILN_ELEM_F32 ? 1e-4 : 2e-2;
  int64_t bad = 0;
  *worst = 0;
  for (int64_t i = 0; i < count; i++) {
    double g = get(e, got, i), w = get(e, want, i), d = fabs(g - w);
    if (!isfinite(g) || !isfinite(w)) { /* NaN where NaN, the same infinity */
      bad += isnan(g) != isnan(w) || (!isnan(g) && g != w);
      continue;
    }
    if (d > *worst) *worst = d;
    if (!(d <= atol + rtol * fabs(w))) bad++;
  }
  return bad;
}

typedef struct epi_check {
  kiln_cpu_dnnl_epilogue e;
  int bias_dim;
  bool expect_ok;
} epi_check;

/* Runs the interpreter on the inputs; *ref receives the result. */
static kiln_status run_interp(const loaded *L, kiln_rtv *const *in, kiln_rtv **ref) {
  kiln_interp *ip = NULL;
  KILN_RETURN_IF_ERROR(kiln_interp_create(L->m, NULL, &ip));
  kiln_interp_ctx ctx = {.interp = ip};
  kiln_status s = kiln_interp_call(&ctx, L->func, in, 2, ref);
  kiln_interp_destroy(ip);
  return s;
}

/* The expected result of an epilogue from the plain result. */
static void apply_epilogue(const kiln_cpu_dnnl_epilogue *e, const kiln_rtv *ref, const float *bias, float *out) {
  int64_t inner = 1;
  for (int32_t d = e->bias_dim + 1; e->has_bias && d < ref->rank; d++) inner *= ref->dims[d];
  for (int64_t i = 0; i < ref->count; i++) {
    float v = (float)get(ref->elem, ref->data, i) * e->scale;
    if (e->has_bias) v += bias[i / inner % ref->dims[e->bias_dim]];
    if (e->relu) v = v > 0 ? v : 0;
    out[i] = v;
  }
}

static void check_epilogue(const char *name, kiln_cpu_dnnl_op *p, kiln_rtv *const *in, const kiln_rtv *ref,
                           const kiln_cpu_dnnl_epilogue *e, bool expect_ok) {
  kiln_status s = kiln_cpu_dnnl_set_epilogue(p, e);
  if (!expect_ok) {
    EXPECT(kiln_status_code_of(s) == KILN_STATUS_UNIMPLEMENTED, "%s: epilogue should be refused, got %s", name,
           s ? kiln_status_message(s) : "OK");
    kiln_status_free(s);
    return;
  }
  EXPECT(!s, "%s: epilogue: %s", name, kiln_status_message(s));
  if (s) {
    kiln_status_free(s);
    return;
  }
  int64_t blen = e->has_bias ? ref->dims[e->bias_dim] : 1;
  float *bias = malloc(sizeof(float) * (size_t)(blen ? blen : 1));
  float *want = malloc(sizeof(float) * (size_t)(ref->count + 1));
  float *got = calloc((size_t)ref->count + 1, sizeof(float));
  for (int64_t i = 0; i < blen; i++) bias[i] = rnd();
  apply_epilogue(e, ref, bias, want);
  size_t sb = kiln_cpu_dnnl_scratch_bytes(p);
  void *scratch = sb ? aligned_alloc(64, (sb + 63) / 64 * 64) : NULL;
  kiln_cpu_dnnl_args a = {.lhs = in[0]->data, .rhs = in[1]->data, .bias = bias, .out = got, .scratch = scratch};
  s = kiln_cpu_dnnl_run_ex(p, &a);
  EXPECT(!s, "%s: epilogue run: %s", name, kiln_status_message(s));
  kiln_status_free(s);
  double worst;
  int64_t bad = compare(KILN_ELEM_F32, got, want, ref->count, &worst);
  EXPECT(bad == 0, "%s: epilogue: %lld of %lld elements differ (worst %g)", name, (long long)bad,
         (long long)ref->count, worst);
  free(scratch);
  free(bias);
  free(want);
  free(got);
  kiln_cpu_dnnl_epilogue none = {.scale = 1.0f, .bias_dim = -1};
  kiln_status_free(kiln_cpu_dnnl_set_epilogue(p, &none));
}

typedef struct conc_job {
  const kiln_cpu_dnnl_op *p;
  const void *lhs, *rhs;
  void *out;
  int reps;
  kiln_status err;
} conc_job;

static void *conc_main(void *arg) {
  conc_job *j = arg;
  for (int i = 0; i < j->reps && !j->err; i++) j->err = kiln_cpu_dnnl_run(j->p, j->lhs, j->rhs, j->out);
  return NULL;
}

/* Two threads run the prepared op at once on their own outputs. */
static void check_concurrent(const char *name, const kiln_cpu_dnnl_op *p, kiln_rtv *const *in, const kiln_rtv *ref) {
  size_t bytes = (size_t)ref->count * ref->elem_bytes + 1;
  conc_job jobs[2];
  pthread_t th[2];
  for (int t = 0; t < 2; t++) {
    jobs[t] = (conc_job){p, in[0]->data, in[1]->data, calloc(1, bytes), 20, NULL};
    pthread_create(&th[t], NULL, conc_main, &jobs[t]);
  }
  for (int t = 0; t < 2; t++) {
    pthread_join(th[t], NULL);
    double worst;
    EXPECT(!jobs[t].err, "%s: concurrent run: %s", name, kiln_status_message(jobs[t].err));
    EXPECT(compare(ref->elem, jobs[t].out, ref->data, ref->count, &worst) == 0, "%s: concurrent run differs (%g)",
           name, worst);
    kiln_status_free(jobs[t].err);
    free(jobs[t].out);
  }
}

/* Whether the last result dimension of a dot_general is the only one of size above one in
 * its group (rhs's free dimensions when it has any, else lhs's), as the epilogue needs. */
static bool dot_last_dim_alone(const kiln_op *op) {
  const kiln_type *lt = op->operands[0]->type, *rt = op->operands[1]->type, *ot = op->results[0].type;
  const kiln_attr *dn = kiln_op_attr(op, "dot_dimension_numbers");
  const char *names[2][2] = {{"lhs_batching_dimensions", "lhs_contracting_dimensions"},
                             {"rhs_batching_dimensions", "rhs_contracting_dimensions"}};
  int64_t free_prod[2] = {1, 1}, nfree[2] = {0, 0};
  for (int side = 0; side < 2; side++) {
    const kiln_type *t = side ? rt : lt;
    bool used[16] = {false};
    for (int k = 0; k < 2; k++) {
      const kiln_attr *a = dn ? kiln_attr_get(dn, names[side][k]) : NULL;
      int64_t cnt = a ? kiln_attr_count(a) : 0, d;
      for (int64_t i = 0; i < cnt; i++)
        if (kiln_attr_i64_at(a, i, &d)) used[d] = true;
    }
    if (op->kind == KILN_OP_DOT) used[side ? 0 : t->tensor.rank - 1] = true;
    for (int32_t d = 0; d < t->tensor.rank; d++)
      if (!used[d]) free_prod[side] *= t->tensor.dims[d], nfree[side]++;
  }
  int64_t last = ot->tensor.dims[ot->tensor.rank - 1];
  return last == (nfree[1] ? free_prod[1] : free_prod[0]);
}

/* A convolution whose weights hold an inf and a NaN: where a window meets the spec's zero
 * padding or an lhs dilation's hole with them, the interpreter's 0 * inf is NaN, which
 * oneDNN (skipping those zeros) must give too. */
static void check_nonfinite_weights(const char *name, const loaded *L, const kiln_cpu_dnnl_op *p, kiln_rtv *const *in) {
  kiln_rtv *w = in[1], *ref = NULL;
  double vals[2] = {INFINITY, NAN};
  for (int k = 0; k < 2 && w->count > 0; k++) {
    int64_t at = k ? w->count / 2 : 0;
    if (w->elem == KILN_ELEM_F32) ((float *)w->data)[at] = (float)vals[k];
    else ((uint16_t *)w->data)[at] = (uint16_t)kiln_elem_float_to_bits(w->elem, vals[k]);
  }
  kiln_status s = run_interp(L, in, &ref);
  EXPECT(!s, "%s: interpreter with non-finite weights: %s", name, kiln_status_message(s));
  if (s) {
    kiln_status_free(s);
    return;
  }
  void *got = malloc((size_t)ref->count * ref->elem_bytes + 1);
  s = kiln_cpu_dnnl_run(p, in[0]->data, w->data, got);
  EXPECT(!s, "%s: run with non-finite weights: %s", name, kiln_status_message(s));
  kiln_status_free(s);
  double worst;
  int64_t bad = compare(ref->elem, got, ref->data, ref->count, &worst);
  EXPECT(bad == 0, "%s: with non-finite weights %lld of %lld elements differ", name, (long long)bad,
         (long long)ref->count);
  free(got);
  kiln_rtv_release(ref);
}

static void run_case(int idx, const tcase *c) {
  char name[64];
  snprintf(name, sizeof name, "case %d (%.30s)", idx, c->op);
  loaded L;
  kiln_status s = load(c, &L);
  EXPECT(!s, "%s: does not load: %s", name, kiln_status_message(s));
  if (s) {
    kiln_status_free(s);
    unload(&L);
    return;
  }
  kiln_cpu_dnnl_op *p = NULL;
  s = kiln_cpu_dnnl_prepare(L.op, &p);
  if (c->expect == UNIMPL) {
    EXPECT(kiln_status_code_of(s) == KILN_STATUS_UNIMPLEMENTED && !p, "%s: expected UNIMPLEMENTED, got %s", name,
           s ? kiln_status_message(s) : "OK");
    kiln_status_free(s);
    unload(&L);
    return;
  }
  EXPECT(!s, "%s: prepare: %s", name, kiln_status_message(s));
  kiln_rtv *in[2] = {NULL, NULL}, *ref = NULL;
  if (!s) s = random_value(L.op->operands[0]->type, &in[0]);
  if (!s) s = random_value(L.op->operands[1]->type, &in[1]);
  if (!s) s = run_interp(&L, in, &ref);
  if (s) {
    EXPECT(false, "%s: %s", name, kiln_status_message(s));
  } else {
    void *got = malloc((size_t)ref->count * ref->elem_bytes + 1);
    memset(got, 0x7f, (size_t)ref->count * ref->elem_bytes + 1); /* garbage a ZEROS run must overwrite */
    kiln_status r = kiln_cpu_dnnl_run(p, in[0]->data, in[1]->data, got);
    EXPECT(!r, "%s: run: %s", name, kiln_status_message(r));
    kiln_status_free(r);
    double worst;
    int64_t bad = compare(ref->elem, got, ref->data, ref->count, &worst);
    EXPECT(bad == 0, "%s [%s]: %lld of %lld elements differ (worst %g)", name, kiln_cpu_dnnl_impl(p), (long long)bad,
           (long long)ref->count, worst);
    if (getenv("KILN_TEST_VERBOSE"))
      printf("%-40s impl %-22s scratch %zu\n", name, kiln_cpu_dnnl_impl(p), kiln_cpu_dnnl_scratch_bytes(p));
    free(got);
    if (ref->elem == KILN_ELEM_F32 && ref->rank > 0 && ref->count > 0) {
      /* scale, bias along the last result dimension (dot) or the feature dimension (conv), relu */
      int bdim = ref->rank - 1;
      if (L.op->kind == KILN_OP_CONVOLUTION) {
        const kiln_attr *dn = kiln_op_attr(L.op, "dimension_numbers");
        int64_t f = 0;
        kiln_attr_i64_at(kiln_attr_get(dn, "output_feature_dimension"), 0, &f);
        bdim = (int)f;
      }
      kiln_cpu_dnnl_epilogue e = {.scale = 0.5f, .has_bias = true, .bias_dim = bdim, .relu = true};
      bool alone = L.op->kind == KILN_OP_CONVOLUTION || dot_last_dim_alone(L.op);
      check_epilogue(name, p, in, ref, &e, alone);
      kiln_cpu_dnnl_epilogue scale_only = {.scale = 2.0f, .bias_dim = -1};
      check_epilogue(name, p, in, ref, &scale_only, true);
      /* a bias alone: a convolution's own bias argument (dnnl_ops.c: prim_bias) */
      kiln_cpu_dnnl_epilogue bias_only = {.scale = 1.0f, .has_bias = true, .bias_dim = bdim};
      check_epilogue(name, p, in, ref, &bias_only, alone);
    }
    if (ref->count >= 4096) check_concurrent(name, p, in, ref);
    if (L.op->kind == KILN_OP_CONVOLUTION) check_nonfinite_weights(name, &L, p, in);
  }
  kiln_status_free(s);
  kiln_rtv_release(in[0]);
  kiln_rtv_release(in[1]);
  kiln_rtv_release(ref);
  kiln_cpu_dnnl_destroy(p);
  unload(&L);
}

/* ---------------------------------------------------------------- sgemm figure */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median seconds of reps calls of fn after one warm-up. */
typedef void (*bench_fn)(void *ud);
static double median_time(bench_fn fn, void *ud, int reps) {
  double t[32];
  fn(ud);
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    fn(ud);
    t[i] = now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  return t[reps / 2];
}

typedef struct gemm_ud {
  const kiln_cpu_dnnl_op *p;
  float *a, *b, *c;
  int64_t n;
} gemm_ud;

static void via_kiln(void *ud) {
  gemm_ud *g = ud;
  kiln_status_free(kiln_cpu_dnnl_run(g->p, g->a, g->b, g->c));
}

static void via_sgemm(void *ud) {
  gemm_ud *g = ud;
  dnnl_sgemm('N', 'N', g->n, g->n, g->n, 1.0f, g->a, g->n, g->b, g->n, 0.0f, g->c, g->n);
}

static void bench_sgemm(int64_t n) {
  char ty[64], op[64];
  snprintf(ty, sizeof ty, "tensor<%lldx%lldxf32>", (long long)n, (long long)n);
  snprintf(op, sizeof op, "stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0]");
  tcase c = {ty, ty, ty, op, OK};
  loaded L;
  kiln_status s = load(&c, &L);
  kiln_cpu_dnnl_op *p = NULL;
  if (!s) s = kiln_cpu_dnnl_prepare(L.op, &p);
  if (s) {
    printf("bench: %s\n", kiln_status_message(s));
    kiln_status_free(s);
    unload(&L);
    return;
  }
  gemm_ud g = {p, malloc(sizeof(float) * (size_t)(n * n)), malloc(sizeof(float) * (size_t)(n * n)),
               malloc(sizeof(float) * (size_t)(n * n)), n};
  for (int64_t i = 0; i < n * n; i++) g.a[i] = rnd(), g.b[i] = rnd();
  double flop = 2.0 * (double)n * (double)n * (double)n;
  double tk = median_time(via_kiln, &g, 7), ts = median_time(via_sgemm, &g, 7);
  printf("f32 %lld^3: kiln_cpu_dnnl_run %.1f GFLOP/s [%s], dnnl_sgemm %.1f GFLOP/s, ratio %.3f\n", (long long)n,
         flop / tk * 1e-9, kiln_cpu_dnnl_impl(p), flop / ts * 1e-9, ts / tk);
  free(g.a);
  free(g.b);
  free(g.c);
  kiln_cpu_dnnl_destroy(p);
  unload(&L);
}

/* The f16 conversions around f32 kernels (dnnl_convert.c: F16C where the CPU has it) give
 * the IR helpers' bits: every f16 to f32, and to f16 every f16 value, the points halfway
 * between neighbours and beside them (ties to even), NaNs with payloads, and random bits. */
static void check_f16_conversions(void) {
  enum { N = 1 << 16, R = 1 << 20 };
  uint16_t *h = malloc(sizeof *h * N), *back = malloc(sizeof *back * (N + R));
  float *f = malloc(sizeof *f * (N + R));
  if (!h || !f || !back) abort();
  for (int64_t i = 0; i < N; i++) h[i] = (uint16_t)i;
  kiln_dnnl_convert_in(KILN_ELEM_F16, h, f, N);
  int64_t bad = 0;
  for (int64_t i = 0; i < N; i++) {
    double want = kiln_elem_float_from_bits(KILN_ELEM_F16, h[i]);
    if (want == want ? (double)f[i] != want || !signbit(f[i]) != !signbit(want) : f[i] == f[i]) bad++;
  }
  EXPECT(bad == 0, "f16 -> f32: %lld of 65536 differ", (long long)bad);
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (int64_t i = 0; i < R; i++) {
    uint32_t b;
    if (i < N) { /* halfway above f16 value i (its f32 form plus half an f16 ulp), then beside it */
      float v = f[i];
      memcpy(&b, &v, sizeof b);
      b += (i % 3 == 0 ? 0x1000u : i % 3 == 1 ? 0x0fffu : 0x1001u);
    } else {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b = (uint32_t)x;
      if (i % 7 == 0) b |= 0x7f800000u; /* NaNs (with payloads) and infinities */
    }
    memcpy(&f[N + i], &b, sizeof b);
  }
  kiln_dnnl_convert_out(KILN_ELEM_F16, f, back, N + R);
  bad = 0;
  for (int64_t i = 0; i < N + R; i++)
    if (back[i] != (uint16_t)kiln_elem_float_to_bits(KILN_ELEM_F16, f[i])) bad++;
  EXPECT(bad == 0, "f32 -> f16: %lld of %d differ", (long long)bad, N + R);
  free(h);
  free(f);
  free(back);
}

int main(int argc, char **argv) {
  check_f16_conversions();
  int n = (int)(sizeof k_cases / sizeof k_cases[0]);
  for (int i = 0; i < n; i++) run_case(i, &k_cases[i]);
  /* f16: oneDNN's answer on this CPU (kernels, or UNIMPLEMENTED), never a wrong result. */
  tcase f16 = {"tensor<16x32xf16>", "tensor<32x24xf16>", "tensor<16x24xf16>",
               "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]", OK};
  loaded L;
  kiln_status s = load(&f16, &L);
  kiln_cpu_dnnl_op *p = NULL;
  if (!s) s = kiln_cpu_dnnl_prepare(L.op, &p);
  bool refused = kiln_status_code_of(s) == KILN_STATUS_UNIMPLEMENTED;
  EXPECT(!s || refused, "f16: %s", kiln_status_message(s));
  kiln_status_free(s);
  kiln_cpu_dnnl_destroy(p);
  unload(&L);
  if (!refused) run_case(n, &f16);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--bench")) {
      bench_sgemm(256);
      bench_sgemm(2048);
    }
  return test_summary();
}
