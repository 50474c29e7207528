/* The IR arena (src/base/arena.c): zeroed blocks, 16-byte aligned and 64-byte aligned from
 * 256 bytes up (mixed sizes, across chunks and one-off large blocks), the byte limit, and
 * array sizes that overflow. */
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "support/expect.h"

static bool zeroed(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
}

int main(void) {
  kiln_arena *a = kiln_arena_create(0);
  EXPECT(a != NULL, "create");
  static const size_t sizes[] = {1, 24, 256, 3, 300, 4096, 17, 70000, 255, 1000, 200000, 8};
  for (int round = 0; a && round < 40; round++)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
      size_t n = sizes[i];
      unsigned char *p = kiln_arena_alloc(a, n);
      uintptr_t align = n >= 256 ? 64 : 16;
      EXPECT(p && (uintptr_t)p % align == 0 && zeroed(p, n), "block of %zu bytes at %p: not %zu-aligned or not zeroed",
             n, (void *)p, (size_t)align);
      if (p) memset(p, 0xab, n); /* the next blocks must not overlap it: they read zero */
    }
  EXPECT(a && kiln_arena_alloc_array(a, SIZE_MAX / 2, 4) == NULL, "an array size that overflows is refused");
  EXPECT(a && kiln_arena_alloc(a, SIZE_MAX - 8) == NULL, "a size near SIZE_MAX is refused");
  kiln_arena_destroy(a);

  kiln_arena *small = kiln_arena_create(1024);
  EXPECT(small && kiln_arena_alloc(small, 512) != NULL, "within the limit");
  EXPECT(small && kiln_arena_alloc(small, 600) == NULL, "past the limit");
  EXPECT(small && kiln_arena_used(small) == 512, "used %zu bytes, expected 512", small ? kiln_arena_used(small) : 0);
  kiln_arena_destroy(small);
  return test_summary();
}
