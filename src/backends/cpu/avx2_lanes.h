/* Lane masks for AVX2 kernels (sgemm_avx2.c, igemm_avx2.c): include only from files built
 * with -mavx2. */
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

#endif
