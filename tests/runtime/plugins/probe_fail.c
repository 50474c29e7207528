/* A plugin whose probe says this machine cannot run it, as a CUDA plugin does without a
 * driver. It also stands for a misnamed plugin: built as libkiln-misnamed.so with
 * KILN_TEST_NAME "probefail", the runtime must refuse it by name before probing. */
#include "kiln/backend.h"

static kiln_status probe(void) {
  return KILN_STATUS(KILN_STATUS_UNAVAILABLE, "no CUDA driver found (test plugin)");
}
static kiln_status unimplemented(void) { return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "test plugin"); }

/* The other entries are never called (the probe fails first), but must be present for the
 * table to pass the runtime's checks: one stub, cast to each entry's type. */
typedef void (*any_fn)(void); /* gcc accepts casts through this type */
#define STUB(type) ((type)(any_fn)unimplemented)

static const kiln_backend k_table = {
    .api_version = KILN_BACKEND_API_VERSION,
    .struct_size = sizeof(kiln_backend),
    .name = KILN_TEST_NAME,
    .description = "a plugin whose probe fails",
    .probe = probe,
    .device_count = STUB(kiln_status (*)(int32_t *)),
    .device_create = STUB(kiln_status (*)(int32_t, kiln_backend_device **)),
    .device_destroy = STUB(void (*)(kiln_backend_device *)),
    .buffer_create = STUB(kiln_status (*)(kiln_backend_device *, const kiln_backend_shape *, const void *, size_t,
                                          kiln_backend_buffer **)),
    .buffer_shape = STUB(kiln_status (*)(const kiln_backend_buffer *, kiln_backend_shape *)),
    .buffer_to_host = STUB(kiln_status (*)(kiln_backend_buffer *, void *, size_t)),
    .buffer_destroy = STUB(void (*)(kiln_backend_buffer *)),
    .compile = STUB(kiln_status (*)(kiln_backend_device *, const kiln_backend_compile_args *,
                                    kiln_backend_executable **)),
    .executable_destroy = STUB(void (*)(kiln_backend_executable *)),
    .execute = STUB(kiln_status (*)(kiln_backend_executable *, const kiln_backend_execute_args *)),
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_table; }
