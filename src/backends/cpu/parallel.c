/* Splitting loop kernels over the threads of the backend's pool (pool.h): the output
 * points (or row blocks) are cut into the chunks the pool's cost model asks for; small
 * work runs on the calling thread with no synchronisation. */
#include "backends/cpu/cpu.h"
#include "backends/cpu/pool.h"

typedef struct points_job {
  kiln_cpu_loop_fn fn;
  void *const *bufs;
  int64_t points, grain, units; /* units: grains, the last one possibly short */
  int32_t chunks;
} points_job;

static void run_points(void *ctx, int32_t c, int32_t thread) {
  const points_job *j = ctx;
  int64_t first = j->units * c / j->chunks * j->grain, last = j->units * (c + 1) / j->chunks * j->grain;
  j->fn(j->bufs, first, last < j->points ? last : j->points);
}

void kiln_cpu_parallel_for(kiln_cpu_loop_fn fn, void *const *bufs, int64_t points, int64_t grain, int64_t work) {
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  if (grain < 1) grain = 1;
  int64_t units = points / grain + (points % grain != 0);
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, units);
  if (chunks < 2) {
    fn(bufs, 0, points);
    return;
  }
  points_job j = {fn, bufs, points, grain, units, chunks};
  kiln_cpu_pool_run(pool, chunks, work, run_points, &j);
}

typedef struct rows_job {
  const kiln_cpu_step *steps;
  int32_t n;
  void *const *const *bufs;
  int64_t blocks;
  int32_t chunks;
} rows_job;

static void run_blocks(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs, int64_t first, int64_t last) {
  int64_t rows = steps[0].rows, block = steps[0].block_rows;
  for (int64_t b = first; b < last; b++) {
    int64_t r0 = b * block, r1 = r0 + block < rows ? r0 + block : rows;
    for (int32_t j = 0; j < n; j++) steps[j].fn(bufs[j], r0 * steps[j].row_points, r1 * steps[j].row_points);
  }
}

static void run_rows(void *ctx, int32_t c, int32_t thread) {
  const rows_job *j = ctx;
  run_blocks(j->steps, j->n, j->bufs, j->blocks * c / j->chunks, j->blocks * (c + 1) / j->chunks);
}

void kiln_cpu_parallel_rows(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs) {
  int64_t blocks = (steps[0].rows + steps[0].block_rows - 1) / steps[0].block_rows, work = 0;
  for (int32_t j = 0; j < n; j++) work += steps[j].work;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, blocks);
  if (chunks < 2) {
    run_blocks(steps, n, bufs, 0, blocks);
    return;
  }
  rows_job j = {steps, n, bufs, blocks, chunks};
  kiln_cpu_pool_run(pool, chunks, work, run_rows, &j);
}
