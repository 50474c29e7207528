#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Shape-polymorphic entry functions, compiled per concrete signature (see cpu.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/family.h"
#include "backends/lapack/lapack.h"
#include "base/fault.h"
#include "passes/inline.h"
#include "passes/refine_shapes.h"
#include "passes/rewrite.h"
#include "passes/unroll_loops.h"

typedef struct spec {
  int64_t *key;             /* per input its rank and dims, then the dimension arguments' values */
  int32_t key_len;
  kiln_module *scratch;     /* holds the refined function */
  kiln_cpu_executable *x;   /* NULL: refinement refused; the interpreter runs this signature */
  /* Runs of x going on: counted up under the table's lock, down without it (a run that
   * has counted down no longer touches the entry, and only an entry with none is evicted,
   * under the lock). */
  _Atomic int32_t users;
  uint64_t last_used;       /* the table's clock at its last lookup (under the lock) */
} spec;

struct kiln_cpu_specs {
  const kiln_module *m;
  const kiln_source *src;
  const kiln_op *function;
  int32_t num_dim_args;
  pthread_mutex_t lock;
  int32_t count;
  uint64_t clock;
  spec *entries[KILN_CPU_MAX_SPECS]; /* malloc'ed; a full table gives up its least recently used idle one */
  /* The loop code the signatures share (family.h; NULL: none, each compiles its own).
   * Templates are added under build_lock. */
  pthread_mutex_t build_lock;
  kiln_cpu_family *family;
  _Atomic uint64_t signatures, code_compiles; /* signatures compiled; LLVM compiles (the ladder, signatures) */
};

static void ladder(kiln_cpu_specs *s); /* regimes compiled ahead: below */

static bool is_dynamic(const kiln_type *t) { return kiln_type_is_tensor(t) && !kiln_type_is_static(t); }

bool kiln_cpu_is_polymorphic(const kiln_op *function) {
  const kiln_type *ft = kiln_func_type(function);
  for (int32_t i = 0; ft && i < ft->func.num_inputs; i++)
    if (is_dynamic(ft->func.inputs[i])) return true;
  return false;
}

/* The leading integer scalar parameters (JAX's dimension arguments). */
static int32_t dim_arg_count(const kiln_type *ft) {
  int32_t n = 0;
  for (; n < ft->func.num_inputs; n++) {
    const kiln_type *t = ft->func.inputs[n];
    if (!kiln_type_is_tensor(t) || t->tensor.rank != 0 || t->tensor.element->kind != KILN_TYPE_SCALAR) break;
    kiln_elem e = t->tensor.element->elem;
    if (!kiln_elem_is_int(e) || e == KILN_ELEM_I1) break;
  }
  return n;
}

static void spec_free(spec *e) {
  if (!e) return;
  kiln_cpu_executable_destroy(e->x);
  kiln_module_destroy(e->scratch);
  free(e->key);
  free(e);
}

kiln_status kiln_cpu_specs_create(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                  kiln_cpu_specs **out) {
  kiln_cpu_specs *s = calloc(1, sizeof *s);
  if (!s) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  s->m = m;
  s->src = src;
  s->function = function;
  s->num_dim_args = dim_arg_count(kiln_func_type(function));
  pthread_mutex_init(&s->lock, NULL);
  pthread_mutex_init(&s->build_lock, NULL);
  s->family = kiln_cpu_family_create(); /* NULL (out of memory): signatures compile alone */
  if (s->family) {
    pthread_mutex_lock(&s->build_lock);
    ladder(s);
    pthread_mutex_unlock(&s->build_lock);
  }
  *out = s;
  return NULL;
}

void kiln_cpu_specs_destroy(kiln_cpu_specs *s) {
  if (!s) return;
  for (int32_t i = 0; i < s->count; i++) {
    spec_free(s->entries[i]);
  }
  kiln_cpu_family_destroy(s->family); /* after the executables that use its code */
  pthread_mutex_destroy(&s->lock);
  pthread_mutex_destroy(&s->build_lock);
  free(s);
}

/* The signature of a run's inputs: in room when it has room_len entries for it, else
 * malloc'ed; NULL on OOM. */
