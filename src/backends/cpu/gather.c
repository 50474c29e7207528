/* stablehlo.gather on the cpu device, every dimension-number form: offset_dims,
 * collapsed_slice_dims, operand_batching_dims / start_indices_batching_dims,
 * start_index_map, index_vector_dim anywhere, slice_sizes. Everything but the index values
 * is known when the op is prepared, so the geometry becomes strides then: for each batch
 * point (the start indices' dims without index_vector_dim) the index vector is read at
 * base + k * vstep, each start clamped into [0, dim - slice_size] as the spec says, and
 * the slice (its dims merged where both sides are contiguous) is copied to the result by
 * element size, whole contiguous runs with memcpy. Points go in blocks: a block's source
 * offsets are computed (and their first bytes prefetched) before any of its copies, so the
 * random rows of an embedding table or elements of take_along_axis arrive together. Points are independent: they are split over the pool.
 *
 * Also the small helpers scatter.c shares (gather_scatter.h). */
#include <stdlib.h>

#include "backends/cpu/gather_scatter.h"
#include "backends/cpu/pool.h"

#define R KILN_CPU_MAX_RANK

bool kiln_cpu_dims_read(const kiln_attr *s, const char *name, int64_t limit, kiln_cpu_dims *out) {
  const kiln_attr *a = kiln_attr_get(s, name);
  out->n = 0;
  if (!a) return true;
  int64_t n = kiln_attr_count(a);
  if (n < 0 || n > R) return false;
  for (int32_t i = 0; i < n; i++) {
    int64_t v;
    if (!kiln_attr_i64_at(a, i, &v) || v < 0 || v >= limit || kiln_cpu_dims_find(out, v) >= 0) return false;
    out->v[out->n++] = v;
  }
  return true;
}

int32_t kiln_cpu_dims_find(const kiln_cpu_dims *l, int64_t d) {
  for (int32_t i = 0; i < l->n; i++)
    if (l->v[i] == d) return i;
  return -1;
}

bool kiln_cpu_static_dense(const kiln_type *t) {
  return t && kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t) &&
         t->tensor.rank <= R;
}

bool kiln_cpu_index_elem(kiln_elem e) {
  kiln_elem_class c = kiln_elem_class_of(e);
  return kiln_elem_is_int(e) && (c == KILN_ELEM_CLASS_I || c == KILN_ELEM_CLASS_U || c == KILN_ELEM_CLASS_X);
}

struct kiln_cpu_gather {
  size_t eb;                 /* element bytes */
  kiln_elem index_elem;
  size_t index_bytes;
  int64_t count;             /* batch points */
  int64_t work;              /* elements copied in all */
  int32_t nb;                /* batch point dims */
  int64_t bdims[R], istr[R], rstr[R], xbstr[R]; /* their sizes; strides in the indices, result, operand */
  int32_t nmap;              /* start_index_map */
  int64_t vstep, mstr[R], mhi[R]; /* index vector step; operand stride and largest start per entry */
  int32_t box_rank;          /* the slice's dims (merged), the last one the inner run */
  int64_t ext[R], sstr[R], dstr[R];
  int64_t box_points;        /* product of ext but the last */
};

/* Appends a slice dim (size e, operand stride s, result stride d), merging it into the
 * previous one where that one steps over it exactly on both sides; size-1 dims vanish. */
static void box_push(kiln_cpu_gather *g, int64_t e, int64_t s, int64_t d) {
  if (e == 1) return;
  int32_t k = g->box_rank;
  if (k && g->sstr[k - 1] == e * s && g->dstr[k - 1] == e * d) {
    g->ext[k - 1] *= e;
    g->sstr[k - 1] = s;
    g->dstr[k - 1] = d;
    return;
  }
  g->ext[k] = e, g->sstr[k] = s, g->dstr[k] = d;
  g->box_rank++;
}

static void strides(const kiln_type *t, int64_t *out) {
  int64_t s = 1;
  for (int32_t d = t->tensor.rank - 1; d >= 0; d--) {
    out[d] = s;
    s *= t->tensor.dims[d];
  }
}

