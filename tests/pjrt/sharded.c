/* A sharded program through PJRT as JAX runs one: compiled for 4 partitions on a device
 * assignment in reverse order (partition p on device 3 - p), its queries (NumPartitions,
 * AddressableDevices, GetDeviceAssignment), the Shardings extension's serialized
 * xla.OpSharding of each parameter and output, and Execute with one argument and output list
 * per partition; then the errors: wrong num_devices, an argument on another partition's
 * device. */
#include <string.h>

#include "support.h"

/* x sharded over "i" (2 elements per device): x * x keeps the blocks, the sum is whole. */
static const char k_program[] =
    "module @sharded attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  sdy.mesh @mesh = <[\"i\"=4]>\n"
    "  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"i\"}]>})\n"
    "      -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"i\"}]>}, tensor<f32>) {\n"
    "    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>\n"
    "    %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "    %1 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0]"
    " : (tensor<8xf32>, tensor<f32>) -> tensor<f32>\n"
    "    return %0, %1 : tensor<8xf32>, tensor<f32>\n"
    "  }\n"
    "}\n";

enum { N = 4 };

/* CompileOptionsProto {3: {4: 1 replica, 5: 4 partitions, 9: {1: 1, 2: 4, 3: [{1: [3 - p]}]}}} */
static const unsigned char k_options[] = {0x1a, 0x1e, 0x20, 0x01, 0x28, 0x04, 0x4a, 0x18, 0x08, 0x01,
                                          0x10, 0x04, 0x1a, 0x03, 0x0a, 0x01, 0x03, 0x1a, 0x03, 0x0a,
                                          0x01, 0x02, 0x1a, 0x03, 0x0a, 0x01, 0x01, 0x1a, 0x03, 0x0a,
                                          0x01, 0x00};

/* The Shardings extension, as declared in XLA's pjrt_c_api_shardings_extension.h. */
typedef struct {
  size_t struct_size;
  PJRT_Extension_Base *extension_start;
  PJRT_Executable *executable;
  size_t count;
  const char *const *shardings;
  const size_t *sharding_sizes;
} shardings_args;
typedef struct {
  PJRT_Extension_Base base;
  PJRT_Error *(*parameter_shardings)(shardings_args *);
  PJRT_Error *(*output_shardings)(shardings_args *);
} shardings_extension;

static void check_shardings(PJRT_LoadedExecutable *x) {
  const shardings_extension *ext = (const shardings_extension *)api->extension_start;
  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, g);
  g.loaded_executable = x;
  if (!OK(api->PJRT_LoadedExecutable_GetExecutable(&g))) return;
  shardings_args a = {.struct_size = sizeof a, .executable = g.executable};
  /* OTHER, tile_assignment_dimensions [4], devices (partitions) [0, 1, 2, 3] */
  const unsigned char blocks[] = {0x08, 0x03, 0x1a, 0x01, 0x04, 0x22, 0x04, 0x00, 0x01, 0x02, 0x03};
  if (OK(ext->parameter_shardings(&a)))
    CHECK(a.count == 1 && a.sharding_sizes[0] == sizeof blocks && !memcmp(a.shardings[0], blocks, sizeof blocks),
          "parameter sharding: %zu of %zu bytes", a.count ? a.sharding_sizes[0] : 0, sizeof blocks);
  if (OK(ext->output_shardings(&a)))
    CHECK(a.count == 2 && a.sharding_sizes[0] == sizeof blocks && !memcmp(a.shardings[0], blocks, sizeof blocks) &&
              a.sharding_sizes[1] == 2 && a.shardings[1][0] == 0x08 && a.shardings[1][1] == 0,
          "output shardings: blocks, then REPLICATED");
  shardings_args small = {.struct_size = offsetof(shardings_args, shardings), .executable = g.executable};
  FAILS(ext->output_shardings(&small), PJRT_Error_Code_INVALID_ARGUMENT, "struct_size");
  ARGS(PJRT_Executable_NumPartitions_Args, np);
  np.executable = g.executable;
  if (OK(api->PJRT_Executable_NumPartitions(&np))) CHECK(np.num_partitions == N, "%zu partitions", np.num_partitions);
  ARGS(PJRT_Executable_Destroy_Args, d);
  d.executable = g.executable;
  OK(api->PJRT_Executable_Destroy(&d));
}

