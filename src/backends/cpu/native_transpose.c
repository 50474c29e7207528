/* A transpose that moves the innermost dim, alone in its loop group, as a native step
 * (native.h): a blocked copy. After dims of size 1 are dropped and input dims that stay
 * neighbours in the result are merged, the transpose is a batch (the other dims) of 2-D
 * transposes between the input's innermost dim (contiguous in the input, length A) and the
 * dim that becomes the result's innermost (contiguous in the result, length B):
 * out[i * ldo + j] = in[j * ldi + i]. Each is copied in tiles of TILE x TILE elements, a
 * tile in 8 x 8 register transposes for 4-byte elements and 4 x 4 ones for 8-byte elements
 * on hosts with AVX2, element by element otherwise, so that both sides are read and
 * written a cache line at a time. The loop generator reads such a transpose an element
 * at a time down the input's columns, a cache line and a page for each element:
 * f32[2048,2048] took 13.5 ms on two cores (XLA:CPU 2.5 ms), f32[512,512] 302 us (AMD Zen
 * 4, 2026-12-07). A transpose that keeps the innermost dim copies whole rows and stays a
 * loop, as does one of fewer than MIN_BYTES bytes (a loop step may share a parallel region
 * with its neighbours). Tiles of result rows are shared out over the pool. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "backends/cpu/sgemm.h"
#include "backends/cpu/transpose_avx2.h"

enum {
  MAX_DIMS = 16,        /* of the collapsed transpose (larger ranks stay loops) */
  TILE = 32,            /* result rows (and columns) per tile */
  MIN_BYTES = 16 << 10, /* smaller transposes stay loops */
};

typedef struct tr_kernel {
  kiln_cpu_native base;
  size_t eb;      /* element bytes */
  bool avx2;      /* register transposes (eb 4 or 8) */
  int64_t a, b;   /* the 2-D transpose's lengths: A (input innermost), B (result innermost) */
  int64_t ldi;    /* input elements between consecutive j */
  int64_t ldo;    /* result elements between consecutive i */
  int32_t nouter; /* the batch's dims: sizes and strides (elements) in the input and result */
  int64_t outer[MAX_DIMS], in_stride[MAX_DIMS], out_stride[MAX_DIMS];
  int64_t batch;  /* the product of outer */
  int64_t tiles;  /* tiles of result rows in each 2-D transpose */
} tr_kernel;

/* The tile's elements [i0, i1) x [j0, j1) one at a time. */
static void tile_each(const tr_kernel *k, const uint8_t *in, uint8_t *out, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  size_t eb = k->eb;
  for (int64_t i = i0; i < i1; i++)
    for (int64_t j = j0; j < j1; j++) memcpy(out + (size_t)(i * k->ldo + j) * eb, in + (size_t)(j * k->ldi + i) * eb, eb);
}

/* The tile [i0, i1) x [j0, j1): whole register blocks, then its edges element by element. */
static void tile_avx2(const tr_kernel *k, const uint8_t *in, uint8_t *out, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  int64_t ie, je;
  kiln_cpu_transpose_blocks_avx2(k->eb, in, k->ldi, out, k->ldo, i0, i1, j0, j1, &ie, &je);
  tile_each(k, in, out, ie, i1, j0, j1);
  tile_each(k, in, out, i0, ie, je, j1);
}

typedef struct tr_job {
  const tr_kernel *k;
  const uint8_t *in;
  uint8_t *out;
  int32_t chunks;
} tr_job;

/* Chunk c: a range of (batch entry, tile of result rows) pairs, each across all of B. */
static void tr_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const tr_job *jb = ctx;
  const tr_kernel *k = jb->k;
  int64_t units = k->batch * k->tiles, u0 = units * c / jb->chunks, u1 = units * (c + 1) / jb->chunks;
  for (int64_t u = u0; u < u1; u++) {
    int64_t e = u / k->tiles, i0 = u % k->tiles * TILE, i1 = i0 + TILE < k->a ? i0 + TILE : k->a, from = 0, to = 0;
    for (int32_t d = k->nouter - 1; d >= 0; d--) { /* the batch entry's offsets */
      int64_t idx = e % k->outer[d];
      e /= k->outer[d];
      from += idx * k->in_stride[d];
      to += idx * k->out_stride[d];
    }
    const uint8_t *in = jb->in + (size_t)from * k->eb;
    uint8_t *out = jb->out + (size_t)to * k->eb;
    for (int64_t j0 = 0; j0 < k->b; j0 += TILE) {
      int64_t j1 = j0 + TILE < k->b ? j0 + TILE : k->b;
      if (k->avx2) tile_avx2(k, in, out, i0, i1, j0, j1);
      else tile_each(k, in, out, i0, i1, j0, j1);
    }
  }
}

