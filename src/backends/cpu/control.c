/* while, if and case on the cpu backend: each region is outlined into a function (its
 * arguments, then the values it captures) and compiled by the cpu compiler like any
 * function, so loop bodies run generated code; the step only moves tensors between them. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/while_driver.h"
#include "base/fault.h"
#include "ir/scalar.h"
#include "passes/inline.h"

struct kiln_cpu_control {
  int32_t num_regions;
  kiln_cpu_executable **region; /* while: cond, body; if: true, false; case: branches */
  const int32_t **captured;     /* per region: value ids of the planned function */
  int32_t *num_captured;
  int32_t num_carried;          /* while: the loop-carried values (the op's operands) */
  bool *invariant;              /* while, per carried value: the body returns it unchanged */
  bool *dead;                   /* while, per result: nothing reads it after the step */
  kiln_cpu_executable *owner;   /* whose copy figures the step's copies add to */
  /* while: a condition that is one compare of two integer scalars (a counter against its
   * bound, as JAX lowers fori_loop and scan) is evaluated here instead of by running its
   * region: each side a region argument (carried, then captured), or a constant. */
  bool direct_cond;
  kiln_cpu_while_cond cond;
  /* while: the body's steps run on one run state for every iteration (lean_body) */
  bool lean;
  /* a lean loop compiled whole (while_driver.h), or NULL */
  kiln_cpu_code *driver_code;
  kiln_cpu_while_fn driver;
};

void kiln_cpu_control_destroy(kiln_cpu_control *c) {
  if (!c) return;
  for (int32_t i = 0; i < c->num_regions; i++) kiln_cpu_executable_destroy(c->region[i]);
  kiln_cpu_code_destroy(c->driver_code);
  free(c->region);
  free(c->captured);
  free(c->num_captured);
  free(c->invariant);
  free(c->dead);
  free(c);
}

int32_t kiln_cpu_control_regions(const kiln_cpu_control *c, const kiln_cpu_executable *const **out) {
  *out = (const kiln_cpu_executable *const *)c->region;
  return c->num_regions;
}

void kiln_cpu_visit(const kiln_cpu_executable *x, void (*fn)(const kiln_cpu_executable *, void *), void *ctx) {
  fn(x, ctx);
  for (int32_t s = 0; s < x->num_steps; s++) {
    const kiln_cpu_control *c = x->steps[s].kind == KILN_CPU_STEP_CONTROL ? x->steps[s].control : NULL;
    for (int32_t r = 0; c && r < c->num_regions; r++)
      if (c->region[r]) kiln_cpu_visit(c->region[r], fn, ctx);
  }
}

static void add_code_origin(const kiln_cpu_executable *x, void *ctx) {
  uint64_t *hm = ctx;
  kiln_cpu_code_origin o = kiln_cpu_code_origin_of(x->code);
  hm[0] += o == KILN_CPU_CODE_CACHE_HIT;
  hm[1] += o == KILN_CPU_CODE_CACHE_MISS;
}

void kiln_cpu_code_cache_counts(const kiln_cpu_executable *x, uint64_t *hits, uint64_t *misses) {
  uint64_t hm[2] = {0, 0};
  kiln_cpu_visit(x, add_code_origin, hm);
  *hits += hm[0];
  *misses += hm[1];
}

static void add_interpreted(const kiln_cpu_executable *x, void *ctx) {
  uint64_t *n = ctx;
  if (x->whole_interp) {
    for (const kiln_block *b = kiln_op_block(x->function, 0); b; b = b->next)
      for (const kiln_op *op = b->first; op; op = op->next) *n += op->kind != KILN_OP_FUNC_RETURN;
    return;
  }
  for (int32_t s = 0; s < x->num_steps; s++) *n += x->steps[s].kind == KILN_CPU_STEP_INTERP;
}

uint64_t kiln_cpu_interpreted_ops(const kiln_cpu_executable *x) {
  uint64_t n = 0;
  kiln_cpu_visit(x, add_interpreted, &n);
  return n;
}

