/* Moving a value between shardings with one collective (part.h's kiln_part_reshard),
 * where gathering it whole and slicing would move every block to every device:
 *
 *   reduce_scatter  partial sums over axes A, wanted as blocks of one dimension along A
 *                   (the other dimensions as they are): each device receives the sum of
 *                   its block only
 *   all_to_all      blocks of dimension i along A, wanted as blocks of dimension j along A
 *                   (i whole, the others as they are): each device sends every other the
 *                   part of its block that device keeps */
#include <string.h>

#include "spmd/part.h"

/* The one dimension where from and to differ (-1: none; -2: more than one). */
static int32_t differing(const kiln_sharding *from, const kiln_sharding *to, int32_t skip) {
  int32_t at = -1;
  for (int32_t i = 0; i < to->rank; i++) {
    if (i == skip) continue;
    const kiln_dim_sharding *a = &from->dims[i], *b = &to->dims[i];
    if (kiln_part_same_refs(a->axes, a->count, b->axes, b->count)) continue;
    if (at != -1) return -2;
    at = i;
  }
  return at;
}

/* An attribute of op: integer value v (i64). */
static bool int_attr(part *p, kiln_op *op, int32_t k, const char *name, int64_t v) {
  const kiln_attr *a = kiln_attr_make_int(p->m, v, kiln_type_scalar(p->m, KILN_ELEM_SI64));
  if (!a) return kiln_part_oom(p);
  op->attrs[k] = (kiln_named_attr){name, a};
  return true;
}

/* x's local type with dimension i multiplied and dimension j divided by n (-1: neither). */
static const kiln_type *resized(part *p, const kiln_value *x, int32_t i, int32_t j, int64_t n) {
  int64_t dims[KILN_PART_MAX_RANK];
  const kiln_type *t = x->type;
  memcpy(dims, t->tensor.dims, sizeof *dims * (size_t)t->tensor.rank);
  if (i >= 0) dims[i] *= n;
  if (j >= 0) dims[j] /= n;
  return kiln_part_tensor_of(p, kiln_type_elem(t), t->tensor.rank, dims);
}

static kiln_value *reduce_scatter(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *from,
                                  const kiln_sharding *to) {
  int32_t i = differing(from, to, -1);
  if (i < 0 || from->dims[i].count ||
      !kiln_part_same_refs(to->dims[i].axes, to->dims[i].count, from->unreduced, from->num_unreduced))
    return NULL;
  int64_t n = kiln_sharding_parts(to, i);
  if (n < 2 || x->type->tensor.dims[i] % n) return NULL;
  int64_t *ids = kiln_part_device_groups(p, at, from->mesh, from->unreduced, from->num_unreduced, n);
  const kiln_type *t = ids ? resized(p, x, -1, i, n) : NULL;
  kiln_op *op = t ? kiln_part_collective(p, KILN_OP_REDUCE_SCATTER, x, t, ids, n, 1, 1) : NULL;
  if (!op || !int_attr(p, op, 0, "scatter_dimension", i) || !kiln_part_add_region(p, op, kiln_type_elem(x->type)))
    return kiln_part_oom(p), NULL;
  kiln_block_append(p->out, op);
  return &op->results[0];
}

static kiln_value *all_to_all(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *from,
                              const kiln_sharding *to) {
  int32_t i = -1, j = -1; /* the dimension losing the axes, the one taking them */
  for (int32_t d = 0; d < to->rank; d++) {
    if (from->dims[d].count && !to->dims[d].count && i < 0) i = d;
    else if (!from->dims[d].count && to->dims[d].count && j < 0) j = d;
  }
  if (i < 0 || j < 0 || differing(from, to, i) != j ||
      !kiln_part_same_refs(from->dims[i].axes, from->dims[i].count, to->dims[j].axes, to->dims[j].count))
    return NULL;
  int64_t n = kiln_sharding_parts(from, i);
  if (n < 2 || x->type->tensor.dims[j] % n) return NULL;
  int64_t *ids = kiln_part_device_groups(p, at, from->mesh, from->dims[i].axes, from->dims[i].count, n);
  const kiln_type *t = ids ? resized(p, x, i, j, n) : NULL;
  kiln_op *op = t ? kiln_part_collective(p, KILN_OP_ALL_TO_ALL, x, t, ids, n, 3, 0) : NULL;
  if (!op || !int_attr(p, op, 0, "split_dimension", j) || !int_attr(p, op, 1, "concat_dimension", i) ||
      !int_attr(p, op, 2, "split_count", n))
    return kiln_part_oom(p), NULL;
  op->num_attrs--; /* no use_global_device_ids: with a channel, all_to_all's groups are partition ids */
  kiln_block_append(p->out, op);
  return &op->results[0];
}

kiln_value *kiln_part_reshard(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *from,
                              const kiln_sharding *to) {
  if (!from || !to || from->mesh != to->mesh || from->rank != to->rank || to->num_unreduced ||
      !kiln_type_is_tensor(x->type) || x->type->tensor.rank != to->rank)
    return NULL;
  return from->num_unreduced ? reduce_scatter(p, at, x, from, to) : all_to_all(p, at, x, from, to);
}
