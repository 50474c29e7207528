/* kiln_plugin_list: what happened to each plugin tried or found. */
#define _GNU_SOURCE /* strdup, strndup, dladdr */
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "runtime/plugin_list.h"

typedef struct list_entry {
  char *name, *path, *reason, *description;
  kiln_status_code code;
} list_entry;

struct kiln_plugin_list_s {
  int32_t count, cap;
  list_entry *items;
};

kiln_plugin_list *kiln_plugin_list_new(void) { return calloc(1, sizeof(kiln_plugin_list)); }

bool kiln_plugin_list_add(kiln_plugin_list *l, const char *name, const char *path, kiln_status_code code,
                          const char *reason, const char *description) {
  if (l->count == l->cap) {
    int32_t cap = l->cap ? l->cap * 2 : 8;
    list_entry *items = realloc(l->items, (size_t)cap * sizeof *items);
    if (!items) return false;
    l->items = items;
    l->cap = cap;
  }
  list_entry e = {strdup(name ? name : ""), strdup(path ? path : ""), strdup(reason ? reason : ""),
                  strdup(description ? description : ""), code};
  if (!e.name || !e.path || !e.reason || !e.description) {
    free(e.name);
    free(e.path);
    free(e.reason);
    free(e.description);
    return false;
  }
  l->items[l->count++] = e;
  return true;
}

int32_t kiln_plugin_list_count(const kiln_plugin_list *l) { return l ? l->count : 0; }

kiln_status kiln_plugin_list_get(const kiln_plugin_list *l, int32_t i, kiln_plugin_report *out) {
  if (!out || out->struct_size < sizeof(size_t))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_plugin_list_get: out_report with its struct_size set is required");
  if (!l || i < 0 || i >= l->count)
    return KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "kiln_plugin_list_get: no entry %d", (int)i);
  const list_entry *e = &l->items[i];
  kiln_plugin_report r = {sizeof r, e->name, e->path, e->code, e->reason, e->description};
  size_t n = out->struct_size < sizeof r ? out->struct_size : sizeof r;
  size_t caller_size = out->struct_size;
  memcpy(out, &r, n);
  out->struct_size = caller_size;
  return NULL;
}

void kiln_plugin_list_free(kiln_plugin_list *l) {
  if (!l) return;
  for (int32_t i = 0; i < l->count; i++) {
    free(l->items[i].name);
    free(l->items[i].path);
    free(l->items[i].reason);
    free(l->items[i].description);
  }
  free(l->items);
  free(l);
}

char *kiln_plugin_list_reasons(const kiln_plugin_list *l) {
  kiln_strbuf b = {0};
  for (int32_t i = 0; l && i < l->count; i++) {
    if (l->items[i].code == KILN_STATUS_OK) continue;
    kiln_strbuf_printf(&b, "%s%s: %s", b.len ? "; " : "", l->items[i].name, l->items[i].reason);
  }
  if (b.failed) {
    free(b.data);
    return NULL;
  }
  return b.data ? b.data : strdup("");
}
