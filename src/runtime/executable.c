/* Executables: compiling a program for a device, and running it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fault.h"
#include "ir/print.h"
#include "runtime/cache.h"
#include "runtime/element.h"
#include "runtime/runtime.h"
#include "wire/wire.h"

/* The devices of this process's partitions of a compile of num_partitions
 * (x->first_local ..; kiln_compile_options.devices), the local ones indexed from 0 when
 * the options name no devices. */
static kiln_status partition_devices(kiln_executable *x, kiln_device *device, const kiln_compile_options *o) {
  kiln_device **out = x->devices;
  if (o->num_partitions == 1) { /* a plain run on the compile device */
    out[0] = device;
    return NULL;
  }
  kiln_client *c = device->client;
  for (int32_t p = x->first_local; p < x->first_local + x->num_local; p++) {
    int32_t local = p - x->first_local;
    kiln_device *d = o->devices ? o->devices[p] : local < c->num_devices ? &c->devices[local] : NULL;
    if (!d)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                         "a program of %d partitions needs %d devices%s; the client has %d (ask for more: num_devices)",
                         (int)o->num_partitions, (int)x->num_local, x->wire ? " in each process" : "",
                         (int)c->num_devices);
    if (d->client != c)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the device of partition %d is not of the compile device's client",
                         (int)p);
    for (int32_t q = x->first_local; q < p; q++)
      if (out[q] == d) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "partitions %d and %d are both on %s", (int)q, (int)p, d->name);
    out[p] = d;
  }
  if (out[x->first_local] != device)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "partition %d runs on %s, not on the compile device %s",
                       (int)x->first_local, out[x->first_local]->name, device->name);
  const kiln_backend *b = kiln_device_backend(device);
  if (!b->group_create || !b->group_destroy)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s runs programs of one partition only, not %d", device->name,
                       (int)o->num_partitions);
  if (x->wire && !b->group_create_spanning)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s runs sharded programs within one process only, not over %d processes",
                       device->name, (int)x->wire->size);
  return NULL;
}

/* This process's share of the partitions: all of them, or in a launch of P processes
 * (kiln_processes_join) the P-th part of them that is its own. */
static kiln_status local_partitions(kiln_executable *x, int32_t n) {
  x->wire = n > 1 ? kiln_wire_joined() : NULL;
  x->first_local = 0;
  x->num_local = n;
  if (!x->wire) return NULL;
  if (n % x->wire->size)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "a program of %d partitions cannot be shared out evenly over the launch's %d processes", (int)n,
                       (int)x->wire->size);
  x->num_local = n / x->wire->size;
  x->first_local = x->wire->rank * x->num_local;
  return NULL;
}

/* In a launch of several processes every process must compile the same program (text,
 * function and partition count): the per-device programs' digests are compared. */
static kiln_status same_program_everywhere(const kiln_executable *x) {
  if (!x->wire) return NULL;
  uint8_t mine[KILN_PROGRAM_DIGEST_SIZE];
  kiln_program_digest(x->program, mine);
  uint8_t *all = malloc(sizeof mine * (size_t)x->wire->size);
  kiln_status st = all ? kiln_wire_allgather(mine, sizeof mine, all, kiln_wire_timeout_s())
                       : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t p = 0; !st && p < x->wire->size; p++)
    if (memcmp(all + (size_t)p * sizeof mine, mine, sizeof mine))
      st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "process %d of the launch compiles another program than this one (process %d): every process "
                       "must compile the same program, function and number of partitions",
                       (int)p, (int)x->wire->rank);
  free(all);
  return st;
}

/* A sharded compile: the per-device program (x->program) and its devices and plan. */
static kiln_status partition(kiln_executable *x, kiln_program *p, const char *name, kiln_device *device,
                             const kiln_compile_options *o) {
  x->num_partitions = o->num_partitions;
  x->devices = calloc((size_t)o->num_partitions, sizeof *x->devices);
  x->plan_arena = kiln_arena_create(0);
  if (!x->devices || !x->plan_arena) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  KILN_RETURN_IF_ERROR(local_partitions(x, o->num_partitions));
  KILN_RETURN_IF_ERROR(partition_devices(x, device, o));
  KILN_RETURN_IF_ERROR(kiln_program_partition(p, name, o->num_partitions, x->plan_arena, &x->program, &x->plan));
  return same_program_everywhere(x);
}

