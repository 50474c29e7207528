/* Shape-polymorphic functions in the CLI: which parameters are dimension arguments, inputs
 * made at one size for every symbolic dimension, and the results of two devices compared.
 *
 * The rule (also in docs/ARCHITECTURE.md): a function is dynamic when a parameter has a `?`
 * dimension. Its dimension arguments are its leading parameters that are integer scalars
 * (tensor<i32>, tensor<i64>, ...: JAX's exports put them first). Made-up inputs at size n
 * give every dimension argument the value n and every `?` dimension the size n (at most its
 * bound, for a bounded dimension): consistent whenever each symbolic dimension of the
 * parameters is a dimension variable itself, as in JAX's exports; a program that needs
 * other sizes (a dimension `2*b`) rejects them with its own error. Other integer inputs are
 * random; a program whose run fails on them (start indices a slice of the whole symbolic
 * dimension takes) runs again with them zero (kiln check). */
#ifndef KILN_TOOLS_DYNAMIC_H
#define KILN_TOOLS_DYNAMIC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "ir/ir.h"
#include "kiln/kiln.h"

/* Whether some parameter of the function type ft has a `?` dimension. */
bool kiln_cli_is_dynamic(const kiln_type *ft);

/* The number of leading dimension arguments of ft (0 when it is not dynamic). */
int32_t kiln_cli_dim_arg_count(const kiln_type *ft);

/* out[i] (ft's num_inputs of them, new references the caller releases) on device: the
 * inputs at size n (the rule above), random values seeded by *seed, or zeros for the
 * integer tensors when zero_ints (indices into the symbolic dims, that only 0 fits at every
 * size). On error none are left. */
kiln_status kiln_cli_inputs_at_size(const kiln_type *ft, int64_t n, bool zero_ints, uint64_t *seed,
                                    kiln_device *device, kiln_buffer **out);

/* A buffer on device holding a dimension argument of type t (an integer scalar). */
kiln_status kiln_cli_dim_arg(const kiln_type *t, int64_t value, kiln_device *device, kiln_buffer **out);

/* The size of every `?` dimension of the parameters after the dimension arguments, as the
 * given inputs (one per such parameter, in order) hold them; an error when they are not all
 * one size (the dimension arguments must then be given), or none is symbolic. */
kiln_status kiln_cli_infer_dim_size(const kiln_type *ft, kiln_buffer *const *inputs, int64_t *out_size);

/* Compares result #index of two devices: equal element types and shapes; integers equal,
 * floats (each part of a complex) within 1e-5 + 1e-4 * |b|, NaN where the other has NaN.
 * On a difference, appends one line to why and returns false. */
bool kiln_cli_results_agree(kiln_buffer *a, kiln_buffer *b, int index, kiln_strbuf *why);

#endif
