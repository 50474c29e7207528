/* Inlining of func.call (see inline.h). */
#include "passes/inline.h"

#include <stdlib.h>

enum { MAX_DEPTH = 32 };

typedef struct cloner {
  const kiln_module *m;
  kiln_module *scratch;
  int32_t inlined;
  const kiln_op *active[MAX_DEPTH + 1]; /* the functions being inlined, outermost first */
  int32_t num_active;
  bool in_regions; /* inline the calls of regions too (kiln_inline_calls_everywhere) */
  bool keep_outside; /* a value the map lacks is itself (kiln_clone_block_ops), else an error */
  kiln_status st;
} cloner;

static void oom(cloner *c) {
  if (!c->st) c->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory while inlining");
}

static void clone_ops(cloner *c, const kiln_block *src, kiln_block *dst, kiln_value **map, int depth, bool top,
                      kiln_value **out_returned);

/* A copy of block src (its arguments mapped) appended to region r. */
static void clone_block(cloner *c, const kiln_block *src, kiln_region *r, kiln_value **map) {
  kiln_block *b = kiln_block_new(c->scratch, src->num_args);
  if (!b) return oom(c);
  for (int32_t i = 0; i < src->num_args; i++) {
    b->args[i].type = src->args[i].type;
    map[src->args[i].id] = &b->args[i];
  }
  kiln_region_append(r, b);
  clone_ops(c, src, b, map, MAX_DEPTH, c->in_regions, NULL);
}

/* What v becomes in the copy. */
static kiln_value *mapped(const cloner *c, kiln_value **map, kiln_value *v) {
  return map[v->id] ? map[v->id] : c->keep_outside ? v : NULL;
}

static void clone_op(cloner *c, const kiln_op *op, kiln_block *dst, kiln_value **map) {
  kiln_op *n = kiln_op_new(c->scratch, op->kind, op->num_operands, op->num_results, 0, op->num_regions);
  if (!n) return oom(c);
  n->loc = op->loc;
  n->num_attrs = op->num_attrs;
  n->attrs = op->attrs; /* immutable: shared with the source module */
  for (int32_t i = 0; i < op->num_operands; i++) {
    n->operands[i] = mapped(c, map, op->operands[i]);
    if (!n->operands[i] && !c->st)
      c->st = KILN_STATUS(KILN_STATUS_INTERNAL, "inlining: operand #%d of %s has no value", (int)i, kiln_op_name(op->kind));
  }
  for (int32_t i = 0; i < op->num_results; i++) {
    n->results[i].type = op->results[i].type;
    map[op->results[i].id] = &n->results[i];
  }
  kiln_block_append(dst, n);
  for (int32_t r = 0; r < op->num_regions && !c->st; r++)
    for (const kiln_block *b = op->regions[r].first; b && !c->st; b = b->next) clone_block(c, b, &n->regions[r], map);
}

/* The function a func.call calls, or a stablehlo.composite stands for (its decomposition:
 * running it is what the composite means), when its body is one block; else NULL. */
static const kiln_op *callee_of(const cloner *c, const kiln_op *call) {
  const kiln_attr *a = kiln_op_attr(call, call->kind == KILN_OP_COMPOSITE ? "decomposition" : "callee");
  if (!a || a->kind != KILN_ATTR_SYMBOL) return NULL;
  const kiln_op *f = kiln_module_lookup_func(c->m, a->symbol);
  for (int32_t i = 0; f && i < c->num_active; i++)
    if (c->active[i] == f) return NULL; /* recursive: stays a call */
  const kiln_block *body = f ? kiln_op_block(f, 0) : NULL;
  return body && !body->next && body->num_args == call->num_operands ? f : NULL;
}

/* Copies src's ops into dst. At the top level of a function, calls are replaced by their
 * callee's ops (depth bounds the nesting); the operands of src's terminator are written to
 * out_returned (then the terminator itself is not copied). */
