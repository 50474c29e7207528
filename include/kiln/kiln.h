/* Kiln: the public C API of the runtime (libkiln.so).
 *
 * A client loads backend plugins and owns their devices; a program is a parsed and
 * verified StableHLO module; an executable is a program compiled for one device; buffers
 * hold tensors in a device's memory; executing returns a completion event.
 *
 *   kiln_client_options o = {.struct_size = sizeof o, .devices = "cuda,cpu,interp"};
 *   kiln_client *c;        kiln_client_create(&o, &c);
 *   kiln_program *p;       kiln_program_create(text, len, NULL, &p);
 *   kiln_executable *x;    kiln_program_compile(p, kiln_client_device(c, 0), NULL, &x);
 *   kiln_buffer *in, *out; kiln_buffer_create(device, &args, &in);
 *   kiln_event *e;         kiln_executable_execute(x, &exec_args, &e);
 *   kiln_event_wait(e);    kiln_buffer_copy_to_host(out, dst, size);
 *
 * Rules that hold for every call (docs/ABI.md states them as the ABI's rules):
 * - Errors are kiln_status values (include/kiln/status.h): NULL is success; the caller owns
 *   any other status and frees it. No call aborts the process on bad input: NULL handles,
 *   wrong sizes, shapes or types come back as INVALID_ARGUMENT.
 * - Handles are opaque. Objects are reference-counted: a call that makes one (create,
 *   compile, execute) hands the caller one reference; *_retain adds one, *_release drops
 *   one (NULL allowed). An object keeps alive what it needs (a buffer its client, an
 *   executable its program and client), so they may be released in any order.
 * - Argument and option structs start with `size_t struct_size`, set by the caller to
 *   sizeof the struct it was compiled with; fields past that size read as zero. A NULL
 *   options pointer means all defaults.
 * - Out-parameters (out_*) are written on success; handle out-parameters are set to NULL
 *   on failure, so releasing them afterwards is always safe.
 * - Borrowed strings and arrays stay valid as long as the object they came from.
 * - Thread-safety is stated per call. Unless said otherwise, calls on distinct objects
 *   are thread-safe, and calls that only read an object may run from several threads.
 */
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ version */

#define KILN_VERSION_MAJOR 0
#define KILN_VERSION_MINOR 1
#define KILN_VERSION_PATCH 0
#define KILN_VERSION_STRING "0.1.0"
/* One number for compile-time comparisons: major * 10000 + minor * 100 + patch. */
#define KILN_VERSION (KILN_VERSION_MAJOR * 10000 + KILN_VERSION_MINOR * 100 + KILN_VERSION_PATCH)

/* Marks a declaration that is to be retired (docs/ABI.md: how long it keeps working). */
#define KILN_DEPRECATED(message) __attribute__((deprecated(message)))

/* The version of the library actually loaded, "MAJOR.MINOR.PATCH" (static storage; may
 * differ from KILN_VERSION_STRING when an application runs against a newer library of
 * the same major version). Thread-safe. */
const char *kiln_version(void);

/* The most dimensions a buffer may have. */
#define KILN_MAX_RANK 64

/* ------------------------------------------------------------------ handles */

typedef struct kiln_client_s kiln_client;
typedef struct kiln_device_s kiln_device;
typedef struct kiln_program_s kiln_program;
typedef struct kiln_executable_s kiln_executable;
typedef struct kiln_buffer_s kiln_buffer;
typedef struct kiln_event_s kiln_event;
typedef struct kiln_plugin_list_s kiln_plugin_list;

/* ------------------------------------------------------------------ element types */

/* Element types of buffers. Values are fixed forever (never renumbered or reused); they
 * follow PJRT_Buffer_Type's numbering for the types PJRT has, Kiln-only types start at 64.
 * Host data is dense and row-major; every element takes kiln_element_type_size() bytes:
 * PRED one byte (0 or 1), the 2- and 4-bit integers and sub-byte floats one byte each
 * (integers sign- or zero-extended), complex numbers as (real, imaginary). */
