/* Helpers of the rewriting passes (see rewrite.h). */
#include "passes/rewrite.h"

#include <string.h>

int32_t kiln_rewrite_uses(const kiln_block *b, const kiln_value *v) {
  int32_t n = 0;
  for (const kiln_op *op = b->first; op; op = op->next) {
    for (int32_t i = 0; i < op->num_operands; i++) n += op->operands[i] == v;
    for (int32_t r = 0; r < op->num_regions; r++)
      for (const kiln_block *inner = op->regions[r].first; inner; inner = inner->next) n += kiln_rewrite_uses(inner, v);
  }
  return n;
}

const kiln_attr *kiln_rewrite_struct_with(kiln_module *m, const kiln_attr *a, const char *const *names,
                                          const kiln_attr *const *vals, int32_t n) {
  kiln_attr *s = kiln_attr_new(m, KILN_ATTR_STRUCT);
  kiln_named_attr *fields = kiln_arena_alloc_array(m->arena, (size_t)(a->strct.count + n), sizeof *fields);
  if (!s || !fields) return NULL;
  *s = *a;
  int32_t count = a->strct.count;
  for (int32_t f = 0; f < count; f++) fields[f] = a->strct.fields[f];
  for (int32_t k = 0; k < n; k++) {
    int32_t f = 0;
    while (f < count && !(fields[f].name && !strcmp(fields[f].name, names[k]))) f++;
    if (f == count) fields[count++] = (kiln_named_attr){.name = names[k]};
    fields[f].value = vals[k];
  }
  s->strct.fields = fields;
  s->strct.count = count;
  return s;
}

bool kiln_rewrite_dims_are(const kiln_attr *a, const char *name, const int64_t *v, int64_t n) {
  const kiln_attr *l = kiln_attr_get(a, name);
  if (!l) return n == 0;
  if (kiln_attr_count(l) != n) return false;
  for (int64_t i = 0; i < n; i++) {
    int64_t x;
    if (!kiln_attr_i64_at(l, i, &x) || x != v[i]) return false;
  }
  return true;
}
