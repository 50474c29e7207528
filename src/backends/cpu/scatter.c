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
 * when the op is prepared). An update window that does not lie inside the operand whole
 * is skipped whole, as the interpreter does (XLA's rule, which JAX's FILL_OR_DROP mode
 * relies on): each index must be within [0, dim - window size] of the dim it starts.
 *
 * Over the pool, the operand is owned in parts: each chunk owns a range of coordinates of
 * the operand's first dim of more than one element (the part dim; the dims before it are
 * of size 1, so a range is one contiguous block of bytes). A chunk copies its block of the
 * operand, then walks every outer point in order and applies the elements that land in its
 * block (an inner run along the part dim clipped to it). Each element is thus updated by
 * one thread in the updates' order, so duplicate and unsorted indices give the serial
 * result bit for bit. With unique_indices no two updates meet, and the outer points are
 * split over the pool instead (after the copy, split the same way); so are the points of a
 * segment sum's form whose indices are found in order at run time, split where the index
 * changes. Other runs too short for parts to share out are applied by the caller alone
 * after the split copy, or, when the combiner allows and there are many updates to each
 * result element, split over private copies of the result (private_points): an order-free
 * combiner's (integers, float maximum and minimum) with the same result bit for bit; a
 * float sum's or product's in a grouping fixed by the shapes alone, so the same bits on
 * every run and thread count, but rounded unlike the serial order (as every parallel sum
 * is). */
#include <stdlib.h>

#include "backends/cpu/gather_scatter.h"
#include "backends/cpu/pool.h"
#include "base/arena.h"

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
  int64_t wmax[R];      /* per index: the largest start that keeps its dim's window inside */
  bool unique;
  int64_t work;         /* update elements */
  int32_t part_dim;     /* the first operand dim of more than one element, or -1 */
  int32_t nchk;         /* the operand dims but the inner run's whose coordinate can be */
  int32_t chk[R];       /* other than 0 (an index or an outer dim adds to it) or the part dim */
  bool rows;            /* a segment sum's form: each point's index picks a whole row of a
                           2-D operand (scatter_rows) */
  bool elements;        /* a histogram's form: each point's index (one coordinate, or one
                           per operand dim it moves: x.at[i, j]) picks the one operand element
                           its one update combines into (scatter_elements) */
  bool fill;            /* the result starts as fill_value in every element, not a copy */
  uint8_t fill_value[16];
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
  for (int32_t k = 0; k < sdod.n; k++) {
    s.map[k] = sdod.v[k];
    int32_t w = -1; /* the window dim the index starts, if any */
    for (int32_t j = 0; j < nwin && w < 0; j++)
      if (win[j] == sdod.v[k]) w = j;
    s.wmax[k] = x->tensor.dims[sdod.v[k]] - (w >= 0 ? u->tensor.dims[uwd.v[w]] : 1);
  }
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
  s.part_dim = -1;
  for (int32_t d = 0; d < xr && s.part_dim < 0; d++)
    if (x->tensor.dims[d] > 1) s.part_dim = d;
  for (int32_t d = 0; d < xr; d++) {
    bool moves = d == s.part_dim || kiln_cpu_dims_find(&sdod, d) >= 0;
    for (int32_t k = 0; k < s.no; k++) moves |= s.ocoord[k] == d;
    if (moves && d != s.inner_dim) s.chk[s.nchk++] = d;
  }
  s.rows = xr == 2 && s.no == 1 && s.ocoord[0] < 0 && s.nmap == 1 && s.map[0] == 0 && s.inner_dim == 1 &&
           s.inner == s.xdims[1] && s.nchk == 1 && s.chk[0] == 0 && s.part_dim == 0;
  /* every dim a point's coordinate can move in is one its index sets */
  bool mapped = s.nchk == s.nmap;
  for (int32_t c = 0; mapped && c < s.nchk; c++) {
    bool found = false;
    for (int32_t k = 0; k < s.nmap; k++) found = found || s.map[k] == s.chk[c];
    mapped = found;
  }
  s.elements = s.inner == 1 && s.inner_dim < 0 && s.no == 1 && s.ocoord[0] < 0 && s.nmap >= 1 && mapped;
  kiln_cpu_scatter *p = malloc(sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *p = s;
  *out = p;
  return NULL;
}

void kiln_cpu_scatter_destroy(kiln_cpu_scatter *s) { free(s); }

