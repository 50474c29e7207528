/* Operations on an element's storage bits shared by the interpreter's kernels and the cpu
 * backend's native steps, so both compute the same bits: reduce_precision (XLA's
 * algorithm) and the order keys top_k sorts by. Pure functions: thread-safe. */
#ifndef KILN_BACKENDS_INTERP_FLOAT_BITS_H
#define KILN_BACKENDS_INTERP_FLOAT_BITS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

/* reduce_precision of a float type to exponent_bits / mantissa_bits, prepared once. */
typedef struct kiln_reduce_precision {
  kiln_elem elem;
  int width, src_e, src_m;
  int64_t dst_e, dst_m;
  bool ieee;          /* f16, bf16, f32, f64: NaN read from the bits */
  uint64_t nan_result; /* what a NaN becomes with no mantissa bits (infinity) */
} kiln_reduce_precision;

/* false unless elem is a float type, exponent_bits >= 1 and mantissa_bits >= 0. */
bool kiln_reduce_precision_init(kiln_reduce_precision *rp, kiln_elem elem, int64_t exponent_bits,
                                int64_t mantissa_bits);
/* The bits of reduce_precision(x) for x's bits v: the mantissa rounded to mantissa_bits
 * (ties to even), then what an exponent of exponent_bits cannot hold overflowed to infinity
 * or flushed to (signed) zero. NaN stays NaN (infinity with no mantissa bits). */
uint64_t kiln_reduce_precision_bits(const kiln_reduce_precision *rp, uint64_t v);

/* The unsigned integer whose order is the total order of the float of `width` bits (with a
 * sign bit) whose bits are `bits`: the first word of kiln_order_key's key. */
static inline uint64_t kiln_float_order_bits(uint64_t bits, int width) {
  uint64_t sign = 1ull << (width - 1);
  return bits & sign ? ~bits & (sign | (sign - 1)) : bits | sign;
}

/* Two words (most significant first) whose lexicographic unsigned order is the order
 * chlo.top_k sorts by: integers by value, floats in their total order (-NaN < -inf < ... <
 * -0 < +0 < ... < +inf < +NaN), complex numbers lexicographically by (real, imaginary),
 * each part in the float total order. p: the element's storage. */
void kiln_order_key(kiln_elem elem, const uint8_t *p, uint64_t out[2]);

#endif
