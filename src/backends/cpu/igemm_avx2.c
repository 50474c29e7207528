/* igemm.h's product, built with -mavx2 (cmake/cpu.cmake).
 *
 * vpmaddwd multiplies sixteen pairs of i16 and adds each pair into one of eight i32 lanes,
 * so the product runs on pairs of k: A's elements (i, 2q) and (i, 2q + 1), widened to i16,
 * form one 32-bit word that is broadcast; B's (2q, j) and (2q + 1, j) form the word of
 * column j in a vector of eight columns. k goes in blocks of KC (the first block's sums
 * written to C, the others' added); within a block, rows in blocks of MC whose words are
 * copied once into a tile-ordered block (MR words of pair q, then pair q + 1's, per tile of
 * MR rows), and columns in panels of NR whose words are copied into a panel (pair by pair,
 * NR words each) that stays in L1 while every tile of the row block reads it. A tile is MR
 * rows by NR columns: eight accumulators, per pair two loads of the panel, MR broadcasts
 * and eight vpmaddwd with their eight adds: 128 multiply-adds, where an f32 tile of FMAs
 * as wide does 64 (one Zen 3 core, GMAC/s, m x k x n, this / sgemm_avx2 in f32: 256x1024x1024
 * 62 / 42, 128x1024x512 63 / 43, 1024^3 62 / 37; six-row tiles run out of registers: 44;
 * 2026-12-06). Zeros fill the odd k's missing partner, a partial panel's columns and a
 * partial tile's rows, so tiles always load whole vectors; only their stores to C are
 * masked. */
#include <immintrin.h>
#include <string.h>

#include "backends/cpu/avx2_lanes.h"
#include "backends/cpu/igemm.h"

/* KC: the k block (even); MC: the rows of a copied block of A (a multiple of MR). The row
 * block (MC x KC / 2 words, 32 KiB) stays in L2 and the panel (KC / 2 x NR words, 8 KiB) in
 * L1. */
enum { MR = 4, NR = 16, KC = 256, KP = KC / 2, MC = 64 };

/* One word: the i8 pair (x, y) as two i16, x in the low half. */
static inline int32_t word(int8_t x, int8_t y) {
  return (int32_t)((uint32_t)(uint16_t)(int16_t)x | (uint32_t)(uint16_t)(int16_t)y << 16);
}

/* c[0, 8) (lanes under mask m) = v (+ c when acc) */
static inline void store8(int32_t *c, __m256i v, bool acc, bool whole, __m256i m) {
  if (whole) {
    if (acc) v = _mm256_add_epi32(v, _mm256_loadu_si256((const __m256i *)c));
    _mm256_storeu_si256((__m256i *)c, v);
  } else {
    if (acc) v = _mm256_add_epi32(v, _mm256_maskload_epi32(c, m));
    _mm256_maskstore_epi32(c, m, v);
  }
}

/* One tile: rows [0, mr) of C (rows ldc apart) and nc <= NR columns from kp pairs of the
 * tile's words w (MR a pair) and the panel's (NR a pair). */
static inline __attribute__((always_inline)) void tile(const int mr, int64_t kp, const int32_t *w,
                                                       const int32_t *panel, int32_t *c, int64_t ldc, int nc,
                                                       bool acc) {
  __m256i lo[MR], hi[MR];
#pragma GCC unroll 4
  for (int r = 0; r < mr; r++) lo[r] = hi[r] = _mm256_setzero_si256();
  for (int64_t q = 0; q < kp; q++) {
    __m256i b0 = _mm256_loadu_si256((const __m256i *)(panel + q * NR));
    __m256i b1 = _mm256_loadu_si256((const __m256i *)(panel + q * NR + 8));
#pragma GCC unroll 4
    for (int r = 0; r < mr; r++) {
      /* vbroadcastss: a load alone, where vpbroadcastd also takes a vector pipe on Zen 3 */
      __m256i x = _mm256_castps_si256(_mm256_broadcast_ss((const float *)(w + q * MR + r)));
      lo[r] = _mm256_add_epi32(lo[r], _mm256_madd_epi16(x, b0));
      hi[r] = _mm256_add_epi32(hi[r], _mm256_madd_epi16(x, b1));
    }
  }
  bool whole = nc == NR;
  __m256i m0 = kiln_avx2_lanes(nc), m1 = kiln_avx2_lanes(nc - 8);
#pragma GCC unroll 4
  for (int r = 0; r < mr; r++) {
    store8(c + r * ldc, lo[r], acc, whole, m0);
    store8(c + r * ldc + 8, hi[r], acc, whole, m1);
  }
}

/* The 16 bytes at s widened to 16 i16. */
static inline __m256i widen16(const int8_t *s) { return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)s)); }

/* Rows [0, mc) and k [0, kc) of op(A) (its element (i, p) at a[i * ar + p * ap]) as words,
 * tile by tile (MR words a pair; a tile's missing rows and an odd kc's last partner zero). */
