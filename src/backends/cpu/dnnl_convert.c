/* bf16/f16 <-> f32 (and si8 -> f32 -> si32) conversions of whole tensors for ops oneDNN
 * computes in f32 (see dnnl_internal.h). bf16 is the upper half of an f32, so its conversions are bit
 * operations that vectorise; f16 goes through the element helpers of the IR. Large
 * tensors are cut into ranges run on the backend's pool (pool.h). */
#include <stdint.h>
#include <string.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/pool.h"

/* f32 bits to bf16, rounding to nearest even; NaNs stay (quiet) NaNs. */
static uint16_t bf16_of(uint32_t b) {
  if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((b >> 16) | 0x40);
  return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}

static void to_f32(kiln_elem e, const void *in, float *out, int64_t n) {
  const uint16_t *h = in;
  if (e == KILN_ELEM_SI8) {
    for (int64_t i = 0; i < n; i++) out[i] = (float)((const int8_t *)in)[i];
    return;
  }
  if (e == KILN_ELEM_BF16) {
    for (int64_t i = 0; i < n; i++) {
      uint32_t b = (uint32_t)h[i] << 16;
      memcpy(&out[i], &b, sizeof b);
    }
    return;
  }
  for (int64_t i = 0; i < n; i++) out[i] = (float)kiln_elem_float_from_bits(e, h[i]);
}

static void from_f32(kiln_elem e, const float *in, void *out, int64_t n) {
  uint16_t *h = out;
  if (e == KILN_ELEM_SI32) {
    for (int64_t i = 0; i < n; i++) ((int32_t *)out)[i] = (int32_t)in[i];
    return;
  }
  if (e == KILN_ELEM_BF16) {
    for (int64_t i = 0; i < n; i++) {
      uint32_t b;
      memcpy(&b, &in[i], sizeof b);
      h[i] = bf16_of(b);
    }
    return;
  }
  for (int64_t i = 0; i < n; i++) h[i] = (uint16_t)kiln_elem_float_to_bits(e, in[i]);
}

typedef struct convert_job {
  kiln_elem e;
  bool in;
  const void *src;
  void *dst;
  int64_t n;
  int32_t chunks;
} convert_job;

static void convert_range(void *ctx, int32_t c, int32_t thread) {
  const convert_job *j = ctx;
  int64_t a = j->n * c / j->chunks, b = j->n * (c + 1) / j->chunks;
  size_t size = kiln_elem_storage_bytes(j->e);
  if (j->in) to_f32(j->e, (const uint8_t *)j->src + (size_t)a * size, (float *)j->dst + a, b - a);
  else from_f32(j->e, (const float *)j->src + a, (uint8_t *)j->dst + (size_t)a * size, b - a);
}

static void convert(kiln_elem e, bool in, const void *src, void *dst, int64_t n) {
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  convert_job j = {e, in, src, dst, n, kiln_cpu_pool_chunks(pool, n, n)};
  kiln_cpu_pool_run(pool, j.chunks, n, convert_range, &j);
}

void kiln_dnnl_convert_in(kiln_elem e, const void *in, float *out, int64_t n) { convert(e, true, in, out, n); }

void kiln_dnnl_convert_out(kiln_elem e, const float *in, void *out, int64_t n) { convert(e, false, in, out, n); }
