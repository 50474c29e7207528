/* f32 matmuls as direct sgemm calls, and i8 ones as igemm calls (dnnl_internal.h:
 * kiln_dnnl_gemm_plan and _run).
 *
 * Where oneDNN has no brgemm matmul (hosts without AVX-512, or the ISA capped to AVX2), its
 * matmul primitive is the gemm-based one ("gemm:jit"). When M or N is small (below about
 * 500) and the weights start 32-byte aligned, as every Kiln buffer does, that gemm reads
 * them in place instead of packing them, which is slow once their rows are long: a
 * 128x2048 by 2048x2048 product ran at 44 GFLOP/s on one Zen 3 core so, at 79 with the
 * weights 16 bytes off alignment (dnnl_sgemm and the primitive alike, oneDNN 2.6.3), and
 * at 88 through OpenBLAS's sgemm, which always packs (measured 2026-12-02). So such a
 * matmul, when its three tensors are plain f32 matrices, runs as one sgemm call with the
 * epilogue around it: the bias written into the destination first (beta = 1), the scale as
 * alpha (r * scale + bias, the epilogue's order), the relu after. OpenBLAS's sgemm where
 * it has its AVX2 kernels for this CPU (Haswell, Zen; not under an ISA cap on a larger
 * host, whose kernels it would pick) and the weights are wide and deep (at least
 * BLAS_MIN_N x BLAS_MIN_K), where its packing wins; Kiln's own (sgemm.h) otherwise, which
 * unlike oneDNN's sgemm costs nothing on its first call in a process (GFLOP/s, one Zen 3
 * core, m x k x n, Kiln / oneDNN / OpenBLAS: 16x32x64 87 / 59 / 48, 64x64x64 91 / 90 / 65,
 * 256x192x768 96 / 92 / 87, 128x1024x256 90 / 91 / 88, 256x2048x10 54 / 55 / 42; with the
 * weights transposed 8x64x64 47 / 47 / 37, 16x128x128 54 / 72 / 55, 128x512x384 87 / 93 /
 * 86; 2026-12-03);
 * oneDNN's on a host without AVX2 and FMA. Where oneDNN has brgemm, a matrix times a vector
 * (vector_product) runs as an sgemm call all the same. An i8 x i8 -> i32 product on an AVX2 host
 * without VNNI (own_i8) is always Kiln's igemm (igemm.h), exact where oneDNN's AVX2 int8
 * kernels saturate. Whole or in the parts dnnl_split.c cuts along M or N, on the calling
 * thread. */
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/igemm.h"
#include "backends/cpu/sgemm.h"
#include "backends/lapack/routines.h"

/* OpenBLAS (Fortran interface: column-major, 32-bit integers) */
void sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const float *alpha, const float *a,
            const int *lda, const float *b, const int *ldb, const float *beta, float *c, const int *ldc);
char *openblas_get_corename(void);

/* Products whose weights have at least BLAS_MIN_N columns and BLAS_MIN_K rows go to
 * OpenBLAS (when blas is set) for at least BLAS_MIN_M rows, the others to Kiln's sgemm
 * (when own is): with few rows OpenBLAS's packing does not pay ([M,784] x [784,512] then
 * [512,512], one Zen 3 core, us, OpenBLAS / Kiln: M=2 211/105, M=3 295/107, M=7 364/214,
 * M=8 167/126; M=64 599/640). */
enum { BLAS_MIN_M = 16, BLAS_MIN_N = 512, BLAS_MIN_K = 256 };

static bool openblas_avx2_kernels(void) {
  const char *core = openblas_get_corename();
  return core && (strcasecmp(core, "haswell") == 0 || strcasecmp(core, "zen") == 0);
}

/* A plain view of a stack of matrices md of type t: its trailing dimensions rows x cols as
 * sgemm's transpose flag and leading dimension, and its leading (batch) dimensions'
 * strides, in elements, into bstride; false when it is not one. */
