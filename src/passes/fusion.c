/* Producer-consumer loop fusion over one block (see fusion.h). */
#include "passes/fusion.h"

#include <stdlib.h>

/* A loop op that computes an expensive op (below) and is read more than once per element
 * by a loop nest of at least this many points more than it has is stored, not fused: its
 * reader would compute it again for every point. Fewer recomputations cost less than the
 * loop of its own it would take. */
#define KILN_FUSION_RECOMPUTE_MAX 4096
/* A cheap loop op read by several loop nests, none of which reads it more than once per
 * element, is recomputed in each when it and the loop ops it would take in (counted as a
 * tree) are at most this many; more, and it is stored (a hash's rounds shared by two
 * outputs: random_large 2.9 -> 3.9 ms recomputed whole). */
#define KILN_FUSION_DUPLICATE_MAX_OPS 8
/* A light expensive op (below) read by several loop nests, one of them a reduction that
 * keeps the innermost dim (a column sum: it streams its operand whole, so no block of rows
 * keeps the value in the cache between its readers), is recomputed in each as a cheap one
 * is when it is at least this many bytes (beyond a core's cache, where storing it costs a
 * write and a read of memory per element) and the ops it takes in are cheap or light (not
 * an op whose expense comes from a broadcast of a few divisions: a batch norm's gradient
 * then stored a broadcast whole, 4.2 -> 5.3 MB of temporaries, 1.01-1.09x slower): a column
 * softmax's exponentials (jax.nn.softmax(x, axis=0) of f32[2048,1024]: 1063 -> 786 us,
 * least of 6 medians, AMD Zen 4; XLA:CPU 822 in another run; its 8 MB temporary gone). */
#define KILN_FUSION_STREAM_MIN_BYTES (1 << 20)

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

bool kiln_fusion_expensive(const kiln_op *op) {
  switch (op->kind) {
    case KILN_OP_ATAN2: case KILN_OP_CBRT: case KILN_OP_COSINE: case KILN_OP_DIVIDE: case KILN_OP_EXPONENTIAL:
    case KILN_OP_EXPONENTIAL_MINUS_ONE: case KILN_OP_LOG: case KILN_OP_LOG_PLUS_ONE: case KILN_OP_LOGISTIC:
    case KILN_OP_POWER: case KILN_OP_REMAINDER: case KILN_OP_RSQRT: case KILN_OP_SINE: case KILN_OP_SQRT:
    case KILN_OP_TAN: case KILN_OP_TANH: case KILN_OP_CHLO_ACOS: case KILN_OP_CHLO_ACOSH: case KILN_OP_CHLO_ASIN:
    case KILN_OP_CHLO_ASINH: case KILN_OP_CHLO_ATAN: case KILN_OP_CHLO_ATANH: case KILN_OP_CHLO_BESSEL_I1E:
    case KILN_OP_CHLO_COSH: case KILN_OP_CHLO_DIGAMMA: case KILN_OP_CHLO_ERF: case KILN_OP_CHLO_ERF_INV:
    case KILN_OP_CHLO_ERFC: case KILN_OP_CHLO_LGAMMA: case KILN_OP_CHLO_SINH: case KILN_OP_CHLO_TAN: return true;
    default: return false;
  }
}

/* Expensive ops that cost a few vector instructions an element (no long polynomial): an
 * exponential's, a logarithm's, a division, roots. */
static bool light(const kiln_op *op) {
  switch (op->kind) {
    case KILN_OP_DIVIDE: case KILN_OP_EXPONENTIAL: case KILN_OP_LOG: case KILN_OP_LOGISTIC: case KILN_OP_RSQRT:
    case KILN_OP_SQRT: return true;
    default: return false;
  }
}

/* Whether op is a reduction that keeps its operand's innermost dim (each point's partial
 * results are a row of the result, updated as the rows of the operand stream by). */
static bool column_reduction(const kiln_op *op) {
  if (op->kind != KILN_OP_REDUCE || !op->num_operands || !kiln_type_is_tensor(op->operands[0]->type)) return false;
  int32_t inner = op->operands[0]->type->tensor.rank - 1;
  const kiln_attr *dims = kiln_op_attr(op, "dimensions");
  int64_t d;
  for (int64_t k = 0; k < kiln_attr_count(dims); k++)
    if (kiln_attr_i64_at(dims, k, &d) && d == inner) return false;
  return inner > 0;
}

static int64_t elements(const kiln_type *t) {
  return t && kiln_type_is_tensor(t) && t->tensor.num_elements >= 0 ? t->tensor.num_elements : -1;
}

/* The bytes of op's first result (0 when unknown). */
static int64_t stream_bytes(const kiln_op *op) {
  const kiln_type *t = op->results[0].type;
  int64_t n = elements(t), b;
  if (n < 0 || !kiln_type_is_tensor(t) || __builtin_mul_overflow(n, (int64_t)kiln_elem_storage_bytes(kiln_type_elem(t)), &b))
    return 0;
  return b;
}

