/* The interpreter's core: function calls, regions, op dispatch, quantization. */
#include "backends/interp/interp.h"

#include "backends/interp/collectives.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/fault.h"

enum { MAX_CALL_DEPTH = 256 };

struct kiln_interp {
  const kiln_module *m;
  const kiln_source *src;
  int32_t num_funcs;
  const kiln_op **funcs;
  int32_t *frame_sizes;
};

static const kiln_type k_scalars[KILN_ELEM_COUNT] = {
#define KILN_ELEM(id, spelling, bits, bytes, cls) {.kind = KILN_TYPE_SCALAR, .elem = KILN_ELEM_##id},
#include "ir/elem.def"
};

const kiln_type *kiln_interp_scalar_type(kiln_elem e) { return &k_scalars[e]; }

/* ------------------------------------------------------------------ preparation */

kiln_status kiln_interp_create(const kiln_module *m, const kiln_source *src, kiln_interp **out) {
  *out = NULL;
  kiln_interp *in = calloc(1, sizeof *in);
  if (!in) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  in->m = m;
  in->src = src;
  kiln_block *top = kiln_op_block(m->op, 0);
  int32_t n = 0;
  for (kiln_op *op = top ? top->first : NULL; op; op = op->next) n += op->kind == KILN_OP_FUNC;
  in->funcs = calloc((size_t)n + 1, sizeof *in->funcs);
  in->frame_sizes = calloc((size_t)n + 1, sizeof *in->frame_sizes);
  if (!in->funcs || !in->frame_sizes) {
    kiln_interp_destroy(in);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (kiln_op *op = top ? top->first : NULL; op; op = op->next) {
    if (op->kind != KILN_OP_FUNC) continue;
    in->funcs[in->num_funcs] = op;
    in->frame_sizes[in->num_funcs++] = kiln_func_num_values(op);
  }
  *out = in;
  return NULL;
}

void kiln_interp_destroy(kiln_interp *in) {
  if (!in) return;
  kiln_interp_probes_forget(in);
  free(in->funcs);
  free(in->frame_sizes);
  free(in);
}

const kiln_module *kiln_interp_module(const kiln_interp *in) { return in->m; }

const kiln_op *kiln_interp_lookup_func(const kiln_interp *in, const char *name) {
  for (int32_t i = 0; i < in->num_funcs; i++)
    if (!strcmp(kiln_func_name(in->funcs[i]), name)) return in->funcs[i];
  return NULL;
}

/* ------------------------------------------------------------------ errors and checks */

kiln_status kiln_interp_error(const kiln_interp_ctx *ctx, const kiln_op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kiln_status st = kiln_op_errorv(ctx->interp->src, ctx->interp->m->name, op, fmt, ap);
  va_end(ap);
  return st;
}

void kiln_check_log_free(kiln_check_log *log) {
  free(log->text.data);
  memset(log, 0, sizeof *log);
}

void kiln_check_pass(kiln_interp_ctx *ctx) {
  if (ctx->checks) ctx->checks->passed++;
}

kiln_status kiln_check_fail(kiln_interp_ctx *ctx, const kiln_op *op, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!ctx->checks) return kiln_interp_error(ctx, op, "check failed: %s", msg);
  kiln_check_log *log = ctx->checks;
  log->failed++;
  kiln_strbuf_printf(&log->text, "%s:%u:%u: %s failed: %s\n", ctx->interp->m->name, op->loc.line, op->loc.col,
                     kiln_op_name(op->kind), msg);
  return log->text.failed ? KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory") : NULL;
}

/* ------------------------------------------------------------------ kernel helpers */

/* In a shapes-only run the kernel stops at its last result, which is made without memory
 * (kiln_rtv_shape: a shapes-only run plans sizes far beyond what a run would allocate,
 * specialize.c's ladder); the ones before it are made with memory a kernel may write before
 * it makes the last. */
static kiln_status kernel_result(const kiln_kernel_args *a, int32_t i, int32_t rank, const int64_t *dims, bool zero) {
  bool last = a->shapes_only && i == a->num_out - 1;
  KILN_RETURN_IF_ERROR((last ? kiln_rtv_shape : zero && !a->shapes_only ? kiln_rtv_tensor : kiln_rtv_tensor_uninit)(
      a->out_elem[i], rank, dims, &a->out[i]));
  if (last) return KILN_STATUS(KILN_STATUS_CANCELLED, "shapes only");
  return NULL;
}