static void add_copies(const kiln_cpu_executable *x, void *ctx) {
  uint64_t *cb = ctx;
  cb[0] += atomic_load_explicit(&x->copies, memory_order_relaxed);
  cb[1] += atomic_load_explicit(&x->copy_bytes, memory_order_relaxed);
}

void kiln_cpu_copy_counts(const kiln_cpu_executable *x, uint64_t *copies, uint64_t *bytes) {
  uint64_t cb[2] = {0, 0};
  kiln_cpu_visit(x, add_copies, cb);
  *copies = cb[0];
  *bytes = cb[1];
}

void kiln_cpu_control_mark_dead(const kiln_cpu_executable *x, int32_t s) {
  const kiln_cpu_step *step = &x->steps[s];
  kiln_cpu_control *c = step->control;
  if (!c->num_carried || !(c->dead = calloc((size_t)c->num_carried, sizeof *c->dead))) return; /* none: copies stay */
  for (int32_t i = 0; i < c->num_carried && i < step->op->num_results; i++)
    c->dead[i] = !kiln_cpu_value_needed(x, s + 1, step->op->results[i].id);
}

static bool static_tensor(const kiln_type *t) {
  return kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t);
}

static bool operands_static(const kiln_op *op) {
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!static_tensor(op->operands[i]->type)) return false;
  for (int32_t i = 0; i < op->num_results; i++)
    if (!static_tensor(op->results[i].type)) return false;
  return true;
}

/* Regions nest at most this deep as compiled executables (deeper: the interpreter runs
 * them). */
enum { MAX_NESTING = 8, MAX_CALL_CHAIN = 32 };

/* Whether the calls of block b (and of its ops' regions) can reach a function that calls
 * itself, directly or not: such a region runs in the interpreter, since compiling it would
 * outline and inline the same function without end. `path` holds the functions on the
 * current call chain (depth of them). */
static bool reaches_recursion(const kiln_module *m, const kiln_block *b, const kiln_op **path, int32_t depth) {
  for (const kiln_op *op = b->first; op; op = op->next) {
    if (op->kind == KILN_OP_CALL || op->kind == KILN_OP_COMPOSITE) {
      const kiln_attr *a = kiln_op_attr(op, op->kind == KILN_OP_CALL ? "callee" : "decomposition");
      const kiln_op *f = a && a->kind == KILN_ATTR_SYMBOL ? kiln_module_lookup_func(m, a->symbol) : NULL;
      if (!f) return true; /* unknown: be safe */
      for (int32_t i = 0; i < depth; i++)
        if (path[i] == f) return true;
      if (depth == MAX_CALL_CHAIN) return true;
      path[depth] = f;
      const kiln_block *body = kiln_op_block(f, 0);
      if (body && reaches_recursion(m, body, path, depth + 1)) return true;
    }
    for (int32_t r = 0; r < op->num_regions; r++)
      for (const kiln_block *inner = op->regions[r].first; inner; inner = inner->next)
        if (reaches_recursion(m, inner, path, depth)) return true;
  }
  return false;
}

/* Whether step s or a later one of x reads value v (or a view of it). */
static bool read_from(const kiln_cpu_executable *x, int32_t s, int32_t v) {
  for (; s < x->num_steps; s++)
    for (int32_t k = 0; k < x->steps[s].num_values; k++)
      if (kiln_cpu_alias_base(x, x->steps[s].values[k]) == v) return true;
  return false;
}

/* A while body's carried value k that a dynamic_update_slice of argument k makes, where
 * nothing reads argument k after it and no other result is argument k: the update is made
 * in argument k's tensor, which the loop gives up for it (result_from_input), so an
 * iteration writes its slice instead of copying the whole value. false when out of memory. */