static kiln_status tr_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  const tr_kernel *k = (const tr_kernel *)n;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int64_t work = 2 * k->batch * k->a * k->b; /* each element read and written */
  tr_job j = {k, in[0], out[0], kiln_cpu_pool_chunks(pool, work, k->batch * k->tiles)};
  kiln_cpu_pool_run(pool, j.chunks, work, tr_chunk, &j);
  return NULL;
}

kiln_status kiln_cpu_transpose_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 1 || op->num_results != 1) return NULL;
  const kiln_type *t = op->operands[0]->type, *r = op->results[0].type;
  if (!kiln_cpu_native_static_dense(t) || !kiln_cpu_native_static_dense(r) || t->tensor.rank != r->tensor.rank ||
      t->tensor.rank > MAX_DIMS)
    return NULL;
  size_t eb = kiln_elem_storage_bytes(kiln_type_elem(t));
  if (!eb || eb > 16 || (uint64_t)t->tensor.num_elements * eb < MIN_BYTES) return NULL;
  /* the input dims longer than 1 (their sizes), in result order (perm) */
  const kiln_attr *pa = kiln_op_attr(op, "permutation");
  int32_t rank = t->tensor.rank, n = 0, perm[MAX_DIMS], keep[MAX_DIMS];
  int64_t size[MAX_DIMS];
  for (int32_t d = 0; d < rank; d++) keep[d] = -1;
  for (int32_t d = 0; d < rank; d++)
    if (t->tensor.dims[d] > 1) {
      keep[d] = n;
      size[n++] = t->tensor.dims[d];
    }
  int32_t m = 0;
  for (int32_t j = 0; j < rank; j++) {
    int64_t d;
    if (!kiln_attr_i64_at(pa, j, &d) || d < 0 || d >= rank) return NULL; /* the verifier's to report */
    if (keep[d] >= 0) perm[m++] = keep[d];
  }
  /* input dims that stay neighbours in the result merge */
  for (int32_t j = 0; j + 1 < m;) {
    if (perm[j + 1] != perm[j] + 1) {
      j++;
      continue;
    }
    int32_t d = perm[j];
    size[d] *= size[d + 1];
    for (int32_t e = d + 1; e + 1 < n; e++) size[e] = size[e + 1];
    n--;
    for (int32_t q = j + 1; q + 1 < m; q++) perm[q] = perm[q + 1];
    m--;
    for (int32_t q = 0; q < m; q++)
      if (perm[q] > d) perm[q]--;
  }
  if (m < 2 || perm[m - 1] == n - 1) return NULL; /* whole rows: a loop's copy */
  int64_t in_stride[MAX_DIMS], out_stride[MAX_DIMS], s = 1;
  for (int32_t d = n - 1; d >= 0; d--) in_stride[d] = s, s *= size[d];
  s = 1;
  for (int32_t j = m - 1; j >= 0; j--) out_stride[perm[j]] = s, s *= size[perm[j]];
  tr_kernel *k = calloc(1, sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int32_t ia = n - 1, ib = perm[m - 1];
  *k = (tr_kernel){.base = {tr_run}, .eb = eb, .a = size[ia], .b = size[ib], .ldi = in_stride[ib],
                   .ldo = out_stride[ia], .batch = 1};
  k->avx2 = (eb == 4 || eb == 8) && kiln_cpu_sgemm_supported();
  for (int32_t d = 0; d < n; d++) {
    if (d == ia || d == ib) continue;
    k->outer[k->nouter] = size[d];
    k->in_stride[k->nouter] = in_stride[d];
    k->out_stride[k->nouter++] = out_stride[d];
    k->batch *= size[d];
  }
  k->tiles = (k->a + TILE - 1) / TILE;
  *out = &k->base;
  return NULL;
}
