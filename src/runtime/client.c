/* Clients: the device list, plugin selection with fallback, devices; and plugin scans. */
#define _GNU_SOURCE /* strdup, strndup */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "runtime/plugin_list.h"
#include "runtime/runtime.h"
#include "runtime/search_path.h"

const char *kiln_version(void) { return KILN_VERSION_STRING; }

kiln_status kiln_args_copy(void *local, size_t local_size, const void *src, const char *what) {
  memset(local, 0, local_size);
  if (!src) return NULL;
  size_t n;
  memcpy(&n, src, sizeof n);
  if (n < sizeof(size_t))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: struct_size is %zu; set it to sizeof the struct", what, n);
  memcpy(local, src, n < local_size ? n : local_size);
  return NULL;
}

/* ------------------------------------------------------------------ settings */

typedef struct settings {
  kiln_client_options options;
  kiln_config config;
  kiln_search_path path;
  const char *devices; /* borrowed from the environment, options, config or the default */
} settings;

static void settings_free(settings *s) {
  kiln_config_free(&s->config);
  kiln_search_path_free(&s->path);
}

static kiln_status settings_init(const kiln_client_options *options, settings *s) {
  memset(s, 0, sizeof *s);
  KILN_RETURN_IF_ERROR(kiln_args_copy(&s->options, sizeof s->options, options, "kiln_client_options"));
  if (s->options.num_devices < 0)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_client_options: num_devices is %d; expected 0 (the "
                       "plugin's own number) or more", (int)s->options.num_devices);
  kiln_status st = NULL;
  if (s->options.config_file) st = kiln_config_read(s->options.config_file, &s->config);
  if (!st) st = kiln_search_path_init(&s->options, &s->config, &s->path);
  const char *env = s->options.flags & KILN_CLIENT_IGNORE_ENV ? NULL : getenv("KILN_DEVICE");
  s->devices = env && env[0] ? env
               : s->options.devices && s->options.devices[0] ? s->options.devices
               : s->config.devices ? s->config.devices
                                   : KILN_DEFAULT_DEVICES;
  if (st) settings_free(s);
  return st;
}

/* ------------------------------------------------------------------ devices */

/* Destroys the devices and unloads the plugin (after a failed selection step, or at the end). */
static void close_plugin(kiln_client *c) {
  for (int32_t i = 0; i < c->num_devices; i++)
    if (c->devices[i].impl) c->plugin.table.device_destroy(c->devices[i].impl);
  free(c->devices);
  c->devices = NULL;
  c->num_devices = 0;
  kiln_plugin_close(&c->plugin);
}

static void client_free(kiln_client *c) {
  close_plugin(c);
  kiln_plugin_list_free(c->selection);
  free(c);
}

/* Opens the plugin's devices: `requested` of them (kiln_client_options.num_devices), or
 * when 0 as many as it offers. */
static kiln_status open_devices(kiln_client *c, int32_t requested) {
  const kiln_backend *b = &c->plugin.table;
  int32_t n = 0;
  KILN_RETURN_IF_ERROR(b->device_count(&n));
  if (n <= 0) return KILN_STATUS(KILN_STATUS_UNAVAILABLE, "it has no devices");
  if (requested && requested != n && !b->device_create_of)
    return KILN_STATUS(KILN_STATUS_UNAVAILABLE, "it offers %d device%s, not the %d asked for (num_devices)", (int)n,
                       n == 1 ? "" : "s", (int)requested);
  if (requested) n = requested;
  if (!(c->devices = calloc((size_t)n, sizeof *c->devices)))
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  c->num_devices = n;
  for (int32_t i = 0; i < n; i++) {
    struct kiln_device_s *d = &c->devices[i];
    d->client = c;
    KILN_RETURN_IF_ERROR(requested && b->device_create_of ? b->device_create_of(i, n, &d->impl)
                                                          : b->device_create(i, &d->impl));
    if (!d->impl) return KILN_STATUS(KILN_STATUS_INTERNAL, "device_create gave no device %d", (int)i);
    snprintf(d->name, sizeof d->name, "%s:%d", b->name, (int)i);
    d->description = b->device_description ? b->device_description(d->impl) : NULL;
    if (!d->description) d->description = b->description ? b->description : "";
  }
  return NULL;
}

/* ------------------------------------------------------------------ selection */

/* Tries one name of the device list; on success the plugin is loaded into c. */
static kiln_status try_plugin(kiln_client *c, const settings *s, const char *name, char **out_path) {
  KILN_RETURN_IF_ERROR(kiln_search_path_find(&s->path, name, out_path));
  if (!*out_path) {
    char *dirs = kiln_search_path_describe(&s->path);
    kiln_status st = KILN_STATUS(KILN_STATUS_NOT_FOUND, "no plugin found (no libkiln-%s.so in %s)", name,
                                 dirs ? dirs : "the plugin folders");
    free(dirs);
    return st;
  }
  KILN_RETURN_IF_ERROR(kiln_plugin_open(*out_path, name, &c->plugin));
  kiln_status st = open_devices(c, s->options.num_devices);
  if (st) close_plugin(c);
  return st;
}

