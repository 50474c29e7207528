/* Planning the cpu backend's window ops: the reduce_window forms the fusion of compile.c
 * does not take (padding, base dilation, several operands), select_and_scatter (the
 * gradient of pooling) and pad, as steps of the schedule; window_kernels.c runs them.
 *
 * A reduce_window whose body folds each operand with one op of its own (add, multiply,
 * max, min, and, or, xor) becomes, per operand:
 * - a prefix scan (a cumulative sum, product, max...: the window spans the axis, padded
 *   before it by window - 1, every other dim untouched) when its init is a constant with
 *   op(init, init) == init: then every window folds init, then x[0], ..., x[i] in that
 *   order, exactly as the interpreter does, so out[i] = op(out[i - 1], x[i]), O(n) per row.
 *   The reverse form (padding after: lax.cumsum(reverse=True), the gradient of a cumsum)
 *   folds x[i], ..., x[n-1] then the inits; a suffix scan out[i] = op(x[i], out[i + 1])
 *   folds them as the tree x[i] op (x[i+1] op (... op init)), one of the schedules the spec
 *   allows (leaves in order; these ops commute): exact for integers and float max/min, float
 *   sums and products rounded in another order than the interpreter's, as the vectors of
 *   the generated loops round them;
 * - otherwise a native pad into a temporary (init in the padding and the holes of base
 *   dilation: the spec's padded operand) and the generated loop of an unpadded
 *   reduce_window over it (vectorised, split over the threads; like that of unpadded
 *   pooling, its vectors may fold float sums and products in another order).
 * stablehlo.pad is the same pad kernel. A select_and_scatter whose select is one compare
 * of its two arguments and whose scatter is one of the ops above runs natively.
 *
 * Any other region of elementwise ops (logaddexp, argmax's pairs) is a fold of the generated
 * loops (kiln_cpu_window_fold_prepare reads the geometry, compile.c builds the loop): a
 * cumulative window whose region maps its constant inits to themselves (evaluated here by
 * the interpreter) is a running fold storing every step (loop.h: a scan; a suffix window
 * folds from the end as body(x[i], out[i + 1]), as the interpreter does); any other window
 * is folded per output point, over a padded copy when it has padding or base dilation. */
#include "backends/cpu/window.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_RANK = KILN_WINDOW_MAX_RANK, MAX_OPERANDS = KILN_CPU_WINDOW_MAX_OPERANDS };

static bool static_dense(const kiln_type *t) {
  return kiln_type_is_tensor(t) && !kiln_type_is_quant_tensor(t) && kiln_type_is_static(t) &&
         t->tensor.rank <= MAX_RANK;
}

static bool scalar_of(const kiln_type *t, kiln_elem e) {
  return static_dense(t) && t->tensor.rank == 0 && kiln_type_elem(t) == e;
}

/* The window attributes of op for an operand of rank r: false when one is missing, of the
 * wrong length or not positive. */
typedef struct window_attrs {
  int64_t size[MAX_RANK], stride[MAX_RANK], base[MAX_RANK], wdil[MAX_RANK], lo[MAX_RANK], hi[MAX_RANK];
} window_attrs;

static bool read_list(const kiln_op *op, const char *name, int32_t n, int64_t dflt, int64_t *out) {
  const kiln_attr *a = kiln_op_attr(op, name);
  for (int32_t i = 0; i < n; i++) out[i] = dflt;
  if (!a) return true;
  if (kiln_attr_count(a) != n) return false;
  for (int32_t i = 0; i < n; i++)
    if (!kiln_attr_i64_at(a, i, &out[i])) return false;
  return true;
}

static bool read_window(const kiln_op *op, int32_t r, window_attrs *w) {
  int64_t pad[2 * MAX_RANK];
  if (!kiln_op_attr(op, "window_dimensions") || !read_list(op, "window_dimensions", r, 1, w->size) ||
      !read_list(op, "window_strides", r, 1, w->stride) || !read_list(op, "base_dilations", r, 1, w->base) ||
      !read_list(op, "window_dilations", r, 1, w->wdil) || !read_list(op, "padding", 2 * r, 0, pad))
    return false;
  for (int32_t d = 0; d < r; d++) {
    w->lo[d] = pad[2 * d];
    w->hi[d] = pad[2 * d + 1];
    if (w->size[d] <= 0 || w->stride[d] <= 0 || w->base[d] <= 0 || w->wdil[d] <= 0) return false;
  }
  return true;
}

