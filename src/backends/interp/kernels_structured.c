/* Ops with computation regions and windows: reduce, reduce_window, select_and_scatter,
 * sort, map, chlo.top_k, chlo.scan, and the three batch norms.
 *
 * Regions run once per element (the interpreter's cost model) through a region_run: a
 * set of argument slots the kernel fills before each call. Slots the kernel allocated
 * ("mine") are rewritten in place between calls: a value bound to a block argument is
 * read only by the region's own ops, which run again after the next binding. A slot that
 * took a region result is never written (the result may be a value of the enclosing
 * function); writing one, or one that another slot shares, first gets a fresh tensor. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/interp/float_bits.h"
#include "backends/interp/interp.h"
#include "base/fault.h"

enum { MAX_RANK = KILN_RTV_MAX_RANK };

/* ------------------------------------------------------------------ attributes */

static kiln_status attr_int(kiln_interp_ctx *ctx, const kiln_op *op, const char *name, bool required,
                            int64_t dflt, int64_t *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  *out = dflt;
  if (!a) return required ? kiln_interp_error(ctx, op, "needs the attribute '%s'", name) : NULL;
  if (kiln_attr_count(a) != 1 || !kiln_attr_i64_at(a, 0, out))
    return kiln_interp_error(ctx, op, "attribute '%s' must be an integer", name);
  return NULL;
}

/* An integer list of n entries; dflt for every entry when the attribute is absent. */
static kiln_status attr_ints(kiln_interp_ctx *ctx, const kiln_op *op, const char *name, int64_t n, int64_t dflt,
                             int64_t *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) {
    for (int64_t i = 0; i < n; i++) out[i] = dflt;
    return NULL;
  }
  int64_t count = kiln_attr_count(a);
  if (count != n)
    return kiln_interp_error(ctx, op, "attribute '%s' has %lld entries where %lld are expected", name,
                             (long long)count, (long long)n);
  for (int64_t i = 0; i < n; i++) kiln_attr_i64_at(a, i, &out[i]);
  return NULL;
}

static bool attr_bool(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return false;
  if (a->kind == KILN_ATTR_BOOL) return a->b;
  if (a->kind == KILN_ATTR_UNIT) return true;
  return a->kind == KILN_ATTR_INT && kiln_attr_int(a) != 0;
}

/* ------------------------------------------------------------------ elements */

static uint8_t *at(const kiln_rtv *t, int64_t i) { return t->data + (size_t)i * t->elem_bytes; }

static double round_to(kiln_elem e, double v) {
  return e == KILN_ELEM_F64 ? v : kiln_elem_float_from_bits(e, kiln_elem_float_to_bits(e, v));
}

static bool is_int_class(kiln_elem_class c) { return c != KILN_ELEM_CLASS_F && c != KILN_ELEM_CLASS_C; }

/* Element i of t in its storage type; a quantized element is dequantized (the spec's
 * formula, rounded through the expressed type), and *e becomes the expressed type. */
static kiln_scalar load_value(const kiln_rtv *t, int64_t i, kiln_elem *e) {
  kiln_scalar s = kiln_scalar_load(t->elem, at(t, i));
  *e = t->elem;
  const kiln_type *q = t->elem_type;
  if (q->kind != KILN_TYPE_QUANT) return s;
  int64_t k = 0;
  if (q->quant.axis >= 0 && q->quant.axis < t->rank) {
    int64_t stride = 1;
    for (int32_t d = t->rank - 1; d > q->quant.axis; d--) stride *= t->dims[d];
    k = (i / stride) % t->dims[q->quant.axis];
  }
  if (k >= q->quant.count) k = q->quant.count - 1;
  kiln_elem ex = q->quant.expressed;
  double zp = round_to(ex, (double)q->quant.zero_points[k]);
  *e = ex;
  return (kiln_scalar){.f = round_to(ex, round_to(ex, (double)s.i - zp) * round_to(ex, q->quant.scales[k]))};
}

/* Converts between element types (the promotions a region's types allow, and a plain
 * fallback otherwise: floats to integers truncate and saturate). */
static kiln_scalar convert(kiln_elem from, kiln_elem to, kiln_scalar s) {
  kiln_elem_class fc = kiln_elem_class_of(from), tc = kiln_elem_class_of(to);
  if (is_int_class(fc) && is_int_class(tc)) return s;
  double re = fc == KILN_ELEM_CLASS_U ? (double)s.u : is_int_class(fc) ? (double)s.i : s.f;
  double im = fc == KILN_ELEM_CLASS_C ? s.im : 0;
  kiln_scalar r = {{0}, 0};
  if (!is_int_class(tc)) {
    r.f = re;
    r.im = tc == KILN_ELEM_CLASS_C ? im : 0;
  } else if (tc == KILN_ELEM_CLASS_U) {
    r.u = !(re > 0) ? 0 : re >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)re;
  } else {
    r.i = isnan(re) ? 0 : re <= -9223372036854775808.0 ? INT64_MIN : re >= 9223372036854775808.0 ? INT64_MAX : (int64_t)re;
  }
  return r;
}

/* dst[di] = src[si], converted when the element types differ (dst is never quantized:
 * these kernels run quantized ops on their expressed types). */
static void copy_elem(kiln_rtv *dst, int64_t di, const kiln_rtv *src, int64_t si) {
  if (dst->elem_type == src->elem_type || kiln_type_equal(dst->elem_type, src->elem_type)) {
    memmove(at(dst, di), at(src, si), dst->elem_bytes);
    return;
  }
  kiln_elem e;
  kiln_scalar s = load_value(src, si, &e);
  kiln_scalar_store(dst->elem, at(dst, di), convert(e, dst->elem, s));
}

/* n consecutive elements. */
static void copy_run(kiln_rtv *dst, int64_t di, const kiln_rtv *src, int64_t si, int64_t n) {
  if (n > 0 && (dst->elem_type == src->elem_type || kiln_type_equal(dst->elem_type, src->elem_type))) {
    memmove(at(dst, di), at(src, si), (size_t)n * dst->elem_bytes);
    return;
  }
  for (int64_t i = 0; i < n; i++) copy_elem(dst, di + i, src, si + i);
}

static bool truthy(const kiln_rtv *v) {
  kiln_elem e;
  kiln_scalar s = load_value(v, 0, &e);
  kiln_elem_class c = kiln_elem_class_of(e);
  return is_int_class(c) ? s.u != 0 : (s.f != 0 || s.im != 0);
}

static kiln_status need_tensor(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *v, const char *what) {
  if (!v || v->kind != KILN_RTV_TENSOR) return kiln_interp_error(ctx, op, "%s must be a tensor", what);
  return NULL;
}

static kiln_status same_shape(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *a, const kiln_rtv *b,
                              const char *what) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, b, what));
  if (a->rank != b->rank || memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank))
    return kiln_interp_error(ctx, op, "%s must have the shape of the first input", what);
  return NULL;
}

static kiln_status need_scalar(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *v, const char *what) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, v, what));
  if (v->count != 1) return kiln_interp_error(ctx, op, "%s must be a 0-dimensional tensor", what);
  return NULL;
}

/* ------------------------------------------------------------------ running regions */

typedef struct region_run {
  kiln_interp_ctx *ctx;
  const kiln_op *op;
  const kiln_op *func; /* a function op calls (its own frame), or NULL: op's own region */
  const kiln_region *region;
  const kiln_block *block;
  int32_t nargs, nres;
  kiln_rtv **args, **res;
  const kiln_type **types; /* element type of each argument slot */
  bool *mine;
  bool scalar_results; /* results must be single elements */
} region_run;

static void rr_free(region_run *r) {
  for (int32_t i = 0; r->args && i < r->nargs; i++) kiln_rtv_release(r->args[i]);
  for (int32_t i = 0; r->res && i < r->nres; i++) kiln_rtv_release(r->res[i]);
  free(r->args);
  free(r->res);
  free(r->types);
  free(r->mine);
  memset(r, 0, sizeof *r);
}

/* A runner of region rg: op's own, or the body of func, a function op calls (run in a
 * frame of its own: its values are numbered apart from the caller's). */