static bool find_in_place(kiln_cpu_executable *body, int32_t n) {
  int32_t *from = kiln_arena_alloc_array(body->arena, (size_t)n, sizeof *from);
  if (!from) return false;
  bool any = false;
  for (int32_t k = 0; k < n; k++) {
    from[k] = -1;
    int32_t v = body->result_values[k];
    const kiln_cpu_slot *sl = &body->slots[v];
    if (sl->store != KILN_CPU_STORE_RESULT || sl->index != k) continue;
    int32_t s = 0; /* the step that makes it */
    while (s < body->num_steps && body->steps[s].values[body->steps[s].num_values - 1] != v) s++;
    const kiln_cpu_step *st = s < body->num_steps ? &body->steps[s] : NULL;
    if (!st || st->kind != KILN_CPU_STEP_DYNSLICE || st->op->kind != KILN_OP_DYNAMIC_UPDATE_SLICE) continue;
    int32_t arg = kiln_cpu_alias_base(body, st->values[0]);
    if (body->slots[arg].store != KILN_CPU_STORE_INPUT || body->slots[arg].index != k || arg != st->values[0] ||
        read_from(body, s + 1, arg))
      continue;
    bool overlaps = false; /* the update or an index is (a view of) the argument itself */
    for (int32_t i = 1; i + 1 < st->num_values; i++) overlaps = overlaps || kiln_cpu_alias_base(body, st->values[i]) == arg;
    if (overlaps) continue;
    bool returned = false;
    for (int32_t j = 0; j < body->num_results; j++) returned = returned || kiln_cpu_alias_base(body, body->result_values[j]) == arg;
    if (!returned) from[k] = k, any = true;
  }
  if (any) body->result_from_input = from;
  return true;
}

/* A while body's results that are its carried arguments unchanged (result k is argument
 * k: a weight a scan carries along) stay where they are: the body does not make them
 * (skip_result) and the loop keeps the tensor it has, so no iteration copies them. false
 * when out of memory. */
static bool find_invariants(kiln_cpu_control *c) {
  kiln_cpu_executable *body = c->region[1];
  if (body->whole_interp || body->num_results != c->num_carried) return true;
  c->invariant = calloc((size_t)c->num_carried, sizeof *c->invariant);
  body->skip_result = kiln_arena_alloc_array(body->arena, (size_t)c->num_carried, sizeof *body->skip_result);
  if (!c->invariant || !body->skip_result) return false;
  for (int32_t k = 0; k < c->num_carried; k++) {
    const kiln_cpu_slot *sl = &body->slots[body->result_values[k]];
    c->invariant[k] = body->skip_result[k] = sl->store == KILN_CPU_STORE_INPUT && sl->index == k;
  }
  return find_in_place(body, c->num_carried);
}

/* Whether a while loop with a direct condition replays its body's steps itself, on one
 * run state for all iterations (run_while_lean: no run set up and no results made per
 * iteration): a body whose steps only read and write memory (no interpreter or
 * control-flow step), with no signatures, each carried value unchanged (invariant),
 * updated in place, or stored by a step straight into its result. */
static bool lean_body(const kiln_cpu_control *c) {
  const kiln_cpu_executable *b = c->region[1];
  if (!c->direct_cond || !c->invariant || b->whole_interp || b->specs || b->num_kept_slots ||
      b->num_results != c->num_carried)
    return false;
  for (int32_t s = 0; s < b->num_steps; s++)
    if (b->steps[s].kind == KILN_CPU_STEP_INTERP || b->steps[s].kind == KILN_CPU_STEP_CONTROL) return false;
  for (int32_t k = 0; k < c->num_carried; k++) {
    const kiln_cpu_slot *sl = &b->slots[b->result_values[k]];
    if (!c->invariant[k] && (sl->store != KILN_CPU_STORE_RESULT || sl->index != k)) return false;
  }
  return true;
}

