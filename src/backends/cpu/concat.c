/* stablehlo.concatenate as copies (see cpu.h): row-major, the result is, for each index of
 * the dims before the concatenated one (a row), each operand's block of that row in turn.
 * The result's bytes are cut into equal ranges over the pool; a range copies the pieces of
 * the operands' blocks it covers. Any element type: only bytes move. An operand that is a
 * slice along the concatenated dim (jnp.roll, fftshift, a rotary embedding's halves) can
 * be read where it lies in the slice's operand, each row's block one run of its bytes
 * (kiln_cpu_concat_slice_run), so the slice is never copied on its own. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/pool.h"

struct kiln_cpu_concat {
  int32_t num_inputs;
  uint64_t rows;
  uint64_t row_bytes; /* of the result: the operands' blocks back to back */
  uint64_t *start;    /* per operand: where its block begins in a result row; then row_bytes */
  uint64_t *from;     /* per operand: where its first row's block begins in its data */
  uint64_t *stride;   /* per operand: from one row's block to the next in its data */
  uint64_t element;   /* every operand's block one element of 1, 2, 4 or 8 bytes: else 0 */
};

static bool static_dense(const kiln_type *t) {
  return kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t);
}

kiln_status kiln_cpu_concat_prepare(const kiln_op *op, kiln_cpu_concat **out) {
  *out = NULL;
  const kiln_type *rt = op->results[0].type;
  int64_t dim;
  if (op->kind != KILN_OP_CONCATENATE || op->num_results != 1 || !static_dense(rt) ||
      !kiln_attr_i64_at(kiln_op_attr(op, "dimension"), 0, &dim) || dim < 0 || dim >= rt->tensor.rank)
    return NULL;
  uint64_t elem = kiln_elem_storage_bytes(kiln_type_elem(rt)), rows = 1;
  for (int64_t d = 0; d < dim; d++) rows *= (uint64_t)rt->tensor.dims[d];
  kiln_cpu_concat *c = calloc(1, sizeof *c);
  if (!c || !(c->start = calloc((size_t)op->num_operands + 1, sizeof *c->start)) ||
      !(c->from = calloc((size_t)op->num_operands + 1, sizeof *c->from)) ||
      !(c->stride = calloc((size_t)op->num_operands + 1, sizeof *c->stride))) {
    kiln_cpu_concat_destroy(c);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  c->num_inputs = op->num_operands;
  c->rows = rows;
  uint64_t at = 0;
  for (int32_t k = 0; k < op->num_operands; k++) {
    const kiln_type *t = op->operands[k]->type;
    if (!static_dense(t) || kiln_type_elem(t) != kiln_type_elem(rt) || t->tensor.rank != rt->tensor.rank) {
      kiln_cpu_concat_destroy(c);
      return NULL;
    }
    uint64_t block = elem; /* the operand's part of one result row */
    for (int32_t d = (int32_t)dim; d < t->tensor.rank; d++) block *= (uint64_t)t->tensor.dims[d];
    c->start[k] = at;
    c->stride[k] = block;
    at += block;
  }
  c->start[op->num_operands] = c->row_bytes = at;
  bool stack = (elem == 1 || elem == 2 || elem == 4 || elem == 8) && op->num_operands > 0;
  for (int32_t k = 0; stack && k < op->num_operands; k++) stack = c->start[k + 1] - c->start[k] == elem;
  c->element = stack ? elem : 0;
  *out = c;
  return NULL;
}

void kiln_cpu_concat_destroy(kiln_cpu_concat *c) {
  if (!c) return;
  free(c->start);
  free(c->from);
  free(c->stride);
  free(c);
}

bool kiln_cpu_concat_slice_run(const kiln_op *op, int32_t k, uint64_t *from, uint64_t *stride) {
  const kiln_op *sl = op->operands[k]->def;
  int64_t dim;
  if (!sl || sl->kind != KILN_OP_SLICE || sl->num_operands != 1 || sl->parent != op->parent ||
      !kiln_attr_i64_at(kiln_op_attr(op, "dimension"), 0, &dim))
    return false;
  const kiln_type *t = sl->operands[0]->type, *r = op->operands[k]->type;
  if (!static_dense(t) || !static_dense(r) || kiln_type_elem(t) != kiln_type_elem(r) || t->tensor.rank != r->tensor.rank ||
      dim < 0 || dim >= t->tensor.rank)
    return false;
  uint64_t run = kiln_elem_storage_bytes(kiln_type_elem(t)), start = 0;
  for (int32_t d = t->tensor.rank - 1; d >= (int32_t)dim; d--) { /* the dims after dim whole */
    int64_t lo, step = 1;
    const kiln_attr *steps = kiln_op_attr(sl, "strides"); /* absent: all 1 */
    if (!kiln_attr_i64_at(kiln_op_attr(sl, "start_indices"), d, &lo) || (steps && !kiln_attr_i64_at(steps, d, &step)) ||
        step != 1 || (d > dim && (lo != 0 || r->tensor.dims[d] != t->tensor.dims[d])))
      return false;
    if (d == dim) start = (uint64_t)lo * run;
    run *= (uint64_t)t->tensor.dims[d];
  }
  for (int32_t d = 0; d < (int32_t)dim; d++) /* the rows: every one, in order */
    if (r->tensor.dims[d] != t->tensor.dims[d]) return false;
  *from = start;
  *stride = run;
  return true;
}

void kiln_cpu_concat_read_at(kiln_cpu_concat *c, int32_t k, uint64_t from, uint64_t stride) {
  c->from[k] = from;
  c->stride[k] = stride;
  c->element = 0; /* stacking reads operands whole */
}

typedef struct concat_job {
  const kiln_cpu_concat *c;
  const void *const *in;
  uint8_t *out;
  uint64_t total;
  int32_t chunks;
} concat_job;

/* Copies the result's bytes [a, b). */
static void copy_range(const kiln_cpu_concat *c, const void *const *in, uint8_t *out, uint64_t a, uint64_t b) {
  uint64_t row = a / c->row_bytes, at = a % c->row_bytes;
  int32_t k = 0;
  while (a < b) {
    while (c->start[k + 1] <= at) k++; /* the operand whose block holds `at` (skips empty ones) */
    uint64_t block = c->start[k + 1] - c->start[k], from = at - c->start[k];
    uint64_t n = block - from < b - a ? block - from : b - a;
    memcpy(out + a, (const uint8_t *)in[k] + c->from[k] + row * c->stride[k] + from, (size_t)n);
    a += n;
    at += n;
    if (at == c->row_bytes) {
      row++;
      at = 0;
      k = 0;
    }
  }
}

/* Stacking along a last dim (jnp.stack(..., -1): one element of each operand per row):
 * element by element, typed, for rows [a, b); a memcpy per element cost 15 us a
 * 1024x3 f32 stack (5 ns an element). */
#define STACK_ROWS(T, N)                                                \
  for (uint64_t r = a; r < b; r++)                                     \
    for (int32_t k = 0; k < (N); k++) ((T *)out)[r * (uint64_t)(N) + (uint64_t)k] = ((const T *)in[k])[r];

/* Two to four operands with the count a constant (the inner loop unrolled), else any. */
#define STACK_TYPED(T)                \
  switch (n) {                        \
    case 2: STACK_ROWS(T, 2) break;   \
    case 3: STACK_ROWS(T, 3) break;   \
    case 4: STACK_ROWS(T, 4) break;   \
    default: STACK_ROWS(T, n) break;  \
  }

static void stack_rows(const kiln_cpu_concat *c, const void *const *in, void *out, uint64_t a, uint64_t b) {
  int32_t n = c->num_inputs;
  switch (c->element) {
    case 1: STACK_TYPED(uint8_t) break;
    case 2: STACK_TYPED(uint16_t) break;
    case 4: STACK_TYPED(uint32_t) break;
    default: STACK_TYPED(uint64_t) break;
  }
}

static void concat_chunk(void *ctx, int32_t chunk, int32_t thread) {
  (void)thread;
  const concat_job *j = ctx;
  if (j->c->element) { /* chunks of rows */
    uint64_t rows = j->c->rows, a = rows * (uint64_t)chunk / (uint64_t)j->chunks;
    stack_rows(j->c, j->in, j->out, a, rows * (uint64_t)(chunk + 1) / (uint64_t)j->chunks);
    return;
  }
  uint64_t a = j->total / (uint64_t)j->chunks * (uint64_t)chunk, b = j->total / (uint64_t)j->chunks * (uint64_t)(chunk + 1);
  if (chunk == j->chunks - 1) b = j->total;
  copy_range(j->c, j->in, j->out, a, b);
}

void kiln_cpu_concat_run(const kiln_cpu_concat *c, const void *const *in, void *out) {
  uint64_t total = c->rows * c->row_bytes;
  if (!total) return;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  /* work in elements touched: a read and a write per 4 bytes, roughly */
  concat_job j = {c, in, out, total, kiln_cpu_pool_chunks(pool, (int64_t)(total / 2), 64)};
  kiln_cpu_pool_run(pool, j.chunks, (int64_t)(total / 2), concat_chunk, &j);
}