static int64_t *signature(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, int64_t *room, int32_t room_len, int32_t *len) {
  const kiln_type *ft = kiln_func_type(s->function);
  int32_t n = s->num_dim_args;
  for (int32_t i = 0; i < ft->func.num_inputs; i++) n += 1 + inputs[i]->rank;
  int64_t *key = n <= room_len ? room : kiln_fault_malloc(sizeof *key * ((size_t)n + 1));
  if (!key) return NULL;
  int32_t k = 0;
  for (int32_t i = 0; i < ft->func.num_inputs; i++) {
    key[k++] = inputs[i]->rank;
    for (int32_t d = 0; d < inputs[i]->rank; d++) key[k++] = inputs[i]->dims[d];
  }
  for (int32_t i = 0; i < s->num_dim_args; i++)
    key[k++] = inputs[i]->data ? kiln_scalar_load(inputs[i]->elem, inputs[i]->data).i : 0;
  *len = k;
  return key;
}

/* Recursive calls stay after inlining. For the copy to run in an interpreter of its
 * scratch module, the functions they call (and those these call) are copied there too:
 * inlined copies under their own names. */
static kiln_status copy_callees(const kiln_module *m, kiln_module *scratch, const kiln_block *b, int depth);

/* Copies the function symbol attribute a names (and what it calls) unless there already. */
static kiln_status copy_callee(const kiln_module *m, kiln_module *scratch, const kiln_attr *a, int depth) {
  if (!a || a->kind != KILN_ATTR_SYMBOL || kiln_module_lookup_func(scratch, a->symbol)) return NULL;
  const kiln_op *callee = kiln_module_lookup_func(m, a->symbol);
  if (!callee || !kiln_op_block(callee, 0)) return NULL; /* the run reports it */
  if (depth > 64) return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "calls nest too deep to copy");
  kiln_op *copy = NULL;
  int32_t inlined = 0;
  KILN_RETURN_IF_ERROR(kiln_inline_calls(m, callee, scratch, &copy, &inlined));
  return copy_callees(m, scratch, kiln_op_block(copy, 0), depth + 1);
}

/* The functions a custom call's called_computations name (ApproxTopK's comparator) are
 * copied as well. */
static kiln_status copy_callees(const kiln_module *m, kiln_module *scratch, const kiln_block *b, int depth) {
  for (const kiln_op *op = b ? b->first : NULL; op; op = op->next) {
    for (int32_t r = 0; r < op->num_regions; r++) KILN_RETURN_IF_ERROR(copy_callees(m, scratch, kiln_op_block(op, r), depth));
    if (op->kind == KILN_OP_CALL) KILN_RETURN_IF_ERROR(copy_callee(m, scratch, kiln_op_attr(op, "callee"), depth));
    if (op->kind == KILN_OP_COMPOSITE) KILN_RETURN_IF_ERROR(copy_callee(m, scratch, kiln_op_attr(op, "decomposition"), depth));
    const kiln_attr *calls = op->kind == KILN_OP_CUSTOM_CALL ? kiln_op_attr(op, "called_computations") : NULL;
    for (int64_t i = 0; calls && calls->kind == KILN_ATTR_ARRAY && i < calls->array.count; i++)
      KILN_RETURN_IF_ERROR(copy_callee(m, scratch, calls->array.items[i], depth));
  }
  return NULL;
}

typedef struct recording {
  const kiln_op *function; /* whose values are recorded (callees' ops are not) */
  kiln_shape_record *record;
} recording;

static const kiln_op *function_of(const kiln_op *op) {
  while (op && op->kind != KILN_OP_FUNC) op = op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
  return op;
}

