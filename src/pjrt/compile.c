/* PJRT_Client_Compile and the executable queries. The program (format "mlir": MLIR text,
 * or VHLO bytecode once kiln_program_create reads it) becomes a kiln_program whose @main
 * is compiled for the device the compile options choose: the one device of a 1x1
 * device_assignment, device_ordinal for a portable executable, else device 0. A portable
 * executable also runs on any other device of the client: it is compiled there on first
 * use (kiln_pjrt_executable_for). */
#define _GNU_SOURCE /* asprintf, strdup */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pjrt/compile_options.h"
#include "pjrt/pjrt.h"

#define ENTRY "main"

PJRT_Executable *kiln_pjrt_executable_retain(PJRT_Executable *x) {
  if (x) atomic_fetch_add(&x->refs, 1);
  return x;
}

void kiln_pjrt_executable_release(PJRT_Executable *x) {
  if (!x || atomic_fetch_sub(&x->refs, 1) != 1) return;
  for (int32_t i = 0; x->per_device && i < x->client->num_devices; i++) kiln_executable_release(x->per_device[i]);
  free(x->per_device);
  kiln_executable_release(x->sharded);
  kiln_pjrt_shardings_free(x);
  free(x->partitions);
  free(x->name);
  free(x->fingerprint);
  kiln_program_release(x->program);
  pthread_mutex_destroy(&x->mu);
  kiln_pjrt_client_release(x->client);
  free(x);
}

kiln_status kiln_pjrt_executable_for(PJRT_Executable *x, PJRT_Device *device, kiln_executable **out) {
  kiln_status st = NULL;
  pthread_mutex_lock(&x->mu);
  kiln_executable **slot = &x->per_device[device->id];
  if (!*slot) {
    kiln_compile_options o = {.struct_size = sizeof o, .function = ENTRY};
    st = kiln_program_compile(x->program, device->kiln, &o, slot);
  }
  *out = kiln_executable_retain(*slot);
  pthread_mutex_unlock(&x->mu);
  return st;
}

/* The devices of a sharded compile, partition p on (*out)[p]: the device assignment's, or
 * the client's first ones. */
static kiln_status choose_partitions(PJRT_Client *c, const kiln_pjrt_compile_options *o, PJRT_Device ***out) {
  if (o->num_replicas != 1)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED,
                       "%lld replicas x %lld partitions requested; Kiln runs sharded programs of one replica "
                       "(num_replicas 1, as JAX compiles them)",
                       (long long)o->num_replicas, (long long)o->num_partitions);
  if (o->portable) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "a portable executable of %lld partitions",
                                      (long long)o->num_partitions);
  int64_t n = o->num_partitions;
  if (n > KILN_PJRT_MAX_ASSIGNED || n > c->num_devices)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%lld partitions requested; the client has %d devices", (long long)n,
                       (int)c->num_devices);
  if (o->has_assignment && o->num_assigned != n)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the device assignment names %lld devices for %lld partitions",
                       (long long)o->num_assigned, (long long)n);
  if (!(*out = calloc((size_t)n, sizeof **out))) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int64_t p = 0; p < n; p++) {
    int64_t id = o->has_assignment ? o->assigned[p] : p;
    if (!((*out)[p] = kiln_pjrt_client_device(c, id)))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "device %lld of the assignment is not a device of this client",
                         (long long)id);
  }
  if (c->num_processes == 1) return NULL;
  /* several processes: each runs an equal, contiguous share of the partitions, on its own devices */
  if (n % c->num_processes)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%lld partitions cannot be shared out evenly over %d processes",
                       (long long)n, (int)c->num_processes);
  for (int64_t p = 0; p < n; p++)
    if ((*out)[p]->process_index != p / (n / c->num_processes))
      return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED,
                         "the device assignment puts partition %lld on device %d of process %d; Kiln runs partitions "
                         "%lld to %lld in process %d (each process's devices in turn, as jax.devices() lists them)",
                         (long long)p, (int)(*out)[p]->id, (int)(*out)[p]->process_index,
                         (long long)((*out)[p]->process_index * (n / c->num_processes)),
                         (long long)(((*out)[p]->process_index + 1) * (n / c->num_processes) - 1),
                         (int)(*out)[p]->process_index);
  return NULL;
}

/* The first partition on this process's devices (choose_partitions placed its share there). */
static int32_t first_here(PJRT_Device *const *partitions, int32_t n) {
  int32_t p = 0;
  while (p < n - 1 && !partitions[p]->kiln) p++;
  return p;
}

