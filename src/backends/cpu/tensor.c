/* cpu tensors (cpu.h): made, freed, and kept in a run state's bin from run to run. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "base/arena.h"

/* The bytes of a tensor of the type (elem, rank, dims). */
static kiln_status tensor_bytes(kiln_elem elem, int32_t rank, const int64_t *dims, size_t *bytes) {
  if (rank < 0 || rank > KILN_RTV_MAX_RANK) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu: rank %d is too large", (int)rank);
  int64_t count = 1;
  for (int32_t i = 0; i < rank; i++)
    if (dims[i] < 0 || !kiln_mul_i64(count, dims[i], &count)) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu: tensor too large");
  if (!kiln_mul_size((size_t)count, kiln_elem_storage_bytes(elem), bytes) || *bytes > ((size_t)1 << 40))
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu: tensor of %lld elements is too large", (long long)count);
  return NULL;
}

/* t takes the type (elem, rank, dims). */
static void set_type(kiln_cpu_tensor *t, kiln_elem elem, int32_t rank, const int64_t *dims) {
  t->elem = elem;
  t->rank = rank;
  if (rank) memcpy(t->dims, dims, sizeof *dims * (size_t)rank);
}

bool kiln_cpu_tensor_set_type(kiln_cpu_tensor *t, const kiln_type *type) {
  int64_t bytes;
  if (!kiln_type_is_tensor(type) || type->tensor.rank > KILN_RTV_MAX_RANK || type->tensor.num_elements < 0 ||
      !kiln_mul_i64(type->tensor.num_elements, (int64_t)kiln_elem_storage_bytes(kiln_type_elem(type)), &bytes))
    return false;
  set_type(t, kiln_type_elem(type), type->tensor.rank, type->tensor.dims);
  t->bytes = (uint64_t)bytes;
  return true;
}

kiln_status kiln_cpu_tensor_new(kiln_elem elem, int32_t rank, const int64_t *dims, kiln_cpu_tensor **out) {
  *out = NULL;
  size_t bytes;
  KILN_RETURN_IF_ERROR(tensor_bytes(elem, rank, dims, &bytes));
  kiln_cpu_tensor *t = calloc(1, sizeof *t);
  if (!t || !(t->data = kiln_host_alloc(bytes))) {
    free(t);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu: out of memory allocating %zu bytes", bytes);
  }
  set_type(t, elem, rank, dims);
  t->bytes = bytes;
  *out = t;
  return NULL;
}

void kiln_cpu_tensor_free(kiln_cpu_tensor *t) {
  if (!t) return;
  if (t->hold) kiln_rtv_release(t->hold);
  else kiln_host_free(t->data, t->bytes);
  free(t);
}

kiln_cpu_tensor *kiln_cpu_bin_take(kiln_cpu_bin *bin, kiln_elem elem, int32_t rank, const int64_t *dims) {
  size_t bytes;
  if (!bin || !bin->count) return NULL;
  kiln_status st = tensor_bytes(elem, rank, dims, &bytes);
  if (st) { /* a type no tensor has */
    kiln_status_free(st);
    return NULL;
  }
  for (int32_t i = bin->count - 1; i >= 0; i--) {
    kiln_cpu_tensor *t = bin->t[i];
    if (t->bytes != bytes) continue;
    bin->t[i] = bin->t[--bin->count];
    set_type(t, elem, rank, dims);
    return t;
  }
  return NULL;
}

void kiln_cpu_bin_put(kiln_cpu_bin *bin, kiln_cpu_tensor *t) {
  if (!t) return;
  if (bin && bin->count < KILN_CPU_BIN_TENSORS && !t->hold && !t->donated && t->bytes <= KILN_CPU_BIN_BYTES)
    bin->t[bin->count++] = t;
  else kiln_cpu_tensor_free(t);
}

void kiln_cpu_bin_clear(kiln_cpu_bin *bin) {
  while (bin->count) kiln_cpu_tensor_free(bin->t[--bin->count]);
}
