/* Loop fusion: groups the ops of one block into loop nests.
 *
 * A backend classifies each op (kiln_fuse_class): what its code generator can compute
 * element by element (LOOP), as a reduction at the root of a loop nest (REDUCE), or
 * cheaply enough to recompute in every consumer (DUPLICATE: broadcasts of constants,
 * iota, splats); an op the producer of its first operand computes as well (EPILOGUE: a
 * bias add fused into a oneDNN convolution) is stored, and its other operands are not read
 * for it; a LOOP op that reads its first operand at positions it computes (GATHER: a gather
 * of single elements) fuses like LOOP, but that operand is stored; everything else (NONE)
 * is a boundary. The pass then forms groups from
 * the end of the block backwards (dropping pure ops whose values nobody reads), as XLA's producer-consumer fusion does: a LOOP op joins
 * the group of its users when all of them are in one group and its value does not
 * escape (returned, or used by a NONE op or inside another op's region), unless it
 * computes an expensive op (a transcendental function, a root, a division: XLA's list;
 * a GATHER's loads from anywhere)
 * that its user would read more than once per element (a broadcast, an outer product,
 * overlapping windows) over at least 4,096 more points than it has; otherwise it roots a
 * group of its own, and its value is materialized. A cheap LOOP op (no expensive op among
 * it and the loop ops it takes in, at most 8 of them counted as a tree) whose users are in
 * several groups and read it once per element is instead recomputed by each (its class
 * becomes DUPLICATE; its operands are then read by several groups in turn); so is a light
 * expensive op (exponential, logarithm, logistic, division, roots) taking in only cheap or
 * light ones, when one of its readers is a reduction that keeps the innermost dim
 * (which streams it whole: no block of rows keeps it in the cache) and it is 1 MiB or more
 * (a column softmax's exponentials).
 *
 * Everything is allocated in the result (kiln_fusion_free releases it). Pure: only
 * reads the block; thread-safe for concurrent calls. */
#ifndef KILN_PASSES_FUSION_H
#define KILN_PASSES_FUSION_H

#include "ir/ir.h"

typedef enum kiln_fuse_class {
  KILN_FUSE_NONE,
  KILN_FUSE_LOOP,
  KILN_FUSE_REDUCE,
  KILN_FUSE_DUPLICATE,
  KILN_FUSE_EPILOGUE,
  KILN_FUSE_GATHER,
} kiln_fuse_class;

typedef kiln_fuse_class (*kiln_fuse_classify_fn)(const kiln_op *op, void *user);

typedef struct kiln_fusion {
  int32_t num_ops;      /* ops of the block, in order */
  const kiln_op **ops;
  kiln_fuse_class *cls; /* per op */
  int32_t *group;       /* per op: its group, or -1 (NONE ops, DUPLICATE ops not stored, dead ops) */
  int32_t num_groups;
  int32_t *root;        /* per group: the index of its root op (the one whose value is stored) */
  bool *materialized;   /* per op: its results are stored in memory */
  struct kiln_fusion_pos *sorted; /* the ops by address, for kiln_fusion_index */
} kiln_fusion;

/* Whether op is an elementwise op whose computation costs well above a load and a store
 * (XLA's "expensive" ops): transcendental functions, roots, divisions. */
bool kiln_fusion_expensive(const kiln_op *op);

/* Groups the ops of block b. */
kiln_status kiln_fusion_run(const kiln_block *b, kiln_fuse_classify_fn classify, void *user, kiln_fusion *out);
void kiln_fusion_free(kiln_fusion *f);
/* The index of op in f->ops (its position in the block); -1 for an op of another block. */
int32_t kiln_fusion_index(const kiln_fusion *f, const kiln_op *op);

#endif