static kiln_status rr_init_region(region_run *r, kiln_interp_ctx *ctx, const kiln_op *op, const kiln_op *func,
                                  const kiln_region *rg, int32_t nargs, int32_t nres) {
  memset(r, 0, sizeof *r);
  const kiln_block *b = rg->first;
  if (b->num_args != nargs)
    return kiln_interp_error(ctx, op, "its computation takes %d arguments where %d are expected", (int)b->num_args,
                             (int)nargs);
  const kiln_type *ft = func ? kiln_func_type(func) : NULL;
  if (func && (!ft || ft->func.num_results != nres))
    return kiln_interp_error(ctx, op, "its computation @%s must return %d values", kiln_func_name(func), (int)nres);
  *r = (region_run){ctx, op, func, rg, b, nargs, nres, NULL, NULL, NULL, NULL, true};
  r->args = kiln_fault_calloc((size_t)nargs + 1, sizeof *r->args);
  r->res = kiln_fault_calloc((size_t)nres + 1, sizeof *r->res);
  r->types = kiln_fault_calloc((size_t)nargs + 1, sizeof *r->types);
  r->mine = kiln_fault_calloc((size_t)nargs + 1, sizeof *r->mine);
  if (!r->args || !r->res || !r->types || !r->mine) {
    rr_free(r);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  return NULL;
}

/* The one function op's called_computations names (with a body): the `what` it calls. */
static kiln_status called_function(kiln_interp_ctx *ctx, const kiln_op *op, const char *what, const kiln_op **out) {
  const kiln_attr *calls = kiln_op_attr(op, "called_computations");
  const kiln_attr *c = calls && calls->kind == KILN_ATTR_ARRAY && calls->array.count == 1 ? calls->array.items[0] : NULL;
  *out = c && c->kind == KILN_ATTR_SYMBOL ? kiln_interp_lookup_func(ctx->interp, c->symbol) : NULL;
  if (!*out || !(*out)->num_regions || !(*out)->regions[0].first)
    return kiln_interp_error(ctx, op, "needs its %s function in called_computations", what);
  return NULL;
}

static kiln_status rr_init(region_run *r, kiln_interp_ctx *ctx, const kiln_op *op, int32_t region, int32_t nargs,
                           int32_t nres) {
  memset(r, 0, sizeof *r);
  if (region >= op->num_regions || !kiln_op_block(op, region))
    return kiln_interp_error(ctx, op, "is missing region #%d", (int)region);
  return rr_init_region(r, ctx, op, NULL, &op->regions[region], nargs, nres);
}

/* Allocates slot k with the block argument's element type (like's when the block's is
 * quantized: the op then runs on the expressed type) and the given shape. */
static kiln_status rr_arg(region_run *r, int32_t k, const kiln_rtv *like, int32_t rank, const int64_t *dims) {
  const kiln_type *t = kiln_type_element(r->block->args[k].type);
  r->types[k] = t && t->kind == KILN_TYPE_SCALAR ? t : like->elem_type;
  kiln_rtv_release(r->args[k]);
  r->args[k] = NULL;
  r->mine[k] = true;
  return kiln_rtv_tensor(r->types[k], rank, dims, &r->args[k]);
}

/* Makes slot k safe to write in place. */
static kiln_status rr_writable(region_run *r, int32_t k) {
  bool shared = !r->mine[k];
  for (int32_t j = 0; !shared && j < r->nargs; j++) shared = j != k && r->args[j] == r->args[k];
  if (!shared) return NULL;
  kiln_rtv *fresh;
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(r->types[k], r->args[k]->rank, r->args[k]->dims, &fresh));
  kiln_rtv_release(r->args[k]);
  r->args[k] = fresh;
  r->mine[k] = true;
  return NULL;
}

/* Slot k (a single element) = src[i]. */
static kiln_status rr_set(region_run *r, int32_t k, const kiln_rtv *src, int64_t i) {
  KILN_RETURN_IF_ERROR(rr_writable(r, k));
  copy_elem(r->args[k], 0, src, i);
  return NULL;
}

/* Slot k refers to v (a result or an operand; never written). */
static void rr_bind(region_run *r, int32_t k, kiln_rtv *v) {
  kiln_rtv_retain(v);
  kiln_rtv_release(r->args[k]);
  r->args[k] = v;
  r->mine[k] = false;
}

/* Slot k takes result j. */
static void rr_take(region_run *r, int32_t k, int32_t j) {
  kiln_rtv_release(r->args[k]);
  r->args[k] = r->res[j];
  r->res[j] = NULL;
  r->mine[k] = false;
}

static kiln_status rr_call(region_run *r) {
  for (int32_t i = 0; i < r->nres; i++) {
    kiln_rtv_release(r->res[i]);
    r->res[i] = NULL;
  }
  if (r->func) KILN_RETURN_IF_ERROR(kiln_interp_call(r->ctx, r->func, r->args, r->nargs, r->res));
  else KILN_RETURN_IF_ERROR(kiln_interp_region(r->ctx, r->region, r->args, r->nargs, r->res, r->nres));
  for (int32_t i = 0; i < r->nres; i++) {
    const kiln_rtv *v = r->res[i];
    if (!v || v->kind != KILN_RTV_TENSOR || (r->scalar_results && v->count != 1))
      return kiln_interp_error(r->ctx, r->op, "region result #%d is not %s", (int)i,
                               r->scalar_results ? "a 0-dimensional tensor" : "a tensor");
  }
  return NULL;
}

/* One step of a reduction: args [0, n) hold the accumulators and [n, 2n) the next
 * elements; the body's results become the accumulators. */
static kiln_status fold(region_run *r, int32_t n) {
  KILN_RETURN_IF_ERROR(rr_call(r));
  for (int32_t i = 0; i < n; i++) rr_take(r, i, i);
  return NULL;
}

/* Common setup of reduce and reduce_window: n inputs, n inits (then `extra` more operands),
 * n results; the body (op's region, or the function func when given) has accumulator
 * slots like the inits and element slots like the inputs. */
static kiln_status reduction_setup_of(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const kiln_op *func, int32_t extra,
                                      int32_t *n, region_run *r) {
  const kiln_op *op = a->op;
  *n = (a->num_in - extra) / 2;
  if (*n < 1 || a->num_in != 2 * *n + extra || a->num_out != *n)
    return kiln_interp_error(ctx, op, "needs N inputs, N init values%s and N results", extra ? ", the window" : "");
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, a->in[0], "inputs[0]"));
  for (int32_t i = 0; i < *n; i++) {
    KILN_RETURN_IF_ERROR(same_shape(ctx, op, a->in[0], a->in[i], "every input"));
    KILN_RETURN_IF_ERROR(need_scalar(ctx, op, a->in[*n + i], "every init value"));
  }
  if (func) KILN_RETURN_IF_ERROR(rr_init_region(r, ctx, op, func, &func->regions[0], 2 * *n, *n));
  else KILN_RETURN_IF_ERROR(rr_init(r, ctx, op, 0, 2 * *n, *n));
  kiln_status st = NULL;
  for (int32_t i = 0; !st && i < *n; i++) {
    st = rr_arg(r, i, a->in[*n + i], 0, NULL);
    if (!st) st = rr_arg(r, *n + i, a->in[i], 0, NULL);
  }
  if (st) rr_free(r);
  return st;
}

static kiln_status reduction_setup(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t *n, region_run *r) {
  return reduction_setup_of(ctx, a, NULL, 0, n, r);
}

static kiln_status reset_accumulators(region_run *r, const kiln_kernel_args *a, int32_t n) {
  for (int32_t i = 0; i < n; i++) KILN_RETURN_IF_ERROR(rr_set(r, i, a->in[n + i], 0));
  return NULL;
}

static kiln_status set_elements(region_run *r, const kiln_kernel_args *a, int32_t n, int64_t off) {
  for (int32_t i = 0; i < n; i++)
    KILN_RETURN_IF_ERROR(off < 0 ? rr_set(r, n + i, a->in[n + i], 0) : rr_set(r, n + i, a->in[i], off));
  return NULL;
}

static void store_accumulators(region_run *r, const kiln_kernel_args *a, int32_t n, int64_t pos) {
  for (int32_t i = 0; i < n; i++) copy_elem(a->out[i], pos, r->args[i], 0);
}

/* ------------------------------------------------------------------ reduce */

typedef struct reduce_plan {
  int32_t orank, rrank;
  int64_t odims[MAX_RANK], ostr[MAX_RANK]; /* kept dimensions and their input strides */
  int64_t rdims[MAX_RANK], rstr[MAX_RANK]; /* reduced dimensions */
} reduce_plan;

