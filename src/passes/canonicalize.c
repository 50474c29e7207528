/* Algebraic rewrites of one function (see canonicalize.h). */
#include "passes/canonicalize.h"
#include "passes/rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RANK = 16 }; /* of a product or slice a rewrite makes (larger ones are left alone) */

static bool permutation_is_swap(const kiln_op *t) {
  const kiln_attr *p = kiln_op_attr(t, "permutation");
  int64_t a, b;
  return kiln_attr_count(p) == 2 && kiln_attr_i64_at(p, 0, &a) && kiln_attr_i64_at(p, 1, &b) && a == 1 && b == 0;
}

/* A dot_general without batching dims and one free dim each side (a matrix product, or the
 * contraction of a batch's rows as a weight gradient is): its result is a matrix, and the
 * product with the operands swapped is its transpose. */
static bool plain_matmul(const kiln_op *dot) {
  const kiln_attr *dn = kiln_op_attr(dot, "dot_dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT || dot->num_operands != 2) return false;
  const kiln_attr *lb = kiln_attr_get(dn, "lhs_batching_dimensions"), *lc = kiln_attr_get(dn, "lhs_contracting_dimensions");
  const kiln_attr *rc = kiln_attr_get(dn, "rhs_contracting_dimensions");
  if ((lb && kiln_attr_count(lb) != 0) || !lc || !rc || kiln_attr_count(lc) < 1) return false;
  return dot->operands[0]->type->tensor.rank == kiln_attr_count(lc) + 1 &&
         dot->operands[1]->type->tensor.rank == kiln_attr_count(rc) + 1 && dot->results[0].type->tensor.rank == 2;
}

/* The dot's attributes with lhs and rhs exchanged (dimension numbers, precision config). */
static kiln_named_attr *swapped_attrs(kiln_module *m, const kiln_op *dot) {
  kiln_named_attr *attrs = kiln_arena_alloc_array(m->arena, (size_t)dot->num_attrs + 1, sizeof *attrs);
  if (!attrs) return NULL;
  for (int32_t i = 0; i < dot->num_attrs; i++) {
    attrs[i] = dot->attrs[i];
    const kiln_attr *a = dot->attrs[i].value;
    if (!strcmp(dot->attrs[i].name, "dot_dimension_numbers") && a->kind == KILN_ATTR_STRUCT) {
      kiln_attr *s = kiln_attr_new(m, KILN_ATTR_STRUCT);
      kiln_named_attr *fields = kiln_arena_alloc_array(m->arena, (size_t)a->strct.count + 1, sizeof *fields);
      if (!s || !fields) return NULL;
      *s = *a;
      for (int32_t f = 0; f < a->strct.count; f++) {
        fields[f] = a->strct.fields[f];
        const char *name = fields[f].name;
        if (name && (!strncmp(name, "lhs_", 4) || !strncmp(name, "rhs_", 4))) {
          char other[64];
          snprintf(other, sizeof other, "%s%s", name[0] == 'l' ? "rhs_" : "lhs_", name + 4);
          for (int32_t g = 0; g < a->strct.count; g++)
            if (a->strct.fields[g].name && !strcmp(a->strct.fields[g].name, other)) fields[f].value = a->strct.fields[g].value;
        }
      }
      s->strct.fields = fields;
      attrs[i].value = s;
    } else if (!strcmp(dot->attrs[i].name, "precision_config") && a->kind == KILN_ATTR_ARRAY && a->array.count == 2) {
      kiln_attr *p = kiln_attr_new(m, KILN_ATTR_ARRAY);
      const kiln_attr **items = kiln_arena_alloc_array(m->arena, 2, sizeof *items);
      if (!p || !items) return NULL;
      *p = *a;
      items[0] = a->array.items[1];
      items[1] = a->array.items[0];
      p->array.items = items;
      attrs[i].value = p;
    }
  }
  return attrs;
}

/* g gathers whole rows of a static matrix x: each point of the result's leading dims is a
 * row x[clamp(i)] in its last dim. *points: how many rows it gathers. */
static bool row_gather(const kiln_op *g, int64_t *points) {
  if (g->kind != KILN_OP_GATHER || g->num_operands != 2 || g->num_results != 1) return false;
  const kiln_type *x = g->operands[0]->type, *r = g->results[0].type;
  if (!kiln_type_is_tensor(x) || !kiln_type_is_static(x) || x->tensor.rank != 2 || !kiln_type_is_tensor(r) ||
      !kiln_type_is_static(r) || r->tensor.rank < 1 || kiln_type_is_quant_tensor(x))
    return false;
  const kiln_attr *dn = kiln_op_attr(g, "dimension_numbers"), *ss = kiln_op_attr(g, "slice_sizes");
  int64_t zero = 0, last = r->tensor.rank - 1, size;
  if (!dn || dn->kind != KILN_ATTR_STRUCT || !kiln_rewrite_dims_are(dn, "offset_dims", &last, 1) ||
      !kiln_rewrite_dims_are(dn, "collapsed_slice_dims", &zero, 1) || !kiln_rewrite_dims_are(dn, "start_index_map", &zero, 1) ||
      !kiln_rewrite_dims_are(dn, "operand_batching_dims", NULL, 0) || !kiln_rewrite_dims_are(dn, "start_indices_batching_dims", NULL, 0) ||
      kiln_attr_count(ss) != 2 || !kiln_attr_i64_at(ss, 0, &size) || size != 1 || !kiln_attr_i64_at(ss, 1, &size) ||
      size != x->tensor.dims[1] || r->tensor.dims[last] != size)
    return false;
  *points = r->tensor.num_elements / (size ? size : 1);
  return size != 0;
}

/* dot_general(gather(x, i), w), the gather taking whole rows of x (row_gather) and the dot
 * contracting exactly their elements without batching dims, on either side: when there are
 * more rows gathered than x has, it becomes gather(dot_general(x, w), i), each row of the
 * product computed once (a graph network's messages x[senders] @ w, a projected embedding
 * lookup). The gather's clamping is the same, row for row. */
static kiln_status gather_dot(kiln_module *m, kiln_block *body, kiln_op *dot, bool *done) {
  *done = false;
  const kiln_attr *dn = kiln_op_attr(dot, "dot_dimension_numbers");
  if (dot->kind != KILN_OP_DOT_GENERAL || dot->num_operands != 2 || !dn || dn->kind != KILN_ATTR_STRUCT ||
      !kiln_rewrite_dims_are(dn, "lhs_batching_dimensions", NULL, 0) || !kiln_rewrite_dims_are(dn, "rhs_batching_dimensions", NULL, 0))
    return NULL;
  const kiln_type *rt = dot->results[0].type;
  if (!kiln_type_is_tensor(rt) || !kiln_type_is_static(rt)) return NULL;
  for (int32_t side = 0; side < 2; side++) {
    kiln_op *g = dot->operands[side]->def;
    const kiln_value *w = dot->operands[1 - side];
    int64_t points, last;
    if (!g || g->parent != body || !row_gather(g, &points) || dot->operands[1 - side] == &g->results[0] ||
        kiln_rewrite_uses(body, &g->results[0]) != 1 || !kiln_type_is_tensor(w->type))
      continue;
    const kiln_type *x = g->operands[0]->type;
    last = g->results[0].type->tensor.rank - 1;
    if (!kiln_rewrite_dims_are(dn, side ? "rhs_contracting_dimensions" : "lhs_contracting_dimensions", &last, 1) ||
        points <= x->tensor.dims[0])
      continue;
    /* the product of x: its rows, then (or before, for side 1) w's free dims, as in the result */
    int32_t nf = rt->tensor.rank - (int32_t)last, row = side ? nf : 0;
    int64_t pdims[MAX_RANK], offs[MAX_RANK];
    if (nf + 1 > MAX_RANK) continue;
    for (int32_t k = 0; k < nf; k++) {
      int32_t rd = side ? k : (int32_t)last + k; /* the free dims' place in the result */
      pdims[k + (side ? 0 : 1)] = rt->tensor.dims[rd];
      offs[k] = rd;
    }
    pdims[row] = x->tensor.dims[0];
    const kiln_type *pt = kiln_type_tensor(m, kiln_type_element(rt), nf + 1, pdims, NULL);
    kiln_op *prod = kiln_op_new(m, KILN_OP_DOT_GENERAL, 2, 1, dot->num_attrs, 0);
    if (!pt || !prod) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
    int64_t one = 1, rowd = row, slice[MAX_RANK];
    const char *contracting = side ? "rhs_contracting_dimensions" : "lhs_contracting_dimensions";
    const kiln_attr *cval = kiln_attr_make_i64_array(m, &one, 1);
    const kiln_attr *pdn = cval ? kiln_rewrite_struct_with(m, dn, &contracting, &cval, 1) : NULL;
    for (int32_t k = 0; k <= nf; k++) slice[k] = k == row ? 1 : pdims[k];
    const char *gnames[3] = {"offset_dims", "collapsed_slice_dims", "start_index_map"};
    const kiln_attr *gvals[3] = {kiln_attr_make_i64_array(m, offs, nf), kiln_attr_make_i64_array(m, &rowd, 1),
                                 kiln_attr_make_i64_array(m, &rowd, 1)};
    const kiln_attr *gdn = gvals[0] && gvals[1] && gvals[2]
                               ? kiln_rewrite_struct_with(m, kiln_op_attr(g, "dimension_numbers"), gnames, gvals, 3) : NULL;
    const kiln_attr *sizes = kiln_attr_make_i64_array(m, slice, nf + 1);
    kiln_named_attr *gattrs = kiln_arena_alloc_array(m->arena, (size_t)g->num_attrs, sizeof *gattrs);
    kiln_value **goperands = kiln_arena_alloc_array(m->arena, 2, sizeof *goperands);
    if (!pdn || !gdn || !sizes || !gattrs || !goperands)
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
    /* the product: the dot's attributes with x's contracting dim, placed before the dot */
    for (int32_t i = 0; i < dot->num_attrs; i++) {
      prod->attrs[i] = dot->attrs[i];
      if (!strcmp(dot->attrs[i].name, "dot_dimension_numbers")) prod->attrs[i].value = pdn;
    }
    prod->operands[side] = g->operands[0];
    prod->operands[1 - side] = dot->operands[1 - side];
    prod->results[0].type = pt;
    prod->loc = dot->loc;
    kiln_block_insert_before(dot, prod);
    /* the dot becomes the gather of the product's rows; the old gather goes */
    for (int32_t i = 0; i < g->num_attrs; i++) {
      gattrs[i] = g->attrs[i];
      if (!strcmp(g->attrs[i].name, "dimension_numbers")) gattrs[i].value = gdn;
      else if (!strcmp(g->attrs[i].name, "slice_sizes")) gattrs[i].value = sizes;
    }
    goperands[0] = &prod->results[0];
    goperands[1] = g->operands[1];
    dot->kind = KILN_OP_GATHER;
    dot->operands = goperands;
    dot->attrs = gattrs;
    dot->num_attrs = g->num_attrs;
    kiln_block_remove(body, g);
    *done = true;
    return NULL;
  }
  return NULL;
}

/* transpose(all_reduce(dot_general(a, b))), the transpose swapping a plain product's two
 * dims and each value read once (a weight gradient of a data-parallel step, summed over the
 * devices, then laid out as the weight): all_reduce(dot_general(b, a)). A sum over devices
 * commutes with the transpose; the swapped product writes the weight's layout at once,
 * where the transpose would read the sum column by column. The transpose becomes the
 * all_reduce (its region moved over), the old all_reduce goes. */
static kiln_status swap_summed_product(kiln_module *m, kiln_block *body, kiln_op *t, bool *done) {
  *done = false;
  kiln_op *ar = t->operands[0]->def;
  kiln_op *dot = ar && ar->kind == KILN_OP_ALL_REDUCE && ar->num_operands == 1 && ar->num_results == 1 &&
                         ar->num_regions == 1 && ar->parent == body && kiln_rewrite_uses(body, &ar->results[0]) == 1
                     ? ar->operands[0]->def
                     : NULL;
  if (!dot || dot->parent != body || dot->kind != KILN_OP_DOT_GENERAL || !plain_matmul(dot) ||
      kiln_rewrite_uses(body, &dot->results[0]) != 1)
    return NULL;
  kiln_named_attr *attrs = swapped_attrs(m, dot);
  kiln_value **operands = kiln_arena_alloc_array(m->arena, 2, sizeof *operands);
  kiln_value **summed = kiln_arena_alloc_array(m->arena, 1, sizeof *summed);
  if (!attrs || !operands || !summed) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
  operands[0] = dot->operands[1];
  operands[1] = dot->operands[0];
  dot->operands = operands;
  dot->attrs = attrs;
  dot->results[0].type = t->results[0].type;
  summed[0] = &dot->results[0];
  t->kind = KILN_OP_ALL_REDUCE;
  t->operands = summed;
  t->num_operands = 1;
  t->attrs = ar->attrs;
  t->num_attrs = ar->num_attrs;
  t->regions = ar->regions;
  t->num_regions = 1;
  t->regions[0].parent = t;
  t->loc = ar->loc;
  kiln_block_remove(body, ar);
  *done = true;
  return NULL;
}

/* A new op of kind with operands a (and b), result type t, before `before`. */
static kiln_op *op_before(kiln_module *m, kiln_op *before, kiln_op_kind kind, kiln_value *a, kiln_value *b,
                          const kiln_type *t) {
  kiln_op *op = kiln_op_new(m, kind, b ? 2 : 1, 1, 0, 0);
  if (!op) return NULL;
  op->operands[0] = a;
  if (b) op->operands[1] = b;
  op->results[0].type = t;
  op->loc = before->loc;
  kiln_block_insert_before(before, op);
  return op;
}

/* A product of complex tensors as four real ones: (a + ib)(c + id) = (ac - bd) + i(ad + bc),
 * each at the library's matrix rate (a complex product is a generated loop: a 256x256 one
 * took 13.8 ms, XLA:CPU's 1.5). Every sum is a real product's, reassociated as any blocked
 * product's is, and ac - bd is formed from the two whole sums (a library's complex gemm
 * does the same); the dot becomes the complex of the two sums. Products of fewer than
 * COMPLEX_MIN_MACS multiply-adds stay complex loops, which add term by term in the
 * interpreter's order (the conformance suite's 4x3x6 ones are within 3 ULP so, and up
 * to 115 ULP apart in a component that cancels when split). */
enum { COMPLEX_MIN_MACS = 1 << 15 };

static kiln_status complex_product(kiln_module *m, kiln_op *dot, bool *done) {
  *done = false;
  const kiln_type *lt = dot->operands[0]->type, *rt = dot->operands[1]->type, *ot = dot->results[0].type;
  if (!kiln_type_is_tensor(lt) || !kiln_type_is_tensor(rt) || !kiln_type_is_tensor(ot) || !kiln_type_is_static(lt) ||
      !kiln_type_is_static(rt) || !kiln_type_is_static(ot) || kiln_type_is_quant_tensor(lt) ||
      kiln_type_is_quant_tensor(rt) || kiln_type_is_quant_tensor(ot))
    return NULL;
  /* multiply-adds: every result element times the elements each one contracts */
  int64_t contracted = 1, macs;
  const kiln_attr *dn = kiln_op_attr(dot, "dot_dimension_numbers");
  const kiln_attr *lc = dn ? kiln_attr_get(dn, "lhs_contracting_dimensions") : NULL;
  for (int64_t i = 0; lc && i < kiln_attr_count(lc); i++) {
    int64_t d;
    if (!kiln_attr_i64_at(lc, i, &d) || d < 0 || d >= lt->tensor.rank) return NULL;
    contracted *= lt->tensor.dims[d];
  }
  if (!kiln_mul_i64(ot->tensor.num_elements, contracted, &macs) || macs < COMPLEX_MIN_MACS) return NULL;
  kiln_elem e = kiln_type_elem(ot);
  if (!kiln_elem_is_complex(e) || kiln_type_elem(lt) != e || kiln_type_elem(rt) != e) return NULL;
  const kiln_type *part = kiln_type_scalar(m, kiln_elem_complex_part(e));
  const kiln_type *lp = part ? kiln_type_tensor(m, part, lt->tensor.rank, lt->tensor.dims, NULL) : NULL;
  const kiln_type *rp = part ? kiln_type_tensor(m, part, rt->tensor.rank, rt->tensor.dims, NULL) : NULL;
  const kiln_type *op = part ? kiln_type_tensor(m, part, ot->tensor.rank, ot->tensor.dims, NULL) : NULL;
  kiln_value **parts = kiln_arena_alloc_array(m->arena, 2, sizeof *parts);
  if (!lp || !rp || !op || !parts) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
  kiln_op *ops[8] = {
      op_before(m, dot, KILN_OP_REAL, dot->operands[0], NULL, lp), op_before(m, dot, KILN_OP_IMAG, dot->operands[0], NULL, lp),
      op_before(m, dot, KILN_OP_REAL, dot->operands[1], NULL, rp), op_before(m, dot, KILN_OP_IMAG, dot->operands[1], NULL, rp)};
  for (int i = 0; i < 4; i++)
    if (!ops[i]) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
  static const int pairs[4][2] = {{0, 2}, {1, 3}, {0, 3}, {1, 2}}; /* ac, bd, ad, bc */
  for (int k = 0; k < 4; k++) {
    kiln_op *d = op_before(m, dot, KILN_OP_DOT_GENERAL, &ops[pairs[k][0]]->results[0], &ops[pairs[k][1]]->results[0], op);
    if (!d) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
    d->attrs = dot->attrs; /* immutable: shared */
    d->num_attrs = dot->num_attrs;
    ops[4 + k] = d;
  }
  kiln_op *re = op_before(m, dot, KILN_OP_SUBTRACT, &ops[4]->results[0], &ops[5]->results[0], op);
  kiln_op *im = op_before(m, dot, KILN_OP_ADD, &ops[6]->results[0], &ops[7]->results[0], op);
  if (!re || !im) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
  parts[0] = &re->results[0];
  parts[1] = &im->results[0];
  dot->kind = KILN_OP_COMPLEX;
  dot->operands = parts;
  dot->num_attrs = 0;
  dot->attrs = NULL;
  *done = true;
  return NULL;
}

/* Whether integer list `name` of op is all zeros (absent reads as empty) or, with iota,
 * 0, 1, 2, ... */
static bool list_is(const kiln_op *op, const char *name, bool iota) {
  const kiln_attr *a = kiln_op_attr(op, name);
  for (int64_t i = 0, v; a && i < kiln_attr_count(a); i++)
    if (!kiln_attr_i64_at(a, i, &v) || v != (iota ? i : 0)) return false;
  return true;
}

/* Whether op's result is its operand unchanged: a pad by nothing, a slice of all of it, a
 * transpose or broadcast_in_dim in the operand's own order, a reverse of no dimension, a
 * reshape or a convert to the operand's own type (static shapes: a `?` hides a slice's
 * extent). */
static bool is_identity(const kiln_op *op) {
  if (op->num_operands < 1 || op->num_results != 1 || op->num_regions != 0) return false;
  const kiln_type *in = op->operands[0]->type, *out = op->results[0].type;
  if (!in || !out || !kiln_type_is_static(in) || !kiln_type_equal(in, out)) return false;
  switch (op->kind) {
    case KILN_OP_PAD:
      return list_is(op, "edge_padding_low", false) && list_is(op, "edge_padding_high", false) &&
             list_is(op, "interior_padding", false);
    case KILN_OP_TRANSPOSE: return list_is(op, "permutation", true);
    case KILN_OP_BROADCAST_IN_DIM: return list_is(op, "broadcast_dimensions", true);
    case KILN_OP_REVERSE: {
      const kiln_attr *d = kiln_op_attr(op, "dimensions");
      for (int64_t i = 0, v; d && i < kiln_attr_count(d); i++)
        if (!kiln_attr_i64_at(d, i, &v) || v < 0 || v >= in->tensor.rank || in->tensor.dims[v] != 1) return false;
      return true;
    }
    case KILN_OP_SLICE:
    case KILN_OP_RESHAPE:
    case KILN_OP_CONVERT: return true;
    default: return false;
  }
}

/* A static slice of a static concatenate that reads inside one of its operands reads that
 * operand instead (jax.nn.glu splitting a concatenation, gates cut from one product): the
 * concatenate's copy goes once nothing else reads it. False (nothing changed) otherwise;
 * an error only when out of memory. */
static kiln_status slice_of_concat(kiln_op *op, kiln_rewrite_walk *walk, bool *done) {
  *done = false;
  const kiln_op *cat = op->kind == KILN_OP_SLICE && op->num_operands == 1 ? op->operands[0]->def : NULL;
  int64_t dim;
  if (!cat || cat->kind != KILN_OP_CONCATENATE || !kiln_attr_i64_at(kiln_op_attr(cat, "dimension"), 0, &dim)) return NULL;
  const kiln_type *t = op->operands[0]->type;
  if (!t || !kiln_type_is_tensor(t) || !kiln_type_is_static(t) || dim < 0 || dim >= t->tensor.rank) return NULL;
  int32_t r = t->tensor.rank;
  int64_t start[MAX_RANK], limit[MAX_RANK], step;
  if (r > MAX_RANK) return NULL;
  for (int32_t d = 0; d < r; d++)
    if (!kiln_attr_i64_at(kiln_op_attr(op, "start_indices"), d, &start[d]) ||
        !kiln_attr_i64_at(kiln_op_attr(op, "limit_indices"), d, &limit[d]))
      return NULL;
  if (!kiln_attr_i64_at(kiln_op_attr(op, "strides"), dim, &step)) step = 1;
  if (step < 1 || limit[dim] <= start[dim]) return NULL;
  int64_t last = start[dim] + (limit[dim] - start[dim] - 1) / step * step, at = 0;
  for (int32_t k = 0; k < cat->num_operands; k++) {
    const kiln_type *ot = cat->operands[k]->type;
    if (!ot || !kiln_type_is_tensor(ot) || !kiln_type_is_static(ot) || ot->tensor.rank != r) return NULL;
    int64_t n = ot->tensor.dims[dim];
    if (start[dim] >= at && last < at + n) { /* inside operand k: its own coordinates */
      start[dim] -= at;
      limit[dim] = last - at + 1; /* the same count of elements */
      const kiln_attr *sa = kiln_attr_make_i64_array(walk->m, start, r), *la = kiln_attr_make_i64_array(walk->m, limit, r);
      kiln_named_attr *attrs = kiln_arena_alloc_array(walk->m->arena, (size_t)op->num_attrs + 1, sizeof *attrs);
      kiln_value **operands = kiln_arena_alloc_array(walk->m->arena, 1, sizeof *operands);
      if (!sa || !la || !attrs || !operands) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
      for (int32_t i = 0; i < op->num_attrs; i++) {
        attrs[i] = op->attrs[i];
        if (!strcmp(attrs[i].name, "start_indices")) attrs[i].value = sa;
        if (!strcmp(attrs[i].name, "limit_indices")) attrs[i].value = la;
      }
      operands[0] = cat->operands[k];
      op->attrs = attrs;
      op->operands = operands;
      walk->count++;
      *done = true;
      return NULL;
    }
    at += n;
  }
  return NULL;
}

/* An op that computes its operand unchanged goes; its readers read the operand. A slice of
 * a concatenate first reads the operand it lies in, when it lies in one. */
static kiln_status drop_identity(kiln_op *op, kiln_rewrite_walk *walk) {
  bool moved;
  KILN_RETURN_IF_ERROR(slice_of_concat(op, walk, &moved));
  if (!op->next || !is_identity(op)) return NULL;
  kiln_rewrite_replace_from(op->next, &op->results[0], op->operands[0]);
  kiln_block_remove(op->parent, op);
  walk->count++;
  return NULL;
}

/* Operand k of concatenate op (along dim) when it is a concatenate along the same dim in
 * op's block that nothing else reads; else NULL. */
static kiln_op *joined_concat(const kiln_op *op, int32_t k, int64_t dim) {
  kiln_op *d = op->operands[k]->def;
  int64_t inner;
  return d && d != op && d->kind == KILN_OP_CONCATENATE && d->parent == op->parent &&
                 kiln_attr_i64_at(kiln_op_attr(d, "dimension"), 0, &inner) && inner == dim &&
                 kiln_rewrite_uses(op->parent, op->operands[k]) == 1
             ? d
             : NULL;
}

/* A concatenate's operand that is itself a concatenate along the same dim, read by
 * nothing else, gives its operands in its place (`jnp.pad(mode="reflect")` joins a flipped
 * edge to the array, then the other edge to that: each join copied all of it again); the
 * inner one goes. */
static kiln_status flatten_concat(kiln_op *op, kiln_rewrite_walk *walk) {
  int64_t dim;
  if (!kiln_attr_i64_at(kiln_op_attr(op, "dimension"), 0, &dim)) return NULL;
  int32_t n = 0;
  for (int32_t k = 0; k < op->num_operands; k++) {
    const kiln_op *d = joined_concat(op, k, dim);
    n += d ? d->num_operands : 1;
  }
  if (n == op->num_operands) return NULL;
  kiln_value **operands = kiln_arena_alloc_array(walk->m->arena, (size_t)n, sizeof *operands);
  if (!operands) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
  int32_t at = 0;
  for (int32_t k = 0; k < op->num_operands; k++) {
    kiln_op *d = joined_concat(op, k, dim);
    if (!d) {
      operands[at++] = op->operands[k];
      continue;
    }
    for (int32_t j = 0; j < d->num_operands; j++) operands[at++] = d->operands[j];
    kiln_block_remove(d->parent, d);
    walk->count++;
  }
  op->operands = operands;
  op->num_operands = n;
  return NULL;
}

/* Integer list `name` of struct dn into v (absent: empty); false when malformed or longer
 * than MAX_RANK. */
static bool read_dims(const kiln_attr *dn, const char *name, int64_t *v, int64_t *n) {
  const kiln_attr *a = kiln_attr_get(dn, name);
  *n = a ? kiln_attr_count(a) : 0;
  if (*n < 0 || *n > MAX_RANK) return false;
  for (int64_t i = 0; i < *n; i++)
    if (!kiln_attr_i64_at(a, i, &v[i])) return false;
  return true;
}

/* dot_general(transpose(a, perm), b), either side or both: the product reads a itself,
 * its batching and contracting dims mapped through perm, where the transposed operand's
 * free dims keep their order in a (the result's dims, free dims in operand order, are then
 * the same). `x @ w.T` comes out of JAX so, and PyTorch-style linear layers and their
 * gradients are full of it: the transpose was a loop of its own reading the matrix column
 * by column (a 512x512 one cost half of a 256x512x512 product), where the product's
 * library reads the transposed operand as it stands. The transpose goes when nothing else
 * reads it. */
static kiln_status fold_transposed_operands(kiln_op *op, kiln_rewrite_walk *walk) {
  if (op->num_operands != 2 || op->num_results != 1) return NULL;
  const kiln_attr *dn = kiln_op_attr(op, "dot_dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT) return NULL;
  for (int side = 0; side < 2; side++) {
    kiln_op *t = op->operands[side]->def;
    const kiln_type *xt = op->operands[side]->type;
    if (!t || t->kind != KILN_OP_TRANSPOSE || t->num_operands != 1 || !kiln_type_is_tensor(xt) ||
        !kiln_type_is_static(xt) || xt->tensor.rank > MAX_RANK)
      continue;
    const char *names[2] = {side ? "rhs_batching_dimensions" : "lhs_batching_dimensions",
                            side ? "rhs_contracting_dimensions" : "lhs_contracting_dimensions"};
    int64_t rank = xt->tensor.rank, perm[MAX_RANK], dims[2][MAX_RANK], n[2];
    bool role[MAX_RANK] = {false}, ok = kiln_attr_count(kiln_op_attr(t, "permutation")) == rank;
    for (int64_t d = 0; ok && d < rank; d++)
      ok = kiln_attr_i64_at(kiln_op_attr(t, "permutation"), d, &perm[d]) && perm[d] >= 0 && perm[d] < rank;
    for (int k = 0; ok && k < 2; k++) {
      ok = read_dims(dn, names[k], dims[k], &n[k]);
      for (int64_t i = 0; ok && i < n[k]; i++) {
        ok = dims[k][i] >= 0 && dims[k][i] < rank && !role[dims[k][i]];
        if (ok) role[dims[k][i]] = true;
      }
    }
    for (int64_t d = 0, last = -1; ok && d < rank; d++) /* the free dims in a's order too */
      if (!role[d]) {
        ok = perm[d] > last;
        last = perm[d];
      }
    if (!ok) continue;
    const kiln_attr *vals[2];
    for (int k = 0; k < 2; k++) {
      for (int64_t i = 0; i < n[k]; i++) dims[k][i] = perm[dims[k][i]];
      vals[k] = kiln_attr_make_i64_array(walk->m, dims[k], n[k]);
    }
    const kiln_attr *nd = vals[0] && vals[1] ? kiln_rewrite_struct_with(walk->m, dn, names, vals, 2) : NULL;
    kiln_named_attr *attrs = kiln_arena_alloc_array(walk->m->arena, (size_t)op->num_attrs + 1, sizeof *attrs);
    kiln_value **operands = kiln_arena_alloc_array(walk->m->arena, 2, sizeof *operands);
    if (!nd || !attrs || !operands) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
    for (int32_t i = 0; i < op->num_attrs; i++) {
      attrs[i] = op->attrs[i];
      if (!strcmp(attrs[i].name, "dot_dimension_numbers")) attrs[i].value = nd;
    }
    operands[side] = t->operands[0];
    operands[1 - side] = op->operands[1 - side];
    op->attrs = attrs;
    op->operands = operands;
    dn = nd;
    walk->count++;
    if (kiln_rewrite_uses(t->parent, &t->results[0]) == 0) kiln_block_remove(t->parent, t);
  }
  return NULL;
}

/* Whether op may go when nothing reads its results: it makes results and has no effect
 * beyond them. Not collectives, feeds, sends and receives (other devices and processes
 * take part), custom calls (what a target does, and whether a malformed one is an error
 * to report, is its backend's: the cpu backend drops a dead LAPACK call once planned),
 * control flow and composite calls (kept as they are), test and interpreter ops, or ops
 * whose regions hold any of these. */
static bool removable(const kiln_op *op) {
  if (op->num_results == 0 || kiln_rewrite_kept_kind(op->kind)) return false;
  if (op->kind == KILN_OP_CUSTOM_CALL) return false; /* its target decides: effects, and errors to report */
  for (int32_t r = 0; r < op->num_regions; r++) /* a reducer's or comparator's body */
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *inner = b->first; inner; inner = inner->next)
        if (inner != b->last && !removable(inner)) return false;
  return true;
}

/* Adds delta to uses[value id] for each read of a value by op (its regions' ops too). */
static void add_uses(const kiln_op *op, int32_t *uses, int32_t n, int32_t delta) {
  for (int32_t k = 0; k < op->num_operands; k++)
    if (op->operands[k]->id >= 0 && op->operands[k]->id < n) uses[op->operands[k]->id] += delta;
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *inner = b->first; inner; inner = inner->next) add_uses(inner, uses, n, delta);
}

