/* A growable NUL-terminated text buffer. Allocation failure (or reaching `limit`, when
 * non-zero) sets `failed` and drops further output, so callers check once at the end.
 * Not thread-safe; the owner frees `data`. */
#ifndef KILN_BASE_STRBUF_H
#define KILN_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kiln_strbuf {
  char *data; /* NULL until something is written */
  size_t len, cap;
  size_t limit; /* 0: unbounded; else at most limit - 1 bytes are kept */
  bool failed;
} kiln_strbuf;

void kiln_strbuf_put(kiln_strbuf *b, const char *s, size_t n);
void kiln_strbuf_puts(kiln_strbuf *b, const char *s);
void kiln_strbuf_printf(kiln_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
