#include "ir/verify.h"

#include <stdarg.h>

#include "ir/print.h"

kiln_status kiln_verify_error(const kiln_verify_ctx *ctx, const kiln_op *op, const char *fmt,
                              ...) {
  va_list ap;
  va_start(ap, fmt);
  kiln_status st = kiln_op_errorv(ctx->src, ctx->module->name, op, fmt, ap);
  va_end(ap);
  return st;
}

const char *kiln_verify_type_str(const kiln_type *t, char *buf, size_t cap) {
  kiln_type_to_string(t, buf, cap);
  return buf;
}

static kiln_verify_fn lookup(kiln_op_kind kind) {
  kiln_verify_fn fn;
  if ((fn = kiln_verify_elementwise_lookup(kind))) return fn;
  if ((fn = kiln_verify_shape_lookup(kind))) return fn;
  if ((fn = kiln_verify_structured_lookup(kind))) return fn;
  if ((fn = kiln_verify_sdy_lookup(kind))) return fn;
  return kiln_verify_misc_lookup(kind);
}

/* Structural rules every op obeys: operands defined before use is guaranteed by the
 * parser; here, nested regions are walked. */
static kiln_status verify_block(const kiln_verify_ctx *ctx, const kiln_block *b);

static kiln_status verify_op(const kiln_verify_ctx *ctx, const kiln_op *op) {
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      KILN_RETURN_IF_ERROR(verify_block(ctx, b));
  kiln_verify_fn fn = lookup(op->kind);
  return fn ? fn(ctx, op) : NULL;
}

static kiln_status verify_block(const kiln_verify_ctx *ctx, const kiln_block *b) {
  for (const kiln_op *op = b->first; op; op = op->next) KILN_RETURN_IF_ERROR(verify_op(ctx, op));
  return NULL;
}

kiln_status kiln_verify_module(const kiln_module *m, const kiln_source *src) {
  kiln_verify_ctx ctx = {m, src};
  return verify_op(&ctx, m->op);
}
