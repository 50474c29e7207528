/* JAX 0.10.2's call sequence (research brief §1.2): initialise, create the client (kv
 * fields garbage), probe the topology (error tolerated), names, devices, descriptions,
 * memories, attributes; device_put through the default memory; compile; the executable
 * queries of the LoadedExecutable constructor; execute with completion events; the output
 * queries; ToHostBuffer with a row-major host layout and OnReady; destroys. */
#include <string.h>

#include "support.h"

/* As the framework's OnReady callbacks do: destroy the event from inside the callback. */
typedef struct on_ready {
  PJRT_Event *event;
  int calls;
  bool error;
} on_ready;

static void destroy_in_callback(PJRT_Error *err, void *user) {
  on_ready *r = user;
  r->calls++;
  r->error = err != NULL;
  ARGS(PJRT_Error_Destroy_Args, d);
  d.error = err;
  api->PJRT_Error_Destroy(&d);
  ARGS(PJRT_Event_Destroy_Args, e);
  e.event = r->event;
  api->PJRT_Event_Destroy(&e);
}

static void on_ready_destroying(PJRT_Event *event, on_ready *r) {
  *r = (on_ready){event, 0, false};
  ARGS(PJRT_Event_OnReady_Args, a);
  a.event = event;
  a.callback = destroy_in_callback;
  a.user_arg = r;
  OK(api->PJRT_Event_OnReady(&a));
  CHECK(r->calls == 1 && !r->error, "OnReady on a ready event: %d calls, error %d", r->calls, (int)r->error);
}

/* Exactly the nine entries the framework NULL-probes are NULL; every other is set. */
static void check_table(void) {
  CHECK(api->pjrt_api_version.major_version == 0 && api->pjrt_api_version.minor_version == 112, "version %d.%d",
        api->pjrt_api_version.major_version, api->pjrt_api_version.minor_version);
  /* one extension: Shardings (its functions are tested with sharded executables) */
  const PJRT_Extension_Base *ext = api->extension_start;
  CHECK(api->struct_size == PJRT_Api_STRUCT_SIZE && ext && ext->type == PJRT_Extension_Type_Shardings && !ext->next &&
            ext->struct_size == sizeof(PJRT_Extension_Base) + 2 * sizeof(void *),
        "table size/extensions");
  const void *nulls[] = {
      (const void *)api->PJRT_Event_Create, (const void *)api->PJRT_Event_Set,
      (const void *)api->PJRT_Device_GetAttributes, (const void *)api->PJRT_Device_ClearMemoryStats,
      (const void *)api->PJRT_Client_Load, (const void *)api->PJRT_LoadedExecutable_AddressableDeviceLogicalIds,
      (const void *)api->PJRT_Buffer_Bitcast,
      (const void *)api->PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace,
      (const void *)api->PJRT_TopologyDescription_GetMemorySpaceKindIds};
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) CHECK(!nulls[i], "N-set entry %zu is not NULL", i);
  size_t first = offsetof(PJRT_Api, PJRT_Error_Destroy), n = (PJRT_Api_STRUCT_SIZE - first) / sizeof(void (*)(void));
  int set = 0;
  for (size_t i = 0; i < n; i++) {
    void (*fn)(void);
    memcpy(&fn, (const char *)api + first + i * sizeof fn, sizeof fn);
    set += fn != NULL;
  }
  CHECK(set == (int)n - 9, "%d of %zu entries set; expected all but the 9 NULL-probed ones", set, n);
}

static void check_attributes(void) {
  ARGS(PJRT_Plugin_Attributes_Args, a);
  OK(api->PJRT_Plugin_Attributes(&a));
  bool current = false, minimum = false, xla = false;
  for (size_t i = 0; i < a.num_attributes; i++) {
    const PJRT_NamedValue *v = &a.attributes[i];
    bool list3 = v->type == PJRT_NamedValue_kInt64List && v->value_size == 3;
    if (!strncmp(v->name, "stablehlo_current_version", v->name_size))
      current = list3 && v->int64_array_value[0] == 1 && v->int64_array_value[1] == 13 && v->int64_array_value[2] == 0;
    if (!strncmp(v->name, "stablehlo_minimum_version", v->name_size)) minimum = list3;
    if (!strncmp(v->name, "xla_version", v->name_size)) xla = v->type == PJRT_NamedValue_kInt64;
  }
  CHECK(current && minimum && xla, "plugin attributes: current %d minimum %d xla %d", current, minimum, xla);
}

