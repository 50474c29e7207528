/* Loop nests of the cpu backend's kernels (see loop.h): dims collapsed, a row loop over
 * a flat range of output points, the innermost dim vectorised with a scalar tail; for
 * reductions, a second nest over the reduced dims per output point, folding into a
 * vector and a scalar accumulator that are combined at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/loopgen.h"

enum { UNROLL = 4 }; /* vector accumulators of a reduction */

typedef struct nest {
  kiln_cpu_gen *g;
  const kiln_cpu_loop *L;
  kiln_cpu_node **nodes;  /* by id */
  LLVMValueRef *inputs;   /* i8* per input buffer */
  LLVMValueRef out;
  LLVMValueRef *offset;   /* per LOAD/IOTA node: element offset at the current row's start */
  LLVMValueRef *memo;     /* per node: its value in the body being emitted */
  int32_t inner;          /* the vectorised dim */
  LLVMValueRef entry_end; /* where allocas go */
  LLVMBasicBlockRef entry;
  LLVMValueRef *slot_val; /* parametric code (loop.h): the numbers read at entry, by slot */
  LLVMValueRef *hoisted;  /* per node: its one value for the whole call (hoist_invariants), or NULL */
  /* A row block of a short last dim (emit_short_rows): its length (0 outside one), the
   * column being computed, and per LOAD node laid out as the output (rows of block_d
   * elements) the block's elements, loaded once for all its columns (or NULL) */
  int64_t block_d, block_col;
  LLVMValueRef *wide;
  /* A loop of fewer points than lanes (tiny_lanes): each lane's own position along the
   * inner dim (a vector of i64), NULL otherwise. */
  LLVMValueRef lanes;
} nest;

typedef struct loop_var {
  LLVMValueRef var, i;
  LLVMBasicBlockRef head, exit;
} loop_var;

static LLVMValueRef i64c(nest *n, int64_t v) { return LLVMConstInt(n->g->i64, (uint64_t)v, 1); }

/* Whether field f of the loop is read at run time (loop.h: parametric code). */
static bool param(const nest *n, int32_t f) { return kiln_cpu_loop_field_read(n->L, f); }
/* Field f, whose value here is v: the constant, or the number read at run time. */
static LLVMValueRef num(nest *n, int32_t f, int64_t v) { return param(n, f) ? n->slot_val[n->L->slots[f]] : i64c(n, v); }
static LLVMValueRef dim(nest *n, int32_t d) { return num(n, KILN_CPU_FIELD_DIM(d), n->L->dims[d]); }
/* The product of dims [from, to). */
static LLVMValueRef dims_product(nest *n, int32_t from, int32_t to) {
  LLVMValueRef p = i64c(n, 1);
  for (int32_t d = from; d < to; d++) p = LLVMBuildMul(n->g->b, p, dim(n, d), "");
  return p;
}

static LLVMValueRef new_var(nest *n, LLVMTypeRef t) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(n->g->c);
  LLVMValueRef first = LLVMGetFirstInstruction(n->entry);
  if (first) LLVMPositionBuilderBefore(b, first);
  else LLVMPositionBuilderAtEnd(b, n->entry);
  LLVMValueRef v = LLVMBuildAlloca(b, t, "");
  LLVMDisposeBuilder(b);
  return v;
}

/* for (i = lo; i < hi; i += step) { ...; loop_close } */
static void loop_open(nest *n, loop_var *l, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMBuilderRef b = n->g->b;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
  l->var = new_var(n, n->g->i64);
  LLVMBuildStore(b, lo, l->var);
  l->head = LLVMAppendBasicBlockInContext(n->g->c, fn, "head");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(n->g->c, fn, "body");
  l->exit = LLVMAppendBasicBlockInContext(n->g->c, fn, "exit");
  LLVMBuildBr(b, l->head);
  LLVMPositionBuilderAtEnd(b, l->head);
  l->i = LLVMBuildLoad2(b, n->g->i64, l->var, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, l->i, hi, ""), body, l->exit);
  LLVMPositionBuilderAtEnd(b, body);
}

static void loop_close(nest *n, loop_var *l, LLVMValueRef step) {
  LLVMBuilderRef b = n->g->b;
  LLVMBuildStore(b, LLVMBuildAdd(b, l->i, step, ""), l->var);
  LLVMBuildBr(b, l->head);
  LLVMPositionBuilderAtEnd(b, l->exit);
}

/* Adds, for every LOAD/IOTA node, the offset of the multi-index that `flat` is over dims
 * [from, to) (row-major) to base[node]. */
static void add_offsets(nest *n, LLVMValueRef *base, int32_t from, int32_t to, LLVMValueRef flat) {
  LLVMBuilderRef b = n->g->b;
  LLVMValueRef rest = flat;
  for (int32_t d = to - 1; d >= from; d--) {
    if (n->L->dims[d] == 1 && !param(n, KILN_CPU_FIELD_DIM(d))) continue;
    LLVMValueRef idx = d == from ? rest : LLVMBuildURem(b, rest, dim(n, d), "");
    if (d > from) rest = LLVMBuildUDiv(b, rest, dim(n, d), "");
    for (int32_t k = 0; k < n->L->num_nodes; k++) {
      const kiln_cpu_node *x = n->nodes[k];
      if (!kiln_cpu_node_affine(x)) continue;
      int32_t f = KILN_CPU_FIELD_STRIDE(k, d);
      if (!x->strides[d] && !param(n, f)) continue;
      base[k] = LLVMBuildAdd(b, base[k], LLVMBuildMul(b, idx, num(n, f, x->strides[d]), ""), "");
    }
  }
}

static void start_offsets(nest *n, LLVMValueRef *base) {
  for (int32_t k = 0; k < n->L->num_nodes; k++) {
    const kiln_cpu_node *x = n->nodes[k];
    base[k] = kiln_cpu_node_affine(x) ? num(n, KILN_CPU_FIELD_BASE(k), x->base) : NULL;
  }
}

/* A SCALAR node's value read at run time (its field's bits: loop.h), w lanes. */
static LLVMValueRef scalar_param(nest *n, const kiln_cpu_node *x, int w) {
  kiln_cpu_gen *g = n->g;
  LLVMValueRef bits = n->slot_val[n->L->slots[KILN_CPU_FIELD_VALUE(x->id)]], v;
  if (kiln_elem_is_float(x->elem)) v = kiln_cpu_convert(g, KILN_ELEM_F64, x->elem, LLVMBuildBitCast(g->b, bits, g->f64, ""));
  else v = kiln_cpu_convert(g, KILN_ELEM_SI64, x->elem, bits);
  return kiln_cpu_splat(g, v, w);
}

/* <0, s, 2s, ...>: lane i's offset from lane 0's along a dim of stride s, w lanes. */
static LLVMValueRef lane_steps(nest *n, int64_t s, int w) {
  LLVMValueRef lanes[64];
  for (int i = 0; i < w && i < 64; i++) lanes[i] = i64c(n, s * i);
  return LLVMConstVector(lanes, (unsigned)w);
}

/* off + (each lane's own position) * s, w lanes (tiny_lanes). */
static LLVMValueRef lane_offsets(nest *n, LLVMValueRef off, int64_t s, int w) {
  kiln_cpu_gen *g = n->g;
  return LLVMBuildAdd(g->b, kiln_cpu_splat(g, off, w), LLVMBuildMul(g->b, n->lanes, kiln_cpu_splat(g, i64c(n, s), w), ""), "");
}

/* Whether x is the same in every lane along the vectorised dim (it reads nothing along it
 * and is no fold argument), looking at *budget nodes at most (false past that). */
static bool uniform(const nest *n, const kiln_cpu_node *x, int *budget) {
  if (--*budget < 0 || x->kind == KILN_CPU_NODE_ARG) return false;
  if (kiln_cpu_node_affine(x) && (x->strides[n->inner] || param(n, KILN_CPU_FIELD_STRIDE(x->id, n->inner)))) return false;
  for (int32_t k = 0; k < x->num_args; k++)
    if (!uniform(n, x->args[k], budget)) return false;
  return true;
}

/* Whether a GATHER node's indices are uniform: then its w lanes read memory as a LOAD's
 * would (a dynamic_slice's box row: one vector load). */
static bool gather_uniform(const nest *n, const kiln_cpu_node *x) {
  int budget = 256;
  for (int32_t k = 0; k < x->num_args; k++)
    if (!uniform(n, x->args[k], &budget)) return false;
  return true;
}

