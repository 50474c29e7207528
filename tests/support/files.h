/* Test support: the files of a folder, sorted by name, as "folder/name" paths; the
 * `// -----` pieces of files. */
#ifndef KILN_TESTS_FILES_H
#define KILN_TESTS_FILES_H

#include <stddef.h>

#include "base/source.h"

/* Regular files of dir whose names end with suffix (NULL: any, but README.md and dot
 * files). Returns a malloc'ed array of malloc'ed paths (free with test_files_free), or
 * NULL when the folder cannot be read or memory runs out. */
char **test_files(const char *dir, const char *suffix, size_t *out_count);
void test_files_free(char **paths, size_t count);

/* Reads each of paths[0..count) and hands its `// -----` pieces to fn
 * (kiln_source_split); prints "FAIL path: message" for a file that cannot be read or
 * whose fn fails. Returns how many files failed. */
int test_split_files(char *const *paths, int count, kiln_source_piece_fn fn, void *user);

#endif
