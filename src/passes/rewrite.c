/* Helpers of the rewriting passes (see rewrite.h). */
#include "passes/rewrite.h"

#include <stdint.h>
#include <string.h>

int32_t kiln_rewrite_uses(const kiln_block *b, const kiln_value *v) {
  int32_t n = 0;
  for (const kiln_op *op = b->first; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++) n += op->operands[i] == v;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (const kiln_block *inner = op->regions[r].first; inner; inner = inner->next) n += kiln_rewrite_uses(inner, v);
  }
  return n;
}

const kiln_attr *kiln_rewrite_struct_with(kiln_module *m, const kiln_attr *a, const char *const *names,
                                          const kiln_attr *const *vals, int32_t n) {
  kiln_attr *s = kiln_attr_new(m, KILN_ATTR_STRUCT);
  kiln_named_attr *fields = kiln_arena_alloc_array(m->arena, (size_t)(a->strct.count + n), sizeof *fields);
  if (!s || !fields) return NULL;
  *s = *a;
  int32_t count = a->strct.count;
  for (int32_t f = 0; f < count; f++) fields[f] = a->strct.fields[f];
  for (int32_t k = 0; k < n; k++) {
    int32_t f = 0;
    while (f < count && !(fields[f].name && !strcmp(fields[f].name, names[k]))) f++;
    if (f == count) fields[count++] = (kiln_named_attr){.name = names[k]};
    fields[f].value = vals[k];
  }
  s->strct.fields = fields;
  s->strct.count = count;
  return s;
}

int32_t kiln_rewrite_arg_index(const kiln_block *b, const kiln_value *v) {
  return v->def == NULL && v->block == b ? v->index : -1;
}

bool kiln_rewrite_trip_count(const kiln_op *w, int64_t *out) {
  const kiln_block *cond = kiln_op_block(w, 0), *body = kiln_op_block(w, 1);
  const kiln_op *ret = cond ? cond->last : NULL, *bret = body ? body->last : NULL;
  const kiln_op *cmp = ret && ret->kind == KILN_OP_RETURN && ret->num_operands == 1 ? ret->operands[0]->def : NULL;
  if (!cmp || cmp->kind != KILN_OP_COMPARE || !bret || bret->kind != KILN_OP_RETURN) return false;
  int side = kiln_rewrite_arg_index(cond, cmp->operands[0]) >= 0 ? 0 : 1; /* the counter's */
  int32_t k = kiln_rewrite_arg_index(cond, cmp->operands[side]);
  int64_t bound, init, one;
  if (k < 0 || k >= w->num_operands || k >= bret->num_operands || !kiln_value_constant_int(cmp->operands[1 - side], &bound) ||
      !kiln_value_constant_int(w->operands[k], &init))
    return false;
  /* the counter's type: signed or unsigned integers of 8 to 64 bits, whose values the
   * constants read as they are (an unsigned one from 2^63 up reads negative: not taken) */
  kiln_elem e = kiln_type_elem(cmp->operands[0]->type);
  kiln_elem_class cls = kiln_elem_class_of(e);
  int bits = kiln_elem_bits(e);
  if ((cls != KILN_ELEM_CLASS_I && cls != KILN_ELEM_CLASS_U) || bits < 8 || bits > 64 ||
      (cls == KILN_ELEM_CLASS_U && (init < 0 || bound < 0)))
    return false;
  int64_t max = cls == KILN_ELEM_CLASS_U && bits == 64 ? INT64_MAX
                : cls == KILN_ELEM_CLASS_U                ? (int64_t)((UINT64_C(1) << bits) - 1)
                                                          : (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
  /* the direction read with the counter on the left; LT, LE and NE count up to the bound */
  static const int mirrored[] = {KILN_COMPARE_EQ, KILN_COMPARE_NE, KILN_COMPARE_LE,
                                 KILN_COMPARE_LT, KILN_COMPARE_GE, KILN_COMPARE_GT};
  int d = kiln_op_compare_direction(cmp);
  if (d >= 0 && side) d = mirrored[d];
  const kiln_op *inc = bret->operands[k]->def;
  if ((d != KILN_COMPARE_LT && d != KILN_COMPARE_LE && d != KILN_COMPARE_NE) || !inc || inc->kind != KILN_OP_ADD || inc->parent != body) return false;
  int s = kiln_rewrite_arg_index(body, inc->operands[0]) == k ? 0 : 1;
  if (kiln_rewrite_arg_index(body, inc->operands[s]) != k || !kiln_value_constant_int(inc->operands[1 - s], &one) || one != 1) return false;
  int64_t t;
  /* LE up to the type's largest value never ends (the counter wraps); NE from above the
   * bound wraps around before it stops */
  if (__builtin_sub_overflow(bound, init, &t) || (d == KILN_COMPARE_LE && (bound >= max || !kiln_add_i64(t, 1, &t))) ||
      (d == KILN_COMPARE_NE && t < 0))
    return false;
  *out = t < 0 ? 0 : t;
  return true;
}

bool kiln_rewrite_dims_are(const kiln_attr *a, const char *name, const int64_t *v, int64_t n) {
  const kiln_attr *l = kiln_attr_get(a, name);
  if (!l) return n == 0;
  if (kiln_attr_count(l) != n) return false;
  for (int64_t i = 0; i < n; i++) {
    int64_t x;
    if (!kiln_attr_i64_at(l, i, &x) || x != v[i]) return false;
  }
  return true;
}

void kiln_rewrite_replace_from(kiln_op *op, const kiln_value *from, kiln_value *to) {
  for (; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++)
      if (op->operands[i] == from) op->operands[i] = to;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (kiln_block *inner = op->regions[r].first; inner; inner = inner->next)
        kiln_rewrite_replace_from(inner->first, from, to);
  }
}

