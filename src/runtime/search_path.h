/* Where plugins are looked for: the folders of the client options, then those of the
 * config file, then `kiln-plugins/` next to libkiln.so (found with dladdr from the
 * library's own location, so a relocated install works with nothing set). */
#ifndef KILN_RUNTIME_SEARCH_PATH_H
#define KILN_RUNTIME_SEARCH_PATH_H

#include <stdint.h>

#include "kiln/kiln.h"
#include "runtime/config.h"

typedef struct kiln_search_path {
  char **dirs;
  int32_t count;
} kiln_search_path;

/* options and config may be NULL. */
kiln_status kiln_search_path_init(const kiln_client_options *options, const kiln_config *config,
                                  kiln_search_path *out_path);
void kiln_search_path_free(kiln_search_path *path);

/* The first existing file libkiln-NAME.so in the folders: *out_file is malloc'ed, or NULL
 * when there is none. Fails only on a bad name or when memory is exhausted. */
kiln_status kiln_search_path_find(const kiln_search_path *path, const char *name, char **out_file);
/* The folders as "A, B" (malloc'ed; NULL when memory is exhausted). */
char *kiln_search_path_describe(const kiln_search_path *path);

/* The folder holding libkiln.so itself, without a trailing '/' (static storage; "." when it
 * cannot be found). Thread-safe. */
const char *kiln_runtime_library_dir(void);

#endif
