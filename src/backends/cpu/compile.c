/* The cpu backend's compiler: fusion into loop kernels, the other ops as oneDNN calls or
 * interpreter steps, storage for every value, the buffer plan, code generation. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/family.h"
#include "backends/cpu/gather_scatter.h"
#include "backends/cpu/dnnl_ops.h"
#include "backends/cpu/llvm_math.h"
#include "backends/cpu/native.h"
#include "backends/lapack/lapack.h"
#include "passes/buffer_plan.h"
#include "passes/canonicalize.h"
#include "passes/combine_collectives.h"
#include "passes/cse.h"
#include "passes/loop_products.h"
#include "passes/select_branches.h"
#include "passes/unroll_loops.h"
#include "passes/fusion.h"
#include "passes/inline.h"
#include "passes/rewrite.h"

enum { ARENA_ALIGN = 64, MAX_MEMO = 4096 };

/* ---------------------------------------------------------------- classification */

static bool static_tensor(const kiln_type *t) {
  return kiln_type_is_tensor(t) && !kiln_type_is_quant_tensor(t) && kiln_type_is_static(t) &&
         t->tensor.rank <= KILN_CPU_MAX_RANK && kiln_cpu_loopgen_elem(kiln_type_elem(t));
}

static bool all_static(const kiln_op *op) {
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!static_tensor(op->operands[i]->type)) return false;
  for (int32_t i = 0; i < op->num_results; i++)
    if (!static_tensor(op->results[i].type)) return false;
  return op->num_regions == 0 || op->kind == KILN_OP_REDUCE || op->kind == KILN_OP_REDUCE_WINDOW;
}

/* reshape that only adds or removes dims of size 1: an affine index map */
static bool unit_reshape(const kiln_op *op) {
  const kiln_type *a = op->operands[0]->type, *r = op->results[0].type;
  int32_t i = 0, j = 0;
  for (;;) {
    while (i < a->tensor.rank && a->tensor.dims[i] == 1) i++;
    while (j < r->tensor.rank && r->tensor.dims[j] == 1) j++;
    if (i == a->tensor.rank || j == r->tensor.rank) return i == a->tensor.rank && j == r->tensor.rank;
    if (a->tensor.dims[i++] != r->tensor.dims[j++]) return false;
  }
}

/* A bitcast_convert whose operand's bytes are its result's (each element type fills its
 * storage: no sub-byte or i1 values; the spec's split or join of the last dim is then the
 * little-endian byte order, as the interpreter has it): a view of its operand. */
static bool same_bytes(const kiln_op *op) {
  const kiln_type *a = op->operands[0]->type, *r = op->results[0].type;
  if (!kiln_type_is_tensor(a) || !kiln_type_is_tensor(r) || !kiln_type_is_static(a) || !kiln_type_is_static(r) ||
      kiln_type_is_quant_tensor(a) || kiln_type_is_quant_tensor(r))
    return false;
  kiln_elem ea = kiln_type_elem(a), er = kiln_type_elem(r);
  return (size_t)kiln_elem_bits(ea) == 8 * kiln_elem_storage_bytes(ea) &&
         (size_t)kiln_elem_bits(er) == 8 * kiln_elem_storage_bytes(er) &&
         (uint64_t)a->tensor.num_elements * kiln_elem_storage_bytes(ea) ==
             (uint64_t)r->tensor.num_elements * kiln_elem_storage_bytes(er);
}

/* The combining op of a reduce body `(a, b) -> op(a, b)`, or NULL. */
static const kiln_op *reduce_combiner(const kiln_op *op) {
  const kiln_op *c = op->num_operands == 2 && op->num_results == 1 ? kiln_region_combiner(op) : NULL;
  if (!c) return NULL;
  switch (c->kind) {
    case KILN_OP_ADD: case KILN_OP_MULTIPLY: case KILN_OP_MAXIMUM: case KILN_OP_MINIMUM: case KILN_OP_AND:
    case KILN_OP_OR: case KILN_OP_XOR:
      break;
    default: return NULL;
  }
  if (!kiln_type_is_tensor(c->results[0].type) || c->results[0].type->tensor.rank != 0) return NULL;
  if (kiln_type_elem(c->results[0].type) != kiln_type_elem(op->results[0].type)) return NULL;
  /* complex numbers fold with ADD only: 1 + 0i is no identity of Annex G's multiply (inf
   * times it is inf + NaN i); other complex reduces run as folds, in order */
  if (kiln_elem_is_complex(kiln_type_elem(c->results[0].type)) && c->kind != KILN_OP_ADD) return NULL;
  return kiln_cpu_loopgen_supports(c) ? c : NULL;
}

/* A reduce_window whose windows read only the operand (no padding, no base dilation):
 * each window element is at an affine index (out * stride + w * dilation). */
static bool affine_window(const kiln_op *op) {
  int32_t rank = op->operands[0]->type->tensor.rank;
  int64_t v;
  const kiln_attr *pad = kiln_op_attr(op, "padding"), *base = kiln_op_attr(op, "base_dilations");
  for (int64_t i = 0; pad && i < kiln_attr_count(pad); i++)
    if (!kiln_attr_i64_at(pad, i, &v) || v != 0) return false;
  for (int64_t i = 0; base && i < kiln_attr_count(base); i++)
    if (!kiln_attr_i64_at(base, i, &v) || v != 1) return false;
  return kiln_attr_count(kiln_op_attr(op, "window_dimensions")) == rank && 2 * rank <= KILN_CPU_MAX_RANK;
}

static bool same_shape_operands(const kiln_op *op) {
  const kiln_type *r = op->results[0].type;
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *t = op->operands[i]->type;
    if (t->tensor.rank == 0 && r->tensor.rank > 0 && (op->kind == KILN_OP_SELECT || op->kind == KILN_OP_CLAMP)) continue;
    if (t->tensor.rank != r->tensor.rank) return false;
    for (int32_t d = 0; d < r->tensor.rank; d++)
      if (t->tensor.dims[d] != r->tensor.dims[d]) return false;
  }
  return true;
}

static bool unit_contraction(const kiln_op *op);

/* A gather of single elements (every slice size 1), its geometry read: for each result
 * point, the operand element at its start indices (clamped) along start_index_map and,
 * along operand_batching_dims, at its batch position. Types the loop code handles (not
 * complex), integer indices. */
typedef struct element_gather {
  kiln_cpu_dims map, obatch, ibatch;
  int64_t ivd;
  int32_t batch_dim[KILN_CPU_MAX_RANK]; /* per index dim but ivd, in order: its result dim */
} element_gather;

static bool element_gather_read(const kiln_op *op, element_gather *g) {
  if (op->kind != KILN_OP_GATHER || op->num_operands != 2 || op->num_results != 1) return false;
  const kiln_type *x = op->operands[0]->type, *ix = op->operands[1]->type, *r = op->results[0].type;
  kiln_elem e = kiln_type_elem(x);
  if (!kiln_cpu_static_dense(x) || !kiln_cpu_static_dense(ix) || !kiln_cpu_static_dense(r) || kiln_elem_is_complex(e) ||
      !kiln_cpu_loopgen_elem(e) || kiln_type_elem(r) != e || !kiln_cpu_index_elem(kiln_type_elem(ix)) ||
      !kiln_cpu_loopgen_elem(kiln_type_elem(ix)))
    return false;
  const kiln_attr *dn = kiln_op_attr(op, "dimension_numbers"), *ss = kiln_op_attr(op, "slice_sizes");
  const kiln_attr *ivd_attr = dn && dn->kind == KILN_ATTR_STRUCT ? kiln_attr_get(dn, "index_vector_dim") : NULL;
  int32_t xr = x->tensor.rank, ir = ix->tensor.rank, rr = r->tensor.rank;
  kiln_cpu_dims offset, collapsed;
  g->ivd = 0;
  if (!dn || dn->kind != KILN_ATTR_STRUCT || !ss || kiln_attr_count(ss) != xr || (ivd_attr && !kiln_attr_i64_at(ivd_attr, 0, &g->ivd)) ||
      !kiln_cpu_dims_read(dn, "offset_dims", rr, &offset) || !kiln_cpu_dims_read(dn, "collapsed_slice_dims", xr, &collapsed) ||
      !kiln_cpu_dims_read(dn, "operand_batching_dims", xr, &g->obatch) ||
      !kiln_cpu_dims_read(dn, "start_indices_batching_dims", ir, &g->ibatch) ||
      !kiln_cpu_dims_read(dn, "start_index_map", xr, &g->map) || g->ivd < 0 || g->ivd > ir ||
      offset.n + collapsed.n + g->obatch.n != xr || g->ibatch.n != g->obatch.n || kiln_cpu_dims_find(&g->ibatch, g->ivd) >= 0 ||
      g->map.n != (g->ivd < ir ? ix->tensor.dims[g->ivd] : 1) || rr != offset.n + ir - (g->ivd < ir))
    return false;
  for (int32_t d = 0; d < xr; d++) {
    int64_t size;
    if (!kiln_attr_i64_at(ss, d, &size) || size != 1 || x->tensor.dims[d] < 1) return false;
    if (kiln_cpu_dims_find(&g->map, d) >= 0 && kiln_cpu_dims_find(&g->obatch, d) >= 0) return false;
  }
  for (int32_t d = 0, rd = 0; d < ir; d++) { /* the batch dims: the result's non-offset dims, in order */
    if (d == g->ivd) continue;
    while (kiln_cpu_dims_find(&offset, rd) >= 0) rd++;
    if (rd >= rr || r->tensor.dims[rd] != ix->tensor.dims[d]) return false;
    int32_t i = kiln_cpu_dims_find(&g->ibatch, d);
    if (i >= 0 && x->tensor.dims[g->obatch.v[i]] != ix->tensor.dims[d]) return false;
    g->batch_dim[d - (d > g->ivd)] = rd++;
  }
  return true;
}

/* A dynamic_slice the loops read in place (its start indices integer scalars, its types
 * ones the loop code handles, not complex): each element the operand's at the result's
 * index plus the starts, each clamped so the slice fits (a GATHER node whose index reads
 * are the same at every point). */
static bool element_dynslice(const kiln_op *op) {
  if (op->kind != KILN_OP_DYNAMIC_SLICE || op->num_results != 1 || op->num_operands < 1) return false;
  const kiln_type *x = op->operands[0]->type, *r = op->results[0].type;
  kiln_elem e = kiln_type_elem(x);
  if (!kiln_cpu_static_dense(x) || !kiln_cpu_static_dense(r) || kiln_elem_is_complex(e) || !kiln_cpu_loopgen_elem(e) ||
      kiln_type_elem(r) != e || r->tensor.rank != x->tensor.rank || op->num_operands != 1 + x->tensor.rank)
    return false;
  for (int32_t d = 0; d < x->tensor.rank; d++) {
    const kiln_type *it = op->operands[1 + d]->type;
    if (!kiln_cpu_static_dense(it) || it->tensor.rank != 0 || !kiln_cpu_index_elem(kiln_type_elem(it)) ||
        !kiln_cpu_loopgen_elem(kiln_type_elem(it)) || r->tensor.dims[d] > x->tensor.dims[d])
      return false;
  }
  return true;
}

/* A concatenation of integer vectors that one element gather of its block reads as its
 * start indices, joined along index_vector_dim (x[i, j] and take_along_axis lower so): the
 * gather's loop reads each index from the operand that holds it, as every read of the
 * concatenation is at a constant position along that dim (build_concat_read), and the
 * concatenation is never stored. */
static bool concat_of_gather_indices(const kiln_op *op) {
  const kiln_type *r = op->results[0].type;
  int64_t dim;
  if (op->kind != KILN_OP_CONCATENATE || op->num_results != 1 || !kiln_cpu_static_dense(r) ||
      !kiln_cpu_index_elem(kiln_type_elem(r)) || !kiln_cpu_loopgen_elem(kiln_type_elem(r)) ||
      !kiln_attr_i64_at(kiln_op_attr(op, "dimension"), 0, &dim) || kiln_rewrite_uses(op->parent, &op->results[0]) != 1)
    return false;
  for (const kiln_op *u = op->next; u; u = u->next) {
    if (u->num_operands < 2 || u->operands[1] != &op->results[0]) continue;
    element_gather g;
    return u->operands[0] != &op->results[0] && element_gather_read(u, &g) && g.ivd == dim;
  }
  return false; /* read inside a region, or by another operand */
}

/* A stack (jnp.stack, jnp.array of values: a concatenation of pieces one long along the
 * joined dim) small enough to be a loop's select among its pieces: at each point every
 * piece is computed and the one the position along the dim names is kept, so the pieces
 * and the stack's readers fuse into one loop (an ODE step's state, stacked from its
 * components, was a concatenation step and a loop step per component). A piece read
 * anywhere along the dim is read at 0, where it is one long: never out of its range.
 * Every point computing every piece, the pieces times the points stay few (STACK_MAX_READS:
 * a stack of 16 columns of exps over 256 rows would compute 16 times the exps), unless the
 * pieces are cheap: no expensive op among the at most STACK_CHEAP_OPS ops of this block
 * they are computed from, all the pieces needing at most STACK_CHEAP_EXTRA_OPS more than
 * the largest alone, and those ops times the points at most STACK_CHEAP_WORK (each point
 * computes every piece: the work grows, where a stored stack costs a step and a pass over
 * memory). A Lorenz system of 1,024 states, 200 RK4 steps (stacks of 3,072 points from 20
 * to 82 ops), 2.44 -> 0.24 ms, XLA:CPU 1.5; jax.random.gamma's threefry halves (24,576
 * points, 197 ops) were 4.6x slower fused. A slice of the stack at a fixed position
 * reads its piece alone. */
enum {
  STACK_MAX_PIECES = 16,
  STACK_MAX_READS = 8192,
  STACK_CHEAP_OPS = 256,
  STACK_CHEAP_EXTRA_OPS = 16,
  STACK_CHEAP_WORK = 1 << 19
};

typedef struct cheap_walk {
  const kiln_op *seen[STACK_CHEAP_OPS];
  int32_t n;
} cheap_walk;

/* Whether op's operands are computed, within its block, from ops none of them expensive
 * (kiln_fusion_expensive), at most STACK_CHEAP_OPS of them (w->seen, each once). */
