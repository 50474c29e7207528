/* The kernels of the cpu backend's window ops (window.h): scans, pads and
 * select_and_scatter, one loop per element type and op (the X-macro WINDOW_TYPES), the
 * innermost loops free of branches on the op so they vectorise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/window.h"
#include "ir/scalar.h"

enum { MAX_RANK = KILN_WINDOW_MAX_RANK, LANE_CHUNK = 256 };

/* ---------------------------------------------------------------- element arithmetic */

/* f16 as the compiler's _Float16 where it has one (gcc; clang from 15), else as its bits
 * through the IR's conversions (clang 14, which builds the fuzzing targets). */
#ifdef __FLT16_MAX__
typedef _Float16 f16_storage;
#define F16_LOAD(v) ((float)(v))
#define F16_STORE(v) ((_Float16)(v))
#else
typedef uint16_t f16_storage;
static inline float f16_load(uint16_t v) { return (float)kiln_scalar_load(KILN_ELEM_F16, (const uint8_t *)&v).f; }
static inline uint16_t f16_store(float f) {
  uint16_t v;
  kiln_scalar_store(KILN_ELEM_F16, (uint8_t *)&v, (kiln_scalar){.f = f});
  return v;
}
#define F16_LOAD(v) f16_load(v)
#define F16_STORE(v) f16_store(v)
#endif

/* LANE_CHUNK values of any compute type (accessed through a pointer to one member). */
typedef union lane_buf {
  float f32[LANE_CHUNK];
  double f64[LANE_CHUNK];
  int8_t i8[LANE_CHUNK];
  int16_t i16[LANE_CHUNK];
  int32_t i32[LANE_CHUNK];
  int64_t i64[LANE_CHUNK];
  uint8_t u8[LANE_CHUNK];
  uint16_t u16[LANE_CHUNK];
  uint32_t u32[LANE_CHUNK];
  uint64_t u64[LANE_CHUNK];
  f16_storage h[LANE_CHUNK];
} lane_buf;