static kiln_status reduce_loop(region_run *r, const kiln_kernel_args *a, int32_t n, const reduce_plan *p) {
  int64_t oidx[MAX_RANK] = {0}, ridx[MAX_RANK];
  bool nonempty = a->in[0]->count > 0;
  for (int64_t o = 0; o < a->out[0]->count; o++) {
    int64_t base = 0;
    for (int32_t d = 0; d < p->orank; d++) base += oidx[d] * p->ostr[d];
    KILN_RETURN_IF_ERROR(reset_accumulators(r, a, n));
    if (nonempty) {
      memset(ridx, 0, sizeof ridx);
      do {
        int64_t off = base;
        for (int32_t d = 0; d < p->rrank; d++) off += ridx[d] * p->rstr[d];
        KILN_RETURN_IF_ERROR(set_elements(r, a, n, off));
        KILN_RETURN_IF_ERROR(fold(r, n));
      } while (kiln_index_next(p->rrank, p->rdims, ridx));
    }
    store_accumulators(r, a, n, o);
    kiln_index_next(p->orank, p->odims, oidx);
  }
  return NULL;
}

static kiln_status k_reduce(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op;
  int32_t n;
  region_run r;
  KILN_RETURN_IF_ERROR(reduction_setup(ctx, a, &n, &r));
  const kiln_rtv *in = a->in[0];
  reduce_plan p = {0};
  bool reduced[MAX_RANK] = {false};
  const kiln_attr *dims = kiln_op_attr(op, "dimensions");
  int64_t nd = dims ? kiln_attr_count(dims) : -1;
  kiln_status st = nd < 0 ? kiln_interp_error(ctx, op, "needs an integer list 'dimensions'") : NULL;
  for (int64_t i = 0; !st && i < nd; i++) {
    int64_t d = -1;
    kiln_attr_i64_at(dims, i, &d);
    if (d < 0 || d >= in->rank || reduced[d])
      st = kiln_interp_error(ctx, op, "dimensions[%lld] = %lld is out of range or repeated", (long long)i, (long long)d);
    else reduced[d] = true;
  }
  int64_t str[MAX_RANK];
  kiln_strides(in->rank, in->dims, str);
  for (int32_t d = 0; d < in->rank; d++) {
    if (reduced[d]) p.rdims[p.rrank] = in->dims[d], p.rstr[p.rrank++] = str[d];
    else p.odims[p.orank] = in->dims[d], p.ostr[p.orank++] = str[d];
  }
  for (int32_t i = 0; !st && i < n; i++) st = kiln_kernel_result(a, i, p.orank, p.odims);
  if (!st) st = reduce_loop(&r, a, n, &p);
  rr_free(&r);
  return st;
}

/* ------------------------------------------------------------------ reduce_window */

typedef struct window {
  int32_t rank;
  int64_t size[MAX_RANK], stride[MAX_RANK], base_dil[MAX_RANK], win_dil[MAX_RANK], lo[MAX_RANK], hi[MAX_RANK];
  int64_t out[MAX_RANK]; /* number of windows per dimension */
} window;

/* Counts the windows (the spec's num_windows) of w (its sizes, strides, dilations and
 * padding pad, lo and hi per dim, set) over an input of the given dims. */
static kiln_status window_count(kiln_interp_ctx *ctx, const kiln_op *op, const int64_t *dims, const int64_t *pad, window *w) {
  for (int32_t d = 0; d < w->rank; d++) {
    w->lo[d] = pad[2 * d];
    w->hi[d] = pad[2 * d + 1];
    if (w->size[d] <= 0 || w->stride[d] <= 0 || w->base_dil[d] <= 0 || w->win_dil[d] <= 0)
      return kiln_interp_error(ctx, op, "window sizes, strides and dilations must be positive (dimension %d)", (int)d);
    int64_t dilated = 0, padded, span;
    bool ok = dims[d] == 0 || (kiln_mul_i64(dims[d] - 1, w->base_dil[d], &dilated) && kiln_add_i64(dilated, 1, &dilated));
    ok = ok && kiln_add_i64(dilated, w->lo[d], &padded) && kiln_add_i64(padded, w->hi[d], &padded);
    ok = ok && kiln_mul_i64(w->size[d] - 1, w->win_dil[d], &span) && kiln_add_i64(span, 1, &span);
    if (!ok) return kiln_interp_error(ctx, op, "window arithmetic overflows in dimension %d", (int)d);
    w->out[d] = padded <= 0 || span > padded ? 0 : (padded - span) / w->stride[d] + 1;
  }
  return NULL;
}

/* Reads the window attributes for an input of the given shape and counts the windows.
 * select_and_scatter has no dilations: they stay 1. */
static kiln_status window_read(kiln_interp_ctx *ctx, const kiln_op *op, int32_t rank, const int64_t *dims, window *w) {
  w->rank = rank;
  int64_t pad[2 * MAX_RANK];
  KILN_RETURN_IF_ERROR(attr_ints(ctx, op, "window_dimensions", rank, 1, w->size));
  if (!kiln_op_attr(op, "window_dimensions")) return kiln_interp_error(ctx, op, "needs 'window_dimensions'");
  KILN_RETURN_IF_ERROR(attr_ints(ctx, op, "window_strides", rank, 1, w->stride));
  KILN_RETURN_IF_ERROR(attr_ints(ctx, op, "base_dilations", rank, 1, w->base_dil));
  KILN_RETURN_IF_ERROR(attr_ints(ctx, op, "window_dilations", rank, 1, w->win_dil));
  KILN_RETURN_IF_ERROR(attr_ints(ctx, op, "padding", 2 * (int64_t)rank, 0, pad));
  return window_count(ctx, op, dims, pad, w);
}

/* n integers of operand v (a tensor of n elements) into out. */
static kiln_status operand_ints(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *v, int64_t n, const char *what,
                                int64_t *out) {
  if (!v || v->kind != KILN_RTV_TENSOR || v->count != n || !kiln_elem_is_int(v->elem) || v->elem == KILN_ELEM_I1)
    return kiln_interp_error(ctx, op, "%s must be %lld integers", what, (long long)n);
  for (int64_t i = 0; i < n; i++) out[i] = kiln_scalar_load(v->elem, v->data + (size_t)i * v->elem_bytes).i;
  return NULL;
}

/* Offset in the input (row-major strides str) of window element widx of window oidx, or
 * -1 where it falls into padding or a base-dilation hole. */
static int64_t window_offset(const window *w, const int64_t *dims, const int64_t *str, const int64_t *oidx,
                             const int64_t *widx) {
  int64_t off = 0;
  for (int32_t d = 0; d < w->rank; d++) {
    int64_t p = oidx[d] * w->stride[d] + widx[d] * w->win_dil[d] - w->lo[d];
    if (p < 0 || p % w->base_dil[d] != 0 || p / w->base_dil[d] >= dims[d]) return -1;
    off += p / w->base_dil[d] * str[d];
  }
  return off;
}

static kiln_status reduce_window_loop(region_run *r, const kiln_kernel_args *a, int32_t n, const window *w) {
  const kiln_rtv *in = a->in[0];
  int64_t str[MAX_RANK], oidx[MAX_RANK] = {0}, widx[MAX_RANK];
  kiln_strides(in->rank, in->dims, str);
  for (int64_t o = 0; o < a->out[0]->count; o++) {
    KILN_RETURN_IF_ERROR(reset_accumulators(r, a, n));
    memset(widx, 0, sizeof widx);
    do {
      KILN_RETURN_IF_ERROR(set_elements(r, a, n, window_offset(w, in->dims, str, oidx, widx)));
      KILN_RETURN_IF_ERROR(fold(r, n));
    } while (kiln_index_next(w->rank, w->size, widx));
    store_accumulators(r, a, n, o);
    kiln_index_next(w->rank, w->out, oidx);
  }
  return NULL;
}

/* The axis of a cumulative window (the window spans the axis, padded before it by size - 1
 * or, *reverse, after it; unit strides and dilations, every other dim untouched), or -1. */
static int32_t scan_axis(const window *w, const int64_t *dims, bool *reverse) {
  int32_t axis = -1;
  for (int32_t d = 0; d < w->rank; d++) {
    if (w->stride[d] != 1 || w->base_dil[d] != 1 || w->win_dil[d] != 1) return -1;
    if (w->size[d] == 1 && w->lo[d] == 0 && w->hi[d] == 0) continue;
    bool before = w->lo[d] == w->size[d] - 1 && w->hi[d] == 0, after = w->lo[d] == 0 && w->hi[d] == w->size[d] - 1;
    if (axis >= 0 || w->size[d] < dims[d] || !(before || after)) return -1;
    axis = d;
    *reverse = !before;
  }
  return axis;
}