static void check_queries(PJRT_Client *c, PJRT_LoadedExecutable *x) {
  ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, ad);
  ad.executable = x;
  if (OK(api->PJRT_LoadedExecutable_AddressableDevices(&ad))) {
    bool order = ad.num_addressable_devices == N;
    for (int p = 0; order && p < N; p++) order = ad.addressable_devices[p] == t_device(c, N - 1 - p);
    CHECK(order, "addressable devices in partition order (%zu)", ad.num_addressable_devices);
  }
  ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, da);
  da.executable = x;
  const unsigned char want[] = {0x08, 0x01, 0x10, 0x04, 0x1a, 0x03, 0x0a, 0x01, 0x03, 0x1a, 0x03, 0x0a, 0x01, 0x02,
                                0x1a, 0x03, 0x0a, 0x01, 0x01, 0x1a, 0x03, 0x0a, 0x01, 0x00};
  if (OK(api->PJRT_LoadedExecutable_GetDeviceAssignment(&da))) {
    CHECK(da.serialized_bytes_size == sizeof want && !memcmp(da.serialized_bytes, want, sizeof want),
          "device assignment proto (%zu bytes)", da.serialized_bytes_size);
    da.serialized_device_assignment_deleter(da.serialized_device_assignment);
  }
}

static PJRT_Error *execute(PJRT_LoadedExecutable *x, PJRT_Buffer *(*args)[1], PJRT_Buffer *(*outs)[2], size_t n,
                           PJRT_Event **done) {
  ARGS(PJRT_ExecuteOptions, o);
  PJRT_Buffer *const *lists[N];
  PJRT_Buffer **out_lists[N];
  for (int p = 0; p < N; p++) {
    lists[p] = args[p];
    out_lists[p] = outs[p];
  }
  ARGS(PJRT_LoadedExecutable_Execute_Args, a);
  a.executable = x;
  a.options = &o;
  a.argument_lists = lists;
  a.num_devices = n;
  a.num_args = 1;
  a.output_lists = out_lists;
  a.device_complete_events = done;
  return api->PJRT_LoadedExecutable_Execute(&a);
}

static void check_run(PJRT_Client *c, PJRT_LoadedExecutable *x) {
  PJRT_Buffer *args[N][1], *outs[N][2] = {{NULL}};
  PJRT_Event *done[N] = {NULL};
  const int64_t dims[1] = {2};
  for (int p = 0; p < N; p++) { /* partition p holds elements 2p, 2p + 1 of 1..8 */
    const float block[2] = {2.0f * p + 1, 2.0f * p + 2};
    args[p][0] = t_buffer(c, t_device(c, N - 1 - p), NULL, PJRT_Buffer_Type_F32, block, dims, 1, NULL);
  }
  if (OK(execute(x, args, outs, N, done))) {
    for (int p = 0; p < N; p++) {
      float sq[2] = {0}, sum = 0;
      if (t_read(outs[p][0], sq, sizeof sq) && t_read(outs[p][1], &sum, sizeof sum))
        CHECK(sq[0] == (2.0f * p + 1) * (2.0f * p + 1) && sq[1] == (2.0f * p + 2) * (2.0f * p + 2) && sum == 36,
              "partition %d: %g %g, sum %g", p, sq[0], sq[1], sum);
      ARGS(PJRT_Buffer_Device_Args, bd);
      bd.buffer = outs[p][0];
      if (OK(api->PJRT_Buffer_Device(&bd))) CHECK(bd.device == t_device(c, N - 1 - p), "partition %d's output device", p);
      CHECK(done[p] != NULL, "partition %d's completion event", p);
      t_event_destroy(done[p]);
      t_buffer_destroy(outs[p][0]);
      t_buffer_destroy(outs[p][1]);
    }
  }
  FAILS(execute(x, args, outs, 1, NULL), PJRT_Error_Code_INVALID_ARGUMENT, "num_devices is 1; the executable runs on 4");
  PJRT_Buffer *swap = args[0][0];
  args[0][0] = args[1][0];
  args[1][0] = swap;
  FAILS(execute(x, args, outs, N, NULL), PJRT_Error_Code_INVALID_ARGUMENT, "argument 0 is on device 2; the executable runs on device 3");
  for (int p = 0; p < N; p++) t_buffer_destroy(args[p][0]);
}

void t_sharded(void) {
  PJRT_NamedValue four = {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "num_devices", .name_size = 11,
                          .type = PJRT_NamedValue_kInt64, .int64_value = N, .value_size = 1};
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, &four, 1);
  if (!c) return;
  PJRT_Error *err = NULL;
  PJRT_LoadedExecutable *x = t_compile(c, k_program, strlen(k_program), k_options, sizeof k_options, &err);
  if (OK(err) && x) {
    check_shardings(x);
    check_queries(c, x);
    check_run(c, x);
    t_executable_destroy(x);
  }
  t_client_destroy(c);
}
