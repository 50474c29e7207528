/* stablehlo.sort without interpreting its comparator: when the comparator is one compare
 * of one operand's pair of arguments (`compare LT, %a_k, %b_k`, any direction but EQ/NE,
 * any compare type; the arguments may first go through JAX's canonicalisation of float
 * keys), each slice's keys are read once into an array of order keys (unsigned
 * integers whose order is the compare's, or doubles for a FLOAT compare, whose NaNs compare
 * false as IEEE says), a stable bottom-up merge sort orders an index permutation by them,
 * and every operand is permuted by it. The merge is the interpreter's, comparison for
 * comparison, so the result is the same even where the comparator is not a strict order
 * (NaNs under FLOAT, LE). Slices are sorted in parallel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/pool.h"
#include "base/fault.h"

typedef enum key_kind { KEYS_ORDERED, KEYS_FLOAT } key_kind;
typedef enum direction { DIR_LT, DIR_LE, DIR_GT, DIR_GE } direction;

struct kiln_cpu_sort {
  int32_t num_operands, key;     /* the operand the comparator reads */
  key_kind kind;
  direction dir;
  bool swapped;                  /* compare(b, a): the comparator's operands reversed */
  bool canonical;                /* keys canonicalised first: -0 as +0, NaNs as one NaN */
  kiln_elem key_elem;
  int64_t outer, len, inner;     /* slices along the sort dimension */
  size_t *elem_bytes;            /* per operand */
};

/* The splat float constant v is defined by, or false. */
static bool splat_value(const kiln_value *v, double *out) {
  const kiln_op *def = v->def;
  const kiln_attr *a = def && def->kind == KILN_OP_CONSTANT ? kiln_op_attr(def, "value") : NULL;
  if (!a || a->kind != KILN_ATTR_DENSE || !a->dense.splat || !kiln_elem_is_float(kiln_type_elem(v->type))) return false;
  *out = kiln_scalar_load(kiln_type_elem(v->type), a->dense.data).f;
  return true;
}

static bool is_compare(const kiln_value *v, const char *dir, const kiln_value **x, const kiln_value **y) {
  const kiln_op *c = v->def;
  if (!c || c->kind != KILN_OP_COMPARE) return false;
  const char *d = kiln_attr_enum_text(kiln_op_attr(c, "comparison_direction"));
  *x = c->operands[0];
  *y = c->operands[1];
  return d && !strcmp(d, dir);
}

/* The block argument v is, directly or through JAX's canonicalisation of sort keys
 * (select(x != x, NaN, select(x == 0, 0, x)): -0 sorts as +0, every NaN as one NaN). */
static const kiln_value *key_argument(const kiln_value *v, bool *canonical) {
  *canonical = false;
  if (!v->def) return v;
  const kiln_op *outer = v->def;
  if (outer->kind != KILN_OP_SELECT) return NULL;
  const kiln_value *a, *b, *x, *zero;
  double nan, zv, zv2;
  if (!is_compare(outer->operands[0], "NE", &a, &b) || a != b || !splat_value(outer->operands[1], &nan) || nan == nan ||
      signbit(nan))
    return NULL;
  const kiln_op *inner = outer->operands[2]->def;
  if (!inner || inner->kind != KILN_OP_SELECT || !is_compare(inner->operands[0], "EQ", &x, &zero) || x != a ||
      !splat_value(zero, &zv) || zv != 0 || !splat_value(inner->operands[1], &zv2) || zv2 != 0 || signbit(zv2) ||
      inner->operands[2] != a || a->def)
    return NULL;
  *canonical = true;
  return a;
}

/* The comparator's shape, or false: `return compare(p, q)` where p and q are the two
 * arguments of one operand, each maybe canonicalised. */
