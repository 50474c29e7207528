#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

#include <stdio.h>

#include "base/source.h"

/* A module's arena may hold at most this much IR (bounds what any input can make us
 * allocate; the largest conformance file needs well under 1% of it). */
#define KILN_MODULE_ARENA_LIMIT ((size_t)8 << 30)

kiln_module *kiln_module_create(const char *name) {
  kiln_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->arena = kiln_arena_create(KILN_MODULE_ARENA_LIMIT);
  m->name = name ? name : "<input>";
  kiln_block *body = NULL;
  if (m->arena && (m->op = kiln_op_new(m, KILN_OP_MODULE, 0, 0, 0, 1)) &&
      (body = kiln_block_new(m, 0)))
    kiln_region_append(&m->op->regions[0], body);
  if (!body) {
    kiln_module_destroy(m);
    return NULL;
  }
  return m;
}

void kiln_module_destroy(kiln_module *m) {
  if (!m) return;
  kiln_arena_destroy(m->arena);
  free(m);
}

kiln_type *kiln_type_new(kiln_module *m, kiln_type_kind kind) {
  kiln_type *t = kiln_arena_alloc(m->arena, sizeof *t);
  if (t) t->kind = kind;
  return t;
}

const kiln_type *kiln_type_scalar(kiln_module *m, kiln_elem e) {
  kiln_type *t = kiln_type_new(m, KILN_TYPE_SCALAR);
  if (t) t->elem = e;
  return t;
}

const kiln_type *kiln_type_tensor(kiln_module *m, const kiln_type *element, int32_t rank,
                                  const int64_t *dims, const int64_t *bounds) {
  int64_t count = 1;
  bool dynamic = false;
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] == KILN_DIM_DYNAMIC) dynamic = true;
    else if (dims[i] < 0 || !kiln_mul_i64(count, dims[i], &count)) return NULL;
  }
  kiln_type *t = kiln_type_new(m, KILN_TYPE_TENSOR);
  if (!t) return NULL;
  t->tensor.element = element;
  t->tensor.rank = rank;
  t->tensor.num_elements = dynamic ? -1 : count;
  t->tensor.dims = kiln_arena_alloc_array(m->arena, (size_t)rank, sizeof(int64_t));
  if (!t->tensor.dims) return NULL;
  if (rank) memcpy(t->tensor.dims, dims, sizeof(int64_t) * (size_t)rank);
  if (bounds) {
    t->tensor.bounds = kiln_arena_alloc_array(m->arena, (size_t)rank, sizeof(int64_t));
    if (!t->tensor.bounds) return NULL;
    if (rank) memcpy(t->tensor.bounds, bounds, sizeof(int64_t) * (size_t)rank);
  }
  return t;
}

kiln_attr *kiln_attr_new(kiln_module *m, kiln_attr_kind kind) {
  kiln_attr *a = kiln_arena_alloc(m->arena, sizeof *a);
  if (a) a->kind = kind;
  return a;
}

const kiln_attr *kiln_attr_make_int(kiln_module *m, int64_t v, const kiln_type *type) {
  kiln_attr *a = kiln_attr_new(m, KILN_ATTR_INT);
  if (!a) return NULL;
  a->type = type;
  a->i.negative = v < 0;
  a->i.magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  return a;
}

const kiln_attr *kiln_attr_make_i64_array(kiln_module *m, const int64_t *v, int64_t n) {
  kiln_attr *a = kiln_attr_new(m, KILN_ATTR_DENSE_ARRAY);
  if (!a || !(a->type = kiln_type_scalar(m, KILN_ELEM_SI64))) return NULL;
  a->dense_array.count = n;
  a->dense_array.ints = kiln_arena_alloc_array(m->arena, (size_t)n, sizeof(int64_t));
  if (!a->dense_array.ints) return NULL;
  if (n) memcpy(a->dense_array.ints, v, sizeof(int64_t) * (size_t)n);
  return a;
}

