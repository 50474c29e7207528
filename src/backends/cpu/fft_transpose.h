/* Copies between a group's planes (fft_lanes.h) and its lines when each line's points are
 * adjacent in memory (lines along the innermost dim, the common case), by register
 * transposes: a block of lanes x points is loaded line by line as whole vectors and
 * stored point by point as whole vectors, instead of one element at a time. For
 * fft_kernels.h, in builds for AVX2 or wider (256-bit vectors; an AVX-512 build uses them
 * too); a build without AVX2 copies element by element (fft_lanes.h's EACH_POINT).
 *
 * Points are complex (re, im) pairs: a line of complex data, or a real line read as the
 * complex line of its (even, odd) sample pairs. line[v] is lane v's first point (as the
 * element type); the planes are re and im (point e of plane slot s at re[e * lanes + s]).
 *
 * Slots are lanes permuted: the transposes leave a group's lines in the slots
 * FFT_SLOT_F32 (16 lanes of f32) and FFT_SLOT_F64 (8 lanes of f64) say, slot s holding
 * line slot[s], and the copy out reads them back the same way. Every pass treats the
 * slots alike, so the permutation needs no other code. Each map is its own inverse. The
 * copies take whole blocks of points; the caller copies the last few one by one. */
#include <immintrin.h>

static const int32_t FFT_SLOT_F32[16] = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
static const int32_t FFT_SLOT_F64[8] = {0, 2, 1, 3, 4, 6, 5, 7};

/* Four lanes' vectors of four complex f32 points, x[v] = (c0, c1 | c2, c3) of lane v, as
 * four vectors p[j] = (c_j of lanes 0, 1 | 2, 3): a 4 x 4 transpose of 64-bit pairs. Its
 * own inverse. */
static inline void fft_pairs4x4(const __m256 x[4], __m256 p[4]) {
  __m256d a = _mm256_castps_pd(x[0]), b = _mm256_castps_pd(x[1]), c = _mm256_castps_pd(x[2]), d = _mm256_castps_pd(x[3]);
  __m256d lo01 = _mm256_unpacklo_pd(a, b), hi01 = _mm256_unpackhi_pd(a, b);
  __m256d lo23 = _mm256_unpacklo_pd(c, d), hi23 = _mm256_unpackhi_pd(c, d);
  p[0] = _mm256_castpd_ps(_mm256_permute2f128_pd(lo01, lo23, 0x20));
  p[1] = _mm256_castpd_ps(_mm256_permute2f128_pd(hi01, hi23, 0x20));
  p[2] = _mm256_castpd_ps(_mm256_permute2f128_pd(lo01, lo23, 0x31));
  p[3] = _mm256_castpd_ps(_mm256_permute2f128_pd(hi01, hi23, 0x31));
}

/* The points of 16 f32 lines into the planes, the imaginary parts times im_sign, in whole
 * blocks of 4: returns how many (count rounded down to 4). */
static int64_t fft_copy_in_f32x16(const float *const line[16], int64_t count, float im_sign, float *restrict re,
                               float *restrict im) {
  const __m256 sign = _mm256_set1_ps(im_sign);
  int64_t j0 = 0;
  for (; j0 + 4 <= count; j0 += 4)
    for (int32_t g = 0; g < 16; g += 8) {
      __m256 x[8], p[2][4];
      for (int32_t v = 0; v < 8; v++) x[v] = _mm256_loadu_ps(line[g + v] + 2 * j0);
      fft_pairs4x4(x, p[0]);
      fft_pairs4x4(x + 4, p[1]);
      for (int32_t j = 0; j < 4; j++) { /* slots 0, 1, 4, 5 from lanes 0-3, 2, 3, 6, 7 from lanes 4-7 */
        _mm256_storeu_ps(re + (j0 + j) * 16 + g, _mm256_shuffle_ps(p[0][j], p[1][j], 0x88));
        _mm256_storeu_ps(im + (j0 + j) * 16 + g, _mm256_mul_ps(sign, _mm256_shuffle_ps(p[0][j], p[1][j], 0xdd)));
      }
    }
  return j0;
}

/* The points of the planes out to 16 f32 lines, times re_scale and im_scale, in whole
 * blocks of 4: returns how many. */