static void check_devices(PJRT_Client *c) {
  ARGS(PJRT_Client_Devices_Args, ds);
  ds.client = c;
  OK(api->PJRT_Client_Devices(&ds));
  CHECK(ds.num_devices >= 1, "no devices");
  for (size_t i = 0; i < ds.num_devices; i++) {
    PJRT_Device *d = ds.devices[i];
    ARGS(PJRT_Device_GetDescription_Args, g);
    g.device = d;
    OK(api->PJRT_Device_GetDescription(&g));
    ARGS(PJRT_DeviceDescription_Id_Args, id);
    id.device_description = g.device_description;
    OK(api->PJRT_DeviceDescription_Id(&id));
    CHECK(id.id == (int)i, "device %zu has id %d", i, id.id);
    ARGS(PJRT_DeviceDescription_Kind_Args, k);
    k.device_description = g.device_description;
    OK(api->PJRT_DeviceDescription_Kind(&k));
    CHECK(k.device_kind_size == strlen(t_devices) && !memcmp(k.device_kind, t_devices, k.device_kind_size),
          "kind '%.*s'", (int)k.device_kind_size, k.device_kind);
    ARGS(PJRT_DeviceDescription_Attributes_Args, at);
    at.device_description = g.device_description;
    OK(api->PJRT_DeviceDescription_Attributes(&at));
    ARGS(PJRT_DeviceDescription_DebugString_Args, dbg);
    dbg.device_description = g.device_description;
    OK(api->PJRT_DeviceDescription_DebugString(&dbg));
    ARGS(PJRT_DeviceDescription_ToString_Args, ts);
    ts.device_description = g.device_description;
    OK(api->PJRT_DeviceDescription_ToString(&ts));
    CHECK(ts.to_string_size && dbg.debug_string_size, "empty device strings");
    ARGS(PJRT_Device_IsAddressable_Args, ad);
    ad.device = d;
    OK(api->PJRT_Device_IsAddressable(&ad));
    ARGS(PJRT_Device_LocalHardwareId_Args, hw);
    hw.device = d;
    OK(api->PJRT_Device_LocalHardwareId(&hw));
    CHECK(ad.is_addressable && hw.local_hardware_id == (int)i, "addressable, local id");
    ARGS(PJRT_Device_AddressableMemories_Args, dm);
    dm.device = d;
    OK(api->PJRT_Device_AddressableMemories(&dm));
    PJRT_Memory *m = t_memory(d);
    CHECK(dm.num_memories == 1 && dm.memories[0] == m && m && !m->vtable, "one memory, the default, vtable NULL");
    ARGS(PJRT_Memory_Kind_Args, mk);
    mk.memory = m;
    OK(api->PJRT_Memory_Kind(&mk));
    CHECK(mk.kind_size == 6 && !memcmp(mk.kind, "device", 6), "memory kind");
    ARGS(PJRT_Memory_AddressableByDevices_Args, by);
    by.memory = m;
    OK(api->PJRT_Memory_AddressableByDevices(&by));
    CHECK(by.num_devices == 1 && by.devices[0] == d, "memory's device");
    ARGS(PJRT_Memory_Kind_Id_Args, kid);
    kid.memory = m;
    OK(api->PJRT_Memory_Kind_Id(&kid));
    ARGS(PJRT_Memory_Id_Args, mid);
    mid.memory = m;
    OK(api->PJRT_Memory_Id(&mid));
    ARGS(PJRT_Memory_DebugString_Args, mds);
    mds.memory = m;
    OK(api->PJRT_Memory_DebugString(&mds));
    ARGS(PJRT_Memory_ToString_Args, mts);
    mts.memory = m;
    OK(api->PJRT_Memory_ToString(&mts));
    ARGS(PJRT_Device_MemoryStats_Args, ms); /* JAX ignores the error */
    ms.device = d;
    FAILS(api->PJRT_Device_MemoryStats(&ms), PJRT_Error_Code_UNIMPLEMENTED, "MemoryStats");
  }
  ARGS(PJRT_Client_AddressableDevices_Args, ads);
  ads.client = c;
  OK(api->PJRT_Client_AddressableDevices(&ads));
  ARGS(PJRT_Client_AddressableMemories_Args, ams);
  ams.client = c;
  OK(api->PJRT_Client_AddressableMemories(&ams));
  CHECK(ads.num_addressable_devices == ds.num_devices && ams.num_addressable_memories == ds.num_devices,
        "addressable devices and memories");
}

/* The LoadedExecutable constructor's queries. */
/* A program without results (what jax.grad of a function of nothing, or a jitted
 * side-effect-free no-op, compiles to): JAX passes no output lists at all. */
static void no_results(PJRT_Client *c) {
  static const char program[] = "func.func @main() {\n  return\n}\n";
  PJRT_Error *err;
  PJRT_LoadedExecutable *x = t_compile(c, program, strlen(program), t_jax_options, t_jax_options_size, &err);
  if (!OK(err)) return;
  ARGS(PJRT_ExecuteOptions, o);
  PJRT_Buffer *const *lists[1] = {NULL};
  PJRT_Event *done[1] = {NULL};
  ARGS(PJRT_LoadedExecutable_Execute_Args, a);
  a.executable = x;
  a.options = &o;
  a.argument_lists = lists;
  a.num_devices = 1;
  a.device_complete_events = done;
  OK(api->PJRT_LoadedExecutable_Execute(&a));
  CHECK(done[0] != NULL, "no completion event for a run without results");
  t_event_destroy(done[0]);
  t_executable_destroy(x);
}

