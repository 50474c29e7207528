/* bf16/f16 <-> f32 (and si8 -> f32 -> si32) conversions of whole tensors for ops oneDNN
 * computes in f32 (see dnnl_internal.h). bf16 is the upper half of an f32, so its conversions are bit
 * operations that vectorise; f16 uses the F16C instructions (eight at a time) where the CPU
 * has them (every AVX2 one), else the element helpers of the IR; both give the same bits
 * (NaNs become the helpers' quiet NaN of the same sign). Large tensors are cut into ranges
 * run on the backend's pool (pool.h). */
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/pool.h"

/* f32 bits to bf16, rounding to nearest even; NaNs stay (quiet) NaNs. */
static uint16_t bf16_of(uint32_t b) {
  if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((b >> 16) | 0x40);
  return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}

static bool have_f16c(void) {
  static _Atomic int known; /* 0 unknown, 1 no, 2 yes */
  int k = known;
  if (!k) {
    __builtin_cpu_init();
    unsigned a, b, c, d; /* F16C: CPUID.1:ECX bit 29 (clang 14 has no "f16c" for __builtin_cpu_supports) */
    k = __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c >> 29 & 1) ? 2 : 1;
    known = k;
  }
  return k == 2;
}

__attribute__((target("avx,f16c"))) static void f16_to_f32_f16c(const uint16_t *h, float *out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(h + i))));
  for (; i < n; i++) out[i] = _cvtsh_ss(h[i]);
}

/* Rounds to nearest even; a NaN becomes the quiet NaN 0x7e00 with its sign (as
 * kiln_elem_float_to_bits makes it), not its payload's top bits. */
__attribute__((target("avx,f16c"))) static void f32_to_f16_f16c(const float *in, uint16_t *h, int64_t n) {
  const __m256 sign = _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u));
  const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000));
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_loadu_ps(in + i);
    __m256 canon = _mm256_or_ps(_mm256_and_ps(x, sign), qnan);
    x = _mm256_blendv_ps(x, canon, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    _mm_storeu_si128((__m128i *)(h + i), _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (; i < n; i++) h[i] = (uint16_t)kiln_elem_float_to_bits(KILN_ELEM_F16, in[i]);
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
  if (e == KILN_ELEM_F16 && have_f16c()) {
    f16_to_f32_f16c(h, out, n);
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
  if (e == KILN_ELEM_F16 && have_f16c()) {
    f32_to_f16_f16c(in, h, n);
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
