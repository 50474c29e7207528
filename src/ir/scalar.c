/* Scalar load/store for every element type (see ir/scalar.h). */
#include "ir/scalar.h"

#include <string.h>

kiln_scalar kiln_scalar_load(kiln_elem e, const uint8_t *p) {
  kiln_scalar s = {{0}, 0};
  size_t n = kiln_elem_storage_bytes(e);
  uint64_t u = 0;
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_B: s.i = p[0] != 0; return s;
    case KILN_ELEM_CLASS_U:
      memcpy(&u, p, n);
      s.u = kiln_elem_bits(e) < 64 ? u & ((1ull << kiln_elem_bits(e)) - 1) : u;
      return s;
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: {
      memcpy(&u, p, n);
      int bits = kiln_elem_bits(e);
      if (bits < 64) {
        u &= (1ull << bits) - 1;
        if ((u >> (bits - 1)) & 1) u |= ~0ull << bits;
      }
      s.i = (int64_t)u;
      return s;
    }
    case KILN_ELEM_CLASS_F:
      memcpy(&u, p, n);
      s.f = kiln_elem_float_from_bits(e, u);
      return s;
    case KILN_ELEM_CLASS_C: {
      kiln_elem part = kiln_elem_complex_part(e);
      uint64_t re = 0, im = 0;
      memcpy(&re, p, n / 2);
      memcpy(&im, p + n / 2, n / 2);
      s.f = kiln_elem_float_from_bits(part, re);
      s.im = kiln_elem_float_from_bits(part, im);
      return s;
    }
  }
  return s;
}

void kiln_scalar_store(kiln_elem e, uint8_t *p, kiln_scalar v) {
  size_t n = kiln_elem_storage_bytes(e);
  uint64_t u;
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_B: p[0] = v.i != 0; return;
    case KILN_ELEM_CLASS_U:
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: {
      int bits = kiln_elem_bits(e);
      u = v.u;
      if (bits < 64) {
        u &= (1ull << bits) - 1;
        if (kiln_elem_class_of(e) != KILN_ELEM_CLASS_U && (u >> (bits - 1)) & 1) u |= ~0ull << bits;
      }
      memcpy(p, &u, n);
      return;
    }
    case KILN_ELEM_CLASS_F:
      u = kiln_elem_float_to_bits(e, v.f);
      memcpy(p, &u, n);
      return;
    case KILN_ELEM_CLASS_C: {
      kiln_elem part = kiln_elem_complex_part(e);
      uint64_t re = kiln_elem_float_to_bits(part, v.f), im = kiln_elem_float_to_bits(part, v.im);
      memcpy(p, &re, n / 2);
      memcpy(p + n / 2, &im, n / 2);
      return;
    }
  }
}