static void observe(void *arg, const kiln_op *op, kiln_rtv *const *results) {
  const recording *rec = arg;
  if (function_of(op) != rec->function) return;
  for (int32_t i = 0; i < op->num_results; i++)
    if (results[i] && results[i]->kind == KILN_RTV_TENSOR)
      kiln_shape_record_note(rec->record, op->results[i].id, results[i]->rank, results[i]->dims);
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Marks the while loops of b whose trip count is not a constant before refinement (it comes
 * from a symbolic size) to stay loops (KILN_UNROLL_KEEP): unrolled, every short length
 * would make code of its own. False on OOM. */
static bool keep_sized_loops(kiln_module *m, kiln_block *b) {
  for (kiln_op *op = b ? b->first : NULL; op; op = op->next) {
    for (int32_t r = 0; r < op->num_regions; r++)
      for (kiln_block *inner = op->regions[r].first; inner; inner = inner->next)
        if (!keep_sized_loops(m, inner)) return false;
    int64_t trips;
    if (op->kind != KILN_OP_WHILE || kiln_rewrite_trip_count(op, &trips)) continue;
    kiln_named_attr *a = kiln_arena_alloc_array(m->arena, (size_t)op->num_attrs + 1, sizeof *a);
    kiln_attr *unit = kiln_attr_new(m, KILN_ATTR_UNIT);
    if (!a || !unit) return false;
    if (op->num_attrs) memcpy(a, op->attrs, sizeof *a * (size_t)op->num_attrs); /* the inliner's copies share them */
    a[op->num_attrs++] = (kiln_named_attr){KILN_UNROLL_KEEP, unit};
    op->attrs = a;
  }
  return true;
}

/* Refines the recorded copy and compiles it; a refusal leaves e->x NULL. */
static void specialise(kiln_cpu_specs *s, kiln_op *copy, const kiln_shape_record *rec, bool shapes_only,
                       kiln_cpu_family_pass *pass, spec *e) {
  double t0 = now_ms();
  kiln_status st = keep_sized_loops(e->scratch, kiln_op_block(copy, 0)) ? NULL
                   : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_refine_shapes(e->scratch, copy, rec, s->num_dim_args);
  if (!st) {
    kiln_func_number_values(copy);
    st = pass ? kiln_cpu_compile_family(s->m, s->src, copy, pass, &e->x) : kiln_cpu_compile(s->m, s->src, copy, &e->x);
  }
  if (st && pass && !pass->compile_rest && pass->unbound) { /* the caller makes a template */
    kiln_status_free(st);
    return;
  }
  if (!st && e->x->whole_interp) { /* tuples, tokens: not worth a copy the interpreter runs */
    kiln_cpu_executable_destroy(e->x);
    e->x = NULL;
    st = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "the refined function runs in the interpreter as a whole");
  }
  bool collecting = pass && pass->mode == KILN_CPU_FAMILY_COLLECT;
  if (!st && !collecting) {
    atomic_fetch_add(&s->signatures, 1);
    if (!pass || pass->compiled) atomic_fetch_add(&s->code_compiles, 1);
  }
  const char *profile = getenv("KILN_CPU_PROFILE");
  if (profile && *profile == '1' && !collecting) {
    if (st) fprintf(stderr, "cpu: @%s not specialised: %s\n", kiln_func_name(s->function), kiln_status_message(st));
    else
      fprintf(stderr, "cpu: @%s specialised in %.1f ms (shapes from %s; loop code %s; signatures %llu, %llu of them compiled code)\n",
              kiln_func_name(s->function), now_ms() - t0, shapes_only ? "a shapes-only run" : "an interpreted run",
              pass && !pass->compiled ? "shared" : "compiled", (unsigned long long)atomic_load(&s->signatures),
              (unsigned long long)atomic_load(&s->code_compiles));
  }
  kiln_status_free(st);
}

/* ---------------------------------------------------------------- shapes-only recording
 * A signature's shapes come from a shapes-only run of the inlined copy
 * (kiln_interp_ctx.shapes_only): only the ops whose values decide shapes (the shape
 * operands of the dynamic ops and what computes them, and shape assertions' operands) run
 * fully; every other op's results are allocated at their shapes and left uncomputed. */

/* Whether a shapes-only run of b has the effects of a real one: none but assertions. */
static bool effect_free(const kiln_block *b) {
  for (const kiln_op *op = b ? b->first : NULL; op; op = op->next) {
    bool ok = kiln_refine_kind_is_pure(op->kind) || op->kind == KILN_OP_RNG || op->kind == KILN_OP_RNG_BIT_GENERATOR ||
              (op->kind == KILN_OP_CUSTOM_CALL && kiln_interp_custom_call_shapes_only(op));
    for (int32_t r = 0; ok && r < op->num_regions; r++) ok = effect_free(kiln_op_block(op, r));
    if (!ok) return false;
  }
  return true;
}

static void need(bool *needed, const kiln_value *v, bool *changed) {
  if (!needed[v->id]) needed[v->id] = *changed = true;
}

/* One backward pass over b: the operands of ops with a needed result (or none) are needed.
 * False when a needed value is made by an op with regions. */
