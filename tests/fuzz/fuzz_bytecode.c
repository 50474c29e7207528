/* libFuzzer target for the bytecode reader (src/bytecode). The input bytes are one
 * artifact. Reading must either fail with an error naming the input
 * ("<input>: byte N: ..." or a verifier error) and return no module, or succeed with a
 * module that prints. A violated property calls abort(), which is how a fuzz target
 * reports a finding. Everything is freed, so LeakSanitizer findings are real leaks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode/bytecode.h"
#include "ir/ir.h"

#define FUZZ_NAME "<input>"

static void finding(const char *what, kiln_status st) {
  fprintf(stderr, "fuzz_bytecode: %s\n%s\n", what, st ? kiln_status_message(st) : "");
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln_module *m = NULL;
  kiln_status st = kiln_bytecode_read(data, size, FUZZ_NAME, &m);
  if (st) {
    if (m) finding("a failed read returned a module", st);
    if (!strstr(kiln_status_message(st), FUZZ_NAME)) finding("an error does not name the input", st);
    kiln_status_free(st);
    return 0;
  }
  char *text = NULL;
  size_t len = 0;
  if ((st = kiln_print_module(m, &text, &len))) finding("printing a module read from bytecode failed", st);
  if (!text || strlen(text) != len) finding("kiln_print_module's length is not the text's", NULL);
  free(text);
  kiln_module_destroy(m);
  return 0;
}
