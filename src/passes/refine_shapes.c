/* Shape refinement (see refine_shapes.h). */
#include "passes/refine_shapes.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

typedef struct shape {
  int32_t rank; /* -1: not seen */
  bool conflict;
  int64_t *dims;
} shape;

struct kiln_shape_record {
  int32_t num_values;
  shape *values;
};

kiln_shape_record *kiln_shape_record_create(int32_t num_values) {
  kiln_shape_record *r = calloc(1, sizeof *r);
  if (!r || !(r->values = calloc((size_t)num_values + 1, sizeof *r->values))) {
    free(r);
    return NULL;
  }
  r->num_values = num_values;
  for (int32_t i = 0; i < num_values; i++) r->values[i].rank = -1;
  return r;
}

void kiln_shape_record_destroy(kiln_shape_record *r) {
  if (!r) return;
  for (int32_t i = 0; i < r->num_values; i++) free(r->values[i].dims);
  free(r->values);
  free(r);
}

void kiln_shape_record_note(kiln_shape_record *r, int32_t id, int32_t rank, const int64_t *dims) {
  if (id < 0 || id >= r->num_values) return;
  shape *s = &r->values[id];
  if (s->rank >= 0) {
    if (s->rank != rank || (rank && memcmp(s->dims, dims, sizeof(int64_t) * (size_t)rank))) s->conflict = true;
    return;
  }
  if (rank && !(s->dims = malloc(sizeof(int64_t) * (size_t)rank))) {
    s->conflict = true; /* out of memory: refuse rather than guess */
    return;
  }
  if (rank) memcpy(s->dims, dims, sizeof(int64_t) * (size_t)rank);
  s->rank = rank;
}

/* ------------------------------------------------------------------ the proof */

typedef struct refiner {
  kiln_module *m;
  const kiln_shape_record *r;
  bool *known;          /* by value id: computed from constants, dimension arguments and sizes only */
  const shape **alias;  /* by value id: a while region's argument takes its operand's shape */
  const char *refusal;  /* the first reason to refuse */
  const kiln_op *at;
} refiner;

static void refuse(refiner *f, const kiln_op *op, const char *why) {
  if (!f->refusal) f->refusal = why, f->at = op;
}

static bool is_dynamic(const kiln_type *t) { return kiln_type_is_tensor(t) && !kiln_type_is_static(t); }

/* The shape a value holds at this signature: its static type's, or the recorded one
 * (rank -1: unknown). */
static shape shape_of(const refiner *f, const kiln_value *v) {
  if (!is_dynamic(v->type)) {
    if (!kiln_type_is_tensor(v->type)) return (shape){-1, false, NULL};
    return (shape){v->type->tensor.rank, false, v->type->tensor.dims};
  }
  if (f->alias[v->id]) return *f->alias[v->id];
  return f->r->values[v->id];
}

static bool same_shape(shape a, shape b) {
  return a.rank >= 0 && a.rank == b.rank && !a.conflict && !b.conflict &&
         (!a.rank || !memcmp(a.dims, b.dims, sizeof(int64_t) * (size_t)a.rank));
}

/* A custom call's shape operands: the k of @stablehlo.dynamic_top_k, the shape of
 * @stablehlo.dynamic_rng_bit_generator and the window of @stablehlo.dynamic_reduce_window,
 * or `indices_of_shape_operands` (the shape of result k is operand k of the list, as
 * StableHLO's dynamic custom calls carry them) when they are one run of operands, one per
 * result. */
static bool custom_call_shapes(const kiln_op *op, int32_t *first, int32_t *count) {
  if (op->num_operands == 2 && (kiln_op_calls_target(op, "stablehlo.dynamic_top_k") ||
                                kiln_op_calls_target(op, "stablehlo.dynamic_rng_bit_generator"))) {
    *first = 1, *count = 1; /* k; the output shape */
    return true;
  }
  if (op->num_operands >= 7 && kiln_op_calls_target(op, "stablehlo.dynamic_reduce_window")) {
    *first = op->num_operands - 5, *count = 5; /* the window */
    return true;
  }
  const kiln_attr *a = kiln_op_attr(op, "indices_of_shape_operands");
  int64_t n = a ? kiln_attr_count(a) : 0, v0 = -1;
  if (n < 1 || n != op->num_results || !kiln_attr_i64_at(a, 0, &v0) || v0 < 0 || v0 + n > op->num_operands) return false;
  for (int64_t i = 1; i < n; i++) {
    int64_t v;
    if (!kiln_attr_i64_at(a, i, &v) || v != v0 + i) return false;
  }
  *first = (int32_t)v0, *count = (int32_t)n;
  return true;
}