/* Whether the body maps (init, init) to init, bit for bit: then a prefix window's leading
 * padding folds to init, and window i folds init, x[0], ..., x[i] in that order. */
static kiln_status idempotent_init(region_run *r, const kiln_kernel_args *a, int32_t n, bool *out) {
  *out = false;
  KILN_RETURN_IF_ERROR(reset_accumulators(r, a, n));
  KILN_RETURN_IF_ERROR(set_elements(r, a, n, -1));
  KILN_RETURN_IF_ERROR(fold(r, n));
  for (int32_t i = 0; i < n; i++) {
    const kiln_rtv *got = r->args[i], *init = a->in[n + i];
    if (!got || got->elem != init->elem || memcmp(got->data, init->data, init->elem_bytes)) return NULL;
  }
  *out = true;
  return NULL;
}

/* A cumulative window along `axis` as a running fold, O(n) instead of O(n * size) (jax's
 * cumlogsumexp over 2,048 elements folded 1,024 times as often). A prefix window: out[i] is
 * the accumulator after x[0..i], the same folds in the same order as the windows' (given
 * idempotent_init). A suffix window (padding after: reverse=True): out[i] = body(x[i],
 * out[i + 1]), out[n] the init: the tree x[i] body (x[i+1] body (... body init)), leaves in
 * order, one of the schedules the spec allows (the windows' own order, x[i] first, has no
 * running form for a region that is not associative). */
static kiln_status running_fold(region_run *r, const kiln_kernel_args *a, int32_t n, int32_t axis, bool reverse) {
  const kiln_rtv *in = a->in[0];
  int64_t len = in->dims[axis], inner = 1;
  for (int32_t d = axis + 1; d < in->rank; d++) inner *= in->dims[d];
  int64_t rows = len ? in->count / len : 0;
  for (int64_t row = 0; row < rows; row++) {
    int64_t base = row / inner * len * inner + row % inner;
    for (int32_t k = 0; k < n; k++) /* the accumulator in its slot: the first (prefix) or second */
      KILN_RETURN_IF_ERROR(rr_set(r, reverse ? n + k : k, a->in[n + k], 0));
    for (int64_t j = 0; j < len; j++) {
      int64_t at = base + (reverse ? len - 1 - j : j) * inner;
      for (int32_t k = 0; k < n; k++) KILN_RETURN_IF_ERROR(rr_set(r, reverse ? k : n + k, a->in[k], at));
      KILN_RETURN_IF_ERROR(rr_call(r));
      for (int32_t k = 0; k < n; k++) {
        rr_take(r, reverse ? n + k : k, k);
        copy_elem(a->out[k], at, r->args[reverse ? n + k : k], 0);
      }
    }
  }
  return NULL;
}

static kiln_status k_reduce_window(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  int32_t n;
  region_run r;
  KILN_RETURN_IF_ERROR(reduction_setup(ctx, a, &n, &r));
  window w;
  kiln_status st = window_read(ctx, a->op, a->in[0]->rank, a->in[0]->dims, &w);
  for (int32_t i = 0; !st && i < n; i++) st = kiln_kernel_result(a, i, w.rank, w.out);
  bool reverse = false, scan = false;
  int32_t axis = st ? -1 : scan_axis(&w, a->in[0]->dims, &reverse);
  if (axis >= 0 && a->in[0]->count > 0) st = idempotent_init(&r, a, n, &scan);
  if (!st) st = scan ? running_fold(&r, a, n, axis, reverse) : reduce_window_loop(&r, a, n, &w);
  rr_free(&r);
  return st;
}

/* StableHLO's dynamic_reduce_window: reduce_window with its window as the last five operands
 * (window_dimensions, window_strides, base_dilations, window_dilations: one per dim; padding:
 * rank x 2) and its body the function called_computations[0] names. */
kiln_status kiln_interp_dynamic_reduce_window(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op, *body;
  KILN_RETURN_IF_ERROR(called_function(ctx, op, "body", &body));
  if (a->num_in < 7) return kiln_interp_error(ctx, op, "needs N inputs, N init values, the window and N results");
  int32_t n;
  region_run r;
  KILN_RETURN_IF_ERROR(reduction_setup_of(ctx, a, body, 5, &n, &r));
  const kiln_rtv *in = a->in[0];
  window w = {.rank = in->rank};
  int64_t pad[2 * MAX_RANK];
  kiln_rtv *const *wv = a->in + 2 * n;
  kiln_status st = in->rank > MAX_RANK ? kiln_interp_error(ctx, op, "rank %d is beyond %d", (int)in->rank, MAX_RANK) : NULL;
  if (!st) st = operand_ints(ctx, op, wv[0], in->rank, "window_dimensions", w.size);
  if (!st) st = operand_ints(ctx, op, wv[1], in->rank, "window_strides", w.stride);
  if (!st) st = operand_ints(ctx, op, wv[2], in->rank, "base_dilations", w.base_dil);
  if (!st) st = operand_ints(ctx, op, wv[3], in->rank, "window_dilations", w.win_dil);
  if (!st) st = operand_ints(ctx, op, wv[4], 2 * (int64_t)in->rank, "padding", pad);
  if (!st) st = window_count(ctx, op, in->dims, pad, &w);
  for (int32_t i = 0; !st && i < n; i++) st = kiln_kernel_result(a, i, w.rank, w.out);
  if (!st) st = reduce_window_loop(&r, a, n, &w);
  rr_free(&r);
  return st;
}

/* ------------------------------------------------------------------ select_and_scatter */

static kiln_status select_and_scatter_loop(region_run *sel, region_run *sc, const kiln_kernel_args *a,
                                           const window *w) {
  const kiln_rtv *operand = a->in[0], *source = a->in[1];
  kiln_rtv *result = a->out[0];
  for (int64_t i = 0; i < result->count; i++) copy_elem(result, i, a->in[2], 0);
  int64_t str[MAX_RANK], sidx[MAX_RANK] = {0}, widx[MAX_RANK];
  kiln_strides(operand->rank, operand->dims, str);
  for (int64_t s = 0; s < source->count; s++) {
    /* select over the window in index order: the first element, then each one that
     * select(chosen, next) does not keep out */
    int64_t chosen = -1;
    memset(widx, 0, sizeof widx);
    do {
      int64_t off = window_offset(w, operand->dims, str, sidx, widx);
      if (off < 0) continue;
      if (chosen < 0) {
        chosen = off;
        continue;
      }
      KILN_RETURN_IF_ERROR(rr_set(sel, 0, operand, chosen));
      KILN_RETURN_IF_ERROR(rr_set(sel, 1, operand, off));
      KILN_RETURN_IF_ERROR(rr_call(sel));
      if (!truthy(sel->res[0])) chosen = off;
    } while (kiln_index_next(w->rank, w->size, widx));
    if (chosen >= 0) {
      KILN_RETURN_IF_ERROR(rr_set(sc, 0, result, chosen));
      KILN_RETURN_IF_ERROR(rr_set(sc, 1, source, s));
      KILN_RETURN_IF_ERROR(rr_call(sc));
      copy_elem(result, chosen, sc->res[0], 0);
    }
    kiln_index_next(source->rank, source->dims, sidx);
  }
  return NULL;
}

static kiln_status k_select_and_scatter(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op;
  if (a->num_in != 3 || a->num_out != 1)
    return kiln_interp_error(ctx, op, "needs an operand, a source and an init value, and one result");
  const kiln_rtv *operand = a->in[0], *source = a->in[1];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, operand, "operand"));
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, source, "source"));
  KILN_RETURN_IF_ERROR(need_scalar(ctx, op, a->in[2], "init_value"));
  if (kiln_op_attr(op, "base_dilations") || kiln_op_attr(op, "window_dilations"))
    return kiln_interp_error(ctx, op, "takes no dilations");
  window w;
  KILN_RETURN_IF_ERROR(window_read(ctx, op, operand->rank, operand->dims, &w));
  if (source->rank != w.rank || memcmp(source->dims, w.out, sizeof(int64_t) * (size_t)w.rank))
    return kiln_interp_error(ctx, op, "source must have one element per window");
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, operand->rank, operand->dims));
  region_run sel, sc;
  KILN_RETURN_IF_ERROR(rr_init(&sel, ctx, op, 0, 2, 1));
  kiln_status st = rr_init(&sc, ctx, op, 1, 2, 1);
  if (!st) st = rr_arg(&sel, 0, operand, 0, NULL);
  if (!st) st = rr_arg(&sel, 1, operand, 0, NULL);
  if (!st) st = rr_arg(&sc, 0, a->out[0], 0, NULL);
  if (!st) st = rr_arg(&sc, 1, source, 0, NULL);
  if (!st) st = select_and_scatter_loop(&sel, &sc, a, &w);
  rr_free(&sel);
  rr_free(&sc);
  return st;
}

