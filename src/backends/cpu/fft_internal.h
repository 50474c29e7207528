/* Internal to the cpu backend's FFT (fft.h): the plan's parts, shared by fft.c (plans,
 * runs) and fft_kernels.c (the passes, instantiated from fft_lanes.h for each element
 * precision and lane count). Everything here is immutable once planned. */
#ifndef KILN_BACKENDS_CPU_FFT_INTERNAL_H
#define KILN_BACKENDS_CPU_FFT_INTERNAL_H

#include "backends/cpu/fft.h"

enum {
  KILN_FFT_LANES_F32 = 16, /* one 64-byte vector */
  KILN_FFT_LANES_F64 = 8,
  KILN_FFT_SMALL_RADIX = 7, /* odd radices up to this one have passes of their own */
};

/* One Stockham pass of radix p over sub-transforms of size ns (the product of the earlier
 * passes' radices): (p - 1) * ns twiddles e^(-2 pi i r k / (ns p)) (r in [1, p), k in
 * [0, ns), at [k * (p - 1) + r - 1]) from complex index tw, and for an odd p its p roots
 * e^(-2 pi i u / p) from complex index roots. */
typedef struct kiln_fft_stage {
  int32_t p;
  int64_t ns;
  int64_t tw, roots;
} kiln_fft_stage;

/* A long line run one lane wide (in a batch with fewer lines than a group has lanes) as
 * the four-step split n = n1 n2 (j = j1 + n1 j2, k = n2 k1 + k2): n1 transforms of length
 * n2 over the points n1 apart, times the twiddles W_n^(j1 k2), then n2 of length n1 over
 * the results, each time a group of lanes (adjacent j1, then adjacent k2) at a time
 * through the wide passes: the lanes' points are adjacent in memory, so the copies move
 * whole vectors. */
typedef struct kiln_fft_four {
  int64_t n1, n2;
  struct kiln_fft_line *first, *second; /* lengths n2 and n1, passes only */
  void *tw;                             /* W_n^(j1 k2): re at [k2 * n1 + j1], im n after */
  int64_t planes;                       /* elements in each plane of the wide groups' buffers */
} kiln_fft_four;

/* A forward complex transform of length n (e^(-2 pi i j k / n)): its passes, or a
 * convolution of length m through the line plan conv. Complex numbers of the element
 * precision (float or double pairs, re then im) in tw, chirp and kernel. */
typedef struct kiln_fft_line {
  int64_t n;
  kiln_fft_method method;
  int32_t num_stages;
  kiln_fft_stage stages[KILN_FFT_MAX_STAGES];
  void *tw;
  kiln_fft_four *four;          /* passes: the split one lane wide, or NULL */
  int64_t m;                    /* the convolution's length, or 0 */
  struct kiln_fft_line *conv;   /* the plan of length m */
  void *chirp;                  /* Bluestein, n: e^(-i pi j^2 / n) */
  int64_t *gen;                 /* Rader, m: g^q mod n for a primitive root g mod n */
  void *kernel;                 /* m: the spectrum of the convolution's other sequence, / m
                                 * (Bluestein: the conjugate chirp, wrapped; Rader:
                                 * e^(-2 pi i g^-q / n)) */
} kiln_fft_line;

typedef enum kiln_fft_kind { KILN_FFT_C2C, KILN_FFT_R2C, KILN_FFT_C2R } kiln_fft_kind;

/* One axis of a plan: lines of `n` points along a dim of size src_len in the source and
 * dst_len in the destination (they differ for R2C and C2R), outer * inner of them: element
 * j of line l is at (l / inner) * len * inner + (l % inner) + j * inner. */
typedef struct kiln_fft_axis {
  kiln_fft_kind kind;
  bool inverse;   /* conjugated in and out; scaled by 1/n */
  bool half;      /* R2C/C2R of an even n: line is of length n / 2 */
  int64_t n, src_len, dst_len, outer, inner;
  kiln_fft_line line;
  void *split;    /* half: e^(-2 pi i k / n), k in [0, n / 2] */
  int64_t buf;    /* complex points per lane in each of a group's two buffers */
} kiln_fft_axis;

/* Transforms lines [first, first + LANES) of ax (or the one line `first`, for the *_one
 * functions) from src to dst. scratch: 64-byte aligned, as kiln_fft_run sizes it. */
typedef void (*kiln_fft_group_fn)(const kiln_fft_axis *ax, const void *src, void *dst, int64_t first, void *scratch);

/* The passes built for one instruction set (fft_kernels.h): the same code, compiled for
 * baseline x86-64 (SSE2), for AVX2 + FMA and for AVX-512 (F, DQ, VL; 512-bit vectors).
 * line_f64: a forward transform of one line in double (planes: re at a[0, n), im at
 * a[planes, ...)), for making plans; returns a or b, whichever holds the result. */
typedef struct kiln_fft_kernels {
  kiln_fft_group_fn f32_wide, f32_one, f64_wide, f64_one;
  double *(*line_f64)(const kiln_fft_line *l, double *a, double *b, int64_t planes);
} kiln_fft_kernels;

extern const kiln_fft_kernels kiln_fft_kernels_sse2, kiln_fft_kernels_avx2, kiln_fft_kernels_avx512;

/* Line `line` of ax from src to dst by the DFT's definition in double, as the interpreter
 * computes it (every product of a point and a root, (1, 0) and (0, -1) included; IRFFT's
 * Hermitian extension as given): for lines holding infinities or NaNs, so that which
 * results are infinite and which NaN is the interpreter's. scratch: 4 n doubles. */
void kiln_fft_line_naive(const kiln_fft_axis *ax, bool f64, const void *src, void *dst, int64_t line, double *scratch);

#endif