/* Removes the ops of the function's body that nothing reads and that may go (removable),
 * last first, so that what only they read goes too. */
static kiln_status drop_dead(kiln_op *func, int32_t *count) {
  kiln_block *body = kiln_op_block(func, 0);
  if (!body) return NULL;
  kiln_func_number_values(func);
  int32_t n = kiln_func_num_values(func);
  int32_t *uses = calloc((size_t)n + 1, sizeof *uses);
  if (!uses) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
  for (const kiln_op *op = body->first; op; op = op->next) add_uses(op, uses, n, 1);
  for (kiln_op *op = body->last; op;) {
    kiln_op *prev = op->prev;
    bool dead = removable(op);
    for (int32_t r = 0; dead && r < op->num_results; r++) {
      int32_t v = op->results[r].id;
      dead = v >= 0 && v < n && !uses[v];
    }
    if (dead) {
      add_uses(op, uses, n, -1); /* what it and its regions read */
      kiln_block_remove(body, op);
      (*count)++;
    }
    op = prev;
  }
  free(uses);
  return NULL;
}

/* One walk's rewrites of op, whose operands' defining ops were seen before it. */
static kiln_status rewrite_op(kiln_op *op, kiln_rewrite_walk *walk) {
  if (op->kind == KILN_OP_DOT_GENERAL) return fold_transposed_operands(op, walk);
  if (op->kind == KILN_OP_CONCATENATE) return flatten_concat(op, walk);
  return drop_identity(op, walk);
}