/* Compiles the sharded program for its partitions' devices. */
static kiln_status compile_sharded(PJRT_Executable *x, kiln_executable **out) {
  kiln_device **devices = calloc((size_t)x->num_partitions, sizeof *devices);
  if (!devices) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t p = 0; p < x->num_partitions; p++) devices[p] = x->partitions[p]->kiln; /* NULL: another process's */
  kiln_compile_options o = {.struct_size = sizeof o, .function = ENTRY, .num_partitions = x->num_partitions,
                            .devices = devices};
  kiln_status st = kiln_program_compile(x->program, devices[first_here(x->partitions, x->num_partitions)], &o, &x->sharded);
  free(devices);
  if (!st) st = kiln_pjrt_shardings_make(x, x->sharded);
  if (!st) *out = kiln_executable_retain(x->sharded);
  return st;
}

/* The device the options compile for. */
static kiln_status choose_device(PJRT_Client *c, const kiln_pjrt_compile_options *o, PJRT_Device **out) {
  if (o->num_replicas != 1 || o->num_partitions != 1)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED,
                       "%lld replicas x %lld partitions requested; Kiln runs programs of one replica",
                       (long long)o->num_replicas, (long long)o->num_partitions);
  int64_t id = 0;
  if (o->has_assignment && !o->portable) {
    if (o->num_assigned != 1)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                         "the device assignment names %lld devices; Kiln runs a program on one device",
                         (long long)o->num_assigned);
    id = o->first_assigned;
  } else if (o->portable && o->device_ordinal >= 0) {
    id = o->device_ordinal;
  }
  *out = kiln_pjrt_client_device(c, id);
  if (!*out)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "device %lld is not a device of this client (it has %d)",
                       (long long)id, (int)c->num_devices);
  return kiln_pjrt_device_here(*out, "a program of one device");
}

/* KILN_PJRT_DUMP_DIR=DIR writes every program the framework compiles to
 * DIR/program-PID-N.mlir.bc (or .mlir for text), as XLA's --xla_dump_to does: what JAX
 * really sends, for `kiln print|run|bench`. Best effort: a dump that fails is skipped. */
static void dump_program(const PJRT_Program *p) {
  static atomic_int counter;
  const char *dir = getenv("KILN_PJRT_DUMP_DIR");
  if (!dir || !*dir || !p->code) return;
  bool bytecode = p->code_size >= 4 && !memcmp(p->code, "ML\xEFR", 4);
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/program-%ld-%d.%s", dir, (long)getpid(), atomic_fetch_add(&counter, 1),
                   bytecode ? "mlir.bc" : "mlir");
  if (n < 0 || (size_t)n >= sizeof path) return;
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(p->code, 1, p->code_size, f);
  fclose(f);
}

/* The executable's name and fingerprint: equal programs compiled by the same Kiln for the
 * same device (or portably) get equal fingerprints. */
