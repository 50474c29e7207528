/* Folding rows of tensors natively: the loops behind an all_reduce (and collective_reduce)
 * whose computation is one associative op on its two arguments. Pure functions of their
 * arguments; thread-safe. */
#ifndef KILN_INTERP_COMBINE_H
#define KILN_INTERP_COMBINE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

/* acc[i] = k(acc[i], x[i]) for n elements of type e, natively: the same values, in the same
 * order, as running the computation per element (floats: only add and multiply, whose IEEE
 * results C gives exactly; integers wrap as StableHLO's do). acc and x do not overlap.
 * False (nothing written) when k or e has no native loop here; n = 0 asks just that. */
bool kiln_combine(kiln_op_kind k, kiln_elem e, void *restrict acc, const void *restrict x, int64_t n);

#endif
