/* Loop kernels of the cpu backend: what a fused group computes, as an expression tree
 * over an iteration space, and the code generator that turns a set of them into machine
 * code through LLVM (loopgen.c).
 *
 * The iteration space has `rank` dims; a LOOP kernel stores its root's value at every
 * point, a REDUCE kernel folds its root over the last `rank - num_out_dims` dims (in the
 * root's element type, which may be wider than the output's: f32 for bf16 dots) and
 * stores one value per point of the first num_out_dims dims. Every read of a stored
 * tensor is affine in the space's index: element offset = base + sum(strides[k] * i[k])
 * (broadcasts, transposes, slices and reversals are folded into those numbers). Output
 * is dense row-major over the kept dims.
 *
 * The generated function for kernel k, named "kiln_loop_<k>", has the type
 * kiln_cpu_loop_fn: bufs holds the loop's input buffers (kiln_cpu_loop.num_inputs) then
 * its output; it computes the output points [begin, end) (row-major order of the kept
 * dims), so disjoint ranges may run on different threads. */
#ifndef KILN_BACKENDS_CPU_LOOP_H
#define KILN_BACKENDS_CPU_LOOP_H

#include <stdint.h>

#include "base/arena.h"
#include "ir/ir.h"
#include "ir/scalar.h"

#define KILN_CPU_MAX_RANK 16
#define KILN_CPU_MAX_SORT_OPERANDS 16 /* sorts with more operands are interpreted */
#define KILN_CPU_MAX_RUN 32 /* LOOP steps run row block by row block together */
#define KILN_CPU_MAX_RUN_ARGS 512 /* argument entries of a run with LOCAL values (copied per thread) */

typedef void (*kiln_cpu_loop_fn)(void *const *bufs, int64_t begin, int64_t end);

typedef enum kiln_cpu_node_kind {
  KILN_CPU_NODE_LOAD,   /* an element of input buffer `input` */
  KILN_CPU_NODE_IOTA,   /* the affine index itself (base + sum strides * i), converted to elem */
  KILN_CPU_NODE_SCALAR, /* a constant */
  KILN_CPU_NODE_OP,     /* op applied to args (elementwise: kiln op semantics) */
  KILN_CPU_NODE_ARG,    /* a fold's region argument `input` (see kiln_cpu_loop) */
  KILN_CPU_NODE_GATHER, /* an element of input buffer `input` at the affine offset plus, for
                           each arg k (an integer: a gather's start index), clamp(args[k], 0,
                           index_limits[k]) * index_strides[k] */
} kiln_cpu_node_kind;

typedef struct kiln_cpu_node {
  kiln_cpu_node_kind kind;
  kiln_elem elem;   /* the value's element type */
  int32_t id;       /* dense per kernel */
  /* LOAD, IOTA, GATHER */
  int32_t input;
  int64_t base;
  int64_t strides[KILN_CPU_MAX_RANK];
  /* GATHER: num_args of each (arena) */
  const int64_t *index_strides, *index_limits;
  /* SCALAR */
  kiln_scalar value;
  /* OP */
  kiln_op_kind op_kind; /* what to compute: op's kind, or a CONVERT/MULTIPLY the compiler adds */
  const kiln_op *op;    /* the IR op it comes from (its attributes), or NULL */
  int32_t num_args;
  struct kiln_cpu_node **args;
} kiln_cpu_node;

