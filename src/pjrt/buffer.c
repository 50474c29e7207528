/* PJRT_Buffer: a kiln_buffer in host memory, plus the shape (kept after Delete, as PJRT
 * lets callers query it) and the event that says when its contents are ready. Host data
 * is always copied, so done_with_host_buffer is ready when BufferFromHostBuffer returns. */
#include <stdlib.h>
#include <string.h>

#include "pjrt/pjrt.h"

#define OOM(what) KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", what)

kiln_status kiln_pjrt_buffer_wrap(PJRT_Device *device, kiln_buffer *kb, PJRT_Event *ready, PJRT_Buffer **out) {
  *out = NULL;
  int32_t rank = kiln_buffer_rank(kb);
  PJRT_Buffer *b = calloc(1, sizeof *b + (size_t)rank * sizeof b->dims[0]);
  PJRT_Event *e = ready ? kiln_pjrt_event_retain(ready) : kiln_pjrt_event_ready(NULL);
  if (!b || !e) {
    free(b);
    kiln_pjrt_event_release(e);
    kiln_buffer_release(kb);
    return OOM("PJRT buffer");
  }
  b->client = kiln_pjrt_client_retain(device->client);
  b->device = device;
  b->ready = e;
  pthread_mutex_init(&b->mu, NULL);
  b->kiln = kb;
  b->type = kiln_buffer_element_type(kb);
  b->byte_size = kiln_buffer_byte_size(kb);
  b->rank = rank;
  if (rank) memcpy(b->dims, kiln_buffer_dims(kb), (size_t)rank * sizeof b->dims[0]);
  *out = b;
  return NULL;
}

kiln_status kiln_pjrt_buffer_get(PJRT_Buffer *b, kiln_buffer **out) {
  pthread_mutex_lock(&b->mu);
  *out = kiln_buffer_retain(b->kiln);
  pthread_mutex_unlock(&b->mu);
  return *out ? NULL : KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "the buffer has been deleted");
}

/* A new buffer on device from dense row-major host data. */
static kiln_status buffer_from_dense(PJRT_Device *device, kiln_element_type type, int32_t rank, const int64_t *dims,
                                     const void *data, size_t size, PJRT_Buffer **out) {
  kiln_buffer_args a = {sizeof a, type, rank, dims, data, size};
  kiln_buffer *kb;
  KILN_RETURN_IF_ERROR(kiln_pjrt_device_here(device, "a buffer"));
  KILN_RETURN_IF_ERROR(kiln_buffer_create(device->kiln, &a, &kb));
  return kiln_pjrt_buffer_wrap(device, kb, NULL, out);
}

/* The device a new buffer goes to: memory's (JAX, EXLA) or device (the conformance test). */
static kiln_status target_device(PJRT_Client *c, PJRT_Device *device, PJRT_Memory *memory, PJRT_Device **out) {
  if (memory) {
    *out = kiln_pjrt_client_memory_device(c, memory);
    if (!*out) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the memory is not one of this client's");
    if (device && device != *out)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the memory does not belong to the device given");
    return NULL;
  }
  if (!device) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "neither a device nor a memory is given");
  if (!kiln_pjrt_client_owns_device(c, device))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the device is not one of this client's");
  *out = device;
  return NULL;
}

/* Checks a shape given to the plugin and converts its element type. */
static kiln_status check_shape(PJRT_Buffer_Type type, const int64_t *dims, size_t num_dims, kiln_element_type *out_type,
                               size_t *out_elem_size) {
  KILN_RETURN_IF_ERROR(kiln_pjrt_type_to_kiln(type, out_type));
  *out_elem_size = kiln_element_type_size(*out_type);
  if (!*out_elem_size)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s buffers have no host data", kiln_element_type_name(*out_type));
  if (num_dims > KILN_MAX_RANK)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%zu dimensions; Kiln allows at most %d", num_dims, KILN_MAX_RANK);
  if (num_dims && !dims) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dims is NULL");
  return NULL;
}

