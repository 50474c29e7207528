/* Replays the fuzzer's findings: test_fuzz_replay [FOLDER] (default tests/fuzz/regressions).
 *
 * Each file of the folder is an input that once made fuzz_parse fail. It is split at
 * `// -----` lines like `kiln print` does, and each piece must now either round-trip
 * (parse, verify, print, parse, verify, print to the same text) or be rejected with a
 * located error "FILE:LINE:COL: error: ..." followed by the source line and a caret. The
 * unverified module of a piece that parses must also print, and that text must parse and
 * print back to itself (the `kiln print --no-verify` path). Ends with "N passed, N failed"
 * (one count per file) and exits non-zero on a failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "support/files.h"
#include "support/roundtrip.h"

typedef struct file_ctx {
  const char *path;
  bool failed;
} file_ctx;

/* "PATH:LINE:COL: error: " then a line, then a line holding a caret. */
static bool located(const char *msg, const char *path) {
  size_t n = strlen(path);
  if (strncmp(msg, path, n) || msg[n] != ':') return false;
  const char *p = msg + n + 1;
  for (int k = 0; k < 2; k++) {
    if (*p < '1' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') p++;
    if (*p++ != ':') return false;
  }
  if (strncmp(p, " error: ", 8)) return false;
  const char *l2 = strchr(p, '\n'), *l3 = l2 ? strchr(l2 + 1, '\n') : NULL;
  return l3 && strchr(l3 + 1, '^');
}

static void fail(file_ctx *ctx, uint32_t line, const char *what, kiln_status st) {
  printf("FAIL %s (piece at line %u): %s%s%s\n", ctx->path, line, what, st ? "\n  " : "",
         st ? kiln_status_message(st) : "");
  ctx->failed = true;
}

static kiln_status check_piece(const kiln_source *piece, void *user) {
  file_ctx *ctx = user;
  kiln_module *m = NULL;
  kiln_status st = kiln_parse_module(piece, &m);
  if (st) {
    if (!located(kiln_status_message(st), piece->name)) fail(ctx, piece->first_line, "parse error is not located", st);
    kiln_status_free(st);
    return NULL;
  }
  char *text = NULL, *again = NULL;
  st = kiln_print_module(m, &text, NULL);
  kiln_module_destroy(m);
  if (st) {
    fail(ctx, piece->first_line, "the unverified module does not print", st);
    kiln_status_free(st);
    return NULL;
  }
  /* `kiln print --no-verify` output reads back (unverified) and prints the same */
  kiln_source printed = kiln_source_view("<printed>", text, strlen(text), 1);
  st = kiln_parse_module(&printed, &m);
  if (!st) st = kiln_print_module(m, &again, NULL);
  kiln_module_destroy(m);
  if (st) fail(ctx, piece->first_line, "the printed unverified module does not parse and print back", st);
  else if (strcmp(text, again)) fail(ctx, piece->first_line, "printing the unverified module is not a fixed point", NULL);
  kiln_status_free(st);
  free(text);
  free(again);

  bool parsed;
  st = kiln_test_roundtrip(piece, &parsed);
  if (st && parsed) fail(ctx, piece->first_line, "does not round-trip", st);
  else if (st && !located(kiln_status_message(st), piece->name))
    fail(ctx, piece->first_line, "verifier error is not located", st);
  kiln_status_free(st);
  return NULL;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "tests/fuzz/regressions";
  size_t count;
  char **names = test_files(dir, NULL, &count);
  if (!names) {
    printf("cannot read %s\n0 passed, 1 failed\n", dir);
    return 1;
  }
  int passed = 0, failed = 0;
  for (size_t i = 0; i < count; i++) {
    file_ctx ctx = {names[i], false};
    kiln_source src;
    kiln_status st = kiln_source_read(names[i], &src);
    if (!st) st = kiln_source_split(&src, check_piece, &ctx);
    if (st) fail(&ctx, 0, "cannot be read", st);
    kiln_status_free(st);
    kiln_source_free(&src);
    if (ctx.failed) failed++;
    else passed++;
  }
  test_files_free(names, count);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
