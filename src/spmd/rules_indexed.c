/* Partitioning rules for the ops with dimension numbers (part.h):
 *
 *   convolution  over the batch: the input's batch dimension and the kernel's output
 *                features may be sharded (the result's batch and features take their axes);
 *                spatial and input-feature dimensions whole, no batch groups
 *   gather       the indices' batch dimensions may be sharded (the result's batch dimensions
 *                take their axes); so may operand dimensions taken whole by every slice and
 *                never indexed (the result's offset dimensions take theirs)
 *   scatter      the operand may be sharded on dimensions the updates cover whole and the
 *                indices never address (the updates' window dimensions sharded alike); the
 *                indices and the updates' scatter dimensions whole
 * A rule refuses (the op is computed whole) otherwise, as in rules.c. */
#include <string.h>

#include "spmd/part.h"

enum { MAX_RANK = KILN_PART_MAX_RANK };

/* A struct attribute's integer field (absent: dflt). */
static int64_t field_int(const kiln_attr *s, const char *name, int64_t dflt) {
  const kiln_attr *a = s ? kiln_attr_get(s, name) : NULL;
  int64_t v = dflt;
  return a && kiln_attr_i64_at(a, 0, &v) ? v : dflt;
}

/* A struct attribute's list field as flags over rank dimensions (absent: none); false when
 * an entry is out of range. */
static bool field_flags(const kiln_attr *s, const char *name, int32_t rank, bool *flags) {
  const kiln_attr *a = s ? kiln_attr_get(s, name) : NULL;
  memset(flags, 0, sizeof *flags * (size_t)rank);
  for (int64_t i = 0; a && i < kiln_attr_count(a); i++) {
    int64_t d;
    if (!kiln_attr_i64_at(a, i, &d) || d < 0 || d >= rank) return false;
    flags[d] = true;
  }
  return true;
}

/* A sharding of rank dimensions over mesh where only the flagged dimensions keep from's
 * axes (from NULL: none). */
static kiln_sharding *only(part *p, const kiln_mesh *mesh, const kiln_sharding *from, int32_t rank, const bool *keep) {
  kiln_sharding *s = kiln_part_new_sharding(p, mesh, rank);
  for (int32_t d = 0; s && from && d < rank; d++)
    if (keep[d]) s->dims[d] = from->dims[d];
  return s;
}

/* Whether s shards any dimension not flagged in allowed (s NULL: none). */
static bool sharded_elsewhere(const kiln_sharding *s, const bool *allowed) {
  for (int32_t d = 0; s && d < s->rank; d++)
    if (s->dims[d].count && !allowed[d]) return true;
  return false;
}

