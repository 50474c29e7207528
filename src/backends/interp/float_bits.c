/* Operations on storage bits (see float_bits.h). */
#include "backends/interp/float_bits.h"

#include <math.h>
#include <string.h>

#include "ir/scalar.h"

static uint64_t width_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

bool kiln_reduce_precision_init(kiln_reduce_precision *rp, kiln_elem elem, int64_t exponent_bits,
                                int64_t mantissa_bits) {
  if (!kiln_elem_is_float(elem) || exponent_bits < 1 || mantissa_bits < 0) return false;
  memset(rp, 0, sizeof *rp);
  rp->elem = elem;
  rp->width = kiln_elem_bits(elem);
  kiln_elem_float_format(elem, &rp->src_e, &rp->src_m);
  rp->src_e = rp->width - rp->src_m - 1;
  rp->dst_e = exponent_bits;
  rp->dst_m = mantissa_bits;
  rp->ieee = elem == KILN_ELEM_F16 || elem == KILN_ELEM_BF16 || elem == KILN_ELEM_F32 || elem == KILN_ELEM_F64;
  rp->nan_result = kiln_elem_float_to_bits(elem, INFINITY);
  return true;
}

static bool is_nan(const kiln_reduce_precision *rp, uint64_t v) {
  if (!rp->ieee) return isnan(kiln_elem_float_from_bits(rp->elem, v));
  uint64_t exp_mask = width_mask(rp->src_e) << rp->src_m;
  return (v & exp_mask) == exp_mask && (v & width_mask(rp->src_m));
}

uint64_t kiln_reduce_precision_bits(const kiln_reduce_precision *rp, uint64_t v) {
  v &= width_mask(rp->width);
  if (is_nan(rp, v)) return rp->dst_m > 0 ? v : rp->nan_result;
  if (rp->dst_m < rp->src_m) {
    int drop = rp->src_m - (int)rp->dst_m;
    uint64_t last = 1ull << drop;
    uint64_t bias = (last >> 1) - 1 + ((v & last) >> drop);
    v = (v + bias) & ~(last - 1);
  }
  if (rp->dst_e < rp->src_e) {
    uint64_t sign = 1ull << (rp->width - 1), exp_mask = width_mask(rp->src_e) << rp->src_m;
    uint64_t src_bias = (1ull << (rp->src_e - 1)) - 1, dst_bias = (1ull << (rp->dst_e - 1)) - 1;
    uint64_t ex = v & exp_mask;
    if (ex > (src_bias + dst_bias) << rp->src_m) v = (v & sign) | exp_mask;
    else if (ex <= (src_bias - dst_bias) << rp->src_m) v &= sign;
  }
  return v & width_mask(rp->width);
}

static uint64_t float_order_key(kiln_elem e, const uint8_t *p) {
  uint64_t bits = 0;
  int width = kiln_elem_bits(e);
  memcpy(&bits, p, (size_t)(width + 7) / 8);
  if (width < 64) bits &= (1ull << width) - 1;
  if (e == KILN_ELEM_F8E8M0FNU) return bits; /* no sign bit */
  return kiln_float_order_bits(bits, width);
}

void kiln_order_key(kiln_elem elem, const uint8_t *p, uint64_t out[2]) {
  kiln_elem_class c = kiln_elem_class_of(elem);
  out[1] = 0;
  if (c == KILN_ELEM_CLASS_F) {
    out[0] = float_order_key(elem, p);
  } else if (c == KILN_ELEM_CLASS_C) {
    kiln_elem part = kiln_elem_complex_part(elem);
    out[0] = float_order_key(part, p);
    out[1] = float_order_key(part, p + kiln_elem_storage_bytes(elem) / 2);
  } else {
    kiln_scalar s = kiln_scalar_load(elem, p);
    out[0] = c == KILN_ELEM_CLASS_I || c == KILN_ELEM_CLASS_X ? s.u ^ (1ull << 63) : s.u;
  }
}
