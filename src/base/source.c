#include "base/source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kiln_status kiln_source_read(const char *path, kiln_source *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: cannot open: %s", path, strerror(errno));
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      fclose(f);
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", path);
    }
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    if (cap > SIZE_MAX / 2) {
      free(buf);
      fclose(f);
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: file too large", path);
    }
    char *nb = realloc(buf, cap *= 2);
    if (!nb) free(buf);
    buf = nb;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: read error", path);
  }
  out->name = path;
  out->text = out->owned = buf;
  out->len = len;
  out->first_line = 1;
  return NULL;
}

kiln_source kiln_source_view(const char *name, const char *text, size_t len, uint32_t first_line) {
  kiln_source s = {name, text, len, first_line, NULL};
  return s;
}

void kiln_source_free(kiln_source *s) {
  free(s->owned);
  memset(s, 0, sizeof *s);
}

void kiln_source_line_col(const kiln_source *src, size_t offset, uint32_t *line, uint32_t *col) {
  if (offset > src->len) offset = src->len;
  uint32_t l = src->first_line;
  size_t start = 0;
  for (size_t i = 0; i < offset; i++)
    if (src->text[i] == '\n') l++, start = i + 1;
  *line = l;
  *col = (uint32_t)(offset - start + 1);
}

/* Appends the source line `line` of src and a caret under `col` to buf. */
static void echo_line(const kiln_source *src, uint32_t line, uint32_t col, char *buf, size_t cap) {
  const char *p = src->text, *end = src->text + src->len;
  uint32_t l = src->first_line;
  for (; l < line && p < end; p++)
    if (*p == '\n') l++;
  if (l != line || (p == end && !src->len)) return; /* a line this text does not have */
  const char *e = p;
  while (e < end && *e != '\n') e++;
  size_t n = (size_t)(e - p), used = strlen(buf), before = col ? col - 1 : 0; /* bytes left of the caret */
  if (before > n) before = n;
  /* Echo at most `width` bytes (the line and the caret line both fit in buf); on a long
   * line, a window that keeps the column in view. */
  size_t width = cap > used + 8 ? (cap - used - 8) / 2 : 0;
  if (width > 200) width = 200;
  if (!width) return;
  if (before >= width) {
    size_t skip = before - width / 2;
    p += skip, n -= skip, before -= skip;
  }
  if (n > width) n = width;
  char *o = buf + used;
  *o++ = '\n';
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    *o++ = (c == '\t' || (c >= 0x20 && c < 0x7f)) ? (char)c : '?';
  }
  *o++ = '\n';
  for (size_t i = 0; i < before; i++) *o++ = p[i] == '\t' ? '\t' : ' ';
  *o++ = '^';
  *o = 0;
}

kiln_status kiln_source_error_at(const kiln_source *src, const char *name, uint32_t line,
                                 uint32_t col, const char *message) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s:%u:%u: error: %s", name ? name : (src ? src->name : "<input>"),
           line, col, message);
  if (src) echo_line(src, line, col, buf, sizeof buf);
  return kiln_status_make(KILN_STATUS_INVALID_ARGUMENT, __FILE__, __LINE__, "%s", buf);
}

kiln_status kiln_source_error(const kiln_source *src, size_t offset, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  uint32_t line, col;
  kiln_source_line_col(src, offset, &line, &col);
  return kiln_source_error_at(src, src->name, line, col, msg);
}

static int is_marker(const char *p, const char *end) {
  static const char m[] = "// -----";
  size_t n = sizeof m - 1;
  if ((size_t)(end - p) < n || memcmp(p, m, n) != 0) return 0;
  p += n;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
  return p == end || *p == '\n';
}

kiln_status kiln_source_split(const kiln_source *src, kiln_source_piece_fn fn, void *user) {
  const char *p = src->text, *end = src->text + src->len, *start = p;
  uint32_t line = src->first_line, start_line = line;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *next = eol ? eol + 1 : end;
    if (is_marker(p, end)) {
      kiln_source piece = kiln_source_view(src->name, start, (size_t)(p - start), start_line);
      KILN_RETURN_IF_ERROR(fn(&piece, user));
      start = next;
      start_line = line + 1;
    }
    p = next;
    line++;
  }
  kiln_source piece = kiln_source_view(src->name, start, (size_t)(end - start), start_line);
  return fn(&piece, user);
}