/* The op of a region that returns op(arg a, arg b) (either order) for each result:
 * ops[i] for result i; false for any other body. */
static bool region_combiners(const kiln_op *op, int32_t region, int32_t n, kiln_elem e, kiln_op_kind *ops) {
  const kiln_block *b = kiln_op_block(op, region);
  if (!b || b->next || b->num_args != 2 * n || !b->last || b->last->num_operands != n) return false;
  int32_t count = 0;
  for (const kiln_op *c = b->first; c; c = c->next) count++;
  if (count != n + 1) return false;
  for (int32_t i = 0; i < 2 * n; i++)
    if (!scalar_of(b->args[i].type, e)) return false;
  for (int32_t i = 0; i < n; i++) {
    const kiln_op *c = b->last->operands[i]->def;
    if (!c || c->parent != b || c->num_operands != 2 || c->num_results != 1 || !scalar_of(c->results[0].type, e))
      return false;
    const kiln_value *x = c->operands[0], *y = c->operands[1], *p = &b->args[i], *q = &b->args[n + i];
    if (!((x == p && y == q) || (x == q && y == p))) return false;
    bool fl = kiln_elem_is_float(e);
    switch (c->kind) {
      case KILN_OP_ADD:
      case KILN_OP_MULTIPLY:
      case KILN_OP_MAXIMUM:
      case KILN_OP_MINIMUM: break;
      case KILN_OP_AND:
      case KILN_OP_OR:
      case KILN_OP_XOR:
        if (fl) return false;
        break;
      default: return false;
    }
    if (!kiln_cpu_loopgen_supports(c)) return false;
    ops[i] = c->kind;
  }
  return true;
}

