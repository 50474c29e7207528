/* Control flow, calls, tokens, the check.* and interpreter.* test ops, and the ops that
 * talk to other processes (collectives, send/recv, infeed/outfeed). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backends/interp/collectives.h"
#include "backends/interp/combine.h"
#include "backends/interp/interp.h"
#include "backends/lapack/lapack.h"
#include "base/fault.h"
#include "base/strbuf.h"
#include "ir/format.h"
#include "ir/print.h"

static kiln_status oom(void) { return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"); }

/* ------------------------------------------------------------------ attributes */

static bool attr_i64(const kiln_op *op, const char *name, int64_t *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a || a->kind != KILN_ATTR_INT) return false;
  *out = kiln_attr_int(a);
  return true;
}

static bool attr_flag(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  return a && (a->kind == KILN_ATTR_UNIT || (a->kind == KILN_ATTR_BOOL && a->b));
}

static bool attr_f64(const kiln_op *op, const char *name, double *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (a && a->kind == KILN_ATTR_FLOAT) *out = a->f;
  else if (a && a->kind == KILN_ATTR_INT) *out = (double)kiln_attr_int(a);
  else return false;
  return true;
}

/* A symbol (or string) attribute's text; NULL if absent. */
static const char *attr_symbol(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (a && a->kind == KILN_ATTR_SYMBOL) return a->symbol;
  if (a && a->kind == KILN_ATTR_STRING) return a->str.data;
  return NULL;
}

static bool attr_string(const kiln_op *op, const char *name, const char **s, size_t *n) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a || a->kind != KILN_ATTR_STRING) return false;
  *s = a->str.data;
  *n = a->str.len;
  return true;
}

static bool str_is(const char *s, size_t n, const char *lit) { return n == strlen(lit) && !memcmp(s, lit, n); }

/* channel_handle<handle = N> or channel_id = N; 0 when absent. */
static int64_t channel_id(const kiln_op *op) {
  int64_t v = 0;
  const kiln_attr *h = kiln_op_attr(op, "channel_handle");
  const kiln_attr *f = h ? kiln_attr_get(h, "handle") : NULL;
  if (f && f->kind == KILN_ATTR_INT) return kiln_attr_int(f);
  if (attr_i64(op, "channel_id", &v)) return v;
  return 0;
}

/* ------------------------------------------------------------------ small helpers */

static kiln_status need_tensor(const kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *v, int32_t i) {
  if (!v || v->kind != KILN_RTV_TENSOR) return kiln_interp_error(ctx, op, "operand #%d must be a tensor", (int)i);
  return NULL;
}

static bool scalar_true(const kiln_rtv *v) {
  return v && v->kind == KILN_RTV_TENSOR && v->count > 0 && kiln_scalar_load(v->elem, v->data).i != 0;
}

static bool same_shape(const kiln_rtv *a, const kiln_rtv *b) {
  if (a->rank != b->rank) return false;
  for (int32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

static bool is_quant(const kiln_rtv *v) { return v->elem_type->kind == KILN_TYPE_QUANT; }

/* Element i of src into element j of dst: the same bits when the element types agree,
 * else a conversion between integer or between floating-point types (the spec's
 * promotions). */
static kiln_status elem_copy(kiln_rtv *dst, int64_t j, const kiln_rtv *src, int64_t i) {
  const uint8_t *s = src->data + (size_t)i * src->elem_bytes;
  uint8_t *d = dst->data + (size_t)j * dst->elem_bytes;
  if (is_quant(src) || is_quant(dst)) {
    if (!kiln_type_equal(src->elem_type, dst->elem_type))
      return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "converting between quantized element types is not supported here");
    memcpy(d, s, dst->elem_bytes);
    return NULL;
  }
  if (src->elem == dst->elem) {
    memcpy(d, s, dst->elem_bytes);
    return NULL;
  }
  kiln_scalar v = kiln_scalar_load(src->elem, s);
  bool from_int = kiln_elem_is_int(src->elem), to_int = kiln_elem_is_int(dst->elem);
  if (from_int && !to_int) {
    kiln_elem_class c = kiln_elem_class_of(src->elem);
    v.f = c == KILN_ELEM_CLASS_U ? (double)v.u : (double)v.i;
    v.im = 0;
  } else if (!from_int && to_int) {
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cannot convert a floating-point element to an integer here");
  } else if (kiln_elem_is_float(src->elem) && kiln_elem_is_complex(dst->elem)) {
    v.im = 0;
  }
  kiln_scalar_store(dst->elem, d, v);
  return NULL;
}

/* Zero elements of a tensor: quantize(0) for a quantized one (a fresh tensor is already
 * all zero bits otherwise). */
static void fill_zero(kiln_rtv *v) {
  const kiln_type *q = v->elem_type;
  if (q->kind != KILN_TYPE_QUANT) return;
  int64_t stride = 1;
  for (int32_t d = v->rank - 1; q->quant.axis >= 0 && d > q->quant.axis; d--) stride *= v->dims[d];
  for (int64_t i = 0; i < v->count; i++) {
    int64_t k = q->quant.axis >= 0 && q->quant.axis < v->rank ? (i / stride) % v->dims[q->quant.axis] : 0;
    if (k >= q->quant.count) k = q->quant.count - 1;
    int64_t z = q->quant.zero_points[k];
    if (z < q->quant.storage_min) z = q->quant.storage_min;
    if (z > q->quant.storage_max) z = q->quant.storage_max;
    kiln_scalar_store(v->elem, v->data + (size_t)i * v->elem_bytes, (kiln_scalar){.i = z});
  }
}

/* Copies the box of src starting at src_off with extents box into dst at dst_off. */
static kiln_status copy_box(kiln_rtv *dst, const int64_t *dst_off, const kiln_rtv *src, const int64_t *src_off,
                            const int64_t *box) {
  int32_t r = src->rank;
  int64_t ss[KILN_RTV_MAX_RANK], ds[KILN_RTV_MAX_RANK], idx[KILN_RTV_MAX_RANK];
  kiln_strides(r, src->dims, ss);
  kiln_strides(r, dst->dims, ds);
  for (int32_t d = 0; d < r; d++) {
    if (box[d] == 0) return NULL;
    idx[d] = 0;
  }
  do {
    int64_t si = 0, di = 0;
    for (int32_t d = 0; d < r; d++) {
      si += (src_off[d] + idx[d]) * ss[d];
      di += (dst_off[d] + idx[d]) * ds[d];
    }
    KILN_RETURN_IF_ERROR(elem_copy(dst, di, src, si));
  } while (kiln_index_next(r, box, idx));
  return NULL;
}

static kiln_status copy_all(kiln_rtv *dst, const kiln_rtv *src) {
  for (int64_t i = 0; i < src->count; i++) KILN_RETURN_IF_ERROR(elem_copy(dst, i, src, i));
  return NULL;
}

/* ------------------------------------------------------------------ calls and control flow */

/* Runs a function for op: results go to a->out. */
static kiln_status call_into(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const char *name) {
  const kiln_op *f = name ? kiln_interp_lookup_func(ctx->interp, name) : NULL;
  if (!f) return kiln_interp_error(ctx, a->op, "calls @%s, which is not a function of this module", name ? name : "?");
  const kiln_type *ft = kiln_func_type(f);
  if (!ft || ft->func.num_results != a->num_out)
    return kiln_interp_error(ctx, a->op, "expects %d results from @%s, which returns %d", (int)a->num_out, name,
                             ft ? (int)ft->func.num_results : -1);
  return kiln_interp_call(ctx, f, a->in, a->num_in, a->out);
}

static kiln_status k_call(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return call_into(ctx, a, attr_symbol(a->op, "callee"));
}

static kiln_status k_composite(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return call_into(ctx, a, attr_symbol(a->op, "decomposition"));
}

static kiln_status run_region(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t r, kiln_rtv *const *args,
                              int32_t nargs) {
  if (r >= a->op->num_regions) return kiln_interp_error(ctx, a->op, "has no region #%d", (int)r);
  return kiln_interp_region(ctx, &a->op->regions[r], args, nargs, a->out, a->num_out);
}

static kiln_status k_if(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, a->in[0], 0));
  return run_region(ctx, a, scalar_true(a->in[0]) ? 0 : 1, NULL, 0);
}

static kiln_status k_case(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, a->in[0], 0));
  if (a->op->num_regions < 1) return kiln_interp_error(ctx, a->op, "has no branches");
  int64_t index = a->in[0]->count ? kiln_scalar_load(a->in[0]->elem, a->in[0]->data).i : -1;
  if (index < 0 || index >= a->op->num_regions) index = a->op->num_regions - 1;
  return run_region(ctx, a, (int32_t)index, NULL, 0);
}

static void release_all(kiln_rtv **v, int32_t n) {
  for (int32_t i = 0; v && i < n; i++) {
    kiln_rtv_release(v[i]);
    v[i] = NULL;
  }
}

