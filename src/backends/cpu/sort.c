/* stablehlo.sort without interpreting its comparator: when the comparator is one compare
 * of one operand's pair of arguments (`compare LT, %a_k, %b_k`, any direction but EQ/NE,
 * any compare type; the arguments may first go through JAX's canonicalisation of float
 * keys), each slice's keys are read once into an array of order keys (unsigned
 * integers whose order is the compare's, or doubles for a FLOAT compare, whose NaNs compare
 * false as IEEE says), a stable bottom-up merge sort orders an index permutation by them,
 * and every operand is permuted by it. The merge is the interpreter's, comparison for
 * comparison, so the result is the same even where the comparator is not a strict order
 * (NaNs under FLOAT, LE). Slices are sorted in parallel.
 *
 * Several keys (lax.sort's num_keys, jnp.lexsort): `or(lt_0, and(eq_0, or(lt_1, ...)))`,
 * each lt a strict compare (LT, GT) of ordered keys (integers, TOTALORDER floats) and its
 * eq the EQ of the same arguments; such a comparator is a strict weak order, so the stable
 * result is unique, and a stable radix sort by each key in turn, the last first, gives it. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/pool.h"
#include "base/fault.h"

typedef enum key_kind { KEYS_ORDERED, KEYS_FLOAT } key_kind;
typedef enum direction { DIR_LT, DIR_LE, DIR_GT, DIR_GE } direction;

enum { MAX_KEYS = 8 };

/* One key of the comparator: an operand and how its two arguments are compared. */
typedef struct sort_key {
  int32_t operand;
  key_kind kind;
  direction dir;
  bool swapped;   /* compare(b, a): the comparator's operands reversed */
  bool canonical; /* keys canonicalised first: -0 as +0, NaNs as one NaN */
  kiln_elem elem;
} sort_key;

struct kiln_cpu_sort {
  int32_t num_operands, num_keys;
  sort_key keys[MAX_KEYS];       /* most significant first */
  int64_t outer, len, inner;     /* slices along the sort dimension */
  size_t *elem_bytes;            /* per operand */
  /* The last run's scratch, kept for the next (a run takes it or allocates its own, and
   * gives back one): a large sort's 32 bytes an element are not paged in again each run.
   * Its first SPARE_HEADER bytes hold its size. */
  _Atomic(uint8_t *) spare;
};

enum { SPARE_HEADER = 16 };

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

/* The key a compare reads, or false: compare(p, q) where p and q are the two arguments
 * of one operand, each maybe canonicalised; dir_out: its direction among LT LE GT GE, or
 * -1 for EQ (allowed only when eq_ok). */
static bool read_compare(const kiln_op *c, const kiln_block *b, bool eq_ok, sort_key *k, int *dir_out) {
  if (!c || c->kind != KILN_OP_COMPARE) return false;
  bool cx, cy;
  const kiln_value *x = key_argument(c->operands[0], &cx), *y = key_argument(c->operands[1], &cy);
  if (!x || !y || cx != cy || x->block != b || y->block != b || x->index / 2 != y->index / 2 || x->index == y->index)
    return false;
  k->operand = x->index / 2;
  k->swapped = x->index % 2 == 1;
  k->canonical = cx;
  const char *d = kiln_attr_enum_text(kiln_op_attr(c, "comparison_direction"));
  static const char *const names[] = {"LT", "LE", "GT", "GE"};
  int dir = d && eq_ok && !strcmp(d, "EQ") ? -1 : -2;
  for (int i = 0; d && i < 4; i++)
    if (!strcmp(d, names[i])) dir = i;
  if (dir == -2) return false;
  *dir_out = dir;
  if (dir >= 0) k->dir = (direction)dir;
  const char *t = kiln_attr_enum_text(kiln_op_attr(c, "compare_type"));
  k->elem = kiln_type_elem(x->type);
  bool fl = kiln_elem_is_float(k->elem);
  if (kiln_elem_is_complex(k->elem) || k->elem == KILN_ELEM_F8E8M0FNU || (k->canonical && !fl)) return false;
  k->kind = fl && !(t && !strcmp(t, "TOTALORDER")) ? KEYS_FLOAT : KEYS_ORDERED;
  return true;
}

/* The keys of comparator value v, from s->num_keys on: one compare, or
 * or(lt, and(eq, rest)) with lt and eq the same key's strict and equal compares. */