static bool plain_matrices(const dnnl_memory_desc_t *md, dnnl_data_type_t t, char *trans, int64_t *ld, int64_t *bstride) {
  int n = md->ndims;
  if (md->data_type != t || md->format_kind != dnnl_blocked || md->offset0 != 0 || n < 2 ||
      md->format_desc.blocking.inner_nblks != 0)
    return false;
  for (int i = 0; i < n; i++)
    if (md->padded_dims[i] != md->dims[i] || md->padded_offsets[i] != 0) return false;
  const dnnl_dims_t *s = &md->format_desc.blocking.strides;
  for (int i = 0; i < n - 2; i++) bstride[i] = (*s)[i];
  int64_t rows = md->dims[n - 2], cols = md->dims[n - 1];
  if ((*s)[n - 1] == 1 && (rows == 1 || (*s)[n - 2] >= cols)) {
    *trans = 'N';
    *ld = rows == 1 ? (cols > 0 ? cols : 1) : (*s)[n - 2];
    return true;
  }
  if ((*s)[n - 2] == 1 && (cols == 1 || (*s)[n - 1] >= rows)) {
    *trans = 'T';
    *ld = cols == 1 ? (rows > 0 ? rows : 1) : (*s)[n - 1];
    return true;
  }
  return false;
}

/* Whether each matrix of the product has one row or one column: a matrix times a vector,
 * which oneDNN's brgemm matmul (hosts with AVX-512) computes at a fraction of the memory's
 * speed (one Intel Xeon with AVX-512 and AMX, 2 threads, us, brgemm / Kiln's sgemm:
 * 512x512 by a vector 28 / 7.2, 2048x256 52 / 12, 4096x1024 512 / 302; a row by 256x2048
 * 19.9 / 14.2, by 4096x4096 1712 / 1692; 2026-12-06). Two rows and more stay brgemm's: at
 * 8x2048x2048 Kiln's, which reads B's panels rows apart, took 1000 us against 418. */
static bool vector_product(const kiln_cpu_dnnl_op *p) {
  const dnnl_memory_desc_t *d = &p->io[KILN_DNNL_DST].prim_md;
  return d->ndims >= 2 && (d->dims[d->ndims - 2] == 1 || d->dims[d->ndims - 1] == 1);
}

void kiln_dnnl_gemm_plan(kiln_cpu_dnnl_op *p) {
  kiln_dnnl_gemm *g = &p->gemm;
  memset(g, 0, sizeof *g);
  g->bias_dim = -1;
  /* own_i8: whatever oneDNN built (it has no epilogue: an integer dot takes none) */
  if (p->is_conv || p->mode != KILN_DNNL_MODE_PRIMITIVE || p->own_bias || p->prim_bias ||
      (!p->own_i8 && strncmp(p->impl, "gemm:", 5) != 0 && !(vector_product(p) && kiln_cpu_sgemm_supported())))
    return;
  char tc;
  dnnl_data_type_t in = p->own_i8 ? dnnl_s8 : dnnl_f32, out = p->own_i8 ? dnnl_s32 : dnnl_f32;
  const dnnl_memory_desc_t *dst = &p->io[KILN_DNNL_DST].prim_md;
  if (p->io[KILN_DNNL_SRC].prim_md.ndims != dst->ndims || p->io[KILN_DNNL_WEI].prim_md.ndims != dst->ndims ||
      !plain_matrices(&p->io[KILN_DNNL_SRC].prim_md, in, &g->ta, &g->lda, g->bstride[KILN_DNNL_SRC]) ||
      !plain_matrices(&p->io[KILN_DNNL_WEI].prim_md, in, &g->tb, &g->ldb, g->bstride[KILN_DNNL_WEI]) ||
      !plain_matrices(dst, out, &tc, &g->ldc, g->bstride[KILN_DNNL_DST]) || tc != 'N')
    return;
  for (int i = 0; i < dst->ndims - 2; i++) /* a batch dimension of 1 in an operand is broadcast */
    for (int t = KILN_DNNL_SRC; t <= KILN_DNNL_WEI; t++) {
      int64_t d = p->io[t].prim_md.dims[i];
      if (d != dst->dims[i] && d != 1) return;
      if (d != dst->dims[i]) g->bstride[t][i] = 0;
    }
  const dnnl_memory_desc_t *src = &p->io[KILN_DNNL_SRC].prim_md;
  g->k = src->dims[src->ndims - 1];
  if (p->own_i8) {
    g->on = true;
    g->work_offset = p->scratch_bytes;
    p->scratch_bytes += kiln_dnnl_round_up(KILN_CPU_IGEMM_WORK_BYTES);
    return;
  }
  if (p->epi.has_bias) {
    int n = p->io[KILN_DNNL_DST].prim_md.ndims, d = p->out_to_prim[p->epi.bias_dim];
    if (d == n - 2) g->bias_dim = 0;
    else if (d == n - 1) g->bias_dim = 1;
    else return;
  }
  g->blas = openblas_avx2_kernels();
  if (g->blas) kiln_lapack_single_threaded();
  g->own = kiln_cpu_sgemm_supported();
  g->on = true;
}

static bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/* The row-major product through OpenBLAS's column-major sgemm: C^T = op(B)^T op(A)^T. */
static bool blas_sgemm(const kiln_dnnl_gemm *g, int64_t m, int64_t n, float alpha, const float *a, const float *b,
                       float beta, float *c) {
  if (!fits_int(m) || !fits_int(n) || !fits_int(g->k) || !fits_int(g->lda) || !fits_int(g->ldb) || !fits_int(g->ldc))
    return false;
  int im = (int)m, in = (int)n, ik = (int)g->k, lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->ldc;
  sgemm_(&g->tb, &g->ta, &in, &im, &ik, &alpha, b, &ldb, a, &lda, &beta, c, &ldc);
  return true;
}

/* One m x n product with its epilogue. */
static dnnl_status_t gemm_one(const kiln_cpu_dnnl_op *p, const void *srcv, const void *weiv, void *dstv,
                              const float *bias, int64_t m, int64_t n, void *work) {
  const kiln_dnnl_gemm *g = &p->gemm;
  if (p->own_i8) {
    if (kiln_fault_point()) return dnnl_runtime_error;
    kiln_cpu_igemm_avx2(g->ta, g->tb, m, n, g->k, srcv, g->lda, weiv, g->ldb, false, dstv, g->ldc, work);
    return dnnl_success;
  }
  const float *src = srcv, *wei = weiv;
  float *dst = dstv, beta = 0.0f;
  if (p->epi.has_bias) {
    for (int64_t i = 0; i < m; i++) {
      float *row = dst + i * g->ldc;
      if (g->bias_dim == 0)
        for (int64_t j = 0; j < n; j++) row[j] = bias[i];
      else
        memcpy(row, bias, (size_t)n * sizeof(float));
    }
    beta = 1.0f;
  }
  dnnl_status_t st = dnnl_success;
  if (kiln_fault_point()) st = dnnl_runtime_error;
  else if (g->blas && m >= BLAS_MIN_M && n >= BLAS_MIN_N && g->k >= BLAS_MIN_K && blas_sgemm(g, m, n, p->epi.scale, src, wei, beta, dst))
    ;
  else if (g->own)
    kiln_cpu_sgemm_avx2(g->ta, g->tb, m, n, g->k, p->epi.scale, src, g->lda, wei, g->ldb, beta != 0.0f, dst, g->ldc);
  else
    st = dnnl_sgemm(g->ta, g->tb, m, n, g->k, p->epi.scale, src, g->lda, wei, g->ldb, beta, dst, g->ldc);
  if (st != dnnl_success || !p->epi.relu) return st;
  for (int64_t i = 0; i < m; i++) { /* max(r, 0), NaN kept, as the interpreter's maximum */
    float *row = dst + i * g->ldc;
    for (int64_t j = 0; j < n; j++) row[j] = row[j] > 0.0f || row[j] != row[j] ? row[j] : 0.0f;
  }
  return st;
}

dnnl_status_t kiln_dnnl_gemm_run(const kiln_cpu_dnnl_op *p, const void *src, const void *wei, void *dst,
                                 const void *bias, const dnnl_memory_desc_t *dst_md, void *work) {
  const kiln_dnnl_gemm *g = &p->gemm;
  int nb = dst_md->ndims - 2;
  int64_t m = dst_md->dims[nb], n = dst_md->dims[nb + 1], idx[DNNL_MAX_NDIMS] = {0};
  size_t in = p->own_i8 ? 1 : sizeof(float), out = p->own_i8 ? sizeof(int32_t) : sizeof(float); /* element bytes */
  for (;;) { /* every matrix of the batch, the last batch dimension fastest */
    int64_t off[KILN_DNNL_NUM_IO] = {0, 0, 0};
    for (int i = 0; i < nb; i++)
      for (int t = 0; t < KILN_DNNL_NUM_IO; t++) off[t] += idx[i] * g->bstride[t][i];
    dnnl_status_t st = gemm_one(p, (const uint8_t *)src + off[KILN_DNNL_SRC] * in, (const uint8_t *)wei + off[KILN_DNNL_WEI] * in,
                                (uint8_t *)dst + off[KILN_DNNL_DST] * out, bias, m, n, work);
    if (st != dnnl_success) return st;
    int i = nb - 1;
    while (i >= 0 && ++idx[i] == dst_md->dims[i]) idx[i--] = 0;
    if (i < 0) return dnnl_success;
  }
}
