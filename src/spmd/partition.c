/* The partitioner (spmd.h): a global program with sdy annotations -> the per-device
 * program every partition runs. */
#include "spmd/spmd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A top-level value of the entry that devices hold as blocks under sh (its whole value,
 * in part.map, is made when some op needs it). */
typedef struct vstate {
  kiln_value *local;
  const kiln_sharding *sh;
} vstate;

typedef struct part {
  kiln_module *m;
  kiln_arena *arena;
  kiln_mesh_table meshes;
  int32_t n;          /* partitions */
  kiln_block *out;    /* the new entry block */
  vstate *st;         /* by old value id (top-level values) */
  kiln_value **map;   /* by old value id of the function being rewritten: the new whole value
                         (NULL while only blocks exist) */
  const kiln_sharding **hint; /* by old value id: a sharding_constraint's sharding */
  const kiln_type **out_types; /* the entry's results, local */
  kiln_value *pid, *zero; /* partition_id and a 0 : i64, made once */
  bool *open_results; /* the entry's results with no sharding given: the partitioner chooses */
  kiln_status err;
} part;

static bool oom(part *p) {
  if (!p->err) p->err = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory while partitioning");
  return false;
}

/* Keeps the first error, located at op. */
__attribute__((format(printf, 3, 4))) static bool op_fail(part *p, const kiln_op *op, const char *fmt, ...) {
  if (p->err) return false;
  va_list ap;
  va_start(ap, fmt);
  p->err = kiln_op_errorv(NULL, p->m->name, op, fmt, ap);
  va_end(ap);
  return false;
}

/* ------------------------------------------------------------------ building ops */

static kiln_op *emit(part *p, kiln_op_kind kind, int32_t nops, int32_t nattrs, const kiln_type *result) {
  kiln_op *op = kiln_op_new(p->m, kind, nops, 1, nattrs, 0);
  if (!op) return oom(p), NULL;
  op->results[0].type = result;
  op->results[0].def = op;
  kiln_block_append(p->out, op);
  return op;
}

static const kiln_type *tensor_of(part *p, kiln_elem e, int32_t rank, const int64_t *dims) {
  const kiln_type *el = kiln_type_scalar(p->m, e);
  const kiln_type *t = el ? kiln_type_tensor(p->m, el, rank, dims, NULL) : NULL;
  if (!t) oom(p);
  return t;
}

/* A constant tensor<n x i64> (rank 1) or tensor<i64> (rank 0). */
static kiln_value *const_i64(part *p, const int64_t *vals, int64_t n, int32_t rank) {
  const kiln_type *t = tensor_of(p, KILN_ELEM_SI64, rank, &n);
  kiln_attr *a = kiln_attr_new(p->m, KILN_ATTR_DENSE);
  uint8_t *data = kiln_arena_alloc_array(p->m->arena, (size_t)n, 8);
  kiln_op *op = t && a && data ? emit(p, KILN_OP_CONSTANT, 0, 1, t) : NULL;
  if (!op) return oom(p), NULL;
  memcpy(data, vals, (size_t)n * 8);
  a->type = t;
  a->dense.nbytes = (size_t)n * 8;
  a->dense.data = data;
  op->attrs[0] = (kiln_named_attr){"value", a};
  return &op->results[0];
}

static kiln_value *partition_id(part *p) {
  if (!p->pid) {
    kiln_op *op = emit(p, KILN_OP_PARTITION_ID, 0, 0, tensor_of(p, KILN_ELEM_UI32, 0, NULL));
    if (op) p->pid = &op->results[0];
  }
  return p->pid;
}

/* This device's entry of a per-partition table, as a tensor<i64>. */
static kiln_value *per_device(part *p, const int64_t *table) {
  int64_t one = 1;
  kiln_value *t = const_i64(p, table, p->n, 1), *pid = partition_id(p);
  if (!t || !pid) return NULL;
  kiln_op *ds = emit(p, KILN_OP_DYNAMIC_SLICE, 2, 1, tensor_of(p, KILN_ELEM_SI64, 1, &one));
  const kiln_attr *sizes = kiln_attr_make_i64_array(p->m, &one, 1);
  if (!ds || !sizes) return oom(p), NULL;
  ds->operands[0] = t;
  ds->operands[1] = pid;
  ds->attrs[0] = (kiln_named_attr){"slice_sizes", sizes};
  kiln_op *r = emit(p, KILN_OP_RESHAPE, 1, 0, tensor_of(p, KILN_ELEM_SI64, 0, NULL));
  if (!r) return NULL;
  r->operands[0] = &ds->results[0];
  return &r->results[0];
}

/* ------------------------------------------------------------------ shardings and blocks */

/* Every device holds the whole value. */
static bool trivial(const kiln_sharding *s) {
  if (s && s->num_unreduced) return false;
  for (int32_t i = 0; s && i < s->rank; i++)
    if (kiln_sharding_parts(s, i) > 1) return false;
  return true;
}

