/* The host's load (see load.h). */
#include "backends/cpu/load.h"

#include <stdio.h>

int32_t kiln_cpu_load_running(const char *text) {
  double a, b, c;
  int running, total;
  if (sscanf(text, "%lf %lf %lf %d/%d", &a, &b, &c, &running, &total) != 5 || running < 0) return -1;
  return (int32_t)running;
}

bool kiln_cpu_load_due(kiln_cpu_load *l, int64_t now_ns) {
  int64_t due = atomic_load_explicit(&l->next_ns, memory_order_relaxed);
  return now_ns >= due && atomic_compare_exchange_strong(&l->next_ns, &due, now_ns + KILN_CPU_LOAD_PERIOD_NS);
}

void kiln_cpu_load_note(kiln_cpu_load *l, int32_t others) {
  uint32_t at = atomic_fetch_add_explicit(&l->count, 1, memory_order_relaxed);
  atomic_store_explicit(&l->others[at % KILN_CPU_LOAD_SAMPLES], others < 0 ? 0 : others, memory_order_relaxed);
}

double kiln_cpu_load_others(const kiln_cpu_load *l) {
  if (atomic_load_explicit(&l->count, memory_order_relaxed) < KILN_CPU_LOAD_SAMPLES) return 0;
  int64_t sum = 0;
  for (int i = 0; i < KILN_CPU_LOAD_SAMPLES; i++) sum += atomic_load_explicit(&l->others[i], memory_order_relaxed);
  return (double)sum / KILN_CPU_LOAD_SAMPLES;
}

int32_t kiln_cpu_load_threads(int32_t host_cpus, double others, int32_t threads) {
  double left = (double)host_cpus - others + 0.5;
  return left < 1 ? 1 : left >= threads ? threads : (int32_t)left;
}