bool kiln_refine_shape_operands(const kiln_op *op, int32_t *first, int32_t *count) {
  switch (op->kind) {
    case KILN_OP_CUSTOM_CALL: return custom_call_shapes(op, first, count);
    case KILN_OP_DYNAMIC_BROADCAST_IN_DIM:
    case KILN_OP_DYNAMIC_RESHAPE: *first = 1, *count = 1; return true;
    case KILN_OP_DYNAMIC_IOTA: *first = 0, *count = 1; return true;
    case KILN_OP_REAL_DYNAMIC_SLICE: *first = 1, *count = 3; return true;
    case KILN_OP_DYNAMIC_PAD: *first = 2, *count = 3; return true;
    case KILN_OP_DYNAMIC_GATHER:
    case KILN_OP_DYNAMIC_CONV: *first = 2, *count = 1; return true;
    case KILN_OP_SET_DIMENSION_SIZE: *first = 1, *count = 1; return true;
    case KILN_OP_RNG: *first = 2, *count = 1; return true;
    default: return false;
  }
}

bool kiln_refine_kind_is_pure(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_CUSTOM_CALL:
    case KILN_OP_CALL:
    case KILN_OP_COMPOSITE:
    case KILN_OP_RNG:
    case KILN_OP_RNG_BIT_GENERATOR:
    case KILN_OP_INFEED:
    case KILN_OP_OUTFEED:
    case KILN_OP_RECV:
    case KILN_OP_SEND:
    case KILN_OP_ALL_GATHER:
    case KILN_OP_ALL_REDUCE:
    case KILN_OP_ALL_TO_ALL:
    case KILN_OP_COLLECTIVE_BROADCAST:
    case KILN_OP_COLLECTIVE_PERMUTE:
    case KILN_OP_COLLECTIVE_REDUCE:
    case KILN_OP_CROSS_REPLICA_SUM:
    case KILN_OP_REDUCE_SCATTER:
    case KILN_OP_ASYNC_START:
    case KILN_OP_ASYNC_DONE:
    case KILN_OP_CHECK_EQ:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    case KILN_OP_CHECK_EXPECT_CLOSE:
    case KILN_OP_CHECK_EXPECT_EQ:
    case KILN_OP_CHECK_EXPECT_EQ_CONST:
    case KILN_OP_CHECK_EXPECT_SERIALIZED_EQ:
    case KILN_OP_INTERPRETER_PRINT:
    case KILN_OP_INTERPRETER_PROBE:
    case KILN_OP_INTERPRETER_RUN_PARALLEL: return false;
    default: return true;
  }
}

/* Whether op's results are a function of its operands alone: no regions (whose ops may
 * have effects), a kind without effects. */
static bool is_pure(const kiln_op *op) { return !op->num_regions && kiln_refine_kind_is_pure(op->kind); }

/* Ops whose results' shapes need not follow from their operands' shapes and attributes
 * (and the shape operands above): a dynamic result of theirs could differ run to run. */
static bool shape_unknowable(const kiln_op *op) {
  int32_t first, count;
  switch (op->kind) {
    case KILN_OP_CUSTOM_CALL: return !custom_call_shapes(op, &first, &count); /* else its shape operands decide */
    case KILN_OP_CALL:
    case KILN_OP_COMPOSITE:
    case KILN_OP_INFEED:
    case KILN_OP_RECV: return true;
    default: return false;
  }
}

static void check_value(refiner *f, const kiln_op *op, const kiln_value *v) {
  if (!is_dynamic(v->type)) return;
  shape s = shape_of(f, v);
  if (s.conflict) refuse(f, op, "a value takes different shapes in one run (a loop that grows it)");
  else if (s.rank < 0) refuse(f, op, "a value of dynamic shape was not computed in the run (a branch or loop not entered)");
}

static void check_block(refiner *f, const kiln_block *b, bool entry, int32_t num_dim_args);

