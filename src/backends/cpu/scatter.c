/* stablehlo.scatter on the cpu device, every dimension-number form: update_window_dims,
 * inserted_window_dims, input_batching_dims / scatter_indices_batching_dims,
 * scatter_dims_to_operand_dims, index_vector_dim anywhere; one input, and an update
 * computation scatter_combine.c applies (gather_scatter.h). Variadic scatters and other
 * regions are left to the interpreter.
 *
 * The result starts as a copy of the operand. Updates then apply in the updates' row-major
 * order, as the interpreter applies them: the updates' last dim, when it is a window dim,
 * is an inner run (one call of the combiner over the elements that land inside the
 * operand), every other update dim is an outer point whose operand coordinates are its
 * index vector (read at run time) plus its batch and window coordinates (strides fixed
 * when the op is prepared). An update whose operand index falls outside the operand (or
 * overflows) is skipped, element by element, as the spec says. With unique_indices no two
 * updates meet, so the outer points are split over the pool; otherwise they run in order
 * on one thread. */
#include <stdlib.h>

#include "backends/cpu/gather_scatter.h"
#include "backends/cpu/pool.h"

#define R KILN_CPU_MAX_RANK

struct kiln_cpu_scatter {
  kiln_cpu_combiner comb;
  size_t eb;
  uint64_t operand_bytes;
  kiln_elem index_elem;
  size_t index_bytes;
  int32_t xr;
  int64_t xdims[R], xstr[R];
  int32_t no;           /* outer update dims: all but the inner run's */
  int64_t odims[R];
  int64_t oistr[R];     /* stride in the indices of a scatter dim (0 for a window dim) */
  int32_t ocoord[R];    /* the operand dim an outer dim's index adds to (window, batching), or -1 */
  int64_t outer, inner; /* outer points; elements of an inner run */
  int32_t inner_dim;    /* the operand dim of the inner run, or -1 (runs of one element) */
  int32_t nmap;
  int64_t map[R], vstep;
  bool unique;
  int64_t work;         /* update elements */
};

static void strides(const kiln_type *t, int64_t *out) {
  int64_t s = 1;
  for (int32_t d = t->tensor.rank - 1; d >= 0; d--) {
    out[d] = s;
    s *= t->tensor.dims[d];
  }
}

static bool attr_true(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  return a && a->kind == KILN_ATTR_BOOL && a->b;
}

