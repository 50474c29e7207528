/* Plugin discovery, robust loading and selection with fallback, through the public API.
 * usage: test_runtime_select TEST_PLUGIN_DIR
 * The folder holds broken plugins: libkiln-badabi.so (wrong ABI version), libkiln-noentry.so
 * (no entry symbol), libkiln-notalib.so (a text file), libkiln-probefail.so (probe fails),
 * libkiln-misnamed.so (its table names another plugin); libkiln-counting.so and
 * libkiln-countingold.so (working, for test_cache.c) load fine. interp and null come from
 * kiln-plugins/ next to libkiln.so. */
#define _GNU_SOURCE /* setenv, mkdtemp, realpath, symlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/expect.h"
#include "kiln/kiln.h"

static const char *g_dir;


static kiln_client_options options(const char *devices) {
  static const char *dirs[1];
  dirs[0] = g_dir;
  return (kiln_client_options){.struct_size = sizeof(kiln_client_options), .devices = devices, .plugin_paths = dirs,
                               .num_plugin_paths = 1, .flags = KILN_CLIENT_IGNORE_ENV};
}

/* The report of plugin `name` in a list, or a zeroed one. */
static kiln_plugin_report report_of(const kiln_plugin_list *l, const char *name) {
  for (int32_t i = 0; i < kiln_plugin_list_count(l); i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    kiln_status st = kiln_plugin_list_get(l, i, &r);
    kiln_status_free(st);
    if (!st && !strcmp(r.name, name)) return r;
  }
  return (kiln_plugin_report){.struct_size = 0};
}

/* A list naming one broken plugin alone fails with a message that gives its reason. */
static void expect_refused(const char *name, const char *reason) {
  kiln_client_options o = options(name);
  kiln_client *c = (kiln_client *)1;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(st && c == NULL, "%s: a client was made", name);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_UNAVAILABLE, "%s: code %s", name,
         kiln_status_code_name(kiln_status_code_of(st)));
  EXPECT(strstr(kiln_status_message(st), name) && strstr(kiln_status_message(st), reason),
         "%s: message '%s' lacks '%s'", name, kiln_status_message(st), reason);
  kiln_status_free(st);
}

static void test_each_broken_plugin(void) {
  expect_refused("badabi", "built for plugin ABI version 999");
  expect_refused("noentry", "does not export kiln_backend_entry_v1");
  expect_refused("notalib", "cannot be loaded");
  expect_refused("probefail", "no CUDA driver found");
  expect_refused("misnamed", "calls itself 'probefail', not 'misnamed'");
}

static void test_moves_on(void) {
  kiln_client_options o = options("badabi,noentry,notalib,probefail,misnamed,cuda,interp");
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(!st, "fallback past every broken plugin failed: %s", kiln_status_message(st));
  kiln_status_free(st);
  EXPECT(c && !strcmp(kiln_client_plugin_name(c), "interp"), "selected %s", kiln_client_plugin_name(c));
  const kiln_plugin_list *sel = kiln_client_selection(c);
  EXPECT(kiln_plugin_list_count(sel) == 7, "%d reports", (int)kiln_plugin_list_count(sel));
  const char *names[] = {"badabi", "noentry", "notalib", "probefail", "misnamed", "cuda"};
  for (int i = 0; i < 6; i++) {
    kiln_plugin_report r = report_of(sel, names[i]);
    EXPECT(r.struct_size && r.code != KILN_STATUS_OK && r.reason[0], "%s: not reported as passed over", names[i]);
  }
  kiln_plugin_report cuda = report_of(sel, "cuda");
  EXPECT(cuda.struct_size && cuda.code == KILN_STATUS_NOT_FOUND && strstr(cuda.reason, "no plugin found"),
         "cuda: %s", cuda.struct_size ? cuda.reason : "(missing)");
  kiln_plugin_report interp = report_of(sel, "interp");
  EXPECT(interp.struct_size && interp.code == KILN_STATUS_OK && strstr(interp.path, "libkiln-interp.so"),
         "interp not reported as chosen");
  EXPECT(kiln_client_device_count(c) == 1 && !strcmp(kiln_device_name(kiln_client_device(c, 0)), "interp:0"),
         "devices of interp");
  EXPECT(kiln_client_device(c, 1) == NULL && kiln_client_device(c, -1) == NULL, "device index out of range");
  kiln_client_release(c);
}