bool kiln_cpu_scatter_fill(kiln_cpu_scatter *s, const void *value, size_t bytes) {
  if (bytes != s->eb || bytes > sizeof s->fill_value) return false;
  memcpy(s->fill_value, value, bytes);
  s->fill = true;
  return true;
}

/* bytes (whole elements of eb bytes) at d, each element's bits `elem` (little-endian):
 * one element copied, then the filled part doubled. */
static void fill_elements(uint8_t *d, size_t bytes, const void *elem, size_t eb) {
  size_t done = bytes < eb ? bytes : eb;
  memcpy(d, elem, done);
  for (; done < bytes; done *= 2) memcpy(d + done, d, bytes - done < done ? bytes - done : done);
}

/* Bytes [from, from + bytes) of the result as they start: the operand's, or the fill
 * value's (from and bytes whole elements). */
static void start_bytes(const kiln_cpu_scatter *s, uint8_t *res, const uint8_t *operand, size_t from, size_t bytes) {
  if (!s->fill) {
    memcpy(res + from, operand + from, bytes);
    return;
  }
  bool zero = true;
  for (size_t b = 0; b < s->eb; b++) zero &= s->fill_value[b] == 0;
  if (zero) {
    memset(res + from, 0, bytes);
    return;
  }
  fill_elements(res + from, bytes, s->fill_value, s->eb);
}

/* PRIVATE_MIN_RATIO: an order-free scatter of short runs splits its points over the pool,
 * each chunk into a private copy of the result, when there are at least this many update
 * elements per result element (the copies' fills and combines stay a small share). A
 * regrouping one (float sums and products) does in REGROUP_CHUNKS chunks, on any pool, when
 * it has REGROUP_MIN_WORK update elements and REGROUP_MIN_RATIO per result element: on one
 * thread the copies' fills and combines cost a few percent of its time (jax.ops.segment_sum
 * of f32[65536,32] into 512 rows, 2 threads / 1 thread, us: serial 443 / 446, 2 chunks
 * 240-330 / 469, 4 chunks 271-337 / 510, 8 chunks 372 / 611; Intel Xeon with AVX-512,
 * 2026-12-07). */
enum { BLOCK = 64, PREFETCH_BYTES = 1024, SHARED_RUN_BYTES = 512, PRIVATE_MIN_RATIO = 8 };
/* The elements form prefetches the element AHEAD points on (kiln_cpu_combine_by_fn) into a
 * result of PREFETCH_MIN_BYTES or more, where the combine reads it: x.at[i, j].max(v) of
 * 100,000 points into f32[512, 512] 363 -> 319 us (least of 5 medians; 8 ahead was slower
 * in a C model of the loop, 32 too); a bincount into 1,000 bins lost 10-30% to it, and
 * x.at[i].set(v) of 50,000 points into f32[100000] 41 -> 90 us (AMD Zen 4). */
enum { AHEAD = 16, PREFETCH_MIN_BYTES = 256 << 10 };
enum { REGROUP_CHUNKS = 2, REGROUP_MIN_WORK = 1 << 16, REGROUP_MIN_RATIO = 32 };
/* A copy whose points the caller then applies alone is the caller's too when the operand
 * is at most LOCAL_COPY_BYTES (a core's cache) and there is at least one update element per
 * LOCAL_COPY_RATIO operand elements: split, half the lines lie in another core's cache and
 * random updates fetch them from there (x.at[i, j].max(v), 100,000 updates into
 * f32[512,512]: 614 us split, 460 on one thread; Intel Xeon with AVX-512, 2026-12-06). */
enum { LOCAL_COPY_BYTES = 4 << 20, LOCAL_COPY_RATIO = 16 };

/* scatter_points for the rows form: point p's index picks the operand row its update row
 * combines into, when the row is inside [own_lo, own_hi); the same blocks and prefetches
 * with none of the general form's coordinate walk (which took twice the combining's time in
 * jax.ops.segment_sum of f32[65536,32] into 512 rows). A block's indices are read in one
 * typed loop, and a result under PREFETCH_MIN_BYTES is not prefetched (it stays in the
 * cache): segment_min and segment_prod of f32[65536,8] into 256 rows 243 -> 226 us on 2
 * threads, 480 -> 445 on one (least of 8 medians; AMD Zen 4). */
