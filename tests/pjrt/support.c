/* Test support for the PJRT plugin tests (see support.h). */
#include "support.h"

#include <stdlib.h>
#include <string.h>

const PJRT_Api *api;
int t_passed, t_failed;
const char *t_devices = "interp";

const char *t_add_program =
    "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";

const char *t_pair_program =
    "func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {\n"
    "  %0 = stablehlo.multiply %x, %x : tensor<2x3xf32>\n"
    "  %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
    "  return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>\n"
    "}\n";

const unsigned char t_jax_options[] = {
    0x0a, 0x04, 0x10, 0x0b, 0x18, 0x04, /* 1 argument_layouts {2 element_type F32, 3 dims [4]} */
    0x1a, 43,                           /* 3 executable_build_options */
    0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* 1 device_ordinal -1 */
    0x20, 0x01, 0x28, 0x01, 0x30, 0x01, /* 4 num_replicas 1, 5 num_partitions 1, 6 use_spmd */
    0x4a, 0x09, 0x08, 0x01, 0x10, 0x01, 0x1a, 0x03, 0x0a, 0x01, 0x00, /* 9 device_assignment 1x1 [0] */
    0x1a, 0x04, 0x10, 0x01, 0x18, 0x00, /* 3 debug_options (skipped) */
    0xa5, 0x01, 0x00, 0x00, 0x80, 0x3f, /* 20 exec_time_optimization_effort 1.0f (32-bit) */
    0x98, 0x01, 0x01,                   /* 19 use_shardy_partitioner */
    0x3a, 0x0b, 0x0a, 0x05, 'x', 'l', 'a', '_', 'x', 0x12, 0x02, 0x10, 0x01, /* 7 env_option_overrides */
    0x28, 0x00,                         /* 5 profile_version 0 */
};
const size_t t_jax_options_size = sizeof t_jax_options;

static void message_of(PJRT_Error *err, char *out, size_t size) {
  ARGS(PJRT_Error_Message_Args, m);
  m.error = err;
  api->PJRT_Error_Message(&m);
  snprintf(out, size, "%.*s", (int)m.message_size, m.message);
}

static void error_destroy(PJRT_Error *err) {
  ARGS(PJRT_Error_Destroy_Args, d);
  d.error = err;
  api->PJRT_Error_Destroy(&d);
}

bool t_ok(PJRT_Error *err, const char *file, int line) {
  if (!err) {
    t_passed++;
    return true;
  }
  char msg[1024];
  message_of(err, msg, sizeof msg);
  t_failed++;
  printf("FAIL %s:%d: unexpected error: %s\n", file, line, msg);
  error_destroy(err);
  return false;
}

bool t_fails(PJRT_Error *err, PJRT_Error_Code code, const char *text, const char *file, int line) {
  if (!err) {
    t_failed++;
    printf("FAIL %s:%d: expected an error containing '%s'\n", file, line, text);
    return false;
  }
  char msg[2048];
  message_of(err, msg, sizeof msg);
  ARGS(PJRT_Error_GetCode_Args, g);
  g.error = err;
  PJRT_Error *e2 = api->PJRT_Error_GetCode(&g);
  ARGS(PJRT_Error_ForEachPayload_Args, p); /* called by the framework for every error */
  p.error = err;
  PJRT_Error *e3 = api->PJRT_Error_ForEachPayload(&p);
  error_destroy(err);
  bool good = !e2 && !e3 && g.code == code && strstr(msg, text) && msg[0];
  if (good) {
    t_passed++;
    return true;
  }
  t_failed++;
  printf("FAIL %s:%d: expected code %d containing '%s'; got code %d: %s\n", file, line, (int)code, text, (int)g.code,
         msg);
  return false;
}

PJRT_Client *t_client(size_t struct_size, const PJRT_NamedValue *extra, size_t num_extra) {
  PJRT_NamedValue opts[4] = {{.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                              .name = "devices",
                              .name_size = 7,
                              .type = PJRT_NamedValue_kString,
                              .string_value = t_devices,
                              .value_size = strlen(t_devices)}};
  for (size_t i = 0; i < num_extra && i < 3; i++) opts[1 + i] = extra[i];
  PJRT_Client_Create_Args a;
  memset(&a, 0xa5, sizeof a); /* as JAX leaves it: the kv callbacks are garbage */
  a.struct_size = struct_size;
  a.extension_start = NULL;
  a.create_options = opts;
  a.num_options = 1 + num_extra;
  return OK(api->PJRT_Client_Create(&a)) ? a.client : NULL;
}