static const char *selected(const char *devices, uint32_t flags) {
  static char name[64];
  kiln_client_options o = options(devices);
  o.flags = flags;
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  snprintf(name, sizeof name, "%s", st ? "(error)" : kiln_client_plugin_name(c));
  kiln_status_free(st);
  kiln_client_release(c);
  return name;
}

static void test_order(void) {
  EXPECT(!strcmp(selected("null,interp", KILN_CLIENT_IGNORE_ENV), "null"), "null,interp chose %s", selected("null,interp", 1));
  EXPECT(!strcmp(selected("interp,null", KILN_CLIENT_IGNORE_ENV), "interp"), "interp,null");
  EXPECT(!strcmp(selected(" cuda , null ", KILN_CLIENT_IGNORE_ENV), "null"), "spaces in the list");
  EXPECT(!strcmp(selected("cuda,interp", KILN_CLIENT_IGNORE_ENV), "interp"), "cuda,interp");
  EXPECT(!strcmp(selected(NULL, KILN_CLIENT_IGNORE_ENV), KILN_TEST_DEFAULT_DEVICE), "the default list");
  setenv("KILN_DEVICE", "null", 1);
  EXPECT(!strcmp(selected("interp", 0), "null"), "KILN_DEVICE overrides the options");
  EXPECT(!strcmp(selected("interp", KILN_CLIENT_IGNORE_ENV), "interp"), "KILN_CLIENT_IGNORE_ENV");
  unsetenv("KILN_DEVICE");
  EXPECT(!strcmp(selected("interp", 0), "interp"), "without KILN_DEVICE");
}

static void test_nothing_usable(void) {
  kiln_client_options o = options("cuda,rocm");
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_NOT_FOUND && strstr(kiln_status_message(st), "cuda: no plugin found") &&
             strstr(kiln_status_message(st), "rocm: no plugin found"),
         "cuda,rocm: %s", kiln_status_message(st));
  kiln_status_free(st);
  o = options("../etc/passwd");
  st = kiln_client_create(&o, &c);
  EXPECT(st && strstr(kiln_status_message(st), "not a plugin name"), "path as a name: %s", kiln_status_message(st));
  kiln_status_free(st);
}