kiln_status kiln_cpu_gather_prepare(const kiln_op *op, kiln_cpu_gather **out) {
  *out = NULL;
  if (op->kind != KILN_OP_GATHER || op->num_operands != 2 || op->num_results != 1) return NULL;
  const kiln_type *x = op->operands[0]->type, *ix = op->operands[1]->type, *r = op->results[0].type;
  if (!kiln_cpu_static_dense(x) || !kiln_cpu_static_dense(ix) || !kiln_cpu_static_dense(r) ||
      !kiln_cpu_index_elem(kiln_type_elem(ix)) || kiln_type_elem(r) != kiln_type_elem(x))
    return NULL;
  const kiln_attr *dn = kiln_op_attr(op, "dimension_numbers"), *ss = kiln_op_attr(op, "slice_sizes");
  if (!dn || dn->kind != KILN_ATTR_STRUCT || !ss) return NULL;
  int32_t xr = x->tensor.rank, ir = ix->tensor.rank, rr = r->tensor.rank;
  kiln_cpu_dims offset, collapsed, obatch, ibatch, map;
  int64_t ivd = 0 /* the default */, sizes[R];
  const kiln_attr *ivd_attr = kiln_attr_get(dn, "index_vector_dim");
  if (ivd_attr && !kiln_attr_i64_at(ivd_attr, 0, &ivd)) return NULL;
  if (!kiln_cpu_dims_read(dn, "offset_dims", rr, &offset) || !kiln_cpu_dims_read(dn, "collapsed_slice_dims", xr, &collapsed) ||
      !kiln_cpu_dims_read(dn, "operand_batching_dims", xr, &obatch) ||
      !kiln_cpu_dims_read(dn, "start_indices_batching_dims", ir, &ibatch) ||
      !kiln_cpu_dims_read(dn, "start_index_map", xr, &map) || ivd < 0 || ivd > ir ||
      offset.n + collapsed.n + obatch.n != xr || ibatch.n != obatch.n || kiln_cpu_dims_find(&ibatch, ivd) >= 0 ||
      map.n != (ivd < ir ? ix->tensor.dims[ivd] : 1) || kiln_attr_count(ss) != xr || rr != offset.n + ir - (ivd < ir))
    return NULL;
  for (int32_t d = 0; d < xr; d++) {
    if (!kiln_attr_i64_at(ss, d, &sizes[d]) || sizes[d] < 0 || sizes[d] > x->tensor.dims[d]) return NULL;
    bool point = kiln_cpu_dims_find(&collapsed, d) >= 0 || kiln_cpu_dims_find(&obatch, d) >= 0;
    if (point && sizes[d] != 1 && r->tensor.num_elements) return NULL; /* the interpreter's error */
    if (point && kiln_cpu_dims_find(&map, d) >= 0 && kiln_cpu_dims_find(&obatch, d) >= 0) return NULL;
  }
  kiln_cpu_gather g = {.eb = kiln_elem_storage_bytes(kiln_type_elem(x)),
                       .index_elem = kiln_type_elem(ix),
                       .index_bytes = kiln_elem_storage_bytes(kiln_type_elem(ix)),
                       .count = 1,
                       .nmap = map.n,
                       .box_points = 1};
  int64_t xstr[R], istr[R], rstr[R];
  strides(x, xstr), strides(ix, istr), strides(r, rstr);
  g.vstep = ivd < ir ? istr[ivd] : 0;
  for (int32_t k = 0; k < map.n; k++) {
    g.mstr[k] = xstr[map.v[k]];
    g.mhi[k] = x->tensor.dims[map.v[k]] - sizes[map.v[k]];
  }
  /* batch points: the index dims but ivd, matched in order with the result's non-offset dims */
  for (int32_t d = 0, rd = 0; d < ir; d++) {
    if (d == ivd) continue;
    while (kiln_cpu_dims_find(&offset, rd) >= 0) rd++;
    if (rd >= rr || r->tensor.dims[rd] != ix->tensor.dims[d]) return NULL;
    int32_t k = g.nb++, i = kiln_cpu_dims_find(&ibatch, d);
    g.bdims[k] = ix->tensor.dims[d];
    g.istr[k] = istr[d];
    g.rstr[k] = rstr[rd++];
    g.xbstr[k] = i >= 0 ? xstr[obatch.v[i]] : 0;
    if (i >= 0 && x->tensor.dims[obatch.v[i]] != g.bdims[k]) return NULL;
    g.count *= g.bdims[k];
  }
  /* the slice: the operand dims neither collapsed nor batching, in order, at offset_dims */
  for (int32_t d = 0, k = 0; d < xr; d++) {
    if (kiln_cpu_dims_find(&collapsed, d) >= 0 || kiln_cpu_dims_find(&obatch, d) >= 0) continue;
    if (k >= offset.n || r->tensor.dims[offset.v[k]] != sizes[d] || (k && offset.v[k] < offset.v[k - 1])) return NULL;
    box_push(&g, sizes[d], xstr[d], rstr[offset.v[k++]]);
  }
  if (!g.box_rank) { /* one element per point */
    g.ext[0] = g.sstr[0] = g.dstr[0] = 1;
    g.box_rank = 1;
  }
  for (int32_t k = 0; k + 1 < g.box_rank; k++) g.box_points *= g.ext[k];
  g.work = r->tensor.num_elements;
  kiln_cpu_gather *p = malloc(sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *p = g;
  *out = p;
  return NULL;
}

void kiln_cpu_gather_destroy(kiln_cpu_gather *g) { free(g); }

/* Copies n elements of eb bytes, strided (in elements) on both sides; contiguous runs of
 * more than one element are one memcpy, and constant sizes make each other copy one move. */
static inline void copy_run(uint8_t *d, int64_t ds, const uint8_t *s, int64_t ss, int64_t n, size_t eb) {
  if (ss == 1 && ds == 1 && n > 1) {
    memcpy(d, s, (size_t)n * eb);
    return;
  }
  switch (eb) {
    case 1: for (int64_t w = 0; w < n; w++) d[w * ds] = s[w * ss]; break;
    case 2: for (int64_t w = 0; w < n; w++) memcpy(d + 2 * w * ds, s + 2 * w * ss, 2); break;
    case 4: for (int64_t w = 0; w < n; w++) memcpy(d + 4 * w * ds, s + 4 * w * ss, 4); break;
    case 8: for (int64_t w = 0; w < n; w++) memcpy(d + 8 * w * ds, s + 8 * w * ss, 8); break;
    default: for (int64_t w = 0; w < n; w++) memcpy(d + eb * (size_t)(w * ds), s + eb * (size_t)(w * ss), eb);
  }
}

/* Copies one slice: the inner run for each point of the outer dims. */
static void copy_slice(const kiln_cpu_gather *g, const uint8_t *src, uint8_t *dst) {
  int32_t last = g->box_rank - 1;
  int64_t n = g->ext[last], ss = g->sstr[last], ds = g->dstr[last];
  if (!last) {
    copy_run(dst, ds, src, ss, n, g->eb);
    return;
  }
  int64_t idx[R];
  for (int32_t k = 0; k < last; k++) idx[k] = 0;
  for (int64_t p = 0; p < g->box_points; p++) {
    int64_t so = 0, dof = 0;
    for (int32_t k = 0; k < last; k++) so += idx[k] * g->sstr[k], dof += idx[k] * g->dstr[k];
    copy_run(dst + (size_t)dof * g->eb, ds, src + (size_t)so * g->eb, ss, n, g->eb);
    for (int32_t k = last - 1; k >= 0; k--) { /* next outer point */
      if (++idx[k] < g->ext[k]) break;
      idx[k] = 0;
    }
  }
}

enum { BLOCK = 64, PREFETCH_BYTES = 1024 };

/* Batch points [first, last). */
static void gather_points(const kiln_cpu_gather *g, const uint8_t *x, const uint8_t *ix, uint8_t *res, int64_t first,
                          int64_t last) {
  int64_t b[R], rest = first, so[BLOCK], dof[BLOCK];
  for (int32_t k = g->nb - 1; k >= 0; k--) {
    b[k] = rest % g->bdims[k];
    rest /= g->bdims[k];
  }
  int32_t last_dim = g->box_rank - 1;
  size_t run = (size_t)g->ext[last_dim] * g->eb;
  if (run > PREFETCH_BYTES || g->sstr[last_dim] != 1) run = PREFETCH_BYTES;
  int64_t ibase = 0, sb = 0, d = 0; /* the batch point's offsets, kept as b steps */
  for (int32_t k = 0; k < g->nb; k++) ibase += b[k] * g->istr[k], d += b[k] * g->rstr[k], sb += b[k] * g->xbstr[k];
  for (int64_t p = first; p < last;) {
    int64_t n = last - p < BLOCK ? last - p : BLOCK;
    for (int64_t j = 0; j < n; j++) {
      int64_t s = sb;
      for (int32_t k = 0; k < g->nmap; k++) {
        int64_t v = kiln_cpu_load_index(g->index_elem, ix + (size_t)(ibase + k * g->vstep) * g->index_bytes);
        s += (v < 0 ? 0 : v > g->mhi[k] ? g->mhi[k] : v) * g->mstr[k];
      }
      so[j] = s, dof[j] = d;
      const uint8_t *src = x + (size_t)s * g->eb; /* random rows: asked for a block ahead of their copy */
      for (size_t o = 0; o < run; o += 64) __builtin_prefetch(src + o);
      for (int32_t k = g->nb - 1; k >= 0; k--) { /* next batch point */
        ibase += g->istr[k], d += g->rstr[k], sb += g->xbstr[k];
        if (++b[k] < g->bdims[k]) break;
        ibase -= b[k] * g->istr[k], d -= b[k] * g->rstr[k], sb -= b[k] * g->xbstr[k];
        b[k] = 0;
      }
    }
    for (int64_t j = 0; j < n; j++) copy_slice(g, x + (size_t)so[j] * g->eb, res + (size_t)dof[j] * g->eb);
    p += n;
  }
}

/* One 4-byte element a point along one or two batch dims by one i32/ui32 index (the probes
 * of a binary search, jnp.searchsorted's, and vmap's batch of them): a loop of its own,
 * which the general walk above spends about four times as long on (its blocks, batch
 * stepping and slice copies). */
static bool gather_elements(const kiln_cpu_gather *g, const uint8_t *x, const uint8_t *ix, uint8_t *res, int64_t first,
                            int64_t last) {
  if (g->nb < 1 || g->nb > 2 || g->nmap != 1 || g->box_rank != 1 || g->ext[0] != 1 || g->eb != 4 ||
      (g->index_elem != KILN_ELEM_SI32 && g->index_elem != KILN_ELEM_UI32))
    return false;
  bool is_signed = g->index_elem == KILN_ELEM_SI32, two = g->nb == 2;
  int64_t hi = g->mhi[0], ms = g->mstr[0], inner = two ? g->bdims[1] : 1;
  int64_t is1 = two ? g->istr[1] : 0, rs1 = two ? g->rstr[1] : 0, xs1 = two ? g->xbstr[1] : 0;
  int64_t c0 = first / inner, c1 = first % inner; /* the point's coordinates along the batch dims */
  for (int64_t p = first; p < last; p++) {
    uint32_t u;
    memcpy(&u, ix + (size_t)(c0 * g->istr[0] + c1 * is1) * 4, 4);
    int64_t v = is_signed ? (int64_t)(int32_t)u : (int64_t)u;
    v = v < 0 ? 0 : v > hi ? hi : v;
    memcpy(res + (size_t)(c0 * g->rstr[0] + c1 * rs1) * 4, x + (size_t)(c0 * g->xbstr[0] + c1 * xs1 + v * ms) * 4, 4);
    if (++c1 == inner) c1 = 0, c0++;
  }
  return true;
}

/* Points [first, last) of the gather, by the one-element loop where it applies. */
static void gather_range(const kiln_cpu_gather *g, const uint8_t *x, const uint8_t *ix, uint8_t *res, int64_t first,
                         int64_t last) {
  if (!gather_elements(g, x, ix, res, first, last)) gather_points(g, x, ix, res, first, last);
}

typedef struct gather_job {
  const kiln_cpu_gather *g;
  const uint8_t *x, *ix;
  uint8_t *res;
  int32_t chunks;
} gather_job;

static void gather_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const gather_job *j = ctx;
  int64_t n = j->g->count;
  gather_range(j->g, j->x, j->ix, j->res, n * c / j->chunks, n * (c + 1) / j->chunks);
}

void kiln_cpu_gather_run(const kiln_cpu_gather *g, const void *operand, const void *indices, void *out) {
  if (!g->work) return; /* an empty result */
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int32_t chunks = kiln_cpu_pool_chunks(pool, g->work, g->count);
  gather_job j = {g, operand, indices, out, chunks};
  if (chunks < 2) gather_range(g, operand, indices, out, 0, g->count);
  else kiln_cpu_pool_run(pool, chunks, g->work, gather_chunk, &j);
}
