/* f64 matrix products as a native step (native.h): a dot_general of f64 operands and result
 * that is a (batched) matrix or matrix-vector product runs as OpenBLAS's dgemm, which oneDNN
 * has no kernel for (a generated loop reached about 60 GFLOP/s on 256x256x256 and a
 * fifth of XLA:CPU's rate in a tanh MLP). Its forms: batching dims first on both sides and
 * in the result, in order; one contracting dim, the lhs's last or first after the batch
 * (read transposed), the rhs's first after the batch or last (transposed); at most one free
 * dim a side; the result [batch..., lhs free, rhs free]. dgemm runs single-threaded on
 * each chunk of the pool: the batch's products and their row parts shared out. Its sums are
 * a blocked product's, as any library's (the differential harness checks them against the
 * interpreter's). */
#include <limits.h>
#include <stdlib.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "base/arena.h"
#include "backends/lapack/routines.h"

/* OpenBLAS (Fortran interface: column-major, 32-bit integers) */
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc);

/* A product's rows are cut in parts of at least ROWS_PER_CHUNK (at most 64 parts); the pool
 * gets up to CHUNKS_PER_THREAD chunks a thread, each of at least MIN_CHUNK_FLOPS. */
enum { ROWS_PER_CHUNK = 32, CHUNKS_PER_THREAD = 4, MIN_CHUNK_FLOPS = 1 << 20 };

typedef struct dgemm_kernel {
  kiln_cpu_native base;
  int64_t batch, m, n, k;
  char ta, tb;        /* row-major: 'T' when the lhs is stored k x m (the rhs n x k) */
  int64_t lda, ldb;   /* row lengths of the stored lhs and rhs */
  int32_t chunks_per_product;
} dgemm_kernel;

typedef struct dgemm_run {
  const dgemm_kernel *g;
  const double *a, *b;
  double *c;
  int64_t chunks;
} dgemm_run;

static bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/* Rows [r0, r1) of product p: C^T = op(B)^T op(A)^T in column-major terms. */
static void product_rows(const dgemm_kernel *g, const double *a, const double *b, double *c, int64_t r0, int64_t r1) {
  int m = (int)(r1 - r0), n = (int)g->n, k = (int)g->k, lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->n;
  const double one = 1.0, zero = 0.0;
  const double *ar = g->ta == 'N' ? a + r0 * g->lda : a + r0; /* row r0 of op(A) */
  if (m <= 0 || n == 0) return; /* nothing to write (and dgemm asks ldc >= 1) */
  if (k == 0) {
    for (int64_t i = 0; i < (int64_t)m * g->n; i++) c[r0 * g->n + i] = 0.0;
    return;
  }
  dgemm_(&g->tb, &g->ta, &n, &m, &k, &one, b, &ldb, ar, &lda, &zero, c + r0 * g->n, &ldc);
}

/* Chunk c of `chunks`: its share of the items, product p's rows in chunks_per_product parts;
 * the parts of one product a chunk holds are adjacent rows, computed in one dgemm call (each
 * call packs the whole rhs again: 16 calls of 32 rows ran 512x512x512 at 50 GFLOP/s, one
 * call at 75; Intel host with AVX-512, one thread). */
static void run_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const dgemm_run *r = ctx;
  const dgemm_kernel *g = r->g;
  int64_t items = g->batch * g->chunks_per_product, end = items * (c + 1) / r->chunks;
  for (int64_t it = items * c / r->chunks, next; it < end; it = next) {
    int64_t p = it / g->chunks_per_product, part = it % g->chunks_per_product;
    next = (p + 1) * g->chunks_per_product < end ? (p + 1) * g->chunks_per_product : end;
    int64_t r0 = g->m * part / g->chunks_per_product, r1 = g->m * (part + next - it) / g->chunks_per_product;
    product_rows(g, r->a + p * g->m * g->k, r->b + p * g->k * g->n, r->c + p * g->m * g->n, r0, r1);
  }
}

