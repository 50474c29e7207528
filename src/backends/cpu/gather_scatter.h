/* What gather.c and scatter.c share (internal to the cpu backend): reading the
 * dimension-number lists of #stablehlo.gather / #stablehlo.scatter, loading a start index,
 * and the update computations a scatter applies natively (scatter_combine.c). The public
 * entry points (kiln_cpu_gather_*, kiln_cpu_scatter_*) are declared in cpu.h. */
#ifndef KILN_BACKENDS_CPU_GATHER_SCATTER_H
#define KILN_BACKENDS_CPU_GATHER_SCATTER_H

#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/interp/elementwise.h"

/* A list of dimension numbers (at most KILN_CPU_MAX_RANK). */
typedef struct kiln_cpu_dims {
  int32_t n;
  int64_t v[KILN_CPU_MAX_RANK];
} kiln_cpu_dims;

/* Reads the list `name` of the structure attribute s (absent: empty). False when it is not
 * a list of integers in [0, limit) without repeats, or is longer than KILN_CPU_MAX_RANK. */
bool kiln_cpu_dims_read(const kiln_attr *s, const char *name, int64_t limit, kiln_cpu_dims *out);
/* The position of d in l, or -1. */
int32_t kiln_cpu_dims_find(const kiln_cpu_dims *l, int64_t d);
/* A static, unquantized tensor type of rank at most KILN_CPU_MAX_RANK. */
bool kiln_cpu_static_dense(const kiln_type *t);
/* Whether an integer element type can hold start indices (any signed or unsigned width). */
bool kiln_cpu_index_elem(kiln_elem e);

/* Start index `i` of the index tensor at p (element type e): unsigned values above
 * INT64_MAX read as INT64_MAX, as the interpreter reads them. */
static inline int64_t kiln_cpu_load_index(kiln_elem e, const uint8_t *p) {
  switch (e) {
    case KILN_ELEM_SI32: { int32_t v; memcpy(&v, p, 4); return v; }
    case KILN_ELEM_SI64: { int64_t v; memcpy(&v, p, 8); return v; }
    case KILN_ELEM_UI32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: {
      kiln_scalar s = kiln_scalar_load(e, p);
      return kiln_elem_class_of(e) == KILN_ELEM_CLASS_U && s.u > (uint64_t)INT64_MAX ? INT64_MAX : s.i;
    }
  }
}

/* n indices of type e, stride bytes apart from p, into out: the type chosen once, not per
 * index (the rows form's loop spent half its time choosing). */
static inline void kiln_cpu_load_indices(kiln_elem e, const uint8_t *p, size_t stride, int64_t n, int64_t *out) {
  switch (e) {
    case KILN_ELEM_SI32:
      for (int64_t j = 0; j < n; j++, p += stride) { int32_t v; memcpy(&v, p, 4); out[j] = v; }
      return;
    case KILN_ELEM_SI64:
      for (int64_t j = 0; j < n; j++, p += stride) memcpy(&out[j], p, 8);
      return;
    default:
      for (int64_t j = 0; j < n; j++, p += stride) out[j] = kiln_cpu_load_index(e, p);
  }
}

/* ---------------------------------------------------------------- update computations */

/* An update computation applied to runs of elements: for w in [0, n):
 * dst[w * dst_stride] = f(dst[w * dst_stride], src[w]) (strides in elements). */
typedef struct kiln_cpu_combiner kiln_cpu_combiner;
typedef void (*kiln_cpu_combine_fn)(const kiln_cpu_combiner *c, uint8_t *dst, int64_t dst_stride, const uint8_t *src,
                                    int64_t n);
/* The same applied to single elements: for w in [0, n), dst[dst_at[w]] = f(dst[dst_at[w]],
 * src[src_at[w]]) in that order (offsets in elements). */
typedef void (*kiln_cpu_combine_at_fn)(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *dst_at,
                                       const uint8_t *src, const int64_t *src_at, int64_t n);