static void clone_ops(cloner *c, const kiln_block *src, kiln_block *dst, kiln_value **map, int depth, bool top,
                      kiln_value **out_returned) {
  for (const kiln_op *op = src->first; op && !c->st; op = op->next) {
    if (out_returned && op == src->last && (op->kind == KILN_OP_FUNC_RETURN || op->kind == KILN_OP_RETURN)) {
      for (int32_t i = 0; i < op->num_operands; i++) out_returned[i] = mapped(c, map, op->operands[i]);
      return;
    }
    bool calls = op->kind == KILN_OP_CALL || op->kind == KILN_OP_COMPOSITE;
    const kiln_op *callee = top && calls && depth > 0 && c->num_active <= MAX_DEPTH ? callee_of(c, op) : NULL;
    const kiln_block *body = callee ? kiln_op_block(callee, 0) : NULL;
    const kiln_op *ret = body ? body->last : NULL;
    if (!ret || ret->kind != KILN_OP_FUNC_RETURN || ret->num_operands != op->num_results) {
      clone_op(c, op, dst, map);
      continue;
    }
    int32_t n = kiln_func_num_values(callee);
    kiln_value **inner = calloc((size_t)n + 1, sizeof *inner);
    kiln_value **returned = calloc((size_t)op->num_results + 1, sizeof *returned);
    if (!inner || !returned) {
      free(inner), free(returned);
      return oom(c);
    }
    for (int32_t i = 0; i < body->num_args; i++) inner[body->args[i].id] = map[op->operands[i]->id];
    c->active[c->num_active++] = callee;
    clone_ops(c, body, dst, inner, depth - 1, true, returned);
    c->num_active--;
    for (int32_t i = 0; i < op->num_results; i++) map[op->results[i].id] = returned[i];
    c->inlined++;
    free(inner);
    free(returned);
  }
}

static kiln_status inline_calls(const kiln_module *m, const kiln_op *func, kiln_module *scratch, bool in_regions,
                                kiln_op **out_func, int32_t *out_inlined);

kiln_status kiln_clone_block_ops(kiln_module *m, const kiln_block *src, kiln_block *dst, kiln_value **map,
                                 kiln_value **out_returned) {
  cloner c = {.m = m, .scratch = m, .keep_outside = true};
  clone_ops(&c, src, dst, map, 0, false, out_returned);
  return c.st;
}

kiln_status kiln_inline_calls(const kiln_module *m, const kiln_op *func, kiln_module *scratch, kiln_op **out_func,
                              int32_t *out_inlined) {
  return inline_calls(m, func, scratch, false, out_func, out_inlined);
}

kiln_status kiln_inline_calls_everywhere(const kiln_module *m, const kiln_op *func, kiln_module *scratch,
                                         kiln_op **out_func, int32_t *out_inlined) {
  return inline_calls(m, func, scratch, true, out_func, out_inlined);
}

static kiln_status inline_calls(const kiln_module *m, const kiln_op *func, kiln_module *scratch, bool in_regions,
                                kiln_op **out_func, int32_t *out_inlined) {
  *out_func = NULL;
  *out_inlined = 0;
  const kiln_block *body = kiln_op_block(func, 0);
  if (!body || body->next) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "inlining: the function has not one block");
  cloner c = {.m = m, .scratch = scratch, .active = {func}, .num_active = 1, .in_regions = in_regions};
  kiln_value **map = calloc((size_t)kiln_func_num_values(func) + 1, sizeof *map);
  kiln_op *f = kiln_op_new(scratch, KILN_OP_FUNC, 0, 0, 0, 1);
  if (!map || !f) {
    free(map);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory while inlining");
  }
  f->loc = func->loc;
  f->num_attrs = func->num_attrs;
  f->attrs = func->attrs;
  kiln_block *b = kiln_block_new(scratch, body->num_args);
  if (!b) oom(&c);
  else {
    for (int32_t i = 0; i < body->num_args; i++) {
      b->args[i].type = body->args[i].type;
      map[body->args[i].id] = &b->args[i];
    }
    kiln_region_append(&f->regions[0], b);
    clone_ops(&c, body, b, map, MAX_DEPTH, true, NULL);
  }
  free(map);
  if (c.st) return c.st;
  kiln_block_append(kiln_op_block(scratch->op, 0), f);
  kiln_func_number_values(f);
  *out_func = f;
  *out_inlined = c.inlined;
  return NULL;
}

/* ---------------------------------------------------------------- outlining */

static bool inside(const kiln_region *r, const kiln_value *v) {
  const kiln_block *b = v->def ? v->def->parent : v->block;
  while (b) {
    const kiln_region *br = b->parent;
    if (br == r) return true;
    const kiln_op *op = br ? br->parent : NULL;
    b = op ? op->parent : NULL;
  }
  return false;
}

/* The values the ops of b (and of their regions) use from outside region r, in order of
 * first use: their ids and types. */
