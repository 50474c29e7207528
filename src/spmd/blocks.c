/* The partitioner's values (part.h): a value as the devices' blocks or whole, and the
 * collectives and slices that move between the two. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "spmd/part.h"

bool kiln_part_oom(part *p) {
  if (!p->err) p->err = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory while partitioning");
  return false;
}

bool kiln_part_op_fail(part *p, const kiln_op *op, const char *fmt, ...) {
  if (p->err) return false;
  va_list ap;
  va_start(ap, fmt);
  p->err = kiln_op_errorv(NULL, p->m->name, op, fmt, ap);
  va_end(ap);
  return false;
}

/* ------------------------------------------------------------------ building ops */

kiln_op *kiln_part_emit(part *p, kiln_op_kind kind, int32_t nops, int32_t nattrs, const kiln_type *result) {
  kiln_op *op = kiln_op_new(p->m, kind, nops, 1, nattrs, 0);
  if (!op) return kiln_part_oom(p), NULL;
  op->results[0].type = result;
  op->results[0].def = op;
  kiln_block_append(p->out, op);
  return op;
}

const kiln_type *kiln_part_tensor_of(part *p, kiln_elem e, int32_t rank, const int64_t *dims) {
  const kiln_type *el = kiln_type_scalar(p->m, e);
  const kiln_type *t = el ? kiln_type_tensor(p->m, el, rank, dims, NULL) : NULL;
  if (!t) kiln_part_oom(p);
  return t;
}

/* A constant tensor<n x i64> (rank 1) or tensor<i64> (rank 0). */
kiln_value *kiln_part_const_i64(part *p, const int64_t *vals, int64_t n, int32_t rank) {
  const kiln_type *t = kiln_part_tensor_of(p, KILN_ELEM_SI64, rank, &n);
  kiln_attr *a = kiln_attr_new(p->m, KILN_ATTR_DENSE);
  uint8_t *data = kiln_arena_alloc_array(p->m->arena, (size_t)n, 8);
  kiln_op *op = t && a && data ? kiln_part_emit(p, KILN_OP_CONSTANT, 0, 1, t) : NULL;
  if (!op) return kiln_part_oom(p), NULL;
  memcpy(data, vals, (size_t)n * 8);
  a->type = t;
  a->dense.nbytes = (size_t)n * 8;
  a->dense.data = data;
  op->attrs[0] = (kiln_named_attr){"value", a};
  return &op->results[0];
}

static kiln_value *partition_id(part *p) {
  if (!p->pid) {
    kiln_op *op = kiln_part_emit(p, KILN_OP_PARTITION_ID, 0, 0, kiln_part_tensor_of(p, KILN_ELEM_UI32, 0, NULL));
    if (op) p->pid = &op->results[0];
  }
  return p->pid;
}

/* This device's entry of a per-partition table, as a tensor<i64>. */
kiln_value *kiln_part_per_device(part *p, const int64_t *table) {
  int64_t one = 1;
  kiln_value *t = kiln_part_const_i64(p, table, p->n, 1), *pid = partition_id(p);
  if (!t || !pid) return NULL;
  kiln_op *ds = kiln_part_emit(p, KILN_OP_DYNAMIC_SLICE, 2, 1, kiln_part_tensor_of(p, KILN_ELEM_SI64, 1, &one));
  const kiln_attr *sizes = kiln_attr_make_i64_array(p->m, &one, 1);
  if (!ds || !sizes) return kiln_part_oom(p), NULL;
  ds->operands[0] = t;
  ds->operands[1] = pid;
  ds->attrs[0] = (kiln_named_attr){"slice_sizes", sizes};
  kiln_op *r = kiln_part_emit(p, KILN_OP_RESHAPE, 1, 0, kiln_part_tensor_of(p, KILN_ELEM_SI64, 0, NULL));
  if (!r) return NULL;
  r->operands[0] = &ds->results[0];
  return &r->results[0];
}

/* ------------------------------------------------------------------ shardings and blocks */

