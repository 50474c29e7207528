/* Runs of loop kernels that go row block by row block (see cpu.h): softmax and layernorm
 * are a few reductions and elementwise loops over the same rows; done one after the other
 * over the whole tensor, each streams it from memory again, while a block of rows taken
 * through all of them stays in cache: one pass over memory instead of four. */
#include <limits.h>
#include <stdlib.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/pool.h"

enum {
  BLOCK_BYTES = 48 * 1024,     /* about the L1 data cache */
  LOCAL_MAX_STRIDE = 1 << 20,  /* a thread's scratch of LOCAL values, at most: about an L2 cache */
};

/* A loop's rows: its first dim, when that is a kept (output) dim of more than one row. */
static bool loop_rows(const kiln_cpu_step *st, int64_t *rows, int64_t *pitch) {
  const kiln_cpu_loop *L = st->loop;
  if (st->kind != KILN_CPU_STEP_LOOP || L->fold || L->num_out_dims < 1 || L->dims[0] < 2 || st->points % L->dims[0]) return false;
  *rows = L->dims[0];
  *pitch = st->points / *rows;
  return true;
}

/* Whether a read through node x (a LOAD) of a value with `pitch` elements per row touches
 * only the row the reading loop is at. */
static bool same_row(const kiln_cpu_loop *L, const kiln_cpu_node *n, int64_t pitch) {
  if (n->strides[0] != pitch || n->base < 0) return false;
  int64_t last = n->base;
  for (int32_t d = 1; d < L->rank; d++) {
    if (n->strides[d] < 0) return false;
    last += n->strides[d] * (L->dims[d] - 1);
  }
  return last < pitch;
}

typedef struct run_scan {
  const kiln_cpu_executable *x;
  const kiln_cpu_step *step;
  const int32_t *producer; /* by value: the step of the current run that makes it, or -1 */
  const int64_t *pitch;    /* by step */
  int64_t rows;
  bool *seen; /* by node id: a loop's nodes form a DAG (shared subexpressions), visited once */
  bool ok;
} run_scan;

static void check_reads(run_scan *rs, const kiln_cpu_node *n) {
  if (!n || !rs->ok || rs->seen[n->id]) return;
  rs->seen[n->id] = true;
  if (n->kind == KILN_CPU_NODE_GATHER) rs->ok = false; /* its reads follow indices, not rows */
  if (n->kind == KILN_CPU_NODE_LOAD) {
    int32_t v = kiln_cpu_alias_base(rs->x, rs->step->values[n->input]);
    int32_t p = rs->producer[v];
    if (p >= 0 && !same_row(rs->step->loop, n, rs->pitch[p])) rs->ok = false;
  }
  for (int32_t i = 0; i < n->num_args; i++) check_reads(rs, n->args[i]);
}

void kiln_cpu_find_row_runs(kiln_cpu_executable *x) {
  int32_t *producer = malloc(sizeof *producer * ((size_t)x->num_slots + 1));
  int64_t *pitch = calloc((size_t)x->num_steps + 1, sizeof *pitch);
  if (!producer || !pitch) { /* not an error: the steps simply run one by one */
    free(producer), free(pitch);
    return;
  }
  for (int32_t v = 0; v < x->num_slots; v++) producer[v] = -1;
  int32_t start = 0;
  while (start < x->num_steps) {
    int64_t rows;
    if (!loop_rows(&x->steps[start], &rows, &pitch[start])) {
      start++;
      continue;
    }
    producer[kiln_cpu_alias_base(x, x->steps[start].values[x->steps[start].num_values - 1])] = start;
    int32_t end = start + 1;
    while (end < x->num_steps && end - start < KILN_CPU_MAX_RUN) {
      kiln_cpu_step *st = &x->steps[end];
      int64_t r;
      if (!loop_rows(st, &r, &pitch[end]) || r != rows) break;
      run_scan rs = {x, st, producer, pitch, rows, calloc((size_t)st->loop->num_nodes + 2, sizeof(bool)), true};
      if (!rs.seen) break; /* not an error: the run simply ends here */
      check_reads(&rs, st->loop->root);
      check_reads(&rs, st->loop->init);
      free(rs.seen);
      if (!rs.ok) break;
      producer[kiln_cpu_alias_base(x, st->values[st->num_values - 1])] = end;
      end++;
    }
    if (end - start > 1) {
      int64_t row_bytes = 0;
      for (int32_t i = start; i < end; i++)
        row_bytes += pitch[i] * (int64_t)kiln_elem_storage_bytes(x->steps[i].loop->out_elem);
      int64_t block = row_bytes > 0 ? BLOCK_BYTES / row_bytes : rows;
      x->steps[start].run_length = end - start;
      for (int32_t i = start; i < end; i++) {
        x->steps[i].rows = rows;
        x->steps[i].row_points = pitch[i];
        x->steps[i].block_rows = block < 1 ? 1 : block > rows ? rows : block;
      }
    }
    for (int32_t i = start; i < end; i++) producer[kiln_cpu_alias_base(x, x->steps[i].values[x->steps[i].num_values - 1])] = -1;
    start = end;
  }
  free(producer);
  free(pitch);
}