static void test_bad_arguments(void) {
  kiln_client_options o = {.struct_size = 0};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT, "struct_size 0");
  kiln_status_free(st);
  st = kiln_client_create(NULL, NULL);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT, "NULL out_client");
  kiln_status_free(st);
  st = kiln_client_create(NULL, &c); /* all defaults: the default list */
  EXPECT(!st && c, "NULL options: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_client_release(c);
  kiln_client_release(NULL);
  EXPECT(kiln_client_device_count(NULL) == 0 && kiln_client_device(NULL, 0) == NULL, "NULL client queries");
  kiln_plugin_report r = {.struct_size = sizeof r};
  st = kiln_plugin_list_get(NULL, 0, &r);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_OUT_OF_RANGE, "list_get on NULL");
  kiln_status_free(st);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_config_file(void) {
  char dir[] = "/tmp/kiln-config-XXXXXX";
  if (!mkdtemp(dir)) {
    EXPECT(0, "mkdtemp failed");
    return;
  }
  char path[256], text[1024];
  snprintf(path, sizeof path, "%s/kiln.conf", dir);
  snprintf(text, sizeof text, "# a release's choice\n\ndevices = probefail, null   # best first\nplugin_path = %s\n", g_dir);
  write_file(path, text);
  kiln_client_options o = {.struct_size = sizeof o, .config_file = path, .flags = KILN_CLIENT_IGNORE_ENV};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(!st && !strcmp(kiln_client_plugin_name(c), "null"), "config: %s", st ? kiln_status_message(st) : kiln_client_plugin_name(c));
  EXPECT(c && report_of(kiln_client_selection(c), "probefail").code == KILN_STATUS_UNAVAILABLE, "config: probefail reported");
  kiln_status_free(st);
  kiln_client_release(c);
  c = NULL;
  o.devices = "interp"; /* the options' list comes before the config's */
  st = kiln_client_create(&o, &c);
  EXPECT(!st && !strcmp(kiln_client_plugin_name(c), "interp"), "options before config");
  kiln_status_free(st);
  kiln_client_release(c);
  c = NULL;

  write_file(path, "devices = interp\ncolour = blue\n");
  o.devices = NULL;
  st = kiln_client_create(&o, &c);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && strstr(kiln_status_message(st), "kiln.conf:2: unknown key 'colour'"),
         "bad config: %s", kiln_status_message(st));
  kiln_status_free(st);
  write_file(path, "plugins\n");
  st = kiln_client_create(&o, &c);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && strstr(kiln_status_message(st), "kiln.conf:1: expected"),
         "malformed config: %s", kiln_status_message(st));
  kiln_status_free(st);
  /* a relative plugin_path is taken from the config file's folder */
  char link[300];
  snprintf(link, sizeof link, "%s/plugins", dir);
  EXPECT(symlink(g_dir, link) == 0, "symlink");
  write_file(path, "devices = probefail,interp\nplugin_path = plugins\n");
  st = kiln_client_create(&o, &c);
  kiln_plugin_report r = c ? report_of(kiln_client_selection(c), "probefail") : (kiln_plugin_report){0};
  EXPECT(!st && r.struct_size && strstr(r.reason, "no CUDA driver found"), "relative plugin_path: %s",
         st ? kiln_status_message(st) : r.reason);
  kiln_status_free(st);
  kiln_client_release(c);
  unlink(link);
  unlink(path);
  rmdir(dir);

  o.config_file = "/nonexistent/kiln.conf";
  st = kiln_client_create(&o, &c);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_NOT_FOUND, "missing config: %s", kiln_status_message(st));
  kiln_status_free(st);
}

static void test_scan(void) {
  kiln_client_options o = options(NULL);
  kiln_plugin_list *l = NULL;
  kiln_status st = kiln_plugins_scan(&o, &l);
  EXPECT(!st && l, "scan: %s", kiln_status_message(st));
  kiln_status_free(st);
  const struct {
    const char *name;
    kiln_status_code code;
  } want[] = {{"interp", KILN_STATUS_OK},
              {"null", KILN_STATUS_OK},
              {"badabi", KILN_STATUS_FAILED_PRECONDITION},
              {"noentry", KILN_STATUS_FAILED_PRECONDITION},
              {"notalib", KILN_STATUS_FAILED_PRECONDITION},
              {"probefail", KILN_STATUS_UNAVAILABLE},
              {"misnamed", KILN_STATUS_FAILED_PRECONDITION},
              {"counting", KILN_STATUS_OK},
              {"countingold", KILN_STATUS_OK}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    kiln_plugin_report r = report_of(l, want[i].name);
    EXPECT(r.struct_size && r.code == want[i].code, "scan: %s has %s (%s)", want[i].name,
           kiln_status_code_name(r.code), r.struct_size ? r.reason : "missing");
  }
  EXPECT(kiln_plugin_list_count(l) == 7 + KILN_TEST_BUILT_PLUGINS, "scan found %d plugins", (int)kiln_plugin_list_count(l));
  kiln_plugin_list_free(l);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_runtime_select TEST_PLUGIN_DIR\n");
    return 2;
  }
  static char dir[4096]; /* absolute: the config file test writes it into a file elsewhere */
  g_dir = realpath(argv[1], dir) ? dir : argv[1];
  EXPECT(!strcmp(kiln_version(), KILN_VERSION_STRING), "kiln_version() is %s", kiln_version());
  test_each_broken_plugin();
  test_moves_on();
  test_order();
  test_nothing_usable();
  test_bad_arguments();
  test_config_file();
  test_scan();
  return test_summary();
}
