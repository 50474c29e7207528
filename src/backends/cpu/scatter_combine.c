/* A scatter's update computation applied to runs of elements (gather_scatter.h): the
 * region `return %update`, `return %current` or one binary op of the two arguments is
 * recognised once, when the op is prepared, and becomes a typed loop. Each computes what
 * the interpreter's scalar kernel computes: integers wrap (in the unsigned type of their
 * width), f32/f64 round once, bf16 computes in f32 and rounds to nearest even (exact for
 * + and *: f32 holds 2p+2 bits), maximum/minimum propagate NaN and order -0 < +0 (the
 * current value wins ties, as `pick` does). Other types and ops go through the
 * interpreter's scalar kernel, element by element. A replacing update has typed by-index
 * loops too (replace_by). */
#include <immintrin.h>
#include <math.h>

#include "backends/cpu/gather_scatter.h"

static void combine_keep(const kiln_cpu_combiner *c, uint8_t *dst, int64_t ds, const uint8_t *src, int64_t n) {
  (void)c, (void)dst, (void)ds, (void)src, (void)n;
}

static void combine_replace(const kiln_cpu_combiner *c, uint8_t *dst, int64_t ds, const uint8_t *src, int64_t n) {
  size_t eb = c->elem_bytes;
  if (ds == 1) {
    memcpy(dst, src, (size_t)n * eb);
    return;
  }
  for (int64_t w = 0; w < n; w++) memcpy(dst + (size_t)(w * ds) * eb, src + (size_t)w * eb, eb);
}

static void combine_scalar(const kiln_cpu_combiner *c, uint8_t *dst, int64_t ds, const uint8_t *src, int64_t n) {
  size_t eb = c->elem_bytes;
  for (int64_t w = 0; w < n; w++) {
    uint8_t *d = dst + (size_t)(w * ds) * eb;
    kiln_scalar cur = kiln_scalar_load(c->elem, d), up = kiln_scalar_load(c->elem, src + (size_t)w * eb);
    kiln_scalar args[2] = {c->swapped ? up : cur, c->swapped ? cur : up};
    kiln_scalar_store(c->elem, d, c->scalar(&c->ew, args));
  }
}

static void combine_keep_at(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *da, const uint8_t *src,
                            const int64_t *sa, int64_t n) {
  (void)c, (void)dst, (void)da, (void)src, (void)sa, (void)n;
}

/* Row by row through the run function (keep, replace, the scalar path). */
static void combine_each_row(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *dr, const uint8_t *src,
                             const int64_t *sr, int64_t m, int64_t inner) {
  size_t row = (size_t)inner * c->elem_bytes;
  for (int64_t j = 0; j < m; j++) c->fn(c, dst + (size_t)dr[j] * row, 1, src + (size_t)sr[j] * row, inner);
}

/* Element by element through the run function (replace, the scalar path). */
static void combine_each_at(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *da, const uint8_t *src,
                            const int64_t *sa, int64_t n) {
  size_t eb = c->elem_bytes;
  for (int64_t w = 0; w < n; w++) c->fn(c, dst + (size_t)da[w] * eb, 1, src + (size_t)sa[w] * eb, 1);
}

/* NaN first (a's, then b's), then -0 < +0 with the current value (a) kept on ties. Without
 * branches (a scatter's random updates mispredict half of them), in SSE registers: the
 * hardware's maximum or minimum (b where the two are unordered or both zero), ties made
 * a & b (maximum: +0 over -0) or a | b (minimum), then a where a is NaN. The integer form
 * this replaces (the bits ordered as integers, compared, selected) put a dozen dependent
 * operations between a scatter's load and its store: a C model of x.at[i, j].max(v), 100,000
 * points into f32[512, 512], 475 -> 182 us (AMD Zen 4). */
