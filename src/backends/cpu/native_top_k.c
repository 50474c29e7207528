/* chlo.top_k as a native step (native.h): for each row of the last dim, the k largest
 * elements in the order of kiln_order_key (interp/float_bits.h: floats in their total
 * order, NaN above +inf), largest first, ties to the lower index (what the interpreter's
 * stable sort gives), with their indices. A min-heap of the k best so far per row; once it
 * is full, an element whose key is not above its root's is passed over after one
 * comparison (a later element never wins a tie), so a row costs about n plus log k per
 * element that enters. The keys of f32, f64, f16, bf16 and the integers are made inline
 * (the generic kiln_order_key call per element made jax.lax.top_k of f32[512,2048], k = 16,
 * 2.6x slower than XLA:CPU); rows are split over the pool. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "base/fault.h"
#include "backends/interp/float_bits.h"

typedef struct top_k_kernel {
  kiln_cpu_native base;
  kiln_elem elem, index_elem;
  size_t elem_bytes, index_bytes;
  int64_t rows, n, k;
} top_k_kernel;

typedef struct entry {
  uint64_t key[2];
  int64_t index;
} entry;

/* Whether a goes before b in the result. */
static inline bool better(const entry *a, const entry *b) {
  if (a->key[0] != b->key[0]) return a->key[0] > b->key[0];
  if (a->key[1] != b->key[1]) return a->key[1] > b->key[1];
  return a->index < b->index;
}

/* Restores the heap (worst entry at the root) below position i of h[0, size). */
static void sift_down(entry *h, int64_t size, int64_t i) {
  for (;;) {
    int64_t w = i, l = 2 * i + 1, r = l + 1;
    if (l < size && better(&h[w], &h[l])) w = l;
    if (r < size && better(&h[w], &h[r])) w = r;
    if (w == i) return;
    entry t = h[i];
    h[i] = h[w];
    h[w] = t;
    i = w;
  }
}

/* The first word of kiln_order_key's key for the element at p, inline for the common types. */
static inline uint64_t key_word(kiln_elem elem, const uint8_t *p) {
  switch (elem) {
  case KILN_ELEM_F32: { uint32_t v; memcpy(&v, p, 4); return kiln_float_order_bits(v, 32); }
  case KILN_ELEM_F64: { uint64_t v; memcpy(&v, p, 8); return kiln_float_order_bits(v, 64); }
  case KILN_ELEM_F16: case KILN_ELEM_BF16: { uint16_t v; memcpy(&v, p, 2); return kiln_float_order_bits(v, 16); }
  case KILN_ELEM_SI32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v ^ (1ull << 63); }
  case KILN_ELEM_SI64: { uint64_t v; memcpy(&v, p, 8); return v ^ (1ull << 63); }
  default: {
    uint64_t k[2];
    kiln_order_key(elem, p, k);
    return k[0];
  }
  }
}

/* A row; elem is a constant in each caller below, so each gets its own loop. */
static inline __attribute__((always_inline)) void top_k_row_of(kiln_elem elem, const top_k_kernel *k, const uint8_t *in,
                                                               uint8_t *values, uint8_t *indices, entry *h) {
  bool two_words = kiln_elem_is_complex(elem);
  int64_t size = 0;
  for (int64_t i = 0; i < k->n; i++) {
    const uint8_t *p = in + (size_t)i * k->elem_bytes;
    uint64_t w = key_word(elem, p);
    if (size == k->k && (w < h[0].key[0] || (w == h[0].key[0] && !two_words))) continue; /* not better */
    entry e = {{w, 0}, i};
    if (two_words) kiln_order_key(elem, p, e.key);
    if (size < k->k) { /* sift up */
      int64_t at = size++;
      while (at > 0 && better(&h[(at - 1) / 2], &e)) {
        h[at] = h[(at - 1) / 2];
        at = (at - 1) / 2;
      }
      h[at] = e;
    } else if (better(&e, &h[0])) {
      h[0] = e;
      sift_down(h, size, 0);
    }
  }
  for (int64_t j = size - 1; j >= 0; j--) { /* the worst left goes last */
    int64_t i = h[0].index;
    memcpy(values + (size_t)j * k->elem_bytes, in + (size_t)i * k->elem_bytes, k->elem_bytes);
    kiln_scalar_store(k->index_elem, indices + (size_t)j * k->index_bytes, (kiln_scalar){.i = i});
    h[0] = h[j];
    sift_down(h, j, 0);
  }
}