static bool need_pass(const kiln_block *b, bool *needed, bool *changed) {
  for (const kiln_op *op = b ? b->last : NULL; op; op = op->prev) {
    for (int32_t r = 0; r < op->num_regions; r++)
      if (!need_pass(kiln_op_block(op, r), needed, changed)) return false;
    int32_t first = 0, count = 0;
    if (kiln_refine_shape_operands(op, &first, &count))
      for (int32_t i = first; i < first + count && i < op->num_operands; i++) need(needed, op->operands[i], changed);
    bool used = op->num_results == 0 && op->kind != KILN_OP_FUNC_RETURN && op->kind != KILN_OP_RETURN;
    for (int32_t i = 0; i < op->num_results; i++) used = used || needed[op->results[i].id];
    if (!used || op->kind == KILN_OP_GET_DIMENSION_SIZE) continue; /* a size reads no data */
    if (op->num_regions) return false;
    for (int32_t i = 0; i < op->num_operands; i++) need(needed, op->operands[i], changed);
  }
  return true;
}

/* Whether a needed value is an argument of a region (a loop's carried value: it takes
 * other values than the one pass a shapes-only run makes). */
static bool needs_region_arg(const kiln_block *b, const bool *needed, bool entry) {
  for (int32_t i = 0; b && !entry && i < b->num_args; i++)
    if (needed[b->args[i].id]) return true;
  for (const kiln_op *op = b ? b->first : NULL; op; op = op->next)
    for (int32_t r = 0; r < op->num_regions; r++)
      if (needs_region_arg(kiln_op_block(op, r), needed, false)) return true;
  return false;
}

static void mark_results(const kiln_block *b, const bool *needed, bool *shapes_only) {
  for (const kiln_op *op = b ? b->first : NULL; op; op = op->next) {
    bool used = false;
    for (int32_t i = 0; i < op->num_results; i++) used = used || needed[op->results[i].id];
    for (int32_t i = 0; i < op->num_results; i++) shapes_only[op->results[i].id] = !used;
    for (int32_t r = 0; r < op->num_regions; r++) mark_results(kiln_op_block(op, r), needed, shapes_only);
  }
}

/* The shapes-only plan of copy (numbered, num_values values): malloc'ed, by value id; NULL
 * when a shapes-only run cannot stand for a real one (effects other than assertions, sizes
 * computed in loops or by ops with regions) or on OOM. */
static bool *shapes_only_plan(const kiln_op *copy, int32_t num_values) {
  const kiln_block *body = kiln_op_block(copy, 0);
  if (!body || !effect_free(body)) return NULL;
  bool *needed = calloc((size_t)num_values + 1, sizeof *needed), *plan = calloc((size_t)num_values + 1, sizeof *plan);
  bool ok = needed && plan, changed = true;
  for (int32_t pass = 0; ok && changed && pass <= num_values; pass++) {
    changed = false;
    ok = need_pass(body, needed, &changed);
  }
  ok = ok && !changed && !needs_region_arg(body, needed, true);
  if (ok) mark_results(body, needed, plan);
  free(needed);
  if (!ok) free(plan);
  return ok ? plan : NULL;
}

/* The inlined copy of the entry in a new scratch module (e->scratch) and an interpreter of
 * it; false (nothing made but the module) when it cannot be made or run there. */
static bool make_copy(kiln_cpu_specs *s, spec *e, kiln_op **copy, kiln_interp **interp, kiln_status *st) {
  int32_t inlined = 0;
  kiln_module_destroy(e->scratch);
  e->scratch = kiln_module_create(s->m->name);
  if (!e->scratch) {
    *st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return false;
  }
  kiln_status refused = kiln_inline_calls_everywhere(s->m, s->function, e->scratch, copy, &inlined);
  if (!refused) refused = copy_callees(s->m, e->scratch, kiln_op_block(*copy, 0), 0);
  if (!refused) refused = kiln_interp_create(e->scratch, s->src, interp);
  kiln_status_free(refused);
  return !refused;
}

/* A run of copy in interp recorded (a shapes-only run when plan is given, whose results
 * are not made), then specialised unless the run failed. */
static kiln_status record(kiln_cpu_specs *s, kiln_op *copy, const kiln_interp *interp, const bool *plan,
                          kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results, kiln_check_log *checks,
                          kiln_cpu_family_pass *pass, spec *e) {
  kiln_shape_record *rec = kiln_shape_record_create(kiln_func_num_values(copy));
  if (!rec) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  const kiln_block *body = kiln_op_block(copy, 0);
  for (int32_t i = 0; i < body->num_args; i++) kiln_shape_record_note(rec, body->args[i].id, inputs[i]->rank, inputs[i]->dims);
  recording r = {copy, rec};
  kiln_status st = kiln_cpu_run_interpreted(interp, copy, inputs, results, checks, observe, &r, plan);
  if (!st) specialise(s, copy, rec, plan != NULL, pass, e);
  kiln_shape_record_destroy(rec);
  return st;
}


