/* Kiln backend plugin ABI.
 *
 * A backend is a shared library `libkiln-NAME.so` that exports ONE symbol,
 * KILN_BACKEND_ENTRY_SYMBOL, a function returning a pointer to a constant kiln_backend
 * table (static storage, never freed). The runtime (src/runtime) loads it with dlopen,
 * checks api_version and struct_size, checks that name matches the file name, calls probe,
 * and only then uses the other entries. src/backends/null/ is the template for a new
 * backend; src/backends/interp/plugin.c is a complete one.
 *
 * A plugin links against libkiln.so and reads programs through the IR API (src/ir/ir.h:
 * kiln_module, kiln_op, kiln_type, ...); statuses it returns are made with
 * kiln_status_make / KILN_STATUS and owned by the runtime once returned.
 *
 * Ownership: objects a plugin creates (devices, buffers, executables, events) are owned
 * by the runtime until it passes them to the matching *_destroy. The runtime never calls
 * a plugin after unloading it, and destroys everything a plugin made before unloading.
 *
 * Thread-safety a plugin must provide: probe, device_count and everything on distinct
 * objects may be called from several threads at once; execute may be called on one
 * executable from several threads at once; buffer_* and event_* reads of one object may
 * run concurrently. The runtime serializes compile calls for one program.
 *
 * Compatibility (docs/ABI.md): entries are only ever appended. A plugin built for an older
 * table has a smaller struct_size; the runtime treats entries past it as absent (NULL). A
 * change that is not an append bumps KILN_BACKEND_API_VERSION and the entry symbol's
 * suffix, so an old plugin is reported as "built for ABI version N" and passed over.
 */
#ifndef KILN_BACKEND_H
#define KILN_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln.h"
#include "kiln/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_BACKEND_API_VERSION 1u
#define KILN_BACKEND_ENTRY_SYMBOL "kiln_backend_entry_v1"

/* The IR the plugin compiles (src/ir/ir.h, src/base/source.h). */
typedef struct kiln_module kiln_module;
typedef struct kiln_source kiln_source;
typedef struct kiln_op kiln_op;

/* Plugin-defined objects: opaque to the runtime. */
typedef struct kiln_backend_device kiln_backend_device;
typedef struct kiln_backend_buffer kiln_backend_buffer;
typedef struct kiln_backend_executable kiln_backend_executable;
typedef struct kiln_backend_event kiln_backend_event;
typedef struct kiln_backend_group kiln_backend_group;

/* The wire between the processes of one launch (`mpirun -np P`: the runtime's, over MPI;
 * see kiln_processes_join): a table of functions the runtime owns and hands a plugin with a
 * launch group that spans processes (group_create_spanning). Processes are numbered
 * 0 .. size - 1; rank is this one. What travels is messages of tagged parts: between two
 * processes, the parts of one tag arrive in the order they were sent. Every call is
 * thread-safe and bounded: it fails with DEADLINE_EXCEEDED, naming the processes not
 * heard from, after timeout_s seconds. */
typedef struct kiln_backend_wire_part {
  const void *data;
  size_t bytes;
} kiln_backend_wire_part;

/* Where arriving parts go (the receiver's side of kiln_backend_wire.exchange). */
typedef struct kiln_backend_wire_sink {
  void *ctx;
  /* Part `index` from peers[k] has arrived (bytes long, not yet copied): *dst receives it
   * (a buffer of the caller's, bytes long). An error ends the exchange with it. */
  kiln_status (*place)(void *ctx, int32_t k, int32_t index, size_t bytes, void **dst);
  /* How many parts peers[k] sends in all, now that `received` of them have arrived (the
   * first part may say; at least received, or the exchange ends with an error). */
  int32_t (*count)(void *ctx, int32_t k, int32_t received);
} kiln_backend_wire_sink;

typedef struct kiln_backend_wire {
  size_t struct_size;
  void *ctx; /* the first argument of every function below */
  int32_t rank, size;
  /* Sends parts[0 .. num_parts-1] to each of the n processes peers[] (read in place:
   * they must stay unchanged until the call returns) and receives each one's parts into
   * the places `sink` gives. num_parts 0: receives only. */
  kiln_status (*exchange)(void *ctx, int32_t tag, const int32_t *peers, int32_t n, const kiln_backend_wire_part *parts,
                          int32_t num_parts, const kiln_backend_wire_sink *sink, int timeout_s);
  /* Sends parts to process `to` and returns at once: the wire keeps copies until they are
   * delivered. */
  kiln_status (*send)(void *ctx, int32_t tag, int32_t to, const kiln_backend_wire_part *parts, int32_t num_parts);
  /* Appended (absent when struct_size ends before it): exchange, but each peer is sent
   * parts of its own, peers[k] parts[k * num_parts .. (k + 1) * num_parts - 1]. */
  kiln_status (*exchange_each)(void *ctx, int32_t tag, const int32_t *peers, int32_t n,
                               const kiln_backend_wire_part *parts, int32_t num_parts,
                               const kiln_backend_wire_sink *sink, int timeout_s);
} kiln_backend_wire;