static bool same_refs(const kiln_axis_ref *x, int32_t nx, const kiln_axis_ref *y, int32_t ny) {
  if (nx != ny) return false;
  for (int32_t k = 0; k < nx; k++)
    if (x[k].axis != y[k].axis || x[k].pre_size != y[k].pre_size || x[k].size != y[k].size) return false;
  return true;
}

/* Same blocks (and partial sums) on every device. */
static bool same_blocks(const kiln_sharding *a, const kiln_sharding *b) {
  if (trivial(a) || trivial(b)) return trivial(a) && trivial(b);
  if (a->mesh != b->mesh || a->rank != b->rank ||
      !same_refs(a->unreduced, a->num_unreduced, b->unreduced, b->num_unreduced))
    return false;
  for (int32_t i = 0; i < a->rank; i++)
    if (!same_refs(a->dims[i].axes, a->dims[i].count, b->dims[i].axes, b->dims[i].count)) return false;
  return true;
}

/* The local type of a global tensor under s; an error when s does not divide it. */
static const kiln_type *local_type(part *p, const kiln_op *at, const kiln_type *t, const kiln_sharding *s) {
  if (trivial(s)) return t;
  if (!kiln_type_is_tensor(t) || !kiln_type_is_static(t) || t->tensor.rank != s->rank)
    return op_fail(p, at, "a sharded value must be a tensor of static shape and rank %d", (int)s->rank), NULL;
  int64_t dims[64];
  for (int32_t i = 0; i < s->rank; i++) {
    int64_t parts = kiln_sharding_parts(s, i);
    if (t->tensor.dims[i] % parts)
      return op_fail(p, at, "dimension of size %lld is not divisible by its %lld shards (uneven shards are not supported)",
                     (long long)t->tensor.dims[i], (long long)parts), NULL;
    dims[i] = t->tensor.dims[i] / parts;
  }
  const kiln_type *r = kiln_type_tensor(p->m, t->tensor.element, s->rank, dims, NULL);
  if (!r) oom(p);
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
  const kiln_type *lt = split ? local_type(p, at, full->type, s) : full->type;
  if (!lt || lt == full->type) return lt ? full : NULL;
  int32_t rank = s->rank;
  kiln_value **offsets = kiln_arena_alloc_array(p->arena, (size_t)rank, sizeof *offsets);
  int64_t *table = kiln_arena_alloc_array(p->arena, (size_t)p->n, sizeof *table);
  const kiln_attr *sizes = kiln_attr_make_i64_array(p->m, lt->tensor.dims, rank);
  if (!offsets || !table || !sizes) return oom(p), NULL;
  for (int32_t i = 0; i < rank; i++) {
    if (kiln_sharding_parts(s, i) == 1) {
      int64_t z = 0;
      if (!p->zero && !(p->zero = const_i64(p, &z, 1, 0))) return NULL;
      offsets[i] = p->zero;
      continue;
    }
    for (int64_t d = 0; d < p->n; d++) {
      int64_t c[KILN_SPMD_MAX_AXES];
      coords_of(s, d, c);
      table[d] = kiln_sharding_block(s, i, c) * lt->tensor.dims[i];
    }
    if (!(offsets[i] = per_device(p, table))) return NULL;
  }
  kiln_op *ds = emit(p, KILN_OP_DYNAMIC_SLICE, 1 + rank, 1, lt);
  if (!ds) return NULL;
  ds->operands[0] = full;
  memcpy(ds->operands + 1, offsets, sizeof *offsets * (size_t)rank);
  ds->attrs[0] = (kiln_named_attr){"slice_sizes", sizes};
  return &ds->results[0];
}

/* The device groups that differ only in the factors refs (n of them, p->n / n groups),
 * each in the mixed-radix order of those factors: ids[g * n + k], in p->m's arena (they
 * become an attribute's storage). */
static int64_t *device_groups(part *p, const kiln_op *at, const kiln_mesh *mesh, const kiln_axis_ref *refs,
                              int32_t count, int64_t n) {
  int64_t groups = p->n / n, num_groups = 0;
  int64_t *ids = kiln_arena_alloc_array(p->m->arena, (size_t)p->n, sizeof *ids);
  int64_t *keys = kiln_arena_alloc_array(p->arena, (size_t)groups, sizeof *keys);
  if (!ids || !keys) return oom(p), NULL;
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
        return op_fail(p, at, "internal: more than %lld device groups of %lld", (long long)groups, (long long)n), NULL;
      keys[num_groups++] = key;
    }
    ids[g * n + k] = d;
  }
  return ids;
}

/* A collective over the groups ids (groups x n) of result type t: operands x, attributes
 * channel_handle 1/1, replica_groups, use_global_device_ids, and extra ones. */
