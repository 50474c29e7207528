/* Shape refinement: a shape-polymorphic function (`?` dimensions, dimension arguments,
 * get_dimension_size, the dynamic_* ops) made static for one signature of concrete input
 * shapes and dimension-argument values, as StableHLO's stablehlo-refine-shapes does.
 *
 * The sizes come from a run: the caller runs the function once at that signature (the
 * interpreter with an observer) and notes every value's shape in a kiln_shape_record. The
 * pass then proves that those shapes hold for every run of that signature, or refuses:
 *   - every operand that decides a shape (the shape operand of dynamic_broadcast_in_dim,
 *     dynamic_reshape, dynamic_iota; starts, limits, strides and paddings of
 *     real_dynamic_slice, dynamic_pad, dynamic_conv; dynamic_gather's slice sizes; rng's
 *     shape; set_dimension_size's size) is
 *     computed from constants, dimension arguments and get_dimension_size only, through
 *     region-free ops without effects;
 *   - every value of a `?` type was seen, always with one shape (ops in a branch or loop
 *     body the run never entered were not: refused);
 *   - a while's results, its body's yielded values and its operands have one shape; each
 *     branch of an if or case yields its result's shape;
 *   - no call, custom call, infeed or recv (left after inlining: recursive calls) has a
 *     result of dynamic shape; their callees are not refined (the interpreter runs them).
 * It then writes every value's static type, the function's type, and the static forms:
 * get_dimension_size becomes a constant, dynamic_broadcast_in_dim, dynamic_reshape and
 * dynamic_iota become broadcast_in_dim, reshape and iota. real_dynamic_slice, dynamic_pad,
 * dynamic_gather and dynamic_conv keep their form with static types. Top-level ops without
 * effects that nothing reads any more (the shape computations) are dropped. Attribute lists
 * shared with the source module (the inliner's copies share them) are copied before any
 * change, so the source is never written.
 *
 * Not thread-safe for one record or function; distinct ones are independent. */
#ifndef KILN_PASSES_REFINE_SHAPES_H
#define KILN_PASSES_REFINE_SHAPES_H

#include "ir/ir.h"

typedef struct kiln_shape_record kiln_shape_record;

/* A record for a function of num_values values (kiln_func_num_values); NULL on OOM. */
kiln_shape_record *kiln_shape_record_create(int32_t num_values);
void kiln_shape_record_destroy(kiln_shape_record *r);
/* Notes that value id holds a tensor of this shape; a different shape noted for the same
 * value before or after makes the record refuse refinement. */
void kiln_shape_record_note(kiln_shape_record *r, int32_t id, int32_t rank, const int64_t *dims);

/* Refines func (numbered, inlined, owned by m, which allocates the new types) for the
 * shapes of r; its first num_dim_args parameters are dimension arguments whose values the
 * signature fixes. A refusal is FAILED_PRECONDITION naming the reason, func untouched;
 * on success func's values must be renumbered (kiln_func_number_values). */
kiln_status kiln_refine_shapes(kiln_module *m, kiln_op *func, const kiln_shape_record *r, int32_t num_dim_args);

/* Operands of op that decide a result's shape (a dynamic op's shape operand, a custom
 * call's `indices_of_shape_operands` when they are consecutive, ...): the first index and
 * how many; false when it has none. */
bool kiln_refine_shape_operands(const kiln_op *op, int32_t *first, int32_t *count);
/* Whether ops of this kind have no effect beyond their results (no communication, no
 * checks or printing, no calls; an op with regions has its regions' ops' effects too). */
bool kiln_refine_kind_is_pure(kiln_op_kind kind);

#endif