typedef struct kiln_cpu_loop {
  int32_t rank, num_out_dims;
  int64_t dims[KILN_CPU_MAX_RANK];
  int32_t num_inputs;
  kiln_elem out_elem;
  kiln_cpu_node *root;
  int32_t num_nodes;
  /* REDUCE */
  kiln_op_kind combiner; /* ADD, MULTIPLY, MAXIMUM, MINIMUM, AND, OR, XOR */
  kiln_cpu_node *init;   /* in the root's element type; read with all strides zero */
  /* A fold (fold != NULL; root and init are roots[0] and inits[0]): a reduce whose region
   * runs as written, any region of elementwise ops over any number of operands (argmax's
   * (value, index) pairs, with the tie and NaN rules it spells out). At each output point
   * num_results accumulators start at inits[k] (read like init); at every point of the
   * folded dims, in row-major order as the interpreter takes them, the region's results
   * fold[k] (nodes over the ARG nodes args[0..2n): the accumulators, then roots[k] there)
   * become the accumulators. The function's buffers are the inputs, then the n outputs
   * (output k of element type out_elems[k]). Lanes, when vectorised, are output points, so
   * each result folds its elements in order: exactly the interpreter's values. */
  int32_t num_results;
  kiln_cpu_node **roots, **inits, **fold, **args;
  kiln_elem *out_elems;
  /* A scan (a fold with scan set: a reduce_window over one whole axis that folds x[0..i]
   * into out[i], window.c's prefix form with any region): one folded dim, the axis, and
   * every output k the operand's shape, the accumulators stored after each folded point.
   * The kept dims are the operand's others in order, [0, scan_split) those before the axis;
   * kept point p's accumulator after folded point f goes to output element
   * (p / in) * len * in + f * in + p % in, with len the axis (dims[num_out_dims]) and in the
   * product of the kept dims from scan_split on. scan_reverse: the folded points go from
   * the end (f = len - 1 first) and the region takes them as its first arguments, the
   * accumulators as its second (body(x[i], acc): a suffix window's running fold). */
  bool scan, scan_reverse;
  int32_t scan_split;
  /* Set by code generation (jit.c, kiln_cpu_emit_loop): the output points one call makes
   * together (a vector, a column reduction's vectors, or a block of short rows' vectors:
   * loopnest.c), so threads split the points at its multiples rather than leave a chunk's
   * edge to single lanes. 0 before. */
  int64_t grain;
  /* Parametric code (a shape-polymorphic function's code shared by its signatures:
   * family.c). slots: NULL, or per field (kiln_cpu_loop_field) the index of the number in
   * an int64 array that the function reads at run time, -1 where the code holds the number
   * as a constant; a template's. slot_values: an instance's array of those numbers
   * (num_slots of them), given to the function as its last buffer (after the outputs). */
  const int32_t *slots;
  int32_t num_slots;
  const int64_t *slot_values;
} kiln_cpu_loop;

/* The numbers of a loop, each a field: dims[d] is field d; node k's base is field
 * KILN_CPU_MAX_RANK + k * KILN_CPU_NODE_FIELDS, its strides[d] the next ones, then its value
 * (a SCALAR's bits: the integer, or the double's). */
#define KILN_CPU_NODE_FIELDS (KILN_CPU_MAX_RANK + 2)
#define KILN_CPU_FIELD_DIM(d) (d)
#define KILN_CPU_FIELD_BASE(k) (KILN_CPU_MAX_RANK + (k) * KILN_CPU_NODE_FIELDS)
#define KILN_CPU_FIELD_STRIDE(k, d) (KILN_CPU_FIELD_BASE(k) + 1 + (d))
#define KILN_CPU_FIELD_VALUE(k) (KILN_CPU_FIELD_BASE(k) + KILN_CPU_MAX_RANK + 1)
/* How many fields L has. */
static inline int32_t kiln_cpu_loop_fields(const kiln_cpu_loop *L) {
  return KILN_CPU_MAX_RANK + L->num_nodes * KILN_CPU_NODE_FIELDS;
}

/* Whether field f of L is read at run time (parametric code: slots). */
static inline bool kiln_cpu_loop_field_read(const kiln_cpu_loop *L, int32_t f) { return L->slots && L->slots[f] >= 0; }

/* Whether x has one value at every point of L's space: constants, reads with every stride
 * 0 (a constant number, not read at run time) and ops of those; such ops are computed once
 * per call (loopnest.c) and cost the pool's work nothing per point (compile.c). state: per
 * node id, 0 not known yet (the caller zeroes it), 1 invariant, 2 not. */
bool kiln_cpu_node_invariant(const kiln_cpu_loop *L, const kiln_cpu_node *x, unsigned char *state);

/* Whether x reads at an affine offset (base + sum strides[d] * i[d]): LOAD, IOTA, GATHER. */
static inline bool kiln_cpu_node_affine(const kiln_cpu_node *x) {
  return x && (x->kind == KILN_CPU_NODE_LOAD || x->kind == KILN_CPU_NODE_IOTA || x->kind == KILN_CPU_NODE_GATHER);
}

/* The identity of a reduction's combiner (ADD: -0.0 for floats, MAXIMUM: -inf or the
 * smallest integer, ...) in element type e. */
kiln_scalar kiln_cpu_combiner_identity(kiln_op_kind combiner, kiln_elem e);

/* Every node of L (its root, init and a fold's trees) into nodes[id], which has
 * L->num_nodes entries, NULL where no tree reaches that id. */
