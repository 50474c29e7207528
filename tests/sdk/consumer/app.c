/* An application built with find_package(kiln): runs a program on the plugin built beside
 * it (opcount, whose compile describes the function it was given) and on interp from the
 * installed plugin folder, choosing each through the client options.
 * usage: app MODEL.mlir */
#include <kiln/kiln.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char g_text[1 << 20];

static int run_on(const char *devices, const char *plugin_dir, const char *text, const char *name) {
  const char *dirs[1] = {plugin_dir};
  kiln_client_options o = {.struct_size = sizeof o, .devices = devices, .plugin_paths = dirs,
                           .num_plugin_paths = 1, .flags = KILN_CLIENT_IGNORE_ENV};
  kiln_program_options po = {.struct_size = sizeof po, .name = name};
  kiln_client *c = NULL;
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  if (!st) st = kiln_program_create(text, strlen(text), &po, &p);
  if (!st) printf("%s: %s\n", devices, kiln_device_name(kiln_client_device(c, 0)));
  if (!st) st = kiln_program_compile(p, kiln_client_device(c, 0), NULL, &x);
  printf("%s: %s\n", devices, st ? kiln_status_message(st) : "compiled");
  int rc = st && kiln_status_code_of(st) != KILN_STATUS_UNIMPLEMENTED;
  kiln_status_free(st);
  kiln_executable_release(x);
  kiln_program_release(p);
  kiln_client_release(c);
  return rc;
}

int main(int argc, char **argv) {
  FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
  size_t n = f ? fread(g_text, 1, sizeof g_text - 1, f) : 0;
  if (f) fclose(f);
  if (!n) return fprintf(stderr, "usage: app MODEL.mlir\n"), 2;
  printf("kiln %s, headers %s\n", kiln_version(), KILN_VERSION_STRING);
  return run_on("opcount", APP_PLUGIN_DIR, g_text, argv[1]) | run_on("interp", KILN_PLUGIN_DIR, g_text, argv[1]);
}
