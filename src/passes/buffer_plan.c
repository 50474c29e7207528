/* Best-fit placement of live intervals in one arena (see buffer_plan.h). */
#include "passes/buffer_plan.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A placed buffer: its bytes [begin, end) in the arena and its request. */
typedef struct placed {
  uint64_t begin, end;
  int32_t index;
} placed;

typedef struct by_size {
  uint64_t bytes;
  int32_t index;
} by_size;

static int larger_first(const void *a, const void *b) {
  const by_size *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
  return x->index - y->index;
}

kiln_status kiln_buffer_plan(const kiln_buffer_request *r, int32_t n, uint64_t alignment, uint64_t *out_offsets,
                             uint64_t *out_total) {
  *out_total = 0;
  by_size *order = calloc((size_t)n + 1, sizeof *order);
  placed *busy = calloc((size_t)n + 1, sizeof *busy);
  if (!order || !busy) {
    free(order), free(busy);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (int32_t i = 0; i < n; i++) order[i] = (by_size){r[i].bytes, i};
  qsort(order, (size_t)n, sizeof *order, larger_first);
  uint64_t total = 0, mask = alignment - 1;
  kiln_status st = NULL;
  int32_t np = 0; /* the buffers placed so far, busy[0, np), by offset */
  for (int32_t oi = 0; oi < n && !st; oi++) {
    int32_t i = order[oi].index;
    if (r[i].bytes > UINT64_MAX / 2) {
      st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "a temporary of %llu bytes is too large",
                       (unsigned long long)r[i].bytes);
      break;
    }
    uint64_t size = (r[i].bytes + mask) & ~mask;
    /* the smallest gap between the placed buffers live at the same time (walked by
     * offset); the space after the last is a gap without end */
    uint64_t best = 0, best_gap = 0, cursor = 0;
    bool found = false;
    for (int32_t k = 0; k <= np; k++) {
      const placed *b = k < np ? &busy[k] : NULL;
      if (b && !(r[b->index].first <= r[i].last && r[i].first <= r[b->index].last)) continue; /* not live with i */
      uint64_t gap_end = b ? b->begin : UINT64_MAX;
      if (gap_end > cursor && gap_end - cursor >= size && (!found || gap_end - cursor < best_gap)) {
        best = cursor;
        best_gap = gap_end - cursor;
        found = true;
      }
      if (b && b->end > cursor) cursor = b->end;
    }
    out_offsets[i] = best;
    if (best + size > total) total = best + size;
    int32_t at = np; /* i joins the placed ones, kept by offset */
    while (at > 0 && busy[at - 1].begin > best) at--;
    memmove(&busy[at + 1], &busy[at], sizeof *busy * (size_t)(np - at));
    busy[at] = (placed){best, best + size, i};
    np++;
  }
  free(order);
  free(busy);
  if (!st) *out_total = total;
  return st;
}
