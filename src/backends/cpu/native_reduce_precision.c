/* reduce_precision as a native elementwise step (native.h): the interpreter's bit
 * operation (interp/float_bits.h) on each element's storage bits, split over the pool. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "backends/interp/float_bits.h"

typedef struct rp_kernel {
  kiln_cpu_native base;
  kiln_reduce_precision rp;
  size_t elem_bytes;
  int64_t count;
} rp_kernel;

typedef struct rp_job {
  const rp_kernel *k;
  const uint8_t *in;
  uint8_t *out;
  int32_t chunks;
} rp_job;

/* The same loop for each storage width, so the compiler sees fixed-size loads. */
#define RP_LOOP(T)                                                     \
  for (int64_t i = a; i < b; i++) {                                    \
    T v;                                                               \
    memcpy(&v, j->in + (size_t)i * sizeof v, sizeof v);                \
    v = (T)kiln_reduce_precision_bits(&k->rp, v);                      \
    memcpy(j->out + (size_t)i * sizeof v, &v, sizeof v);               \
  }

static void rp_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const rp_job *j = ctx;
  const rp_kernel *k = j->k;
  int64_t a = k->count * c / j->chunks, b = k->count * (c + 1) / j->chunks;
  switch (k->elem_bytes) {
    case 1: RP_LOOP(uint8_t) break;
    case 2: RP_LOOP(uint16_t) break;
    case 4: RP_LOOP(uint32_t) break;
    default: RP_LOOP(uint64_t) break;
  }
}

static kiln_status rp_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  const rp_kernel *k = (const rp_kernel *)n;
  if (!k->count) return NULL;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int64_t work = k->count * 4;
  rp_job j = {k, in[0], out[0], kiln_cpu_pool_chunks(pool, work, k->count)};
  kiln_cpu_pool_run(pool, j.chunks, work, rp_chunk, &j);
  return NULL;
}

kiln_status kiln_cpu_reduce_precision_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 1 || op->num_results != 1) return NULL;
  const kiln_type *t = op->operands[0]->type;
  int64_t eb, mb;
  kiln_reduce_precision rp;
  kiln_elem e = kiln_type_elem(t);
  size_t bytes = kiln_elem_storage_bytes(e);
  if (!kiln_cpu_native_static_dense(t) || !kiln_cpu_native_static_dense(op->results[0].type) ||
      kiln_type_elem(op->results[0].type) != e || !kiln_attr_i64_at(kiln_op_attr(op, "exponent_bits"), 0, &eb) ||
      !kiln_attr_i64_at(kiln_op_attr(op, "mantissa_bits"), 0, &mb) || !kiln_reduce_precision_init(&rp, e, eb, mb) ||
      (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
    return NULL;
  rp_kernel *k = calloc(1, sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  k->base.run = rp_run;
  k->rp = rp;
  k->elem_bytes = bytes;
  k->count = t->tensor.num_elements;
  *out = &k->base;
  return NULL;
}