/* Every device holds the whole value. */
bool kiln_part_trivial(const kiln_sharding *s) {
  if (s && s->num_unreduced) return false;
  for (int32_t i = 0; s && i < s->rank; i++)
    if (kiln_sharding_parts(s, i) > 1) return false;
  return true;
}

bool kiln_part_same_refs(const kiln_axis_ref *x, int32_t nx, const kiln_axis_ref *y, int32_t ny) {
  if (nx != ny) return false;
  for (int32_t k = 0; k < nx; k++)
    if (x[k].axis != y[k].axis || x[k].pre_size != y[k].pre_size || x[k].size != y[k].size) return false;
  return true;
}

/* Same blocks (and partial sums) on every device. */
bool kiln_part_same_blocks(const kiln_sharding *a, const kiln_sharding *b) {
  if (kiln_part_trivial(a) || kiln_part_trivial(b)) return kiln_part_trivial(a) && kiln_part_trivial(b);
  if (a->mesh != b->mesh || a->rank != b->rank ||
      !kiln_part_same_refs(a->unreduced, a->num_unreduced, b->unreduced, b->num_unreduced))
    return false;
  for (int32_t i = 0; i < a->rank; i++)
    if (!kiln_part_same_refs(a->dims[i].axes, a->dims[i].count, b->dims[i].axes, b->dims[i].count)) return false;
  return true;
}

/* The local type of a global tensor under s; an error when s does not divide it. */
const kiln_type *kiln_part_local_type(part *p, const kiln_op *at, const kiln_type *t, const kiln_sharding *s) {
  if (kiln_part_trivial(s)) return t;
  if (!kiln_type_is_tensor(t) || !kiln_type_is_static(t) || t->tensor.rank != s->rank)
    return kiln_part_op_fail(p, at, "a sharded value must be a tensor of static shape and rank %d", (int)s->rank), NULL;
  int64_t dims[64];
  for (int32_t i = 0; i < s->rank; i++) {
    int64_t parts = kiln_sharding_parts(s, i);
    if (t->tensor.dims[i] % parts)
      return kiln_part_op_fail(p, at, "dimension of size %lld is not divisible by its %lld shards (uneven shards are not supported)",
                     (long long)t->tensor.dims[i], (long long)parts), NULL;
    dims[i] = t->tensor.dims[i] / parts;
  }
  const kiln_type *r = kiln_type_tensor(p->m, t->tensor.element, s->rank, dims, NULL);
  if (!r) kiln_part_oom(p);
  return r;
}

/* Device d's mesh coordinates (the mesh covers every partition: checked when read). */
static void coords_of(const kiln_sharding *s, int64_t d, int64_t *c) {
  if (!kiln_mesh_coords(s->mesh, d, c)) memset(c, 0, sizeof(int64_t) * KILN_SPMD_MAX_AXES);
}

/* The device's block of the whole value: offsets per dimension from partition_id. */
static kiln_value *slice_to(part *p, const kiln_op *at, kiln_value *full, const kiln_sharding *s) {
  bool split = false;
  for (int32_t i = 0; s && i < s->rank; i++) split |= kiln_sharding_parts(s, i) > 1;
  const kiln_type *lt = split ? kiln_part_local_type(p, at, full->type, s) : full->type;
  if (!lt || lt == full->type) return lt ? full : NULL;
  int32_t rank = s->rank;
  kiln_value **offsets = kiln_arena_alloc_array(p->arena, (size_t)rank, sizeof *offsets);
  int64_t *table = kiln_arena_alloc_array(p->arena, (size_t)p->n, sizeof *table);
  const kiln_attr *sizes = kiln_attr_make_i64_array(p->m, lt->tensor.dims, rank);
  if (!offsets || !table || !sizes) return kiln_part_oom(p), NULL;
  for (int32_t i = 0; i < rank; i++) {
    if (kiln_sharding_parts(s, i) == 1) {
      int64_t z = 0;
      if (!p->zero && !(p->zero = kiln_part_const_i64(p, &z, 1, 0))) return NULL;
      offsets[i] = p->zero;
      continue;
    }
    for (int64_t d = 0; d < p->n; d++) {
      int64_t c[KILN_SPMD_MAX_AXES];
      coords_of(s, d, c);
      table[d] = kiln_sharding_block(s, i, c) * lt->tensor.dims[i];
    }
    if (!(offsets[i] = kiln_part_per_device(p, table))) return NULL;
  }
  kiln_op *ds = kiln_part_emit(p, KILN_OP_DYNAMIC_SLICE, 1 + rank, 1, lt);
  if (!ds) return NULL;
  ds->operands[0] = full;
  memcpy(ds->operands + 1, offsets, sizeof *offsets * (size_t)rank);
  ds->attrs[0] = (kiln_named_attr){"slice_sizes", sizes};
  return &ds->results[0];
}

