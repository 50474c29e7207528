#include "support/roundtrip.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "parse/parse.h"

static kiln_status parse_print(const kiln_source *src, char **out_text) {
  kiln_module *m;
  kiln_status st = kiln_parse_module(src, &m);
  if (!st) st = kiln_verify_module(m, src);
  if (!st) st = kiln_print_module(m, out_text, NULL);
  kiln_module_destroy(m);
  return st;
}

kiln_status kiln_test_roundtrip(const kiln_source *src, bool *out_parsed) {
  char *first = NULL, *second = NULL;
  *out_parsed = false;
  kiln_status st = parse_print(src, &first);
  if (st) return st;
  *out_parsed = true;
  kiln_source again = kiln_source_view("<printed>", first, strlen(first), 1);
  st = parse_print(&again, &second);
  if (!st && strcmp(first, second) != 0) {
    size_t i = 0;
    while (first[i] && first[i] == second[i]) i++;
    uint32_t line, col;
    kiln_source_line_col(&again, i, &line, &col);
    st = KILN_STATUS(KILN_STATUS_INTERNAL, "%s: printing is not a fixed point: first difference at printed line %u",
                     src->name, line);
  } else if (st) {
    kiln_status wrapped = KILN_STATUS(KILN_STATUS_INTERNAL, "%s: the printed text does not parse back: %s", src->name,
                                      kiln_status_message(st));
    kiln_status_free(st);
    st = wrapped;
  }
  free(first);
  free(second);
  return st;
}

typedef struct piece_ctx {
  bool all_parsed;
} piece_ctx;

static kiln_status check_piece(const kiln_source *piece, void *user) {
  piece_ctx *ctx = user;
  bool parsed;
  kiln_status st = kiln_test_roundtrip(piece, &parsed);
  ctx->all_parsed &= parsed;
  return st;
}

kiln_status kiln_test_roundtrip_file(const char *path, bool *out_parsed) {
  kiln_source src;
  *out_parsed = false;
  kiln_status st = kiln_source_read(path, &src);
  if (st) return st;
  piece_ctx ctx = {true};
  st = kiln_source_split(&src, check_piece, &ctx);
  *out_parsed = ctx.all_parsed;
  kiln_source_free(&src);
  return st;
}