typedef enum kiln_element_type {
  KILN_ELEMENT_TYPE_INVALID = 0,
  KILN_ELEMENT_TYPE_PRED = 1,
  KILN_ELEMENT_TYPE_S8 = 2,
  KILN_ELEMENT_TYPE_S16 = 3,
  KILN_ELEMENT_TYPE_S32 = 4,
  KILN_ELEMENT_TYPE_S64 = 5,
  KILN_ELEMENT_TYPE_U8 = 6,
  KILN_ELEMENT_TYPE_U16 = 7,
  KILN_ELEMENT_TYPE_U32 = 8,
  KILN_ELEMENT_TYPE_U64 = 9,
  KILN_ELEMENT_TYPE_F16 = 10,
  KILN_ELEMENT_TYPE_F32 = 11,
  KILN_ELEMENT_TYPE_F64 = 12,
  KILN_ELEMENT_TYPE_BF16 = 13,
  KILN_ELEMENT_TYPE_C64 = 14,
  KILN_ELEMENT_TYPE_C128 = 15,
  KILN_ELEMENT_TYPE_F8E5M2 = 16,
  KILN_ELEMENT_TYPE_F8E4M3FN = 17,
  KILN_ELEMENT_TYPE_F8E4M3B11FNUZ = 18,
  KILN_ELEMENT_TYPE_F8E5M2FNUZ = 19,
  KILN_ELEMENT_TYPE_F8E4M3FNUZ = 20,
  KILN_ELEMENT_TYPE_S4 = 21,
  KILN_ELEMENT_TYPE_U4 = 22,
  KILN_ELEMENT_TYPE_TOKEN = 23, /* a !stablehlo.token result; no host data */
  KILN_ELEMENT_TYPE_S2 = 24,
  KILN_ELEMENT_TYPE_U2 = 25,
  KILN_ELEMENT_TYPE_F8E4M3 = 26,
  KILN_ELEMENT_TYPE_F8E3M4 = 27,
  KILN_ELEMENT_TYPE_F8E8M0FNU = 28,
  KILN_ELEMENT_TYPE_F4E2M1FN = 29,
  KILN_ELEMENT_TYPE_F6E2M3FN = 64,
  KILN_ELEMENT_TYPE_F6E3M2FN = 65,
  KILN_ELEMENT_TYPE_TF32 = 66,
  KILN_ELEMENT_TYPE_TUPLE = 67, /* a tuple result: only the device reads it; no host data */
} kiln_element_type;

/* Bytes per element in host data (0 for INVALID, TOKEN, TUPLE and unknown values). */
size_t kiln_element_type_size(kiln_element_type type);
/* The MLIR spelling ("f32", "i8", "complex<f32>", "!stablehlo.token"); "invalid" for an
 * unknown value. Static storage. */
const char *kiln_element_type_name(kiln_element_type type);

/* ------------------------------------------------------------------ plugin reports */

/* What happened to one plugin during selection or a scan. Strings are borrowed from the
 * list. */
typedef struct kiln_plugin_report {
  size_t struct_size;
  const char *name;        /* the plugin's name as asked for or found ("cuda") */
  const char *path;        /* the library tried; "" when none was found */
  kiln_status_code code;   /* OK: usable (and, in a client's list, selected) */
  const char *reason;      /* why it was passed over or cannot run here; "" when usable */
  const char *description; /* the plugin's own one-line description; "" when not loaded */
} kiln_plugin_report;

/* Entries of a list, in the order they were tried. Thread-safe (lists are immutable). */
int32_t kiln_plugin_list_count(const kiln_plugin_list *list);
/* Fills *out_report (whose struct_size the caller sets) with entry index. */
kiln_status kiln_plugin_list_get(const kiln_plugin_list *list, int32_t index,
                                 kiln_plugin_report *out_report);
/* Frees a list from kiln_plugins_scan (NULL allowed). Lists owned by a client are never
 * freed by the caller. */
void kiln_plugin_list_free(kiln_plugin_list *list);

/* ------------------------------------------------------------------ client */

/* Client options. Device list, plugin folders and config file are all optional.
 *
 * Where plugins are looked for, in order: the `plugin_paths` given here, the
 * `plugin_path` lines of the config file, then `kiln-plugins/` next to libkiln.so itself
 * (found from the library's own location, so a relocated install needs nothing set).
 * The plugin called NAME is the file `libkiln-NAME.so` in the first folder that has one.
 *
 * The device list is an ordered, comma-separated list of plugin names ("cuda,cpu,interp"):
 * the first plugin that loads, has the right ABI version and whose probe says it can run
 * here wins; every one passed over is reported with its reason. Where the list comes from,
 * first found wins: the environment variable KILN_DEVICE (an override; never required),
 * `devices` here, the config file's `devices` line, then the default list of the plugins
 * this release ships, best first (KILN_DEFAULT_DEVICES).
 *
 * Config file: UTF-8 text, one `key = value` per line; `#` starts a comment; blank lines
 * are ignored. Keys: `devices = LIST` and `plugin_path = DIR` (repeatable; a relative DIR
 * is taken from the config file's folder). An unknown key or malformed line is an error
 * naming the file and line. */