static void scatter_rows(const kiln_cpu_scatter *s, const uint8_t *ix, const uint8_t *up, uint8_t *res, int64_t first,
                         int64_t last, int64_t own_lo, int64_t own_hi) {
  size_t row = (size_t)s->inner * s->eb, ahead = row < PREFETCH_BYTES ? row : PREFETCH_BYTES;
  if (s->operand_bytes < PREFETCH_MIN_BYTES) ahead = 0;
  size_t istep = (size_t)s->oistr[0] * s->index_bytes;
  int64_t dst[BLOCK], src[BLOCK], at[BLOCK];
  for (int64_t p = first; p < last;) {
    int64_t n = last - p < BLOCK ? last - p : BLOCK, m = 0;
    kiln_cpu_load_indices(s->index_elem, ix + (size_t)p * istep, istep, n, at);
    for (int64_t j = 0; j < n; j++, p++) {
      int64_t v = at[j];
      if (v < own_lo || v >= own_hi) continue;
      dst[m] = v, src[m++] = p;
      for (size_t b = 0; b < ahead; b += 64) __builtin_prefetch(res + (size_t)v * row + b, 1);
    }
    s->comb.rows(&s->comb, res, dst, up, src, m, s->inner);
  }
}

/* scatter_points for the elements form: point p's index v picks element v of the operand's
 * one dim that moves, when v is inside [own_lo, own_hi) (that dim is the part dim) or the
 * dim; a block's elements are combined in one call (a bincount of 262,144 points into 1,024
 * bins took 2.3 ms in the general walk). */
static void scatter_elements(const kiln_cpu_scatter *s, const uint8_t *ix, const uint8_t *up, uint8_t *res,
                             int64_t first, int64_t last, int64_t own_lo, int64_t own_hi) {
  int64_t lo[R], hi[R], step[R];
  for (int32_t k = 0; k < s->nmap; k++) {
    int32_t d = (int32_t)s->map[k];
    lo[k] = d == s->part_dim ? own_lo : 0, hi[k] = d == s->part_dim ? own_hi : s->xdims[d], step[k] = s->xstr[d];
  }
  bool si32 = s->index_elem == KILN_ELEM_SI32, si64 = s->index_elem == KILN_ELEM_SI64;
  kiln_cpu_combine_by_fn by = s->nmap != 1 ? NULL : si32 ? s->comb.by_si32 : si64 ? s->comb.by_si64 : NULL;
  kiln_cpu_combine_by2_fn by2 = s->nmap != 2 ? NULL : si32 ? s->comb.by2_si32 : si64 ? s->comb.by2_si64 : NULL;
  const uint8_t *from = ix + (size_t)(first * s->oistr[0]) * s->index_bytes, *ups = up + (size_t)first * s->eb;
  /* a native op reads the element it combines into (a replace only writes it) */
  bool reads = s->comb.order_free || s->comb.regroup;
  int64_t ahead = reads && s->operand_bytes >= PREFETCH_MIN_BYTES ? AHEAD : 0;
  if (by) {
    by(&s->comb, res, step[0], lo[0], hi[0], from, s->oistr[0], ups, last - first, ahead);
    return;
  }
  if (by2) {
    by2(&s->comb, res, step, lo, hi, from, s->oistr[0], s->vstep, ups, last - first, ahead);
    return;
  }
  /* three coordinates or more, or other index types: the scalar path */
  size_t istride = (size_t)s->oistr[0] * s->index_bytes, vstride = (size_t)s->vstep * s->index_bytes;
  int64_t dst[BLOCK], src[BLOCK];
  for (int64_t p = first; p < last;) {
    int64_t n = last - p < BLOCK ? last - p : BLOCK, m = 0;
    for (int64_t j = 0; j < n; j++, p++) {
      const uint8_t *at = ix + (size_t)p * istride;
      int64_t off = 0;
      bool inside = true;
      for (int32_t k = 0; k < s->nmap; k++) {
        int64_t v = kiln_cpu_load_index(s->index_elem, at + (size_t)k * vstride);
        inside = inside && v >= lo[k] && v < hi[k];
        if (inside) off += v * step[k];
      }
      if (inside) dst[m] = off, src[m++] = p;
    }
    s->comb.at(&s->comb, res, dst, up, src, m);
  }
}

/* Outer points [first, last): each one's inner run, where it lands inside the operand and,
 * along the part dim, inside [own_lo, own_hi) (the whole dim, or a chunk's part). Points go
 * in blocks: a block's runs are placed (and their first bytes in the result prefetched)
 * before any of them is combined, so the random rows of a segment sum arrive together. The
 * outer dims' share of each point's coordinates and index offset is kept as they step. */