int64_t *kiln_part_device_groups(part *p, const kiln_op *at, const kiln_mesh *mesh, const kiln_axis_ref *refs,
                              int32_t count, int64_t n) {
  int64_t groups = p->n / n, num_groups = 0;
  int64_t *ids = kiln_arena_alloc_array(p->m->arena, (size_t)p->n, sizeof *ids);
  int64_t *keys = kiln_arena_alloc_array(p->arena, (size_t)groups, sizeof *keys);
  if (!ids || !keys) return kiln_part_oom(p), NULL;
  for (int64_t d = 0; d < p->n; d++) {
    int64_t c[KILN_SPMD_MAX_AXES], k = 0;
    if (!kiln_mesh_coords(mesh, d, c)) memset(c, 0, sizeof c);
    for (int32_t j = 0; j < count; j++) { /* the position in the group; then those digits zeroed */
      int64_t digit = c[refs[j].axis] / refs[j].pre_size % refs[j].size;
      k = k * refs[j].size + digit;
      c[refs[j].axis] -= digit * refs[j].pre_size;
    }
    int64_t key = 0, g = 0;
    for (int32_t a = 0; a < mesh->num_axes; a++) key = key * mesh->axis_sizes[a] + c[a];
    while (g < num_groups && keys[g] != key) g++;
    if (g == num_groups) {
      if (num_groups == groups)
        return kiln_part_op_fail(p, at, "internal: more than %lld device groups of %lld", (long long)groups, (long long)n), NULL;
      keys[num_groups++] = key;
    }
    ids[g * n + k] = d;
  }
  return ids;
}

kiln_op *kiln_part_collective(part *p, kiln_op_kind kind, kiln_value *x, const kiln_type *t, int64_t *ids, int64_t n,
                           int32_t extra, int32_t regions) {
  int64_t gshape[2] = {p->n / n, n};
  kiln_op *op = kiln_op_new(p->m, kind, 1, 1, 3 + extra, regions);
  kiln_attr *rg = kiln_attr_new(p->m, KILN_ATTR_DENSE), *ch = kiln_attr_new(p->m, KILN_ATTR_STRUCT);
  kiln_named_attr *fields = kiln_arena_alloc_array(p->m->arena, 2, sizeof *fields);
  const kiln_attr *one = kiln_attr_make_int(p->m, 1, kiln_type_scalar(p->m, KILN_ELEM_SI64));
  kiln_attr *unit = kiln_attr_new(p->m, KILN_ATTR_UNIT);
  const kiln_type *rgt = kiln_part_tensor_of(p, KILN_ELEM_SI64, 2, gshape);
  if (!op || !rg || !ch || !fields || !one || !unit || !rgt || !t) return kiln_part_oom(p), NULL;
  op->operands[0] = x;
  op->results[0] = (kiln_value){.type = t, .def = op};
  rg->type = rgt;
  rg->dense.nbytes = (size_t)p->n * 8;
  rg->dense.data = (uint8_t *)ids;
  fields[0] = (kiln_named_attr){"handle", one};
  fields[1] = (kiln_named_attr){"type", one};
  ch->strct.dialect = "stablehlo";
  ch->strct.name = "channel_handle";
  ch->strct.count = 2;
  ch->strct.fields = fields;
  op->attrs[extra] = (kiln_named_attr){"channel_handle", ch};
  op->attrs[extra + 1] = (kiln_named_attr){"replica_groups", rg};
  op->attrs[extra + 2] = (kiln_named_attr){"use_global_device_ids", unit};
  return op;
}