static bool read_comparator(const kiln_op *op, kiln_cpu_sort *s) {
  const kiln_block *b = kiln_op_block(op, 0);
  if (!b || b->next || b->num_args != 2 * op->num_operands || !b->last) return false;
  const kiln_op *ret = b->last;
  if (ret->num_operands != 1 || !ret->operands[0]->def || ret->operands[0]->def->kind != KILN_OP_COMPARE) return false;
  const kiln_op *c = ret->operands[0]->def;
  bool cx, cy;
  const kiln_value *x = key_argument(c->operands[0], &cx), *y = key_argument(c->operands[1], &cy);
  if (!x || !y || cx != cy || x->block != b || y->block != b || x->index / 2 != y->index / 2 || x->index == y->index)
    return false;
  s->key = x->index / 2;
  s->swapped = x->index % 2 == 1;
  s->canonical = cx;
  const char *d = kiln_attr_enum_text(kiln_op_attr(c, "comparison_direction"));
  static const char *const names[] = {"LT", "LE", "GT", "GE"};
  int k = -1;
  for (int i = 0; d && i < 4; i++)
    if (!strcmp(d, names[i])) k = i;
  if (k < 0) return false;
  s->dir = (direction)k;
  const char *t = kiln_attr_enum_text(kiln_op_attr(c, "compare_type"));
  s->key_elem = kiln_type_elem(x->type);
  bool fl = kiln_elem_is_float(s->key_elem);
  if (kiln_elem_is_complex(s->key_elem) || s->key_elem == KILN_ELEM_F8E8M0FNU || (s->canonical && !fl)) return false;
  s->kind = fl && !(t && !strcmp(t, "TOTALORDER")) ? KEYS_FLOAT : KEYS_ORDERED;
  return true;
}

kiln_status kiln_cpu_sort_prepare(const kiln_op *op, kiln_cpu_sort **out) {
  *out = NULL;
  if (op->kind != KILN_OP_SORT || op->num_operands < 1 || op->num_operands > KILN_CPU_MAX_SORT_OPERANDS ||
      op->num_results != op->num_operands)
    return NULL;
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *t = op->operands[i]->type;
    if (!kiln_type_is_tensor(t) || !kiln_type_is_static(t) || kiln_type_is_quant_tensor(t)) return NULL;
  }
  kiln_cpu_sort s = {.num_operands = op->num_operands};
  if (!read_comparator(op, &s)) return NULL;
  const kiln_type *t = op->operands[0]->type;
  int64_t d = 0;
  kiln_attr_i64_at(kiln_op_attr(op, "dimension"), 0, &d);
  if (d < 0) d += t->tensor.rank;
  if (d < 0 || d >= t->tensor.rank) return NULL;
  s.outer = s.inner = 1;
  s.len = t->tensor.dims[d];
  for (int32_t i = 0; i < d; i++) s.outer *= t->tensor.dims[i];
  for (int32_t i = (int32_t)d + 1; i < t->tensor.rank; i++) s.inner *= t->tensor.dims[i];
  kiln_cpu_sort *p = calloc(1, sizeof *p);
  size_t *eb = calloc((size_t)op->num_operands, sizeof *eb);
  if (!p || !eb) {
    free(p), free(eb);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  *p = s;
  for (int32_t i = 0; i < op->num_operands; i++) eb[i] = kiln_elem_storage_bytes(kiln_type_elem(op->operands[i]->type));
  p->elem_bytes = eb;
  *out = p;
  return NULL;
}

void kiln_cpu_sort_destroy(kiln_cpu_sort *s) {
  if (!s) return;
  free(s->elem_bytes);
  free(s);
}

/* An unsigned key whose order is the compare's ordered (integer, or float TOTALORDER) order. */
static uint64_t ordered_key(kiln_elem e, const uint8_t *p) {
  kiln_scalar v = kiln_scalar_load(e, p);
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_U:
    case KILN_ELEM_CLASS_B: return v.u;
    case KILN_ELEM_CLASS_I: return v.u ^ ((uint64_t)1 << 63);
    default: { /* floats: the total order's key from the storage bits */
      int width = kiln_elem_bits(e);
      uint64_t bits = 0;
      memcpy(&bits, p, (size_t)(width + 7) / 8);
      if (width < 64) bits &= ((uint64_t)1 << width) - 1;
      uint64_t sign = (uint64_t)1 << (width - 1);
      return bits & sign ? ~bits & (sign | (sign - 1)) : bits | sign;
    }
  }
}

typedef union key {
  uint64_t u;
  double f;
} key;

