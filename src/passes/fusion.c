/* Producer-consumer loop fusion over one block (see fusion.h). */
#include "passes/fusion.h"

#include <stdlib.h>

typedef struct kiln_fusion_pos {
  const kiln_op *op;
  int32_t index;
} kiln_fusion_pos;

static int cmp_pos(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const kiln_fusion_pos *)a)->op, y = (uintptr_t)((const kiln_fusion_pos *)b)->op;
  return x < y ? -1 : x > y;
}

int32_t kiln_fusion_index(const kiln_fusion *f, const kiln_op *op) {
  size_t lo = 0, hi = (size_t)f->num_ops;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (f->sorted[mid].op == op) return f->sorted[mid].index;
    if ((uintptr_t)f->sorted[mid].op < (uintptr_t)op) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* Values of this block used inside op's regions are read by whoever runs the region, so
 * they must be stored. */
static void mark_region_uses(const kiln_fusion *f, const kiln_op *op, bool *escapes) {
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *inner = b->first; inner; inner = inner->next) {
        for (int32_t k = 0; k < inner->num_operands; k++) {
          const kiln_op *def = inner->operands[k]->def;
          int32_t i = def ? kiln_fusion_index(f, def) : -1;
          if (i >= 0) escapes[i] = true;
        }
        mark_region_uses(f, inner, escapes);
      }
}

static int32_t new_group(kiln_fusion *f, int32_t i) {
  f->root[f->num_groups] = i;
  return f->num_groups++;
}

kiln_status kiln_fusion_run(const kiln_block *b, kiln_fuse_classify_fn classify, void *user, kiln_fusion *out) {
  *out = (kiln_fusion){0};
  int32_t n = 0;
  for (const kiln_op *op = b->first; op; op = op->next) n++;
  size_t m = (size_t)n + 1;
  out->num_ops = n;
  out->ops = calloc(m, sizeof *out->ops);
  out->cls = calloc(m, sizeof *out->cls);
  out->group = calloc(m, sizeof *out->group);
  out->root = calloc(m, sizeof *out->root);
  out->materialized = calloc(m, sizeof *out->materialized);
  out->sorted = calloc(m, sizeof *out->sorted);
  int32_t *user_group = calloc(m, sizeof *user_group); /* the one group reading an op: -1 none yet, -2 several */
  bool *escapes = calloc(m, sizeof *escapes);
  if (!out->ops || !out->cls || !out->group || !out->root || !out->materialized || !out->sorted || !user_group ||
      !escapes) {
    free(user_group), free(escapes);
    kiln_fusion_free(out);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  int32_t i = 0;
  for (const kiln_op *op = b->first; op; op = op->next, i++) {
    out->ops[i] = op;
    out->cls[i] = classify(op, user);
    out->sorted[i] = (kiln_fusion_pos){op, i};
    user_group[i] = -1;
  }
  qsort(out->sorted, (size_t)n, sizeof *out->sorted, cmp_pos);
  for (i = 0; i < n; i++) mark_region_uses(out, out->ops[i], escapes);

  for (i = n - 1; i >= 0; i--) {
    const kiln_op *op = out->ops[i];
    kiln_fuse_class c = out->cls[i];
    out->group[i] = -1;
    if (c != KILN_FUSE_NONE && user_group[i] == -1 && !escapes[i]) continue; /* pure and unused: dead */
    switch (c) {
      case KILN_FUSE_NONE:
      case KILN_FUSE_EPILOGUE: out->materialized[i] = true; break;
      case KILN_FUSE_DUPLICATE:
        out->materialized[i] = escapes[i];
        if (escapes[i]) out->group[i] = new_group(out, i);
        break;
      case KILN_FUSE_LOOP:
        out->materialized[i] = escapes[i] || user_group[i] < 0;
        out->group[i] = out->materialized[i] ? new_group(out, i) : user_group[i];
        break;
      case KILN_FUSE_REDUCE:
        out->materialized[i] = true;
        out->group[i] = new_group(out, i);
        break;
    }
    for (int32_t k = 0; k < (c == KILN_FUSE_EPILOGUE ? 1 : op->num_operands); k++) {
      const kiln_op *def = op->operands[k]->def;
      int32_t p = def ? kiln_fusion_index(out, def) : -1;
      if (p < 0) continue;
      bool in_loop = out->group[i] >= 0 && (c == KILN_FUSE_LOOP || c == KILN_FUSE_REDUCE);
      if (out->cls[p] == KILN_FUSE_DUPLICATE) {
        /* recomputed by whoever reads it inside a loop (or by another DUPLICATE op) */
        if (!in_loop && c != KILN_FUSE_DUPLICATE) escapes[p] = true;
      } else if (!in_loop) {
        escapes[p] = true;
      } else if (user_group[p] == -1) {
        user_group[p] = out->group[i];
      } else if (user_group[p] != out->group[i]) {
        user_group[p] = -2;
      }
    }
  }
  free(user_group);
  free(escapes);
  return NULL;
}

void kiln_fusion_free(kiln_fusion *f) {
  free((void *)f->ops);
  free(f->cls);
  free(f->group);
  free(f->root);
  free(f->materialized);
  free(f->sorted);
  *f = (kiln_fusion){0};
}
