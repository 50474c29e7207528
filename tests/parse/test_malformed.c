/* Runs the malformed-input corpus: test_malformed FOLDER (tests/parse/malformed).
 *
 * Every file of the folder is one bad input whose first line is `// ERROR: TEXT`. It is
 * read, split at `// -----` lines and each piece is parsed, verified and printed the way
 * `kiln print` does. The file passes when that fails with a status whose message
 *   - starts with "PATH:LINE:COL: error: ",
 *   - contains TEXT,
 *   - goes on with the echoed source line and a line holding only the caret.
 * Prints one line per failure, ends with "N passed, N failed" and exits non-zero when a
 * file fails (or when the folder holds none). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "support/files.h"

static kiln_status print_piece(const kiln_source *piece, void *user) {
  (void)user;
  kiln_module *m;
  kiln_status st = kiln_parse_module(piece, &m);
  if (!st) st = kiln_verify_module(m, piece);
  char *text = NULL;
  if (!st) st = kiln_print_module(m, &text, NULL);
  kiln_module_destroy(m);
  free(text);
  return st;
}

/* The text after "// ERROR: " on the first line, or NULL. */
static char *expected_text(const kiln_source *src) {
  static const char marker[] = "// ERROR: ";
  size_t m = sizeof marker - 1;
  if (src->len < m || memcmp(src->text, marker, m)) return NULL;
  const char *s = src->text + m, *end = src->text + src->len;
  const char *e = memchr(s, '\n', (size_t)(end - s));
  if (!e) e = end;
  while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
  if (e == s) return NULL;
  char *r = malloc((size_t)(e - s) + 1);
  if (!r) return NULL;
  memcpy(r, s, (size_t)(e - s));
  r[e - s] = 0;
  return r;
}

/* Checks the shape "PATH:LINE:COL: error: ...\nSOURCE LINE\n   ^"; returns why not. */
static const char *check_format(const char *msg, const char *path) {
  size_t n = strlen(path);
  if (strncmp(msg, path, n) || msg[n] != ':') return "does not start with the file's path";
  const char *p = msg + n + 1;
  for (int k = 0; k < 2; k++) {
    if (*p < '1' || *p > '9') return "has no LINE:COL after the path";
    while (*p >= '0' && *p <= '9') p++;
    if (*p++ != ':') return "has no LINE:COL after the path";
  }
  if (strncmp(p, " error: ", 8)) return "has no ' error: ' after LINE:COL";
  const char *l2 = strchr(p, '\n');
  const char *l3 = l2 ? strchr(l2 + 1, '\n') : NULL;
  if (!l3) return "does not echo the source line and a caret";
  for (l3++; *l3 == ' ' || *l3 == '\t'; l3++) {}
  if (*l3 != '^' || (l3[1] && l3[1] != '\n')) return "has no caret line under the source line";
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_malformed FOLDER\n");
    return 2;
  }
  const char *dir = argv[1];
  size_t count;
  char **names = test_files(dir, ".mlir", &count);
  if (!names) {
    printf("FAIL cannot read %s\n0 passed, 1 failed\n", dir);
    return 1;
  }

  int passed = 0, failed = 0;
  for (size_t i = 0; i < count; i++) {
    const char *path = names[i];
    kiln_source src;
    kiln_status st = kiln_source_read(path, &src);
    char *want = st ? NULL : expected_text(&src);
    if (st) {
      printf("FAIL %s: cannot read: %s\n", path, kiln_status_message(st));
      failed++;
    } else if (!want) {
      printf("FAIL %s: the first line is not '// ERROR: <expected message>'\n", path);
      failed++;
    } else if (!(st = kiln_source_split(&src, print_piece, NULL))) {
      printf("FAIL %s: accepted, expected an error containing '%s'\n", path, want);
      failed++;
    } else {
      const char *msg = kiln_status_message(st), *why = check_format(msg, path);
      if (why) {
        printf("FAIL %s: the error %s:\n  %s\n", path, why, msg);
        failed++;
      } else if (!strstr(msg, want)) {
        printf("FAIL %s: the error does not contain '%s':\n  %s\n", path, want, msg);
        failed++;
      } else {
        passed++;
      }
    }
    kiln_status_free(st);
    free(want);
    kiln_source_free(&src);
  }
  test_files_free(names, count);
  printf("%d passed, %d failed\n", passed, failed);
  return failed || !passed ? 1 : 0;
}
