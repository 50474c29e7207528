/* Collapsing a loop's dims (loop.h: kiln_cpu_collapse_plan). */
#include <string.h>

#include "backends/cpu/loop.h"

static bool is_read(const kiln_cpu_node *x) { return kiln_cpu_node_affine(x); }

/* Whether dim d continues dim p (p before d) contiguously in every read of L. */
static bool continues(const kiln_cpu_loop *L, kiln_cpu_node *const *nodes, int32_t p, int32_t d) {
  for (int32_t k = 0; k < L->num_nodes; k++)
    if (is_read(nodes[k]) && nodes[k]->strides[p] != nodes[k]->strides[d] * L->dims[d]) return false;
  return true;
}

void kiln_cpu_collapse_plan_make(kiln_cpu_loop *const *loops, kiln_cpu_node *const *const *nodes, int32_t count,
                                 kiln_cpu_collapse_plan *p) {
  const kiln_cpu_loop *L0 = loops[0];
  int32_t r = L0->rank, ro = L0->num_out_dims, last[KILN_CPU_MAX_RANK];
  int cls[KILN_CPU_MAX_RANK]; /* per collapsed dim: 0 a scan's kept dims before its axis, 1 kept, 2 folded */
  memset(p, 0, sizeof *p);
  p->rank = r;
  p->num_out_dims = ro;
  for (int32_t d = 0; d < r; d++) {
    int c = d >= ro ? 2 : L0->scan && d < L0->scan_split ? 0 : 1;
    bool ones = r > 1;
    for (int32_t i = 0; i < count; i++) ones = ones && loops[i]->dims[d] == 1;
    p->group[d] = -1;
    if (ones) continue;
    if (p->rank_after > 0 && cls[p->rank_after - 1] == c) {
      bool ok = true;
      for (int32_t i = 0; ok && i < count; i++) ok = continues(loops[i], nodes[i], last[p->rank_after - 1], d);
      if (ok) {
        p->group[d] = p->rank_after - 1;
        last[p->rank_after - 1] = d;
        continue;
      }
    }
    p->group[d] = p->rank_after;
    cls[p->rank_after] = c;
    last[p->rank_after++] = d;
    p->out_after += c < 2;
    p->split_after += c == 0;
  }
  p->extra = ro < r && p->out_after == p->rank_after;
}

bool kiln_cpu_collapse_plan_fits(const kiln_cpu_loop *L, kiln_cpu_node *const *nodes, const kiln_cpu_collapse_plan *p) {
  if (L->rank != p->rank || L->num_out_dims != p->num_out_dims) return false;
  int32_t last[KILN_CPU_MAX_RANK];
  for (int32_t k = 0; k < KILN_CPU_MAX_RANK; k++) last[k] = -1;
  for (int32_t d = 0; d < L->rank; d++) {
    int32_t g = p->group[d];
    if (g < 0) {
      if (L->dims[d] != 1) return false;
      continue;
    }
    if (last[g] >= 0 && !continues(L, nodes, last[g], d)) return false;
    last[g] = d;
  }
  return true;
}

/* The original dim whose strides collapsed dim k takes (its group's last), or -1. */
static int32_t last_of(const kiln_cpu_collapse_plan *p, int32_t k) {
  int32_t last = -1;
  for (int32_t d = 0; d < p->rank; d++)
    if (p->group[d] == k) last = d;
  return last;
}

int64_t kiln_cpu_collapsed_field(const kiln_cpu_loop *L, kiln_cpu_node *const *nodes, const kiln_cpu_collapse_plan *p,
                                 int32_t f) {
  if (f < KILN_CPU_MAX_RANK) {
    if (f >= p->rank_after) return p->extra && f == p->rank_after ? 1 : 0;
    int64_t size = 1;
    for (int32_t d = 0; d < p->rank; d++)
      if (p->group[d] == f) size *= L->dims[d];
    return size;
  }
  int32_t k = (f - KILN_CPU_MAX_RANK) / KILN_CPU_NODE_FIELDS, j = (f - KILN_CPU_MAX_RANK) % KILN_CPU_NODE_FIELDS;
  const kiln_cpu_node *x = k < L->num_nodes ? nodes[k] : NULL;
  if (!x) return 0;
  if (j == 0) return is_read(x) ? x->base : 0;
  if (j <= KILN_CPU_MAX_RANK) {
    int32_t d = j - 1 < p->rank_after ? last_of(p, j - 1) : -1;
    return is_read(x) && d >= 0 ? x->strides[d] : 0;
  }
  if (x->kind != KILN_CPU_NODE_SCALAR) return 0;
  int64_t bits = x->value.i;
  if (kiln_elem_is_float(x->elem)) memcpy(&bits, &x->value.f, sizeof bits);
  return bits;
}

void kiln_cpu_collapse_plan_apply(kiln_cpu_loop *L, kiln_cpu_node *const *nodes, const kiln_cpu_collapse_plan *p) {
  int64_t dims[KILN_CPU_MAX_RANK];
  for (int32_t k = 0; k < KILN_CPU_MAX_RANK; k++) dims[k] = kiln_cpu_collapsed_field(L, nodes, p, KILN_CPU_FIELD_DIM(k));
  for (int32_t n = 0; n < L->num_nodes; n++) {
    kiln_cpu_node *x = nodes[n];
    if (!is_read(x)) continue;
    int64_t strides[KILN_CPU_MAX_RANK];
    for (int32_t k = 0; k < KILN_CPU_MAX_RANK; k++) strides[k] = kiln_cpu_collapsed_field(L, nodes, p, KILN_CPU_FIELD_STRIDE(n, k));
    memcpy(x->strides, strides, sizeof strides);
  }
  memcpy(L->dims, dims, sizeof dims);
  L->rank = p->rank_after + p->extra;
  L->num_out_dims = p->out_after;
  if (L->scan) L->scan_split = p->split_after;
}

void kiln_cpu_collapse(kiln_cpu_loop *L, kiln_cpu_node *const *nodes) {
  kiln_cpu_collapse_plan p;
  kiln_cpu_collapse_plan_make(&L, &nodes, 1, &p);
  kiln_cpu_collapse_plan_apply(L, nodes, &p);
}
