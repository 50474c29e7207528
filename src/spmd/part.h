/* The partitioner's internals (spmd.h's kiln_spmd_partition), shared by its files:
 * partition.c walks the functions and the manual computations, blocks.c makes values whole
 * or the devices' blocks (slices, gathers, partial sums), rules.c computes ops on blocks.
 * Not thread-safe: one partitioning at a time per part. */
#ifndef KILN_SPMD_PART_H
#define KILN_SPMD_PART_H

#include "spmd/spmd.h"

/* A value of the function being rewritten that the devices hold as blocks under sh (an
 * entry argument, a manual computation's result); its whole value, in part.map, is made
 * when some op needs it. */
typedef struct vstate {
  kiln_value *local;
  const kiln_sharding *sh;
} vstate;

typedef struct part {
  kiln_module *m;
  kiln_arena *arena;
  kiln_mesh_table meshes;
  int32_t n;          /* partitions */
  kiln_block *out;    /* the block being written */
  vstate *st;         /* by old value id */
  kiln_value **map;   /* by old value id of the function being rewritten: the new whole value
                         (NULL while only blocks exist) */
  const kiln_sharding **hint; /* by old value id: a sharding_constraint's sharding */
  const kiln_type **out_types; /* the entry's results, local */
  kiln_value *pid, *zero; /* partition_id and a 0 : i64, made once per block */
  kiln_block *top;        /* the function's block being written (rules apply there only) */
  bool *open_results; /* the entry's results with no sharding given: the partitioner chooses */
  kiln_mesh *devices_mesh; /* GSPMD's iota shardings' mesh (kiln_gspmd_parse) */
  kiln_status err;
} part;

/* ------------------------------------------------------------------ blocks.c */

/* Records the first error (out of memory, or located at op); both return false. */
bool kiln_part_oom(part *p);
__attribute__((format(printf, 3, 4))) bool kiln_part_op_fail(part *p, const kiln_op *op, const char *fmt, ...);
/* A new op of one result appended to p->out (no operands or attributes filled in). */
kiln_op *kiln_part_emit(part *p, kiln_op_kind kind, int32_t nops, int32_t nattrs, const kiln_type *result);
const kiln_type *kiln_part_tensor_of(part *p, kiln_elem e, int32_t rank, const int64_t *dims);
/* A constant tensor<n x i64> (rank 1) or tensor<i64> (rank 0), and this device's entry of a
 * per-partition table (p->n entries) as a tensor<i64>. */
kiln_value *kiln_part_const_i64(part *p, const int64_t *vals, int64_t n, int32_t rank);
kiln_value *kiln_part_per_device(part *p, const int64_t *table);
/* Every device holds the whole value (NULL included); the same blocks and partial sums on
 * every device. */
bool kiln_part_trivial(const kiln_sharding *s);
bool kiln_part_same_blocks(const kiln_sharding *a, const kiln_sharding *b);
/* The local type of a global tensor under s; an error at `at` when s does not divide it. */
const kiln_type *kiln_part_local_type(part *p, const kiln_op *at, const kiln_type *t, const kiln_sharding *s);
/* x's partial sums over the unreduced axes of s, summed (an all_reduce). */
kiln_value *kiln_part_sum_partials(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *s);
/* The device groups that differ only in the factors refs (n of them, p->n / n groups),
 * each in the mixed-radix order of those factors: ids[g * n + k], in p->m's arena (they
 * become an attribute's storage). */
int64_t *kiln_part_device_groups(part *p, const kiln_op *at, const kiln_mesh *mesh, const kiln_axis_ref *refs,
                                 int32_t count, int64_t n);
/* A collective over the groups ids (groups x n) of result type t: operand x, attributes
 * extra ones (0 .. extra-1, the caller's), channel_handle 1/1, replica_groups,
 * use_global_device_ids; not yet appended to p->out. */
kiln_op *kiln_part_collective(part *p, kiln_op_kind kind, kiln_value *x, const kiln_type *t, int64_t *ids, int64_t n,
                              int32_t extra, int32_t regions);