/* The same applied to whole rows of `inner` elements: for j in [0, m), row dst_row[j] of
 * dst combined with row src_row[j] of src, in j's order (rows counted in rows). */
typedef void (*kiln_cpu_combine_rows_fn)(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *dst_row,
                                         const uint8_t *src, const int64_t *src_row, int64_t m, int64_t inner);
/* The same by an index array: for w in [0, n), with v = index[w * index_stride] (an si32
 * or si64 array, strides in elements), when lo <= v < hi: dst[v * dst_step] =
 * f(dst[v * dst_step], src[w]), in w's order. With `ahead`, the element point w + ahead
 * will combine into is prefetched (worth it where dst is larger than the L2 cache). */
typedef void (*kiln_cpu_combine_by_fn)(const kiln_cpu_combiner *c, uint8_t *dst, int64_t dst_step, int64_t lo,
                                       int64_t hi, const uint8_t *index, int64_t index_stride, const uint8_t *src,
                                       int64_t n, int64_t ahead);
/* The same by index pairs (x.at[i, j]): for w in [0, n), with v0 = index[w * index_stride]
 * and v1 = index[w * index_stride + pair_stride], when lo[k] <= vk < hi[k] for both:
 * dst[v0 * step[0] + v1 * step[1]] combined with src[w], in w's order; `ahead` as above. */
typedef void (*kiln_cpu_combine_by2_fn)(const kiln_cpu_combiner *c, uint8_t *dst, const int64_t *step,
                                        const int64_t *lo, const int64_t *hi, const uint8_t *index,
                                        int64_t index_stride, int64_t pair_stride, const uint8_t *src, int64_t n,
                                        int64_t ahead);
struct kiln_cpu_combiner {
  kiln_cpu_combine_fn fn;
  kiln_cpu_combine_at_fn at;
  kiln_cpu_combine_rows_fn rows;
  kiln_cpu_combine_by_fn by_si32, by_si64;    /* native ops and replace only (else NULL) */
  kiln_cpu_combine_by2_fn by2_si32, by2_si64; /* the same */
  const char *how;   /* "replace", "keep", "native <op>", "scalar <op>": for KILN_CPU_PROFILE and tests */
  size_t elem_bytes;
  kiln_elem elem;
  /* the scalar path: the interpreter's scalar kernel of the region's op */
  kiln_ew_fn scalar;
  kiln_ew ew;
  bool swapped;      /* the op reads (update, current) */
  /* integer (and i1) add, multiply, and, or, xor, maximum, minimum, and float maximum and
   * minimum (-0 below +0, NaN kept): exact, associative and commutative, so updates may be
   * applied in any order or grouping (into private copies that start at identity, combined
   * afterwards) with the same result bit for bit, but for which NaN's payload a float
   * maximum or minimum keeps when two NaNs meet */
  bool order_free;
  /* float (f32, f64, bf16) add and multiply: associative and commutative but for rounding,
   * so updates may be applied in a grouping fixed by the shapes alone (scatter.c's
   * REGROUP_CHUNKS), the same on every run and thread count, not the serial one's bits */
  bool regroup;
  uint64_t identity; /* order_free or regroup: the identity's bits, in the low elem_bytes */
};

/* The update computation of a one-input scatter op on elements of type elem, when its
 * region is `return %update` (replace), `return %current` (keep), or one binary op of the
 * two arguments in either order: add, multiply, maximum, minimum, and, or, xor natively on
 * f32, f64, bf16 and the 8 to 64-bit integers (and, or, xor, maximum, minimum on i1),
 * any binary op the interpreter's scalar kernels define (subtract, divide, f16, f8,
 * complex, sub-byte integers) through those kernels element by element; order_free and
 * identity set for the native integer and i1 ops and float maximum and minimum, regroup and
 * identity for float add and multiply. False for
 * anything else (several ops, other argument or result types): the interpreter runs it. */
bool kiln_cpu_combiner_prepare(const kiln_op *op, kiln_elem elem, kiln_cpu_combiner *out);

#endif
