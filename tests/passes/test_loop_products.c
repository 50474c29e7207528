/* The loop-invariant products pass (src/passes/loop_products.c) on each case of the files
 * given: the case's function, inlined (calls in regions too, as the cpu backend plans
 * it), must have as many products hoisted as its `// hoisted: N` line says, and the
 * rewritten function must verify (types and shapes of the ops the pass made). The
 * results of the same cases are checked on cpu and on the interpreter by `kiln check`. */
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "passes/inline.h"
#include "passes/loop_products.h"
#include "support/files.h"
#include "support/expect.h"

static kiln_status check_case(const kiln_source *piece, void *user) {
  (void)user;
  static const char mark[] = "// hoisted: ";
  size_t n = sizeof mark - 1, at = 0;
  while (at + n < piece->len && memcmp(piece->text + at, mark, n)) at++;
  if (at + n >= piece->len) return NULL; /* the file's header */
  int expected = atoi(piece->text + at + n);
  kiln_module *m = NULL, *scratch = kiln_module_create("scratch");
  kiln_status st = scratch ? kiln_parse_module(piece, &m) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_verify_module(m, piece);
  if (!st) kiln_module_number_values(m); /* as the runtime does when it takes a program */
  const kiln_block *top = st ? NULL : kiln_op_block(m->op, 0);
  kiln_op *f = NULL;
  int32_t inlined = 0, hoisted = -1;
  if (top) st = kiln_inline_calls_everywhere(m, top->first, scratch, &f, &inlined);
  if (!st) st = kiln_hoist_loop_products(scratch, f, &hoisted);
  if (!st) {
    kiln_func_number_values(f);
    st = kiln_verify_module(scratch, NULL);
  }
  EXPECT(!st && hoisted == expected, "%s:%u: %d products hoisted, expected %d%s%s", piece->name, piece->first_line,
         (int)hoisted, expected, st ? ": " : "", st ? kiln_status_message(st) : "");
  if (st && scratch) {
    char *text = NULL;
    kiln_status pst = kiln_print_module(scratch, &text, NULL);
    if (!pst) printf("%s\n", text);
    kiln_status_free(pst);
    free(text);
  }
  kiln_status_free(st);
  kiln_module_destroy(m);
  kiln_module_destroy(scratch);
  return NULL;
}

int main(int argc, char **argv) {
  g_failed += test_split_files(argv + 1, argc - 1, check_case, NULL);
  return test_summary();
}