static kiln_op *collective(part *p, kiln_op_kind kind, kiln_value *x, const kiln_type *t, int64_t *ids, int64_t n,
                           int32_t extra, int32_t regions) {
  int64_t gshape[2] = {p->n / n, n};
  kiln_op *op = kiln_op_new(p->m, kind, 1, 1, 3 + extra, regions);
  kiln_attr *rg = kiln_attr_new(p->m, KILN_ATTR_DENSE), *ch = kiln_attr_new(p->m, KILN_ATTR_STRUCT);
  kiln_named_attr *fields = kiln_arena_alloc_array(p->m->arena, 2, sizeof *fields);
  const kiln_attr *one = kiln_attr_make_int(p->m, 1, kiln_type_scalar(p->m, KILN_ELEM_SI64));
  kiln_attr *unit = kiln_attr_new(p->m, KILN_ATTR_UNIT);
  const kiln_type *rgt = tensor_of(p, KILN_ELEM_SI64, 2, gshape);
  if (!op || !rg || !ch || !fields || !one || !unit || !rgt || !t) return oom(p), NULL;
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
  int64_t *ids = device_groups(p, at, s->mesh, s->dims[i].axes, s->dims[i].count, parts);
  memcpy(dims, x->type->tensor.dims, sizeof(int64_t) * (size_t)s->rank);
  dims[i] *= parts;
  const kiln_attr *dim = kiln_attr_make_int(p->m, i, kiln_type_scalar(p->m, KILN_ELEM_SI64));
  kiln_op *op = ids && dim ? collective(p, KILN_OP_ALL_GATHER, x, tensor_of(p, kiln_type_elem(x->type), s->rank, dims),
                                        ids, parts, 1, 0)
                           : NULL;
  if (!op) return oom(p), NULL;
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
static kiln_value *sum_partials(part *p, const kiln_op *at, kiln_value *x, const kiln_sharding *s) {
  int64_t n = unreduced_size(s);
  int64_t *ids = device_groups(p, at, s->mesh, s->unreduced, s->num_unreduced, n);
  kiln_elem e = kiln_type_elem(x->type);
  const kiln_type *scalar = tensor_of(p, e, 0, NULL);
  kiln_op *op = ids && scalar ? collective(p, KILN_OP_ALL_REDUCE, x, x->type, ids, n, 0, 1) : NULL;
  kiln_block *b = op ? kiln_block_new(p->m, 2) : NULL;
  kiln_op *add = b ? kiln_op_new(p->m, e == KILN_ELEM_I1 ? KILN_OP_OR : KILN_OP_ADD, 2, 1, 0, 0) : NULL;
  kiln_op *ret = add ? kiln_op_new(p->m, KILN_OP_RETURN, 1, 0, 0, 0) : NULL;
  if (!ret) return oom(p), NULL;
  for (int32_t i = 0; i < 2; i++) {
    b->args[i] = (kiln_value){.type = scalar, .block = b, .index = i};
    add->operands[i] = &b->args[i];
  }
  add->results[0] = (kiln_value){.type = scalar, .def = add};
  ret->operands[0] = &add->results[0];
  kiln_block_append(b, add);
  kiln_block_append(b, ret);
  kiln_region_append(&op->regions[0], b);
  kiln_block_append(p->out, op);
  return &op->results[0];
}

/* x on the devices first in their group of the unreduced axes of s, zeros on the others:
 * partial sums whose sum is x. */
static kiln_value *as_partials(part *p, kiln_value *x, const kiln_sharding *s) {
  int64_t *first = kiln_arena_alloc_array(p->arena, (size_t)p->n, sizeof *first), zero64 = 0;
  if (!first) return oom(p), NULL;
  for (int64_t d = 0; d < p->n; d++) {
    int64_t c[KILN_SPMD_MAX_AXES];
    coords_of(s, d, c);
    first[d] = 0; /* 0: every unreduced digit is 0 */
    for (int32_t k = 0; k < s->num_unreduced; k++)
      if (c[s->unreduced[k].axis] / s->unreduced[k].pre_size % s->unreduced[k].size) first[d] = 1;
  }
  kiln_value *mine = per_device(p, first), *z = const_i64(p, &zero64, 1, 0);
  kiln_op *is_first = mine && z ? emit(p, KILN_OP_COMPARE, 2, 1, tensor_of(p, KILN_ELEM_I1, 0, NULL)) : NULL;
  kiln_attr *eq = kiln_attr_new(p->m, KILN_ATTR_ENUM);
  kiln_attr *zero = kiln_attr_new(p->m, KILN_ATTR_DENSE);
  size_t eb = kiln_elem_storage_bytes(kiln_type_elem(x->type));
  uint8_t *bytes = kiln_arena_alloc(p->m->arena, eb ? eb : 1);
  const kiln_type *scalar = tensor_of(p, kiln_type_elem(x->type), 0, NULL);
  if (!is_first || !eq || !zero || !bytes || !scalar) return oom(p), NULL;
  is_first->operands[0] = mine;
  is_first->operands[1] = z;
  *eq = (kiln_attr){.kind = KILN_ATTR_ENUM, .enumv = {"stablehlo", "comparison_direction", "EQ", false}};
  is_first->attrs[0] = (kiln_named_attr){"comparison_direction", eq};
  *zero = (kiln_attr){.kind = KILN_ATTR_DENSE, .type = scalar, .dense = {true, eb, bytes}};
  kiln_op *zc = emit(p, KILN_OP_CONSTANT, 0, 1, scalar);
  kiln_op *zb = zc ? emit(p, KILN_OP_BROADCAST_IN_DIM, 1, 1, x->type) : NULL;
  const kiln_attr *no_dims = kiln_attr_make_i64_array(p->m, NULL, 0);
  kiln_op *sel = zb && no_dims ? emit(p, KILN_OP_SELECT, 3, 0, x->type) : NULL;
  if (!sel) return oom(p), NULL;
  zc->attrs[0] = (kiln_named_attr){"value", zero};
  zb->operands[0] = &zc->results[0];
  zb->attrs[0] = (kiln_named_attr){"broadcast_dimensions", no_dims};
  sel->operands[0] = &is_first->results[0];
  sel->operands[1] = x;
  sel->operands[2] = &zb->results[0];
  return &sel->results[0];
}

/* The whole value of top-level value id, gathered from its blocks on first use. */
static kiln_value *whole(part *p, const kiln_op *at, int32_t id) {
  vstate *v = &p->st[id];
  if (p->map[id] || !v->local) return p->map[id];
  kiln_value *x = v->local;
  if (v->sh->num_unreduced) x = sum_partials(p, at, x, v->sh);
  for (int32_t i = 0; x && i < v->sh->rank; i++)
    if (kiln_sharding_parts(v->sh, i) > 1) x = gather_dim(p, at, x, v->sh, i);
  return p->map[id] = x;
}

/* The value as blocks under s: the local one when it has those blocks, else a slice of
 * the whole (made partial sums when s has unreduced axes). */
static kiln_value *blocks(part *p, const kiln_op *at, int32_t id, const kiln_sharding *s) {
  vstate *v = &p->st[id];
  if (v->local && same_blocks(v->sh, s)) return v->local;
  kiln_value *x = whole(p, at, id);
  if (x && s && s->num_unreduced) x = as_partials(p, x, s);
  return x ? slice_to(p, at, x, s) : NULL;
}

/* ------------------------------------------------------------------ copying ops */

static void clone_block(part *p, const kiln_block *src, kiln_region *dst);
static void rewrite_op(part *p, const kiln_op *op);

static kiln_value *mapped(part *p, const kiln_op *at, const kiln_value *v) {
  kiln_value *r = p->map[v->id];
  if (!r) op_fail(p, at, "internal: operand %d has no value", (int)v->id);
  return r;
}

/* Values defined outside op that its regions read and that exist only as blocks: made
 * whole before op (the gathers must come first). */
static void whole_captures(part *p, const kiln_op *op, const kiln_op *at) {
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *in = b->first; in; in = in->next) {
        for (int32_t i = 0; i < in->num_operands; i++)
          if (p->st[in->operands[i]->id].local) whole(p, at, in->operands[i]->id);
        whole_captures(p, in, at);
      }
}