/* The loop of while and scf.for: cur holds the loop-carried values (owned). */
static kiln_status k_while(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->op->num_regions != 2 || a->num_out != a->num_in)
    return kiln_interp_error(ctx, a->op, "needs a cond and a body region and one result per operand");
  int32_t n = a->num_in;
  kiln_rtv **cur = kiln_fault_calloc((size_t)n + 1, sizeof *cur), **next = kiln_fault_calloc((size_t)n + 1, sizeof *next);
  kiln_status st = cur && next ? NULL : oom();
  for (int32_t i = 0; !st && i < n; i++) cur[i] = kiln_rtv_retain(a->in[i]);
  while (!st) {
    kiln_rtv *cond = NULL;
    st = kiln_interp_region(ctx, &a->op->regions[0], cur, n, &cond, 1);
    bool go = !st && scalar_true(cond);
    kiln_rtv_release(cond);
    if (st || !go) break;
    st = kiln_interp_region(ctx, &a->op->regions[1], cur, n, next, n);
    release_all(cur, n);
    kiln_rtv **t = cur;
    cur = next;
    next = t;
  }
  for (int32_t i = 0; !st && i < n; i++) a->out[i] = cur[i], cur[i] = NULL;
  release_all(cur, n);
  free(cur);
  free(next);
  return st;
}

kiln_status kiln_interp_shapes_only_control(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op;
  int32_t n = a->num_out;
  kiln_rtv **tmp = kiln_fault_calloc((size_t)n + 1, sizeof *tmp);
  if (!tmp) return oom();
  kiln_status st = NULL;
  if (op->kind == KILN_OP_WHILE) {
    if (op->num_regions != 2 || a->num_out != a->num_in)
      st = kiln_interp_error(ctx, op, "needs a cond and a body region and one result per operand");
    kiln_rtv *cond = NULL;
    if (!st) st = kiln_interp_region(ctx, &op->regions[0], a->in, a->num_in, &cond, 1);
    kiln_rtv_release(cond);
    if (!st) st = kiln_interp_region(ctx, &op->regions[1], a->in, a->num_in, tmp, n);
    release_all(tmp, n);
    for (int32_t i = 0; !st && i < n; i++) a->out[i] = kiln_rtv_retain(a->in[i]);
  } else {
    for (int32_t r = 0; !st && r < op->num_regions; r++) {
      st = kiln_interp_region(ctx, &op->regions[r], NULL, 0, r ? tmp : a->out, n);
      release_all(tmp, n);
    }
  }
  free(tmp);
  return st;
}

/* scf.for %iv = %lo to %hi step %s iter_args(...): bounds are rank-0 integer tensors. */
static kiln_status k_scf_for(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_in < 3 || a->op->num_regions != 1 || a->num_out != a->num_in - 3)
    return kiln_interp_error(ctx, a->op, "needs bounds, a step, a body and one result per iter_arg");
  for (int32_t i = 0; i < 3; i++) {
    const kiln_rtv *b = a->in[i];
    if (!b || b->kind != KILN_RTV_TENSOR || b->count != 1 || !kiln_elem_is_int(b->elem))
      return kiln_interp_error(ctx, a->op, "loop bounds must be integer scalars held as rank-0 tensors");
  }
  int64_t lo = kiln_scalar_load(a->in[0]->elem, a->in[0]->data).i;
  int64_t hi = kiln_scalar_load(a->in[1]->elem, a->in[1]->data).i;
  int64_t step = kiln_scalar_load(a->in[2]->elem, a->in[2]->data).i;
  if (step <= 0) return kiln_interp_error(ctx, a->op, "has a non-positive step %lld", (long long)step);
  int32_t n = a->num_out;
  kiln_rtv **args = kiln_fault_calloc((size_t)n + 2, sizeof *args), **next = kiln_fault_calloc((size_t)n + 1, sizeof *next);
  kiln_status st = args && next ? NULL : oom();
  for (int32_t i = 0; !st && i < n; i++) args[i + 1] = kiln_rtv_retain(a->in[i + 3]);
  for (int64_t iv = lo; !st && iv < hi;) {
    st = kiln_rtv_tensor(a->in[0]->elem_type, 0, NULL, &args[0]);
    if (st) break;
    kiln_scalar_store(args[0]->elem, args[0]->data, (kiln_scalar){.i = iv});
    st = kiln_interp_region(ctx, &a->op->regions[0], args, n + 1, next, n);
    release_all(args, n + 1);
    for (int32_t i = 0; !st && i < n; i++) args[i + 1] = next[i], next[i] = NULL;
    if (iv > INT64_MAX - step) break;
    iv += step;
  }
  for (int32_t i = 0; !st && i < n; i++) a->out[i] = args[i + 1], args[i + 1] = NULL;
  release_all(args, n + 1);
  release_all(next, n);
  free(args);
  free(next);
  return st;
}

static kiln_status k_pass_through(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_out != a->num_in) return kiln_interp_error(ctx, a->op, "needs one result per operand");
  for (int32_t i = 0; i < a->num_out; i++) a->out[i] = kiln_rtv_retain(a->in[i]);
  return NULL;
}

static kiln_status k_token(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  (void)ctx;
  for (int32_t i = 0; i < a->num_out; i++) KILN_RETURN_IF_ERROR(kiln_rtv_token(&a->out[i]));
  return NULL;
}

/* async_start runs its body now; the future is a tuple of the body's results. */
static kiln_status k_async_start(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_type *t = a->op->num_results == 1 ? a->op->results[0].type : NULL;
  if (!t || t->kind != KILN_TYPE_FUTURE || a->op->num_regions != 1)
    return kiln_interp_error(ctx, a->op, "needs one body region and one future result");
  const kiln_block *b = kiln_op_block(a->op, 0);
  int32_t n = t->tuple.count;
  kiln_rtv **vals = kiln_fault_calloc((size_t)n + 1, sizeof *vals);
  if (!vals) return oom();
  kiln_status st = kiln_interp_region(ctx, &a->op->regions[0], a->in, b && b->num_args ? a->num_in : 0, vals, n);
  if (!st) st = kiln_rtv_tuple(vals, n, &a->out[0]);
  release_all(vals, n);
  free(vals);
  return st;
}

static kiln_status k_async_done(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_rtv *f = a->num_in == 1 ? a->in[0] : NULL;
  if (!f || f->kind != KILN_RTV_TUPLE || f->num_items != a->num_out)
    return kiln_interp_error(ctx, a->op, "needs a future of %d values", (int)a->num_out);
  for (int32_t i = 0; i < a->num_out; i++) a->out[i] = kiln_rtv_retain(f->items[i]);
  return NULL;
}

/* ------------------------------------------------------------------ formatting values */

/* The stored bits of a float element (low kiln_elem_bits of its bytes). */
static uint64_t float_bits(kiln_elem e, const uint8_t *p) {
  uint64_t u = 0;
  memcpy(&u, p, kiln_elem_storage_bytes(e));
  int bits = kiln_elem_bits(e);
  return bits < 64 ? u & ((1ull << bits) - 1) : u;
}

static void fmt_tensor_type(kiln_strbuf *b, const kiln_rtv *v) {
  kiln_format_tensor_type(b, v->elem_type, v->rank, v->dims);
}

static void fmt_elem(kiln_strbuf *b, const kiln_rtv *v, int64_t i) {
  kiln_format_elem(b, v->elem, v->data + (size_t)i * v->elem_bytes, KILN_FLOAT_MESSAGE);
}

static void fmt_index(kiln_strbuf *b, const kiln_rtv *v, int64_t flat) {
  int64_t idx[KILN_RTV_MAX_RANK];
  for (int32_t d = v->rank - 1; d >= 0; d--) {
    idx[d] = v->dims[d] ? flat % v->dims[d] : 0;
    flat = v->dims[d] ? flat / v->dims[d] : 0;
  }
  kiln_strbuf_puts(b, "[");
  for (int32_t d = 0; d < v->rank; d++) kiln_strbuf_printf(b, d ? ", %lld" : "%lld", (long long)idx[d]);
  kiln_strbuf_puts(b, "]");
}

static void print_rtv(kiln_strbuf *b, const kiln_rtv *v) {
  if (v->kind == KILN_RTV_TOKEN) {
    kiln_strbuf_puts(b, "!stablehlo.token");
    return;
  }
  if (v->kind == KILN_RTV_TUPLE) {
    kiln_strbuf_puts(b, "tuple(");
    for (int32_t i = 0; i < v->num_items; i++) {
      if (i) kiln_strbuf_puts(b, ", ");
      print_rtv(b, v->items[i]);
    }
    kiln_strbuf_puts(b, ")");
    return;
  }
  kiln_format_tensor(b, v->elem_type, v->rank, v->dims, v->data);
}

/* MLIR's default name of a value as it prints a whole module: in a function, entry-block
 * arguments are %argN and op results %N (one number per op); a region nested in an op
 * continues after all values of the region around it. */