static void scatter_points(const kiln_cpu_scatter *s, const uint8_t *ix, const uint8_t *up, uint8_t *res, int64_t first,
                           int64_t last, int64_t own_lo, int64_t own_hi) {
  if (s->rows) {
    scatter_rows(s, ix, up, res, first, last, own_lo, own_hi);
    return;
  }
  if (s->elements) {
    scatter_elements(s, ix, up, res, first, last, own_lo, own_hi);
    return;
  }
  int64_t o[R], rest = first, dlo[R], dhi[R], ob[R], ibase = 0, dst[BLOCK], src[BLOCK], len[BLOCK];
  for (int32_t d = 0; d < s->xr; d++) {
    ob[d] = 0;
    dlo[d] = d == s->part_dim ? own_lo : 0;
    dhi[d] = d == s->part_dim ? own_hi : s->xdims[d];
  }
  for (int32_t k = s->no - 1; k >= 0; k--) {
    o[k] = rest % s->odims[k];
    rest /= s->odims[k];
    ibase += o[k] * s->oistr[k];
    if (s->ocoord[k] >= 0) ob[s->ocoord[k]] += o[k];
  }
  int32_t id = s->inner_dim;
  int64_t jstr = id >= 0 ? s->xstr[id] : 0, il = id >= 0 ? dlo[id] : 0, ih = id >= 0 ? dhi[id] : 0;
  size_t ahead = jstr != 1 ? 1 : (size_t)s->inner * s->eb < PREFETCH_BYTES ? (size_t)s->inner * s->eb : PREFETCH_BYTES;
  for (int64_t p = first; p < last;) {
    int64_t n = last - p < BLOCK ? last - p : BLOCK;
    for (int64_t j = 0; j < n; j++, p++) {
      int64_t ri[R];
      for (int32_t d = 0; d < s->xr; d++) ri[d] = ob[d];
      bool inside = true;
      for (int32_t k = 0; inside && k < s->nmap; k++) {
        int64_t v = kiln_cpu_load_index(s->index_elem, ix + (size_t)(ibase + k * s->vstep) * s->index_bytes);
        inside = v >= 0 && v <= s->wmax[k]; /* the whole window inside */
        if (inside) ri[s->map[k]] += v;
      }
      for (int32_t k = s->no - 1; k >= 0; k--) { /* next outer point */
        ibase += s->oistr[k];
        if (s->ocoord[k] >= 0) ob[s->ocoord[k]]++;
        if (++o[k] < s->odims[k]) break;
        ibase -= o[k] * s->oistr[k];
        if (s->ocoord[k] >= 0) ob[s->ocoord[k]] -= o[k];
        o[k] = 0;
      }
      len[j] = 0;
      int64_t at = 0;
      for (int32_t c = 0; inside && c < s->nchk; c++) {
        int32_t d = s->chk[c];
        inside = ri[d] >= dlo[d] && ri[d] < dhi[d];
        at += ri[d] * s->xstr[d];
      }
      if (!inside) continue;
      int64_t lo = 0, hi = s->inner;
      if (id >= 0) { /* the run's elements inside: il <= start + w < ih */
        int64_t start = ri[id];
        if (start <= il - s->inner || start >= ih) continue;
        lo = start < il ? il - start : 0;
        hi = ih - start < s->inner ? ih - start : s->inner;
        at += start * jstr;
      }
      dst[j] = at + lo * jstr, src[j] = p * s->inner + lo, len[j] = hi - lo;
      const uint8_t *d = res + (size_t)dst[j] * s->eb;
      for (size_t b = 0; b < ahead; b += 64) __builtin_prefetch(d + b, 1);
    }
    if (s->inner == 1) { /* single elements: the block's in one call */
      int64_t m = 0;
      for (int64_t j = 0; j < n; j++)
        if (len[j] > 0) dst[m] = dst[j], src[m++] = src[j];
      s->comb.at(&s->comb, res, dst, up, src, m);
      continue;
    }
    for (int64_t j = 0; j < n; j++)
      if (len[j] > 0) s->comb.fn(&s->comb, res + (size_t)dst[j] * s->eb, jstr, up + (size_t)src[j] * s->eb, len[j]);
  }
}

typedef struct scatter_job {
  const kiln_cpu_scatter *s;
  const uint8_t *x, *ix, *up;
  uint8_t *res;
  int32_t chunks;
  bool copy, owned; /* copy the operand's part; apply the updates to the part (else: nothing more) */
  bool sorted;      /* points_chunk: the rows form's indices in order (rows_sorted) */
} scatter_job;

