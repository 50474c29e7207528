/* Buffer planning (src/passes/buffer_plan.c): requests whose lifetimes share a step never
 * share bytes, offsets keep the alignment, disjoint lifetimes reuse the same bytes (exact
 * cases), best fit takes the smallest gap, and sizes that overflow are refused; random
 * sets of up to 3,000 requests hold the invariants. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "passes/buffer_plan.h"
#include "support/expect.h"

static uint64_t rounded(uint64_t b, uint64_t a) { return (b + a - 1) / a * a; }

/* Whether the plan of r is valid: aligned, inside total, live-overlapping requests apart. */
static bool valid(const kiln_buffer_request *r, int32_t n, uint64_t align, const uint64_t *off, uint64_t total) {
  for (int32_t i = 0; i < n; i++) {
    if (off[i] % align || off[i] + rounded(r[i].bytes, align) > total) return false;
    for (int32_t j = 0; j < i; j++) {
      bool live = r[i].first <= r[j].last && r[j].first <= r[i].last;
      bool apart = off[i] + rounded(r[i].bytes, align) <= off[j] || off[j] + rounded(r[j].bytes, align) <= off[i];
      if (live && !apart && r[i].bytes && r[j].bytes) return false;
    }
  }
  return true;
}

int main(void) {
  uint64_t off[8], total;
  /* a chain a -> b -> c: a and c never live together, so c reuses a's bytes */
  kiln_buffer_request chain[3] = {{100, 0, 1}, {100, 1, 2}, {100, 2, 3}};
  kiln_status st = kiln_buffer_plan(chain, 3, 64, off, &total);
  EXPECT(!st && total == 256 && off[0] == off[2] && off[1] != off[0], "a chain: total %llu, offsets %llu %llu %llu",
         (unsigned long long)total, (unsigned long long)off[0], (unsigned long long)off[1], (unsigned long long)off[2]);
  kiln_status_free(st);
  /* all live at once: laid end to end, larger first */
  kiln_buffer_request all[3] = {{64, 0, 5}, {192, 0, 5}, {128, 0, 5}};
  st = kiln_buffer_plan(all, 3, 64, off, &total);
  EXPECT(!st && total == 384 && off[1] == 0 && off[2] == 192 && off[0] == 320, "all live: %llu %llu %llu total %llu",
         (unsigned long long)off[0], (unsigned long long)off[1], (unsigned long long)off[2], (unsigned long long)total);
  kiln_status_free(st);
  /* best fit: a 64-byte request goes in the 64-byte gap, not the 128-byte one */
  kiln_buffer_request fit[6] = {{64, 0, 9}, {128, 0, 1}, {64, 0, 9}, {64, 0, 1}, {64, 0, 9}, {64, 5, 9}};
  st = kiln_buffer_plan(fit, 6, 64, off, &total);
  EXPECT(!st && valid(fit, 6, 64, off, total) && total == 384 && off[5] == off[3],
         "best fit: the last request at %llu (the 64-byte gap at %llu), total %llu", (unsigned long long)off[5],
         (unsigned long long)off[3], (unsigned long long)total);
  kiln_status_free(st);
  /* overflow */
  kiln_buffer_request huge[2] = {{UINT64_MAX - 10, 0, 1}, {10, 0, 1}};
  st = kiln_buffer_plan(huge, 2, 64, off, &total);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_RESOURCE_EXHAUSTED, "a request near 2^64 bytes is refused");
  kiln_status_free(st);
  /* random sets: valid, and no larger than laying them all end to end */
  srand(7);
  for (int t = 0; t < 40; t++) {
    int32_t n = t < 38 ? 1 + rand() % 200 : 3000;
    kiln_buffer_request *r = calloc((size_t)n, sizeof *r);
    uint64_t *o = calloc((size_t)n, sizeof *o), sum = 0;
    for (int32_t i = 0; r && o && i < n; i++) {
      int32_t a = rand() % (n + 1), len = rand() % 20;
      r[i] = (kiln_buffer_request){(uint64_t)(rand() % 5000), a, a + len};
      sum += rounded(r[i].bytes, 64);
    }
    st = r && o ? kiln_buffer_plan(r, n, 64, o, &total) : NULL;
    EXPECT(r && o && !st && valid(r, n, 64, o, total) && total <= sum, "random set %d of %d requests: total %llu of %llu",
           t, (int)n, (unsigned long long)total, (unsigned long long)sum);
    kiln_status_free(st);
    free(r);
    free(o);
  }
  return test_summary();
}
