/* Several devices in one client (the create option num_devices): with cpu, 4 devices with
 * ids 0..3, process index 0, one memory each (kind "device"), found by LookupDevice; a
 * program compiled for device 2 (a 1x1 device assignment naming it) runs there on that
 * device's buffers, refuses another device's buffer, and two devices run at once; a
 * program over several partitions is refused at compile time; bad num_devices values, and
 * a backend that has one device (interp), fail with their reasons. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

enum { N = 4 };

static PJRT_NamedValue count_option(int64_t n) {
  return (PJRT_NamedValue){.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "num_devices", .name_size = 11,
                           .type = PJRT_NamedValue_kInt64, .int64_value = n, .value_size = 1};
}

/* PJRT_Client_Create with the test's device list and `extra`; the error, or NULL with *out. */
static PJRT_Error *create(const PJRT_NamedValue *extra, PJRT_Client **out) {
  PJRT_NamedValue opts[2] = {{.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "devices", .name_size = 7,
                              .type = PJRT_NamedValue_kString, .string_value = t_devices,
                              .value_size = strlen(t_devices)},
                             *extra};
  ARGS(PJRT_Client_Create_Args, a);
  a.create_options = opts;
  a.num_options = 2;
  PJRT_Error *err = api->PJRT_Client_Create(&a);
  *out = a.client;
  return err;
}

/* Options as JAX sends them for the one device `id` (t_jax_options with its 1x1 device
 * assignment [0] rewritten), into out (t_jax_options_size bytes). */
static void options_for(int id, unsigned char *out) {
  static const unsigned char assignment[] = {0x1a, 0x03, 0x0a, 0x01, 0x00}; /* 3 {1 [0]} */
  memcpy(out, t_jax_options, t_jax_options_size);
  for (size_t i = 0; i + sizeof assignment <= t_jax_options_size; i++)
    if (!memcmp(out + i, assignment, sizeof assignment)) out[i + sizeof assignment - 1] = (unsigned char)id;
}