typedef struct kiln_client_options {
  size_t struct_size;
  const char *devices;             /* NULL: see above */
  const char *const *plugin_paths; /* extra plugin folders, searched first */
  int32_t num_plugin_paths;
  const char *config_file;         /* NULL: none */
  uint32_t flags;                  /* KILN_CLIENT_* */
  /* Added in 0.1 after the fields above: how many devices to open, for a plugin that can
   * split its hardware into several (cpu: the host's cores shared out among num_devices
   * devices, like XLA's host device count); 0: the plugin's own number (cpu:
   * KILN_CPU_DEVICES, else 1). A plugin that cannot offer that many is passed over with
   * the reason, like one that cannot run here; a negative count is INVALID_ARGUMENT. */
  int32_t num_devices;
} kiln_client_options;

#define KILN_DEFAULT_DEVICES "cpu,interp"

/* Processes of one launch. `mpirun -np P PROGRAM` (Open MPI) starts P processes of a
 * program that joins the launch here; then each sharded executable
 * (kiln_compile_options.num_partitions N, N a multiple of P) runs partitions
 * index * N / P .. (index + 1) * N / P - 1 in this process, on the client's devices 0 ..
 * N / P - 1, and meets the other processes' partitions in its collectives over MPI (loaded
 * at run time: Kiln needs no MPI to build or to run alone). A process not started by a
 * launcher is the only process of its launch (index 0, count 1) and loads nothing.
 * Collective waits across processes end after KILN_COLLECTIVE_TIMEOUT_S seconds (default
 * 300) with DEADLINE_EXCEEDED naming the processes not heard from.
 * Join once, from the main thread, before compiling; leave once, after every executable
 * has been released and before the process exits (MPI_Finalize). */
typedef struct kiln_process_info {
  size_t struct_size;
  int32_t index, count;
} kiln_process_info;
kiln_status kiln_processes_join(kiln_process_info *out_info);
void kiln_processes_leave(void);
/* Every process gives `bytes` bytes; all receives count * bytes, in process order.
 * Thread-safe; bounded like the collectives. */
kiln_status kiln_processes_allgather(const void *mine, size_t bytes, void *all);

/* Ignore KILN_DEVICE (for callers whose device list must not be overridden). */
#define KILN_CLIENT_IGNORE_ENV 1u

/* Creates a client: loads the plugin chosen from the device list and opens its devices.
 * When no plugin of the list can be used, fails with UNAVAILABLE (NOT_FOUND when no
 * plugin of the list was found at all) whose message gives every name and its reason.
 * Thread-safe. The client is released with kiln_client_release. */
kiln_status kiln_client_create(const kiln_client_options *options, kiln_client **out_client);
kiln_client *kiln_client_retain(kiln_client *client);
/* Drops a reference; the plugin is unloaded when the client and everything made from it
 * (executables, buffers, events) are released. NULL allowed. */
void kiln_client_release(kiln_client *client);

/* The plugins tried while choosing, in list order: the ones passed over with their reasons,
 * then the selected one (code OK). Borrowed from the client. Thread-safe. */
const kiln_plugin_list *kiln_client_selection(const kiln_client *client);
/* Name of the selected plugin ("interp"). Borrowed. Thread-safe. */
const char *kiln_client_plugin_name(const kiln_client *client);
/* Devices of the selected plugin (at least one; kiln_client_options.num_devices when
 * given). Devices of one client are independent: buffers and executables belong to one
 * device (running an executable with another device's buffer is INVALID_ARGUMENT), and runs
 * on different devices may go on at once. Thread-safe. */
int32_t kiln_client_device_count(const kiln_client *client);
/* Device index, or NULL when out of range. Borrowed: owned by the client. */
kiln_device *kiln_client_device(const kiln_client *client, int32_t index);