static inline float bf16_load(uint16_t v) {
  uint32_t u = (uint32_t)v << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline uint16_t bf16_store(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40); /* quiet NaN */
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

#define ID(v) (v)
/* i1 is a byte 0 or 1; as the interpreter has it, add is or and multiply is and. */
#define I1_STORE(v) ((uint8_t)((v) != 0))

/* StableHLO's float max/min: NaN propagates, -0 < +0. */
#define FMAX(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) > (b) ? (a) : (b) > (a) ? (b) : signbit(a) ? (b) : (a))
#define FMIN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) < (b) ? (a) : (b) < (a) ? (b) : signbit(a) ? (a) : (b))
#define FLOAT_OP(op, a, b)                 \
  ((op) == KILN_OP_ADD        ? (a) + (b)  \
   : (op) == KILN_OP_MULTIPLY ? (a) * (b)  \
   : (op) == KILN_OP_MAXIMUM  ? FMAX(a, b) \
                              : FMIN(a, b))
/* Integers wrap (computed in uint64_t, truncated by the store). */
#define INT_OP(op, a, b)                                          \
  ((op) == KILN_OP_ADD        ? (uint64_t)(a) + (uint64_t)(b)     \
   : (op) == KILN_OP_MULTIPLY ? (uint64_t)(a) * (uint64_t)(b)     \
   : (op) == KILN_OP_MAXIMUM  ? (uint64_t)((a) > (b) ? (a) : (b)) \
   : (op) == KILN_OP_MINIMUM  ? (uint64_t)((a) < (b) ? (a) : (b)) \
   : (op) == KILN_OP_AND      ? (uint64_t)(a) & (uint64_t)(b)     \
   : (op) == KILN_OP_OR       ? (uint64_t)(a) | (uint64_t)(b)     \
                              : (uint64_t)(a) ^ (uint64_t)(b))
#define CMP(dir, a, b)                    \
  ((dir) == KILN_WINDOW_EQ   ? (a) == (b) \
   : (dir) == KILN_WINDOW_NE ? (a) != (b) \
   : (dir) == KILN_WINDOW_GE ? (a) >= (b) \
   : (dir) == KILN_WINDOW_GT ? (a) > (b)  \
   : (dir) == KILN_WINDOW_LE ? (a) <= (b) \
                             : (a) < (b))

/* The element types handled: X(ID, storage type, compute type, load, store, op macro). */
#define WINDOW_TYPES(X)                                     \
  X(F32, float, float, ID, ID, FLOAT_OP)                    \
  X(F64, double, double, ID, ID, FLOAT_OP)                  \
  X(BF16, uint16_t, float, bf16_load, bf16_store, FLOAT_OP) \
  X(F16, f16_storage, float, F16_LOAD, F16_STORE, FLOAT_OP)    \
  X(SI8, int8_t, int8_t, ID, (int8_t), INT_OP)              \
  X(SI16, int16_t, int16_t, ID, (int16_t), INT_OP)          \
  X(SI32, int32_t, int32_t, ID, (int32_t), INT_OP)          \
  X(SI64, int64_t, int64_t, ID, (int64_t), INT_OP)          \
  X(UI8, uint8_t, uint8_t, ID, (uint8_t), INT_OP)           \
  X(UI16, uint16_t, uint16_t, ID, (uint16_t), INT_OP)       \
  X(UI32, uint32_t, uint32_t, ID, (uint32_t), INT_OP)       \
  X(UI64, uint64_t, uint64_t, ID, (uint64_t), INT_OP)       \
  X(I1, uint8_t, uint8_t, ID, I1_STORE, INT_OP)

bool kiln_cpu_window_elem(kiln_elem e) {
  switch (e) {
#define X(E, T, C, LD, ST, OP) case KILN_ELEM_##E:
    WINDOW_TYPES(X)
#undef X
    return true;
    default: return false;
  }
}

/* out = op(a, b), one element of type e. */
void kiln_cpu_window_combine(kiln_elem e, kiln_op_kind op, const void *a, const void *b, void *out) {
  switch (e) {
#define X(E, T, C, LD, ST, OP) \
  case KILN_ELEM_##E: {        \
    T x, y, r;                 \
    memcpy(&x, a, sizeof x);   \
    memcpy(&y, b, sizeof y);   \
    C cx = LD(x), cy = LD(y);  \
    r = ST(OP(op, cx, cy));    \
    memcpy(out, &r, sizeof r); \
    break;                     \
  }
    WINDOW_TYPES(X)
#undef X
    default: break;
  }
}

/* ---------------------------------------------------------------- scan */

/* Runs BODY(..., OPK) with OPK the constant for op (one of the scan ops; XOR by default), so
 * that each expansion folds its op and vectorises. */
#define EACH_SCAN_OP(op, BODY, ...)                                  \
  switch (op) {                                                      \
    case KILN_OP_ADD: BODY(__VA_ARGS__, KILN_OP_ADD) break;           \
    case KILN_OP_MULTIPLY: BODY(__VA_ARGS__, KILN_OP_MULTIPLY) break; \
    case KILN_OP_MAXIMUM: BODY(__VA_ARGS__, KILN_OP_MAXIMUM) break;   \
    case KILN_OP_MINIMUM: BODY(__VA_ARGS__, KILN_OP_MINIMUM) break;   \
    case KILN_OP_AND: BODY(__VA_ARGS__, KILN_OP_AND) break;           \
    case KILN_OP_OR: BODY(__VA_ARGS__, KILN_OP_OR) break;             \
    default: BODY(__VA_ARGS__, KILN_OP_XOR) break;                    \
  }

/* One row of the scan: out[j] = op(prev[j], x[j]) for j < n (op a constant in each
 * expansion, so the loop vectorises). */
#define SCAN_ROW(T, C, LD, ST, OPM, OPK) \
  for (int64_t j = 0; j < n; j++) {      \
    C p = LD(prev[j]), v = LD(x[j]);     \
    out[j] = ST(OPM(OPK, p, v));         \
  }