static bool cheap_operands(const kiln_op *op, cheap_walk *w) {
  for (int32_t k = 0; k < op->num_operands; k++) {
    const kiln_op *def = op->operands[k]->def;
    if (!def || def->parent != op->parent || def->kind == KILN_OP_CONSTANT) continue;
    bool seen = false;
    for (int32_t i = 0; i < w->n && !seen; i++) seen = w->seen[i] == def;
    if (seen) continue;
    if (w->n == STACK_CHEAP_OPS || kiln_fusion_expensive(def)) return false;
    w->seen[w->n++] = def;
    if (!cheap_operands(def, w)) return false;
  }
  return true;
}

static bool small_stack(const kiln_cpu_executable *x, const kiln_op *op) {
  const kiln_type *r = op->results[0].type;
  int64_t dim;
  if (x->family || op->kind != KILN_OP_CONCATENATE || op->num_results != 1 || op->num_operands < 2 ||
      op->num_operands > STACK_MAX_PIECES || !kiln_cpu_static_dense(r) || kiln_elem_is_complex(kiln_type_elem(r)) ||
      !kiln_cpu_loopgen_elem(kiln_type_elem(r)) || !kiln_attr_i64_at(kiln_op_attr(op, "dimension"), 0, &dim) ||
      dim < 0 || dim >= r->tensor.rank)
    return false;
  for (int32_t k = 0; k < op->num_operands; k++)
    if (!kiln_cpu_static_dense(op->operands[k]->type) || op->operands[k]->type->tensor.dims[dim] != 1) return false;
  if (r->tensor.num_elements * op->num_operands <= STACK_MAX_READS) return true;
  /* cheap pieces, and computing all of them at a point costs little more than the one it
   * keeps: they share what they are computed from */
  cheap_walk all = {.n = 0};
  if (!cheap_operands(op, &all)) return false;
  int32_t largest = 0;
  for (int32_t k = 0; k < op->num_operands; k++) {
    const kiln_op *def = op->operands[k]->def;
    cheap_walk one = {.n = 0};
    if (def && def->parent == op->parent && def->kind != KILN_OP_CONSTANT) {
      one.seen[one.n++] = def;
      cheap_operands(def, &one);
    }
    largest = one.n > largest ? one.n : largest;
  }
  return all.n - largest <= STACK_CHEAP_EXTRA_OPS && r->tensor.num_elements * all.n <= STACK_CHEAP_WORK;
}

static kiln_fuse_class classify(const kiln_op *op, void *user) {
  const kiln_cpu_executable *x = user;
  if (x->baseline || op->num_results != 1 || !all_static(op)) return KILN_FUSE_NONE;
  if (x->conv_bias && x->conv_bias[op->results[0].id].fused_add) return KILN_FUSE_EPILOGUE; /* conv_bias.c */
  switch (op->kind) {
    case KILN_OP_CONSTANT: {
      const kiln_attr *v = kiln_op_attr(op, "value");
      return v && v->kind == KILN_ATTR_DENSE && v->dense.splat ? KILN_FUSE_DUPLICATE : KILN_FUSE_NONE;
    }
    case KILN_OP_IOTA: return KILN_FUSE_DUPLICATE;
    case KILN_OP_BROADCAST_IN_DIM: {
      const kiln_op *def = op->operands[0]->def;
      return def && def->parent == op->parent && classify(def, user) == KILN_FUSE_DUPLICATE ? KILN_FUSE_DUPLICATE
                                                                                           : KILN_FUSE_LOOP;
    }
    case KILN_OP_TRANSPOSE:
    case KILN_OP_SLICE:
    case KILN_OP_REVERSE: return KILN_FUSE_LOOP;
    case KILN_OP_RESHAPE: return unit_reshape(op) ? KILN_FUSE_LOOP : KILN_FUSE_NONE;
    case KILN_OP_REDUCE: return reduce_combiner(op) ? KILN_FUSE_REDUCE : KILN_FUSE_NONE;
    case KILN_OP_REDUCE_WINDOW: return reduce_combiner(op) && affine_window(op) ? KILN_FUSE_REDUCE : KILN_FUSE_NONE;
    case KILN_OP_DOT_GENERAL: return unit_contraction(op) ? KILN_FUSE_LOOP : KILN_FUSE_NONE;
    case KILN_OP_GATHER: {
      element_gather g;
      return element_gather_read(op, &g) ? KILN_FUSE_GATHER : KILN_FUSE_NONE;
    }
    case KILN_OP_DYNAMIC_SLICE: /* not in a signature's compile: a gather's geometry is constant in shared code */
      return !x->family && element_dynslice(op) ? KILN_FUSE_GATHER : KILN_FUSE_NONE;
    case KILN_OP_CONCATENATE: return concat_of_gather_indices(op) || small_stack(x, op) ? KILN_FUSE_LOOP : KILN_FUSE_NONE;
    default: return kiln_cpu_loopgen_supports(op) && same_shape_operands(op) ? KILN_FUSE_LOOP : KILN_FUSE_NONE;
  }
}

/* ---------------------------------------------------------------- expressions */

/* Index map from the loop's space (rank n) to a value's index (rank q): row d of the
 * value's index is sum_k a[d][k] * i[k] + b[d]. */
typedef struct imap {
  int32_t q, n;
  int64_t a[KILN_CPU_MAX_RANK][KILN_CPU_MAX_RANK];
  int64_t b[KILN_CPU_MAX_RANK];
} imap;

typedef struct memo_entry {
  const kiln_value *v;
  const imap *map;
  kiln_cpu_node *node;
} memo_entry;

typedef struct builder {
  kiln_cpu_executable *x;
  const kiln_fusion *fu;
  kiln_cpu_loop *L;
  int32_t group;
  int32_t *inputs; /* value ids, L->num_inputs of them */
  int32_t max_inputs;
  memo_entry memo[MAX_MEMO];
  int32_t num_memo;
  kiln_status st;
} builder;

static kiln_cpu_node *new_node(builder *bd, kiln_cpu_node_kind kind, kiln_elem elem) {
  kiln_cpu_node *n = kiln_arena_alloc(bd->x->arena, sizeof *n);
  if (!n) {
    if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  n->kind = kind;
  n->elem = elem;
  n->id = bd->L->num_nodes++;
  return n;
}

static int32_t input_of(builder *bd, int32_t value_id) {
  for (int32_t i = 0; i < bd->L->num_inputs; i++)
    if (bd->inputs[i] == value_id) return i;
  if (bd->L->num_inputs == bd->max_inputs) {
    int32_t cap = bd->max_inputs ? 2 * bd->max_inputs : 8;
    int32_t *grown = realloc(bd->inputs, sizeof *grown * (size_t)cap);
    if (!grown) {
      if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    bd->inputs = grown;
    bd->max_inputs = cap;
  }
  bd->inputs[bd->L->num_inputs] = value_id;
  return bd->L->num_inputs++;
}

/* strides and base of a dense row-major tensor of type t read through map m */
static void affine(const kiln_type *t, const imap *m, int64_t *strides, int64_t *base) {
  int64_t st[KILN_CPU_MAX_RANK];
  int64_t s = 1;
  for (int32_t d = t->tensor.rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= t->tensor.dims[d];
  }
  *base = 0;
  for (int32_t k = 0; k < m->n; k++) strides[k] = 0;
  for (int32_t d = 0; d < m->q; d++) {
    *base += st[d] * m->b[d];
    for (int32_t k = 0; k < m->n; k++) strides[k] += st[d] * m->a[d][k];
  }
}

static imap *map_new(builder *bd, int32_t q, int32_t n) {
  imap *m = kiln_arena_alloc(bd->x->arena, sizeof *m);
  if (!m) {
    if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  m->q = q;
  m->n = n;
  return m;
}

static bool map_equal(const imap *x, const imap *y) {
  if (x->q != y->q || x->n != y->n) return false;
  for (int32_t d = 0; d < x->q; d++) {
    if (x->b[d] != y->b[d]) return false;
    for (int32_t k = 0; k < x->n; k++)
      if (x->a[d][k] != y->a[d][k]) return false;
  }
  return true;
}

static kiln_cpu_node *build_value(builder *bd, const kiln_value *v, const imap *m);

static int64_t attr_at(const kiln_op *op, const char *name, int64_t i, int64_t dflt) {
  int64_t v;
  return kiln_attr_i64_at(kiln_op_attr(op, name), i, &v) ? v : dflt;
}

/* The map of operand k of op from the map of its result. */
static imap *operand_map(builder *bd, const kiln_op *op, int32_t k, const imap *m) {
  const kiln_type *t = op->operands[k]->type, *r = op->results[0].type;
  imap *o = map_new(bd, t->tensor.rank, m->n);
  if (!o) return NULL;
  switch (op->kind) {
    case KILN_OP_BROADCAST_IN_DIM:
      for (int32_t d = 0; d < o->q; d++) {
        int64_t rd = attr_at(op, "broadcast_dimensions", d, -1);
        if (rd < 0 || rd >= r->tensor.rank) return NULL;
        if (t->tensor.dims[d] == 1 && r->tensor.dims[rd] != 1) continue; /* stays 0 */
        memcpy(o->a[d], m->a[rd], sizeof o->a[d]);
        o->b[d] = m->b[rd];
      }
      return o;
    case KILN_OP_TRANSPOSE:
      for (int32_t j = 0; j < m->q; j++) {
        int64_t d = attr_at(op, "permutation", j, -1);
        if (d < 0 || d >= o->q) return NULL;
        memcpy(o->a[d], m->a[j], sizeof o->a[d]);
        o->b[d] = m->b[j];
      }
      return o;
    case KILN_OP_SLICE:
      for (int32_t d = 0; d < o->q; d++) {
        int64_t start = attr_at(op, "start_indices", d, 0), step = attr_at(op, "strides", d, 1);
        for (int32_t c = 0; c < m->n; c++) o->a[d][c] = step * m->a[d][c];
        o->b[d] = start + step * m->b[d];
      }
      return o;
    case KILN_OP_REVERSE:
      memcpy(o->a, m->a, sizeof o->a);
      memcpy(o->b, m->b, sizeof o->b);
      for (int64_t i = 0; i < kiln_attr_count(kiln_op_attr(op, "dimensions")); i++) {
        int64_t d = attr_at(op, "dimensions", i, -1);
        if (d < 0 || d >= o->q) return NULL;
        for (int32_t c = 0; c < m->n; c++) o->a[d][c] = -m->a[d][c];
        o->b[d] = t->tensor.dims[d] - 1 - m->b[d];
      }
      return o;
    case KILN_OP_RESHAPE: { /* unit dims only: match the other dims in order */
      int32_t j = 0;
      for (int32_t d = 0; d < o->q; d++) {
        if (t->tensor.dims[d] == 1) continue;
        while (j < m->q && r->tensor.dims[j] == 1) j++;
        memcpy(o->a[d], m->a[j], sizeof o->a[d]);
        o->b[d] = m->b[j++];
      }
      return o;
    }
    case KILN_OP_DOT_GENERAL: { /* unit_contraction: the contracting dims stay at index 0 */
      int64_t d[4][KILN_CPU_MAX_RANK];
      int32_t nb, nc;
      if (!kiln_cpu_dot_dims(op, d, &nb, &nc)) return NULL;
      bool batch_or_contracting[KILN_CPU_MAX_RANK] = {false};
      for (int32_t i = 0; i < nb; i++) {
        memcpy(o->a[d[k][i]], m->a[i], sizeof o->a[d[k][i]]);
        o->b[d[k][i]] = m->b[i];
        batch_or_contracting[d[k][i]] = true;
      }
      for (int32_t i = 0; i < nc; i++) batch_or_contracting[d[2 + k][i]] = true;
      /* the result's dims: batch, the lhs's free dims, the rhs's free dims */
      int32_t j = nb + (k == 0 ? 0 : op->operands[0]->type->tensor.rank - nb - nc);
      for (int32_t dim = 0; dim < o->q; dim++) {
        if (batch_or_contracting[dim]) continue;
        memcpy(o->a[dim], m->a[j], sizeof o->a[dim]);
        o->b[dim] = m->b[j++];
      }
      return o;
    }
    default:
      if (o->q == 0) return o; /* a scalar operand of select or clamp */
      memcpy(o->a, m->a, sizeof o->a);
      memcpy(o->b, m->b, sizeof o->b);
      return o;
  }
}

static kiln_cpu_node *build_unit_dot(builder *bd, const kiln_op *op, const imap *m);

/* A GATHER node reading value v through map o (its affine part), with room for max_args
 * start indices, whose strides and limits the caller fills in (*strides, *limits); xstr
 * receives v's row-major strides. NULL (bd->st set) when out of memory. */
static kiln_cpu_node *gather_node(builder *bd, const kiln_value *v, const imap *o, int32_t max_args, int64_t **strides,
                                  int64_t **limits, int64_t *xstr) {
  const kiln_type *x = v->type;
  kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_GATHER, kiln_type_elem(x));
  if (!n) return NULL;
  n->args = kiln_arena_alloc_array(bd->x->arena, (size_t)max_args + 1, sizeof *n->args);
  *strides = kiln_arena_alloc_array(bd->x->arena, (size_t)max_args + 1, sizeof **strides);
  *limits = kiln_arena_alloc_array(bd->x->arena, (size_t)max_args + 1, sizeof **limits);
  if (!n->args || !*strides || !*limits) {
    if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  n->index_strides = *strides;
  n->index_limits = *limits;
  n->input = input_of(bd, v->id);
  affine(x, o, n->strides, &n->base);
  int64_t s = 1;
  for (int32_t d = x->tensor.rank - 1; d >= 0; d--) xstr[d] = s, s *= x->tensor.dims[d];
  return n;
}

/* An element_gather read through result map m: the operand's element at the affine offset
 * of its batching dims plus each start index (an arg, read where index_vector_dim is k)
 * clamped and scaled by its dim's stride. */
static kiln_cpu_node *build_gather(builder *bd, const kiln_op *op, const imap *m) {
  element_gather g;
  const kiln_type *x = op->operands[0]->type, *ix = op->operands[1]->type;
  imap *o = element_gather_read(op, &g) ? map_new(bd, x->tensor.rank, m->n) : NULL;
  if (!o) {
    if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: bad gather in a loop");
    return NULL;
  }
  for (int32_t i = 0; i < g.obatch.n; i++) { /* an operand batching dim: the matching batch position */
    int64_t e = g.ibatch.v[i];
    int32_t rd = g.batch_dim[e - (e > g.ivd)];
    memcpy(o->a[g.obatch.v[i]], m->a[rd], sizeof o->a[0]);
    o->b[g.obatch.v[i]] = m->b[rd];
  }
  int64_t xstr[KILN_CPU_MAX_RANK], *strides, *limits;
  kiln_cpu_node *n = gather_node(bd, op->operands[0], o, g.map.n, &strides, &limits, xstr);
  if (!n) return NULL;
  n->num_args = g.map.n;
  for (int32_t k = 0; k < g.map.n; k++) {
    imap *im = map_new(bd, ix->tensor.rank, m->n);
    if (!im) return NULL;
    for (int32_t e = 0; e < ix->tensor.rank; e++) {
      if (e == g.ivd) {
        im->b[e] = k;
        continue;
      }
      int32_t rd = g.batch_dim[e - (e > g.ivd)];
      memcpy(im->a[e], m->a[rd], sizeof im->a[0]);
      im->b[e] = m->b[rd];
    }
    strides[k] = xstr[g.map.v[k]];
    limits[k] = x->tensor.dims[g.map.v[k]] - 1;
    if (!(n->args[k] = build_value(bd, op->operands[1], im))) return NULL;
  }
  return n;
}

static kiln_cpu_node *synthetic(builder *bd, kiln_op_kind kind, kiln_elem elem, kiln_cpu_node *a, kiln_cpu_node *b);

static kiln_cpu_node *scalar_node(builder *bd, kiln_elem e, int64_t v) {
  kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_SCALAR, e);
  if (n) n->value = (kiln_scalar){.i = v};
  return n;
}

/* A small_stack read through result map m at a position p along the joined dim that
 * varies: piece k read at 0 along the dim, kept where p == k, as a chain of selects on
 * p <= k (max(k + 1 - p, 0) != 0: the nodes take no compare attributes). */
static kiln_cpu_node *build_stack_read(builder *bd, const kiln_op *op, int64_t dim, const imap *m) {
  kiln_elem re = kiln_type_elem(op->results[0].type);
  kiln_cpu_node *p = new_node(bd, KILN_CPU_NODE_IOTA, KILN_ELEM_SI32), *zero = scalar_node(bd, KILN_ELEM_SI32, 0);
  if (!p || !zero) return NULL;
  p->base = m->b[dim];
  memcpy(p->strides, m->a[dim], sizeof p->strides);
  imap *at0 = map_new(bd, m->q, m->n);
  if (!at0) return NULL;
  *at0 = *m;
  memset(at0->a[dim], 0, sizeof at0->a[dim]);
  at0->b[dim] = 0;
  kiln_cpu_node *v = build_value(bd, op->operands[op->num_operands - 1], at0);
  for (int32_t k = op->num_operands - 2; v && k >= 0; k--) {
    kiln_cpu_node *left = synthetic(bd, KILN_OP_SUBTRACT, KILN_ELEM_SI32, scalar_node(bd, KILN_ELEM_SI32, k + 1), p);
    kiln_cpu_node *keep = synthetic(bd, KILN_OP_CONVERT, KILN_ELEM_I1, synthetic(bd, KILN_OP_MAXIMUM, KILN_ELEM_SI32, left, zero), NULL);
    kiln_cpu_node *piece = build_value(bd, op->operands[k], at0), *sel = new_node(bd, KILN_CPU_NODE_OP, re);
    kiln_cpu_node **args = sel ? kiln_arena_alloc_array(bd->x->arena, 3, sizeof *args) : NULL;
    if (!keep || !piece || !args) {
      if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      return NULL;
    }
    args[0] = keep, args[1] = piece, args[2] = v;
    *sel = (kiln_cpu_node){.kind = KILN_CPU_NODE_OP, .elem = re, .id = sel->id, .op_kind = KILN_OP_SELECT, .num_args = 3, .args = args};
    v = sel;
  }
  return v;
}

/* A concatenation read through result map m: a concat_of_gather_indices read at a
 * constant position along the concatenated dim is the operand holding that position, read
 * there; any other read, a small_stack's (build_stack_read). */
static kiln_cpu_node *build_concat_read(builder *bd, const kiln_op *op, const imap *m) {
  int64_t dim = attr_at(op, "dimension", 0, -1), at = dim >= 0 && dim < m->q ? m->b[dim] : -1;
  for (int32_t c = 0; at >= 0 && c < m->n; c++)
    if (m->a[dim][c]) at = -1;
  if (at < 0 && dim >= 0 && dim < m->q && small_stack(bd->x, op)) return build_stack_read(bd, op, dim, m);
  for (int32_t k = 0; at >= 0 && k < op->num_operands; k++) {
    int64_t len = op->operands[k]->type->tensor.dims[dim];
    if (at >= len) {
      at -= len;
      continue;
    }
    imap *o = map_new(bd, m->q, m->n);
    if (!o) return NULL;
    *o = *m;
    o->b[dim] = at;
    return build_value(bd, op->operands[k], o);
  }
  if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: a concatenation read at a varying position in a loop");
  return NULL;
}

/* An element_dynslice read through result map m: the operand's element at the same index
 * plus each start that can move the slice (its dim longer than the slice), clamped to
 * dim - size and scaled by the dim's stride. */
static kiln_cpu_node *build_dynslice(builder *bd, const kiln_op *op, const imap *m) {
  const kiln_type *x = op->operands[0]->type, *r = op->results[0].type;
  int64_t xstr[KILN_CPU_MAX_RANK], *strides, *limits;
  kiln_cpu_node *n = gather_node(bd, op->operands[0], m, x->tensor.rank, &strides, &limits, xstr);
  if (!n) return NULL;
  for (int32_t d = 0; d < x->tensor.rank; d++) {
    if (x->tensor.dims[d] == r->tensor.dims[d]) continue; /* its start clamps to 0 */
    imap *scalar = map_new(bd, 0, m->n);
    if (!scalar || !(n->args[n->num_args] = build_value(bd, op->operands[1 + d], scalar))) return NULL;
    strides[n->num_args] = xstr[d];
    limits[n->num_args++] = x->tensor.dims[d] - r->tensor.dims[d];
  }
  return n;
}

static kiln_cpu_node *build_op(builder *bd, const kiln_op *op, const imap *m) {
  kiln_elem re = kiln_type_elem(op->results[0].type);
  switch (op->kind) {
    case KILN_OP_CONSTANT: {
      const kiln_attr *v = kiln_op_attr(op, "value");
      kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_SCALAR, re);
      if (n) n->value = kiln_scalar_load(re, v->dense.data);
      return n;
    }
    case KILN_OP_IOTA: {
      int64_t d = attr_at(op, "iota_dimension", 0, 0);
      kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_IOTA, re);
      if (!n || d < 0 || d >= m->q) return n;
      n->base = m->b[d];
      memcpy(n->strides, m->a[d], sizeof n->strides);
      return n;
    }
    case KILN_OP_BROADCAST_IN_DIM:
    case KILN_OP_TRANSPOSE:
    case KILN_OP_SLICE:
    case KILN_OP_REVERSE:
    case KILN_OP_RESHAPE: {
      imap *o = operand_map(bd, op, 0, m);
      if (!o) {
        if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: bad index map for %s", kiln_op_name(op->kind));
        return NULL;
      }
      return build_value(bd, op->operands[0], o);
    }
    case KILN_OP_DOT_GENERAL: return build_unit_dot(bd, op, m);
    case KILN_OP_GATHER: return build_gather(bd, op, m);
    case KILN_OP_DYNAMIC_SLICE: return build_dynslice(bd, op, m);
    case KILN_OP_CONCATENATE: return build_concat_read(bd, op, m);
    default: {
      kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_OP, re);
      if (!n) return NULL;
      n->op = op;
      n->op_kind = op->kind;
      n->num_args = op->num_operands;
      n->args = kiln_arena_alloc_array(bd->x->arena, (size_t)op->num_operands + 1, sizeof *n->args);
      if (!n->args) {
        if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        return NULL;
      }
      for (int32_t k = 0; k < op->num_operands; k++) {
        imap *o = operand_map(bd, op, k, m);
        if (!o || !(n->args[k] = build_value(bd, op->operands[k], o))) return NULL;
      }
      return n;
    }
  }
}

