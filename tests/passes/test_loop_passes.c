/* The rewriting passes of the cpu backend on each case of the files given: `canonicalize
 * FILE...` the algebraic rewrites (src/passes/canonicalize.c), `cse FILE...` common
 * subexpressions merged (src/passes/cse.c), `hoist FILE...` the
 * loop-invariant products (src/passes/loop_products.c), `unroll FILE...` the
 * unrolling of short counted loops (src/passes/unroll_loops.c), `select FILE...` small
 * conditionals made selects (src/passes/select_branches.c). The case's function, inlined
 * (calls in regions too, as the cpu backend plans it), must have as many products hoisted
 * (rewrites made, loops unrolled, conditionals selected) as its `// hoisted: N`
 * (`// rewritten: N`, `// merged: N`, `// unrolled: N`, `// selected: N`) line says, and the rewritten function
 * must verify (types and shapes of the ops the pass made). The results of the same cases
 * are checked on cpu and on the interpreter by `kiln check`. */
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "passes/canonicalize.h"
#include "passes/cse.h"
#include "passes/inline.h"
#include "passes/loop_products.h"
#include "passes/select_branches.h"
#include "passes/unroll_loops.h"
#include "support/files.h"
#include "support/expect.h"

typedef struct loop_pass {
  const char *name, *mark, *done; /* the argument, the count's line, what it counts */
  kiln_status (*run)(kiln_module *m, kiln_op *func, int32_t *out_count);
} loop_pass;

static const loop_pass kPasses[] = {
    {"canonicalize", "// rewritten: ", "rewrites made", kiln_canonicalize},
    {"cse", "// merged: ", "ops merged", kiln_cse},
    {"hoist", "// hoisted: ", "products hoisted", kiln_hoist_loop_products},
    {"unroll", "// unrolled: ", "loops unrolled", kiln_unroll_loops},
    {"select", "// selected: ", "conditionals made selects", kiln_select_branches},
};

static kiln_status check_case(const kiln_source *piece, void *user) {
  const loop_pass *pass = user;
  const char *mark = pass->mark;
  size_t n = strlen(mark), at = 0;
  while (at + n < piece->len && memcmp(piece->text + at, mark, n)) at++;
  if (at + n >= piece->len) return NULL; /* the file's header */
  int expected = atoi(piece->text + at + n);
  kiln_module *m = NULL, *scratch = kiln_module_create("scratch");
  kiln_status st = scratch ? kiln_parse_module(piece, &m) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_verify_module(m, piece);
  if (!st) kiln_module_number_values(m); /* as the runtime does when it takes a program */
  const kiln_block *top = st ? NULL : kiln_op_block(m->op, 0);
  kiln_op *f = NULL;
  int32_t inlined = 0, count = -1;
  if (top) st = kiln_inline_calls_everywhere(m, top->first, scratch, &f, &inlined);
  if (!st) st = pass->run(scratch, f, &count);
  if (!st) {
    kiln_func_number_values(f);
    st = kiln_verify_module(scratch, NULL);
  }
  EXPECT(!st && count == expected, "%s:%u: %d %s, expected %d%s%s", piece->name, piece->first_line, (int)count,
         pass->done, expected, st ? ": " : "", st ? kiln_status_message(st) : "");
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
  const loop_pass *pass = NULL;
  for (size_t i = 0; argc > 1 && i < sizeof kPasses / sizeof kPasses[0]; i++)
    if (!strcmp(argv[1], kPasses[i].name)) pass = &kPasses[i];
  if (!pass) {
    fprintf(stderr, "usage: test_loop_passes canonicalize|cse|hoist|unroll|select FILE...\n");
    return 2;
  }
  g_failed += test_split_files(argv + 2, argc - 2, check_case, (void *)pass);
  return test_summary();
}
