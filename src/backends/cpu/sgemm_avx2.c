/* sgemm.h's product, built with -mavx2 -mfma (cmake/cpu.cmake).
 *
 * k goes in blocks of KC (the first block's sums written to C, the others' added), and
 * within a block C is computed in tiles of 6 rows by 16 columns: twelve 8-lane
 * accumulators, per step of k two loads of B's row segment and six broadcasts of A's
 * elements feeding twelve FMAs. Columns go in panels of 16, outside the row tiles, so a
 * panel of B (KC x 16, 16 KiB) stays in L1 for every row tile and A's block (m x KC) in L2.
 * A panel is read in place when B is stored k x n, the panel is whole and there are few
 * row tiles to share it; otherwise it is first copied into a zero-padded panel on the stack
 * (transposed B through 8x8 register transposes), so tiles always load whole vectors and
 * only their stores to C are masked. Few rows of C have loops of their own: with B stored
 * n x k and A m x k (at most DOT_MAX_M rows), tiles of 3 x 4 dot products along k (copying
 * B transposed would cost more than the product; a single row of A stored as a column is
 * gathered for them first); a single row with B stored k x n, B streamed row by row, four
 * rows a pass, into sums of up to ROW_CHUNK columns. */
#include <immintrin.h>
#include <string.h>

#include "backends/cpu/avx2_lanes.h"
#include "backends/cpu/sgemm.h"

/* KC: the k block. A whole panel of B stored k x n is read in place when the block's rows
 * of B span at most IN_PLACE_BYTES (L1) or there are at most IN_PLACE_MAX_M rows of C;
 * otherwise copying it once beats reading rows ldb apart (other pages, other cache sets)
 * once per row tile (GFLOP/s, one Zen 3 core, m x k x n, in place / copied: 16x128x128
 * 86 / 74, 24x256x256 88 / 79, 64x64x64 92 / 89, 128x128x128 84 / 92, 64x512x512 68 / 83,
 * 256x384x512 68 / 88). ROW_CHUNK: the columns a single row of C sums at once (m = 1).
 * DOT_MAX_M: the most rows the dot-product tiles take (GFLOP/s, B transposed, dot tiles /
 * copied panels: 8x64x64 47 / 35, 4x64x256 42 / 23, 1x256x256 37 / 11; 16x128x128 49 /
 * 55, 24x64x64 34 / 62: their horizontal sums cost more than the copies from 16 rows). */
enum { MR = 6, NR = 16, KC = 256, IN_PLACE_BYTES = 32 << 10, IN_PLACE_MAX_M = 4 * MR, ROW_CHUNK = 512, DOT_MAX_M = 8 };

/* c[0, 8) (lanes under mask m) = v * alpha (+ c when acc) */
static inline void store8(float *c, __m256 v, __m256 alpha, bool acc, bool whole, __m256i m) {
  v = _mm256_mul_ps(v, alpha);
  if (whole) {
    if (acc) v = _mm256_add_ps(v, _mm256_loadu_ps(c));
    _mm256_storeu_ps(c, v);
  } else {
    if (acc) v = _mm256_add_ps(v, _mm256_maskload_ps(c, m));
    _mm256_maskstore_ps(c, m, v);
  }
}

/* One tile: rows [0, mr) of C (rows ldc apart) and nc <= NR columns; A's element (r, p)
 * at a[r * ar + p * ap], B's row p at b + p * bs (NR readable floats). */
static inline __attribute__((always_inline)) void tile(const int mr, int64_t k, const float *a, int64_t ar,
                                                       int64_t ap, const float *b, int64_t bs, float *c, int64_t ldc,
                                                       int nc, __m256 alpha, bool acc) {
  __m256 lo[MR], hi[MR];
  const float *row[MR];
#pragma GCC unroll 6
  for (int r = 0; r < mr; r++) {
    lo[r] = hi[r] = _mm256_setzero_ps();
    row[r] = a + r * ar;
  }
  for (int64_t p = 0; p < k; p++) {
    __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    b += bs;
#pragma GCC unroll 6
    for (int r = 0; r < mr; r++) {
      __m256 x = _mm256_broadcast_ss(row[r] + p * ap);
      lo[r] = _mm256_fmadd_ps(x, b0, lo[r]);
      hi[r] = _mm256_fmadd_ps(x, b1, hi[r]);
    }
  }
  bool whole = nc == NR;
  __m256i m0 = kiln_avx2_lanes(nc), m1 = kiln_avx2_lanes(nc - 8);
#pragma GCC unroll 6
  for (int r = 0; r < mr; r++) {
    store8(c + r * ldc, lo[r], alpha, acc, whole, m0);
    store8(c + r * ldc + 8, hi[r], alpha, acc, whole, m1);
  }
}