kiln_status kiln_kernel_result(const kiln_kernel_args *a, int32_t i, int32_t rank, const int64_t *dims) {
  return kernel_result(a, i, rank, dims, true);
}

kiln_status kiln_kernel_result_uninit(const kiln_kernel_args *a, int32_t i, int32_t rank, const int64_t *dims) {
  return kernel_result(a, i, rank, dims, false);
}

kiln_status kiln_kernel_result_static(const kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t i) {
  const kiln_type *t = a->op->results[i].type;
  if (!kiln_type_is_tensor(t) || t->tensor.num_elements < 0)
    return kiln_interp_error(ctx, a->op, "result #%d has a dynamic shape this op cannot infer", (int)i);
  return kiln_kernel_result(a, i, t->tensor.rank, t->tensor.dims);
}

/* ------------------------------------------------------------------ quantization */

static double round_to(kiln_elem e, double v) { return kiln_elem_float_from_bits(e, kiln_elem_float_to_bits(e, v)); }

static int64_t axis_index(const kiln_rtv *v, int32_t axis, int64_t flat) {
  int64_t stride = 1;
  for (int32_t d = v->rank - 1; d > axis; d--) stride *= v->dims[d];
  return (flat / stride) % v->dims[axis];
}

kiln_status kiln_interp_dequantize(const kiln_rtv *q, kiln_rtv **out) {
  const kiln_type *qt = q->elem_type;
  kiln_elem ex = qt->quant.expressed;
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(kiln_interp_scalar_type(ex), q->rank, q->dims, out));
  kiln_rtv *r = *out;
  for (int64_t i = 0; i < q->count; i++) {
    int64_t k = qt->quant.axis >= 0 ? axis_index(q, qt->quant.axis, i) : 0;
    if (k >= qt->quant.count) k = qt->quant.count - 1;
    kiln_scalar s = kiln_scalar_load(q->elem, q->data + (size_t)i * q->elem_bytes);
    double scale = round_to(ex, qt->quant.scales[k]);
    double zp = round_to(ex, (double)qt->quant.zero_points[k]);
    kiln_scalar v = {.f = round_to(ex, round_to(ex, (double)s.i - zp) * scale)};
    kiln_scalar_store(ex, r->data + (size_t)i * r->elem_bytes, v);
  }
  return NULL;
}

kiln_status kiln_interp_quantize(const kiln_rtv *x, const kiln_type *qt, kiln_rtv **out) {
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(qt, x->rank, x->dims, out));
  kiln_rtv *r = *out;
  kiln_elem ex = qt->quant.expressed;
  for (int64_t i = 0; i < x->count; i++) {
    int64_t k = qt->quant.axis >= 0 ? axis_index(x, qt->quant.axis, i) : 0;
    if (k >= qt->quant.count) k = qt->quant.count - 1;
    double v = kiln_scalar_load(x->elem, x->data + (size_t)i * x->elem_bytes).f;
    double scaled = round_to(ex, round_to(ex, v) / round_to(ex, qt->quant.scales[k]));
    double q = nearbyint(round_to(ex, scaled + (double)qt->quant.zero_points[k]));
    if (isnan(q)) q = 0;
    if (q < (double)qt->quant.storage_min) q = (double)qt->quant.storage_min;
    if (q > (double)qt->quant.storage_max) q = (double)qt->quant.storage_max;
    kiln_scalar s = {.i = (int64_t)q};
    kiln_scalar_store(r->elem, r->data + (size_t)i * r->elem_bytes, s);
  }
  return NULL;
}

/* ------------------------------------------------------------------ dispatch */

kiln_interp_kernel kiln_interp_kernel_for(kiln_op_kind kind) {
  kiln_interp_kernel k;
  if ((k = kiln_interp_elementwise_lookup(kind))) return k;
  if ((k = kiln_interp_shape_lookup(kind))) return k;
  if ((k = kiln_interp_structured_lookup(kind))) return k;
  if ((k = kiln_interp_math_lookup(kind))) return k;
  if ((k = kiln_interp_linalg_lookup(kind))) return k;
  return kiln_interp_control_lookup(kind);
}

static bool is_quant_value(const kiln_rtv *v) { return v && v->kind == KILN_RTV_TENSOR && v->elem_type->kind == KILN_TYPE_QUANT; }

