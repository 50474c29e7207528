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

kiln_status kiln_program_compile(kiln_program *p, kiln_device *device, const kiln_compile_options *options,
                                 kiln_executable **out_executable) {
  if (!out_executable) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_compile: out_executable is NULL");
  *out_executable = NULL;
  if (!p || !device) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_compile: program and device are required");
  kiln_compile_options o;
  KILN_RETURN_IF_ERROR(kiln_args_copy(&o, sizeof o, options, "kiln_compile_options"));
  const char *name = o.function ? o.function : "main";
  const kiln_op *f = NULL;
  for (int32_t i = 0; !f && i < p->num_functions; i++)
    if (!strcmp(kiln_func_name(p->functions[i]), name)) f = p->functions[i];
  if (!f) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", p->name, name);
  kiln_executable *x = calloc(1, sizeof *x);
  if (!x) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_cache_key(x, p, name, device);
  if ((*out_executable = kiln_cache_find(x))) { /* compiled before: share it */
    free(x);
    return NULL;
  }
  kiln_backend_compile_args args = {sizeof args, p->module, &p->source, f};
  pthread_mutex_lock(&p->compile_mu);
  kiln_status st = kiln_device_backend(device)->compile(device->impl, &args, &x->impl);
  pthread_mutex_unlock(&p->compile_mu);
  if (st) {
    free(x);
    return st;
  }
  atomic_init(&x->refs, 1);
  x->program = kiln_program_retain(p);
  x->device = device;
  x->client = kiln_client_retain(device->client);
  x->function = f;
  *out_executable = kiln_cache_insert(x);
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
  kiln_program_release(x->program);
  kiln_client_release(x->client);
  free(x);
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
  };
  size_t caller_size = out_stats->struct_size; /* a newer caller's extra fields read as zero, an older one's end early */
  memset(out_stats, 0, caller_size);
  memcpy(out_stats, &s, caller_size < sizeof s ? caller_size : sizeof s);
  out_stats->struct_size = caller_size;
  return NULL;
}

/* ------------------------------------------------------------------ execution */

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

static kiln_status check_inputs(const kiln_executable *x, const kiln_execute_args *a) {
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
    if (b->device != x->device)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d is on %s; the executable runs on %s", (int)i,
                         b->device->name, x->device->name);
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
  KILN_RETURN_IF_ERROR(check_inputs(x, &a));
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
                                    a.donate};
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