/* Whether the outlined condition f is a direct_cond one; fills c's fields when it is. */
static bool find_direct_cond(kiln_cpu_control *c, const kiln_op *f) {
  const kiln_block *b = kiln_op_block(f, 0);
  const kiln_op *cmp = b ? b->last : NULL;
  cmp = cmp && cmp->kind == KILN_OP_FUNC_RETURN && cmp->num_operands == 1 ? cmp->operands[0]->def : NULL;
  if (!cmp || cmp->kind != KILN_OP_COMPARE || cmp->num_operands != 2) return false;
  for (const kiln_op *op = b->first; op != b->last; op = op->next) /* nothing else but constants */
    if (op != cmp && op->kind != KILN_OP_CONSTANT) return false;
  const kiln_type *t = cmp->operands[0]->type;
  kiln_elem e = kiln_type_elem(t);
  kiln_elem_class k = kiln_elem_class_of(e);
  kiln_cpu_while_cond *cc = &c->cond;
  if (!kiln_type_is_tensor(t) || t->tensor.rank != 0 || (k != KILN_ELEM_CLASS_I && k != KILN_ELEM_CLASS_U)) return false;
  int dir = kiln_op_compare_direction(cmp);
  if (dir < 0) return false;
  cc->dir = (kiln_compare_dir)dir;
  for (int i = 0; i < 2; i++) { /* an argument of the region, or a constant */
    const kiln_value *v = cmp->operands[i];
    cc->arg[i] = v->def == NULL && v->block == b ? v->index : -1;
    if (cc->arg[i] < 0 && !kiln_value_constant_int(v, &cc->constant[i])) return false;
  }
  cc->elem = e;
  cc->is_unsigned = k == KILN_ELEM_CLASS_U;
  return true;
}

/* The address of side i of the direct condition (NULL: a constant). */
static const void *cond_side(const kiln_cpu_control *c, int i, kiln_cpu_tensor *const *carried, kiln_cpu_tensor *const *captured) {
  int32_t a = c->cond.arg[i];
  return a < 0 ? NULL : (a < c->num_carried ? carried[a] : captured[a - c->num_carried])->data;
}

/* The direct condition on the loop's arguments (carried, then the condition's captured). */
static bool direct_cond(const kiln_cpu_control *c, kiln_cpu_tensor *const *carried, kiln_cpu_tensor *const *captured) {
  kiln_scalar v[2];
  for (int i = 0; i < 2; i++) {
    const void *p = cond_side(c, i, carried, captured);
    if (!p) v[i].i = c->cond.constant[i];
    else if (c->cond.elem == KILN_ELEM_SI32) v[i].i = *(const int32_t *)p; /* JAX's counters: read directly */
    else if (c->cond.elem == KILN_ELEM_SI64) v[i].i = *(const int64_t *)p;
    else v[i] = kiln_scalar_load(c->cond.elem, p);
  }
  int order = c->cond.is_unsigned ? (v[0].u > v[1].u) - (v[0].u < v[1].u) : (v[0].i > v[1].i) - (v[0].i < v[1].i);
  switch (c->cond.dir) {
    case KILN_COMPARE_EQ: return order == 0;
    case KILN_COMPARE_NE: return order != 0;
    case KILN_COMPARE_GE: return order >= 0;
    case KILN_COMPARE_GT: return order > 0;
    case KILN_COMPARE_LE: return order <= 0;
    default: return order < 0;
  }
}

