/* kiln_plugin_list (the public report type of include/kiln/kiln.h): building one. A list
 * is filled by one thread, then only read (reads are thread-safe). */
#ifndef KILN_RUNTIME_PLUGIN_LIST_H
#define KILN_RUNTIME_PLUGIN_LIST_H

#include <stdbool.h>

#include "kiln/kiln.h"

kiln_plugin_list *kiln_plugin_list_new(void);
/* Appends an entry (strings copied; NULL reads as ""); false when memory is exhausted. */
bool kiln_plugin_list_add(kiln_plugin_list *list, const char *name, const char *path, kiln_status_code code,
                          const char *reason, const char *description);
/* "name: reason" lines of the entries that are not OK, joined with "; ". malloc'ed. */
char *kiln_plugin_list_reasons(const kiln_plugin_list *list);

#endif
