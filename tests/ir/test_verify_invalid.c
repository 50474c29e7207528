/* Runs verifier rejection corpora: each `// -----` case of each file carries one line
 * `// ERROR: text`; the case must parse, the verifier must reject it, and the message must
 * contain the text and point at a line and column. Cases without an ERROR line must
 * verify. Usage: test_verify_invalid FILE... */
#include <stdio.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "support/files.h"

static int g_passed, g_failed;

static kiln_status check_case(const kiln_source *piece, void *user) {
  (void)user;
  char expected[256] = "";
  const char *marker = "// ERROR: ";
  for (const char *p = piece->text; p && p < piece->text + piece->len;) {
    const char *eol = memchr(p, '\n', (size_t)(piece->text + piece->len - p));
    size_t n = eol ? (size_t)(eol - p) : (size_t)(piece->text + piece->len - p);
    if (n > strlen(marker) && !memcmp(p, marker, strlen(marker))) {
      size_t m = n - strlen(marker) < sizeof expected - 1 ? n - strlen(marker) : sizeof expected - 1;
      memcpy(expected, p + strlen(marker), m);
      expected[m] = 0;
    }
    p = eol ? eol + 1 : NULL;
  }
  kiln_module *m;
  kiln_status st = kiln_parse_module(piece, &m);
  if (st) {
    printf("FAIL %s:%u: the case does not parse: %s\n", piece->name, piece->first_line, kiln_status_message(st));
    g_failed++;
    kiln_status_free(st);
    return NULL;
  }
  st = kiln_verify_module(m, piece);
  kiln_module_destroy(m);
  const char *msg = kiln_status_message(st);
  if (!expected[0]) {
    if (st) printf("FAIL %s:%u: valid case rejected: %s\n", piece->name, piece->first_line, msg), g_failed++;
    else g_passed++;
  } else if (!st) {
    printf("FAIL %s:%u: accepted, expected an error containing '%s'\n", piece->name, piece->first_line, expected);
    g_failed++;
  } else if (!strstr(msg, expected) || !strstr(msg, ": error: ")) {
    printf("FAIL %s:%u: error '%s' does not contain '%s'\n", piece->name, piece->first_line, msg, expected);
    g_failed++;
  } else {
    g_passed++;
  }
  kiln_status_free(st);
  return NULL;
}

int main(int argc, char **argv) {
  g_failed += test_split_files(argv + 1, argc - 1, check_case, NULL);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed || !g_passed ? 1 : 0;
}