static void check_executable(PJRT_LoadedExecutable *x, PJRT_Device *d) {
  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, g);
  g.loaded_executable = x;
  OK(api->PJRT_LoadedExecutable_GetExecutable(&g));
  ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, ad);
  ad.executable = x;
  OK(api->PJRT_LoadedExecutable_AddressableDevices(&ad));
  CHECK(ad.num_addressable_devices == 1 && ad.addressable_devices[0] == d, "addressable devices of the executable");
  ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, da);
  da.executable = x;
  OK(api->PJRT_LoadedExecutable_GetDeviceAssignment(&da));
  static const char want[] = {0x08, 0x01, 0x10, 0x01, 0x1a, 0x03, 0x0a, 0x01, 0x00};
  CHECK(da.serialized_bytes_size == sizeof want && !memcmp(da.serialized_bytes, want, sizeof want),
        "device assignment bytes (%zu)", da.serialized_bytes_size);
  CHECK(da.serialized_device_assignment_deleter, "deleter is NULL");
  if (da.serialized_device_assignment_deleter) da.serialized_device_assignment_deleter(da.serialized_device_assignment);
  ARGS(PJRT_Executable_Fingerprint_Args, fp);
  fp.executable = g.executable;
  OK(api->PJRT_Executable_Fingerprint(&fp));
  CHECK(fp.executable_fingerprint_size >= 64, "fingerprint of %zu bytes", fp.executable_fingerprint_size);
  ARGS(PJRT_Executable_OutputMemoryKinds_Args, mk);
  mk.executable = g.executable;
  FAILS(api->PJRT_Executable_OutputMemoryKinds(&mk), PJRT_Error_Code_UNIMPLEMENTED, "OutputMemoryKinds");
  ARGS(PJRT_Executable_Name_Args, nm);
  nm.executable = g.executable;
  OK(api->PJRT_Executable_Name(&nm));
  ARGS(PJRT_Executable_NumReplicas_Args, nr);
  nr.executable = g.executable;
  OK(api->PJRT_Executable_NumReplicas(&nr));
  ARGS(PJRT_Executable_NumPartitions_Args, np);
  np.executable = g.executable;
  OK(api->PJRT_Executable_NumPartitions(&np));
  ARGS(PJRT_Executable_NumOutputs_Args, no);
  no.executable = g.executable;
  OK(api->PJRT_Executable_NumOutputs(&no));
  ARGS(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, sz);
  sz.executable = g.executable;
  OK(api->PJRT_Executable_SizeOfGeneratedCodeInBytes(&sz));
  CHECK(nr.num_replicas == 1 && np.num_partitions == 1 && no.num_outputs == 1 && sz.size_in_bytes >= 0,
        "replicas %zu partitions %zu outputs %zu", nr.num_replicas, np.num_partitions, no.num_outputs);
  ARGS(PJRT_Executable_Destroy_Args, xd);
  xd.executable = g.executable;
  OK(api->PJRT_Executable_Destroy(&xd));
  ARGS(PJRT_LoadedExecutable_IsDeleted_Args, del);
  del.executable = x;
  OK(api->PJRT_LoadedExecutable_IsDeleted(&del));
  CHECK(!del.is_deleted, "a new executable is deleted");
}

