/* replica_id and partition_id as native steps (native.h). A cpu executable runs on one
 * device as a single process of its program: the runtime gives a run no replica or
 * partition index (a program of several replicas or partitions has its collectives run by
 * the interpreter), so both ids are 0, as the interpreter's kernel gives outside a
 * run_parallel group. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"

typedef struct ids_kernel {
  kiln_cpu_native base;
  uint64_t bytes; /* of the result */
} ids_kernel;

static kiln_status ids_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  (void)in;
  const ids_kernel *k = (const ids_kernel *)n;
  if (k->bytes) memset(out[0], 0, (size_t)k->bytes); /* 0 in any integer type */
  return NULL;
}

kiln_status kiln_cpu_ids_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 0 || op->num_results != 1) return NULL;
  const kiln_type *t = op->results[0].type;
  if (!kiln_cpu_native_static_dense(t) || !kiln_elem_is_int(kiln_type_elem(t))) return NULL;
  ids_kernel *k = calloc(1, sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  k->base.run = ids_run;
  k->bytes = (uint64_t)t->tensor.num_elements * kiln_elem_storage_bytes(kiln_type_elem(t));
  *out = &k->base;
  return NULL;
}
