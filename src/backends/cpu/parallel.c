/* Splitting loop kernels over the cores with OpenMP: the same runtime (libgomp) oneDNN
 * uses, so there is one pool of threads. Small work runs on the calling thread: a
 * parallel region costs a few microseconds. */
#include <omp.h>

#include "backends/cpu/cpu.h"

enum { MIN_PARALLEL_WORK = 1 << 15 };

void kiln_cpu_parallel_for(kiln_cpu_loop_fn fn, void *const *bufs, int64_t points, int64_t work) {
  int threads = omp_get_max_threads();
  if (work < MIN_PARALLEL_WORK || threads < 2 || points < 2 || omp_in_parallel()) {
    fn(bufs, 0, points);
    return;
  }
  int chunks = points < threads ? (int)points : threads;
#pragma omp parallel for num_threads(chunks) schedule(static)
  for (int c = 0; c < chunks; c++) fn(bufs, points * c / chunks, points * (c + 1) / chunks);
}
