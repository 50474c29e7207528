/* Parses, verifies and round-trips every .mlir file of the StableHLO conformance
 * material: test_conformance [FOLDER] (default: ../shared/conformance beside the
 * project). Exits 77 (ctest: skipped) and says so when the folder is absent. A file whose
 * ops are in the vhlo dialect (Kiln reads VHLO only as bytecode) must be rejected with a
 * located error instead. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/roundtrip.h"

static int g_passed, g_failed;

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* True when a non-comment line starts with a vhlo op (pretty or generic form). */
static bool uses_vhlo_ops(const kiln_source *src) {
  const char *p = src->text, *end = src->text + src->len;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    const char *q = p;
    while (q < eol && (*q == ' ' || *q == '\t')) q++;
    if (q + 1 < eol && q[0] == '%') { /* %x = ... */
      const char *eq = memchr(q, '=', (size_t)(eol - q));
      if (eq) for (q = eq + 1; q < eol && *q == ' '; q++) {}
    }
    if (*q == '"') q++;
    if ((size_t)(eol - q) > 5 && !memcmp(q, "vhlo.", 5)) {
      const char *r = q + 5; /* `vhlo.name = ...` is an attribute, not an op */
      while (r < eol && *r != ' ' && *r != '=' && *r != '"') r++;
      while (r < eol && *r == ' ') r++;
      if (r >= eol || *r != '=') return true;
    }
    p = eol + 1;
  }
  return false;
}

static int visit(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  if (flag != FTW_F || !ends_with(path, ".mlir")) return 0;
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  bool expect_reject = !st && uses_vhlo_ops(&src);
  kiln_source_free(&src);
  bool parsed = false;
  if (!st) st = kiln_test_roundtrip_file(path, &parsed);
  if (expect_reject) {
    const char *msg = kiln_status_message(st);
    bool located = st && strstr(msg, ": error: ") && strstr(msg, "\n");
    if (located) g_passed++;
    else {
      g_failed++;
      printf("FAIL %s: expected a located error for its vhlo ops\n", path);
    }
  } else if (st) {
    g_failed++;
    printf("FAIL %s\n  %s\n", path, kiln_status_message(st));
  } else {
    g_passed++;
  }
  kiln_status_free(st);
  return 0;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/conformance";
  struct stat sb;
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
    printf("conformance folder %s not found: skipped (pass its path as the first argument)\n", dir);
    return 77;
  }
  nftw(dir, visit, 16, FTW_PHYS);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