static void check_yields(refiner *f, const kiln_op *op, const kiln_block *b, int32_t n, const kiln_value *const *want) {
  const kiln_op *t = b ? kiln_block_terminator(b) : NULL;
  for (int32_t i = 0; t && i < n && i < t->num_operands; i++)
    if (is_dynamic(want[i]->type) && !same_shape(shape_of(f, t->operands[i]), shape_of(f, want[i])))
      refuse(f, op, "a region yields a shape other than its op's");
}

static void check_op(refiner *f, const kiln_op *op) {
  int32_t first = 0, count = 0;
  if (kiln_refine_shape_operands(op, &first, &count))
    for (int32_t i = first; i < first + count && i < op->num_operands; i++)
      if (!f->known[op->operands[i]->id]) refuse(f, op, "a result's shape depends on the data");
  bool known = op->kind == KILN_OP_CONSTANT || op->kind == KILN_OP_GET_DIMENSION_SIZE || is_pure(op);
  for (int32_t i = 0; known && op->kind != KILN_OP_CONSTANT && op->kind != KILN_OP_GET_DIMENSION_SIZE &&
                      i < op->num_operands; i++)
    known = f->known[op->operands[i]->id];
  for (int32_t i = 0; i < op->num_results; i++) {
    f->known[op->results[i].id] = known;
    check_value(f, op, &op->results[i]);
    if (shape_unknowable(op) && is_dynamic(op->results[i].type))
      refuse(f, op, "a call or custom call has a result of dynamic shape");
  }
  if (op->kind == KILN_OP_WHILE) {
    /* the regions' arguments are the operands, then what the body yields: one shape */
    const kiln_value *want[64];
    int32_t n = op->num_results < 64 ? op->num_results : 64;
    if (op->num_results > 64) refuse(f, op, "a while carries more than 64 values");
    for (int32_t i = 0; i < n; i++) {
      want[i] = &op->results[i];
      if (is_dynamic(op->results[i].type) && !same_shape(shape_of(f, op->operands[i]), shape_of(f, &op->results[i])))
        refuse(f, op, "a while's results differ in shape from its operands");
    }
    for (int32_t k = 0; k < op->num_regions; k++) {
      kiln_block *b = kiln_op_block(op, k);
      for (int32_t i = 0; b && i < b->num_args && i < op->num_operands; i++)
        if (is_dynamic(b->args[i].type)) {
          shape s = shape_of(f, op->operands[i]);
          int32_t from = op->operands[i]->id;
          f->alias[b->args[i].id] = s.rank < 0 || s.conflict ? NULL : f->alias[from] ? f->alias[from] : &f->r->values[from];
          if (!is_dynamic(op->operands[i]->type)) refuse(f, op, "a while's argument is dynamic where its operand is not");
        }
      if (b) check_block(f, b, false, 0);
    }
    check_yields(f, op, kiln_op_block(op, 1), n, want);
    return;
  }
  for (int32_t k = 0; k < op->num_regions; k++) {
    kiln_block *b = kiln_op_block(op, k);
    if (b) check_block(f, b, false, 0);
    if (b && (op->kind == KILN_OP_IF || op->kind == KILN_OP_CASE)) {
      const kiln_value *want[64];
      int32_t n = op->num_results < 64 ? op->num_results : 64;
      for (int32_t i = 0; i < n; i++) want[i] = &op->results[i];
      check_yields(f, op, b, n, want);
    }
  }
}

static void check_block(refiner *f, const kiln_block *b, bool entry, int32_t num_dim_args) {
  for (int32_t i = 0; i < b->num_args; i++) {
    f->known[b->args[i].id] = entry && i < num_dim_args;
    check_value(f, b->parent ? b->parent->parent : NULL, &b->args[i]);
  }
  for (const kiln_op *op = b->first; op && !f->refusal; op = op->next) check_op(f, op);
}

/* ------------------------------------------------------------------ the rewrite */

static const kiln_type *static_type(refiner *f, const kiln_value *v) {
  shape s = shape_of(f, v);
  return kiln_type_tensor(f->m, v->type->tensor.element, s.rank, s.dims, NULL);
}

