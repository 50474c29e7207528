/* Canonicalisation of a function the caller owns (a copy, as the inliner makes): algebraic
 * rewrites that spare work later. Today: transpose(dot_general(a, b)) with dims [1, 0] of a
 * product with one free dim each side and no batching dims (a matrix product, or a weight
 * gradient contracting a batch's rows) becomes dot_general(b, a) (the gradient of a dense
 * layer comes out
 * of JAX that way; a transposed read of a large matrix costs a gather per element, a
 * product with its operands swapped costs nothing). The dot it replaces is removed when
 * nothing else reads it. A dot_general reading a transpose (`x @ w.T`), either side, reads
 * the transpose's operand instead, its dims mapped through the permutation, where the
 * operand's free dims keep their order (in nested regions too); the transpose goes when
 * nothing else reads it. A concatenate's operand that is a concatenate along the same dim,
 * read by nothing else, gives its operands in its place (in nested regions too). A dot_general of rows gathered from a matrix, more rows than the
 * matrix has, becomes the gather of the product's rows (each row's product made once). A
 * transposed sum over devices of such a product (all_reduce between them) becomes the sum
 * of the swapped product. A product of complex tensors becomes four real products of their
 * real and imaginary parts and the complex of their difference and sum. An op that computes
 * its operand unchanged (a pad by nothing, a whole slice, an identity transpose, broadcast,
 * reverse, reshape or convert; in nested regions too) goes, its readers reading the operand;
 * a slice of a concatenate that lies inside one of its operands slices that operand.
 * Ops of the body that nothing reads go (last first), but those with effects or errors of
 * their own (collectives, feeds, sends, receives, custom calls, control flow, composites,
 * barriers, test ops).
 *
 * Writes the function (in place) and allocates in `m`, the module that owns it. Not
 * thread-safe for one function. */
#ifndef KILN_PASSES_CANONICALIZE_H
#define KILN_PASSES_CANONICALIZE_H

#include "ir/ir.h"

/* *out_rewrites: how many rewrites were made. Ops may have been removed: renumber the
 * function's values (kiln_func_number_values) when it is not 0. */
kiln_status kiln_canonicalize(kiln_module *m, kiln_op *func, int32_t *out_rewrites);

#endif
