/* Shardy (sdy) in artifacts. test_bytecode_sdy MODE FOLDER:
 *   artifacts FOLDER (tests/bytecode/sdy, made by its make.py): every X.mlir.bc's sdy
 *     attributes, listed as `OP PATH = TEXT` lines (OPAQUE texts; ops in pre-order, the
 *     lines of an op sorted by PATH; PATH `name` or `arg_attrs[I].name`), must be X.sdy,
 *     what MLIR prints for them; and X.mlir.bc must print byte for byte as its text twin
 *     X.mlir (MLIR's own printing of the artifact read back).
 *   samples FOLDER (JAX's sharded samples of the research notes; exit 77 when absent): for
 *     every X.mlir.bc with a text twin X.mlir, the two list the same sdy lines (their
 *     twins are JAX's text before serialization, which VHLO does not keep byte for byte:
 *     default precisions, channel types, constant order).
 * Reports each file and ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "bytecode/bytecode.h"
#include "ir/print.h"
#include "parse/parse.h"
#include "support/files.h"

/* ------------------------------------------------------------------ sdy lines */

typedef struct lines {
  char **items;
  size_t count, cap;
} lines;

static void add_line(lines *l, const char *op, const char *path, const char *text) {
  if (l->count == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->items = realloc(l->items, l->cap * sizeof *l->items);
  }
  size_t n = strlen(op) + strlen(path) + strlen(text) + 5;
  l->items[l->count] = malloc(n);
  snprintf(l->items[l->count++], n, "%s %s = %s", op, path, text);
}

