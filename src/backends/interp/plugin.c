/* The reference interpreter as a backend plugin (libkiln-interp.so): one device, the
 * host CPU, or as many as a client asks for (each runs one partition of a sharded
 * program; the partitions' runs meet in the interpreter's process groups); buffers are
 * interpreter values; a run finishes before execute returns. */
#include <stdlib.h>
#include <string.h>

#include "backends/interp/collectives.h"
#include "backends/interp/interp.h"
#include "kiln/backend.h"
#include "runtime/element.h"

struct kiln_backend_device {
  int32_t index;
};

struct kiln_backend_buffer {
  kiln_rtv *value;
};

struct kiln_backend_executable {
  kiln_interp *interp;
  const kiln_op *function;
};

static struct kiln_backend_device g_device = {0};

static kiln_status interp_probe(void) { return NULL; }

static kiln_status interp_device_count(int32_t *out_count) {
  *out_count = 1;
  return NULL;
}

static kiln_status interp_device_create(int32_t index, kiln_backend_device **out_device) {
  *out_device = index == 0 ? &g_device : NULL;
  return index == 0 ? NULL : KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "interp has one device, not %d", (int)index + 1);
}

static const char *interp_device_description(const kiln_backend_device *device) {
  return "reference interpreter on the host CPU";
}

/* Devices of a set hold nothing of their own: any index of any count. */
static kiln_status interp_device_create_of(int32_t index, int32_t count, kiln_backend_device **out_device) {
  *out_device = NULL;
  if (index < 0 || index >= count) return KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "interp: no device %d of %d", (int)index, (int)count);
  if (index == 0) return interp_device_create(0, out_device);
  if (!(*out_device = calloc(1, sizeof **out_device))) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  (*out_device)->index = index;
  return NULL;
}

static void interp_device_destroy(kiln_backend_device *device) {
  if (device != &g_device) free(device);
}

static kiln_status wrap(kiln_rtv *v, kiln_backend_buffer **out) {
  *out = malloc(sizeof **out);
  if (!*out) {
    kiln_rtv_release(v);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  (*out)->value = v;
  return NULL;
}

static kiln_status interp_buffer_create(kiln_backend_device *device, const kiln_backend_shape *shape, const void *data,
                                        size_t byte_size, kiln_backend_buffer **out_buffer) {
  *out_buffer = NULL;
  kiln_elem e = kiln_element_type_to_elem(shape->element_type);
  if (e == KILN_ELEM_COUNT)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "interp: no buffers of element type %d", (int)shape->element_type);
  kiln_rtv *v;
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(kiln_interp_scalar_type(e), shape->rank, shape->dims, &v));
  if (byte_size) memcpy(v->data, data, byte_size);
  if ((size_t)kiln_elem_bits(e) < 8 * v->elem_bytes) /* i1, sub-byte and tf32: canonical storage */
    for (int64_t i = 0; i < v->count; i++) {
      uint8_t *p = v->data + (size_t)i * v->elem_bytes;
      kiln_scalar_store(e, p, kiln_scalar_load(e, p));
    }
  return wrap(v, out_buffer);
}

static kiln_status interp_buffer_shape(const kiln_backend_buffer *buffer, kiln_backend_shape *out_shape) {
  const kiln_rtv *v = buffer->value;
  if (v->kind == KILN_RTV_TOKEN) *out_shape = (kiln_backend_shape){KILN_ELEMENT_TYPE_TOKEN, 0, NULL};
  else if (v->kind == KILN_RTV_TUPLE) *out_shape = (kiln_backend_shape){KILN_ELEMENT_TYPE_TUPLE, 0, NULL};
  else *out_shape = (kiln_backend_shape){kiln_element_type_from_elem(v->elem), v->rank, v->dims};
  return NULL;
}

static kiln_status interp_buffer_to_host(kiln_backend_buffer *buffer, void *dst, size_t byte_size) {
  const kiln_rtv *v = buffer->value;
  if (v->kind != KILN_RTV_TENSOR || byte_size != (size_t)v->count * v->elem_bytes)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "interp: the buffer does not hold %zu bytes", byte_size);
  if (byte_size) memcpy(dst, v->data, byte_size);
  return NULL;
}

/* Buffers are interpreter values in host memory: their storage is the contents. */
static kiln_status interp_buffer_host_data(const kiln_backend_buffer *buffer, const void **out_data) {
  *out_data = buffer->value->data; /* a tensor: the runtime asks for no TOKEN or TUPLE buffer's */
  return NULL;
}

static void interp_buffer_destroy(kiln_backend_buffer *buffer) {
  if (!buffer) return;
  kiln_rtv_release(buffer->value);
  free(buffer);
}

static kiln_status interp_compile(kiln_backend_device *device, const kiln_backend_compile_args *args,
                                  kiln_backend_executable **out_executable) {
  *out_executable = NULL;
  KILN_RETURN_IF_ERROR(kiln_interp_check_runnable(args->module, args->source, args->function));
  kiln_backend_executable *x = calloc(1, sizeof *x);
  if (!x) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = kiln_interp_create(args->module, args->source, &x->interp);
  if (st) {
    free(x);
    return st;
  }
  x->function = args->function;
  *out_executable = x;
  return NULL;
}

