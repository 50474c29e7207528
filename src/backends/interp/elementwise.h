/* The interpreter's generic elementwise loop (defined in kernels_elementwise.c), for any
 * kernel family whose op computes each result element from the operand elements at the
 * same index.
 *
 *   static kiln_scalar my_fn(const kiln_ew *e, const kiln_scalar *x) {
 *     kiln_scalar r = {{0}, 0};
 *     r.f = my_math(x[0].f);   // x[i]: element of operand i, loaded with kiln_scalar_load
 *     return r;                // stored into the result with kiln_scalar_store
 *   }
 *   static kiln_status k_my_op(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
 *     kiln_ew e = {0};
 *     return kiln_ew_map(ctx, a, my_fn, &e);
 *   }
 *
 * Shapes: every operand is a tensor of the result's shape, or of rank 0 (broadcast to
 * every index, as select's predicate and clamp's bounds may be). The result (result 0,
 * element type a->out_elem[0]) takes the shape of the first operand of nonzero rank.
 * Mismatched shapes and non-tensor operands are located errors. */
#ifndef KILN_INTERP_ELEMENTWISE_H
#define KILN_INTERP_ELEMENTWISE_H

#include "backends/interp/interp.h"

#define KILN_EW_MAX_IN 4

typedef struct kiln_ew {
  /* Filled in by kiln_ew_map before the first call of fn: */
  const kiln_op *op;
  int32_t num_in;
  kiln_elem in[KILN_EW_MAX_IN]; /* storage element type of each operand */
  kiln_elem out;                /* storage element type of the result */
  /* Set by the caller: */
  bool raw;     /* floating-point operands and results travel as their raw storage bits
                   in .u (masked to the type's width) instead of as values in .f */
  int64_t p[2]; /* per-op parameters for fn (attributes) */
} kiln_ew;

typedef kiln_scalar (*kiln_ew_fn)(const kiln_ew *e, const kiln_scalar *x);

/* result[i] = fn(e, {operand_0[i], ..., operand_n-1[i]}) over all indices; allocates
 * a->out[0]. At most KILN_EW_MAX_IN operands. */
kiln_status kiln_ew_map(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_ew_fn fn, kiln_ew *e);

/* The scalar function of a binary elementwise op without attributes (add, subtract,
 * multiply, divide, maximum, minimum, and, or, xor) on operands and a result of element
 * type elem, with e filled in for it; NULL for any other op or a type it is not defined on.
 * For kernels whose regions are such an op (scatter's update computation): applying fn to
 * elements is what running the region would compute. */
kiln_ew_fn kiln_ew_binary_fn(const kiln_op *op, kiln_elem elem, kiln_ew *e);

#endif
