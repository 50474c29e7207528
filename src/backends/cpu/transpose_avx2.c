/* Register transposes of a 2-D transpose's blocks (transpose_avx2.h). */
#include "backends/cpu/transpose_avx2.h"

#include "backends/cpu/avx2_lanes.h"

/* The 4x4 block of 8-byte elements at s (rows ld apart) transposed into d (rows ldd apart). */
static inline void transpose4(const double *s, int64_t ld, double *d, int64_t ldd) {
  __m256d r0 = _mm256_loadu_pd(s), r1 = _mm256_loadu_pd(s + ld), r2 = _mm256_loadu_pd(s + 2 * ld),
          r3 = _mm256_loadu_pd(s + 3 * ld);
  __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1), t2 = _mm256_unpacklo_pd(r2, r3),
          t3 = _mm256_unpackhi_pd(r2, r3);
  _mm256_storeu_pd(d, _mm256_permute2f128_pd(t0, t2, 0x20));
  _mm256_storeu_pd(d + ldd, _mm256_permute2f128_pd(t1, t3, 0x20));
  _mm256_storeu_pd(d + 2 * ldd, _mm256_permute2f128_pd(t0, t2, 0x31));
  _mm256_storeu_pd(d + 3 * ldd, _mm256_permute2f128_pd(t1, t3, 0x31));
}

void kiln_cpu_transpose_blocks_avx2(size_t eb, const uint8_t *in, int64_t ldi, uint8_t *out, int64_t ldo, int64_t i0,
                                    int64_t i1, int64_t j0, int64_t j1, int64_t *ie, int64_t *je) {
  int64_t v = eb == 4 ? 8 : 4;
  *ie = i0 + (i1 - i0) / v * v;
  *je = j0 + (j1 - j0) / v * v;
  for (int64_t i = i0; i < *ie; i += v)
    for (int64_t j = j0; j < *je; j += v) {
      const uint8_t *s = in + (size_t)(j * ldi + i) * eb;
      uint8_t *d = out + (size_t)(i * ldo + j) * eb;
      if (eb == 4) kiln_avx2_transpose8((const float *)s, ldi, (float *)d, ldo);
      else transpose4((const double *)s, ldi, (double *)d, ldo);
    }
}
