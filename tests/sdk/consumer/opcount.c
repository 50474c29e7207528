/* An out-of-tree backend plugin, built against the installed SDK only (kiln::plugin): it
 * has one device, and its compile reads the program through the IR headers and answers
 * UNIMPLEMENTED with a description of the function ("@main(tensor<1x64xf32>): 14 ops, 15
 * values"). Everything else is as in the null template. */
#include <kiln/backend.h>

#include "base/source.h"
#include "base/strbuf.h"
#include "ir/ir.h"
#include "ir/print.h"
#include "ir/scalar.h"
#include "runtime/element.h"

#include <stdlib.h>

struct kiln_backend_device {
  int unused;
};
static struct kiln_backend_device g_device;

static kiln_status unimplemented(const char *what) {
  return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "opcount: %s is not implemented", what);
}
static kiln_status probe(void) { return NULL; }
static kiln_status device_count(int32_t *out_count) {
  *out_count = 1;
  return NULL;
}
static kiln_status device_create(int32_t index, kiln_backend_device **out_device) {
  *out_device = index == 0 ? &g_device : NULL;
  return index == 0 ? NULL : KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "opcount has one device");
}
static const char *device_description(const kiln_backend_device *device) { return "counts ops"; }
static void device_destroy(kiln_backend_device *device) {}
static kiln_status buffer_create(kiln_backend_device *device, const kiln_backend_shape *shape, const void *data,
                                 size_t byte_size, kiln_backend_buffer **out_buffer) {
  *out_buffer = NULL;
  /* the IR's element type for the buffer's, through runtime/element.h */
  return kiln_element_type_to_elem(shape->element_type) == KILN_ELEM_COUNT
             ? KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "opcount: no such element type")
             : unimplemented("buffer_create");
}
static kiln_status buffer_shape(const kiln_backend_buffer *buffer, kiln_backend_shape *out_shape) {
  return unimplemented("buffer_shape");
}
static kiln_status buffer_to_host(kiln_backend_buffer *buffer, void *dst, size_t byte_size) {
  return unimplemented("buffer_to_host");
}
static void buffer_destroy(kiln_backend_buffer *buffer) {}

static kiln_status compile(kiln_backend_device *device, const kiln_backend_compile_args *args,
                           kiln_backend_executable **out_executable) {
  *out_executable = NULL;
  const kiln_type *ft = kiln_func_type(args->function);
  kiln_strbuf b = {0};
  kiln_strbuf_printf(&b, "@%s(", kiln_func_name(args->function));
  for (int32_t i = 0; ft && i < ft->func.num_inputs; i++) {
    char type[256];
    kiln_type_to_string(ft->func.inputs[i], type, sizeof type);
    kiln_strbuf_printf(&b, "%s%s", i ? ", " : "", type);
  }
  int32_t ops = 0;
  for (const kiln_op *op = kiln_op_block(args->function, 0)->first; op; op = op->next) ops++;
  kiln_strbuf_printf(&b, "): %d ops, %d values", (int)ops, (int)kiln_func_num_values(args->function));
  kiln_status st = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "opcount: %s", b.data ? b.data : "?");
  free(b.data);
  return st;
}
static void executable_destroy(kiln_backend_executable *executable) {}
static kiln_status execute(kiln_backend_executable *executable, const kiln_backend_execute_args *args) {
  return unimplemented("execute");
}

static const kiln_backend k_opcount = {
    .api_version = KILN_BACKEND_API_VERSION,
    .struct_size = sizeof(kiln_backend),
    .name = "opcount",
    .description = "an out-of-tree plugin that describes what it is given",
    .probe = probe,
    .device_count = device_count,
    .device_create = device_create,
    .device_description = device_description,
    .device_destroy = device_destroy,
    .buffer_create = buffer_create,
    .buffer_shape = buffer_shape,
    .buffer_to_host = buffer_to_host,
    .buffer_destroy = buffer_destroy,
    .compile = compile,
    .executable_destroy = executable_destroy,
    .execute = execute,
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_opcount; }
