/* Loading one backend plugin.
 *
 * kiln_plugin_open: dlopen (RTLD_NOW | RTLD_LOCAL) the file, look up the one entry
 * symbol, check the table (api_version, struct_size, required entries, name against the
 * file name) and run its probe. Any failure comes back as a status whose message is the
 * reason alone ("built for plugin ABI version 7; this library speaks 1"), with the library
 * unloaded again: nothing a plugin returns can crash the host. (A library whose own
 * constructors crash cannot be guarded against in-process.) Thread-safe. */
#ifndef KILN_RUNTIME_PLUGIN_H
#define KILN_RUNTIME_PLUGIN_H

#include <stdbool.h>

#include "kiln/backend.h"
#include "kiln/kiln.h"

typedef struct kiln_plugin {
  void *handle;        /* from dlopen; NULL when not loaded */
  kiln_backend table;  /* the plugin's table, entries past its struct_size zeroed */
  char *path;
} kiln_plugin;

/* expected_name: the NAME of libkiln-NAME.so, which the table's name must match. */
kiln_status kiln_plugin_open(const char *path, const char *expected_name, kiln_plugin *out_plugin);
void kiln_plugin_close(kiln_plugin *plugin);

/* The plugin file name for NAME ("libkiln-NAME.so") into buf; false when it does not fit
 * or NAME is not a plain name (letters, digits, '_', '-', '.'; no '/'). */
bool kiln_plugin_file_name(const char *name, char *buf, size_t cap);
/* The NAME of a file name "libkiln-NAME.so" into buf; false for any other file name. */
bool kiln_plugin_name_of_file(const char *file_name, char *buf, size_t cap);

#endif