static void top_k_row(const top_k_kernel *k, const uint8_t *in, uint8_t *values, uint8_t *indices, entry *h) {
  switch (k->elem) {
  case KILN_ELEM_F32: top_k_row_of(KILN_ELEM_F32, k, in, values, indices, h); break;
  case KILN_ELEM_F64: top_k_row_of(KILN_ELEM_F64, k, in, values, indices, h); break;
  case KILN_ELEM_F16: top_k_row_of(KILN_ELEM_F16, k, in, values, indices, h); break;
  case KILN_ELEM_BF16: top_k_row_of(KILN_ELEM_BF16, k, in, values, indices, h); break;
  case KILN_ELEM_SI32: top_k_row_of(KILN_ELEM_SI32, k, in, values, indices, h); break;
  case KILN_ELEM_SI64: top_k_row_of(KILN_ELEM_SI64, k, in, values, indices, h); break;
  default: top_k_row_of(k->elem, k, in, values, indices, h); break;
  }
}

typedef struct top_k_job {
  const top_k_kernel *k;
  const uint8_t *in;
  uint8_t *values, *indices;
  entry *heaps; /* k entries per thread */
  int32_t chunks;
} top_k_job;

static void top_k_chunk(void *ctx, int32_t c, int32_t thread) {
  const top_k_job *j = ctx;
  const top_k_kernel *k = j->k;
  entry *h = j->heaps + (size_t)thread * (size_t)k->k;
  for (int64_t r = k->rows * c / j->chunks; r < k->rows * (c + 1) / j->chunks; r++)
    top_k_row(k, j->in + (size_t)(r * k->n) * k->elem_bytes, j->values + (size_t)(r * k->k) * k->elem_bytes,
              j->indices + (size_t)(r * k->k) * k->index_bytes, h);
}

static kiln_status top_k_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  const top_k_kernel *k = (const top_k_kernel *)n;
  if (!k->rows || !k->k) return NULL;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int64_t log_k = 64 - __builtin_clzll((unsigned long long)k->k);
  int64_t work = k->rows * k->n * (2 + log_k);
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, k->rows);
  int32_t threads = chunks > 1 ? kiln_cpu_pool_threads(pool) : 1;
  entry *heaps = kiln_fault_malloc(sizeof *heaps * (size_t)k->k * (size_t)threads);
  if (!heaps) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory for top_k's %lld entries", (long long)k->k);
  top_k_job j = {k, in[0], out[0], out[1], heaps, chunks};
  kiln_cpu_pool_run(pool, chunks, work, top_k_chunk, &j);
  free(heaps);
  return NULL;
}

kiln_status kiln_cpu_top_k_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 1 || op->num_results != 2) return NULL;
  const kiln_type *t = op->operands[0]->type, *vt = op->results[0].type, *it = op->results[1].type;
  int64_t kv;
  if (!kiln_cpu_native_static_dense(t) || !kiln_cpu_native_static_dense(vt) || !kiln_cpu_native_static_dense(it) ||
      t->tensor.rank < 1 || !kiln_attr_i64_at(kiln_op_attr(op, "k"), 0, &kv) || kiln_type_elem(vt) != kiln_type_elem(t) ||
      !kiln_elem_is_int(kiln_type_elem(it)) || kiln_type_elem(it) == KILN_ELEM_I1)
    return NULL;
  int32_t r = t->tensor.rank;
  int64_t n = t->tensor.dims[r - 1];
  if (kv < 0 || kv > n || vt->tensor.rank != r || it->tensor.rank != r) return NULL;
  for (int32_t d = 0; d < r; d++) {
    int64_t want = d == r - 1 ? kv : t->tensor.dims[d];
    if (vt->tensor.dims[d] != want || it->tensor.dims[d] != want) return NULL;
  }
  top_k_kernel *k = calloc(1, sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  k->base.run = top_k_run;
  k->elem = kiln_type_elem(t);
  k->index_elem = kiln_type_elem(it);
  k->elem_bytes = kiln_elem_storage_bytes(k->elem);
  k->index_bytes = kiln_elem_storage_bytes(k->index_elem);
  k->n = n;
  k->k = kv;
  k->rows = n ? t->tensor.num_elements / n : 0;
  *out = &k->base;
  return NULL;
}