/* Lists every plugin in the folders the options name (see kiln_client_options), loading
 * and probing each to say whether it can run here and why not. The device list is not
 * used. *out_list is freed with kiln_plugin_list_free. Thread-safe. */
kiln_status kiln_plugins_scan(const kiln_client_options *options, kiln_plugin_list **out_list);

/* ------------------------------------------------------------------ devices */

/* "interp:0": the plugin name and the device's index. Borrowed. Thread-safe. */
const char *kiln_device_name(const kiln_device *device);
/* The plugin's description of the device. Borrowed. Thread-safe. */
const char *kiln_device_description(const kiln_device *device);

/* ------------------------------------------------------------------ programs */

typedef struct kiln_program_options {
  size_t struct_size;
  const char *name;    /* shown in diagnostics ("model.mlir"); NULL: "<program>" */
  uint32_t first_line; /* line number of text[0] in that file; 0 means 1 */
} kiln_program_options;

/* Parses and verifies MLIR text (StableHLO's pretty or generic form), or reads a StableHLO
 * portable artifact (VHLO in MLIR bytecode, recognised by its magic "ML\xEFR"; it may
 * hold NULs). The bytes are copied. A syntax or verification error comes back as
 * INVALID_ARGUMENT with a located message ("model.mlir:12:7: error: ..." and the line
 * with a caret; "model.mlir.bc: byte 1234: expected ..." for a malformed artifact).
 * Thread-safe. */
kiln_status kiln_program_create(const char *text, size_t length, const kiln_program_options *options,
                                kiln_program **out_program);
kiln_program *kiln_program_retain(kiln_program *program);
void kiln_program_release(kiln_program *program);

typedef struct kiln_function_info {
  size_t struct_size;
  const char *name; /* without the '@'; borrowed from the program */
  int32_t num_inputs, num_results;
  uint32_t line;    /* where it is defined (0: unknown) */
} kiln_function_info;

/* The functions that have a body, in program order. Thread-safe. */
int32_t kiln_program_function_count(const kiln_program *program);
kiln_status kiln_program_function(const kiln_program *program, int32_t index, kiln_function_info *out_info);
/* The function called name; NOT_FOUND when there is none. */
kiln_status kiln_program_find_function(const kiln_program *program, const char *name,
                                       kiln_function_info *out_info);

/* Whether the program's producer marked input `input` of function `function` (NULL:
 * "main") as one a caller may donate: a `tf.aliasing_output` or `jax.buffer_donor`
 * argument attribute (JAX's donate_argnums). Donation does not require it
 * (kiln_execute_args.donate takes any input); frameworks that donate what the program
 * marks (PJRT) ask it. NOT_FOUND for an unknown function, OUT_OF_RANGE for an input past
 * its count. Thread-safe. */
kiln_status kiln_program_input_donor(const kiln_program *program, const char *function, int32_t input,
                                     bool *out_donor);

/* The module's name (`module @jit_f` gives "jit_f"), or NULL when it has none. Borrowed
 * from the program. Thread-safe. */
const char *kiln_program_module_name(const kiln_program *program);

#define KILN_PROGRAM_DIGEST_SIZE 32
/* The SHA-256 digest of the bytes given to kiln_program_create (text or artifact): equal
 * bytes, equal digests. Thread-safe. */
void kiln_program_digest(const kiln_program *program, uint8_t out_digest[KILN_PROGRAM_DIGEST_SIZE]);

typedef struct kiln_compile_options {
  size_t struct_size;
  const char *function; /* the entry function; NULL: "main" */
  /* Added in 0.1 after the fields above: sharded programs (Shardy's sdy.mesh / sdy.sharding /
   * sdy.manual_computation, as JAX sends them; see kiln_program_num_partitions). With
   * num_partitions > 1 the program is partitioned into one per-device program, compiled
   * once, whose runs take and return each device's blocks of the global values and meet in
   * collectives (docs/ARCHITECTURE.md, "Sharded programs"); see kiln_executable_sharding.
   * devices: the devices of the partitions, partition p on devices[p], all of the compile
   * device's client and devices[0] the compile device; NULL: the client's first
   * num_partitions devices (the compile device must be its first). 0 or 1: one device. */
  int32_t num_partitions;
  kiln_device *const *devices;
} kiln_compile_options;

/* The number of partitions the program was written for: its module's
 * `mhlo.num_partitions` (1 when absent). Thread-safe. */