static LLVMValueRef value(nest *n, const kiln_cpu_node *x, LLVMValueRef pos, int w) {
  if (n->memo[x->id]) return n->memo[x->id];
  kiln_cpu_gen *g = n->g;
  if (n->hoisted && n->hoisted[x->id])
    return n->memo[x->id] = w > 1 ? kiln_cpu_splat(g, n->hoisted[x->id], w) : n->hoisted[x->id];
  LLVMValueRef v = NULL;
  int32_t fs = KILN_CPU_FIELD_STRIDE(x->id, n->inner);
  bool inner_param = kiln_cpu_node_affine(x) && param(n, fs);
  if (inner_param && w > 1) return NULL; /* a vector along a dim needs its stride as a constant */
  switch (x->kind) {
    case KILN_CPU_NODE_LOAD: {
      int64_t s = x->strides[n->inner];
      LLVMValueRef off = n->offset[x->id];
      if (w > 1 && n->block_d && s == n->block_d && x->strides[n->inner + 1] == 1) { /* a column of the block */
        if (!n->wide[x->id]) {
          off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, pos, i64c(n, s), ""), "");
          off = LLVMBuildSub(g->b, off, i64c(n, n->block_col), "");
          n->wide[x->id] = kiln_cpu_load(g, n->inputs[x->input], x->elem, off, 1, w * (int)n->block_d);
        }
        LLVMValueRef lanes[64];
        for (int i = 0; i < w; i++) lanes[i] = LLVMConstInt(g->i32, (uint64_t)(n->block_col + i * n->block_d), 0);
        v = LLVMBuildShuffleVector(g->b, n->wide[x->id], LLVMGetUndef(LLVMTypeOf(n->wide[x->id])),
                                   LLVMConstVector(lanes, (unsigned)w), "");
        break;
      }
      if (w > 1 && n->lanes && s) { /* each lane at its own position */
        v = kiln_cpu_load_at(g, n->inputs[x->input], x->elem, lane_offsets(n, off, s, w));
        break;
      }
      if (s || inner_param) off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, pos, num(n, fs, s), ""), "");
      v = kiln_cpu_load(g, n->inputs[x->input], x->elem, off, s, w);
      break;
    }
    case KILN_CPU_NODE_IOTA: {
      int64_t s = x->strides[n->inner];
      LLVMValueRef off = n->offset[x->id], idx;
      if (w > 1 && n->lanes) {
        idx = lane_offsets(n, off, s, w);
      } else {
        if (s || inner_param) off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, pos, num(n, fs, s), ""), "");
        idx = w > 1 ? LLVMBuildAdd(g->b, kiln_cpu_splat(g, off, w), lane_steps(n, s, w), "") : off;
      }
      v = kiln_cpu_convert(g, KILN_ELEM_SI64, x->elem, idx);
      break;
    }
    case KILN_CPU_NODE_GATHER: {
      int64_t s = x->strides[n->inner];
      LLVMValueRef off = n->offset[x->id];
      bool own = w > 1 && n->lanes != NULL; /* each lane at its own position */
      if ((s || inner_param) && !own) off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, pos, num(n, fs, s), ""), "");
      bool same = w == 1 || (!own && gather_uniform(n, x));
      int ow = same ? 1 : w; /* the offsets' lanes */
      if (own) off = lane_offsets(n, off, s, w);
      else if (!same) off = LLVMBuildAdd(g->b, kiln_cpu_splat(g, off, w), lane_steps(n, s, w), "");
      for (int32_t k = 0; k < x->num_args; k++) {
        LLVMValueRef at = value(n, x->args[k], pos, w);
        if (!at) return NULL;
        if (w > 1 && same) at = LLVMBuildExtractElement(g->b, at, LLVMConstInt(g->i32, 0, 0), "");
        at = kiln_cpu_clamped_index(g, x->args[k]->elem, at, x->index_limits[k]);
        off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, at, kiln_cpu_splat(g, i64c(n, x->index_strides[k]), ow), ""), "");
      }
      v = same ? kiln_cpu_load(g, n->inputs[x->input], x->elem, off, s, w) : kiln_cpu_load_at(g, n->inputs[x->input], x->elem, off);
      break;
    }
    case KILN_CPU_NODE_SCALAR:
      v = param(n, KILN_CPU_FIELD_VALUE(x->id)) ? scalar_param(n, x, w) : kiln_cpu_const(g, x->elem, x->value, w);
      break;
    case KILN_CPU_NODE_ARG: return NULL; /* a fold sets its arguments' values before use */
    case KILN_CPU_NODE_OP: {
      LLVMValueRef args[8];
      kiln_elem elems[8];
      for (int32_t i = 0; i < x->num_args && i < 8; i++) {
        args[i] = value(n, x->args[i], pos, w);
        elems[i] = x->args[i]->elem;
        if (!args[i]) return NULL;
      }
      v = kiln_cpu_emit_op(g, x->op_kind, x->op, x->elem, elems, args);
      break;
    }
  }
  n->memo[x->id] = v;
  return v;
}

static void forget(nest *n) { memset(n->memo, 0, sizeof *n->memo * (size_t)n->L->num_nodes); }

bool kiln_cpu_node_invariant(const kiln_cpu_loop *L, const kiln_cpu_node *x, unsigned char *state) {
  if (state[x->id]) return state[x->id] == 1;
  bool inv = !kiln_elem_is_complex(x->elem);
  switch (x->kind) {
    case KILN_CPU_NODE_SCALAR: break;
    case KILN_CPU_NODE_LOAD:
      for (int32_t d = 0; inv && d < L->rank; d++)
        inv = !x->strides[d] && !kiln_cpu_loop_field_read(L, KILN_CPU_FIELD_STRIDE(x->id, d));
      inv = inv && !kiln_cpu_loop_field_read(L, KILN_CPU_FIELD_BASE(x->id));
      break;
    case KILN_CPU_NODE_OP:
      for (int32_t i = 0; inv && i < x->num_args; i++) inv = kiln_cpu_node_invariant(L, x->args[i], state);
      break;
    default: inv = false; break; /* an iota varies; a fold's arguments and gathers are left alone */
  }
  state[x->id] = inv ? 1 : 2;
  return inv;
}

/* Computes, once per call before any loop, every op whose value is the same at every point
 * (a scalar's sine broadcast over a tensor: fused, it would be recomputed per element; LLVM
 * does not hoist a math kernel whose rare-lane branches sit inside the loop). false when out
 * of memory. */
static bool hoist_invariants(nest *n) {
  const kiln_cpu_loop *L = n->L;
  unsigned char *state = calloc((size_t)L->num_nodes + 1, 1);
  n->hoisted = calloc((size_t)L->num_nodes + 1, sizeof *n->hoisted);
  if (!state || !n->hoisted) {
    free(state);
    return false;
  }
  start_offsets(n, n->offset);
  LLVMValueRef *hoisted = n->hoisted;
  n->hoisted = NULL; /* computed plainly first */
  for (int32_t k = 0; k < L->num_nodes; k++) {
    const kiln_cpu_node *x = n->nodes[k];
    if (x && x->kind == KILN_CPU_NODE_OP && kiln_cpu_node_invariant(L, x, state)) hoisted[k] = value(n, x, i64c(n, 0), 1);
  }
  n->hoisted = hoisted;
  forget(n);
  free(state);
  return true;
}

/* The root at the current row offsets, w lanes from inner index pos. */
static LLVMValueRef root_at(nest *n, LLVMValueRef pos, int w) {
  forget(n);
  return value(n, n->L->root, pos, w);
}

/* Bytes of one lane of e in computation (complex numbers: one f64 part, in a vector of
 * its own). */
static size_t lane_bytes(kiln_elem e) { return kiln_elem_is_complex(e) ? 8 : kiln_elem_storage_bytes(e); }

static int lanes_for(const kiln_cpu_gen *g, const kiln_cpu_loop *L) {
  /* the widest element in the tree decides: one register of it */
  size_t widest = lane_bytes(L->out_elem);
  if (L->root->elem == KILN_ELEM_F64 || L->root->elem == KILN_ELEM_SI64 || L->root->elem == KILN_ELEM_UI64 ||
      kiln_elem_is_complex(L->root->elem))
    widest = 8;
  if (widest < 4) widest = 4;
  return (int)((size_t)g->vector_bytes / widest);
}

/* ---------------------------------------------------------------- elementwise kernels */

/* Output points [begin, end), a row segment per trip: the points of one row (of `last`
 * points) from col on, cnt of them, the first at flat point f of row `row`. */
typedef struct row_segments {
  LLVMValueRef fvar, f, row, col, cnt;
  LLVMBasicBlockRef head, done;
} row_segments;