static const kiln_region *region_of(const kiln_value *v) {
  const kiln_block *b = v->def ? v->def->parent : v->block;
  return b ? b->parent : NULL;
}

static void region_counts(const kiln_region *r, int64_t *results, int64_t *args) {
  *results = 0;
  *args = r->first ? r->first->num_args : 0;
  for (const kiln_block *b = r->first; b; b = b->next)
    for (const kiln_op *op = b->first; op; op = op->next) *results += op->num_results > 0;
}

static void value_name(kiln_strbuf *b, const kiln_value *v) {
  const kiln_region *r = region_of(v);
  int64_t val0 = 0, arg0 = 0;
  for (const kiln_region *q = r; q && q->parent && q->parent->kind != KILN_OP_FUNC;) {
    const kiln_block *pb = q->parent->parent;
    q = pb ? pb->parent : NULL;
    if (!q) break;
    int64_t nr, na;
    region_counts(q, &nr, &na);
    val0 += nr;
    arg0 += na;
  }
  if (!v->def) {
    kiln_strbuf_printf(b, "%%arg%lld", (long long)(arg0 + v->index));
    return;
  }
  int64_t n = val0;
  for (const kiln_op *op = v->def->parent ? v->def->parent->first : NULL; op && op != v->def; op = op->next)
    n += op->num_results > 0;
  kiln_strbuf_printf(b, "%%%lld", (long long)n);
  if (v->def->num_results > 1) kiln_strbuf_printf(b, ":%d", (int)v->def->num_results);
}

static pthread_mutex_t g_print_mu = PTHREAD_MUTEX_INITIALIZER;

static kiln_status k_print(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  kiln_strbuf b = {0};
  for (int32_t i = 0; i < a->num_in; i++) {
    value_name(&b, a->op->operands[i]);
    kiln_strbuf_puts(&b, " = ");
    print_rtv(&b, a->in[i]);
    kiln_strbuf_puts(&b, "\n");
  }
  if (b.failed) {
    free(b.data);
    return oom();
  }
  FILE *f = ctx->print_out ? ctx->print_out : stdout;
  pthread_mutex_lock(&g_print_mu); /* whole values, never interleaved between processes */
  if (b.len) fwrite(b.data, 1, b.len, f);
  fflush(f);
  pthread_mutex_unlock(&g_print_mu);
  free(b.data);
  for (int32_t i = 0; i < a->num_out && i < a->num_in; i++) a->out[i] = kiln_rtv_retain(a->in[i]);
  return NULL;
}

/* ------------------------------------------------------------------ comparisons */

typedef enum cmp_kind { CMP_EQ, CMP_ALMOST, CMP_CLOSE } cmp_kind;

typedef struct cmp_spec {
  cmp_kind kind;
  double tolerance;          /* CMP_ALMOST: absolute */
  uint64_t min_ulp, max_ulp; /* CMP_CLOSE */
} cmp_spec;

static bool float_eq(double x, double y) { return x == y || (isnan(x) && isnan(y)); }

/* The check dialect's closeness: equal, both NaN, or finite within tol. */
static bool float_almost(double x, double y, double tol) {
  if (x == y) return true;
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (!isfinite(x) || !isfinite(y)) return false;
  return fabs(x - y) <= tol;
}

/* Number of representable values of e between two stored floats: 0 for identical bits
 * or two NaNs, UINT64_MAX when one is not finite. */
static uint64_t ulp_distance(kiln_elem e, uint64_t xb, uint64_t yb) {
  if (xb == yb) return 0;
  double x = kiln_elem_float_from_bits(e, xb), y = kiln_elem_float_from_bits(e, yb);
  if (isnan(x) && isnan(y)) return 0;
  if (!isfinite(x) || !isfinite(y)) return UINT64_MAX;
  int ex = 0, man = 0;
  kiln_elem_float_format(e, &ex, &man);
  int magnitude_bits = ex + man;
  bool has_sign = magnitude_bits + 1 == kiln_elem_bits(e);
  uint64_t mask = magnitude_bits >= 64 ? ~0ull : (1ull << magnitude_bits) - 1;
  uint64_t xm = xb & mask, ym = yb & mask;
  bool xn = has_sign && (xb >> magnitude_bits) & 1, yn = has_sign && (yb >> magnitude_bits) & 1;
  if (xn != yn) return xm + ym;
  return xm > ym ? xm - ym : ym - xm;
}

typedef struct elem_result {
  bool ok;
  uint64_t ulp;
} elem_result;

static elem_result compare_elem(const kiln_rtv *x, const kiln_rtv *y, int64_t i, const cmp_spec *spec) {
  elem_result r = {true, 0};
  kiln_elem e = x->elem;
  const uint8_t *px = x->data + (size_t)i * x->elem_bytes, *py = y->data + (size_t)i * y->elem_bytes;
  kiln_elem_class c = kiln_elem_class_of(e);
  if (c != KILN_ELEM_CLASS_F && c != KILN_ELEM_CLASS_C) {
    r.ok = kiln_scalar_load(e, px).u == kiln_scalar_load(e, py).u;
    return r;
  }
  int parts = c == KILN_ELEM_CLASS_C ? 2 : 1;
  kiln_elem pe = parts == 2 ? kiln_elem_complex_part(e) : e;
  size_t half = x->elem_bytes / (size_t)parts;
  for (int k = 0; k < parts; k++) {
    uint64_t xb = float_bits(pe, px + half * (size_t)k), yb = float_bits(pe, py + half * (size_t)k);
    double xv = kiln_elem_float_from_bits(pe, xb), yv = kiln_elem_float_from_bits(pe, yb);
    switch (spec->kind) {
      case CMP_EQ: r.ok &= float_eq(xv, yv); break;
      case CMP_ALMOST: r.ok &= float_almost(xv, yv, spec->tolerance); break;
      case CMP_CLOSE: {
        uint64_t u = ulp_distance(pe, xb, yb);
        if (u > r.ulp) r.ulp = u;
        break;
      }
    }
  }
  if (spec->kind == CMP_CLOSE) r.ok = r.ulp >= spec->min_ulp && r.ulp <= spec->max_ulp;
  return r;
}

/* A quantized operand is compared by its dequantized values: *out is a new reference. */
static kiln_status comparable(const kiln_rtv *v, kiln_rtv **out) {
  if (is_quant(v)) return kiln_interp_dequantize(v, out);
  *out = kiln_rtv_retain((kiln_rtv *)v);
  return NULL;
}

/* Compares got with want; *pass tells the outcome and msg the first difference. */
static kiln_status compare(const kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *got_in,
                           const kiln_rtv *want_in, const cmp_spec *spec, bool *pass, kiln_strbuf *msg) {
  *pass = false;
  KILN_RETURN_IF_ERROR(need_tensor(ctx, op, got_in, 0));
  if (!want_in || want_in->kind != KILN_RTV_TENSOR) return kiln_interp_error(ctx, op, "the expected value must be a tensor");
  kiln_rtv *got = NULL, *want = NULL;
  kiln_status st = comparable(got_in, &got);
  if (!st) st = comparable(want_in, &want);
  if (st) {
    kiln_rtv_release(got);
    return st;
  }
  if (got->elem != want->elem || !same_shape(got, want)) {
    kiln_strbuf_puts(msg, "got a ");
    fmt_tensor_type(msg, got);
    kiln_strbuf_puts(msg, ", expected a ");
    fmt_tensor_type(msg, want);
  } else {
    int64_t bad = 0, first = -1;
    uint64_t worst = 0, first_ulp = 0;
    for (int64_t i = 0; i < got->count; i++) {
      elem_result r = compare_elem(got, want, i, spec);
      if (r.ulp > worst) worst = r.ulp;
      if (r.ok) continue;
      if (first < 0) first = i, first_ulp = r.ulp;
      bad++;
    }
    *pass = bad == 0;
    if (!*pass) {
      kiln_strbuf_puts(msg, "index ");
      fmt_index(msg, got, first);
      kiln_strbuf_puts(msg, ": got ");
      fmt_elem(msg, got, first);
      kiln_strbuf_puts(msg, ", expected ");
      fmt_elem(msg, want, first);
      bool fl = kiln_elem_is_float(got->elem) || kiln_elem_is_complex(got->elem);
      if (spec->kind == CMP_ALMOST && fl) kiln_strbuf_printf(msg, " (tolerance %g)", spec->tolerance);
      if (spec->kind == CMP_CLOSE && fl) {
        if (first_ulp == UINT64_MAX) kiln_strbuf_printf(msg, " (not close: non-finite)");
        else kiln_strbuf_printf(msg, " (%llu ULP apart", (unsigned long long)first_ulp);
        if (first_ulp != UINT64_MAX)
          kiln_strbuf_printf(msg, ", allowed %llu..%llu)", (unsigned long long)spec->min_ulp, (unsigned long long)spec->max_ulp);
      }
      if (bad > 1) kiln_strbuf_printf(msg, "; %lld of %lld elements differ", (long long)bad, (long long)got->count);
      if (spec->kind == CMP_CLOSE && fl && bad > 1 && worst != UINT64_MAX)
        kiln_strbuf_printf(msg, ", at most %llu ULP", (unsigned long long)worst);
    }
  }
  kiln_rtv_release(got);
  kiln_rtv_release(want);
  return NULL;
}