int32_t kiln_program_num_partitions(const kiln_program *program);

/* Compiles one function of a program for a device. The executable keeps the program and
 * the device's client alive. Thread-safe; compiles of one program are serialized.
 *
 * Compiled once per process: while an executable lives, compiling the same function of
 * the same text (same bytes, same options.name and first_line) for the same device again,
 * even through another kiln_program, returns a new reference to that executable instead
 * of compiling again (it is then the executable of the program compiled first). Released
 * executables are not kept: the cache holds no reference. */
kiln_status kiln_program_compile(kiln_program *program, kiln_device *device, const kiln_compile_options *options,
                                 kiln_executable **out_executable);

/* ------------------------------------------------------------------ buffers */

typedef struct kiln_buffer_args {
  size_t struct_size;
  kiln_element_type element_type;
  int32_t rank;          /* 0 for a scalar; at most KILN_MAX_RANK */
  const int64_t *dims;   /* rank non-negative sizes */
  const void *data;      /* dense row-major host data (see kiln_element_type) */
  size_t byte_size;      /* must equal the product of dims * element size */
} kiln_buffer_args;

/* Copies host data into a new buffer on device. The host data may be reused as soon as
 * the call returns. Thread-safe. */
kiln_status kiln_buffer_create(kiln_device *device, const kiln_buffer_args *args, kiln_buffer **out_buffer);
kiln_buffer *kiln_buffer_retain(kiln_buffer *buffer);
void kiln_buffer_release(kiln_buffer *buffer);

/* Shape queries: the arrays are borrowed from the buffer. Thread-safe. */
kiln_element_type kiln_buffer_element_type(const kiln_buffer *buffer);
int32_t kiln_buffer_rank(const kiln_buffer *buffer);
const int64_t *kiln_buffer_dims(const kiln_buffer *buffer);
/* Bytes of its host data (0 for TOKEN and TUPLE). */
size_t kiln_buffer_byte_size(const kiln_buffer *buffer);
kiln_device *kiln_buffer_device(const kiln_buffer *buffer);

/* Copies the buffer's contents to host memory of byte_size bytes (which must equal
 * kiln_buffer_byte_size). Waits until the execution that produces the buffer is done and
 * returns its error if it failed. Thread-safe. */
kiln_status kiln_buffer_copy_to_host(kiln_buffer *buffer, void *dst, size_t byte_size);

/* The address of the buffer's contents (dense row-major, as kiln_buffer_copy_to_host
 * writes them) for a device whose buffers live in host memory (cpu, interp): borrowed,
 * valid while the buffer lives, read-only. Does not wait: the contents are there once the
 * execution that produces the buffer is done (kiln_event_wait). UNIMPLEMENTED for a device
 * whose memory the host cannot address (and for plugins that do not say), INVALID_ARGUMENT
 * for TOKEN and TUPLE buffers, FAILED_PRECONDITION for a donated buffer (whose address is
 * no longer valid once it is donated); a buffer of 0 bytes may give any address, NULL
 * included. Thread-safe. */
kiln_status kiln_buffer_host_data(const kiln_buffer *buffer, const void **out_data);

/* Whether the buffer was donated to a run (kiln_execute_args.donate): its contents are
 * gone, and every use but the shape queries and release fails. Thread-safe. */
bool kiln_buffer_is_donated(const kiln_buffer *buffer);

/* ------------------------------------------------------------------ execution */

/* Collect the results of check.* ops instead of failing on the first failed check (see
 * kiln_event_checks); for test programs. */
#define KILN_EXECUTE_COLLECT_CHECKS 1u