/* all_gather of dimension i of x (blocks under s) over the devices that differ only in
 * the axes splitting that dimension, in block order. */
static kiln_value *gather_dim(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *s, int32_t i) {
  int64_t parts = kiln_sharding_parts(s, i), dims[64];
  int64_t *ids = kiln_part_device_groups(p, at, s->mesh, s->dims[i].axes, s->dims[i].count, parts);
  memcpy(dims, x->type->tensor.dims, sizeof(int64_t) * (size_t)s->rank);
  dims[i] *= parts;
  const kiln_attr *dim = kiln_attr_make_int(p->m, i, kiln_type_scalar(p->m, KILN_ELEM_SI64));
  kiln_op *op = ids && dim ? kiln_part_collective(p, KILN_OP_ALL_GATHER, x, kiln_part_tensor_of(p, kiln_type_elem(x->type), s->rank, dims),
                                        ids, parts, 1, 0)
                           : NULL;
  if (!op) return kiln_part_oom(p), NULL;
  op->attrs[0] = (kiln_named_attr){"all_gather_dim", dim};
  kiln_block_append(p->out, op);
  return &op->results[0];
}

/* The number of devices in each group of the unreduced axes of s. */
static int64_t unreduced_size(const kiln_sharding *s) {
  int64_t n = 1;
  for (int32_t k = 0; k < s->num_unreduced; k++) n *= s->unreduced[k].size;
  return n;
}

/* The sum of x's partial sums over the unreduced axes of s (an all_reduce adding them;
 * `or` for booleans). */
kiln_value *kiln_part_sum_partials(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *s) {
  int64_t n = unreduced_size(s);
  int64_t *ids = kiln_part_device_groups(p, at, s->mesh, s->unreduced, s->num_unreduced, n);
  kiln_elem e = kiln_type_elem(x->type);
  const kiln_type *scalar = kiln_part_tensor_of(p, e, 0, NULL);
  kiln_op *op = ids && scalar ? kiln_part_collective(p, KILN_OP_ALL_REDUCE, x, x->type, ids, n, 0, 1) : NULL;
  if (!op || !kiln_part_add_region(p, op, e)) return kiln_part_oom(p), NULL;
  kiln_block_append(p->out, op);
  return &op->results[0];
}

bool kiln_part_add_region(part *p, kiln_op *op, kiln_elem e) {
  const kiln_type *scalar = kiln_part_tensor_of(p, e, 0, NULL);
  kiln_block *b = scalar ? kiln_block_new(p->m, 2) : NULL;
  kiln_op *add = b ? kiln_op_new(p->m, e == KILN_ELEM_I1 ? KILN_OP_OR : KILN_OP_ADD, 2, 1, 0, 0) : NULL;
  kiln_op *ret = add ? kiln_op_new(p->m, KILN_OP_RETURN, 1, 0, 0, 0) : NULL;
  if (!ret) return kiln_part_oom(p);
  for (int32_t i = 0; i < 2; i++) {
    b->args[i] = (kiln_value){.type = scalar, .block = b, .index = i};
    add->operands[i] = &b->args[i];
  }
  add->results[0] = (kiln_value){.type = scalar, .def = add};
  ret->operands[0] = &add->results[0];
  kiln_block_append(b, add);
  kiln_block_append(b, ret);
  kiln_region_append(&op->regions[0], b);
  return true;
}

/* x on the devices first in their group of the unreduced axes of s, zeros on the others:
 * partial sums whose sum is x. */