/* Copies op to the end of p->out on whole operands, its regions rewritten. */
static void clone_op(part *p, const kiln_op *op) {
  for (int32_t i = 0; i < op->num_operands && !p->err; i++) whole(p, op, op->operands[i]->id);
  whole_captures(p, op, op);
  if (p->err) return;
  kiln_op *n = kiln_op_new(p->m, op->kind, op->num_operands, op->num_results, 0, op->num_regions);
  if (!n) {
    oom(p);
    return;
  }
  n->loc = op->loc;
  n->num_attrs = op->num_attrs;
  n->attrs = op->attrs;
  for (int32_t i = 0; i < op->num_operands && !p->err; i++) n->operands[i] = mapped(p, op, op->operands[i]);
  for (int32_t i = 0; i < op->num_results; i++) {
    n->results[i].type = op->results[i].type;
    n->results[i].def = n;
    n->results[i].index = i;
    p->map[op->results[i].id] = &n->results[i];
  }
  kiln_block_append(p->out, n);
  for (int32_t r = 0; r < op->num_regions && !p->err; r++)
    for (const kiln_block *b = op->regions[r].first; b && !p->err; b = b->next) clone_block(p, b, &n->regions[r]);
}

/* A region's block, rewritten into a new block of dst: the ids partition_id and zero
 * made outside are not visible from it, so it makes its own. */
static void clone_block(part *p, const kiln_block *src, kiln_region *dst) {
  kiln_block *b = kiln_block_new(p->m, src->num_args);
  if (!b) {
    oom(p);
    return;
  }
  for (int32_t i = 0; i < src->num_args; i++) {
    b->args[i].type = src->args[i].type;
    b->args[i].block = b;
    b->args[i].index = i;
    p->map[src->args[i].id] = &b->args[i];
  }
  kiln_region_append(dst, b);
  kiln_block *out = p->out;
  kiln_value *pid = p->pid, *zero = p->zero;
  p->out = b;
  p->pid = p->zero = NULL;
  for (const kiln_op *op = src->first; op && !p->err; op = op->next) rewrite_op(p, op);
  p->out = out;
  p->pid = pid;
  p->zero = zero;
}

