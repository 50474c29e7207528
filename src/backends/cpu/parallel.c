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

static void run_blocks(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs, int64_t first, int64_t last) {
  int64_t rows = steps[0].rows, block = steps[0].block_rows;
  for (int64_t b = first; b < last; b++) {
    int64_t r0 = b * block, r1 = r0 + block < rows ? r0 + block : rows;
    for (int32_t j = 0; j < n; j++) steps[j].fn(bufs[j], r0 * steps[j].row_points, r1 * steps[j].row_points);
  }
}

void kiln_cpu_parallel_rows(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs) {
  int64_t blocks = (steps[0].rows + steps[0].block_rows - 1) / steps[0].block_rows, work = 0;
  for (int32_t j = 0; j < n; j++) work += steps[j].work;
  int threads = omp_get_max_threads();
  if (work < MIN_PARALLEL_WORK || threads < 2 || blocks < 2 || omp_in_parallel()) {
    run_blocks(steps, n, bufs, 0, blocks);
    return;
  }
  int chunks = blocks < threads ? (int)blocks : threads;
#pragma omp parallel for num_threads(chunks) schedule(static)
  for (int c = 0; c < chunks; c++) run_blocks(steps, n, bufs, blocks * c / chunks, blocks * (c + 1) / chunks);
}