static const kiln_type *result_elem(const kiln_op *op, int32_t i) {
  const kiln_type *t = op->results[i].type;
  return kiln_type_is_tensor(t) ? t->tensor.element : NULL;
}

/* dequantize_op_quantize: operands to floats, the kernel in floats, results back. */
static kiln_status run_quantized(kiln_interp_ctx *ctx, kiln_interp_kernel k, kiln_kernel_args *a) {
  kiln_rtv **deq = kiln_fault_calloc((size_t)a->num_in + 1, sizeof *deq);
  const kiln_type **elems = kiln_fault_calloc((size_t)a->num_out + 1, sizeof *elems);
  kiln_rtv **raw = kiln_fault_calloc((size_t)a->num_out + 1, sizeof *raw);
  kiln_status st = deq && elems && raw ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; !st && i < a->num_in; i++)
    st = is_quant_value(a->in[i]) ? kiln_interp_dequantize(a->in[i], &deq[i]) : (deq[i] = kiln_rtv_retain(a->in[i]), NULL);
  for (int32_t i = 0; !st && i < a->num_out; i++) {
    const kiln_type *e = a->out_elem[i];
    elems[i] = e && e->kind == KILN_TYPE_QUANT ? kiln_interp_scalar_type(e->quant.expressed) : e;
  }
  if (!st) {
    kiln_kernel_args fa = {a->op, deq, a->num_in, raw, a->num_out, elems, false}; /* computed: they are quantized */
    st = k(ctx, &fa);
  }
  for (int32_t i = 0; !st && i < a->num_out; i++) {
    const kiln_type *e = a->out_elem[i];
    if (e && e->kind == KILN_TYPE_QUANT && raw[i] && raw[i]->kind == KILN_RTV_TENSOR) st = kiln_interp_quantize(raw[i], e, &a->out[i]);
    else a->out[i] = kiln_rtv_retain(raw[i]);
  }
  for (int32_t i = 0; deq && i < a->num_in; i++) kiln_rtv_release(deq[i]);
  for (int32_t i = 0; raw && i < a->num_out; i++) kiln_rtv_release(raw[i]);
  free(deq);
  free(elems);
  free(raw);
  return st;
}

kiln_status kiln_interp_exec_op(kiln_interp_ctx *ctx, const kiln_op *op) {
  kiln_interp_kernel k = kiln_interp_kernel_for(op->kind);
  if (!k) return kiln_interp_error(ctx, op, "is not supported by the interpreter yet");
  kiln_rtv *in_small[16], *out_small[16];
  const kiln_type *elem_small[16];
  bool big = op->num_operands > 16 || op->num_results > 16;
  kiln_rtv **in = big ? kiln_fault_calloc((size_t)op->num_operands + 1, sizeof *in) : in_small;
  kiln_rtv **out = big ? kiln_fault_calloc((size_t)op->num_results + 1, sizeof *out) : out_small;
  const kiln_type **elems = big ? kiln_fault_calloc((size_t)op->num_results + 1, sizeof *elems) : elem_small;
  if (!in || !out || !elems) {
    if (big) free(in), free(out), free(elems);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  bool quant = false;
  for (int32_t i = 0; i < op->num_operands; i++) {
    in[i] = ctx->frame[op->operands[i]->id];
    quant |= is_quant_value(in[i]);
  }
  for (int32_t i = 0; i < op->num_results; i++) {
    out[i] = NULL;
    elems[i] = result_elem(op, i);
    quant |= elems[i] && elems[i]->kind == KILN_TYPE_QUANT;
  }
  bool shallow = ctx->shapes_only && op->num_results && ctx->shapes_only[op->results[0].id];
  kiln_kernel_args a = {op, in, op->num_operands, out, op->num_results, elems, shallow};
  bool control = op->kind == KILN_OP_WHILE || op->kind == KILN_OP_IF || op->kind == KILN_OP_CASE;
  kiln_status st = shallow && control ? kiln_interp_shapes_only_control(ctx, &a)
                   : quant && !kiln_interp_kernel_is_quant_native(op->kind) ? run_quantized(ctx, k, &a)
                                                                            : k(ctx, &a);
  if (shallow && st) { /* the kernel stopped once its results were allocated: that is all it had to do */
    bool allocated = true;
    for (int32_t i = 0; i < op->num_results; i++) allocated = allocated && out[i];
    if (allocated) {
      kiln_status_free(st);
      st = NULL;
    }
  }
  for (int32_t i = 0; i < op->num_results; i++) {
    if (!st && !out[i]) st = kiln_interp_error(ctx, op, "produced no value for result #%d", (int)i);
    kiln_rtv **slot = &ctx->frame[op->results[i].id];
    kiln_rtv_release(*slot);
    *slot = st ? (kiln_rtv_release(out[i]), NULL) : out[i];
  }
  if (!st && ctx->observe) ctx->observe(ctx->observe_arg, op, out);
  if (big) free(in), free(out), free(elems);
  return st;
}

static bool is_terminator(const kiln_op *op) {
  return op->kind == KILN_OP_FUNC_RETURN || op->kind == KILN_OP_RETURN || op->kind == KILN_OP_SCF_YIELD;
}

/* Runs a block; its terminator's operands become results. */
static kiln_status run_block(kiln_interp_ctx *ctx, const kiln_block *b, kiln_rtv **results, int32_t nres) {
  for (const kiln_op *op = b->first; op; op = op->next) {
    if (is_terminator(op)) {
      if (op->num_operands != nres)
        return kiln_interp_error(ctx, op, "returns %d values where %d are expected", (int)op->num_operands, (int)nres);
      for (int32_t i = 0; i < nres; i++) results[i] = kiln_rtv_retain(ctx->frame[op->operands[i]->id]);
      return NULL;
    }
    KILN_RETURN_IF_ERROR(kiln_interp_exec_op(ctx, op));
  }
  if (nres) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "a block ends without a terminator");
  return NULL;
}