#define X(E, T, C, LD, ST, OPM)                                                                               \
  static void scan_row_##E(kiln_op_kind op, T *restrict out, const T *prev, const T *restrict x, int64_t n) { \
    EACH_SCAN_OP(op, SCAN_ROW, T, C, LD, ST, OPM)                                                            \
  }
WINDOW_TYPES(X)
#undef X

/* Scans along contiguous rows (inner 1): ROWS rows at once, so that their chains of ops
 * overlap. out[b * len + i] = op(acc[b], x[b * len + i]), i forward or backward. */
enum { ROWS = 8 };
#define SCAN_COLS(T, C, LD, ST, OPM, OPK)             \
  for (int64_t k = 0; k < len; k++) {                 \
    int64_t i = reverse ? len - 1 - k : k;            \
    for (int64_t b = 0; b < nb; b++) {                \
      T v = ST(OPM(OPK, acc[b], LD(x[b * len + i]))); \
      out[b * len + i] = v;                           \
      acc[b] = LD(v);                                 \
    }                                                 \
  }

#define X(E, T, C, LD, ST, OPM)                                                                                \
  static void scan_cols_##E(kiln_op_kind op, T *restrict out, const T *restrict x, const T *init, int64_t len, \
                            int64_t nb, bool reverse) {                                                        \
    C acc[ROWS];                                                                                               \
    for (int64_t b = 0; b < nb; b++) acc[b] = LD(*init);                                                       \
    EACH_SCAN_OP(op, SCAN_COLS, T, C, LD, ST, OPM)                                                             \
  }
WINDOW_TYPES(X)
#undef X

/* Scans the rows [o0, o1) of outer. */
static void scan_run(const kiln_cpu_window *w, const uint8_t *in, const uint8_t *init, uint8_t *out, int64_t o0,
                     int64_t o1) {
  size_t eb = w->elem_bytes, row = (size_t)w->inner * eb;
  if (w->inner == 1) {
    for (int64_t o = o0; o < o1; o += ROWS) {
      int64_t nb = o1 - o < ROWS ? o1 - o : ROWS;
      size_t off = (size_t)(o * w->len) * eb;
      switch (w->elem) {
#define X(E, T, C, LD, ST, OPM)                                                                                   \
  case KILN_ELEM_##E:                                                                                             \
    scan_cols_##E(w->combiner, (T *)(out + off), (const T *)(in + off), (const T *)init, w->len, nb, w->reverse); \
    break;
        WINDOW_TYPES(X)
#undef X
        default: break;
      }
    }
    return;
  }
  lane_buf buf;
  uint8_t *splat = buf.u8;
  for (int64_t c = 0; c < LANE_CHUNK && c < w->inner; c++) memcpy(splat + (size_t)c * eb, init, eb);
  for (int64_t o = o0; o < o1; o++)
    for (int64_t c0 = 0; c0 < w->inner; c0 += LANE_CHUNK) {
      int64_t n = w->inner - c0 < LANE_CHUNK ? w->inner - c0 : LANE_CHUNK;
      const uint8_t *prev = splat;
      for (int64_t k = 0; k < w->len; k++) {
        int64_t i = w->reverse ? w->len - 1 - k : k;
        size_t off = ((size_t)(o * w->len + i)) * row + (size_t)c0 * eb;
        switch (w->elem) {
#define X(E, T, C, LD, ST, OPM) \
  case KILN_ELEM_##E: scan_row_##E(w->combiner, (T *)(out + off), (const T *)prev, (const T *)(in + off), n); break;
          WINDOW_TYPES(X)
#undef X
          default: break;
        }
        prev = out + off;
      }
    }
}

/* ---------------------------------------------------------------- pad */

static void fill(uint8_t *p, const uint8_t *v, size_t eb, int64_t n) {
  switch (eb) {
#define FILL(T)                                                                     \
  {                                                                                 \
    T x;                                                                            \
    memcpy(&x, v, sizeof x);                                                        \
    for (int64_t i = 0; i < n; i++) memcpy(p + (size_t)i * sizeof x, &x, sizeof x); \
    break;                                                                          \
  }
    case 1: memset(p, *v, (size_t)n); break;
    case 2: FILL(uint16_t)
    case 4: FILL(uint32_t)
    case 8: FILL(uint64_t)
#undef FILL
    default:
      for (int64_t i = 0; i < n; i++) memcpy(p + (size_t)i * eb, v, eb);
      break;
  }
}