kiln_status kiln_cpu_control_prepare(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_step *step, bool *out_done) {
  *out_done = false;
  if (x->nesting >= MAX_NESTING || (op->kind != KILN_OP_WHILE && op->kind != KILN_OP_IF && op->kind != KILN_OP_CASE) || !operands_static(op) ||
      op->num_regions < 1)
    return NULL;
  const kiln_op *path[MAX_CALL_CHAIN];
  for (int32_t r = 0; r < op->num_regions; r++)
    if (!op->regions[r].first || op->regions[r].first->next || reaches_recursion(x->module, op->regions[r].first, path, 0))
      return NULL;
  kiln_cpu_control *c = calloc(1, sizeof *c);
  if (!c) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  c->num_regions = op->num_regions;
  c->num_carried = op->kind == KILN_OP_WHILE ? op->num_operands : 0;
  c->owner = x;
  c->region = calloc((size_t)c->num_regions, sizeof *c->region);
  c->captured = calloc((size_t)c->num_regions, sizeof *c->captured);
  c->num_captured = calloc((size_t)c->num_regions, sizeof *c->num_captured);
  kiln_status st = c->region && c->captured && c->num_captured ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int32_t total = op->num_operands;
  for (int32_t r = 0; !st && r < c->num_regions; r++) {
    kiln_op *f;
    st = kiln_outline_region(x->module, &op->regions[r], x->num_values, x->scratch, &f, &c->captured[r], &c->num_captured[r]);
    if (!st) st = kiln_cpu_compile_nested(x, f, &c->region[r]);
    if (!st && r == 0 && op->kind == KILN_OP_WHILE) c->direct_cond = find_direct_cond(c, f);
    if (!st) total += c->num_captured[r];
  }
  /* the step reads the operands, then each region's captured values */
  int32_t *values = st ? NULL : kiln_arena_alloc_array(x->arena, (size_t)total + 1, sizeof *values);
  if (!st && !values) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (st) {
    kiln_cpu_control_destroy(c);
    return st;
  }
  int32_t n = 0;
  for (int32_t i = 0; i < op->num_operands; i++) values[n++] = op->operands[i]->id;
  for (int32_t r = 0; r < c->num_regions; r++)
    for (int32_t i = 0; i < c->num_captured[r]; i++) values[n++] = c->captured[r][i];
  if (c->num_carried && !find_invariants(c)) {
    kiln_cpu_control_destroy(c);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  c->lean = op->kind == KILN_OP_WHILE && lean_body(c);
  kiln_status dst = c->lean ? kiln_cpu_while_driver(c->region[1], &c->cond, &c->driver_code, &c->driver) : NULL;
  if (dst) {
    kiln_cpu_control_destroy(c);
    return dst;
  }
  for (int32_t i = 0; i < op->num_results; i++) x->slots[op->results[i].id].store = KILN_CPU_STORE_HELD;
  step->kind = KILN_CPU_STEP_CONTROL;
  step->op = op;
  step->control = c;
  step->num_values = n;
  step->values = values;
  *out_done = true;
  return NULL;
}

/* A tensor of this shape: bin's, else a new one. */
static kiln_status fresh(kiln_elem e, int32_t rank, const int64_t *dims, kiln_cpu_bin *bin, kiln_cpu_tensor **out) {
  if ((*out = kiln_cpu_bin_take(bin, e, rank, dims))) return NULL;
  return kiln_cpu_tensor_new(e, rank, dims, out);
}

/* A copy of t (a view of memory the step does not own), in a tensor of bin's when it has
 * one, counted as c's owner's. */
static kiln_status copy_of(const kiln_cpu_control *c, const kiln_cpu_tensor *t, kiln_cpu_bin *bin, kiln_cpu_tensor **out) {
  KILN_RETURN_IF_ERROR(fresh(t->elem, t->rank, t->dims, bin, out));
  if (t->bytes) memcpy((*out)->data, t->data, t->bytes);
  kiln_cpu_count_copy(c->owner, t->bytes);
  return NULL;
}

/* Runs region r on lead (its arguments) followed by its captured values; args has room
 * for them all (the caller's, so a loop allocates it once); its results may be made in
 * spares (kiln_cpu_run_into; NULL: none). */
static kiln_status run_region(const kiln_cpu_control *c, int32_t r, kiln_cpu_tensor *const *lead, int32_t nlead,
                              kiln_cpu_tensor *const *captured, kiln_cpu_tensor **args, kiln_cpu_tensor **spares,
                              kiln_cpu_tensor **out, kiln_check_log *checks) {
  for (int32_t i = 0; i < nlead; i++) args[i] = lead[i];
  for (int32_t i = 0; i < c->num_captured[r]; i++) args[nlead + i] = captured[i];
  return kiln_cpu_run_into(c->region[r], args, out, spares, checks);
}

/* t, no longer needed, kept in *spare for a later result when that is empty, else given
 * to bin. */
static void keep_spare(kiln_cpu_tensor *t, kiln_cpu_tensor **spare, kiln_cpu_bin *bin) {
  if (*spare) kiln_cpu_bin_put(bin, t);
  else *spare = t;
}

/* Spares from bin for the results of region x (spares[k] for result k: NULL when bin has
 * none of its size, or when x does not make result k: skip_result, result_from_input). */
static void spares_from(const kiln_cpu_executable *x, kiln_cpu_bin *bin, kiln_cpu_tensor **spares) {
  for (int32_t k = 0; k < x->num_results; k++) {
    const kiln_type *t = x->slots[x->result_values[k]].type;
    bool unmade = (x->skip_result && x->skip_result[k]) || (x->result_from_input && x->result_from_input[k] >= 0);
    spares[k] = unmade || !kiln_type_is_tensor(t) ? NULL : kiln_cpu_bin_take(bin, kiln_type_elem(t), t->tensor.rank, t->tensor.dims);
  }
}

/* Up to this many pointers, a step's bookkeeping lives on the stack. */
enum { SMALL_STEP = 64 };

/* A while loop. A carried value starts as the operand's tensor, borrowed (the loop owns
 * it only once the body has made a new one), except one the body updates in place
 * (result_from_input), which starts as a copy; a result still borrowed at the end (an
 * invariant one, or any after no iteration) is copied out, unless nothing needs it. The
 * tensors an iteration replaces, and the condition's predicate, are kept as spares that a
 * later iteration's results are made in (two iterations on: the body never writes what it
 * reads), so a loop allocates its state twice, not per iteration (threefry's loops over
 * 2-element keys: random_small 43 -> 26 us a run on a Zen 3 core, 2026-12-03); the first
 * spares and copies come from bin, and the spares go back to it, so that a warm loop over
 * small values allocates nothing. */
static kiln_status run_while(const kiln_cpu_control *c, kiln_cpu_tensor *const *in, kiln_cpu_tensor **out,
                             kiln_cpu_bin *bin, kiln_check_log *checks) {
  int32_t nv = c->num_carried, most = c->num_captured[0] > c->num_captured[1] ? c->num_captured[0] : c->num_captured[1];
  kiln_cpu_tensor *const *cond_captured = in + nv, *const *body_captured = in + nv + c->num_captured[0];
  /* carried, next, spare (nv each), args (nv + most), then owned: one block */
  size_t words = (size_t)(4 * nv + most) + 1;
  kiln_cpu_tensor *small[SMALL_STEP + SMALL_STEP / 8];
  kiln_cpu_tensor **carried = words <= SMALL_STEP ? small : kiln_fault_malloc(words * (sizeof *carried + sizeof(bool)));
  kiln_status st = carried && !kiln_fault_point() ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (st) {
    if (carried != small) free(carried);
    return st;
  }
  memset(carried, 0, words * (sizeof *carried + sizeof(bool)));
  kiln_cpu_tensor **next = carried + nv, **spare = next + nv, *pred_spare = NULL;
  kiln_cpu_tensor **args = spare + nv;
  bool *owned = (bool *)(args + nv + most);
  const bool *inv = c->invariant;
  const int32_t *in_place = c->region[1]->result_from_input;
  for (int32_t i = 0; !st && i < nv; i++) {
    if (in_place && in_place[i] >= 0) st = copy_of(c, in[i], bin, &carried[i]);
    else carried[i] = in[i];
    owned[i] = !st && carried[i] != in[i];
  }
  if (!st) spares_from(c->region[1], bin, spare);
  if (!st && !c->direct_cond && c->region[0]->num_results == 1) spares_from(c->region[0], bin, &pred_spare);
  while (!st) {
    bool go;
    if (c->direct_cond) go = direct_cond(c, carried, cond_captured);
    else {
      kiln_cpu_tensor *pred = NULL;
      st = run_region(c, 0, carried, nv, cond_captured, args, &pred_spare, &pred, checks);
      if (st) break;
      go = pred->bytes && *(const uint8_t *)pred->data;
      keep_spare(pred, &pred_spare, bin);
    }
    if (!go) break;
    st = run_region(c, 1, carried, nv, body_captured, args, spare, next, checks);
    for (int32_t i = 0; !st && i < nv; i++) {
      if (inv && inv[i]) continue;
      if (next[i] != carried[i] && owned[i]) keep_spare(carried[i], &spare[i], bin); /* else updated in place */
      carried[i] = next[i];
      owned[i] = true;
      next[i] = NULL;
    }
  }
  for (int32_t i = 0; !st && i < nv; i++) /* the results own their tensors */
    if (!owned[i] && !(c->dead && c->dead[i])) {
      st = copy_of(c, in[i], bin, &carried[i]);
      owned[i] = !st;
    }
  for (int32_t i = 0; i < nv; i++) {
    if (st && owned[i]) kiln_cpu_bin_put(bin, carried[i]);
    else if (!st) out[i] = owned[i] ? carried[i] : NULL; /* NULL: dead */
  }
  for (int32_t i = 0; i < nv; i++) kiln_cpu_bin_put(bin, spare[i]);
  kiln_cpu_bin_put(bin, pred_spare);
  if (carried != small) free(carried);
  return st;
}

/* The three sets of tensors a lean loop's iterations run on: the first iteration reads
 * the loop's operands (FIRST), and writes the values it makes into the first of two
 * tensors each; later ones alternate, reading one and writing the other (EVEN: the first
 * to the second, ODD: back). A value updated in place, or unchanged, is one tensor in
 * every set. */
enum { FIRST = KILN_CPU_PHASE_FIRST, EVEN = KILN_CPU_PHASE_EVEN, ODD = KILN_CPU_PHASE_ODD, PHASES = KILN_CPU_PHASES };

/* A while loop whose body is lean (lean_body): its steps replayed on three argument arrays
 * filled once (kiln_cpu_lean_fill), one per phase, so that an iteration is the condition
 * and the steps' kernels; results as run_while's. */
static kiln_status run_while_lean(const kiln_cpu_control *c, kiln_cpu_tensor *const *in, kiln_cpu_tensor **out,
                                  kiln_cpu_bin *bin) {
  kiln_cpu_executable *body = c->region[1];
  int32_t nv = c->num_carried, ncap = c->num_captured[1], width = nv + ncap;
  kiln_cpu_tensor *const *cond_captured = in + nv, *const *body_captured = in + nv + c->num_captured[0];
  const int32_t *in_place = body->result_from_input;
  /* one block: the argument arrays (PHASES * na), the tensors: inputs (PHASES * width),
   * results (PHASES * nv), made (2 * nv: each value's two tensors, or an in-place value's
   * copy), then alone (a flag per step) */
  size_t na = (size_t)kiln_cpu_lean_size(body), ptrs = PHASES * (na + (size_t)width + (size_t)nv) + 2 * (size_t)nv;
  void **args = kiln_fault_calloc(1, ptrs * sizeof *args + (size_t)body->num_steps + 1);
  kiln_cpu_run_state *s = args ? kiln_cpu_state_take(body) : NULL;
  if (!s) {
    free(args);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu: out of memory for a loop's run");
  }
  kiln_cpu_tensor **inputs = (kiln_cpu_tensor **)(args + PHASES * na), **results = inputs + PHASES * width;
  kiln_cpu_tensor **made = results + PHASES * nv;
  bool *alone = (bool *)(made + 2 * nv);
  kiln_status st = NULL;
  for (int32_t k = 0; k < nv && !st; k++) {
    kiln_cpu_tensor *first = in[k];
    if (in_place && in_place[k] >= 0) st = copy_of(c, in[k], bin, &first); /* owned: made[] stays NULL */
    else if (!c->invariant[k] && !(st = fresh(first->elem, first->rank, first->dims, bin, &made[k])))
      st = fresh(first->elem, first->rank, first->dims, bin, &made[nv + k]);
    bool alternates = made[k] != NULL;
    inputs[FIRST * width + k] = first;
    inputs[EVEN * width + k] = alternates ? made[k] : first;
    inputs[ODD * width + k] = alternates ? made[nv + k] : first;
    results[FIRST * nv + k] = results[ODD * nv + k] = inputs[EVEN * width + k];
    results[EVEN * nv + k] = inputs[ODD * width + k];
    if (!alternates && first != in[k]) made[k] = first; /* the in-place copy, owned */
  }
  for (int32_t p = 0; p < PHASES && !st; p++) {
    for (int32_t i = 0; i < ncap; i++) inputs[p * width + nv + i] = body_captured[i];
    kiln_cpu_lean_fill(body, s, inputs + p * width, results + p * nv, args + p * (size_t)na, alone);
  }
  int p = FIRST;
  if (!st && c->driver) { /* the loop compiled whole */
    void *sides[PHASES * 2];
    for (int q = 0; q < PHASES; q++)
      for (int i = 0; i < 2; i++) sides[2 * q + i] = (void *)cond_side(c, i, inputs + q * width, cond_captured);
    kiln_cpu_while_calls calls = {kiln_cpu_step_hook, body, NULL};
    int64_t last = -1;
    if (kiln_fault_point()) st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: fault injected before a compiled while loop");
    else if ((last = c->driver(args, sides, &calls)) < 0) st = calls.failed;
    else p = (int)last;
  }
  while (!st && !c->driver && direct_cond(c, inputs + p * width, cond_captured)) {
    st = kiln_cpu_replay(body, args + p * (size_t)na, alone);
    p = p == EVEN ? ODD : EVEN;
  }
  kiln_cpu_state_give(body, s);
  /* the results: each value where the next iteration would have read it (NULL: dead) */
  for (int32_t k = 0; k < nv; k++) out[k] = NULL;
  for (int32_t k = 0; k < nv && !st; k++) {
    kiln_cpu_tensor *final = inputs[p * width + k];
    if (c->dead && c->dead[k]) continue;
    if (final == in[k]) st = copy_of(c, in[k], bin, &out[k]); /* unchanged, or no iteration */
    else out[k] = final;
  }
  for (int32_t k = 0; k < nv; k++) {
    if (st && out[k] && inputs[p * width + k] == in[k]) kiln_cpu_bin_put(bin, out[k]); /* a copy */
    for (int32_t j = 0; j < 2 * nv && !st; j++)
      if (out[k] && made[j] == out[k]) made[j] = NULL; /* the result's now */
    if (st) out[k] = NULL;
  }
  for (int32_t k = 0; k < 2 * nv; k++) kiln_cpu_bin_put(bin, made[k]);
  free(args);
  return st;
}

kiln_status kiln_cpu_control_run(const kiln_cpu_step *step, kiln_cpu_tensor *const *in, kiln_cpu_tensor **out,
                                 kiln_cpu_bin *bin, kiln_check_log *checks) {
  const kiln_cpu_control *c = step->control;
  const kiln_op *op = step->op;
  if (op->kind == KILN_OP_WHILE) return c->lean ? run_while_lean(c, in, out, bin) : run_while(c, in, out, bin, checks);
  /* if: the predicate picks region 0 (true) or 1; case: the index picks its branch, the
   * last one when out of range */
  int32_t r;
  const kiln_cpu_tensor *sel = in[0];
  if (op->kind == KILN_OP_IF) r = sel->bytes && *(const uint8_t *)sel->data ? 0 : 1;
  else {
    int64_t i = sel->bytes >= 4 ? *(const int32_t *)sel->data : -1;
    r = i < 0 || i >= c->num_regions ? c->num_regions - 1 : (int32_t)i;
  }
  kiln_cpu_tensor *const *captured = in + op->num_operands;
  for (int32_t k = 0; k < r; k++) captured += c->num_captured[k];
  /* the captured values, then spares for the results */
  size_t words = (size_t)c->num_captured[r] + (size_t)c->region[r]->num_results + 1;
  kiln_cpu_tensor *small[SMALL_STEP];
  kiln_cpu_tensor **args = words <= SMALL_STEP ? small : kiln_fault_calloc(words, sizeof *args);
  if (!args) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_cpu_tensor **spares = args + c->num_captured[r];
  spares_from(c->region[r], bin, spares);
  kiln_status st = run_region(c, r, NULL, 0, captured, args, spares, out, checks);
  for (int32_t k = 0; k < c->region[r]->num_results; k++) kiln_cpu_bin_put(bin, spares[k]);
  if (args != small) free(args);
  return st;
}
