/* Small conditionals as selects (see select_branches.h). */
#include "passes/select_branches.h"

#include <stdlib.h>

#include "passes/inline.h"
#include "passes/refine_shapes.h"
#include "passes/rewrite.h"

/* Whether branch b is a few pure ops of small tensors and returns tensors only. */
static bool small_branch(const kiln_block *b) {
  if (!b || b->next || b->num_args) return false;
  int32_t n = 0;
  for (const kiln_op *op = b->first; op; op = op->next) {
    if (++n > KILN_SELECT_MAX_OPS + 1 || op->num_regions || !kiln_refine_kind_is_pure(op->kind)) return false;
    const kiln_op *ret = op->next ? NULL : op; /* the terminator: its operands are the results */
    for (int32_t i = 0; i < (ret ? ret->num_operands : op->num_results); i++) {
      const kiln_type *t = ret ? ret->operands[i]->type : op->results[i].type;
      if (!kiln_type_is_tensor(t) || t->tensor.num_elements < 0 || t->tensor.num_elements > KILN_SELECT_MAX_ELEMENTS)
        return false;
    }
  }
  return n > 0;
}

/* The boolean op chooses by and its branches for true and false; false when op is not a
 * two-way conditional on one. */
static bool two_way(const kiln_op *op, kiln_value **pred, const kiln_block **yes, const kiln_block **no) {
  if (op->num_regions != 2 || op->num_operands != 1) return false;
  kiln_value *c = op->operands[0];
  if (op->kind == KILN_OP_IF) {
    *pred = c;
    *yes = kiln_op_block(op, 0), *no = kiln_op_block(op, 1);
  } else if (op->kind == KILN_OP_CASE && c->def && c->def->kind == KILN_OP_CONVERT &&
             kiln_type_elem(c->def->operands[0]->type) == KILN_ELEM_I1) {
    *pred = c->def->operands[0]; /* index 1 when true */
    *yes = kiln_op_block(op, 1), *no = kiln_op_block(op, 0);
  } else {
    return false;
  }
  return kiln_type_is_tensor((*pred)->type) && (*pred)->type->tensor.rank == 0;
}

/* cond's branches copied before it and its results selected from theirs; cond removed. */
static kiln_status to_select(kiln_module *m, kiln_op *func, kiln_op *cond, kiln_value *pred, const kiln_block *yes,
                             const kiln_block *no) {
  int32_t n = cond->num_results;
  kiln_value **map = calloc((size_t)kiln_func_num_values(func) + 1, sizeof *map);
  kiln_value **ry = calloc((size_t)n + 1, sizeof *ry), **rn = calloc((size_t)n + 1, sizeof *rn);
  kiln_block *copies = kiln_block_new(m, 0);
  kiln_status st = map && ry && rn && copies ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_clone_block_ops(m, yes, copies, map, ry);
  if (!st) st = kiln_clone_block_ops(m, no, copies, map, rn);
  for (int32_t i = 0; !st && i < n; i++) {
    kiln_op *sel = kiln_op_new(m, KILN_OP_SELECT, 3, 1, 0, 0);
    if (!sel) {
      st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    sel->operands[0] = pred, sel->operands[1] = ry[i], sel->operands[2] = rn[i];
    sel->results[0].type = cond->results[i].type;
    sel->loc = cond->loc;
    kiln_block_append(copies, sel);
  }
  if (!st) {
    kiln_op *sel = copies->last;
    for (int32_t i = n - 1; i >= 0; i--, sel = sel->prev)
      kiln_rewrite_replace_from(cond->next, &cond->results[i], &sel->results[0]);
    kiln_rewrite_move_before(copies, cond);
    kiln_block_remove(cond->parent, cond);
  }
  free(map), free(ry), free(rn);
  return st;
}

/* op made selects when it is such a conditional (its inner ones come first:
 * kiln_rewrite_each_op). */
static kiln_status select_op(kiln_op *op, kiln_rewrite_walk *walk) {
  kiln_value *pred;
  const kiln_block *yes, *no;
  if (!two_way(op, &pred, &yes, &no) || !small_branch(yes) || !small_branch(no)) return NULL;
  KILN_RETURN_IF_ERROR(to_select(walk->m, walk->func, op, pred, yes, no));
  kiln_func_number_values(walk->func); /* the next copy's map has room for these */
  walk->count++;
  return NULL;
}

kiln_status kiln_select_branches(kiln_module *m, kiln_op *func, int32_t *out_count) {
  return kiln_rewrite_each_op(m, func, select_op, out_count);
}
