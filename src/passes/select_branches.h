/* Small conditionals as selects (the cpu backend's plan of an inlined function): a
 * `stablehlo.case` on a boolean converted to an integer (what `lax.cond` emits) or a
 * `stablehlo.if`, whose two branches are a few pure ops over small tensors, becomes both
 * branches' ops, copied before it, and one `stablehlo.select` by the boolean per result.
 * A conditional is a control step of its own (two region runs' bookkeeping: about 190 ns
 * for one scalar op a branch, in each iteration of a scan); computing both branches of a
 * few scalars costs nanoseconds, and the ops then fuse with their neighbours. Their ops have
 * no effects (kiln_refine_kind_is_pure), so computing the branch not taken changes nothing
 * but time. Nested functions' conditionals (regions of other ops) are rewritten too.
 *
 * Allocates in m (the module owning func), renumbers func's values when it rewrote
 * something, and counts the conditionals replaced in *out_count. Not thread-safe for one
 * function. */
#ifndef KILN_PASSES_SELECT_BRANCHES_H
#define KILN_PASSES_SELECT_BRANCHES_H

#include "ir/ir.h"

/* The most ops a branch may have, and the most elements any value of them may have. */
#define KILN_SELECT_MAX_OPS 32
#define KILN_SELECT_MAX_ELEMENTS 64

kiln_status kiln_select_branches(kiln_module *m, kiln_op *func, int32_t *out_count);

#endif