bool kiln_part_rule_convolution(part *p, const kiln_op *op) {
  const kiln_attr *dn = kiln_op_attr(op, "dimension_numbers");
  const kiln_value *lv = op->operands[0], *rv = op->operands[1];
  if (op->num_operands != 2 || !dn || dn->kind != KILN_ATTR_STRUCT || !kiln_part_static_tensor(lv->type) ||
      !kiln_part_static_tensor(rv->type) || !kiln_part_static_tensor(op->results[0].type))
    return false;
  int32_t rank = lv->type->tensor.rank;
  int64_t ib = field_int(dn, "input_batch_dimension", -1), kof = field_int(dn, "kernel_output_feature_dimension", -1);
  int64_t ob = field_int(dn, "output_batch_dimension", -1), ofd = field_int(dn, "output_feature_dimension", -1);
  const kiln_attr *bg = kiln_op_attr(op, "batch_group_count");
  int64_t groups = 1;
  if (bg) kiln_attr_i64_at(bg, 0, &groups);
  if (groups != 1 || ib < 0 || ib >= rank || kof < 0 || kof >= rank || ob < 0 || ob >= rank || ofd < 0 || ofd >= rank)
    return false;
  const kiln_sharding *sl = kiln_part_settled(p, op, lv->id), *sr = kiln_part_settled(p, op, rv->id);
  bool batch[MAX_RANK] = {false}, features[MAX_RANK] = {false};
  batch[ib] = features[kof] = true;
  if ((!sl && !sr) || sharded_elsewhere(sl, batch) || sharded_elsewhere(sr, features) || (sl && sr && sl->mesh != sr->mesh))
    return false;
  const kiln_mesh *mesh = sl ? sl->mesh : sr->mesh;
  kiln_sharding *tl = only(p, mesh, sl, rank, batch), *tr = only(p, mesh, sr, rank, features);
  kiln_sharding *s = kiln_part_new_sharding(p, mesh, op->results[0].type->tensor.rank);
  kiln_part_used used = {0};
  if (!tl || !tr || !s || !kiln_part_use_axes(&tl->dims[ib], &used) || !kiln_part_use_axes(&tr->dims[kof], &used))
    return false;
  s->dims[ob] = tl->dims[ib];
  s->dims[ofd] = tr->dims[kof];
  kiln_value *ins[2] = {kiln_part_blocks(p, op, lv->id, tl), kiln_part_blocks(p, op, rv->id, tr)};
  return ins[0] && ins[1] && kiln_part_emit_on_blocks(p, op, ins, s);
}

bool kiln_part_rule_gather(part *p, const kiln_op *op) {
  const kiln_attr *dn = kiln_op_attr(op, "dimension_numbers"), *sizes = kiln_op_attr(op, "slice_sizes");
  const kiln_value *ov = op->operands[0], *iv = op->operands[1];
  const kiln_type *rt = op->results[0].type;
  if (op->num_operands != 2 || !dn || !sizes || !kiln_part_static_tensor(ov->type) || !kiln_part_static_tensor(iv->type) ||
      !kiln_part_static_tensor(rt))
    return false;
  int32_t orank = ov->type->tensor.rank, irank = iv->type->tensor.rank, rrank = rt->tensor.rank;
  int64_t ivd = field_int(dn, "index_vector_dim", irank), slice[MAX_RANK];
  bool collapsed[MAX_RANK], indexed[MAX_RANK], obatch[MAX_RANK], offset[MAX_RANK];
  if (!field_flags(dn, "collapsed_slice_dims", orank, collapsed) || !field_flags(dn, "start_index_map", orank, indexed) ||
      !field_flags(dn, "operand_batching_dims", orank, obatch) || !field_flags(dn, "offset_dims", rrank, offset) ||
      kiln_attr_count(sizes) != orank || ivd < 0 || ivd > irank)
    return false;
  bool whole_slice[MAX_RANK], index_batch[MAX_RANK];
  for (int32_t d = 0; d < orank; d++) {
    if (!kiln_attr_i64_at(sizes, d, &slice[d]) || obatch[d]) return false; /* batching dims: not here */
    whole_slice[d] = !collapsed[d] && !indexed[d] && slice[d] == ov->type->tensor.dims[d];
  }
  for (int32_t d = 0; d < irank; d++) index_batch[d] = d != ivd;
  const kiln_sharding *so = kiln_part_settled(p, op, ov->id), *si = kiln_part_settled(p, op, iv->id);
  if ((!so && !si) || sharded_elsewhere(so, whole_slice) || sharded_elsewhere(si, index_batch) ||
      (so && si && so->mesh != si->mesh))
    return false;
  const kiln_mesh *mesh = so ? so->mesh : si->mesh;
  kiln_sharding *to = only(p, mesh, so, orank, whole_slice), *ti = only(p, mesh, si, irank, index_batch);
  kiln_sharding *s = kiln_part_new_sharding(p, mesh, rrank);
  if (!to || !ti || !s) return false;
  /* the result's offset dimensions are the operand's uncollapsed ones in order; its other
   * dimensions the indices' batch dimensions in order */
  kiln_part_used used = {0};
  int32_t od = 0, bd = 0;
  for (int32_t r = 0; r < rrank; r++) {
    if (offset[r]) {
      while (od < orank && collapsed[od]) od++;
      if (od == orank || !kiln_part_use_axes(&to->dims[od], &used)) return false;
      s->dims[r] = to->dims[od++];
    } else {
      while (bd < irank && bd == ivd) bd++;
      if (bd == irank || !kiln_part_use_axes(&ti->dims[bd], &used)) return false;
      s->dims[r] = ti->dims[bd++];
    }
  }
  kiln_value *ins[2] = {kiln_part_blocks(p, op, ov->id, to), kiln_part_blocks(p, op, iv->id, ti)};
  if (!ins[0] || !ins[1] || !kiln_part_emit_on_blocks(p, op, ins, s)) return false;
  bool cut = false; /* the sharded slices are the blocks' sizes */
  for (int32_t d = 0; d < orank; d++)
    if (to->dims[d].count) slice[d] /= kiln_sharding_parts(to, d), cut = true;
  return !cut || kiln_part_replace_attr(p, p->st[op->results[0].id].local->def, sizes,
                                        kiln_attr_make_i64_array(p->m, slice, orank));
}