/* Runs a comparison and records it as a check result. */
static kiln_status check(kiln_interp_ctx *ctx, const kiln_op *op, const char *label, const kiln_rtv *got,
                         const kiln_rtv *want, const cmp_spec *spec, bool *out_pass) {
  kiln_strbuf msg = {0};
  bool pass = false;
  if (label) kiln_strbuf_printf(&msg, "@%s: ", label);
  kiln_status st = compare(ctx, op, got, want, spec, &pass, &msg);
  if (!st && msg.failed) st = oom();
  if (!st) {
    if (pass) kiln_check_pass(ctx);
    else st = kiln_check_fail(ctx, op, "%s", msg.data ? msg.data : "values differ");
  }
  free(msg.data);
  if (out_pass) *out_pass = pass;
  return st;
}

/* The expected tensor of a *_const check (a new reference). */
static kiln_status const_value(const kiln_interp_ctx *ctx, const kiln_op *op, kiln_rtv **out) {
  const kiln_attr *v = kiln_op_attr(op, "value");
  if (!v || v->kind != KILN_ATTR_DENSE || !kiln_type_is_tensor(v->type) || v->type->tensor.num_elements < 0)
    return kiln_interp_error(ctx, op, "needs a static dense `value`");
  return kiln_rtv_from_dense(v, out);
}

static cmp_spec spec_of(const kiln_op *op) {
  cmp_spec s = {CMP_EQ, 1e-4, 0, 1};
  switch (op->kind) {
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
      s.kind = CMP_ALMOST;
      attr_f64(op, "tolerance", &s.tolerance);
      break;
    case KILN_OP_CHECK_EXPECT_CLOSE: {
      int64_t v;
      s.kind = CMP_CLOSE;
      if (attr_i64(op, "max_ulp_difference", &v)) s.max_ulp = (uint64_t)v;
      if (attr_i64(op, "min_ulp_difference", &v)) s.min_ulp = (uint64_t)v;
      break;
    }
    default: break;
  }
  return s;
}

static kiln_status k_check(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  cmp_spec s = spec_of(a->op);
  bool is_const = a->op->kind == KILN_OP_CHECK_EXPECT_EQ_CONST || a->op->kind == KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST;
  if (a->num_in != (is_const ? 1 : 2)) return kiln_interp_error(ctx, a->op, "takes %d operands", is_const ? 1 : 2);
  if (!is_const) return check(ctx, a->op, NULL, a->in[0], a->in[1], &s, NULL);
  kiln_rtv *want = NULL;
  KILN_RETURN_IF_ERROR(const_value(ctx, a->op, &want));
  kiln_status st = check(ctx, a->op, NULL, a->in[0], want, &s, NULL);
  kiln_rtv_release(want);
  return st;
}

/* check.eq (an op or a custom call): exact for integers, else within 1e-4; its results
 * are i1 tensors holding the outcome. */
static kiln_status check_eq_labeled(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const char *label) {
  if (a->num_in != 2) return kiln_interp_error(ctx, a->op, "check.eq takes 2 operands");
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, a->in[1], 1));
  cmp_spec s = {kiln_elem_is_int(a->in[1]->elem) && !is_quant(a->in[1]) ? CMP_EQ : CMP_ALMOST, 1e-4, 0, 0};
  bool pass = false;
  KILN_RETURN_IF_ERROR(check(ctx, a->op, label, a->in[0], a->in[1], &s, &pass));
  for (int32_t i = 0; i < a->num_out; i++) {
    KILN_RETURN_IF_ERROR(kiln_kernel_result_static(ctx, a, i));
    for (int64_t j = 0; j < a->out[i]->count; j++)
      kiln_scalar_store(a->out[i]->elem, a->out[i]->data + (size_t)j * a->out[i]->elem_bytes, (kiln_scalar){.i = pass});
  }
  return NULL;
}

static kiln_status check_eq(kiln_interp_ctx *ctx, const kiln_kernel_args *a) { return check_eq_labeled(ctx, a, NULL); }

/* check.expect_* as custom calls: two operands compared with the target's spec. */
static kiln_status expect_target(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const char *label, cmp_spec s) {
  if (a->num_in != 2) return kiln_interp_error(ctx, a->op, "'%s' takes 2 operands", label);
  KILN_RETURN_IF_ERROR(check(ctx, a->op, label, a->in[0], a->in[1], &s, NULL));
  for (int32_t i = 0; i < a->num_out; i++) KILN_RETURN_IF_ERROR(kiln_kernel_result_static(ctx, a, i));
  return NULL;
}

static kiln_status target_check_eq(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return check_eq_labeled(ctx, a, "check.eq");
}
static kiln_status target_expect_eq(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return expect_target(ctx, a, "check.expect_eq", (cmp_spec){CMP_EQ, 0, 0, 0});
}
static kiln_status target_expect_close(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return expect_target(ctx, a, "check.expect_close", (cmp_spec){CMP_CLOSE, 0, 0, 3});
}
static kiln_status target_expect_almost_eq(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  return expect_target(ctx, a, "check.expect_almost_eq", (cmp_spec){CMP_ALMOST, 1e-3, 0, 0});
}

/* JAX's lax.dce_sink(..., prevent_mlir_dce=True): its operands count as used, so what
 * computes them is kept; running it does nothing (it has no results). */
static kiln_status target_dce_sink(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_out) return kiln_interp_error(ctx, a->op, "'dce_sink' has no results, but %d are declared", (int)a->num_out);
  return NULL;
}

/* The custom-call targets the interpreter runs: the check.* targets of the JAX-generated
 * test data, JAX's @shape_assertion (shape_assertion.c) and @dce_sink, StableHLO's dynamic
 * top_k, rng_bit_generator, approx_top_k and reduce_window and XLA's ApproxTopK (interp.h);
 * and jaxlib's LAPACK targets (lapack_call.c). */
static const struct {
  const char *name;
  kiln_interp_kernel kernel;
  bool shapes_only; /* may run in a shapes-only run: no effect but a shape check */
} k_targets[] = {
    {"check.eq", target_check_eq, false},
    {"check.expect_eq", target_expect_eq, false},
    {"check.expect_close", target_expect_close, false},
    {"check.expect_almost_eq", target_expect_almost_eq, false},
    {"shape_assertion", kiln_interp_shape_assertion, true},
    {"dce_sink", target_dce_sink, true},
    {"stablehlo.dynamic_top_k", kiln_interp_dynamic_top_k, true},
    {"stablehlo.dynamic_rng_bit_generator", kiln_interp_dynamic_rng_bit_generator, true},
    {"ApproxTopK", kiln_interp_approx_top_k, true},
    {"stablehlo.dynamic_approx_top_k", kiln_interp_dynamic_approx_top_k, true},
    {"stablehlo.dynamic_reduce_window", kiln_interp_dynamic_reduce_window, true},
};

/* The row of k_targets op calls, or -1. */
static int target_row(const kiln_op *op) {
  const char *t = NULL;
  size_t n = 0;
  if (!attr_string(op, "call_target_name", &t, &n)) return -1;
  for (size_t i = 0; i < sizeof k_targets / sizeof k_targets[0]; i++)
    if (str_is(t, n, k_targets[i].name)) return (int)i;
  return -1;
}

kiln_interp_kernel kiln_interp_custom_call_kernel(const kiln_op *op) {
  int i = target_row(op);
  if (i >= 0) return k_targets[i].kernel;
  return kiln_lapack_is_target(op) ? kiln_interp_lapack : NULL;
}

bool kiln_interp_custom_call_shapes_only(const kiln_op *op) {
  int i = target_row(op);
  if (i >= 0) return k_targets[i].shapes_only;
  return op->num_results > 0 && kiln_lapack_is_target(op);
}

/* stablehlo.custom_call: its target's kernel. Programs that call another target are refused
 * when compiled (kiln_interp_check_runnable); this error is for callers that skip that. */
static kiln_status k_custom_call(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  kiln_interp_kernel k = kiln_interp_custom_call_kernel(a->op);
  if (k) return k(ctx, a);
  const char *t = "";
  size_t n = 0;
  attr_string(a->op, "call_target_name", &t, &n);
  return kiln_interp_error(ctx, a->op, KILN_INTERP_NO_TARGET, (int)n, t);
}

/* ------------------------------------------------------------------ probes */

