/* Runtime values of the reference interpreter: tensors (dense, row-major, element storage
 * as in ir/elem.def), tuples and tokens; plus index iteration (scalar load/store: ir/scalar.h).
 *
 * Values are reference-counted (atomically: values cross threads in run_parallel). A
 * function returning a new value hands the caller one reference; kiln_rtv_release drops
 * one. Sizes are overflow-checked; allocation failures come back as RESOURCE_EXHAUSTED.
 * A value's contents are immutable once it is shared. */
#ifndef KILN_INTERP_VALUE_H
#define KILN_INTERP_VALUE_H

#include <stdatomic.h>

#include "ir/ir.h"
#include "ir/scalar.h"

#define KILN_RTV_MAX_RANK 64

typedef enum kiln_rtv_kind {
  KILN_RTV_TENSOR,
  KILN_RTV_TUPLE,
  KILN_RTV_TOKEN,
} kiln_rtv_kind;

typedef struct kiln_rtv {
  atomic_int refs;
  kiln_rtv_kind kind;
  /* TENSOR */
  const kiln_type *elem_type; /* SCALAR or QUANT element type (IR-owned) */
  kiln_elem elem;             /* storage element type */
  size_t elem_bytes;
  int32_t rank;
  int64_t dims[KILN_RTV_MAX_RANK];
  int64_t count;
  uint8_t *data; /* count * elem_bytes bytes (kiln_host_alloc's, unless borrowed) */
  bool borrowed;  /* data belongs to someone else (kiln_rtv_view) */
  /* TUPLE */
  int32_t num_items;
  struct kiln_rtv **items;
} kiln_rtv;

/* A zero-filled tensor. */
kiln_status kiln_rtv_tensor(const kiln_type *elem_type, int32_t rank, const int64_t *dims, kiln_rtv **out);
/* The same, its bytes not set: for a caller that writes every one. */
kiln_status kiln_rtv_tensor_uninit(const kiln_type *elem_type, int32_t rank, const int64_t *dims, kiln_rtv **out);
/* A tensor of zeros that no one may write, without memory of its own (all such tensors
 * read one reservation of zero pages; memory of its own, uninitialised, where that
 * reservation cannot be made): what a shapes-only run makes of the values whose data
 * nothing needs (a kernel may still read a few elements of them, as start indices, before it
 * stops). Its size is checked as a tensor's is. */
kiln_status kiln_rtv_shape(const kiln_type *elem_type, int32_t rank, const int64_t *dims, kiln_rtv **out);
/* A zero-filled tensor of a static tensor type (the shape is taken from the type). */
kiln_status kiln_rtv_of_type(const kiln_type *tensor_type, kiln_rtv **out);
/* A tuple taking one new reference to each item. */
kiln_status kiln_rtv_tuple(kiln_rtv *const *items, int32_t n, kiln_rtv **out);
kiln_status kiln_rtv_token(kiln_rtv **out);
/* A tensor over count * storage bytes of memory it does not own (the caller keeps data
 * alive and unchanged while the view lives). The rank is checked; dims are copied. */
kiln_status kiln_rtv_view(const kiln_type *elem_type, int32_t rank, const int64_t *dims, void *data, kiln_rtv **out);
/* A tensor holding a DENSE attribute's elements (splats expanded). */
kiln_status kiln_rtv_from_dense(const kiln_attr *dense, kiln_rtv **out);

kiln_rtv *kiln_rtv_retain(kiln_rtv *v);
void kiln_rtv_release(kiln_rtv *v); /* NULL allowed */

/* Row-major strides of dims (in elements). */
void kiln_strides(int32_t rank, const int64_t *dims, int64_t *out_strides);
/* Advances a multi-index over dims; false after the last one. */
bool kiln_index_next(int32_t rank, const int64_t *dims, int64_t *index);

#endif
