/* Buffers: tensors in a device's memory. */
#include <stdlib.h>
#include <string.h>

#include "base/fault.h"
#include "runtime/runtime.h"

static kiln_status byte_size_of(kiln_element_type type, int32_t rank, const int64_t *dims, size_t *out) {
  size_t n = kiln_element_type_size(type);
  *out = 0;
  if (type == KILN_ELEMENT_TYPE_TOKEN || type == KILN_ELEMENT_TYPE_TUPLE) return NULL;
  if (!n) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "unknown element type %d", (int)type);
  if (rank < 0 || rank > KILN_MAX_RANK)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "rank %d is out of range (0 to %d)", (int)rank, KILN_MAX_RANK);
  if (rank && !dims) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dims is NULL for rank %d", (int)rank);
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dimension %d is negative", (int)i);
    if ((uint64_t)dims[i] > SIZE_MAX || !kiln_mul_size(n, (size_t)dims[i], &n))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the buffer's size overflows");
  }
  *out = n;
  return NULL;
}

kiln_status kiln_buffer_wrap(kiln_device *device, kiln_backend_buffer *impl, kiln_event *ready, kiln_buffer **out) {
  *out = NULL;
  const kiln_backend *b = kiln_device_backend(device);
  kiln_backend_shape shape = {0};
  kiln_buffer *buf = kiln_fault_calloc(1, sizeof *buf);
  kiln_status st = buf ? b->buffer_shape(impl, &shape) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  bool opaque = shape.element_type == KILN_ELEMENT_TYPE_TOKEN || shape.element_type == KILN_ELEMENT_TYPE_TUPLE;
  if (!st) st = byte_size_of(shape.element_type, shape.rank, shape.dims, &buf->byte_size);
  if (st) {
    b->buffer_destroy(impl);
    free(buf);
    return st;
  }
  atomic_init(&buf->refs, 1);
  pthread_mutex_init(&buf->mu, NULL);
  buf->device = device;
  buf->client = kiln_client_retain(device->client);
  buf->impl = impl;
  buf->ready = kiln_event_retain(ready);
  buf->element_type = shape.element_type;
  buf->rank = opaque ? 0 : shape.rank;
  if (buf->rank > 0) memcpy(buf->dims, shape.dims, (size_t)shape.rank * sizeof *shape.dims);
  *out = buf;
  return NULL;
}

kiln_status kiln_buffer_create(kiln_device *device, const kiln_buffer_args *args, kiln_buffer **out_buffer) {
  if (!out_buffer) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_create: out_buffer is NULL");
  *out_buffer = NULL;
  if (!device || !args) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_create: device and args are required");
  kiln_buffer_args a;
  KILN_RETURN_IF_ERROR(kiln_args_copy(&a, sizeof a, args, "kiln_buffer_args"));
  if (a.element_type == KILN_ELEMENT_TYPE_TOKEN || a.element_type == KILN_ELEMENT_TYPE_TUPLE)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_create: %s buffers have no host data",
                       kiln_element_type_name(a.element_type));
  size_t want;
  KILN_RETURN_IF_ERROR(byte_size_of(a.element_type, a.rank, a.dims, &want));
  if (a.byte_size != want)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_create: byte_size is %zu; the shape needs %zu",
                       a.byte_size, want);
  if (want && !a.data) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_create: data is NULL");
  const kiln_backend *b = kiln_device_backend(device);
  kiln_backend_shape shape = {a.element_type, a.rank, a.dims};
  kiln_backend_buffer *impl = NULL;
  KILN_RETURN_IF_ERROR(b->buffer_create(device->impl, &shape, a.data, a.byte_size, &impl));
  return kiln_buffer_wrap(device, impl, NULL, out_buffer);
}

kiln_buffer *kiln_buffer_retain(kiln_buffer *buf) {
  if (buf) atomic_fetch_add(&buf->refs, 1);
  return buf;
}

void kiln_buffer_release(kiln_buffer *buf) {
  if (!buf || atomic_fetch_sub(&buf->refs, 1) != 1) return;
  kiln_event_release(buf->ready); /* waits for a run in flight that writes it */
  if (buf->impl) kiln_device_backend(buf->device)->buffer_destroy(buf->impl); /* NULL: donated */
  pthread_mutex_destroy(&buf->mu);
  kiln_client_release(buf->client);
  free(buf);
}

/* ------------------------------------------------------------------ donation */

static kiln_status donated_error(const kiln_buffer *buf, const char *what) {
  return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "%s: the buffer (%s, %zu bytes) was donated to a run; its "
                     "contents are gone", what, kiln_element_type_name(buf->element_type), buf->byte_size);
}

