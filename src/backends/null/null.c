/* The null backend (libkiln-null.so): the template for a new backend. It loads, probes
 * OK and has one device, and answers UNIMPLEMENTED to everything else; copy this file,
 * rename it and fill the functions in one by one (src/backends/interp/plugin.c is a
 * complete backend). What each entry must do is written in include/kiln/backend.h. */
#include "kiln/backend.h"

struct kiln_backend_device {
  int unused;
};

static struct kiln_backend_device g_device;

#define NULL_UNIMPLEMENTED(what) KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "null backend: %s is not implemented", what)

/* A real backend checks here for what it needs (a driver, an instruction set) and says
 * what is missing: KILN_STATUS(KILN_STATUS_UNAVAILABLE, "no CUDA driver found"). */
static kiln_status null_probe(void) { return NULL; }

static kiln_status null_device_count(int32_t *out_count) {
  *out_count = 1;
  return NULL;
}

static kiln_status null_device_create(int32_t index, kiln_backend_device **out_device) {
  *out_device = index == 0 ? &g_device : NULL;
  return index == 0 ? NULL : KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "null has one device");
}

static const char *null_device_description(const kiln_backend_device *device) {
  return "a device that runs nothing (template)";
}

static void null_device_destroy(kiln_backend_device *device) {}

static kiln_status null_buffer_create(kiln_backend_device *device, const kiln_backend_shape *shape, const void *data,
                                      size_t byte_size, kiln_backend_buffer **out_buffer) {
  *out_buffer = NULL;
  return NULL_UNIMPLEMENTED("buffer_create");
}

static kiln_status null_buffer_shape(const kiln_backend_buffer *buffer, kiln_backend_shape *out_shape) {
  return NULL_UNIMPLEMENTED("buffer_shape");
}

static kiln_status null_buffer_to_host(kiln_backend_buffer *buffer, void *dst, size_t byte_size) {
  return NULL_UNIMPLEMENTED("buffer_to_host");
}

static void null_buffer_destroy(kiln_backend_buffer *buffer) {}

static kiln_status null_compile(kiln_backend_device *device, const kiln_backend_compile_args *args,
                                kiln_backend_executable **out_executable) {
  *out_executable = NULL;
  return NULL_UNIMPLEMENTED("compile");
}

static void null_executable_destroy(kiln_backend_executable *executable) {}

static kiln_status null_execute(kiln_backend_executable *executable, const kiln_backend_execute_args *args) {
  return NULL_UNIMPLEMENTED("execute");
}

static const kiln_backend k_null = {
    .api_version = KILN_BACKEND_API_VERSION,
    .struct_size = sizeof(kiln_backend),
    .name = "null",
    .description = "the skeleton backend: runs nothing (template for new backends)",
    .probe = null_probe,
    .device_count = null_device_count,
    .device_create = null_device_create,
    .device_description = null_device_description,
    .device_destroy = null_device_destroy,
    .buffer_create = null_buffer_create,
    .buffer_shape = null_buffer_shape,
    .buffer_to_host = null_buffer_to_host,
    .buffer_destroy = null_buffer_destroy,
    .compile = null_compile,
    .executable_destroy = null_executable_destroy,
    .execute = null_execute,
    /* event_*: only for devices whose runs finish after execute returns */
    /* executable_stats: optional; without it an executable's figures are "not reported" */
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_null; }
