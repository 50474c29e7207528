/* Runs of loop kernels that go row block by row block (see cpu.h): softmax and layernorm
 * are a few reductions and elementwise loops over the same rows; done one after the other
 * over the whole tensor, each streams it from memory again, while a block of rows taken
 * through all of them stays in cache: one pass over memory instead of four. */
#include <stdlib.h>

#include "backends/cpu/cpu.h"

enum { BLOCK_BYTES = 48 * 1024 }; /* about the L1 data cache */

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
