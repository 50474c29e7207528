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

/* The grains points make, the last one possibly short. */
static int64_t units_of(int64_t points, int64_t grain) { return points / grain + (points % grain != 0); }

void kiln_cpu_parallel_for(kiln_cpu_loop_fn fn, void *const *bufs, int64_t points, int64_t grain, int64_t work) {
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  if (grain < 1) grain = 1;
  int64_t units = units_of(points, grain);
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, units);
  if (chunks < 2) {
    fn(bufs, 0, points);
    return;
  }
  points_job j = {fn, bufs, points, grain, units, chunks};
  kiln_cpu_pool_run(pool, chunks, work, run_points, &j);
}

bool kiln_cpu_parallel_alone(int64_t points, int64_t grain, int64_t work) {
  return kiln_cpu_pool_chunks(kiln_cpu_pool_shared(), work, units_of(points, grain < 1 ? 1 : grain)) < 2;
}

typedef struct rows_job {
  const kiln_cpu_step *steps;
  int32_t n;
  void *const *const *bufs;
  int64_t units, unit_rows; /* the rows in units of unit_rows, the last one possibly short */
  int32_t chunks;
} rows_job;

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Rows [first, last) of a run through all its steps, block_rows at a time, on thread
 * `thread` of the pool: the run's LOCAL values (tiling.c) in that thread's scratch, each
 * argument pointing at it moved so that the block's first row lands at its start. */
static void run_blocks(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs, int64_t first, int64_t last,
                       int32_t thread) {
  int64_t block = steps[0].block_rows;
  void *copy[KILN_CPU_MAX_RUN_ARGS];
  void *const *args[KILN_CPU_MAX_RUN];
  uintptr_t mine = (uintptr_t)thread * (uintptr_t)steps[0].block_stride;
  for (int32_t j = 0, at = 0; j < n; at += steps[j].num_values + 1, j++) {
    args[j] = bufs[j];
    if (!steps[0].block_stride) continue;
    for (int32_t k = 0; k <= steps[j].num_values; k++) copy[at + k] = bufs[j][k];
    args[j] = &copy[at];
  }
  for (int64_t r0 = first; r0 < last; r0 += block) {
    int64_t r1 = r0 + block < last ? r0 + block : last;
    for (int32_t j = 0; j < n; j++) {
      for (int32_t e = 0; e < steps[j].num_block_args; e++) { /* integer arithmetic: the pointer is out of its block */
        const kiln_cpu_block_arg *a = &steps[j].block_args[e];
        ((void **)args[j])[a->arg] = (void *)((uintptr_t)bufs[j][a->arg] + mine - (uintptr_t)(r0 * a->row_bytes));
      }
      steps[j].fn(args[j], r0 * steps[j].row_points, r1 * steps[j].row_points);
    }
  }
}

static void run_rows(void *ctx, int32_t c, int32_t thread) {
  const rows_job *j = ctx;
  int64_t rows = j->steps[0].rows, first = j->units * c / j->chunks * j->unit_rows,
          last = j->units * (c + 1) / j->chunks * j->unit_rows;
  run_blocks(j->steps, j->n, j->bufs, first, last < rows ? last : rows, thread);
}

/* The threads split the rows, not the blocks: a run whose rows all fit one block (the
 * outputs of a vector-matrix product, one point a row) still goes over the cores, in
 * pieces that are whole multiples of each step's grain (its vector width). */
void kiln_cpu_parallel_rows(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs) {
  int64_t rows = steps[0].rows, unit_rows = 1, work = 0;
  for (int32_t j = 0; j < n; j++) { /* unit_rows: the least count of rows whole in every step's grain */
    work += steps[j].work;
    int64_t g = steps[j].loop->grain > 1 ? steps[j].loop->grain : 1, need = g / gcd(g, steps[j].row_points);
    if (unit_rows < rows) unit_rows = unit_rows / gcd(unit_rows, need) * need;
  }
  if (unit_rows > rows) unit_rows = rows;
  int64_t units = (rows + unit_rows - 1) / unit_rows;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int32_t chunks = kiln_cpu_pool_chunks(pool, work, units);
  /* a pool of more threads than the run's LOCAL scratch has room for runs it on the caller */
  if (chunks < 2 || (steps[0].block_stride && kiln_cpu_pool_threads(pool) > steps[0].block_threads)) {
    run_blocks(steps, n, bufs, 0, rows, 0);
    return;
  }
  rows_job j = {steps, n, bufs, units, unit_rows, chunks};
  kiln_cpu_pool_run(pool, chunks, work, run_rows, &j);
}
