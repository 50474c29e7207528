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

/* Type comparisons (verify_types.c), following StableHLO's type inference: `?` matches
 * any size; a static size may not exceed the other side's bound; quantized element types
 * are "compatible" when storage type and range, expressed type and granularity agree
 * (scales and zero points may differ) and "identical" when everything agrees. */
bool kiln_verify_dims_compatible(int64_t a, int64_t b);
bool kiln_verify_shapes_compatible(const kiln_type *a, const kiln_type *b);
bool kiln_verify_fits_bounds(const kiln_type *sized, const kiln_type *bounded);
bool kiln_verify_elems_compatible(const kiln_type *a, const kiln_type *b);
bool kiln_verify_elems_identical(const kiln_type *a, const kiln_type *b);
/* Tensors: compatible shapes, bounds respected both ways, compatible elements; other
 * types: equal. */
bool kiln_verify_types_compatible(const kiln_type *a, const kiln_type *b);

kiln_verify_fn kiln_verify_elementwise_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_shape_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_structured_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_misc_lookup(kiln_op_kind kind);
kiln_verify_fn kiln_verify_sdy_lookup(kiln_op_kind kind);

#endif
