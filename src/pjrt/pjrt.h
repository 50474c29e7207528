/* Kiln's PJRT C API plugin (libkiln_pjrt.so): the objects behind PJRT's opaque handles and
 * the helpers the entry points share. Internal to src/pjrt/; the plugin exports only
 * GetPjrtApi (api.c).
 *
 * The plugin is an adapter over Kiln's public runtime API (include/kiln/kiln.h): a
 * PJRT_Client owns a kiln_client, devices are the kiln_client's devices, buffers wrap
 * kiln_buffers (host memory), executables wrap kiln_programs compiled per device.
 *
 * Rules every entry point follows:
 * - Arguments arrive in a caller's struct whose struct_size may be smaller than this
 *   header's (EXLA speaks PJRT 0.90): a field is read or written only when it lies inside
 *   struct_size (KILN_PJRT_HAS); a struct too small for the fields a call needs is an
 *   INVALID_ARGUMENT error (KILN_PJRT_CHECK_ARGS), never a crash.
 * - Errors are PJRT_Error values made from kiln_status values (error.c); nothing aborts.
 * - Every entry point is thread-safe. Clients, devices, memories and compiled
 *   executables are immutable after creation; a buffer's and an executable's mutable state
 *   (deleted, lazily compiled devices) is under its own mutex; events have a mutex and a
 *   condition variable.
 * - Handles the plugin returns are reference-counted where PJRT lets the caller destroy
 *   them in any order: a buffer or executable keeps its client alive, an output buffer
 *   its run's event.
 */
#ifndef KILN_PJRT_PJRT_H
#define KILN_PJRT_PJRT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln.h"
#include "pjrt_c_api.h"

/* ------------------------------------------------------------------ struct sizes */

/* Whether the caller's struct *args holds field (offsetof + sizeof <= struct_size). */
#define KILN_PJRT_HAS(args, field) \
  ((args)->struct_size >= offsetof(__typeof__(*(args)), field) + sizeof((args)->field))

/* Returns an INVALID_ARGUMENT PJRT_Error from the calling entry point when args is NULL
 * or its struct_size does not reach last_field (the last field the call needs). */
#define KILN_PJRT_CHECK_ARGS(args, last_field)                                     \
  do {                                                                             \
    if (!(args) || !KILN_PJRT_HAS(args, last_field))                               \
      return kiln_pjrt_args_error(__func__, (args) ? (args)->struct_size : 0,       \
                                  offsetof(__typeof__(*(args)), last_field) +      \
                                      sizeof((args)->last_field));                 \
  } while (0)

