/* Reads every VHLO artifact (X.mlir.bc) of the conformance folder's vhlo/ and compares it
 * with its text twin X.mlir: both are verified and printed, and the two texts must be
 * equal (an op's attributes are compared sorted by name, as MLIR keeps them; Kiln keeps
 * their source order). Files named invalid_* must be rejected with an error instead.
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

/* Versions the reader does not take yet (docs/ARCHITECTURE.md says why): reported, not
 * counted as failures. */
static const char *const k_known_gaps[] = {
    "stablehlo_legalize_to_vhlo.0_9_0.mlir.bc",  /* bytecode version 0 */
    "stablehlo_legalize_to_vhlo.0_10_0.mlir.bc", /* bytecode version 1: value numbering differs */
    "stablehlo_legalize_to_vhlo.0_11_0.mlir.bc",
    "stablehlo_legalize_to_vhlo.1_16_0.mlir.bc", /* #stablehlo.replica_group_mesh_axes */
    "stablehlo_legalize_to_vhlo.1_18_0.mlir.bc",
    "stablehlo_legalize_to_vhlo.1_19_0.mlir.bc",
    "stablehlo_legalize_to_vhlo.1_20_0.mlir.bc",
    NULL,
};

static int by_name(const void *a, const void *b) {
  return strcmp(((const kiln_named_attr *)a)->name, ((const kiln_named_attr *)b)->name);
}

/* Default values the text twins spell out and the reader (like MLIR) leaves out. */
static const struct {
  kiln_op_kind op;
  const char *attr, *value;
} k_spelled_defaults[] = {
    {KILN_OP_CUSTOM_CALL, "api_version", "1 : i32"},
    {KILN_OP_COUNT, "result_accuracy",
     "#stablehlo.result_accuracy<atol = 0.0, rtol = 0.0, ulps = 0, mode = #stablehlo.result_accuracy_mode<DEFAULT>>"},
};

static int field_by_name(const void *a, const void *b) {
  const kiln_named_attr *x = a, *y = b;
  return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* Structure fields and dictionary entries in name order: the twins write some in another
 * order than MLIR keeps them. */
static void sort_fields(const kiln_attr *a) {
  if (a->kind == KILN_ATTR_DICT) {
    qsort(a->dict.entries, (size_t)a->dict.count, sizeof *a->dict.entries, field_by_name);
    for (int32_t i = 0; i < a->dict.count; i++) sort_fields(a->dict.entries[i].value);
  }
  if (a->kind == KILN_ATTR_STRUCT && strcmp(a->strct.name, "conv"))
    qsort(a->strct.fields, (size_t)a->strct.count, sizeof *a->strct.fields, field_by_name);
  if (a->kind == KILN_ATTR_ARRAY)
    for (int32_t i = 0; i < a->array.count; i++) sort_fields(a->array.items[i]);
}

static void sort_attrs(kiln_op *op) {
  for (int32_t i = 0; i < op->num_attrs; i++)
    for (size_t k = 0; k < sizeof k_spelled_defaults / sizeof k_spelled_defaults[0]; k++) {
      char v[256];
      kiln_attr_to_string(op->attrs[i].value, v, sizeof v);
      if ((op->kind == k_spelled_defaults[k].op || k_spelled_defaults[k].op == KILN_OP_COUNT) && !strcmp(op->attrs[i].name, k_spelled_defaults[k].attr) && !strcmp(v, k_spelled_defaults[k].value))
        op->attrs[i--] = op->attrs[--op->num_attrs];
    }
  qsort(op->attrs, (size_t)op->num_attrs, sizeof *op->attrs, by_name);
  for (int32_t i = 0; i < op->num_attrs; i++) sort_fields(op->attrs[i].value);
  for (int32_t i = 0; i < op->num_regions; i++)
    for (kiln_block *b = op->regions[i].first; b; b = b->next)
      for (kiln_op *o = b->first; o; o = o->next) sort_attrs(o);
}

static kiln_status print_sorted(kiln_module *m, char **out) {
  sort_attrs(m->op);
  return kiln_print_module(m, out, NULL);
}

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
  if (!st) st = print_sorted(mb, &pb);
  if (!st) st = print_sorted(mt, &pt);
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
  int passed = 0, failed = 0, gaps = 0;
  for (size_t i = 0; i < n; i++) {
    const char *base = strrchr(files[i], '/') + 1;
    bool gap = false;
    for (const char *const *g = k_known_gaps; *g; g++) gap |= !strcmp(*g, base);
    if (check(files[i])) passed++;
    else if (gap) gaps++, printf("  (a known gap)\n");
    else failed++;
  }
  test_files_free(files, n);
  printf("%d known gaps\n%d passed, %d failed\n", gaps, passed, failed);
  return failed ? 1 : 0;
}
