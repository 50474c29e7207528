/* Test support: the files of a folder, sorted by name, as "folder/name" paths. */
#ifndef KILN_TESTS_FILES_H
#define KILN_TESTS_FILES_H

#include <stddef.h>

/* Regular files of dir whose names end with suffix (NULL: any, but README.md and dot
 * files). Returns a malloc'ed array of malloc'ed paths (free with test_files_free), or
 * NULL when the folder cannot be read or memory runs out. */
char **test_files(const char *dir, const char *suffix, size_t *out_count);
void test_files_free(char **paths, size_t count);

#endif
