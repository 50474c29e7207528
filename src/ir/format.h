/* Element and tensor values as text: MLIR's float spelling, and the layout the StableHLO
 * reference interpreter prints values in (`tensor<2x2xi8> {` then nested rows). Shared by
 * the printer, the interpreter's print and check messages, and `kiln check`. Pure
 * functions over element storage (see ir/elem.def): thread-safe. */
#ifndef KILN_IR_FORMAT_H
#define KILN_IR_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "ir/ir.h"

typedef enum kiln_float_style {
  KILN_FLOAT_MLIR,    /* "%.6e" when that reads back exactly, else the shortest exact
                         decimal with a '.'; NaN and infinities as hex bits */
  KILN_FLOAT_MESSAGE, /* the shortest exact decimal; nan, inf, -inf */
} kiln_float_style;

/* The shortest decimal that reads back to the same value of float type e, with a '.' as
 * MLIR requires; false (out untouched) when v is not finite. */
bool kiln_format_float_shortest(double v, kiln_elem e, char *out, size_t cap);
/* A float given by its storage bits. */
void kiln_format_float(char *out, size_t cap, kiln_elem e, uint64_t bits, kiln_float_style style);
/* One element (storage bytes at p) of element type e: integers in decimal, i1 as
 * true/false, complex as (re, im) in MESSAGE style and [re, im] in MLIR style. */
void kiln_format_elem(kiln_strbuf *b, kiln_elem e, const uint8_t *p, kiln_float_style style);
/* tensor<DIMSxELEM> for a value of that element type and shape. */
void kiln_format_tensor_type(kiln_strbuf *b, const kiln_type *elem_type, int32_t rank, const int64_t *dims);
/* A whole tensor in the reference interpreter's layout:
 *   tensor<2x2xi8> {
 *     [
 *       [1, 2],
 *       [3, 4]
 *     ]
 *   }
 * (a 0-d tensor prints as `tensor<i8> {1}`). */
void kiln_format_tensor(kiln_strbuf *b, const kiln_type *elem_type, int32_t rank, const int64_t *dims,
                        const uint8_t *data);

#endif
