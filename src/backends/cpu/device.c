/* The cpu backend's devices (see device.h). */
#include "backends/cpu/device.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/cpu/isa.h"

struct kiln_backend_device {
  int32_t index, count;
  char description[200];
};

kiln_status kiln_cpu_devices_wanted(int32_t *out_count) {
  *out_count = 1;
  const char *v = getenv("KILN_CPU_DEVICES");
  if (!v || !*v) return NULL;
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || *end || end == v || n < 1 || n > KILN_CPU_MAX_DEVICES)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu: KILN_CPU_DEVICES=%.40s: expected a device count from 1 to %d", v,
                       KILN_CPU_MAX_DEVICES);
  *out_count = (int32_t)n;
  return NULL;
}

kiln_status kiln_cpu_device_create(int32_t index, int32_t count, kiln_backend_device **out_device) {
  *out_device = NULL;
  if (count < 1 || count > KILN_CPU_MAX_DEVICES)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu: %d devices asked for; the cpu backend offers 1 to %d",
                       (int)count, KILN_CPU_MAX_DEVICES);
  if (index < 0 || index >= count)
    return KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "cpu: no device %d of %d", (int)index, (int)count);
  kiln_backend_device *d = calloc(1, sizeof *d);
  if (!d) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  d->index = index;
  d->count = count;
  /* the part's size, without starting it (a bad setting: the probe says so) */
  int32_t threads = kiln_cpu_pool_part_threads(index, count), all = kiln_cpu_pool_part_threads(0, 1);
  if (count == 1)
    snprintf(d->description, sizeof d->description, "host CPU, ISA %s (LLVM-generated loops, oneDNN, %d thread%s)",
             kiln_cpu_isa_describe(), (int)threads, threads == 1 ? "" : "s");
  else
    snprintf(d->description, sizeof d->description,
             "host CPU, one of %d devices, ISA %s (LLVM-generated loops, oneDNN, %d of %d thread%s)", (int)count,
             kiln_cpu_isa_describe(), (int)threads, (int)all, all == 1 ? "" : "s");
  *out_device = d;
  return NULL;
}

void kiln_cpu_device_destroy(kiln_backend_device *device) { free(device); }

const char *kiln_cpu_device_description(const kiln_backend_device *device) { return device->description; }

kiln_cpu_pool *kiln_cpu_device_pool(const kiln_backend_device *device) {
  return device->count > 1 ? kiln_cpu_pool_part(device->index, device->count) : NULL;
}
