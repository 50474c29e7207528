/* Loop-invariant products hoisted out of counted while loops (see loop_products.h). */
#include "passes/loop_products.h"

#include <string.h>

#include "passes/rewrite.h"

enum {
  MAX_RANK = 16,        /* of a product the pass makes (larger ones are left alone) */
  ROWS_PER_TRIP = 4,    /* hoisted when the loop runs at least rows / ROWS_PER_TRIP times */
};
/* The hoisted product's bytes, at most: this, or SEQUENCE_TIMES times the sequence's (a
 * product much wider than its sequence would hold far more memory than the loop needs). */
static const int64_t MAX_PRODUCT_BYTES = (int64_t)64 << 20, SEQUENCE_TIMES = 4;

/* Whether v is defined outside op w (not in any of its regions). */
static bool outside(const kiln_op *w, const kiln_value *v) {
  for (const kiln_block *b = v->def ? v->def->parent : v->block; b; ) {
    const kiln_op *owner = b->parent ? b->parent->parent : NULL;
    if (owner == w) return false;
    b = owner ? owner->parent : NULL;
  }
  return true;
}

/* The value outside while loop w that v (read in w's body) equals on every iteration: the
 * loop's operand for a carried value the body returns unchanged, v itself when defined
 * outside the loop; NULL otherwise. */
static kiln_value *invariant_outer(const kiln_op *w, const kiln_block *body, kiln_value *v) {
  int32_t k = kiln_rewrite_arg_index(body, v);
  if (k >= 0) return k < w->num_operands && body->last->operands[k] == v ? w->operands[k] : NULL;
  return outside(w, v) ? v : NULL;
}

/* dot (in w's body) as reshape(dynamic_slice(P, i, i, ...)) of P = the same product of
 * the sliced operand's whole rows, made before w; *done when it was. */