#define ORDERED_MAX_MIN(N, F, V, SFX, P, SET, GET)                                            \
  static inline F N##_pick(F a, F b, bool max) {                                              \
    V va = SET(a), vb = SET(b);                                                               \
    V m = max ? _mm_max_##SFX(va, vb) : _mm_min_##SFX(va, vb);                                \
    V eq = _mm_cmpeq_##SFX(va, vb), na = _mm_cmpunord_##SFX(va, va);                          \
    V tie = max ? _mm_and_##P(va, vb) : _mm_or_##P(va, vb);                                   \
    m = _mm_or_##P(_mm_andnot_##P(eq, m), _mm_and_##P(eq, tie));                              \
    return GET(_mm_or_##P(_mm_andnot_##P(na, m), _mm_and_##P(na, va)));                       \
  }
ORDERED_MAX_MIN(f32, float, __m128, ss, ps, _mm_set_ss, _mm_cvtss_f32)
ORDERED_MAX_MIN(f64, double, __m128d, sd, pd, _mm_set_sd, _mm_cvtsd_f64)
#define FMAX(a, b) _Generic((a), float: f32_pick, double: f64_pick)(a, b, true)
#define FMIN(a, b) _Generic((a), float: f32_pick, double: f64_pick)(a, b, false)

static inline float bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline uint16_t f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40); /* NaN stays NaN (quiet) */
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

/* One typed loop: storage type S, computed in C as LOAD(S) -> T, EXPR on (a, b), STORE;
 * built twice, for the baseline and (NAME_avx2) for AVX2, which the host picks between when
 * the op is prepared (a row of 64 floats: 8 vector adds, not 16). */
#define DEFINE_COMBINE_FOR(NAME, TARGET, S, T, LOAD, STORE, EXPR)                                                 \
  TARGET static void NAME(const kiln_cpu_combiner *c, uint8_t *dst, int64_t ds, const uint8_t *src, int64_t n) { \
    (void)c;                                                                                                    \
    S *restrict d = (S *)dst;                                                                                   \
    const S *restrict u = (const S *)src;                                                                       \
    if (ds == 1) { /* the common case: a row, vectorised */                                                     \
      for (int64_t w = 0; w < n; w++) {                                                                         \
        T a = LOAD(d[w]), b = LOAD(u[w]);                                                                       \
        d[w] = STORE(EXPR);                                                                                     \
      }                                                                                                         \
      return;                                                                                                   \
    }                                                                                                           \
    for (int64_t w = 0; w < n; w++) {                                                                           \
      T a = LOAD(d[w * ds]), b = LOAD(u[w]);                                                                    \
      d[w * ds] = STORE(EXPR);                                                                                  \
    }                                                                                                           \
  }
/* The same over whole rows (kiln_cpu_combine_rows_fn): the typed loop RUN (of the same
 * target, inlined) over a block of a segment sum's rows in one call, not one call each. */
#define DEFINE_COMBINE_ROWS_FOR(NAME, RUN, TARGET, S)                                                          \
  TARGET static void NAME(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *dr, const uint8_t *src,      \
                          const int64_t *sr, int64_t m, int64_t inner) {                                        \
    size_t row = (size_t)inner * sizeof(S);                                                                   \
    for (int64_t j = 0; j < m; j++) RUN(c, dst + (size_t)dr[j] * row, 1, src + (size_t)sr[j] * row, inner);   \
  }
/* Element `at` of d prefetched for writing, at is any integer (an index not checked yet:
 * the address is formed as an integer, and a prefetch never faults). */
#define PREFETCH_AT(d, at) __builtin_prefetch((const void *)((uintptr_t)(d) + (uintptr_t)(at) * sizeof *(d)), 1)
/* The same by an index array of C type I (kiln_cpu_combine_by_fn): one pass, no offsets
 * stored between reading an index and combining its element; with `ahead`, the element
 * that many points on prefetched. */
