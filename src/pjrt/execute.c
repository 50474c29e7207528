/* PJRT_LoadedExecutable_Execute: one device per call (num_devices 1), on execute_device
 * when given (EXLA's portable executables) or the executable's own device (JAX); a
 * sharded executable runs on all its partitions' devices in one call (num_devices of them,
 * argument and output lists in partition order). The run
 * happens inside the call; what fails before it starts (argument count, shapes, types,
 * deleted buffers) is the call's error, what fails while it runs comes back through the
 * completion event, every output's ready event and ToHostBuffer. Arguments the program
 * marks as donated, but those the options name non-donatable, are consumed by the run
 * (Kiln's donation, kiln_execute_args.donate): deleted afterwards, as Buffer_Delete does. */
#include <stdlib.h>

#include "pjrt/pjrt.h"

/* The device this call runs on. */
static kiln_status run_device(PJRT_LoadedExecutable_Execute_Args *args, PJRT_Device **out) {
  PJRT_LoadedExecutable *lx = args->executable;
  PJRT_Device *given = KILN_PJRT_HAS(args, execute_device) ? args->execute_device : NULL;
  *out = lx->device;
  if (!given) return NULL;
  if (!kiln_pjrt_client_owns_device(lx->exec->client, given))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "execute_device is not a device of this client");
  if (given != lx->device && !lx->exec->portable)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "execute_device %d is not the device %d the executable was compiled for (compile a portable "
                       "executable to choose the device at run time)",
                       (int)given->id, (int)lx->device->id);
  *out = given;
  return kiln_pjrt_device_here(given, "execute_device");
}

/* Retains the kiln buffers of the arguments (on device, not deleted). */
static kiln_status take_inputs(PJRT_Buffer *const *list, size_t n, PJRT_Device *device, kiln_buffer **inputs) {
  for (size_t i = 0; i < n; i++) {
    if (!list[i]) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "argument %zu is NULL", i);
    if (list[i]->device != device)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "argument %zu is on device %d; the executable runs on device %d",
                         i, (int)list[i]->device->id, (int)device->id);
    kiln_status st = kiln_pjrt_buffer_get(list[i], &inputs[i]);
    if (st) {
      kiln_status_free(st);
      return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "argument %zu has been deleted", i);
    }
  }
  return NULL;
}

/* Wraps the results as PJRT buffers whose ready event is done (taken over one by one). */
static kiln_status wrap_outputs(PJRT_Device *device, kiln_buffer **results, int32_t n, PJRT_Event *done,
                                PJRT_Buffer **outputs) {
  kiln_status st = NULL;
  for (int32_t i = 0; i < n; i++) outputs[i] = NULL;
  for (int32_t i = 0; i < n; i++) {
    PJRT_Buffer_Type t;
    if (!st && (st = kiln_pjrt_type_from_kiln(kiln_buffer_element_type(results[i]), &t))) {
      kiln_status old = st;
      st = KILN_STATUS(kiln_status_code_of(old), "result %d: %s", (int)i, kiln_status_message(old));
      kiln_status_free(old);
    }
    if (st) {
      kiln_buffer_release(results[i]);
      continue;
    }
    st = kiln_pjrt_buffer_wrap(device, results[i], done, &outputs[i]);
  }
  return st;
}

/* Which arguments the run consumes: those the program marks as donors (JAX's
 * donate_argnums lowers to `tf.aliasing_output` / `jax.buffer_donor`) but the ones the
 * options name non-donatable (an array passed twice, ...). */
static kiln_status donations(PJRT_LoadedExecutable_Execute_Args *args, kiln_program *program, int32_t n, bool *donate) {
  for (int32_t i = 0; i < n; i++) KILN_RETURN_IF_ERROR(kiln_program_input_donor(program, "main", i, &donate[i]));
  const PJRT_ExecuteOptions *o = args->options;
  if (!o || !KILN_PJRT_HAS(o, num_non_donatable_input_indices) || !o->num_non_donatable_input_indices) return NULL;
  if (!o->non_donatable_input_indices)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "non_donatable_input_indices is NULL for %zu indices",
                       o->num_non_donatable_input_indices);
  for (size_t k = 0; k < o->num_non_donatable_input_indices; k++) {
    int64_t i = o->non_donatable_input_indices[k];
    if (i < 0 || i >= n)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "non_donatable_input_indices[%zu] is %lld; there are %d arguments",
                         k, (long long)i, (int)n);
    donate[i] = false;
  }
  return NULL;
}