/* get_dimension_size -> constant of the recorded size. */
static bool to_constant(refiner *f, kiln_op *op) {
  shape s = shape_of(f, op->operands[0]);
  const kiln_attr *dim = kiln_op_attr(op, "dimension");
  int64_t d = dim && dim->kind == KILN_ATTR_INT ? kiln_attr_int(dim) : -1;
  if (d < 0 || d >= s.rank) return true; /* the verifier's business; the interpreter step reports it */
  kiln_elem e = kiln_type_elem(op->results[0].type);
  kiln_attr *a = kiln_attr_new(f->m, KILN_ATTR_DENSE);
  kiln_named_attr *attrs = kiln_arena_alloc(f->m->arena, sizeof *attrs);
  uint8_t *data = kiln_arena_alloc(f->m->arena, 16);
  if (!a || !attrs || !data) return false;
  int64_t size = s.dims[d];
  int32_t v32 = (int32_t)size;
  if (kiln_elem_storage_bytes(e) == 8) memcpy(data, &size, 8);
  else memcpy(data, &v32, 4);
  a->type = op->results[0].type;
  a->dense.splat = true;
  a->dense.nbytes = kiln_elem_storage_bytes(e);
  a->dense.data = data;
  attrs[0] = (kiln_named_attr){"value", a};
  op->kind = KILN_OP_CONSTANT;
  op->num_operands = 0;
  op->attrs = attrs;
  op->num_attrs = 1;
  return true;
}

/* The op's own copy of its attribute list (the inliner's copies share the source's). */
static bool own_attrs(refiner *f, kiln_op *op) {
  kiln_named_attr *a = kiln_arena_alloc_array(f->m->arena, (size_t)op->num_attrs + 1, sizeof *a);
  if (!a) return false;
  if (op->num_attrs) memcpy(a, op->attrs, sizeof *a * (size_t)op->num_attrs);
  op->attrs = a;
  return true;
}

/* Drops operand i and the attributes only the dynamic form has. */
static bool to_static_form(refiner *f, kiln_op *op, kiln_op_kind kind, int32_t drop) {
  if (!own_attrs(f, op)) return false;
  for (int32_t i = drop; i + 1 < op->num_operands; i++) op->operands[i] = op->operands[i + 1];
  op->num_operands--;
  op->kind = kind;
  int32_t n = 0;
  for (int32_t i = 0; i < op->num_attrs; i++)
    if (strcmp(op->attrs[i].name, "known_expanding_dimensions") && strcmp(op->attrs[i].name, "known_nonexpanding_dimensions"))
      op->attrs[n++] = op->attrs[i];
  op->num_attrs = n;
  return true;
}

static bool rewrite_value(refiner *f, kiln_value *v) {
  if (!is_dynamic(v->type)) return true;
  const kiln_type *t = static_type(f, v);
  if (!t) return false;
  v->type = t;
  return true;
}

static bool rewrite_block(refiner *f, kiln_block *b) {
  /* get_dimension_size reads its operand's shape before that operand's type is rewritten */
  for (kiln_op *op = b->first; op; op = op->next)
    if (op->kind == KILN_OP_GET_DIMENSION_SIZE && !to_constant(f, op)) return false;
  for (int32_t i = 0; i < b->num_args; i++)
    if (!rewrite_value(f, &b->args[i])) return false;
  for (kiln_op *op = b->first; op; op = op->next) {
    for (int32_t i = 0; i < op->num_results; i++)
      if (!rewrite_value(f, &op->results[i])) return false;
    for (int32_t k = 0; k < op->num_regions; k++) {
      kiln_block *rb = kiln_op_block(op, k);
      if (rb && !rewrite_block(f, rb)) return false;
    }
    bool ok = true;
    if (op->kind == KILN_OP_DYNAMIC_BROADCAST_IN_DIM) ok = to_static_form(f, op, KILN_OP_BROADCAST_IN_DIM, 1);
    else if (op->kind == KILN_OP_DYNAMIC_RESHAPE) ok = to_static_form(f, op, KILN_OP_RESHAPE, 1);
    else if (op->kind == KILN_OP_DYNAMIC_IOTA) ok = to_static_form(f, op, KILN_OP_IOTA, 0);
    if (!ok) return false;
  }
  return true;
}