/* A signature compiled (through pass, or alone) from a shapes-only run: e->x NULL when
 * that cannot be done. */
static void compile_shapes_only(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, kiln_cpu_family_pass *pass,
                                spec *e, kiln_status *st) {
  kiln_op *copy = NULL;
  kiln_interp *interp = NULL;
  if (!make_copy(s, e, &copy, &interp, st)) return;
  bool *plan = shapes_only_plan(copy, kiln_func_num_values(copy));
  if (plan) kiln_status_free(record(s, copy, interp, plan, inputs, NULL, NULL, pass, e)); /* a real run reports it */
  free(plan);
  kiln_interp_destroy(interp);
}

enum { PROBE_ONE_MORE, PROBE_ONE_LESS, PROBE_DOUBLE, PROBE_KINDS, PROBE_SAME = PROBE_KINDS };

/* A probe's size for symbolic size v, or -1 when there is none. */
static int64_t probe_size(int64_t v, int kind) {
  if (v < 1) return -1;
  if (kind == PROBE_SAME) return v;
  if (kind == PROBE_ONE_MORE) return v < INT32_MAX ? v + 1 : -1;
  if (kind == PROBE_ONE_LESS) return v > 1 ? v - 1 : -1;
  return v < INT32_MAX ? 2 * v : -1;
}

/* A probe's inputs: the signature's with every symbolic size (a `?` dim, a dimension
 * argument) changed alike (family.h), zeros (calloc: untouched pages); false when a size
 * has no probe of this kind or the inputs would exceed 256 MiB. */
static bool probe_inputs(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, int kind, kiln_cpu_tensor *probe) {
  const kiln_type *ft = kiln_func_type(s->function);
  int64_t total = 0;
  for (int32_t i = 0; i < ft->func.num_inputs; i++) {
    const kiln_type *t = ft->func.inputs[i];
    kiln_cpu_tensor *p = &probe[i];
    *p = (kiln_cpu_tensor){.elem = inputs[i]->elem, .rank = inputs[i]->rank};
    int64_t count = 1, bytes = 0;
    for (int32_t d = 0; d < p->rank; d++) {
      p->dims[d] = inputs[i]->dims[d];
      if (kiln_type_is_tensor(t) && d < t->tensor.rank && t->tensor.dims[d] == KILN_DIM_DYNAMIC &&
          (p->dims[d] = probe_size(p->dims[d], kind)) < 0)
        return false;
      if (!kiln_mul_i64(count, p->dims[d], &count)) return false;
    }
    if (!kiln_mul_i64(count, (int64_t)kiln_elem_storage_bytes(p->elem), &bytes) || !kiln_add_i64(total, bytes, &total) ||
        total > ((int64_t)256 << 20))
      return false;
    p->bytes = (uint64_t)bytes;
    if (!(p->data = calloc(1, bytes ? (size_t)bytes : 1))) return false;
    if (i < s->num_dim_args) {
      if (!inputs[i]->data) return false;
      kiln_scalar v = kiln_scalar_load(inputs[i]->elem, inputs[i]->data);
      if ((v.i = probe_size(v.i, kind)) < 0) return false;
      kiln_scalar_store(p->elem, p->data, v);
    }
  }
  return true;
}

/* A COLLECT compile of the signature with its sizes changed by `kind` (into *p, its loops in
 * *cp); false when there is no such probe or it cannot be planned, *st the error that
 * stopped it (an inlining or allocation failure), if any. */
static bool collect(kiln_cpu_specs *s, kiln_cpu_tensor *const *sig, int kind, spec *p, kiln_cpu_family_pass *cp,
                    kiln_status *st) {
  int32_t n = kiln_func_type(s->function)->func.num_inputs;
  kiln_cpu_tensor *in = calloc((size_t)n + 1, sizeof *in);
  kiln_cpu_tensor **pin = calloc((size_t)n + 1, sizeof *pin);
  kiln_cpu_family_pass_init(cp, s->family, KILN_CPU_FAMILY_COLLECT, NULL, false);
  bool ok = in && pin && probe_inputs(s, sig, kind, in);
  for (int32_t i = 0; ok && i < n; i++) pin[i] = &in[i];
  if (ok) compile_shapes_only(s, pin, cp, p, st);
  ok = ok && !*st && p->x;
  for (int32_t i = 0; in && i < n; i++) free(in[i].data);
  free(in);
  free(pin);
  return ok;
}

