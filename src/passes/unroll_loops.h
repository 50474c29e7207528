/* Counted while loops of few iterations unrolled.
 *
 * JAX's threefry (every jax.random key split, uniform, normal, bernoulli, dropout mask) is
 * a while loop of 5 iterations whose body is a few dozen elementwise ops over the whole
 * counter arrays: run as a loop, each iteration reads and writes those arrays once more,
 * and nothing fuses across iterations or with the ops before and after the loop. A loop
 * whose trip count is known (a carried integer counting from a constant by +1 to a
 * constant bound: kiln_rewrite_trip_count) and small is replaced by that many copies of
 * its body in sequence, each reading the one before; the loop's results become the last
 * copy's. The same ops then run in the same order, so the result is the loop's exactly,
 * and fusion sees one straight block (threefry, its counters and what reads its bits
 * become one generated loop).
 *
 * Done when the loop runs at most KILN_UNROLL_MAX_TRIPS times and the copies hold at most
 * KILN_UNROLL_MAX_OPS ops (nested regions counted), and its body (regions included) has only
 * ops without effects (kiln_refine_kind_is_pure: no collective, send, receive, feed, call,
 * random number or check), and, when it carries the unit attribute KILN_UNROLL_KEEP, it runs
 * at most once (a loop of one trip is its body); inner loops first.
 *
 * Writes the function in place, allocating in `m`, the module that owns it, and numbers
 * its values (kiln_func_number_values) first and after each loop. Not thread-safe for one
 * function. */
#ifndef KILN_PASSES_UNROLL_LOOPS_H
#define KILN_PASSES_UNROLL_LOOPS_H

#include "ir/ir.h"

enum { KILN_UNROLL_MAX_TRIPS = 8, KILN_UNROLL_MAX_OPS = 512 };

/* A while loop with this unit attribute stays a loop unless it runs at most once: the cpu
 * backend's specialiser (specialize.c) marks the loops whose trip count comes from a
 * symbolic size, so that every short length does not become code of its own. */
#define KILN_UNROLL_KEEP "kiln.keep_loop"

/* Unrolls the loops of func (nested ones too) that qualify; *out_unrolled: how many. */
kiln_status kiln_unroll_loops(kiln_module *m, kiln_op *func, int32_t *out_unrolled);

#endif
