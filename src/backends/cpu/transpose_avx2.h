/* Register transposes of blocks of a 2-D transpose for hosts with AVX2
 * (native_transpose.c's copy; transpose_avx2.c, built with -mavx2). Call only where
 * kiln_cpu_sgemm_supported() (sgemm.h) holds. Thread-safe: no state. */
#ifndef KILN_BACKENDS_CPU_TRANSPOSE_AVX2_H
#define KILN_BACKENDS_CPU_TRANSPOSE_AVX2_H

#include <stddef.h>
#include <stdint.h>

/* out[i * ldo + j] = in[j * ldi + i] (elements of eb bytes, 4 or 8) for the whole blocks
 * (8 x 8 of 4-byte elements, 4 x 4 of 8-byte ones) of i in [i0, i1), j in [j0, j1) from
 * (i0, j0); *ie and *je: where the blocks end (the caller copies the rest). */
void kiln_cpu_transpose_blocks_avx2(size_t eb, const uint8_t *in, int64_t ldi, uint8_t *out, int64_t ldo, int64_t i0,
                                    int64_t i1, int64_t j0, int64_t j1, int64_t *ie, int64_t *je);

#endif
