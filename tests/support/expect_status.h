/* Test support: a counted expectation that a call failed with a given status code and a
 * message containing a given text (expect.h's counters). Header-only. */
#ifndef KILN_TESTS_EXPECT_STATUS_H
#define KILN_TESTS_EXPECT_STATUS_H

#include <stdbool.h>
#include <string.h>

#include "kiln/kiln.h"
#include "support/expect.h"

/* Counts one check: st has code and its message contains text; frees st. */
static inline bool expect_error(kiln_status st, kiln_status_code code, const char *text, int line) {
  bool ok = kiln_status_code_of(st) == code && strstr(kiln_status_message(st), text);
  if (ok) g_passed++;
  else {
    g_failed++;
    printf("FAIL line %d: wanted %s '%s', got %s '%s'\n", line, kiln_status_code_name(code), text,
           kiln_status_code_name(kiln_status_code_of(st)), kiln_status_message(st));
  }
  kiln_status_free(st);
  return ok;
}
#define EXPECT_ERROR(st, code, text) expect_error((st), (code), (text), __LINE__)

#endif
