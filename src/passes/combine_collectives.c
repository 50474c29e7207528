/* Combining all_reduces (see combine_collectives.h). */
#include "passes/combine_collectives.h"

#include <string.h>

enum { MAX_COMBINED = 64, MAX_KINDS = 8 };

/* Whether all_reduces a and b meet the same devices with the same computation over the
 * same element type. */
static bool same_sum(const kiln_op *a, const kiln_op *b) {
  const kiln_attr *ga = kiln_op_attr(a, "replica_groups"), *gb = kiln_op_attr(b, "replica_groups");
  const kiln_op *fa = kiln_region_combiner(a), *fb = kiln_region_combiner(b);
  if (!ga || !gb || ga->kind != KILN_ATTR_DENSE || gb->kind != KILN_ATTR_DENSE || !ga->dense.data || !gb->dense.data ||
      !kiln_type_is_tensor(ga->type) || !kiln_type_is_tensor(gb->type) || ga->type->tensor.rank != 2 ||
      gb->type->tensor.rank != 2 || memcmp(ga->type->tensor.dims, gb->type->tensor.dims, 2 * sizeof(int64_t)) ||
      ga->dense.nbytes != gb->dense.nbytes || memcmp(ga->dense.data, gb->dense.data, ga->dense.nbytes))
    return false;
  if (!kiln_op_attr(a, "use_global_device_ids") != !kiln_op_attr(b, "use_global_device_ids") ||
      !kiln_op_attr(a, "channel_handle") != !kiln_op_attr(b, "channel_handle"))
    return false;
  return fa && fb && fa->kind == fb->kind && kiln_type_elem(a->operands[0]->type) == kiln_type_elem(b->operands[0]->type);
}

static bool candidate(const kiln_op *op) {
  return op->kind == KILN_OP_ALL_REDUCE && op->num_operands == 1 && op->num_results == 1 && kiln_region_combiner(op) &&
         kiln_type_is_tensor(op->operands[0]->type);
}

/* Whether op (or an op in its regions) reads a result of one of ops[0 .. n-1]. */
static bool reads(const kiln_op *op, kiln_op *const *ops, int32_t n) {
  for (int32_t i = 0; i < op->num_operands; i++)
    for (int32_t k = 0; k < n; k++)
      if (op->operands[i] == &ops[k]->results[0]) return true;
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *in = b->first; in; in = in->next)
        if (reads(in, ops, n)) return true;
  return false;
}

/* Every read of from's results (in op and after it, regions included) reads to's instead. */
static void redirect(kiln_op *op, kiln_value *const *from, kiln_value *const *to, int32_t n) {
  for (; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++)
      for (int32_t k = 0; k < n; k++)
        if (op->operands[i] == from[k]) op->operands[i] = to[k];
    for (int32_t r = 0; r < op->num_regions; r++)
      for (kiln_block *b = op->regions[r].first; b; b = b->next) redirect(b->first, from, to, n);
  }
}

/* The pending all_reduces as one, before `at` (the block's terminator at the latest). */
static kiln_status flush(kiln_module *m, kiln_block *block, kiln_op *at, kiln_op **pending, int32_t *n,
                         int32_t *combined) {
  int32_t k = *n;
  *n = 0;
  if (k < 2) return NULL;
  kiln_op *first = pending[0];
  kiln_op *c = kiln_op_new(m, KILN_OP_ALL_REDUCE, k, k, 0, 1);
  kiln_value **from = kiln_arena_alloc_array(m->arena, (size_t)k, sizeof *from);
  kiln_value **to = kiln_arena_alloc_array(m->arena, (size_t)k, sizeof *to);
  if (!c || !from || !to) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory combining all_reduces");
  c->loc = first->loc;
  c->num_attrs = first->num_attrs;
  c->attrs = first->attrs;
  c->regions[0] = first->regions[0]; /* the shared computation, moved over */
  c->regions[0].parent = c;
  for (kiln_block *b = c->regions[0].first; b; b = b->next) b->parent = &c->regions[0];
  for (int32_t i = 0; i < k; i++) {
    c->operands[i] = pending[i]->operands[0];
    c->results[i] = (kiln_value){.type = pending[i]->results[0].type, .def = c, .index = i};
    from[i] = &pending[i]->results[0];
    to[i] = &c->results[i];
  }
  kiln_block_insert_before(at, c);
  redirect(at, from, to, k);
  for (int32_t i = 0; i < k; i++) kiln_block_remove(block, pending[i]);
  *combined += k - 1;
  return NULL;
}

/* The pending sums, by kind (same_sum): each kind's become one all_reduce. */
typedef struct pending {
  kiln_op *ops[MAX_KINDS][MAX_COMBINED];
  int32_t n[MAX_KINDS], kinds;
} pending;

static bool reads_any(const kiln_op *op, const pending *q) {
  for (int32_t k = 0; k < q->kinds; k++)
    if (reads(op, q->ops[k], q->n[k])) return true;
  return false;
}

static kiln_status flush_all(kiln_module *m, kiln_block *block, kiln_op *at, pending *q, int32_t *combined) {
  for (int32_t k = 0; k < q->kinds; k++) KILN_RETURN_IF_ERROR(flush(m, block, at, q->ops[k], &q->n[k], combined));
  q->kinds = 0;
  return NULL;
}

kiln_status kiln_combine_all_reduces(kiln_module *m, kiln_op *func, int32_t *out_combined) {
  *out_combined = 0;
  kiln_block *block = kiln_op_block(func, 0);
  pending q = {.kinds = 0};
  for (kiln_op *op = block ? block->first : NULL; op;) {
    kiln_op *next = op->next;
    if (q.kinds && (!next || reads_any(op, &q))) /* a sum is read (or the block ends): all go now */
      KILN_RETURN_IF_ERROR(flush_all(m, block, op, &q, out_combined));
    if (candidate(op) && next) {
      int32_t k = 0;
      while (k < q.kinds && !same_sum(q.ops[k][0], op)) k++;
      if (k == MAX_KINDS || (k < q.kinds && q.n[k] == MAX_COMBINED)) { /* full: what is pending goes */
        KILN_RETURN_IF_ERROR(flush_all(m, block, op, &q, out_combined));
        k = 0;
      }
      if (k == q.kinds) q.n[q.kinds++] = 0;
      q.ops[k][q.n[k]++] = op;
    }
    op = next;
  }
  return NULL;
}