/* The output queries after Execute, then np.asarray. */
static void check_output(PJRT_Buffer *out, PJRT_Device *d, const float *want) {
  ARGS(PJRT_Buffer_ElementType_Args, et);
  et.buffer = out;
  OK(api->PJRT_Buffer_ElementType(&et));
  ARGS(PJRT_Buffer_Dimensions_Args, dims);
  dims.buffer = out;
  OK(api->PJRT_Buffer_Dimensions(&dims));
  CHECK(et.type == PJRT_Buffer_Type_F32 && dims.num_dims == 1 && dims.dims[0] == 4, "output shape");
  ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, dyn);
  dyn.buffer = out;
  OK(api->PJRT_Buffer_DynamicDimensionIndices(&dyn));
  ARGS(PJRT_Buffer_Memory_Args, mem);
  mem.buffer = out;
  OK(api->PJRT_Buffer_Memory(&mem));
  ARGS(PJRT_Buffer_Device_Args, dev);
  dev.buffer = out;
  OK(api->PJRT_Buffer_Device(&dev));
  CHECK(!dyn.num_dynamic_dims && dev.device == d && mem.memory == t_memory(d), "output placement");
  ARGS(PJRT_Buffer_ReadyEvent_Args, re);
  re.buffer = out;
  OK(api->PJRT_Buffer_ReadyEvent(&re));
  ARGS(PJRT_Event_IsReady_Args, ir);
  ir.event = re.event;
  OK(api->PJRT_Event_IsReady(&ir));
  ARGS(PJRT_Event_Error_Args, ee);
  ee.event = re.event;
  OK(api->PJRT_Event_Error(&ee));
  CHECK(ir.is_ready, "output not ready");
  on_ready r;
  on_ready_destroying(re.event, &r);
  ARGS(PJRT_Buffer_IsOnCpu_Args, cpu);
  cpu.buffer = out;
  OK(api->PJRT_Buffer_IsOnCpu(&cpu));
  CHECK(!cpu.is_on_cpu, "IsOnCpu is true");

  int64_t m2m[1] = {0};
  ARGS(PJRT_Buffer_MemoryLayout, layout);
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  layout.tiled.minor_to_major = m2m;
  layout.tiled.minor_to_major_size = 1;
  ARGS(PJRT_Buffer_ToHostBuffer_Args, size);
  size.src = out;
  size.host_layout = &layout;
  OK(api->PJRT_Buffer_ToHostBuffer(&size));
  CHECK(size.dst_size == 16, "size query says %zu", size.dst_size);
  float got[4] = {0};
  ARGS(PJRT_Buffer_ToHostBuffer_Args, th);
  th.src = out;
  th.host_layout = &layout;
  th.dst = got;
  th.dst_size = sizeof got;
  OK(api->PJRT_Buffer_ToHostBuffer(&th));
  CHECK(th.event, "ToHostBuffer gave no event");
  on_ready_destroying(th.event, &r);
  CHECK(!memcmp(got, want, sizeof got), "result %g %g %g %g", got[0], got[1], got[2], got[3]);
}

void t_jax(void) {
  check_table();
  ARGS(PJRT_Plugin_Initialize_Args, init);
  OK(api->PJRT_Plugin_Initialize(&init));
  OK(api->PJRT_Plugin_Initialize(&init)); /* idempotent */
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, NULL, 0);
  if (!c) return;
  ARGS(PJRT_Client_TopologyDescription_Args, topo);
  topo.client = c;
  FAILS(api->PJRT_Client_TopologyDescription(&topo), PJRT_Error_Code_UNIMPLEMENTED, "TopologyDescription");
  ARGS(PJRT_Client_PlatformName_Args, pn);
  pn.client = c;
  OK(api->PJRT_Client_PlatformName(&pn));
  CHECK(pn.platform_name_size == 4 && !memcmp(pn.platform_name, "kiln", 4), "platform name");
  ARGS(PJRT_Client_PlatformVersion_Args, pv);
  pv.client = c;
  OK(api->PJRT_Client_PlatformVersion(&pv));
  CHECK(pv.platform_version_size > 5 && !memcmp(pv.platform_version, "kiln ", 5) &&
            strstr(pv.platform_version, t_devices),
        "platform version '%.*s'", (int)pv.platform_version_size, pv.platform_version);
  ARGS(PJRT_Client_ProcessIndex_Args, pi);
  pi.client = c;
  OK(api->PJRT_Client_ProcessIndex(&pi));
  check_attributes();
  check_devices(c);

  PJRT_Device *d = t_device(c, 0);
  PJRT_Memory *m = t_memory(d);
  const float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40}, sum[4] = {11, 22, 33, 44};
  const int64_t dims[1] = {4};
  PJRT_Buffer *in[2] = {t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, x, dims, 1, NULL),
                        t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, y, dims, 1, NULL)};
  PJRT_Error *err;
  PJRT_LoadedExecutable *exe = t_compile(c, t_add_program, strlen(t_add_program), t_jax_options, t_jax_options_size,
                                         &err);
  if (OK(err) && in[0] && in[1]) {
    check_executable(exe, d);
    PJRT_Buffer *out[1] = {NULL};
    PJRT_Event *done[1] = {NULL};
    OK(t_execute(exe, in, 2, out, done, NULL));
    CHECK(done[0] && out[0], "no completion event or output");
    if (done[0]) {
      ARGS(PJRT_Event_Await_Args, w);
      w.event = done[0];
      OK(api->PJRT_Event_Await(&w));
      t_event_destroy(done[0]);
    }
    if (out[0]) {
      check_output(out[0], d, sum);
      ARGS(PJRT_Buffer_Delete_Args, del);
      del.buffer = out[0];
      OK(api->PJRT_Buffer_Delete(&del));
      t_buffer_destroy(out[0]);
    }
  }
  t_executable_destroy(exe);
  t_buffer_destroy(in[0]);
  t_buffer_destroy(in[1]);
  no_results(c);
  t_client_destroy(c);
}