/* A device layout must be Kiln's own: dense row-major. */
static kiln_status check_dense_layout(const PJRT_Buffer_MemoryLayout *layout, const int64_t *dims, int32_t rank,
                                      size_t elem_size) {
  if (!layout) return NULL;
  int64_t want[KILN_MAX_RANK], got[KILN_MAX_RANK];
  size_t size;
  KILN_RETURN_IF_ERROR(kiln_pjrt_dense_strides(dims, rank, elem_size, want, &size));
  KILN_RETURN_IF_ERROR(kiln_pjrt_layout_strides(layout, dims, rank, elem_size, got));
  if (rank && memcmp(want, got, (size_t)rank * sizeof want[0]))
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "device layouts other than dense row-major are not supported");
  return NULL;
}

static kiln_status from_host(PJRT_Client_BufferFromHostBuffer_Args *args, PJRT_Buffer **out) {
  PJRT_Device *device = NULL;
  PJRT_Memory *memory = KILN_PJRT_HAS(args, memory) ? args->memory : NULL;
  KILN_RETURN_IF_ERROR(target_device(args->client, args->device, memory, &device));
  kiln_element_type type;
  size_t elem_size, size;
  KILN_RETURN_IF_ERROR(check_shape(args->type, args->dims, args->num_dims, &type, &elem_size));
  int32_t rank = (int32_t)args->num_dims;
  if (KILN_PJRT_HAS(args, device_layout))
    KILN_RETURN_IF_ERROR(check_dense_layout(args->device_layout, args->dims, rank, elem_size));
  if (args->host_buffer_semantics == PJRT_HostBufferSemantics_kMutableZeroCopy)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "kMutableZeroCopy is not supported: Kiln copies host data");
  int64_t dense[KILN_MAX_RANK];
  KILN_RETURN_IF_ERROR(kiln_pjrt_dense_strides(args->dims, rank, elem_size, dense, &size));
  if (size && !args->data) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "data is NULL");
  const int64_t *strides = args->byte_strides;
  if (strides && args->num_byte_strides != args->num_dims)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%zu byte strides for %zu dimensions", args->num_byte_strides,
                       args->num_dims);
  if (!strides || !rank || !memcmp(strides, dense, (size_t)rank * sizeof dense[0]))
    return buffer_from_dense(device, type, rank, args->dims, args->data, size, out);
  KILN_RETURN_IF_ERROR(kiln_pjrt_check_source_strides(args->dims, strides, rank));
  void *packed = malloc(size ? size : 1);
  if (!packed) return OOM("PJRT_Client_BufferFromHostBuffer");
  kiln_pjrt_copy_strided(packed, dense, args->data, strides, args->dims, rank, elem_size);
  kiln_status st = buffer_from_dense(device, type, rank, args->dims, packed, size, out);
  free(packed);
  return st;
}

PJRT_Error *kiln_pjrt_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, buffer);
  args->buffer = NULL;
  args->done_with_host_buffer = NULL;
  KILN_PJRT_REQUIRE(args->client, "client is NULL");
  PJRT_Buffer *b;
  kiln_status st = from_host(args, &b);
  if (st) return KILN_PJRT_FAIL(st);
  args->done_with_host_buffer = kiln_pjrt_event_ready(NULL);
  if (!args->done_with_host_buffer) {
    PJRT_Buffer_Destroy_Args d = {.struct_size = sizeof d, .buffer = b};
    kiln_pjrt_Buffer_Destroy(&d);
    return kiln_pjrt_error(OOM("PJRT_Client_BufferFromHostBuffer"));
  }
  args->buffer = b;
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_CreateUninitializedBuffer(PJRT_Client_CreateUninitializedBuffer_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, buffer);
  args->buffer = NULL;
  KILN_PJRT_REQUIRE(args->client, "client is NULL");
  PJRT_Device *device = NULL;
  kiln_element_type type;
  size_t elem_size, size;
  int64_t dense[KILN_MAX_RANK];
  kiln_status st = target_device(args->client, args->device, args->memory, &device);
  if (!st) st = check_shape(args->shape_element_type, args->shape_dims, args->shape_num_dims, &type, &elem_size);
  int32_t rank = (int32_t)args->shape_num_dims;
  if (!st) st = check_dense_layout(args->shape_layout, args->shape_dims, rank, elem_size);
  if (!st) st = kiln_pjrt_dense_strides(args->shape_dims, rank, elem_size, dense, &size);
  void *zeros = st ? NULL : calloc(1, size ? size : 1);
  if (!st && !zeros) st = OOM("buffer");
  if (!st) st = buffer_from_dense(device, type, rank, args->shape_dims, zeros, size, &args->buffer);
  free(zeros);
  return st ? KILN_PJRT_FAIL(st) : NULL;
}