static void check_listing(PJRT_Client *c) {
  ARGS(PJRT_Client_Devices_Args, all);
  all.client = c;
  ARGS(PJRT_Client_AddressableDevices_Args, local);
  local.client = c;
  ARGS(PJRT_Client_AddressableMemories_Args, mems);
  mems.client = c;
  if (!OK(api->PJRT_Client_Devices(&all)) || !OK(api->PJRT_Client_AddressableDevices(&local)) ||
      !OK(api->PJRT_Client_AddressableMemories(&mems)))
    return;
  CHECK(all.num_devices == N && local.num_addressable_devices == N && mems.num_addressable_memories == N,
        "%zu devices, %zu addressable, %zu memories (want %d)", all.num_devices, local.num_addressable_devices,
        mems.num_addressable_memories, N);
  if (all.num_devices != N) return;
  ARGS(PJRT_Client_ProcessIndex_Args, pi);
  pi.client = c;
  CHECK(OK(api->PJRT_Client_ProcessIndex(&pi)) && pi.process_index == 0, "process index %d", pi.process_index);
  for (int i = 0; i < N; i++) {
    PJRT_Device *d = all.devices[i];
    CHECK(d == local.addressable_devices[i] && d == t_device(c, i), "device %d: lists and LookupDevice differ", i);
    ARGS(PJRT_Device_GetDescription_Args, g);
    g.device = d;
    OK(api->PJRT_Device_GetDescription(&g));
    ARGS(PJRT_DeviceDescription_Id_Args, id);
    id.device_description = g.device_description;
    ARGS(PJRT_DeviceDescription_ProcessIndex_Args, p);
    p.device_description = g.device_description;
    ARGS(PJRT_DeviceDescription_Kind_Args, k);
    k.device_description = g.device_description;
    ARGS(PJRT_DeviceDescription_ToString_Args, s);
    s.device_description = g.device_description;
    OK(api->PJRT_DeviceDescription_Id(&id));
    OK(api->PJRT_DeviceDescription_ProcessIndex(&p));
    OK(api->PJRT_DeviceDescription_Kind(&k));
    OK(api->PJRT_DeviceDescription_ToString(&s));
    char name[16], text[512];
    snprintf(name, sizeof name, "cpu:%d", i);
    snprintf(text, sizeof text, "%.*s", (int)s.to_string_size, s.to_string);
    CHECK(id.id == i && p.process_index == 0 && k.device_kind_size == 3 && !memcmp(k.device_kind, "cpu", 3) &&
              strstr(text, name) && strstr(text, "one of 4 devices"),
          "device %d: id %d, process %d, kind %.*s, %s", i, id.id, p.process_index, (int)k.device_kind_size,
          k.device_kind, text);
    ARGS(PJRT_Device_AddressableMemories_Args, m);
    m.device = d;
    if (!OK(api->PJRT_Device_AddressableMemories(&m)) || m.num_memories != 1) {
      CHECK(false, "device %d has %zu memories", i, m.num_memories);
      continue;
    }
    ARGS(PJRT_Memory_Id_Args, mid);
    mid.memory = m.memories[0];
    ARGS(PJRT_Memory_Kind_Args, mk);
    mk.memory = m.memories[0];
    ARGS(PJRT_Memory_AddressableByDevices_Args, by);
    by.memory = m.memories[0];
    OK(api->PJRT_Memory_Id(&mid));
    OK(api->PJRT_Memory_Kind(&mk));
    OK(api->PJRT_Memory_AddressableByDevices(&by));
    CHECK(mid.id == i && mk.kind_size == 6 && !memcmp(mk.kind, "device", 6) && by.num_devices == 1 &&
              by.devices[0] == d && m.memories[0] == t_memory(d) && m.memories[0] == mems.addressable_memories[i],
          "device %d: memory id %d, kind %.*s, %zu devices", i, mid.id, (int)mk.kind_size, mk.kind, by.num_devices);
  }
  ARGS(PJRT_Client_LookupDevice_Args, l);
  l.client = c;
  l.id = N;
  FAILS(api->PJRT_Client_LookupDevice(&l), PJRT_Error_Code_INVALID_ARGUMENT, "No matching device found for device_id 4");
  int assignment[N] = {-1, -1, -1, -1};
  ARGS(PJRT_Client_DefaultDeviceAssignment_Args, da);
  da.client = c;
  da.num_replicas = 1;
  da.num_partitions = N;
  da.default_assignment = assignment;
  da.default_assignment_size = N;
  CHECK(OK(api->PJRT_Client_DefaultDeviceAssignment(&da)) && assignment[0] == 0 && assignment[3] == 3,
        "default assignment %d %d %d %d", assignment[0], assignment[1], assignment[2], assignment[3]);
}

static PJRT_Device *buffer_device(PJRT_Buffer *b) {
  ARGS(PJRT_Buffer_Device_Args, a);
  a.buffer = b;
  return OK(api->PJRT_Buffer_Device(&a)) ? a.device : NULL;
}

typedef struct runner {
  PJRT_Client *c;
  int device;
  int bad;
} runner;

/* Compiles the add program for one device and runs it there many times. */
static void *run_on(void *arg) {
  runner *r = arg;
  unsigned char options[256];
  options_for(r->device, options);
  PJRT_Error *err;
  PJRT_LoadedExecutable *x = t_compile(r->c, t_add_program, strlen(t_add_program), options, t_jax_options_size, &err);
  PJRT_Device *d = t_device(r->c, r->device);
  if (!OK(err) || !x || !d) {
    r->bad++;
    return NULL;
  }
  const int64_t dims[1] = {4};
  for (int k = 0; k < 200; k++) {
    const float a[4] = {(float)k, 1, 2, (float)r->device}, b[4] = {1, 1, 1, 1};
    PJRT_Buffer *in[2] = {t_buffer(r->c, NULL, t_memory(d), PJRT_Buffer_Type_F32, a, dims, 1, NULL),
                          t_buffer(r->c, NULL, t_memory(d), PJRT_Buffer_Type_F32, b, dims, 1, NULL)},
                *out[1] = {NULL};
    float got[4] = {0};
    if (in[0] && in[1] && OK(t_execute(x, in, 2, out, NULL, NULL)) && t_read(out[0], got, sizeof got))
      r->bad += got[0] != k + 1 || got[3] != r->device + 1 || buffer_device(out[0]) != d;
    else r->bad++;
    for (int i = 0; i < 2; i++)
      if (in[i]) t_buffer_destroy(in[i]);
    if (out[0]) t_buffer_destroy(out[0]);
  }
  t_executable_destroy(x);
  return NULL;
}