kiln_status kiln_buffer_use(kiln_buffer *buf, const char *what) {
  pthread_mutex_lock(&buf->mu);
  bool donated = buf->donated;
  if (!donated) buf->uses++;
  pthread_mutex_unlock(&buf->mu);
  return donated ? donated_error(buf, what) : NULL;
}

void kiln_buffer_unuse(kiln_buffer *buf) {
  pthread_mutex_lock(&buf->mu);
  buf->uses--;
  pthread_mutex_unlock(&buf->mu);
}

kiln_status kiln_buffer_claim(kiln_buffer *buf, const char *what) {
  pthread_mutex_lock(&buf->mu);
  bool donated = buf->donated, busy = buf->uses > 0;
  if (!donated && !busy) buf->donated = true;
  pthread_mutex_unlock(&buf->mu);
  if (donated) return donated_error(buf, what);
  if (busy)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "%s: the buffer cannot be donated while another call "
                       "uses it", what);
  return NULL;
}

void kiln_buffer_consume(kiln_buffer *buf) {
  pthread_mutex_lock(&buf->mu);
  kiln_backend_buffer *impl = buf->impl;
  buf->impl = NULL;
  pthread_mutex_unlock(&buf->mu);
  if (impl) kiln_device_backend(buf->device)->buffer_destroy(impl);
}

void kiln_buffer_unclaim(kiln_buffer *buf) {
  pthread_mutex_lock(&buf->mu);
  buf->donated = false;
  pthread_mutex_unlock(&buf->mu);
}

bool kiln_buffer_is_donated(const kiln_buffer *buf) {
  if (!buf) return false;
  pthread_mutex_lock((pthread_mutex_t *)&buf->mu);
  bool donated = buf->donated;
  pthread_mutex_unlock((pthread_mutex_t *)&buf->mu);
  return donated;
}

kiln_element_type kiln_buffer_element_type(const kiln_buffer *buf) {
  return buf ? buf->element_type : KILN_ELEMENT_TYPE_INVALID;
}
int32_t kiln_buffer_rank(const kiln_buffer *buf) { return buf ? buf->rank : 0; }
const int64_t *kiln_buffer_dims(const kiln_buffer *buf) { return buf ? buf->dims : NULL; }
size_t kiln_buffer_byte_size(const kiln_buffer *buf) { return buf ? buf->byte_size : 0; }
kiln_device *kiln_buffer_device(const kiln_buffer *buf) { return buf ? buf->device : NULL; }

kiln_status kiln_buffer_copy_to_host(kiln_buffer *buf, void *dst, size_t byte_size) {
  if (!buf || (!dst && byte_size))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_copy_to_host: buffer and dst are required");
  if (buf->element_type == KILN_ELEMENT_TYPE_TOKEN || buf->element_type == KILN_ELEMENT_TYPE_TUPLE)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_copy_to_host: a %s buffer has no host data",
                       kiln_element_type_name(buf->element_type));
  if (byte_size != buf->byte_size)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_copy_to_host: byte_size is %zu; the buffer holds %zu",
                       byte_size, buf->byte_size);
  if (buf->ready) KILN_RETURN_IF_ERROR(kiln_event_wait(buf->ready));
  KILN_RETURN_IF_ERROR(kiln_buffer_use(buf, "kiln_buffer_copy_to_host"));
  kiln_status st = kiln_device_backend(buf->device)->buffer_to_host(buf->impl, dst, byte_size);
  kiln_buffer_unuse(buf);
  return st;
}

kiln_status kiln_buffer_host_data(const kiln_buffer *buf, const void **out_data) {
  if (!out_data) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_host_data: out_data is NULL");
  *out_data = NULL;
  if (!buf) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_host_data: buffer is NULL");
  if (buf->element_type == KILN_ELEMENT_TYPE_TOKEN || buf->element_type == KILN_ELEMENT_TYPE_TUPLE)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_buffer_host_data: a %s buffer has no host data",
                       kiln_element_type_name(buf->element_type));
  const kiln_backend *b = kiln_device_backend(buf->device);
  if (!b->buffer_host_data)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "kiln_buffer_host_data: the memory of device %s is not addressable "
                       "from the host", kiln_device_name(buf->device));
  kiln_buffer *mut = (kiln_buffer *)buf; /* the use count only */
  KILN_RETURN_IF_ERROR(kiln_buffer_use(mut, "kiln_buffer_host_data"));
  kiln_status st = b->buffer_host_data(buf->impl, out_data);
  kiln_buffer_unuse(mut);
  return st;
}