#define CHECK_BUFFER(args, last)                         \
  do {                                                   \
    KILN_PJRT_CHECK_ARGS(args, last);                    \
    KILN_PJRT_REQUIRE((args)->buffer, "buffer is NULL"); \
  } while (0)

PJRT_Error *kiln_pjrt_Buffer_Destroy(PJRT_Buffer_Destroy_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, buffer);
  PJRT_Buffer *b = args->buffer;
  if (!b) return NULL;
  kiln_buffer_release(b->kiln);
  kiln_pjrt_event_release(b->ready);
  kiln_pjrt_client_release(b->client);
  pthread_mutex_destroy(&b->mu);
  free(b);
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_ElementType(PJRT_Buffer_ElementType_Args *args) {
  CHECK_BUFFER(args, type);
  PJRT_Buffer_Type t = PJRT_Buffer_Type_INVALID;
  kiln_status_free(kiln_pjrt_type_from_kiln(args->buffer->type, &t)); /* outputs are checked by Execute */
  args->type = t;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args *args) {
  CHECK_BUFFER(args, num_dims);
  args->dims = args->buffer->dims;
  args->num_dims = (size_t)args->buffer->rank;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_UnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args *args) {
  CHECK_BUFFER(args, num_dims);
  args->unpadded_dims = args->buffer->dims;
  args->num_dims = (size_t)args->buffer->rank;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_DynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args *args) {
  CHECK_BUFFER(args, num_dynamic_dims);
  args->dynamic_dim_indices = NULL;
  args->num_dynamic_dims = 0;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args *args) {
  CHECK_BUFFER(args, on_device_size_in_bytes);
  args->on_device_size_in_bytes = args->buffer->byte_size;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_Device(PJRT_Buffer_Device_Args *args) {
  CHECK_BUFFER(args, device);
  args->device = args->buffer->device;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_Memory(PJRT_Buffer_Memory_Args *args) {
  CHECK_BUFFER(args, memory);
  args->memory = &args->buffer->device->memory.base;
  return NULL;
}

/* Frees the contents now; the shape stays queryable. Deleting twice is allowed (the
 * framework treats any error here as fatal). */
PJRT_Error *kiln_pjrt_Buffer_Delete(PJRT_Buffer_Delete_Args *args) {
  CHECK_BUFFER(args, buffer);
  PJRT_Buffer *b = args->buffer;
  pthread_mutex_lock(&b->mu);
  kiln_buffer *kb = b->kiln;
  b->kiln = NULL;
  pthread_mutex_unlock(&b->mu);
  kiln_buffer_release(kb);
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args *args) {
  CHECK_BUFFER(args, is_deleted);
  pthread_mutex_lock(&args->buffer->mu);
  args->is_deleted = !args->buffer->kiln;
  pthread_mutex_unlock(&args->buffer->mu);
  return NULL;
}

/* false: the contents are not handed out as host pointers (no external references). */
PJRT_Error *kiln_pjrt_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args *args) {
  CHECK_BUFFER(args, is_on_cpu);
  args->is_on_cpu = false;
  return NULL;
}

/* The address of the contents in host memory (cpu, interp); UNIMPLEMENTED for a device
 * whose memory the host cannot address. Valid until the buffer is deleted or destroyed. */
PJRT_Error *kiln_pjrt_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args *args) {
  CHECK_BUFFER(args, buffer_pointer);
  args->buffer_pointer = 0;
  kiln_buffer *kb;
  const void *data = NULL;
  kiln_status st = kiln_pjrt_buffer_get(args->buffer, &kb);
  if (!st) {
    st = kiln_buffer_host_data(kb, &data);
    kiln_buffer_release(kb);
  }
  if (st) return KILN_PJRT_FAIL(st);
  args->buffer_pointer = (uintptr_t)data;
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args *args) {
  CHECK_BUFFER(args, event);
  args->event = kiln_pjrt_event_retain(args->buffer->ready);
  return NULL;
}

