/* A plugin that compiles nothing but counts its compiles: each executable remembers its
 * serial number (1, 2, ...) and reports it through executable_stats (temporary_bytes =
 * serial, constant_bytes = 1000 + serial, code_bytes = 2000 + serial), so a test sees both
 * whether a compile really happened and that the figures reach the API. Built twice: as
 * libkiln-counting.so, and with KILN_TEST_OLD_TABLE as libkiln-countingold.so, whose table
 * ends before executable_stats, as a plugin built before the entries after it were appended
 * does. Buffers hold a copy of their data, which buffer_host_data hands out; copies to the
 * host and runs are not implemented. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/backend.h"

struct kiln_backend_device {
  int unused;
};
struct kiln_backend_executable {
  uint64_t serial;
};
struct kiln_backend_buffer {
  kiln_element_type element_type;
  int32_t rank;
  int64_t dims[KILN_MAX_RANK];
  unsigned char data[];
};

static struct kiln_backend_device g_device;
static atomic_uint_fast64_t g_compiles;

static kiln_status unimplemented(void) { return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "counting test plugin"); }
typedef void (*any_fn)(void); /* gcc accepts casts through this type */
#define STUB(type) ((type)(any_fn)unimplemented)

static kiln_status probe(void) { return NULL; }
static kiln_status device_count(int32_t *out_count) {
  *out_count = 1;
  return NULL;
}
static kiln_status device_create(int32_t index, kiln_backend_device **out_device) {
  *out_device = &g_device;
  return NULL;
}
static const char *device_description(const kiln_backend_device *device) { return "counts compiles"; }
static void device_destroy(kiln_backend_device *device) {}
static kiln_status buffer_create(kiln_backend_device *device, const kiln_backend_shape *shape, const void *data,
                                 size_t byte_size, kiln_backend_buffer **out_buffer) {
  kiln_backend_buffer *b = malloc(sizeof *b + byte_size);
  if (!b) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  b->element_type = shape->element_type;
  b->rank = shape->rank;
  if (shape->rank) memcpy(b->dims, shape->dims, (size_t)shape->rank * sizeof *b->dims);
  if (byte_size) memcpy(b->data, data, byte_size);
  *out_buffer = b;
  return NULL;
}
static kiln_status buffer_shape(const kiln_backend_buffer *b, kiln_backend_shape *out_shape) {
  *out_shape = (kiln_backend_shape){b->element_type, b->rank, b->dims};
  return NULL;
}
static kiln_status buffer_host_data(const kiln_backend_buffer *b, const void **out_data) {
  *out_data = b->data;
  return NULL;
}
static void buffer_destroy(kiln_backend_buffer *buffer) { free(buffer); }

static kiln_status compile(kiln_backend_device *device, const kiln_backend_compile_args *args,
                           kiln_backend_executable **out_executable) {
  kiln_backend_executable *x = malloc(sizeof *x);
  if (!x) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  x->serial = atomic_fetch_add(&g_compiles, 1) + 1;
  *out_executable = x;
  return NULL;
}
static void executable_destroy(kiln_backend_executable *x) { free(x); }

static kiln_status executable_stats(const kiln_backend_executable *x, kiln_backend_executable_stats *out) {
  if (out->struct_size < sizeof *out) return KILN_STATUS(KILN_STATUS_INTERNAL, "counting: stats struct too small");
  out->temporary_bytes = x->serial;
  out->constant_bytes = 1000 + x->serial;
  out->code_bytes = 2000 + x->serial;
  out->interpreted_ops = 3000 + x->serial;
  return NULL;
}

static const kiln_backend k_table = {
    .api_version = KILN_BACKEND_API_VERSION,
#ifdef KILN_TEST_OLD_TABLE
    .struct_size = offsetof(kiln_backend, executable_stats),
    .name = "countingold",
#else
    .struct_size = sizeof(kiln_backend),
    .name = "counting",
#endif
    .description = "counts compiles (test plugin)",
    .probe = probe,
    .device_count = device_count,
    .device_create = device_create,
    .device_description = device_description,
    .device_destroy = device_destroy,
    .buffer_create = buffer_create,
    .buffer_shape = buffer_shape,
    .buffer_to_host = STUB(kiln_status (*)(kiln_backend_buffer *, void *, size_t)),
    .buffer_destroy = buffer_destroy,
    .compile = compile,
    .executable_destroy = executable_destroy,
    .execute = STUB(kiln_status (*)(kiln_backend_executable *, const kiln_backend_execute_args *)),
    /* present even in the old table's bytes, but past its struct_size: must be ignored */
    .executable_stats = executable_stats,
    .buffer_host_data = buffer_host_data,
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_table; }