/* Whether the rows form's indices never decrease from point to point, so that the points
 * of one row are consecutive (a segment sum with sorted segment ids). Stops at the first
 * decrease: unsorted indices are found out within a few points. */
static bool rows_sorted(const kiln_cpu_scatter *s, const uint8_t *ix) {
  size_t step = (size_t)s->oistr[0] * s->index_bytes;
  int64_t prev = INT64_MIN;
  for (int64_t p = 0; p < s->outer; p++, ix += step) {
    int64_t v = kiln_cpu_load_index(s->index_elem, ix);
    if (v < prev) return false;
    prev = v;
  }
  return true;
}

/* The part dim's coordinates [*lo, *hi) of chunk c. */
static void part_range(const scatter_job *j, int32_t c, int64_t *lo, int64_t *hi) {
  int64_t n = j->s->part_dim >= 0 ? j->s->xdims[j->s->part_dim] : 1;
  *lo = n * c / j->chunks;
  *hi = n * (c + 1) / j->chunks;
}

/* Chunk c of the operand: its part copied, then (owned) every update that lands in it. */
static void part_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const scatter_job *j = ctx;
  const kiln_cpu_scatter *s = j->s;
  int64_t lo, hi;
  part_range(j, c, &lo, &hi);
  if (lo == hi) return;
  size_t row = (size_t)(s->part_dim >= 0 ? s->xstr[s->part_dim] : 1) * s->eb;
  if (j->copy) start_bytes(s, j->res, j->x, (size_t)lo * row, (size_t)(hi - lo) * row);
  if (j->owned) scatter_points(s, j->ix, j->up, j->res, 0, s->outer, lo, hi);
}

/* The first outer point of chunk c. With sorted indices a chunk that would start inside a
 * row's points starts after them (found by bisection: a row of a million points is not
 * walked): every row's points are one chunk's, applied in order. */
static int64_t chunk_start(const scatter_job *j, int32_t c) {
  const kiln_cpu_scatter *s = j->s;
  int64_t p = s->outer * c / j->chunks, hi = s->outer;
  if (!j->sorted || p == 0) return p;
  size_t step = (size_t)s->oistr[0] * s->index_bytes;
  int64_t before = kiln_cpu_load_index(s->index_elem, j->ix + (size_t)(p - 1) * step);
  while (p < hi) { /* the first point past `before`'s row */
    int64_t mid = p + (hi - p) / 2;
    if (kiln_cpu_load_index(s->index_elem, j->ix + (size_t)mid * step) == before) p = mid + 1;
    else hi = mid;
  }
  return p;
}

/* Chunk c of the outer points (unique indices, or the rows form's sorted ones). */
static void points_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const scatter_job *j = ctx;
  const kiln_cpu_scatter *s = j->s;
  int64_t all = s->part_dim >= 0 ? s->xdims[s->part_dim] : 1;
  scatter_points(s, j->ix, j->up, j->res, chunk_start(j, c), chunk_start(j, c + 1), 0, all);
}

/* Points split over private copies: chunk 0 applies its points to the result itself,
 * chunk c > 0 into copy c - 1, which starts at the combiner's identity; the copies are
 * combined into the result in chunk order once every chunk is done. An order-free combiner
 * gets as many chunks as the pool's cost model gives; a regrouping one always
 * REGROUP_CHUNKS, cut at fixed points, so that its sums are grouped alike on every run,
 * host and thread count. */
typedef struct private_job {
  const kiln_cpu_scatter *s;
  const uint8_t *ix, *up;
  uint8_t *res, *copies;
  int32_t chunks;
} private_job;

static void private_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const private_job *j = ctx;
  const kiln_cpu_scatter *s = j->s;
  int64_t n = s->outer, all = s->part_dim >= 0 ? s->xdims[s->part_dim] : 1;
  uint8_t *into = j->res;
  if (c > 0) {
    into = j->copies + (size_t)(c - 1) * s->operand_bytes;
    fill_elements(into, s->operand_bytes, &s->comb.identity, s->eb);
  }
  scatter_points(s, j->ix, j->up, into, n * c / j->chunks, n * (c + 1) / j->chunks, 0, all);
}

/* How many chunks s's points go to private copies in (private_chunk): an order-free
 * combiner's as the pool splits them, a regrouping one's REGROUP_CHUNKS where its shapes
 * allow (REGROUP_MIN_WORK, REGROUP_MIN_RATIO), whatever the pool; 1 for none. */