kiln_status kiln_cpu_scatter_prepare(const kiln_op *op, kiln_cpu_scatter **out) {
  *out = NULL;
  if (op->kind != KILN_OP_SCATTER || op->num_operands != 3 || op->num_results != 1) return NULL;
  const kiln_type *x = op->operands[0]->type, *ix = op->operands[1]->type, *u = op->operands[2]->type,
                  *r = op->results[0].type;
  if (!kiln_cpu_static_dense(x) || !kiln_cpu_static_dense(ix) || !kiln_cpu_static_dense(u) ||
      !kiln_cpu_static_dense(r) || !kiln_cpu_index_elem(kiln_type_elem(ix)) ||
      kiln_type_elem(u) != kiln_type_elem(x) || kiln_type_elem(r) != kiln_type_elem(x))
    return NULL;
  kiln_cpu_scatter s = {.eb = kiln_elem_storage_bytes(kiln_type_elem(x)),
                        .index_elem = kiln_type_elem(ix),
                        .index_bytes = kiln_elem_storage_bytes(kiln_type_elem(ix)),
                        .xr = x->tensor.rank,
                        .outer = 1,
                        .inner = 1,
                        .inner_dim = -1,
                        .unique = attr_true(op, "unique_indices"),
                        .work = u->tensor.num_elements};
  if (!kiln_cpu_combiner_prepare(op, kiln_type_elem(x), &s.comb)) return NULL;
  const kiln_attr *dn = kiln_op_attr(op, "scatter_dimension_numbers");
  if (!dn || dn->kind != KILN_ATTR_STRUCT) return NULL;
  int32_t xr = x->tensor.rank, ir = ix->tensor.rank, ur = u->tensor.rank;
  kiln_cpu_dims uwd, iwd, ib, sib, sdod;
  int64_t ivd = 0 /* the default */;
  const kiln_attr *ivd_attr = kiln_attr_get(dn, "index_vector_dim");
  if (ivd_attr && !kiln_attr_i64_at(ivd_attr, 0, &ivd)) return NULL;
  if (!kiln_cpu_dims_read(dn, "update_window_dims", ur, &uwd) || !kiln_cpu_dims_read(dn, "inserted_window_dims", xr, &iwd) ||
      !kiln_cpu_dims_read(dn, "input_batching_dims", xr, &ib) ||
      !kiln_cpu_dims_read(dn, "scatter_indices_batching_dims", ir, &sib) ||
      !kiln_cpu_dims_read(dn, "scatter_dims_to_operand_dims", xr, &sdod) || ivd < 0 || ivd > ir ||
      sib.n != ib.n || kiln_cpu_dims_find(&sib, ivd) >= 0 || sdod.n != (ivd < ir ? ix->tensor.dims[ivd] : 1) ||
      ur - uwd.n != ir - (ivd < ir))
    return NULL;
  /* the operand's window dims (neither inserted nor batching), paired in order with uwd */
  int64_t win[R];
  int32_t nwin = 0;
  for (int32_t d = 0; d < xr; d++)
    if (kiln_cpu_dims_find(&iwd, d) < 0 && kiln_cpu_dims_find(&ib, d) < 0) win[nwin++] = d;
  if (nwin != uwd.n || uwd.n + iwd.n + ib.n != xr) return NULL;
  int64_t xstr[R], istr[R];
  strides(x, xstr), strides(ix, istr);
  for (int32_t d = 0; d < xr; d++) s.xdims[d] = x->tensor.dims[d], s.xstr[d] = xstr[d];
  s.operand_bytes = (uint64_t)x->tensor.num_elements * s.eb;
  s.nmap = sdod.n;
  for (int32_t k = 0; k < sdod.n; k++) s.map[k] = sdod.v[k];
  s.vstep = ivd < ir ? istr[ivd] : 0;
  /* each update dim: a window dim (adds to its operand dim), or the next scatter dim (the
   * index dims but ivd, in order: a stride in the indices, maybe a batching coordinate) */
  int32_t next_index_dim = 0;
  for (int32_t d = 0; d < ur; d++) {
    int64_t size = u->tensor.dims[d], istride = 0;
    int32_t coord, k = kiln_cpu_dims_find(&uwd, d);
    if (k >= 0) {
      coord = (int32_t)win[k];
    } else {
      if (next_index_dim == ivd) next_index_dim++;
      int32_t id = next_index_dim++, i = kiln_cpu_dims_find(&sib, id);
      if (id >= ir || ix->tensor.dims[id] != size) return NULL;
      istride = istr[id];
      coord = i >= 0 ? (int32_t)ib.v[i] : -1;
      if (i >= 0 && x->tensor.dims[ib.v[i]] != size) return NULL;
    }
    if (d == ur - 1 && k >= 0) { /* the inner run */
      s.inner = size;
      s.inner_dim = coord;
      continue;
    }
    s.odims[s.no] = size;
    s.oistr[s.no] = istride;
    s.ocoord[s.no++] = coord;
    s.outer *= size;
  }
  kiln_cpu_scatter *p = malloc(sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *p = s;
  *out = p;
  return NULL;
}

void kiln_cpu_scatter_destroy(kiln_cpu_scatter *s) { free(s); }

/* Outer points [first, last): each one's inner run, where it lands inside the operand. */
static void scatter_points(const kiln_cpu_scatter *s, const uint8_t *ix, const uint8_t *up, uint8_t *res, int64_t first,
                           int64_t last) {
  int64_t o[R], rest = first;
  for (int32_t k = s->no - 1; k >= 0; k--) {
    o[k] = rest % s->odims[k];
    rest /= s->odims[k];
  }
  int64_t jstr = s->inner_dim >= 0 ? s->xstr[s->inner_dim] : 0;
  for (int64_t p = first; p < last; p++) {
    int64_t ri[R], ibase = 0;
    for (int32_t d = 0; d < s->xr; d++) ri[d] = 0;
    for (int32_t k = 0; k < s->no; k++) {
      ibase += o[k] * s->oistr[k];
      if (s->ocoord[k] >= 0) ri[s->ocoord[k]] += o[k];
    }
    bool inside = true;
    for (int32_t k = 0; inside && k < s->nmap; k++) {
      int64_t v = kiln_cpu_load_index(s->index_elem, ix + (size_t)(ibase + k * s->vstep) * s->index_bytes);
      inside = !__builtin_add_overflow(ri[s->map[k]], v, &ri[s->map[k]]);
    }
    int64_t at = 0;
    for (int32_t d = 0; inside && d < s->xr; d++) {
      if (d == s->inner_dim) continue;
      inside = ri[d] >= 0 && ri[d] < s->xdims[d];
      at += ri[d] * s->xstr[d];
    }
    int64_t lo = 0, hi = s->inner;
    if (inside && s->inner_dim >= 0) { /* the run's elements inside: 0 <= start + w < dim */
      int64_t start = ri[s->inner_dim], dim = s->xdims[s->inner_dim];
      if (start <= -s->inner || start >= dim) {
        inside = false;
      } else {
        lo = start < 0 ? -start : 0;
        hi = dim - start < s->inner ? dim - start : s->inner;
        at += start * jstr;
      }
    }
    if (inside && lo < hi)
      s->comb.fn(&s->comb, res + (size_t)(at + lo * jstr) * s->eb, jstr, up + (size_t)(p * s->inner + lo) * s->eb,
                 hi - lo);
    for (int32_t k = s->no - 1; k >= 0; k--) { /* next outer point */
      if (++o[k] < s->odims[k]) break;
      o[k] = 0;
    }
  }
}

typedef struct scatter_job {
  const kiln_cpu_scatter *s;
  const uint8_t *ix, *up;
  uint8_t *res;
  int32_t chunks;
} scatter_job;

static void scatter_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const scatter_job *j = ctx;
  int64_t n = j->s->outer;
  scatter_points(j->s, j->ix, j->up, j->res, n * c / j->chunks, n * (c + 1) / j->chunks);
}

void kiln_cpu_scatter_run(const kiln_cpu_scatter *s, const void *operand, const void *indices, const void *updates,
                          void *out) {
  if (s->operand_bytes && out != operand) memcpy(out, operand, s->operand_bytes);
  if (!s->work || !s->operand_bytes) return;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int32_t chunks = s->unique ? kiln_cpu_pool_chunks(pool, s->work, s->outer) : 1;
  scatter_job j = {s, indices, updates, out, chunks};
  if (chunks < 2) scatter_points(s, indices, updates, out, 0, s->outer);
  else kiln_cpu_pool_run(pool, chunks, s->work, scatter_chunk, &j);
}
