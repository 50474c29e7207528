/* Loop-invariant products hoisted out of counted while loops.
 *
 * A scan's body that multiplies the row of a sequence it reads this iteration by a weight
 * (JAX's `lax.scan` over xs: `x @ w` where x = xs[i]) reads the whole weight from memory
 * every iteration to make one row: dot_general(reshape(dynamic_slice(X, i, 0, ...)), W),
 * X and W the same on every iteration (carried unchanged, or defined outside the loop).
 * The pass computes P = dot_general(X, W), all rows at once, before the loop (one large
 * product, at the library's matrix rate), and the body reads its row:
 * reshape(dynamic_slice(P, i, ...)). Exact for any i, since dynamic_slice clamps a start
 * index the same way along X's rows as along P's (the other dims are whole: their start
 * clamps to 0). Done only when the loop is counted (a counter from a constant, +1 an
 * iteration, against a constant bound) and runs at least a quarter as many iterations as
 * X has rows, so that the product's extra rows cost less than what the loop saves, and
 * when P is at most 64 MiB or 4 times X's bytes (memory the loop would not need);
 * without batching dims; the sliced operand on the lhs.
 *
 * Writes the function in place and allocates in `m`, the module that owns it. Not
 * thread-safe for one function. */
#ifndef KILN_PASSES_LOOP_PRODUCTS_H
#define KILN_PASSES_LOOP_PRODUCTS_H

#include "ir/ir.h"

/* Hoists what it can from every while loop of func (nested ones too); *out_hoisted: how
 * many products. Ops were added and removed when it is not 0: renumber the function's
 * values (kiln_func_number_values). */
kiln_status kiln_hoist_loop_products(kiln_module *m, kiln_op *func, int32_t *out_hoisted);

#endif
