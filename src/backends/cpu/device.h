/* The cpu backend's devices: the host's cores as one device, or shared out among several.
 *
 * KILN_CPU_DEVICES=N (1 to KILN_CPU_MAX_DEVICES; default 1), or a client's num_devices
 * (kiln_client_options, which wins), makes N devices, as XLA's
 * --xla_force_host_platform_device_count does. Device k of N runs on part k of the thread
 * pool (kiln_cpu_pool_part): threads / N threads, one more for k < threads % N, at least one.
 * So N devices running at once (the shards of one sharded program) use each core once: a
 * run binds its device's part for its duration (kiln_cpu_pool_bind), and every parallel
 * step of it runs there. One device alone then has only its share, as on XLA:CPU with a
 * forced device count. With N = 1 the device runs on the process's pool, as it always did.
 *
 * Devices hold no memory of their own: buffers are host memory, and the runtime keeps
 * which device each buffer and executable belongs to.
 *
 * Thread-safety: everything may be called from any thread; a device is immutable. */
#ifndef KILN_BACKENDS_CPU_DEVICE_H
#define KILN_BACKENDS_CPU_DEVICE_H

#include "backends/cpu/pool.h"
#include "kiln/backend.h"

enum { KILN_CPU_MAX_DEVICES = KILN_CPU_POOL_MAX_THREADS };

/* The device count KILN_CPU_DEVICES asks for (1 when unset or empty); INVALID_ARGUMENT,
 * naming the variable and the value, for one that is not an integer in
 * [1, KILN_CPU_MAX_DEVICES]. Reads the environment each call. */
kiln_status kiln_cpu_devices_wanted(int32_t *out_count);

/* Device index of count (the plugin's device_create_of): INVALID_ARGUMENT for a count
 * outside [1, KILN_CPU_MAX_DEVICES] or an index outside [0, count). The caller owns the
 * device (kiln_cpu_device_destroy). */
kiln_status kiln_cpu_device_create(int32_t index, int32_t count, kiln_backend_device **out_device);
void kiln_cpu_device_destroy(kiln_backend_device *device);

/* "host CPU, ISA avx512 (LLVM-generated loops, oneDNN, 2 threads)"; with several devices
 * "host CPU, one of 4 devices, ISA ... (..., 1 of 2 threads)". Borrowed from the device. */
const char *kiln_cpu_device_description(const kiln_backend_device *device);

/* The pool the device's runs bind (kiln_cpu_pool_bind): its part, or NULL (the process's
 * pool) when it is the only device. */
kiln_cpu_pool *kiln_cpu_device_pool(const kiln_backend_device *device);

#endif
