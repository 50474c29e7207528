/* Combining collectives of one function the caller owns (a copy, as the inliner makes), as
 * XLA's all-reduce combiner: a data-parallel step sums one gradient per weight, each sum a
 * rendezvous of every device. Independent all_reduces of one operand each, over the same
 * device groups with the same computation and element type, become one all_reduce of
 * several operands (sums of other kinds pending alongside, each kind its own), placed before
 * the first op that reads one of the pending results (every
 * device runs the same program, so every device moves them alike; each element is summed
 * as before). Only the function's top block.
 *
 * Writes the function (in place) and allocates in `m`, the module that owns it. Not
 * thread-safe for one function. */
#ifndef KILN_PASSES_COMBINE_COLLECTIVES_H
#define KILN_PASSES_COMBINE_COLLECTIVES_H

#include "ir/ir.h"

/* *out_combined: how many all_reduces went into others. Ops were removed: renumber the
 * function's values (kiln_func_number_values) when it is not 0. */
kiln_status kiln_combine_all_reduces(kiln_module *m, kiln_op *func, int32_t *out_combined);

#endif