static void bind(kiln_interp_ctx *ctx, const kiln_block *b, kiln_rtv *const *args) {
  for (int32_t i = 0; i < b->num_args; i++) {
    kiln_rtv **slot = &ctx->frame[b->args[i].id];
    kiln_rtv *old = *slot;
    *slot = kiln_rtv_retain(args[i]);
    kiln_rtv_release(old);
  }
}

kiln_status kiln_interp_region(kiln_interp_ctx *ctx, const kiln_region *r, kiln_rtv *const *args, int32_t nargs,
                               kiln_rtv **results, int32_t nres) {
  const kiln_block *b = r->first;
  if (!b) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "empty region");
  if (b->next) return kiln_interp_error(ctx, r->parent, "regions with several blocks are not supported");
  if (b->num_args != nargs)
    return kiln_interp_error(ctx, r->parent, "region takes %d arguments, %d given", (int)b->num_args, (int)nargs);
  bind(ctx, b, args);
  return run_block(ctx, b, results, nres);
}

static int32_t frame_size(const kiln_interp *in, const kiln_op *func) {
  for (int32_t i = 0; i < in->num_funcs; i++)
    if (in->funcs[i] == func) return in->frame_sizes[i];
  return -1;
}

kiln_status kiln_interp_call(kiln_interp_ctx *ctx, const kiln_op *func, kiln_rtv *const *args, int32_t nargs,
                             kiln_rtv **results) {
  const kiln_type *ft = kiln_func_type(func);
  const kiln_block *body = kiln_op_block(func, 0);
  int32_t size = frame_size(ctx->interp, func);
  if (!ft || size < 0) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "not a function of this module");
  if (!body) return kiln_interp_error(ctx, func, "@%s has no body", kiln_func_name(func));
  if (nargs != ft->func.num_inputs)
    return kiln_interp_error(ctx, func, "@%s takes %d arguments, %d given", kiln_func_name(func),
                             (int)ft->func.num_inputs, (int)nargs);
  if (ctx->depth >= MAX_CALL_DEPTH) return kiln_interp_error(ctx, func, "calls nest deeper than %d", MAX_CALL_DEPTH);
  kiln_rtv **frame = kiln_fault_calloc((size_t)size + 1, sizeof *frame), **saved = ctx->frame;
  if (!frame) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  ctx->frame = frame;
  ctx->depth++;
  bind(ctx, body, args);
  kiln_status st = run_block(ctx, body, results, ft->func.num_results);
  ctx->depth--;
  ctx->frame = saved;
  for (int32_t i = 0; i < size; i++) kiln_rtv_release(frame[i]);
  free(frame);
  return st;
}
