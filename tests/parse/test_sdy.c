/* The Shardy (sdy) ops through the text front end and the printer.
 *
 *   test_parse_sdy roundtrip FOLDER (tests/parse/sdy) every NAME.mlir there is MLIR's pretty text
 *       of a module: parsing, verifying and printing it gives it back byte for byte, and so
 *       does NAME.generic.mlir, the same module in MLIR's generic form (tests/parse/sdy/gen.py
 *       writes both with JAX's MLIR).
 *   test_parse_sdy samples FOLDER   (the research samples, JAX's own jit/shard_map/pmap output)
 *       every line of an sdy op is printed back the same, value names aside (Kiln renumbers
 *       values and names constants %N). Exits 77 (ctest: skipped) when the folder is absent.
 *
 * Ends with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "support/expect.h"
#include "support/files.h"

/* Parses, verifies and prints the file at path; NULL (and the reason printed) on failure. */
static char *print_file(const char *path) {
  kiln_source src;
  kiln_module *m = NULL;
  char *text = NULL;
  kiln_status st = kiln_source_read(path, &src);
  if (!st) {
    st = kiln_parse_module(&src, &m);
    if (!st) st = kiln_verify_module(m, &src);
    if (!st) st = kiln_print_module(m, &text, NULL);
    kiln_module_destroy(m);
    kiln_source_free(&src);
  }
  if (st) printf("  %s: %s\n", path, kiln_status_message(st));
  kiln_status_free(st);
  return text;
}

static char *read_text(const char *path) {
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  if (st) {
    kiln_status_free(st);
    return NULL;
  }
  char *text = malloc(src.len + 1);
  if (text) {
    memcpy(text, src.text, src.len);
    text[src.len] = 0;
  }
  kiln_source_free(&src);
  return text;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* The first line where a and b differ, for the failure message. */
static int first_difference(const char *a, const char *b) {
  int line = 1;
  for (; *a && *a == *b; a++, b++) line += *a == '\n';
  return line;
}

static void expect_prints_as(const char *path, const char *want) {
  char *got = print_file(path);
  EXPECT(got && !strcmp(got, want), "%s does not print as the pretty text (first difference on line %d)", path,
         got ? first_difference(got, want) : 0);
  free(got);
}

static int roundtrip(const char *dir) {
  size_t count;
  char **paths = test_files(dir, ".mlir", &count);
  EXPECT(paths && count, "no .mlir files in %s", dir);
  for (size_t i = 0; paths && i < count; i++) {
    if (ends_with(paths[i], ".generic.mlir")) continue;
    char *pretty = read_text(paths[i]);
    size_t n = strlen(paths[i]);
    char *generic = malloc(n + sizeof ".generic");
    if (!pretty || !generic) {
      EXPECT(false, "cannot read %s", paths[i]);
    } else {
      expect_prints_as(paths[i], pretty);
      snprintf(generic, n + sizeof ".generic", "%.*s.generic.mlir", (int)(n - 5), paths[i]);
      struct stat sb;
      if (!stat(generic, &sb)) expect_prints_as(generic, pretty);
    }
    free(pretty);
    free(generic);
  }
  test_files_free(paths, count);
  return test_summary();
}

/* A copy of the n bytes at s with every value name (%x, %0:2, %4#1, %arg3) made "%_". */
static char *mask_values(const char *s, size_t n) {
  char *out = malloc(n + 1), *o = out;
  if (!out) return NULL;
  for (size_t i = 0; i < n;) {
    *o++ = s[i];
    if (s[i++] != '%') continue;
    *o++ = '_';
    while (i < n && (s[i] == '_' || s[i] == '#' || s[i] == ':' || (s[i] >= '0' && s[i] <= '9') ||
                     ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z')))
      i++;
  }
  *o = 0;
  return out;
}

static bool holds_line(const char *text, const char *line) {
  size_t n = strlen(line);
  for (const char *p = strstr(text, line); p; p = strstr(p + 1, line))
    if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n])) return true;
  return false;
}

static bool is_sdy_op_line(const char *s, size_t n) {
  static const char *const ops[] = {"sdy.mesh @", "sdy.sharding_constraint %", "sdy.manual_computation(",
                                    "sdy.return", NULL};
  for (const char *const *op = ops; *op; op++)
    for (size_t i = 0, m = strlen(*op); i + m <= n; i++)
      if (!memcmp(s + i, *op, m)) return true;
  return false;
}

static void check_sample(const char *path) {
  char *text = read_text(path), *printed = print_file(path);
  char *masked = printed ? mask_values(printed, strlen(printed)) : NULL;
  EXPECT(text && masked, "%s cannot be read or printed", path);
  for (const char *line = text; text && masked && *line;) {
    const char *end = strchr(line, '\n');
    size_t n = end ? (size_t)(end - line) : strlen(line);
    if (is_sdy_op_line(line, n)) {
      char *want = mask_values(line, n);
      EXPECT(want && holds_line(masked, want), "%s: not printed back: %.*s", path, (int)n, line);
      free(want);
    }
    line += n + (end != NULL);
  }
  free(text);
  free(printed);
  free(masked);
}

static int samples(const char *dir) {
  struct stat sb;
  if (stat(dir, &sb)) {
    printf("skipped: %s is absent\n", dir);
    return 77;
  }
  size_t count;
  char **paths = test_files(dir, ".mlir", &count);
  EXPECT(paths && count, "no .mlir files in %s", dir);
  for (size_t i = 0; paths && i < count; i++) check_sample(paths[i]);
  test_files_free(paths, count);
  return test_summary();
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "roundtrip")) return roundtrip(argv[2]);
  if (argc == 3 && !strcmp(argv[1], "samples")) return samples(argv[2]);
  fprintf(stderr, "usage: test_parse_sdy roundtrip|samples FOLDER\n");
  return 2;
}
