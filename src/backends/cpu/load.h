/* The host's load, as the cpu backend's pool sees it: how many threads of other processes
 * (and other pools) keep the host's CPUs busy, sampled now and then from the kernel's count
 * of runnable threads (/proc/loadavg), so that a short run uses only the CPUs the others
 * leave free (pool.h, kiln_cpu_pool_run_threads).
 *
 * A sample is the count of runnable threads less the pool's own awake ones. One sample says
 * little (a kernel thread, a compiler job of a millisecond: on an idle 2-core VM, 3 samples
 * in 43 counted one thread too many), so the load is the mean of the last
 * KILN_CPU_LOAD_SAMPLES samples: a busy process counts about 1, a passing one little.
 * Samples are at least KILN_CPU_LOAD_PERIOD_NS apart, so the load follows a busy process
 * that starts or stops within about 40 ms (half the window).
 *
 * Thread-safety: a window may be noted into and read from any thread at once (atomics); a
 * reading may mix two samples' worth of a note in progress, which the mean tolerates. */
#ifndef KILN_BACKENDS_CPU_LOAD_H
#define KILN_BACKENDS_CPU_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum { KILN_CPU_LOAD_SAMPLES = 8 };
#define KILN_CPU_LOAD_PERIOD_NS ((int64_t)10000000)

/* The last samples of other threads runnable; zero-initialised means no sample yet. */
typedef struct kiln_cpu_load {
  _Atomic int64_t next_ns;  /* when the next sample is due (0: now) */
  _Atomic uint32_t count;   /* samples noted so far */
  _Atomic int32_t others[KILN_CPU_LOAD_SAMPLES];
} kiln_cpu_load;

/* The runnable threads /proc/loadavg's text gives (its fourth field, "running/total"); -1
 * when the text does not read so. */
int32_t kiln_cpu_load_running(const char *text);
/* Claims the sample due at now_ns: true for exactly one caller per period (it then reads
 * the count and notes it); false when the last sample is recent or another caller has
 * claimed this one. */
bool kiln_cpu_load_due(kiln_cpu_load *l, int64_t now_ns);
/* Notes a sample: others runnable threads (negative counts as 0). */
void kiln_cpu_load_note(kiln_cpu_load *l, int32_t others);
/* The load: the mean of the last KILN_CPU_LOAD_SAMPLES samples; 0 before that many have
 * been noted (a host not yet watched long enough counts as free). */
double kiln_cpu_load_others(const kiln_cpu_load *l);
/* How many of a pool's `threads` (the caller among them) to use on a host of host_cpus
 * CPUs that `others` threads keep busy: the CPUs left, rounded to the nearest, at least 1
 * and at most threads. */
int32_t kiln_cpu_load_threads(int32_t host_cpus, double others, int32_t threads);

#endif