static kiln_status dgemm_native_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  const dgemm_kernel *g = (const dgemm_kernel *)n;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int64_t items = g->batch * g->chunks_per_product, flops = 2; /* saturating: the sizes only steer the split */
  if (!kiln_mul_i64(flops, g->batch, &flops) || !kiln_mul_i64(flops, g->m, &flops) || !kiln_mul_i64(flops, g->n, &flops) ||
      !kiln_mul_i64(flops, g->k, &flops))
    flops = INT64_MAX;
  /* one product: a part per thread (every part packs the rhs again); a batch: CHUNKS_PER_THREAD */
  int64_t chunks = (int64_t)kiln_cpu_pool_threads(pool) * (g->batch > 1 ? CHUNKS_PER_THREAD : 1);
  if (chunks > items) chunks = items;
  if (chunks > flops / MIN_CHUNK_FLOPS) chunks = flops / MIN_CHUNK_FLOPS;
  dgemm_run r = {g, in[0], in[1], out[0], chunks < 1 ? 1 : chunks};
  if (r.chunks == 1) run_chunk(&r, 0, 0);
  else kiln_cpu_pool_run(pool, (int32_t)r.chunks, flops / 2, run_chunk, &r);
  return NULL;
}

kiln_status kiln_cpu_dgemm_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->kind != KILN_OP_DOT_GENERAL || op->num_operands != 2 || op->num_results != 1) return NULL;
  const kiln_type *lt = op->operands[0]->type, *rt = op->operands[1]->type, *ot = op->results[0].type;
  if (!kiln_cpu_native_static_dense(lt) || !kiln_cpu_native_static_dense(rt) || !kiln_cpu_native_static_dense(ot) ||
      kiln_type_elem(lt) != KILN_ELEM_F64 || kiln_type_elem(rt) != KILN_ELEM_F64 || kiln_type_elem(ot) != KILN_ELEM_F64)
    return NULL;
  int64_t dims[4][KILN_CPU_MAX_RANK];
  int32_t nb, nc;
  if (!kiln_cpu_dot_dims(op, dims, &nb, &nc) || nc != 1) return NULL;
  const int64_t *lb = dims[0], *rb = dims[1], *lc = dims[2], *rc = dims[3];
  int32_t lr = lt->tensor.rank, rr = rt->tensor.rank;
  for (int64_t i = 0; i < nb; i++)
    if (lb[i] != i || rb[i] != i) return NULL;
  int64_t lfree = lr - nb - 1, rfree = rr - nb - 1; /* free dims a side: 0 or 1 */
  if (lfree < 0 || lfree > 1 || rfree < 0 || rfree > 1 || ot->tensor.rank != nb + lfree + rfree) return NULL;
  dgemm_kernel g = {.base = {dgemm_native_run}, .batch = 1};
  for (int64_t i = 0; i < nb; i++) g.batch *= lt->tensor.dims[i];
  g.k = lt->tensor.dims[lc[0]];
  g.m = lfree ? lt->tensor.dims[lc[0] == nb ? nb + 1 : nb] : 1;
  g.n = rfree ? rt->tensor.dims[rc[0] == nb ? nb + 1 : nb] : 1;
  /* lhs [.., m, k] (N) or [.., k, m] (T); rhs [.., k, n] (N) or [.., n, k] (T) */
  if (lc[0] == lr - 1) g.ta = 'N', g.lda = g.k;
  else if (lc[0] == nb) g.ta = 'T', g.lda = g.m;
  else return NULL;
  if (rc[0] == nb) g.tb = 'N', g.ldb = g.n;
  else if (rc[0] == rr - 1) g.tb = 'T', g.ldb = g.k;
  else return NULL;
  if (g.lda < 1) g.lda = 1;
  if (g.ldb < 1) g.ldb = 1;
  if (!fits_int(g.m) || !fits_int(g.n) || !fits_int(g.k) || !fits_int(g.lda) || !fits_int(g.ldb) || g.batch > INT_MAX)
    return NULL;
  int64_t rows = (g.m + ROWS_PER_CHUNK - 1) / ROWS_PER_CHUNK;
  g.chunks_per_product = (int32_t)(g.batch > 1 || rows < 1 ? 1 : rows > 64 ? 64 : rows);
  dgemm_kernel *k = malloc(sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *k = g;
  kiln_lapack_single_threaded();
  *out = &k->base;
  return NULL;
}