static kiln_status hoist(kiln_module *m, kiln_op *w, kiln_block *body, kiln_op *dot, int64_t trips, bool *done) {
  *done = false;
  const kiln_attr *dn = kiln_op_attr(dot, "dot_dimension_numbers");
  if (dot->num_operands != 2 || !dn || dn->kind != KILN_ATTR_STRUCT ||
      !kiln_rewrite_dims_are(dn, "lhs_batching_dimensions", NULL, 0) ||
      !kiln_rewrite_dims_are(dn, "rhs_batching_dimensions", NULL, 0))
    return NULL;
  kiln_op *view = dot->operands[0]->def, *slice = view;
  bool reshaped = view && view->kind == KILN_OP_RESHAPE && view->parent == body;
  if (reshaped) slice = view->operands[0]->def;
  if (!slice || slice->kind != KILN_OP_DYNAMIC_SLICE || slice->parent != body) return NULL;
  kiln_value *x = invariant_outer(w, body, slice->operands[0]), *wt = invariant_outer(w, body, dot->operands[1]);
  const kiln_type *xt = slice->operands[0]->type, *st = slice->results[0].type, *rt = dot->results[0].type;
  if (!x || !wt || !kiln_type_is_static(xt) || !kiln_type_is_static(rt) || xt->tensor.rank < 1 ||
      kiln_type_is_quant_tensor(xt) || kiln_type_is_quant_tensor(rt) || st->tensor.dims[0] != 1)
    return NULL;
  int32_t r = xt->tensor.rank;
  int64_t rows = xt->tensor.dims[0];
  for (int32_t d = 1; d < r; d++)
    if (st->tensor.dims[d] != xt->tensor.dims[d]) return NULL; /* one whole row */
  if (reshaped) { /* the reshape drops the row's leading 1 */
    const kiln_type *vt = view->results[0].type;
    if (vt->tensor.rank != r - 1) return NULL;
    for (int32_t d = 1; d < r; d++)
      if (vt->tensor.dims[d - 1] != xt->tensor.dims[d]) return NULL;
  }
  const kiln_attr *lc = kiln_attr_get(dn, "lhs_contracting_dimensions");
  int64_t nc = lc ? kiln_attr_count(lc) : 0, cdims[MAX_RANK];
  int32_t pr = rt->tensor.rank + (reshaped ? 1 : 0);
  if (trips < rows / ROWS_PER_TRIP || nc < 0 || nc > MAX_RANK || pr > MAX_RANK) return NULL;
  for (int64_t i = 0; i < nc; i++) {
    if (!kiln_attr_i64_at(lc, i, &cdims[i])) return NULL;
    if (!reshaped && cdims[i] == 0) return NULL; /* the row dim itself is contracted */
    cdims[i] += reshaped;
  }
  /* P: the rows, then the result's dims after its own leading 1 (or all, reshaped) */
  int64_t pdims[MAX_RANK], sizes[MAX_RANK];
  pdims[0] = rows;
  for (int32_t d = 1; d < pr; d++) pdims[d] = rt->tensor.dims[d - (reshaped ? 1 : 0)];
  for (int32_t d = 0; d < pr; d++) sizes[d] = d ? pdims[d] : 1;
  const kiln_type *pt = kiln_type_tensor(m, kiln_type_element(rt), pr, pdims, NULL);
  int64_t pbytes, xbytes, unit = (int64_t)kiln_elem_storage_bytes(kiln_type_elem(rt));
  if (pt && (!kiln_mul_i64(pt->tensor.num_elements, unit, &pbytes) ||
             !kiln_mul_i64(xt->tensor.num_elements, (int64_t)kiln_elem_storage_bytes(kiln_type_elem(xt)), &xbytes) ||
             (pbytes > MAX_PRODUCT_BYTES && pbytes / SEQUENCE_TIMES > xbytes)))
    return NULL;
  const kiln_type *dst = reshaped ? kiln_type_tensor(m, kiln_type_element(rt), pr, sizes, NULL) : rt;
  const char *contracting = "lhs_contracting_dimensions";
  const kiln_attr *cval = kiln_attr_make_i64_array(m, cdims, nc);
  const kiln_attr *pdn = cval ? kiln_rewrite_struct_with(m, dn, &contracting, &cval, 1) : NULL;
  const kiln_attr *sizes_attr = kiln_attr_make_i64_array(m, sizes, pr);
  kiln_op *prod = kiln_op_new(m, KILN_OP_DOT_GENERAL, 2, 1, dot->num_attrs, 0);
  kiln_op *ds = reshaped ? kiln_op_new(m, KILN_OP_DYNAMIC_SLICE, pr + 1, 1, 1, 0) : NULL;
  kiln_value **operands = reshaped ? kiln_arena_alloc_array(m->arena, 1, sizeof *operands)
                                   : kiln_arena_alloc_array(m->arena, (size_t)pr + 1, sizeof *operands);
  kiln_named_attr *slice_attrs = kiln_arena_alloc_array(m->arena, 1, sizeof *slice_attrs);
  if (!pt || !dst || !pdn || !sizes_attr || !prod || (reshaped && !ds) || !operands || !slice_attrs)
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory hoisting a loop's product");
  /* the product of all rows, before the loop */
  for (int32_t i = 0; i < dot->num_attrs; i++) {
    prod->attrs[i] = dot->attrs[i];
    if (!strcmp(dot->attrs[i].name, "dot_dimension_numbers")) prod->attrs[i].value = pdn;
  }
  prod->operands[0] = x;
  prod->operands[1] = wt;
  prod->results[0].type = pt;
  prod->loc = dot->loc;
  kiln_block_insert_before(w, prod);
  /* its row i: every start index is the row's (the other dims are whole: they clamp to 0) */
  slice_attrs[0] = (kiln_named_attr){"slice_sizes", sizes_attr};
  kiln_value *row = slice->operands[1];
  kiln_op *sl = reshaped ? ds : dot;
  kiln_value **sl_operands = reshaped ? ds->operands : operands;
  sl_operands[0] = &prod->results[0];
  for (int32_t d = 0; d < pr; d++) sl_operands[1 + d] = row;
  if (reshaped) {
    ds->results[0].type = dst;
    ds->loc = dot->loc;
    ds->attrs[0] = slice_attrs[0];
    kiln_block_insert_before(dot, ds);
    operands[0] = &ds->results[0];
    dot->kind = KILN_OP_RESHAPE;
    dot->operands = operands;
    dot->num_operands = 1;
    dot->num_attrs = 0;
    dot->attrs = NULL;
  } else {
    sl->kind = KILN_OP_DYNAMIC_SLICE;
    sl->operands = sl_operands;
    sl->num_operands = pr + 1;
    sl->num_attrs = 1;
    sl->attrs = slice_attrs;
  }
  if (reshaped && !kiln_rewrite_uses(body, &view->results[0])) kiln_block_remove(body, view);
  if (!kiln_rewrite_uses(body, &slice->results[0])) kiln_block_remove(body, slice);
  *done = true;
  return NULL;
}

static kiln_status hoist_block(kiln_module *m, kiln_block *b, int32_t *hoisted) {
  for (kiln_op *op = b->first; op; op = op->next) {
    for (int32_t r = 0; r < op->num_regions; r++) /* inner loops first: their products may then leave this one */
      for (kiln_block *inner = op->regions[r].first; inner; inner = inner->next)
        KILN_RETURN_IF_ERROR(hoist_block(m, inner, hoisted));
    int64_t trips;
    kiln_block *body = op->kind == KILN_OP_WHILE ? kiln_op_block(op, 1) : NULL;
    if (!body || !kiln_rewrite_trip_count(op, &trips)) continue;
    for (kiln_op *d = body->first; d; d = d->next) {
      if (d->kind != KILN_OP_DOT_GENERAL) continue;
      bool done;
      KILN_RETURN_IF_ERROR(hoist(m, op, body, d, trips, &done));
      *hoisted += done;
    }
  }
  return NULL;
}

kiln_status kiln_hoist_loop_products(kiln_module *m, kiln_op *func, int32_t *out_hoisted) {
  *out_hoisted = 0;
  kiln_block *body = kiln_op_block(func, 0);
  return body ? hoist_block(m, body, out_hoisted) : NULL;
}