/* Copies the contents into dst laid out as host_layout; an error of the run that made the
 * buffer comes back through the event. */
static kiln_status to_host(PJRT_Buffer_ToHostBuffer_Args *args, kiln_buffer *kb, kiln_status *run_error) {
  PJRT_Buffer *b = args->src;
  size_t elem_size = kiln_element_type_size(b->type);
  if (!elem_size)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s buffers have no host data", kiln_element_type_name(b->type));
  int64_t dense[KILN_MAX_RANK], strides[KILN_MAX_RANK];
  size_t size, span;
  KILN_RETURN_IF_ERROR(kiln_pjrt_dense_strides(b->dims, b->rank, elem_size, dense, &size));
  KILN_RETURN_IF_ERROR(kiln_pjrt_layout_strides(args->host_layout, b->dims, b->rank, elem_size, strides));
  KILN_RETURN_IF_ERROR(kiln_pjrt_check_strides(b->dims, strides, b->rank, elem_size, &span));
  if (!args->dst) { /* a size query */
    args->dst_size = span;
    return NULL;
  }
  if (args->dst_size < span)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dst_size is %zu; the buffer needs %zu", args->dst_size, span);
  bool is_dense = !b->rank || !memcmp(strides, dense, (size_t)b->rank * sizeof dense[0]);
  if (is_dense) {
    *run_error = kiln_buffer_copy_to_host(kb, args->dst, size);
    return NULL;
  }
  void *tmp = malloc(size ? size : 1);
  if (!tmp) return OOM("PJRT_Buffer_ToHostBuffer");
  *run_error = kiln_buffer_copy_to_host(kb, tmp, size);
  if (!*run_error) kiln_pjrt_copy_strided(args->dst, strides, tmp, dense, b->dims, b->rank, elem_size);
  free(tmp);
  return NULL;
}

PJRT_Error *kiln_pjrt_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, event);
  args->event = NULL;
  KILN_PJRT_REQUIRE(args->src, "src is NULL");
  kiln_buffer *kb;
  kiln_status run_error = NULL, st = kiln_pjrt_buffer_get(args->src, &kb);
  if (!st) {
    st = to_host(args, kb, &run_error);
    kiln_buffer_release(kb);
  }
  if (st) return KILN_PJRT_FAIL(st);
  if (!args->dst) return NULL;
  args->event = kiln_pjrt_event_ready(run_error);
  return args->event ? NULL : kiln_pjrt_error(OOM("PJRT_Buffer_ToHostBuffer"));
}

/* Copies a buffer to another device (or the same one: a new buffer) through host memory. */
static kiln_status copy_to(PJRT_Buffer *b, PJRT_Device *device, PJRT_Buffer **out) {
  kiln_buffer *kb;
  KILN_RETURN_IF_ERROR(kiln_pjrt_buffer_get(b, &kb));
  void *tmp = malloc(b->byte_size ? b->byte_size : 1);
  kiln_status st = tmp ? kiln_buffer_copy_to_host(kb, tmp, b->byte_size) : OOM("copy");
  kiln_buffer_release(kb);
  if (!st) st = buffer_from_dense(device, b->type, b->rank, b->dims, tmp, b->byte_size, out);
  free(tmp);
  return st;
}

PJRT_Error *kiln_pjrt_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, dst_buffer);
  args->dst_buffer = NULL;
  KILN_PJRT_REQUIRE(args->buffer, "buffer is NULL");
  PJRT_Device *device = NULL;
  kiln_status st = target_device(args->buffer->client, args->dst_device, NULL, &device);
  if (!st) st = copy_to(args->buffer, device, &args->dst_buffer);
  return st ? KILN_PJRT_FAIL(st) : NULL;
}

PJRT_Error *kiln_pjrt_Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, dst_buffer);
  args->dst_buffer = NULL;
  KILN_PJRT_REQUIRE(args->buffer, "buffer is NULL");
  KILN_PJRT_REQUIRE(args->dst_memory, "dst_memory is NULL");
  PJRT_Device *device = NULL;
  kiln_status st = target_device(args->buffer->client, NULL, args->dst_memory, &device);
  if (!st) st = copy_to(args->buffer, device, &args->dst_buffer);
  return st ? KILN_PJRT_FAIL(st) : NULL;
}
