/* PJRT_LoadedExecutable_Execute: one device per call (num_devices 1), on execute_device
 * when given (EXLA's portable executables) or the executable's own device (JAX). The run
 * happens inside the call; what fails before it starts (argument count, shapes, types,
 * deleted buffers) is the call's error, what fails while it runs comes back through the
 * completion event, every output's ready event and ToHostBuffer. */
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
  return NULL;
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

static void destroy_outputs(PJRT_Buffer **outputs, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    PJRT_Buffer_Destroy_Args d = {.struct_size = sizeof d, .buffer = outputs[i]};
    kiln_pjrt_Buffer_Destroy(&d);
    outputs[i] = NULL;
  }
}

static kiln_status execute(PJRT_LoadedExecutable_Execute_Args *args, PJRT_Event **out_done) {
  PJRT_LoadedExecutable *lx = args->executable;
  PJRT_Executable *x = lx->exec;
  if (atomic_load(&lx->deleted)) return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "the executable has been deleted");
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
  kiln_executable *kx = NULL;
  kiln_event *ke = NULL;
  kiln_status st = inputs && results ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = take_inputs(args->argument_lists[0], args->num_args, device, inputs);
  if (!st) st = kiln_pjrt_executable_for(x, device, &kx);
  if (!st) {
    kiln_execute_args ea = {sizeof ea, inputs, n_in, results, n_out, 0};
    st = kiln_executable_execute(kx, &ea, &ke);
  }
  for (int32_t i = 0; inputs && i < n_in; i++) kiln_buffer_release(inputs[i]);
  free(inputs);
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
  PJRT_Event *done = NULL;
  kiln_status st = execute(args, &done);
  if (st) return KILN_PJRT_FAIL(st);
  if (args->device_complete_events)
    args->device_complete_events[0] = done;
  else
    kiln_pjrt_event_release(done);
  return NULL;
}
