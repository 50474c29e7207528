/* The runtime's config file (format in include/kiln/kiln.h, kiln_client_options):
 *
 *   # comment
 *   devices = cuda,cpu,interp
 *   plugin_path = /opt/kiln/plugins
 *   plugin_path = plugins          # relative: from the config file's folder
 *
 * Thread-safe (reads the file, shares nothing). */
#ifndef KILN_RUNTIME_CONFIG_H
#define KILN_RUNTIME_CONFIG_H

#include <stdint.h>

#include "kiln/status.h"

typedef struct kiln_config {
  char *devices;       /* NULL when the file has no `devices` line */
  char **plugin_paths; /* absolute, or relative to the current folder when the config's was */
  int32_t num_plugin_paths;
} kiln_config;

/* Reads a config file. A missing file is NOT_FOUND; a malformed line INVALID_ARGUMENT
 * "FILE:LINE: ...". On failure *out_config is empty. */
kiln_status kiln_config_read(const char *path, kiln_config *out_config);
void kiln_config_free(kiln_config *config);

#endif