/* n >= 1 elements of eb bytes from s (contiguous) to d, stride elements apart, the
 * stride - 1 elements between each two of them set to v: one copy for stride 1, else one
 * pass, typed for the usual sizes (where a memcpy of eb bytes would be a call per element). */
static void spread(uint8_t *d, const uint8_t *s, const uint8_t *v, size_t eb, int64_t n, int64_t stride) {
  if (stride == 1) {
    memcpy(d, s, (size_t)n * eb);
    return;
  }
  switch (eb) {
#define SPREAD(T)                                                                     \
  {                                                                                   \
    T x;                                                                              \
    memcpy(&x, v, sizeof x);                                                          \
    if (stride == 2) /* the common case (interleaving), a loop the compiler vectorises */ \
      for (int64_t i = 0; i + 1 < n; i++) {                                           \
        memcpy(d + (size_t)(2 * i) * sizeof x, s + (size_t)i * sizeof x, sizeof x);   \
        memcpy(d + (size_t)(2 * i + 1) * sizeof x, &x, sizeof x);                     \
      }                                                                               \
    else                                                                              \
      for (int64_t i = 0; i + 1 < n; i++) {                                           \
        uint8_t *o = d + (size_t)(i * stride) * sizeof x;                             \
        memcpy(o, s + (size_t)i * sizeof x, sizeof x);                                \
        for (int64_t k = 1; k < stride; k++) memcpy(o + (size_t)k * sizeof x, &x, sizeof x); \
      }                                                                               \
    memcpy(d + (size_t)((n - 1) * stride) * sizeof x, s + (size_t)(n - 1) * sizeof x, sizeof x); \
    break;                                                                            \
  }
    case 1: SPREAD(uint8_t)
    case 2: SPREAD(uint16_t)
    case 4: SPREAD(uint32_t)
    case 8: SPREAD(uint64_t)
#undef SPREAD
    default:
      for (int64_t i = 0; i < n; i++) {
        memcpy(d + (size_t)(i * stride) * eb, s + (size_t)i * eb, eb);
        if (i + 1 < n) fill(d + (size_t)(i * stride + 1) * eb, v, eb, stride - 1);
      }
      break;
  }
}

/* Writes the padded operand: init everywhere but at lo + i * dil. Rows of the padded
 * tensor (all dims but the last) [r0, r1). */
static void pad_run(const kiln_cpu_window *w, const uint8_t *in, const uint8_t *init, uint8_t *out, int64_t r0,
                    int64_t r1) {
  int32_t r = w->rank, last = r - 1;
  size_t eb = w->elem_bytes;
  int64_t plen = w->pdims[last], n = w->dims[last], lo = w->lo[last], dil = w->dil[last];
  int64_t istr[MAX_RANK];
  istr[last] = 1;
  for (int32_t d = last - 1; d >= 0; d--) istr[d] = istr[d + 1] * w->dims[d + 1];
  for (int64_t row = r0; row < r1; row++) {
    uint8_t *dst = out + (size_t)row * (size_t)plen * eb;
    /* the operand's row, if this padded row is one */
    int64_t rem = row, src = 0;
    bool hit = true;
    for (int32_t d = last - 1; d >= 0; d--) {
      int64_t p = rem % w->pdims[d] - w->lo[d];
      rem /= w->pdims[d];
      if (p < 0 || p % w->dil[d] || p / w->dil[d] >= w->dims[d])
        hit = false;
      else
        src += p / w->dil[d] * istr[d];
    }
    if (!hit) {
      fill(dst, init, eb, plen);
      continue;
    }
    const uint8_t *s = in + (size_t)src * eb;
    /* operand elements i with 0 <= lo + i * dil < plen */
    int64_t i0 = lo >= 0 ? 0 : (-lo + dil - 1) / dil;
    int64_t i1 = plen - lo <= 0 ? 0 : (plen - lo - 1) / dil + 1;
    if (i1 > n) i1 = n;
    if (i0 >= i1) {
      fill(dst, init, eb, plen);
      continue;
    }
    int64_t first = lo + i0 * dil, end = lo + (i1 - 1) * dil + 1; /* the span of the row's elements */
    fill(dst, init, eb, first);
    spread(dst + (size_t)first * eb, s + (size_t)i0 * eb, init, eb, i1 - i0, dil);
    fill(dst + (size_t)end * eb, init, eb, plen - end);
  }
}