/* Values recorded by interpreter.probe, per interpreter, in recording order. */
typedef struct probe_rec {
  struct probe_rec *next;
  const kiln_interp *interp;
  char *id;
  size_t id_len;
  kiln_rtv *value;
} probe_rec;

static pthread_mutex_t g_probe_mu = PTHREAD_MUTEX_INITIALIZER;
static probe_rec *g_probes, **g_probes_tail = &g_probes;

static kiln_status k_probe(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const char *id;
  size_t n;
  if (a->num_in != 1 || !attr_string(a->op, "probe_id", &id, &n))
    return kiln_interp_error(ctx, a->op, "needs one operand and a probe_id");
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, a->in[0], 0));
  probe_rec *r = calloc(1, sizeof *r);
  if (!r || !(r->id = malloc(n + 1))) {
    free(r);
    return oom();
  }
  memcpy(r->id, id, n);
  r->id[n] = 0;
  r->id_len = n;
  r->interp = ctx->interp;
  r->value = kiln_rtv_retain(a->in[0]);
  pthread_mutex_lock(&g_probe_mu);
  *g_probes_tail = r;
  g_probes_tail = &r->next;
  pthread_mutex_unlock(&g_probe_mu);
  if (a->num_out == 1) a->out[0] = kiln_rtv_retain(a->in[0]);
  return NULL;
}

void kiln_interp_probes_forget(const kiln_interp *interp) {
  pthread_mutex_lock(&g_probe_mu);
  probe_rec **p = &g_probes;
  while (*p) {
    probe_rec *r = *p;
    if (r->interp != interp) {
      p = &r->next;
      continue;
    }
    *p = r->next;
    kiln_rtv_release(r->value);
    free(r->id);
    free(r);
  }
  g_probes_tail = p;
  pthread_mutex_unlock(&g_probe_mu);
}

static kiln_status k_expect_serialized_eq(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const char *id;
  size_t n;
  int64_t iter = 0;
  if (a->num_in != 1 || !attr_string(a->op, "probe_id", &id, &n))
    return kiln_interp_error(ctx, a->op, "needs one operand and a probe_id");
  if (!attr_i64(a->op, "iter", &iter)) attr_i64(a->op, "iteration", &iter);
  kiln_rtv *probed = NULL;
  int64_t seen = 0;
  pthread_mutex_lock(&g_probe_mu);
  for (probe_rec *r = g_probes; r && !probed; r = r->next)
    if (r->interp == ctx->interp && r->id_len == n && !memcmp(r->id, id, n) && seen++ == iter)
      probed = kiln_rtv_retain(r->value);
  pthread_mutex_unlock(&g_probe_mu);
  if (!probed)
    return kiln_check_fail(ctx, a->op, "probe '%.*s' recorded %lld values, none at iteration %lld", (int)n, id,
                           (long long)seen, (long long)iter);
  cmp_spec s = {CMP_EQ, 0, 0, 0};
  kiln_status st = NULL;
  if (!kiln_type_equal(probed->elem_type, a->in[0]->elem_type)) {
    kiln_strbuf m = {0};
    fmt_tensor_type(&m, probed);
    st = kiln_check_fail(ctx, a->op, "probe '%.*s' recorded a %s", (int)n, id, m.data ? m.data : "value of another type");
    free(m.data);
  } else {
    st = check(ctx, a->op, NULL, probed, a->in[0], &s, NULL);
  }
  kiln_rtv_release(probed);
  return st;
}

/* ------------------------------------------------------------------ run_parallel */

static kiln_status k_run_parallel(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_attr *progs = kiln_op_attr(a->op, "programs");
  if (!progs || progs->kind != KILN_ATTR_ARRAY || progs->array.count < 1)
    return kiln_interp_error(ctx, a->op, "needs `programs`, a non-empty list of lists of functions");
  int32_t replicas = progs->array.count, partitions = -1;
  for (int32_t r = 0; r < replicas; r++) {
    const kiln_attr *row = progs->array.items[r];
    if (row->kind != KILN_ATTR_ARRAY || (partitions >= 0 && row->array.count != partitions) || row->array.count < 1)
      return kiln_interp_error(ctx, a->op, "`programs` must list the same number (at least 1) of functions per replica");
    partitions = row->array.count;
  }
  if ((int64_t)replicas * partitions > 1024)
    return kiln_interp_error(ctx, a->op, "a grid of %d x %d processes is too large", (int)replicas, (int)partitions);
  const kiln_attr *feed = kiln_op_attr(a->op, "infeed");
  int32_t num_infeed = feed && feed->kind == KILN_ATTR_ARRAY ? feed->array.count : 0;
  const kiln_op **funcs = calloc((size_t)replicas * (size_t)partitions + 1, sizeof *funcs);
  const char **infeed = calloc((size_t)num_infeed + 1, sizeof *infeed);
  kiln_status st = funcs && infeed ? NULL : oom();
  for (int32_t r = 0; !st && r < replicas; r++)
    for (int32_t p = 0; !st && p < partitions; p++) {
      const kiln_attr *s = progs->array.items[r]->array.items[p];
      const kiln_op *f = s->kind == KILN_ATTR_SYMBOL ? kiln_interp_lookup_func(ctx->interp, s->symbol) : NULL;
      if (!f) st = kiln_interp_error(ctx, a->op, "program [%d][%d] is not a function of this module", (int)r, (int)p);
      else funcs[r * partitions + p] = f;
    }
  for (int32_t i = 0; !st && i < num_infeed; i++) {
    const kiln_attr *s = feed->array.items[i];
    if (s->kind == KILN_ATTR_SYMBOL && kiln_interp_lookup_func(ctx->interp, s->symbol)) infeed[i] = s->symbol;
    else st = kiln_interp_error(ctx, a->op, "infeed entry #%d is not a function of this module", (int)i);
  }
  if (!st)
    st = kiln_interp_run_parallel(ctx, a->op, funcs, replicas, partitions, infeed, num_infeed, a->in, a->num_in, a->out,
                                  a->num_out);
  free(funcs);
  free(infeed);
  return st;
}

/* ------------------------------------------------------------------ process ids, feeds, channels */

static kiln_status k_process_id(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  kiln_grid_pos me = kiln_group_position(ctx);
  KILN_RETURN_IF_ERROR(kiln_kernel_result_static(ctx, a, 0));
  uint64_t id = (uint64_t)(a->op->kind == KILN_OP_PARTITION_ID ? me.partition_id : me.replica_id);
  if (a->out[0]->count) kiln_scalar_store(a->out[0]->elem, a->out[0]->data, (kiln_scalar){.u = id});
  return NULL;
}

/* Checks received payload values against the op's result types (all but the last, a
 * token) and hands them over; vals are consumed. */
static kiln_status deliver(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_rtv **vals, int32_t n, const char *what) {
  kiln_status st = NULL;
  if (n != a->num_out - 1)
    st = kiln_interp_error(ctx, a->op, "expects %d values, but %s has %d", (int)(a->num_out - 1), what, (int)n);
  for (int32_t i = 0; !st && i < n; i++) {
    const kiln_type *t = a->op->results[i].type;
    const kiln_rtv *v = vals[i];
    if (kiln_type_is_tensor(t) &&
        (v->kind != KILN_RTV_TENSOR || v->rank != t->tensor.rank || !kiln_type_equal(v->elem_type, t->tensor.element)))
      st = kiln_interp_error(ctx, a->op, "result #%d does not match the type of what %s delivers", (int)i, what);
    for (int32_t d = 0; !st && kiln_type_is_tensor(t) && d < v->rank; d++)
      if (t->tensor.dims[d] != KILN_DIM_DYNAMIC && t->tensor.dims[d] != v->dims[d])
        st = kiln_interp_error(ctx, a->op, "result #%d does not match the shape of what %s delivers", (int)i, what);
  }
  for (int32_t i = 0; i < n; i++) {
    if (!st) a->out[i] = vals[i];
    else kiln_rtv_release(vals[i]);
  }
  free(vals);
  if (!st) st = kiln_rtv_token(&a->out[a->num_out - 1]);
  return st;
}

static kiln_status k_infeed(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_out < 1) return kiln_interp_error(ctx, a->op, "needs a token result");
  const char *name;
  KILN_RETURN_IF_ERROR(kiln_group_infeed(ctx, a->op, &name));
  const kiln_op *f = kiln_interp_lookup_func(ctx->interp, name);
  const kiln_type *ft = f ? kiln_func_type(f) : NULL;
  if (!ft || ft->func.num_inputs != 0)
    return kiln_interp_error(ctx, a->op, "infeed entry @%s must be a function without parameters", name);
  int32_t n = ft->func.num_results;
  kiln_rtv **vals = kiln_fault_calloc((size_t)n + 1, sizeof *vals);
  if (!vals) return oom();
  kiln_status st = kiln_interp_call(ctx, f, NULL, 0, vals);
  if (st) {
    free(vals);
    return st;
  }
  return deliver(ctx, a, vals, n, "the infeed");
}