/* Rows [0, m) of C in tiles; A's element (i, p) at a[i * ar + p * ap]. */
static void row_tiles(int64_t m, int64_t k, const float *a, int64_t ar, int64_t ap, const float *b, int64_t bs,
                      float *c, int64_t ldc, int nc, __m256 alpha, bool acc) {
  for (int64_t i = 0, mr; i < m; i += mr) {
    const float *ai = a + i * ar;
    float *ci = c + i * ldc;
    int64_t left = m - i, tiles = (left + MR - 1) / MR;
    mr = (left + tiles - 1) / tiles; /* the rows left in tiles of even size: no tile of one row after five of six */
    switch ((int)mr) {
      case 6: tile(6, k, ai, ar, ap, b, bs, ci, ldc, nc, alpha, acc); break;
      case 5: tile(5, k, ai, ar, ap, b, bs, ci, ldc, nc, alpha, acc); break;
      case 4: tile(4, k, ai, ar, ap, b, bs, ci, ldc, nc, alpha, acc); break;
      case 3: tile(3, k, ai, ar, ap, b, bs, ci, ldc, nc, alpha, acc); break;
      case 2: tile(2, k, ai, ar, ap, b, bs, ci, ldc, nc, alpha, acc); break;
      default: tile(1, k, ai, ar, ap, b, bs, ci, ldc, nc, alpha, acc); break;
    }
  }
}

/* Rows [0, kc) and columns [j, j + nc) of op(B) (its element (p, q) at b[p * ldb + q] for
 * 'N', b[q * ldb + p] for 'T') as a kc x NR panel, zeros past nc. */
static void pack_panel(char tb, int64_t kc, const float *b, int64_t ldb, int64_t j, int nc, float *panel) {
  if (tb == 'N') {
    const float *bj = b + j;
    if (nc == NR) {
      for (int64_t p = 0; p < kc; p++, bj += ldb) {
        _mm256_storeu_ps(panel + p * NR, _mm256_loadu_ps(bj));
        _mm256_storeu_ps(panel + p * NR + 8, _mm256_loadu_ps(bj + 8));
      }
      return;
    }
    __m256i m0 = kiln_avx2_lanes(nc), m1 = kiln_avx2_lanes(nc - 8);
    for (int64_t p = 0; p < kc; p++, bj += ldb) {
      _mm256_storeu_ps(panel + p * NR, _mm256_maskload_ps(bj, m0));
      _mm256_storeu_ps(panel + p * NR + 8, _mm256_maskload_ps(bj + 8, m1));
    }
    return;
  }
  int64_t p8 = kc / 8 * 8;
  int q8 = nc / 8 * 8;
  for (int q = 0; q < q8; q += 8)
    for (int64_t p = 0; p < p8; p += 8) kiln_avx2_transpose8(b + (j + q) * ldb + p, ldb, panel + p * NR + q, NR);
  for (int64_t p = 0; p < kc; p++)
    for (int q = p < p8 ? q8 : 0; q < NR; q++) panel[p * NR + q] = q < nc ? b[(j + q) * ldb + p] : 0.0f;
}

/* sum[0, w) += sum over q < rows of a[q * ap] * b[q * ldb + (0, w)], each element's terms
 * in q's order; w8: w rounded down to 8, mt: lanes of the rest. */
static inline __attribute__((always_inline)) void add_rows(const int rows, const float *a, int64_t ap, const float *b,
                                                           int64_t ldb, float *sum, int64_t w, int64_t w8, __m256i mt) {
  __m256 x[4];
  for (int q = 0; q < rows; q++) x[q] = _mm256_broadcast_ss(a + q * ap);
  int64_t j = 0;
  for (; j < w8; j += 8) {
    __m256 v = _mm256_loadu_ps(sum + j);
    for (int q = 0; q < rows; q++) v = _mm256_fmadd_ps(x[q], _mm256_loadu_ps(b + q * ldb + j), v);
    _mm256_storeu_ps(sum + j, v);
  }
  if (j < w) {
    __m256 v = _mm256_maskload_ps(sum + j, mt);
    for (int q = 0; q < rows; q++) v = _mm256_fmadd_ps(x[q], _mm256_maskload_ps(b + q * ldb + j, mt), v);
    _mm256_maskstore_ps(sum + j, mt, v);
  }
}