static void spec_clear(spec *p) {
  kiln_cpu_executable_destroy(p->x);
  kiln_module_destroy(p->scratch);
  *p = (spec){0};
}

/* Keeps p's executable in the family (its loops are templates'). */
static void keep(kiln_cpu_specs *s, spec *p) {
  kiln_cpu_family_keep_probe(s->family, p->x, p->scratch);
  *p = (spec){0};
}

/* One probe of this kind: compiled collecting its loops, then the signature with a BUILD
 * pass pairing its generations with the probe's (e->x; NULL when the probe could not be
 * made). The probe is kept when templates were made of it. */
static void build_with_probe(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, int kind, spec *e,
                             kiln_cpu_family_pass *bp, kiln_status *st) {
  spec p = {0};
  kiln_cpu_family_pass cp;
  if (collect(s, inputs, kind, &p, &cp, st)) {
    kiln_cpu_family_pass_init(bp, s->family, KILN_CPU_FAMILY_BUILD, &cp, false);
    compile_shapes_only(s, inputs, bp, e, st);
    if (bp->built) keep(s, &p); /* its templates read the probe's loops */
  }
  kiln_cpu_family_pass_free(&cp);
  spec_clear(&p);
}

/* A signature that bound to none of the `seen` templates: templates are made from it and a
 * probe (one size more, else less, else double: the first whose plan matches it in
 * structure), under the build lock. e->x: its executable, its loops' code shared where a
 * template took them. */
static void build_templates(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, int32_t seen, spec *e,
                            kiln_status *st) {
  kiln_cpu_family_pass bp;
  kiln_cpu_family_pass_init(&bp, s->family, KILN_CPU_FAMILY_USE, NULL, false);
  pthread_mutex_lock(&s->build_lock);
  if (kiln_cpu_family_templates(s->family) != seen) compile_shapes_only(s, inputs, &bp, e, st); /* another thread's */
  bool unbound = !e->x;
  for (int kind = 0; unbound && !*st && !e->x && kind < PROBE_KINDS && !kiln_cpu_family_full(s->family); kind++) {
    build_with_probe(s, inputs, kind, e, &bp, st);
  }
  if (unbound && !*st && !e->x) { /* no probe matched: what templates fit, and code of its own for the rest */
    kiln_cpu_family_pass_init(&bp, s->family, KILN_CPU_FAMILY_USE, NULL, true);
    compile_shapes_only(s, inputs, &bp, e, st);
  }
  pthread_mutex_unlock(&s->build_lock);
}

/* ---------------------------------------------------------------- the regime ladder
 * At compile time the function is planned at a ladder of sizes (every symbolic size and
 * dimension argument set to the rung's), collecting its loops, never run; every generation
 * no template fits yet becomes one, with a probe of the rung's sizes one larger, else one
 * smaller, else doubled (as build_templates pairs them), else alone as a template of
 * constants, and then all of them compile at once: one LLVM compile for the regimes of sizes
 * whose plans differ in structure (a product of few rows runs as a loop, of many on the
 * library; size 1 drops dims), which the signatures that come later bind to. A rung whose
 * shapes-only run fails (an assertion relating sizes that are set equal here) is skipped; a
 * signature no template fits (a regime between rungs, or beyond the last) makes templates of
 * its own when it comes (build_templates). Rungs grow by at most 1.5x, up to inputs of 256
 * MiB (probe_inputs). */
static const int64_t LADDER[] = {1,   2,   3,   4,   6,   8,    12,   16,   24,   32,   48,   64,
                                 96,  128, 192, 256, 384, 512,  768,  1024, 1536, 2048, 3072, 4096};

/* The rung's signature: dims (every `?` dim, and every dimension argument's value, set to
 * `size`); data only for the dimension arguments (in values). False when a parameter's rank is
 * unknown or a bound is below size. */