static void executable_free(kiln_executable *x) {
  kiln_program_release(x->program);
  kiln_arena_destroy(x->plan_arena);
  free(x->devices);
  free(x);
}

kiln_status kiln_program_compile(kiln_program *p, kiln_device *device, const kiln_compile_options *options,
                                 kiln_executable **out_executable) {
  if (!out_executable) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_compile: out_executable is NULL");
  *out_executable = NULL;
  if (!p || !device) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_compile: program and device are required");
  kiln_compile_options o;
  KILN_RETURN_IF_ERROR(kiln_args_copy(&o, sizeof o, options, "kiln_compile_options"));
  if (o.num_partitions < 0 || o.num_partitions > KILN_SPMD_MAX_DEVICES)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "num_partitions is %d; 0 to %d are supported", (int)o.num_partitions,
                       KILN_SPMD_MAX_DEVICES);
  const char *name = o.function ? o.function : "main";
  const kiln_op *f = NULL;
  for (int32_t i = 0; !f && i < p->num_functions; i++)
    if (!strcmp(kiln_func_name(p->functions[i]), name)) f = p->functions[i];
  if (!f) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", p->name, name);
  kiln_executable *x = calloc(1, sizeof *x);
  if (!x) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  bool sharded = o.num_partitions > 1;
  /* sdy ops in a program of one partition: partitioned for one (the ops go away) */
  if (!sharded && kiln_spmd_module_has_sdy(p->module)) o.num_partitions = 1;
  if (!o.num_partitions) {
    kiln_cache_key(x, p, name, device);
    if ((*out_executable = kiln_cache_find(x))) { /* compiled before: share it */
      free(x);
      return NULL;
    }
    x->program = kiln_program_retain(p);
    x->num_partitions = 1;
  } else { /* not in the in-process cache: its key would need the devices too */
    kiln_status st = partition(x, p, name, device, &o);
    if (st) {
      executable_free(x);
      return st;
    }
    f = kiln_module_lookup_func(x->program->module, name);
  }
  kiln_backend_compile_args args = {sizeof args, x->program->module, &x->program->source, f};
  pthread_mutex_lock(&x->program->compile_mu);
  kiln_status st = kiln_device_backend(device)->compile(device->impl, &args, &x->impl);
  pthread_mutex_unlock(&x->program->compile_mu);
  if (st) {
    executable_free(x);
    return st;
  }
  atomic_init(&x->refs, 1);
  x->device = device;
  x->client = kiln_client_retain(device->client);
  x->function = f;
  *out_executable = o.num_partitions ? x : kiln_cache_insert(x);
  if (*out_executable != x) kiln_executable_release(x); /* another thread compiled it meanwhile */
  return NULL;
}

kiln_executable *kiln_executable_retain(kiln_executable *x) {
  if (x) atomic_fetch_add(&x->refs, 1);
  return x;
}

void kiln_executable_release(kiln_executable *x) {
  if (!x || !kiln_cache_drop(x)) return;
  kiln_device_backend(x->device)->executable_destroy(x->impl);
  kiln_client_release(x->client);
  executable_free(x);
}

int32_t kiln_executable_num_partitions(const kiln_executable *x) { return x ? x->num_partitions : 0; }

void kiln_executable_local_partitions(const kiln_executable *x, int32_t *out_first, int32_t *out_count) {
  bool sharded = x && x->num_partitions > 1;
  *out_first = sharded ? x->first_local : 0;
  *out_count = sharded ? x->num_local : x ? 1 : 0;
}