/* The elements of a window op's window (1 for any other op); -1 on overflow. */
static int64_t window_elements(const kiln_op *op) {
  int64_t window = 1, size;
  if (op->kind != KILN_OP_REDUCE_WINDOW) return 1;
  const kiln_attr *w = kiln_op_attr(op, "window_dimensions");
  for (int64_t d = 0; d < kiln_attr_count(w); d++)
    if (kiln_attr_i64_at(w, d, &size) && __builtin_mul_overflow(window, size, &window)) return -1;
  return window;
}

/* The points a loop nest computing op visits: its result's elements times its window's
 * (a reduction's: its operand's); -1 when unknown. */
static int64_t loop_points(const kiln_op *op) {
  if (op->kind == KILN_OP_REDUCE && op->num_operands) return elements(op->operands[0]->type);
  int64_t out = elements(op->results[0].type), window = window_elements(op), points;
  return out < 0 || window < 0 || __builtin_mul_overflow(out, window, &points) ? -1 : points;
}

/* Whether op, computed in a loop nest, reads elements of its operand k more than once: a
 * broadcast, a product without a contraction (an outer product), overlapping windows. */
static bool rereads(const kiln_op *op, int32_t k) {
  int64_t in = elements(op->operands[k]->type), points = loop_points(op);
  bool reuses = op->kind == KILN_OP_BROADCAST_IN_DIM || op->kind == KILN_OP_DOT_GENERAL ||
                op->kind == KILN_OP_REDUCE_WINDOW;
  return reuses && in >= 0 && points > in;
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
  /* costly[i]: op i, with the loop ops before it that it may take in, computes an expensive op;
   * heavy[i]: one that is not light; tree[i]: how many ops that is, shared ones counted once
   * per use (saturating) */
  bool *costly = calloc(m, sizeof *costly), *heavy = calloc(m, sizeof *heavy);
  int32_t *tree = calloc(m, sizeof *tree);
  bool *reread = calloc(m, sizeof *reread); /* read more than once per element (rereads) by a user */
  bool *streamed = calloc(m, sizeof *streamed); /* read by a group whose root is a column_reduction */
  if (!out->ops || !out->cls || !out->group || !out->root || !out->materialized || !out->sorted || !user_group ||
      !escapes || !costly || !heavy || !tree || !reread || !streamed) {
    free(user_group), free(escapes), free(costly), free(heavy), free(tree), free(reread), free(streamed);
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
  for (i = 0; i < n; i++) {
    const kiln_op *op = out->ops[i];
    if (out->cls[i] != KILN_FUSE_LOOP && out->cls[i] != KILN_FUSE_GATHER) continue;
    costly[i] = kiln_fusion_expensive(op) || out->cls[i] == KILN_FUSE_GATHER; /* a load from anywhere */
    heavy[i] = costly[i] && !light(op);
    tree[i] = 1;
    for (int32_t k = 0; k < op->num_operands; k++) {
      int32_t p = op->operands[k]->def ? kiln_fusion_index(out, op->operands[k]->def) : -1;
      costly[i] |= p >= 0 && costly[p];
      heavy[i] |= p >= 0 && heavy[p];
      if (p >= 0 && tree[i] <= KILN_FUSION_DUPLICATE_MAX_OPS) tree[i] += tree[p];
    }
  }
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
        if (user_group[i] == -2 && !escapes[i] && !reread[i] && tree[i] <= KILN_FUSION_DUPLICATE_MAX_OPS &&
            (!costly[i] || (streamed[i] && light(op) && !heavy[i] && stream_bytes(op) >= KILN_FUSION_STREAM_MIN_BYTES))) {
          /* cheap (or a light op, streamed), read by several groups */
          out->cls[i] = c = KILN_FUSE_DUPLICATE;
          break;
        }
        /* fall through */
      case KILN_FUSE_GATHER:
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
      bool in_loop = out->group[i] >= 0 && (c == KILN_FUSE_LOOP || c == KILN_FUSE_GATHER || c == KILN_FUSE_REDUCE);
      bool again = rereads(op, k);
      reread[p] |= again;
      streamed[p] |= in_loop && column_reduction(out->ops[out->root[out->group[i]]]);
      if (c == KILN_FUSE_GATHER && k == 0) {
        escapes[p] = true; /* read at computed positions: stored */
      } else if (out->cls[p] == KILN_FUSE_DUPLICATE) {
        /* recomputed by whoever reads it inside a loop (or by another DUPLICATE op) */
        if (!in_loop && c != KILN_FUSE_DUPLICATE) escapes[p] = true;
      } else if (c == KILN_FUSE_DUPLICATE) {
        user_group[p] = -2; /* read wherever the duplicated op is: duplicated too, or stored */
      } else if (!in_loop) {
        escapes[p] = true;
      } else if (costly[p] && again &&
                 loop_points(out->ops[out->root[out->group[i]]]) - elements(op->operands[k]->type) >=
                     KILN_FUSION_RECOMPUTE_MAX) {
        escapes[p] = true; /* stored once rather than computed again for every reader */
      } else if (user_group[p] == -1) {
        user_group[p] = out->group[i];
      } else if (user_group[p] != out->group[i]) {
        user_group[p] = -2;
      }
    }
  }
  free(user_group);
  free(escapes);
  free(costly);
  free(heavy);
  free(tree);
  free(reread);
  free(streamed);
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