/* ---------------------------------------------------------------- select_and_scatter */

/* Over the window positions of one source point (lanes at once): the best value and the
 * number of the position holding it (a mask rather than a branch, so the lanes vectorise). */
#define SELECT_LANES(C, LD, DIR)             \
  for (int64_t c = 0; c < n; c++) {          \
    C v = LD(row[c]), b = best[c];           \
    int32_t keep = -(int32_t)CMP(DIR, b, v); \
    best[c] = keep ? b : v;                  \
    at[c] = (at[c] & keep) | (pos & ~keep);  \
  }

#define X(E, T, C, LD, ST, OPM)                                                                                        \
  static void select_lanes_##E(kiln_window_dir dir, C *restrict best, int32_t *restrict at, const T *restrict row,     \
                               int32_t pos, int64_t n) {                                                               \
    switch (dir) {                                                                                                     \
      case KILN_WINDOW_EQ: SELECT_LANES(C, LD, KILN_WINDOW_EQ) break;                                                  \
      case KILN_WINDOW_NE: SELECT_LANES(C, LD, KILN_WINDOW_NE) break;                                                  \
      case KILN_WINDOW_GE: SELECT_LANES(C, LD, KILN_WINDOW_GE) break;                                                  \
      case KILN_WINDOW_GT: SELECT_LANES(C, LD, KILN_WINDOW_GT) break;                                                  \
      case KILN_WINDOW_LE: SELECT_LANES(C, LD, KILN_WINDOW_LE) break;                                                  \
      default: SELECT_LANES(C, LD, KILN_WINDOW_LT) break;                                                              \
    }                                                                                                                  \
  }                                                                                                                    \
  static void first_lanes_##E(C *restrict best, int32_t *restrict at, const T *restrict row, int32_t pos, int64_t n) { \
    for (int64_t c = 0; c < n; c++) {                                                                                  \
      best[c] = LD(row[c]);                                                                                            \
      at[c] = pos;                                                                                                     \
    }                                                                                                                  \
  }                                                                                                                    \
  static void scatter_lanes_##E(kiln_op_kind op, T *restrict out, const int32_t *restrict at,                          \
                                const int64_t *restrict offs, const T *restrict src, int64_t n) {                      \
    for (int64_t c = 0; c < n; c++) {                                                                                  \
      T *p = out + offs[at[c]] + c;                                                                                    \
      C a = LD(*p), b = LD(src[c]);                                                                                    \
      *p = ST(OPM(op, a, b));                                                                                          \
    }                                                                                                                  \
  }
WINDOW_TYPES(X)
#undef X

