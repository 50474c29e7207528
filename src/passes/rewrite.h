/* Helpers of the passes that rewrite a function in place (canonicalize.c,
 * loop_products.c, unroll_loops.c, select_branches.c): counting uses, counted loops, reading and editing structured attributes (ops are
 * inserted and removed with ir.h's kiln_block_insert_before and kiln_block_remove). New IR is allocated in the module the caller names, the one that owns the
 * function. Not thread-safe for one function. */
#ifndef KILN_PASSES_REWRITE_H
#define KILN_PASSES_REWRITE_H

#include "ir/ir.h"

/* How many ops of block b read v (an op reading it twice counts twice), nested regions
 * included; the terminator counts. */
int32_t kiln_rewrite_uses(const kiln_block *b, const kiln_value *v);
/* The struct attribute a with the fields named in names[0..n) set to vals (others kept);
 * NULL when out of memory. */
const kiln_attr *kiln_rewrite_struct_with(kiln_module *m, const kiln_attr *a, const char *const *names,
                                          const kiln_attr *const *vals, int32_t n);
/* The index of v among b's arguments, or -1. */
int32_t kiln_rewrite_arg_index(const kiln_block *b, const kiln_value *v);
/* How many iterations while loop w makes, when a carried integer (signed or unsigned, 8 to
 * 64 bits) counts from a constant by +1 an iteration against a constant bound (LT, LE or
 * NE, the counter on either side of the compare), exactly as the loop runs; false when w
 * is not such a loop, or it never ends (LE up to the type's largest value, NE from above
 * the bound: the counter wraps). */
bool kiln_rewrite_trip_count(const kiln_op *w, int64_t *out_trips);
/* Whether integer list `name` of struct a is exactly v[0..n) (absent reads as empty). */
bool kiln_rewrite_dims_are(const kiln_attr *a, const char *name, const int64_t *v, int64_t n);
/* Every read of `from` by op and the ops after it in its block (their regions included)
 * reads `to`. */
void kiln_rewrite_replace_from(kiln_op *op, const kiln_value *from, kiln_value *to);
/* The ops of block `from`, in order, moved just before `before` (from is left empty). */
void kiln_rewrite_move_before(kiln_block *from, kiln_op *before);
/* A pass over every op of a function: fn is called on each op in order, after the ops of
 * its regions (inner first), and may remove it or insert ops before it, counting what it
 * rewrote in walk->count. */
typedef struct kiln_rewrite_walk {
  kiln_module *m; /* where new IR goes */
  kiln_op *func;
  int32_t count;
} kiln_rewrite_walk;
typedef kiln_status (*kiln_rewrite_op_fn)(kiln_op *op, kiln_rewrite_walk *walk);
/* Numbers func's values (copies are made by value id; earlier passes may have left new
 * ones unnumbered), walks it with fn and sets *out_count; stops at fn's first error. */
kiln_status kiln_rewrite_each_op(kiln_module *m, kiln_op *func, kiln_rewrite_op_fn fn, int32_t *out_count);
/* Whether ops of this kind are left as they are by the passes that drop or merge ops:
 * collectives, feeds, sends and receives (other devices and processes take part), control
 * flow, calls and composites (kept as they are), optimization_barrier, sharding ops, test
 * and interpreter ops. Custom calls are each pass's own question. */
bool kiln_rewrite_kept_kind(kiln_op_kind kind);

#endif
