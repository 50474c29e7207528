/* PJRT_Client: a kiln_client and its devices. Create options (PJRT named values):
 *   "devices"      string  the ordered device list ("cpu,interp"), as kiln_client_options
 *   "config_file"  string  a Kiln config file
 *   "num_devices"  int64   devices to open (kiln_client_options.num_devices; cpu: the cores
 *                          shared out, like XLA's cpu_device_count); default: the plugin's own
 *   "num_nodes"    int64   jax.distributed's processes (default 1); "node_id" int64 this one's
 *                          index. With num_nodes > 1 the processes must be those of one
 *                          Open MPI launch (`mpirun -np num_nodes python ...`), node_id its
 *                          rank: Kiln meets the others over MPI (kiln_processes_join), and
 *                          the client lists every process's devices, this one's addressable.
 * The key-value store callbacks are never read (MPI is the rendezvous; single-process JAX
 * leaves them uninitialised). KILN_DEVICE still overrides the device list. */
#define _GNU_SOURCE /* strndup */
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "pjrt/pjrt.h"

typedef struct client_options {
  char *devices, *config_file;
  int32_t num_devices;
  int64_t num_nodes, node_id;
} client_options;

static bool name_is(const PJRT_NamedValue *v, const char *name) {
  return v->name && v->name_size == strlen(name) && !memcmp(v->name, name, v->name_size);
}

static kiln_status read_option(const PJRT_NamedValue *v, client_options *o) {
  if (!v || !KILN_PJRT_HAS(v, value_size))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Client_Create: a create option is NULL or too small");
  char **str = name_is(v, "devices") ? &o->devices : name_is(v, "config_file") ? &o->config_file : NULL;
  int name_len = v->name ? (int)(v->name_size > 200 ? 200 : v->name_size) : 0;
  if (str) {
    if (v->type != PJRT_NamedValue_kString || (!v->string_value && v->value_size))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Client_Create: option '%.*s' must be a string", name_len,
                         v->name);
    free(*str);
    *str = strndup(v->string_value ? v->string_value : "", v->value_size);
    return *str ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "PJRT_Client_Create: out of memory");
  }
  if (name_is(v, "num_devices")) {
    if (v->type != PJRT_NamedValue_kInt64 || v->int64_value < 1 || v->int64_value > INT32_MAX)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                         "PJRT_Client_Create: option 'num_devices' must be an integer of 1 or more");
    o->num_devices = (int32_t)v->int64_value;
    return NULL;
  }
  int64_t *node = name_is(v, "num_nodes") ? &o->num_nodes : name_is(v, "node_id") ? &o->node_id : NULL;
  if (!node)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "PJRT_Client_Create: unknown option '%.*s' (Kiln knows devices, config_file, num_devices, "
                       "num_nodes, node_id)",
                       name_len, v->name ? v->name : "");
  if (v->type != PJRT_NamedValue_kInt64 || v->int64_value < 0 || v->int64_value > INT32_MAX)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Client_Create: option '%.*s' must be an integer of 0 or more",
                       name_len, v->name);
  *node = v->int64_value;
  return NULL;
}

static void leave_launch(void) { kiln_processes_leave(); }
static void register_leave(void) { atexit(leave_launch); }

/* jax.distributed's processes: those of the Open MPI launch this process is in, node_id
 * its rank. */
static kiln_status join_nodes(const client_options *o, PJRT_Client *c) {
  c->process_index = 0;
  c->num_processes = 1;
  if (o->num_nodes <= 1) {
    if (o->node_id != 0)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Client_Create: node_id %lld of %lld nodes",
                         (long long)o->node_id, (long long)(o->num_nodes ? o->num_nodes : 1));
    return NULL;
  }
  kiln_process_info launch = {.struct_size = sizeof launch};
  KILN_RETURN_IF_ERROR(kiln_processes_join(&launch));
  if (launch.count != o->num_nodes || launch.index != o->node_id)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "PJRT_Client_Create: node %lld of %lld, but this is process %d of a launch of %d: Kiln's processes "
                       "meet over MPI, so start them with Open MPI's mpirun (`mpirun -np %lld python ...`; "
                       "jax.distributed.initialize() then finds the same ranks)",
                       (long long)o->node_id, (long long)o->num_nodes, (int)launch.index, (int)launch.count,
                       (long long)o->num_nodes);
  c->process_index = launch.index;
  c->num_processes = launch.count;
  static pthread_once_t once = PTHREAD_ONCE_INIT; /* frameworks rarely destroy clients: leave at exit */
  pthread_once(&once, register_leave);
  return NULL;
}

/* "kiln 0.1.0; device cpu; passed over: cuda (no plugin found)" */
static char *platform_version(const kiln_client *kc) {
  const kiln_plugin_list *list = kiln_client_selection(kc);
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) return NULL;
  fprintf(f, "kiln %s; device %s", kiln_version(), kiln_client_plugin_name(kc));
  int passed_over = 0;
  for (int32_t i = 0; i < kiln_plugin_list_count(list); i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    if (kiln_plugin_list_get(list, i, &r) || r.code == KILN_STATUS_OK) continue;
    fprintf(f, "%s%s (%s)", passed_over++ ? ", " : "; passed over: ", r.name, r.reason);
  }
  return fclose(f) ? (free(text), NULL) : text;
}

PJRT_Client *kiln_pjrt_client_retain(PJRT_Client *c) {
  if (c) atomic_fetch_add(&c->refs, 1);
  return c;
}

