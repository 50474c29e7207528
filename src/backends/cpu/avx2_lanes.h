/* Lane masks and register transposes for AVX2 kernels (sgemm_avx2.c, igemm_avx2.c,
 * transpose_avx2.c): include only from files built with -mavx2. */
#ifndef KILN_BACKENDS_CPU_AVX2_LANES_H
#define KILN_BACKENDS_CPU_AVX2_LANES_H

#include <immintrin.h>
#include <stdint.h>

/* An 8-lane mask of 32-bit lanes: [0, count) on, the rest off (count clamped to [0, 8]). */
static inline __m256i kiln_avx2_lanes(int count) {
  static const int32_t masks[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  count = count < 0 ? 0 : count > 8 ? 8 : count;
  return _mm256_loadu_si256((const __m256i *)(masks + 8 - count));
}

/* The 8x8 block of 4-byte elements at s (rows ld elements apart) transposed into d (rows
 * ldd apart): d[i * ldd + j] = s[j * ld + i]. */
static inline void kiln_avx2_transpose8(const float *s, int64_t ld, float *d, int64_t ldd) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_ps(s + i * ld);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
  }
  for (int i = 0; i < 4; i++) {
    _mm256_storeu_ps(d + i * ldd, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(d + (i + 4) * ldd, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}

#endif