static bool read_keys(const kiln_value *v, const kiln_block *b, kiln_cpu_sort *s) {
  const kiln_op *c = v->def;
  if (!c || s->num_keys >= MAX_KEYS) return false;
  sort_key *k = &s->keys[s->num_keys];
  int dir;
  if (c->kind == KILN_OP_COMPARE) {
    if (!read_compare(c, b, false, k, &dir)) return false;
    s->num_keys++;
    return true;
  }
  if (c->kind != KILN_OP_OR || c->num_operands != 2) return false;
  for (int side = 0; side < 2; side++) { /* which of or's operands is the strict compare */
    const kiln_op *lt = c->operands[side]->def, *conj = c->operands[1 - side]->def;
    if (!lt || lt->kind != KILN_OP_COMPARE || !conj || conj->kind != KILN_OP_AND || conj->num_operands != 2) continue;
    for (int e = 0; e < 2; e++) { /* which of and's operands is the equality */
      const kiln_op *eq = conj->operands[e]->def;
      sort_key ke;
      int de;
      if (!read_compare(lt, b, false, k, &dir) || !read_compare(eq, b, true, &ke, &de) || de != -1) continue;
      /* a strict order of ordered keys, its equality on the same arguments and form */
      if (k->kind != KEYS_ORDERED || ke.kind != KEYS_ORDERED || (k->dir != DIR_LT && k->dir != DIR_GT) ||
          ke.operand != k->operand || ke.canonical != k->canonical)
        continue;
      s->num_keys++;
      if (read_keys(conj->operands[1 - e], b, s)) return true;
      s->num_keys--;
    }
  }
  return false;
}

/* The comparator's keys, or false. */
static bool read_comparator(const kiln_op *op, kiln_cpu_sort *s) {
  const kiln_block *b = kiln_op_block(op, 0);
  if (!b || b->next || b->num_args != 2 * op->num_operands || !b->last) return false;
  const kiln_op *ret = b->last;
  if (ret->num_operands != 1) return false;
  s->num_keys = 0;
  if (!read_keys(ret->operands[0], b, s)) return false;
  for (int32_t j = 0; s->num_keys > 1 && j < s->num_keys; j++) /* several: strict orders of ordered keys */
    if (s->keys[j].kind != KEYS_ORDERED || (s->keys[j].dir != DIR_LT && s->keys[j].dir != DIR_GT)) return false;
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
  free(atomic_load(&s->spare));
  free(s);
}