/* ------------------------------------------------------------------ the entry's ops */

/* s with only the factors of manual axes. */
static const kiln_sharding *manual_part(part *p, const kiln_sharding *s, const bool *manual) {
  kiln_sharding *r = kiln_arena_alloc(p->arena, sizeof *r);
  kiln_dim_sharding *dims = kiln_arena_alloc_array(p->arena, (size_t)s->rank + 1, sizeof *dims);
  if (!r || !dims) return oom(p), NULL;
  *r = *s;
  r->dims = dims;
  for (int32_t i = 0; i < s->rank; i++) {
    dims[i] = s->dims[i];
    if (!(dims[i].axes = kiln_arena_alloc_array(p->arena, (size_t)s->dims[i].count + 1, sizeof *dims[i].axes)))
      return oom(p), NULL;
    dims[i].count = 0;
    for (int32_t k = 0; k < s->dims[i].count; k++)
      if (manual[s->dims[i].axes[k].axis]) dims[i].axes[dims[i].count++] = s->dims[i].axes[k];
  }
  if (s->num_unreduced && !(r->unreduced = kiln_arena_alloc_array(p->arena, (size_t)s->num_unreduced, sizeof *r->unreduced)))
    return oom(p), NULL;
  r->num_unreduced = 0;
  for (int32_t k = 0; k < s->num_unreduced; k++)
    if (manual[s->unreduced[k].axis]) r->unreduced[r->num_unreduced++] = s->unreduced[k];
  return r;
}

static int32_t rank_of(const kiln_type *t) { return kiln_type_is_tensor(t) ? t->tensor.rank : 0; }