/* The arguments the run consumed become deleted buffers (IsDeleted; later use fails). */
static void delete_donated(PJRT_Buffer *const *list, kiln_buffer *const *inputs, const bool *donate, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    if (!donate[i] || !inputs[i] || !kiln_buffer_is_donated(inputs[i])) continue;
    PJRT_Buffer *b = list[i];
    pthread_mutex_lock(&b->mu);
    kiln_buffer *kb = b->kiln == inputs[i] ? b->kiln : NULL;
    if (kb) b->kiln = NULL;
    pthread_mutex_unlock(&b->mu);
    kiln_buffer_release(kb);
  }
}

static void destroy_outputs(PJRT_Buffer **outputs, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    PJRT_Buffer_Destroy_Args d = {.struct_size = sizeof d, .buffer = outputs[i]};
    kiln_pjrt_Buffer_Destroy(&d);
    outputs[i] = NULL;
  }
}

/* A sharded executable: argument_lists[k] and output_lists[k] are those of this process's
 * k-th partition (all of them in one process), on its device; one run of every partition
 * at once (kiln_executable_execute; in a launch of several processes the others run theirs
 * at the same time and meet these in the collectives). */
static kiln_status execute_sharded(PJRT_LoadedExecutable_Execute_Args *args, PJRT_Event **done) {
  PJRT_Executable *x = args->executable->exec;
  int32_t first, count;
  kiln_executable_local_partitions(x->sharded, &first, &count);
  size_t n = (size_t)count, n_in = args->num_args, n_out = (size_t)x->num_outputs, all = (size_t)x->num_partitions;
  if (args->num_devices != n)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "num_devices is %zu; the executable runs on %zu devices",
                       args->num_devices, n);
  if (n_in > INT32_MAX || (int32_t)n_in != x->num_inputs)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "num_args is %zu; the program takes %d", n_in, (int)x->num_inputs);
  for (size_t p = 0; p < n; p++) {
    if ((n_in && (!args->argument_lists || !args->argument_lists[p])) ||
        (n_out && (!args->output_lists || !args->output_lists[p])))
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the argument or output list of device %zu is NULL", p);
  }
  /* kiln's rows are every partition's; only this process's are filled (the others' are not read) */
  kiln_buffer **all_inputs = calloc(all * n_in + 1, sizeof *all_inputs);
  kiln_buffer **all_results = calloc(all * n_out + 1, sizeof *all_results);
  bool *all_donate = calloc(all * n_in + 1, sizeof *all_donate);
  kiln_status st = all_inputs && all_results && all_donate ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_buffer **inputs = all_inputs ? all_inputs + (size_t)first * n_in : NULL;
  kiln_buffer **results = all_results ? all_results + (size_t)first * n_out : NULL;
  bool *donate = all_donate ? all_donate + (size_t)first * n_in : NULL;
  for (size_t p = 0; !st && p < n; p++) {
    st = take_inputs(args->argument_lists[p], n_in, x->partitions[first + p], inputs + p * n_in);
    if (!st) st = donations(args, x->program, (int32_t)n_in, donate + p * n_in);
  }
  kiln_event *ke = NULL;
  if (!st) {
    kiln_execute_args ea = {sizeof ea, all_inputs, (int32_t)n_in, all_results, (int32_t)n_out, 0, all_donate};
    st = kiln_executable_execute(x->sharded, &ea, &ke);
    for (size_t p = 0; p < n; p++) delete_donated(args->argument_lists[p], inputs + p * n_in, donate + p * n_in, (int32_t)n_in);
  }
  for (size_t i = 0; inputs && i < n * n_in; i++) kiln_buffer_release(inputs[i]);
  free(all_inputs);
  free(all_donate);
  if (!st) st = kiln_event_wait(ke); /* the partitions' runs have ended when execute returns */
  kiln_event_release(ke);
  for (size_t p = 0; !st && p < n; p++) {
    done[p] = kiln_pjrt_event_new();
    if (!done[p]) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    else kiln_pjrt_event_set(done[p], NULL);
  }
  size_t wrapped = 0;
  for (; !st && wrapped < n; wrapped++) {
    st = wrap_outputs(x->partitions[first + wrapped], results + wrapped * n_out, (int32_t)n_out, done[wrapped],
                      args->output_lists[wrapped]);
    for (size_t k = 0; k < n_out; k++) results[wrapped * n_out + k] = NULL; /* taken (or released) */
    if (st) destroy_outputs(args->output_lists[wrapped], (int32_t)n_out);
  }
  if (st) {
    for (size_t p = 0; p + 1 < wrapped; p++) destroy_outputs(args->output_lists[p], (int32_t)n_out);
    for (size_t i = 0; results && i < n * n_out; i++) kiln_buffer_release(results[i]);
    for (size_t p = 0; p < n; p++) {
      kiln_pjrt_event_release(done[p]);
      done[p] = NULL;
    }
  }
  free(all_results);
  return st;
}