/* The element of a stablehlo.constant (dense, every element stored) that a load through
 * map m reads at every point of the space (all its strides 0), into *out; false
 * otherwise. Such a load (a slice of a constant table, a rotation amount of threefry's
 * after its loop is unrolled) becomes a constant of the code. */
static bool constant_element(const kiln_value *v, const imap *m, kiln_scalar *out) {
  const kiln_attr *a = v->def && v->def->kind == KILN_OP_CONSTANT ? kiln_op_attr(v->def, "value") : NULL;
  kiln_elem e = kiln_type_elem(v->type);
  if (!a || a->kind != KILN_ATTR_DENSE || a->dense.splat || kiln_elem_is_complex(e) || kiln_elem_bits(e) < 8 ||
      kiln_elem_bits(e) != (int)(8 * kiln_elem_storage_bytes(e)))
    return false;
  int64_t strides[KILN_CPU_MAX_RANK], base;
  affine(v->type, m, strides, &base);
  for (int32_t k = 0; k < m->n; k++)
    if (strides[k]) return false;
  if (base < 0 || base >= v->type->tensor.num_elements) return false;
  *out = kiln_scalar_load(e, (const uint8_t *)a->dense.data + (size_t)base * kiln_elem_storage_bytes(e));
  return true;
}

static kiln_cpu_node *build_value(builder *bd, const kiln_value *v, const imap *m) {
  if (bd->st) return NULL;
  for (int32_t i = 0; i < bd->num_memo; i++)
    if (bd->memo[i].v == v && map_equal(bd->memo[i].map, m)) return bd->memo[i].node;
  int32_t i = v->def ? kiln_fusion_index(bd->fu, v->def) : -1;
  kiln_cpu_node *n;
  kiln_scalar c;
  if (i >= 0 && (bd->fu->cls[i] == KILN_FUSE_DUPLICATE || (bd->fu->group[i] == bd->group && !bd->fu->materialized[i]))) {
    n = build_op(bd, v->def, m);
  } else if (constant_element(v, m, &c)) {
    if ((n = new_node(bd, KILN_CPU_NODE_SCALAR, kiln_type_elem(v->type)))) n->value = c;
  } else {
    n = new_node(bd, KILN_CPU_NODE_LOAD, kiln_type_elem(v->type));
    if (n) {
      n->input = input_of(bd, v->id);
      affine(v->type, m, n->strides, &n->base);
    }
  }
  if (n && bd->num_memo < MAX_MEMO) bd->memo[bd->num_memo++] = (memo_entry){v, m, n};
  return n;
}

static kiln_cpu_node *synthetic(builder *bd, kiln_op_kind kind, kiln_elem elem, kiln_cpu_node *a, kiln_cpu_node *b) {
  kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_OP, elem);
  if (!n) return NULL;
  n->op_kind = kind;
  n->num_args = b ? 2 : 1;
  n->args = kiln_arena_alloc_array(bd->x->arena, 2, sizeof *n->args);
  if (!n->args) {
    if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  n->args[0] = a;
  n->args[1] = b;
  return n;
}

/* The accumulation type of a dot in generated code, as XLA and the interpreter have it:
 * f32 for f32 and narrower floats (rounded once at the end), f64 for f64, the result type
 * for integers. */
static kiln_elem dot_accumulator(kiln_elem result) {
  if (!kiln_elem_is_float(result)) return result;
  return result == KILN_ELEM_F64 ? KILN_ELEM_F64 : KILN_ELEM_F32;
}

bool kiln_cpu_dot_dims(const kiln_op *op, int64_t dims[4][KILN_CPU_MAX_RANK], int32_t *nb, int32_t *nc) {
  static const char *const names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                       "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  const kiln_attr *s = kiln_op_attr(op, "dot_dimension_numbers");
  int64_t counts[4];
  for (int k = 0; k < 4; k++) {
    const kiln_attr *a = s ? kiln_attr_get(s, names[k]) : NULL;
    counts[k] = a ? kiln_attr_count(a) : 0;
    if (counts[k] < 0 || counts[k] > KILN_CPU_MAX_RANK) return false;
    for (int64_t i = 0; i < counts[k]; i++)
      if (!kiln_attr_i64_at(a, i, &dims[k][i])) return false;
  }
  if (counts[0] != counts[1] || counts[2] != counts[3]) return false;
  *nb = (int32_t)counts[0];
  *nc = (int32_t)counts[2];
  return true;
}

/* Whether a dot_general runs as a generated loop: static, element types code generation
 * handles (not i1), within the space's rank. */
static bool dot_loopable(const kiln_op *op) {
  if (op->kind != KILN_OP_DOT_GENERAL || !all_static(op)) return false;
  int64_t dims[4][KILN_CPU_MAX_RANK];
  int32_t nb, nc;
  kiln_elem re = kiln_type_elem(op->results[0].type);
  return re != KILN_ELEM_I1 && kiln_cpu_dot_dims(op, dims, &nb, &nc) &&
         op->results[0].type->tensor.rank + nc <= KILN_CPU_MAX_RANK;
}

/* A dot_general whose contraction is one point (its contracting dims all have size 1, or
 * there are none: an outer product, the weight gradient of a batch of one) is
 * elementwise: lhs * rhs, read through broadcasting maps (operand_map), so it fuses with
 * its producers and users (an optimiser's update reads it where it is made). Real floats
 * and integers: complex products follow Annex G in generated code but not in the
 * interpreter's dot. */
static bool unit_contraction(const kiln_op *op) {
  int64_t d[4][KILN_CPU_MAX_RANK];
  int32_t nb, nc;
  if (op->num_operands != 2 || !kiln_cpu_dot_dims(op, d, &nb, &nc)) return false;
  kiln_elem re = kiln_type_elem(op->results[0].type);
  if (re == KILN_ELEM_I1 || kiln_elem_is_complex(re)) return false;
  for (int32_t s = 0; s < 2; s++)
    if (kiln_elem_is_complex(kiln_type_elem(op->operands[s]->type))) return false;
  const kiln_type *t = op->operands[0]->type;
  for (int32_t i = 0; i < nc; i++)
    if (t->tensor.dims[d[2][i]] != 1) return false;
  return op->results[0].type->tensor.rank <= KILN_CPU_MAX_RANK;
}

