/* Plugin folders (see search_path.h). */
#define _GNU_SOURCE /* dladdr, strdup, realpath */
#include "runtime/search_path.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "runtime/plugin.h"

static const char k_anchor = 0; /* an address inside libkiln.so, for dladdr */
static char g_library_dir[PATH_MAX];
static pthread_once_t g_library_dir_once = PTHREAD_ONCE_INIT;

static void find_library_dir(void) {
  strcpy(g_library_dir, ".");
  Dl_info info;
  if (!dladdr(&k_anchor, &info) || !info.dli_fname) return;
  char resolved[PATH_MAX];
  const char *file = realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
  const char *slash = strrchr(file, '/');
  if (!slash) return;
  size_t n = (size_t)(slash - file);
  if (n == 0) n = 1; /* the root folder */
  if (n >= sizeof g_library_dir) return;
  memcpy(g_library_dir, file, n);
  g_library_dir[n] = '\0';
}

const char *kiln_runtime_library_dir(void) {
  pthread_once(&g_library_dir_once, find_library_dir);
  return g_library_dir;
}

static kiln_status add_dir(kiln_search_path *sp, const char *dir) {
  char **grown = realloc(sp->dirs, (size_t)(sp->count + 1) * sizeof *grown);
  if (!grown) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  sp->dirs = grown;
  if (!(sp->dirs[sp->count] = strdup(dir))) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  sp->count++;
  return NULL;
}

kiln_status kiln_search_path_init(const kiln_client_options *o, const kiln_config *cfg, kiln_search_path *out) {
  memset(out, 0, sizeof *out);
  kiln_status st = NULL;
  for (int32_t i = 0; !st && o && o->plugin_paths && i < o->num_plugin_paths; i++)
    if (o->plugin_paths[i] && o->plugin_paths[i][0]) st = add_dir(out, o->plugin_paths[i]);
  for (int32_t i = 0; !st && cfg && i < cfg->num_plugin_paths; i++) st = add_dir(out, cfg->plugin_paths[i]);
  kiln_strbuf own = {0};
  kiln_strbuf_printf(&own, "%s/kiln-plugins", kiln_runtime_library_dir());
  if (!st) st = own.failed ? KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory") : add_dir(out, own.data);
  free(own.data);
  if (st) kiln_search_path_free(out);
  return st;
}

void kiln_search_path_free(kiln_search_path *sp) {
  for (int32_t i = 0; i < sp->count; i++) free(sp->dirs[i]);
  free(sp->dirs);
  memset(sp, 0, sizeof *sp);
}

kiln_status kiln_search_path_find(const kiln_search_path *sp, const char *name, char **out_file) {
  *out_file = NULL;
  char file[256];
  if (!kiln_plugin_file_name(name, file, sizeof file))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "'%s' is not a plugin name (letters, digits, '_', '-', '.')", name);
  for (int32_t i = 0; i < sp->count; i++) {
    kiln_strbuf b = {0};
    kiln_strbuf_printf(&b, "%s/%s", sp->dirs[i], file);
    if (b.failed) {
      free(b.data);
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    if (access(b.data, F_OK) == 0) {
      *out_file = b.data;
      return NULL;
    }
    free(b.data);
  }
  return NULL;
}

char *kiln_search_path_describe(const kiln_search_path *sp) {
  kiln_strbuf b = {0};
  for (int32_t i = 0; i < sp->count; i++) kiln_strbuf_printf(&b, "%s%s", i ? ", " : "", sp->dirs[i]);
  if (b.failed) {
    free(b.data);
    return NULL;
  }
  return b.data ? b.data : strdup("");
}