/* ------------------------------------------------------------------ sorting */

typedef kiln_status (*less_fn)(void *user, int64_t x, int64_t y, bool *out);

/* Stable bottom-up merge sort of perm[0, n) (tmp has room for n). */
static kiln_status merge_sort(int64_t *perm, int64_t *tmp, int64_t n, less_fn less, void *user) {
  int64_t *src = perm, *dst = tmp;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = mid + width < n ? mid + width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        bool right_first;
        KILN_RETURN_IF_ERROR(less(user, src[j], src[i], &right_first));
        dst[k++] = right_first ? src[j++] : src[i++];
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != perm) memcpy(perm, src, sizeof *perm * (size_t)n);
  return NULL;
}

/* Iterates the 1-dimensional slices of a shape along dimension d: slice (o, i) has its
 * elements at (o * len + k) * inner + i. */
typedef struct slices {
  int64_t outer, len, inner;
} slices;

static slices slices_of(int32_t rank, const int64_t *dims, int32_t d) {
  slices s = {1, dims[d], 1};
  for (int32_t i = 0; i < d; i++) s.outer *= dims[i];
  for (int32_t i = d + 1; i < rank; i++) s.inner *= dims[i];
  return s;
}

typedef struct sort_state {
  region_run r;
  const kiln_kernel_args *a;
  int64_t base, inner;
} sort_state;

static kiln_status sort_less(void *user, int64_t x, int64_t y, bool *out) {
  sort_state *s = user;
  for (int32_t i = 0; i < s->a->num_in; i++) {
    KILN_RETURN_IF_ERROR(rr_set(&s->r, 2 * i, s->a->in[i], s->base + x * s->inner));
    KILN_RETURN_IF_ERROR(rr_set(&s->r, 2 * i + 1, s->a->in[i], s->base + y * s->inner));
  }
  KILN_RETURN_IF_ERROR(rr_call(&s->r));
  *out = truthy(s->r.res[0]);
  return NULL;
}

static kiln_status sort_loop(sort_state *s, slices sl, int64_t *perm, int64_t *tmp) {
  const kiln_kernel_args *a = s->a;
  s->inner = sl.inner;
  for (int64_t o = 0; o < sl.outer; o++) {
    for (int64_t j = 0; j < sl.inner; j++) {
      s->base = o * sl.len * sl.inner + j;
      for (int64_t k = 0; k < sl.len; k++) perm[k] = k;
      KILN_RETURN_IF_ERROR(merge_sort(perm, tmp, sl.len, sort_less, s));
      for (int32_t i = 0; i < a->num_in; i++)
        for (int64_t k = 0; k < sl.len; k++)
          copy_elem(a->out[i], s->base + k * sl.inner, a->in[i], s->base + perm[k] * sl.inner);
    }
  }
  return NULL;
}

/* Sorting is always stable here: a stable order is one of the orders an unstable sort
 * may produce. */
static kiln_status k_sort(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op;
  if (a->num_in < 1 || a->num_out != a->num_in) return kiln_interp_error(ctx, op, "needs N > 0 inputs and N results");
  const kiln_rtv *in = a->in[0];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, in, "inputs[0]"));
  for (int32_t i = 0; i < a->num_in; i++) KILN_RETURN_IF_ERROR(same_shape(ctx, op, in, a->in[i], "every input"));
  int64_t d;
  KILN_RETURN_IF_ERROR(attr_int(ctx, op, "dimension", false, -1, &d));
  if (d < -(int64_t)in->rank || d >= in->rank)
    return kiln_interp_error(ctx, op, "dimension = %lld is out of range for rank %d", (long long)d, (int)in->rank);
  if (d < 0) d += in->rank;
  for (int32_t i = 0; i < a->num_out; i++) KILN_RETURN_IF_ERROR(kiln_kernel_result(a, i, in->rank, in->dims));
  if (in->count == 0) return NULL;
  slices sl = slices_of(in->rank, in->dims, (int32_t)d);
  sort_state s = {.a = a};
  int64_t *perm = kiln_fault_malloc(sizeof *perm * (size_t)sl.len * 2);
  if (!perm) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = rr_init(&s.r, ctx, op, 0, 2 * a->num_in, 1);
  for (int32_t i = 0; !st && i < a->num_in; i++) {
    st = rr_arg(&s.r, 2 * i, a->in[i], 0, NULL);
    if (!st) st = rr_arg(&s.r, 2 * i + 1, a->in[i], 0, NULL);
  }
  if (!st) st = sort_loop(&s, sl, perm, perm + sl.len);
  rr_free(&s.r);
  free(perm);
  return st;
}

typedef struct topk_state {
  const uint64_t *keys; /* two words per element, see kiln_order_key (float_bits.h) */
} topk_state;

static kiln_status topk_greater(void *user, int64_t x, int64_t y, bool *out) {
  const uint64_t *keys = ((const topk_state *)user)->keys, *kx = keys + 2 * x, *ky = keys + 2 * y;
  *out = kx[0] != ky[0] ? kx[0] > ky[0] : kx[1] > ky[1];
  return NULL;
}

/* The k largest of each row of a->in[0] (the last dim), in order, and their indices. */
static kiln_status top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int64_t k) {
  const kiln_op *op = a->op;
  const kiln_rtv *in = a->in[0];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, in, "operand"));
  if (in->rank < 1) return kiln_interp_error(ctx, op, "operand must have rank 1 or more");
  int64_t n = in->dims[in->rank - 1];
  if (k < 0 || k > n)
    return kiln_interp_error(ctx, op, "k = %lld is out of range for a last dimension of %lld", (long long)k, (long long)n);
  int64_t dims[MAX_RANK];
  memcpy(dims, in->dims, sizeof(int64_t) * (size_t)in->rank);
  dims[in->rank - 1] = k;
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, in->rank, dims));
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 1, in->rank, dims));
  if (a->out[0]->count == 0) return NULL;
  int64_t *perm = kiln_fault_malloc(sizeof *perm * (size_t)n * 2);
  uint64_t *keys = kiln_fault_malloc(sizeof *keys * (size_t)n * 2);
  if (!perm || !keys) {
    free(perm);
    free(keys);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  topk_state s = {keys};
  for (int64_t row = 0; row < in->count / n; row++) {
    for (int64_t i = 0; i < n; i++) {
      perm[i] = i;
      kiln_order_key(in->elem, at(in, row * n + i), keys + 2 * i);
    }
    merge_sort(perm, perm + n, n, topk_greater, &s); /* cannot fail */
    for (int64_t i = 0; i < k; i++) {
      copy_elem(a->out[0], row * k + i, in, row * n + perm[i]);
      kiln_scalar_store(a->out[1]->elem, at(a->out[1], row * k + i), (kiln_scalar){.i = perm[i]});
    }
  }
  free(perm);
  free(keys);
  return NULL;
}

static kiln_status k_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_in != 1 || a->num_out != 2) return kiln_interp_error(ctx, a->op, "needs one operand and two results");
  int64_t k;
  KILN_RETURN_IF_ERROR(attr_int(ctx, a->op, "k", true, 0, &k));
  return top_k(ctx, a, k);
}

kiln_status kiln_interp_dynamic_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_in != 2 || a->num_out != 2) return kiln_interp_error(ctx, a->op, "needs two operands (operand, k) and two results");
  const kiln_rtv *k = a->in[1];
  if (!k || k->kind != KILN_RTV_TENSOR || k->rank != 0 || !kiln_elem_is_int(k->elem) || k->elem == KILN_ELEM_I1)
    return kiln_interp_error(ctx, a->op, "k must be an integer scalar");
  return top_k(ctx, a, kiln_scalar_load(k->elem, k->data).i);
}

/* XLA's ApproxTopK (jax.lax.approx_max_k / approx_min_k): operands n inputs, n init values
 * (then k for StableHLO's dynamic_approx_top_k, then the result shapes of a dynamic one), n
 * results of top_k elements along reduction_dim (as many as the result type holds with
 * aggregate_to_topk = false), ordered by the comparator function (called_computations[0])
 * over the n inputs. Computed exactly, as XLA does on CPU (a stable sort along the dim,
 * its first elements): the recall target is a lower bound, met with 1. */
