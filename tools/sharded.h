/* Sharded programs in the commands (kiln_program_num_partitions > 1): global NumPy inputs
 * dealt out as each partition's blocks, results put back together from theirs. */
#ifndef KILN_TOOLS_SHARDED_H
#define KILN_TOOLS_SHARDED_H

#include "base/source.h"
#include "kiln/kiln.h"
#include "npy.h"

/* Runs sharded executable x (compiled from src's function `name`, this process's
 * partitions first.. on devices 0.. of client c: kiln_executable_local_partitions) on the
 * global inputs in the .npy files paths[0..n-1] and writes its global
 * results to out[0..num_results-1] (zeroed first; the caller frees them with kiln_npy_free, also on failure). Errors
 * name the input or result and the partition. */
kiln_status kiln_cli_run_sharded(kiln_executable *x, kiln_client *c, const kiln_source *src, const char *name,
                                 const char *const *paths, int n, kiln_npy_array *out, int32_t num_results);

#endif
