/* Inputs of the commands that run programs, as buffers on a device: read from .npy files,
 * or made up (seeded pseudo-random values of a parameter's type). */
#ifndef KILN_TOOLS_INPUTS_H
#define KILN_TOOLS_INPUTS_H

#include <stdint.h>

#include "base/source.h"
#include "ir/ir.h"
#include "kiln/kiln.h"

/* The type of function `name` of the program (text or artifact) in src, parsed again (the
 * runtime API gives only counts). *out_module owns it; the caller destroys the module. */
kiln_status kiln_cli_function_type(const kiln_source *src, const char *name, kiln_module **out_module,
                                   const kiln_type **out_type);

/* Reads the .npy file path into a new buffer on device (the caller releases it), for a
 * parameter of type param (NULL: unknown), whose element type a raw void descr ('<V2', as
 * np.save writes bfloat16) is read as (kiln_npy_read_as). Errors name the input
 * ("input #1 (x.npy): ..."). */
kiln_status kiln_cli_input_read(const char *path, int index, const kiln_type *param, kiln_device *device,
                                kiln_buffer **out_buffer);
/* Reads the n files paths[] for the parameters of function `name` of src from #first on
 * (their types found by kiln_cli_function_type) into out[0..n-1]; on failure none is left. */
kiln_status kiln_cli_inputs_read(const kiln_source *src, const char *name, const char *const *paths, int n, int first,
                                 kiln_device *device, kiln_buffer **out);

/* A new buffer on device for parameter #index of type t, a tensor, with dims (t's rank of
 * them; NULL: t's own, which must then be static): floats (and both parts of complex
 * numbers) uniform in [-1, 1), signed integers in [-4, 4], unsigned ones in [0, 8], bools
 * 0 or 1. *seed is the generator's state, advanced by the call: the same seed gives the
 * same values. */
kiln_status kiln_cli_input_random(const kiln_type *t, const int64_t *dims, int index, uint64_t *seed,
                                  kiln_device *device, kiln_buffer **out_buffer);

#endif
