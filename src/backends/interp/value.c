#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "backends/interp/value.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/host_memory.h"
#include "base/fault.h"

static kiln_rtv *rtv_alloc(kiln_rtv_kind kind) {
  kiln_rtv *v = kiln_fault_calloc(1, sizeof *v);
  if (v) {
    atomic_init(&v->refs, 1);
    v->kind = kind;
  }
  return v;
}

/* What a new tensor's memory holds: zeros, whatever it held, or zeros it only reads. */
typedef enum fill { FILL_ZERO, FILL_NONE, READ_ZEROS } fill;

/* The most bytes a tensor may have, and zeros to read of that many: one read-only
 * reservation the system backs with its zero page (no memory; NULL when it cannot be made). */
#define MAX_TENSOR_BYTES ((size_t)1 << 40)
static pthread_once_t g_zeros_once = PTHREAD_ONCE_INIT;
static void *g_zeros;
static void reserve_zeros(void) {
  void *p = mmap(NULL, MAX_TENSOR_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  g_zeros = p == MAP_FAILED ? NULL : p;
}

static kiln_status new_tensor(const kiln_type *elem_type, int32_t rank, const int64_t *dims, fill how, kiln_rtv **out) {
  *out = NULL;
  if (rank < 0 || rank > KILN_RTV_MAX_RANK)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "tensors of rank %d are not supported (at most %d)", (int)rank,
                       KILN_RTV_MAX_RANK);
  kiln_elem e = elem_type->kind == KILN_TYPE_QUANT ? elem_type->quant.storage : elem_type->elem;
  int64_t count = 1;
  for (int32_t i = 0; i < rank; i++)
    if (dims[i] < 0 || !kiln_mul_i64(count, dims[i], &count))
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "tensor shape is too large");
  size_t bytes;
  if (!kiln_mul_size((size_t)count, kiln_elem_storage_bytes(e), &bytes) || bytes > MAX_TENSOR_BYTES)
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "tensor of %lld elements is too large", (long long)count);
  if (how == READ_ZEROS) pthread_once(&g_zeros_once, reserve_zeros);
  bool zeros = how == READ_ZEROS && g_zeros;
  kiln_rtv *v = rtv_alloc(KILN_RTV_TENSOR);
  if (!v || !(v->data = zeros ? g_zeros : kiln_host_alloc(bytes))) { /* large ones reused: no page faults per run */
    free(v);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory allocating %zu bytes", bytes);
  }
  if (how == FILL_ZERO) memset(v->data, 0, bytes);
  v->borrowed = zeros;
  v->elem_type = elem_type;
  v->elem = e;
  v->elem_bytes = kiln_elem_storage_bytes(e);
  v->rank = rank;
  if (rank) memcpy(v->dims, dims, sizeof(int64_t) * (size_t)rank);
  v->count = count;
  *out = v;
  return NULL;
}

kiln_status kiln_rtv_tensor(const kiln_type *elem_type, int32_t rank, const int64_t *dims, kiln_rtv **out) {
  return new_tensor(elem_type, rank, dims, FILL_ZERO, out);
}

kiln_status kiln_rtv_tensor_uninit(const kiln_type *elem_type, int32_t rank, const int64_t *dims, kiln_rtv **out) {
  return new_tensor(elem_type, rank, dims, FILL_NONE, out);
}

kiln_status kiln_rtv_shape(const kiln_type *elem_type, int32_t rank, const int64_t *dims, kiln_rtv **out) {
  return new_tensor(elem_type, rank, dims, READ_ZEROS, out);
}

kiln_status kiln_rtv_view(const kiln_type *elem_type, int32_t rank, const int64_t *dims, void *data, kiln_rtv **out) {
  *out = NULL;
  if (rank < 0 || rank > KILN_RTV_MAX_RANK)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "tensors of rank %d are not supported (at most %d)", (int)rank,
                       KILN_RTV_MAX_RANK);
  kiln_rtv *v = rtv_alloc(KILN_RTV_TENSOR);
  if (!v) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_elem e = elem_type->kind == KILN_TYPE_QUANT ? elem_type->quant.storage : elem_type->elem;
  v->elem_type = elem_type;
  v->elem = e;
  v->elem_bytes = kiln_elem_storage_bytes(e);
  v->rank = rank;
  v->count = 1;
  for (int32_t i = 0; i < rank; i++) {
    v->dims[i] = dims[i];
    v->count *= dims[i];
  }
  v->data = data;
  v->borrowed = true;
  *out = v;
  return NULL;
}

kiln_status kiln_rtv_of_type(const kiln_type *t, kiln_rtv **out) {
  if (!kiln_type_is_tensor(t) || t->tensor.num_elements < 0) {
    *out = NULL;
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "a value of a dynamic or non-tensor type cannot be made here");
  }
  return kiln_rtv_tensor(t->tensor.element, t->tensor.rank, t->tensor.dims, out);
}

kiln_status kiln_rtv_tuple(kiln_rtv *const *items, int32_t n, kiln_rtv **out) {
  kiln_rtv *v = rtv_alloc(KILN_RTV_TUPLE);
  if (!v || !(v->items = calloc((size_t)n + 1, sizeof *v->items))) {
    free(v);
    *out = NULL;
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  v->num_items = n;
  for (int32_t i = 0; i < n; i++) v->items[i] = kiln_rtv_retain(items[i]);
  *out = v;
  return NULL;
}

kiln_status kiln_rtv_token(kiln_rtv **out) {
  *out = rtv_alloc(KILN_RTV_TOKEN);
  return *out ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
}

kiln_status kiln_rtv_from_dense(const kiln_attr *a, kiln_rtv **out) {
  KILN_RETURN_IF_ERROR(kiln_rtv_of_type(a->type, out));
  kiln_rtv *v = *out;
  size_t total = (size_t)v->count * v->elem_bytes;
  if (!a->dense.splat) {
    if (total) memcpy(v->data, a->dense.data, total < a->dense.nbytes ? total : a->dense.nbytes);
  } else {
    for (int64_t i = 0; i < v->count; i++) memcpy(v->data + (size_t)i * v->elem_bytes, a->dense.data, v->elem_bytes);
  }
  return NULL;
}

kiln_rtv *kiln_rtv_retain(kiln_rtv *v) {
  if (v) atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
  return v;
}

void kiln_rtv_release(kiln_rtv *v) {
  if (!v || atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) != 1) return;
  for (int32_t i = 0; i < v->num_items; i++) kiln_rtv_release(v->items[i]);
  free(v->items);
  if (!v->borrowed) kiln_host_free(v->data, (uint64_t)v->count * v->elem_bytes);
  free(v);
}

void kiln_strides(int32_t rank, const int64_t *dims, int64_t *out) {
  int64_t s = 1;
  for (int32_t i = rank - 1; i >= 0; i--) {
    out[i] = s;
    s *= dims[i];
  }
}

bool kiln_index_next(int32_t rank, const int64_t *dims, int64_t *index) {
  for (int32_t i = rank - 1; i >= 0; i--) {
    if (++index[i] < dims[i]) return true;
    index[i] = 0;
  }
  return false;
}
