/* Devices, their descriptions and memories: one PJRT device per device of the kiln
 * client, each with one memory of kind "device"; in a launch of several processes
 * (jax.distributed) every process's devices, process-major (id = process_index * the
 * devices per process + the kiln device's index), of which this process's are
 * addressable. All of it is built with the client and immutable afterwards. */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>

#include "pjrt/pjrt.h"

kiln_status kiln_pjrt_devices_init(PJRT_Client *c) {
  int32_t local = kiln_client_device_count(c->kiln), n = local * c->num_processes;
  c->num_local = local;
  c->first_local = local * c->process_index;
  c->devices = calloc((size_t)n, sizeof *c->devices);
  c->device_list = calloc((size_t)n, sizeof *c->device_list);
  c->memory_list = calloc((size_t)n, sizeof *c->memory_list);
  if (!c->devices || !c->device_list || !c->memory_list)
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "PJRT_Client_Create: out of memory");
  c->num_devices = n;
  for (int32_t i = 0; i < n; i++) {
    PJRT_Device *d = &c->devices[i];
    d->client = c;
    d->id = i;
    d->process_index = i / local;
    bool here = d->process_index == c->process_index;
    d->kiln = here ? kiln_client_device(c->kiln, i - c->first_local) : NULL;
    d->description.device = d;
    d->memory.device = d;
    kiln_device *kd = kiln_client_device(c->kiln, i % local); /* its name: every process runs the same plugin */
    const char *name = kiln_device_name(kd);
    if (asprintf(&d->debug_string, "%s", name) < 0) d->debug_string = NULL;
    if (asprintf(&d->to_string, "KilnDevice(id=%d, process %d, %s: %s)", (int)i, (int)d->process_index, name,
                 kiln_device_description(kd)) < 0)
      d->to_string = NULL;
    if (asprintf(&d->memory.debug_string, "%s device memory", name) < 0) d->memory.debug_string = NULL;
    if (asprintf(&d->memory.to_string, "MEMORY_SPACE_%d(device)", (int)i) < 0) d->memory.to_string = NULL;
    if (!d->debug_string || !d->to_string || !d->memory.debug_string || !d->memory.to_string)
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "PJRT_Client_Create: out of memory");
    c->device_list[i] = d;
    c->memory_list[i] = &d->memory.base;
  }
  return NULL;
}

void kiln_pjrt_devices_free(PJRT_Client *c) {
  for (int32_t i = 0; c->devices && i < c->num_devices; i++) {
    PJRT_Device *d = &c->devices[i];
    free(d->debug_string);
    free(d->to_string);
    free(d->memory.debug_string);
    free(d->memory.to_string);
  }
  free(c->devices);
  free(c->device_list);
  free(c->memory_list);
}

PJRT_Device *kiln_pjrt_client_device(const PJRT_Client *c, int64_t id) {
  return id >= 0 && id < c->num_devices ? &c->devices[id] : NULL;
}

kiln_status kiln_pjrt_device_here(const PJRT_Device *device, const char *what) {
  if (device->kiln) return NULL;
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: device %d runs in process %d, not in this one (%d)", what,
                     (int)device->id, (int)device->process_index, (int)device->client->process_index);
}

bool kiln_pjrt_client_owns_device(const PJRT_Client *c, const PJRT_Device *device) {
  for (int32_t i = 0; i < c->num_devices; i++)
    if (device == &c->devices[i]) return true;
  return false;
}

PJRT_Device *kiln_pjrt_client_memory_device(const PJRT_Client *c, const PJRT_Memory *memory) {
  for (int32_t i = 0; i < c->num_devices; i++)
    if (memory == &c->devices[i].memory.base) return &c->devices[i];
  return NULL;
}

/* ------------------------------------------------------------------ device descriptions */

PJRT_Error *kiln_pjrt_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, id);
  KILN_PJRT_REQUIRE(args->device_description, "device_description is NULL");
  args->id = args->device_description->device->id;
  return NULL;
}

PJRT_Error *kiln_pjrt_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, process_index);
  KILN_PJRT_REQUIRE(args->device_description, "device_description is NULL");
  args->process_index = args->device_description->device->process_index;
  return NULL;
}

PJRT_Error *kiln_pjrt_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, attributes);
  args->num_attributes = 0;
  args->attributes = NULL;
  return NULL;
}