static void rows_open(nest *n, row_segments *s, LLVMValueRef begin, LLVMValueRef end, LLVMValueRef last) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  s->fvar = new_var(n, g->i64);
  LLVMBuildStore(b, begin, s->fvar);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
  LLVMBasicBlockRef body;
  s->head = LLVMAppendBasicBlockInContext(g->c, fn, "rows");
  body = LLVMAppendBasicBlockInContext(g->c, fn, "row");
  s->done = LLVMAppendBasicBlockInContext(g->c, fn, "done");
  LLVMBuildBr(b, s->head);
  LLVMPositionBuilderAtEnd(b, s->head);
  s->f = LLVMBuildLoad2(b, g->i64, s->fvar, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, s->f, end, ""), body, s->done);
  LLVMPositionBuilderAtEnd(b, body);
  s->col = LLVMBuildURem(b, s->f, last, "");
  s->row = LLVMBuildUDiv(b, s->f, last, "");
  LLVMValueRef left = LLVMBuildSub(b, end, s->f, ""), rowleft = LLVMBuildSub(b, last, s->col, "");
  s->cnt = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, left, rowleft, ""), left, rowleft, "");
}

static void rows_close(nest *n, row_segments *s) {
  LLVMBuilderRef b = n->g->b;
  LLVMBuildStore(b, LLVMBuildAdd(b, s->f, s->cnt, ""), s->fvar);
  LLVMBuildBr(b, s->head);
  LLVMPositionBuilderAtEnd(b, s->done);
}

/* The first point of a segment's scalar tail: cnt less cnt mod w. */
static LLVMValueRef vector_part(nest *n, const row_segments *s, int w) {
  return LLVMBuildSub(n->g->b, s->cnt, LLVMBuildSRem(n->g->b, s->cnt, i64c(n, w), ""), "");
}

/* The lanes of an elementwise loop of fewer points than w lanes (0 for any other loop):
 * its points rounded up to a power of two. Each row segment of such a loop runs as one
 * vector of them, lane i at point min(i, the segment's last), where a scalar remainder
 * would run its points one by one (a small ODE state of 3 values: each point's math in
 * scalar code, and a stack's select chain computing every piece at each point). Constant
 * numbers, no complex values, not quick code. */
static int tiny_lanes(const nest *n, int w) {
  const kiln_cpu_loop *L = n->L;
  int64_t points = 1;
  for (int32_t d = 0; d < L->rank; d++) points *= L->dims[d];
  if (n->g->quick || L->slots || points < 2 || points >= w || kiln_elem_is_complex(L->out_elem)) return 0;
  for (int32_t k = 0; k < L->num_nodes; k++)
    if (n->nodes[k] && kiln_elem_is_complex(n->nodes[k]->elem)) return 0;
  int t = 2;
  while (t < points) t *= 2;
  return t;
}

/* A row segment of a tiny loop (tiny_lanes): its points as one vector of w lanes, lanes past
 * the segment's end repeating its last point, the first cnt lanes stored. */
static bool emit_tiny_segment(nest *n, const row_segments *seg, int w) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  LLVMValueRef last = kiln_cpu_splat(g, LLVMBuildAdd(b, seg->col, LLVMBuildSub(b, seg->cnt, i64c(n, 1), ""), ""), w);
  LLVMValueRef pos = LLVMBuildAdd(b, kiln_cpu_splat(g, seg->col, w), lane_steps(n, 1, w), "");
  n->lanes = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, pos, last, ""), pos, last, "");
  LLVMValueRef v = root_at(n, seg->col, w);
  n->lanes = NULL;
  if (!v) return false;
  loop_var j;
  loop_open(n, &j, i64c(n, 0), seg->cnt);
  kiln_cpu_store(g, n->out, n->L->out_elem, LLVMBuildAdd(b, seg->f, j.i, ""),
                 LLVMBuildExtractElement(b, v, LLVMBuildTrunc(b, j.i, g->i32, ""), ""));
  loop_close(n, &j, i64c(n, 1));
  return true;
}

static bool emit_elementwise(nest *n, LLVMValueRef begin, LLVMValueRef end) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t r = L->rank;
  int w = lanes_for(n->g, L);
  n->inner = r ? r - 1 : 0;
  row_segments seg;
  rows_open(n, &seg, begin, end, r ? dim(n, r - 1) : i64c(n, 1));
  start_offsets(n, n->offset);
  add_offsets(n, n->offset, 0, r ? r - 1 : 0, seg.row);
  int tiny = tiny_lanes(n, w);
  if (tiny) {
    if (!emit_tiny_segment(n, &seg, tiny)) return false;
    rows_close(n, &seg);
    return true;
  }
  LLVMValueRef nvec = vector_part(n, &seg, w);
  for (int pass = 0; pass < 2; pass++) { /* w lanes over the vector part, then 1 over the tail */
    int lanes = pass == 0 ? w : 1;
    loop_var j;
    loop_open(n, &j, pass == 0 ? i64c(n, 0) : nvec, pass == 0 ? nvec : seg.cnt);
    LLVMValueRef v = root_at(n, LLVMBuildAdd(b, seg.col, j.i, ""), lanes);
    if (!v) return false;
    kiln_cpu_store(g, n->out, L->out_elem, LLVMBuildAdd(b, seg.f, j.i, ""), v);
    loop_close(n, &j, i64c(n, lanes));
  }
  rows_close(n, &seg);
  return true;
}

/* Whether an elementwise loop runs as row blocks (emit_short_rows): a last dim of 2 to
 * w - 1 points (x, y, z coordinates; a row of a few powers) after a dim of at least w,
 * whose reads vectorise no better along the last dim (a collapsed loop has no such dims
 * unless some read is not contiguous), numbers constant, no complex values; not in quick
 * code: a block's loads and interleaved stores are vectors of w * d lanes, which LLVM's
 * quick instruction selection takes 10-12 ms to compile per loop (mlp_large's softmax
 * over rows of 10: three loops, 36 of its 48 ms of code generation; 2026-12-07). */
static bool short_rows(const nest *n, int w) {
  const kiln_cpu_loop *L = n->L;
  int32_t r = L->rank;
  if (n->g->quick || L->slots || r < 2 || L->dims[r - 1] < 2 || L->dims[r - 1] >= w || L->dims[r - 2] < w ||
      kiln_elem_is_complex(L->out_elem))
    return false;
  for (int32_t k = 0; k < L->num_nodes; k++)
    if (n->nodes[k] && (kiln_elem_is_complex(n->nodes[k]->elem) || n->nodes[k]->kind == KILN_CPU_NODE_ARG)) return false;
  return true;
}

/* Point p (from the plane's start) of a plane whose offsets are plane[], alone, stored at
 * flat point `at`. */
static bool emit_plane_point(nest *n, const LLVMValueRef *plane, LLVMValueRef p, LLVMValueRef at) {
  LLVMBuilderRef b = n->g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t r = L->rank;
  LLVMValueRef d = i64c(n, L->dims[r - 1]), row = LLVMBuildUDiv(b, p, d, "");
  for (int32_t k = 0; k < L->num_nodes; k++) {
    const kiln_cpu_node *x = n->nodes[k];
    n->offset[k] = plane[k];
    if (kiln_cpu_node_affine(x) && x->strides[r - 2])
      n->offset[k] = LLVMBuildAdd(b, plane[k], LLVMBuildMul(b, row, i64c(n, x->strides[r - 2]), ""), "");
  }
  n->inner = r - 1;
  LLVMValueRef v = root_at(n, LLVMBuildURem(b, p, d, ""), 1);
  if (v) kiln_cpu_store(n->g, n->out, L->out_elem, at, v);
  return v != NULL;
}

/* Scalar points [from, to) of a plane (a row segment of emit_short_rows). */
static bool emit_plane_points(nest *n, const LLVMValueRef *plane, const row_segments *seg, LLVMValueRef from,
                              LLVMValueRef to) {
  loop_var p;
  loop_open(n, &p, from, to);
  bool ok = emit_plane_point(n, plane, p.i, LLVMBuildAdd(n->g->b, seg->f, LLVMBuildSub(n->g->b, p.i, seg->col, ""), ""));
  loop_close(n, &p, i64c(n, 1));
  return ok;
}