static kiln_status describe(PJRT_Executable *x) {
  const char *module = kiln_program_module_name(x->program);
  uint8_t digest[KILN_PROGRAM_DIGEST_SIZE];
  kiln_program_digest(x->program, digest);
  char hex[2 * KILN_PROGRAM_DIGEST_SIZE + 1], device[16];
  for (int i = 0; i < KILN_PROGRAM_DIGEST_SIZE; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  if (x->portable) snprintf(device, sizeof device, "portable");
  else snprintf(device, sizeof device, "%d", (int)x->device_id);
  x->name = strdup(module && *module ? module : ENTRY);
  if (asprintf(&x->fingerprint, "%s:kiln-%s:%s:%s", hex, kiln_version(), kiln_client_plugin_name(x->client->kiln),
               device) < 0)
    x->fingerprint = NULL;
  return x->name && x->fingerprint ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
}

static kiln_status compile(PJRT_Client_Compile_Args *args, PJRT_LoadedExecutable **out) {
  const PJRT_Program *p = args->program;
  if (!p || !KILN_PJRT_HAS(p, format_size))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "program is NULL or its struct_size is too small");
  if (!p->format || p->format_size != strlen("mlir") || memcmp(p->format, "mlir", p->format_size))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "Unknown program format '%.*s'; Kiln reads 'mlir'",
                       p->format ? (int)(p->format_size > 64 ? 64 : p->format_size) : 0, p->format ? p->format : "");
  if (!p->code && p->code_size) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "program code is NULL");
  if (!args->compile_options && args->compile_options_size)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "compile_options is NULL");
  dump_program(p);
  kiln_pjrt_compile_options o;
  KILN_RETURN_IF_ERROR(kiln_pjrt_compile_options_parse((const uint8_t *)args->compile_options,
                                                       args->compile_options_size, &o));
  PJRT_Device *device = NULL, **partitions = NULL;
  kiln_status chosen = o.num_partitions > 1 && o.num_replicas == 1 ? choose_partitions(args->client, &o, &partitions)
                                                                    : choose_device(args->client, &o, &device);
  if (chosen) {
    free(partitions);
    return chosen;
  }
  if (partitions) device = partitions[first_here(partitions, (int32_t)o.num_partitions)];

  PJRT_Executable *x = calloc(1, sizeof *x);
  PJRT_LoadedExecutable *lx = calloc(1, sizeof *lx);
  kiln_executable **per_device = calloc((size_t)args->client->num_devices, sizeof *per_device);
  if (!x || !lx || !per_device) {
    free(x), free(lx), free(per_device), free(partitions);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  x->num_partitions = partitions ? (int32_t)o.num_partitions : 1;
  x->partitions = partitions;
  atomic_init(&x->refs, 1);
  x->client = kiln_pjrt_client_retain(args->client);
  pthread_mutex_init(&x->mu, NULL);
  x->per_device = per_device;
  x->portable = o.portable;
  x->device_id = device->id;
  lx->exec = x;
  lx->device = device;
  atomic_init(&lx->deleted, false);

  kiln_program_options po = {.struct_size = sizeof po, .name = "<pjrt program>"};
  kiln_function_info info = {.struct_size = sizeof info};
  kiln_executable *kx = NULL;
  kiln_status st = kiln_program_create(p->code ? p->code : "", p->code_size, &po, &x->program);
  kiln_status missing = st ? NULL : kiln_program_find_function(x->program, ENTRY, &info);
  if (missing) {
    kiln_status_free(missing);
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the program has no function @" ENTRY);
  }
  if (!st) st = describe(x);
  if (!st && partitions) {
    x->num_inputs = info.num_inputs; /* the shardings' counts */
    x->num_outputs = info.num_results;
    st = compile_sharded(x, &kx);
  } else if (!st) {
    st = kiln_pjrt_executable_for(x, device, &kx);
  }
  if (!st) {
    x->num_inputs = info.num_inputs;
    x->num_outputs = info.num_results;
    kiln_executable_stats_info stats = {.struct_size = sizeof stats};
    if (!kiln_executable_stats(kx, &stats) && stats.reported) x->code_bytes = (int64_t)stats.code_bytes;
  }
  kiln_executable_release(kx);
  if (st) {
    kiln_pjrt_executable_release(x);
    free(lx);
    return st;
  }
  *out = lx;
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_Compile(PJRT_Client_Compile_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, executable);
  args->executable = NULL;
  KILN_PJRT_REQUIRE(args->client, "client is NULL");
  kiln_status st = compile(args, &args->executable);
  return st ? KILN_PJRT_FAIL(st) : NULL;
}

/* ------------------------------------------------------------------ executables */

#define CHECK_EXECUTABLE(args, last)                             \
  do {                                                           \
    KILN_PJRT_CHECK_ARGS(args, last);                            \
    KILN_PJRT_REQUIRE((args)->executable, "executable is NULL"); \
  } while (0)

PJRT_Error *kiln_pjrt_Executable_Destroy(PJRT_Executable_Destroy_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, executable);
  kiln_pjrt_executable_release(args->executable);
  return NULL;
}

