/* Planning a convolution (cpu.h): oneDNN where it has a kernel for the op's types and
 * windows (lhs dilation with window strides 1 as a deconvolution, dnnl_conv.c), else a
 * generated loop; either way the lhs is first padded and dilated natively (window.c's pad
 * kernel, zeros in the padding and holes) when the kernel cannot read it in place: for lhs
 * dilation that oneDNN cannot take as a deconvolution, and for padding on the loop's way.
 *
 * The loop: out[b, o, s...] = sum over c < C/G and the window k... of
 *   P[batch(b, g), feature(c, g), s * stride + k * rhs_dilation] * W[k (reversed where
 *   window_reversal says), c, o]
 * with g = o / (O/G) the group of the output feature. Its space is the result's dims in
 * order, the output feature dim split into [G, O/G] when grouped (the same row-major
 * layout), then c and the window dims; every read is affine in it (feature groups step
 * the lhs feature by C/G per group, batch groups the lhs batch by N/G). Products and sums
 * are in the accumulation type of the dot loops (f32 for narrow floats, f64 for f64, the
 * result type for integers), so integer convolutions (i8 x i8 -> i32) wrap as the
 * interpreter's. */
#include <string.h>

#include "backends/cpu/conv.h"
#include "backends/cpu/cpu.h"
#include "backends/cpu/dnnl_ops.h"

/* Below this many elements in all (operands and result) a convolution is not worth a
 * oneDNN call (about 1.2 us of fixed cost, measured): it becomes a generated loop. */
enum { DNNL_MIN_ELEMENTS = 4096 };

/* ---------------------------------------------------------------- planning */

