/* kiln_interp_check_runnable: refuses, at compile time, a function that calls a custom-call
 * target the interpreter does not implement. The cpu backend runs custom calls through the
 * interpreter's kernel too, so this is what no device of Kiln can run. (Every op kind has
 * a kernel: tests/backends/interp/test_kernel_coverage.c.) */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backends/interp/interp.h"
#include "backends/lapack/lapack.h"

typedef struct walk {
  const kiln_module *m;
  const kiln_source *src;
  const kiln_op **seen; /* functions already checked or queued */
  int32_t num_seen, cap;
} walk;

static kiln_status unrunnable(const walk *w, const kiln_op *op, kiln_status_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static kiln_status unrunnable(const walk *w, const kiln_op *op, kiln_status_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kiln_status st = kiln_op_errorv(w->src, w->m->name, op, fmt, ap);
  va_end(ap);
  kiln_status out = KILN_STATUS(code, "%s", kiln_status_message(st));
  kiln_status_free(st);
  return out;
}

/* A LAPACK custom call of static shapes is planned now, so a malformed one fails here. */
static kiln_status check_lapack(const walk *w, const kiln_op *op) {
  for (int32_t k = 0; k < op->num_operands; k++)
    if (!kiln_type_is_static(op->operands[k]->type)) return NULL;
  for (int32_t k = 0; k < op->num_results; k++)
    if (!kiln_type_is_static(op->results[k].type)) return NULL;
  kiln_lapack_plan *plan = NULL;
  kiln_status st = kiln_lapack_prepare(op, NULL, NULL, &plan);
  kiln_lapack_destroy(plan);
  if (!st) return NULL;
  kiln_status out = unrunnable(w, op, kiln_status_code_of(st), "%s", kiln_status_message(st));
  kiln_status_free(st);
  return out;
}

/* The function of the module a symbol attribute of op names (callee, decomposition). */
static const kiln_op *callee(const walk *w, const kiln_op *op, const char *attr) {
  const kiln_attr *a = kiln_op_attr(op, attr);
  const char *name = a && a->kind == KILN_ATTR_SYMBOL ? a->symbol : a && a->kind == KILN_ATTR_STRING ? a->str.data : NULL;
  kiln_block *top = name ? kiln_op_block(w->m->op, 0) : NULL;
  for (kiln_op *f = top ? top->first : NULL; f; f = f->next)
    if (f->kind == KILN_OP_FUNC && !strcmp(kiln_func_name(f), name)) return f;
  return NULL;
}

/* Queues f unless seen already; the runner reports a missing or bodiless callee itself. */
static kiln_status queue(walk *w, const kiln_op *f) {
  if (!f || !kiln_op_block(f, 0)) return NULL;
  for (int32_t i = 0; i < w->num_seen; i++)
    if (w->seen[i] == f) return NULL;
  if (w->num_seen == w->cap) {
    int32_t cap = w->cap ? 2 * w->cap : 8;
    const kiln_op **grown = realloc(w->seen, (size_t)cap * sizeof *grown);
    if (!grown) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    w->seen = grown;
    w->cap = cap;
  }
  w->seen[w->num_seen++] = f;
  return NULL;
}

/* Every op of a region, nested regions included (their depth is bounded by the readers). */
static kiln_status check_region(walk *w, const kiln_region *r) {
  for (const kiln_block *b = r->first; b; b = b->next)
    for (const kiln_op *op = b->first; op; op = op->next) {
      if (op->kind == KILN_OP_CUSTOM_CALL && !kiln_interp_custom_call_kernel(op)) {
        const kiln_attr *t = kiln_op_attr(op, "call_target_name");
        bool named = t && t->kind == KILN_ATTR_STRING;
        return unrunnable(w, op, KILN_STATUS_UNIMPLEMENTED, KILN_INTERP_NO_TARGET, named ? (int)t->str.len : 0,
                          named ? t->str.data : "");
      }
      if (op->kind == KILN_OP_CUSTOM_CALL && kiln_lapack_is_target(op)) KILN_RETURN_IF_ERROR(check_lapack(w, op));
      if (op->kind == KILN_OP_CALL) KILN_RETURN_IF_ERROR(queue(w, callee(w, op, "callee")));
      if (op->kind == KILN_OP_COMPOSITE) KILN_RETURN_IF_ERROR(queue(w, callee(w, op, "decomposition")));
      for (int32_t i = 0; i < op->num_regions; i++) KILN_RETURN_IF_ERROR(check_region(w, &op->regions[i]));
    }
  return NULL;
}

kiln_status kiln_interp_check_runnable(const kiln_module *m, const kiln_source *src, const kiln_op *function) {
  walk w = {m, src, NULL, 0, 0};
  kiln_status st = queue(&w, function);
  for (int32_t i = 0; !st && i < w.num_seen; i++) st = check_region(&w, &w.seen[i]->regions[0]);
  free(w.seen);
  return st;
}
