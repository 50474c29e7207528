/* Runtime internals shared by the files of src/runtime: the objects behind the public
 * handles of include/kiln/kiln.h. Not part of the API.
 *
 * Every object is reference-counted with an atomic count first in the struct. A buffer,
 * executable or event retains its client, so the plugin stays loaded while anything it
 * made lives; a client destroys its devices and unloads its plugin when the last reference
 * goes. */
#ifndef KILN_RUNTIME_RUNTIME_H
#define KILN_RUNTIME_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>

#include "base/source.h"
#include "ir/ir.h"
#include "kiln/backend.h"
#include "kiln/kiln.h"
#include "runtime/plugin.h"
#include "runtime/sha256.h"
#include "spmd/spmd.h"

struct kiln_device_s {
  kiln_client *client; /* not retained: the client owns its devices */
  kiln_backend_device *impl;
  char name[96];
  const char *description;
};

struct kiln_client_s {
  atomic_int refs;
  kiln_plugin plugin;
  kiln_plugin_list *selection;
  int32_t num_devices;
  struct kiln_device_s *devices;
};

struct kiln_program_s {
  atomic_int refs;
  kiln_source source; /* owns a copy of the text (source.owned, num_bytes long) */
  size_t num_bytes;
  char *name;
  char *module_name;  /* the module's sym_name, or NULL */
  uint8_t digest[KILN_SHA256_SIZE]; /* of the text: the compile cache's key (cache.h) */
  kiln_module *module;
  pthread_mutex_t compile_mu; /* backends may annotate the module while compiling */
  int32_t num_functions;
  const kiln_op **functions; /* func.func ops with a body, in program order */
};

struct kiln_executable_s {
  atomic_int refs;
  kiln_program *program; /* a sharded one's: its per-device program (kiln_program_partition) */
  kiln_device *device;
  /* A program of several partitions: partition p runs on devices[p] (devices[0] is
   * device); plan (in plan_arena) says how each input and result is split. */
  int32_t num_partitions;
  kiln_device **devices;
  /* In a launch of several processes (kiln_processes_join; wire not NULL) this process
   * runs partitions first_local .. first_local + num_local - 1 only; devices[] holds
   * theirs (the others' entries are NULL). Otherwise 0 and num_partitions. */
  int32_t first_local, num_local;
  const kiln_backend_wire *wire;
  kiln_arena *plan_arena;
  kiln_spmd_plan plan;
  kiln_client *client; /* retained */
  const kiln_op *function;
  kiln_backend_executable *impl;
  /* The compile cache (cache.h): the key, and the links of its chain (guarded by the
   * cache's mutex). */
  uint8_t key[KILN_SHA256_SIZE];
  const kiln_device *key_device;
  bool cached;
  struct kiln_executable_s *cache_next, **cache_prev;
};

struct kiln_event_s {
  atomic_int refs;
  kiln_client *client; /* retained: the plugin must outlive impl */
  pthread_mutex_t mu;
  kiln_backend_event *impl; /* NULL once done (or for a device that finished at once) */
  kiln_status error;        /* the run's error once done */
  int32_t checks_passed, checks_failed;
  char *check_failures;
};

struct kiln_buffer_s {
  atomic_int refs;
  kiln_device *device;
  kiln_client *client; /* retained */
  /* Donation (kiln_execute_args.donate): under mu, `uses` counts the calls reading impl
   * now (kiln_buffer_use), and a donation claims the buffer only when none is; once
   * donated, impl is destroyed and NULL, and every use fails. */
  pthread_mutex_t mu;
  int32_t uses;
  bool donated;
  kiln_backend_buffer *impl;
  kiln_event *ready;   /* the run that produces it; NULL when ready from the start */
  kiln_element_type element_type;
  int32_t rank;
  int64_t dims[KILN_MAX_RANK];
  size_t byte_size;
};

/* Copies a caller's argument struct (struct_size first) into a zeroed local of
 * local_size bytes: fields the caller's version lacks read as zero. INVALID_ARGUMENT when
 * the caller's struct_size is smaller than a size_t. src NULL gives all zeros. */
kiln_status kiln_args_copy(void *local, size_t local_size, const void *src, const char *what);

/* The device's table (of its client's plugin). */
static inline const kiln_backend *kiln_device_backend(const kiln_device *d) { return &d->client->plugin.table; }

/* Creates an event for a run (one reference); NULL when memory is exhausted. */
kiln_event *kiln_event_new(kiln_client *client);
/* The check reporting callback given to backends: ctx is the kiln_event. */
void kiln_event_report_checks(void *ctx, int32_t passed, int32_t failed, const char *failures);
/* Wraps a backend buffer (taking ownership; destroyed on failure) into a new buffer. */
kiln_status kiln_buffer_wrap(kiln_device *device, kiln_backend_buffer *impl, kiln_event *ready, kiln_buffer **out);

/* A use of buf's contents (impl) by one call: FAILED_PRECONDITION naming what (an
 * "input #3", "kiln_buffer_copy_to_host") when buf was donated; otherwise impl stays
 * until the matching kiln_buffer_unuse. */
kiln_status kiln_buffer_use(kiln_buffer *buf, const char *what);
void kiln_buffer_unuse(kiln_buffer *buf);
/* Claims buf for a donation (what names it, as above): FAILED_PRECONDITION when it was
 * donated already or a call is using it now. Claimed, every use fails; then either
 * kiln_buffer_consume (the device was called: impl is destroyed) or kiln_buffer_unclaim
 * (the run did not start) ends the claim. */
kiln_status kiln_buffer_claim(kiln_buffer *buf, const char *what);
void kiln_buffer_consume(kiln_buffer *buf);
void kiln_buffer_unclaim(kiln_buffer *buf);

/* The per-device program of function of p run over num_partitions partitions
 * (kiln_spmd_partition of a fresh copy of p's module), and its plan (in arena). */
kiln_status kiln_program_partition(const kiln_program *p, const char *function, int32_t num_partitions,
                                   kiln_arena *arena, kiln_program **out, kiln_spmd_plan *plan);

/* Fills a caller's kiln_function_info (whose struct_size it set) for a func.func. */
kiln_status kiln_function_info_fill(const kiln_op *function, kiln_function_info *out_info);

/* A string copy of a status (its code and message), for handing one error to many. */
kiln_status kiln_status_copy(kiln_status status);

#endif
