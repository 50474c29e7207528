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

/* Every read of `from` by op and the ops after it in its block (their regions included)
 * reads `to`. */
static void replace_from(kiln_op *op, const kiln_value *from, kiln_value *to) {
  for (; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++)
      if (op->operands[i] == from) op->operands[i] = to;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (kiln_block *inner = op->regions[r].first; inner; inner = inner->next) replace_from(inner->first, from, to);
  }
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
    while (copies->first) { /* the copies go before w, in order */
      kiln_op *op = copies->first;
      kiln_block_remove(copies, op);
      kiln_block_insert_before(w, op);
    }
    for (int32_t i = 0; i < w->num_results; i++) replace_from(w->next, &w->results[i], carried[i]);
    kiln_block_remove(parent, w);
    kiln_func_number_values(func);
  }
  free(map);
  free(carried);
  return st;
}

static kiln_status unroll_block(kiln_module *m, kiln_op *func, kiln_block *b, int32_t *unrolled) {
  for (kiln_op *op = b->first; op;) {
    kiln_op *next = op->next;
    for (int32_t r = 0; r < op->num_regions; r++) /* inner loops first */
      for (kiln_block *inner = op->regions[r].first; inner; inner = inner->next)
        KILN_RETURN_IF_ERROR(unroll_block(m, func, inner, unrolled));
    int64_t trips, ops;
    const kiln_block *body = op->kind == KILN_OP_WHILE ? kiln_op_block(op, 1) : NULL;
    if (body && body->num_args == op->num_operands && kiln_rewrite_trip_count(op, &trips) &&
        trips <= (kiln_op_attr(op, KILN_UNROLL_KEEP) ? 1 : KILN_UNROLL_MAX_TRIPS) && (ops = copyable_ops(body)) >= 0 &&
        trips * ops <= KILN_UNROLL_MAX_OPS) {
      KILN_RETURN_IF_ERROR(unroll(m, func, op, trips));
      (*unrolled)++;
    }
    op = next;
  }
  return NULL;
}

kiln_status kiln_unroll_loops(kiln_module *m, kiln_op *func, int32_t *out_unrolled) {
  *out_unrolled = 0;
  kiln_block *body = kiln_op_block(func, 0);
  if (!body) return NULL;
  kiln_func_number_values(func); /* the copies are made by value id: earlier passes may have left new ones unnumbered */
  return unroll_block(m, func, body, out_unrolled);
}