/* The four sums of a, b, c and d's lanes. */
static inline __m128 hsum4(__m256 a, __m256 b, __m256 c, __m256 d) {
  __m256 t = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
  return _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
}

/* A tile of C of mr <= 3 rows and nr <= 4 columns as dot products of A's rows (lda apart)
 * and B's rows (ldb apart), both runs of k: twelve 8-lane partial sums at most, seven
 * loads a step of 8. */
static inline __attribute__((always_inline)) void dot_tile(const int mr, const int nr, int64_t k, const float *a,
                                                           int64_t lda, const float *b, int64_t ldb, float *c,
                                                           int64_t ldc, float alpha, bool acc) {
  __m256 sum[3][4];
#pragma GCC unroll 3
  for (int r = 0; r < 3; r++)
#pragma GCC unroll 4
    for (int q = 0; q < 4; q++) sum[r][q] = _mm256_setzero_ps();
  int64_t k8 = k / 8 * 8;
  for (int64_t p = 0; p < k8; p += 8) {
    __m256 x[3], y[4];
#pragma GCC unroll 3
    for (int r = 0; r < mr; r++) x[r] = _mm256_loadu_ps(a + r * lda + p);
#pragma GCC unroll 4
    for (int q = 0; q < nr; q++) y[q] = _mm256_loadu_ps(b + q * ldb + p);
#pragma GCC unroll 3
    for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
      for (int q = 0; q < nr; q++) sum[r][q] = _mm256_fmadd_ps(x[r], y[q], sum[r][q]);
  }
  if (k8 < k) { /* the last k % 8 terms, the other lanes zero */
    __m256i m = kiln_avx2_lanes((int)(k - k8));
    __m256 x[3], y[4];
#pragma GCC unroll 3
    for (int r = 0; r < mr; r++) x[r] = _mm256_maskload_ps(a + r * lda + k8, m);
#pragma GCC unroll 4
    for (int q = 0; q < nr; q++) y[q] = _mm256_maskload_ps(b + q * ldb + k8, m);
#pragma GCC unroll 3
    for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
      for (int q = 0; q < nr; q++) sum[r][q] = _mm256_fmadd_ps(x[r], y[q], sum[r][q]);
  }
#pragma GCC unroll 3
  for (int r = 0; r < mr; r++) {
    float v[4];
    _mm_storeu_ps(v, _mm_mul_ps(hsum4(sum[r][0], sum[r][1], sum[r][2], sum[r][3]), _mm_set1_ps(alpha)));
#pragma GCC unroll 4
    for (int q = 0; q < nr; q++) c[r * ldc + q] = acc ? c[r * ldc + q] + v[q] : v[q];
  }
}

/* C = alpha * A B^T (+ C) for A stored m x k and B stored n x k, by dot_tile: for few rows
 * of C, where copying B's panels transposed would cost more than the product. */
static void dots(int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                 int64_t ldb, bool acc, float *c, int64_t ldc) {
  for (int64_t i = 0; i < m; i += 3) {
    int mr = m - i < 3 ? (int)(m - i) : 3;
    for (int64_t j = 0; j < n; j += 4) {
      int nr = n - j < 4 ? (int)(n - j) : 4;
      const float *ai = a + i * lda, *bj = b + j * ldb;
      float *cij = c + i * ldc + j;
      switch (mr * 4 + nr) {
#define DOT_CASE(R, Q) \
  case R * 4 + Q: dot_tile(R, Q, k, ai, lda, bj, ldb, cij, ldc, alpha, acc); break;
        DOT_CASE(1, 1) DOT_CASE(1, 2) DOT_CASE(1, 3) DOT_CASE(1, 4)
        DOT_CASE(2, 1) DOT_CASE(2, 2) DOT_CASE(2, 3) DOT_CASE(2, 4)
        DOT_CASE(3, 1) DOT_CASE(3, 2) DOT_CASE(3, 3) DOT_CASE(3, 4)
#undef DOT_CASE
      }
    }
  }
}