static kiln_value *as_partials(part *p, kiln_value *x, const kiln_sharding *s) {
  int64_t *first = kiln_arena_alloc_array(p->arena, (size_t)p->n, sizeof *first), zero64 = 0;
  if (!first) return kiln_part_oom(p), NULL;
  if (!p->zero && !(p->zero = kiln_part_const_i64(p, &zero64, 1, 0))) return NULL;
  for (int64_t d = 0; d < p->n; d++) {
    int64_t c[KILN_SPMD_MAX_AXES];
    coords_of(s, d, c);
    first[d] = 0; /* 0: every unreduced digit is 0 */
    for (int32_t k = 0; k < s->num_unreduced; k++)
      if (c[s->unreduced[k].axis] / s->unreduced[k].pre_size % s->unreduced[k].size) first[d] = 1;
  }
  kiln_value *mine = kiln_part_per_device(p, first), *z = p->zero;
  kiln_op *is_first = mine && z ? kiln_part_emit(p, KILN_OP_COMPARE, 2, 1, kiln_part_tensor_of(p, KILN_ELEM_I1, 0, NULL)) : NULL;
  kiln_attr *eq = kiln_attr_new(p->m, KILN_ATTR_ENUM);
  kiln_attr *zero = kiln_attr_new(p->m, KILN_ATTR_DENSE);
  size_t eb = kiln_elem_storage_bytes(kiln_type_elem(x->type));
  uint8_t *bytes = kiln_arena_alloc(p->m->arena, eb ? eb : 1);
  const kiln_type *scalar = kiln_part_tensor_of(p, kiln_type_elem(x->type), 0, NULL);
  if (!is_first || !eq || !zero || !bytes || !scalar) return kiln_part_oom(p), NULL;
  is_first->operands[0] = mine;
  is_first->operands[1] = z;
  *eq = (kiln_attr){.kind = KILN_ATTR_ENUM, .enumv = {"stablehlo", "comparison_direction", "EQ", false}};
  is_first->attrs[0] = (kiln_named_attr){"comparison_direction", eq};
  *zero = (kiln_attr){.kind = KILN_ATTR_DENSE, .type = scalar, .dense = {true, eb, bytes}};
  kiln_op *zc = kiln_part_emit(p, KILN_OP_CONSTANT, 0, 1, scalar);
  kiln_op *zb = zc ? kiln_part_emit(p, KILN_OP_BROADCAST_IN_DIM, 1, 1, x->type) : NULL;
  const kiln_attr *no_dims = kiln_attr_make_i64_array(p->m, NULL, 0);
  kiln_op *sel = zb && no_dims ? kiln_part_emit(p, KILN_OP_SELECT, 3, 0, x->type) : NULL;
  if (!sel) return kiln_part_oom(p), NULL;
  zc->attrs[0] = (kiln_named_attr){"value", zero};
  zb->operands[0] = &zc->results[0];
  zb->attrs[0] = (kiln_named_attr){"broadcast_dimensions", no_dims};
  sel->operands[0] = &is_first->results[0];
  sel->operands[1] = x;
  sel->operands[2] = &zb->results[0];
  return &sel->results[0];
}

/* The whole value of top-level value id, gathered from its blocks on first use. */
kiln_sharding *kiln_part_new_sharding(part *p, const kiln_mesh *mesh, int32_t rank) {
  kiln_sharding *s = kiln_arena_alloc(p->arena, sizeof *s);
  kiln_dim_sharding *dims = kiln_arena_alloc_array(p->arena, (size_t)rank + 1, sizeof *dims);
  if (!s || !dims) return kiln_part_oom(p), NULL;
  s->mesh = mesh;
  s->rank = rank;
  s->dims = dims;
  return s;
}