/* The one product of a unit_contraction dot in the accumulator type, plus +0 for floats
 * (the sum 0 + p the interpreter and the dot loops make: -0 becomes +0), then in the
 * result type. */
static kiln_cpu_node *build_unit_dot(builder *bd, const kiln_op *op, const imap *m) {
  kiln_elem re = kiln_type_elem(op->results[0].type), acc = dot_accumulator(re);
  kiln_cpu_node *side[2];
  for (int32_t k = 0; k < 2; k++) {
    imap *o = operand_map(bd, op, k, m);
    if (!o) {
      if (!bd->st) bd->st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: bad index map for %s", kiln_op_name(op->kind));
      return NULL;
    }
    kiln_cpu_node *leaf = build_value(bd, op->operands[k], o);
    side[k] = leaf && leaf->elem != acc ? synthetic(bd, KILN_OP_CONVERT, acc, leaf, NULL) : leaf;
    if (!side[k]) return NULL;
  }
  kiln_cpu_node *p = synthetic(bd, KILN_OP_MULTIPLY, acc, side[0], side[1]);
  if (p && kiln_elem_is_float(acc)) {
    kiln_cpu_node *zero = new_node(bd, KILN_CPU_NODE_SCALAR, acc);
    if (zero) zero->value = (kiln_scalar){.f = 0.0};
    p = zero ? synthetic(bd, KILN_OP_ADD, acc, p, zero) : NULL;
  }
  return p && acc != re ? synthetic(bd, KILN_OP_CONVERT, re, p, NULL) : p;
}

static kiln_status finish_loop_step(kiln_cpu_executable *x, builder *bd, const kiln_op *op, int64_t points, int64_t work,
                                    kiln_cpu_step *step);

/* dot_general as a reduction: the space is the result's dims (batch, lhs free, rhs free)
 * then the contracting dims; the root multiplies the two operands in the accumulator type. */
