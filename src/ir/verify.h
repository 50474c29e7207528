/* Verifier internals shared by the per-family rule files (verify_*.c).
 *
 * Each family file exports one lookup: given an op kind it returns the rule function for
 * that kind, or NULL when the kind is not its own. verify.c asks each family in turn, so
 * the op table stays the only list of ops. A rule returns NULL when the op is valid, or
 * the status made by kiln_verify_error(). Rules only read the IR; they are thread-safe. */
#ifndef KILN_IR_VERIFY_H
#define KILN_IR_VERIFY_H

#include "ir/ir.h"

typedef struct kiln_verify_ctx {
  const kiln_module *module;
  const kiln_source *src; /* may be NULL */
} kiln_verify_ctx;

typedef kiln_status (*kiln_verify_fn)(const kiln_verify_ctx *ctx, const kiln_op *op);

/* "'stablehlo.add' op <message>" located at the op. */
kiln_status kiln_verify_error(const kiln_verify_ctx *ctx, const kiln_op *op, const char *fmt,
                              ...) __attribute__((format(printf, 3, 4)));

/* Renders a type as MLIR text into buf (truncated to cap); returns buf. */
const char *kiln_verify_type_str(const kiln_type *t, char *buf, size_t cap);

kiln_verify_fn kiln_verify_elementwise_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_shape_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_structured_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_misc_lookup(kiln_op_kind kind);

#endif