PJRT_Error *kiln_pjrt_Executable_Name(PJRT_Executable_Name_Args *args) {
  CHECK_EXECUTABLE(args, executable_name_size);
  kiln_pjrt_out_string(args->executable->name, &args->executable_name, &args->executable_name_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Executable_Fingerprint(PJRT_Executable_Fingerprint_Args *args) {
  CHECK_EXECUTABLE(args, executable_fingerprint_size);
  kiln_pjrt_out_string(args->executable->fingerprint, &args->executable_fingerprint,
                       &args->executable_fingerprint_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args *args) {
  CHECK_EXECUTABLE(args, num_replicas);
  args->num_replicas = 1;
  return NULL;
}

PJRT_Error *kiln_pjrt_Executable_NumPartitions(PJRT_Executable_NumPartitions_Args *args) {
  CHECK_EXECUTABLE(args, num_partitions);
  args->num_partitions = args->executable->num_partitions;
  return NULL;
}

PJRT_Error *kiln_pjrt_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args *args) {
  CHECK_EXECUTABLE(args, num_outputs);
  args->num_outputs = (size_t)args->executable->num_outputs;
  return NULL;
}

PJRT_Error *kiln_pjrt_Executable_SizeOfGeneratedCodeInBytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args *args) {
  CHECK_EXECUTABLE(args, size_in_bytes);
  args->size_in_bytes = args->executable->code_bytes;
  return NULL;
}

/* ------------------------------------------------------------------ loaded executables */

PJRT_Error *kiln_pjrt_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, executable);
  PJRT_LoadedExecutable *lx = args->executable;
  if (!lx) return NULL;
  kiln_pjrt_executable_release(lx->exec);
  free(lx);
  return NULL;
}

/* A new handle the caller destroys (PJRT_Executable_Destroy). */
PJRT_Error *kiln_pjrt_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, executable);
  KILN_PJRT_REQUIRE(args->loaded_executable, "loaded_executable is NULL");
  args->executable = kiln_pjrt_executable_retain(args->loaded_executable->exec);
  return NULL;
}

PJRT_Error *kiln_pjrt_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args *args) {
  CHECK_EXECUTABLE(args, num_addressable_devices);
  PJRT_Executable *x = args->executable->exec;
  PJRT_Device *d = args->executable->device;
  int32_t first = 0, count = 1;
  if (x->partitions) kiln_executable_local_partitions(x->sharded, &first, &count);
  args->addressable_devices = x->partitions ? x->partitions + first : &d->client->device_list[d->id];
  args->num_addressable_devices = (size_t)count;
  return NULL;
}

/* Marks it deleted (Execute then fails); the compiled code goes with the last handle.
 * Deleting twice is allowed (the framework treats any error here as fatal). */
PJRT_Error *kiln_pjrt_LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args *args) {
  CHECK_EXECUTABLE(args, executable);
  atomic_store(&args->executable->deleted, true);
  return NULL;
}

PJRT_Error *kiln_pjrt_LoadedExecutable_IsDeleted(PJRT_LoadedExecutable_IsDeleted_Args *args) {
  CHECK_EXECUTABLE(args, is_deleted);
  args->is_deleted = atomic_load(&args->executable->deleted);
  return NULL;
}

static void free_assignment(PJRT_DeviceAssignmentSerialized *da) { free(da); }

static void put_varint(uint8_t *b, size_t *n, uint64_t v) {
  do {
    b[(*n)++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
}

/* A serialized DeviceAssignmentProto {replica_count 1, computation_count N,
 * computation_devices [{replica_device_ids [id]}] per partition}: N 1 and the one device
 * for a plain executable, empty for a portable one. The deleter is always set: the
 * framework calls it unconditionally. */
PJRT_Error *kiln_pjrt_LoadedExecutable_GetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args *args) {
  CHECK_EXECUTABLE(args, serialized_device_assignment_deleter);
  args->serialized_device_assignment_deleter = free_assignment;
  args->serialized_device_assignment = NULL;
  args->serialized_bytes = NULL;
  args->serialized_bytes_size = 0;
  PJRT_Executable *x = args->executable->exec;
  if (x->portable) return NULL;
  int32_t n = x->num_partitions;
  uint8_t *bytes = malloc(16 + (size_t)n * 16);
  if (!bytes) return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
  size_t len = 0;
  bytes[len++] = 0x08; /* replica_count 1 */
  put_varint(bytes, &len, 1);
  bytes[len++] = 0x10; /* computation_count */
  put_varint(bytes, &len, (uint64_t)n);
  for (int32_t p = 0; p < n; p++) {
    uint8_t id[10];
    size_t k = 0;
    put_varint(id, &k, (uint64_t)(x->partitions ? x->partitions[p] : args->executable->device)->id);
    bytes[len++] = 0x1a; /* computation_devices: {1: packed [id]} */
    put_varint(bytes, &len, 2 + k);
    bytes[len++] = 0x0a;
    put_varint(bytes, &len, k);
    memcpy(bytes + len, id, k);
    len += k;
  }
  args->serialized_bytes = (const char *)bytes;
  args->serialized_bytes_size = len;
  args->serialized_device_assignment = (PJRT_DeviceAssignmentSerialized *)bytes;
  return NULL;
}