static kiln_status oom(void) { return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"); }

/* Appends a native step running w: values are the inputs then the output. */
static kiln_status add_native(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_window *w, const int32_t *values,
                              int32_t n) {
  kiln_cpu_step *step = &x->steps[x->num_steps++];
  *step = (kiln_cpu_step){.kind = KILN_CPU_STEP_WINDOW, .op = op, .window = w, .num_values = n};
  step->values = kiln_arena_alloc_array(x->arena, (size_t)n, sizeof *step->values);
  if (!step->values) return oom();
  memcpy(step->values, values, sizeof *values * (size_t)n);
  return NULL;
}

/* The dense value of scalar v when a constant op makes it (through scalar broadcasts and
 * reshapes, as JAX writes inits), else NULL. */
static const kiln_attr *constant_attr(const kiln_value *v) {
  const kiln_op *def = v->def;
  while (def && (def->kind == KILN_OP_BROADCAST_IN_DIM || def->kind == KILN_OP_RESHAPE) && def->num_operands == 1 &&
         kiln_type_is_tensor(def->operands[0]->type) && def->operands[0]->type->tensor.rank == 0)
    def = def->operands[0]->def;
  if (!def || def->kind != KILN_OP_CONSTANT) return NULL;
  const kiln_attr *a = kiln_op_attr(def, "value");
  return a && a->kind == KILN_ATTR_DENSE ? a : NULL;
}

static const void *constant_data(const kiln_value *v) {
  const kiln_attr *a = constant_attr(v);
  return a ? a->dense.data : NULL;
}

/* The axis of window a over an operand of type t when its windows span that axis (padded
 * before it by size - 1: *forward, or after it), every other dim untouched; else -1. */
static int32_t scan_axis(const window_attrs *a, const kiln_type *t, bool *forward) {
  int32_t r = t->tensor.rank, axis = -1;
  for (int32_t d = 0; d < r; d++) {
    if (a->stride[d] != 1 || a->base[d] != 1 || a->wdil[d] != 1) return -1;
    if (a->size[d] == 1 && a->lo[d] == 0 && a->hi[d] == 0) continue;
    if (axis >= 0) return -1;
    axis = d;
  }
  if (axis < 0) return -1;
  int64_t s = a->size[axis];
  *forward = a->lo[axis] == s - 1 && a->hi[axis] == 0;
  bool backward = a->lo[axis] == 0 && a->hi[axis] == s - 1;
  return s >= t->tensor.dims[axis] && (*forward || backward) ? axis : -1;
}

/* Whether operand k of a reduce_window is a prefix or suffix scan along one axis; fills
 * the SCAN fields of w. */
static bool scan_form(const kiln_op *op, int32_t k, kiln_op_kind comb, const window_attrs *a, kiln_cpu_window *w) {
  const kiln_type *t = op->operands[k]->type;
  int32_t r = t->tensor.rank;
  bool forward;
  int32_t axis = scan_axis(a, t, &forward);
  if (axis < 0) return false;
  int64_t n = t->tensor.dims[axis];
  kiln_elem e = kiln_type_elem(t);
  const void *init = constant_data(op->operands[op->num_operands / 2 + k]);
  uint8_t twice[8];
  if (!init) return false;
  kiln_cpu_window_combine(e, comb, init, init, twice);
  if (memcmp(twice, init, w->elem_bytes)) return false;
  w->kind = KILN_WINDOW_SCAN;
  w->reverse = !forward;
  w->work = t->tensor.num_elements;
  w->outer = w->inner = 1;
  w->len = n;
  for (int32_t d = 0; d < axis; d++) w->outer *= t->tensor.dims[d];
  for (int32_t d = axis + 1; d < r; d++) w->inner *= t->tensor.dims[d];
  return true;
}

/* The generated loop of an unpadded reduce_window over value `src` (of type st) with
 * init value `init` (a constant folded in when it is one). */
static kiln_status add_loop(kiln_cpu_executable *x, const kiln_op *op, int32_t k, kiln_op_kind comb,
                            const window_attrs *a, int32_t src, const kiln_type *st) {
  int32_t n = op->num_operands / 2, r = st->tensor.rank;
  const kiln_type *rt = op->results[k].type;
  const kiln_value *initv = op->operands[n + k];
  kiln_elem e = kiln_type_elem(rt);
  kiln_cpu_loop *L = kiln_arena_alloc(x->arena, sizeof *L);
  kiln_cpu_node *root = kiln_arena_alloc(x->arena, sizeof *root), *init = kiln_arena_alloc(x->arena, sizeof *init);
  int32_t values[3];
  if (!L || !root || !init) return oom();
  const void *cdata = constant_data(initv);
  *L = (kiln_cpu_loop){.rank = 2 * r,
                       .num_out_dims = r,
                       .num_inputs = cdata ? 1 : 2,
                       .out_elem = e,
                       .root = root,
                       .num_nodes = 2,
                       .combiner = comb,
                       .init = init};
  *root = (kiln_cpu_node){.kind = KILN_CPU_NODE_LOAD, .elem = e, .id = 0, .input = 0};
  if (cdata)
    *init = (kiln_cpu_node){.kind = KILN_CPU_NODE_SCALAR, .elem = e, .id = 1, .value = kiln_scalar_load(e, cdata)};
  else
    *init = (kiln_cpu_node){.kind = KILN_CPU_NODE_LOAD, .elem = e, .id = 1, .input = 1};
  int64_t str = 1, window = 1;
  for (int32_t d = r - 1; d >= 0; d--) {
    L->dims[d] = rt->tensor.dims[d];
    L->dims[r + d] = a->size[d];
    root->strides[d] = a->stride[d] * str;
    root->strides[r + d] = a->wdil[d] * str;
    str *= st->tensor.dims[d];
    window *= a->size[d];
  }
  values[0] = src;
  values[1] = initv->id;
  values[L->num_inputs] = op->results[k].id;
  kiln_cpu_step *step = &x->steps[x->num_steps++];
  int64_t points = rt->tensor.num_elements, work;
  if (!kiln_mul_i64(points, window, &work)) work = INT64_MAX;
  *step = (kiln_cpu_step){
      .kind = KILN_CPU_STEP_LOOP, .op = op, .loop = L, .points = points, .work = work, .num_values = L->num_inputs + 1};
  step->values = kiln_arena_alloc_array(x->arena, 3, sizeof *step->values);
  if (!step->values) return oom();
  memcpy(step->values, values, sizeof values);
  return NULL;
}

/* A PAD kernel of an operand of type t (dims > 0) padded by lo / hi with base dilation dil;
 * NULL in *out when the padded shape is empty or overflows. */
static kiln_status new_pad(const kiln_type *t, const int64_t *lo, const int64_t *hi, const int64_t *dil,
                           kiln_cpu_window **out) {
  *out = NULL;
  int32_t r = t->tensor.rank;
  kiln_elem e = kiln_type_elem(t);
  kiln_cpu_window w = {.kind = KILN_WINDOW_PAD, .elem = e, .elem_bytes = kiln_elem_storage_bytes(e), .rank = r};
  int64_t elements = 1, bytes;
  for (int32_t d = 0; d < r; d++) {
    int64_t dn = t->tensor.dims[d], span = 0;
    w.dims[d] = dn;
    w.lo[d] = lo[d];
    w.dil[d] = dil[d];
    if (dn <= 0 || dil[d] <= 0 || !kiln_mul_i64(dn - 1, dil[d], &span) || !kiln_add_i64(span, 1, &span) ||
        !kiln_add_i64(span, lo[d], &span) || !kiln_add_i64(span, hi[d], &span) || span <= 0 ||
        !kiln_mul_i64(elements, span, &elements))
      return NULL;
    w.pdims[d] = span;
  }
  if (!w.elem_bytes || !kiln_mul_i64(elements, (int64_t)w.elem_bytes, &bytes)) return NULL;
  w.work = elements;
  if (!(*out = malloc(sizeof **out))) return oom();
  **out = w;
  return NULL;
}

/* A PAD kernel's last dim, when it is not padded, merged into the one before it (when that
 * one has no interior padding): the same bytes in both layouts, rows as long as they can
 * be (the kernel's walk costs per row: a signal's samples of one channel in NWC padded for
 * a convolution had rows of one element). */
static void pad_merge_tail(kiln_cpu_window *w) {
  while (w->rank > 1) {
    int32_t last = w->rank - 1, prev = last - 1;
    if (w->lo[last] || w->dil[last] != 1 || w->pdims[last] != w->dims[last] || w->dil[prev] != 1) return;
    int64_t n = w->dims[last];
    w->dims[prev] *= n, w->pdims[prev] *= n, w->lo[prev] *= n;
    w->rank--;
  }
}

kiln_status kiln_cpu_window_add_pad(kiln_cpu_executable *x, const kiln_op *op, int32_t src, int32_t init,
                                    const kiln_type *t, const int64_t *lo, const int64_t *hi, const int64_t *dil,
                                    int32_t *out_value, const kiln_type **out_type) {
  kiln_cpu_window *w;
  KILN_RETURN_IF_ERROR(new_pad(t, lo, hi, dil, &w));
  const kiln_type *pt =
      w ? kiln_type_tensor(x->scratch, kiln_type_scalar(x->scratch, w->elem), w->rank, w->pdims, NULL) : NULL;
  if (!w || !pt || x->num_slots >= x->max_slots) {
    kiln_cpu_window_destroy(w);
    return w && !pt ? oom()
                    : KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: cannot plan the padding of %s", kiln_op_name(op->kind));
  }
  int32_t pv = x->num_slots++;
  x->slots[pv] = (kiln_cpu_slot){.store = KILN_CPU_STORE_TEMP, .type = pt};
  int32_t values[3] = {src, init, pv};
  *out_value = pv;
  *out_type = pt;
  pad_merge_tail(w);
  kiln_status st = add_native(x, op, w, values, 3);
  if (st) kiln_cpu_window_destroy(w);
  return st;
}

/* The padded operand k of a reduce_window (init in the padding and dilation holes). */
static kiln_status add_pad(kiln_cpu_executable *x, const kiln_op *op, int32_t k, const window_attrs *a,
                           int32_t *out_value, const kiln_type **out_type) {
  int32_t n = op->num_operands / 2;
  return kiln_cpu_window_add_pad(x, op, op->operands[k]->id, op->operands[n + k]->id, op->operands[k]->type, a->lo,
                                 a->hi, a->base, out_value, out_type);
}

/* stablehlo.pad: the same kernel, into the op's result. */
static kiln_status prepare_pad(kiln_cpu_executable *x, const kiln_op *op, bool *out_done) {
  if (op->num_operands != 2 || op->num_results != 1) return NULL;
  const kiln_type *t = op->operands[0]->type, *rt = op->results[0].type;
  if (!static_dense(t) || !static_dense(rt) || t->tensor.rank < 1 || !scalar_of(op->operands[1]->type, kiln_type_elem(t)) ||
      kiln_type_elem(rt) != kiln_type_elem(t))
    return NULL;
  int32_t r = t->tensor.rank;
  int64_t lo[MAX_RANK], hi[MAX_RANK], dil[MAX_RANK];
  if (!read_list(op, "edge_padding_low", r, 0, lo) || !read_list(op, "edge_padding_high", r, 0, hi) ||
      !read_list(op, "interior_padding", r, 0, dil))
    return NULL;
  for (int32_t d = 0; d < r; d++) dil[d] += 1;
  kiln_cpu_window *w;
  KILN_RETURN_IF_ERROR(new_pad(t, lo, hi, dil, &w));
  if (!w) return NULL;
  if (memcmp(w->pdims, rt->tensor.dims, sizeof(int64_t) * (size_t)r)) {
    kiln_cpu_window_destroy(w);
    return NULL; /* the interpreter reports it */
  }
  *out_done = true;
  x->slots[op->results[0].id].store = KILN_CPU_STORE_TEMP;
  int32_t values[3] = {op->operands[0]->id, op->operands[1]->id, op->results[0].id};
  pad_merge_tail(w);
  kiln_status st = add_native(x, op, w, values, 3);
  if (st) kiln_cpu_window_destroy(w);
  return st;
}

int32_t kiln_cpu_window_extra(const kiln_op *op) {
  if (op->kind != KILN_OP_REDUCE_WINDOW) return 0;
  return 2 * op->num_operands; /* at most a pad and a loop per operand, and a temporary each */
}

static kiln_status prepare_reduce_window(kiln_cpu_executable *x, const kiln_op *op, bool *out_done) {
  int32_t n = op->num_operands / 2;
  if (n < 1 || n > MAX_OPERANDS || op->num_operands != 2 * n || op->num_results != n) return NULL;
  const kiln_type *t0 = op->operands[0]->type;
  if (!static_dense(t0)) return NULL;
  int32_t r = t0->tensor.rank;
  kiln_elem e0 = kiln_type_elem(t0);
  if (r < 1 || 2 * r > MAX_RANK) return NULL;
  for (int32_t k = 0; k < n; k++) {
    const kiln_type *t = op->operands[k]->type, *rt = op->results[k].type;
    kiln_elem e = kiln_type_elem(t);
    if (!static_dense(t) || !static_dense(rt) || kiln_type_elem(rt) != e || !scalar_of(op->operands[n + k]->type, e) ||
        !kiln_cpu_window_elem(e) || !kiln_cpu_loopgen_elem(e) || rt->tensor.num_elements <= 0 || t->tensor.rank != r ||
        memcmp(t->tensor.dims, t0->tensor.dims, sizeof(int64_t) * (size_t)r))
      return NULL;
    if (k && kiln_type_elem(t) != e0) return NULL;
  }
  window_attrs a;
  kiln_op_kind ops[MAX_OPERANDS];
  if (!read_window(op, r, &a) || !region_combiners(op, 0, n, e0, ops)) return NULL;
  bool padded = false;
  for (int32_t d = 0; d < r; d++) padded = padded || a.lo[d] || a.hi[d] || a.base[d] != 1;
  if (!padded && n == 1) return NULL; /* the fusion of compile.c takes it */
  *out_done = true;
  for (int32_t k = 0; k < n; k++) x->slots[op->results[k].id].store = KILN_CPU_STORE_TEMP;
  for (int32_t k = 0; k < n; k++) {
    kiln_cpu_window probe = {.elem = e0, .elem_bytes = kiln_elem_storage_bytes(e0), .combiner = ops[k]};
    if (scan_form(op, k, ops[k], &a, &probe)) {
      kiln_cpu_window *w = malloc(sizeof *w);
      if (!w) return oom();
      *w = probe;
      int32_t values[3] = {op->operands[k]->id, op->operands[n + k]->id, op->results[k].id};
      kiln_status st = add_native(x, op, w, values, 3);
      if (st) kiln_cpu_window_destroy(w);
      KILN_RETURN_IF_ERROR(st);
      continue;
    }
    int32_t src = op->operands[k]->id;
    const kiln_type *st = op->operands[k]->type;
    if (padded) KILN_RETURN_IF_ERROR(add_pad(x, op, k, &a, &src, &st));
    KILN_RETURN_IF_ERROR(add_loop(x, op, k, ops[k], &a, src, st));
  }
  return NULL;
}

/* Whether op's region maps its inits (constants, all n of them) to themselves, bit for
 * bit, as the interpreter computes it: then a cumulative window's padding folds to the
 * inits, and the interpreter folds the window as a running fold too (prefix: the inits,
 * then x[0], ..., x[i] in order; suffix: from the end). */
static bool region_fixes_inits(const kiln_cpu_executable *x, const kiln_op *op, int32_t n) {
  const kiln_block *b = kiln_op_block(op, 0);
  int32_t size = 0;
  for (int32_t i = 0; i < b->num_args; i++)
    if (b->args[i].id >= size) size = b->args[i].id + 1;
  for (const kiln_op *c = b->first; c; c = c->next)
    for (int32_t i = 0; i < c->num_results; i++)
      if (c->results[i].id >= size) size = c->results[i].id + 1;
  kiln_rtv *args[2 * MAX_OPERANDS] = {0}, *got[MAX_OPERANDS] = {0};
  kiln_rtv **frame = calloc((size_t)size + 1, sizeof *frame);
  bool same = frame != NULL;
  for (int32_t k = 0; same && k < n; k++) {
    const kiln_attr *init = constant_attr(op->operands[n + k]);
    kiln_status st = init ? kiln_rtv_from_dense(init, &args[k]) : KILN_STATUS(KILN_STATUS_INTERNAL, "no constant");
    same = !st;
    kiln_status_free(st);
    if (same) args[n + k] = kiln_rtv_retain(args[k]);
  }
  if (same) {
    kiln_interp_ctx ctx = {.interp = x->interp, .frame = frame};
    kiln_status st = kiln_interp_region(&ctx, &op->regions[0], args, 2 * n, got, n);
    same = !st;
    kiln_status_free(st);
  }
  for (int32_t k = 0; same && k < n; k++)
    same = got[k] && got[k]->elem == args[k]->elem && !memcmp(got[k]->data, args[k]->data, args[k]->elem_bytes);
  for (int32_t i = 0; i < 2 * n; i++) kiln_rtv_release(args[i]);
  for (int32_t i = 0; i < n; i++) kiln_rtv_release(got[i]);
  for (int32_t i = 0; frame && i < size; i++) kiln_rtv_release(frame[i]);
  free(frame);
  return same;
}

kiln_status kiln_cpu_window_fold_prepare(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_window_fold *f,
                                         bool *out_ok) {
  *out_ok = false;
  int32_t n = op->num_operands / 2;
  if (op->kind != KILN_OP_REDUCE_WINDOW || n < 1 || n > MAX_OPERANDS || op->num_operands != 2 * n || op->num_results != n)
    return NULL;
  const kiln_type *t0 = op->operands[0]->type, *r0 = op->results[0].type;
  if (!static_dense(t0) || !static_dense(r0) || r0->tensor.num_elements <= 0) return NULL;
  int32_t r = t0->tensor.rank;
  if (r < 1 || 2 * r > MAX_RANK) return NULL;
  bool padded = false, pads = true; /* pads: the pad kernel takes every operand's type */
  for (int32_t k = 0; k < n; k++) {
    const kiln_type *t = op->operands[k]->type, *rt = op->results[k].type;
    kiln_elem e = kiln_type_elem(t);
    if (!static_dense(t) || !static_dense(rt) || kiln_type_elem(rt) != e || !scalar_of(op->operands[n + k]->type, e) ||
        !kiln_cpu_loopgen_elem(e) || t->tensor.rank != r || rt->tensor.rank != r ||
        memcmp(t->tensor.dims, t0->tensor.dims, sizeof(int64_t) * (size_t)r) ||
        memcmp(rt->tensor.dims, r0->tensor.dims, sizeof(int64_t) * (size_t)r))
      return NULL;
    pads = pads && kiln_cpu_window_elem(e);
  }
  window_attrs a;
  if (!read_window(op, r, &a)) return NULL;
  for (int32_t d = 0; d < r; d++) { /* the result's dims as the spec has them, else the interpreter reports */
    int64_t span, win, out;
    if (!kiln_mul_i64(t0->tensor.dims[d] - 1, a.base[d], &span) || !kiln_add_i64(span, 1 + a.lo[d], &span) ||
        !kiln_add_i64(span, a.hi[d], &span) || !kiln_mul_i64(a.size[d] - 1, a.wdil[d], &win))
      return NULL;
    out = span <= win ? 0 : (span - win - 1) / a.stride[d] + 1;
    if (out != r0->tensor.dims[d]) return NULL;
    padded = padded || a.lo[d] || a.hi[d] || a.base[d] != 1;
  }
  bool forward = true;
  f->scan_axis = scan_axis(&a, t0, &forward);
  f->reverse = !forward;
  if (f->scan_axis >= 0 && !region_fixes_inits(x, op, n)) f->scan_axis = -1;
  if (f->scan_axis < 0 && padded && !pads) return NULL;
  for (int32_t d = 0; d < r; d++) f->size[d] = a.size[d], f->stride[d] = a.stride[d], f->dilation[d] = a.wdil[d];
  for (int32_t k = 0; k < n; k++) {
    f->src[k] = op->operands[k]->id;
    f->src_type[k] = op->operands[k]->type;
    if (f->scan_axis < 0 && padded) KILN_RETURN_IF_ERROR(add_pad(x, op, k, &a, &f->src[k], &f->src_type[k]));
  }
  *out_ok = true;
  return NULL;
}

/* The select region: one compare of its two arguments (either order). */
static bool read_select(const kiln_op *op, kiln_elem e, kiln_window_dir *out) {
  const kiln_block *b = kiln_op_block(op, 0);
  if (!b || b->next || b->num_args != 2 || !b->first || b->first->next != b->last || !b->last ||
      b->last->num_operands != 1)
    return false;
  const kiln_op *c = b->first;
  if (c->kind != KILN_OP_COMPARE || b->last->operands[0] != &c->results[0] || c->num_operands != 2) return false;
  if (!scalar_of(b->args[0].type, e) || !scalar_of(b->args[1].type, e)) return false;
  bool swapped;
  if (c->operands[0] == &b->args[0] && c->operands[1] == &b->args[1])
    swapped = false;
  else if (c->operands[0] == &b->args[1] && c->operands[1] == &b->args[0])
    swapped = true;
  else
    return false;
  const char *ct = kiln_attr_enum_text(kiln_op_attr(c, "compare_type"));
  static const kiln_window_dir flipped[] = {KILN_WINDOW_EQ, KILN_WINDOW_NE, KILN_WINDOW_LE,
                                            KILN_WINDOW_LT, KILN_WINDOW_GE, KILN_WINDOW_GT};
  int k = kiln_op_compare_direction(c); /* kiln_compare_dir and kiln_window_dir share an order */
  if (k < 0) return false;
  /* the compare of the element type: FLOAT for floats, SIGNED / UNSIGNED for integers */
  kiln_elem_class cls = kiln_elem_class_of(e);
  const char *want = kiln_elem_is_float(e)                           ? "FLOAT"
                     : cls == KILN_ELEM_CLASS_U || e == KILN_ELEM_I1 ? "UNSIGNED"
                                                                     : "SIGNED";
  if (ct && strcmp(ct, want)) return false;
  *out = swapped ? flipped[k] : (kiln_window_dir)k;
  return true;
}

static kiln_status prepare_select_and_scatter(kiln_cpu_executable *x, const kiln_op *op, bool *out_done) {
  if (op->num_operands != 3 || op->num_results != 1) return NULL;
  const kiln_type *t = op->operands[0]->type, *s = op->operands[1]->type, *rt = op->results[0].type;
  if (!static_dense(t) || !static_dense(s) || !static_dense(rt) || t->tensor.rank < 1) return NULL;
  kiln_elem e = kiln_type_elem(t);
  int32_t r = t->tensor.rank;
  if (!kiln_cpu_window_elem(e) || kiln_type_elem(s) != e || kiln_type_elem(rt) != e ||
      !scalar_of(op->operands[2]->type, e) || s->tensor.rank != r || rt->tensor.rank != r ||
      t->tensor.num_elements <= 0)
    return NULL;
  window_attrs a;
  kiln_op_kind comb;
  kiln_window_dir dir;
  if (kiln_op_attr(op, "base_dilations") || kiln_op_attr(op, "window_dilations") || !read_window(op, r, &a) ||
      !read_select(op, e, &dir) || !region_combiners(op, 1, 1, e, &comb))
    return NULL;
  kiln_cpu_window *w = calloc(1, sizeof *w);
  if (!w) return oom();
  *w = (kiln_cpu_window){.kind = KILN_WINDOW_SELECT,
                         .elem = e,
                         .elem_bytes = kiln_elem_storage_bytes(e),
                         .rank = r,
                         .combiner = comb,
                         .dir = dir,
                         .lanes = 1};
  for (int32_t d = 0; d < r; d++) {
    int64_t padded = t->tensor.dims[d] + a.lo[d] + a.hi[d];
    int64_t windows = padded < a.size[d] ? 0 : (padded - a.size[d]) / a.stride[d] + 1;
    if (s->tensor.dims[d] != windows || rt->tensor.dims[d] != t->tensor.dims[d]) {
      free(w);
      return NULL; /* the interpreter reports it */
    }
    w->dims[d] = t->tensor.dims[d];
    w->size[d] = a.size[d];
    w->stride[d] = a.stride[d];
    w->lo[d] = a.lo[d];
    w->src_dims[d] = s->tensor.dims[d];
  }
  if (r > 1 && a.size[r - 1] == 1 && a.stride[r - 1] == 1 && a.lo[r - 1] == 0 && a.hi[r - 1] == 0)
    w->lanes = t->tensor.dims[r - 1];
  w->parallel = a.size[0] == 1;
  int64_t window = 1;
  for (int32_t d = 0; d < r; d++)
    if (!kiln_mul_i64(window, a.size[d], &window) || window > KILN_WINDOW_MAX_POSITIONS) {
      free(w);
      return NULL; /* larger windows: the interpreter */
    }
  if (!kiln_mul_i64(s->tensor.num_elements, window, &w->work)) w->work = INT64_MAX;
  *out_done = true;
  x->slots[op->results[0].id].store = KILN_CPU_STORE_TEMP;
  int32_t values[4] = {op->operands[0]->id, op->operands[1]->id, op->operands[2]->id, op->results[0].id};
  kiln_status st = add_native(x, op, w, values, 4);
  if (st) kiln_cpu_window_destroy(w);
  return st;
}

kiln_status kiln_cpu_window_prepare(kiln_cpu_executable *x, const kiln_op *op, bool *out_done) {
  *out_done = false;
  if (op->kind == KILN_OP_REDUCE_WINDOW) return prepare_reduce_window(x, op, out_done);
  if (op->kind == KILN_OP_SELECT_AND_SCATTER) return prepare_select_and_scatter(x, op, out_done);
  if (op->kind == KILN_OP_PAD) return prepare_pad(x, op, out_done);
  return NULL;
}