/* w vectors' lanes interleaved: lane l of vs[c] at c + l * d (d vectors of w lanes). */
static LLVMValueRef interleave(kiln_cpu_gen *g, LLVMValueRef *vs, int d, int w) {
  int m = 1;
  while (m < d) m *= 2;
  LLVMValueRef pad = LLVMGetUndef(LLVMTypeOf(vs[0])), level[64], idx[1024];
  for (int c = 0; c < m; c++) level[c] = c < d ? vs[c] : pad;
  for (int width = w; m > 1; m /= 2, width *= 2) /* concatenate pairs until one vector */
    for (int c = 0; c < m / 2; c++) {
      for (int i = 0; i < 2 * width; i++) idx[i] = LLVMConstInt(g->i32, (uint64_t)i, 0);
      level[c] = LLVMBuildShuffleVector(g->b, level[2 * c], level[2 * c + 1], LLVMConstVector(idx, (unsigned)(2 * width)), "");
    }
  for (int t = 0; t < d * w; t++) idx[t] = LLVMConstInt(g->i32, (uint64_t)((t % d) * w + t / d), 0);
  return LLVMBuildShuffleVector(g->b, level[0], LLVMGetUndef(LLVMTypeOf(level[0])), LLVMConstVector(idx, (unsigned)(d * w)), "");
}

/* An elementwise loop of short rows (short_rows), vectorised along the dim before the
 * last: each trip computes w rows as d vectors, one per column, and stores them
 * interleaved (w * d consecutive points); a read laid out as the output is one load of
 * those points, split into columns. Points before a segment's first whole row block and
 * after its last run alone. */
static bool emit_short_rows(nest *n, LLVMValueRef begin, LLVMValueRef end, int w) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t r = L->rank;
  int64_t d = L->dims[r - 1];
  size_t nn = (size_t)L->num_nodes + 1;
  LLVMValueRef *plane = calloc(nn, sizeof *plane), vs[64];
  n->wide = calloc(nn, sizeof *n->wide);
  bool ok = plane && n->wide;
  row_segments seg;
  if (ok) rows_open(n, &seg, begin, end, i64c(n, L->dims[r - 2] * d));
  if (ok) {
    start_offsets(n, plane);
    add_offsets(n, plane, 0, r - 2, seg.row);
    LLVMValueRef dc = i64c(n, d), hi = LLVMBuildAdd(b, seg.col, seg.cnt, "");
    LLVMValueRef up = LLVMBuildMul(b, LLVMBuildUDiv(b, LLVMBuildAdd(b, seg.col, i64c(n, d - 1), ""), dc, ""), dc, "");
    LLVMValueRef a = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, up, hi, ""), up, hi, ""); /* the first block's */
    LLVMValueRef first = LLVMBuildUDiv(b, a, dc, "");
    LLVMValueRef blocks = LLVMBuildUDiv(b, LLVMBuildSub(b, LLVMBuildUDiv(b, hi, dc, ""), first, ""), i64c(n, w), "");
    LLVMValueRef last = LLVMBuildAdd(b, first, LLVMBuildMul(b, blocks, i64c(n, w), ""), "");
    ok = emit_plane_points(n, plane, &seg, seg.col, a);
    loop_var j;
    if (ok) loop_open(n, &j, first, last);
    for (int64_t c = 0; ok && c < d; c++) {
      if (c == 0) memset(n->wide, 0, nn * sizeof *n->wide);
      for (int32_t k = 0; k < L->num_nodes; k++) {
        const kiln_cpu_node *x = n->nodes[k];
        n->offset[k] = plane[k];
        if (kiln_cpu_node_affine(x) && x->strides[r - 1])
          n->offset[k] = LLVMBuildAdd(b, plane[k], i64c(n, c * x->strides[r - 1]), "");
      }
      n->inner = r - 2;
      n->block_d = d;
      n->block_col = c;
      ok = (vs[c] = root_at(n, j.i, w)) != NULL;
      n->block_d = 0;
    }
    if (ok) {
      LLVMValueRef at = LLVMBuildAdd(b, seg.f, LLVMBuildSub(b, LLVMBuildMul(b, j.i, dc, ""), seg.col, ""), "");
      kiln_cpu_store(g, n->out, L->out_elem, at, interleave(g, vs, (int)d, w));
      loop_close(n, &j, i64c(n, w));
      ok = emit_plane_points(n, plane, &seg, LLVMBuildMul(b, last, dc, ""), hi);
    }
    if (ok) rows_close(n, &seg);
  }
  free(plane);
  free(n->wide);
  n->wide = NULL;
  return ok;
}

/* ---------------------------------------------------------------- reductions */

/* Folds two accumulators (the root's element type). */
static LLVMValueRef combine(nest *n, LLVMValueRef a, LLVMValueRef b2) {
  kiln_elem acc = n->L->root->elem;
  kiln_elem e[2] = {acc, acc};
  LLVMValueRef args[2] = {a, b2};
  return kiln_cpu_emit_op(n->g, n->L->combiner, NULL, acc, e, args);
}

kiln_scalar kiln_cpu_combiner_identity(kiln_op_kind combiner, kiln_elem e) {
  if (kiln_elem_is_complex(e)) /* only ADD folds complex numbers (compile.c): -0 - 0i */
    return (kiln_scalar){.f = -0.0, .im = -0.0};
  bool f = kiln_elem_is_float(e), u = kiln_elem_class_of(e) == KILN_ELEM_CLASS_U || e == KILN_ELEM_I1;
  int bits = kiln_elem_bits(e);
  uint64_t ones = bits >= 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  kiln_scalar v = {.u = 0};
  switch (combiner) {
    case KILN_OP_ADD: if (f) v.f = -0.0; break;
    case KILN_OP_MULTIPLY: if (f) v.f = 1.0; else v.u = 1; break;
    case KILN_OP_MAXIMUM: if (f) v.f = -1.0 / 0.0; else if (!u) v.u = (uint64_t)1 << (bits - 1); break;
    case KILN_OP_MINIMUM: if (f) v.f = 1.0 / 0.0; else v.u = u ? ones : ones >> 1; break;
    case KILN_OP_AND: v.u = ones; break;
    default: break;
  }
  return v;
}

static LLVMValueRef identity(nest *n, int w) {
  kiln_elem e = n->L->root->elem;
  return kiln_cpu_const(n->g, e, kiln_cpu_combiner_identity(n->L->combiner, e), w);
}

/* Lanes [from, from + h) of v, a vector or a complex value's vectors (h = 1: scalars). */
static LLVMValueRef half_of(kiln_cpu_gen *g, LLVMValueRef v, int from, int h) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMStructTypeKind) {
    LLVMValueRef r = LLVMGetUndef(kiln_cpu_complex_type(g, h));
    for (unsigned k = 0; k < 2; k++) r = LLVMBuildInsertValue(g->b, r, half_of(g, LLVMBuildExtractValue(g->b, v, k, ""), from, h), k, "");
    return r;
  }
  if (h == 1) return LLVMBuildExtractElement(g->b, v, LLVMConstInt(g->i32, (uint64_t)from, 0), "");
  LLVMValueRef idx[32];
  for (int i = 0; i < h; i++) idx[i] = LLVMConstInt(g->i32, (uint64_t)(from + i), 0);
  return LLVMBuildShuffleVector(g->b, v, v, LLVMConstVector(idx, (unsigned)h), "");
}

static LLVMValueRef horizontal(nest *n, LLVMValueRef v) {
  for (int w = kiln_cpu_width(v); w > 1; w /= 2) v = combine(n, half_of(n->g, v, 0, w / 2), half_of(n->g, v, w / 2, w / 2));
  return v;
}

