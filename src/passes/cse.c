/* Common subexpressions (cse.h): per block, a table of the ops seen so far, hashed by
 * kind and operands; an op equal to one in it goes. */
#include "passes/cse.h"

#include <stdlib.h>
#include <string.h>

#include "passes/rewrite.h"

/* Whether op may be merged with a twin: it has results, no effect beyond them, and the
 * same results whenever it runs with the same operands (its regions' ops too). */
static bool pure(const kiln_op *op, bool nested) {
  if ((!nested && op->num_results == 0) || kiln_rewrite_kept_kind(op->kind)) return false;
  if (op->kind == KILN_OP_RNG || op->kind == KILN_OP_AFTER_ALL || op->kind == KILN_OP_CREATE_TOKEN) return false;
  if (op->kind == KILN_OP_CUSTOM_CALL) {
    const kiln_attr *fx = kiln_op_attr(op, "has_side_effect");
    if (fx && (fx->kind != KILN_ATTR_BOOL || fx->b)) return false;
  }
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *inner = b->first; inner; inner = inner->next)
        if (!pure(inner, true)) return false;
  return true;
}

/* Kind, results' types and attributes (names and values, in order) alike. */
static bool same_header(const kiln_op *a, const kiln_op *b) {
  if (a->kind != b->kind || a->num_operands != b->num_operands || a->num_results != b->num_results ||
      a->num_attrs != b->num_attrs || a->num_regions != b->num_regions)
    return false;
  for (int32_t i = 0; i < a->num_results; i++)
    if (!kiln_type_equal(a->results[i].type, b->results[i].type)) return false;
  for (int32_t i = 0; i < a->num_attrs; i++) {
    const char *x = a->attrs[i].name, *y = b->attrs[i].name;
    if ((x != y && (!x || !y || strcmp(x, y))) || !kiln_attr_equal(a->attrs[i].value, b->attrs[i].value)) return false;
  }
  return true;
}

/* The op at op's position in block b, given op in block a (blocks of the same length). */
static const kiln_op *twin_in(const kiln_block *a, const kiln_block *b, const kiln_op *op) {
  const kiln_op *y = b->first;
  for (const kiln_op *x = a->first; x && y && x != op; x = x->next) y = y->next;
  return y;
}

/* Whether x (read in block a) and y (read at the same place in block b) are the same
 * value: a's argument or op result is b's at the same position, a value from outside
 * both is itself. */
static bool same_read(const kiln_block *a, const kiln_block *b, const kiln_value *x, const kiln_value *y) {
  if (!x->def && x->block == a) return !y->def && y->block == b && y->index == x->index;
  if (x->def && x->def->parent == a) {
    const kiln_op *t = twin_in(a, b, x->def);
    return t && y->def == t && y->index == x->index;
  }
  return x == y;
}

/* Regions alike op for op: one block each, the same arguments' types, each op's header and
 * reads alike (no regions nested in them). */
static bool same_regions(const kiln_op *p, const kiln_op *q) {
  for (int32_t r = 0; r < p->num_regions; r++) {
    const kiln_block *a = p->regions[r].first, *b = q->regions[r].first;
    if (!a || !b || a->next || b->next || a->num_args != b->num_args) return a == b;
    for (int32_t i = 0; i < a->num_args; i++)
      if (!kiln_type_equal(a->args[i].type, b->args[i].type)) return false;
    const kiln_op *x = a->first, *y = b->first;
    for (; x && y; x = x->next, y = y->next) {
      if (x->num_regions || !same_header(x, y)) return false;
      for (int32_t k = 0; k < x->num_operands; k++)
        if (!same_read(a, b, x->operands[k], y->operands[k])) return false;
    }
    if (x || y) return false;
  }
  return true;
}

static bool same_op(const kiln_op *a, const kiln_op *b) {
  if (!same_header(a, b)) return false;
  for (int32_t k = 0; k < a->num_operands; k++)
    if (a->operands[k] != b->operands[k]) return false;
  return same_regions(a, b);
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

static uint64_t mix_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = mix(h, b[i]);
  return h;
}

/* Some of an attribute's value (a constant's first and last bytes, a number, an enum's
 * keyword), so that ops with no operands (constants, iotas) spread over the table rather
 * than each being compared with all the others before it. */
static uint64_t hash_attr(uint64_t h, const kiln_attr *a) {
  h = mix(h, (uint64_t)a->kind);
  switch (a->kind) {
    case KILN_ATTR_INT: return mix(h, a->i.magnitude);
    case KILN_ATTR_FLOAT: return mix_bytes(h, &a->f, sizeof a->f);
    case KILN_ATTR_DENSE: {
      size_t n = a->dense.nbytes, k = n < 64 ? n : 64;
      h = mix_bytes(mix(mix(h, a->dense.splat), n), a->dense.data, k);
      return mix_bytes(h, a->dense.data + n - k, k);
    }
    case KILN_ATTR_DENSE_ARRAY: return mix(h, (uint64_t)a->dense_array.count);
    case KILN_ATTR_ENUM: return a->enumv.value ? mix_bytes(h, a->enumv.value, strlen(a->enumv.value)) : h;
    default: return h;
  }
}

static uint64_t hash_op(const kiln_op *op) {
  uint64_t h = 1469598103934665603ull;
  h = mix(mix(mix(mix(h, (uint64_t)op->kind), (uint64_t)op->num_results), (uint64_t)op->num_attrs), (uint64_t)op->num_regions);
  for (int32_t k = 0; k < op->num_operands; k++) h = mix(h, (uint64_t)(uintptr_t)op->operands[k]);
  for (int32_t i = 0; i < op->num_attrs; i++) h = hash_attr(h, op->attrs[i].value);
  return h ^ (h >> 29);
}

static kiln_status cse_block(kiln_block *b, int32_t *merged);

/* The blocks of op's regions, each a scope of its own. */
static kiln_status cse_regions(kiln_op *op, int32_t *merged) {
  for (int32_t r = 0; r < op->num_regions; r++)
    for (kiln_block *b = op->regions[r].first; b; b = b->next) KILN_RETURN_IF_ERROR(cse_block(b, merged));
  return NULL;
}

static kiln_status cse_block(kiln_block *b, int32_t *merged) {
  size_t n = 0, cap = 16;
  for (const kiln_op *op = b->first; op; op = op->next) n++;
  while (cap < 2 * n) cap *= 2;
  kiln_op **table = calloc(cap, sizeof *table);
  if (!table) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory finding common subexpressions");
  kiln_status st = NULL;
  for (kiln_op *op = b->first; op && !st;) {
    kiln_op *next = op->next;
    st = cse_regions(op, merged);
    if (!st && pure(op, false)) {
      size_t at = (size_t)hash_op(op) & (cap - 1);
      while (table[at] && !same_op(table[at], op)) at = (at + 1) & (cap - 1);
      if (table[at]) { /* its twin came first: its readers read the twin's results */
        for (int32_t i = 0; i < op->num_results && next; i++)
          kiln_rewrite_replace_from(next, &op->results[i], &table[at]->results[i]);
        kiln_block_remove(b, op);
        (*merged)++;
      } else {
        table[at] = op;
      }
    }
    op = next;
  }
  free(table);
  return st;
}

kiln_status kiln_cse(kiln_module *m, kiln_op *func, int32_t *out_merged) {
  (void)m;
  *out_merged = 0;
  kiln_block *body = kiln_op_block(func, 0);
  return body ? cse_block(body, out_merged) : NULL;
}