/* A tensor's element type and shape. dims is borrowed (from the caller, or from the
 * buffer it describes, valid while the buffer lives). */
typedef struct kiln_backend_shape {
  kiln_element_type element_type;
  int32_t rank;
  const int64_t *dims;
} kiln_backend_shape;

/* What compile gets: the verified module, its source (for located errors) and the entry
 * function (a func.func of the module). All owned by the runtime; they outlive the
 * executable. The module is read-only: other compiles and runs of the same program may use
 * it at the same time. Its values are already numbered densely per function
 * (kiln_value.id, 0 .. kiln_func_num_values(function) - 1), ready to index a frame. */
typedef struct kiln_backend_compile_args {
  size_t struct_size;
  const kiln_module *module;
  const kiln_source *source;
  const kiln_op *function;
} kiln_backend_compile_args;

/* Reports the check.* results of a run; called at most once per run, from any thread,
 * before the run's event is ready. failures: one line per failed check ("" if none),
 * copied by the runtime. */
typedef void (*kiln_backend_check_fn)(void *check_ctx, int32_t passed, int32_t failed, const char *failures);

typedef struct kiln_backend_execute_args {
  size_t struct_size;
  kiln_backend_buffer *const *inputs; /* checked by the runtime against the signature */
  int32_t num_inputs;
  kiln_backend_buffer **out_results;  /* the plugin writes num_results new buffers */
  int32_t num_results;
  uint32_t flags;                     /* KILN_EXECUTE_* */
  kiln_backend_check_fn report_checks; /* non-NULL with KILN_EXECUTE_COLLECT_CHECKS */
  void *check_ctx;
  /* An asynchronous device sets *out_event to an event that completes the run; a device
   * that finished before returning leaves it NULL. */
  kiln_backend_event **out_event;
  /* Appended within ABI version 1 (a plugin reads it only when struct_size covers it):
   * NULL, or per input whether it is donated. A donated input's storage is the plugin's
   * for the run: it may write a result into it and hand it back as that result's buffer,
   * and then its own buffer_destroy of the input must not free that storage. Right after
   * execute returns the runtime destroys a donated input (buffer_destroy) and never reads
   * it again; the runtime never passes a donated buffer twice nor also undonated. */
  const bool *donated;
  /* Appended within ABI version 1: a run of one partition of a program of several (the
   * runtime partitions a sharded program, kiln_compile_options.num_partitions, into one
   * per-device program, compiled once). The runtime calls execute for every partition at
   * once, each from its own thread, with the launch's group (group_create), the
   * partition's index (partition_id of the program) and its device; the runs meet in
   * their collectives. The plugin must tell the group when its run ends, whatever its
   * outcome (an early error too), so that no other partition waits for it. num_partitions
   * 0 (an older runtime) or 1: a plain run, group and device NULL. */
  int32_t partition, num_partitions;
  kiln_backend_group *group;
  kiln_backend_device *device;
} kiln_backend_execute_args;

/* An executable's memory figures (executable_stats), in bytes; 0 for a kind the
 * executable has none of. The runtime zeroes the struct and sets struct_size to the size
 * it was built with; the plugin writes no field that ends past struct_size (a runtime
 * older than the plugin has a shorter struct). */
typedef struct kiln_backend_executable_stats {
  size_t struct_size;
  uint64_t temporary_bytes; /* scratch memory a run uses beyond its inputs and results:
                               the buffer plan's size */
  uint64_t constant_bytes;  /* constants the executable holds (weights folded in, tables) */
  uint64_t code_bytes;      /* generated machine code */
  /* Appended within ABI version 1: modules of generated code a persistent compile cache
   * supplied, and modules compiled then stored in it (both 0: no such cache, or it is off). */
  uint64_t code_cache_hits;
  uint64_t code_cache_misses;
  /* Appended within ABI version 1: ops handed to the plugin's interpreter rather than
   * compiled (see kiln_executable_stats_info.interpreted_ops); 0: none. */
  uint64_t interpreted_ops;
  /* Appended within ABI version 1: tiers (see kiln_executable_stats_info.tier). */
  uint32_t tier;
  bool tier_pending;
  uint64_t fast_start_runs;
  uint64_t optimized_runs;
  /* Appended within ABI version 1: whole-tensor copies the runs made, and their bytes
   * (see kiln_executable_stats_info.copies). */
  uint64_t copies;
  uint64_t copy_bytes;
  /* Appended within ABI version 1: preparations runs made themselves (see
   * kiln_executable_stats_info.prepared_in_runs). */
  uint64_t prepared_in_runs;
  /* Appended within ABI version 1: a shape-polymorphic function's signatures compiled so
   * far, and how many code generations made their code (see
   * kiln_executable_stats_info.signatures). */
  uint64_t signatures;
  uint64_t code_compiles;
  /* Appended within ABI version 1: runs made on fewer threads than the device has because
   * the host was crowded (see kiln_executable_stats_info.runs_narrowed). */
  uint64_t runs_narrowed;
} kiln_backend_executable_stats;