void kiln_pjrt_client_release(PJRT_Client *c) {
  if (!c || atomic_fetch_sub(&c->refs, 1) != 1) return;
  kiln_pjrt_devices_free(c);
  free(c->platform_version);
  kiln_client_release(c->kiln);
  free(c);
}

PJRT_Error *kiln_pjrt_Client_Create(PJRT_Client_Create_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, client);
  args->client = NULL;
  KILN_PJRT_REQUIRE(args->create_options || !args->num_options, "create_options is NULL");
  client_options o = {0};
  kiln_status st = NULL;
  for (size_t i = 0; i < args->num_options && !st; i++) st = read_option(&args->create_options[i], &o);
  PJRT_Client *c = st ? NULL : calloc(1, sizeof *c);
  if (!st && !c) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "PJRT_Client_Create: out of memory");
  if (!st) {
    atomic_init(&c->refs, 1);
    kiln_client_options ko = {
        .struct_size = sizeof ko, .devices = o.devices, .config_file = o.config_file, .num_devices = o.num_devices};
    st = kiln_client_create(&ko, &c->kiln);
  }
  if (!st) st = join_nodes(&o, c);
  if (!st) st = kiln_pjrt_devices_init(c);
  if (!st && !(c->platform_version = platform_version(c->kiln)))
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "PJRT_Client_Create: out of memory");
  free(o.devices);
  free(o.config_file);
  if (st) {
    kiln_pjrt_client_release(c);
    return kiln_pjrt_error(st);
  }
  args->client = c;
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_Destroy(PJRT_Client_Destroy_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, client);
  kiln_pjrt_client_release(args->client);
  return NULL;
}

#define CHECK_CLIENT(args, last)                         \
  do {                                                   \
    KILN_PJRT_CHECK_ARGS(args, last);                    \
    KILN_PJRT_REQUIRE((args)->client, "client is NULL"); \
  } while (0)

PJRT_Error *kiln_pjrt_Client_PlatformName(PJRT_Client_PlatformName_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, platform_name_size);
  kiln_pjrt_out_string("kiln", &args->platform_name, &args->platform_name_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args *args) {
  CHECK_CLIENT(args, process_index);
  args->process_index = args->client->process_index;
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args *args) {
  CHECK_CLIENT(args, platform_version_size);
  kiln_pjrt_out_string(args->client->platform_version, &args->platform_version, &args->platform_version_size);
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_Devices(PJRT_Client_Devices_Args *args) {
  CHECK_CLIENT(args, num_devices);
  args->devices = args->client->device_list;
  args->num_devices = (size_t)args->client->num_devices;
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args *args) {
  CHECK_CLIENT(args, num_addressable_devices);
  args->addressable_devices = args->client->device_list + args->client->first_local;
  args->num_addressable_devices = (size_t)args->client->num_local;
  return NULL;
}

PJRT_Error *kiln_pjrt_Client_LookupDevice(PJRT_Client_LookupDevice_Args *args) {
  CHECK_CLIENT(args, device);
  args->device = kiln_pjrt_client_device(args->client, args->id);
  if (args->device) return NULL;
  return kiln_pjrt_error(
      KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "No matching device found for device_id %d", args->id));
}

PJRT_Error *kiln_pjrt_Client_LookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args *args) {
  CHECK_CLIENT(args, addressable_device);
  PJRT_Client *c = args->client;
  int64_t id = args->local_hardware_id;
  args->addressable_device = id >= 0 && id < c->num_local ? kiln_pjrt_client_device(c, c->first_local + id) : NULL;
  if (args->addressable_device) return NULL;
  return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                                     "No matching addressable device found for local_hardware_id %d",
                                     args->local_hardware_id));
}

PJRT_Error *kiln_pjrt_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args *args) {
  CHECK_CLIENT(args, num_addressable_memories);
  args->addressable_memories = args->client->memory_list + args->client->first_local;
  args->num_addressable_memories = (size_t)args->client->num_local;
  return NULL;
}

/* jax.distributed's view of the processes (its coordination service, polled by a thread
 * of JAX's): Kiln's processes meet over MPI, whose launcher ends them all when one dies, so
 * the states are checked and otherwise not needed. */
PJRT_Error *kiln_pjrt_Client_UpdateGlobalProcessInfo(PJRT_Client_UpdateGlobalProcessInfo_Args *args) {
  CHECK_CLIENT(args, num_process_infos);
  KILN_PJRT_REQUIRE(args->process_infos || !args->num_process_infos, "process_infos is NULL");
  return NULL;
}

/* Device ids for num_replicas x num_partitions, replica-major; Kiln runs one of them. */
PJRT_Error *kiln_pjrt_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args *args) {
  CHECK_CLIENT(args, default_assignment);
  int64_t n = (int64_t)args->num_replicas * args->num_partitions;
  if ((size_t)n > args->default_assignment_size || n < 0)
    return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                                       "PJRT_Client_DefaultDeviceAssignment: `default_assignment_size` %zu < "
                                       "`num_replicas * num_partitions`, %d * %d = %lld",
                                       args->default_assignment_size, args->num_replicas, args->num_partitions,
                                       (long long)n));
  if (n > args->client->num_devices)
    return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                                       "PJRT_Client_DefaultDeviceAssignment: %d replicas x %d partitions need %lld "
                                       "devices; the client has %d",
                                       args->num_replicas, args->num_partitions, (long long)n,
                                       (int)args->client->num_devices));
  KILN_PJRT_REQUIRE(args->default_assignment || !n, "default_assignment is NULL");
  for (int64_t i = 0; i < n; i++) args->default_assignment[i] = (int)i;
  return NULL;
}