/* The function's type from its (rewritten) parameters and returned values. */
static bool rewrite_func_type(refiner *f, kiln_op *func, const kiln_block *body) {
  const kiln_type *old = kiln_func_type(func);
  const kiln_op *ret = kiln_block_terminator(body);
  kiln_type *t = kiln_type_new(f->m, KILN_TYPE_FUNCTION);
  kiln_attr *a = kiln_attr_new(f->m, KILN_ATTR_TYPE);
  if (!t || !a) return false;
  t->func.num_inputs = old->func.num_inputs;
  t->func.num_results = old->func.num_results;
  t->func.inputs = kiln_arena_alloc_array(f->m->arena, (size_t)t->func.num_inputs + 1, sizeof *t->func.inputs);
  t->func.results = kiln_arena_alloc_array(f->m->arena, (size_t)t->func.num_results + 1, sizeof *t->func.results);
  if (!t->func.inputs || !t->func.results) return false;
  for (int32_t i = 0; i < t->func.num_inputs; i++) t->func.inputs[i] = body->args[i].type;
  for (int32_t i = 0; i < t->func.num_results; i++)
    t->func.results[i] = ret && i < ret->num_operands ? ret->operands[i]->type : old->func.results[i];
  a->type = t;
  if (!own_attrs(f, func)) return false;
  for (int32_t i = 0; i < func->num_attrs; i++)
    if (!strcmp(func->attrs[i].name, "function_type")) func->attrs[i].value = a;
  return true;
}

static void count_uses(const kiln_block *b, int32_t *uses) {
  for (const kiln_op *op = b ? b->first : NULL; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++) uses[op->operands[i]->id]++;
    for (int32_t k = 0; k < op->num_regions; k++) count_uses(kiln_op_block(op, k), uses);
  }
}

/* A JAX shape assertion (custom_call @shape_assertion) whose operands the signature
 * decides: the recorded run checked it (a failing one fails that run, and nothing is
 * refined), so it holds in every run of the signature. */
static bool settled_assertion(const refiner *f, const kiln_op *op) {
  if (op->num_results || !kiln_op_calls_target(op, "shape_assertion")) return false;
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!f->known[op->operands[i]->id]) return false;
  return true;
}

/* Drops the top-level ops without effects whose results nobody reads: the shape
 * computations the static forms no longer need (last first, so chains go at once), and
 * the shape assertions the signature settles. */
static bool drop_dead(const refiner *f, kiln_block *body) {
  int32_t *uses = calloc((size_t)f->r->num_values + 1, sizeof *uses);
  if (!uses) return false;
  count_uses(body, uses);
  for (kiln_op *op = body->last, *prev; op; op = prev) {
    prev = op->prev;
    bool dead = (is_pure(op) && op->num_results > 0) || settled_assertion(f, op);
    for (int32_t i = 0; dead && i < op->num_results; i++) dead = uses[op->results[i].id] == 0;
    if (!dead) continue;
    for (int32_t i = 0; i < op->num_operands; i++) uses[op->operands[i]->id]--;
    if (op->prev) op->prev->next = op->next;
    else body->first = op->next;
    if (op->next) op->next->prev = op->prev;
    else body->last = op->prev;
  }
  free(uses);
  return true;
}

kiln_status kiln_refine_shapes(kiln_module *m, kiln_op *func, const kiln_shape_record *r, int32_t num_dim_args) {
  kiln_block *body = kiln_op_block(func, 0);
  const kiln_type *ft = kiln_func_type(func);
  if (!body || !ft || body->num_args != ft->func.num_inputs)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "cannot refine shapes: not a function with a body");
  refiner f = {m, r, calloc((size_t)r->num_values + 1, sizeof *f.known), calloc((size_t)r->num_values + 1, sizeof *f.alias),
               NULL, NULL};
  if (!f.known || !f.alias) {
    free(f.known);
    free(f.alias);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  check_block(&f, body, true, num_dim_args);
  kiln_status st = NULL;
  if (f.refusal)
    st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "cannot refine shapes at line %u: %s", f.at ? f.at->loc.line : 0,
                     f.refusal);
  else if (!rewrite_block(&f, body) || !rewrite_func_type(&f, func, body) || !drop_dead(&f, body))
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory refining shapes");
  free(f.known);
  free(f.alias);
  return st;
}