/* The source points whose first index is in [i0, i1). */
static void select_run(const kiln_cpu_window *w, const uint8_t *operand, const uint8_t *source, uint8_t *out,
                       int64_t i0, int64_t i1) {
  int32_t r = w->rank;
  size_t eb = w->elem_bytes;
  int64_t str[MAX_RANK], sidx[MAX_RANK] = {0}, widx[MAX_RANK], points = 1;
  str[r - 1] = 1;
  for (int32_t d = r - 2; d >= 0; d--) str[d] = str[d + 1] * w->dims[d + 1];
  /* the source points without the lanes (the last dim when lanes > 1) */
  int32_t pr = w->lanes > 1 ? r - 1 : r;
  for (int32_t d = 1; d < pr; d++) points *= w->src_dims[d];
  lane_buf best;
  int32_t at[LANE_CHUNK];
  int64_t offs[KILN_WINDOW_MAX_POSITIONS]; /* the operand offset of each position in the window (lane 0) */
  for (int64_t i = i0; i < i1; i++) {
    sidx[0] = i;
    for (int32_t d = 1; d < r; d++) sidx[d] = 0;
    for (int64_t p = 0; p < points; p++) {
      int64_t sbase = 0;
      for (int32_t d = 0; d < pr; d++) sbase = sbase * w->src_dims[d] + sidx[d];
      if (pr < r) sbase *= w->lanes;
      /* the positions of the window inside the operand, in index order */
      int32_t npos = 0;
      memset(widx, 0, sizeof widx);
      do {
        int64_t off = 0;
        bool in = true;
        for (int32_t d = 0; d < pr && in; d++) {
          int64_t q = sidx[d] * w->stride[d] + widx[d] - w->lo[d];
          if (q < 0 || q >= w->dims[d])
            in = false;
          else
            off += q * str[d];
        }
        if (in) offs[npos++] = off;
      } while (kiln_index_next(pr, w->size, widx));
      for (int64_t c0 = 0; npos && c0 < w->lanes; c0 += LANE_CHUNK) {
        int64_t n = w->lanes - c0 < LANE_CHUNK ? w->lanes - c0 : LANE_CHUNK;
        const uint8_t *src = source + (size_t)(sbase + c0) * eb;
        uint8_t *o = out + (size_t)c0 * eb;
        switch (w->elem) {
#define X(E, T, C, LD, ST, OPM)                                                                  \
  case KILN_ELEM_##E: {                                                                          \
    C *b = (C *)(void *)&best;                                                                   \
    first_lanes_##E(b, at, (const T *)(operand + (size_t)(offs[0] + c0) * eb), 0, n);            \
    for (int32_t k = 1; k < npos; k++)                                                           \
      select_lanes_##E(w->dir, b, at, (const T *)(operand + (size_t)(offs[k] + c0) * eb), k, n); \
    scatter_lanes_##E(w->combiner, (T *)o, at, offs, (const T *)src, n);                         \
    break;                                                                                       \
  }
          WINDOW_TYPES(X)
#undef X
          default: break;
        }
      }
      kiln_index_next(pr - 1, w->src_dims + 1, sidx + 1);
    }
  }
}

/* ---------------------------------------------------------------- running */

static int64_t window_rows(const kiln_cpu_window *w) {
  int64_t rows = 1;
  switch (w->kind) {
    case KILN_WINDOW_PAD:
      for (int32_t d = 0; d + 1 < w->rank; d++) rows *= w->pdims[d];
      return rows;
    case KILN_WINDOW_SCAN: return w->outer;
    default: return w->parallel ? w->src_dims[0] : 1;
  }
}

static void run_rows(const kiln_cpu_window *w, const void *const *in, void *out, int64_t r0, int64_t r1) {
  switch (w->kind) {
    case KILN_WINDOW_PAD: pad_run(w, in[0], in[1], out, r0, r1); break;
    case KILN_WINDOW_SCAN: scan_run(w, in[0], in[1], out, r0, r1); break;
    default:
      if (w->parallel)
        select_run(w, in[0], in[1], out, r0, r1);
      else
        select_run(w, in[0], in[1], out, 0, w->src_dims[0]);
      break;
  }
}

static void rows_fn(void *const *bufs, int64_t r0, int64_t r1) {
  const void *in[3] = {bufs[1], bufs[2], bufs[3]};
  run_rows(bufs[0], in, bufs[4], r0, r1);
}

void kiln_cpu_window_run(const kiln_cpu_window *w, const void *const *in, void *out) {
  if (w->kind == KILN_WINDOW_SELECT) {
    int64_t count = 1;
    for (int32_t d = 0; d < w->rank; d++) count *= w->dims[d];
    fill(out, in[2], w->elem_bytes, count);
  }
  void *bufs[5] = {(void *)w, (void *)in[0], (void *)in[1], w->kind == KILN_WINDOW_SELECT ? (void *)in[2] : NULL, out};
  kiln_cpu_parallel_for(rows_fn, bufs, window_rows(w), 1, w->work);
}

void kiln_cpu_window_destroy(kiln_cpu_window *w) { free(w); }