static bool rung_signature(const kiln_cpu_specs *s, int64_t size, kiln_cpu_tensor *sig, int64_t *values) {
  const kiln_type *ft = kiln_func_type(s->function);
  for (int32_t i = 0; i < ft->func.num_inputs; i++) {
    const kiln_type *t = ft->func.inputs[i];
    if (!kiln_type_is_tensor(t) || t->tensor.rank < 0 || t->tensor.rank > KILN_RTV_MAX_RANK) return false;
    sig[i] = (kiln_cpu_tensor){.elem = kiln_type_elem(t), .rank = t->tensor.rank};
    for (int32_t d = 0; d < t->tensor.rank; d++) {
      bool dynamic = t->tensor.dims[d] == KILN_DIM_DYNAMIC;
      if (dynamic && t->tensor.bounds && t->tensor.bounds[d] != KILN_DIM_DYNAMIC && t->tensor.bounds[d] < size) return false;
      sig[i].dims[d] = dynamic ? size : t->tensor.dims[d];
    }
    if (i < s->num_dim_args) {
      sig[i].data = &values[i];
      kiln_scalar_store(sig[i].elem, sig[i].data, (kiln_scalar){.i = size});
    }
  }
  return true;
}

/* One rung: its generations that no template fits get templates (pending). */
static void rung(kiln_cpu_specs *s, kiln_cpu_tensor *const *sig) {
  spec at = {0};
  kiln_cpu_family_pass cp;
  kiln_status st = NULL; /* the ladder does what it can: a rung that fails is passed over */
  if (!collect(s, sig, PROBE_SAME, &at, &cp, &st)) {
    kiln_status_free(st);
    kiln_cpu_family_pass_free(&cp);
    spec_clear(&at);
    return;
  }
  for (int kind = 0; kind < PROBE_KINDS && kiln_cpu_family_unfit(s->family, &cp) && !kiln_cpu_family_full(s->family);
       kind++) {
    spec p = {0};
    kiln_cpu_family_pass pp;
    if (collect(s, sig, kind, &p, &pp, &st) && kiln_cpu_family_plan(s->family, &cp, &pp)) keep(s, &p);
    kiln_status_free(st);
    st = NULL;
    kiln_cpu_family_pass_free(&pp);
    spec_clear(&p);
  }
  if (kiln_cpu_family_unfit(s->family, &cp) && !kiln_cpu_family_full(s->family) && kiln_cpu_family_plan(s->family, &cp, &cp))
    keep(s, &at);
  kiln_cpu_family_pass_free(&cp);
  spec_clear(&at);
}