/* Gives op's region 0 the sum of two scalars of type e (`or` for booleans). */
bool kiln_part_add_region(part *p, kiln_op *op, kiln_elem e);
/* Whether two lists of axis factors are the same. */
bool kiln_part_same_refs(const kiln_axis_ref *x, int32_t nx, const kiln_axis_ref *y, int32_t ny);
/* A sharding over mesh with rank empty dimensions (in p->arena). */
kiln_sharding *kiln_part_new_sharding(part *p, const kiln_mesh *mesh, int32_t rank);
/* Value id held as partial sums: summed once (an all_reduce), held as the blocks of its
 * dimensions from then on (whole when it has none). Only in the function's top block, where
 * the summed value is visible to every later use. */
void kiln_part_settle(part *p, const kiln_op *at, int32_t id);
/* The whole value of value id (gathered, partial sums summed, on first use), and the value
 * as blocks under s (the local one when it has them, else sliced from the whole; a whole
 * broadcast_in_dim's blocks broadcast from its operand's). */
kiln_value *kiln_part_whole(part *p, const kiln_op *at, int32_t id);
kiln_value *kiln_part_blocks(part *p, const kiln_op *at, int32_t id, const kiln_sharding *s);

/* ------------------------------------------------------------------ reshard.c */

/* x (blocks under from) as the blocks under to by one collective where one does it:
 * partial sums whose axes are to's blocks along one dimension (a reduce_scatter), or a
 * dimension's axes moved to another dimension (an all_to_all); else NULL (p->err on
 * failure). */
kiln_value *kiln_part_reshard(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *from,
                              const kiln_sharding *to);

/* ------------------------------------------------------------------ partition.c */

/* A region's block rewritten into a new block of dst. */
void kiln_part_clone_block(part *p, const kiln_block *src, kiln_region *dst);

/* ------------------------------------------------------------------ rules.c */

enum { KILN_PART_MAX_RANK = 64 };

/* Value id's blocks, partial sums summed; NULL when it is held whole. */
const kiln_sharding *kiln_part_settled(part *p, const kiln_op *at, int32_t id);
/* Copies op onto the given operands (attributes shared, regions rewritten), its result held
 * as blocks under s. */
bool kiln_part_emit_on_blocks(part *p, const kiln_op *op, kiln_value *const *ins, const kiln_sharding *s);
/* A tensor of static shape, not quantized, of rank at most KILN_PART_MAX_RANK. */
bool kiln_part_static_tensor(const kiln_type *t);
/* The axis factors a result's dimensions have taken so far. */
typedef struct kiln_part_used {
  int32_t n;
  kiln_axis_ref refs[KILN_SPMD_MAX_AXES * 4];
} kiln_part_used;
/* Records the factors of a dimension sharding as used; false when one overlaps a factor of
 * the same axis used already. */
bool kiln_part_use_axes(const kiln_dim_sharding *d, kiln_part_used *used);
/* Op n (an op emitted on blocks, its attributes shared with the op it copies) with the
 * attribute whose value is old given value instead (the others still shared). */
bool kiln_part_replace_attr(part *p, kiln_op *n, const kiln_attr *old, const kiln_attr *value);

/* Computes op on the devices' blocks when an operand is held as blocks and a rule covers the
 * op (elementwise, broadcast_in_dim, transpose, dot_general, reduce): its result is then
 * held as blocks (or partial sums). False when no rule applies (operands' partial sums may
 * have been summed meanwhile): the caller computes it on whole values. */
bool kiln_part_rule(part *p, const kiln_op *op);

/* ------------------------------------------------------------------ rules_indexed.c */

/* The rules of kiln_part_rule for convolution, gather and scatter (same contract). */
bool kiln_part_rule_convolution(part *p, const kiln_op *op);
bool kiln_part_rule_gather(part *p, const kiln_op *op);
bool kiln_part_rule_scatter(part *p, const kiln_op *op);

#endif