bool kiln_part_rule_scatter(part *p, const kiln_op *op) {
  const kiln_attr *dn = kiln_op_attr(op, "scatter_dimension_numbers");
  if (op->num_operands != 3 || !dn) return false;
  const kiln_value *ov = op->operands[0], *iv = op->operands[1], *uv = op->operands[2];
  if (!kiln_part_static_tensor(ov->type) || !kiln_part_static_tensor(iv->type) || !kiln_part_static_tensor(uv->type))
    return false;
  int32_t orank = ov->type->tensor.rank, urank = uv->type->tensor.rank;
  bool inserted[MAX_RANK], addressed[MAX_RANK], ibatch[MAX_RANK], window[MAX_RANK];
  if (!field_flags(dn, "inserted_window_dims", orank, inserted) ||
      !field_flags(dn, "scatter_dims_to_operand_dims", orank, addressed) ||
      !field_flags(dn, "input_batching_dims", orank, ibatch) || !field_flags(dn, "update_window_dims", urank, window))
    return false;
  /* operand dimension d is the updates' window dimension win[d] (-1: none) */
  int32_t win[MAX_RANK], u = 0;
  bool free_dim[MAX_RANK], free_window[MAX_RANK] = {false};
  for (int32_t d = 0; d < orank; d++) {
    win[d] = -1;
    if (inserted[d] || ibatch[d]) continue;
    while (u < urank && !window[u]) u++;
    if (u == urank) return false;
    win[d] = u++;
  }
  for (int32_t d = 0; d < orank; d++) {
    free_dim[d] = win[d] >= 0 && !addressed[d] && uv->type->tensor.dims[win[d]] == ov->type->tensor.dims[d];
    if (free_dim[d]) free_window[win[d]] = true;
  }
  const kiln_sharding *so = kiln_part_settled(p, op, ov->id), *su = kiln_part_settled(p, op, uv->id);
  if (!so || sharded_elsewhere(so, free_dim) || sharded_elsewhere(su, free_window) || kiln_part_settled(p, op, iv->id) ||
      (su && su->mesh != so->mesh))
    return false;
  kiln_sharding *tu = kiln_part_new_sharding(p, so->mesh, urank);
  if (!tu) return false;
  for (int32_t d = 0; d < orank; d++) /* the updates' windows cut as the operand is */
    if (so->dims[d].count) tu->dims[win[d]] = so->dims[d];
  kiln_value *ins[3] = {kiln_part_blocks(p, op, ov->id, so), kiln_part_whole(p, op, iv->id),
                        kiln_part_blocks(p, op, uv->id, tu)};
  return ins[0] && ins[1] && ins[2] && kiln_part_emit_on_blocks(p, op, ins, so);
}