static void interp_executable_destroy(kiln_backend_executable *x) {
  if (!x) return;
  kiln_interp_destroy(x->interp);
  free(x);
}

/* The value to pass for a parameter: the buffer's own, or (for a quantized parameter,
 * whose storage the buffer holds) a copy that carries the parameter's element type. */
static kiln_status argument(kiln_rtv *v, const kiln_type *param, kiln_rtv **out) {
  if (v->kind != KILN_RTV_TENSOR || !kiln_type_is_quant_tensor(param) || v->elem_type == param->tensor.element) {
    *out = kiln_rtv_retain(v);
    return NULL;
  }
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(param->tensor.element, v->rank, v->dims, out));
  if (v->count) memcpy((*out)->data, v->data, (size_t)v->count * v->elem_bytes);
  return NULL;
}

/* Results become buffers that may outlive the program: their element type must not point
 * into its IR. Buffers hold storage (a quantized result's integers), so the static scalar
 * type of the storage element replaces it. A tensor shared with others (an argument
 * returned as it is, a value returned twice) is copied first: every result buffer has
 * memory of its own, as on the other devices (kiln_buffer_host_data tells them apart). */
static kiln_status detach(kiln_rtv **v) {
  kiln_rtv *r = *v;
  if (r->kind == KILN_RTV_TUPLE) {
    for (int32_t i = 0; i < r->num_items; i++) KILN_RETURN_IF_ERROR(detach(&r->items[i]));
    return NULL;
  }
  const kiln_type *storage = kiln_interp_scalar_type(r->elem);
  if (r->kind != KILN_RTV_TENSOR) return NULL;
  if (atomic_load(&r->refs) == 1) {
    r->elem_type = storage;
    return NULL;
  }
  kiln_rtv *copy;
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(storage, r->rank, r->dims, &copy));
  if (r->count) memcpy(copy->data, r->data, (size_t)r->count * r->elem_bytes);
  kiln_rtv_release(r);
  *v = copy;
  return NULL;
}

static kiln_status interp_execute(kiln_backend_executable *x, const kiln_backend_execute_args *a) {
  const kiln_type *ft = kiln_func_type(x->function);
  kiln_rtv **args = calloc((size_t)a->num_inputs + 1, sizeof *args);
  kiln_rtv **results = calloc((size_t)a->num_results + 1, sizeof *results);
  kiln_status st = args && results ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; !st && i < a->num_inputs; i++) st = argument(a->inputs[i]->value, ft->func.inputs[i], &args[i]);
  kiln_check_log log = {0};
  kiln_interp_process before = kiln_interp_launch_begin(a);
  kiln_interp_ctx ctx = {.interp = x->interp, .checks = a->report_checks ? &log : NULL, .print_out = stdout};
  kiln_interp_ctx_join_bound(&ctx);
  if (!st) st = kiln_interp_call(&ctx, x->function, args, a->num_inputs, results);
  kiln_interp_launch_end(a, before, st != NULL);
  if (!st && a->report_checks) a->report_checks(a->check_ctx, log.passed, log.failed, log.text.data ? log.text.data : "");
  int32_t made = 0;
  for (; !st && made < a->num_results; made++) {
    st = detach(&results[made]);
    if (!st) st = wrap(results[made], &a->out_results[made]);
    results[made] = NULL;
  }
  if (st) { /* the runtime gets no results on failure */
    for (int32_t i = 0; i < a->num_results; i++) {
      if (i < made) interp_buffer_destroy(a->out_results[i]);
      a->out_results[i] = NULL;
      if (results) kiln_rtv_release(results[i]);
    }
  }
  for (int32_t i = 0; args && i < a->num_inputs; i++) kiln_rtv_release(args[i]);
  free(args);
  free(results);
  kiln_check_log_free(&log);
  return st;
}

static const kiln_backend k_interp = {
    .api_version = KILN_BACKEND_API_VERSION,
    .struct_size = sizeof(kiln_backend),
    .name = "interp",
    .description = "the reference interpreter (every op, exact, slow)",
    .probe = interp_probe,
    .device_count = interp_device_count,
    .device_create = interp_device_create,
    .device_description = interp_device_description,
    .device_destroy = interp_device_destroy,
    .buffer_create = interp_buffer_create,
    .buffer_shape = interp_buffer_shape,
    .buffer_to_host = interp_buffer_to_host,
    .buffer_destroy = interp_buffer_destroy,
    .compile = interp_compile,
    .executable_destroy = interp_executable_destroy,
    .execute = interp_execute,
    .executable_stats = NULL, /* no buffer plan (values are allocated as it goes): "not reported" */
    .buffer_host_data = interp_buffer_host_data,
    .device_create_of = interp_device_create_of,
    .group_create = kiln_interp_launch_group_create,
    .group_create_spanning = kiln_interp_launch_group_create_spanning,
    .group_destroy = kiln_interp_launch_group_destroy,
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_interp; }