kiln_status kiln_executable_sharding(const kiln_executable *x, bool result, int32_t index, int32_t partition,
                                     kiln_sharding_info *out) {
  if (!x || !out || out->struct_size < sizeof *out)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_executable_sharding: NULL argument or short struct_size");
  const kiln_type *ft = kiln_func_type(x->function);
  int32_t n = result ? ft->func.num_results : ft->func.num_inputs;
  if (index < 0 || index >= n || partition < 0 || partition >= x->num_partitions)
    return KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "kiln_executable_sharding: no %s #%d of partition %d", result ? "result" : "input",
                       (int)index, (int)partition);
  const kiln_type *t = result ? ft->func.results[index] : ft->func.inputs[index];
  const kiln_sharding *s = x->num_partitions > 1 ? (result ? x->plan.results : x->plan.args)[index] : NULL;
  size_t size = out->struct_size;
  memset(out, 0, size);
  out->struct_size = size;
  out->rank = kiln_type_is_tensor(t) ? t->tensor.rank : 0;
  int64_t coords[KILN_SPMD_MAX_AXES];
  if (s && !kiln_mesh_coords(s->mesh, partition, coords)) s = NULL; /* a mesh of one device */
  for (int32_t d = 0; d < out->rank; d++) {
    out->parts[d] = s ? kiln_sharding_parts(s, d) : 1;
    out->block[d] = s ? kiln_sharding_block(s, d, coords) : 0;
  }
  out->partials = 1;
  for (int32_t k = 0; s && k < s->num_unreduced; k++) { /* mixed radix over the unreduced factors */
    const kiln_axis_ref *r = &s->unreduced[k];
    out->partials *= r->size;
    out->partial_index = out->partial_index * r->size + coords[r->axis] / r->pre_size % r->size;
  }
  return NULL;
}

kiln_status kiln_executable_function(const kiln_executable *x, kiln_function_info *out_info) {
  if (!x) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_executable_function: executable is NULL");
  return kiln_function_info_fill(x->function, out_info);
}

kiln_status kiln_executable_stats(const kiln_executable *x, kiln_executable_stats_info *out_stats) {
  if (!x || !out_stats) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_executable_stats: NULL argument");
  size_t first = offsetof(kiln_executable_stats_info, code_bytes) + sizeof(uint64_t); /* the first version's size */
  if (out_stats->struct_size < first)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_executable_stats: struct_size is %zu, at least %zu expected",
                       out_stats->struct_size, first);
  kiln_backend_executable_stats bs = {.struct_size = sizeof bs};
  const kiln_backend *b = kiln_device_backend(x->device);
  if (b->executable_stats) KILN_RETURN_IF_ERROR(b->executable_stats(x->impl, &bs));
  kiln_executable_stats_info s = {
      .struct_size = sizeof s,
      .reported = b->executable_stats != NULL,
      .temporary_bytes = bs.temporary_bytes,
      .constant_bytes = bs.constant_bytes,
      .code_bytes = bs.code_bytes,
      .code_cache_hits = bs.code_cache_hits,
      .code_cache_misses = bs.code_cache_misses,
      .interpreted_ops = bs.interpreted_ops,
      .tier = bs.tier,
      .tier_pending = bs.tier_pending,
      .fast_start_runs = bs.fast_start_runs,
      .optimized_runs = bs.optimized_runs,
      .copies = bs.copies,
      .copy_bytes = bs.copy_bytes,
      .prepared_in_runs = bs.prepared_in_runs,
      .signatures = bs.signatures,
      .code_compiles = bs.code_compiles,
      .runs_narrowed = bs.runs_narrowed,
  };
  size_t caller_size = out_stats->struct_size; /* a newer caller's extra fields read as zero, an older one's end early */
  memset(out_stats, 0, caller_size);
  memcpy(out_stats, &s, caller_size < sizeof s ? caller_size : sizeof s);
  out_stats->struct_size = caller_size;
  return NULL;
}

/* ------------------------------------------------------------------ execution */

static kiln_status execute_partitioned(kiln_executable *x, const kiln_execute_args *a, kiln_event **out_event);