typedef struct kiln_execute_args {
  size_t struct_size;
  /* One per function input, on the executable's device. An executable of several
   * partitions (kiln_executable_num_partitions) takes a row of num_inputs per partition,
   * partition-major, each on its partition's device and shaped as that partition's block
   * (kiln_executable_sharding); its out_results get a row of num_results per partition,
   * and donate (when given) has an entry per input of every row. */
  kiln_buffer *const *inputs;
  int32_t num_inputs;
  kiln_buffer **out_results;  /* caller's array of num_results slots, filled on success */
  int32_t num_results;        /* must equal the function's number of results */
  uint32_t flags;             /* KILN_EXECUTE_* */
  /* Added in 0.1 after the fields above: donation. NULL, or one flag per input: a donated
   * input is consumed by the run, which may write a result into its memory (the cpu
   * device does when a result has the input's element type and byte size: the module's
   * `tf.aliasing_output` / `jax.buffer_donor` argument attributes pick the pairs, else the
   * first such result), so no memory is allocated for that result. From the moment the
   * device is called (errors found before, listed below, consume nothing) the donated
   * buffer's handle stays valid but its contents are gone, also when the run fails: every
   * later use (as an input, kiln_buffer_copy_to_host, kiln_buffer_host_data) fails with
   * FAILED_PRECONDITION naming the buffer as donated; the handle is still released as
   * usual, and its shape queries still answer. Errors: donating a buffer twice in one
   * call, or donating one that is also passed undonated, is INVALID_ARGUMENT; donating a
   * buffer already donated, or one another thread is using at that moment (copying it
   * to the host, or as another run's input), is FAILED_PRECONDITION. */
  const bool *donate;
} kiln_execute_args;

/* Starts running the executable. Errors found before it starts (wrong number, type or
 * shape of inputs, a buffer of another device, a donated buffer used again: see
 * kiln_execute_args.donate) and, on devices that run at once, errors
 * of the run itself come back here; then nothing is written to out_results. On success,
 * out_results holds one new buffer per result, whose contents are ready when *out_event
 * is; an error of an asynchronous run comes from kiln_event_wait and from copying the
 * results. Inputs may be released as soon as the call returns.
 * Thread-safe: one executable may run from several threads at once. */
kiln_status kiln_executable_execute(kiln_executable *executable, const kiln_execute_args *args,
                                    kiln_event **out_event);
kiln_executable *kiln_executable_retain(kiln_executable *executable);

/* Sharded executables (kiln_compile_options.num_partitions). The number of partitions (1
 * for a plain executable), and how input or result `index` is split: for each dimension,
 * parts[d] blocks (1: whole on every partition) of which `partition` holds block[d];
 * partitions holding the same blocks hold equal copies, unless partials > 1: then the
 * partitions holding a block form groups of `partials` partitions, each holding a partial
 * sum (Shardy's unreduced axes; `partial_index` is this partition's place in its group),
 * and the block is the sum of a group's. Thread-safe. */
int32_t kiln_executable_num_partitions(const kiln_executable *executable);
/* The partitions this process runs: all of them (first 0), or in a launch of several
 * processes (kiln_processes_join) its share. In such a launch kiln_execute_args reads the
 * input rows of those partitions only (the others' entries are not read and may be NULL)
 * and fills their result rows; the other rows of out_results are set to NULL. */
void kiln_executable_local_partitions(const kiln_executable *executable, int32_t *out_first, int32_t *out_count);
typedef struct kiln_sharding_info {
  size_t struct_size;
  int32_t rank;
  int64_t parts[KILN_MAX_RANK];
  int64_t block[KILN_MAX_RANK];
  int64_t partials, partial_index;
} kiln_sharding_info;
kiln_status kiln_executable_sharding(const kiln_executable *executable, bool result, int32_t index,
                                     int32_t partition, kiln_sharding_info *out_info);
void kiln_executable_release(kiln_executable *executable);
/* The function it runs (borrowed). Thread-safe. */
kiln_status kiln_executable_function(const kiln_executable *executable, kiln_function_info *out_info);