static kiln_status k_outfeed(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_in < 1) return kiln_interp_error(ctx, a->op, "needs a token operand");
  KILN_RETURN_IF_ERROR(kiln_group_outfeed(ctx, a->op, a->in, a->num_in - 1));
  return k_token(ctx, a);
}

static kiln_status k_send(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_in < 1) return kiln_interp_error(ctx, a->op, "needs a token operand");
  KILN_RETURN_IF_ERROR(kiln_group_post(ctx, a->op, KILN_OP_SEND, channel_id(a->op), -1, a->in, a->num_in - 1));
  return k_token(ctx, a);
}

static kiln_status k_recv(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_out < 1) return kiln_interp_error(ctx, a->op, "needs a token result");
  kiln_rtv **vals;
  int32_t n;
  KILN_RETURN_IF_ERROR(kiln_group_take(ctx, a->op, KILN_OP_SEND, channel_id(a->op), -1, NULL, 0, &vals, &n));
  return deliver(ctx, a, vals, n, "the channel");
}

/* ------------------------------------------------------------------ collectives */

/* The process group of a collective and its exchanged values. */
typedef struct coll {
  int32_t *members;
  int32_t count, index;
  kiln_rtv **all; /* count x n values, row per member */
  int32_t n;
  kiln_group_round *round; /* ended once `all` is released */
} coll;

static void coll_free(kiln_interp_ctx *ctx, coll *c) {
  if (c->all) release_all(c->all, c->count * c->n);
  free(c->all);
  kiln_group_exchange_end(ctx, c->round, c->index);
  free(c->members);
}

/* cross_replica / cross_replica_and_partition / flattened_ids, by channel and
 * use_global_device_ids (all_gather, all_reduce, reduce_scatter). */
static kiln_status grouping_global(const kiln_interp_ctx *ctx, const kiln_op *op, kiln_grouping *g) {
  bool global = attr_flag(op, "use_global_device_ids");
  int64_t ch = channel_id(op);
  if (global && ch <= 0) return kiln_interp_error(ctx, op, "use_global_device_ids needs a positive channel id");
  *g = ch <= 0 ? KILN_GROUPING_CROSS_REPLICA
               : global ? KILN_GROUPING_FLATTENED_IDS : KILN_GROUPING_CROSS_REPLICA_AND_PARTITION;
  return NULL;
}

/* cross_replica or cross_partition, by channel. */
static kiln_grouping grouping_channel(const kiln_op *op) {
  return channel_id(op) > 0 ? KILN_GROUPING_CROSS_PARTITION : KILN_GROUPING_CROSS_REPLICA;
}

/* Finds the group; a process in no group is an error when required. */
static kiln_status coll_group(const kiln_interp_ctx *ctx, const kiln_op *op, kiln_grouping g, bool required, coll *c) {
  KILN_RETURN_IF_ERROR(kiln_group_members(ctx, op, kiln_op_attr(op, "replica_groups"), g, &c->members, &c->count,
                                          &c->index));
  if (!c->count && required) {
    kiln_grid_pos me = kiln_group_position(ctx);
    return kiln_interp_error(ctx, op, "process (replica %d, partition %d) is in no process group", (int)me.replica_id,
                             (int)me.partition_id);
  }
  return NULL;
}

/* Exchanges vals within the group; every member's values must have the shapes of this
 * process's (check_shapes). */
static kiln_status coll_exchange(kiln_interp_ctx *ctx, const kiln_op *op, kiln_rtv *const *vals, int32_t n,
                                 bool check_shapes, coll *c) {
  for (int32_t i = 0; i < n; i++) KILN_RETURN_IF_ERROR(need_tensor(ctx, op, vals[i], i));
  c->n = n;
  KILN_RETURN_IF_ERROR(
      kiln_group_exchange(ctx, op, channel_id(op), c->members, c->count, c->index, vals, n, &c->all, &c->round));
  for (int32_t k = 0; k < c->count; k++)
    for (int32_t i = 0; i < n; i++) {
      const kiln_rtv *v = c->all[k * n + i];
      if (v->kind != KILN_RTV_TENSOR || v->elem != vals[i]->elem || (check_shapes && !same_shape(v, vals[i])))
        return kiln_interp_error(ctx, op, "operand #%d differs in type or shape between the processes of a group",
                                 (int)i);
    }
  return NULL;
}

static kiln_status k_all_gather(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  int64_t dim = 0;
  kiln_grouping g = KILN_GROUPING_CROSS_REPLICA;
  coll c = {0};
  if (!attr_i64(a->op, "all_gather_dim", &dim)) return kiln_interp_error(ctx, a->op, "needs all_gather_dim");
  kiln_status st = grouping_global(ctx, a->op, &g);
  if (!st) st = coll_group(ctx, a->op, g, true, &c);
  if (!st) st = coll_exchange(ctx, a->op, a->in, a->num_in, true, &c);
  for (int32_t i = 0; !st && i < a->num_in && i < a->num_out; i++) {
    const kiln_rtv *x = a->in[i];
    if (dim < 0 || dim >= x->rank) {
      st = kiln_interp_error(ctx, a->op, "all_gather_dim %lld is out of range", (long long)dim);
      break;
    }
    int64_t dims[KILN_RTV_MAX_RANK], off[KILN_RTV_MAX_RANK] = {0}, zero[KILN_RTV_MAX_RANK] = {0};
    memcpy(dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
    dims[dim] *= c.count;
    st = kiln_kernel_result(a, i, x->rank, dims);
    for (int32_t k = 0; !st && k < c.count; k++) {
      off[dim] = k * x->dims[dim];
      st = copy_box(a->out[i], off, c.all[k * c.n + i], zero, x->dims);
    }
  }
  coll_free(ctx, &c);
  return st;
}

static kiln_status k_all_to_all(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  int64_t split = 0, concat = 0, count = 0;
  coll c = {0};
  if (!attr_i64(a->op, "split_dimension", &split) || !attr_i64(a->op, "concat_dimension", &concat) ||
      !attr_i64(a->op, "split_count", &count))
    return kiln_interp_error(ctx, a->op, "needs split_dimension, concat_dimension and split_count");
  kiln_status st = coll_group(ctx, a->op, grouping_channel(a->op), true, &c);
  if (!st && c.count != count)
    st = kiln_interp_error(ctx, a->op, "split_count %lld differs from the group size %d", (long long)count, (int)c.count);
  if (!st) st = coll_exchange(ctx, a->op, a->in, a->num_in, true, &c);
  for (int32_t i = 0; !st && i < a->num_in && i < a->num_out; i++) {
    const kiln_rtv *x = a->in[i];
    if (split < 0 || split >= x->rank || concat < 0 || concat >= x->rank || x->dims[split] % count) {
      st = kiln_interp_error(ctx, a->op, "cannot split dimension %lld of operand #%d in %lld parts", (long long)split,
                             (int)i, (long long)count);
      break;
    }
    int64_t part[KILN_RTV_MAX_RANK], dims[KILN_RTV_MAX_RANK], src_off[KILN_RTV_MAX_RANK] = {0},
                                                               dst_off[KILN_RTV_MAX_RANK] = {0};
    memcpy(part, x->dims, sizeof(int64_t) * (size_t)x->rank);
    part[split] /= count;
    memcpy(dims, part, sizeof(int64_t) * (size_t)x->rank);
    dims[concat] *= count;
    st = kiln_kernel_result(a, i, x->rank, dims);
    src_off[split] = c.index * part[split];
    for (int32_t k = 0; !st && k < c.count; k++) {
      dst_off[concat] = k * part[concat];
      st = copy_box(a->out[i], dst_off, c.all[k * c.n + i], src_off, part);
    }
  }
  coll_free(ctx, &c);
  return st;
}

/* A rank-0 tensor of type elem holding element i of src. */
static kiln_status scalar_of(const kiln_rtv *src, int64_t i, const kiln_type *elem, kiln_rtv **out) {
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(elem, 0, NULL, out));
  kiln_status st = elem_copy(*out, 0, src, i);
  if (st) {
    kiln_rtv_release(*out);
    *out = NULL;
  }
  return st;
}

/* Element of the members' operand j at flat index i reduced with the op's computation
 * (a left fold in group order), stored at out[o]. */
