/* Kiln's own i8 x i8 -> i32 matrix product for AVX2 hosts (igemm_avx2.c): quantised
 * matmuls on hosts without VNNI, where oneDNN's int8 kernels add pairs of products in i16
 * with saturation (vpmaddubsw), which is not the op's exact sum, and computing in f32 is
 * exact only while K stays at most 1024 and runs at the f32 FMA rate.
 *
 * Sums: each pair of products (both at most 2^14 in magnitude) added exactly in i32 by
 * vpmaddwd, the pairs added in i32 with wrap-around: the exact sum modulo 2^32, which is
 * the i32 result the interpreter computes, for any K. Eight lanes of 32 bits each take two
 * multiply-adds an instruction: twice the f32 FMA rate of the same vectors. */
#ifndef KILN_BACKENDS_CPU_IGEMM_H
#define KILN_BACKENDS_CPU_IGEMM_H

#include <stdbool.h>
#include <stdint.h>

/* The bytes of the working buffer a call needs (40 KiB). */
#define KILN_CPU_IGEMM_WORK_BYTES ((size_t)40 << 10)

/* C = op(A) * op(B), row-major, as kiln_cpu_sgemm_avx2 (sgemm.h) without alpha: C is m x n
 * with rows ldc apart, overwritten (accumulate: added to); op(A) is m x k, A stored as m
 * rows of k (ta 'N', rows lda apart) or k rows of m ('T'); op(B) is k x n, B stored as k
 * rows of n (tb 'N', rows ldb apart) or n rows of k ('T'). Sizes and leading dimensions are
 * elements, non-negative, each leading dimension at least its row's length. work: the
 * caller's KILN_CPU_IGEMM_WORK_BYTES, 32-byte aligned, which the call overwrites. No other
 * alignment asked, nothing allocated. Runs on the calling thread; reentrant with another
 * work buffer. Only on a host with AVX2 (kiln_cpu_igemm_supported). */
void kiln_cpu_igemm_avx2(char ta, char tb, int64_t m, int64_t n, int64_t k, const int8_t *a, int64_t lda,
                         const int8_t *b, int64_t ldb, bool accumulate, int32_t *c, int64_t ldc, void *work);

/* Whether this host can run kiln_cpu_igemm_avx2 (AVX2). Thread-safe. */
bool kiln_cpu_igemm_supported(void);

#endif
