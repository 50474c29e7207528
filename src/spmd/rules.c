/* Per-op partitioning rules (part.h's kiln_part_rule): an op whose operands are held as the
 * devices' blocks computes on the blocks, its result held as blocks too, instead of
 * gathering whole values and computing everything on every device.
 *
 *   elementwise        the blocks of the first operand held as blocks; the others sliced
 *                      to them (scalars stay whole)
 *   broadcast_in_dim   an operand dimension's axes go to the result dimension it maps to
 *   transpose          the axes follow the permutation
 *   dot_general        batch and contracting dimensions take the axes either side has
 *                      (the other side sliced to match); free dimensions keep theirs; the
 *                      contracting axes make the result partial sums (summed by an
 *                      all_reduce only where a whole value or an elementwise op needs it)
 *   reduce             kept dimensions keep their axes; reduced axes make partial sums
 *                      (an add with a zero init only; otherwise the reduced dimensions must
 *                      be whole)
 *   reshape            a dimension kept as it is keeps its axes; one split into several
 *                      gives them to the first (when its size divides into the blocks); of
 *                      several merged into one, the first may be sharded (the others whole)
 *   slice              sharded dimensions must be taken whole; the others may be cut
 *   concatenate        along a dimension every operand holds whole; the operands' other
 *                      dimensions sharded alike
 *   convolution, gather, scatter: rules_indexed.c
 * A rule refuses (the op is computed whole; partial sums it summed stay summed) when an axis
 * would be used twice, operands disagree on a dimension's axes, shapes are dynamic or types
 * quantized. Only in a function's top block:
 * a value made inside a region would not be visible where it is cached. */
#include <string.h>

#include "ir/verify.h"
#include "spmd/part.h"

enum { MAX_RANK = KILN_PART_MAX_RANK };

const kiln_sharding *kiln_part_settled(part *p, const kiln_op *at, int32_t id) {
  kiln_part_settle(p, at, id);
  const vstate *v = &p->st[id];
  return v->local && !kiln_part_trivial(v->sh) ? v->sh : NULL;
}

bool kiln_part_emit_on_blocks(part *p, const kiln_op *op, kiln_value *const *ins, const kiln_sharding *s) {
  const kiln_type *t = kiln_part_local_type(p, op, op->results[0].type, s);
  kiln_op *n = t ? kiln_op_new(p->m, op->kind, op->num_operands, 1, 0, op->num_regions) : NULL;
  if (!n) return t ? kiln_part_oom(p) : false;
  n->loc = op->loc;
  n->num_attrs = op->num_attrs;
  n->attrs = op->attrs;
  memcpy(n->operands, ins, sizeof *ins * (size_t)op->num_operands);
  n->results[0] = (kiln_value){.type = t, .def = n};
  kiln_block_append(p->out, n);
  for (int32_t r = 0; r < op->num_regions && !p->err; r++)
    for (const kiln_block *b = op->regions[r].first; b && !p->err; b = b->next)
      kiln_part_clone_block(p, b, &n->regions[r]);
  p->st[op->results[0].id] = (vstate){&n->results[0], s};
  return !p->err;
}

bool kiln_part_static_tensor(const kiln_type *t) {
  return kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t) &&
         t->tensor.rank <= MAX_RANK;
}

static bool elementwise(part *p, const kiln_op *op) {
  const kiln_type *rt = op->results[0].type;
  const kiln_sharding *s = NULL;
  if (op->kind == KILN_OP_BITCAST_CONVERT || !kiln_part_static_tensor(rt)) return false; /* a bitcast may change the shape */
  for (int32_t i = 0; i < op->num_operands; i++) { /* every operand the result's shape, or a scalar */
    const kiln_type *t = op->operands[i]->type;
    if (!kiln_part_static_tensor(t) || (t->tensor.rank && (t->tensor.rank != rt->tensor.rank ||
                                                  memcmp(t->tensor.dims, rt->tensor.dims,
                                                         sizeof(int64_t) * (size_t)rt->tensor.rank))))
      return false;
  }
  for (int32_t i = 0; i < op->num_operands && !s; i++)
    if (op->operands[i]->type->tensor.rank) s = kiln_part_settled(p, op, op->operands[i]->id);
  if (!s) return false;
  kiln_value *ins[8];
  if (op->num_operands > 8) return false;
  for (int32_t i = 0; i < op->num_operands; i++) {
    int32_t id = op->operands[i]->id;
    ins[i] = op->operands[i]->type->tensor.rank ? kiln_part_blocks(p, op, id, s) : kiln_part_whole(p, op, id);
    if (!ins[i]) return false;
  }
  return kiln_part_emit_on_blocks(p, op, ins, s);
}