void kiln_cpu_loop_nodes(const kiln_cpu_loop *L, kiln_cpu_node **nodes);

/* Whether the code generator computes op (an elementwise op, a convert or compare...) on
 * these element types; the classification of fusion (compile.c) asks. */
bool kiln_cpu_loopgen_supports(const kiln_op *op);
/* Whether elem is an element type loop code handles. */
bool kiln_cpu_loopgen_elem(kiln_elem elem);

/* Collapsing (collapse.c): adjacent dims that every read walks contiguously are merged
 * and size-1 dims dropped, so the inner loop is as long as possible; a reduction's kept and
 * reduced dims stay apart, and so do a scan's kept dims before and after its axis. A plan is made for a set of loops that differ only in their
 * numbers (a parametric template's signatures: family.c), holding for each of them, and
 * applied to each. */
typedef struct kiln_cpu_collapse_plan {
  int32_t rank, num_out_dims;           /* of the loops it was made for */
  int32_t group[KILN_CPU_MAX_RANK];     /* per dim: the collapsed dim it joins, -1: dropped */
  int32_t rank_after, out_after, split_after; /* split_after: a scan's scan_split after */
  bool extra;                           /* every reduced dim had size 1: one is kept */
} kiln_cpu_collapse_plan;

/* nodes[i]: loops[i]'s nodes by id (kiln_cpu_loop_nodes). */
void kiln_cpu_collapse_plan_make(kiln_cpu_loop *const *loops, kiln_cpu_node *const *const *nodes, int32_t count,
                                 kiln_cpu_collapse_plan *p);
/* Whether p holds for L too (its dropped dims have size 1, its merged ones are contiguous). */
bool kiln_cpu_collapse_plan_fits(const kiln_cpu_loop *L, kiln_cpu_node *const *nodes, const kiln_cpu_collapse_plan *p);
/* Field f (loop.h) of L as collapsing it by p would make it, L unchanged. */
int64_t kiln_cpu_collapsed_field(const kiln_cpu_loop *L, kiln_cpu_node *const *nodes, const kiln_cpu_collapse_plan *p,
                                 int32_t f);
void kiln_cpu_collapse_plan_apply(kiln_cpu_loop *L, kiln_cpu_node *const *nodes, const kiln_cpu_collapse_plan *p);
/* L collapsed by its own plan (idempotent). */
void kiln_cpu_collapse(kiln_cpu_loop *L, kiln_cpu_node *const *nodes);

typedef struct kiln_cpu_code kiln_cpu_code;

/* Where a kiln_cpu_code's machine code came from (the persistent compile cache:
 * code_cache.h). */
typedef enum kiln_cpu_code_origin {
  KILN_CPU_CODE_UNCACHED,   /* compiled; the cache is off */
  KILN_CPU_CODE_CACHE_MISS, /* compiled, then stored in the cache */
  KILN_CPU_CODE_CACHE_HIT,  /* loaded from the cache */
} kiln_cpu_code_origin;

/* Generates, optimises for the host CPU and JIT-compiles the loops, or loads their object
 * code from the compile cache when it holds the same module; out_fns[k] receives loop k's
 * entry. quick: no optimisation beyond inlining and registers, and LLVM's fast instruction
 * selection (the quick tier, tier.h: about a sixth of the compile time, code up to about
 * 1.5x slower). The loops go to LLVM in parts, compiled on threads of their own (jit.c:
 * as many as the pool has threads); the origin is a cache hit only when every part's was.
 * The code lives until kiln_cpu_code_destroy. Thread-safe for distinct calls (each part
 * makes its own LLVM context). */
kiln_status kiln_cpu_code_compile(kiln_cpu_loop *const *loops, int32_t n, bool quick, kiln_cpu_code **out_code,
                                  kiln_cpu_loop_fn *out_fns);
void kiln_cpu_code_destroy(kiln_cpu_code *code);
/* Whether kiln_cpu_code_compile's loops use 512-bit vectors (AVX-512 on the host and not
 * capped by KILN_CPU_ISA): 32 vector registers rather than 16. false when the setup
 * fails. Thread-safe. */
bool kiln_cpu_code_wide_vectors(void);
/* Bytes of object code the JIT linked (0 for none). */
uint64_t kiln_cpu_code_bytes(const kiln_cpu_code *code);
/* Where code came from (UNCACHED for NULL). */
kiln_cpu_code_origin kiln_cpu_code_origin_of(const kiln_cpu_code *code);

#endif