static void describe_buffer(const kiln_buffer *b, char *buf, size_t cap) {
  int n = snprintf(buf, cap, "tensor<");
  for (int32_t i = 0; i < b->rank && n > 0 && (size_t)n < cap; i++)
    n += snprintf(buf + n, cap - (size_t)n, "%lldx", (long long)b->dims[i]);
  if (n > 0 && (size_t)n < cap) snprintf(buf + n, cap - (size_t)n, "%s>", kiln_element_type_name(b->element_type));
}

/* Whether buffer b may be passed for a parameter of type t. */
static bool fits(const kiln_buffer *b, const kiln_type *t) {
  if (t->kind == KILN_TYPE_TOKEN) return b->element_type == KILN_ELEMENT_TYPE_TOKEN;
  if (t->kind == KILN_TYPE_TUPLE) return b->element_type == KILN_ELEMENT_TYPE_TUPLE;
  if (!kiln_type_is_tensor(t) || b->rank != t->tensor.rank) return false;
  if (kiln_element_type_from_elem(kiln_type_elem(t)) != b->element_type) return false;
  for (int32_t i = 0; i < b->rank; i++)
    if (t->tensor.dims[i] != KILN_DIM_DYNAMIC && t->tensor.dims[i] != b->dims[i]) return false;
  return true;
}

static kiln_status check_inputs(const kiln_executable *x, const kiln_device *device, const kiln_execute_args *a) {
  const kiln_type *ft = kiln_func_type(x->function);
  const char *fn = kiln_func_name(x->function);
  if (a->num_inputs != ft->func.num_inputs)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "@%s takes %d inputs, %d given", fn, (int)ft->func.num_inputs,
                       (int)a->num_inputs);
  if (a->num_results != ft->func.num_results || (a->num_results && !a->out_results))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "@%s has %d results; out_results must have %d slots", fn,
                       (int)ft->func.num_results, (int)ft->func.num_results);
  if (a->num_inputs && !a->inputs) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "inputs is NULL");
  for (int32_t i = 0; i < a->num_inputs; i++) {
    const kiln_buffer *b = a->inputs[i];
    if (!b) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d is NULL", (int)i);
    if (b->device != device)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d is on %s; the executable runs on %s", (int)i,
                         b->device->name, device->name);
    if (!fits(b, ft->func.inputs[i])) {
      char want[256], got[256];
      kiln_type_to_string(ft->func.inputs[i], want, sizeof want);
      describe_buffer(b, got, sizeof got);
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d: @%s expects %s, got %s", (int)i, fn, want, got);
    }
  }
  return NULL;
}

/* A donated input passed again in the same call. */
static kiln_status check_donation(const kiln_execute_args *a) {
  for (int32_t i = 0; a->donate && i < a->num_inputs; i++) {
    if (!a->donate[i]) continue;
    for (int32_t j = 0; j < a->num_inputs; j++) {
      if (j == i || a->inputs[j] != a->inputs[i]) continue;
      if (a->donate[j] && j < i)
        return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "inputs #%d and #%d are the same buffer, donated twice",
                           (int)j, (int)i);
      if (!a->donate[j])
        return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d is donated and also passed undonated as input #%d",
                           (int)i, (int)j);
    }
  }
  return NULL;
}

/* Takes each input for the run: a use, or the claim of a donated one. On failure nothing
 * is held. */
static kiln_status hold_inputs(const kiln_execute_args *a) {
  kiln_status st = NULL;
  int32_t i = 0;
  for (; !st && i < a->num_inputs; i++) {
    char what[48];
    snprintf(what, sizeof what, "input #%d", (int)i);
    st = a->donate && a->donate[i] ? kiln_buffer_claim(a->inputs[i], what) : kiln_buffer_use(a->inputs[i], what);
  }
  if (st)
    for (int32_t j = 0; j < i - 1; j++) {
      if (a->donate && a->donate[j]) kiln_buffer_unclaim(a->inputs[j]);
      else kiln_buffer_unuse(a->inputs[j]);
    }
  return st;
}

