/* Test support: counted expectations and the closing line every test prints.
 * Header-only; each test program has its own counters. */
#ifndef KILN_TESTS_EXPECT_H
#define KILN_TESTS_EXPECT_H

#include <stdio.h>

static int g_passed, g_failed;

/* Counts a check; on failure prints "FAIL line N: " and the message. */
#define EXPECT(cond, ...)                 \
  do {                                    \
    if (cond) {                           \
      g_passed++;                         \
    } else {                              \
      g_failed++;                         \
      printf("FAIL line %d: ", __LINE__); \
      printf(__VA_ARGS__);                \
      printf("\n");                       \
    }                                     \
  } while (0)

/* Prints "N passed, N failed" and returns the exit status. */
static inline int test_summary(void) {
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}

#endif