static kiln_status reduce_elem(kiln_interp_ctx *ctx, const kiln_op *op, const coll *c, int32_t j, int64_t i,
                               kiln_rtv *out, int64_t o) {
  const kiln_block *body = kiln_op_block(op, 0);
  if (!body || body->num_args != 2) return kiln_interp_error(ctx, op, "needs a computation of two arguments");
  const kiln_type *at = body->args[0].type;
  const kiln_type *elem = kiln_type_is_tensor(at) ? at->tensor.element : out->elem_type;
  kiln_rtv *acc = NULL;
  kiln_status st = scalar_of(c->all[j], i, elem, &acc);
  for (int32_t k = 1; !st && k < c->count; k++) {
    kiln_rtv *x = NULL, *args[2], *res = NULL;
    st = scalar_of(c->all[k * c->n + j], i, elem, &x);
    if (st) break;
    args[0] = acc;
    args[1] = x;
    st = kiln_interp_region(ctx, &op->regions[0], args, 2, &res, 1);
    kiln_rtv_release(x);
    kiln_rtv_release(acc);
    acc = res;
    if (!st && (!acc || acc->kind != KILN_RTV_TENSOR || acc->count != 1))
      st = kiln_interp_error(ctx, op, "the computation must return one scalar tensor");
  }
  if (!st) st = elem_copy(out, o, acc, 0);
  kiln_rtv_release(acc);
  return st;
}

static kiln_status reduce_all(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const coll *c, int32_t j) {
  const kiln_rtv *x = a->in[j];
  KILN_RETURN_IF_ERROR(kiln_kernel_result_uninit(a, j, x->rank, x->dims)); /* every element is written below */
  kiln_rtv *out = a->out[j];
  const kiln_op *f = kiln_region_combiner(a->op);
  kiln_op_kind k = f ? f->kind : KILN_OP_COUNT;
  if (k != KILN_OP_COUNT && out->elem == x->elem && x->count) { /* the members' values, folded in group order */
    memcpy(out->data, c->all[j]->data, (size_t)x->count * x->elem_bytes);
    bool native = true;
    for (int32_t m = 1; native && m < c->count; m++) native = kiln_combine(k, x->elem, out->data, c->all[m * c->n + j]->data, x->count);
    if (native) return NULL;
  }
  for (int64_t i = 0; i < x->count; i++) KILN_RETURN_IF_ERROR(reduce_elem(ctx, a->op, c, j, i, out, i));
  return NULL;
}

static kiln_status k_all_reduce(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  kiln_grouping g = KILN_GROUPING_CROSS_REPLICA;
  coll c = {0};
  kiln_status st = grouping_global(ctx, a->op, &g);
  if (!st) st = coll_group(ctx, a->op, g, true, &c);
  /* one op of two arguments over elements it folds natively: the members share the work */
  const kiln_op *f = kiln_region_combiner(a->op);
  bool native = f && a->num_in == a->num_out;
  for (int32_t j = 0; !st && native && j < a->num_in; j++) {
    st = need_tensor(ctx, a->op, a->in[j], j);
    const kiln_type *oe = a->out_elem[j], *ie = a->in[j]->elem_type;
    native = oe->kind == KILN_TYPE_SCALAR && ie->kind == KILN_TYPE_SCALAR && oe->elem == ie->elem &&
             kiln_combine(f->kind, ie->elem, NULL, NULL, 0);
  }
  for (int32_t j = 0; !st && native && j < a->num_in; j++)
    st = kiln_kernel_result_uninit(a, j, a->in[j]->rank, a->in[j]->dims); /* every element is written */
  if (!st && native)
    st = kiln_group_all_reduce(ctx, a->op, channel_id(a->op), c.members, c.count, c.index, f->kind, a->in, a->out,
                               a->num_in);
  else if (!st) {
    st = coll_exchange(ctx, a->op, a->in, a->num_in, true, &c);
    for (int32_t j = 0; !st && j < a->num_in && j < a->num_out; j++) st = reduce_all(ctx, a, &c, j);
  }
  coll_free(ctx, &c);
  return st;
}

static kiln_status k_reduce_scatter(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  int64_t dim = 0;
  kiln_grouping g = KILN_GROUPING_CROSS_REPLICA;
  coll c = {0};
  if (!attr_i64(a->op, "scatter_dimension", &dim) || a->num_in != 1 || a->num_out != 1)
    return kiln_interp_error(ctx, a->op, "needs one operand, one result and scatter_dimension");
  kiln_status st = grouping_global(ctx, a->op, &g);
  if (!st) st = coll_group(ctx, a->op, g, true, &c);
  if (!st) st = coll_exchange(ctx, a->op, a->in, 1, true, &c);
  const kiln_rtv *x = a->in[0];
  if (!st && (dim < 0 || dim >= x->rank || x->dims[dim] % c.count))
    st = kiln_interp_error(ctx, a->op, "cannot scatter dimension %lld over %d processes", (long long)dim, (int)c.count);
  const kiln_op *f = kiln_region_combiner(a->op);
  bool native = !st && f && a->out_elem[0]->kind == KILN_TYPE_SCALAR && x->elem_type->kind == KILN_TYPE_SCALAR &&
                a->out_elem[0]->elem == x->elem && kiln_combine(f->kind, x->elem, NULL, NULL, 0);
  if (native) { /* each outer index's run of this member's block, folded in group order */
    int64_t dims[KILN_RTV_MAX_RANK], outer = 1, inner = 1;
    memcpy(dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
    dims[dim] /= c.count;
    for (int32_t d = 0; d < dim; d++) outer *= x->dims[d];
    for (int32_t d = (int32_t)dim + 1; d < x->rank; d++) inner *= x->dims[d];
    st = kiln_kernel_result_uninit(a, 0, x->rank, dims);
    int64_t run = dims[dim] * inner;
    size_t eb = x->elem_bytes;
    for (int64_t o = 0; !st && o < outer && run; o++) {
      size_t from = (size_t)(o * x->dims[dim] * inner + c.index * run) * eb;
      uint8_t *acc = a->out[0]->data + (size_t)(o * run) * eb;
      memcpy(acc, c.all[0]->data + from, (size_t)run * eb);
      for (int32_t m = 1; m < c.count; m++) kiln_combine(f->kind, x->elem, acc, c.all[m]->data + from, run);
    }
  } else if (!st) {
    int64_t dims[KILN_RTV_MAX_RANK], idx[KILN_RTV_MAX_RANK] = {0}, xs[KILN_RTV_MAX_RANK];
    memcpy(dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
    dims[dim] /= c.count;
    kiln_strides(x->rank, x->dims, xs);
    st = kiln_kernel_result(a, 0, x->rank, dims);
    for (int64_t o = 0; !st && o < a->out[0]->count; o++) {
      int64_t i = 0;
      for (int32_t d = 0; d < x->rank; d++) i += (idx[d] + (d == dim ? c.index * dims[dim] : 0)) * xs[d];
      st = reduce_elem(ctx, a->op, &c, 0, i, a->out[0], o);
      kiln_index_next(x->rank, dims, idx);
    }
  }
  coll_free(ctx, &c);
  return st;
}

/* has_dynamic_root: the group position of the root for data operand j. */
static kiln_status root_index(const kiln_interp_ctx *ctx, const kiln_kernel_args *a, const coll *c, int32_t j,
                              int32_t *out) {
  *out = 0;
  if (!attr_flag(a->op, "has_dynamic_root")) return NULL;
  const kiln_rtv *roots = a->in[a->num_in - 1];
  if (roots->kind != KILN_RTV_TENSOR || roots->count < a->num_in - 1 || !kiln_elem_is_int(roots->elem))
    return kiln_interp_error(ctx, a->op, "the root operand must hold one integer per data operand");
  int64_t r = kiln_scalar_load(roots->elem, roots->data + (size_t)j * roots->elem_bytes).i;
  if (r < 0 || r >= c->count)
    return kiln_interp_error(ctx, a->op, "root %lld is out of range for a group of %d", (long long)r, (int)c->count);
  *out = (int32_t)r;
  return NULL;
}

/* collective_broadcast / collective_reduce: data operands (the last operand holds the
 * roots when has_dynamic_root). Processes in no group (and, for collective_reduce, all
 * but the root) get zeros. */
static kiln_status k_collective_root(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  bool reduce = a->op->kind == KILN_OP_COLLECTIVE_REDUCE;
  int32_t n = a->num_in - (attr_flag(a->op, "has_dynamic_root") ? 1 : 0);
  if (n < 1 || n != a->num_out) return kiln_interp_error(ctx, a->op, "needs one result per data operand");
  coll c = {0};
  kiln_status st = coll_group(ctx, a->op, grouping_channel(a->op), false, &c);
  if (!st && c.count) st = coll_exchange(ctx, a->op, a->in, n, reduce, &c);
  for (int32_t j = 0; !st && j < n; j++) {
    int32_t root = 0;
    if (c.count) st = root_index(ctx, a, &c, j, &root);
    if (st) break;
    if (c.count && !reduce) {
      const kiln_rtv *src = c.all[root * c.n + j];
      st = kiln_kernel_result(a, j, src->rank, src->dims);
      if (!st) st = copy_all(a->out[j], src);
    } else if (c.count && root == c.index) {
      st = reduce_all(ctx, a, &c, j);
    } else {
      st = kiln_kernel_result(a, j, a->in[j]->rank, a->in[j]->dims);
      if (!st) fill_zero(a->out[j]);
    }
  }
  coll_free(ctx, &c);
  return st;
}

static kiln_status k_collective_permute(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_attr *pairs = kiln_op_attr(a->op, "source_target_pairs");
  if (a->num_in != 1 || a->num_out != 1 || !pairs || pairs->kind != KILN_ATTR_DENSE || kiln_attr_count(pairs) % 2)
    return kiln_interp_error(ctx, a->op, "needs one operand and source_target_pairs of shape Nx2");
  KILN_RETURN_IF_ERROR(need_tensor(ctx, a->op, a->in[0], 0));
  kiln_grid_pos me = kiln_group_position(ctx);
  bool cross_partition = grouping_channel(a->op) == KILN_GROUPING_CROSS_PARTITION;
  int64_t mine = cross_partition ? me.partition_id : me.replica_id;
  int64_t limit = cross_partition ? me.num_partitions : me.num_replicas;
  int64_t source = -1, ch = channel_id(a->op);
  kiln_rtv *x = a->in[0];
  for (int64_t k = 0; k < kiln_attr_count(pairs) / 2; k++) {
    int64_t s = 0, t = 0;
    kiln_attr_i64_at(pairs, 2 * k, &s);
    kiln_attr_i64_at(pairs, 2 * k + 1, &t);
    if (s < 0 || s >= limit || t < 0 || t >= limit)
      return kiln_interp_error(ctx, a->op, "pair [%lld, %lld] is out of range for %lld %s", (long long)s, (long long)t,
                               (long long)limit, cross_partition ? "partitions" : "replicas");
    if (t == mine) source = s;
    if (s != mine || t == mine) continue;
    int32_t dst = (int32_t)(cross_partition ? me.replica_id * me.num_partitions + t : t * me.num_partitions + me.partition_id);
    KILN_RETURN_IF_ERROR(kiln_group_post(ctx, a->op, KILN_OP_COLLECTIVE_PERMUTE, ch, dst, &x, 1));
  }
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, x->rank, x->dims));
  if (source < 0) {
    fill_zero(a->out[0]);
    return NULL;
  }
  if (source == mine) return copy_all(a->out[0], x);
  int32_t src = (int32_t)(cross_partition ? me.replica_id * me.num_partitions + source
                                          : source * me.num_partitions + me.partition_id);
  kiln_rtv **vals;
  int32_t n;
  KILN_RETURN_IF_ERROR(kiln_group_take(ctx, a->op, KILN_OP_COLLECTIVE_PERMUTE, ch, src, &x, 1, &vals, &n));
  kiln_status st = NULL;
  if (n != 1 || vals[0]->kind != KILN_RTV_TENSOR || !same_shape(vals[0], x))
    st = kiln_interp_error(ctx, a->op, "received a value of another shape");
  if (!st) st = copy_all(a->out[0], vals[0]);
  release_all(vals, n);
  free(vals);
  return st;
}