kiln_status kiln_canonicalize(kiln_module *m, kiln_op *func, int32_t *out_rewrites) {
  KILN_RETURN_IF_ERROR(kiln_rewrite_each_op(m, func, rewrite_op, out_rewrites));
  KILN_RETURN_IF_ERROR(drop_dead(func, out_rewrites));
  kiln_block *body = kiln_op_block(func, 0);
  for (kiln_op *t = body ? body->first : NULL; t; t = t->next) {
    if (t->kind == KILN_OP_DOT_GENERAL) {
      bool done;
      KILN_RETURN_IF_ERROR(gather_dot(m, body, t, &done));
      if (!done) KILN_RETURN_IF_ERROR(complex_product(m, t, &done));
      *out_rewrites += done;
      continue;
    }
    if (t->kind != KILN_OP_TRANSPOSE || !permutation_is_swap(t)) continue;
    bool swapped;
    KILN_RETURN_IF_ERROR(swap_summed_product(m, body, t, &swapped));
    *out_rewrites += swapped;
    if (swapped) continue;
    kiln_op *dot = t->operands[0]->def;
    if (!dot || dot->parent != body || dot->kind != KILN_OP_DOT_GENERAL || !plain_matmul(dot) ||
        kiln_rewrite_uses(body, &dot->results[0]) != 1)
      continue;
    kiln_named_attr *attrs = swapped_attrs(m, dot);
    kiln_value **operands = kiln_arena_alloc_array(m->arena, 2, sizeof *operands);
    if (!attrs || !operands) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory canonicalising");
    /* the transpose becomes the swapped product; the old product goes */
    operands[0] = dot->operands[1];
    operands[1] = dot->operands[0];
    t->kind = KILN_OP_DOT_GENERAL;
    t->operands = operands;
    t->num_operands = 2;
    t->num_attrs = dot->num_attrs;
    t->attrs = attrs;
    t->loc = dot->loc;
    kiln_block_remove(body, dot);
    (*out_rewrites)++;
  }
  return NULL;
}