static int64_t fft_copy_out_f32x16(const float *restrict re, const float *restrict im, int64_t count, float re_scale,
                                float im_scale, float *const line[16]) {
  const __m256 rs = _mm256_set1_ps(re_scale), is = _mm256_set1_ps(im_scale);
  int64_t j0 = 0;
  for (; j0 + 4 <= count; j0 += 4)
    for (int32_t g = 0; g < 16; g += 8) {
      __m256 p[2][4], x[4];
      for (int32_t j = 0; j < 4; j++) {
        __m256 r = _mm256_mul_ps(rs, _mm256_loadu_ps(re + (j0 + j) * 16 + g));
        __m256 i = _mm256_mul_ps(is, _mm256_loadu_ps(im + (j0 + j) * 16 + g));
        p[0][j] = _mm256_unpacklo_ps(r, i); /* slots 0, 1 | 4, 5: lanes 0-3 */
        p[1][j] = _mm256_unpackhi_ps(r, i); /* slots 2, 3 | 6, 7: lanes 4-7 */
      }
      for (int32_t h = 0; h < 2; h++) {
        fft_pairs4x4(p[h], x);
        for (int32_t v = 0; v < 4; v++) _mm256_storeu_ps(line[g + 4 * h + v] + 2 * j0, x[v]);
      }
    }
  return j0;
}

/* The points of 8 f64 lines into the planes, the imaginary parts times im_sign, in whole
 * blocks of 2: returns how many (count rounded down to 2). */
static int64_t fft_copy_in_f64x8(const double *const line[8], int64_t count, double im_sign, double *restrict re,
                              double *restrict im) {
  const __m256d sign = _mm256_set1_pd(im_sign);
  int64_t j0 = 0;
  for (; j0 + 2 <= count; j0 += 2)
    for (int32_t g = 0; g < 8; g += 4) {
      __m256d x[4], q[2][2];
      for (int32_t v = 0; v < 4; v++) x[v] = _mm256_loadu_pd(line[g + v] + 2 * j0);
      for (int32_t h = 0; h < 2; h++) { /* q[h][j] = (c_j of lane 2h | of lane 2h + 1) */
        q[h][0] = _mm256_permute2f128_pd(x[2 * h], x[2 * h + 1], 0x20);
        q[h][1] = _mm256_permute2f128_pd(x[2 * h], x[2 * h + 1], 0x31);
      }
      for (int32_t j = 0; j < 2; j++) { /* slots 0, 1, 2, 3: lanes 0, 2, 1, 3 */
        _mm256_storeu_pd(re + (j0 + j) * 8 + g, _mm256_unpacklo_pd(q[0][j], q[1][j]));
        _mm256_storeu_pd(im + (j0 + j) * 8 + g, _mm256_mul_pd(sign, _mm256_unpackhi_pd(q[0][j], q[1][j])));
      }
    }
  return j0;
}

/* The points of the planes out to 8 f64 lines, times re_scale and im_scale, in whole
 * blocks of 2: returns how many. */
static int64_t fft_copy_out_f64x8(const double *restrict re, const double *restrict im, int64_t count, double re_scale,
                               double im_scale, double *const line[8]) {
  const __m256d rs = _mm256_set1_pd(re_scale), is = _mm256_set1_pd(im_scale);
  int64_t j0 = 0;
  for (; j0 + 2 <= count; j0 += 2)
    for (int32_t g = 0; g < 8; g += 4) {
      __m256d q[2][2];
      for (int32_t j = 0; j < 2; j++) {
        __m256d r = _mm256_mul_pd(rs, _mm256_loadu_pd(re + (j0 + j) * 8 + g));
        __m256d i = _mm256_mul_pd(is, _mm256_loadu_pd(im + (j0 + j) * 8 + g));
        q[0][j] = _mm256_unpacklo_pd(r, i); /* slots 0 | 2: lanes 0 | 1 */
        q[1][j] = _mm256_unpackhi_pd(r, i); /* slots 1 | 3: lanes 2 | 3 */
      }
      for (int32_t h = 0; h < 2; h++) {
        _mm256_storeu_pd(line[g + 2 * h] + 2 * j0, _mm256_permute2f128_pd(q[h][0], q[h][1], 0x20));
        _mm256_storeu_pd(line[g + 2 * h + 1] + 2 * j0, _mm256_permute2f128_pd(q[h][0], q[h][1], 0x31));
      }
    }
  return j0;
}