static kiln_status approx_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const kiln_rtv *dyn_k, sort_state *s) {
  const kiln_op *op = a->op, *cmp;
  int32_t n = a->num_out;
  const kiln_attr *cfg = kiln_op_attr(op, "mhlo.backend_config");
  const kiln_attr *ka = cfg && cfg->kind == KILN_ATTR_DICT ? kiln_attr_get(cfg, "top_k") : NULL;
  const kiln_attr *da = cfg && cfg->kind == KILN_ATTR_DICT ? kiln_attr_get(cfg, "reduction_dim") : NULL;
  if ((!dyn_k && (!ka || ka->kind != KILN_ATTR_INT)) || !da || da->kind != KILN_ATTR_INT)
    return kiln_interp_error(ctx, op, "needs integer %sreduction_dim in its mhlo.backend_config", dyn_k ? "" : "top_k and ");
  KILN_RETURN_IF_ERROR(called_function(ctx, op, "comparator", &cmp));
  const kiln_rtv *in = a->in[0];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, in, "operand #0"));
  for (int32_t i = 1; i < n; i++) KILN_RETURN_IF_ERROR(same_shape(ctx, op, in, a->in[i], "every input"));
  int64_t k = dyn_k ? kiln_scalar_load(dyn_k->elem, dyn_k->data).i : kiln_attr_int(ka), d = kiln_attr_int(da);
  if (d < 0 || d >= in->rank) return kiln_interp_error(ctx, op, "reduction_dim = %lld is out of range for rank %d", (long long)d, (int)in->rank);
  if (k < 0 || k > in->dims[d])
    return kiln_interp_error(ctx, op, "top_k = %lld is out of range for a dimension of %lld", (long long)k, (long long)in->dims[d]);
  /* aggregate_to_topk = false: as many as the result type holds (at least k), else k */
  const kiln_type *rt = op->results[0].type;
  int64_t m = kiln_type_is_tensor(rt) && rt->tensor.rank == in->rank && rt->tensor.dims[d] >= k ? rt->tensor.dims[d] : k;
  if (m > in->dims[d]) m = in->dims[d];
  int64_t dims[MAX_RANK];
  memcpy(dims, in->dims, sizeof(int64_t) * (size_t)in->rank);
  dims[d] = k = m;
  for (int32_t i = 0; i < n; i++) KILN_RETURN_IF_ERROR(kiln_kernel_result(a, i, in->rank, dims));
  KILN_RETURN_IF_ERROR(rr_init_region(&s->r, ctx, op, cmp, &cmp->regions[0], 2 * n, 1));
  for (int32_t i = 0; i < n; i++) {
    KILN_RETURN_IF_ERROR(rr_arg(&s->r, 2 * i, a->in[i], 0, NULL));
    KILN_RETURN_IF_ERROR(rr_arg(&s->r, 2 * i + 1, a->in[i], 0, NULL));
  }
  if (in->count == 0 || k == 0) return NULL;
  slices sl = slices_of(in->rank, in->dims, (int32_t)d);
  int64_t *perm = kiln_fault_malloc(sizeof *perm * (size_t)sl.len * 2);
  if (!perm) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = NULL;
  s->inner = sl.inner;
  for (int64_t o = 0; !st && o < sl.outer; o++)
    for (int64_t j = 0; !st && j < sl.inner; j++) {
      s->base = o * sl.len * sl.inner + j;
      for (int64_t e = 0; e < sl.len; e++) perm[e] = e;
      st = merge_sort(perm, perm + sl.len, sl.len, sort_less, s);
      for (int32_t i = 0; !st && i < n; i++)
        for (int64_t e = 0; e < k; e++)
          copy_elem(a->out[i], (o * k + e) * sl.inner + j, a->in[i], s->base + perm[e] * sl.inner);
    }
  free(perm);
  return st;
}

/* ApproxTopK, or with dynamic (StableHLO's dynamic_approx_top_k) k as operand 2n. */
static kiln_status approx_top_k_call(kiln_interp_ctx *ctx, const kiln_kernel_args *a, bool dynamic) {
  int32_t n = a->num_out;
  if (n < 1 || a->num_in < 2 * n + dynamic)
    return kiln_interp_error(ctx, a->op, "needs n inputs, n init values%s and n results", dynamic ? ", k" : "");
  const kiln_rtv *k = dynamic ? a->in[2 * n] : NULL;
  if (k && (k->kind != KILN_RTV_TENSOR || k->rank != 0 || !kiln_elem_is_int(k->elem) || k->elem == KILN_ELEM_I1))
    return kiln_interp_error(ctx, a->op, "k (operand #%d) must be an integer scalar", (int)(2 * n));
  sort_state s = {.a = a};
  kiln_kernel_args inputs = *a; /* the comparator and sort_less see the n inputs only */
  inputs.num_in = n;
  s.a = &inputs;
  kiln_status st = approx_top_k(ctx, &inputs, k, &s);
  rr_free(&s.r);
  return st;
}

kiln_status kiln_interp_approx_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return approx_top_k_call(ctx, a, false);
}

kiln_status kiln_interp_dynamic_approx_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return approx_top_k_call(ctx, a, true);
}

/* ------------------------------------------------------------------ map */

static kiln_status map_loop(region_run *r, const kiln_kernel_args *a) {
  for (int64_t e = 0; e < a->out[0]->count; e++) {
    for (int32_t i = 0; i < a->num_in; i++) KILN_RETURN_IF_ERROR(rr_set(r, i, a->in[i], e));
    KILN_RETURN_IF_ERROR(rr_call(r));
    copy_elem(a->out[0], e, r->res[0], 0);
  }
  return NULL;
}

static kiln_status k_map(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op;
  if (a->num_in < 1 || a->num_out != 1) return kiln_interp_error(ctx, op, "needs N > 0 inputs and one result");
  const kiln_rtv *in = a->in[0];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, in, "inputs[0]"));
  for (int32_t i = 0; i < a->num_in; i++) KILN_RETURN_IF_ERROR(same_shape(ctx, op, in, a->in[i], "every input"));
  const kiln_attr *dims = kiln_op_attr(op, "dimensions");
  if (dims) {
    bool ok = kiln_attr_count(dims) == in->rank;
    for (int32_t d = 0; ok && d < in->rank; d++) {
      int64_t v;
      ok = kiln_attr_i64_at(dims, d, &v) && v == d;
    }
    if (!ok) return kiln_interp_error(ctx, op, "dimensions must be [0, ..., rank - 1]");
  }
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, in->rank, in->dims));
  region_run r;
  KILN_RETURN_IF_ERROR(rr_init(&r, ctx, op, 0, a->num_in, 1));
  kiln_status st = NULL;
  for (int32_t i = 0; !st && i < a->num_in; i++) st = rr_arg(&r, i, a->in[i], 0, NULL);
  if (!st) st = map_loop(&r, a);
  rr_free(&r);
  return st;
}

/* ------------------------------------------------------------------ chlo.scan */

typedef struct scan_plan {
  int32_t ni, nc, no; /* inputs, carries, outputs */
  int64_t dim, len;
  bool reverse;
} scan_plan;

/* Copies the slice at position t along p->dim between a full tensor and a slice
 * (to_slice: full -> slice, else slice -> full). */
static void copy_slice(kiln_rtv *slice, kiln_rtv *full, const scan_plan *p, int64_t t, bool to_slice) {
  slices sl = slices_of(full->rank, full->dims, (int32_t)p->dim);
  for (int64_t o = 0; o < sl.outer; o++) {
    int64_t f = (o * sl.len + t) * sl.inner, s = o * sl.inner;
    if (to_slice) copy_run(slice, s, full, f, sl.inner);
    else copy_run(full, f, slice, s, sl.inner);
  }
}

