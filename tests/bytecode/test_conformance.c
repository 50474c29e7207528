/* Reads every VHLO artifact (X.mlir.bc) of the conformance folder's vhlo/ and compares it
 * with its text twin X.mlir: both are verified and printed, and the two texts must be
 * byte for byte equal. Files named invalid_* must be rejected with an error instead.
 * test_conformance [FOLDER]: exits 77 (ctest: skipped) when FOLDER/vhlo is absent.
 * Reports each file and ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "bytecode/bytecode.h"
#include "ir/print.h"
#include "parse/parse.h"
#include "support/files.h"

/* The first line where a and b differ, for the report. */
static void show_diff(const char *a, const char *b) {
  int line = 1;
  while (*a && *a == *b) {
    line += *a == '\n';
    a++, b++;
  }
  while (line > 1 && a[-1] != '\n') a--, b--;
  printf("  line %d:\n  bytecode: %.*s\n  text:     %.*s\n", line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

static bool check(const char *path) {
  kiln_source bc = {0}, text;
  kiln_module *mb = NULL, *mt = NULL;
  char *pb = NULL, *pt = NULL, twin[4096];
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  bool invalid = !strncmp(base, "invalid", 7), ok = false;
  kiln_status st = kiln_source_read(path, &bc);
  if (!st) st = kiln_bytecode_read((const uint8_t *)bc.text, bc.len, path, &mb);
  if (invalid) {
    ok = st != NULL;
    printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", base, ok ? ": rejected: " : ": was not rejected", ok ? kiln_status_message(st) : "");
    kiln_status_free(st);
    kiln_module_destroy(mb);
    kiln_source_free(&bc);
    return ok;
  }
  snprintf(twin, sizeof twin, "%.*s", (int)(strlen(path) - 3), path);
  if (!st) st = kiln_source_read(twin, &text);
  if (!st) {
    st = kiln_parse_module(&text, &mt);
    if (!st) st = kiln_verify_module(mt, &text);
    kiln_source_free(&text);
  }
  if (!st) st = kiln_print_module(mb, &pb, NULL);
  if (!st) st = kiln_print_module(mt, &pt, NULL);
  if (st) printf("FAIL %s\n  %s\n", base, kiln_status_message(st));
  else if (strcmp(pb, pt)) {
    printf("FAIL %s: prints differently from its text twin\n", base);
    show_diff(pb, pt);
  } else {
    ok = true;
    printf("ok   %s\n", base);
  }
  kiln_status_free(st);
  free(pb);
  free(pt);
  kiln_module_destroy(mb);
  kiln_module_destroy(mt);
  kiln_source_free(&bc);
  return ok;
}

int main(int argc, char **argv) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/vhlo", argc > 1 ? argv[1] : "../shared/conformance");
  size_t n;
  char **files = test_files(dir, ".mlir.bc", &n);
  if (!files) {
    printf("conformance folder %s not found: skipped (pass the conformance folder as the first argument)\n", dir);
    return 77;
  }
  int passed = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
    if (check(files[i])) passed++;
    else failed++;
  }
  test_files_free(files, n);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
