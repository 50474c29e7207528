#include "kiln/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kiln_status_s {
  kiln_status_code code;
  char source[96];
  char *message; /* NUL-terminated, stored right after the struct */
};

static char k_oom_text[] = "out of memory";
static struct kiln_status_s k_oom_status = {KILN_STATUS_RESOURCE_EXHAUSTED, "status.c", k_oom_text};

kiln_status kiln_status_make(kiln_status_code code, const char *file, int line,
                             const char *fmt, ...) {
  if (code == KILN_STATUS_OK) return NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  struct kiln_status_s *s = malloc(sizeof *s + (size_t)n + 1);
  if (!s) return &k_oom_status;
  s->code = code;
  s->message = (char *)(s + 1);
  const char *base = file ? strrchr(file, '/') : NULL;
  snprintf(s->source, sizeof s->source, "%s:%d", base ? base + 1 : (file ? file : "?"), line);
  va_start(ap, fmt);
  vsnprintf(s->message, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

kiln_status_code kiln_status_code_of(kiln_status s) { return s ? s->code : KILN_STATUS_OK; }
const char *kiln_status_message(kiln_status s) { return s ? s->message : ""; }
const char *kiln_status_source(kiln_status s) { return s ? s->source : ""; }

const char *kiln_status_code_name(kiln_status_code code) {
  static const char *const names[] = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
      "UNAUTHENTICATED"};
  if ((unsigned)code < sizeof names / sizeof names[0]) return names[code];
  return "UNKNOWN";
}

void kiln_status_free(kiln_status s) {
  if (s && s != &k_oom_status) free(s);
}
