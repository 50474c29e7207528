/* Error paths: each comes back as a PJRT_Error with its code and a message, never a crash:
 * bad programs and formats, malformed or unsupported compile options, wrong arguments,
 * NULL and too-small structs, bad strides, layouts and types, deleted buffers and
 * executables, unknown client options. */
#include <string.h>

#include "support.h"

static void compile_errors(PJRT_Client *c) {
  PJRT_Error *err;
  const char *bad = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.bogus %a\n}\n";
  CHECK(!t_compile(c, bad, strlen(bad), NULL, 0, &err), "a bad program compiled");
  FAILS(err, PJRT_Error_Code_INVALID_ARGUMENT, "error:");
  const char *no_main = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n";
  CHECK(!t_compile(c, no_main, strlen(no_main), NULL, 0, &err), "a program without main compiled");
  FAILS(err, PJRT_Error_Code_INVALID_ARGUMENT, "no function @main");

  static const struct {
    const char *what;
    unsigned char bytes[12];
    size_t size;
    const char *message;
  } options[] = {
      {"length past the end", {0x1a, 0x05, 0x20}, 3, "past the end"},
      {"a group", {0x0b}, 1, "groups"},
      {"wire type 7", {0x0f}, 1, "unknown wire type"},
      {"field number 0", {0x00, 0x01}, 2, "field number"},
      {"an 11-byte varint", {0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 12, "varint"},
      {"a truncated varint", {0x28, 0xff}, 2, "past the end"},
      {"build options not a message", {0x18, 0x01}, 2, "not a message"},
      {"2 partitions", {0x1a, 0x02, 0x28, 0x02}, 4, "2 partitions requested; the client has 1 devices"},
      {"2 assigned devices", {0x1a, 0x08, 0x4a, 0x06, 0x1a, 0x04, 0x0a, 0x02, 0x00, 0x01}, 10, "names 2 devices"},
      {"device 7", {0x1a, 0x05, 0x4a, 0x03, 0x1a, 0x01, 0x0a}, 7, "past the end"},
  };
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    PJRT_LoadedExecutable *x = t_compile(c, t_add_program, strlen(t_add_program), options[i].bytes, options[i].size,
                                         &err);
    CHECK(!x, "options with %s compiled", options[i].what);
    FAILS(err, PJRT_Error_Code_INVALID_ARGUMENT, options[i].message);
  }
  const unsigned char replicas_2[] = {0x1a, 0x02, 0x20, 0x02}; /* JAX never sends more than one */
  CHECK(!t_compile(c, t_add_program, strlen(t_add_program), replicas_2, sizeof replicas_2, &err), "2 replicas");
  FAILS(err, PJRT_Error_Code_UNIMPLEMENTED, "2 replicas x 1 partitions requested; Kiln runs programs of one replica");
  const unsigned char ordinal_7[] = {0x20, 0x01, 0x1a, 0x02, 0x08, 0x07};
  CHECK(!t_compile(c, t_add_program, strlen(t_add_program), ordinal_7, sizeof ordinal_7, &err), "device 7");
  FAILS(err, PJRT_Error_Code_INVALID_ARGUMENT, "device 7 is not a device");

  ARGS(PJRT_Program, p);
  p.code = (char *)t_add_program;
  p.code_size = strlen(t_add_program);
  p.format = "hlo";
  p.format_size = 3;
  ARGS(PJRT_Client_Compile_Args, a);
  a.client = c;
  a.program = &p;
  FAILS(api->PJRT_Client_Compile(&a), PJRT_Error_Code_INVALID_ARGUMENT, "Unknown program format 'hlo'");
  a.program = NULL;
  FAILS(api->PJRT_Client_Compile(&a), PJRT_Error_Code_INVALID_ARGUMENT, "program is NULL");
}