PJRT_Error *kiln_pjrt_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, device_kind_size);
  KILN_PJRT_REQUIRE(args->device_description, "device_description is NULL");
  /* the kind is the kiln plugin that runs the device ("cpu", "interp") */
  kiln_pjrt_out_string(kiln_client_plugin_name(args->device_description->device->client->kiln), &args->device_kind,
                       &args->device_kind_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, debug_string_size);
  KILN_PJRT_REQUIRE(args->device_description, "device_description is NULL");
  kiln_pjrt_out_string(args->device_description->device->debug_string, &args->debug_string, &args->debug_string_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, to_string_size);
  KILN_PJRT_REQUIRE(args->device_description, "device_description is NULL");
  kiln_pjrt_out_string(args->device_description->device->to_string, &args->to_string, &args->to_string_size);
  return NULL;
}

/* ------------------------------------------------------------------ devices */

PJRT_Error *kiln_pjrt_Device_GetDescription(PJRT_Device_GetDescription_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, device_description);
  KILN_PJRT_REQUIRE(args->device, "device is NULL");
  args->device_description = &args->device->description;
  return NULL;
}

PJRT_Error *kiln_pjrt_Device_IsAddressable(PJRT_Device_IsAddressable_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, is_addressable);
  KILN_PJRT_REQUIRE(args->device, "device is NULL");
  args->is_addressable = args->device->kiln != NULL;
  return NULL;
}

/* The kiln device's index in its process (-1: not addressable from here). */
PJRT_Error *kiln_pjrt_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, local_hardware_id);
  KILN_PJRT_REQUIRE(args->device, "device is NULL");
  args->local_hardware_id = args->device->kiln ? args->device->id - args->device->client->first_local : -1;
  return NULL;
}

PJRT_Error *kiln_pjrt_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, num_memories);
  KILN_PJRT_REQUIRE(args->device, "device is NULL");
  args->memories = &args->device->client->memory_list[args->device->id];
  args->num_memories = args->device->kiln ? 1 : 0; /* another process's device: none from here */
  return NULL;
}

PJRT_Error *kiln_pjrt_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, memory);
  KILN_PJRT_REQUIRE(args->device, "device is NULL");
  args->memory = &args->device->memory.base;
  return NULL;
}

/* The framework treats any error here as fatal; Kiln tracks nothing, so there is no event. */
PJRT_Error *kiln_pjrt_Device_CreateAsyncTrackingEvent(PJRT_Device_CreateAsyncTrackingEvent_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, event);
  args->event = NULL;
  return NULL;
}

PJRT_Error *kiln_pjrt_AsyncTrackingEvent_Destroy(PJRT_AsyncTrackingEvent_Destroy_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, event);
  return NULL; /* CreateAsyncTrackingEvent never makes one */
}

/* ------------------------------------------------------------------ memories */

static const kiln_pjrt_memory *memory_of(const PJRT_Memory *m) { return (const kiln_pjrt_memory *)m; }

PJRT_Error *kiln_pjrt_Memory_Id(PJRT_Memory_Id_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, id);
  KILN_PJRT_REQUIRE(args->memory, "memory is NULL");
  args->id = memory_of(args->memory)->device->id;
  return NULL;
}

PJRT_Error *kiln_pjrt_Memory_Kind(PJRT_Memory_Kind_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, kind_size);
  kiln_pjrt_out_string("device", &args->kind, &args->kind_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, kind_id);
  args->kind_id = 0;
  return NULL;
}

PJRT_Error *kiln_pjrt_Memory_DebugString(PJRT_Memory_DebugString_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, debug_string_size);
  KILN_PJRT_REQUIRE(args->memory, "memory is NULL");
  kiln_pjrt_out_string(memory_of(args->memory)->debug_string, &args->debug_string, &args->debug_string_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Memory_ToString(PJRT_Memory_ToString_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, to_string_size);
  KILN_PJRT_REQUIRE(args->memory, "memory is NULL");
  kiln_pjrt_out_string(memory_of(args->memory)->to_string, &args->to_string, &args->to_string_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, num_devices);
  KILN_PJRT_REQUIRE(args->memory, "memory is NULL");
  PJRT_Device *d = memory_of(args->memory)->device;
  args->devices = &d->client->device_list[d->id];
  args->num_devices = 1;
  return NULL;
}
