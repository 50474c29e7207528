/* kiln devices [--device LIST] [--config FILE]: every plugin found, whether it can run
 * here and why not, and which device the list (or the default) would choose. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "kiln/kiln.h"
#include "select.h"

static void print_report(const kiln_plugin_report *r) {
  if (r->code == KILN_STATUS_OK) printf("  %-10s ok        %s\n", r->name, r->description);
  else printf("  %-10s %-9s %s\n", r->name, "no", r->reason);
  if (r->path[0]) printf("  %-10s           %s\n", "", r->path);
}

int kiln_cmd_devices(int argc, char **argv) {
  kiln_cli_devices d = {0};
  bool bad = false;
  for (int i = 1; i < argc && !bad; i++) {
    if (kiln_cli_device_option("devices", argc, argv, &i, &d, &bad)) continue;
    fprintf(stderr, "kiln devices: unknown argument '%s'\n", argv[i]);
    bad = true;
  }
  if (bad) return 1;
  kiln_client_options o = kiln_cli_options(&d);
  kiln_plugin_list *all = NULL;
  kiln_status st = kiln_plugins_scan(&o, &all);
  if (st) {
    fprintf(stderr, "kiln devices: %s\n", kiln_status_message(st));
    kiln_status_free(st);
    return 1;
  }
  printf("plugins found:\n");
  for (int32_t i = 0; i < kiln_plugin_list_count(all); i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    kiln_status_free(kiln_plugin_list_get(all, i, &r));
    print_report(&r);
  }
  if (!kiln_plugin_list_count(all)) printf("  (none)\n");
  kiln_plugin_list_free(all);

  kiln_client *c = NULL;
  st = kiln_client_create(&o, &c);
  printf("\nselection:\n");
  const kiln_plugin_list *sel = kiln_client_selection(c);
  for (int32_t i = 0; i < kiln_plugin_list_count(sel); i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    kiln_status_free(kiln_plugin_list_get(sel, i, &r));
    if (r.code != KILN_STATUS_OK) printf("  %s passed over: %s\n", r.name, r.reason);
  }
  if (st) printf("  no device can be used: %s\n", kiln_status_message(st));
  for (int32_t i = 0; i < kiln_client_device_count(c); i++)
    printf("  %s %s: %s\n", i ? "also" : "uses", kiln_device_name(kiln_client_device(c, i)),
           kiln_device_description(kiln_client_device(c, i)));
  int rc = st ? 1 : 0;
  kiln_status_free(st);
  kiln_client_release(c);
  return rc;
}
