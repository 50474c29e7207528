/* Malformed artifacts: every prefix of a few seed files, every byte of the smallest one
 * flipped, and artifacts claiming huge counts must give an error (never a crash, a hang,
 * a huge allocation or a leak: run it under ASan); the fuzzer's findings in
 * REGRESSIONS must read without a crash. The same for every artifact of SDY_FOLDER
 * (tests/bytecode/sdy: every prefix, every byte flipped), and each SDY_FOLDER/malformed
 * artifact must give the located error its expect.txt names (`FILE: TEXT`: an error
 * "FILE: byte N: ..." holding TEXT).
 * test_malformed CONFORMANCE_FOLDER|- [REGRESSIONS|- [SDY_FOLDER]]; exits 77 when
 * CONFORMANCE_FOLDER/vhlo is absent and no SDY_FOLDER is given. Ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "bytecode/bytecode.h"
#include "support/files.h"

static int g_passed, g_failed;

/* Reads the bytes; an error is required when must_fail, success is allowed otherwise. */
static void expect(const uint8_t *data, size_t len, bool must_fail, const char *what) {
  kiln_module *m = NULL;
  kiln_status st = kiln_bytecode_read(data, len, "x.mlir.bc", &m);
  bool ok = st ? m == NULL && strncmp(kiln_status_message(st), "x.mlir.bc", 9) == 0 : !must_fail;
  if (ok) g_passed++;
  else {
    g_failed++;
    printf("FAIL %s: %s\n", what, st ? kiln_status_message(st) : "was read");
  }
  kiln_status_free(st);
  kiln_module_destroy(m);
}

static void seed(const char *dir, const char *name, bool every_flip) {
  char path[8192], what[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  if (st) {
    printf("FAIL %s\n", kiln_status_message(st));
    kiln_status_free(st);
    g_failed++;
    return;
  }
  const uint8_t *d = (const uint8_t *)src.text;
  expect(d, src.len, false, name);
  for (size_t n = 0; n < src.len; n++) { /* a copy of exactly n bytes, so ASan sees overreads */
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, d, n);
    snprintf(what, sizeof what, "%s cut to %zu bytes", name, n);
    expect(copy, n, true, what);
    free(copy);
  }
  uint8_t *copy = malloc(src.len);
  size_t step = every_flip ? 1 : 7;
  for (size_t i = 0; i < src.len; i += step) {
    memcpy(copy, d, src.len);
    copy[i] ^= every_flip ? 0xFF : (uint8_t)(1u << (i % 8));
    snprintf(what, sizeof what, "%s with byte %zu flipped", name, i);
    expect(copy, src.len, false, what);
  }
  free(copy);
  kiln_source_free(&src);
}

/* The artifact must be rejected with "path: byte N: ..." holding text. */
static void expect_error(const char *path, const char *text) {
  kiln_source src;
  kiln_module *m = NULL;
  kiln_status st = kiln_source_read(path, &src);
  if (!st) st = kiln_bytecode_read((const uint8_t *)src.text, src.len, path, &m), kiln_source_free(&src);
  const char *msg = st ? kiln_status_message(st) : "was read";
  size_t n = strlen(path);
  if (st && !m && !strncmp(msg, path, n) && !strncmp(msg + n, ": byte ", 7) && strstr(msg, text)) g_passed++;
  else {
    g_failed++;
    printf("FAIL %s: expected an error with \"%s\", found: %s\n", path, text, msg);
  }
  kiln_status_free(st);
  kiln_module_destroy(m);
}

static void sdy_folder(const char *dir) {
  size_t n;
  char **files = test_files(dir, ".mlir.bc", &n), path[4096], line[1024];
  if (!files) {
    printf("FAIL sdy folder %s not found\n", dir);
    g_failed++;
    return;
  }
  for (size_t i = 0; i < n; i++) seed(dir, strrchr(files[i], '/') + 1, true);
  test_files_free(files, n);
  snprintf(path, sizeof path, "%s/malformed/expect.txt", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("FAIL %s not found\n", path);
    g_failed++;
    return;
  }
  while (fgets(line, sizeof line, f)) {
    char *sep = strstr(line, ": ");
    if (!sep) continue;
    *sep = 0;
    sep[2 + strcspn(sep + 2, "\n")] = 0;
    snprintf(path, sizeof path, "%s/malformed/%s", dir, line);
    expect_error(path, sep + 2);
  }
  fclose(f);
}

static void conformance(const char *dir) {
  seed(dir, "vhlo_emit_version_api.1_1_0.mlir.bc", true);
  seed(dir, "stablehlo_legalize_to_vhlo.1_13_0.mlir.bc", false);
  /* huge counts: 2^64-1 strings, then a section longer than the file */
  static const uint8_t huge_strings[] = {'M', 'L', 0xEF, 'R', 0x0D, 'S', 't', 'a', 'b', 'l', 'e', 'H', 'L', 'O', '_', 'v', '1', 0,
                                         0x00, 0x0B, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x01};
  expect(huge_strings, sizeof huge_strings, true, "a string section claiming 2^64 strings");
  static const uint8_t long_section[] = {'M', 'L', 0xEF, 'R', 0x0D, 'S', 't', 'a', 'b', 'l', 'e', 'H', 'L', 'O', '_', 'v', '1', 0, 0x00, 0xFF};
  expect(long_section, sizeof long_section, true, "a section longer than the file");
  expect((const uint8_t *)"ML\xEFR", 4, true, "the magic alone");
  expect((const uint8_t *)"MLIR", 4, true, "a wrong magic");
}

int main(int argc, char **argv) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/vhlo", argc > 1 ? argv[1] : "../shared/conformance");
  FILE *probe = fopen(dir, "r");
  if (probe) fclose(probe);
  if (!probe && argc < 4) {
    printf("conformance folder %s not found: skipped\n", dir);
    return 77;
  }
  if (probe) conformance(dir);
  if (argc > 3) sdy_folder(argv[3]);
  /* the fuzzer's findings (tests/fuzz/regressions/bytecode): read without a crash */
  size_t n = 0;
  char **found = argc > 2 && strcmp(argv[2], "-") ? test_files(argv[2], NULL, &n) : NULL;
  for (size_t i = 0; i < n; i++) {
    kiln_source src;
    kiln_status st = kiln_source_read(found[i], &src);
    if (!st) expect((const uint8_t *)src.text, src.len, false, found[i]), kiln_source_free(&src);
    kiln_status_free(st);
  }
  if (found) test_files_free(found, n);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
