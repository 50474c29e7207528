/* Printer internals reused by diagnostics: types and attributes as MLIR text. */
#ifndef KILN_IR_PRINT_H
#define KILN_IR_PRINT_H

#include <stddef.h>

#include "ir/ir.h"

/* Writes the MLIR spelling of t into buf (always NUL-terminated, truncated to cap). */
void kiln_type_to_string(const kiln_type *t, char *buf, size_t cap);
/* The same for an attribute (long dense payloads are elided with "..."). */
void kiln_attr_to_string(const kiln_attr *a, char *buf, size_t cap);

#endif