void kiln_part_settle(part *p, const kiln_op *at, int32_t id) {
  vstate *v = &p->st[id];
  if (!v->local || !v->sh || !v->sh->num_unreduced || p->out != p->top) return;
  kiln_sharding *s = kiln_part_new_sharding(p, v->sh->mesh, v->sh->rank);
  kiln_value *x = s ? kiln_part_sum_partials(p, at, v->local, v->sh) : NULL;
  if (!x) return;
  memcpy(s->dims, v->sh->dims, sizeof *s->dims * (size_t)s->rank);
  *v = (vstate){x, s};
  if (kiln_part_trivial(s)) p->map[id] = x; /* whole now */
}

kiln_value *kiln_part_whole(part *p, const kiln_op *at, int32_t id) {
  vstate *v = &p->st[id];
  if (p->map[id] || !v->local) return p->map[id];
  kiln_value *x = v->local;
  if (v->sh->num_unreduced) x = kiln_part_sum_partials(p, at, x, v->sh);
  for (int32_t i = 0; x && i < v->sh->rank; i++)
    if (kiln_sharding_parts(v->sh, i) > 1) x = gather_dim(p, at, x, v->sh, i);
  return p->map[id] = x;
}

/* The blocks under s of a whole value that broadcast_in_dim b makes: b's operand sliced to
 * the blocks of the dimensions it gives the result (whole where it is expanded), then
 * broadcast to the block, instead of broadcasting to the whole shape and slicing that. */
static kiln_value *broadcast_blocks(part *p, const kiln_op *at, const kiln_op *b, const kiln_sharding *s) {
  kiln_value *x = b->operands[0];
  const kiln_attr *bd = kiln_op_attr(b, "broadcast_dimensions");
  const kiln_type *rt = b->results[0].type;
  int32_t r = kiln_type_is_tensor(x->type) ? x->type->tensor.rank : -1;
  if (r < 0 || !bd || kiln_attr_count(bd) != r || !kiln_type_is_static(x->type) || !kiln_type_is_static(rt))
    return slice_to(p, at, &b->results[0], s);
  kiln_sharding *so = kiln_part_new_sharding(p, s->mesh, r);
  for (int32_t k = 0; so && k < r; k++) {
    int64_t d = -1;
    kiln_attr_i64_at(bd, k, &d);
    if (d >= 0 && d < s->rank && x->type->tensor.dims[k] == rt->tensor.dims[d]) so->dims[k] = s->dims[d];
  }
  kiln_value *xb = so ? slice_to(p, at, x, so) : NULL;
  const kiln_type *lt = xb ? kiln_part_local_type(p, at, rt, s) : NULL;
  kiln_op *n = lt ? kiln_part_emit(p, KILN_OP_BROADCAST_IN_DIM, 1, 1, lt) : NULL;
  if (!n) return NULL;
  n->loc = b->loc;
  n->operands[0] = xb;
  n->attrs[0] = (kiln_named_attr){"broadcast_dimensions", bd};
  return &n->results[0];
}

/* The value as blocks under s: the local one when it has those blocks, or moved there by
 * one collective (kiln_part_reshard), else a slice of the whole (made partial sums when s
 * has unreduced axes; a broadcast made on the blocks). */
kiln_value *kiln_part_blocks(part *p, const kiln_op *at, int32_t id, const kiln_sharding *s) {
  vstate *v = &p->st[id];
  kiln_value *moved = v->local ? kiln_part_reshard(p, at, v->local, v->sh, s) : NULL;
  if (moved || p->err) return moved;
  if (v->local && v->sh && v->sh->num_unreduced && !(s && s->num_unreduced)) kiln_part_settle(p, at, id);
  if (v->local && kiln_part_same_blocks(v->sh, s)) return v->local;
  kiln_value *x = kiln_part_whole(p, at, id);
  if (x && s && s->num_unreduced) x = as_partials(p, x, s);
  else if (x && s && x->def && x->def->kind == KILN_OP_BROADCAST_IN_DIM && x->def->num_operands == 1)
    return broadcast_blocks(p, at, x->def, s);
  return x ? slice_to(p, at, x, s) : NULL;
}