static int32_t private_chunks(const kiln_cpu_scatter *s, kiln_cpu_pool *pool) {
  int64_t elems = (int64_t)(s->operand_bytes / s->eb);
  if (s->unique) return 1;
  if (s->comb.order_free && s->work >= PRIVATE_MIN_RATIO * elems)
    return kiln_cpu_pool_chunks(pool, s->work, kiln_cpu_pool_threads(pool));
  if (s->comb.regroup && s->work >= REGROUP_MIN_WORK && s->work >= REGROUP_MIN_RATIO * elems) return REGROUP_CHUNKS;
  return 1;
}

/* s's points in `chunks` chunks over private copies; false (nothing done) without memory
 * for the copies: the caller applies the points in order (best effort, so no fault point:
 * the run does not fail). */
static bool private_points(const kiln_cpu_scatter *s, kiln_cpu_pool *pool, int32_t chunks, const void *ix, const void *up,
                           void *out) {
  size_t bytes;
  if (!kiln_mul_size((size_t)(chunks - 1), (size_t)s->operand_bytes, &bytes)) return false;
  private_job j = {s, ix, up, out, malloc(bytes), chunks};
  if (!j.copies) return false;
  kiln_cpu_pool_run(pool, chunks, s->work, private_chunk, &j);
  int64_t elems = (int64_t)(s->operand_bytes / s->eb);
  for (int32_t c = 1; c < chunks; c++) s->comb.fn(&s->comb, out, 1, j.copies + (size_t)(c - 1) * s->operand_bytes, elems);
  free(j.copies);
  return true;
}

void kiln_cpu_scatter_run(const kiln_cpu_scatter *s, const void *operand, const void *indices, const void *updates,
                          void *out) {
  if (!s->operand_bytes) return;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  bool copy = s->fill || out != operand;
  int64_t copied = copy ? (int64_t)(s->operand_bytes / s->eb) : 0, all = s->part_dim >= 0 ? s->xdims[s->part_dim] : 1;
  /* Every part walks all the points and reads the updates whose runs land in it: worth it
   * when each run spans lines of its own to share out. Runs of under SHARED_RUN_BYTES are
   * applied by one thread after the copy, split (both threads streamed the whole updates for
   * half the rows each: jax.ops.segment_sum of f32[65536,32] into 512 rows took 0.79 ms in
   * two parts, 0.48 in one, XLA:CPU 0.48 to 1.3). */
  int64_t copy_parts = kiln_cpu_pool_threads(pool), runs = 1 + s->inner / 8;
  if (copy_parts > all) copy_parts = all;
  int64_t parts = !s->unique && copy_parts > runs ? runs : copy_parts;
  bool serial_points = !s->unique && (size_t)s->inner * s->eb < SHARED_RUN_BYTES;
  scatter_job j = {s, operand, indices, updates, out, 1, copy, false, false};
  if (s->unique || serial_points) { /* the copy split by parts, then the points (split if unique) */
    int32_t private = private_chunks(s, pool);
    bool local = !s->unique && private < 2 && s->operand_bytes <= LOCAL_COPY_BYTES && s->work * LOCAL_COPY_RATIO >= copied;
    j.chunks = local ? 1 : kiln_cpu_pool_chunks(pool, copied, copy_parts);
    if (copy && j.chunks < 2) start_bytes(s, out, operand, 0, s->operand_bytes);
    else if (copy) kiln_cpu_pool_run(pool, j.chunks, copied, part_chunk, &j);
    if (!s->work) return; /* an update dim of size 0: no points (and an odims of 0) */
    /* sorted rows (a segment sum's ids in order): split where the id changes, each row's
     * updates still applied in order by one thread (the serial result bit for bit, on any
     * pool: so sorted ids are looked for before a regrouping combiner's private copies) */
    j.sorted = !s->unique && s->rows && rows_sorted(s, indices);
    if (!j.sorted && private >= 2 && private_points(s, pool, private, indices, updates, out)) return;
    j.chunks = s->unique || j.sorted ? kiln_cpu_pool_chunks(pool, s->work, s->outer) : 1;
    if (j.chunks < 2) scatter_points(s, indices, updates, out, 0, s->outer, 0, all);
    else kiln_cpu_pool_run(pool, j.chunks, s->work, points_chunk, &j);
    return;
  }
  /* each part copied and updated by one chunk */
  j.owned = s->work > 0;
  j.chunks = kiln_cpu_pool_chunks(pool, copied + s->work, parts);
  if (j.chunks < 2) part_chunk(&j, 0, 0);
  else kiln_cpu_pool_run(pool, j.chunks, copied + s->work, part_chunk, &j);
}
