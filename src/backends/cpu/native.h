/* Native steps for single ops that need nothing of the schedule but their operands and
 * results (KILN_CPU_STEP_NATIVE): replica_id and partition_id (native_ids.c),
 * rng_bit_generator (native_rng.c), chlo.top_k (native_top_k.c), reduce_precision
 * (native_reduce_precision.c), converts to and from the float formats the loop generator
 * lacks (native_convert.c), f64 matrix products (native_dgemm.c) and transposes that move
 * the innermost dim (native_transpose.c). Each family's prepare reads an op and makes its kernel: a
 * struct that begins with a kiln_cpu_native, allocated with malloc/calloc as one block
 * (freed by kiln_cpu_native_destroy), or leaves *out NULL for what it does not do (dynamic
 * or quantized types, attributes the interpreter rejects: the interpreter runs those and
 * reports their errors).
 *
 * A kernel is immutable once prepared: any number of runs may use it at once. Its run
 * reads in[k], operand k's dense row-major storage, and writes out[k], result k's; large
 * work is split over the cpu pool (pool.h). */
#ifndef KILN_BACKENDS_CPU_NATIVE_H
#define KILN_BACKENDS_CPU_NATIVE_H

#include "ir/ir.h"
#include "ir/scalar.h"
#include "kiln/status.h"

typedef struct kiln_cpu_native kiln_cpu_native;
typedef kiln_status (*kiln_cpu_native_run_fn)(const kiln_cpu_native *n, const void *const *in, void *const *out);

struct kiln_cpu_native {
  kiln_cpu_native_run_fn run;
};

/* The kernel of op from the family of its kind, or *out NULL (caller owns *out). */
kiln_status kiln_cpu_native_prepare(const kiln_op *op, kiln_cpu_native **out);
kiln_status kiln_cpu_native_run(const kiln_cpu_native *n, const void *const *in, void *const *out);
void kiln_cpu_native_destroy(kiln_cpu_native *n);

/* The families (same contract as kiln_cpu_native_prepare, for their own op kinds). */
kiln_status kiln_cpu_ids_prepare(const kiln_op *op, kiln_cpu_native **out);
kiln_status kiln_cpu_rng_prepare(const kiln_op *op, kiln_cpu_native **out);
kiln_status kiln_cpu_top_k_prepare(const kiln_op *op, kiln_cpu_native **out);
kiln_status kiln_cpu_reduce_precision_prepare(const kiln_op *op, kiln_cpu_native **out);
kiln_status kiln_cpu_convert_prepare(const kiln_op *op, kiln_cpu_native **out);
/* Frees the tables converts from f32 share (made on first use); no run may be in progress
 * (the plugin's unload). */
void kiln_cpu_convert_release(void);
kiln_status kiln_cpu_dgemm_prepare(const kiln_op *op, kiln_cpu_native **out);
kiln_status kiln_cpu_transpose_prepare(const kiln_op *op, kiln_cpu_native **out);

/* Shared by the families: whether t is a tensor of static shape and unquantized elements. */
static inline bool kiln_cpu_native_static_dense(const kiln_type *t) {
  return t && kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t) &&
         t->tensor.num_elements >= 0;
}

#endif
