/* The optimising CPU backend as a plugin (libkiln-cpu.so): one device, the host's cores,
 * or several sharing them (device.h); buffers are aligned host memory; a run finishes
 * before execute returns. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/device.h"
#include "backends/cpu/isa.h"
#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "backends/cpu/tier.h"
#include "backends/interp/collectives.h"
#include "backends/lapack/routines.h"
#include "base/fault.h"
#include "kiln/backend.h"
#include "runtime/element.h"

struct kiln_backend_buffer {
  kiln_cpu_tensor *tensor;
};

struct kiln_backend_executable {
  kiln_cpu_tiered *t;
  const kiln_backend_device *device; /* whose threads its runs use */
  /* what a run on all those threads takes (ns; a running average, 0: none yet), and the
   * runs made on fewer of them, the host being crowded (kiln_cpu_pool_run_threads) */
  _Atomic int64_t typical_ns;
  _Atomic uint64_t runs_narrowed;
};

/* An unknown KILN_CPU_ISA or KILN_CPU_TIER, or a bad KILN_CPU_THREADS or KILN_CPU_DEVICES,
 * passes the device over (with the reason) rather than being ignored. OpenBLAS, loaded
 * with the plugin, is held to the calling thread from here (its idle threads stopped). */
static kiln_status cpu_probe(void) {
  kiln_lapack_single_threaded();
  kiln_cpu_tier_mode mode;
  int32_t devices;
  kiln_status s = kiln_cpu_isa_setup(NULL);
  if (!s) s = kiln_cpu_tier_mode_from_env(&mode);
  if (!s) s = kiln_cpu_devices_wanted(&devices);
  return s ? s : kiln_cpu_pool_setup();
}

static kiln_status cpu_device_count(int32_t *out_count) { return kiln_cpu_devices_wanted(out_count); }

static kiln_status cpu_device_create(int32_t index, kiln_backend_device **out_device) {
  int32_t count;
  *out_device = NULL;
  KILN_RETURN_IF_ERROR(kiln_cpu_devices_wanted(&count));
  return kiln_cpu_device_create(index, count, out_device);
}

