/* Element types and host layouts: PJRT_Buffer_Type <-> kiln_element_type, byte strides
 * (checked, overflow-safe) and the one strided copy every host transfer goes through. */
#include <string.h>

#include "pjrt/pjrt.h"

/* kiln_element_type follows PJRT_Buffer_Type's numbering for every type both have
 * (docs/ABI.md); checked here value by value, so a renumbering fails the build. */
#define SAME(name) _Static_assert((int)KILN_ELEMENT_TYPE_##name == (int)PJRT_Buffer_Type_##name, #name);
SAME(INVALID) SAME(PRED) SAME(S8) SAME(S16) SAME(S32) SAME(S64) SAME(U8) SAME(U16) SAME(U32) SAME(U64)
SAME(F16) SAME(F32) SAME(F64) SAME(BF16) SAME(C64) SAME(C128) SAME(F8E5M2) SAME(F8E4M3FN)
SAME(F8E4M3B11FNUZ) SAME(F8E5M2FNUZ) SAME(F8E4M3FNUZ) SAME(S4) SAME(U4) SAME(TOKEN) SAME(S2) SAME(U2)
SAME(F8E4M3) SAME(F8E3M4) SAME(F8E8M0FNU) SAME(F4E2M1FN)
#undef SAME

/* PJRT types past F4E2M1FN (S1, U1, later ones) have no Kiln type; Kiln's types from 64 on
 * (f6, tf32, tuples) have no PJRT type. */
kiln_status kiln_pjrt_type_to_kiln(PJRT_Buffer_Type type, kiln_element_type *out) {
  if (type > PJRT_Buffer_Type_INVALID && type <= PJRT_Buffer_Type_F4E2M1FN) {
    *out = (kiln_element_type)type;
    return NULL;
  }
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT element type %d has no Kiln equivalent", (int)type);
}

kiln_status kiln_pjrt_type_from_kiln(kiln_element_type type, PJRT_Buffer_Type *out) {
  if (type > KILN_ELEMENT_TYPE_INVALID && type <= KILN_ELEMENT_TYPE_F4E2M1FN) {
    *out = (PJRT_Buffer_Type)type;
    return NULL;
  }
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "Kiln element type %s has no PJRT equivalent",
                     kiln_element_type_name(type));
}

static bool mul_ok(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }

kiln_status kiln_pjrt_dense_strides(const int64_t *dims, int32_t rank, size_t elem_size, int64_t *out_strides,
                                    size_t *out_size) {
  size_t step = elem_size;
  for (int32_t i = rank - 1; i >= 0; i--) {
    if (dims[i] < 0) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dimension %d is negative", (int)i);
    if (step > INT64_MAX) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the buffer's size overflows");
    out_strides[i] = (int64_t)step;
    if ((uint64_t)dims[i] > SIZE_MAX || !mul_ok(step, (size_t)dims[i], &step))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the buffer's size overflows");
  }
  *out_size = step;
  return NULL;
}

kiln_status kiln_pjrt_check_strides(const int64_t *dims, const int64_t *strides, int32_t rank, size_t elem_size,
                                     size_t *out_span) {
  /* order the dims of extent > 1 by stride: each must step past everything the smaller
   * ones cover, which makes every element's place distinct */
  int32_t order[KILN_MAX_RANK], n = 0;
  for (int32_t i = 0; i < rank; i++) {
    if (strides[i] < 0) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "byte stride %d is negative", (int)i);
    if (dims[i] == 0) {
      *out_span = 0;
      return NULL;
    }
    if (dims[i] == 1) continue;
    int32_t k = n++;
    while (k > 0 && strides[order[k - 1]] > strides[i]) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = i;
  }
  size_t covered = elem_size; /* bytes spanned by the dims ordered so far */
  for (int32_t k = 0; k < n; k++) {
    int32_t i = order[k];
    if ((uint64_t)strides[i] < covered)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                         "byte stride %lld of dimension %d makes elements overlap (it must be at least %zu)",
                         (long long)strides[i], (int)i, covered);
    size_t extent;
    if (!mul_ok((size_t)strides[i], (size_t)(dims[i] - 1), &extent) || __builtin_add_overflow(extent, covered, &covered))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the byte strides' span overflows");
  }
  *out_span = covered;
  return NULL;
}

