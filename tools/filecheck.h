/* A small FileCheck for the conformance material's RUN lines: the `CHECK:`,
 * `CHECK-LABEL:` and `CHECK-NEXT:` directives (with an optional `{LITERAL}` modifier) of
 * the default prefix, matched as literal substrings with runs of blanks compared as one
 * blank. Patterns with FileCheck regexes or variables ({{...}}, [[...]] without
 * {LITERAL}) are reported as unsupported rather than guessed. */
#ifndef KILN_TOOLS_FILECHECK_H
#define KILN_TOOLS_FILECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

/* Whether text (a test's source) has any directive of the default prefix. */
bool kiln_filecheck_has_directives(const char *text, size_t len);
/* Checks output against the directives in text. Returns true when they all match;
 * otherwise appends one line saying which directive failed to why. */
bool kiln_filecheck(const char *text, size_t len, const char *output, const char *name, unsigned first_line,
                    kiln_strbuf *why);

#endif