/* Returns an INVALID_ARGUMENT error "PJRT_<function>: <what>" unless cond holds. */
#define KILN_PJRT_REQUIRE(cond, what)                                                                   \
  do {                                                                                                  \
    if (!(cond))                                                                                        \
      return kiln_pjrt_error(                                                                           \
          KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_%s: %s", kiln_pjrt_name(__func__), what));     \
  } while (0)

/* Sets a returned string and its size. */
static inline void kiln_pjrt_out_string(const char *s, const char **out, size_t *out_size) {
  *out = s;
  *out_size = __builtin_strlen(s);
}

/* ------------------------------------------------------------------ errors (error.c) */

/* Converts a kiln_status into a new PJRT_Error (same code and message) and frees the
 * status. NULL stays NULL (success). */
PJRT_Error *kiln_pjrt_error(kiln_status status);
/* kiln_pjrt_error of status with "PJRT_<function>: " put before its message. */
PJRT_Error *kiln_pjrt_error_in(const char *function, kiln_status status);
#define KILN_PJRT_FAIL(status) kiln_pjrt_error_in(__func__, (status))
/* The "struct_size N is smaller than M" error of KILN_PJRT_CHECK_ARGS. */
PJRT_Error *kiln_pjrt_args_error(const char *function, size_t got, size_t need);
/* "Client_Create" from an entry point's __func__ "kiln_pjrt_Client_Create" (for messages
 * that name the PJRT function: "PJRT_%s"). */
const char *kiln_pjrt_name(const char *function);
/* An UNIMPLEMENTED error naming the PJRT function. */
PJRT_Error *kiln_pjrt_unimplemented(const char *function);

PJRT_Error_Destroy kiln_pjrt_Error_Destroy;
PJRT_Error_Message kiln_pjrt_Error_Message;
PJRT_Error_GetCode kiln_pjrt_Error_GetCode;
PJRT_Error_ForEachPayload kiln_pjrt_Error_ForEachPayload;

/* ------------------------------------------------------------------ events (event.c) */

/* A completion event: refcounted; ready once set, with an optional error. */
struct PJRT_Event {
  atomic_int refs;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool ready;
  kiln_status error; /* owned; NULL when the work succeeded */
  struct kiln_pjrt_callback *callbacks; /* OnReady callbacks not yet run */
};

/* A new event that is not ready (one reference); NULL when out of memory. */
PJRT_Event *kiln_pjrt_event_new(void);
/* A new event already ready with error (taken over; NULL for success). NULL when out of
 * memory (then error is freed). */
PJRT_Event *kiln_pjrt_event_ready(kiln_status error);
/* Makes a pending event ready with error (taken over) and runs its callbacks, outside the
 * lock, on the calling thread. */
void kiln_pjrt_event_set(PJRT_Event *event, kiln_status error);
PJRT_Event *kiln_pjrt_event_retain(PJRT_Event *event);
/* Drops a reference (NULL allowed); safe from inside an OnReady callback. */
void kiln_pjrt_event_release(PJRT_Event *event);

PJRT_Event_Destroy kiln_pjrt_Event_Destroy;
PJRT_Event_IsReady kiln_pjrt_Event_IsReady;
PJRT_Event_Error kiln_pjrt_Event_Error;
PJRT_Event_Await kiln_pjrt_Event_Await;
PJRT_Event_OnReady kiln_pjrt_Event_OnReady;

/* ------------------------------------------------------------------ client (client.c, device.c) */

/* A device's one memory (kind "device"). PJRT_Memory comes first: the framework reads its
 * vtable (NULL here: no user data). */
typedef struct kiln_pjrt_memory {
  PJRT_Memory base;
  PJRT_Device *device;
  char *debug_string, *to_string;
} kiln_pjrt_memory;

struct PJRT_DeviceDescription {
  PJRT_Device *device;
};

struct PJRT_Device {
  PJRT_Client *client;
  int32_t id;            /* global: process_index * the devices per process + local index */
  int32_t process_index; /* the process that runs it (jax.distributed's node) */
  kiln_device *kiln;     /* NULL on a device of another process (not addressable) */
  PJRT_DeviceDescription description;
  kiln_pjrt_memory memory;
  char *debug_string, *to_string;
};

struct PJRT_Client {
  atomic_int refs;
  kiln_client *kiln;
  /* Every process's devices (num_nodes > 1: the processes of one mpirun launch, each with
   * the same number of devices, num_local); this process's are first_local .. */
  int32_t num_devices, num_local, first_local;
  int32_t process_index, num_processes;
  PJRT_Device *devices;       /* num_devices */
  PJRT_Device **device_list;  /* pointers into devices, as PJRT returns them */
  PJRT_Memory **memory_list;  /* each device's memory, in device order (this process's
                                 devices' only are addressable) */
  char *platform_version;     /* "kiln 0.1.0; device cpu; passed over: ..." */
};

PJRT_Client *kiln_pjrt_client_retain(PJRT_Client *client);
void kiln_pjrt_client_release(PJRT_Client *client);
/* The device of this client with that id, or NULL. */
PJRT_Device *kiln_pjrt_client_device(const PJRT_Client *client, int64_t id);
/* NULL when device runs in this process, else an error naming it and `what` needs it. */
kiln_status kiln_pjrt_device_here(const PJRT_Device *device, const char *what);
/* Whether device is one of client's devices (the handle is checked, not dereferenced). */
bool kiln_pjrt_client_owns_device(const PJRT_Client *client, const PJRT_Device *device);
/* The device of one of client's memories, or NULL when memory is not one of them. */
PJRT_Device *kiln_pjrt_client_memory_device(const PJRT_Client *client, const PJRT_Memory *memory);
/* Builds the devices and their memories of a new client (device.c). */
kiln_status kiln_pjrt_devices_init(PJRT_Client *client);
void kiln_pjrt_devices_free(PJRT_Client *client);

PJRT_Client_Create kiln_pjrt_Client_Create;
PJRT_Client_Destroy kiln_pjrt_Client_Destroy;
PJRT_Client_PlatformName kiln_pjrt_Client_PlatformName;
PJRT_Client_ProcessIndex kiln_pjrt_Client_ProcessIndex;
PJRT_Client_UpdateGlobalProcessInfo kiln_pjrt_Client_UpdateGlobalProcessInfo;
PJRT_Client_PlatformVersion kiln_pjrt_Client_PlatformVersion;
PJRT_Client_Devices kiln_pjrt_Client_Devices;
PJRT_Client_AddressableDevices kiln_pjrt_Client_AddressableDevices;
PJRT_Client_LookupDevice kiln_pjrt_Client_LookupDevice;
PJRT_Client_LookupAddressableDevice kiln_pjrt_Client_LookupAddressableDevice;
PJRT_Client_AddressableMemories kiln_pjrt_Client_AddressableMemories;
PJRT_Client_DefaultDeviceAssignment kiln_pjrt_Client_DefaultDeviceAssignment;

PJRT_DeviceDescription_Id kiln_pjrt_DeviceDescription_Id;
PJRT_DeviceDescription_ProcessIndex kiln_pjrt_DeviceDescription_ProcessIndex;
PJRT_DeviceDescription_Attributes kiln_pjrt_DeviceDescription_Attributes;
PJRT_DeviceDescription_Kind kiln_pjrt_DeviceDescription_Kind;
PJRT_DeviceDescription_DebugString kiln_pjrt_DeviceDescription_DebugString;
PJRT_DeviceDescription_ToString kiln_pjrt_DeviceDescription_ToString;
PJRT_Device_GetDescription kiln_pjrt_Device_GetDescription;
PJRT_Device_IsAddressable kiln_pjrt_Device_IsAddressable;
PJRT_Device_LocalHardwareId kiln_pjrt_Device_LocalHardwareId;
PJRT_Device_AddressableMemories kiln_pjrt_Device_AddressableMemories;
PJRT_Device_DefaultMemory kiln_pjrt_Device_DefaultMemory;
PJRT_Device_CreateAsyncTrackingEvent kiln_pjrt_Device_CreateAsyncTrackingEvent;
PJRT_AsyncTrackingEvent_Destroy kiln_pjrt_AsyncTrackingEvent_Destroy;
PJRT_Memory_Id kiln_pjrt_Memory_Id;
PJRT_Memory_Kind kiln_pjrt_Memory_Kind;
PJRT_Memory_Kind_Id kiln_pjrt_Memory_Kind_Id;
PJRT_Memory_DebugString kiln_pjrt_Memory_DebugString;
PJRT_Memory_ToString kiln_pjrt_Memory_ToString;
PJRT_Memory_AddressableByDevices kiln_pjrt_Memory_AddressableByDevices;

/* ------------------------------------------------------------------ buffers (buffer.c, layout.c) */

struct PJRT_Buffer {
  PJRT_Client *client; /* a reference */
  PJRT_Device *device;
  PJRT_Event *ready;   /* a reference: the run that made it, or an already ready event */
  pthread_mutex_t mu;
  kiln_buffer *kiln;   /* NULL once deleted (under mu) */
  kiln_element_type type;
  size_t byte_size;
  int32_t rank;
  int64_t dims[];
};

/* Wraps kb (taken over) as a buffer of device whose contents are ready with ready
 * (retained; NULL: ready now). */
kiln_status kiln_pjrt_buffer_wrap(PJRT_Device *device, kiln_buffer *kb, PJRT_Event *ready, PJRT_Buffer **out);
/* A new reference to the kiln buffer, or FAILED_PRECONDITION when deleted. */
kiln_status kiln_pjrt_buffer_get(PJRT_Buffer *buffer, kiln_buffer **out);

/* PJRT_Buffer_Type <-> kiln_element_type (layout.c). INVALID_ARGUMENT for a type the
 * other side has no equivalent of. */
kiln_status kiln_pjrt_type_to_kiln(PJRT_Buffer_Type type, kiln_element_type *out);
kiln_status kiln_pjrt_type_from_kiln(kiln_element_type type, PJRT_Buffer_Type *out);

/* Dense row-major byte strides of a shape (layout.c); INVALID_ARGUMENT on overflow,
 * *out_size is the total size. */
kiln_status kiln_pjrt_dense_strides(const int64_t *dims, int32_t rank, size_t elem_size, int64_t *out_strides,
                                    size_t *out_size);
/* Checks that byte strides address every element of the shape at distinct, non-overlapping
 * places inside a host buffer, and returns the extent they span. */
kiln_status kiln_pjrt_check_strides(const int64_t *dims, const int64_t *strides, int32_t rank, size_t elem_size,
                                     size_t *out_span);
/* Byte strides to read host data through: any sign, zero (a broadcast, as NumPy's
 * broadcast_to makes) and overlap allowed, as long as every element's offset from the
 * first fits in an int64. */
kiln_status kiln_pjrt_check_source_strides(const int64_t *dims, const int64_t *strides, int32_t rank);
/* The byte strides of a host layout: NULL (dense row-major), a Tiled layout with a
 * minor_to_major permutation and no tiles, or a Strides layout. */
kiln_status kiln_pjrt_layout_strides(const PJRT_Buffer_MemoryLayout *layout, const int64_t *dims, int32_t rank,
                                     size_t elem_size, int64_t *out_strides);
/* Copies every element of a shape from src (at src_strides) to dst (at dst_strides). */
void kiln_pjrt_copy_strided(void *dst, const int64_t *dst_strides, const void *src, const int64_t *src_strides,
                            const int64_t *dims, int32_t rank, size_t elem_size);

PJRT_Client_BufferFromHostBuffer kiln_pjrt_Client_BufferFromHostBuffer;
PJRT_Client_CreateUninitializedBuffer kiln_pjrt_Client_CreateUninitializedBuffer;
PJRT_Buffer_Destroy kiln_pjrt_Buffer_Destroy;
PJRT_Buffer_ElementType kiln_pjrt_Buffer_ElementType;
PJRT_Buffer_Dimensions kiln_pjrt_Buffer_Dimensions;
PJRT_Buffer_UnpaddedDimensions kiln_pjrt_Buffer_UnpaddedDimensions;
PJRT_Buffer_DynamicDimensionIndices kiln_pjrt_Buffer_DynamicDimensionIndices;
PJRT_Buffer_OnDeviceSizeInBytes kiln_pjrt_Buffer_OnDeviceSizeInBytes;
PJRT_Buffer_Device kiln_pjrt_Buffer_Device;
PJRT_Buffer_Memory kiln_pjrt_Buffer_Memory;
PJRT_Buffer_Delete kiln_pjrt_Buffer_Delete;
PJRT_Buffer_IsDeleted kiln_pjrt_Buffer_IsDeleted;
PJRT_Buffer_IsOnCpu kiln_pjrt_Buffer_IsOnCpu;
PJRT_Buffer_ReadyEvent kiln_pjrt_Buffer_ReadyEvent;
PJRT_Buffer_UnsafePointer kiln_pjrt_Buffer_UnsafePointer;
PJRT_Buffer_ToHostBuffer kiln_pjrt_Buffer_ToHostBuffer;
PJRT_Buffer_CopyToDevice kiln_pjrt_Buffer_CopyToDevice;
PJRT_Buffer_CopyToMemory kiln_pjrt_Buffer_CopyToMemory;

/* ------------------------------------------------------------------ executables (compile.c, execute.c) */

/* What one compile made, shared by the loaded executable and every PJRT_Executable handle
 * GetExecutable returns (refcounted; the handle is this struct). */
struct PJRT_Executable {
  atomic_int refs;
  PJRT_Client *client;  /* a reference */
  kiln_program *program;
  int32_t num_inputs, num_outputs;
  bool portable;        /* compiled with compile_portable_executable: runs on any device */
  int32_t device_id;    /* the device it was compiled for */
  int64_t code_bytes;
  char *name;           /* the module's name ("jit_f"), else the entry's ("main") */
  char *fingerprint;    /* what the executable was made from: program digest, Kiln's version,
                           plugin and device (Executable_Fingerprint) */
  pthread_mutex_t mu;
  kiln_executable **per_device; /* num_devices; compiled on first use (under mu) */
  /* A sharded program (num_partitions > 1): partition p runs on partitions[p] (the
   * device assignment's order), all through one kiln executable; the serialized
   * xla.OpSharding of each parameter and output (sharding.c; NULL for a plain one). */
  int32_t num_partitions;
  PJRT_Device **partitions;
  kiln_executable *sharded;
  char **param_shardings, **output_shardings;
  size_t *param_sharding_sizes, *output_sharding_sizes;
};

struct PJRT_LoadedExecutable {
  PJRT_Executable *exec; /* a reference */
  PJRT_Device *device;   /* its one addressable device (a sharded one's first) */
  atomic_bool deleted;
};

/* Shardings (sharding.c): makes x's serialized OpShardings from kx's plan; frees them. */
kiln_status kiln_pjrt_shardings_make(PJRT_Executable *x, kiln_executable *kx);
void kiln_pjrt_shardings_free(PJRT_Executable *x);
/* The first of the plugin's extensions (api.c's extension_start): Shardings. */
struct kiln_pjrt_shardings_extension;
extern const struct kiln_pjrt_shardings_extension kiln_pjrt_shardings_extension;

PJRT_Executable *kiln_pjrt_executable_retain(PJRT_Executable *exec);
void kiln_pjrt_executable_release(PJRT_Executable *exec);
/* The kiln executable for device (compiled now if this is its first use there). */
kiln_status kiln_pjrt_executable_for(PJRT_Executable *exec, PJRT_Device *device, kiln_executable **out);

PJRT_Client_Compile kiln_pjrt_Client_Compile;
PJRT_Executable_Destroy kiln_pjrt_Executable_Destroy;
PJRT_Executable_Name kiln_pjrt_Executable_Name;
PJRT_Executable_NumReplicas kiln_pjrt_Executable_NumReplicas;
PJRT_Executable_NumPartitions kiln_pjrt_Executable_NumPartitions;
PJRT_Executable_NumOutputs kiln_pjrt_Executable_NumOutputs;
PJRT_Executable_SizeOfGeneratedCodeInBytes kiln_pjrt_Executable_SizeOfGeneratedCodeInBytes;
PJRT_Executable_Fingerprint kiln_pjrt_Executable_Fingerprint;
PJRT_LoadedExecutable_Destroy kiln_pjrt_LoadedExecutable_Destroy;
PJRT_LoadedExecutable_GetExecutable kiln_pjrt_LoadedExecutable_GetExecutable;
PJRT_LoadedExecutable_AddressableDevices kiln_pjrt_LoadedExecutable_AddressableDevices;
PJRT_LoadedExecutable_Delete kiln_pjrt_LoadedExecutable_Delete;
PJRT_LoadedExecutable_IsDeleted kiln_pjrt_LoadedExecutable_IsDeleted;
PJRT_LoadedExecutable_GetDeviceAssignment kiln_pjrt_LoadedExecutable_GetDeviceAssignment;
PJRT_LoadedExecutable_Execute kiln_pjrt_LoadedExecutable_Execute;

/* ------------------------------------------------------------------ plugin (api.c) */

PJRT_Plugin_Initialize kiln_pjrt_Plugin_Initialize;
PJRT_Plugin_Attributes kiln_pjrt_Plugin_Attributes;

#endif