static kiln_status select_plugin(kiln_client *c, const settings *s) {
  bool all_missing = true;
  for (const char *p = s->devices; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char *name = strndup(p, len), *path = NULL;
    if (!name) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    char *trim = name;
    while (*trim == ' ') trim++;
    for (size_t n = strlen(trim); n && trim[n - 1] == ' ';) trim[--n] = '\0';
    kiln_status st = trim[0] ? try_plugin(c, s, trim, &path) : NULL;
    bool ok = trim[0] && !st;
    bool recorded = !trim[0] || kiln_plugin_list_add(c->selection, trim, path, kiln_status_code_of(st),
                                                     kiln_status_message(st),
                                                     ok ? c->plugin.table.description : NULL);
    if (trim[0] && kiln_status_code_of(st) != KILN_STATUS_NOT_FOUND) all_missing = false;
    free(name);
    free(path);
    kiln_status_free(st);
    if (!recorded) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    if (ok) return NULL;
    p = comma ? comma + 1 : p + len;
  }
  char *why = kiln_plugin_list_reasons(c->selection);
  kiln_status st =
      KILN_STATUS(all_missing ? KILN_STATUS_NOT_FOUND : KILN_STATUS_UNAVAILABLE, "no device of '%s' can be used%s%s",
                  s->devices, why && why[0] ? ": " : "", why ? why : "");
  free(why);
  return st;
}

kiln_status kiln_client_create(const kiln_client_options *options, kiln_client **out_client) {
  if (!out_client) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_client_create: out_client is NULL");
  *out_client = NULL;
  settings s;
  KILN_RETURN_IF_ERROR(settings_init(options, &s));
  kiln_client *c = calloc(1, sizeof *c);
  kiln_status st = c && (c->selection = kiln_plugin_list_new())
                       ? NULL
                       : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (c) atomic_init(&c->refs, 1);
  if (!st) st = select_plugin(c, &s);
  settings_free(&s);
  if (st) {
    if (c) client_free(c);
    return st;
  }
  *out_client = c;
  return NULL;
}

kiln_client *kiln_client_retain(kiln_client *c) {
  if (c) atomic_fetch_add(&c->refs, 1);
  return c;
}

void kiln_client_release(kiln_client *c) {
  if (c && atomic_fetch_sub(&c->refs, 1) == 1) client_free(c);
}

const kiln_plugin_list *kiln_client_selection(const kiln_client *c) { return c ? c->selection : NULL; }
const char *kiln_client_plugin_name(const kiln_client *c) { return c ? c->plugin.table.name : ""; }
int32_t kiln_client_device_count(const kiln_client *c) { return c ? c->num_devices : 0; }

kiln_device *kiln_client_device(const kiln_client *c, int32_t index) {
  return c && index >= 0 && index < c->num_devices ? &c->devices[index] : NULL;
}

const char *kiln_device_name(const kiln_device *d) { return d ? d->name : ""; }
const char *kiln_device_description(const kiln_device *d) { return d ? d->description : ""; }

/* ------------------------------------------------------------------ scans */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Plugin names of one folder, sorted; missing folders have none. */
static kiln_status folder_names(const char *dir, char ***out_names, size_t *out_count) {
  *out_names = NULL;
  *out_count = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  kiln_status st = NULL;
  char name[256];
  for (struct dirent *e; !st && (e = readdir(d));) {
    if (!kiln_plugin_name_of_file(e->d_name, name, sizeof name)) continue;
    char **grown = realloc(*out_names, (*out_count + 1) * sizeof *grown);
    if (grown) *out_names = grown;
    if (!grown || !((*out_names)[*out_count] = strdup(name))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    else (*out_count)++;
  }
  closedir(d);
  if (*out_names) qsort(*out_names, *out_count, sizeof **out_names, cmp_str);
  return st;
}

static bool listed(const kiln_plugin_list *l, const char *name) {
  for (int32_t i = 0; i < kiln_plugin_list_count(l); i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    kiln_status st = kiln_plugin_list_get(l, i, &r);
    kiln_status_free(st);
    if (!st && !strcmp(r.name, name)) return true;
  }
  return false;
}

static kiln_status scan_folder(kiln_plugin_list *l, const char *dir) {
  char **names;
  size_t n;
  kiln_status st = folder_names(dir, &names, &n);
  for (size_t i = 0; i < n; i++) {
    if (!st && !listed(l, names[i])) { /* an earlier folder's plugin of that name wins */
      kiln_strbuf path = {0};
      kiln_strbuf_printf(&path, "%s/libkiln-%s.so", dir, names[i]);
      kiln_plugin p;
      kiln_status why = path.failed ? KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory")
                                    : kiln_plugin_open(path.data, names[i], &p);
      if (!kiln_plugin_list_add(l, names[i], path.data, kiln_status_code_of(why), kiln_status_message(why),
                                why ? NULL : p.table.description))
        st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      if (!why) kiln_plugin_close(&p);
      kiln_status_free(why);
      free(path.data);
    }
    free(names[i]);
  }
  free(names);
  return st;
}

kiln_status kiln_plugins_scan(const kiln_client_options *options, kiln_plugin_list **out_list) {
  if (!out_list) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_plugins_scan: out_list is NULL");
  *out_list = NULL;
  settings s;
  KILN_RETURN_IF_ERROR(settings_init(options, &s));
  kiln_plugin_list *l = kiln_plugin_list_new();
  kiln_status st = l ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; !st && i < s.path.count; i++) st = scan_folder(l, s.path.dirs[i]);
  settings_free(&s);
  if (st) {
    kiln_plugin_list_free(l);
    return st;
  }
  *out_list = l;
  return NULL;
}
