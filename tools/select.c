/* The CLI's device selection (see select.h). */
#include "select.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool kiln_cli_device_option(const char *command, int argc, char **argv, int *i, kiln_cli_devices *d, bool *bad) {
  const char *a = argv[*i];
  bool device = !strcmp(a, "--device"), config = !strcmp(a, "--config"), count = !strcmp(a, "--num-devices");
  if (!device && !config && !count) return false;
  if (*i + 1 >= argc) {
    fprintf(stderr, "kiln %s: %s needs a value\n", command, a);
    *bad = true;
    return true;
  }
  const char *v = argv[++*i];
  if (!count) {
    *(device ? &d->devices : &d->config) = v;
    return true;
  }
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || end == v || *end || n < 1 || n > INT32_MAX) {
    fprintf(stderr, "kiln %s: --num-devices %s: expected a device count of 1 or more\n", command, v);
    *bad = true;
  } else d->num_devices = (int32_t)n;
  return true;
}

kiln_client_options kiln_cli_options(const kiln_cli_devices *d) {
  return (kiln_client_options){.struct_size = sizeof(kiln_client_options), .devices = d->devices, .config_file = d->config,
                               .num_devices = d->num_devices};
}

kiln_client *kiln_cli_client(const char *command, const kiln_cli_devices *d) {
  kiln_client_options o = kiln_cli_options(d);
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  if (st) {
    fprintf(stderr, "kiln %s: %s\n", command, kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  const kiln_plugin_list *sel = kiln_client_selection(c);
  int32_t n = kiln_plugin_list_count(sel);
  for (int32_t i = 0; i < n; i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    kiln_status_free(kiln_plugin_list_get(sel, i, &r));
    if (r.code != KILN_STATUS_OK) fprintf(stderr, "kiln %s: %s passed over: %s\n", command, r.name, r.reason);
  }
  if (n > 1) fprintf(stderr, "kiln %s: running on %s\n", command, kiln_device_name(kiln_client_device(c, 0)));
  return c;
}