void t_client_destroy(PJRT_Client *c) {
  ARGS(PJRT_Client_Destroy_Args, a);
  a.client = c;
  OK(api->PJRT_Client_Destroy(&a));
}

PJRT_Device *t_device(PJRT_Client *c, int index) {
  ARGS(PJRT_Client_LookupDevice_Args, a);
  a.client = c;
  a.id = index;
  return OK(api->PJRT_Client_LookupDevice(&a)) ? a.device : NULL;
}

PJRT_Memory *t_memory(PJRT_Device *d) {
  ARGS(PJRT_Device_DefaultMemory_Args, a);
  a.device = d;
  return OK(api->PJRT_Device_DefaultMemory(&a)) ? a.memory : NULL;
}

void t_event_destroy(PJRT_Event *e) {
  ARGS(PJRT_Event_Destroy_Args, a);
  a.event = e;
  OK(api->PJRT_Event_Destroy(&a));
}

PJRT_Buffer *t_buffer(PJRT_Client *c, PJRT_Device *d, PJRT_Memory *m, PJRT_Buffer_Type type, const void *data,
                      const int64_t *dims, size_t rank, const int64_t *strides) {
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = data;
  a.type = type;
  a.dims = dims;
  a.num_dims = rank;
  a.byte_strides = strides;
  a.num_byte_strides = strides ? rank : 0;
  a.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  a.device = d;
  a.memory = m;
  if (!OK(api->PJRT_Client_BufferFromHostBuffer(&a))) return NULL;
  CHECK(a.done_with_host_buffer, "done_with_host_buffer is NULL");
  t_event_destroy(a.done_with_host_buffer);
  return a.buffer;
}

void t_buffer_destroy(PJRT_Buffer *b) {
  ARGS(PJRT_Buffer_Destroy_Args, a);
  a.buffer = b;
  OK(api->PJRT_Buffer_Destroy(&a));
}

bool t_read(PJRT_Buffer *b, void *dst, size_t size) {
  ARGS(PJRT_Buffer_ToHostBuffer_Args, a);
  a.src = b;
  a.dst = dst;
  a.dst_size = size;
  if (!OK(api->PJRT_Buffer_ToHostBuffer(&a))) return false;
  ARGS(PJRT_Event_Await_Args, w);
  w.event = a.event;
  bool ok = OK(api->PJRT_Event_Await(&w));
  t_event_destroy(a.event);
  return ok;
}

PJRT_LoadedExecutable *t_compile(PJRT_Client *c, const char *code, size_t size, const void *options,
                                 size_t options_size, PJRT_Error **err) {
  ARGS(PJRT_Program, p);
  p.code = (char *)code;
  p.code_size = size;
  p.format = "mlir";
  p.format_size = 4;
  ARGS(PJRT_Client_Compile_Args, a);
  a.client = c;
  a.program = &p;
  a.compile_options = options;
  a.compile_options_size = options_size;
  *err = api->PJRT_Client_Compile(&a);
  return a.executable;
}

void t_executable_destroy(PJRT_LoadedExecutable *x) {
  ARGS(PJRT_LoadedExecutable_Destroy_Args, a);
  a.executable = x;
  OK(api->PJRT_LoadedExecutable_Destroy(&a));
}

PJRT_Error *t_execute(PJRT_LoadedExecutable *x, PJRT_Buffer *const *args, size_t num_args, PJRT_Buffer **outputs,
                      PJRT_Event **done, PJRT_Device *device) {
  ARGS(PJRT_ExecuteOptions, o);
  PJRT_Buffer *const *lists[1] = {args};
  PJRT_Buffer **outs[1] = {outputs};
  ARGS(PJRT_LoadedExecutable_Execute_Args, a);
  a.executable = x;
  a.options = &o;
  a.argument_lists = lists;
  a.num_devices = 1;
  a.num_args = num_args;
  a.output_lists = outs;
  a.device_complete_events = done;
  a.execute_device = device;
  return api->PJRT_LoadedExecutable_Execute(&a);
}