static bool broadcast(part *p, const kiln_op *op) {
  const kiln_type *ot = op->operands[0]->type, *rt = op->results[0].type;
  const kiln_attr *dims = kiln_op_attr(op, "broadcast_dimensions");
  const kiln_sharding *so = kiln_part_static_tensor(ot) && kiln_part_static_tensor(rt) ? kiln_part_settled(p, op, op->operands[0]->id) : NULL;
  if (!so || kiln_attr_count(dims) != ot->tensor.rank) return false;
  kiln_sharding *s = kiln_part_new_sharding(p, so->mesh, rt->tensor.rank);
  if (!s) return false;
  for (int32_t i = 0; i < ot->tensor.rank; i++) {
    int64_t d;
    if (!kiln_attr_i64_at(dims, i, &d) || d < 0 || d >= rt->tensor.rank) return false;
    if (so->dims[i].count && ot->tensor.dims[i] != rt->tensor.dims[d]) return false;
    s->dims[d] = so->dims[i];
  }
  kiln_value *in = kiln_part_blocks(p, op, op->operands[0]->id, so);
  return in && kiln_part_emit_on_blocks(p, op, &in, s);
}

static bool transpose(part *p, const kiln_op *op) {
  const kiln_type *rt = op->results[0].type;
  const kiln_attr *perm = kiln_op_attr(op, "permutation");
  const kiln_sharding *so = kiln_part_static_tensor(rt) ? kiln_part_settled(p, op, op->operands[0]->id) : NULL;
  if (!so || kiln_attr_count(perm) != rt->tensor.rank) return false;
  kiln_sharding *s = kiln_part_new_sharding(p, so->mesh, rt->tensor.rank);
  if (!s) return false;
  for (int32_t i = 0; i < rt->tensor.rank; i++) {
    int64_t d;
    if (!kiln_attr_i64_at(perm, i, &d) || d < 0 || d >= so->rank) return false;
    s->dims[i] = so->dims[d];
  }
  kiln_value *in = kiln_part_blocks(p, op, op->operands[0]->id, so);
  return in && kiln_part_emit_on_blocks(p, op, &in, s);
}

bool kiln_part_use_axes(const kiln_dim_sharding *d, kiln_part_used *used) {
  for (int32_t k = 0; k < d->count; k++) {
    const kiln_axis_ref *a = &d->axes[k];
    for (int32_t i = 0; i < used->n; i++) { /* factors of one axis overlap when their digit ranges do */
      const kiln_axis_ref *b = &used->refs[i];
      if (a->axis == b->axis && a->pre_size < b->pre_size * b->size && b->pre_size < a->pre_size * a->size) return false;
    }
    if (used->n == KILN_SPMD_MAX_AXES * 4) return false;
    used->refs[used->n++] = *a;
  }
  return true;
}

/* Gives a pair of dimensions (batch or contracting) the axes either side has. */
static bool pair_dims(kiln_dim_sharding *l, kiln_dim_sharding *r) {
  if (!l->count) *l = *r;
  else if (!r->count) *r = *l;
  return kiln_part_same_refs(l->axes, l->count, r->axes, r->count);
}