static kiln_status execute(PJRT_LoadedExecutable_Execute_Args *args, PJRT_Event **out_done) {
  PJRT_LoadedExecutable *lx = args->executable;
  PJRT_Executable *x = lx->exec;
  if (atomic_load(&lx->deleted)) return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "the executable has been deleted");
  if (x->num_partitions > 1) return execute_sharded(args, out_done);
  if (args->num_devices != 1)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "num_devices is %zu; Kiln runs an executable on one device",
                       args->num_devices);
  if (!args->argument_lists || (args->num_args && !args->argument_lists[0]))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "argument_lists is NULL");
  /* a program without results may come with no output lists (JAX passes none) */
  if (x->num_outputs && (!args->output_lists || !args->output_lists[0]))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "output_lists is NULL");
  if (args->num_args > INT32_MAX) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "num_args is out of range");
  PJRT_Device *device = NULL;
  KILN_RETURN_IF_ERROR(run_device(args, &device));

  int32_t n_in = (int32_t)args->num_args, n_out = x->num_outputs;
  kiln_buffer **inputs = calloc((size_t)n_in + 1, sizeof *inputs);
  kiln_buffer **results = calloc((size_t)n_out + 1, sizeof *results);
  bool *donate = calloc((size_t)n_in + 1, sizeof *donate);
  kiln_executable *kx = NULL;
  kiln_event *ke = NULL;
  kiln_status st = inputs && results && donate ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = take_inputs(args->argument_lists[0], args->num_args, device, inputs);
  if (!st && n_in == x->num_inputs) st = donations(args, x->program, n_in, donate);
  if (!st) st = kiln_pjrt_executable_for(x, device, &kx);
  if (!st) {
    kiln_execute_args ea = {sizeof ea, inputs, n_in, results, n_out, 0, donate};
    st = kiln_executable_execute(kx, &ea, &ke);
    delete_donated(args->argument_lists[0], inputs, donate, n_in);
  }
  for (int32_t i = 0; inputs && i < n_in; i++) kiln_buffer_release(inputs[i]);
  free(inputs);
  free(donate);
  kiln_executable_release(kx);
  if (st) {
    free(results);
    return st;
  }
  /* the outputs are ready when the run is; its own error (of a device that runs
   * asynchronously) goes into that event */
  PJRT_Event *done = kiln_pjrt_event_new();
  PJRT_Buffer **outputs = n_out ? args->output_lists[0] : NULL;
  st = done ? wrap_outputs(device, results, n_out, done, outputs)
            : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!done)
    for (int32_t i = 0; i < n_out; i++) kiln_buffer_release(results[i]);
  free(results);
  if (st) {
    if (done) destroy_outputs(outputs, n_out);
    kiln_pjrt_event_release(done);
    kiln_status_free(kiln_event_wait(ke));
    kiln_event_release(ke);
    return st;
  }
  kiln_pjrt_event_set(done, kiln_event_wait(ke));
  kiln_event_release(ke);
  *out_done = done;
  return NULL;
}

PJRT_Error *kiln_pjrt_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, device_complete_events);
  KILN_PJRT_REQUIRE(args->executable, "executable is NULL");
  PJRT_Executable *x = args->executable->exec;
  int32_t first = 0, count = 1;
  if (x->num_partitions > 1) kiln_executable_local_partitions(x->sharded, &first, &count);
  size_t n = (size_t)count;
  PJRT_Event **done = calloc(n, sizeof *done);
  if (!done) return KILN_PJRT_FAIL(KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
  kiln_status st = execute(args, done);
  for (size_t p = 0; !st && p < n; p++) {
    if (args->device_complete_events)
      args->device_complete_events[p] = done[p];
    else
      kiln_pjrt_event_release(done[p]);
  }
  free(done);
  return st ? KILN_PJRT_FAIL(st) : NULL;
}