/* Ends the holds of hold_inputs once the device has been called: a donated input is
 * consumed, whatever the run's outcome. */
static void drop_inputs(const kiln_execute_args *a) {
  for (int32_t i = 0; i < a->num_inputs; i++) {
    if (a->donate && a->donate[i]) kiln_buffer_consume(a->inputs[i]);
    else kiln_buffer_unuse(a->inputs[i]);
  }
}

kiln_status kiln_executable_execute(kiln_executable *x, const kiln_execute_args *args, kiln_event **out_event) {
  if (!out_event) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_executable_execute: out_event is NULL");
  *out_event = NULL;
  if (!x || !args) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_executable_execute: executable and args are required");
  kiln_execute_args a;
  KILN_RETURN_IF_ERROR(kiln_args_copy(&a, sizeof a, args, "kiln_execute_args"));
  if (x->num_partitions > 1) return execute_partitioned(x, &a, out_event);
  KILN_RETURN_IF_ERROR(check_inputs(x, x->device, &a));
  KILN_RETURN_IF_ERROR(check_donation(&a));
  for (int32_t i = 0; i < a.num_inputs; i++) /* inputs still being written by another run */
    if (a.inputs[i]->ready) KILN_RETURN_IF_ERROR(kiln_event_wait(a.inputs[i]->ready));
  kiln_backend_buffer **ins = kiln_fault_calloc((size_t)a.num_inputs + 1, sizeof *ins);
  kiln_backend_buffer **outs = kiln_fault_calloc((size_t)a.num_results + 1, sizeof *outs);
  kiln_event *e = kiln_event_new(x->client);
  kiln_status st = ins && outs && e ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  const kiln_backend *b = kiln_device_backend(x->device);
  if (!st) st = hold_inputs(&a);
  if (!st) {
    for (int32_t i = 0; i < a.num_inputs; i++) ins[i] = a.inputs[i]->impl;
    kiln_backend_execute_args ba = {sizeof ba, ins, a.num_inputs, outs, a.num_results, a.flags, NULL, e, &e->impl,
                                    a.donate, 0, 1, NULL, NULL};
    if (a.flags & KILN_EXECUTE_COLLECT_CHECKS) ba.report_checks = kiln_event_report_checks;
    st = b->execute(x->impl, &ba);
    drop_inputs(&a);
    if (!st && e->impl && !b->event_wait) st = KILN_STATUS(KILN_STATUS_INTERNAL, "the plugin returned an event but has no event functions");
  }
  int32_t made = 0; /* results wrapped so far */
  while (!st && made < a.num_results) {
    kiln_backend_buffer *impl = outs[made];
    outs[made] = NULL; /* kiln_buffer_wrap takes it, or destroys it on failure */
    if (!impl) st = KILN_STATUS(KILN_STATUS_INTERNAL, "the plugin gave no result #%d", (int)made);
    else st = kiln_buffer_wrap(x->device, impl, e->impl ? e : NULL, &a.out_results[made]);
    if (!st) made++;
  }
  if (st) {
    for (int32_t i = 0; i < made; i++) { /* undo: the caller gets nothing */
      kiln_buffer_release(a.out_results[i]);
      a.out_results[i] = NULL;
    }
    for (int32_t i = made; outs && i < a.num_results; i++)
      if (outs[i]) b->buffer_destroy(outs[i]);
    kiln_event_release(e);
    e = NULL;
  }
  free(ins);
  free(outs);
  *out_event = e;
  return st;
}

/* ------------------------------------------------------------------ sharded runs */

/* One partition's run, on a thread of its own (partition 0 on the caller's). */
typedef struct part_run {
  kiln_executable *x;
  kiln_backend_execute_args ba;
  kiln_backend_event *event;
  kiln_status st;
  pthread_t thread;
  bool started;
} part_run;

/* The launch: workers wait until every thread exists (go), or leave without running when
 * one could not be made (abort), so that no partition waits for one that never runs. */