static bool dot(part *p, const kiln_op *op) {
  const kiln_value *lv = op->operands[0], *rv = op->operands[1];
  const kiln_attr *dn = kiln_op_attr(op, "dot_dimension_numbers");
  if (op->num_operands != 2 || !dn || !kiln_part_static_tensor(lv->type) || !kiln_part_static_tensor(rv->type) ||
      !kiln_part_static_tensor(op->results[0].type))
    return false;
  const kiln_attr *lb = kiln_attr_get(dn, "lhs_batching_dimensions"), *rb = kiln_attr_get(dn, "rhs_batching_dimensions");
  const kiln_attr *lc = kiln_attr_get(dn, "lhs_contracting_dimensions"), *rc = kiln_attr_get(dn, "rhs_contracting_dimensions");
  int64_t nb = lb ? kiln_attr_count(lb) : 0, nc = lc ? kiln_attr_count(lc) : 0;
  if (nb < 0 || nc < 0 || nb != (rb ? kiln_attr_count(rb) : 0) || nc != (rc ? kiln_attr_count(rc) : 0)) return false;
  const kiln_sharding *sl = kiln_part_settled(p, op, lv->id), *sr = kiln_part_settled(p, op, rv->id);
  if (!sl && !sr) return false;
  const kiln_mesh *mesh = sl ? sl->mesh : sr->mesh;
  if (sl && sr && sl->mesh != sr->mesh) return false;
  int32_t lrank = lv->type->tensor.rank, rrank = rv->type->tensor.rank;
  kiln_sharding *tl = kiln_part_new_sharding(p, mesh, lrank), *tr = kiln_part_new_sharding(p, mesh, rrank);
  if (!tl || !tr) return false;
  if (sl) memcpy(tl->dims, sl->dims, sizeof *tl->dims * (size_t)lrank);
  if (sr) memcpy(tr->dims, sr->dims, sizeof *tr->dims * (size_t)rrank);
  bool lfree[MAX_RANK], rfree[MAX_RANK];
  for (int32_t d = 0; d < lrank; d++) lfree[d] = true;
  for (int32_t d = 0; d < rrank; d++) rfree[d] = true;
  /* batch pairs, then contracting pairs: the axes either side has */
  int64_t bl[MAX_RANK], cl[MAX_RANK]; /* the lhs dimension of each batch and contracting pair */
  for (int64_t k = 0; k < nb + nc; k++) {
    const kiln_attr *la = k < nb ? lb : lc, *ra = k < nb ? rb : rc;
    int64_t i = k < nb ? k : k - nb, x, y;
    if (!kiln_attr_i64_at(la, i, &x) || !kiln_attr_i64_at(ra, i, &y) || x < 0 || x >= lrank || y < 0 || y >= rrank)
      return false;
    if (!pair_dims(&tl->dims[x], &tr->dims[y])) return false;
    lfree[x] = rfree[y] = false;
    *(k < nb ? &bl[i] : &cl[i]) = x;
  }
  /* the result: batch dims, lhs free dims, rhs free dims; contracting axes: partial sums */
  kiln_sharding *s = kiln_part_new_sharding(p, mesh, op->results[0].type->tensor.rank);
  kiln_part_used used = {0};
  int32_t out = 0, partial = 0;
  if (!s) return false;
  for (int64_t i = 0; i < nb; i++) {
    if (!kiln_part_use_axes(&tl->dims[bl[i]], &used)) return false;
    s->dims[out++] = tl->dims[bl[i]];
  }
  for (int32_t d = 0; d < lrank; d++)
    if (lfree[d]) {
      if (!kiln_part_use_axes(&tl->dims[d], &used)) return false;
      s->dims[out++] = tl->dims[d];
    }
  for (int32_t d = 0; d < rrank; d++)
    if (rfree[d]) {
      if (!kiln_part_use_axes(&tr->dims[d], &used)) return false;
      s->dims[out++] = tr->dims[d];
    }
  for (int64_t i = 0; i < nc; i++) partial += tl->dims[cl[i]].count;
  if (out != s->rank) return false;
  if (partial) {
    if (!(s->unreduced = kiln_arena_alloc_array(p->arena, (size_t)partial, sizeof *s->unreduced))) return kiln_part_oom(p);
    for (int64_t i = 0; i < nc; i++) {
      if (!kiln_part_use_axes(&tl->dims[cl[i]], &used)) return false;
      for (int32_t k = 0; k < tl->dims[cl[i]].count; k++) s->unreduced[s->num_unreduced++] = tl->dims[cl[i]].axes[k];
    }
  }
  kiln_value *ins[2] = {kiln_part_blocks(p, op, lv->id, tl), kiln_part_blocks(p, op, rv->id, tr)};
  return ins[0] && ins[1] && kiln_part_emit_on_blocks(p, op, ins, s);
}

/* Whether value v is a constant whose every element is zero. */
static bool zero_constant(const kiln_value *v) {
  const kiln_op *c = v->def;
  const kiln_attr *a = c && c->kind == KILN_OP_CONSTANT ? kiln_op_attr(c, "value") : NULL;
  if (!a || a->kind != KILN_ATTR_DENSE || !a->dense.data) return false;
  for (size_t i = 0; i < a->dense.nbytes; i++)
    if (a->dense.data[i]) return false;
  return true;
}