static bool emit_reduce(nest *n, LLVMValueRef begin, LLVMValueRef end) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims, r = L->rank;
  LLVMValueRef last = dim(n, r - 1), rows = dims_product(n, ro, r - 1);
  int w = lanes_for(n->g, L);
  /* a fold shorter than a vector (a batch of 3x3 products): one lane, unrolled, no vector
   * set-up; one row of it (every outer folded dim 1): no row loop */
  bool scalar = !param(n, KILN_CPU_FIELD_DIM(r - 1)) && L->dims[r - 1] < w, one_row = true;
  for (int32_t d = ro; d < r - 1; d++) one_row = one_row && L->dims[d] == 1 && !param(n, KILN_CPU_FIELD_DIM(d));
  n->inner = r - 1;
  LLVMValueRef *point = calloc(2 * ((size_t)L->num_nodes + 1), sizeof *point);
  if (!point) return false;
  LLVMValueRef *row = point + L->num_nodes + 1;
  kiln_elem acc = L->root->elem;
  LLVMTypeRef vt = kiln_cpu_compute_type(g, acc, w), st = kiln_cpu_compute_type(g, acc, 1);
  /* UNROLL vector accumulators: one would wait on the add's latency every step */
  LLVMValueRef vacc[UNROLL], sacc = new_var(n, st);
  for (int u = 0; u < UNROLL && !scalar; u++) vacc[u] = new_var(n, vt);
  /* the points a row of the last kept dim at a time: its offsets found once (a point's own
   * division into its indices cost as much as a 3-long fold) */
  row_segments seg = {.f = begin, .col = i64c(n, 0)};
  if (ro > 0) rows_open(n, &seg, begin, end, dim(n, ro - 1));
  start_offsets(n, row);
  if (ro > 0) add_offsets(n, row, 0, ro - 1, seg.row);
  loop_var pts;
  loop_open(n, &pts, i64c(n, 0), ro > 0 ? seg.cnt : LLVMBuildSub(b, end, begin, ""));
  memcpy(point, row, sizeof *point * (size_t)L->num_nodes);
  if (ro > 0) add_offsets(n, point, ro - 1, ro, LLVMBuildAdd(b, seg.col, pts.i, ""));
  for (int u = 0; u < UNROLL && !scalar; u++) LLVMBuildStore(b, identity(n, w), vacc[u]);
  LLVMBuildStore(b, identity(n, 1), sacc);
  loop_var rr = {.i = i64c(n, 0)};
  if (!one_row) loop_open(n, &rr, i64c(n, 0), rows);
  memcpy(n->offset, point, sizeof *point * (size_t)L->num_nodes);
  add_offsets(n, n->offset, ro, r - 1, rr.i);
  LLVMValueRef nvec = i64c(n, 0), v;
  if (!scalar) {
    LLVMValueRef nwide = LLVMBuildSub(b, last, LLVMBuildSRem(b, last, i64c(n, UNROLL * w), ""), "");
    nvec = LLVMBuildSub(b, last, LLVMBuildSRem(b, last, i64c(n, w), ""), "");
    loop_var vu;
    loop_open(n, &vu, i64c(n, 0), nwide);
    for (int u = 0; u < UNROLL; u++) {
      v = root_at(n, LLVMBuildAdd(b, vu.i, i64c(n, u * w), ""), w);
      if (!v) return free(point), false;
      LLVMBuildStore(b, combine(n, LLVMBuildLoad2(b, vt, vacc[u], ""), v), vacc[u]);
    }
    loop_close(n, &vu, i64c(n, UNROLL * w));
    loop_var vj;
    loop_open(n, &vj, nwide, nvec);
    v = root_at(n, vj.i, w);
    if (!v) return free(point), false;
    LLVMBuildStore(b, combine(n, LLVMBuildLoad2(b, vt, vacc[0], ""), v), vacc[0]);
    loop_close(n, &vj, i64c(n, w));
  }
  for (int64_t j = 0; scalar && j < L->dims[r - 1]; j++) {
    if (!(v = root_at(n, i64c(n, j), 1))) return free(point), false;
    LLVMBuildStore(b, combine(n, LLVMBuildLoad2(b, st, sacc, ""), v), sacc);
  }
  if (!scalar) {
    loop_var sj;
    loop_open(n, &sj, nvec, last);
    if (!(v = root_at(n, sj.i, 1))) return free(point), false;
    LLVMBuildStore(b, combine(n, LLVMBuildLoad2(b, st, sacc, ""), v), sacc);
    loop_close(n, &sj, i64c(n, 1));
  }
  if (!one_row) loop_close(n, &rr, i64c(n, 1));
  /* init (read like a broadcast scalar) combined with the accumulators */
  forget(n);
  start_offsets(n, n->offset);
  LLVMValueRef init = value(n, L->init, i64c(n, 0), 1);
  LLVMValueRef total = LLVMBuildLoad2(b, st, sacc, "");
  if (!scalar) {
    LLVMValueRef lanes = LLVMBuildLoad2(b, vt, vacc[0], "");
    for (int u = 1; u < UNROLL; u++) lanes = combine(n, lanes, LLVMBuildLoad2(b, vt, vacc[u], ""));
    total = combine(n, horizontal(n, lanes), total);
  }
  LLVMValueRef result = combine(n, init, total);
  if (acc != L->out_elem) result = kiln_cpu_convert(g, acc, L->out_elem, result);
  kiln_cpu_store(g, n->out, L->out_elem, LLVMBuildAdd(b, seg.f, pts.i, ""), result);
  loop_close(n, &pts, i64c(n, 1));
  if (ro > 0) rows_close(n, &seg);
  free(point);
  return true;
}

/* Column reductions (a sum over the batch dim of [batch, features]; a vector-matrix
 * product, whose vector is the same in every lane): the folded dims step through memory
 * while the last kept dim is contiguous, so the vector runs across results instead: each
 * lane accumulates one result, over the folded indices in order. A read that runs along
 * the folded dim and differs between lanes makes it a row reduction, and so does one that
 * runs along it the same in every lane (the vector of a vector-matrix product) when the
 * results' rows are narrower than a vector: their lanes would go one at a time. */
/* Whether no read's stride along dim d is read at run time (parametric code: loop.h), as
 * vectorising along d needs. */
static bool fixed_strides(const nest *n, int32_t d) {
  for (int32_t k = 0; k < n->L->num_nodes; k++) {
    const kiln_cpu_node *x = n->nodes[k];
    if (kiln_cpu_node_affine(x) && param(n, KILN_CPU_FIELD_STRIDE(k, d)))
      return false;
  }
  return true;
}

static bool column_reduction(const nest *n) {
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims, r = L->rank;
  if (ro < 1) return false;
  bool row_fixed = fixed_strides(n, r - 1), column_fixed = fixed_strides(n, ro - 1);
  if (row_fixed != column_fixed) return column_fixed; /* the form whose vectors parametric code can make */
  if (L->dims[ro - 1] < 2) return false;
  bool contiguous_out = false, invariant_along_fold = false;
  for (int32_t k = 0; k < L->num_nodes; k++) {
    const kiln_cpu_node *x = n->nodes[k];
    if (!x || x->kind != KILN_CPU_NODE_LOAD) continue;
    if (x->strides[r - 1] == 1) {
      if (x->strides[ro - 1] != 0) return false; /* some read runs along the folded dim */
      invariant_along_fold = true;
    }
    if (x->strides[ro - 1] == 1) contiguous_out = true;
  }
  return contiguous_out && (!invariant_along_fold || L->dims[ro - 1] >= lanes_for(n->g, L));
}

/* Rows a column reduction folds together (emit_column_block): a read that is the same in
 * every row (a product's weights, along the columns) then loads once for all of them (LLVM
 * merges the loads), where each row read it again (weights of 64 KB read from L2 once per
 * row of an [8,64] x [64,256] product). Whole rows only, of a constant multiple of UNROLL
 * vectors; 1 when no read is the same along the rows. Registers: R * UNROLL sums, UNROLL
 * weights and a broadcast: 4 rows in AVX-512's 32 registers, 2 in AVX2's 16. The loop's
 * rows (its points over the last dim's), at least one block of them, are known when the
 * code is made. */
static int block_rows(const nest *n, int w) {
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims;
  int rows = n->g->vector_bytes >= 64 ? 4 : 2;
  if (ro < 2 || param(n, KILN_CPU_FIELD_DIM(ro - 1)) || L->dims[ro - 1] % (UNROLL * w)) return 1;
  int64_t all = 1;
  for (int32_t d = 0; d < ro - 1; d++) {
    if (param(n, KILN_CPU_FIELD_DIM(d))) return 1;
    all *= L->dims[d];
  }
  if (all < rows) return 1;
  for (int32_t k = 0; k < L->num_nodes; k++) {
    const kiln_cpu_node *x = n->nodes[k];
    if (x && x->kind == KILN_CPU_NODE_LOAD && !param(n, KILN_CPU_FIELD_STRIDE(k, ro - 2)) && !x->strides[ro - 2] &&
        x->strides[ro - 1])
      return rows;
  }
  return 1;
}