kiln_op *kiln_op_new(kiln_module *m, kiln_op_kind kind, int32_t num_operands,
                     int32_t num_results, int32_t num_attrs, int32_t num_regions) {
  kiln_op *op = kiln_arena_alloc(m->arena, sizeof *op);
  if (!op) return NULL;
  op->kind = kind;
  op->num_operands = num_operands;
  op->num_results = num_results;
  op->num_attrs = num_attrs;
  op->num_regions = num_regions;
  op->operands = kiln_arena_alloc_array(m->arena, (size_t)num_operands, sizeof(kiln_value *));
  op->results = kiln_arena_alloc_array(m->arena, (size_t)num_results, sizeof(kiln_value));
  op->attrs = kiln_arena_alloc_array(m->arena, (size_t)num_attrs, sizeof(kiln_named_attr));
  op->regions = kiln_arena_alloc_array(m->arena, (size_t)num_regions, sizeof(kiln_region));
  if (!op->operands || !op->results || !op->attrs || !op->regions) return NULL;
  for (int32_t i = 0; i < num_results; i++) {
    op->results[i].def = op;
    op->results[i].index = i;
  }
  for (int32_t i = 0; i < num_regions; i++) op->regions[i].parent = op;
  return op;
}

kiln_block *kiln_block_new(kiln_module *m, int32_t num_args) {
  kiln_block *b = kiln_arena_alloc(m->arena, sizeof *b);
  if (!b) return NULL;
  b->num_args = num_args;
  b->args = kiln_arena_alloc_array(m->arena, (size_t)num_args, sizeof(kiln_value));
  if (!b->args) return NULL;
  for (int32_t i = 0; i < num_args; i++) {
    b->args[i].block = b;
    b->args[i].index = i;
  }
  return b;
}

void kiln_block_append(kiln_block *b, kiln_op *op) {
  op->parent = b;
  op->prev = b->last;
  op->next = NULL;
  if (b->last) b->last->next = op;
  else b->first = op;
  b->last = op;
}

void kiln_block_insert_before(kiln_op *before, kiln_op *op) {
  kiln_block *b = before->parent;
  op->parent = b;
  op->prev = before->prev;
  op->next = before;
  if (before->prev) before->prev->next = op;
  else b->first = op;
  before->prev = op;
}

void kiln_block_remove(kiln_block *b, kiln_op *op) {
  if (op->prev) op->prev->next = op->next;
  else b->first = op->next;
  if (op->next) op->next->prev = op->prev;
  else b->last = op->prev;
}

void kiln_region_append(kiln_region *r, kiln_block *b) {
  b->parent = r;
  if (r->last) r->last->next = b;
  else r->first = b;
  r->last = b;
}

const kiln_attr *kiln_op_attr(const kiln_op *op, const char *name) {
  for (int32_t i = 0; i < op->num_attrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].value;
  return NULL;
}

const char *kiln_attr_enum_text(const kiln_attr *a) {
  if (!a) return NULL;
  return a->kind == KILN_ATTR_ENUM ? a->enumv.value : a->kind == KILN_ATTR_STRING ? a->str.data : NULL;
}