typedef struct launch {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool go, abort;
} launch;

static void run_one(part_run *r) {
  const kiln_backend *b = kiln_device_backend(r->x->device);
  r->st = b->execute(r->x->impl, &r->ba);
  if (!r->st && r->event) { /* an asynchronous device: the launch ends when every run has */
    r->st = b->event_wait(r->event);
    b->event_destroy(r->event);
    r->event = NULL;
  }
}

typedef struct worker_arg {
  launch *l;
  part_run *r;
} worker_arg;

static void *worker_main(void *arg) {
  worker_arg *w = arg;
  pthread_mutex_lock(&w->l->mu);
  while (!w->l->go && !w->l->abort) pthread_cond_wait(&w->l->cv, &w->l->mu);
  bool run = !w->l->abort;
  pthread_mutex_unlock(&w->l->mu);
  if (run) run_one(w->r);
  return NULL;
}

/* Checks, holds and row views of this process's partitions' inputs (rows[k]: partition
 * x->first_local + k). */
static kiln_status partition_rows(const kiln_executable *x, const kiln_execute_args *a, kiln_execute_args *rows) {
  for (int32_t k = 0; k < x->num_local; k++) {
    int32_t p = x->first_local + k;
    rows[k] = *a;
    rows[k].inputs = a->inputs + (size_t)p * (size_t)a->num_inputs;
    rows[k].out_results = a->out_results + (size_t)p * (size_t)a->num_results;
    rows[k].donate = a->donate ? a->donate + (size_t)p * (size_t)a->num_inputs : NULL;
    kiln_status st = check_inputs(x, x->devices[p], &rows[k]);
    if (!st) st = check_donation(&rows[k]);
    if (st) {
      kiln_status located = KILN_STATUS(kiln_status_code_of(st), "partition %d: %s", (int)p, kiln_status_message(st));
      kiln_status_free(st);
      return located;
    }
  }
  for (int32_t k = 0; k < x->num_local; k++)
    for (int32_t i = 0; i < rows[k].num_inputs; i++)
      if (rows[k].inputs[i]->ready) KILN_RETURN_IF_ERROR(kiln_event_wait(rows[k].inputs[i]->ready));
  return NULL;
}

/* Starts partitions 1.. on threads of their own and runs partition 0 here. */
static kiln_status launch_runs(part_run *runs, int32_t n) {
  launch l = {.go = false};
  pthread_mutex_init(&l.mu, NULL);
  pthread_cond_init(&l.cv, NULL);
  worker_arg *args = calloc((size_t)n, sizeof *args);
  kiln_status st = args ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t p = 1; !st && p < n; p++) {
    args[p] = (worker_arg){&l, &runs[p]};
    int rc = pthread_create(&runs[p].thread, NULL, worker_main, &args[p]);
    if (rc) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cannot start a thread for partition %d (error %d)", (int)p, rc);
    else runs[p].started = true;
  }
  pthread_mutex_lock(&l.mu);
  if (st) l.abort = true;
  else l.go = true;
  pthread_cond_broadcast(&l.cv);
  pthread_mutex_unlock(&l.mu);
  if (!st) run_one(&runs[0]);
  for (int32_t p = 1; p < n; p++)
    if (runs[p].started) pthread_join(runs[p].thread, NULL);
  pthread_cond_destroy(&l.cv);
  pthread_mutex_destroy(&l.mu);
  free(args);
  return st;
}