static void attr_lines(lines *l, const char *op, const char *path, const kiln_attr *a) {
  char sub[512];
  if (a->kind == KILN_ATTR_OPAQUE && !strncmp(a->opaque, "#sdy", 4)) add_line(l, op, path, a->opaque);
  for (int32_t i = 0; a->kind == KILN_ATTR_ARRAY && i < a->array.count; i++) {
    snprintf(sub, sizeof sub, "%s[%d]", path, (int)i);
    attr_lines(l, op, sub, a->array.items[i]);
  }
  for (int32_t i = 0; a->kind == KILN_ATTR_DICT && i < a->dict.count; i++) {
    snprintf(sub, sizeof sub, "%s.%s", path, a->dict.entries[i].name);
    attr_lines(l, op, sub, a->dict.entries[i].value);
  }
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void op_lines(lines *l, const kiln_op *op) {
  size_t first = l->count;
  for (int32_t i = 0; i < op->num_attrs; i++) attr_lines(l, kiln_op_name(op->kind), op->attrs[i].name, op->attrs[i].value);
  if (l->count > first) qsort(l->items + first, l->count - first, sizeof *l->items, by_text);
  for (int32_t i = 0; i < op->num_regions; i++)
    for (const kiln_block *b = op->regions[i].first; b; b = b->next)
      for (const kiln_op *o = b->first; o; o = o->next) op_lines(l, o);
}

/* All lines, each ended by a newline (malloc'ed). */
static char *module_lines(const kiln_module *m) {
  lines l = {0};
  op_lines(&l, m->op);
  size_t n = 1;
  for (size_t i = 0; i < l.count; i++) n += strlen(l.items[i]) + 1;
  char *out = malloc(n), *p = out;
  *p = 0;
  for (size_t i = 0; i < l.count; i++) {
    p += sprintf(p, "%s\n", l.items[i]);
    free(l.items[i]);
  }
  free(l.items);
  return out;
}

/* ------------------------------------------------------------------ checks */

/* The first line where a and b differ. */
static void report_diff(const char *what_a, const char *a, const char *what_b, const char *b) {
  const char *la = a, *lb = b;
  while (*a && *a == *b) {
    if (*a == '\n') la = a + 1, lb = b + 1;
    a++, b++;
  }
  printf("  %-9s %.*s\n  %-9s %.*s\n", what_a, (int)strcspn(la, "\n"), la, what_b, (int)strcspn(lb, "\n"), lb);
}

/* path without its last `cut` characters, with `suffix`. */
static void sibling(char *out, size_t cap, const char *path, size_t cut, const char *suffix) {
  snprintf(out, cap, "%.*s%s", (int)(strlen(path) - cut), path, suffix);
}

static kiln_status read_bytecode(const char *path, kiln_module **m) {
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  if (!st) st = kiln_bytecode_read((const uint8_t *)src.text, src.len, path, m), kiln_source_free(&src);
  return st;
}

static kiln_status read_text(const char *path, kiln_module **m) {
  kiln_source src;
  kiln_status st = kiln_source_read(path, &src);
  if (st) return st;
  st = kiln_parse_module(&src, m);
  if (!st) st = kiln_verify_module(*m, &src);
  kiln_source_free(&src);
  return st;
}

/* Equal texts, or a report (and false). */
static bool same(const char *base, const char *what, const char *what_a, const char *a, const char *what_b, const char *b) {
  if (!strcmp(a, b)) return true;
  printf("FAIL %s: %s differ\n", base, what);
  report_diff(what_a, a, what_b, b);
  return false;
}

static bool check(const char *path, bool samples) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char twin[4096], golden_path[4096];
  kiln_module *mb = NULL, *mt = NULL;
  char *lb = NULL, *lt = NULL, *pb = NULL, *pt = NULL, *expected = NULL;
  kiln_source golden = {0};
  bool ok = false;
  sibling(twin, sizeof twin, path, 3, "");
  sibling(golden_path, sizeof golden_path, path, 8, ".sdy");
  kiln_status st = read_bytecode(path, &mb);
  if (!st) st = read_text(twin, &mt);
  if (!st && !samples) st = kiln_source_read(golden_path, &golden);
  if (!st && !samples) st = kiln_print_module(mb, &pb, NULL);
  if (!st && !samples) st = kiln_print_module(mt, &pt, NULL);
  if (st) {
    printf("FAIL %s\n  %s\n", base, kiln_status_message(st));
  } else {
    lb = module_lines(mb);
    lt = module_lines(mt);
    if (!samples && (expected = malloc(golden.len + 1))) memcpy(expected, golden.text, golden.len), expected[golden.len] = 0;
    ok = samples ? same(base, "the sdy attributes of the artifact and its twin", "bytecode:", lb, "text:", lt)
                 : expected && same(base, "the sdy attributes and MLIR's", "kiln:", lb, "mlir:", expected) &&
                       same(base, "the printed artifact and its twin", "bytecode:", pb, "text:", pt);
    if (ok) printf("ok   %s\n", base);
  }
  kiln_status_free(st);
  free(lb), free(lt), free(pb), free(pt), free(expected);
  kiln_module_destroy(mb);
  kiln_module_destroy(mt);
  if (golden.text) kiln_source_free(&golden);
  return ok;
}

/* Whether X.mlir.bc has its text twin X.mlir. */
static bool has_twin(const char *path) {
  char twin[4096];
  sibling(twin, sizeof twin, path, 3, "");
  FILE *f = fopen(twin, "r");
  if (f) fclose(f);
  return f != NULL;
}

int main(int argc, char **argv) {
  bool samples = argc > 2 && !strcmp(argv[1], "samples");
  if (argc != 3 || (!samples && strcmp(argv[1], "artifacts"))) {
    fprintf(stderr, "usage: test_bytecode_sdy artifacts|samples FOLDER\n");
    return 2;
  }
  size_t n;
  char **files = test_files(argv[2], ".mlir.bc", &n);
  if (!files) {
    printf("folder %s not found%s\n", argv[2], samples ? ": skipped" : "");
    return samples ? 77 : 1;
  }
  int passed = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
    if (samples && !has_twin(files[i])) continue;
    if (check(files[i], samples)) passed++;
    else failed++;
  }
  test_files_free(files, n);
  printf("%d passed, %d failed\n", passed, failed);
  return failed || !passed ? 1 : 0;
}