static bool reduce(part *p, const kiln_op *op) {
  if (op->num_operands != 2 || op->num_results != 1 || !kiln_part_static_tensor(op->operands[0]->type)) return false;
  const kiln_sharding *so = kiln_part_settled(p, op, op->operands[0]->id);
  const kiln_attr *dims = kiln_op_attr(op, "dimensions");
  int32_t rank = op->operands[0]->type->tensor.rank;
  if (!so || kiln_attr_count(dims) < 0) return false;
  bool reduced[MAX_RANK] = {false};
  for (int64_t i = 0; i < kiln_attr_count(dims); i++) {
    int64_t d;
    if (!kiln_attr_i64_at(dims, i, &d) || d < 0 || d >= rank) return false;
    reduced[d] = true;
  }
  kiln_sharding *s = kiln_part_new_sharding(p, so->mesh, op->results[0].type->tensor.rank);
  if (!s || !(s->unreduced = kiln_arena_alloc_array(p->arena, KILN_SPMD_MAX_AXES, sizeof *s->unreduced))) return false;
  int32_t out = 0;
  for (int32_t d = 0; d < rank; d++) {
    if (!reduced[d]) {
      if (out == s->rank) return false;
      s->dims[out++] = so->dims[d];
      continue;
    }
    /* a reduced dimension's axes: partial sums, when adding them up is the reduction */
    const kiln_op *f = kiln_region_combiner(op);
    if (so->dims[d].count && (!f || f->kind != KILN_OP_ADD || !zero_constant(op->operands[1]))) return false;
    for (int32_t k = 0; k < so->dims[d].count; k++) s->unreduced[s->num_unreduced++] = so->dims[d].axes[k];
  }
  kiln_value *ins[2] = {kiln_part_blocks(p, op, op->operands[0]->id, so), kiln_part_whole(p, op, op->operands[1]->id)};
  return ins[0] && ins[1] && kiln_part_emit_on_blocks(p, op, ins, s);
}

/* The groups of a reshape: runs of operand and result dimensions of equal products
 * (size-1 dimensions joining the group before them). */
static bool reshape(part *p, const kiln_op *op) {
  const kiln_type *ot = op->operands[0]->type, *rt = op->results[0].type;
  const kiln_sharding *so = kiln_part_static_tensor(ot) && kiln_part_static_tensor(rt) ? kiln_part_settled(p, op, op->operands[0]->id) : NULL;
  if (!so) return false;
  kiln_sharding *s = kiln_part_new_sharding(p, so->mesh, rt->tensor.rank);
  if (!s) return false;
  int32_t i = 0, o = 0, in_rank = ot->tensor.rank, out_rank = rt->tensor.rank;
  const int64_t *in = ot->tensor.dims, *out = rt->tensor.dims;
  while (i < in_rank || o < out_rank) {
    int32_t i0 = i, o0 = o;
    int64_t a = i < in_rank ? in[i++] : 1, b = o < out_rank ? out[o++] : 1;
    while (a != b) {
      if (a < b && i < in_rank) a *= in[i++];
      else if (b < a && o < out_rank) b *= out[o++];
      else return false;
    }
    while (i < in_rank && in[i] == 1 && (o >= out_rank || out[o] != 1)) i++; /* trailing 1s join */
    while (o < out_rank && out[o] == 1 && (i >= in_rank || in[i] != 1)) o++;
    for (int32_t d = i0 + 1; d < i; d++) /* only a group's first operand dimension may be sharded */
      if (so->dims[d].count) return false;
    if (i0 >= in_rank || !so->dims[i0].count) continue;
    if (o0 >= out_rank || out[o0] % kiln_sharding_parts(so, i0)) return false;
    s->dims[o0] = so->dims[i0]; /* blocks of the group's major dimension: contiguous in both */
  }
  kiln_value *v = kiln_part_blocks(p, op, op->operands[0]->id, so);
  return v && kiln_part_emit_on_blocks(p, op, &v, s);
}

