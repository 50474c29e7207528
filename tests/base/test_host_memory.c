/* Host memory for tensors (src/base/host_memory.c): blocks 64-byte aligned, large ones
 * handed out again for their size, and kiln_host_populate: the pages of any range made
 * resident with their contents kept (whole pages, a range starting and ending inside
 * pages, a range within one page, NULL and 0), so that writing them afterwards takes
 * almost no page faults. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/host_memory.h"
#include "support/expect.h"

static long minor_faults(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

/* Fills p[0, n) with a pattern from seed, and checks it. */
static void fill(uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 31 + seed);
}
static bool filled(const uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (uint8_t)(i * 31 + seed)) return false;
  return true;
}

int main(void) {
  enum { BIG = 8 << 20, PAGES = BIG / 4096 };
  /* alignment, and a large block handed out again for its size */
  uint8_t *a = kiln_host_alloc(100), *b = kiln_host_alloc(BIG);
  EXPECT(a && (uintptr_t)a % 64 == 0, "a small block 64-byte aligned");
  EXPECT(b && (uintptr_t)b % 64 == 0, "a large block 64-byte aligned");
  kiln_host_free(b, BIG);
  uint8_t *c = kiln_host_alloc(BIG);
  EXPECT(c == b, "a freed large block is handed out again for its size");

  /* populate: contents kept, in ranges of every shape */
  if (c) {
    fill(c, BIG, 7);
    kiln_host_populate(c, BIG);
    EXPECT(filled(c, BIG, 7), "a whole block's contents are kept");
    kiln_host_populate(c + 100, BIG - 4000); /* starts and ends inside pages */
    kiln_host_populate(c + 4096 + 10, 20);   /* within one page */
    kiln_host_populate(NULL, 100);
    kiln_host_populate(c, 0);
    EXPECT(filled(c, BIG, 7), "contents kept by partial ranges");
  }
  kiln_host_free(c, BIG);
  kiln_host_free(a, 100);
  kiln_host_cache_release();

  /* fresh pages: writing them after populate takes few faults; without, one per page */
  uint8_t *fresh = kiln_host_alloc(BIG);
  EXPECT(fresh != NULL, "a fresh large block");
  if (fresh) {
    kiln_host_populate(fresh, BIG);
    long before = minor_faults();
    memset(fresh, 1, BIG);
    long faults = minor_faults() - before;
    EXPECT(faults < PAGES / 8, "writing a populated block of %d pages took %ld page faults", PAGES, faults);
    printf("writing a populated block of %d pages: %ld minor page faults\n", PAGES, faults);
    kiln_host_free(fresh, BIG);
  }
  kiln_host_cache_release();
  uint8_t *cold = kiln_host_alloc(BIG);
  if (cold) {
    long before = minor_faults();
    memset(cold, 1, BIG);
    long faults = minor_faults() - before;
    /* the control: what the check above would see without populate (transparent huge
     * pages, where the system gives them to malloc's mappings, make far fewer) */
    printf("writing a fresh block of %d pages: %ld minor page faults\n", PAGES, faults);
    kiln_host_free(cold, BIG);
  }
  kiln_host_cache_release();
  return test_summary();
}