static kiln_status wrap(kiln_cpu_tensor *t, kiln_backend_buffer **out) {
  *out = kiln_fault_malloc(sizeof **out);
  if (!*out) {
    kiln_cpu_tensor_free(t);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  (*out)->tensor = t;
  return NULL;
}

static kiln_status cpu_buffer_create(kiln_backend_device *device, const kiln_backend_shape *shape, const void *data,
                                     size_t byte_size, kiln_backend_buffer **out_buffer) {
  *out_buffer = NULL;
  kiln_elem e = kiln_element_type_to_elem(shape->element_type);
  if (e == KILN_ELEM_COUNT)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu: no buffers of element type %d", (int)shape->element_type);
  kiln_cpu_tensor *t;
  KILN_RETURN_IF_ERROR(kiln_cpu_tensor_new(e, shape->rank, shape->dims, &t));
  if (byte_size) memcpy(t->data, data, byte_size);
  if ((size_t)kiln_elem_bits(e) < 8 * kiln_elem_storage_bytes(e)) { /* i1, sub-byte, tf32: canonical storage */
    size_t eb = kiln_elem_storage_bytes(e);
    for (uint64_t i = 0; i < t->bytes / eb; i++) {
      uint8_t *p = (uint8_t *)t->data + i * eb;
      kiln_scalar_store(e, p, kiln_scalar_load(e, p));
    }
  }
  return wrap(t, out_buffer);
}

static kiln_status cpu_buffer_shape(const kiln_backend_buffer *buffer, kiln_backend_shape *out_shape) {
  const kiln_cpu_tensor *t = buffer->tensor;
  if (t->hold && t->hold->kind != KILN_RTV_TENSOR)
    *out_shape = (kiln_backend_shape){t->hold->kind == KILN_RTV_TOKEN ? KILN_ELEMENT_TYPE_TOKEN : KILN_ELEMENT_TYPE_TUPLE, 0, NULL};
  else *out_shape = (kiln_backend_shape){kiln_element_type_from_elem(t->elem), t->rank, t->dims};
  return NULL;
}

static kiln_status cpu_buffer_to_host(kiln_backend_buffer *buffer, void *dst, size_t byte_size) {
  const kiln_cpu_tensor *t = buffer->tensor;
  if (!t || !t->data || byte_size != t->bytes) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu: the buffer does not hold %zu bytes", byte_size);
  if (byte_size) memcpy(dst, t->data, byte_size);
  return NULL;
}

/* Buffers are aligned host memory: the tensor's data is the contents. */
static kiln_status cpu_buffer_host_data(const kiln_backend_buffer *buffer, const void **out_data) {
  *out_data = buffer->tensor->data;
  return NULL;
}

static void cpu_buffer_destroy(kiln_backend_buffer *buffer) {
  if (!buffer) return;
  kiln_cpu_tensor_free(buffer->tensor);
  free(buffer);
}

static kiln_status cpu_compile(kiln_backend_device *device, const kiln_backend_compile_args *args,
                               kiln_backend_executable **out_executable) {
  *out_executable = NULL;
  /* a custom call of a target nothing implements (the cpu backend runs custom calls through
   * the interpreter's kernels) is refused now rather than when it runs */
  KILN_RETURN_IF_ERROR(kiln_interp_check_runnable(args->module, args->source, args->function));
  kiln_backend_executable *e = calloc(1, sizeof *e);
  if (!e) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = kiln_cpu_tiered_compile(args->module, args->source, args->function, &e->t);
  if (st) {
    free(e);
    return st;
  }
  e->device = device;
  *out_executable = e;
  return NULL;
}

static void cpu_executable_destroy(kiln_backend_executable *e) {
  if (!e) return;
  kiln_cpu_tiered_destroy(e->t);
  free(e);
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Folds a run on the device's threads into e's typical time: an average weighted 3:1
 * toward the past, so one stalled run moves it little. Runs at once may lose an update. */
static void note_run(kiln_backend_executable *e, int64_t ns) {
  int64_t was = atomic_load_explicit(&e->typical_ns, memory_order_relaxed);
  atomic_store_explicit(&e->typical_ns, was ? (3 * was + ns) / 4 : ns, memory_order_relaxed);
}

static kiln_status cpu_execute(kiln_backend_executable *e, const kiln_backend_execute_args *a) {
  kiln_cpu_tensor *in_small[16], *out_small[16];
  kiln_cpu_tensor **in = a->num_inputs <= 16 ? in_small : kiln_fault_calloc((size_t)a->num_inputs, sizeof *in);
  kiln_cpu_tensor **out = a->num_results <= 16 ? out_small : kiln_fault_calloc((size_t)a->num_results, sizeof *out);
  kiln_status st = in && out ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  /* a donated input's tensor may come back as a result (kiln_cpu_tensor.donated) */
  const bool *donated = a->struct_size >= offsetof(kiln_backend_execute_args, donated) + sizeof a->donated ? a->donated : NULL;
  bool marked = !st && donated;
  for (int32_t i = 0; !st && i < a->num_inputs; i++) {
    in[i] = a->inputs[i]->tensor;
    /* only a donated tensor is written: this run owns it alone (the runtime's claim), while
     * an undonated one may be another run's input at this moment */
    if (donated && donated[i]) in[i]->donated = true;
  }
  kiln_check_log log = {0};
  /* one partition of a launch runs on its own device's share of the cores */
  bool launch = a->struct_size >= offsetof(kiln_backend_execute_args, device) + sizeof a->device && a->device;
  kiln_interp_process before_process = kiln_interp_launch_begin(a);
  if (!st) {
    kiln_cpu_pool *pool = kiln_cpu_device_pool(launch ? a->device : e->device);
    kiln_cpu_pool *before = kiln_cpu_pool_bind(pool);
    pool = kiln_cpu_pool_shared();
    int32_t threads = kiln_cpu_pool_run_threads(pool, atomic_load_explicit(&e->typical_ns, memory_order_relaxed));
    int32_t cap = kiln_cpu_pool_limit(threads);
    int64_t t0 = now_ns();
    st = kiln_cpu_tiered_run(e->t, in, out, a->report_checks ? &log : NULL, NULL);
    kiln_cpu_pool_limit(cap);
    kiln_cpu_pool_bind(before);
    if (threads < kiln_cpu_pool_threads(pool)) atomic_fetch_add_explicit(&e->runs_narrowed, 1, memory_order_relaxed);
    else if (!st) note_run(e, now_ns() - t0);
  }
  kiln_interp_launch_end(a, before_process, st != NULL);
  for (int32_t i = 0; marked && i < a->num_inputs; i++) { /* a tensor a result took is the result's now */
    if (!donated[i]) continue;
    in[i]->donated = false;
    for (int32_t k = 0; !st && k < a->num_results; k++)
      if (out[k] == in[i]) a->inputs[i]->tensor = NULL;
  }
  if (!st && a->report_checks) a->report_checks(a->check_ctx, log.passed, log.failed, log.text.data ? log.text.data : "");
  int32_t made = 0; /* results wrapped; wrap frees the tensor it fails on */
  for (; !st && made < a->num_results; made++) st = wrap(out[made], &a->out_results[made]);
  if (st && made > 0) { /* a wrap failed: the results before it are freed, and those after it */
    for (int32_t i = 0; i < made - 1; i++) {
      cpu_buffer_destroy(a->out_results[i]);
      a->out_results[i] = NULL;
    }
    for (int32_t i = made; i < a->num_results; i++) kiln_cpu_tensor_free(out[i]);
  }
  kiln_check_log_free(&log);
  if (in != in_small) free(in);
  if (out != out_small) free(out);
  return st;
}

/* Whether the runtime's struct (a runtime older than the plugin has a shorter one) has field. */
#define HAS_FIELD(out, field) ((out)->struct_size >= offsetof(kiln_backend_executable_stats, field) + sizeof (out)->field)

static kiln_status cpu_executable_stats(const kiln_backend_executable *e, kiln_backend_executable_stats *out) {
  kiln_cpu_tier_info tier;
  const kiln_cpu_executable *x = kiln_cpu_tiered_current(e->t, &tier);
  out->temporary_bytes = x->arena_bytes;
  out->constant_bytes = x->constant_bytes;
  out->code_bytes = kiln_cpu_code_bytes(x->code);
  uint64_t hits = 0, misses = 0;
  kiln_cpu_code_cache_counts(x, &hits, &misses);
  if (HAS_FIELD(out, code_cache_misses)) {
    out->code_cache_hits = hits;
    out->code_cache_misses = misses;
  }
  if (HAS_FIELD(out, interpreted_ops)) out->interpreted_ops = kiln_cpu_interpreted_ops(x);
  if (HAS_FIELD(out, copy_bytes)) kiln_cpu_copy_counts(x, &out->copies, &out->copy_bytes);
  if (HAS_FIELD(out, prepared_in_runs)) out->prepared_in_runs = kiln_cpu_prepared_in_runs(x);
  if (HAS_FIELD(out, runs_narrowed)) out->runs_narrowed = atomic_load_explicit(&e->runs_narrowed, memory_order_relaxed);
  if (HAS_FIELD(out, code_compiles) && x->specs) kiln_cpu_specs_counts(x->specs, &out->signatures, &out->code_compiles);
  if (HAS_FIELD(out, optimized_runs)) {
    out->tier = tier.optimized ? KILN_TIER_OPTIMIZED : tier.quick ? KILN_TIER_QUICK : KILN_TIER_FAST_START;
    out->tier_pending = tier.pending;
    out->fast_start_runs = tier.baseline_runs;
    out->optimized_runs = tier.optimized_runs;
  }
  return NULL;
}

/* The compile thread, the pool's threads stop and the cached tensor memory and the
 * converts' tables go back when the plugin is unloaded. */
__attribute__((destructor)) static void cpu_unload(void) {
  kiln_cpu_tier_shutdown();
  kiln_cpu_pool_shutdown();
  kiln_host_cache_release();
  kiln_cpu_convert_release();
}

static const kiln_backend k_cpu = {
    .api_version = KILN_BACKEND_API_VERSION,
    .struct_size = sizeof(kiln_backend),
    .name = "cpu",
    .description = "the optimising CPU compiler (LLVM loops, oneDNN)",
    .probe = cpu_probe,
    .device_count = cpu_device_count,
    .device_create = cpu_device_create,
    .device_description = kiln_cpu_device_description,
    .device_destroy = kiln_cpu_device_destroy,
    .buffer_create = cpu_buffer_create,
    .buffer_shape = cpu_buffer_shape,
    .buffer_to_host = cpu_buffer_to_host,
    .buffer_destroy = cpu_buffer_destroy,
    .compile = cpu_compile,
    .executable_destroy = cpu_executable_destroy,
    .execute = cpu_execute,
    .executable_stats = cpu_executable_stats,
    .buffer_host_data = cpu_buffer_host_data,
    .device_create_of = kiln_cpu_device_create,
    .group_create = kiln_interp_launch_group_create,
    .group_create_spanning = kiln_interp_launch_group_create_spanning,
    .group_destroy = kiln_interp_launch_group_destroy,
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_cpu; }