static kiln_status build_dot_loop(kiln_cpu_executable *x, const kiln_fusion *fu, const kiln_op *op, kiln_cpu_step *step) {
  builder *bd = calloc(1, sizeof *bd);
  kiln_cpu_loop *L = kiln_arena_alloc(x->arena, sizeof *L);
  if (!bd || !L) {
    free(bd);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  *bd = (builder){.x = x, .fu = fu, .L = L, .group = -2};
  int64_t d[4][KILN_CPU_MAX_RANK];
  int32_t nb = 0, nc = 0;
  kiln_cpu_dot_dims(op, d, &nb, &nc);
  const kiln_type *rt = op->results[0].type;
  int32_t rr = rt->tensor.rank;
  L->rank = rr + nc;
  L->num_out_dims = rr;
  L->out_elem = kiln_type_elem(rt);
  L->combiner = KILN_OP_ADD;
  kiln_elem acc = dot_accumulator(L->out_elem);
  for (int32_t k = 0; k < rr; k++) L->dims[k] = rt->tensor.dims[k];
  int32_t free_col = nb;
  kiln_cpu_node *side[2];
  int64_t contraction = 1;
  for (int32_t s = 0; s < 2; s++) {
    const kiln_type *t = op->operands[s]->type;
    imap *m = map_new(bd, t->tensor.rank, L->rank);
    if (!m) break;
    bool used[KILN_CPU_MAX_RANK] = {0};
    for (int32_t i = 0; i < nb; i++) {
      m->a[d[s][i]][i] = 1;
      used[d[s][i]] = true;
    }
    for (int32_t i = 0; i < nc; i++) {
      m->a[d[2 + s][i]][rr + i] = 1;
      used[d[2 + s][i]] = true;
      L->dims[rr + i] = t->tensor.dims[d[2 + s][i]];
      if (s == 0) contraction *= t->tensor.dims[d[2][i]];
    }
    for (int32_t dim = 0; dim < t->tensor.rank; dim++)
      if (!used[dim]) m->a[dim][free_col++] = 1;
    kiln_cpu_node *leaf = build_value(bd, op->operands[s], m);
    side[s] = leaf && leaf->elem != acc ? synthetic(bd, KILN_OP_CONVERT, acc, leaf, NULL) : leaf;
  }
  if (!bd->st) {
    L->root = synthetic(bd, KILN_OP_MULTIPLY, acc, side[0], side[1]);
    kiln_cpu_node *zero = new_node(bd, KILN_CPU_NODE_SCALAR, acc);
    if (zero) zero->value = kiln_elem_is_float(acc) ? (kiln_scalar){.f = 0.0} : (kiln_scalar){.i = 0};
    L->init = zero;
  }
  return finish_loop_step(x, bd, op, rt->tensor.num_elements, rt->tensor.num_elements * contraction, step);
}

/* The loop of the group rooted at op. */
static kiln_status build_loop(kiln_cpu_executable *x, const kiln_fusion *fu, int32_t group, const kiln_op *op,
                              kiln_cpu_step *step) {
  builder *bd = calloc(1, sizeof *bd);
  if (!bd) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  bd->x = x;
  bd->fu = fu;
  bd->group = group;
  kiln_cpu_loop *L = kiln_arena_alloc(x->arena, sizeof *L);
  if (!L) {
    free(bd);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  bd->L = L;
  const kiln_type *rt = op->results[0].type;
  L->out_elem = kiln_type_elem(rt);
  int64_t points = rt->tensor.num_elements, work = points;
  if (op->kind == KILN_OP_REDUCE_WINDOW) {
    /* the space: the result's dims, then the window's; operand index = out * stride +
     * w * dilation */
    const kiln_type *it = op->operands[0]->type;
    int32_t rank = it->tensor.rank;
    imap *m = map_new(bd, rank, 2 * rank);
    int64_t window = 1;
    if (m) {
      for (int32_t d = 0; d < rank; d++) {
        L->dims[d] = rt->tensor.dims[d];
        L->dims[rank + d] = attr_at(op, "window_dimensions", d, 1);
        m->a[d][d] = attr_at(op, "window_strides", d, 1);
        m->a[d][rank + d] = attr_at(op, "window_dilations", d, 1);
        window *= L->dims[rank + d];
      }
      L->rank = 2 * rank;
      L->num_out_dims = rank;
      L->combiner = reduce_combiner(op)->kind;
      L->root = build_value(bd, op->operands[0], m);
      imap *scalar = map_new(bd, 0, 2 * rank);
      if (scalar) L->init = build_value(bd, op->operands[1], scalar);
      work = points * window;
    }
  } else if (op->kind == KILN_OP_REDUCE) {
    const kiln_type *it = op->operands[0]->type;
    bool reduced[KILN_CPU_MAX_RANK] = {0};
    for (int64_t i = 0; i < kiln_attr_count(kiln_op_attr(op, "dimensions")); i++) {
      int64_t d = attr_at(op, "dimensions", i, -1);
      if (d >= 0 && d < it->tensor.rank) reduced[d] = true;
    }
    imap *m = map_new(bd, it->tensor.rank, it->tensor.rank);
    if (m) {
      int32_t col = 0;
      for (int pass = 0; pass < 2; pass++)
        for (int32_t d = 0; d < it->tensor.rank; d++)
          if (reduced[d] == (pass == 1)) {
            L->dims[col] = it->tensor.dims[d];
            m->a[d][col++] = 1;
          }
      L->rank = it->tensor.rank;
      L->num_out_dims = rt->tensor.rank;
      const kiln_op *c = reduce_combiner(op);
      L->combiner = c->kind;
      /* the body's type may be wider than the input's (promotion): fold in the result type */
      L->root = build_value(bd, op->operands[0], m);
      if (L->root && L->root->elem != L->out_elem) L->root = synthetic(bd, KILN_OP_CONVERT, L->out_elem, L->root, NULL);
      imap *scalar = map_new(bd, 0, it->tensor.rank);
      if (scalar) L->init = build_value(bd, op->operands[1], scalar);
      if (L->init && L->init->elem != L->out_elem) L->init = synthetic(bd, KILN_OP_CONVERT, L->out_elem, L->init, NULL);
      work = it->tensor.num_elements;
    }
  } else {
    imap *m = map_new(bd, rt->tensor.rank, rt->tensor.rank);
    if (m) {
      for (int32_t d = 0; d < rt->tensor.rank; d++) {
        m->a[d][d] = 1;
        L->dims[d] = rt->tensor.dims[d];
      }
      L->rank = L->num_out_dims = rt->tensor.rank;
      L->root = build_op(bd, op, m);
    }
  }
  return finish_loop_step(x, bd, op, points, work, step);
}

/* ---------------------------------------------------------------- folds */

static bool scalar_value(const kiln_value *v) {
  const kiln_type *t = v->type;
  return kiln_type_is_tensor(t) && !kiln_type_is_quant_tensor(t) && kiln_type_is_static(t) && t->tensor.rank == 0 &&
         kiln_cpu_loopgen_elem(kiln_type_elem(t));
}

/* A reduce the loop generator folds as its region says (kiln_cpu_loop.fold): static, and a
 * one-block region of rank-0 values whose ops are constants and ops the generator computes,
 * reading only the block's arguments and earlier results. */
static bool foldable(const kiln_op *op) {
  int32_t n = op->num_results;
  if ((op->kind != KILN_OP_REDUCE && op->kind != KILN_OP_REDUCE_WINDOW) || n < 1 || op->num_operands != 2 * n ||
      !all_static(op))
    return false;
  const kiln_block *b = kiln_op_block(op, 0);
  if (!b || b->next || b->num_args != 2 * n || !b->last || b->last->kind != KILN_OP_RETURN || b->last->num_operands != n)
    return false;
  for (int32_t i = 0; i < b->num_args; i++)
    if (!scalar_value(&b->args[i])) return false;
  for (const kiln_op *c = b->first; c; c = c->next) {
    for (int32_t i = 0; i < c->num_operands; i++) {
      const kiln_value *v = c->operands[i];
      if (!(v->def ? v->def->parent == b : v->block == b)) return false; /* captured from outside */
    }
    if (c == b->last) break;
    if (c->num_regions || c->num_results != 1 || !scalar_value(&c->results[0])) return false;
    if (c->kind == KILN_OP_CONSTANT) {
      const kiln_attr *v = kiln_op_attr(c, "value");
      if (!v || v->kind != KILN_ATTR_DENSE) return false;
      continue;
    }
    for (int32_t i = 0; i < c->num_operands; i++)
      if (!scalar_value(c->operands[i])) return false;
    if (!kiln_cpu_loopgen_supports(c)) return false;
  }
  return true;
}

static kiln_cpu_node **node_array(builder *bd, int32_t n) {
  kiln_cpu_node **a = kiln_arena_alloc_array(bd->x->arena, (size_t)n + 1, sizeof *a);
  if (!a && !bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  return a;
}

/* node for v (an argument or result of region block b) among the built ones */
static kiln_cpu_node *region_node(const kiln_block *b, kiln_cpu_node **args, const kiln_op *const *ops,
                                  kiln_cpu_node **nodes, int32_t count, const kiln_value *v) {
  for (int32_t i = 0; i < b->num_args; i++)
    if (v == &b->args[i]) return args[i];
  for (int32_t i = 0; i < count; i++)
    if (v == &ops[i]->results[0]) return nodes[i];
  return NULL;
}

/* A load of slot `slot` (a temporary of type t) through map m. */
static kiln_cpu_node *load_slot(builder *bd, int32_t slot, const kiln_type *t, const imap *m) {
  kiln_cpu_node *n = new_node(bd, KILN_CPU_NODE_LOAD, kiln_type_elem(t));
  if (n) {
    n->input = input_of(bd, slot);
    affine(t, m, n->strides, &n->base);
  }
  return n;
}

/* The space of a fold and the map of its operands into it, *points and *work its size:
 * a reduce's result dims, then the folded ones in increasing order (the interpreter's
 * order); a reduce_window's (wf) result dims, then the window's (operand index = out *
 * stride + w * dilation, in the padded copy); a scan's kept dims, then its axis. */
static imap *fold_space(builder *bd, const kiln_op *op, const kiln_cpu_window_fold *wf, int64_t *points, int64_t *work) {
  kiln_cpu_loop *L = bd->L;
  const kiln_type *it = op->operands[0]->type, *rt = op->results[0].type;
  int32_t r = it->tensor.rank;
  imap *m = map_new(bd, r, wf && wf->scan_axis < 0 ? 2 * r : r);
  if (!m) return NULL;
  *points = rt->tensor.num_elements;
  *work = it->tensor.num_elements;
  if (wf && wf->scan_axis < 0) {
    for (int32_t d = 0; d < r; d++) {
      L->dims[d] = rt->tensor.dims[d];
      L->dims[r + d] = wf->size[d];
      m->a[d][d] = wf->stride[d];
      m->a[d][r + d] = wf->dilation[d];
    }
    *work = *points;
    for (int32_t d = 0; d < r && *work < INT64_MAX; d++)
      if (!kiln_mul_i64(*work, wf->size[d], work)) *work = INT64_MAX;
    L->rank = 2 * r;
    L->num_out_dims = r;
    return m;
  }
  bool folded[KILN_CPU_MAX_RANK] = {0};
  if (wf) {
    folded[wf->scan_axis] = true;
    *points /= it->tensor.dims[wf->scan_axis];
    L->scan = true;
    L->scan_reverse = wf->reverse;
    L->scan_split = wf->scan_axis;
  }
  for (int64_t i = 0; !wf && i < kiln_attr_count(kiln_op_attr(op, "dimensions")); i++) {
    int64_t d = attr_at(op, "dimensions", i, -1);
    if (d >= 0 && d < r) folded[d] = true;
  }
  int32_t col = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int32_t d = 0; d < r; d++)
      if (folded[d] == (pass == 1)) {
        L->dims[col] = it->tensor.dims[d];
        m->a[d][col++] = 1;
      }
  L->rank = r;
  L->num_out_dims = wf ? r - 1 : rt->tensor.rank;
  return m;
}

/* A reduce or reduce_window (wf: its geometry) as a fold (foldable(op)), in the space of
 * fold_space; the region becomes nodes over ARG nodes. */
static kiln_status build_fold_loop(kiln_cpu_executable *x, const kiln_fusion *fu, const kiln_op *op,
                                   const kiln_cpu_window_fold *wf, kiln_cpu_step *step) {
  builder *bd = calloc(1, sizeof *bd);
  kiln_cpu_loop *L = kiln_arena_alloc(x->arena, sizeof *L);
  const kiln_block *b = kiln_op_block(op, 0);
  int32_t n = op->num_results, count = 0;
  for (const kiln_op *c = b->first; c != b->last; c = c->next) count++;
  const kiln_op **ops = calloc((size_t)count + 1, sizeof *ops);
  if (!bd || !L || !ops) {
    free(bd), free(ops);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  *bd = (builder){.x = x, .fu = fu, .L = L, .group = -2};
  const kiln_type *rt = op->results[0].type;
  L->num_results = n;
  L->roots = node_array(bd, n);
  L->inits = node_array(bd, n);
  L->fold = node_array(bd, n);
  L->args = node_array(bd, 2 * n);
  kiln_cpu_node **nodes = node_array(bd, count);
  L->out_elems = kiln_arena_alloc_array(x->arena, (size_t)n, sizeof *L->out_elems);
  if (!L->out_elems && !bd->st) bd->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int64_t points = 0, work = 0;
  imap *m = fold_space(bd, op, wf, &points, &work), *scalar = m ? map_new(bd, 0, m->n) : NULL;
  if (m && scalar && !bd->st) {
    L->combiner = KILN_OP_COUNT; /* none: the region folds */
    L->out_elem = kiln_type_elem(rt);
    for (int32_t i = 0; i < 2 * n && !bd->st; i++)
      if ((L->args[i] = new_node(bd, KILN_CPU_NODE_ARG, kiln_type_elem(b->args[i].type)))) L->args[i]->input = i;
    for (int32_t k = 0; k < n && !bd->st; k++) {
      L->out_elems[k] = kiln_type_elem(op->results[k].type);
      bool copy = wf && wf->src[k] != op->operands[k]->id; /* padded */
      kiln_cpu_node *root = copy ? load_slot(bd, wf->src[k], wf->src_type[k], m) : build_value(bd, op->operands[k], m);
      kiln_cpu_node *init = build_value(bd, op->operands[n + k], scalar);
      if (!root || !init) break;
      /* the region's arguments may be wider than the operands (promotion) */
      L->roots[k] = root->elem == L->args[n + k]->elem ? root : synthetic(bd, KILN_OP_CONVERT, L->args[n + k]->elem, root, NULL);
      L->inits[k] = init->elem == L->args[k]->elem ? init : synthetic(bd, KILN_OP_CONVERT, L->args[k]->elem, init, NULL);
    }
    int32_t i = 0;
    for (const kiln_op *c = b->first; c != b->last && !bd->st; c = c->next, i++) {
      kiln_elem re = kiln_type_elem(c->results[0].type);
      ops[i] = c;
      if (c->kind == KILN_OP_CONSTANT) {
        if ((nodes[i] = new_node(bd, KILN_CPU_NODE_SCALAR, re))) nodes[i]->value = kiln_scalar_load(re, kiln_op_attr(c, "value")->dense.data);
        continue;
      }
      if (!(nodes[i] = new_node(bd, KILN_CPU_NODE_OP, re))) break;
      nodes[i]->op = c;
      nodes[i]->op_kind = c->kind;
      nodes[i]->num_args = c->num_operands;
      if (!(nodes[i]->args = node_array(bd, c->num_operands))) break;
      for (int32_t a = 0; a < c->num_operands; a++)
        nodes[i]->args[a] = region_node(b, L->args, ops, nodes, i, c->operands[a]);
    }
    for (int32_t k = 0; k < n && !bd->st; k++) L->fold[k] = region_node(b, L->args, ops, nodes, count, b->last->operands[k]);
    L->root = L->roots[0];
    L->init = L->inits[0];
  }
  free(ops);
  return finish_loop_step(x, bd, op, points, work, step);
}

/* What an op adds to a loop point's cost, in units of a simple loop's element (an add's; the
 * pool's unit of work, pool.c): the math library's kernels as it measured them; the ops
 * loopgen.c emits as instructions measured the same way (f32[64,1024] on one core of an
 * AVX-512 host, 2026-12-04; add 6.5 us): divide 12.6 us, sqrt 15.9, rsqrt (a square root
 * and a division) 30.3, remainder 167. */
static int64_t op_extra_cost(kiln_op_kind k) {
  switch (k) {
  case KILN_OP_DIVIDE: case KILN_OP_SQRT:
    return 1;
  case KILN_OP_RSQRT:
    return 4;
  case KILN_OP_REMAINDER:
    return 25;
  default: {
    int32_t adds = kiln_cpu_math_cost(k);
    return adds > 1 ? adds - 1 : 0;
  }
  }
}

/* Whether n is a number the code holds as a constant: a SCALAR not read at run time, or
 * ops of such (LLVM folds them). */
static bool constant_node(const kiln_cpu_loop *L, const kiln_cpu_node *n) {
  if (!n) return false;
  if (n->kind == KILN_CPU_NODE_SCALAR) return !kiln_cpu_loop_field_read(L, KILN_CPU_FIELD_VALUE(n->id));
  if (n->kind != KILN_CPU_NODE_OP) return false;
  for (int32_t i = 0; i < n->num_args; i++)
    if (!constant_node(L, n->args[i])) return false;
  return true;
}

/* The cost of a point of the tree at n beyond a simple loop's element, in halves of that
 * element, each node once: half an element per op (a loop of several ops costs more than
 * one of a single op) and the op's own extra cost; nothing for an op whose value is the same
 * at every point (computed once per call). seen: per node, 0 or 1; inv: for
 * kiln_cpu_node_invariant. */
static int64_t node_extra_halves(const kiln_cpu_loop *L, const kiln_cpu_node *n, bool *seen, unsigned char *inv) {
  if (!n || n->kind != KILN_CPU_NODE_OP || seen[n->id] || kiln_cpu_node_invariant(L, n, inv)) return 0;
  seen[n->id] = true;
  /* an integer divided by a constant: LLVM multiplies and shifts (a Collatz step's v % 2
   * and v / 2), where any other divisor takes a division per lane */
  bool by_constant = (n->op_kind == KILN_OP_DIVIDE || n->op_kind == KILN_OP_REMAINDER) && n->num_args == 2 &&
                     kiln_elem_is_int(n->elem) && constant_node(L, n->args[1]);
  int64_t c = 1 + 2 * (by_constant ? 0 : op_extra_cost(n->op_kind));
  for (int32_t i = 0; i < n->num_args; i++) c += node_extra_halves(L, n->args[i], seen, inv);
  return c;
}

/* The pool's work for `work` elements of loop L: elements times the cost of a point (the
 * root's nodes and, for a fold, its region's), saturating. */
static int64_t weighted_work(const kiln_cpu_loop *L, int64_t work) {
  bool *seen = L->num_nodes > 0 ? calloc((size_t)L->num_nodes, 1) : NULL;
  unsigned char *inv = seen ? calloc((size_t)L->num_nodes, 1) : NULL;
  if (!inv) {
    free(seen);
    return work;
  }
  int64_t halves = 2 + node_extra_halves(L, L->root, seen, inv);
  for (int32_t k = 0; L->fold && k < L->num_results; k++) halves += node_extra_halves(L, L->fold[k], seen, inv);
  free(seen);
  free(inv);
  return work > INT64_MAX / halves ? INT64_MAX : work * halves / 2;
}

/* Makes step the LOOP step of the loop bd built for op; frees bd. */
static kiln_status finish_loop_step(kiln_cpu_executable *x, builder *bd, const kiln_op *op, int64_t points, int64_t work,
                                    kiln_cpu_step *step) {
  kiln_cpu_loop *L = bd->L;
  kiln_status st = bd->st;
  int32_t outputs = L->fold ? L->num_results : 1;
  for (int32_t k = 0; !st && L->fold && k < outputs; k++)
    if (!L->roots[k] || !L->inits[k] || !L->fold[k]) st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: could not build a fold");
  if (!st && (!L->root || (L->num_out_dims < L->rank && !L->init)))
    st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: could not build the loop of %s", kiln_op_name(op->kind));
  if (!st) {
    step->kind = KILN_CPU_STEP_LOOP;
    step->op = op;
    step->loop = L;
    step->points = points;
    step->work = weighted_work(L, work);
    step->num_values = L->num_inputs + outputs;
    step->values = kiln_arena_alloc_array(x->arena, (size_t)step->num_values, sizeof *step->values);
    if (!step->values) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    else {
      if (L->num_inputs) memcpy(step->values, bd->inputs, sizeof *bd->inputs * (size_t)L->num_inputs);
      for (int32_t k = 0; k < outputs; k++) step->values[L->num_inputs + k] = op->results[k].id;
    }
  }
  free(bd->inputs);
  free(bd);
  return st;
}

/* ---------------------------------------------------------------- the schedule */

static bool top_level(const kiln_cpu_executable *x, const kiln_value *v, const kiln_block *body) {
  return v->def ? v->def->parent == body : v->block == body;
}

/* Values of the top block that op (with its regions) reads. */
static void collect_reads(const kiln_op *op, const kiln_block *body, bool *seen, int32_t *out, int32_t *n,
                          const kiln_cpu_executable *x) {
  for (int32_t k = 0; k < op->num_operands; k++) {
    const kiln_value *v = op->operands[k];
    if (top_level(x, v, body) && !seen[v->id]) {
      seen[v->id] = true;
      out[(*n)++] = v->id;
    }
  }
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *inner = b->first; inner; inner = inner->next) collect_reads(inner, body, seen, out, n, x);
}

static kiln_status interp_step(kiln_cpu_executable *x, const kiln_op *op, const kiln_block *body, kiln_cpu_step *step) {
  bool *seen = calloc((size_t)x->num_values + 1, sizeof *seen);
  int32_t *ids = calloc((size_t)x->num_values + 1, sizeof *ids);
  kiln_status st = seen && ids ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int32_t n = 0;
  if (!st) collect_reads(op, body, seen, ids, &n, x);
  step->kind = KILN_CPU_STEP_INTERP;
  step->op = op;
  step->num_values = n;
  if (!st && !(step->values = kiln_arena_alloc_array(x->arena, (size_t)n + 1, sizeof *step->values)))
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) memcpy(step->values, ids, sizeof *ids * (size_t)n);
  for (int32_t i = 0; !st && i < op->num_results; i++) x->slots[op->results[i].id].store = KILN_CPU_STORE_INTERP;
  for (int32_t i = 0; !st && i < n; i++) x->slots[ids[i]].needs_rtv = true;
  free(seen);
  free(ids);
  return st;
}

/* Below this many elements in all (operands and result) a dot_general is not worth a
 * oneDNN call (about 1.2 us of fixed cost, measured): it becomes a generated loop. So does
 * one whose lhs has at most LOOP_MAX_ROWS rows (its free dims' points per batch) and whose
 * rhs has at least LOOP_MIN_COLUMNS columns: a vector-matrix product reads each weight
 * that many times, so it is bound by reading the weights, which the loop (vectors across
 * the results, four at a time: loopnest.c's column form) does as fast as oneDNN's gemm,
 * without its fixed cost (about 3 us a call here: streams, memory objects). Measured on
 * the 2-core Xeon (AVX-512, f32, median us, loop / oneDNN): [M,K] x [K,K]: K=64: M=1
 * 0.9/2.5, M=8 1.8/4.5, M=32 4.4/10; K=256: M=1 7.0/7.5, M=4 12.8/9.1, M=8 17.5/17.6,
 * M=16 22/21, M=32 66/41; K=512: M=1 11/42, M=4 57/54, M=8 80/125, M=16 188/91, M=32
 * 350/145. Narrower results leave the vectors idle: [1,1024] x [1024,64] 4.1/6.7, but
 * [1,2048] x [2048,32] 7.0/5.2, [4,1024] x [1024,32] 13/4.4, [8,512] x [512,10] 16/5.6.
 * Float results only: oneDNN's i8 kernels (VNNI) fold four products per lane, the loop
 * one ([1,256] x [256,256] i8: loop 9.8 us, oneDNN 9.2). Each row past the first reads
 * the weights again, from L2 while they fit (LOOP_MAX_REREAD_BYTES); larger weights come
 * from L3 once per row, and the library, which reads them once for all rows, wins from two
 * rows (one Zen 3 core, [M,784] x [784,512] then [512,512], us, loop / Kiln's sgemm: M=1
 * 44/57, M=2 143/105, M=4 267/118, M=8 483/126). With 512-bit vectors the loop folds four
 * rows at a time (loopnest.c: emit_column_block), each weight loaded once for them, and
 * f32 products of up to LOOP_BLOCK_MAX_ROWS rows by at most LOOP_BLOCK_WEIGHT_BYTES of
 * weights run as loops too (us, loop / oneDNN, 2026-12-07: [16,64]x[64,128] 2.6/5.1,
 * [32,64]x[64,256] 6.5/7.7, [32,32]x[32,512] 6.2/10.1, [32,128]x[128,128] 6.1/7.2; with
 * more weights oneDNN's blocking wins: [32,256]x[256,256] 21/17). Capped to AVX2 (16
 * registers, two rows a block) Kiln's sgemm beat the loop on all of these. */
enum { DNNL_MIN_ELEMENTS = 4096, LOOP_MAX_ROWS = 8, LOOP_MIN_COLUMNS = 64, LOOP_MAX_REREAD_BYTES = 256 << 10 };
enum { LOOP_BLOCK_MAX_ROWS = 32, LOOP_BLOCK_WEIGHT_BYTES = 64 << 10 };

/* A batched dot_general of at most this many multiply-adds per batch point (rows *
 * columns * contracted size) is a generated loop too: oneDNN's batched matmul pays a fixed
 * cost per batch point. Measured on a 2-core Zen 3 (AVX2, f32, 900,000 result elements,
 * median us, loop / oneDNN): 2x2x2 872/6115, 3x3x3 1428/3063, 4x4x4 1233/2152, 8x8x8
 * 435/1018, [4,32]x[32,8] 1062/2137; but 12x12x12 1232/603, 16x16x16 663/224. */
enum { TINY_DOT_MACS = 1024 };

/* The points of operand s's free dims (per batch): s = 0, the lhs's rows, how often each
 * rhs element is read; s = 1, the rhs's columns. */
static int64_t dot_free_points(const kiln_op *op, int32_t s) {
  int64_t d[4][KILN_CPU_MAX_RANK];
  int32_t nb, nc;
  if (!kiln_cpu_dot_dims(op, d, &nb, &nc)) return -1;
  const kiln_type *t = op->operands[s]->type;
  int64_t points = t->tensor.num_elements;
  for (int32_t i = 0; i < nb; i++) points /= t->tensor.dims[d[s][i]] ? t->tensor.dims[d[s][i]] : 1;
  for (int32_t i = 0; i < nc; i++) points /= t->tensor.dims[d[2 + s][i]] ? t->tensor.dims[d[2 + s][i]] : 1;
  return points;
}

kiln_status kiln_cpu_dnnl_step(kiln_cpu_executable *x, const kiln_op *op, struct kiln_cpu_dnnl_op *p, int32_t lhs,
                               kiln_cpu_step *step) {
  x->num_steps++;
  *step = (kiln_cpu_step){.kind = KILN_CPU_STEP_DNNL, .op = op, .dnnl = p, .num_values = 3};
  step->values = kiln_arena_alloc_array(x->arena, 3, sizeof *step->values);
  if (!step->values) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  step->values[0] = lhs;
  step->values[1] = op->operands[1]->id;
  step->values[2] = op->results[0].id;
  x->slots[op->results[0].id].store = KILN_CPU_STORE_TEMP;
  return NULL;
}

/* The multiply-adds of one batch point of a batched dot_general (rows * columns * the
 * contracted size), or -1 (no batch dims, or a batch of one). */
static int64_t dot_batch_macs(const kiln_op *op) {
  int64_t rows = dot_free_points(op, 0), columns = dot_free_points(op, 1);
  const kiln_type *l = op->operands[0]->type, *r = op->results[0].type;
  if (rows <= 0 || columns <= 0 || r->tensor.num_elements <= 0 || l->tensor.num_elements <= 0) return -1;
  int64_t batch = r->tensor.num_elements / (rows * columns);
  return batch > 1 ? l->tensor.num_elements / batch * columns : -1;
}

static kiln_status dnnl_step(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_step *step, bool *out_done) {
  *out_done = false;
  if (!all_static(op)) return NULL;
  int64_t elements = op->results[0].type->tensor.num_elements;
  for (int32_t i = 0; i < op->num_operands; i++) elements += op->operands[i]->type->tensor.num_elements;
  /* the fast-start tier has no loops: oneDNN beats the interpreter at any size */
  int64_t rows = dot_free_points(op, 0), columns = dot_free_points(op, 1);
  int64_t weight_bytes = op->operands[1]->type->tensor.num_elements * (int64_t)kiln_elem_storage_bytes(kiln_type_elem(op->operands[1]->type));
  bool f32 = kiln_type_elem(op->operands[0]->type) == KILN_ELEM_F32 && kiln_type_elem(op->operands[1]->type) == KILN_ELEM_F32;
  int64_t max_rows = f32 && weight_bytes <= LOOP_BLOCK_WEIGHT_BYTES && kiln_cpu_code_wide_vectors() ? LOOP_BLOCK_MAX_ROWS
                                                                                                     : LOOP_MAX_ROWS;
  bool few_rows = kiln_elem_is_float(kiln_type_elem(op->results[0].type)) && rows >= 0 && rows <= max_rows &&
                  (rows <= 1 || weight_bytes <= LOOP_MAX_REREAD_BYTES) && columns >= LOOP_MIN_COLUMNS && dot_loopable(op);
  int64_t macs = dot_batch_macs(op);
  bool tiny = macs > 0 && macs <= TINY_DOT_MACS && dot_loopable(op);
  if (!x->baseline && (elements < DNNL_MIN_ELEMENTS || few_rows || tiny)) return NULL;
  struct kiln_cpu_dnnl_op *p;
  kiln_status st = kiln_cpu_dnnl_prepare(op, &p);
  if (st) { /* what oneDNN cannot do runs elsewhere; anything else is an error */
    if (kiln_status_code_of(st) != KILN_STATUS_UNIMPLEMENTED) return st;
    kiln_status_free(st);
    return NULL;
  }
  *out_done = true;
  return kiln_cpu_dnnl_step(x, op, p, op->operands[0]->id, step);
}

static void set_store(kiln_cpu_executable *x, int32_t v, kiln_cpu_store store, int32_t index) {
  x->slots[v].store = store;
  x->slots[v].index = index;
}

/* A reduction with few results but much to fold (a sum of a whole tensor) would run on
 * one thread: it is split into partial reductions over chunks of its first folded dim
 * (stored in a temporary; as many results as SPLIT_CHUNKS times more, so threads share
 * them) and a second loop folding the partials with the init. The step becomes the first
 * loop; the second is appended after it. */
enum { SPLIT_MAX_POINTS = 8, SPLIT_MIN_WORK = 1 << 18 };

static void shift_inputs(kiln_cpu_node *nd, bool *seen) {
  if (seen[nd->id]) return;
  seen[nd->id] = true;
  if (nd->kind == KILN_CPU_NODE_LOAD || nd->kind == KILN_CPU_NODE_GATHER) nd->input++;
  for (int32_t i = 0; i < nd->num_args; i++) shift_inputs(nd->args[i], seen);
}

/* Dim ro (of size chunks * part) becomes two: the chunk (stride * part), then the part. */
static void split_strides(kiln_cpu_node *nd, bool *seen, int32_t ro, int32_t rank, int64_t part) {
  if (seen[nd->id]) return;
  seen[nd->id] = true;
  if (kiln_cpu_node_affine(nd)) {
    for (int32_t d = rank; d > ro + 1; d--) nd->strides[d] = nd->strides[d - 1];
    nd->strides[ro + 1] = nd->strides[ro];
    nd->strides[ro] *= part;
  }
  for (int32_t i = 0; i < nd->num_args; i++) split_strides(nd->args[i], seen, ro, rank, part);
}

kiln_status kiln_cpu_split_reduction(kiln_cpu_executable *x, kiln_cpu_step *step) {
  kiln_cpu_loop *L = step->loop;
  int32_t ro = L->num_out_dims, r = L->rank;
  if (step->kind != KILN_CPU_STEP_LOOP || L->fold || ro >= r || r + 1 > KILN_CPU_MAX_RANK || step->points > SPLIT_MAX_POINTS ||
      step->work < SPLIT_MIN_WORK || x->num_slots >= x->max_slots)
    return NULL;
  int64_t q = L->dims[ro], chunks = 0;
  for (int64_t c = 64; c >= 2 && !chunks; c /= 2)
    if (q % c == 0) chunks = c;
  if (!chunks) return NULL;
  kiln_elem acc = L->root->elem;
  /* the partials: the kept dims, then the chunks */
  int64_t pdims[KILN_CPU_MAX_RANK];
  for (int32_t d = 0; d < ro; d++) pdims[d] = L->dims[d];
  pdims[ro] = chunks;
  const kiln_type *pt = kiln_type_tensor(x->scratch, kiln_type_scalar(x->scratch, acc), ro + 1, pdims, NULL);
  kiln_cpu_loop *F = kiln_arena_alloc(x->arena, sizeof *F);
  kiln_cpu_node *ident = kiln_arena_alloc(x->arena, sizeof *ident), *partial = kiln_arena_alloc(x->arena, sizeof *partial);
  int32_t *fvalues = kiln_arena_alloc_array(x->arena, (size_t)step->num_values + 2, sizeof *fvalues);
  if (!pt || !F || !ident || !partial || !fvalues)
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int32_t pv = x->num_slots++;
  x->slots[pv] = (kiln_cpu_slot){.store = KILN_CPU_STORE_TEMP, .type = pt};
  /* the second loop: fold the partials (its input 0) with the init (the first loop's
   * inputs follow, so the init's reads keep their buffers) */
  *F = (kiln_cpu_loop){.rank = ro + 1, .num_out_dims = ro, .num_inputs = L->num_inputs + 1, .out_elem = L->out_elem,
                       .combiner = L->combiner, .num_nodes = L->num_nodes + 2, .root = partial, .init = L->init};
  memcpy(F->dims, pdims, sizeof pdims);
  *partial = (kiln_cpu_node){.kind = KILN_CPU_NODE_LOAD, .elem = acc, .id = L->num_nodes + 1, .input = 0};
  int64_t stride = 1;
  for (int32_t d = ro; d >= 0; d--) {
    partial->strides[d] = stride;
    stride *= pdims[d];
  }
  bool *seen = calloc((size_t)L->num_nodes + 1, sizeof *seen);
  if (!seen) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  shift_inputs(L->init, seen); /* the init's reads move up one input */
  memset(seen, 0, sizeof *seen * ((size_t)L->num_nodes + 1));
  /* the first loop: chunks become a kept dim; the reads' strides follow */
  *ident = (kiln_cpu_node){.kind = KILN_CPU_NODE_SCALAR, .elem = acc, .id = L->num_nodes,
                           .value = kiln_cpu_combiner_identity(L->combiner, acc)};
  split_strides(L->root, seen, ro, r, q / chunks);
  free(seen);
  for (int32_t d = r; d > ro + 1; d--) L->dims[d] = L->dims[d - 1];
  L->dims[ro] = chunks;
  L->dims[ro + 1] = q / chunks;
  L->rank = r + 1;
  L->num_out_dims = ro + 1;
  L->out_elem = acc;
  L->init = ident;
  L->num_nodes += 1;
  int32_t out = step->values[step->num_values - 1];
  fvalues[0] = pv;
  memcpy(fvalues + 1, step->values, sizeof *fvalues * (size_t)(step->num_values - 1));
  fvalues[step->num_values] = out;
  step->values[step->num_values - 1] = pv;
  kiln_cpu_step *next = step + 1;
  *next = (kiln_cpu_step){.kind = KILN_CPU_STEP_LOOP, .op = step->op, .loop = F, .num_values = step->num_values + 1,
                          .values = fvalues, .points = step->points, .work = step->points * chunks};
  step->points *= chunks;
  x->num_steps++;
  return NULL;
}

/* The base of an alias chain. */
int32_t kiln_cpu_alias_base(const kiln_cpu_executable *x, int32_t v) {
  while (x->slots[v].store == KILN_CPU_STORE_ALIAS) v = x->slots[v].index;
  return v;
}

/* Completes step (its prepared kernel already set) for an op the backend runs natively: it
 * reads the operands and writes the results, which go in the arena; values lists the
 * operands then the results. The step counts even when this fails, so it is freed. */
/* Whether any result of op is read in body (its regions included). */
static bool results_read(const kiln_block *body, const kiln_op *op) {
  for (int32_t k = 0; k < op->num_results; k++)
    if (kiln_rewrite_uses(body, &op->results[k])) return true;
  return false;
}

static kiln_status native_step(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_step_kind kind, kiln_cpu_step *step) {
  x->num_steps++;
  step->kind = kind;
  step->op = op;
  step->num_values = op->num_operands + op->num_results;
  step->values = kiln_arena_alloc_array(x->arena, (size_t)step->num_values, sizeof *step->values);
  if (!step->values) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t k = 0; k < op->num_operands; k++) step->values[k] = op->operands[k]->id;
  for (int32_t k = 0; k < op->num_results; k++) {
    step->values[op->num_operands + k] = op->results[k].id;
    x->slots[op->results[k].id].store = KILN_CPU_STORE_TEMP;
  }
  return NULL;
}