/* Makes the temporaries of the run of len steps at start that only the run touches LOCAL
 * (first and last: by value, the first and last step touching it, INT_MAX for a value
 * that must stay whole). */
static void localize(kiln_cpu_executable *x, int32_t start, int32_t len, const int32_t *first, const int32_t *last,
                     int32_t threads) {
  kiln_cpu_step *steps = &x->steps[start];
  int32_t local[KILN_CPU_MAX_RUN], n = 0, args = 0;
  int64_t row_bytes[KILN_CPU_MAX_RUN];
  uint64_t at[KILN_CPU_MAX_RUN], stride = 0, whole = 0;
  for (int32_t i = 0; i < len; i++) {
    args += steps[i].num_values + 1;
    int32_t v = steps[i].values[steps[i].num_values - 1];
    if (x->slots[v].store != KILN_CPU_STORE_TEMP || first[v] < start || last[v] >= start + len) continue;
    int64_t rb = steps[i].row_points * (int64_t)kiln_elem_storage_bytes(steps[i].loop->out_elem);
    uint64_t bytes = ((uint64_t)steps[0].block_rows * (uint64_t)rb + 63) & ~(uint64_t)63;
    if (stride + bytes > LOCAL_MAX_STRIDE) continue;
    local[n] = v;
    row_bytes[n] = rb;
    at[n++] = stride;
    stride += bytes;
    whole += (uint64_t)steps[i].rows * (uint64_t)rb;
  }
  /* every thread's scratch must be smaller than the temporaries whole */
  if (!n || args > KILN_CPU_MAX_RUN_ARGS || stride * (uint64_t)threads >= whole) return;
  kiln_cpu_block_arg *lists[KILN_CPU_MAX_RUN];
  int32_t counts[KILN_CPU_MAX_RUN];
  for (int32_t i = 0; i < len; i++) { /* made first: nothing changes when one cannot be */
    counts[i] = 0;
    lists[i] = kiln_arena_alloc_array(x->arena, (size_t)steps[i].num_values + 1, sizeof *lists[i]);
    if (!lists[i]) return;
    for (int32_t k = 0; k < steps[i].num_values; k++) {
      int32_t b = kiln_cpu_alias_base(x, steps[i].values[k]);
      for (int32_t j = 0; j < n; j++)
        if (local[j] == b) lists[i][counts[i]++] = (kiln_cpu_block_arg){k, row_bytes[j]};
    }
  }
  for (int32_t j = 0; j < n; j++) {
    x->slots[local[j]].store = KILN_CPU_STORE_LOCAL;
    x->slots[local[j]].index = local[0];
    x->slots[local[j]].offset = at[j];
  }
  x->slots[local[0]].bytes = stride * (uint64_t)threads;
  steps[0].block_stride = stride;
  steps[0].block_threads = threads;
  for (int32_t i = 0; i < len; i++) {
    steps[i].num_block_args = counts[i];
    steps[i].block_args = lists[i];
  }
}

void kiln_cpu_plan_block_locals(kiln_cpu_executable *x) {
  int32_t *first = malloc(sizeof *first * ((size_t)x->num_slots + 1));
  int32_t *last = malloc(sizeof *last * ((size_t)x->num_slots + 1));
  if (!first || !last) { /* not an error: the temporaries simply stay whole */
    free(first), free(last);
    return;
  }
  for (int32_t v = 0; v < x->num_slots; v++) first[v] = INT_MAX, last[v] = -1;
  for (int32_t s = 0; s < x->num_steps; s++)
    for (int32_t k = 0; k < x->steps[s].num_values; k++) {
      int32_t b = kiln_cpu_alias_base(x, x->steps[s].values[k]);
      if (first[b] > s) first[b] = s;
      if (last[b] < s) last[b] = s;
    }
  for (int32_t k = 0; k < x->num_results; k++) last[kiln_cpu_alias_base(x, x->result_values[k])] = INT_MAX;
  for (int32_t v = 0; v < x->num_slots; v++)
    if (x->slots[v].needs_rtv) last[kiln_cpu_alias_base(x, v)] = INT_MAX;
  int32_t threads = kiln_cpu_pool_part_threads(0, 1);
  for (int32_t s = 0, len; s < x->num_steps; s += len) {
    len = x->steps[s].kind == KILN_CPU_STEP_LOOP && x->steps[s].run_length > 1 ? x->steps[s].run_length : 1;
    if (len > 1) localize(x, s, len, first, last, threads);
  }
  free(first);
  free(last);
}
