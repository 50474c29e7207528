/* The Shardy attributes' wrappers and the few facts the printer and verifier read from
 * their text; the partitioner (src/spmd) reads shardings in full. */
#include "ir/sdy.h"

#include <string.h>

static const kiln_sdy_wrap k_wraps[] = {
    [KILN_SDY_MESH] = {"#sdy.mesh", "", '<'},
    [KILN_SDY_SHARDING] = {"#sdy.sharding", "", '<'},
    [KILN_SDY_PER_VALUE] = {"#sdy.sharding_per_value<", ">", '['},
    [KILN_SDY_MANUAL_AXES] = {"#sdy<manual_axes", ">", '{'},
};

const kiln_sdy_wrap *kiln_sdy_wrapper(kiln_sdy_form form) { return &k_wraps[form]; }

static bool is_open(char c) { return c == '<' || c == '(' || c == '[' || c == '{'; }
static bool is_close(char c) { return c == '>' || c == ')' || c == ']' || c == '}'; }
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The index just past the quoted string that opens at s[i] (n when it does not close). */
static size_t skip_string(const char *s, size_t n, size_t i) {
  for (i++; i < n && s[i] != '"'; i++)
    if (s[i] == '\\') i++;
  return i < n ? i + 1 : n;
}

/* The text is balanced already (the parser checked it), so a depth count suffices: it
 * only has to find where the group ends, never to diagnose it. */
size_t kiln_sdy_group_len(const char *s, size_t n) {
  if (!n || !is_open(s[0])) return 0;
  size_t depth = 0;
  for (size_t i = 0; i < n;) {
    char c = s[i];
    if (c == '"') {
      i = skip_string(s, n, i);
      continue;
    }
    if (is_open(c)) depth++;
    else if (is_close(c) && --depth == 0) return i + 1;
    i++;
  }
  return 0;
}

bool kiln_sdy_pretty(const kiln_attr *a, kiln_sdy_form form, const char **out, size_t *out_len) {
  const kiln_sdy_wrap *w = kiln_sdy_wrapper(form);
  if (!a || a->kind != KILN_ATTR_OPAQUE) return false;
  size_t n = strlen(a->opaque), np = strlen(w->prefix), ns = strlen(w->suffix);
  if (n < np + ns || strncmp(a->opaque, w->prefix, np) || strcmp(a->opaque + n - ns, w->suffix)) return false;
  const char *body = a->opaque + np;
  size_t len = n - np - ns;
  if (!len || body[0] != w->open || kiln_sdy_group_len(body, len) != len) return false;
  *out = body;
  *out_len = len;
  return true;
}

static void trim(const char **s, size_t *n) {
  while (*n && is_space(**s)) (*s)++, (*n)--;
  while (*n && is_space((*s)[*n - 1])) (*n)--;
}

bool kiln_sdy_next_entry(const char *s, size_t n, size_t *pos, const char **entry, size_t *entry_len) {
  size_t i = *pos;
  if (i == 0) {
    if (kiln_sdy_group_len(s, n) != n) return false;
    for (i = 1; i < n - 1 && is_space(s[i]); i++) {}
    if (i == n - 1) return false; /* an empty group */
  }
  if (i >= n) return false;
  size_t start = i, depth = 0;
  while (i < n - 1) { /* up to a comma of this level or the group's closing bracket */
    char c = s[i];
    if (c == '"') {
      i = skip_string(s, n - 1, i);
      continue;
    }
    if (c == ',' && !depth) break;
    if (is_open(c)) depth++;
    else if (is_close(c)) depth--;
    i++;
  }
  *entry = s + start;
  *entry_len = i - start;
  trim(entry, entry_len);
  *pos = i + 1;
  return true;
}

int64_t kiln_sdy_count_entries(const char *s, size_t n) {
  if (kiln_sdy_group_len(s, n) != n) return -1;
  int64_t count = 0;
  size_t pos = 0, len;
  const char *entry;
  while (kiln_sdy_next_entry(s, n, &pos, &entry, &len)) count++;
  return count;
}

int64_t kiln_sdy_sharding_rank(const char *s, size_t n) {
  size_t pos = 0, len;
  const char *entry;
  if (!n || s[0] != '<' || !kiln_sdy_next_entry(s, n, &pos, &entry, &len) ||
      !kiln_sdy_next_entry(s, n, &pos, &entry, &len) || !len || entry[0] != '[')
    return -1;
  return kiln_sdy_count_entries(entry, len);
}

bool kiln_sdy_sharding_mesh(const char *s, size_t n, const char **mesh, size_t *mesh_len) {
  size_t pos = 0;
  return n && s[0] == '<' && kiln_sdy_next_entry(s, n, &pos, mesh, mesh_len);
}

int64_t kiln_sdy_mesh_axes(const char *s, size_t n) {
  size_t pos = 0, len;
  const char *axes;
  if (!n || s[0] != '<' || !kiln_sdy_next_entry(s, n, &pos, &axes, &len) || !len || axes[0] != '[') return -1;
  return kiln_sdy_count_entries(axes, len);
}