typedef struct kiln_backend {
  uint32_t api_version; /* KILN_BACKEND_API_VERSION: first, always */
  uint32_t struct_size; /* sizeof(kiln_backend) as the plugin was built */
  const char *name;     /* "interp": must match the library's file name libkiln-NAME.so */
  const char *description;

  /* Whether this machine can run the plugin: NULL when it can, otherwise the reason
   * (UNAVAILABLE, "no CUDA driver found"). Cheap, no side effects that outlive it. */
  kiln_status (*probe)(void);

  /* Devices. */
  kiln_status (*device_count)(int32_t *out_count);
  kiln_status (*device_create)(int32_t index, kiln_backend_device **out_device);
  /* A one-line description (borrowed from the device). */
  const char *(*device_description)(const kiln_backend_device *device);
  void (*device_destroy)(kiln_backend_device *device);

  /* Buffers: shape->dims and data are borrowed for the call; byte_size is checked by
   * the runtime. */
  kiln_status (*buffer_create)(kiln_backend_device *device, const kiln_backend_shape *shape, const void *data,
                               size_t byte_size, kiln_backend_buffer **out_buffer);
  kiln_status (*buffer_shape)(const kiln_backend_buffer *buffer, kiln_backend_shape *out_shape);
  kiln_status (*buffer_to_host)(kiln_backend_buffer *buffer, void *dst, size_t byte_size);
  void (*buffer_destroy)(kiln_backend_buffer *buffer);

  /* Compilation and execution. */
  kiln_status (*compile)(kiln_backend_device *device, const kiln_backend_compile_args *args,
                         kiln_backend_executable **out_executable);
  void (*executable_destroy)(kiln_backend_executable *executable);
  kiln_status (*execute)(kiln_backend_executable *executable, const kiln_backend_execute_args *args);

  /* Events of asynchronous devices (NULL for devices that finish before execute returns). */
  bool (*event_is_ready)(kiln_backend_event *event);
  kiln_status (*event_wait)(kiln_backend_event *event);
  void (*event_destroy)(kiln_backend_event *event);

  /* Appended within ABI version 1; optional (NULL, or absent from an older plugin's table:
   * the runtime reports the figures as "not reported", all zero).
   * Fills *out_stats for an executable (see kiln_backend_executable_stats). Cheap, no side
   * effects; may be called from several threads at once, also while the executable runs. */
  kiln_status (*executable_stats)(const kiln_backend_executable *executable,
                                  kiln_backend_executable_stats *out_stats);

  /* Appended within ABI version 1; optional (NULL, or absent from an older plugin's table:
   * the runtime answers UNIMPLEMENTED).
   * For a device whose buffers live in host memory (cpu, interp): sets *out_data to the
   * address of the buffer's contents, dense row-major as buffer_to_host copies them, valid
   * until buffer_destroy; nobody writes through it. Never called for TOKEN or TUPLE
   * buffers; a buffer of 0 bytes may give any address, NULL included. A device whose memory
   * the host cannot address (cuda) leaves the entry NULL. Does not wait for the run that
   * produces the buffer; cheap, no side effects, thread-safe. */
  kiln_status (*buffer_host_data)(const kiln_backend_buffer *buffer, const void **out_data);

  /* Appended within ABI version 1; optional (NULL, or absent from an older plugin's table:
   * the plugin offers only device_count's number, and a client asked for another count
   * passes it over).
   * Creates device index (0 <= index < count) of a set of count devices: what the runtime
   * calls, for every index, instead of device_create when the client is asked for count
   * devices (kiln_client_options.num_devices). INVALID_ARGUMENT, naming the limit, when the
   * plugin cannot offer count devices. The devices of one set are independent: runs on
   * different ones may go on at once. */
  kiln_status (*device_create_of)(int32_t index, int32_t count, kiln_backend_device **out_device);

  /* Appended within ABI version 1; optional (NULL, or absent from an older plugin's table:
   * the plugin runs programs of one partition only, and the runtime refuses to compile
   * others for it). The meeting point of the runs of one launch of a program of
   * num_partitions partitions (kiln_backend_execute_args.group): made before the runs
   * start, destroyed after every run has returned. */
  kiln_status (*group_create)(int32_t num_partitions, kiln_backend_group **out_group);
  void (*group_destroy)(kiln_backend_group *group);

  /* Appended within ABI version 1; optional (NULL: the plugin runs sharded programs in one
   * process only). A launch group whose partitions are spread over the processes of a
   * launch: this process runs partitions first .. first + count - 1 (execute is called for
   * those only) and meets the others' partitions through wire (borrowed; it outlives the
   * group). Partition p runs in process p / count. timeout_s bounds each wait. Destroyed
   * with group_destroy. */
  kiln_status (*group_create_spanning)(int32_t num_partitions, int32_t first, int32_t count,
                                       const kiln_backend_wire *wire, int timeout_s, kiln_backend_group **out_group);
} kiln_backend;

/* The entry symbol's type. It must not fail, allocate or have side effects: the runtime
 * may call it for every plugin it finds (kiln devices). */
typedef const kiln_backend *(*kiln_backend_entry_fn)(void);

/* For plugins: declares the entry point with default visibility and C linkage. */
#define KILN_BACKEND_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
}
#endif
#endif
