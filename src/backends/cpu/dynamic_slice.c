/* dynamic_slice and dynamic_update_slice as copies of boxes: the start indices (scalars
 * read at run time) are clamped so the box fits, as the spec says, and the box moves row
 * by row with memcpy. dynamic_update_slice copies its operand first (the result is a new
 * value). Also the row gather (x[indices]), one memcpy per index. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"

struct kiln_cpu_dynslice {
  bool update;                       /* dynamic_update_slice */
  int32_t rank;
  int64_t dims[KILN_CPU_MAX_RANK];   /* the operand's */
  int64_t sizes[KILN_CPU_MAX_RANK];  /* the box: slice_sizes, or the update's dims */
  kiln_elem index_elem;
  size_t elem_bytes;
  uint64_t operand_bytes;
};

static bool static_dense(const kiln_type *t) {
  return kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t) &&
         t->tensor.rank <= KILN_CPU_MAX_RANK;
}

kiln_status kiln_cpu_dynslice_prepare(const kiln_op *op, kiln_cpu_dynslice **out) {
  *out = NULL;
  bool update = op->kind == KILN_OP_DYNAMIC_UPDATE_SLICE;
  if (!update && op->kind != KILN_OP_DYNAMIC_SLICE) return NULL;
  const kiln_type *t = op->operands[0]->type;
  int32_t first_index = update ? 2 : 1;
  if (!static_dense(t) || !static_dense(op->results[0].type) || op->num_operands != first_index + t->tensor.rank) return NULL;
  if (update && !static_dense(op->operands[1]->type)) return NULL;
  kiln_cpu_dynslice s = {.update = update, .rank = t->tensor.rank};
  s.index_elem = t->tensor.rank ? kiln_type_elem(op->operands[first_index]->type) : KILN_ELEM_SI64;
  for (int32_t i = first_index; i < op->num_operands; i++) {
    const kiln_type *it = op->operands[i]->type;
    if (!static_dense(it) || it->tensor.rank != 0 || !kiln_elem_is_int(kiln_type_elem(it)) ||
        kiln_type_elem(it) != s.index_elem)
      return NULL;
  }
  const kiln_type *box = update ? op->operands[1]->type : op->results[0].type;
  for (int32_t d = 0; d < s.rank; d++) {
    s.dims[d] = t->tensor.dims[d];
    s.sizes[d] = box->tensor.dims[d];
    if (s.sizes[d] > s.dims[d]) return NULL;
  }
  s.elem_bytes = kiln_elem_storage_bytes(kiln_type_elem(t));
  s.operand_bytes = (uint64_t)t->tensor.num_elements * s.elem_bytes;
  kiln_cpu_dynslice *p = malloc(sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *p = s;
  *out = p;
  return NULL;
}

void kiln_cpu_dynslice_destroy(kiln_cpu_dynslice *s) { free(s); }

/* Copies the box at start between the operand layout (dims) and the dense box layout. */
static void copy_box(const kiln_cpu_dynslice *s, const int64_t *start, uint8_t *big, uint8_t *box, bool into_big) {
  int32_t r = s->rank;
  size_t eb = s->elem_bytes;
  int64_t rows = 1, idx[KILN_CPU_MAX_RANK] = {0};
  for (int32_t d = 0; d + 1 < r; d++) rows *= s->sizes[d];
  size_t run = (size_t)(r ? s->sizes[r - 1] : 1) * eb;
  if (!run) return;
  for (int64_t row = 0; row < rows; row++) {
    int64_t off = 0;
    for (int32_t d = 0; d < r; d++) off = off * s->dims[d] + start[d] + (d + 1 < r ? idx[d] : 0);
    uint8_t *b = big + (size_t)off * eb, *x = box + (size_t)row * run;
    if (into_big) memcpy(b, x, run);
    else memcpy(x, b, run);
    for (int32_t d = r - 2; d >= 0; d--) { /* next row of the box */
      if (++idx[d] < s->sizes[d]) break;
      idx[d] = 0;
    }
  }
}

void kiln_cpu_dynslice_run(const kiln_cpu_dynslice *s, const void *const *in, void *out) {
  int32_t first_index = s->update ? 2 : 1;
  int64_t start[KILN_CPU_MAX_RANK];
  for (int32_t d = 0; d < s->rank; d++) {
    kiln_scalar v = kiln_scalar_load(s->index_elem, in[first_index + d]);
    int64_t i = kiln_elem_class_of(s->index_elem) == KILN_ELEM_CLASS_U && v.u > INT64_MAX ? INT64_MAX : v.i;
    int64_t hi = s->dims[d] - s->sizes[d];
    start[d] = i < 0 ? 0 : i > hi ? hi : i;
  }
  if (s->update) {
    if (s->operand_bytes && out != in[0]) memcpy(out, in[0], s->operand_bytes);
    copy_box(s, start, out, (uint8_t *)in[1], true);
  } else {
    copy_box(s, start, (uint8_t *)in[0], out, false);
  }
}

/* ---------------------------------------------------------------- row gathers */

/* The gather of whole slices along dim 0 (x[indices] in NumPy, an embedding lookup):
 * collapsed_slice_dims = start_index_map = [0], no batching dims, slice_sizes = [1, the
 * operand's other dims], the offset dims trailing, one index per index vector. Each index
 * is clamped into [0, rows) as the spec's clamp of start indices does, and its slice is one
 * memcpy. */
struct kiln_cpu_gather {
  int64_t count;        /* indices */
  int64_t rows;         /* the operand's dim 0 */
  size_t slice_bytes;
  kiln_elem index_elem;
  size_t index_bytes;
};

static bool list_is(const kiln_attr *a, int64_t n, const int64_t *want) {
  if (!a) return n == 0;
  if (kiln_attr_count(a) != n) return false;
  for (int64_t i = 0; i < n; i++) {
    int64_t v;
    if (!kiln_attr_i64_at(a, i, &v) || v != want[i]) return false;
  }
  return true;
}

kiln_status kiln_cpu_gather_prepare(const kiln_op *op, kiln_cpu_gather **out) {
  *out = NULL;
  if (op->kind != KILN_OP_GATHER || op->num_operands != 2) return NULL;
  const kiln_type *x = op->operands[0]->type, *ix = op->operands[1]->type, *r = op->results[0].type;
  if (!static_dense(x) || !static_dense(ix) || !static_dense(r) || x->tensor.rank < 1 ||
      !kiln_elem_is_int(kiln_type_elem(ix)))
    return NULL;
  const kiln_attr *dn = kiln_op_attr(op, "dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT) return NULL;
  int64_t ivd = ix->tensor.rank, zero = 0, v;
  if (kiln_attr_get(dn, "index_vector_dim") && kiln_attr_i64_at(kiln_attr_get(dn, "index_vector_dim"), 0, &v)) ivd = v;
  /* one index per vector: index_vector_dim is past the end, or a trailing dim of size 1 */
  if (ivd < ix->tensor.rank && (ivd != ix->tensor.rank - 1 || ix->tensor.dims[ivd] != 1)) return NULL;
  int32_t batch = ix->tensor.rank - (ivd < ix->tensor.rank ? 1 : 0), xr = x->tensor.rank;
  int64_t offsets[KILN_CPU_MAX_RANK], sizes[KILN_CPU_MAX_RANK];
  for (int32_t d = 0; d + 1 < xr; d++) offsets[d] = batch + d;
  sizes[0] = 1;
  for (int32_t d = 1; d < xr; d++) sizes[d] = x->tensor.dims[d];
  if (!list_is(kiln_attr_get(dn, "collapsed_slice_dims"), 1, &zero) || !list_is(kiln_attr_get(dn, "start_index_map"), 1, &zero) ||
      !list_is(kiln_attr_get(dn, "operand_batching_dims"), 0, NULL) ||
      !list_is(kiln_attr_get(dn, "start_indices_batching_dims"), 0, NULL) ||
      !list_is(kiln_attr_get(dn, "offset_dims"), xr - 1, offsets) || !list_is(kiln_op_attr(op, "slice_sizes"), xr, sizes) ||
      r->tensor.rank != batch + xr - 1)
    return NULL;
  kiln_cpu_gather *g = malloc(sizeof *g);
  if (!g) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  g->count = 1;
  for (int32_t d = 0; d < batch; d++) g->count *= ix->tensor.dims[d];
  g->rows = x->tensor.dims[0];
  g->slice_bytes = kiln_elem_storage_bytes(kiln_type_elem(x));
  for (int32_t d = 1; d < xr; d++) g->slice_bytes *= (size_t)x->tensor.dims[d];
  g->index_elem = kiln_type_elem(ix);
  g->index_bytes = kiln_elem_storage_bytes(g->index_elem);
  *out = g;
  return NULL;
}

void kiln_cpu_gather_destroy(kiln_cpu_gather *g) { free(g); }

enum { PREFETCH_AHEAD = 8 };

/* Index i, clamped into [0, rows). */
static int64_t gather_row(const kiln_cpu_gather *g, const void *indices, int64_t i) {
  kiln_scalar v = kiln_scalar_load(g->index_elem, (const uint8_t *)indices + (size_t)i * g->index_bytes);
  int64_t row = kiln_elem_class_of(g->index_elem) == KILN_ELEM_CLASS_U && v.u > INT64_MAX ? INT64_MAX : v.i;
  return row < 0 ? 0 : row >= g->rows ? g->rows - 1 : row;
}

void kiln_cpu_gather_run(const kiln_cpu_gather *g, const void *operand, const void *indices, void *out) {
  if (!g->rows) return; /* then the result is empty too */
  for (int64_t i = 0; i < g->count; i++) {
    if (i + PREFETCH_AHEAD < g->count) { /* random rows: ask for the one a few steps on now */
      const uint8_t *next = (const uint8_t *)operand + (size_t)gather_row(g, indices, i + PREFETCH_AHEAD) * g->slice_bytes;
      for (size_t b = 0; b < g->slice_bytes; b += 64) __builtin_prefetch(next + b);
    }
    memcpy((uint8_t *)out + (size_t)i * g->slice_bytes,
           (const uint8_t *)operand + (size_t)gather_row(g, indices, i) * g->slice_bytes, g->slice_bytes);
  }
}

/* ---------------------------------------------------------------- row scatters */

/* The scatter of whole slices along dim 0 (x.at[indices].add(updates)): the mirror of the
 * row gather, with an update computation that adds (or replaces: `return %update`). The
 * result starts as a copy of the operand; updates apply in order, and an update whose
 * index falls outside [0, rows) is skipped, as the spec says. */
struct kiln_cpu_scatter {
  int64_t count, rows;
  size_t slice_bytes, operand_bytes;
  kiln_elem elem;       /* of the operand and the updates */
  bool add;             /* add; else replace */
  kiln_elem index_elem;
  size_t index_bytes;
};

/* add on floats is f32 or f64 arithmetic (each sum rounds once, as the interpreter's); on
 * integers it wraps */
static bool addable(kiln_elem e) {
  return e == KILN_ELEM_F32 || e == KILN_ELEM_F64 || e == KILN_ELEM_SI32 || e == KILN_ELEM_SI64 ||
         e == KILN_ELEM_UI32 || e == KILN_ELEM_UI64;
}

kiln_status kiln_cpu_scatter_prepare(const kiln_op *op, kiln_cpu_scatter **out) {
  *out = NULL;
  if (op->kind != KILN_OP_SCATTER || op->num_operands != 3 || op->num_results != 1) return NULL;
  const kiln_type *x = op->operands[0]->type, *ix = op->operands[1]->type, *u = op->operands[2]->type;
  if (!static_dense(x) || !static_dense(ix) || !static_dense(u) || x->tensor.rank < 1 ||
      !kiln_elem_is_int(kiln_type_elem(ix)) || kiln_type_elem(u) != kiln_type_elem(x))
    return NULL;
  /* the update computation: return %b, or return add(%a, %b) in either order */
  const kiln_block *b = kiln_op_block(op, 0);
  if (!b || b->next || b->num_args != 2 || !b->last || b->last->num_operands != 1) return NULL;
  const kiln_value *ret = b->last->operands[0];
  bool add = false;
  if (ret != &b->args[1]) {
    const kiln_op *c = ret->def;
    if (!c || c->kind != KILN_OP_ADD || c->next != b->last || b->first != c || !addable(kiln_type_elem(x))) return NULL;
    const kiln_value *p = c->operands[0], *q = c->operands[1];
    if (!((p == &b->args[0] && q == &b->args[1]) || (p == &b->args[1] && q == &b->args[0]))) return NULL;
    add = true;
  } else if (b->first != b->last) {
    return NULL;
  }
  for (int32_t i = 0; i < 2; i++)
    if (kiln_type_elem(b->args[i].type) != kiln_type_elem(x) || kiln_type_is_quant_tensor(b->args[i].type)) return NULL;
  const kiln_attr *dn = kiln_op_attr(op, "scatter_dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT) return NULL;
  int64_t ivd = ix->tensor.rank, zero = 0, v;
  if (kiln_attr_get(dn, "index_vector_dim") && kiln_attr_i64_at(kiln_attr_get(dn, "index_vector_dim"), 0, &v)) ivd = v;
  if (ivd < ix->tensor.rank && (ivd != ix->tensor.rank - 1 || ix->tensor.dims[ivd] != 1)) return NULL;
  int32_t batch = ix->tensor.rank - (ivd < ix->tensor.rank ? 1 : 0), xr = x->tensor.rank;
  int64_t window[KILN_CPU_MAX_RANK];
  for (int32_t d = 0; d + 1 < xr; d++) window[d] = batch + d;
  if (!list_is(kiln_attr_get(dn, "inserted_window_dims"), 1, &zero) ||
      !list_is(kiln_attr_get(dn, "scatter_dims_to_operand_dims"), 1, &zero) ||
      !list_is(kiln_attr_get(dn, "input_batching_dims"), 0, NULL) ||
      !list_is(kiln_attr_get(dn, "scatter_indices_batching_dims"), 0, NULL) ||
      !list_is(kiln_attr_get(dn, "update_window_dims"), xr - 1, window) || u->tensor.rank != batch + xr - 1)
    return NULL;
  for (int32_t d = 0; d < batch; d++)
    if (u->tensor.dims[d] != ix->tensor.dims[d]) return NULL;
  for (int32_t d = 1; d < xr; d++)
    if (u->tensor.dims[batch + d - 1] != x->tensor.dims[d]) return NULL; /* whole rows only */
  kiln_cpu_scatter *s = malloc(sizeof *s);
  if (!s) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  s->count = 1;
  for (int32_t d = 0; d < batch; d++) s->count *= ix->tensor.dims[d];
  s->rows = x->tensor.dims[0];
  s->elem = kiln_type_elem(x);
  s->slice_bytes = kiln_elem_storage_bytes(s->elem);
  for (int32_t d = 1; d < xr; d++) s->slice_bytes *= (size_t)x->tensor.dims[d];
  s->operand_bytes = s->slice_bytes * (size_t)s->rows;
  s->add = add;
  s->index_elem = kiln_type_elem(ix);
  s->index_bytes = kiln_elem_storage_bytes(s->index_elem);
  *out = s;
  return NULL;
}

void kiln_cpu_scatter_destroy(kiln_cpu_scatter *s) { free(s); }

static void add_row(kiln_elem e, uint8_t *dst, const uint8_t *src, size_t bytes) {
  switch (e) {
    case KILN_ELEM_F32: {
      float *d = (float *)dst;
      const float *a = (const float *)src;
      for (size_t i = 0; i < bytes / 4; i++) d[i] += a[i];
      break;
    }
    case KILN_ELEM_F64: {
      double *d = (double *)dst;
      const double *a = (const double *)src;
      for (size_t i = 0; i < bytes / 8; i++) d[i] += a[i];
      break;
    }
    case KILN_ELEM_SI32:
    case KILN_ELEM_UI32: {
      uint32_t *d = (uint32_t *)dst;
      const uint32_t *a = (const uint32_t *)src;
      for (size_t i = 0; i < bytes / 4; i++) d[i] += a[i];
      break;
    }
    default: {
      uint64_t *d = (uint64_t *)dst;
      const uint64_t *a = (const uint64_t *)src;
      for (size_t i = 0; i < bytes / 8; i++) d[i] += a[i];
      break;
    }
  }
}

void kiln_cpu_scatter_run(const kiln_cpu_scatter *s, const void *operand, const void *indices, const void *updates,
                          void *out) {
  if (s->operand_bytes) memcpy(out, operand, s->operand_bytes);
  for (int64_t i = 0; i < s->count; i++) {
    kiln_scalar v = kiln_scalar_load(s->index_elem, (const uint8_t *)indices + (size_t)i * s->index_bytes);
    bool neg = kiln_elem_class_of(s->index_elem) != KILN_ELEM_CLASS_U && v.i < 0;
    if (neg || v.u >= (uint64_t)s->rows) continue; /* outside: skipped */
    uint8_t *dst = (uint8_t *)out + (size_t)v.u * s->slice_bytes;
    const uint8_t *src = (const uint8_t *)updates + (size_t)i * s->slice_bytes;
    if (s->add) add_row(s->elem, dst, src, s->slice_bytes);
    else memcpy(dst, src, s->slice_bytes);
  }
}
