/* bf16/f16 <-> f32 conversions of whole tensors for ops oneDNN computes in f32 (see
 * dnnl_internal.h). bf16 is the upper half of an f32, so its conversions are bit
 * operations that vectorise; f16 goes through the element helpers of the IR. */
#include <stdint.h>
#include <string.h>

#include "backends/cpu/dnnl_internal.h"

enum { PARALLEL_MIN = 1 << 16 }; /* elements; fewer run on the calling thread */

/* f32 bits to bf16, rounding to nearest even; NaNs stay (quiet) NaNs. */
static uint16_t bf16_of(uint32_t b) {
  if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((b >> 16) | 0x40);
  return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}

void kiln_dnnl_convert_in(kiln_elem e, const void *in, float *out, int64_t n) {
  const uint16_t *h = in;
  if (e == KILN_ELEM_BF16) {
#pragma omp parallel for simd if (n >= PARALLEL_MIN)
    for (int64_t i = 0; i < n; i++) {
      uint32_t b = (uint32_t)h[i] << 16;
      memcpy(&out[i], &b, sizeof b);
    }
    return;
  }
#pragma omp parallel for if (n >= PARALLEL_MIN)
  for (int64_t i = 0; i < n; i++) out[i] = (float)kiln_elem_float_from_bits(e, h[i]);
}

void kiln_dnnl_convert_out(kiln_elem e, const float *in, void *out, int64_t n) {
  uint16_t *h = out;
  if (e == KILN_ELEM_BF16) {
#pragma omp parallel for simd if (n >= PARALLEL_MIN)
    for (int64_t i = 0; i < n; i++) {
      uint32_t b;
      memcpy(&b, &in[i], sizeof b);
      h[i] = bf16_of(b);
    }
    return;
  }
#pragma omp parallel for if (n >= PARALLEL_MIN)
  for (int64_t i = 0; i < n; i++) h[i] = (uint16_t)kiln_elem_float_to_bits(e, in[i]);
}
