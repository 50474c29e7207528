/* replica_id and partition_id as native steps (native.h): the position of the run's
 * process (kiln_interp_bound_position: a run of one partition of a sharded program binds
 * its thread; a plain run is process 0 of 1, as the interpreter's kernel gives outside a
 * group). */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "backends/interp/collectives.h"

typedef struct ids_kernel {
  kiln_cpu_native base;
  bool partition;        /* partition_id, else replica_id */
  size_t elem_bytes;     /* of the result's integer type (a scalar) */
} ids_kernel;

static kiln_status ids_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  (void)in;
  const ids_kernel *k = (const ids_kernel *)n;
  kiln_grid_pos me = kiln_interp_bound_position();
  uint64_t v = (uint64_t)(k->partition ? me.partition_id : me.replica_id);
  memcpy(out[0], &v, k->elem_bytes); /* little-endian: the low bytes */
  return NULL;
}

kiln_status kiln_cpu_ids_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 0 || op->num_results != 1) return NULL;
  const kiln_type *t = op->results[0].type;
  size_t bytes = kiln_type_is_tensor(t) ? kiln_elem_storage_bytes(kiln_type_elem(t)) : 0;
  if (!kiln_cpu_native_static_dense(t) || !kiln_elem_is_int(kiln_type_elem(t)) || t->tensor.num_elements != 1 ||
      !bytes || bytes > sizeof(uint64_t))
    return NULL;
  ids_kernel *k = calloc(1, sizeof *k);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  k->base.run = ids_run;
  k->partition = op->kind == KILN_OP_PARTITION_ID;
  k->elem_bytes = bytes;
  *out = &k->base;
  return NULL;
}