/* m = 1 with B stored k x n: c[j] = alpha * sum_p a[p * ap] b[p * ldb + j] (+ c[j]), B's
 * rows streamed whole, four at a time, into sums of ROW_CHUNK columns. */
static void row_vector(int64_t n, int64_t k, const float *a, int64_t ap, const float *b, int64_t ldb, float *c,
                       float alpha, bool acc) {
  __m256 s = _mm256_set1_ps(alpha);
  float sum[ROW_CHUNK];
  for (int64_t j0 = 0; j0 < n; j0 += ROW_CHUNK) {
    int64_t w = n - j0 < ROW_CHUNK ? n - j0 : ROW_CHUNK, w8 = w / 8 * 8;
    __m256i mt = kiln_avx2_lanes((int)(w - w8));
    memset(sum, 0, (size_t)w * sizeof(float));
    for (int64_t p = 0; p < k;) {
      int rows = k - p >= 4 ? 4 : 1; /* four rows of B a pass, the last ones one by one */
      if (rows == 4) add_rows(4, a + p * ap, ap, b + p * ldb + j0, ldb, sum, w, w8, mt);
      else add_rows(1, a + p * ap, ap, b + p * ldb + j0, ldb, sum, w, w8, mt);
      p += rows;
    }
    for (int64_t j = 0; j < w; j += 8) {
      __m256i mj = j < w8 ? kiln_avx2_lanes(8) : mt;
      store8(c + j0 + j, _mm256_maskload_ps(sum + j, mj), s, acc, false, mj);
    }
  }
}

/* m = 1 with A's row strided (A stored k x 1, ap apart) and B stored n x k: the row
 * gathered a block of KC at a time into a run the dot tiles read. */
static void strided_row_dots(int64_t n, int64_t k, const float *a, int64_t ap, const float *b, int64_t ldb,
                             float *c, float alpha, bool acc) {
  float block[KC];
  for (int64_t p0 = 0; p0 == 0 || p0 < k; p0 += KC) { /* k = 0 once: C = alpha * 0 (+ C) */
    int64_t kc = k - p0 < KC ? k - p0 : KC;
    for (int64_t p = 0; p < kc; p++) block[p] = a[(p0 + p) * ap];
    dots(1, n, kc, alpha, block, kc, b + p0, ldb, acc || p0 > 0, c, n);
  }
}

void kiln_cpu_sgemm_avx2(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                         const float *b, int64_t ldb, bool accumulate, float *c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  int64_t ar = ta == 'N' ? lda : 1, ap = ta == 'N' ? 1 : lda;
  if (tb == 'T' && ta == 'N' && m <= DOT_MAX_M) {
    dots(m, n, k, alpha, a, lda, b, ldb, accumulate, c, ldc);
    return;
  }
  if (n == 1 && ta == 'N' && (tb == 'T' || ldb == 1)) { /* matrix times vector: A's rows dotted with it */
    dots(m, 1, k, alpha, a, lda, b, k, accumulate, c, ldc);
    return;
  }
  if (m == 1) {
    if (tb == 'N') row_vector(n, k, a, ap, b, ldb, c, alpha, accumulate);
    else strided_row_dots(n, k, a, ap, b, ldb, c, alpha, accumulate);
    return;
  }
  __m256 s = _mm256_set1_ps(alpha);
  float panel[KC * NR];
  for (int64_t p0 = 0; p0 == 0 || p0 < k; p0 += KC) { /* k = 0 once: C = alpha * 0 (+ C) */
    int64_t kc = k - p0 < KC ? k - p0 : KC;
    bool acc = accumulate || p0 > 0;
    const float *ak = a + p0 * ap, *bk = tb == 'N' ? b + p0 * ldb : b + p0;
    bool in_place = m <= IN_PLACE_MAX_M || (double)kc * (double)ldb * sizeof(float) <= IN_PLACE_BYTES;
    for (int64_t j = 0; j < n; j += NR) {
      int nc = n - j < NR ? (int)(n - j) : NR;
      if (tb == 'N' && nc == NR && in_place) {
        row_tiles(m, kc, ak, ar, ap, bk + j, ldb, c + j, ldc, nc, s, acc);
      } else {
        pack_panel(tb, kc, bk, ldb, j, nc, panel);
        row_tiles(m, kc, ak, ar, ap, panel, NR, c + j, ldc, nc, s, acc);
      }
    }
  }
}

bool kiln_cpu_sgemm_supported(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
