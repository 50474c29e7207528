/* The config file parser (see config.h). */
#define _GNU_SOURCE /* strdup, strndup, dladdr */
#include "runtime/config.h"

#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "base/strbuf.h"

static char *trimmed(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
  return strndup(p, (size_t)(end - p));
}

/* dir: the config file's folder with a trailing '/', or "" */
static kiln_status add_path(kiln_config *c, const char *dir, const char *value) {
  char **grown = realloc(c->plugin_paths, (size_t)(c->num_plugin_paths + 1) * sizeof *grown);
  if (!grown) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  c->plugin_paths = grown;
  kiln_strbuf b = {0};
  if (value[0] != '/') kiln_strbuf_puts(&b, dir);
  kiln_strbuf_puts(&b, value);
  if (b.failed || !b.data) {
    free(b.data);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  c->plugin_paths[c->num_plugin_paths++] = b.data;
  return NULL;
}

static kiln_status parse_line(kiln_config *c, const char *path, const char *dir, uint32_t line, const char *p,
                              const char *end) {
  const char *hash = memchr(p, '#', (size_t)(end - p));
  if (hash) end = hash;
  const char *eq = memchr(p, '=', (size_t)(end - p));
  char *key = trimmed(p, eq ? eq : end), *value = eq ? trimmed(eq + 1, end) : NULL;
  kiln_status st = NULL;
  if (!key || (eq && !value)) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  else if (!eq && !key[0]) st = NULL; /* blank or comment */
  else if (!eq || !key[0] || !value[0])
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s:%u: expected `key = value`", path, (unsigned)line);
  else if (!strcmp(key, "devices")) {
    free(c->devices);
    c->devices = value;
    value = NULL;
  } else if (!strcmp(key, "plugin_path")) {
    st = add_path(c, dir, value);
  } else {
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s:%u: unknown key '%s' (known: devices, plugin_path)", path,
                     (unsigned)line, key);
  }
  free(key);
  free(value);
  return st;
}

kiln_status kiln_config_read(const char *path, kiln_config *out) {
  memset(out, 0, sizeof *out);
  kiln_source src;
  KILN_RETURN_IF_ERROR(kiln_source_read(path, &src));
  const char *slash = strrchr(path, '/');
  char *dir = strndup(path, slash ? (size_t)(slash - path + 1) : 0);
  kiln_status st = dir ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  const char *p = src.text, *end = src.text + src.len;
  for (uint32_t line = 1; !st && p < end; line++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    st = parse_line(out, path, dir, line, p, eol);
    p = eol + 1;
  }
  free(dir);
  kiln_source_free(&src);
  if (st) kiln_config_free(out);
  return st;
}

void kiln_config_free(kiln_config *c) {
  free(c->devices);
  for (int32_t i = 0; i < c->num_plugin_paths; i++) free(c->plugin_paths[i]);
  free(c->plugin_paths);
  memset(c, 0, sizeof *c);
}