/* The folded points of a band (emit_column_reduce), or 0 for no bands. A column
 * reduction's vectors of results each walk the whole fold: UNROLL vectors of one row of a
 * [K, N] operand, then the same of the next row, N elements on. Where the operand comes
 * from memory rather than a cache, each row's few lines are a new page to the hardware
 * prefetchers and the loop waits on every line: a [1,4096] x [4096,4096] f32 product (64
 * MB of weights) took 1.8-1.9 ms a run, against oneDNN's 1.57 and XLA:CPU's 1.54 (2-core
 * Xeon, AVX-512). In bands of BAND folded points, all the result vectors of a row segment
 * fold one band, then the next, from their partial sums kept in the output, so that each
 * band reads its rows' lines one after another: 1.35-1.39 ms. Every sum is folded in the
 * same order (the same bits). Bands of 64 against 16 and 128 (us, none / 16 / 64 / 128):
 * [1,1024] x [1024,1024] 67 / 108 / 67 / 68, [1,2048] x [2048,2048] 317 / 401 / 295 / 300,
 * [1,512] x [512,512] 6.8 / 7.0 / 6.7 / 6.8. The partial sums need the output's element
 * type to be the accumulator's (no complex numbers); a fold of at most 2 * BAND points
 * has no bands.
 * AMD's prefetchers want short bands instead: on Zen 4 (2 cores, AVX-512), a C model of
 * this loop read [1,4096] x [4096,4096] at 16-20 GB/s in bands of 64, in bands of 8 over
 * chunks of a page of each row (column_grain) at 44-50, the two threads' plain streaming
 * read reaching 37; through Kiln (ms, bands of 64 / 8): that product 3.5-4.0 / 1.5-1.6, a sum over axis 0 of
 * f32[8192,2048] 3.2 / 1.7, [1,2048] x [2048,2048] 0.33 / 0.13, mean and variance over
 * axis 0 of f32[4096,1024] 0.44 / 0.30, a sum over axis 0 of f32[256,2048] 0.021 /
 * 0.012; the same capped to AVX2 (4.3-4.7 / 1.7-2.5 ms for the first two). Where the fold
 * is in a core's L2, the short bands' partial sums cost more than they save ([1,512] x
 * [512,512] 7 / 14 us), hence AMD_BAND only from AMD_BAND_MIN_BYTES. (2026-12-07) */
enum { BAND = 64, AMD_BAND = 8, AMD_BAND_MIN_BYTES = 2 << 20 };
/* The points a reduction folds per result, or 0 when a folded dim is read at run time. */
static int64_t folded_points(const nest *n) {
  const kiln_cpu_loop *L = n->L;
  int64_t folded = 1;
  for (int32_t d = L->num_out_dims; d < L->rank; d++) {
    if (param(n, KILN_CPU_FIELD_DIM(d))) return 0;
    folded *= L->dims[d];
  }
  return folded;
}
/* The bytes of results times folded points (what the fold reads, at the results' width),
 * or 0 when a dim is read at run time. */
static double fold_bytes(const nest *n) {
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims;
  if (param(n, KILN_CPU_FIELD_DIM(ro - 1))) return 0;
  return (double)folded_points(n) * (double)L->dims[ro - 1] * (double)lane_bytes(L->out_elem);
}
static int64_t band_points(const nest *n) {
  const kiln_cpu_loop *L = n->L;
  if (L->root->elem != L->out_elem || kiln_elem_is_complex(L->out_elem)) return 0;
  int64_t band = n->g->amd && fold_bytes(n) >= AMD_BAND_MIN_BYTES ? AMD_BAND : BAND;
  return folded_points(n) > 2 * band ? band : 0;
}

/* The points a column reduction's chunks are multiples of: whole row blocks, else UNROLL
 * vectors (a vector-matrix product's columns shared out). One block is one chunk: [4,256] x
 * [256,256] f32 ran in 5.6 us on one thread as a block, 6.2 on two threads row by row
 * (Intel host with AVX-512). A fold in bands over more than WIDE_MIN_BYTES (past a core's
 * L2) gets chunks of up to WIDE_BYTES of each row, as many as the threads at least, so that
 * a band reads whole runs of lines: logsumexp over axis 0 of f32[8192,512] in chunks of 64
 * columns took 1.57 ms, in two of 256 1.20 (128: 1.54; 2-core Xeon, AVX-512). On AMD's
 * hosts a chunk is up to a page of each row (AMD_WIDE_BYTES), with its short bands
 * (band_points): in chunks of 4 / 2 / 1 KB, [1,4096] x [4096,4096] took 2.2-2.5 / 3.4-3.7 /
 * 3.6-3.8 ms, a sum over axis 0 of f32[8192,2048] 2.4-2.7 / 2.9-3.4 / 4.2-4.4, [1,2048] x
 * [2048,2048] 0.13 / 0.15-0.16 / 0.18-0.20 (Zen 4, one noisy moment: 1.5-1.6 ms for the
 * first at another). */
enum { WIDE_MIN_BYTES = 4 << 20, WIDE_BYTES = 1024, AMD_WIDE_BYTES = 4096 };
static int64_t column_grain(const nest *n, int w) {
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims;
  int rows = block_rows(n, w);
  int64_t unit = UNROLL * w, folded = band_points(n) ? folded_points(n) : 0, columns = L->dims[ro - 1];
  if (rows > 1) return rows * columns;
  size_t bytes = lane_bytes(L->out_elem);
  if (!folded || n->g->threads < 1 || param(n, KILN_CPU_FIELD_DIM(ro - 1)) || fold_bytes(n) < WIDE_MIN_BYTES)
    return unit;
  int64_t g = columns / n->g->threads, most = (n->g->amd ? AMD_WIDE_BYTES : WIDE_BYTES) / (int64_t)bytes;
  g = (g < most ? g : most) / unit * unit;
  return g > unit ? g : unit;
}

/* rows whole rows from the segment's first (its col 0): UNROLL vectors of each at a time,
 * every lane folding its result in order, as emit_column_reduce does row by row. */
static bool emit_column_block(nest *n, const row_segments *seg, int rows, int w, LLVMValueRef folded) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims, r = L->rank, nn = L->num_nodes;
  kiln_elem acc = L->root->elem;
  LLVMTypeRef vt = kiln_cpu_compute_type(g, acc, w);
  LLVMValueRef *off = calloc((size_t)rows * (size_t)(nn + 1), sizeof *off), accv[4][UNROLL];
  if (!off || rows > 4) return free(off), false;
  for (int q = 0; q < rows; q++) {
    start_offsets(n, off + q * (nn + 1));
    add_offsets(n, off + q * (nn + 1), 0, ro - 1, LLVMBuildAdd(b, seg->row, i64c(n, q), ""));
    for (int u = 0; u < UNROLL; u++) accv[q][u] = new_var(n, vt);
  }
  loop_var j;
  loop_open(n, &j, i64c(n, 0), dim(n, ro - 1));
  for (int q = 0; q < rows; q++)
    for (int u = 0; u < UNROLL; u++) LLVMBuildStore(b, identity(n, w), accv[q][u]);
  loop_var k;
  loop_open(n, &k, i64c(n, 0), folded);
  for (int q = 0; q < rows; q++) {
    memcpy(n->offset, off + q * (nn + 1), sizeof *off * (size_t)nn);
    add_offsets(n, n->offset, ro, r, k.i);
    for (int u = 0; u < UNROLL; u++) {
      LLVMValueRef v = root_at(n, LLVMBuildAdd(b, j.i, i64c(n, u * w), ""), w);
      if (!v) return free(off), false;
      LLVMBuildStore(b, combine(n, LLVMBuildLoad2(b, vt, accv[q][u], ""), v), accv[q][u]);
    }
  }
  loop_close(n, &k, i64c(n, 1));
  for (int q = 0; q < rows; q++)
    for (int u = 0; u < UNROLL; u++) {
      forget(n);
      start_offsets(n, n->offset);
      LLVMValueRef result = combine(n, value(n, L->init, i64c(n, 0), w), LLVMBuildLoad2(b, vt, accv[q][u], ""));
      if (acc != L->out_elem) result = kiln_cpu_convert(g, acc, L->out_elem, result);
      LLVMValueRef at = LLVMBuildAdd(b, seg->f, LLVMBuildAdd(b, j.i, i64c(n, q * L->dims[ro - 1] + u * w), ""), "");
      kiln_cpu_store(g, n->out, L->out_elem, at, result);
    }
  loop_close(n, &j, i64c(n, UNROLL * w));
  free(off);
  return true;
}

/* Per row segment: UNROLL vectors of results at once (independent accumulators, so the
 * folds do not wait on one another's latency), in bands of the fold where band_points
 * says so, then one vector, then one lane at a time; every lane folds its own result in
 * order. */