static void struct_errors(PJRT_Client *c) {
  FAILS(api->PJRT_Client_Devices(NULL), PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Devices: args is NULL");
  PJRT_Client_Devices_Args small = {.struct_size = 8, .client = c};
  FAILS(api->PJRT_Client_Devices(&small), PJRT_Error_Code_INVALID_ARGUMENT, "struct_size 8 is smaller");
  ARGS(PJRT_Client_Devices_Args, no_client);
  FAILS(api->PJRT_Client_Devices(&no_client), PJRT_Error_Code_INVALID_ARGUMENT, "client is NULL");
  ARGS(PJRT_Buffer_Dimensions_Args, no_buffer);
  FAILS(api->PJRT_Buffer_Dimensions(&no_buffer), PJRT_Error_Code_INVALID_ARGUMENT, "buffer is NULL");
  ARGS(PJRT_Event_Await_Args, no_event);
  FAILS(api->PJRT_Event_Await(&no_event), PJRT_Error_Code_INVALID_ARGUMENT, "event is NULL");
  PJRT_LoadedExecutable_Execute_Args tiny = {.struct_size = 16};
  FAILS(api->PJRT_LoadedExecutable_Execute(&tiny), PJRT_Error_Code_INVALID_ARGUMENT, "Execute: args struct_size 16");
  ARGS(PJRT_Client_LookupDevice_Args, look);
  look.client = c;
  look.id = 99;
  FAILS(api->PJRT_Client_LookupDevice(&look), PJRT_Error_Code_INVALID_ARGUMENT,
        "No matching device found for device_id 99");
  int assignment[4];
  ARGS(PJRT_Client_DefaultDeviceAssignment_Args, dda);
  dda.client = c;
  dda.num_replicas = 4;
  dda.num_partitions = 2;
  dda.default_assignment_size = 7;
  dda.default_assignment = assignment;
  FAILS(api->PJRT_Client_DefaultDeviceAssignment(&dda), PJRT_Error_Code_FAILED_PRECONDITION,
        "`default_assignment_size` 7 < `num_replicas * num_partitions`, 4 * 2 = 8");
  dda.num_replicas = dda.num_partitions = 1;
  OK(api->PJRT_Client_DefaultDeviceAssignment(&dda));
  CHECK(assignment[0] == 0, "default assignment");
  ARGS(PJRT_Executable_Serialize_Args, ser);
  FAILS(api->PJRT_Executable_Serialize(&ser), PJRT_Error_Code_UNIMPLEMENTED, "PJRT_Executable_Serialize");
}

static void buffer_errors(PJRT_Client *c, PJRT_Memory *m) {
  const float data[6] = {0};
  const int64_t dims[2] = {2, 3};
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = data;
  a.type = PJRT_Buffer_Type_F32;
  a.dims = dims;
  a.num_dims = 2;
  FAILS(api->PJRT_Client_BufferFromHostBuffer(&a), PJRT_Error_Code_INVALID_ARGUMENT, "neither a device nor a memory");
  a.memory = (PJRT_Memory *)data; /* not one of the client's */
  FAILS(api->PJRT_Client_BufferFromHostBuffer(&a), PJRT_Error_Code_INVALID_ARGUMENT, "not one of this client's");
  a.memory = m;
  const int64_t huge[2] = {INT64_MAX, 4}; /* the last element would lie past INT64_MAX */
  a.byte_strides = huge;
  a.num_byte_strides = 2;
  FAILS(api->PJRT_Client_BufferFromHostBuffer(&a), PJRT_Error_Code_INVALID_ARGUMENT, "overflows");
  a.num_byte_strides = 1;
  FAILS(api->PJRT_Client_BufferFromHostBuffer(&a), PJRT_Error_Code_INVALID_ARGUMENT, "1 byte strides for 2");
  a.byte_strides = NULL;
  a.num_byte_strides = 0;
  a.type = PJRT_Buffer_Type_S1;
  FAILS(api->PJRT_Client_BufferFromHostBuffer(&a), PJRT_Error_Code_INVALID_ARGUMENT, "no Kiln equivalent");
  a.type = PJRT_Buffer_Type_F32;
  a.host_buffer_semantics = PJRT_HostBufferSemantics_kMutableZeroCopy;
  FAILS(api->PJRT_Client_BufferFromHostBuffer(&a), PJRT_Error_Code_UNIMPLEMENTED, "kMutableZeroCopy");

  PJRT_Buffer *b = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, data, dims, 2, NULL);
  if (!b) return;
  float small[2];
  ARGS(PJRT_Buffer_ToHostBuffer_Args, th);
  th.src = b;
  th.dst = small;
  th.dst_size = sizeof small;
  FAILS(api->PJRT_Buffer_ToHostBuffer(&th), PJRT_Error_Code_INVALID_ARGUMENT, "dst_size is 8; the buffer needs 24");
  int64_t m2m[2] = {1, 0}, tile[1] = {8};
  size_t tile_sizes[1] = {1};
  ARGS(PJRT_Buffer_MemoryLayout, tiled);
  tiled.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  tiled.tiled.minor_to_major = m2m;
  tiled.tiled.minor_to_major_size = 2;
  tiled.tiled.tile_dims = tile;
  tiled.tiled.tile_dim_sizes = tile_sizes;
  tiled.tiled.num_tiles = 1;
  th.host_layout = &tiled;
  th.dst = NULL;
  FAILS(api->PJRT_Buffer_ToHostBuffer(&th), PJRT_Error_Code_UNIMPLEMENTED, "tiled layouts");
  int64_t not_perm[2] = {0, 0};
  tiled.tiled.num_tiles = 0;
  tiled.tiled.minor_to_major = not_perm;
  FAILS(api->PJRT_Buffer_ToHostBuffer(&th), PJRT_Error_Code_INVALID_ARGUMENT, "not a permutation");

  ARGS(PJRT_Buffer_Delete_Args, del);
  del.buffer = b;
  OK(api->PJRT_Buffer_Delete(&del));
  OK(api->PJRT_Buffer_Delete(&del)); /* a second delete is a no-op: the framework treats errors as fatal */
  ARGS(PJRT_Buffer_IsDeleted_Args, isd);
  isd.buffer = b;
  OK(api->PJRT_Buffer_IsDeleted(&isd));
  CHECK(isd.is_deleted, "not deleted");
  ARGS(PJRT_Buffer_Dimensions_Args, dd); /* the shape stays */
  dd.buffer = b;
  OK(api->PJRT_Buffer_Dimensions(&dd));
  CHECK(dd.num_dims == 2, "dims after delete");
  float out[6];
  th.host_layout = NULL;
  th.dst = out;
  th.dst_size = sizeof out;
  FAILS(api->PJRT_Buffer_ToHostBuffer(&th), PJRT_Error_Code_FAILED_PRECONDITION, "deleted");
  ARGS(PJRT_Buffer_CopyToMemory_Args, cp);
  cp.buffer = b;
  cp.dst_memory = m;
  FAILS(api->PJRT_Buffer_CopyToMemory(&cp), PJRT_Error_Code_FAILED_PRECONDITION, "deleted");
  t_buffer_destroy(b);
}