static void check_runs(PJRT_Client *c) {
  unsigned char options[256];
  options_for(2, options);
  PJRT_Error *err;
  PJRT_LoadedExecutable *x = t_compile(c, t_add_program, strlen(t_add_program), options, t_jax_options_size, &err);
  if (!OK(err) || !x) return;
  ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, ad);
  ad.executable = x;
  CHECK(OK(api->PJRT_LoadedExecutable_AddressableDevices(&ad)) && ad.num_addressable_devices == 1 &&
            ad.addressable_devices[0] == t_device(c, 2),
        "the executable compiled for device 2 names %zu devices", ad.num_addressable_devices);
  const float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  const int64_t dims[1] = {4};
  PJRT_Buffer *a2 = t_buffer(c, NULL, t_memory(t_device(c, 2)), PJRT_Buffer_Type_F32, a, dims, 1, NULL);
  PJRT_Buffer *b2 = t_buffer(c, t_device(c, 2), NULL, PJRT_Buffer_Type_F32, b, dims, 1, NULL);
  PJRT_Buffer *b1 = t_buffer(c, t_device(c, 1), NULL, PJRT_Buffer_Type_F32, b, dims, 1, NULL);
  CHECK(buffer_device(a2) == t_device(c, 2) && buffer_device(b1) == t_device(c, 1), "buffers are on the wrong devices");
  PJRT_Buffer *in[2] = {a2, b2}, *out[1] = {NULL};
  float got[4] = {0};
  if (OK(t_execute(x, in, 2, out, NULL, NULL)) && t_read(out[0], got, sizeof got)) {
    CHECK(got[0] == 11 && got[3] == 44 && buffer_device(out[0]) == t_device(c, 2), "device 2's run: %g %g", got[0],
          got[3]);
    t_buffer_destroy(out[0]);
  }
  in[1] = b1; /* another device's buffer */
  FAILS(t_execute(x, in, 2, out, NULL, NULL), PJRT_Error_Code_INVALID_ARGUMENT,
        "argument 1 is on device 1; the executable runs on device 2");
  t_buffer_destroy(a2);
  t_buffer_destroy(b2);
  t_buffer_destroy(b1);
  t_executable_destroy(x);

  /* 4 partitions with an assignment of one device: refused when it is compiled (sharded.c
   * runs real sharded programs) */
  options_for(0, options);
  for (size_t i = 0; i + 2 <= t_jax_options_size; i++)
    if (options[i] == 0x28 && options[i + 1] == 0x01 && options[i - 2] == 0x20) options[i + 1] = N; /* 5 num_partitions */
  x = t_compile(c, t_add_program, strlen(t_add_program), options, t_jax_options_size, &err);
  FAILS(err, PJRT_Error_Code_INVALID_ARGUMENT, "the device assignment names 1 devices for 4 partitions");
  CHECK(!x, "a 4-partition program was compiled for one device");

  /* devices 0 and 3 at once, each its own executable and buffers */
  runner r[2] = {{c, 0, 0}, {c, 3, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, run_on, &r[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  CHECK(r[0].bad == 0 && r[1].bad == 0, "devices 0 and 3 at once: %d and %d wrong runs", r[0].bad, r[1].bad);
}

void t_devices_many(void) {
  PJRT_Client *c = NULL;
  PJRT_NamedValue bad = count_option(0);
  FAILS(create(&bad, &c), PJRT_Error_Code_INVALID_ARGUMENT, "option 'num_devices' must be an integer of 1 or more");
  bad.type = PJRT_NamedValue_kString;
  bad.string_value = "4";
  FAILS(create(&bad, &c), PJRT_Error_Code_INVALID_ARGUMENT, "option 'num_devices' must be an integer of 1 or more");
  PJRT_NamedValue four = count_option(N);
  if (strcmp(t_devices, "cpu")) { /* interp makes any number; the listing below is the cpu's */
    if (OK(create(&four, &c)) && c) t_client_destroy(c);
    return;
  }
  four.int64_value = 5000;
  FAILS(create(&four, &c), PJRT_Error_Code_UNAVAILABLE, "cpu: 5000 devices asked for; the cpu backend offers 1 to 1024");
  four.int64_value = N;
  if (!OK(create(&four, &c)) || !c) return;
  check_listing(c);
  check_runs(c);
  t_client_destroy(c);
}