/* Memory figures of an executable, in bytes, as its plugin reports them. */
typedef struct kiln_executable_stats_info {
  size_t struct_size;
  bool reported;            /* false: the plugin reports no figures ("not reported"; all zero) */
  uint64_t temporary_bytes; /* scratch memory a run uses beyond its inputs and results
                               (the buffer plan's size) */
  uint64_t constant_bytes;  /* constants the executable holds */
  uint64_t code_bytes;      /* generated machine code */
  /* Added in 0.1 after the fields above: modules of generated code the plugin's persistent
   * compile cache supplied (hits) and ones it compiled and stored (misses); both 0 when
   * the plugin has no such cache or it is off. */
  uint64_t code_cache_hits;
  uint64_t code_cache_misses;
  /* Added in 0.1 after the fields above: ops the plugin hands to its reference interpreter
   * instead of compiling them (each op an interpreter step runs, with its regions, counts
   * one; a function the interpreter runs whole counts each op of its body; control-flow
   * regions count theirs). 0 when every op is compiled, or when not reported. */
  uint64_t interpreted_ops;
  /* Added in 0.1 after the fields above: tiered execution (a plugin that starts programs on
   * a fast-start tier and switches to optimised code compiled in the background; cpu:
   * KILN_CPU_TIER). tier: which runs now (KILN_TIER_NONE when the plugin has no tiers);
   * tier_pending: a better tier is being compiled; runs made so far on each tier. The other
   * figures above are those of the tier that runs now. */
  uint32_t tier;
  bool tier_pending;
  uint64_t fast_start_runs;
  uint64_t optimized_runs;
  /* Added in 0.1 after the fields above: whole-tensor copies the runs made so far, summed
   * over the runs of the tier that runs now (per run: divided by its runs), and their
   * bytes: a loop's carried values copied (into the loop, out of it, or a loop body's
   * result copied rather than made in place), the operand a scatter or
   * dynamic_update_slice copies before updating it (not when it updates it in place), and
   * results copied out of the run's scratch memory or inputs. 0 when not reported. */
  uint64_t copies;
  uint64_t copy_bytes;
  /* Added in 0.1 after the fields above: one-time preparations that runs of the tier that
   * runs now made themselves because its compile had not: a step first executed by a run
   * (a library primitive's first execution, where oneDNN generates kernels; a plan's
   * first use) and run states (scratch memory) made for a run. A compile that prepares
   * everything (cpu's optimised tier, for a program it warms up by a run: one estimated
   * at 2 ms at most) leaves this at 0 for runs one at a time; a longer program's steps
   * first execute in its first run (its memory and oneDNN's kernels prepared), runs at
   * once each need a run state of their own, and a fast-start tier prepares nothing. 0
   * when not reported. */
  uint64_t prepared_in_runs;
  /* Added in 0.1 after the fields above: for a shape-polymorphic function (a `?` dim in a
   * parameter), the signatures (input shapes and dimension arguments) its executable has
   * compiled so far, and how many code generations (cpu: LLVM compiles) made the code they
   * run: cpu compiles loop code for every regime of sizes at once when the function is
   * compiled, and again only for a signature whose loops that code does not fit. 0 when
   * not reported. */
  uint64_t signatures;
  uint64_t code_compiles;
  /* Added in 0.1 after the fields above: runs the plugin made on fewer threads than its
   * device has (down to the calling thread alone) because other processes kept the host's
   * CPUs busy and the run was short (cpu: under 2 ms; a thread queued behind another
   * process would hold such a run up for that process's time slice). 0 when not reported. */
  uint64_t runs_narrowed;
} kiln_executable_stats_info;

/* KILN_TIER_QUICK (added in 0.1 after the others): a fast-start tier of compiled code,
 * generated quickly (cpu: KILN_CPU_TIER=quick, or the auto policy's start for programs the
 * baseline would run slowly); KILN_TIER_FAST_START: the baseline fast-start tier. */
enum { KILN_TIER_NONE = 0, KILN_TIER_FAST_START = 1, KILN_TIER_OPTIMIZED = 2, KILN_TIER_QUICK = 3 };

/* Fills *out_stats (whose struct_size the caller sets; INVALID_ARGUMENT when smaller than
 * the first version of the struct, which ended with code_bytes). Thread-safe, also while the executable runs. */
kiln_status kiln_executable_stats(const kiln_executable *executable, kiln_executable_stats_info *out_stats);

/* ------------------------------------------------------------------ events */

/* Whether the work the event stands for is done (successfully or not). Never blocks.
 * Thread-safe. */
bool kiln_event_is_ready(const kiln_event *event);
/* Blocks until the work is done; returns its error (a new status the caller owns), NULL
 * when it succeeded. May be called any number of times from any thread. */
kiln_status kiln_event_wait(kiln_event *event);
kiln_event *kiln_event_retain(kiln_event *event);
void kiln_event_release(kiln_event *event);

typedef struct kiln_check_results {
  size_t struct_size;
  int32_t passed, failed;
  const char *failures; /* one line per failed check; borrowed from the event; "" if none */
} kiln_check_results;

/* The check.* results of a run started with KILN_EXECUTE_COLLECT_CHECKS (zeros
 * otherwise). Waits for the event; fails with the run's error if it failed. */
kiln_status kiln_event_checks(kiln_event *event, kiln_check_results *out_results);

#ifdef __cplusplus
}
#endif
#endif