/* Reads n shardings of a per-value attribute for values of the given types. */
static const kiln_sharding *read_per_value(part *p, const kiln_op *op, const char *name, kiln_value *const *vals,
                                           const kiln_value *vals_inline, int32_t n) {
  const kiln_attr *a = kiln_op_attr(op, name);
  kiln_sharding *out = kiln_arena_alloc_array(p->arena, (size_t)n + 1, sizeof *out);
  int32_t *ranks = kiln_arena_alloc_array(p->arena, (size_t)n + 1, sizeof *ranks);
  if (!out || !ranks) return oom(p), NULL;
  if (!a || a->kind != KILN_ATTR_OPAQUE) return op_fail(p, op, "needs its %s", name), NULL;
  for (int32_t i = 0; i < n; i++) ranks[i] = rank_of(vals ? vals[i]->type : vals_inline[i].type);
  kiln_status st = kiln_sharding_list_parse(p->arena, a->opaque, &p->meshes, ranks, n, out);
  if (st) {
    if (!p->err) p->err = kiln_spmd_error(p->m, op, "%s", kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  return out;
}

/* A manual computation's parts: its body and terminator, its shardings (per value, only
 * their manual axes' factors) and its manual axes. */
typedef struct manual_info {
  const kiln_block *body;
  const kiln_op *ret;
  const kiln_sharding **in, **out;
} manual_info;

static bool read_manual(part *p, const kiln_op *op, manual_info *mi) {
  mi->body = kiln_op_block(op, 0);
  mi->ret = mi->body ? kiln_block_terminator(mi->body) : NULL;
  if (!mi->body || mi->body->num_args != op->num_operands || !mi->ret || mi->ret->kind != KILN_OP_SDY_RETURN ||
      mi->ret->num_operands != op->num_results)
    return op_fail(p, op, "needs a body of %d arguments returning %d values with sdy.return", (int)op->num_operands,
                   (int)op->num_results);
  const kiln_sharding *in = read_per_value(p, op, "in_shardings", op->operands, NULL, op->num_operands);
  const kiln_sharding *out = in ? read_per_value(p, op, "out_shardings", NULL, op->results, op->num_results) : NULL;
  if (!out) return false;
  const kiln_mesh *mesh = op->num_operands ? in[0].mesh : op->num_results ? out[0].mesh : NULL;
  bool manual[KILN_SPMD_MAX_AXES] = {false};
  const kiln_attr *axes = kiln_op_attr(op, "manual_axes");
  if (mesh && axes && axes->kind == KILN_ATTR_OPAQUE) {
    kiln_status st = kiln_manual_axes_parse(axes->opaque, mesh, manual);
    if (st) {
      if (!p->err) p->err = kiln_spmd_error(p->m, op, "%s", kiln_status_message(st));
      kiln_status_free(st);
      return false;
    }
  }
  int32_t n = op->num_operands + op->num_results;
  mi->in = kiln_arena_alloc_array(p->arena, (size_t)n + 1, sizeof *mi->in);
  if (!mi->in) return oom(p);
  mi->out = mi->in + op->num_operands;
  for (int32_t i = 0; i < n; i++) {
    const kiln_sharding *s = i < op->num_operands ? &in[i] : &out[i - op->num_operands];
    if (s->mesh != mesh) return op_fail(p, op, "shardings over different meshes (value #%d)", (int)i);
    if (s->mesh->num_devices != p->n)
      return op_fail(p, op, "a mesh of %lld devices in a program of %d partitions", (long long)s->mesh->num_devices,
                     (int)p->n);
    if (!(mi->in[i] = manual_part(p, s, manual))) return false;
  }
  return true;
}

static void manual_computation(part *p, const kiln_op *op) {
  manual_info mi;
  if (!read_manual(p, op, &mi)) return;
  for (int32_t i = 0; i < op->num_operands && !p->err; i++) {
    kiln_value *v = blocks(p, op, op->operands[i]->id, mi.in[i]);
    if (v && !kiln_type_equal(v->type, mi.body->args[i].type)) {
      op_fail(p, op, "operand #%d's block under its in_sharding does not have the type of body argument #%d", (int)i,
              (int)i);
      return;
    }
    p->map[mi.body->args[i].id] = v;
  }
  for (const kiln_op *in_op = mi.body->first; in_op && in_op != mi.ret && !p->err; in_op = in_op->next)
    rewrite_op(p, in_op);
  for (int32_t j = 0; j < op->num_results && !p->err; j++) {
    /* whole within the body (a nested manual computation's result is its blocks) */
    kiln_value *v = whole(p, mi.ret, mi.ret->operands[j]->id);
    if (!v) v = mapped(p, mi.ret, mi.ret->operands[j]);
    const kiln_type *lt = v ? local_type(p, op, op->results[j].type, mi.out[j]) : NULL;
    if (lt && !kiln_type_equal(lt, v->type)) {
      op_fail(p, op, "result #%d: the body returns a block of another type than out_sharding #%d gives", (int)j, (int)j);
      return;
    }
    p->st[op->results[j].id] = (vstate){v, mi.out[j]};
    if (trivial(mi.out[j])) p->map[op->results[j].id] = v;
  }
}

/* The sharding to give an entry argument the program leaves open: the blocks every use
 * takes when all its uses are manual computations that agree (shard_map's operands: the
 * body then reads the argument as it arrives); else none (replicated). */
static const kiln_sharding *choose_arg(part *p, const kiln_block *body, const kiln_value *arg) {
  const kiln_sharding *chosen = NULL;
  for (const kiln_op *op = body->first; op; op = op->next)
    for (int32_t k = 0; k < op->num_operands; k++) {
      if (op->operands[k] != arg) continue;
      manual_info mi;
      if (op->kind != KILN_OP_SDY_MANUAL_COMPUTATION || !read_manual(p, op, &mi)) return NULL;
      if (chosen && !same_blocks(chosen, mi.in[k])) return NULL;
      chosen = mi.in[k];
    }
  return trivial(chosen) ? NULL : chosen;
}

/* The sdy.sharding an entry argument or result is given (NULL: none; *open, when asked,
 * says so). */
static const kiln_sharding *sharding_attr(part *p, const kiln_op *func, const char *list, int32_t i,
                                          const kiln_type *t, bool *open) {
  const kiln_attr *all = kiln_op_attr(func, list);
  const kiln_attr *d = all && all->kind == KILN_ATTR_ARRAY && i < all->array.count ? all->array.items[i] : NULL;
  const kiln_attr *a = d && d->kind == KILN_ATTR_DICT ? kiln_attr_get(d, "sdy.sharding") : NULL;
  if (open) *open = !a;
  if (!a) return NULL;
  kiln_sharding *s = kiln_arena_alloc(p->arena, sizeof *s);
  if (!s) return oom(p), NULL;
  kiln_status st = a->kind == KILN_ATTR_OPAQUE ? kiln_sharding_parse(p->arena, a->opaque, &p->meshes, rank_of(t), s)
                                               : KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "sdy.sharding is not an sdy attribute");
  if (st) {
    if (!p->err)
      p->err = kiln_spmd_error(p->m, func, "%s #%d: %s", list[0] == 'a' ? "argument" : "result", (int)i,
                               kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  if (s->mesh->num_devices != p->n && !trivial(s)) {
    op_fail(p, func, "a sharding over a mesh of %lld devices in a program of %d partitions",
            (long long)s->mesh->num_devices, (int)p->n);
    return NULL;
  }
  return s;
}

/* A constraint's sharding, when it is one the partitioner can give a result (over the
 * program's devices, nothing unreduced); else NULL. */
static const kiln_sharding *constraint(part *p, const kiln_op *op) {
  const kiln_attr *a = kiln_op_attr(op, "sharding");
  kiln_sharding *s = kiln_arena_alloc(p->arena, sizeof *s);
  if (!s) return oom(p), NULL;
  if (!a || a->kind != KILN_ATTR_OPAQUE) return NULL;
  kiln_status st = kiln_sharding_parse(p->arena, a->opaque, &p->meshes, rank_of(op->results[0].type), s);
  if (st) { /* read to choose a result's blocks only: a sharding Kiln cannot read is not chosen */
    kiln_status_free(st);
    return NULL;
  }
  return s->mesh->num_devices == p->n && !s->num_unreduced && !trivial(s) ? s : NULL;
}

/* An op of any function or region, into p->out: a constraint keeps its operand (every
 * choice of blocks is correct), a manual computation becomes its body, every other op is
 * copied on whole values. */
static void rewrite_op(part *p, const kiln_op *op) {
  switch (op->kind) {
    case KILN_OP_SDY_SHARDING_CONSTRAINT:
      p->st[op->results[0].id] = p->st[op->operands[0]->id];
      p->map[op->results[0].id] = p->map[op->operands[0]->id];
      p->hint[op->results[0].id] = constraint(p, op);
      return;
    case KILN_OP_SDY_MANUAL_COMPUTATION:
      manual_computation(p, op);
      return;
    default:
      clone_op(p, op);
  }
}

/* The entry's return: each result as the blocks its sharding gives (chosen when open). */
static void entry_return(part *p, const kiln_op *op, kiln_spmd_plan *plan) {
  kiln_op *r = kiln_op_new(p->m, KILN_OP_FUNC_RETURN, op->num_operands, 0, 0, 0);
  if (!r) {
    oom(p);
    return;
  }
  r->loc = op->loc;
  for (int32_t j = 0; j < op->num_operands && j < plan->num_results && !p->err; j++) {
    int32_t id = op->operands[j]->id;
    /* left open: the blocks it has, or is constrained to; never partial sums, which the
     * framework would have to ask for */
    const kiln_sharding *has = p->st[id].local ? p->st[id].sh : NULL;
    if (!plan->results[j] && p->open_results[j])
      plan->results[j] = !trivial(has) && !has->num_unreduced ? has : p->hint[id];
    p->out_types[j] = local_type(p, op, op->operands[j]->type, plan->results[j]);
    r->operands[j] = plan->results[j] ? blocks(p, op, id, plan->results[j]) : whole(p, op, id);
  }
  kiln_block_append(p->out, r);
}

/* Per-function state: value ids are numbered per function. */
static bool begin_func(part *p, kiln_op *f) {
  free(p->st);
  free(p->map);
  free(p->hint);
  int32_t n = kiln_func_number_values(f);
  p->st = calloc((size_t)n + 1, sizeof *p->st);
  p->map = calloc((size_t)n + 1, sizeof *p->map);
  p->hint = calloc((size_t)n + 1, sizeof *p->hint);
  p->pid = p->zero = NULL;
  return p->st && p->map && p->hint ? true : oom(p);
}

/* Replaces f's body with out and its type with (ins) -> (outs). f's attributes are shared
 * with the parsed module: it gets a copy. */
static void set_body(part *p, kiln_op *f, kiln_block *out, int32_t num_in, const kiln_type **ins, int32_t num_out,
                     const kiln_type **outs) {
  kiln_type *ft = kiln_type_new(p->m, KILN_TYPE_FUNCTION);
  kiln_attr *fta = kiln_attr_new(p->m, KILN_ATTR_TYPE);
  kiln_named_attr *attrs = kiln_arena_alloc_array(p->m->arena, (size_t)f->num_attrs + 1, sizeof *attrs);
  if (!ft || !fta || !attrs) {
    oom(p);
    return;
  }
  ft->func.num_inputs = num_in;
  ft->func.inputs = ins;
  ft->func.num_results = num_out;
  ft->func.results = outs;
  fta->type = ft;
  memcpy(attrs, f->attrs, sizeof *attrs * (size_t)f->num_attrs);
  for (int32_t i = 0; i < f->num_attrs; i++)
    if (!strcmp(attrs[i].name, "function_type")) attrs[i].value = fta;
  f->attrs = attrs;
  f->regions[0].first = f->regions[0].last = NULL;
  kiln_region_append(&f->regions[0], out);
}

static bool has_sdy(const kiln_op *op) {
  if (op->kind >= KILN_OP_SDY_SHARDING_CONSTRAINT && op->kind <= KILN_OP_SDY_RETURN) return true;
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *in = b->first; in; in = in->next)
        if (has_sdy(in)) return true;
  return false;
}

/* A function the entry calls that holds sdy ops: the same rewrite on whole arguments and
 * results (the function's type does not change). */
static void partition_callee(part *p, kiln_op *f) {
  kiln_block *body = kiln_op_block(f, 0);
  const kiln_type *ft = kiln_func_type(f);
  if (!body || !ft || ft->kind != KILN_TYPE_FUNCTION || !begin_func(p, f)) return;
  if (!(p->out = kiln_block_new(p->m, body->num_args))) {
    oom(p);
    return;
  }
  for (int32_t i = 0; i < body->num_args; i++) {
    p->out->args[i] = (kiln_value){.type = body->args[i].type, .block = p->out, .index = i};
    p->map[body->args[i].id] = &p->out->args[i];
  }
  for (const kiln_op *op = body->first; op && !p->err; op = op->next) rewrite_op(p, op);
  if (!p->err)
    set_body(p, f, p->out, ft->func.num_inputs, (const kiln_type **)ft->func.inputs, ft->func.num_results,
             (const kiln_type **)ft->func.results);
}

/* The entry: arguments and results as the devices' blocks. */
static void partition_entry(part *p, kiln_op *entry, kiln_spmd_plan *plan) {
  kiln_block *body = kiln_op_block(entry, 0);
  const kiln_type *ft = kiln_func_type(entry);
  if (!body || !ft || ft->kind != KILN_TYPE_FUNCTION) {
    op_fail(p, entry, "needs a body and a function type");
    return;
  }
  if (!begin_func(p, entry)) return;
  plan->num_args = body->num_args;
  plan->num_results = ft->func.num_results;
  plan->args = kiln_arena_alloc_array(p->arena, (size_t)plan->num_args + 1, sizeof *plan->args);
  plan->results = kiln_arena_alloc_array(p->arena, (size_t)plan->num_results + 1, sizeof *plan->results);
  p->out = kiln_block_new(p->m, body->num_args);
  const kiln_type **in_types = kiln_arena_alloc_array(p->m->arena, (size_t)body->num_args + 1, sizeof *in_types);
  p->out_types = kiln_arena_alloc_array(p->m->arena, (size_t)plan->num_results + 1, sizeof *p->out_types);
  p->open_results = kiln_arena_alloc_array(p->arena, (size_t)plan->num_results + 1, sizeof *p->open_results);
  if (!plan->args || !plan->results || !p->out || !in_types || !p->out_types || !p->open_results) {
    oom(p);
    return;
  }
  for (int32_t i = 0; i < body->num_args && !p->err; i++) {
    const kiln_sharding *s = sharding_attr(p, entry, "arg_attrs", i, body->args[i].type, NULL);
    if (!s && !p->err) s = choose_arg(p, body, &body->args[i]);
    const kiln_type *lt = p->err ? NULL : local_type(p, entry, body->args[i].type, s);
    if (!lt) return;
    p->out->args[i] = (kiln_value){.type = lt, .block = p->out, .index = i};
    in_types[i] = lt;
    plan->args[i] = trivial(s) ? NULL : s;
    p->st[body->args[i].id] = (vstate){&p->out->args[i], s};
    if (trivial(s)) p->map[body->args[i].id] = &p->out->args[i];
  }
  for (int32_t j = 0; j < plan->num_results && !p->err; j++) { /* their local types: at the return */
    const kiln_sharding *s = sharding_attr(p, entry, "res_attrs", j, ft->func.results[j], &p->open_results[j]);
    plan->results[j] = trivial(s) ? NULL : s;
  }
  for (const kiln_op *op = body->first; op && !p->err; op = op->next) {
    if (op->kind == KILN_OP_FUNC_RETURN && !op->next) entry_return(p, op, plan);
    else rewrite_op(p, op);
  }
  if (!p->err) set_body(p, entry, p->out, body->num_args, in_types, plan->num_results, p->out_types);
}

kiln_status kiln_spmd_partition(kiln_module *m, kiln_op *entry, int32_t num_partitions, kiln_arena *arena,
                                kiln_spmd_plan *plan) {
  part p = {.m = m, .arena = arena, .n = num_partitions};
  memset(plan, 0, sizeof *plan);
  plan->num_partitions = num_partitions;
  if (num_partitions < 1 || num_partitions > KILN_SPMD_MAX_DEVICES)
    return kiln_spmd_error(m, entry, "a program of %d partitions (1 to %d are supported)", (int)num_partitions,
                           KILN_SPMD_MAX_DEVICES);
  KILN_RETURN_IF_ERROR(kiln_mesh_table_read(arena, m, &p.meshes));
  partition_entry(&p, entry, plan);
  const kiln_block *top = kiln_op_block(m->op, 0);
  for (kiln_op *f = top ? top->first : NULL; f && !p.err; f = f->next)
    if (f->kind == KILN_OP_FUNC && f != entry && kiln_op_block(f, 0) && has_sdy(f)) partition_callee(&p, f);
  free(p.st);
  free(p.map);
  free(p.hint);
  if (!p.err) kiln_module_number_values(m);
  return p.err;
}

bool kiln_spmd_module_has_sdy(const kiln_module *m) {
  const kiln_block *top = kiln_op_block(m->op, 0);
  for (const kiln_op *f = top ? top->first : NULL; f; f = f->next)
    if (f->kind == KILN_OP_FUNC && has_sdy(f)) return true;
  return false;
}