static kiln_status scan_loop(kiln_interp_ctx *ctx, region_run *r, const kiln_kernel_args *a, const scan_plan *p) {
  for (int64_t step = 0; step < p->len; step++) {
    int64_t t = p->reverse ? p->len - 1 - step : step;
    for (int32_t i = 0; i < p->ni; i++) {
      KILN_RETURN_IF_ERROR(rr_writable(r, i));
      copy_slice(r->args[i], a->in[i], p, t, true);
    }
    KILN_RETURN_IF_ERROR(rr_call(r));
    for (int32_t j = 0; j < p->no; j++) {
      kiln_rtv *v = r->res[j];
      if (!a->out[j]) {
        if (v->rank >= MAX_RANK || p->dim > v->rank)
          return kiln_interp_error(ctx, a->op, "body result #%d cannot take the scan dimension", (int)j);
        int64_t dims[MAX_RANK];
        for (int32_t d = 0, s = 0; d <= v->rank; d++) dims[d] = d == p->dim ? p->len : v->dims[s++];
        KILN_RETURN_IF_ERROR(kiln_kernel_result(a, j, v->rank + 1, dims));
      }
      if (a->out[j]->count != v->count * p->len)
        return kiln_interp_error(ctx, a->op, "body result #%d changes its shape between steps", (int)j);
      copy_slice(v, a->out[j], p, t, false);
    }
    for (int32_t c = 0; c < p->nc; c++) rr_take(r, p->ni + c, p->no + c);
  }
  for (int32_t j = 0; j < p->no; j++)
    if (!a->out[j]) KILN_RETURN_IF_ERROR(kiln_kernel_result_static(ctx, a, j));
  for (int32_t c = 0; c < p->nc; c++) {
    kiln_rtv *v = r->args[p->ni + c];
    int32_t j = p->no + c;
    if (kiln_type_equal(v->elem_type, a->out_elem[j])) {
      a->out[j] = kiln_rtv_retain(v);
    } else {
      KILN_RETURN_IF_ERROR(kiln_kernel_result(a, j, v->rank, v->dims));
      copy_run(a->out[j], 0, v, 0, v->count);
    }
  }
  return NULL;
}

static kiln_status scan_plan_of(kiln_interp_ctx *ctx, const kiln_kernel_args *a, scan_plan *p) {
  const kiln_op *op = a->op;
  int64_t v = a->num_in;
  const kiln_attr *seg = kiln_op_attr(op, "operandSegmentSizes");
  if (seg && !kiln_attr_i64_at(seg, 0, &v)) return kiln_interp_error(ctx, op, "has a malformed operandSegmentSizes");
  if (v < 0 || v > a->num_in) return kiln_interp_error(ctx, op, "operandSegmentSizes does not fit the operands");
  p->ni = (int32_t)v;
  p->nc = a->num_in - p->ni;
  p->no = a->num_out - p->nc;
  const kiln_attr *rseg = kiln_op_attr(op, "resultSegmentSizes");
  if (rseg && (!kiln_attr_i64_at(rseg, 0, &v) || v != p->no))
    return kiln_interp_error(ctx, op, "resultSegmentSizes does not fit the results");
  if (p->no < 0) return kiln_interp_error(ctx, op, "has fewer results than init values");
  KILN_RETURN_IF_ERROR(attr_int(ctx, op, "dimension", true, 0, &p->dim));
  p->reverse = attr_bool(op, "is_reverse");
  KILN_RETURN_IF_ERROR(attr_int(ctx, op, "scan_dim_size", false, -1, &p->len));
  for (int32_t i = 0; i < a->num_in; i++) KILN_RETURN_IF_ERROR(need_tensor(ctx, op, a->in[i], "every operand"));
  for (int32_t i = 0; i < p->ni; i++) {
    const kiln_rtv *in = a->in[i];
    if (p->dim < 0 || p->dim >= in->rank)
      return kiln_interp_error(ctx, op, "dimension = %lld is out of range for inputs[%d]", (long long)p->dim, (int)i);
    if (p->len < 0) p->len = in->dims[p->dim];
    if (in->dims[p->dim] != p->len)
      return kiln_interp_error(ctx, op, "inputs[%d] has %lld steps where the scan has %lld", (int)i,
                               (long long)in->dims[p->dim], (long long)p->len);
  }
  for (int32_t j = 0; p->len < 0 && j < p->no; j++) {
    const kiln_type *t = op->results[j].type;
    if (kiln_type_is_tensor(t) && p->dim < t->tensor.rank && t->tensor.dims[p->dim] >= 0) p->len = t->tensor.dims[p->dim];
  }
  if (p->len < 0) return kiln_interp_error(ctx, op, "cannot tell the number of scan steps");
  return NULL;
}

static kiln_status k_scan(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  scan_plan p;
  KILN_RETURN_IF_ERROR(scan_plan_of(ctx, a, &p));
  region_run r;
  KILN_RETURN_IF_ERROR(rr_init(&r, ctx, a->op, 0, a->num_in, a->num_out));
  r.scalar_results = false;
  kiln_status st = NULL;
  for (int32_t i = 0; !st && i < p.ni; i++) {
    const kiln_rtv *in = a->in[i];
    int64_t dims[MAX_RANK];
    for (int32_t d = 0, s = 0; d < in->rank; d++)
      if (d != p.dim) dims[s++] = in->dims[d];
    st = rr_arg(&r, i, in, in->rank - 1, dims);
  }
  for (int32_t c = 0; !st && c < p.nc; c++) rr_bind(&r, p.ni + c, a->in[p.ni + c]);
  if (!st) st = scan_loop(ctx, &r, a, &p);
  rr_free(&r);
  return st;
}

/* ------------------------------------------------------------------ batch norms */

/* The spec's decompositions, each step rounded to the element type e. Features are
 * along dimension fi: element i belongs to feature (i / inner) % nf. */
typedef struct bn {
  kiln_elem e;
  int64_t count, nf, inner;
  double divisor; /* size(operand) / dim(operand, feature_index), in e */
  double eps;
} bn;

static int64_t bn_feature(const bn *b, int64_t i) { return (i / b->inner) % b->nf; }

static double bn_load(const bn *b, const kiln_rtv *t, int64_t i) {
  kiln_elem e;
  kiln_scalar s = load_value(t, i, &e);
  return round_to(b->e, s.f);
}

/* sums[f] = the reduce-add (in index order) of x over feature f. */
static void bn_sum(const bn *b, const double *x, double *sums) {
  for (int64_t f = 0; f < b->nf; f++) sums[f] = 0;
  for (int64_t i = 0; i < b->count; i++) {
    int64_t f = bn_feature(b, i);
    sums[f] = round_to(b->e, sums[f] + x[i]);
  }
}

static void bn_mean(const bn *b, const double *x, double *means) {
  bn_sum(b, x, means);
  for (int64_t f = 0; f < b->nf; f++) means[f] = round_to(b->e, means[f] / b->divisor);
}

static void bn_store(kiln_rtv *t, const double *v, int64_t n) {
  for (int64_t i = 0; i < n; i++) kiln_scalar_store(t->elem, at(t, i), (kiln_scalar){.f = v[i]});
}

/* Checks the operands (operand first, then the per-feature vectors listed in vec, and
 * any further full-size operands) and fills b. */
static kiln_status bn_setup(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t num_in, const int32_t *vec,
                            int32_t nvec, bn *b) {
  const kiln_op *op = a->op;
  if (a->num_in != num_in || a->num_out < 1)
    return kiln_interp_error(ctx, op, "needs %d operands", (int)num_in);
  const kiln_rtv *x = a->in[0];
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, x, "operand"));
  int64_t fi;
  KILN_RETURN_IF_ERROR(attr_int(ctx, op, "feature_index", true, 0, &fi));
  if (fi < 0 || fi >= x->rank)
    return kiln_interp_error(ctx, op, "feature_index = %lld is out of range for rank %d", (long long)fi, (int)x->rank);
  const kiln_attr *eps = kiln_op_attr(op, "epsilon");
  if (!eps || (eps->kind != KILN_ATTR_FLOAT && eps->kind != KILN_ATTR_INT))
    return kiln_interp_error(ctx, op, "needs a float attribute 'epsilon'");
  const kiln_type *et = a->out_elem[0];
  if (!et || et->kind != KILN_TYPE_SCALAR || !kiln_elem_is_float(et->elem))
    return kiln_interp_error(ctx, op, "works on floating-point tensors only");
  slices sl = slices_of(x->rank, x->dims, (int32_t)fi);
  *b = (bn){et->elem, x->count, sl.len, sl.inner, 0, 0};
  b->eps = round_to(b->e, eps->kind == KILN_ATTR_FLOAT ? eps->f : (double)kiln_attr_int(eps));
  if (b->nf > 0) b->divisor = round_to(b->e, (double)(b->count / b->nf));
  for (int32_t i = 1; i < num_in; i++) {
    const kiln_rtv *v = a->in[i];
    bool is_vec = false;
    for (int32_t k = 0; k < nvec; k++) is_vec |= vec[k] == i;
    if (is_vec) {
      KILN_RETURN_IF_ERROR(need_tensor(ctx, op, v, "every per-feature operand"));
      if (v->rank != 1 || v->dims[0] != b->nf)
        return kiln_interp_error(ctx, op, "operand #%d must be 1-dimensional with one entry per feature", (int)i);
    } else {
      KILN_RETURN_IF_ERROR(same_shape(ctx, op, x, v, "grad_output"));
    }
  }
  return NULL;
}

