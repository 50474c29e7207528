/* Common subexpressions of a function the caller owns (the cpu backend's planned copy):
 * an op that computes what an earlier op of the same block computes (the same kind,
 * operands, attributes and result types; regions alike op for op, their own values in the
 * same places) goes, its readers reading the earlier op's results. JAX emits such twins
 * where a program asks for one thing twice: jnp.linalg.matrix_rank and jnp.linalg.cond of
 * one matrix are two identical SVDs (lapack_sgesdd_ffi calls), a mean and a variance two
 * sums, a gradient recomputes its forward ops. Each block is its own scope: an op in a
 * region is matched only with earlier ops of that region's block. Ops with effects or
 * results that differ from call to call are never merged: collectives, feeds, sends and
 * receives, rng, custom calls with has_side_effect, control flow, calls and composites,
 * optimization_barrier (which exists to keep ops apart), test and interpreter ops.
 *
 * Writes the function in place (ops are removed; renumber its values with
 * kiln_func_number_values when *out_merged is not 0) and allocates nothing in the module.
 * Not thread-safe for one function. */
#ifndef KILN_PASSES_CSE_H
#define KILN_PASSES_CSE_H

#include "ir/ir.h"

/* *out_merged: how many ops went. */
kiln_status kiln_cse(kiln_module *m, kiln_op *func, int32_t *out_merged);

#endif
