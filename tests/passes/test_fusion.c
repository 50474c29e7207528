/* The fusion pass (src/passes/fusion.c) on each case of the files given: the ops it stores
 * (the roots of its loop nests, in block order, by name without the dialect) must be the
 * case's `// stored:` line. The classes: reductions and windows at the root of a nest
 * (REDUCE); ops whose operands have the result's size, broadcasts, products, reshapes and
 * transposes element by element (LOOP); anything else (constants, iotas) a boundary. The
 * values of the same cases are checked on cpu and on the interpreter by `kiln check`. */
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "passes/fusion.h"
#include "support/expect.h"
#include "support/files.h"

static int64_t elements(const kiln_type *t) { return kiln_type_is_tensor(t) ? t->tensor.num_elements : -1; }

static kiln_fuse_class classify(const kiln_op *op, void *user) {
  (void)user;
  if (op->num_results != 1) return KILN_FUSE_NONE;
  switch (op->kind) {
    case KILN_OP_CONSTANT:
    case KILN_OP_IOTA: return KILN_FUSE_NONE;
    case KILN_OP_REDUCE:
    case KILN_OP_REDUCE_WINDOW: return KILN_FUSE_REDUCE;
    case KILN_OP_BROADCAST_IN_DIM:
    case KILN_OP_DOT_GENERAL:
    case KILN_OP_RESHAPE:
    case KILN_OP_TRANSPOSE: return KILN_FUSE_LOOP;
    default:
      for (int32_t k = 0; k < op->num_operands; k++)
        if (elements(op->operands[k]->type) != elements(op->results[0].type)) return KILN_FUSE_NONE;
      return KILN_FUSE_LOOP;
  }
}

static kiln_status check_case(const kiln_source *piece, void *user) {
  (void)user;
  static const char mark[] = "// stored: ";
  size_t n = strlen(mark), at = 0;
  while (at + n < piece->len && memcmp(piece->text + at, mark, n)) at++;
  if (at + n >= piece->len) return NULL; /* the file's header */
  size_t end = at + n;
  while (end < piece->len && piece->text[end] != '\n') end++;
  kiln_module *m = NULL;
  kiln_status st = kiln_parse_module(piece, &m);
  if (!st) st = kiln_verify_module(m, piece);
  const kiln_block *body = st ? NULL : kiln_op_block(kiln_op_block(m->op, 0)->first, 0);
  kiln_fusion f = {0};
  if (body) st = kiln_fusion_run(body, classify, NULL, &f);
  char stored[512] = "";
  for (int32_t i = 0; !st && i < f.num_ops; i++) {
    if (!f.materialized[i] || (f.cls[i] != KILN_FUSE_LOOP && f.cls[i] != KILN_FUSE_REDUCE)) continue;
    const char *name = kiln_op_name(f.ops[i]->kind), *dot = strchr(name, '.');
    size_t used = strlen(stored);
    snprintf(stored + used, sizeof stored - used, "%s%s", used ? " " : "", dot ? dot + 1 : name);
  }
  int want_len = (int)(end - at - n);
  EXPECT(!st && (int)strlen(stored) == want_len && !memcmp(stored, piece->text + at + n, (size_t)want_len),
         "%s:%u: stored '%s', expected '%.*s'%s%s", piece->name, piece->first_line, stored, want_len,
         piece->text + at + n, st ? ": " : "", st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  kiln_fusion_free(&f);
  kiln_module_destroy(m);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_fusion FILE...\n");
    return 2;
  }
  g_failed += test_split_files(argv + 1, argc - 1, check_case, NULL);
  return test_summary();
}
