/* A cursor over an annotation's text (sdy attributes, mhlo.sharding strings), shared by
 * mesh.c and gspmd.c. The first error is kept in st, naming the text (under its label)
 * and the offset. Not thread-safe: one cursor per text. */
#ifndef KILN_SPMD_SCAN_H
#define KILN_SPMD_SCAN_H

#include "spmd/spmd.h"

typedef struct kiln_scan {
  kiln_arena *arena;
  const char *label; /* what the text is, for errors ("sdy attribute") */
  const char *text, *p;
  kiln_status st;
} kiln_scan;

/* Record an error (the first only); both return false. fail: "expected <expected>". */
bool kiln_scan_error(kiln_scan *s, const char *what);
bool kiln_scan_fail(kiln_scan *s, const char *expected);
bool kiln_scan_oom(kiln_scan *s);
void kiln_scan_skip_space(kiln_scan *s);
/* Consumes lit (after spaces) when it comes next; expect fails when it does not. */
bool kiln_scan_accept(kiln_scan *s, const char *lit);
bool kiln_scan_expect(kiln_scan *s, const char *lit);
/* An integer, optionally negative, below 2^63. */
bool kiln_scan_read_int(kiln_scan *s, int64_t *out);
/* `open` items `close` with items read by fn; an empty list is allowed. */
typedef bool (*kiln_scan_item_fn)(kiln_scan *s, void *ctx);
bool kiln_scan_read_list(kiln_scan *s, const char *open, const char *close, kiln_scan_item_fn fn, void *ctx);

#endif
