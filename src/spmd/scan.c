/* The annotation cursor (scan.h). */
#include "spmd/scan.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool kiln_scan_error(kiln_scan *s, const char *what) {
  if (!s->st)
    s->st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s `%.200s`: at offset %d: %s", s->label, s->text,
                        (int)(s->p - s->text), what);
  return false;
}

bool kiln_scan_fail(kiln_scan *s, const char *expected) {
  char what[256];
  snprintf(what, sizeof what, "expected %s", expected);
  return kiln_scan_error(s, what);
}

bool kiln_scan_oom(kiln_scan *s) {
  if (!s->st) s->st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory reading an %s", s->label);
  return false;
}

void kiln_scan_skip_space(kiln_scan *s) {
  while (isspace((unsigned char)*s->p)) s->p++;
}

bool kiln_scan_accept(kiln_scan *s, const char *lit) {
  kiln_scan_skip_space(s);
  size_t n = strlen(lit);
  if (strncmp(s->p, lit, n)) return false;
  s->p += n;
  return true;
}

bool kiln_scan_expect(kiln_scan *s, const char *lit) {
  if (kiln_scan_accept(s, lit)) return true;
  char what[48];
  snprintf(what, sizeof what, "'%s'", lit);
  return kiln_scan_fail(s, what);
}

bool kiln_scan_read_int(kiln_scan *s, int64_t *out) {
  kiln_scan_skip_space(s);
  bool neg = *s->p == '-';
  const char *q = s->p + neg;
  if (!isdigit((unsigned char)*q)) return kiln_scan_fail(s, "an integer");
  int64_t v = 0;
  for (; isdigit((unsigned char)*q); q++)
    if (!kiln_mul_i64(v, 10, &v) || !kiln_add_i64(v, *q - '0', &v)) return kiln_scan_fail(s, "an integer below 2^63");
  s->p = q;
  *out = neg ? -v : v;
  return true;
}

bool kiln_scan_read_list(kiln_scan *s, const char *open, const char *close, kiln_scan_item_fn fn, void *ctx) {
  if (!kiln_scan_expect(s, open)) return false;
  if (kiln_scan_accept(s, close)) return true;
  do {
    if (!fn(s, ctx)) return false;
  } while (kiln_scan_accept(s, ","));
  return kiln_scan_expect(s, close);
}
