/* Device selection shared by the commands that run programs: the --device LIST and
 * --config FILE options, and the client made from them. */
#ifndef KILN_TOOLS_SELECT_H
#define KILN_TOOLS_SELECT_H

#include <stdbool.h>

#include "kiln/kiln.h"

typedef struct kiln_cli_devices {
  const char *devices; /* --device LIST, or NULL */
  const char *config;  /* --config FILE, or NULL */
  int32_t num_devices; /* --num-devices N, or 0 */
} kiln_cli_devices;

#define KILN_CLI_DEVICE_USAGE "[--device LIST] [--config FILE] [--num-devices N]"
#define KILN_CLI_DEVICE_HELP                                                                  \
  "  --device LIST     devices to try in order, e.g. cuda,cpu,interp: the first plugin that\n" \
  "                    loads and can run here is used (KILN_DEVICE overrides; default: " KILN_DEFAULT_DEVICES ")\n" \
  "  --config FILE     a Kiln config file (`devices = LIST`, `plugin_path = DIR`)\n" \
  "  --num-devices N   open N devices of the plugin (cpu: the cores shared out; default:\n" \
  "                    KILN_CPU_DEVICES, else 1); programs run on the first\n"

/* If argv[*i] is --device, --config or --num-devices, takes its value (advancing *i) and
 * returns true. A missing or bad value is reported on stderr and sets *bad. */
bool kiln_cli_device_option(const char *command, int argc, char **argv, int *i, kiln_cli_devices *d, bool *bad);

/* Creates the client; prints to stderr each plugin passed over with its reason and, when
 * one was, the device chosen instead. Errors are printed too. */
kiln_client *kiln_cli_client(const char *command, const kiln_cli_devices *d);

/* The options a kiln_cli_devices stands for (for kiln_plugins_scan). */
kiln_client_options kiln_cli_options(const kiln_cli_devices *d);

#endif