/* The deprecated cross-replica-sum: all_reduce with addition over replica groups. */
static kiln_status k_cross_replica_sum(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  coll c = {0};
  kiln_status st = coll_group(ctx, a->op, KILN_GROUPING_CROSS_REPLICA, true, &c);
  if (!st) st = coll_exchange(ctx, a->op, a->in, a->num_in, true, &c);
  for (int32_t j = 0; !st && j < a->num_in && j < a->num_out; j++) {
    const kiln_rtv *x = a->in[j];
    st = kiln_kernel_result(a, j, x->rank, x->dims);
    kiln_rtv *out = st ? NULL : a->out[j];
    kiln_elem_class cls = kiln_elem_class_of(x->elem);
    for (int64_t i = 0; !st && i < x->count; i++) {
      kiln_scalar sum = {{0}, 0};
      for (int32_t k = 0; k < c.count; k++) {
        const kiln_rtv *v = c.all[k * c.n + j];
        kiln_scalar s = kiln_scalar_load(v->elem, v->data + (size_t)i * v->elem_bytes);
        if (cls == KILN_ELEM_CLASS_F || cls == KILN_ELEM_CLASS_C) {
          sum.f = k ? sum.f + s.f : s.f;
          sum.im = k ? sum.im + s.im : s.im;
        } else if (cls == KILN_ELEM_CLASS_B) {
          sum.i = sum.i | s.i;
        } else {
          sum.u = sum.u + s.u;
        }
        kiln_scalar_store(out->elem, out->data + (size_t)i * out->elem_bytes, sum);
        sum = kiln_scalar_load(out->elem, out->data + (size_t)i * out->elem_bytes);
      }
    }
  }
  coll_free(ctx, &c);
  return st;
}

/* ------------------------------------------------------------------ dispatch */

kiln_interp_kernel kiln_interp_control_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_CALL: return k_call;
    case KILN_OP_COMPOSITE: return k_composite;
    case KILN_OP_IF: return k_if;
    case KILN_OP_CASE: return k_case;
    case KILN_OP_WHILE: return k_while;
    case KILN_OP_SCF_FOR: return k_scf_for;
    case KILN_OP_OPTIMIZATION_BARRIER: return k_pass_through;
    case KILN_OP_AFTER_ALL:
    case KILN_OP_CREATE_TOKEN: return k_token;
    case KILN_OP_ASYNC_START: return k_async_start;
    case KILN_OP_ASYNC_DONE: return k_async_done;
    case KILN_OP_CUSTOM_CALL: return k_custom_call;
    case KILN_OP_CHECK_EQ: return check_eq;
    case KILN_OP_CHECK_EXPECT_EQ:
    case KILN_OP_CHECK_EXPECT_EQ_CONST:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    case KILN_OP_CHECK_EXPECT_CLOSE: return k_check;
    case KILN_OP_CHECK_EXPECT_SERIALIZED_EQ: return k_expect_serialized_eq;
    case KILN_OP_INTERPRETER_PRINT: return k_print;
    case KILN_OP_INTERPRETER_PROBE: return k_probe;
    case KILN_OP_INTERPRETER_RUN_PARALLEL: return k_run_parallel;
    case KILN_OP_PARTITION_ID:
    case KILN_OP_REPLICA_ID: return k_process_id;
    case KILN_OP_INFEED: return k_infeed;
    case KILN_OP_OUTFEED: return k_outfeed;
    case KILN_OP_SEND: return k_send;
    case KILN_OP_RECV: return k_recv;
    case KILN_OP_ALL_GATHER: return k_all_gather;
    case KILN_OP_ALL_TO_ALL: return k_all_to_all;
    case KILN_OP_ALL_REDUCE: return k_all_reduce;
    case KILN_OP_REDUCE_SCATTER: return k_reduce_scatter;
    case KILN_OP_COLLECTIVE_BROADCAST:
    case KILN_OP_COLLECTIVE_REDUCE: return k_collective_root;
    case KILN_OP_COLLECTIVE_PERMUTE: return k_collective_permute;
    case KILN_OP_CROSS_REPLICA_SUM: return k_cross_replica_sum;
    default: return NULL;
  }
}

bool kiln_interp_kernel_is_quant_native(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_UNIFORM_QUANTIZE:
    case KILN_OP_UNIFORM_DEQUANTIZE:
    case KILN_OP_BITCAST_CONVERT:
    /* values pass through unchanged, or regions see them as they are */
    case KILN_OP_CALL:
    case KILN_OP_COMPOSITE:
    case KILN_OP_IF:
    case KILN_OP_CASE:
    case KILN_OP_WHILE:
    case KILN_OP_SCF_FOR:
    case KILN_OP_OPTIMIZATION_BARRIER:
    case KILN_OP_ASYNC_START:
    case KILN_OP_ASYNC_DONE:
    case KILN_OP_INTERPRETER_PRINT:
    case KILN_OP_INTERPRETER_PROBE:
    case KILN_OP_INTERPRETER_RUN_PARALLEL:
    case KILN_OP_INFEED:
    case KILN_OP_OUTFEED:
    case KILN_OP_SEND:
    case KILN_OP_RECV:
    /* checks compare dequantized values themselves */
    case KILN_OP_CUSTOM_CALL:
    case KILN_OP_CHECK_EQ:
    case KILN_OP_CHECK_EXPECT_EQ:
    case KILN_OP_CHECK_EXPECT_EQ_CONST:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ:
    case KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    case KILN_OP_CHECK_EXPECT_CLOSE:
    case KILN_OP_CHECK_EXPECT_SERIALIZED_EQ:
    /* collectives move stored elements; reductions run their computation on them */
    case KILN_OP_ALL_GATHER:
    case KILN_OP_ALL_TO_ALL:
    case KILN_OP_ALL_REDUCE:
    case KILN_OP_REDUCE_SCATTER:
    case KILN_OP_COLLECTIVE_BROADCAST:
    case KILN_OP_COLLECTIVE_REDUCE:
    case KILN_OP_COLLECTIVE_PERMUTE: return true;
    default: return false;
  }
}
