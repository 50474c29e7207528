/* The native steps' dispatch (see native.h). */
#include "backends/cpu/native.h"

#include <stdlib.h>

kiln_status kiln_cpu_native_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  switch (op->kind) {
    case KILN_OP_REPLICA_ID:
    case KILN_OP_PARTITION_ID: return kiln_cpu_ids_prepare(op, out);
    case KILN_OP_RNG_BIT_GENERATOR: return kiln_cpu_rng_prepare(op, out);
    case KILN_OP_CHLO_TOP_K: return kiln_cpu_top_k_prepare(op, out);
    case KILN_OP_REDUCE_PRECISION: return kiln_cpu_reduce_precision_prepare(op, out);
    case KILN_OP_CONVERT: return kiln_cpu_convert_prepare(op, out);
    case KILN_OP_DOT_GENERAL: return kiln_cpu_dgemm_prepare(op, out);
    case KILN_OP_TRANSPOSE: return kiln_cpu_transpose_prepare(op, out);
    default: return NULL;
  }
}

kiln_status kiln_cpu_native_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  return n->run(n, in, out);
}

void kiln_cpu_native_destroy(kiln_cpu_native *n) { free(n); }