static bool slice(part *p, const kiln_op *op) {
  const kiln_type *ot = op->operands[0]->type;
  const kiln_attr *start = kiln_op_attr(op, "start_indices"), *limit = kiln_op_attr(op, "limit_indices"),
                  *step = kiln_op_attr(op, "strides");
  const kiln_sharding *so = kiln_part_static_tensor(ot) && kiln_part_static_tensor(op->results[0].type) ? kiln_part_settled(p, op, op->operands[0]->id) : NULL;
  if (!so || kiln_attr_count(start) != ot->tensor.rank || kiln_attr_count(limit) != ot->tensor.rank) return false;
  for (int32_t d = 0; d < ot->tensor.rank; d++) {
    int64_t a = 0, b = 0, k = 1;
    if (!kiln_attr_i64_at(start, d, &a) || !kiln_attr_i64_at(limit, d, &b) || (step && !kiln_attr_i64_at(step, d, &k)))
      return false;
    if (so->dims[d].count && (a != 0 || b != ot->tensor.dims[d] || k != 1)) return false;
  }
  kiln_value *v = kiln_part_blocks(p, op, op->operands[0]->id, so); /* the cut dimensions are whole */
  if (!v || !kiln_part_emit_on_blocks(p, op, &v, so)) return false;
  /* the sharded dimensions' limits are the blocks' sizes */
  kiln_op *n = p->st[op->results[0].id].local->def;
  int64_t limits[MAX_RANK];
  for (int32_t d = 0; d < ot->tensor.rank; d++) kiln_attr_i64_at(limit, d, &limits[d]);
  for (int32_t d = 0; d < ot->tensor.rank; d++)
    if (so->dims[d].count) limits[d] /= kiln_sharding_parts(so, d);
  return kiln_part_replace_attr(p, n, limit, kiln_attr_make_i64_array(p->m, limits, ot->tensor.rank));
}

bool kiln_part_replace_attr(part *p, kiln_op *n, const kiln_attr *old, const kiln_attr *value) {
  kiln_named_attr *attrs = kiln_arena_alloc_array(p->m->arena, (size_t)n->num_attrs, sizeof *attrs);
  if (!attrs || !value) return kiln_part_oom(p);
  for (int32_t k = 0; k < n->num_attrs; k++)
    attrs[k] = n->attrs[k].value == old ? (kiln_named_attr){n->attrs[k].name, value} : n->attrs[k];
  n->attrs = attrs;
  return true;
}

static bool concatenate(part *p, const kiln_op *op) {
  int64_t dim = -1;
  const kiln_attr *da = kiln_op_attr(op, "dimension");
  if (!da || !kiln_attr_i64_at(da, 0, &dim) || op->num_operands > 16 || !kiln_part_static_tensor(op->results[0].type)) return false;
  const kiln_sharding *s = NULL;
  for (int32_t k = 0; k < op->num_operands && !s; k++)
    if (kiln_part_static_tensor(op->operands[k]->type)) s = kiln_part_settled(p, op, op->operands[k]->id);
  if (!s || dim < 0 || dim >= s->rank || s->dims[dim].count) return false;
  kiln_value *ins[16];
  for (int32_t k = 0; k < op->num_operands; k++) /* every operand to the same blocks */
    if (!kiln_part_static_tensor(op->operands[k]->type) || !(ins[k] = kiln_part_blocks(p, op, op->operands[k]->id, s))) return false;
  return kiln_part_emit_on_blocks(p, op, ins, s);
}

bool kiln_part_rule(part *p, const kiln_op *op) {
  if (p->out != p->top || op->num_results != 1 || p->err) return false;
  bool held = false;
  for (int32_t i = 0; i < op->num_operands; i++) held |= !kiln_part_trivial(p->st[op->operands[i]->id].sh);
  if (!held) return false;
  if (kiln_verify_elementwise_lookup(op->kind) && !op->num_regions) return elementwise(p, op);
  switch (op->kind) {
    case KILN_OP_BROADCAST_IN_DIM: return broadcast(p, op);
    case KILN_OP_TRANSPOSE: return transpose(p, op);
    case KILN_OP_DOT_GENERAL: return dot(p, op);
    case KILN_OP_REDUCE: return reduce(p, op);
    case KILN_OP_RESHAPE: return reshape(p, op);
    case KILN_OP_SLICE: return slice(p, op);
    case KILN_OP_CONCATENATE: return concatenate(p, op);
    case KILN_OP_CONVOLUTION: return kiln_part_rule_convolution(p, op);
    case KILN_OP_GATHER: return kiln_part_rule_gather(p, op);
    case KILN_OP_SCATTER: return kiln_part_rule_scatter(p, op);
    default: return false;
  }
}
