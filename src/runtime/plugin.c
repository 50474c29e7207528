/* Loading one backend plugin with dlopen, robustly (see plugin.h). */
#define _GNU_SOURCE /* strdup, strndup, dladdr */
#include "runtime/plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table must reach at least to this entry: everything up to execute is required. */
#define KILN_BACKEND_MIN_SIZE (offsetof(kiln_backend, execute) + sizeof(void *))

static bool plain_name(const char *name) {
  if (!name || !*name) return false;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '-' || *p == '.'))
      return false;
  return true;
}

bool kiln_plugin_file_name(const char *name, char *buf, size_t cap) {
  if (!plain_name(name)) return false;
  int n = snprintf(buf, cap, "libkiln-%s.so", name);
  return n > 0 && (size_t)n < cap;
}

bool kiln_plugin_name_of_file(const char *file_name, char *buf, size_t cap) {
  size_t len = strlen(file_name);
  if (len <= 11 || strncmp(file_name, "libkiln-", 8) != 0 || strcmp(file_name + len - 3, ".so") != 0) return false;
  size_t n = len - 11;
  if (n >= cap) return false;
  memcpy(buf, file_name + 8, n);
  buf[n] = '\0';
  return plain_name(buf);
}

static kiln_status check_table(const kiln_backend *t, const char *expected_name) {
  if (t->api_version != KILN_BACKEND_API_VERSION)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "built for plugin ABI version %u; this library speaks %u",
                       (unsigned)t->api_version, (unsigned)KILN_BACKEND_API_VERSION);
  if (t->struct_size < KILN_BACKEND_MIN_SIZE)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "its table is too short (%u bytes, at least %zu needed)",
                       (unsigned)t->struct_size, KILN_BACKEND_MIN_SIZE);
  if (!t->name || strcmp(t->name, expected_name) != 0)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "the library calls itself '%s', not '%s'",
                       t->name ? t->name : "(null)", expected_name);
  const struct {
    const void *fn;
    const char *what;
  } required[] = {
      {(const void *)t->probe, "probe"},
      {(const void *)t->device_count, "device_count"},
      {(const void *)t->device_create, "device_create"},
      {(const void *)t->device_destroy, "device_destroy"},
      {(const void *)t->buffer_create, "buffer_create"},
      {(const void *)t->buffer_shape, "buffer_shape"},
      {(const void *)t->buffer_to_host, "buffer_to_host"},
      {(const void *)t->buffer_destroy, "buffer_destroy"},
      {(const void *)t->compile, "compile"},
      {(const void *)t->executable_destroy, "executable_destroy"},
      {(const void *)t->execute, "execute"},
  };
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    if (!required[i].fn)
      return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "its table has no %s function", required[i].what);
  bool async = t->event_is_ready || t->event_wait || t->event_destroy;
  if (async && !(t->event_is_ready && t->event_wait && t->event_destroy))
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "its table has some event functions but not all three");
  return NULL;
}

kiln_status kiln_plugin_open(const char *path, const char *expected_name, kiln_plugin *out) {
  memset(out, 0, sizeof *out);
  dlerror();
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *why = dlerror();
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "cannot be loaded: %s", why ? why : "unknown reason");
  }
  kiln_status st = NULL;
  kiln_backend_entry_fn entry;
  void *sym = dlsym(h, KILN_BACKEND_ENTRY_SYMBOL);
  memcpy(&entry, &sym, sizeof entry); /* object pointer to function pointer, as POSIX allows */
  const kiln_backend *t = sym ? entry() : NULL;
  if (!sym)
    st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "it does not export %s (not a Kiln plugin, or one for another ABI)",
                     KILN_BACKEND_ENTRY_SYMBOL);
  else if (!t)
    st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "%s returned no table", KILN_BACKEND_ENTRY_SYMBOL);
  if (!st) st = check_table(t, expected_name);
  if (!st) {
    size_t n = t->struct_size < sizeof out->table ? t->struct_size : sizeof out->table;
    memcpy(&out->table, t, n);
    kiln_status probe = out->table.probe();
    if (probe) {
      st = KILN_STATUS(kiln_status_code_of(probe), "%s", kiln_status_message(probe));
      kiln_status_free(probe);
    }
  }
  if (!st && !(out->path = strdup(path))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (st) {
    dlclose(h);
    memset(out, 0, sizeof *out);
    return st;
  }
  out->handle = h;
  return NULL;
}

void kiln_plugin_close(kiln_plugin *p) {
  if (p->handle) dlclose(p->handle);
  free(p->path);
  memset(p, 0, sizeof *p);
}