static bool emit_column_reduce(nest *n, LLVMValueRef begin, LLVMValueRef end) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims, r = L->rank;
  LLVMValueRef last = dim(n, ro - 1), folded = dims_product(n, ro, r);
  int w = lanes_for(n->g, L);
  n->inner = ro - 1;
  kiln_elem acc = L->root->elem;
  LLVMValueRef *row = calloc((size_t)L->num_nodes + 1, sizeof *row);
  if (!row) return false;
  row_segments seg;
  rows_open(n, &seg, begin, end, last);
  int rows = block_rows(n, w);
  if (rows > 1) { /* a segment that starts `rows` whole rows: emit_column_block */
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)), span = i64c(n, rows * L->dims[ro - 1]);
    LLVMBasicBlockRef block = LLVMAppendBasicBlockInContext(g->c, fn, "rowblock");
    LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(g->c, fn, "rowone");
    LLVMValueRef whole = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, seg.col, i64c(n, 0), ""),
                                      LLVMBuildICmp(b, LLVMIntSGE, LLVMBuildSub(b, end, seg.f, ""), span, ""), "");
    LLVMBuildCondBr(b, whole, block, one);
    LLVMPositionBuilderAtEnd(b, block);
    if (!emit_column_block(n, &seg, rows, w, folded)) return free(row), false;
    LLVMBuildStore(b, LLVMBuildAdd(b, seg.f, span, ""), seg.fvar);
    LLVMBuildBr(b, seg.head);
    LLVMPositionBuilderAtEnd(b, one);
  }
  start_offsets(n, row);
  add_offsets(n, row, 0, ro - 1, seg.row);
  LLVMValueRef nwide = vector_part(n, &seg, UNROLL * w), nvec = vector_part(n, &seg, w);
  int64_t band = band_points(n);
  /* pass 0: UNROLL vectors of w lanes over the wide part, 1: w lanes, 2: the scalar tail */
  for (int pass = 0; pass < 3; pass++) {
    int lanes = pass == 2 ? 1 : w, copies = pass == 0 ? UNROLL : 1;
    LLVMValueRef from = pass == 0 ? i64c(n, 0) : pass == 1 ? nwide : nvec, to = pass == 0 ? nwide : pass == 1 ? nvec : seg.cnt;
    LLVMTypeRef vt = kiln_cpu_compute_type(g, acc, lanes);
    LLVMValueRef accv[UNROLL], k0 = i64c(n, 0), k1 = folded, first = NULL, final = NULL;
    for (int u = 0; u < copies; u++) accv[u] = new_var(n, vt);
    loop_var kb;
    if (pass == 0 && band) { /* the band [k0, k1): the first starts from the identity, the last stores the results */
      loop_open(n, &kb, k0, folded);
      k0 = kb.i;
      LLVMValueRef next = LLVMBuildAdd(b, k0, i64c(n, band), "");
      k1 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, next, folded, ""), next, folded, "");
      first = LLVMBuildICmp(b, LLVMIntEQ, k0, i64c(n, 0), "");
      final = LLVMBuildICmp(b, LLVMIntEQ, k1, folded, "");
    }
    loop_var j;
    loop_open(n, &j, from, to);
    LLVMValueRef pos = LLVMBuildAdd(b, seg.col, j.i, ""), at = LLVMBuildAdd(b, seg.f, j.i, "");
    for (int u = 0; u < copies; u++) {
      LLVMValueRef start = identity(n, lanes);
      if (first) {
        LLVMValueRef partial = kiln_cpu_load(g, n->out, L->out_elem, LLVMBuildAdd(b, at, i64c(n, u * lanes), ""), 1, lanes);
        start = LLVMBuildSelect(b, first, start, partial, "");
      }
      LLVMBuildStore(b, start, accv[u]);
    }
    loop_var k;
    loop_open(n, &k, k0, k1);
    memcpy(n->offset, row, sizeof *row * (size_t)L->num_nodes);
    add_offsets(n, n->offset, ro, r, k.i);
    for (int u = 0; u < copies; u++) {
      LLVMValueRef v = root_at(n, LLVMBuildAdd(b, pos, i64c(n, u * lanes), ""), lanes);
      if (!v) return free(row), false;
      LLVMBuildStore(b, combine(n, LLVMBuildLoad2(b, vt, accv[u], ""), v), accv[u]);
    }
    loop_close(n, &k, i64c(n, 1));
    for (int u = 0; u < copies; u++) {
      forget(n);
      start_offsets(n, n->offset);
      LLVMValueRef init = value(n, L->init, i64c(n, 0), lanes), sum = LLVMBuildLoad2(b, vt, accv[u], "");
      LLVMValueRef result = combine(n, init, sum);
      if (acc != L->out_elem) result = kiln_cpu_convert(g, acc, L->out_elem, result);
      if (final) result = LLVMBuildSelect(b, final, result, sum, "");
      kiln_cpu_store(g, n->out, L->out_elem, LLVMBuildAdd(b, at, i64c(n, u * lanes), ""), result);
    }
    loop_close(n, &j, i64c(n, copies * lanes));
    if (first) loop_close(n, &kb, i64c(n, band));
  }
  rows_close(n, &seg);
  free(row);
  return true;
}

/* ---------------------------------------------------------------- folds */

/* One register of the widest value a fold computes, or 1 when its results have no row of
 * two points to spread lanes over. */
static int fold_lanes(const kiln_cpu_gen *g, const kiln_cpu_loop *L) {
  int32_t ro = L->num_out_dims;
  if (ro < 1 || L->dims[ro - 1] < 2) return 1;
  size_t widest = 4;
  bool complex = false;
  for (int32_t k = 0; k < L->num_results; k++) {
    const kiln_elem e[3] = {L->roots[k]->elem, L->fold[k]->elem, L->out_elems[k]};
    for (int i = 0; i < 3; i++) {
      if (lane_bytes(e[i]) > widest) widest = lane_bytes(e[i]);
      complex = complex || kiln_elem_is_complex(e[i]);
    }
  }
  if (L->scan && L->scan_split == ro && complex) return 1; /* lanes a row apart: stored one by one, real only */
  return (int)((size_t)g->vector_bytes / widest);
}

/* Stores the lanes of v (compute representation of e) at element offsets off, off +
 * stride, ...; stride NULL: densely. */
static void store_lanes(nest *n, LLVMValueRef base, kiln_elem e, LLVMValueRef off, LLVMValueRef stride, LLVMValueRef v) {
  kiln_cpu_gen *g = n->g;
  int w = kiln_cpu_width(v);
  if (!stride || w == 1) {
    kiln_cpu_store(g, base, e, off, v);
    return;
  }
  for (int l = 0; l < w; l++) {
    LLVMValueRef at = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, stride, i64c(n, l), ""), "");
    kiln_cpu_store(g, base, e, at, LLVMBuildExtractElement(g->b, v, LLVMConstInt(g->i32, (uint64_t)l, 0), ""));
  }
}

/* A fold (loop.h): output points row segment by row segment, w of them at once (each lane
 * one result) then one at a time; per point the accumulators go through the folded
 * points in row-major order. A scan stores them after each folded point. */