/* In schedule's loop: when cond holds and prepare takes op (it leaves step->field NULL for
 * what it does not do), op becomes a native step of that kind. */
#define TRY_NATIVE(cond, prepare, field, kind)                \
  if (cond) {                                                 \
    KILN_RETURN_IF_ERROR(prepare(op, &step->field));          \
    if (step->field) {                                        \
      KILN_RETURN_IF_ERROR(native_step(x, op, kind, step));   \
      continue;                                               \
    }                                                         \
  }

/* Whether op's first operand is computed in its loop group g; alone_in_group: whether op,
 * the group's root, reads its one operand from memory (stored, not computed in the group:
 * op is all the group computes). */
static bool operand_in_group(const kiln_fusion *fu, int32_t g, const kiln_op *op) {
  const kiln_op *def = op->operands[0]->def;
  return def && def->parent == op->parent && fu->group[kiln_fusion_index(fu, def)] == g;
}

static bool alone_in_group(const kiln_cpu_executable *x, const kiln_fusion *fu, int32_t g, const kiln_op *op) {
  return op->num_operands == 1 && x->slots[op->operands[0]->id].store != KILN_CPU_STORE_NONE &&
         !operand_in_group(fu, g, op);
}

/* Whether op, alone in its loop group, keeps its operand's bytes in order (a reshape, a
 * broadcast_in_dim or transpose that only adds or moves dims of size 1): its value is a
 * view of the operand. */
static bool view_of_operand(const kiln_fusion *fu, int32_t g, const kiln_op *op) {
  if (op->num_operands != 1 || !all_static(op)) return false;
  const kiln_type *t = op->operands[0]->type, *r = op->results[0].type;
  if (t->tensor.num_elements != r->tensor.num_elements) return false;
  if (operand_in_group(fu, g, op)) return false;
  switch (op->kind) {
    case KILN_OP_RESHAPE: return unit_reshape(op);
    case KILN_OP_BROADCAST_IN_DIM: /* equal sizes: every dim the operand lacks has size 1 */
      for (int32_t d = 0, last = -1; d < t->tensor.rank; d++) {
        int64_t rd = attr_at(op, "broadcast_dimensions", d, -1);
        if (t->tensor.dims[d] != 1 && rd <= last) return false;
        if (t->tensor.dims[d] != 1) last = (int32_t)rd;
      }
      return true;
    case KILN_OP_TRANSPOSE: /* the dims longer than 1 keep their order */
      for (int32_t j = 0, last = -1; j < r->tensor.rank; j++) {
        int64_t d = attr_at(op, "permutation", j, -1);
        if (r->tensor.dims[j] != 1 && d <= last) return false;
        if (r->tensor.dims[j] != 1) last = (int32_t)d;
      }
      return true;
    default: return false;
  }
}