static void find_captures(const kiln_region *r, const kiln_block *b, bool *seen, int32_t *ids, const kiln_type **types,
                          int32_t *n) {
  for (const kiln_op *op = b->first; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++) {
      const kiln_value *v = op->operands[i];
      if (!inside(r, v) && !seen[v->id]) {
        seen[v->id] = true;
        types[*n] = v->type;
        ids[(*n)++] = v->id;
      }
    }
    for (int32_t k = 0; k < op->num_regions; k++)
      for (const kiln_block *inner = op->regions[k].first; inner; inner = inner->next)
        find_captures(r, inner, seen, ids, types, n);
  }
}

kiln_status kiln_outline_region(const kiln_module *m, const kiln_region *r, int32_t num_values, kiln_module *scratch,
                                kiln_op **out_func, const int32_t **out_captured, int32_t *out_num_captured) {
  *out_func = NULL;
  *out_captured = NULL;
  *out_num_captured = 0;
  const kiln_block *body = r->first;
  if (!body || body->next) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "outlining: the region has not one block");
  const kiln_op *ret = body->last;
  if (!ret || ret->kind != KILN_OP_RETURN) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "outlining: no stablehlo.return");
  bool *seen = calloc((size_t)num_values + 1, sizeof *seen);
  int32_t *ids = kiln_arena_alloc_array(scratch->arena, (size_t)num_values + 1, sizeof *ids);
  const kiln_type **types = calloc((size_t)num_values + 1, sizeof *types);
  kiln_value **map = calloc((size_t)num_values + 1, sizeof *map);
  if (!seen || !ids || !types || !map) {
    free(seen), free(types), free(map);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory while outlining");
  }
  int32_t nc = 0;
  find_captures(r, body, seen, ids, types, &nc);
  free(seen);
  int32_t np = body->num_args + nc;
  cloner c = {.m = m, .scratch = scratch};
  kiln_type *ft = kiln_type_new(scratch, KILN_TYPE_FUNCTION);
  kiln_attr *fa = kiln_attr_new(scratch, KILN_ATTR_TYPE);
  kiln_named_attr *attrs = kiln_arena_alloc_array(scratch->arena, 2, sizeof *attrs);
  kiln_attr *name = kiln_attr_new(scratch, KILN_ATTR_STRING);
  kiln_op *f = kiln_op_new(scratch, KILN_OP_FUNC, 0, 0, 0, 1);
  kiln_block *b = kiln_block_new(scratch, np);
  const kiln_type **ins = kiln_arena_alloc_array(scratch->arena, (size_t)np + 1, sizeof *ins);
  const kiln_type **outs = kiln_arena_alloc_array(scratch->arena, (size_t)ret->num_operands + 1, sizeof *outs);
  if (!ft || !fa || !attrs || !name || !f || !b || !ins || !outs) oom(&c);
  for (int32_t i = 0; !c.st && i < np; i++) {
    const kiln_type *t = i < body->num_args ? body->args[i].type : types[i - body->num_args];
    b->args[i].type = ins[i] = t;
    if (i < body->num_args) map[body->args[i].id] = &b->args[i];
    else map[ids[i - body->num_args]] = &b->args[i];
  }
  if (!c.st) {
    for (int32_t i = 0; i < ret->num_operands; i++) outs[i] = ret->operands[i]->type;
    ft->func.num_inputs = np;
    ft->func.num_results = ret->num_operands;
    ft->func.inputs = ins;
    ft->func.results = outs;
    fa->type = ft;
    name->str.data = "region";
    name->str.len = 6;
    attrs[0] = (kiln_named_attr){"sym_name", name};
    attrs[1] = (kiln_named_attr){"function_type", fa};
    f->loc = r->parent->loc;
    f->num_attrs = 2;
    f->attrs = attrs;
    kiln_region_append(&f->regions[0], b);
    clone_ops(&c, body, b, map, MAX_DEPTH, true, NULL);
    if (!c.st && b->last && b->last->kind == KILN_OP_RETURN) b->last->kind = KILN_OP_FUNC_RETURN; /* same operands */
  }
  free(types);
  free(map);
  if (c.st) return c.st;
  kiln_block_append(kiln_op_block(scratch->op, 0), f);
  kiln_func_number_values(f);
  *out_func = f;
  *out_captured = ids;
  *out_num_captured = nc;
  return NULL;
}