static void execute_errors(PJRT_Client *c, PJRT_Memory *m) {
  PJRT_Error *err;
  PJRT_LoadedExecutable *x = t_compile(c, t_add_program, strlen(t_add_program), NULL, 0, &err);
  if (!OK(err)) return;
  const float f[4] = {1, 2, 3, 4};
  const int32_t i[4] = {1, 2, 3, 4};
  const int64_t four[1] = {4}, three[1] = {3};
  PJRT_Buffer *good = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, f, four, 1, NULL);
  PJRT_Buffer *shape = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, f, three, 1, NULL);
  PJRT_Buffer *type = t_buffer(c, NULL, m, PJRT_Buffer_Type_S32, i, four, 1, NULL);
  PJRT_Buffer *out[1] = {NULL};
  PJRT_Buffer *one[1] = {good}, *bad_shape[2] = {good, shape}, *bad_type[2] = {type, good};
  FAILS(t_execute(x, one, 1, out, NULL, NULL), PJRT_Error_Code_INVALID_ARGUMENT, "input");
  FAILS(t_execute(x, bad_shape, 2, out, NULL, NULL), PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_LoadedExecutable_Execute");
  FAILS(t_execute(x, bad_type, 2, out, NULL, NULL), PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_LoadedExecutable_Execute");
  CHECK(!out[0], "a failed execute wrote an output");
  PJRT_Buffer *twice[2] = {good, good};
  PJRT_Event *done[1] = {NULL};
  if (OK(t_execute(x, twice, 2, out, done, NULL))) {
    t_buffer_destroy(out[0]);
    t_event_destroy(done[0]);
  }
  ARGS(PJRT_Buffer_Delete_Args, del);
  del.buffer = shape;
  OK(api->PJRT_Buffer_Delete(&del));
  PJRT_Buffer *deleted[2] = {good, shape};
  FAILS(t_execute(x, deleted, 2, out, NULL, NULL), PJRT_Error_Code_FAILED_PRECONDITION, "argument 1 has been deleted");
  ARGS(PJRT_LoadedExecutable_Delete_Args, xdel);
  xdel.executable = x;
  OK(api->PJRT_LoadedExecutable_Delete(&xdel));
  OK(api->PJRT_LoadedExecutable_Delete(&xdel));
  FAILS(t_execute(x, twice, 2, out, NULL, NULL), PJRT_Error_Code_FAILED_PRECONDITION, "executable has been deleted");
  t_buffer_destroy(good);
  t_buffer_destroy(shape);
  t_buffer_destroy(type);
  t_executable_destroy(x);
}

static void client_errors(void) {
  PJRT_NamedValue unknown = {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "colour", .name_size = 6,
                             .type = PJRT_NamedValue_kInt64, .int64_value = 1, .value_size = 1};
  PJRT_NamedValue devices = {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "devices", .name_size = 7,
                             .type = PJRT_NamedValue_kString, .string_value = "nosuchdevice", .value_size = 12};
  ARGS(PJRT_Client_Create_Args, a);
  a.create_options = &unknown;
  a.num_options = 1;
  FAILS(api->PJRT_Client_Create(&a), PJRT_Error_Code_INVALID_ARGUMENT, "unknown option 'colour'");
  a.create_options = &devices;
  PJRT_Error *err = api->PJRT_Client_Create(&a);
  CHECK(err && !a.client, "a client with no usable device list was created");
  FAILS(err, PJRT_Error_Code_NOT_FOUND, "nosuchdevice");
  /* jax.distributed's nodes outside an mpirun launch (this test is one process) */
  PJRT_NamedValue nodes[2] = {{.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "num_nodes", .name_size = 9,
                               .type = PJRT_NamedValue_kInt64, .int64_value = 2, .value_size = 1},
                              {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "node_id", .name_size = 7,
                               .type = PJRT_NamedValue_kInt64, .int64_value = 1, .value_size = 1}};
  a.create_options = nodes;
  a.num_options = 2;
  FAILS(api->PJRT_Client_Create(&a), PJRT_Error_Code_FAILED_PRECONDITION,
        "node 1 of 2, but this is process 0 of a launch of 1: Kiln's processes meet over MPI");
  a.create_options = &nodes[1]; /* node 1 of the default 1 */
  a.num_options = 1;
  FAILS(api->PJRT_Client_Create(&a), PJRT_Error_Code_INVALID_ARGUMENT, "node_id 1 of 1 nodes");
  nodes[0].int64_value = -1;
  a.create_options = nodes;
  FAILS(api->PJRT_Client_Create(&a), PJRT_Error_Code_INVALID_ARGUMENT, "option 'num_nodes' must be an integer of 0 or more");
}

void t_errors(void) {
  client_errors();
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, NULL, 0);
  if (!c) return;
  PJRT_Memory *m = t_memory(t_device(c, 0));
  compile_errors(c);
  struct_errors(c);
  buffer_errors(c, m);
  execute_errors(c, m);
  t_client_destroy(c);
}
