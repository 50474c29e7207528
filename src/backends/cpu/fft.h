/* The cpu backend's fast Fourier transforms: stablehlo.fft of every fft_type (FFT, IFFT,
 * RFFT, IRFFT), complex<f32>/f32 and complex<f64>/f64, any length, over the 1 to 3
 * innermost dims, batched over the leading ones.
 *
 * Kiln's own code (C17), not a library: FFTW is GPL (not for a library users embed) and
 * Debian's pocketfft is C++ only. The method is the textbook one:
 *   - a complex line of length n = p1 p2 ... ps runs as Stockham autosort passes (no bit
 *     reversal), radix 4, 2 and every odd prime up to KILN_FFT_MAX_RADIX (3 and 5 among
 *     them, by one generic odd-radix butterfly), twiddles precomputed per pass;
 *   - a prime length above that runs as Rader's cyclic convolution of length n - 1 (the
 *     points permuted by the powers of a primitive root mod n), and any other length with a
 *     larger prime factor as Bluestein's chirp-z transform, a cyclic convolution of length
 *     m (the smallest 2^a 3^b 5^c >= 2n - 1); either by two forward transforms of length m
 *     and the kernel's spectrum, precomputed; a prime whose n - 1 has a large prime factor
 *     in turn takes Bluestein when that costs less (kiln_fft_line_method);
 *   - inverse transforms are forward ones of conjugated data (conjugated back, scaled by
 *     1/n per axis as the StableHLO spec defines IFFT and IRFFT);
 *   - RFFT and IRFFT of an even length n run as a complex transform of length n/2 (even
 *     and odd samples packed into one complex line) and one pass splitting (or joining) the
 *     halves; of an odd length, as a complex transform of length n. IRFFT ignores the
 *     imaginary parts of the zero (and, for even n, the n/2) frequency, as a Hermitian
 *     input has them zero (the interpreter and XLA do the same).
 * Plans are made when the op is compiled: factors, twiddles (in long double, rounded once
 * to the element precision), the Bluestein chirp and kernel. A run only transforms.
 *
 * Vectorisation: lines go through the passes LANES at a time (16 f32 or 8 f64 lanes: one
 * 64-byte vector), split into real and imaginary planes interleaved by lane, so every
 * operation of a butterfly is one operation over the lanes and the compiler vectorises it
 * whatever the radix or pass; lines left over (fewer than LANES) run one by one. Lines
 * along the innermost dim move into and out of the planes by register transposes
 * (fft_transpose.h, builds with AVX2 or wider). A long line in a batch too small for a
 * group runs as a four-step split whose pieces go through the wide passes
 * (fft_internal.h: kiln_fft_four). Groups of lines are split over the backend's thread
 * pool (pool.h) when there is enough work.
 *
 * Accuracy: relative error O(eps log n) in the element precision (f32 arithmetic for f32,
 * f64 for f64), as FFT libraries have; tests/backends/cpu/test_fft.c measures it against
 * a long-double DFT.
 *
 * Thread-safety: a plan is immutable once made; any number of runs may use it at once. */
#ifndef KILN_BACKENDS_CPU_FFT_H
#define KILN_BACKENDS_CPU_FFT_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/status.h"

enum {
  KILN_FFT_MAX_RADIX = 61,  /* larger prime factors: Bluestein */
  KILN_FFT_MAX_AXES = 3,
  KILN_FFT_MAX_RANK = 16,
  KILN_FFT_MAX_STAGES = 64,
};

typedef enum kiln_fft_type { KILN_FFT_FFT, KILN_FFT_IFFT, KILN_FFT_RFFT, KILN_FFT_IRFFT } kiln_fft_type;

typedef struct kiln_fft_plan kiln_fft_plan;

/* A plan for an fft of `type` on an operand of dims[rank] (rank 1 to KILN_FFT_MAX_RANK),
 * transforming its last num_lengths dims (1 to 3) to lengths[] (as stablehlo.fft's
 * fft_length: the operand's dims equal them, except the last of an IRFFT, which is
 * lengths[last] / 2 + 1). f64: complex<f64>/f64 data, else complex<f32>/f32. Result dims
 * as the spec says. INVALID_ARGUMENT (saying what) for dims that do not fit the lengths;
 * RESOURCE_EXHAUSTED when out of memory or sizes overflow. The caller owns *out. */
kiln_status kiln_fft_plan_create(kiln_fft_type type, bool f64, int32_t rank, const int64_t *dims, int32_t num_lengths,
                                 const int64_t *lengths, kiln_fft_plan **out);
void kiln_fft_plan_destroy(kiln_fft_plan *p); /* NULL allowed */

/* Runs the plan: in holds the operand (dense row-major; complex as (re, im) pairs), out
 * receives the result; they must not overlap. Uses the shared thread pool when the work
 * is large. RESOURCE_EXHAUSTED when its scratch cannot be allocated (out then holds
 * nothing meaningful). Thread-safe. */
kiln_status kiln_fft_run(const kiln_fft_plan *p, const void *in, void *out);

/* How a line of length n is transformed: Stockham passes over its factors; Rader's cyclic
 * convolution of length n - 1 (n a prime); Bluestein's of a length m >= 2n - 1 (any
 * length). Lengths whose prime factors are all at most KILN_FFT_MAX_RADIX take the passes;
 * the others whichever convolution costs fewer passes over fewer points. */
typedef enum kiln_fft_method { KILN_FFT_PASSES, KILN_FFT_RADER, KILN_FFT_BLUESTEIN } kiln_fft_method;

/* The line plan's structure, for tests: the method for a line of length n >= 1, and its
 * convolution's length in *conv_length (0 for the passes). */
kiln_fft_method kiln_fft_line_method(int64_t n, int64_t *conv_length);

#endif