/* The ladder (above), under the build lock. */
static void ladder(kiln_cpu_specs *s) {
  double t0 = now_ms();
  int32_t n = kiln_func_type(s->function)->func.num_inputs;
  kiln_cpu_tensor *sig = calloc((size_t)n + 1, sizeof *sig);
  kiln_cpu_tensor **psig = calloc((size_t)n + 1, sizeof *psig);
  int64_t *values = calloc((size_t)n + 1, sizeof *values);
  for (int32_t i = 0; sig && psig && i < n; i++) psig[i] = &sig[i];
  int32_t rungs = 0;
  for (size_t r = 0; sig && psig && values && r < sizeof LADDER / sizeof *LADDER && !kiln_cpu_family_full(s->family); r++)
    if (rung_signature(s, LADDER[r], sig, values)) rung(s, psig), rungs++;
  bool compiled = false;
  kiln_status st = kiln_cpu_family_compile_planned(s->family, &compiled);
  if (!st && compiled) atomic_fetch_add(&s->code_compiles, 1);
  const char *profile = getenv("KILN_CPU_PROFILE");
  if (profile && *profile == '1')
    fprintf(stderr, "cpu: @%s: %d rungs of sizes planned, %d templates compiled at once in %.1f ms%s%s\n",
            kiln_func_name(s->function), (int)rungs, (int)kiln_cpu_family_templates(s->family), now_ms() - t0,
            st ? ": " : "", st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  free(sig);
  free(psig);
  free(values);
}

/* The first run of a signature: the inlined copy's shapes are recorded and it is
 * specialised, its loops' code shared with the other signatures' (family.h). The shapes
 * come from a shapes-only run when the copy allows one, and then the specialised code
 * makes the results; otherwise (or when that run or the refinement fails: a fresh copy)
 * the copy runs in the interpreter as a real run that is also recorded, and its results
 * are returned. e gets the new entry (not yet in the table); e->x NULL: the signature is
 * interpreted. */
static kiln_status first_run(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                             kiln_check_log *checks, spec *e, bool *ran) {
  kiln_status st = NULL;
  kiln_cpu_family_pass pass;
  kiln_cpu_family_pass_init(&pass, s->family, KILN_CPU_FAMILY_USE, NULL, false);
  int32_t seen = s->family ? kiln_cpu_family_templates(s->family) : 0;
  compile_shapes_only(s, inputs, s->family ? &pass : NULL, e, &st);
  if (!st && !e->x && pass.unbound) build_templates(s, inputs, seen, e, &st);
  if (st) return st;
  if (e->x) {
    *ran = true;
    return kiln_cpu_run(e->x, inputs, results, checks);
  }
  kiln_op *copy = NULL;
  kiln_interp *interp = NULL;
  if (!make_copy(s, e, &copy, &interp, &st)) return st;
  kiln_cpu_family_pass_init(&pass, s->family, KILN_CPU_FAMILY_USE, NULL, true); /* binds or compiles */
  *ran = true;
  st = record(s, copy, interp, NULL, inputs, results, checks, s->family ? &pass : NULL, e);
  kiln_interp_destroy(interp);
  return st;
}

void kiln_cpu_specs_counts(const kiln_cpu_specs *s, uint64_t *signatures, uint64_t *code_compiles) {
  *signatures = atomic_load(&s->signatures);
  *code_compiles = atomic_load(&s->code_compiles);
}

/* The entry of key (under the lock), or NULL. */
static spec *lookup(const kiln_cpu_specs *s, const int64_t *key, int32_t len) {
  for (int32_t i = 0; i < s->count; i++)
    if (s->entries[i]->key_len == len && !memcmp(s->entries[i]->key, key, sizeof *key * (size_t)len)) return s->entries[i];
  return NULL;
}

/* Puts e in the table (under the lock) unless its signature is there already (another
 * thread made it meanwhile: the first is kept); a full table gives up its least recently
 * used entry that no run uses (returned in *evicted, to be freed outside the lock), or, all
 * of them in use, keeps e out. Whether e went in. */
static bool insert(kiln_cpu_specs *s, spec *e, spec **evicted) {
  *evicted = NULL;
  if (lookup(s, e->key, e->key_len)) return false;
  if (s->count == KILN_CPU_MAX_SPECS) {
    int32_t lru = -1;
    for (int32_t i = 0; i < s->count; i++)
      if (!atomic_load_explicit(&s->entries[i]->users, memory_order_acquire) && (lru < 0 || s->entries[i]->last_used < s->entries[lru]->last_used)) lru = i;
    if (lru < 0) return false;
    *evicted = s->entries[lru];
    s->entries[lru] = s->entries[--s->count];
  }
  e->last_used = ++s->clock;
  s->entries[s->count++] = e;
  return true;
}

kiln_status kiln_cpu_specs_run(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                               kiln_check_log *checks, bool *ran) {
  *ran = false;
  int32_t len = 0;
  int64_t room[32]; /* a run's signature, unless it is longer */
  int64_t *key = signature(s, inputs, room, 32, &len);
  if (!key) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  pthread_mutex_lock(&s->lock);
  spec *found = lookup(s, key, len);
  if (found) {
    found->users++;
    found->last_used = ++s->clock;
  }
  pthread_mutex_unlock(&s->lock); /* a used entry stays in the table */
  if (found) {
    if (key != room) free(key);
    kiln_status st = NULL;
    if (found->x) {
      *ran = true;
      st = kiln_cpu_run(found->x, inputs, results, checks);
    }
    atomic_fetch_sub_explicit(&found->users, 1, memory_order_release);
    return st;
  }
  if (key == room) { /* the table keeps a new signature's key */
    key = kiln_fault_malloc(sizeof *key * ((size_t)len + 1));
    if (key) memcpy(key, room, sizeof *key * (size_t)len);
  }
  spec *e = key ? calloc(1, sizeof *e) : NULL;
  if (!e) {
    free(key);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  e->key = key;
  e->key_len = len;
  kiln_status st = first_run(s, inputs, results, checks, e, ran);
  bool kept = false;
  spec *evicted = NULL;
  if (!st) {
    pthread_mutex_lock(&s->lock);
    kept = insert(s, e, &evicted);
    pthread_mutex_unlock(&s->lock);
  }
  spec_free(evicted);
  if (!kept) spec_free(e);
  return st;
}