/* comparator(x, y) for the slice's keys */
static inline bool before(const kiln_cpu_sort *s, const key *k, int64_t x, int64_t y) {
  if (s->swapped) {
    int64_t t = x;
    x = y;
    y = t;
  }
  if (s->kind == KEYS_FLOAT) {
    double a = k[x].f, b = k[y].f;
    switch (s->dir) {
      case DIR_LT: return a < b;
      case DIR_LE: return a <= b;
      case DIR_GT: return a > b;
      default: return a >= b;
    }
  }
  uint64_t a = k[x].u, b = k[y].u;
  switch (s->dir) {
    case DIR_LT: return a < b;
    case DIR_LE: return a <= b;
    case DIR_GT: return a > b;
    default: return a >= b;
  }
}

/* The interpreter's stable bottom-up merge sort of perm[0, n). */
static void merge_sort(const kiln_cpu_sort *s, const key *k, int64_t *perm, int64_t *tmp, int64_t n) {
  int64_t *src = perm, *dst = tmp;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = mid + width < n ? mid + width : n;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) dst[o++] = before(s, k, src[j], src[i]) ? src[j++] : src[i++];
      while (i < mid) dst[o++] = src[i++];
      while (j < hi) dst[o++] = src[j++];
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != perm) memcpy(perm, src, sizeof *perm * (size_t)n);
}

static void sort_slice(const kiln_cpu_sort *s, const void *const *in, void *const *out, int64_t slice, key *k,
                       int64_t *perm) {
  int64_t o = slice / s->inner, j = slice % s->inner, base = o * s->len * s->inner + j;
  size_t kb = s->elem_bytes[s->key];
  const uint8_t *keys = in[s->key];
  for (int64_t i = 0; i < s->len; i++) {
    const uint8_t *p = keys + (size_t)(base + i * s->inner) * kb;
    if (s->canonical) { /* as the comparator computes: the canonical value's key */
      double v = kiln_scalar_load(s->key_elem, p).f;
      v = v != v ? NAN : v == 0 ? 0.0 : v;
      if (s->kind == KEYS_FLOAT) k[i].f = v;
      else k[i].u = ordered_key(KILN_ELEM_F64, (const uint8_t *)&v);
    } else if (s->kind == KEYS_FLOAT) {
      k[i].f = kiln_scalar_load(s->key_elem, p).f;
    } else {
      k[i].u = ordered_key(s->key_elem, p);
    }
    perm[i] = i;
  }
  merge_sort(s, k, perm, perm + s->len, s->len);
  for (int32_t a = 0; a < s->num_operands; a++) {
    size_t eb = s->elem_bytes[a];
    const uint8_t *src = in[a];
    uint8_t *dst = out[a];
    for (int64_t i = 0; i < s->len; i++)
      memcpy(dst + (size_t)(base + i * s->inner) * eb, src + (size_t)(base + perm[i] * s->inner) * eb, eb);
  }
}

typedef struct sort_job {
  const kiln_cpu_sort *s;
  const void *const *in;
  void *const *out;
  uint8_t *scratch;
  size_t per;
  int64_t slices;
  int32_t chunks;
} sort_job;

static void sort_slices(void *ctx, int32_t c, int32_t thread) {
  const sort_job *j = ctx;
  uint8_t *mine = j->scratch + j->per * (size_t)thread;
  for (int64_t slice = j->slices * c / j->chunks; slice < j->slices * (c + 1) / j->chunks; slice++)
    sort_slice(j->s, j->in, j->out, slice, (key *)mine, (int64_t *)(mine + (size_t)j->s->len * sizeof(key)));
}

kiln_status kiln_cpu_sort_run(const kiln_cpu_sort *s, const void *const *in, void *const *out) {
  int64_t slices = s->outer * s->inner;
  if (!slices || !s->len) return NULL;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  /* a merge sort touches each element about log2(len) times */
  int64_t work = slices * s->len * (64 - __builtin_clzll((unsigned long long)s->len));
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, slices);
  int32_t threads = chunks > 1 ? kiln_cpu_pool_threads(pool) : 1;
  /* per thread: the keys and the permutation with its merge buffer */
  size_t per = (size_t)s->len * (sizeof(key) + 2 * sizeof(int64_t));
  uint8_t *scratch = kiln_fault_malloc(per * (size_t)threads);
  if (!scratch) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory sorting %lld elements", (long long)s->len);
  sort_job j = {s, in, out, scratch, per, slices, chunks};
  kiln_cpu_pool_run(pool, chunks, work, sort_slices, &j);
  free(scratch);
  return NULL;
}
