#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kiln_strbuf_put(kiln_strbuf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->limit && b->len + n >= b->limit) {
    n = b->len + 1 < b->limit ? b->limit - b->len - 1 : 0;
    b->failed = true; /* full: keep what fits, drop the rest */
  }
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
      b->failed = true;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void kiln_strbuf_puts(kiln_strbuf *b, const char *s) { kiln_strbuf_put(b, s, strlen(s)); }

void kiln_strbuf_printf(kiln_strbuf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof tmp) {
    kiln_strbuf_put(b, tmp, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    b->failed = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  kiln_strbuf_put(b, big, (size_t)n);
  free(big);
}