#define DEFINE_COMBINE_BY(NAME, S, T, LOAD, STORE, EXPR, I)                                                  \
  static void NAME(const kiln_cpu_combiner *c, uint8_t *dst, int64_t step, int64_t lo, int64_t hi,            \
                   const uint8_t *index, int64_t istride, const uint8_t *src, int64_t n, int64_t ahead) {     \
    (void)c;                                                                                                  \
    S *d = (S *)dst;                                                                                          \
    const S *u = (const S *)src;                                                                              \
    const I *x = (const I *)index;                                                                            \
    for (int64_t w = 0; w < n; w++) {                                                                         \
      if (ahead && w + ahead < n) PREFETCH_AT(d, x[(w + ahead) * istride] * step);                           \
      int64_t v = x[w * istride];                                                                             \
      if (v < lo || v >= hi) continue;                                                                        \
      T a = LOAD(d[v * step]), b = LOAD(u[w]);                                                                \
      d[v * step] = STORE(EXPR);                                                                              \
    }                                                                                                         \
  }
/* The same by index pairs (kiln_cpu_combine_by2_fn). */
#define DEFINE_COMBINE_BY2(NAME, S, T, LOAD, STORE, EXPR, I)                                                 \
  static void NAME(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *step, const int64_t *lo,          \
                   const int64_t *hi, const uint8_t *index, int64_t istride, int64_t pstride, const uint8_t *src, \
                   int64_t n, int64_t ahead) {                                                                \
    (void)c;                                                                                                  \
    S *d = (S *)dst;                                                                                          \
    const S *u = (const S *)src;                                                                              \
    const I *x = (const I *)index;                                                                            \
    for (int64_t w = 0; w < n; w++) {                                                                         \
      if (ahead && w + ahead < n)                                                                             \
        PREFETCH_AT(d, x[(w + ahead) * istride] * step[0] + x[(w + ahead) * istride + pstride] * step[1]);    \
      int64_t v0 = x[w * istride], v1 = x[w * istride + pstride];                                             \
      if (v0 < lo[0] || v0 >= hi[0] || v1 < lo[1] || v1 >= hi[1]) continue;                                  \
      int64_t at = v0 * step[0] + v1 * step[1];                                                               \
      T a = LOAD(d[at]), b = LOAD(u[w]);                                                                      \
      d[at] = STORE(EXPR);                                                                                    \
    }                                                                                                         \
  }