static kiln_status oom(void) { return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"); }

static bool needs_pad(const kiln_cpu_conv_dims *c) {
  for (int32_t i = 0; i < c->ns; i++)
    if (c->ldil[i] != 1 || c->pad_lo[i] || c->pad_hi[i]) return true;
  return false;
}

static bool lhs_dilated(const kiln_cpu_conv_dims *c) {
  for (int32_t i = 0; i < c->ns; i++)
    if (c->ldil[i] != 1) return true;
  return false;
}

/* The accumulation type, as the dot loops have it. */
static kiln_elem accumulator(kiln_elem result) {
  if (!kiln_elem_is_float(result)) return result;
  return result == KILN_ELEM_F64 ? KILN_ELEM_F64 : KILN_ELEM_F32;
}

static kiln_cpu_node *node(kiln_cpu_executable *x, kiln_cpu_loop *L, kiln_cpu_node_kind kind, kiln_elem e) {
  kiln_cpu_node *n = kiln_arena_alloc(x->arena, sizeof *n);
  if (!n) return NULL;
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->elem = e;
  n->id = L->num_nodes++;
  return n;
}

static kiln_cpu_node *unary_or_binary(kiln_cpu_executable *x, kiln_cpu_loop *L, kiln_op_kind k, kiln_elem e,
                                      kiln_cpu_node *a, kiln_cpu_node *b) {
  kiln_cpu_node *n = node(x, L, KILN_CPU_NODE_OP, e);
  if (!n || !a || (!b && k != KILN_OP_CONVERT)) return NULL;
  n->op_kind = k;
  n->num_args = b ? 2 : 1;
  if (!(n->args = kiln_arena_alloc_array(x->arena, 2, sizeof *n->args))) return NULL;
  n->args[0] = a;
  n->args[1] = b;
  return n;
}

static kiln_cpu_node *as_acc(kiln_cpu_executable *x, kiln_cpu_loop *L, kiln_cpu_node *n, kiln_elem acc) {
  return n && n->elem != acc ? unary_or_binary(x, L, KILN_OP_CONVERT, acc, n, NULL) : n;
}

static void dense_strides(int32_t rank, const int64_t *dims, int64_t *st) {
  int64_t s = 1;
  for (int32_t d = rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= dims[d];
  }
}

/* Appends the LOOP step computing op's result from lhs value `lhs` (dims c->lhs_dims, no
 * padding or lhs dilation left) and the rhs; zeros when the sum is empty. */
static kiln_status add_loop(kiln_cpu_executable *x, const kiln_op *op, const kiln_cpu_conv_dims *c, int32_t lhs,
                            bool zeros) {
  const kiln_type *rt = op->operands[1]->type, *ot = op->results[0].type;
  int32_t rank = ot->tensor.rank, ns = c->ns;
  const int64_t *rd = rt->tensor.dims, *od = ot->tensor.dims;
  kiln_elem out = kiln_type_elem(ot), acc = accumulator(out);
  int64_t G = c->fgc > 1 ? c->fgc : c->bgc, O = od[c->ofd], Cg = rd[c->kif];
  int64_t ls[KILN_CPU_MAX_RANK], ws[KILN_CPU_MAX_RANK];
  dense_strides(rank, c->lhs_dims, ls);
  dense_strides(rank, rd, ws);
  kiln_cpu_loop *L = kiln_arena_alloc(x->arena, sizeof *L);
  if (!L) return oom();
  memset(L, 0, sizeof *L);
  L->out_elem = out;
  int64_t window = Cg;
  for (int32_t i = 0; i < ns; i++) window *= rd[c->ks[i]];
  int32_t split = G > 1 ? 1 : 0, n_out = rank + split;
  int32_t space = n_out + (window ? 1 + ns : 0);
  if (space > KILN_CPU_MAX_RANK) return NULL; /* the caller interprets it */
  int64_t points = ot->tensor.num_elements, work = points;
  if (zeros || !window || !points) { /* an empty sum: zeros */
    L->rank = L->num_out_dims = rank;
    for (int32_t d = 0; d < rank; d++) L->dims[d] = od[d];
    if (!(L->root = node(x, L, KILN_CPU_NODE_SCALAR, out))) return oom();
    L->root->value = kiln_elem_is_float(out) ? (kiln_scalar){.f = 0.0} : (kiln_scalar){.i = 0};
  } else {
    kiln_cpu_node *pl = node(x, L, KILN_CPU_NODE_LOAD, kiln_type_elem(op->operands[0]->type));
    kiln_cpu_node *wl = node(x, L, KILN_CPU_NODE_LOAD, kiln_type_elem(rt));
    kiln_cpu_node *zero = node(x, L, KILN_CPU_NODE_SCALAR, acc);
    if (!pl || !wl || !zero) return oom();
    pl->input = 0;
    wl->input = 1;
    zero->value = kiln_elem_is_float(acc) ? (kiln_scalar){.f = 0.0} : (kiln_scalar){.i = 0};
    int32_t col = 0;
    for (int32_t d = 0; d < rank; d++) {
      if (d == c->ofd && split) { /* [G, O/G] */
        L->dims[col] = G;
        pl->strides[col] = c->fgc > 1 ? Cg * ls[c->ifd] : (c->lhs_dims[c->ib] / G) * ls[c->ib];
        wl->strides[col++] = (O / G) * ws[c->kof];
        L->dims[col] = O / G;
        wl->strides[col++] = ws[c->kof];
        continue;
      }
      L->dims[col] = od[d];
      if (d == c->ob) pl->strides[col] = ls[c->ib];
      else if (d == c->ofd) wl->strides[col] = ws[c->kof];
      for (int32_t i = 0; i < ns; i++)
        if (d == c->os[i]) pl->strides[col] = c->stride[i] * ls[c->is[i]];
      col++;
    }
    L->dims[col] = Cg;
    pl->strides[col] = ls[c->ifd];
    wl->strides[col++] = ws[c->kif];
    for (int32_t i = 0; i < ns; i++, col++) {
      int64_t k = rd[c->ks[i]];
      L->dims[col] = k;
      pl->strides[col] = c->rdil[i] * ls[c->is[i]];
      wl->strides[col] = c->reverse[i] ? -ws[c->ks[i]] : ws[c->ks[i]];
      if (c->reverse[i]) wl->base += (k - 1) * ws[c->ks[i]];
    }
    L->rank = space;
    L->num_out_dims = n_out;
    L->combiner = KILN_OP_ADD;
    L->init = zero;
    L->root = unary_or_binary(x, L, KILN_OP_MULTIPLY, acc, as_acc(x, L, pl, acc), as_acc(x, L, wl, acc));
    if (!L->root) return oom();
    L->num_inputs = 2;
    if (!kiln_mul_i64(points, window, &work)) work = INT64_MAX;
  }
  kiln_cpu_step *step = &x->steps[x->num_steps++];
  int32_t nv = L->num_inputs + 1;
  *step = (kiln_cpu_step){.kind = KILN_CPU_STEP_LOOP, .op = op, .loop = L, .points = points, .work = work,
                          .num_values = nv};
  if (!(step->values = kiln_arena_alloc_array(x->arena, 3, sizeof *step->values))) return oom();
  int32_t values[3] = {lhs, op->operands[1]->id, op->results[0].id};
  if (nv == 1) values[0] = op->results[0].id;
  memcpy(step->values, values, sizeof *values * (size_t)nv);
  x->slots[op->results[0].id].store = KILN_CPU_STORE_TEMP;
  return kiln_cpu_split_reduction(x, step);
}

/* The lhs padded and dilated into a new temporary (its value in *out). */
static kiln_status add_pad(kiln_cpu_executable *x, const kiln_op *op, const kiln_cpu_conv_dims *c, int32_t *out) {
  static const uint8_t zeros[16];
  const kiln_type *lt = op->operands[0]->type, *pt;
  int32_t rank = lt->tensor.rank;
  if (x->num_slots >= x->max_slots) return KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: no slot for a convolution's zero");
  const kiln_type *st = kiln_type_tensor(x->scratch, kiln_type_scalar(x->scratch, kiln_type_elem(lt)), 0, NULL, NULL);
  if (!st) return oom();
  int32_t zv = x->num_slots++;
  x->slots[zv] = (kiln_cpu_slot){.store = KILN_CPU_STORE_CONST, .data = zeros, .type = st};
  int64_t lo[KILN_CPU_MAX_RANK] = {0}, hi[KILN_CPU_MAX_RANK] = {0}, dil[KILN_CPU_MAX_RANK];
  for (int32_t d = 0; d < rank; d++) dil[d] = 1;
  for (int32_t i = 0; i < c->ns; i++) {
    lo[c->is[i]] = c->pad_lo[i];
    hi[c->is[i]] = c->pad_hi[i];
    dil[c->is[i]] = c->ldil[i];
  }
  return kiln_cpu_window_add_pad(x, op, op->operands[0]->id, zv, lt, lo, hi, dil, out, &pt);
}

int32_t kiln_cpu_conv_extra(const kiln_op *op) {
  return op->kind == KILN_OP_CONVOLUTION ? 2 : 0; /* a pad and a split reduction; the pad's zero and partials */
}

static bool loop_types(const kiln_op *op) {
  for (int32_t i = 0; i < 2; i++) {
    kiln_elem e = kiln_type_elem(op->operands[i]->type);
    if (!kiln_cpu_loopgen_elem(e) || kiln_elem_is_complex(e) || e == KILN_ELEM_I1) return false;
  }
  kiln_elem r = kiln_type_elem(op->results[0].type);
  return kiln_cpu_loopgen_elem(r) && !kiln_elem_is_complex(r) && r != KILN_ELEM_I1;
}

/* A single-channel filter with a long window along memory (jnp.convolve, jnp.correlate, an
 * FIR filter: one input and one output feature, no groups, at least LONG_FILTER_TAPS
 * undilated taps along the lhs's innermost dim of more than one element). oneDNN's
 * kernels vectorise over blocks of channels and run it at a sixteenth of their width
 * (65,536 samples by 255 taps: 18.5 ms); the generated loop vectorises along the taps
 * (0.9 ms). With short windows or several channels oneDNN is the faster by far. */
enum { LONG_FILTER_TAPS = 32 };

static bool long_filter(const kiln_op *op, const kiln_cpu_conv_dims *c) {
  const kiln_type *k = op->operands[1]->type;
  if (c->fgc != 1 || c->bgc != 1 || c->lhs_dims[c->ifd] != 1 || k->tensor.dims[c->kof] != 1 || c->ns < 1) return false;
  int32_t inner = 0; /* the spatial dim innermost in the lhs */
  for (int32_t i = 1; i < c->ns; i++)
    if (c->is[i] > c->is[inner]) inner = i;
  for (int64_t d = c->is[inner] + 1; d < op->operands[0]->type->tensor.rank; d++)
    if (c->lhs_dims[d] != 1) return false;
  return c->rdil[inner] == 1 && k->tensor.dims[c->ks[inner]] >= LONG_FILTER_TAPS;
}

/* Whether oneDNN runs p with one of its direct kernels (not its im2col gemm, not a
 * reference one). */
static bool direct_kernel(const struct kiln_cpu_dnnl_op *p) {
  const char *impl = kiln_cpu_dnnl_impl(p);
  return !strstr(impl, "gemm") && strncmp(impl, "ref", 3) != 0;
}

/* oneDNN's plan for op when it has one (*out NULL otherwise): reading the lhs in place
 * (padding, lhs dilation as a deconvolution), else, for lhs dilation, the padded copy
 * (*via_pad). A padded window that oneDNN would give its im2col gemm in place but a direct
 * kernel over the padded copy (on AVX2 hosts, a dilated 1-D window padded 16 at one end:
 * WaveNet's layer, 8 x 4096 samples, 64 channels, 3 taps 8 apart, 12.7 -> 5.0 ms on a Zen
 * 3 host plus the copy) reads the copy. */
static kiln_status dnnl_plan(const kiln_op *op, const kiln_cpu_conv_dims *c, const kiln_cpu_conv_dims *padded,
                             bool pad_ok, struct kiln_cpu_dnnl_op **out, bool *via_pad) {
  *out = NULL;
  *via_pad = false;
  int64_t elements = op->results[0].type->tensor.num_elements;
  for (int32_t i = 0; i < 2; i++) elements += op->operands[i]->type->tensor.num_elements;
  if (elements < DNNL_MIN_ELEMENTS || long_filter(op, c)) return NULL;
  kiln_status st = kiln_cpu_dnnl_prepare_conv(op, c, out);
  if (!st && *out && needs_pad(c) && !lhs_dilated(c) && pad_ok && !direct_kernel(*out)) {
    struct kiln_cpu_dnnl_op *copy = NULL;
    kiln_status again = kiln_cpu_dnnl_prepare_conv(op, padded, &copy);
    if (!again && copy && direct_kernel(copy)) {
      kiln_cpu_dnnl_destroy(*out);
      *out = copy;
      *via_pad = true;
      return NULL;
    }
    kiln_cpu_dnnl_destroy(copy);
    if (again && kiln_status_code_of(again) != KILN_STATUS_UNIMPLEMENTED) {
      kiln_cpu_dnnl_destroy(*out);
      *out = NULL;
      return again;
    }
    kiln_status_free(again);
  }
  if (st && kiln_status_code_of(st) == KILN_STATUS_UNIMPLEMENTED && lhs_dilated(c) && pad_ok) {
    kiln_status_free(st);
    *via_pad = true;
    st = kiln_cpu_dnnl_prepare_conv(op, padded, out);
  }
  if (st && kiln_status_code_of(st) == KILN_STATUS_UNIMPLEMENTED) {
    kiln_status_free(st);
    return NULL;
  }
  return st;
}

/* Reads op's attributes (false: the interpreter reports what is wrong with them) and its
 * padded form (*pad: it needs one; *pad_ok: it has one). */
static bool read_dims(const kiln_op *op, kiln_cpu_conv_dims *c, kiln_cpu_conv_dims *padded, bool *pad, bool *pad_ok) {
  kiln_status st = kiln_cpu_conv_read(op, c);
  if (st) {
    kiln_status_free(st);
    return false;
  }
  *padded = *c;
  *pad = needs_pad(c);
  *pad_ok = !*pad || kiln_cpu_conv_prepad(padded);
  return true;
}

kiln_status kiln_cpu_conv_prepare_dnnl(const kiln_op *op, struct kiln_cpu_dnnl_op **out, bool *via_pad) {
  kiln_cpu_conv_dims c, padded;
  bool pad, pad_ok;
  *out = NULL;
  *via_pad = false;
  return read_dims(op, &c, &padded, &pad, &pad_ok) ? dnnl_plan(op, &c, &padded, pad_ok, out, via_pad) : NULL;
}

/* The steps of a oneDNN plan p: the pad (via_pad) and the DNNL step; with a fused bias
 * add (fb), the step reads the bias and writes the add's result instead of op's. */
static kiln_status add_dnnl(kiln_cpu_executable *x, const kiln_op *op, struct kiln_cpu_dnnl_op *p, bool via_pad,
                            const kiln_cpu_conv_bias *fb) {
  int32_t lhs = op->operands[0]->id;
  kiln_status st = NULL;
  if (via_pad) {
    kiln_cpu_conv_dims c;
    st = kiln_cpu_conv_read(op, &c);
    if (!st) st = add_pad(x, op, &c, &lhs);
  }
  if (st) {
    kiln_cpu_dnnl_destroy(p);
    return st;
  }
  kiln_cpu_step *step = &x->steps[x->num_steps];
  KILN_RETURN_IF_ERROR(kiln_cpu_dnnl_step(x, op, p, lhs, step));
  if (!fb) return NULL;
  int32_t *values = kiln_arena_alloc_array(x->arena, 4, sizeof *values);
  if (!values) return oom();
  values[0] = step->values[0];
  values[1] = step->values[1];
  values[2] = fb->bias;
  values[3] = fb->out;
  step->values = values;
  step->num_values = 4;
  x->slots[op->results[0].id].store = KILN_CPU_STORE_NONE; /* read by the fused add alone */
  x->slots[fb->out].store = KILN_CPU_STORE_TEMP;
  return NULL;
}

kiln_status kiln_cpu_conv_prepare(kiln_cpu_executable *x, const kiln_op *op, bool *out_done) {
  *out_done = false;
  kiln_cpu_conv_bias *fb = x->conv_bias ? &x->conv_bias[op->results[0].id] : NULL;
  if (fb && fb->dnnl) { /* planned with its bias add (conv_bias.c) */
    struct kiln_cpu_dnnl_op *p = fb->dnnl;
    fb->dnnl = NULL;
    *out_done = true; /* the steps count (and are freed) even when this failed */
    return add_dnnl(x, op, p, fb->via_pad, fb);
  }
  kiln_cpu_conv_dims c, padded;
  bool pad, pad_ok;
  if (!read_dims(op, &c, &padded, &pad, &pad_ok)) return NULL;
  struct kiln_cpu_dnnl_op *p = NULL;
  bool via_pad;
  KILN_RETURN_IF_ERROR(dnnl_plan(op, &c, &padded, pad_ok, &p, &via_pad));
  if (p) {
    *out_done = true;
    return add_dnnl(x, op, p, via_pad, NULL);
  }
  if (!loop_types(op)) return NULL;
  /* every window reads only padding (or nothing): zeros */
  bool zeros = op->operands[0]->type->tensor.num_elements == 0 || (pad && !pad_ok);
  int32_t lhs = op->operands[0]->id;
  if (pad && !zeros) KILN_RETURN_IF_ERROR(add_pad(x, op, &c, &lhs));
  int32_t before = x->num_steps;
  KILN_RETURN_IF_ERROR(add_loop(x, op, pad && !zeros ? &padded : &c, lhs, zeros));
  *out_done = x->num_steps > before;
  return NULL;
}