/* Whether operand k of concatenate `cat` is a slice the concatenation
 * reads in place (kiln_cpu_concat_slice_run): a loop group of the slice alone (its operand
 * not fused into it), read by nothing else, whose operand is stored. The slice then has no
 * step of its own. The block's uses are counted last, once the rest holds. */
static bool concat_reads_slice(const kiln_cpu_executable *x, const kiln_fusion *fu, const kiln_block *body,
                               const kiln_op *cat, int32_t k, uint64_t *from, uint64_t *stride) {
  const kiln_op *sl = cat->operands[k]->def;
  if (x->baseline || cat->kind != KILN_OP_CONCATENATE || !sl || !kiln_cpu_concat_slice_run(cat, k, from, stride) ||
      x->slots[sl->operands[0]->id].store == KILN_CPU_STORE_NONE)
    return false;
  int32_t i = kiln_fusion_index(fu, sl), g = i >= 0 ? fu->group[i] : -1;
  const kiln_op *def = sl->operands[0]->def;
  if (g < 0 || fu->root[g] != i || (def && def->parent == sl->parent && fu->group[kiln_fusion_index(fu, def)] == g))
    return false;
  return kiln_rewrite_uses(body, cat->operands[k]) == 1;
}

/* Whether slice op (index i in fu) is read in place by the concatenation that uses it. */
static bool slice_read_in_place(const kiln_cpu_executable *x, const kiln_fusion *fu, const kiln_block *body, int32_t i) {
  const kiln_op *sl = fu->ops[i];
  if (sl->kind != KILN_OP_SLICE || sl->num_results != 1) return false;
  for (int32_t j = i + 1; j < fu->num_ops; j++) {
    const kiln_op *user = fu->ops[j];
    for (int32_t k = 0; k < user->num_operands; k++) {
      uint64_t from, stride;
      if (user->operands[k] == &sl->results[0]) return concat_reads_slice(x, fu, body, user, k, &from, &stride);
    }
  }
  return false;
}

/* One element's bytes of v when v is a splat: a splat constant, or a broadcast_in_dim of one
 * (a gradient's zeros); NULL otherwise. */
static const void *splat_bytes(const kiln_value *v, size_t *out_bytes) {
  const kiln_op *op = v->def;
  if (op && op->kind == KILN_OP_BROADCAST_IN_DIM && op->num_operands == 1) op = op->operands[0]->def;
  const kiln_attr *a = op && op->kind == KILN_OP_CONSTANT ? kiln_op_attr(op, "value") : NULL;
  if (!a || a->kind != KILN_ATTR_DENSE || !a->dense.splat || kiln_type_is_quant_tensor(v->type)) return NULL;
  *out_bytes = a->dense.nbytes;
  return a->dense.data;
}

/* Whether the scatter kernel runs scatter op starting its result as the splat v. */
static bool scatter_fills(const kiln_op *op, const kiln_value *v) {
  size_t bytes;
  const void *value = splat_bytes(v, &bytes);
  kiln_cpu_scatter *sc = NULL;
  kiln_status st = value && op->kind == KILN_OP_SCATTER ? kiln_cpu_scatter_prepare(op, &sc) : NULL;
  bool fills = !st && sc && kiln_cpu_scatter_fill(sc, value, bytes);
  kiln_status_free(st);
  kiln_cpu_scatter_destroy(sc);
  return fills;
}

/* Whether op (number i), a splat, is read only as the operand of scatters that fill their
 * results with it (scatter_fills): then nothing stores it. A scatter-add into zeros (the
 * gradient of a gather: an embedding's, segment_sum's) otherwise filled the zeros in one
 * step and copied them into its result in another (an embedding gradient into
 * f32[50000,128]: 2.6 ms, the two 1.3 of it). */
static bool splat_only_scattered(const kiln_block *body, const kiln_fusion *fu, int32_t i) {
  const kiln_op *op = fu->ops[i];
  size_t bytes;
  if (op->num_results != 1 || !splat_bytes(&op->results[0], &bytes)) return false;
  int32_t scatters = 0;
  for (int32_t j = i + 1; j < fu->num_ops; j++)
    for (int32_t k = 0; k < fu->ops[j]->num_operands; k++) {
      if (fu->ops[j]->operands[k] != &op->results[0]) continue;
      if (k != 0 || !scatter_fills(fu->ops[j], &op->results[0])) return false;
      scatters++;
    }
  return scatters > 0 && scatters == kiln_rewrite_uses(body, &op->results[0]);
}

/* A scatter step whose operand splat_only_scattered left unstored fills its result with
 * it and reads no operand: its values are then the indices, the updates and the result. */
static void scatter_fill_step(const kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_step *step) {
  size_t bytes;
  const void *value = splat_bytes(op->operands[0], &bytes);
  if (!value || x->slots[op->operands[0]->id].store != KILN_CPU_STORE_NONE) return;
  if (!kiln_cpu_scatter_fill(step->scatter, value, bytes)) return; /* splat_only_scattered checked it */
  step->values++;
  step->num_values--;
}

/* Splat constants a step other than a loop reads (an index of a dynamic slice) are filled
 * once, at compile time, up to this size; larger ones are filled by a loop in each run. */
enum { MAX_FOLDED_SPLAT_BYTES = 4096 };

/* A group root stored with no loop step: a view of its operand (view_of_operand), or a
 * splat constant filled at compile time. *out_stored says whether op was. */
static kiln_status store_without_loop(kiln_cpu_executable *x, const kiln_fusion *fu, int32_t g, const kiln_op *op,
                                      bool *out_stored) {
  *out_stored = false;
  if (view_of_operand(fu, g, op) && x->slots[op->operands[0]->id].store != KILN_CPU_STORE_NONE) {
    set_store(x, op->results[0].id, KILN_CPU_STORE_ALIAS, op->operands[0]->id);
    *out_stored = true;
    return NULL;
  }
  const kiln_attr *v = op->kind == KILN_OP_CONSTANT ? kiln_op_attr(op, "value") : NULL;
  const kiln_type *t = op->results[0].type;
  if (!v || v->kind != KILN_ATTR_DENSE || !v->dense.splat || !all_static(op) || kiln_type_is_quant_tensor(t)) return NULL;
  size_t unit = kiln_elem_storage_bytes(kiln_type_elem(t)), n = (size_t)t->tensor.num_elements;
  if (v->dense.nbytes != unit || n > MAX_FOLDED_SPLAT_BYTES / unit) return NULL;
  uint8_t *data = kiln_arena_alloc(x->arena, n * unit + 1);
  if (!data) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t k = 0; k < n; k++) memcpy(data + k * unit, v->dense.data, unit);
  set_store(x, op->results[0].id, KILN_CPU_STORE_CONST, 0);
  x->slots[op->results[0].id].data = data;
  x->constant_bytes += n * unit;
  *out_stored = true;
  return NULL;
}

static kiln_status schedule(kiln_cpu_executable *x, const kiln_block *body, const kiln_fusion *fu) {
  /* one step per op at most, and a second for a split reduction (window ops: more) */
  size_t steps = 2 * (size_t)fu->num_ops + 1;
  for (int32_t i = 0; i < fu->num_ops; i++)
    steps += (size_t)(kiln_cpu_window_extra(fu->ops[i]) + kiln_cpu_conv_extra(fu->ops[i]));
  x->steps = kiln_arena_alloc_array(x->arena, steps, sizeof *x->steps);
  if (!x->steps) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; i < body->num_args; i++)
    set_store(x, body->args[i].id, KILN_CPU_STORE_INPUT, i);
  for (int32_t i = 0; i < fu->num_ops; i++) {
    const kiln_op *op = fu->ops[i];
    kiln_cpu_step *step = &x->steps[x->num_steps];
    if (op->kind == KILN_OP_FUNC_RETURN) {
      x->num_results = op->num_operands;
      x->result_values = kiln_arena_alloc_array(x->arena, (size_t)op->num_operands + 1, sizeof *x->result_values);
      if (!x->result_values) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      for (int32_t k = 0; k < op->num_operands; k++) {
        /* a returned reshape of a temporary: the temporary is made in the result's buffer
         * (the same bytes; jnp.kron's product returned as a matrix) */
        int32_t v = op->operands[k]->id, b = kiln_cpu_alias_base(x, v);
        x->result_values[k] = v;
        if (x->slots[b].store == KILN_CPU_STORE_TEMP) set_store(x, b, KILN_CPU_STORE_RESULT, k);
        else if (x->slots[v].store == KILN_CPU_STORE_INTERP) x->slots[v].needs_rtv = true;
      }
      continue;
    }
    int32_t g = fu->group[i];
    if (g >= 0 && fu->root[g] == i) {
      if (slice_read_in_place(x, fu, body, i)) continue; /* its concatenation reads it */
      if (splat_only_scattered(body, fu, i)) continue;   /* its scatters start as it */
      bool stored;
      KILN_RETURN_IF_ERROR(store_without_loop(x, fu, g, op, &stored));
      if (stored) continue;
      /* a transpose alone in its group, of a stored value: a blocked copy (native_transpose.c) */
      TRY_NATIVE(op->kind == KILN_OP_TRANSPOSE && alone_in_group(x, fu, g, op), kiln_cpu_native_prepare, native,
                 KILN_CPU_STEP_NATIVE);
      KILN_RETURN_IF_ERROR(build_loop(x, fu, g, op, step));
      x->slots[op->results[0].id].store = KILN_CPU_STORE_TEMP;
      x->num_steps++;
      KILN_RETURN_IF_ERROR(kiln_cpu_split_reduction(x, step));
      continue;
    }
    if (fu->cls[i] != KILN_FUSE_NONE) continue; /* inside a loop, recomputed, or dead */
    const kiln_attr *dense = op->kind == KILN_OP_CONSTANT ? kiln_op_attr(op, "value") : NULL;
    if (dense && dense->kind == KILN_ATTR_DENSE && !dense->dense.splat && kiln_type_is_static(op->results[0].type) &&
        !kiln_type_is_quant_tensor(op->results[0].type)) {
      set_store(x, op->results[0].id, KILN_CPU_STORE_CONST, 0);
      x->slots[op->results[0].id].data = dense->dense.data;
      x->constant_bytes += dense->dense.nbytes;
      continue;
    }
    if (op->kind == KILN_OP_RESHAPE && all_static(op) && x->slots[op->operands[0]->id].store != KILN_CPU_STORE_NONE) {
      set_store(x, op->results[0].id, KILN_CPU_STORE_ALIAS, op->operands[0]->id);
      continue;
    }
    if (op->kind == KILN_OP_OPTIMIZATION_BARRIER && all_static(op)) { /* each result is its operand: no copy */
      bool stored = true;
      for (int32_t k = 0; k < op->num_operands; k++) stored &= x->slots[op->operands[k]->id].store != KILN_CPU_STORE_NONE;
      for (int32_t k = 0; stored && k < op->num_results; k++)
        set_store(x, op->results[k].id, KILN_CPU_STORE_ALIAS, op->operands[k]->id);
      if (stored) continue;
    }
    if (op->kind == KILN_OP_BITCAST_CONVERT && same_bytes(op) && x->slots[op->operands[0]->id].store != KILN_CPU_STORE_NONE) {
      set_store(x, op->results[0].id, KILN_CPU_STORE_ALIAS, op->operands[0]->id);
      continue;
    }
    if (op->kind == KILN_OP_CONVOLUTION && all_static(op)) {
      bool done;
      KILN_RETURN_IF_ERROR(kiln_cpu_conv_prepare(x, op, &done));
      if (done) continue;
    }
    if (op->kind == KILN_OP_DOT_GENERAL) {
      bool done;
      KILN_RETURN_IF_ERROR(dnnl_step(x, op, step, &done));
      TRY_NATIVE(!done, kiln_cpu_native_prepare, native, KILN_CPU_STEP_NATIVE); /* f64 products: dgemm */
      if (!done && !x->baseline && dot_loopable(op)) {
        KILN_RETURN_IF_ERROR(build_dot_loop(x, fu, op, step));
        x->slots[op->results[0].id].store = KILN_CPU_STORE_TEMP;
        x->num_steps++;
        KILN_RETURN_IF_ERROR(kiln_cpu_split_reduction(x, step));
        continue;
      }
      if (done) continue;
    }
    if (!x->baseline && op->kind == KILN_OP_REDUCE && foldable(op)) {
      KILN_RETURN_IF_ERROR(build_fold_loop(x, fu, op, NULL, step));
      for (int32_t k = 0; k < op->num_results; k++) x->slots[op->results[k].id].store = KILN_CPU_STORE_TEMP;
      x->num_steps++;
      continue;
    }
    TRY_NATIVE(op->kind == KILN_OP_DYNAMIC_SLICE || op->kind == KILN_OP_DYNAMIC_UPDATE_SLICE, kiln_cpu_dynslice_prepare,
               dynslice, KILN_CPU_STEP_DYNSLICE);
    TRY_NATIVE(op->kind == KILN_OP_GATHER, kiln_cpu_gather_prepare, gather, KILN_CPU_STEP_GATHER);
    if (op->kind == KILN_OP_SCATTER) {
      KILN_RETURN_IF_ERROR(kiln_cpu_scatter_prepare(op, &step->scatter));
      if (step->scatter) {
        KILN_RETURN_IF_ERROR(native_step(x, op, KILN_CPU_STEP_SCATTER, step));
        scatter_fill_step(x, op, step);
        continue;
      }
    }
    TRY_NATIVE(op->kind == KILN_OP_SORT, kiln_cpu_sort_prepare, sort, KILN_CPU_STEP_SORT);
    if ((op->kind == KILN_OP_CUSTOM_CALL || op->kind == KILN_OP_CHOLESKY || op->kind == KILN_OP_TRIANGULAR_SOLVE) &&
        all_static(op) && op->num_operands + op->num_results <= KILN_CPU_MAX_LAPACK_VALUES) {
      KILN_RETURN_IF_ERROR(kiln_lapack_prepare(op, NULL, NULL, &step->lapack));
      if (step->lapack && !results_read(body, op)) {
        /* well formed (planned) and read by nothing: no step, as XLA drops it
         * (jnp.linalg.qr(a)[1] computes Q and leaves it) */
        kiln_lapack_destroy(step->lapack);
        step->lapack = NULL;
        continue;
      }
      if (step->lapack) {
        KILN_RETURN_IF_ERROR(native_step(x, op, KILN_CPU_STEP_LAPACK, step));
        continue;
      }
    }
    if (op->kind == KILN_OP_CONCATENATE) {
      KILN_RETURN_IF_ERROR(kiln_cpu_concat_prepare(op, &step->concat));
      if (step->concat) {
        KILN_RETURN_IF_ERROR(native_step(x, op, KILN_CPU_STEP_CONCAT, step));
        for (int32_t k = 0; k < op->num_operands; k++) {
          uint64_t from, stride;
          if (!concat_reads_slice(x, fu, body, op, k, &from, &stride)) continue;
          kiln_cpu_concat_read_at(step->concat, k, from, stride);
          step->values[k] = op->operands[k]->def->operands[0]->id;
        }
        continue;
      }
    }
    TRY_NATIVE(op->kind == KILN_OP_FFT, kiln_cpu_fft_prepare, fft, KILN_CPU_STEP_FFT);
    TRY_NATIVE(true, kiln_cpu_native_prepare, native, KILN_CPU_STEP_NATIVE);
    if (!x->baseline &&
        (op->kind == KILN_OP_REDUCE_WINDOW || op->kind == KILN_OP_SELECT_AND_SCATTER || op->kind == KILN_OP_PAD)) {
      bool done;
      KILN_RETURN_IF_ERROR(kiln_cpu_window_prepare(x, op, &done));
      if (done) continue;
    }
    if (!x->baseline && op->kind == KILN_OP_REDUCE_WINDOW && foldable(op)) { /* any other region: a fold */
      kiln_cpu_window_fold wf;
      bool ok;
      KILN_RETURN_IF_ERROR(kiln_cpu_window_fold_prepare(x, op, &wf, &ok));
      if (ok) {
        KILN_RETURN_IF_ERROR(build_fold_loop(x, fu, op, &wf, &x->steps[x->num_steps])); /* after its pads */
        for (int32_t k = 0; k < op->num_results; k++) x->slots[op->results[k].id].store = KILN_CPU_STORE_TEMP;
        x->num_steps++;
        continue;
      }
    }
    if (op->kind == KILN_OP_WHILE || op->kind == KILN_OP_IF || op->kind == KILN_OP_CASE) {
      bool done;
      KILN_RETURN_IF_ERROR(kiln_cpu_control_prepare(x, op, step, &done));
      if (done) {
        x->num_steps++;
        continue;
      }
    }
    KILN_RETURN_IF_ERROR(interp_step(x, op, body, step));
    x->num_steps++;
  }
  return NULL;
}