/* An unsigned key whose order is the compare's ordered (integer, or float TOTALORDER) order. */
static uint64_t ordered_key(kiln_elem e, const uint8_t *p) {
  kiln_scalar v = kiln_scalar_load(e, p);
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_U:
    case KILN_ELEM_CLASS_B: return v.u;
    case KILN_ELEM_CLASS_I: { /* the width's bits with the sign flipped: no more bits than the type has */
      int width = kiln_elem_bits(e);
      return width < 64 ? (v.u ^ (uint64_t)1 << (width - 1)) & (((uint64_t)1 << width) - 1) : v.u ^ (uint64_t)1 << 63;
    }
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

/* comparator(x, y) for the slice's keys (one key) */
static inline bool before(const kiln_cpu_sort *s, const key *k, int64_t x, int64_t y) {
  const sort_key *sk = &s->keys[0];
  if (sk->swapped) {
    int64_t t = x;
    x = y;
    y = t;
  }
  if (sk->kind == KEYS_FLOAT) {
    double a = k[x].f, b = k[y].f;
    switch (sk->dir) {
      case DIR_LT: return a < b;
      case DIR_LE: return a <= b;
      case DIR_GT: return a > b;
      default: return a >= b;
    }
  }
  uint64_t a = k[x].u, b = k[y].u;
  switch (sk->dir) {
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

/* A digit's counts made into the first position of each digit's elements. */
static void starts(int64_t *count) {
  int64_t at = 0;
  for (int32_t v = 0; v < 256; v++) {
    int64_t c = count[v];
    count[v] = at;
    at += c;
  }
}

/* radix_sort's passes when the keys differ in their low 32 bits only and n fits 32 bits:
 * each element is one word, those bits above its index, half the traffic of a key and an
 * index apart. */
static void radix_packed(key *k, int64_t *perm, uint64_t *other, int64_t n, const int32_t *bytes, int32_t nb) {
  uint64_t *src = (uint64_t *)k, *dst = other;
  for (int64_t i = 0; i < n; i++) src[i] = k[i].u << 32 | (uint64_t)perm[i];
  int64_t count[4][256];
  memset(count, 0, sizeof count[0] * (size_t)nb);
  for (int64_t i = 0; i < n; i++)
    for (int32_t d = 0; d < nb; d++) count[d][src[i] >> (32 + 8 * bytes[d]) & 0xff]++;
  for (int32_t d = 0; d < nb; d++) {
    starts(count[d]);
    int32_t shift = 32 + 8 * bytes[d];
    for (int64_t i = 0; i < n; i++) dst[count[d][src[i] >> shift & 0xff]++] = src[i];
    uint64_t *t = src;
    src = dst, dst = t;
  }
  for (int64_t i = 0; i < n; i++) perm[i] = (int64_t)(src[i] & UINT32_MAX);
}

/* A stable sort of perm[0, n) by ordered keys, ascending or descending (the merge sort's
 * order for LT and GT, which are strict), as a least-significant-digit radix sort: a pass
 * per byte in which the keys differ (an i32 key has at most 4). k2 and perm2 hold n each;
 * k's keys are spent. */
static void radix_sort(key *k, int64_t *perm, key *k2, int64_t *perm2, int64_t n, bool descending) {
  uint64_t flip = descending ? UINT64_MAX : 0, diff = 0;
  for (int64_t i = 0; i < n; i++) {
    k[i].u ^= flip;
    diff |= k[i].u ^ k[0].u;
  }
  int32_t bytes[8], nb = 0;
  for (int32_t b = 0; b < 8; b++)
    if (diff >> (8 * b) & 0xff) bytes[nb++] = b;
  if (diff >> 32 == 0 && (uint64_t)n <= UINT32_MAX) { /* the bits that differ and the index in one word */
    radix_packed(k, perm, (uint64_t *)k2, n, bytes, nb);
    return;
  }
  int64_t count[8][256];
  memset(count, 0, sizeof count[0] * (size_t)nb);
  for (int64_t i = 0; i < n; i++)
    for (int32_t d = 0; d < nb; d++) count[d][k[i].u >> (8 * bytes[d]) & 0xff]++;
  key *ks = k, *kd = k2;
  int64_t *ps = perm, *pd = perm2;
  for (int32_t d = 0; d < nb; d++) {
    starts(count[d]);
    int32_t shift = 8 * bytes[d];
    for (int64_t i = 0; i < n; i++) {
      int64_t to = count[d][ks[i].u >> shift & 0xff]++;
      kd[to] = ks[i];
      pd[to] = ps[i];
    }
    key *tk = ks;
    ks = kd, kd = tk;
    int64_t *tp = ps;
    ps = pd, pd = tp;
  }
  if (ps != perm) memcpy(perm, ps, sizeof *perm * (size_t)n);
}

/* The slice's keys k[0, len) (its first at p, len elements s->inner apart) read by a loop
 * of the key's type, for the common forms (32 and 64-bit integers and floats, not
 * canonicalised); false for the others (read element by element). */
static bool read_keys_fast(const kiln_cpu_sort *s, const sort_key *sk, const uint8_t *p, key *k) {
  if (sk->canonical) return false;
  int64_t n = s->len, st = s->inner;
  bool fl = sk->kind == KEYS_FLOAT;
  switch (sk->elem) {
#define READ(T, EXPR)                     \
  for (int64_t i = 0; i < n; i++) {       \
    T v;                                  \
    memcpy(&v, p + sizeof v * (size_t)(i * st), sizeof v); \
    EXPR;                                 \
  }                                       \
  return true;
    case KILN_ELEM_SI32: READ(uint32_t, k[i].u = v ^ 0x80000000u)
    case KILN_ELEM_UI32: READ(uint32_t, k[i].u = v)
    case KILN_ELEM_SI64: READ(uint64_t, k[i].u = v ^ (uint64_t)1 << 63)
    case KILN_ELEM_UI64: READ(uint64_t, k[i].u = v)
    case KILN_ELEM_F32:
      if (fl) {
        READ(float, k[i].f = v)
      }
      READ(uint32_t, k[i].u = v & 0x80000000u ? ~v : v | 0x80000000u)
    case KILN_ELEM_F64:
      if (fl) {
        READ(double, k[i].f = v)
      }
      READ(uint64_t, k[i].u = v >> 63 ? ~v : v | (uint64_t)1 << 63)
#undef READ
    default: return false;
  }
}

/* perm ordered by the keys k: the radix sort where the comparator is a strict order of
 * ordered keys, else the interpreter's merge sort. */
static void sort_perm(const kiln_cpu_sort *s, key *k, int64_t *perm) {
  const sort_key *sk = &s->keys[0];
  if (sk->kind == KEYS_ORDERED && (sk->dir == DIR_LT || sk->dir == DIR_GT))
    radix_sort(k, perm, k + s->len, perm + s->len, s->len, (sk->dir == DIR_GT) != sk->swapped);
  else
    merge_sort(s, k, perm, perm + s->len, s->len);
}

/* Every operand's slice at base permuted by perm into the results. */
static void permute(const kiln_cpu_sort *s, const void *const *in, void *const *out, int64_t base, const int64_t *perm) {
  for (int32_t a = 0; a < s->num_operands; a++) {
    size_t eb = s->elem_bytes[a];
    const uint8_t *src = in[a];
    uint8_t *dst = out[a];
    switch (s->inner == 1 ? eb : 0) { /* a contiguous slice of 4 or 8-byte elements: typed copies */
#define GATHER(T)                                                                        \
  {                                                                                      \
    const T *from = (const T *)(const void *)src + base;                                 \
    T *to = (T *)(void *)dst + base;                                                     \
    for (int64_t i = 0; i < s->len; i++) to[i] = from[perm[i]];                          \
    break;                                                                               \
  }
      case 4: GATHER(uint32_t)
      case 8: GATHER(uint64_t)
#undef GATHER
      default:
        for (int64_t i = 0; i < s->len; i++)
          memcpy(dst + (size_t)(base + i * s->inner) * eb, src + (size_t)(base + perm[i] * s->inner) * eb, eb);
    }
  }
}

/* Key sk of the slice at base into k[0, len). */
static void read_slice_keys(const kiln_cpu_sort *s, const sort_key *sk, const void *const *in, int64_t base, key *k) {
  size_t kb = s->elem_bytes[sk->operand];
  const uint8_t *keys = in[sk->operand];
  if (read_keys_fast(s, sk, keys + (size_t)base * kb, k)) return;
  for (int64_t i = 0; i < s->len; i++) {
    const uint8_t *p = keys + (size_t)(base + i * s->inner) * kb;
    if (sk->canonical) { /* as the comparator computes: the canonical value's key */
      double v = kiln_scalar_load(sk->elem, p).f;
      v = v != v ? NAN : v == 0 ? 0.0 : v;
      if (sk->kind == KEYS_FLOAT) k[i].f = v;
      else k[i].u = ordered_key(KILN_ELEM_F64, (const uint8_t *)&v);
    } else if (sk->kind == KEYS_FLOAT) {
      k[i].f = kiln_scalar_load(sk->elem, p).f;
    } else {
      k[i].u = ordered_key(sk->elem, p);
    }
  }
}

/* k holds 2 * len keys (3 * len with several keys), perm 2 * len indices. */
static void sort_slice(const kiln_cpu_sort *s, const void *const *in, void *const *out, int64_t slice, key *k,
                       int64_t *perm) {
  int64_t o = slice / s->inner, j = slice % s->inner, base = o * s->len * s->inner + j, n = s->len;
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  if (s->num_keys == 1) {
    read_slice_keys(s, &s->keys[0], in, base, k);
    sort_perm(s, k, perm);
  } else { /* stable by each key in turn, the least significant first */
    key *by_index = k + 2 * n;
    for (int32_t q = s->num_keys - 1; q >= 0; q--) {
      const sort_key *sk = &s->keys[q];
      read_slice_keys(s, sk, in, base, by_index);
      for (int64_t i = 0; i < n; i++) k[i] = by_index[perm[i]];
      radix_sort(k, perm, k + n, perm + n, n, (sk->dir == DIR_GT) != sk->swapped);
    }
  }
  permute(s, in, out, base, perm);
}

static size_t key_buffers(const kiln_cpu_sort *s) { return s->num_keys > 1 ? 3 : 2; }

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
    sort_slice(j->s, j->in, j->out, slice, (key *)mine, (int64_t *)(mine + key_buffers(j->s) * (size_t)j->s->len * sizeof(key)));
}

kiln_status kiln_cpu_sort_run(const kiln_cpu_sort *s, const void *const *in, void *const *out) {
  int64_t slices = s->outer * s->inner;
  if (!slices || !s->len) return NULL;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  /* a merge sort touches each element about log2(len) times */
  int64_t work = slices * s->len * (64 - __builtin_clzll((unsigned long long)s->len));
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, slices);
  int32_t threads = chunks > 1 ? kiln_cpu_pool_threads(pool) : 1;
  /* per thread: the keys and the permutation, each with a second buffer (radix passes,
   * merges), and with several keys one more for each key as read */
  size_t per = (size_t)s->len * (key_buffers(s) * sizeof(key) + 2 * sizeof(int64_t)), bytes = per * (size_t)threads;
  kiln_cpu_sort *plan = (kiln_cpu_sort *)s; /* its spare scratch only, taken and given back atomically */
  uint8_t *block = atomic_exchange(&plan->spare, NULL);
  size_t have = 0;
  if (block) memcpy(&have, block, sizeof have);
  if (block && have < bytes) {
    free(block);
    block = NULL;
  }
  if (!block && (block = kiln_fault_malloc(SPARE_HEADER + bytes))) memcpy(block, &bytes, sizeof bytes);
  if (!block) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory sorting %lld elements", (long long)s->len);
  sort_job j = {s, in, out, block + SPARE_HEADER, per, slices, chunks};
  kiln_cpu_pool_run(pool, chunks, work, sort_slices, &j);
  uint8_t *none = NULL;
  if (!atomic_compare_exchange_strong(&plan->spare, &none, block)) free(block);
  return NULL;
}
