/* Test support: the parse -> verify -> print -> parse -> verify -> print check that the
 * conformance test, the regression replay and the fuzz target share. */
#ifndef KILN_TESTS_ROUNDTRIP_H
#define KILN_TESTS_ROUNDTRIP_H

#include <stdbool.h>

#include "base/source.h"

/* Checks one module's text. Returns NULL when it parses, verifies and prints back to a
 * fixed point; otherwise the first error (the caller frees it). *out_parsed says whether
 * the first parse and verification succeeded (so a failure is a round-trip bug). */
kiln_status kiln_test_roundtrip(const kiln_source *src, bool *out_parsed);

/* Runs kiln_test_roundtrip on every `// -----` piece of a file. */
kiln_status kiln_test_roundtrip_file(const char *path, bool *out_parsed);

#endif
