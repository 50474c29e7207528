/* Algebraic rewrites of one function (see canonicalize.h). */
#include "passes/canonicalize.h"

#include <stdio.h>
#include <string.h>

/* How many ops of block b read v (an op reading it twice counts twice), nested regions
 * included; the terminator counts. */
static int32_t uses(const kiln_block *b, const kiln_value *v) {
  int32_t n = 0;
  for (const kiln_op *op = b->first; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++) n += op->operands[i] == v;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (const kiln_block *inner = op->regions[r].first; inner; inner = inner->next) n += uses(inner, v);
  }
  return n;
}

static bool permutation_is_swap(const kiln_op *t) {
  const kiln_attr *p = kiln_op_attr(t, "permutation");
  int64_t a, b;
  return kiln_attr_count(p) == 2 && kiln_attr_i64_at(p, 0, &a) && kiln_attr_i64_at(p, 1, &b) && a == 1 && b == 0;
}

/* A dot_general of two matrices without batching dims: one free dim each side. */
static bool plain_matmul(const kiln_op *dot) {
  const kiln_attr *dn = kiln_op_attr(dot, "dot_dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT) return false;
  const kiln_attr *lb = kiln_attr_get(dn, "lhs_batching_dimensions"), *lc = kiln_attr_get(dn, "lhs_contracting_dimensions");
  if ((lb && kiln_attr_count(lb) != 0) || !lc || kiln_attr_count(lc) != 1) return false;
  return dot->num_operands == 2 && dot->operands[0]->type->tensor.rank == 2 &&
         dot->operands[1]->type->tensor.rank == 2 && dot->results[0].type->tensor.rank == 2;
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

static void unlink_op(kiln_block *b, kiln_op *op) {
  if (op->prev) op->prev->next = op->next;
  else b->first = op->next;
  if (op->next) op->next->prev = op->prev;
  else b->last = op->prev;
}

kiln_status kiln_canonicalize(kiln_module *m, kiln_op *func, int32_t *out_rewrites) {
  *out_rewrites = 0;
  kiln_block *body = kiln_op_block(func, 0);
  for (kiln_op *t = body ? body->first : NULL; t; t = t->next) {
    if (t->kind != KILN_OP_TRANSPOSE || !permutation_is_swap(t)) continue;
    kiln_op *dot = t->operands[0]->def;
    if (!dot || dot->parent != body || dot->kind != KILN_OP_DOT_GENERAL || !plain_matmul(dot) ||
        uses(body, &dot->results[0]) != 1)
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
    unlink_op(body, dot);
    (*out_rewrites)++;
  }
  return NULL;
}
