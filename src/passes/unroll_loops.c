/* Counted while loops of few iterations unrolled (see unroll_loops.h). */
#include "passes/unroll_loops.h"

#include <stdlib.h>

#include "passes/inline.h"
#include "passes/refine_shapes.h"
#include "passes/rewrite.h"

/* The ops of b, nested regions included; -1 when one of them has an effect (a collective,
 * send, receive, feed, call or check: kiln_refine_kind_is_pure), which the copies would
 * repeat as separate exchanges or calls. */
static int64_t copyable_ops(const kiln_block *b) {
  int64_t n = 0;
  for (const kiln_op *op = b->first; op; op = op->next) {
    if (!kiln_refine_kind_is_pure(op->kind)) return -1;
    n++;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (const kiln_block *inner = op->regions[r].first; inner; inner = inner->next) {
        int64_t k = copyable_ops(inner);
        if (k < 0) return -1;
        n += k;
      }
  }
  return n;
}

/* w (trips iterations) as that many copies of its body before it; w removed. */
static kiln_status unroll(kiln_module *m, kiln_op *func, kiln_op *w, int64_t trips) {
  kiln_block *body = kiln_op_block(w, 1), *parent = w->parent;
  int32_t n = w->num_operands;
  kiln_value **map = calloc((size_t)kiln_func_num_values(func) + 1, sizeof *map);
  kiln_value **carried = calloc((size_t)n + 1, sizeof *carried);
  kiln_block *copies = kiln_block_new(m, 0);
  kiln_status st = map && carried && copies ? NULL
                                            : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory unrolling a loop");
  for (int32_t i = 0; i < n; i++) carried[i] = w->operands[i];
  for (int64_t t = 0; !st && t < trips; t++) {
    for (int32_t i = 0; i < n; i++) map[body->args[i].id] = carried[i];
    st = kiln_clone_block_ops(m, body, copies, map, carried);
  }
  if (!st) {
    kiln_rewrite_move_before(copies, w);
    for (int32_t i = 0; i < w->num_results; i++) kiln_rewrite_replace_from(w->next, &w->results[i], carried[i]);
    kiln_block_remove(parent, w);
    kiln_func_number_values(func);
  }
  free(map);
  free(carried);
  return st;
}

/* op unrolled when it is such a loop (its inner loops come first: kiln_rewrite_each_op). */
static kiln_status unroll_op(kiln_op *op, kiln_rewrite_walk *walk) {
  int64_t trips, ops;
  const kiln_block *body = op->kind == KILN_OP_WHILE ? kiln_op_block(op, 1) : NULL;
  if (!body || body->num_args != op->num_operands || !kiln_rewrite_trip_count(op, &trips) ||
      trips > (kiln_op_attr(op, KILN_UNROLL_KEEP) ? 1 : KILN_UNROLL_MAX_TRIPS) || (ops = copyable_ops(body)) < 0 ||
      trips * ops > KILN_UNROLL_MAX_OPS)
    return NULL;
  KILN_RETURN_IF_ERROR(unroll(walk->m, walk->func, op, trips));
  walk->count++;
  return NULL;
}

kiln_status kiln_unroll_loops(kiln_module *m, kiln_op *func, int32_t *out_unrolled) {
  return kiln_rewrite_each_op(m, func, unroll_op, out_unrolled);
}