kiln_status kiln_pjrt_check_source_strides(const int64_t *dims, const int64_t *strides, int32_t rank) {
  uint64_t reach = 0; /* the farthest offset from the first element, either way */
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] == 0) return NULL;
    uint64_t step = strides[i] < 0 ? (uint64_t)0 - (uint64_t)strides[i] : (uint64_t)strides[i], extent;
    if (__builtin_mul_overflow(step, (uint64_t)(dims[i] - 1), &extent) || __builtin_add_overflow(reach, extent, &reach) ||
        reach > INT64_MAX)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the byte strides' span overflows");
  }
  return NULL;
}

kiln_status kiln_pjrt_layout_strides(const PJRT_Buffer_MemoryLayout *layout, const int64_t *dims, int32_t rank,
                                     size_t elem_size, int64_t *out_strides) {
  size_t size;
  if (!layout) return kiln_pjrt_dense_strides(dims, rank, elem_size, out_strides, &size);
  if (!KILN_PJRT_HAS(layout, type))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "a PJRT_Buffer_MemoryLayout's struct_size is too small");
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    const PJRT_Buffer_MemoryLayout_Strides *s = &layout->strides;
    if (s->num_byte_strides != (size_t)rank || (rank && !s->byte_strides))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the layout has %zu byte strides for %d dimensions",
                         s->num_byte_strides, (int)rank);
    memcpy(out_strides, s->byte_strides, (size_t)rank * sizeof *out_strides);
    return NULL;
  }
  if (layout->type != PJRT_Buffer_MemoryLayout_Type_Tiled)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "unknown memory layout type %d", (int)layout->type);
  const PJRT_Buffer_MemoryLayout_Tiled *t = &layout->tiled;
  if (t->num_tiles)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "tiled layouts (%zu tiles) are not supported; Kiln's host data is "
                       "untiled", t->num_tiles);
  if (t->minor_to_major_size != (size_t)rank || (rank && !t->minor_to_major))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "minor_to_major has %zu entries for %d dimensions",
                       t->minor_to_major_size, (int)rank);
  /* a permutation: the first entry is the fastest-varying dim */
  bool seen[KILN_MAX_RANK] = {false};
  size_t step = elem_size;
  for (int32_t k = 0; k < rank; k++) {
    int64_t d = t->minor_to_major[k];
    if (d < 0 || d >= rank || seen[d])
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "minor_to_major is not a permutation of the %d dimensions",
                         (int)rank);
    seen[d] = true;
    out_strides[d] = (int64_t)step;
    if ((uint64_t)dims[d] > SIZE_MAX || !mul_ok(step, (size_t)dims[d], &step) || step > INT64_MAX)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the buffer's size overflows");
  }
  return NULL;
}

void kiln_pjrt_copy_strided(void *dst, const int64_t *dst_strides, const void *src, const int64_t *src_strides,
                            const int64_t *dims, int32_t rank, size_t elem_size) {
  for (int32_t i = 0; i < rank; i++)
    if (dims[i] == 0) return;
  /* the last dim moves as one memcpy when it is contiguous on both sides */
  bool rows = rank > 0 && dst_strides[rank - 1] == (int64_t)elem_size && src_strides[rank - 1] == (int64_t)elem_size;
  int32_t outer = rows ? rank - 1 : rank;
  size_t chunk = rows ? elem_size * (size_t)dims[rank - 1] : elem_size;
  int64_t index[KILN_MAX_RANK] = {0};
  const char *s = src;
  char *d = dst;
  for (;;) {
    memcpy(d, s, chunk);
    int32_t i = outer - 1;
    for (; i >= 0; i--) { /* odometer step */
      s += src_strides[i];
      d += dst_strides[i];
      if (++index[i] < dims[i]) break;
      s -= src_strides[i] * dims[i];
      d -= dst_strides[i] * dims[i];
      index[i] = 0;
    }
    if (i < 0) return;
  }
}
