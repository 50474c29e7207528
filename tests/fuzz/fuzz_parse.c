/* libFuzzer target for the MLIR text front end.
 *
 * The input bytes are one file: it is split at `// -----` lines like `kiln print` does and
 * every piece is checked on its own:
 *   - parsing must either fail with a located error ("<input>:LINE:COL: error: ...") or
 *     succeed;
 *   - a parsed module is printed without verification (the `kiln print --no-verify`
 *     path); the text must parse back (without verification) and print the same;
 *   - a module that verifies must round-trip: print, parse and verify the printed text,
 *     print again, and the two prints must be equal (tests/support/roundtrip.c);
 *   - the partitioner (src/spmd) on a verified module's @main, over its
 *     mhlo.num_partitions (at most 64): either a located error, or a per-device program
 *     that verifies.
 * A violated property calls abort(), which is how a fuzz target reports a finding.
 * Everything is freed, so LeakSanitizer findings are real leaks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "spmd/spmd.h"
#include "support/roundtrip.h"

#define FUZZ_NAME "<input>"

static void finding(const char *what, kiln_status st) {
  fprintf(stderr, "fuzz_parse: %s\n%s\n", what, st ? kiln_status_message(st) : "");
  abort();
}

/* "<input>:LINE:COL: error: " at the start of the message. */
static bool located(const char *msg) {
  size_t n = strlen(FUZZ_NAME);
  if (strncmp(msg, FUZZ_NAME ":", n + 1)) return false;
  const char *p = msg + n + 1;
  for (int k = 0; k < 2; k++) {
    if (*p < '1' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') p++;
    if (*p++ != ':') return false;
  }
  return !strncmp(p, " error: ", 8);
}

/* The partitioner on a verified module (the `kiln print --partitioned` path). */
static void check_partition(const kiln_source *piece) {
  kiln_module *m = NULL;
  kiln_status st = kiln_parse_module(piece, &m);
  if (!st) st = kiln_verify_module(m, piece);
  kiln_op *main_fn = st ? NULL : kiln_module_lookup_func(m, "main");
  const kiln_attr *a = m ? kiln_op_attr(m->op, "mhlo.num_partitions") : NULL;
  int64_t n = a && a->kind == KILN_ATTR_INT ? kiln_attr_int(a) : 1;
  kiln_arena *arena = main_fn && n >= 1 && n <= 64 ? kiln_arena_create(0) : NULL;
  kiln_status_free(st);
  if (arena) {
    kiln_spmd_plan plan;
    st = kiln_spmd_partition(m, main_fn, (int32_t)n, arena, &plan);
    if (st && !located(kiln_status_message(st))) finding("a partitioner error is not located", st);
    if (!st && (st = kiln_verify_module(m, piece))) finding("the per-device program does not verify", st);
    kiln_status_free(st);
    kiln_arena_destroy(arena);
  }
  kiln_module_destroy(m);
}

static kiln_status check_piece(const kiln_source *piece, void *user) {
  (void)user;
  kiln_module *m = NULL;
  kiln_status st = kiln_parse_module(piece, &m);
  if (st) {
    if (m) finding("a failed parse returned a module", st);
    if (!located(kiln_status_message(st))) finding("a parse error is not located", st);
    kiln_status_free(st);
    return NULL;
  }
  char *text = NULL, *again = NULL;
  size_t len = 0;
  st = kiln_print_module(m, &text, &len);
  if (st) finding("printing a parsed (unverified) module failed", st);
  if (!text || strlen(text) != len) finding("kiln_print_module's length is not the text's", NULL);
  kiln_module_destroy(m);
  /* what `kiln print --no-verify` writes must read back to the same text */
  kiln_source printed = kiln_source_view("<printed>", text, len, 1);
  st = kiln_parse_module(&printed, &m);
  if (st) finding("the printed (unverified) module does not parse back", st);
  st = kiln_print_module(m, &again, NULL);
  if (st) finding("printing the re-parsed (unverified) module failed", st);
  if (strcmp(text, again)) {
    fprintf(stderr, "first print:\n%s\nsecond print:\n%s\n", text, again);
    finding("printing an unverified module is not a fixed point", NULL);
  }
  kiln_module_destroy(m);
  free(text);
  free(again);

  bool parsed;
  st = kiln_test_roundtrip(piece, &parsed);
  if (st) {
    if (parsed) finding("a verified module does not round-trip", st);
    if (!located(kiln_status_message(st))) finding("a verifier error is not located", st);
    kiln_status_free(st);
    return NULL;
  }
  check_partition(piece);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln_source src = kiln_source_view(FUZZ_NAME, (const char *)data, size, 1);
  kiln_status st = kiln_source_split(&src, check_piece, NULL);
  kiln_status_free(st);
  return 0;
}