/* Whether v is the LOCAL value that holds its run's scratch (tiling.c). */
static bool holds_scratch(const kiln_cpu_executable *x, int32_t v) {
  return x->slots[v].store == KILN_CPU_STORE_LOCAL && x->slots[v].index == v;
}

/* Liveness of the arena's values and their offsets. */
static kiln_status plan(kiln_cpu_executable *x) {
  kiln_buffer_request *req = calloc((size_t)x->num_slots + 1, sizeof *req);
  uint64_t *off = calloc((size_t)x->num_slots + 1, sizeof *off);
  if (!req || !off) {
    free(req), free(off);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (int32_t v = 0; v < x->num_slots; v++) {
    req[v].first = -1;
    req[v].last = -1;
    const kiln_type *t = x->slots[v].type;
    if (x->slots[v].store == KILN_CPU_STORE_TEMP && t && kiln_type_is_tensor(t) && t->tensor.num_elements >= 0)
      req[v].bytes = (uint64_t)t->tensor.num_elements * kiln_elem_storage_bytes(kiln_type_elem(t));
    if (holds_scratch(x, v)) req[v].bytes = x->slots[v].bytes; /* a row-block run's LOCAL values */
    /* a page or more: a colour more, varied by value, so that temporaries whose sizes are
     * multiples of 4096 do not all start at one offset modulo 4096 (4K aliasing between a
     * loop's loads and stores: base/host_memory.c) */
    if (req[v].bytes >= 4096) req[v].bytes += kiln_host_colour_bytes((uint64_t)v);
  }
  /* a run of steps that goes row block by row block (tiling.c) interleaves its steps:
   * what any of them touches is live for the whole run */
  int32_t run_first = 0, run_last = -1;
  for (int32_t s = 0; s < x->num_steps; s++) {
    const kiln_cpu_step *step = &x->steps[s];
    if (s > run_last) {
      run_first = s;
      run_last = s + (step->run_length > 1 ? step->run_length : 1) - 1;
    }
    for (int32_t k = 0; k < step->num_values; k++) {
      int32_t v = kiln_cpu_alias_base(x, step->values[k]);
      if (req[v].first < 0) req[v].first = run_first;
      req[v].last = run_last;
    }
  }
  /* a result that is a view of a temporary another result holds is copied out after the
   * last step: its bytes stay live until then */
  for (int32_t k = 0; k < x->num_results; k++) {
    int32_t v = kiln_cpu_alias_base(x, x->result_values[k]);
    if (req[v].first >= 0) req[v].last = x->num_steps;
  }
  /* only TEMP values and LOCAL scratches are planned: the others get an empty interval */
  for (int32_t v = 0; v < x->num_slots; v++)
    if ((x->slots[v].store != KILN_CPU_STORE_TEMP && !holds_scratch(x, v)) || req[v].first < 0)
      req[v] = (kiln_buffer_request){0, -2, -2};
  kiln_status st = kiln_buffer_plan(req, x->num_slots, ARENA_ALIGN, off, &x->arena_bytes);
  for (int32_t v = 0; !st && v < x->num_slots; v++) {
    if (x->slots[v].store == KILN_CPU_STORE_TEMP) x->slots[v].offset = off[v];
    if (x->slots[v].store == KILN_CPU_STORE_LOCAL) x->slots[v].offset += off[x->slots[v].index];
  }
  free(req);
  free(off);
  return st;
}

static kiln_status generate(kiln_cpu_executable *x) {
  int32_t n = 0;
  for (int32_t s = 0; s < x->num_steps; s++) n += x->steps[s].kind == KILN_CPU_STEP_LOOP;
  if (!n) return NULL;
  kiln_cpu_loop **loops = calloc((size_t)n, sizeof *loops);
  kiln_cpu_loop_fn *fns = calloc((size_t)n, sizeof *fns);
  kiln_status st = loops && fns ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int32_t k = 0;
  for (int32_t s = 0; !st && s < x->num_steps; s++)
    if (x->steps[s].kind == KILN_CPU_STEP_LOOP) loops[k++] = x->steps[s].loop;
  /* shared code reads its numbers after a loop's outputs: where exec.c puts them */
  bool shareable = x->family != NULL;
  for (int32_t s = 0; shareable && s < x->num_steps; s++) {
    const kiln_cpu_step *step = &x->steps[s];
    if (step->kind == KILN_CPU_STEP_LOOP)
      shareable = step->num_values == step->loop->num_inputs + (step->loop->fold ? step->loop->num_results : 1);
  }
  if (!st && shareable) st = kiln_cpu_family_generate(x->family, loops, n, x->arena, fns, &x->code);
  else if (!st && !(x->family && x->family->mode == KILN_CPU_FAMILY_COLLECT)) /* a probe never runs */
    st = kiln_cpu_code_compile(loops, n, x->quick, &x->code, fns);
  k = 0;
  for (int32_t s = 0; !st && s < x->num_steps; s++)
    if (x->steps[s].kind == KILN_CPU_STEP_LOOP) x->steps[s].fn = fns[k++];
  free(loops);
  free(fns);
  return st;
}

/* Functions the planner does not handle (tuples, tokens, quantized or dynamic values at
 * the top level, several blocks) run in the interpreter as a whole. */
static bool plannable(const kiln_op *function, const kiln_block *body) {
  if (!body || body->next) return false;
  const kiln_type *ft = kiln_func_type(function);
  for (int32_t i = 0; i < ft->func.num_inputs; i++)
    if (!kiln_type_is_tensor(ft->func.inputs[i]) || !kiln_type_is_static(ft->func.inputs[i]) ||
        kiln_type_is_quant_tensor(ft->func.inputs[i]))
      return false;
  for (const kiln_op *op = body->first; op; op = op->next)
    for (int32_t i = 0; i < op->num_results; i++) {
      const kiln_type *t = op->results[i].type;
      if (!kiln_type_is_tensor(t) || !kiln_type_is_static(t)) return false;
    }
  return true;
}

typedef enum tier_kind { TIER_BASELINE, TIER_QUICK, TIER_OPTIMIZED } tier_kind;

static kiln_status compile(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                           const kiln_cpu_executable *parent, kiln_cpu_family_pass *family, tier_kind tier,
                           kiln_cpu_executable **out);

kiln_status kiln_cpu_compile(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                             kiln_cpu_executable **out) {
  return compile(m, src, function, NULL, NULL, TIER_OPTIMIZED, out);
}

kiln_status kiln_cpu_compile_baseline(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                      kiln_cpu_executable **out) {
  return compile(m, src, function, NULL, NULL, TIER_BASELINE, out);
}

kiln_status kiln_cpu_compile_quick(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                   kiln_cpu_executable **out) {
  return compile(m, src, function, NULL, NULL, TIER_QUICK, out);
}

kiln_status kiln_cpu_compile_nested(const kiln_cpu_executable *parent, const kiln_op *function, kiln_cpu_executable **out) {
  return compile(parent->module, parent->source, function, parent, parent->family,
                 parent->baseline ? TIER_BASELINE : parent->quick ? TIER_QUICK : TIER_OPTIMIZED, out);
}

kiln_status kiln_cpu_compile_family(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                    kiln_cpu_family_pass *family, kiln_cpu_executable **out) {
  return compile(m, src, function, NULL, family, TIER_OPTIMIZED, out);
}

static kiln_status compile(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                           const kiln_cpu_executable *parent, kiln_cpu_family_pass *family, tier_kind tier,
                           kiln_cpu_executable **out) {
  *out = NULL;
  kiln_cpu_executable *x = calloc(1, sizeof *x);
  if (!x) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  x->baseline = tier == TIER_BASELINE;
  x->quick = tier == TIER_QUICK;
  pthread_mutex_init(&x->pool_lock, NULL);
  x->module = m;
  x->source = src;
  x->function = function;
  x->num_function_results = kiln_func_type(function)->func.num_results;
  x->family = family;
  x->arena = kiln_arena_create(0);
  x->scratch = kiln_module_create(m->name);
  kiln_status st = x->arena && x->scratch ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  x->nesting = parent ? parent->nesting + 1 : 0;
  x->owns_interp = !parent;
  if (parent) x->interp = parent->interp;
  else if (!st) st = kiln_interp_create(m, src, &x->interp);
  /* the planned function: the entry with its calls inlined */
  kiln_op *planned = NULL;
  int32_t inlined = 0;
  const kiln_block *entry = kiln_op_block(function, 0);
  x->whole_interp = !plannable(function, entry);
  if (!st && !parent && kiln_cpu_is_polymorphic(function)) st = kiln_cpu_specs_create(m, src, function, &x->specs);
  if (!st && !x->whole_interp) st = kiln_inline_calls_everywhere(m, function, x->scratch, &planned, &inlined);
  int32_t rewrites = 0, merged = 0, hoisted = 0, combined = 0, unrolled = 0, selected = 0;
  if (!st && planned) st = kiln_cse(x->scratch, planned, &merged);
  if (!st && planned) st = kiln_canonicalize(x->scratch, planned, &rewrites);
  if (!st && planned) st = kiln_combine_all_reduces(x->scratch, planned, &combined);
  if (!st && planned) st = kiln_hoist_loop_products(x->scratch, planned, &hoisted);
  /* after the hoist: a short scan's products then still go out of it as one */
  if (!st && planned) st = kiln_unroll_loops(x->scratch, planned, &unrolled);
  if (!st && planned) st = kiln_select_branches(x->scratch, planned, &selected);
  rewrites += merged + hoisted + combined + unrolled + selected;
  if (!st && rewrites) kiln_func_number_values(planned); /* ops went: dense ids again */
  const kiln_block *body = planned ? kiln_op_block(planned, 0) : NULL;
  if (!st && !x->whole_interp) x->whole_interp = !plannable(planned, body);
  if (!st && !x->whole_interp) {
    x->planned = planned;
    x->num_values = kiln_func_num_values(planned);
    int32_t ops = 0;
    for (const kiln_op *op = body->first; op; op = op->next)
      ops += 1 + kiln_cpu_window_extra(op) + kiln_cpu_conv_extra(op);
    x->num_slots = x->num_values;
    x->max_slots = x->num_values + ops; /* room for one added temporary per op */
    x->slots = kiln_arena_alloc_array(x->arena, (size_t)x->max_slots + 1, sizeof *x->slots);
    if (!x->slots) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (!st && !x->whole_interp) {
    for (int32_t i = 0; i < body->num_args; i++) x->slots[body->args[i].id].type = body->args[i].type;
    for (const kiln_op *op = body->first; op; op = op->next)
      for (int32_t i = 0; i < op->num_results; i++) x->slots[op->results[i].id].type = op->results[i].type;
    kiln_fusion fu;
    st = kiln_cpu_conv_fuse_bias(x, body); /* before fusion: the adds it takes are epilogues */
    if (!st) st = kiln_fusion_run(body, classify, x, &fu);
    if (!st) {
      st = schedule(x, body, &fu);
      kiln_fusion_free(&fu);
    }
    kiln_cpu_conv_fuse_bias_release(x);
    if (!st) kiln_cpu_find_row_runs(x);
    if (!st) kiln_cpu_plan_in_place(x);
    if (!st) kiln_cpu_plan_block_locals(x);
    if (!st) st = plan(x);
    if (!st) st = kiln_cpu_plan_reuse(x);
    if (!st) st = generate(x);
    if (!st && !kiln_cpu_index_slots(x)) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  const char *profile = getenv("KILN_CPU_PROFILE"); /* also for a function run whole: the profile says so */
  if (!st && profile && *profile == '1' && !(x->step_ns = calloc((size_t)x->num_steps + 1, sizeof *x->step_ns)))
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st && tier != TIER_BASELINE && !(family && family->mode == KILN_CPU_FAMILY_COLLECT)) kiln_cpu_warm_up(x);
  if (st) {
    kiln_cpu_executable_destroy(x);
    return st;
  }
  *out = x;
  return NULL;
}