static void pack_rows(int64_t mc, int64_t kc, const int8_t *a, int64_t ar, int64_t ap, int32_t *w) {
  int64_t kp = (kc + 1) / 2;
  for (int64_t i0 = 0; i0 < mc; i0 += MR, w += kp * MR) {
    int mr = mc - i0 < MR ? (int)(mc - i0) : MR;
    int64_t q0 = 0;
    if (ap == 1 && mr == MR) /* rows stored along k: eight pairs of four rows, transposed in registers */
      for (; q0 + 8 <= kc / 2; q0 += 8) {
        const int8_t *s = a + i0 * ar + 2 * q0;
        __m256i r0 = widen16(s), r1 = widen16(s + ar), r2 = widen16(s + 2 * ar), r3 = widen16(s + 3 * ar);
        __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
        __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
        __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
        __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
        int32_t *d = w + q0 * MR;
        _mm256_storeu_si256((__m256i *)d, _mm256_permute2x128_si256(u0, u1, 0x20));
        _mm256_storeu_si256((__m256i *)(d + 8), _mm256_permute2x128_si256(u2, u3, 0x20));
        _mm256_storeu_si256((__m256i *)(d + 16), _mm256_permute2x128_si256(u0, u1, 0x31));
        _mm256_storeu_si256((__m256i *)(d + 24), _mm256_permute2x128_si256(u2, u3, 0x31));
      }
    for (int64_t q = q0; q < kp; q++)
      for (int r = 0; r < MR; r++) {
        const int8_t *s = r < mr ? a + (i0 + r) * ar + 2 * q * ap : NULL; /* a missing row: zeros */
        w[q * MR + r] = s ? word(s[0], 2 * q + 1 < kc ? s[ap] : 0) : 0;
      }
  }
}

/* Columns [j, j + nc) and k [0, kc) of op(B) (its element (p, j) at b[p * br + j * bc]) as
 * a panel of kp pairs, NR words each (zeros past nc and for an odd kc's last partner). */
static void pack_panel(int64_t kc, const int8_t *b, int64_t br, int64_t bc, int nc, int32_t *panel) {
  int64_t kp = (kc + 1) / 2, q = 0;
  if (bc == 1 && nc == NR) /* rows stored along n: two rows' bytes interleaved, then widened */
    for (; q < kc / 2; q++) {
      __m128i x = _mm_loadu_si128((const __m128i *)(b + 2 * q * br));
      __m128i y = _mm_loadu_si128((const __m128i *)(b + (2 * q + 1) * br));
      _mm256_storeu_si256((__m256i *)(panel + q * NR), _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(x, y)));
      _mm256_storeu_si256((__m256i *)(panel + q * NR + 8), _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(x, y)));
    }
  for (; q < kp; q++)
    for (int j = 0; j < NR; j++) {
      const int8_t *s = b + 2 * q * br + j * bc;
      panel[q * NR + j] = j < nc ? word(s[0], 2 * q + 1 < kc ? s[br] : 0) : 0;
    }
}

/* Rows [0, mc) of C in tiles over one panel; w: the row block's words. */
static void row_tiles(int64_t mc, int64_t kp, const int32_t *w, const int32_t *panel, int32_t *c, int64_t ldc, int nc,
                      bool acc) {
  for (int64_t i = 0; i < mc; i += MR, w += kp * MR, c += MR * ldc) {
    switch (mc - i < MR ? (int)(mc - i) : MR) {
      case 4: tile(4, kp, w, panel, c, ldc, nc, acc); break;
      case 3: tile(3, kp, w, panel, c, ldc, nc, acc); break;
      case 2: tile(2, kp, w, panel, c, ldc, nc, acc); break;
      default: tile(1, kp, w, panel, c, ldc, nc, acc); break;
    }
  }
}

_Static_assert((MC * KP + KP * NR) * sizeof(int32_t) == KILN_CPU_IGEMM_WORK_BYTES, "the working buffer's size");

void kiln_cpu_igemm_avx2(char ta, char tb, int64_t m, int64_t n, int64_t k, const int8_t *a, int64_t lda,
                         const int8_t *b, int64_t ldb, bool accumulate, int32_t *c, int64_t ldc, void *work) {
  if (m <= 0 || n <= 0) return;
  if (k == 0) {
    if (!accumulate)
      for (int64_t i = 0; i < m; i++) memset(c + i * ldc, 0, (size_t)n * sizeof(int32_t));
    return;
  }
  int32_t *rows = work, *panel = rows + MC * KP;
  int64_t ar = ta == 'N' ? lda : 1, ap = ta == 'N' ? 1 : lda;
  int64_t br = tb == 'N' ? ldb : 1, bc = tb == 'N' ? 1 : ldb;
  for (int64_t p0 = 0; p0 < k; p0 += KC) {
    int64_t kc = k - p0 < KC ? k - p0 : KC, kp = (kc + 1) / 2;
    bool acc = accumulate || p0 > 0;
    for (int64_t i0 = 0; i0 < m; i0 += MC) {
      int64_t mc = m - i0 < MC ? m - i0 : MC;
      pack_rows(mc, kc, a + i0 * ar + p0 * ap, ar, ap, rows);
      for (int64_t j = 0; j < n; j += NR) {
        int nc = n - j < NR ? (int)(n - j) : NR;
        pack_panel(kc, b + p0 * br + j * bc, br, bc, nc, panel);
        row_tiles(mc, kp, rows, panel, c + i0 * ldc + j, ldc, nc, acc);
      }
    }
  }
}

bool kiln_cpu_igemm_supported(void) { return __builtin_cpu_supports("avx2"); }