static kiln_status execute_partitioned(kiln_executable *x, const kiln_execute_args *a, kiln_event **out_event) {
  int32_t n = x->num_local, ni = a->num_inputs, nr = a->num_results, first = x->first_local;
  const kiln_backend *b = kiln_device_backend(x->device);
  kiln_execute_args *rows = calloc((size_t)n, sizeof *rows);
  part_run *runs = calloc((size_t)n, sizeof *runs);
  kiln_backend_buffer **ins = kiln_fault_calloc((size_t)n * (size_t)ni + 1, sizeof *ins);
  kiln_backend_buffer **outs = kiln_fault_calloc((size_t)n * (size_t)nr + 1, sizeof *outs);
  kiln_event *e = kiln_event_new(x->client);
  kiln_status st = rows && runs && ins && outs && e ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st && ((ni && !a->inputs) || (nr && !a->out_results)))
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "inputs and out_results are required");
  if (!st) st = partition_rows(x, a, rows);
  int32_t held = 0; /* rows whose inputs are held (hold_inputs holds nothing of a row it fails on) */
  while (!st && held < n && !(st = hold_inputs(&rows[held]))) held++;
  kiln_backend_group *group = NULL;
  bool called = false; /* the device was called: donated inputs are consumed */
  if (!st)
    st = x->wire ? b->group_create_spanning(x->num_partitions, first, n, x->wire, kiln_wire_timeout_s(), &group)
                 : b->group_create(x->num_partitions, &group);
  if (!st) {
    for (int32_t k = 0; k < n; k++) {
      int32_t p = first + k;
      for (int32_t i = 0; i < ni; i++) ins[(size_t)k * ni + i] = rows[k].inputs[i]->impl;
      runs[k].x = x;
      runs[k].ba = (kiln_backend_execute_args){sizeof runs[k].ba, ins + (size_t)k * ni, ni, outs + (size_t)k * nr, nr,
                                               k == 0 ? a->flags : a->flags & ~KILN_EXECUTE_COLLECT_CHECKS, NULL, e,
                                               &runs[k].event, rows[k].donate, p, x->num_partitions, group,
                                               x->devices[p]->impl};
      if (k == 0 && (a->flags & KILN_EXECUTE_COLLECT_CHECKS)) runs[k].ba.report_checks = kiln_event_report_checks;
    }
    st = launch_runs(runs, n);
    called = !st;
    for (int32_t k = 0; !st && k < n; k++) { /* the first partition's error is the cause */
      st = runs[k].st;
      runs[k].st = NULL;
    }
    for (int32_t k = 0; k < n; k++) kiln_status_free(runs[k].st);
    b->group_destroy(group);
  }
  for (int32_t k = 0; k < held; k++) {
    if (!called) { /* the device was never called: nothing is consumed */
      for (int32_t i = 0; i < ni; i++) {
        if (rows[k].donate && rows[k].donate[i]) kiln_buffer_unclaim(rows[k].inputs[i]);
        else kiln_buffer_unuse(rows[k].inputs[i]);
      }
    } else {
      drop_inputs(&rows[k]);
    }
  }
  kiln_buffer **results = a->out_results ? a->out_results + (size_t)first * (size_t)nr : NULL;
  size_t total = (size_t)n * (size_t)nr, made = 0;
  for (; !st && made < total; made++) {
    kiln_backend_buffer *impl = outs[made];
    outs[made] = NULL;
    if (!impl)
      st = KILN_STATUS(KILN_STATUS_INTERNAL, "the plugin gave no result #%d of partition %d", (int)(made % nr),
                       (int)(first + made / nr));
    else st = kiln_buffer_wrap(x->devices[first + made / nr], impl, NULL, &results[made]);
    if (st) break;
  }
  if (st) {
    for (size_t i = 0; results && i < made; i++) {
      kiln_buffer_release(results[i]);
      results[i] = NULL;
    }
    for (size_t i = made; outs && i < total; i++)
      if (outs[i]) b->buffer_destroy(outs[i]);
    kiln_event_release(e);
    e = NULL;
  } else if (x->wire) { /* the other processes' partitions' results are theirs */
    for (int32_t p = 0; p < x->num_partitions; p++)
      if (p < first || p >= first + n)
        for (int32_t j = 0; j < nr; j++) a->out_results[(size_t)p * (size_t)nr + (size_t)j] = NULL;
  }
  free(rows);
  free(runs);
  free(ins);
  free(outs);
  *out_event = e;
  return st;
}
