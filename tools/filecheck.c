#define _GNU_SOURCE
#include "filecheck.h"

#include <string.h>

typedef enum { DIR_NONE, DIR_CHECK, DIR_NEXT } dir_kind;

/* Parses "// CHECK...:" at the start of a line (after blanks); on success sets the kind,
 * whether {LITERAL} was given and the pattern (trimmed). */
static dir_kind directive(const char *p, const char *eol, bool *literal, const char **pat, size_t *pat_len) {
  while (p < eol && (*p == ' ' || *p == '\t')) p++;
  if (eol - p < 8 || memcmp(p, "//", 2)) return DIR_NONE;
  p += 2;
  while (p < eol && *p == ' ') p++;
  if (eol - p < 6 || memcmp(p, "CHECK", 5)) return DIR_NONE;
  p += 5;
  dir_kind k = DIR_CHECK;
  if (eol - p >= 5 && !memcmp(p, "-NEXT", 5)) k = DIR_NEXT, p += 5;
  else if (eol - p >= 6 && !memcmp(p, "-LABEL", 6)) p += 6;
  *literal = eol - p >= 9 && !memcmp(p, "{LITERAL}", 9);
  if (*literal) p += 9;
  if (p >= eol || *p != ':') return DIR_NONE; /* another prefix, e.g. CHECK-DENSE */
  p++;
  while (p < eol && (*p == ' ' || *p == '\t')) p++;
  const char *e = eol;
  while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
  *pat = p;
  *pat_len = (size_t)(e - p);
  return k;
}

bool kiln_filecheck_has_directives(const char *text, size_t len) {
  for (const char *p = text, *end = text + len; p < end;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    bool lit;
    const char *pat;
    size_t n;
    if (directive(p, eol, &lit, &pat, &n) != DIR_NONE) return true;
    p = eol + 1;
  }
  return false;
}

/* Whether line [l, le) contains the pattern, blanks runs matching blank runs. */
static bool line_matches(const char *l, const char *le, const char *pat, size_t n) {
  for (const char *start = l; start <= le; start++) {
    const char *a = start, *b = pat, *be = pat + n;
    while (b < be) {
      if (*b == ' ' || *b == '\t') {
        if (a >= le || (*a != ' ' && *a != '\t')) break;
        while (b < be && (*b == ' ' || *b == '\t')) b++;
        while (a < le && (*a == ' ' || *a == '\t')) a++;
      } else if (a < le && *a == *b) {
        a++, b++;
      } else {
        break;
      }
    }
    if (b == be) return true;
  }
  return false;
}

bool kiln_filecheck(const char *text, size_t len, const char *output, const char *name, unsigned first_line,
                    kiln_strbuf *why) {
  const char *out = output, *out_end = output + strlen(output);
  const char *next_line = out; /* where the next search starts */
  bool have_match = false;
  unsigned line = first_line;
  for (const char *p = text, *end = text + len; p < end; line++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    bool literal;
    const char *pat;
    size_t n;
    dir_kind k = directive(p, eol, &literal, &pat, &n);
    p = eol + 1;
    if (k == DIR_NONE) continue;
    if (!literal && (memmem(pat, n, "{{", 2) || memmem(pat, n, "[[", 2))) {
      kiln_strbuf_printf(why, "%s:%u: FileCheck pattern with regexes or variables is not supported\n", name, line);
      return false;
    }
    if (k == DIR_NEXT && !have_match) {
      kiln_strbuf_printf(why, "%s:%u: CHECK-NEXT without a previous match\n", name, line);
      return false;
    }
    bool found = false;
    for (const char *l = next_line; l < out_end && !found;) {
      const char *le = memchr(l, '\n', (size_t)(out_end - l));
      if (!le) le = out_end;
      if (line_matches(l, le, pat, n)) {
        found = true;
        next_line = le < out_end ? le + 1 : le;
      } else if (k == DIR_NEXT) {
        break; /* must be on the very next line */
      }
      l = le < out_end ? le + 1 : out_end;
    }
    if (!found) {
      kiln_strbuf_printf(why, "%s:%u: expected output '%.*s' %s\n", name, line, (int)n, pat,
                         k == DIR_NEXT ? "on the next line" : "not found");
      return false;
    }
    have_match = true;
  }
  return true;
}
