/* Scalars: one element of any element type through one representation, for code that
 * reads or writes element storage (dense attributes, interpreter tensors, host arrays).
 *
 * Integers are sign- or zero-extended into i/u (i1 is 0 or 1); floats of every width are
 * doubles (exact for all formats of 64 bits or fewer); complex numbers are re/im doubles.
 * Pure functions: thread-safe. */
#ifndef KILN_IR_SCALAR_H
#define KILN_IR_SCALAR_H

#include <stdint.h>

#include "ir/ir.h"

typedef struct kiln_scalar {
  union {
    int64_t i;
    uint64_t u;
    double f;
  };
  double im;
} kiln_scalar;

/* Loads one element of type e from its storage bytes at p. */
kiln_scalar kiln_scalar_load(kiln_elem e, const uint8_t *p);
/* Stores with the type's own rounding: integers wrap to their width, floats round to
 * nearest even, i1 stores (v != 0). */
void kiln_scalar_store(kiln_elem e, uint8_t *p, kiln_scalar v);

#endif
