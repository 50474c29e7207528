/* Shape-polymorphic entry functions, compiled per concrete signature (see cpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu.h"
#include "base/fault.h"
#include "passes/inline.h"
#include "passes/refine_shapes.h"

typedef struct spec {
  int64_t *key;             /* per input its rank and dims, then the dimension arguments' values */
  int32_t key_len;
  kiln_module *scratch;     /* holds the refined function */
  kiln_cpu_executable *x;   /* NULL: refinement refused; the interpreter runs this signature */
} spec;

struct kiln_cpu_specs {
  const kiln_module *m;
  const kiln_source *src;
  const kiln_op *function;
  int32_t num_dim_args;
  pthread_mutex_t lock;
  int32_t count;
  spec entries[KILN_CPU_MAX_SPECS];
};

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

kiln_status kiln_cpu_specs_create(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                  kiln_cpu_specs **out) {
  kiln_cpu_specs *s = calloc(1, sizeof *s);
  if (!s) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  s->m = m;
  s->src = src;
  s->function = function;
  s->num_dim_args = dim_arg_count(kiln_func_type(function));
  pthread_mutex_init(&s->lock, NULL);
  *out = s;
  return NULL;
}

void kiln_cpu_specs_destroy(kiln_cpu_specs *s) {
  if (!s) return;
  for (int32_t i = 0; i < s->count; i++) {
    kiln_cpu_executable_destroy(s->entries[i].x);
    kiln_module_destroy(s->entries[i].scratch);
    free(s->entries[i].key);
  }
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* The signature of a run's inputs (malloc'ed; NULL on OOM). */
static int64_t *signature(const kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, int32_t *len) {
  const kiln_type *ft = kiln_func_type(s->function);
  int32_t n = s->num_dim_args;
  for (int32_t i = 0; i < ft->func.num_inputs; i++) n += 1 + inputs[i]->rank;
  int64_t *key = kiln_fault_malloc(sizeof *key * ((size_t)n + 1));
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
static kiln_status copy_callees(const kiln_module *m, kiln_module *scratch, const kiln_block *b, int depth) {
  for (const kiln_op *op = b ? b->first : NULL; op; op = op->next) {
    for (int32_t r = 0; r < op->num_regions; r++) KILN_RETURN_IF_ERROR(copy_callees(m, scratch, kiln_op_block(op, r), depth));
    const kiln_attr *a = op->kind == KILN_OP_CALL ? kiln_op_attr(op, "callee")
                         : op->kind == KILN_OP_COMPOSITE ? kiln_op_attr(op, "decomposition")
                                                         : NULL;
    if (!a || a->kind != KILN_ATTR_SYMBOL || kiln_module_lookup_func(scratch, a->symbol)) continue;
    const kiln_op *callee = kiln_module_lookup_func(m, a->symbol);
    if (!callee || !kiln_op_block(callee, 0)) continue; /* the run reports it */
    if (depth > 64) return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "calls nest too deep to copy");
    kiln_op *copy = NULL;
    int32_t inlined = 0;
    KILN_RETURN_IF_ERROR(kiln_inline_calls(m, callee, scratch, &copy, &inlined));
    KILN_RETURN_IF_ERROR(copy_callees(m, scratch, kiln_op_block(copy, 0), depth + 1));
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

/* Refines the recorded copy and compiles it; a refusal leaves e->x NULL. */
static void specialise(const kiln_cpu_specs *s, kiln_op *copy, const kiln_shape_record *rec, spec *e) {
  double t0 = now_ms();
  kiln_status st = kiln_refine_shapes(e->scratch, copy, rec, s->num_dim_args);
  if (!st) {
    kiln_func_number_values(copy);
    st = kiln_cpu_compile(s->m, s->src, copy, &e->x);
  }
  if (!st && e->x->whole_interp) { /* tuples, tokens: not worth a copy the interpreter runs */
    kiln_cpu_executable_destroy(e->x);
    e->x = NULL;
    st = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "the refined function runs in the interpreter as a whole");
  }
  const char *profile = getenv("KILN_CPU_PROFILE");
  if (profile && *profile == '1') {
    if (st) fprintf(stderr, "cpu: @%s not specialised: %s\n", kiln_func_name(s->function), kiln_status_message(st));
    else fprintf(stderr, "cpu: @%s specialised in %.1f ms\n", kiln_func_name(s->function), now_ms() - t0);
  }
  kiln_status_free(st);
}

/* The first run of a signature: the inlined copy runs in the interpreter while its shapes
 * are recorded, then it is specialised. *out gets the new entry (not yet in the table). */
static kiln_status first_run(const kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                             kiln_check_log *checks, spec *e, bool *ran) {
  kiln_op *copy = NULL;
  int32_t inlined = 0;
  kiln_interp *interp = NULL;
  kiln_shape_record *rec = NULL;
  e->scratch = kiln_module_create(s->m->name);
  kiln_status st = e->scratch ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (st) return st;
  /* a copy that cannot be made or run here leaves e->x NULL: the signature is interpreted */
  kiln_status refused = kiln_inline_calls_everywhere(s->m, s->function, e->scratch, &copy, &inlined);
  if (!refused) refused = copy_callees(s->m, e->scratch, kiln_op_block(copy, 0), 0);
  if (!refused) refused = kiln_interp_create(e->scratch, s->src, &interp);
  if (refused) {
    kiln_status_free(refused);
    return NULL;
  }
  if (!st && !(rec = kiln_shape_record_create(kiln_func_num_values(copy))))
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  const kiln_block *body = copy ? kiln_op_block(copy, 0) : NULL;
  for (int32_t i = 0; !st && i < body->num_args; i++)
    kiln_shape_record_note(rec, body->args[i].id, inputs[i]->rank, inputs[i]->dims);
  if (!st) {
    *ran = true;
    recording r = {copy, rec};
    st = kiln_cpu_run_interpreted(interp, copy, inputs, results, checks, observe, &r);
  }
  if (!st) specialise(s, copy, rec, e);
  kiln_shape_record_destroy(rec);
  kiln_interp_destroy(interp);
  return st;
}

kiln_status kiln_cpu_specs_run(kiln_cpu_specs *s, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                               kiln_check_log *checks, bool *ran) {
  *ran = false;
  int32_t len = 0;
  int64_t *key = signature(s, inputs, &len);
  if (!key) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  const spec *found = NULL;
  bool full;
  pthread_mutex_lock(&s->lock);
  for (int32_t i = 0; !found && i < s->count; i++)
    if (s->entries[i].key_len == len && !memcmp(s->entries[i].key, key, sizeof *key * (size_t)len)) found = &s->entries[i];
  full = s->count == KILN_CPU_MAX_SPECS;
  pthread_mutex_unlock(&s->lock); /* entries stay until the executable goes */
  if (found || full) {
    free(key);
    if (!found || !found->x) return NULL;
    *ran = true;
    return kiln_cpu_run(found->x, inputs, results, checks);
  }
  spec e = {key, len, NULL, NULL};
  kiln_status st = first_run(s, inputs, results, checks, &e, ran);
  bool kept = false;
  if (!st) { /* another thread may have made this signature meanwhile: keep the first */
    pthread_mutex_lock(&s->lock);
    bool dup = false;
    for (int32_t i = 0; !dup && i < s->count; i++)
      dup = s->entries[i].key_len == len && !memcmp(s->entries[i].key, key, sizeof *key * (size_t)len);
    if (!dup && s->count < KILN_CPU_MAX_SPECS) {
      s->entries[s->count++] = e;
      kept = true;
    }
    pthread_mutex_unlock(&s->lock);
  }
  if (!kept) {
    kiln_cpu_executable_destroy(e.x);
    kiln_module_destroy(e.scratch);
    free(e.key);
  }
  return st;
}