int kiln_op_compare_direction(const kiln_op *op) {
  static const char *const names[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  const char *d = kiln_attr_enum_text(kiln_op_attr(op, "comparison_direction"));
  for (int i = 0; d && i < 6; i++)
    if (!strcmp(d, names[i])) return i;
  return -1;
}

bool kiln_value_constant_int(const kiln_value *v, int64_t *out) {
  const kiln_op *d = v->def;
  const kiln_attr *a = d && d->kind == KILN_OP_CONSTANT ? kiln_op_attr(d, "value") : NULL;
  return a && kiln_elem_is_int(kiln_type_elem(v->type)) && kiln_attr_count(a) == 1 && kiln_attr_i64_at(a, 0, out);
}

bool kiln_op_calls_target(const kiln_op *op, const char *target) {
  const kiln_attr *a = op->kind == KILN_OP_CUSTOM_CALL ? kiln_op_attr(op, "call_target_name") : NULL;
  return a && a->kind == KILN_ATTR_STRING && a->str.len == strlen(target) && !memcmp(a->str.data, target, a->str.len);
}

kiln_block *kiln_op_block(const kiln_op *op, int32_t region) {
  return region < op->num_regions ? op->regions[region].first : NULL;
}

kiln_op *kiln_block_terminator(const kiln_block *b) { return b ? b->last : NULL; }

const kiln_op *kiln_region_combiner(const kiln_op *op) {
  const kiln_block *b = op->num_regions ? kiln_op_block(op, 0) : NULL;
  if (!b || b->next || b->num_args != 2 || !b->first || b->first->next != b->last) return NULL;
  const kiln_op *c = b->first, *ret = b->last;
  if (ret->num_operands != 1 || ret->operands[0] != &c->results[0] || c->num_operands != 2) return NULL;
  const kiln_value *x = c->operands[0], *y = c->operands[1];
  bool args = (x == &b->args[0] && y == &b->args[1]) || (x == &b->args[1] && y == &b->args[0]);
  return args ? c : NULL;
}

const char *kiln_func_name(const kiln_op *func) {
  const kiln_attr *a = kiln_op_attr(func, "sym_name");
  return a && a->kind == KILN_ATTR_STRING ? a->str.data : "";
}

const kiln_type *kiln_func_type(const kiln_op *func) {
  const kiln_attr *a = kiln_op_attr(func, "function_type");
  return a && a->kind == KILN_ATTR_TYPE ? a->type : NULL;
}

int64_t kiln_func_arg_donor(const kiln_op *func, int32_t i) {
  const kiln_attr *all = kiln_op_attr(func, "arg_attrs");
  const kiln_attr *d = all && all->kind == KILN_ATTR_ARRAY && i >= 0 && i < all->array.count ? all->array.items[i] : NULL;
  if (!d || d->kind != KILN_ATTR_DICT) return KILN_DONOR_NONE;
  const kiln_attr *alias = kiln_attr_get(d, "tf.aliasing_output");
  if (alias && alias->kind == KILN_ATTR_INT) return kiln_attr_int(alias) >= 0 ? kiln_attr_int(alias) : KILN_DONOR_NONE;
  const kiln_attr *donor = kiln_attr_get(d, "jax.buffer_donor");
  return donor && (donor->kind == KILN_ATTR_UNIT || (donor->kind == KILN_ATTR_BOOL && donor->b)) ? KILN_DONOR_ANY
                                                                                                 : KILN_DONOR_NONE;
}

kiln_op *kiln_module_lookup_func(const kiln_module *m, const char *name) {
  for (kiln_op *op = kiln_op_block(m->op, 0) ? kiln_op_block(m->op, 0)->first : NULL; op; op = op->next)
    if (op->kind == KILN_OP_FUNC && strcmp(kiln_func_name(op), name) == 0) return op;
  return NULL;
}

/* One walk for numbering and counting: values are visited in program order. */
static void walk_block(kiln_block *b, int32_t *next, bool write);

static void walk_op(kiln_op *op, int32_t *next, bool write) {
  for (int32_t i = 0; i < op->num_results; i++, (*next)++)
    if (write) op->results[i].id = *next;
  for (int32_t r = 0; r < op->num_regions; r++)
    for (kiln_block *b = op->regions[r].first; b; b = b->next) walk_block(b, next, write);
}

static void walk_block(kiln_block *b, int32_t *next, bool write) {
  for (int32_t i = 0; i < b->num_args; i++, (*next)++)
    if (write) b->args[i].id = *next;
  for (kiln_op *op = b->first; op; op = op->next) walk_op(op, next, write);
}

static int32_t walk_func(kiln_op *func, bool write) {
  int32_t next = 0;
  for (int32_t r = 0; r < func->num_regions; r++)
    for (kiln_block *b = func->regions[r].first; b; b = b->next) walk_block(b, &next, write);
  return next;
}

int32_t kiln_func_number_values(kiln_op *func) { return walk_func(func, true); }

/* The cast is safe: with write false the walk only reads. */
int32_t kiln_func_num_values(const kiln_op *func) { return walk_func((kiln_op *)func, false); }

void kiln_module_number_values(kiln_module *m) {
  kiln_block *top = kiln_op_block(m->op, 0);
  for (kiln_op *op = top ? top->first : NULL; op; op = op->next)
    if (op->kind == KILN_OP_FUNC) kiln_func_number_values(op);
}

kiln_status kiln_op_errorv(const kiln_source *src, const char *name, const kiln_op *op, const char *fmt,
                           va_list ap) {
  char msg[768];
  int n = snprintf(msg, sizeof msg, "'%s' op ", kiln_op_name(op->kind));
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  return kiln_source_error_at(src, name, op->loc.line, op->loc.col, msg);
}