static bool emit_fold(nest *n, LLVMValueRef begin, LLVMValueRef end) {
  kiln_cpu_gen *g = n->g;
  LLVMBuilderRef b = g->b;
  const kiln_cpu_loop *L = n->L;
  int32_t ro = L->num_out_dims, r = L->rank, nr = L->num_results;
  LLVMValueRef folded = dims_product(n, ro, r);
  /* a scan's output: kept point p, folded point f at (p / in) * len * in + p % in + f * in;
   * lanes (along kept dim ro - 1) one element apart, or len when no kept dim follows the axis */
  LLVMValueRef in = L->scan ? dims_product(n, L->scan_split, ro) : NULL;
  LLVMValueRef span = L->scan ? LLVMBuildMul(b, folded, in, "") : NULL;
  LLVMValueRef lane_stride = L->scan && L->scan_split == ro ? folded : NULL;
  int w = fold_lanes(g, L);
  n->inner = ro ? ro - 1 : 0; /* with no kept dim only lane 0 at position 0 is read */
  LLVMValueRef *row = calloc((size_t)L->num_nodes + 1, sizeof *row), *acc = calloc((size_t)nr, sizeof *acc);
  LLVMValueRef *v = calloc((size_t)nr, sizeof *v);
  bool ok = row && acc && v;
  row_segments seg;
  if (ok) {
    rows_open(n, &seg, begin, end, ro ? dim(n, ro - 1) : i64c(n, 1));
    start_offsets(n, row);
    if (ro) add_offsets(n, row, 0, ro - 1, seg.row);
  }
  LLVMValueRef nvec = ok && w > 1 ? vector_part(n, &seg, w) : NULL;
  for (int pass = w > 1 ? 0 : 1; ok && pass < 2; pass++) {
    int lanes = pass == 0 ? w : 1;
    for (int32_t k = 0; k < nr; k++) acc[k] = new_var(n, kiln_cpu_compute_type(g, L->args[k]->elem, lanes));
    loop_var j;
    loop_open(n, &j, pass == 0 || w == 1 ? i64c(n, 0) : nvec, pass == 0 ? nvec : seg.cnt);
    LLVMValueRef pos = LLVMBuildAdd(b, seg.col, j.i, ""), point = LLVMBuildAdd(b, seg.f, j.i, ""), out_at = NULL;
    if (L->scan)
      out_at = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildUDiv(b, point, in, ""), span, ""), LLVMBuildURem(b, point, in, ""), "");
    forget(n);
    start_offsets(n, n->offset);
    for (int32_t k = 0; ok && k < nr; k++) {
      LLVMValueRef init = value(n, L->inits[k], pos, lanes);
      if (!(ok = init != NULL)) break;
      LLVMBuildStore(b, init, acc[k]);
    }
    loop_var f;
    loop_open(n, &f, i64c(n, 0), folded);
    LLVMValueRef at = L->scan_reverse ? LLVMBuildSub(b, LLVMBuildSub(b, folded, i64c(n, 1), ""), f.i, "") : f.i;
    memcpy(n->offset, row, sizeof *row * (size_t)L->num_nodes);
    add_offsets(n, n->offset, ro, r, at);
    forget(n);
    for (int32_t k = 0; ok && k < nr; k++) ok = (v[k] = value(n, L->roots[k], pos, lanes)) != NULL;
    int32_t acc_arg = L->scan_reverse ? nr : 0, elem_arg = nr - acc_arg; /* body(x[i], acc) from the end */
    for (int32_t k = 0; ok && k < nr; k++) {
      n->memo[L->args[acc_arg + k]->id] =
          LLVMBuildLoad2(b, kiln_cpu_compute_type(g, L->args[acc_arg + k]->elem, lanes), acc[k], "");
      n->memo[L->args[elem_arg + k]->id] = v[k];
    }
    for (int32_t k = 0; ok && k < nr; k++) ok = (v[k] = value(n, L->fold[k], pos, lanes)) != NULL;
    for (int32_t k = 0; ok && k < nr; k++) LLVMBuildStore(b, v[k], acc[k]);
    LLVMValueRef step_at = L->scan ? LLVMBuildAdd(b, out_at, LLVMBuildMul(b, at, in, ""), "") : NULL;
    for (int32_t k = 0; ok && L->scan && k < nr; k++) {
      LLVMValueRef a = L->args[k]->elem != L->out_elems[k] ? kiln_cpu_convert(g, L->args[k]->elem, L->out_elems[k], v[k]) : v[k];
      store_lanes(n, n->inputs[L->num_inputs + k], L->out_elems[k], step_at, lane_stride, a);
    }
    loop_close(n, &f, i64c(n, 1));
    for (int32_t k = 0; ok && !L->scan && k < nr; k++) {
      LLVMValueRef a = LLVMBuildLoad2(b, kiln_cpu_compute_type(g, L->args[k]->elem, lanes), acc[k], "");
      if (L->args[k]->elem != L->out_elems[k]) a = kiln_cpu_convert(g, L->args[k]->elem, L->out_elems[k], a);
      kiln_cpu_store(g, n->inputs[L->num_inputs + k], L->out_elems[k], point, a);
    }
    loop_close(n, &j, i64c(n, lanes));
  }
  if (ok) rows_close(n, &seg);
  free(row);
  free(acc);
  free(v);
  return ok;
}

/* ---------------------------------------------------------------- kernels */

static void collect(kiln_cpu_node *x, kiln_cpu_node **nodes) {
  if (!x || nodes[x->id]) return;
  nodes[x->id] = x;
  for (int32_t i = 0; i < x->num_args; i++) collect(x->args[i], nodes);
}

void kiln_cpu_loop_nodes(const kiln_cpu_loop *L, kiln_cpu_node **nodes) {
  collect(L->root, nodes);
  collect(L->init, nodes);
  for (int32_t k = 0; L->fold && k < L->num_results; k++) {
    collect(L->roots[k], nodes);
    collect(L->inits[k], nodes);
    collect(L->fold[k], nodes);
  }
}

void kiln_cpu_set_target_attrs(kiln_cpu_gen *g, LLVMValueRef fn, const char *cpu, const char *features) {
  char bits[8];
  snprintf(bits, sizeof bits, "%d", 8 * g->vector_bytes);
  const char *kv[][2] = {{"target-cpu", cpu}, {"target-features", features}, {"prefer-vector-width", bits},
                         {"min-legal-vector-width", bits}};
  for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
    LLVMAttributeRef a = LLVMCreateStringAttribute(g->c, kv[i][0], (unsigned)strlen(kv[i][0]), kv[i][1], (unsigned)strlen(kv[i][1]));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
  }
}

/* Adds "kiln_loop_<index>" for loop L to the module; *grain: the points its calls should
 * make together (loop.h). */
bool kiln_cpu_emit_loop(kiln_cpu_gen *g, const kiln_cpu_loop *L, int32_t index, const char *cpu, const char *features,
                        int64_t *grain) {
  LLVMTypeRef params[3] = {LLVMPointerType(g->ptr, 0), g->i64, g->i64};
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->c), params, 3, 0);
  char name[32];
  snprintf(name, sizeof name, "kiln_loop_%d", (int)index);
  LLVMValueRef fn = LLVMAddFunction(g->m, name, fty);
  kiln_cpu_set_target_attrs(g, fn, cpu, features);
  nest n = {.g = g, .L = L};
  n.entry = LLVMAppendBasicBlockInContext(g->c, fn, "entry");
  LLVMPositionBuilderAtEnd(g->b, n.entry);
  size_t nn = (size_t)L->num_nodes + 1;
  n.nodes = calloc(nn, sizeof *n.nodes);
  n.offset = calloc(nn, sizeof *n.offset);
  n.memo = calloc(nn, sizeof *n.memo);
  int32_t outputs = L->fold ? L->num_results : 1;
  n.inputs = calloc((size_t)L->num_inputs + (size_t)outputs, sizeof *n.inputs); /* then the outputs */
  bool ok = n.nodes && n.offset && n.memo && n.inputs;
  if (ok) {
    kiln_cpu_loop_nodes(L, n.nodes);
    LLVMValueRef bufs = LLVMGetParam(fn, 0);
    for (int32_t i = 0; i < L->num_inputs + outputs; i++) {
      LLVMValueRef idx = LLVMConstInt(g->i64, (uint64_t)i, 0);
      n.inputs[i] = LLVMBuildLoad2(g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, bufs, &idx, 1, ""), "");
    }
    n.out = n.inputs[L->num_inputs];
    if (L->slots) { /* parametric code: its numbers, read once */
      LLVMValueRef idx = LLVMConstInt(g->i64, (uint64_t)(L->num_inputs + outputs), 0);
      LLVMValueRef p = LLVMBuildLoad2(g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, bufs, &idx, 1, ""), "");
      p = LLVMBuildBitCast(g->b, p, LLVMPointerType(g->i64, 0), "");
      ok = (n.slot_val = calloc((size_t)L->num_slots + 1, sizeof *n.slot_val)) != NULL;
      for (int32_t k = 0; ok && k < L->num_slots; k++) {
        LLVMValueRef at = LLVMConstInt(g->i64, (uint64_t)k, 0);
        n.slot_val[k] = LLVMBuildLoad2(g->b, g->i64, LLVMBuildGEP2(g->b, g->i64, p, &at, 1, ""), "");
      }
    }
    if (!ok || !(ok = hoist_invariants(&n))) goto done;
    LLVMValueRef begin = LLVMGetParam(fn, 1), end = LLVMGetParam(fn, 2);
    /* a row reduction makes one point at a time; the other forms a vector of points (a
     * column reduction UNROLL of them) */
    if (L->fold) {
      ok = emit_fold(&n, begin, end);
      *grain = fold_lanes(g, L);
    } else if (L->num_out_dims < L->rank) {
      bool column = column_reduction(&n);
      ok = (column ? emit_column_reduce : emit_reduce)(&n, begin, end);
      *grain = column ? column_grain(&n, lanes_for(g, L)) : 1;
    } else if (short_rows(&n, lanes_for(g, L))) {
      ok = emit_short_rows(&n, begin, end, lanes_for(g, L));
      *grain = lanes_for(g, L) * L->dims[L->rank - 1];
    } else {
      ok = emit_elementwise(&n, begin, end);
      *grain = lanes_for(g, L);
    }
    if (ok) LLVMBuildRetVoid(g->b);
  }
done:
  free(n.hoisted);
  free(n.slot_val);
  free(n.nodes);
  free(n.offset);
  free(n.memo);
  free(n.inputs);
  return ok;
}