/* Scratch: k arrays of the operand's size and k arrays of the feature count. */
static kiln_status bn_alloc(const bn *b, int32_t k_full, double **full, int32_t k_feat, double **feat, double **block) {
  size_t n = (size_t)k_full * (size_t)b->count + (size_t)k_feat * (size_t)b->nf;
  *block = kiln_fault_malloc(sizeof(double) * (n ? n : 1));
  if (!*block) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  double *p = *block;
  for (int32_t i = 0; i < k_full; i++, p += b->count) full[i] = p;
  for (int32_t i = 0; i < k_feat; i++, p += b->nf) feat[i] = p;
  return NULL;
}

static void bn_load_all(const bn *b, const kiln_rtv *t, double *out) {
  for (int64_t i = 0; i < t->count; i++) out[i] = bn_load(b, t, i);
}

static double bn_stddev(const bn *b, double var) { return round_to(b->e, sqrt(round_to(b->e, var + b->eps))); }

/* y = scale * ((x - mean) / stddev) + offset (batch_norm_inference's formula). */
static void bn_normalize(const bn *b, const double *x, const double *scale, const double *offset, const double *mean,
                         const double *var, double *y) {
  for (int64_t i = 0; i < b->count; i++) {
    int64_t f = bn_feature(b, i);
    double normalized = round_to(b->e, round_to(b->e, x[i] - mean[f]) / bn_stddev(b, var[f]));
    y[i] = round_to(b->e, round_to(b->e, scale[f] * normalized) + offset[f]);
  }
}

enum { BN_SCALE, BN_OFFSET, BN_MEAN, BN_VAR, BN_FEAT };

static kiln_status k_batch_norm_inference(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  bn b;
  KILN_RETURN_IF_ERROR(bn_setup(ctx, a, 5, (const int32_t[]){1, 2, 3, 4}, 4, &b));
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, a->in[0]->rank, a->in[0]->dims));
  double *full[2] = {0}, *feat[BN_FEAT] = {0}, *block = NULL;
  KILN_RETURN_IF_ERROR(bn_alloc(&b, 2, full, BN_FEAT, feat, &block));
  bn_load_all(&b, a->in[0], full[0]);
  for (int32_t k = 0; k < BN_FEAT; k++) bn_load_all(&b, a->in[1 + k], feat[k]);
  bn_normalize(&b, full[0], feat[BN_SCALE], feat[BN_OFFSET], feat[BN_MEAN], feat[BN_VAR], full[1]);
  bn_store(a->out[0], full[1], b.count);
  free(block);
  return NULL;
}

static kiln_status k_batch_norm_training(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  bn b;
  KILN_RETURN_IF_ERROR(bn_setup(ctx, a, 3, (const int32_t[]){1, 2}, 2, &b));
  if (a->num_out != 3) return kiln_interp_error(ctx, a->op, "needs three results");
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, a->in[0]->rank, a->in[0]->dims));
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 1, 1, &b.nf));
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 2, 1, &b.nf));
  double *full[2] = {0}, *feat[BN_FEAT] = {0}, *block = NULL;
  KILN_RETURN_IF_ERROR(bn_alloc(&b, 2, full, BN_FEAT, feat, &block));
  double *x = full[0], *tmp = full[1];
  bn_load_all(&b, a->in[0], x);
  bn_load_all(&b, a->in[1], feat[BN_SCALE]);
  bn_load_all(&b, a->in[2], feat[BN_OFFSET]);
  bn_mean(&b, x, feat[BN_MEAN]);
  for (int64_t i = 0; i < b.count; i++) {
    double c = round_to(b.e, x[i] - feat[BN_MEAN][bn_feature(&b, i)]);
    tmp[i] = round_to(b.e, c * c);
  }
  bn_mean(&b, tmp, feat[BN_VAR]);
  bn_normalize(&b, x, feat[BN_SCALE], feat[BN_OFFSET], feat[BN_MEAN], feat[BN_VAR], tmp);
  bn_store(a->out[0], tmp, b.count);
  bn_store(a->out[1], feat[BN_MEAN], b.nf);
  bn_store(a->out[2], feat[BN_VAR], b.nf);
  free(block);
  return NULL;
}

/* batch_norm_grad, after XLA's batchnorm_expander as the spec writes it. */
static kiln_status k_batch_norm_grad(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  bn b;
  KILN_RETURN_IF_ERROR(bn_setup(ctx, a, 5, (const int32_t[]){1, 2, 3}, 3, &b));
  if (a->num_out != 3) return kiln_interp_error(ctx, a->op, "needs three results");
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, a->in[0]->rank, a->in[0]->dims));
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 1, 1, &b.nf));
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 2, 1, &b.nf));
  enum { X, DY, CENTERED, TMP, NFULL };
  enum { SCALE, MEAN, VAR, SUM_DY, SUM_DYC, GRAD_SCALE, NFEAT };
  double *full[NFULL] = {0}, *feat[NFEAT] = {0}, *block = NULL;
  KILN_RETURN_IF_ERROR(bn_alloc(&b, NFULL, full, NFEAT, feat, &block));
  bn_load_all(&b, a->in[0], full[X]);
  bn_load_all(&b, a->in[1], feat[SCALE]);
  bn_load_all(&b, a->in[2], feat[MEAN]);
  bn_load_all(&b, a->in[3], feat[VAR]);
  bn_load_all(&b, a->in[4], full[DY]);
  kiln_elem e = b.e;
  for (int64_t i = 0; i < b.count; i++) {
    full[CENTERED][i] = round_to(e, full[X][i] - feat[MEAN][bn_feature(&b, i)]);
    full[TMP][i] = round_to(e, full[DY][i] * full[CENTERED][i]);
  }
  bn_sum(&b, full[DY], feat[SUM_DY]);   /* i2 before broadcasting, and grad_offset */
  bn_sum(&b, full[TMP], feat[SUM_DYC]); /* i3 before broadcasting */
  for (int64_t i = 0; i < b.count; i++) {
    int64_t f = bn_feature(&b, i);
    double normalized = round_to(e, full[CENTERED][i] / bn_stddev(&b, feat[VAR][f]));
    full[TMP][i] = round_to(e, full[DY][i] * normalized);
  }
  bn_sum(&b, full[TMP], feat[GRAD_SCALE]);
  double per_feature = b.divisor; /* elements_per_feature */
  for (int64_t i = 0; i < b.count; i++) {
    int64_t f = bn_feature(&b, i);
    double i1 = round_to(e, full[DY][i] * per_feature);
    double i4 = round_to(e, feat[SUM_DYC][f] * full[CENTERED][i]);
    double i5 = round_to(e, i4 / round_to(e, feat[VAR][f] + b.eps));
    double i6 = round_to(e, round_to(e, i1 - feat[SUM_DY][f]) - i5);
    double k = round_to(e, round_to(e, feat[SCALE][f] / bn_stddev(&b, feat[VAR][f])) / per_feature);
    full[TMP][i] = round_to(e, k * i6);
  }
  bn_store(a->out[0], full[TMP], b.count);
  bn_store(a->out[1], feat[GRAD_SCALE], b.nf);
  bn_store(a->out[2], feat[SUM_DY], b.nf);
  free(block);
  return NULL;
}

/* ------------------------------------------------------------------ lookup */

kiln_interp_kernel kiln_interp_structured_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_REDUCE: return k_reduce;
    case KILN_OP_REDUCE_WINDOW: return k_reduce_window;
    case KILN_OP_SELECT_AND_SCATTER: return k_select_and_scatter;
    case KILN_OP_SORT: return k_sort;
    case KILN_OP_MAP: return k_map;
    case KILN_OP_CHLO_TOP_K: return k_top_k;
    case KILN_OP_CHLO_SCAN: return k_scan;
    case KILN_OP_BATCH_NORM_TRAINING: return k_batch_norm_training;
    case KILN_OP_BATCH_NORM_INFERENCE: return k_batch_norm_inference;
    case KILN_OP_BATCH_NORM_GRAD: return k_batch_norm_grad;
    default: return NULL;
  }
}