#define DEFINE_COMBINE(NAME, S, T, LOAD, STORE, EXPR)                                                        \
  DEFINE_COMBINE_FOR(NAME, , S, T, LOAD, STORE, EXPR)                                                        \
  DEFINE_COMBINE_FOR(NAME##_avx2, __attribute__((target("avx2"))), S, T, LOAD, STORE, EXPR)                  \
  DEFINE_COMBINE_ROWS_FOR(NAME##_rows, NAME, , S)                                                             \
  DEFINE_COMBINE_ROWS_FOR(NAME##_rows_avx2, NAME##_avx2, __attribute__((target("avx2"))), S)                  \
  DEFINE_COMBINE_BY(NAME##_by32, S, T, LOAD, STORE, EXPR, int32_t)                                           \
  DEFINE_COMBINE_BY(NAME##_by64, S, T, LOAD, STORE, EXPR, int64_t)                                           \
  DEFINE_COMBINE_BY2(NAME##_by2_32, S, T, LOAD, STORE, EXPR, int32_t)                                        \
  DEFINE_COMBINE_BY2(NAME##_by2_64, S, T, LOAD, STORE, EXPR, int64_t)                                        \
  static void NAME##_at(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *da, const uint8_t *src,        \
                        const int64_t *sa, int64_t n) {                                                       \
    (void)c;                                                                                                  \
    S *d = (S *)dst;                                                                                          \
    const S *u = (const S *)src;                                                                              \
    for (int64_t w = 0; w < n; w++) {                                                                         \
      T a = LOAD(d[da[w]]), b = LOAD(u[sa[w]]);                                                               \
      d[da[w]] = STORE(EXPR);                                                                                 \
    }                                                                                                         \
  }
#define SAME(x) (x)
#define INT_MAX_OF(a, b) ((a) > (b) ? (a) : (b))
#define INT_MIN_OF(a, b) ((a) < (b) ? (a) : (b))

/* Integer types: NAME, signed-or-not C type, its unsigned twin. */
#define INT_TYPES(X)                \
  X(SI8, int8_t, uint8_t)           \
  X(SI16, int16_t, uint16_t)        \
  X(SI32, int32_t, uint32_t)        \
  X(SI64, int64_t, uint64_t)        \
  X(UI8, uint8_t, uint8_t)          \
  X(UI16, uint16_t, uint16_t)       \
  X(UI32, uint32_t, uint32_t)       \
  X(UI64, uint64_t, uint64_t)

#define DEFINE_INT(N, T, U)                                                   \
  DEFINE_COMBINE(N##_add, U, U, SAME, (U), a + b)                             \
  DEFINE_COMBINE(N##_mul, U, U, SAME, (U), a * b)                             \
  DEFINE_COMBINE(N##_max, T, T, SAME, SAME, INT_MAX_OF(a, b))                 \
  DEFINE_COMBINE(N##_min, T, T, SAME, SAME, INT_MIN_OF(a, b))                 \
  DEFINE_COMBINE(N##_and, U, U, SAME, SAME, a & b)                            \
  DEFINE_COMBINE(N##_or, U, U, SAME, SAME, a | b)                             \
  DEFINE_COMBINE(N##_xor, U, U, SAME, SAME, a ^ b)
INT_TYPES(DEFINE_INT)

/* AVX2 maximum and minimum of f32 and f64, as FMAX and FMIN compute them: the vector
 * instruction, which gives its second operand (the current value) on ties and NaN, wherever
 * no lane of the vector is equal to its update or unordered with it; such a vector (a tie
 * of zeros or of equal values, a NaN) is done lane by lane by `pick`, out of line: inlined,
 * it changed the hot loop's placement with pick's code (segment_max 8% slower when pick
 * became SSE; out of line, 4-10% faster than before). The compiled FMAX loop took twice the
 * time of a sum's (jax.ops.segment_max, rows of 16 f32: 6.5 ns a row against 3.4; this loop
 * 3.4). */
#define DEFINE_VECTOR_MAX_MIN(NAME, S, PICK_MAX, V, LANES, LOAD, STOREV, OP, CMP, MASK)                           \
  __attribute__((noinline, cold, target("avx2"))) static void NAME##_lanes(S *d, const S *u) {                     \
    for (int k = 0; k < LANES; k++) d[k] = PICK_MAX(d[k], u[k]);                                                 \
  }                                                                                                             \
  __attribute__((target("avx2"))) static void NAME(const kiln_cpu_combiner *c, uint8_t *dst, int64_t ds,          \
                                                   const uint8_t *src, int64_t n) {                              \
    (void)c;                                                                                                    \
    S *restrict d = (S *)dst;                                                                                   \
    const S *restrict u = (const S *)src;                                                                       \
    int64_t w = 0;                                                                                              \
    for (; ds == 1 && w + LANES <= n; w += LANES) {                                                             \
      V a = LOAD(d + w), b = LOAD(u + w);                                                                       \
      if (MASK(CMP(a, b, _CMP_EQ_UQ)) == 0) {                                                                   \
        STOREV(d + w, OP(b, a));                                                                                \
        continue;                                                                                               \
      }                                                                                                         \
      NAME##_lanes(d + w, u + w);                                                                               \
    }                                                                                                           \
    for (; w < n; w++) d[w * ds] = PICK_MAX(d[w * ds], u[w]);                                                   \
  }                                                                                                             \
  DEFINE_COMBINE_ROWS_FOR(NAME##_rows, NAME, __attribute__((target("avx2"))), S)
DEFINE_VECTOR_MAX_MIN(F32_max_vector, float, FMAX, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_max_ps,
                      _mm256_cmp_ps, _mm256_movemask_ps)
DEFINE_VECTOR_MAX_MIN(F32_min_vector, float, FMIN, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_min_ps,
                      _mm256_cmp_ps, _mm256_movemask_ps)
DEFINE_VECTOR_MAX_MIN(F64_max_vector, double, FMAX, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_max_pd,
                      _mm256_cmp_pd, _mm256_movemask_pd)
DEFINE_VECTOR_MAX_MIN(F64_min_vector, double, FMIN, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_min_pd,
                      _mm256_cmp_pd, _mm256_movemask_pd)

#define FLOAT_TYPES(X)                                 \
  X(F32, float, float, SAME, SAME)                     \
  X(F64, double, double, SAME, SAME)                   \
  X(BF16, uint16_t, float, bf16_to_f32, f32_to_bf16)

#define DEFINE_FLOAT(N, S, T, LOAD, STORE)               \
  DEFINE_COMBINE(N##_add, S, T, LOAD, STORE, a + b)      \
  DEFINE_COMBINE(N##_mul, S, T, LOAD, STORE, a * b)      \
  DEFINE_COMBINE(N##_max, S, T, LOAD, STORE, FMAX(a, b)) \
  DEFINE_COMBINE(N##_min, S, T, LOAD, STORE, FMIN(a, b))
FLOAT_TYPES(DEFINE_FLOAT)

/* i1 (one byte, 0 or 1): add and maximum are or, multiply and minimum are and. */
DEFINE_COMBINE(i1_or, uint8_t, uint8_t, SAME, SAME, a | b)
DEFINE_COMBINE(i1_and, uint8_t, uint8_t, SAME, SAME, a & b)
DEFINE_COMBINE(i1_xor, uint8_t, uint8_t, SAME, SAME, a ^ b)

/* `return %update` by an index array or index pairs: the update's bits stored, for each
 * storage width (the current value is read for the macros' form, and not used). */
#define KEEP_UPDATE(a, b) ((void)(a), (b))
#define DEFINE_REPLACE(B, S)                                                              \
  DEFINE_COMBINE_BY(replace##B##_by32, S, S, SAME, SAME, KEEP_UPDATE(a, b), int32_t)     \
  DEFINE_COMBINE_BY(replace##B##_by64, S, S, SAME, SAME, KEEP_UPDATE(a, b), int64_t)     \
  DEFINE_COMBINE_BY2(replace##B##_by2_32, S, S, SAME, SAME, KEEP_UPDATE(a, b), int32_t)  \
  DEFINE_COMBINE_BY2(replace##B##_by2_64, S, S, SAME, SAME, KEEP_UPDATE(a, b), int64_t)
DEFINE_REPLACE(8, uint8_t)
DEFINE_REPLACE(16, uint16_t)
DEFINE_REPLACE(32, uint32_t)
DEFINE_REPLACE(64, uint64_t)

/* The by-index loops of a replacing update into out, for elements of `bytes` bytes (none
 * for other widths: the general path). */
static void replace_by(size_t bytes, kiln_cpu_combiner *out) {
#define REPLACE_PICK(B)                                                                   \
  (out->by_si32 = replace##B##_by32, out->by_si64 = replace##B##_by64,                   \
   out->by2_si32 = replace##B##_by2_32, out->by2_si64 = replace##B##_by2_64)
  switch (bytes) {
    case 1: REPLACE_PICK(8); break;
    case 2: REPLACE_PICK(16); break;
    case 4: REPLACE_PICK(32); break;
    case 8: REPLACE_PICK(64); break;
    default: break;
  }
#undef REPLACE_PICK
}

/* The loops of op k on type e into out (the run loop's AVX2 build when avx2); false when
 * there are none. */
static bool native(kiln_elem e, kiln_op_kind k, bool avx2, kiln_cpu_combiner *out) {
#define PICK(F)                                                                                                \
  (out->fn = avx2 ? F##_avx2 : F, out->rows = avx2 ? F##_rows_avx2 : F##_rows, out->at = F##_at,               \
   out->by_si32 = F##_by32, out->by_si64 = F##_by64,                                                           \
   out->by2_si32 = F##_by2_32, out->by2_si64 = F##_by2_64, true)
#define ARITH_CASES(N)                                 \
  case KILN_OP_ADD: return PICK(N##_add);              \
  case KILN_OP_MULTIPLY: return PICK(N##_mul);         \
  case KILN_OP_MAXIMUM: return PICK(N##_max);          \
  case KILN_OP_MINIMUM: return PICK(N##_min);
#define INT_CASE(N, T, U)                              \
  case KILN_ELEM_##N:                                  \
    switch (k) {                                       \
      ARITH_CASES(N)                                   \
      case KILN_OP_AND: return PICK(N##_and);          \
      case KILN_OP_OR: return PICK(N##_or);            \
      case KILN_OP_XOR: return PICK(N##_xor);          \
      default: return false;                           \
    }
#define FLOAT_CASE(N, S, T, LOAD, STORE)               \
  case KILN_ELEM_##N:                                  \
    switch (k) {                                       \
      ARITH_CASES(N)                                   \
      default: return false;                           \
    }
  switch (e) {
    INT_TYPES(INT_CASE)
    FLOAT_TYPES(FLOAT_CASE)
    case KILN_ELEM_I1:
      switch (k) {
        case KILN_OP_ADD: case KILN_OP_OR: case KILN_OP_MAXIMUM: return PICK(i1_or);
        case KILN_OP_MULTIPLY: case KILN_OP_AND: case KILN_OP_MINIMUM: return PICK(i1_and);
        case KILN_OP_XOR: return PICK(i1_xor);
        default: return false;
      }
    default: return false;
  }
#undef INT_CASE
#undef PICK
#undef FLOAT_CASE
#undef ARITH_CASES
}

/* The AVX2 run and rows loops of f32 and f64 maximum and minimum (DEFINE_VECTOR_MAX_MIN)
 * into out, for op k on elements e; other ops keep native's. */
static void vector_max_min(kiln_elem e, kiln_op_kind k, kiln_cpu_combiner *out) {
  bool max = k == KILN_OP_MAXIMUM;
  if (!max && k != KILN_OP_MINIMUM) return;
  if (e == KILN_ELEM_F32) {
    out->fn = max ? F32_max_vector : F32_min_vector;
    out->rows = max ? F32_max_vector_rows : F32_min_vector_rows;
  } else if (e == KILN_ELEM_F64) {
    out->fn = max ? F64_max_vector : F64_min_vector;
    out->rows = max ? F64_max_vector_rows : F64_min_vector_rows;
  }
}

/* Whether op k on elements e (natively combined) is order-free (kiln_cpu_combiner), and its
 * identity's bits: integers wrap, so their add, multiply, and, or, xor, maximum and minimum
 * are associative and commutative; float sums and products round, but FMAX and FMIN are
 * exact and order -0 below +0 whichever comes first (only a NaN's payload depends on
 * the order), with -inf and +inf for identities. */
static bool order_free(kiln_elem e, kiln_op_kind k, uint64_t *identity) {
  if (k == KILN_OP_MAXIMUM || k == KILN_OP_MINIMUM) {
    bool min = k == KILN_OP_MINIMUM;
    switch (e) {
      case KILN_ELEM_F32: *identity = min ? 0x7f800000u : 0xff800000u; return true;
      case KILN_ELEM_F64: *identity = min ? 0x7ff0000000000000ull : 0xfff0000000000000ull; return true;
      case KILN_ELEM_BF16: *identity = min ? 0x7f80u : 0xff80u; return true;
      default: break;
    }
  }
  if (e == KILN_ELEM_I1) { /* one byte, 0 or 1: or (add, maximum), and (multiply, minimum), xor */
    *identity = k == KILN_OP_MULTIPLY || k == KILN_OP_AND || k == KILN_OP_MINIMUM;
    return true;
  }
  kiln_elem_class c = kiln_elem_class_of(e);
  if (!kiln_elem_is_int(e) || (c != KILN_ELEM_CLASS_I && c != KILN_ELEM_CLASS_U)) return false;
  int bits = (int)kiln_elem_storage_bytes(e) * 8;
  uint64_t ones = bits == 64 ? ~0ull : (1ull << bits) - 1, top = 1ull << (bits - 1);
  bool is_signed = c == KILN_ELEM_CLASS_I;
  switch (k) {
    case KILN_OP_ADD: case KILN_OP_OR: case KILN_OP_XOR: *identity = 0; return true;
    case KILN_OP_MULTIPLY: *identity = 1; return true;
    case KILN_OP_AND: *identity = ones; return true;
    case KILN_OP_MAXIMUM: *identity = is_signed ? top : 0; return true;    /* the type's least value */
    case KILN_OP_MINIMUM: *identity = is_signed ? top - 1 : ones; return true; /* its greatest */
    default: return false;
  }
}

/* Whether op k on float elements e (natively combined) regroups (kiln_cpu_combiner), and
 * its identity's bits: a sum's is -0 (-0 + x is x for every x, +0 and -0 included), a
 * product's 1. */
static bool regroup(kiln_elem e, kiln_op_kind k, uint64_t *identity) {
  bool add = k == KILN_OP_ADD;
  if (!add && k != KILN_OP_MULTIPLY) return false;
  switch (e) {
    case KILN_ELEM_F32: *identity = add ? 0x80000000u : 0x3f800000u; return true;
    case KILN_ELEM_F64: *identity = add ? 0x8000000000000000ull : 0x3ff0000000000000ull; return true;
    case KILN_ELEM_BF16: *identity = add ? 0x8000u : 0x3f80u; return true;
    default: return false;
  }
}

/* A rank-0 tensor of plain scalar element type e. */
static bool scalar_of(const kiln_type *t, kiln_elem e) {
  return t && kiln_type_is_tensor(t) && t->tensor.rank == 0 && kiln_type_element(t)->kind == KILN_TYPE_SCALAR &&
         kiln_type_elem(t) == e;
}

bool kiln_cpu_combiner_prepare(const kiln_op *op, kiln_elem elem, kiln_cpu_combiner *out) {
  memset(out, 0, sizeof *out);
  out->elem = elem;
  out->elem_bytes = kiln_elem_storage_bytes(elem);
  const kiln_block *b = op->num_regions == 1 ? kiln_op_block(op, 0) : NULL;
  if (!b || b->next || b->num_args != 2 || !scalar_of(b->args[0].type, elem) || !scalar_of(b->args[1].type, elem))
    return false;
  const kiln_op *ret = b->last;
  if (!ret || ret->num_operands != 1) return false;
  if (b->first == ret) {
    if (ret->operands[0] != &b->args[0] && ret->operands[0] != &b->args[1]) return false;
    bool replace = ret->operands[0] == &b->args[1];
    out->fn = replace ? combine_replace : combine_keep;
    out->rows = combine_each_row;
    out->at = replace ? combine_each_at : combine_keep_at;
    out->how = replace ? "replace" : "keep";
    if (replace) replace_by(out->elem_bytes, out);
    return true;
  }
  const kiln_op *f = b->first;
  if (f->next != ret || f->num_operands != 2 || f->num_results != 1 || ret->operands[0] != &f->results[0] ||
      !scalar_of(f->results[0].type, elem))
    return false;
  const kiln_value *p = f->operands[0], *q = f->operands[1];
  bool straight = p == &b->args[0] && q == &b->args[1], crossed = p == &b->args[1] && q == &b->args[0];
  if (!straight && !crossed) return false;
  out->swapped = crossed;
  out->how = "native";
  bool avx2 = __builtin_cpu_supports("avx2"); /* no KILN_CPU_ISA cap is below AVX2 */
  if (native(elem, f->kind, avx2, out)) {
    if (avx2) vector_max_min(elem, f->kind, out);
    out->order_free = order_free(elem, f->kind, &out->identity);
    out->regroup = !out->order_free && regroup(elem, f->kind, &out->identity);
    return true;
  }
  out->scalar = kiln_ew_binary_fn(f, elem, &out->ew);
  out->fn = combine_scalar;
  out->rows = combine_each_row;
  out->at = combine_each_at;
  out->how = "scalar";
  return out->scalar != NULL;
}
