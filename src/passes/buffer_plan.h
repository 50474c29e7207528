/* Buffer planning: places temporaries in one arena so that buffers whose lifetimes
 * overlap never share bytes and the others may (liveness-based reuse, as ggml's gallocr).
 *
 * A request is a size and the closed interval of steps [first, last] during which the
 * buffer is live (written at first, last read at last). Two requests whose intervals
 * share a step get disjoint byte ranges. Pure; thread-safe. */
#ifndef KILN_PASSES_BUFFER_PLAN_H
#define KILN_PASSES_BUFFER_PLAN_H

#include <stdint.h>

#include "kiln/status.h"

typedef struct kiln_buffer_request {
  uint64_t bytes;
  int32_t first, last;
} kiln_buffer_request;

/* Writes each request's offset (a multiple of alignment, a power of two) and the arena's
 * size. Placement is best-fit by decreasing size. Sizes are overflow-checked. */
kiln_status kiln_buffer_plan(const kiln_buffer_request *requests, int32_t n, uint64_t alignment, uint64_t *out_offsets,
                             uint64_t *out_total);

#endif