void kiln_rewrite_move_before(kiln_block *from, kiln_op *before) {
  while (from->first) {
    kiln_op *op = from->first;
    kiln_block_remove(from, op);
    kiln_block_insert_before(before, op);
  }
}

static kiln_status each_op(kiln_block *b, kiln_rewrite_op_fn fn, kiln_rewrite_walk *walk) {
  for (kiln_op *op = b->first; op;) {
    kiln_op *next = op->next;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (kiln_block *inner = op->regions[r].first; inner; inner = inner->next)
        KILN_RETURN_IF_ERROR(each_op(inner, fn, walk));
    KILN_RETURN_IF_ERROR(fn(op, walk));
    op = next;
  }
  return NULL;
}

kiln_status kiln_rewrite_each_op(kiln_module *m, kiln_op *func, kiln_rewrite_op_fn fn, int32_t *out_count) {
  *out_count = 0;
  kiln_block *body = kiln_op_block(func, 0);
  if (!body) return NULL;
  kiln_func_number_values(func);
  kiln_rewrite_walk walk = {m, func, 0};
  kiln_status st = each_op(body, fn, &walk);
  *out_count = walk.count;
  return st;
}

bool kiln_rewrite_kept_kind(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_ALL_GATHER: case KILN_OP_ALL_REDUCE: case KILN_OP_ALL_TO_ALL: case KILN_OP_COLLECTIVE_BROADCAST:
    case KILN_OP_COLLECTIVE_PERMUTE: case KILN_OP_REDUCE_SCATTER: case KILN_OP_COLLECTIVE_REDUCE:
    case KILN_OP_CROSS_REPLICA_SUM: case KILN_OP_INFEED: case KILN_OP_OUTFEED: case KILN_OP_SEND: case KILN_OP_RECV:
    case KILN_OP_ASYNC_START: case KILN_OP_ASYNC_DONE: case KILN_OP_WHILE: case KILN_OP_IF: case KILN_OP_CASE:
    case KILN_OP_CALL: case KILN_OP_COMPOSITE: case KILN_OP_OPTIMIZATION_BARRIER: case KILN_OP_CHECK_EQ:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ: case KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST: case KILN_OP_CHECK_EXPECT_CLOSE:
    case KILN_OP_CHECK_EXPECT_EQ: case KILN_OP_CHECK_EXPECT_EQ_CONST: case KILN_OP_CHECK_EXPECT_SERIALIZED_EQ:
    case KILN_OP_INTERPRETER_PRINT: case KILN_OP_INTERPRETER_PROBE: case KILN_OP_INTERPRETER_RUN_PARALLEL:
    case KILN_OP_SDY_MANUAL_COMPUTATION: case KILN_OP_SDY_SHARDING_CONSTRAINT: case KILN_OP_SCF_FOR:
    case KILN_OP_TENSOR_INSERT: return true;
    default: return false;
  }
}
