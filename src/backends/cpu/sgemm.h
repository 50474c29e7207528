/* Kiln's own f32 matrix product for AVX2 + FMA hosts (sgemm_avx2.c), used for the products
 * dnnl_gemm.c runs as sgemm calls where OpenBLAS's packed sgemm is not the faster one: small
 * and medium products, and any product on a host whose OpenBLAS has no AVX2 kernels for it.
 *
 * Why not oneDNN's sgemm there: its first call in a process generates its kernels, about
 * 15 ms on a Zen 3 core (measured 2026-12-03, oneDNN 2.6.3), which every process paid in
 * its first compile's warm-up or its first run; a product of a few microseconds has nothing
 * to amortise that against. This one has no start-up cost and, being a plain loop nest over
 * a 6x16 register tile, no per-call set-up either.
 *
 * Sums: f32 throughout, by fused multiply-adds. In the 6x16 tiles each element of C sums
 * each block of 256 terms in k's order, scaled by alpha and added to C block by block; the
 * dot-product tiles (B transposed, few rows; a matrix times a vector) keep eight partial
 * sums per element, one per lane, added at the end. Accuracy as any blocked sgemm's (oneDNN's and OpenBLAS's split
 * their sums too); the differential harness checks it against the interpreter. */
#ifndef KILN_BACKENDS_CPU_SGEMM_H
#define KILN_BACKENDS_CPU_SGEMM_H

#include <stdbool.h>
#include <stdint.h>

/* C = alpha * op(A) * op(B) + (accumulate ? C : 0), row-major: C is m x n with rows ldc
 * apart; op(A) is m x k, A stored as m rows of k (ta 'N', rows lda apart) or k rows of m
 * ('T'); op(B) is k x n, B stored as k rows of n (tb 'N', rows ldb apart) or n rows of k
 * ('T'). Sizes and leading dimensions are elements, non-negative, each leading dimension
 * at least its row's length. No alignment asked. Runs on the calling thread; reentrant.
 * Only on a host with AVX2 and FMA (kiln_cpu_sgemm_supported). */
void kiln_cpu_sgemm_avx2(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                         const float *b, int64_t ldb, bool accumulate, float *c, int64_t ldc);

/* Whether this host can run kiln_cpu_sgemm_avx2 (AVX2 and FMA). Thread-safe. */
bool kiln_cpu_sgemm_supported(void);

#endif
