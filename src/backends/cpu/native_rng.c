/* rng_bit_generator as a native step (native.h): the interpreter's generators
 * (interp/rng_bits.h), so the bits are the same; the output's blocks are split over the
 * pool (each block writes its own elements). */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "backends/interp/rng_bits.h"

typedef struct rng_kernel {
  kiln_cpu_native base;
  kiln_elem state_elem;
  int64_t state_count;
  size_t state_bytes; /* per word */
  kiln_rng_plan plan;
} rng_kernel;

typedef struct rng_job {
  const rng_kernel *k;
  const uint64_t *state;
  void *out;
  int32_t chunks;
} rng_job;

static void rng_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const rng_job *j = ctx;
  int64_t blocks = j->k->plan.blocks;
  kiln_rng_fill(&j->k->plan, j->state, j->k->state_count, j->out, blocks * c / j->chunks,
                blocks * (c + 1) / j->chunks);
}

static kiln_status rng_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  const rng_kernel *k = (const rng_kernel *)n;
  uint64_t s[3] = {0, 0, 0};
  for (int64_t i = 0; i < k->state_count; i++)
    s[i] = kiln_scalar_load(k->state_elem, (const uint8_t *)in[0] + (size_t)i * k->state_bytes).u;
  if (k->plan.blocks) {
    kiln_cpu_pool *pool = kiln_cpu_pool_shared();
    /* a block costs about as much as a few dozen elementwise operations */
    int64_t work = k->plan.blocks * 32;
    rng_job j = {k, s, out[1], kiln_cpu_pool_chunks(pool, work, k->plan.blocks)};
    kiln_cpu_pool_run(pool, j.chunks, work, rng_chunk, &j);
  }
  kiln_rng_advance(&k->plan, s, k->state_count);
  for (int64_t i = 0; i < k->state_count; i++) {
    kiln_scalar v = {{0}, 0};
    v.u = s[i];
    kiln_scalar_store(k->state_elem, (uint8_t *)out[0] + (size_t)i * k->state_bytes, v);
  }
  return NULL;
}

static bool enum_is(const kiln_attr *a, const char *v) {
  return a && a->kind == KILN_ATTR_ENUM && a->enumv.value && !strcmp(a->enumv.value, v);
}

kiln_status kiln_cpu_rng_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 1 || op->num_results != 2) return NULL;
  const kiln_attr *alg = kiln_op_attr(op, "rng_algorithm");
  bool philox = !alg || enum_is(alg, "DEFAULT") || enum_is(alg, "PHILOX");
  if (!philox && !enum_is(alg, "THREE_FRY")) return NULL;
  const kiln_type *st = op->operands[0]->type, *nt = op->results[0].type, *ot = op->results[1].type;
  if (!kiln_cpu_native_static_dense(st) || !kiln_cpu_native_static_dense(nt) || !kiln_cpu_native_static_dense(ot) ||
      st->tensor.rank != 1 || !kiln_elem_is_int(kiln_type_elem(st)) || kiln_type_elem(nt) != kiln_type_elem(st) ||
      nt->tensor.num_elements != st->tensor.num_elements || !kiln_rng_state_ok(philox, st->tensor.num_elements))
    return NULL;
  rng_kernel *k = calloc(1, sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!kiln_rng_plan_init(&k->plan, philox, kiln_type_elem(ot), ot->tensor.rank, ot->tensor.dims)) {
    free(k);
    return NULL;
  }
  k->base.run = rng_run;
  k->state_elem = kiln_type_elem(st);
  k->state_count = st->tensor.num_elements;
  k->state_bytes = kiln_elem_storage_bytes(k->state_elem);
  *out = &k->base;
  return NULL;
}
