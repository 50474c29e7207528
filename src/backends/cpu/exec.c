/* Running a cpu executable (see cpu.h): the steps in order over one run state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/dnnl_ops.h"
#include "backends/cpu/fft.h"
#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"
#include "backends/interp/collectives.h"
#include "backends/lapack/lapack.h"
#include "base/fault.h"
#include "base/host_memory.h"

struct kiln_cpu_run_state {
  kiln_cpu_run_state *next; /* in the executable's pool */
  int32_t *take;            /* by result: the input tensor it takes (plan_takes), or -1 */
  void **ptr;               /* by value id */
  kiln_rtv **frame;         /* by value id: interpreter values (owned) and views */
  kiln_cpu_tensor **held;   /* by value id: tensors control-flow steps made (owned) */
  void **bufs;              /* argument arrays of the loop steps, back to back */
  kiln_cpu_tensor **view;   /* by value id: the tensor a control step reads it through (typed once) */
  kiln_cpu_tensor *views;   /* the views, one block */
  kiln_cpu_tensor **ctl;    /* a control step's values, then its results */
  kiln_cpu_bin bin;         /* for the control steps (kept from run to run) */
  /* The warm-up's results (by result; NULL when none), kept for the next run to make its
   * results in: memory the warm-up has paged in, which the allocator's cache would hand to
   * whoever asks first (a caller's input buffer of the same size, say). */
  kiln_cpu_tensor **warm_results;
  uint8_t *arena;
  uint64_t arena_bytes;
};

/* ---------------------------------------------------------------- run states */

static int32_t loop_args(const kiln_cpu_executable *x) {
  int32_t n = 0;
  for (int32_t s = 0; s < x->num_steps; s++) /* a step's values, then a loop's numbers (loop.h) */
    if (x->steps[s].kind != KILN_CPU_STEP_INTERP && x->steps[s].kind != KILN_CPU_STEP_CONTROL) n += x->steps[s].num_values + 1;
  return n;
}

/* What control_values marks a value with. */
static kiln_cpu_tensor g_read_mark;

/* The most values and the most results of x's control steps; sets read[v] to &g_read_mark
 * for each value they read, and returns how many. */
static int32_t control_values(const kiln_cpu_executable *x, int32_t *values, int32_t *results, kiln_cpu_tensor **read) {
  int32_t n = 0;
  *values = *results = 0;
  for (int32_t s = 0; s < x->num_steps; s++) {
    const kiln_cpu_step *step = &x->steps[s];
    if (step->kind != KILN_CPU_STEP_CONTROL) continue;
    if (step->num_values > *values) *values = step->num_values;
    if (step->op->num_results > *results) *results = step->op->num_results;
    for (int32_t k = 0; k < step->num_values; k++) {
      int32_t v = step->values[k];
      if (!read[v]) read[v] = &g_read_mark, n++;
    }
  }
  return n;
}

/* s's views of the values x's control steps read (s->view, typed; their data set per run). */
static bool make_views(const kiln_cpu_executable *x, kiln_cpu_run_state *s) {
  int32_t cv = 0, cr = 0;
  s->view = calloc((size_t)x->num_slots + 1, sizeof *s->view);
  int32_t n = s->view ? control_values(x, &cv, &cr, s->view) : 0;
  s->views = calloc((size_t)n + 1, sizeof *s->views);
  s->ctl = calloc((size_t)cv + (size_t)cr + 1, sizeof *s->ctl);
  if (!s->view || !s->views || !s->ctl) return false;
  kiln_cpu_tensor *w = s->views;
  for (int32_t v = 0; v < x->num_slots; v++)
    if (s->view[v] == &g_read_mark) {
      (void)kiln_cpu_tensor_set_type(w, x->slots[v].type); /* a value of no tensor type (a captured token): empty */
      s->view[v] = w++;
    }
  return true;
}

/* Frees what is left of s's warm-up results. */
static void drop_warm_results(const kiln_cpu_executable *x, kiln_cpu_run_state *s) {
  for (int32_t k = 0; s->warm_results && k < x->num_results; k++) kiln_cpu_tensor_free(s->warm_results[k]);
  free(s->warm_results);
  s->warm_results = NULL;
}

static void state_free(const kiln_cpu_executable *x, kiln_cpu_run_state *s) {
  if (!s) return;
  drop_warm_results(x, s);
  kiln_cpu_bin_clear(&s->bin);
  free(s->view);
  free(s->views);
  free(s->ctl);
  free(s->take);
  free(s->ptr);
  free(s->frame);
  free(s->held);
  free(s->bufs);
  kiln_host_free(s->arena, s->arena_bytes);
  free(s);
}

/* An idle run state of x, or a new one (*made true): its CONST and TEMP slots' pointers
 * set, the others NULL. */
static kiln_cpu_run_state *state_take(kiln_cpu_executable *x, bool *made) {
  *made = false;
  if (kiln_fault_point()) return NULL;
  kiln_cpu_run_state *s = atomic_exchange_explicit(&x->idle, NULL, memory_order_acquire);
  if (s) return s;
  pthread_mutex_lock(&x->pool_lock);
  s = x->pool;
  if (s) x->pool = s->next;
  pthread_mutex_unlock(&x->pool_lock);
  if (s) return s;
  *made = true;
  s = calloc(1, sizeof *s);
  if (!s) return NULL;
  size_t n = (size_t)x->num_slots + 1;
  s->take = calloc((size_t)x->num_results + 1, sizeof *s->take);
  s->ptr = calloc(n, sizeof *s->ptr);
  s->frame = calloc(n, sizeof *s->frame);
  s->held = calloc(n, sizeof *s->held);
  s->bufs = calloc((size_t)loop_args(x) + 1, sizeof *s->bufs);
  bool viewed = make_views(x, s);
  s->arena_bytes = x->arena_bytes;
  s->arena = kiln_host_alloc(x->arena_bytes);
  if (!s->take || !s->ptr || !s->frame || !s->held || !s->bufs || !viewed || !s->arena) {
    state_free(x, s);
    return NULL;
  }
  for (int32_t v = 0; v < x->num_slots; v++) { /* what no run changes */
    const kiln_cpu_slot *sl = &x->slots[v];
    if (sl->store == KILN_CPU_STORE_CONST) s->ptr[v] = (void *)sl->data;
    else if (sl->store == KILN_CPU_STORE_TEMP || sl->store == KILN_CPU_STORE_LOCAL) s->ptr[v] = s->arena + sl->offset;
  }
  return s;
}

static void state_give(kiln_cpu_executable *x, kiln_cpu_run_state *s) {
  kiln_cpu_run_state *none = NULL;
  if (atomic_compare_exchange_strong_explicit(&x->idle, &none, s, memory_order_release, memory_order_relaxed)) return;
  pthread_mutex_lock(&x->pool_lock);
  s->next = x->pool;
  x->pool = s;
  pthread_mutex_unlock(&x->pool_lock);
}

/* Marks the values of op's regions (block arguments, results): an interpreter step that
 * runs op writes them into the run's frame. */
static void mark_region_values(const kiln_op *op, int32_t num_slots, bool *kept) {
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next) {
      for (int32_t i = 0; i < b->num_args; i++)
        if (b->args[i].id >= 0 && b->args[i].id < num_slots) kept[b->args[i].id] = true;
      for (const kiln_op *inner = b->first; inner; inner = inner->next) {
        for (int32_t i = 0; i < inner->num_results; i++)
          if (inner->results[i].id >= 0 && inner->results[i].id < num_slots) kept[inner->results[i].id] = true;
        mark_region_values(inner, num_slots, kept);
      }
    }
}

bool kiln_cpu_index_slots(kiln_cpu_executable *x) {
  bool *kept = calloc((size_t)x->num_slots + 1, sizeof *kept);
  if (!kept) return false;
  int32_t run = 0, nkept = 0;
  for (int32_t s = 0; s < x->num_steps; s++)
    if (x->steps[s].kind == KILN_CPU_STEP_INTERP) mark_region_values(x->steps[s].op, x->num_slots, kept);
  for (int32_t v = 0; v < x->num_slots; v++) {
    kiln_cpu_store st = x->slots[v].store;
    run += st == KILN_CPU_STORE_INPUT || st == KILN_CPU_STORE_RESULT;
    kept[v] = kept[v] || st == KILN_CPU_STORE_INTERP || st == KILN_CPU_STORE_HELD;
    nkept += kept[v];
  }
  x->run_slots = kiln_arena_alloc_array(x->arena, (size_t)run + 1, sizeof *x->run_slots);
  x->kept_slots = kiln_arena_alloc_array(x->arena, (size_t)nkept + 1, sizeof *x->kept_slots);
  bool ok = x->run_slots && x->kept_slots;
  x->num_run_slots = x->num_kept_slots = 0;
  for (int32_t v = 0; ok && v < x->num_slots; v++) {
    kiln_cpu_store st = x->slots[v].store;
    if (st == KILN_CPU_STORE_INPUT || st == KILN_CPU_STORE_RESULT) x->run_slots[x->num_run_slots++] = v;
    if (kept[v]) x->kept_slots[x->num_kept_slots++] = v;
  }
  free(kept);
  return ok;
}

static uint64_t now_ns(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC); /* C11; profiling only */
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* What runs a step, for the profile. A switch with no default: a new kind without a name
 * is a compile error (-Wswitch). */
static const char *step_kind_name(kiln_cpu_step_kind kind) {
  switch (kind) {
    case KILN_CPU_STEP_LOOP: return "loop";
    case KILN_CPU_STEP_DNNL: return "oneDNN";
    case KILN_CPU_STEP_INTERP: return "interpreter";
    case KILN_CPU_STEP_CONTROL: return "control";
    case KILN_CPU_STEP_SORT: return "sort";
    case KILN_CPU_STEP_DYNSLICE: return "slice";
    case KILN_CPU_STEP_GATHER: return "gather";
    case KILN_CPU_STEP_SCATTER: return "scatter";
    case KILN_CPU_STEP_WINDOW: return "window";
    case KILN_CPU_STEP_FFT: return "fft";
    case KILN_CPU_STEP_LAPACK: return "lapack";
    case KILN_CPU_STEP_CONCAT: return "concatenate";
    case KILN_CPU_STEP_NATIVE: return "native";
  }
  return "?";
}

enum { MAX_PROFILE_KINDS = 32 };

/* KILN_CPU_PROFILE: the time per step kind, the steps that took over 1% of it and every
 * interpreter step, each with the op and line it comes from. */
static void print_profile(const kiln_cpu_executable *x) {
  if (x->specs) {
    fprintf(stderr, "kiln cpu profile: @%s is shape-polymorphic: the profiles above are its signatures'\n",
            kiln_func_name(x->function));
    return;
  }
  if (x->whole_interp) {
    fprintf(stderr, "kiln cpu profile: @%s runs whole in the interpreter, %llu ops interpreted\n",
            kiln_func_name(x->function), (unsigned long long)kiln_cpu_interpreted_ops(x));
    return;
  }
  uint64_t total = 0, kind_ns[MAX_PROFILE_KINDS] = {0};
  int32_t kind_steps[MAX_PROFILE_KINDS] = {0};
  for (int32_t i = 0; i < x->num_steps; i++) {
    total += x->step_ns[i];
    unsigned k = (unsigned)x->steps[i].kind;
    if (k < MAX_PROFILE_KINDS) {
      kind_ns[k] += x->step_ns[i];
      kind_steps[k]++;
    }
  }
  fprintf(stderr, "kiln cpu profile: @%s, %d steps, %.3f ms in all, %llu ops interpreted\n", kiln_func_name(x->function),
          (int)x->num_steps, (double)total / 1e6, (unsigned long long)kiln_cpu_interpreted_ops(x));
  fprintf(stderr, "  by kind:");
  for (unsigned k = 0; k < MAX_PROFILE_KINDS; k++)
    if (kind_steps[k])
      fprintf(stderr, " %s %.1f%% (%d step%s)", step_kind_name((kiln_cpu_step_kind)k),
              total ? 100.0 * (double)kind_ns[k] / (double)total : 0.0, (int)kind_steps[k], kind_steps[k] == 1 ? "" : "s");
  fprintf(stderr, "\n");
  for (int32_t i = 0; i < x->num_steps; i++) {
    const kiln_cpu_step *st = &x->steps[i];
    bool interp = st->kind == KILN_CPU_STEP_INTERP;
    if (!interp && (!x->step_ns[i] || x->step_ns[i] * 100 < total)) continue; /* under 1% */
    fprintf(stderr, "  %5.1f%%  step %d  %-11s %s (line %u)%s\n",
            total ? 100.0 * (double)x->step_ns[i] / (double)total : 0.0, (int)i, step_kind_name(st->kind),
            kiln_op_name(st->op->kind), st->op->loc.line, st->run_length > 1 ? "  + its row-block run" : "");
  }
}

void kiln_cpu_executable_destroy(kiln_cpu_executable *x) {
  if (!x) return;
  kiln_cpu_specs_destroy(x->specs);
  if (x->step_ns) {
    print_profile(x);
    free(x->step_ns);
  }
  state_free(x, atomic_load(&x->idle));
  while (x->pool) {
    kiln_cpu_run_state *s = x->pool;
    x->pool = s->next;
    state_free(x, s);
  }
  for (int32_t s = 0; s < x->num_steps; s++) {
    if (x->steps[s].dnnl) kiln_cpu_dnnl_destroy(x->steps[s].dnnl);
    kiln_cpu_control_destroy(x->steps[s].control);
    kiln_cpu_sort_destroy(x->steps[s].sort);
    kiln_cpu_dynslice_destroy(x->steps[s].dynslice);
    kiln_cpu_gather_destroy(x->steps[s].gather);
    kiln_cpu_scatter_destroy(x->steps[s].scatter);
    kiln_cpu_window_destroy(x->steps[s].window);
    kiln_fft_plan_destroy(x->steps[s].fft);
    kiln_lapack_destroy(x->steps[s].lapack);
    kiln_cpu_concat_destroy(x->steps[s].concat);
    kiln_cpu_native_destroy(x->steps[s].native);
  }
  kiln_cpu_code_destroy(x->code);
  if (x->owns_interp) kiln_interp_destroy(x->interp);
  kiln_arena_destroy(x->arena);
  kiln_module_destroy(x->scratch);
  pthread_mutex_destroy(&x->pool_lock);
  free(x);
}

/* ---------------------------------------------------------------- running */

static void *data_of(const kiln_cpu_executable *x, kiln_cpu_run_state *s, int32_t v) {
  while (x->slots[v].store == KILN_CPU_STORE_ALIAS) v = x->slots[v].index;
  return s->ptr[v];
}

/* The interpreter value of v: its own (INTERP), or a view of its bytes. */
static kiln_status rtv_of(const kiln_cpu_executable *x, kiln_cpu_run_state *s, int32_t v, kiln_rtv **out) {
  if (x->slots[v].store == KILN_CPU_STORE_INTERP) {
    *out = kiln_rtv_retain(s->frame[v]);
    return NULL;
  }
  const kiln_type *t = x->slots[v].type;
  return kiln_rtv_view(kiln_type_element(t), t->tensor.rank, t->tensor.dims, data_of(x, s, v), out);
}

static kiln_status own_view(kiln_rtv *view) {
  size_t bytes = (size_t)view->count * view->elem_bytes;
  void *copy = kiln_host_alloc(bytes); /* freed with the value (kiln_rtv_release) */
  if (!copy) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (bytes) memcpy(copy, view->data, bytes);
  view->data = copy;
  view->borrowed = false;
  return NULL;
}

static kiln_status run_interp_step(const kiln_cpu_executable *x, kiln_cpu_run_state *s, const kiln_cpu_step *step,
                                   kiln_check_log *checks) {
  kiln_status st = NULL;
  for (int32_t k = 0; !st && k < step->num_values; k++) {
    int32_t v = step->values[k];
    if (x->slots[v].store != KILN_CPU_STORE_INTERP) st = rtv_of(x, s, v, &s->frame[v]);
  }
  kiln_interp_ctx ctx = {.interp = x->interp, .frame = s->frame, .checks = checks, .print_out = stdout};
  kiln_interp_ctx_join_bound(&ctx); /* a collective meets the run's other partitions */
  if (!st) st = kiln_interp_exec_op(&ctx, step->op);
  for (int32_t k = 0; k < step->num_values; k++) { /* drop the views */
    int32_t v = step->values[k];
    if (x->slots[v].store == KILN_CPU_STORE_INTERP) continue;
    kiln_rtv *view = s->frame[v];
    /* a kernel that kept the view (a probe, an op returning its operand) gets its own copy
     * of the bytes: the memory it borrowed is reused by later steps */
    if (view && !st && atomic_load(&view->refs) > 1) st = own_view(view);
    kiln_rtv_release(view);
    s->frame[v] = NULL;
  }
  for (int32_t i = 0; !st && i < step->op->num_results; i++) {
    kiln_rtv *r = s->frame[step->op->results[i].id];
    s->ptr[step->op->results[i].id] = r && r->kind == KILN_RTV_TENSOR ? r->data : NULL;
  }
  return st;
}

/* A new tensor for result k of type t: spares[k] when the caller gave one of that type
 * (taken: spares[k] becomes NULL), else fresh memory. */
static kiln_status new_result(const kiln_type *t, int32_t k, kiln_cpu_tensor **spares, kiln_cpu_tensor **out) {
  kiln_cpu_tensor *sp = spares ? spares[k] : NULL;
  if (sp && !sp->hold && !sp->donated && sp->elem == kiln_type_elem(t) && sp->rank == t->tensor.rank &&
      (sp->rank == 0 || !memcmp(sp->dims, t->tensor.dims, sizeof *sp->dims * (size_t)sp->rank))) {
    spares[k] = NULL;
    *out = sp;
    return NULL;
  }
  return kiln_cpu_tensor_new(kiln_type_elem(t), t->tensor.rank, t->tensor.dims, out);
}

static kiln_status make_result(kiln_cpu_executable *x, kiln_cpu_run_state *s, int32_t k, kiln_cpu_tensor **spares,
                               kiln_cpu_tensor **out) {
  int32_t v = x->result_values[k];
  const kiln_type *t = x->slots[v].type;
  if (x->slots[v].store == KILN_CPU_STORE_INTERP) {
    kiln_rtv *r = s->frame[v];
    kiln_cpu_tensor *c = kiln_fault_calloc(1, sizeof *c);
    if (!c) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    c->elem = r->elem;
    c->rank = r->rank;
    memcpy(c->dims, r->dims, sizeof *r->dims * (size_t)r->rank);
    c->bytes = (uint64_t)r->count * r->elem_bytes;
    c->data = r->data;
    c->hold = kiln_rtv_retain(r);
    *out = c;
    return NULL;
  }
  if (x->slots[v].store == KILN_CPU_STORE_HELD && s->held[v]) { /* moved out (a second use copies) */
    *out = s->held[v];
    s->held[v] = NULL;
    return NULL;
  }
  KILN_RETURN_IF_ERROR(new_result(t, k, spares, out));
  if ((*out)->bytes) memcpy((*out)->data, data_of(x, s, v), (*out)->bytes);
  kiln_cpu_count_copy(x, (*out)->bytes);
  return NULL;
}

/* A donated input's tensor t made the tensor of result value v: t takes v's shape (same
 * element type and bytes: donate.c) and is no longer an input. */
static kiln_cpu_tensor *adopt(const kiln_cpu_executable *x, kiln_cpu_tensor *t, int32_t v) {
  const kiln_type *type = x->slots[v].type;
  t->rank = type->tensor.rank;
  if (t->rank) memcpy(t->dims, type->tensor.dims, sizeof *t->dims * (size_t)t->rank);
  t->donated = false;
  return t;
}

/* Which input tensor each result takes in this run (take[k], -1: none): a while body's
 * result_from_input, or a donated input planned for it (x->donors), each input once. */
static void plan_takes(const kiln_cpu_executable *x, kiln_cpu_tensor *const *inputs, int32_t *take) {
  for (int32_t k = 0; k < x->num_results; k++) take[k] = x->result_from_input ? x->result_from_input[k] : -1;
  for (int32_t k = 0; x->donors && k < x->num_results; k++) {
    int32_t i = x->donors[k].input;
    if (x->donors[k].how == KILN_CPU_REUSE_NONE || !inputs[i]->donated) continue;
    bool taken = false;
    for (int32_t j = 0; j < k; j++) taken = taken || take[j] == i;
    if (!taken) take[k] = i;
  }
}

/* Result k made from the donated input tensor t it takes: MOVE hands t over (it holds the
 * result's bytes), COPY copies the result into it. */
static void make_donated_result(kiln_cpu_executable *x, kiln_cpu_run_state *s, int32_t k, kiln_cpu_tensor *t,
                                kiln_cpu_tensor **out) {
  int32_t v = x->result_values[k];
  if (x->donors[k].how == KILN_CPU_REUSE_COPY && t->bytes) {
    memcpy(t->data, data_of(x, s, v), t->bytes);
    kiln_cpu_count_copy(x, t->bytes);
  }
  *out = adopt(x, t, v);
}

/* A LAPACK step's matrices go over the pool (lapack.h's kiln_lapack_threads). */
static int32_t lapack_parts(void *pool, int64_t work, int64_t max_parts) {
  return kiln_cpu_pool_chunks(pool, work, max_parts);
}
static void lapack_run(void *pool, int32_t parts, int64_t work, kiln_lapack_part_fn fn, void *arg) {
  kiln_cpu_pool_run(pool, parts, work, fn, arg);
}

/* A control-flow step: its values as tensors (the held ones, or views), its results held. */

static kiln_status run_control_step(const kiln_cpu_executable *x, kiln_cpu_run_state *s, const kiln_cpu_step *step,
                                    kiln_check_log *checks) {
  int32_t n = step->num_values, nr = step->op->num_results;
  kiln_cpu_tensor **in = s->ctl, **out = s->ctl + n; /* the run state's room (control_values) */
  for (int32_t k = 0; k < n; k++) {
    int32_t v = step->values[k];
    if (x->slots[v].store == KILN_CPU_STORE_HELD && s->held[v]) {
      in[k] = s->held[v];
      continue;
    }
    in[k] = s->view[v];
    in[k]->data = data_of(x, s, v);
  }
  for (int32_t i = 0; i < nr; i++) out[i] = NULL;
  kiln_status st = kiln_cpu_control_run(step, in, out, &s->bin, checks);
  for (int32_t i = 0; !st && i < nr; i++) { /* out[i] NULL: a result nothing reads (kiln_cpu_control_mark_dead) */
    int32_t v = step->op->results[i].id;
    kiln_cpu_bin_put(&s->bin, s->held[v]);
    s->held[v] = out[i];
    s->ptr[v] = out[i] ? out[i]->data : NULL;
  }
  return st;
}


/* A scatter or dynamic_update_slice step that copies its operand (values[0]) whole
 * before updating the copy. */
static void count_operand_copy(kiln_cpu_executable *x, const kiln_cpu_step *step) {
  const kiln_type *t = x->slots[step->values[0]].type;
  kiln_cpu_count_copy(x, (uint64_t)t->tensor.num_elements * kiln_elem_storage_bytes(kiln_type_elem(t)));
}

/* A warm-up run's stand-in for a step it skips (interpreter and control-flow steps, which
 * may have effects or loop on data): zeros of each tensor result's type. */
static kiln_status zero_results(const kiln_cpu_executable *x, kiln_cpu_run_state *s, const kiln_cpu_step *step) {
  for (int32_t i = 0; i < step->op->num_results; i++) {
    int32_t v = step->op->results[i].id;
    const kiln_type *t = x->slots[v].type;
    if (!t || !kiln_type_is_tensor(t)) continue;
    kiln_cpu_tensor_free(s->held[v]);
    s->held[v] = NULL;
    KILN_RETURN_IF_ERROR(kiln_cpu_tensor_new(kiln_type_elem(t), t->tensor.rank, t->tensor.dims, &s->held[v]));
    memset(s->held[v]->data, 0, s->held[v]->bytes);
    s->ptr[v] = s->held[v]->data;
  }
  return NULL;
}

/* Marks step s of x as executed; the first execution of a step the warm-up runs, when a
 * run rather than the warm-up makes it, is a preparation the compile left to the run. */
static void mark_ran(kiln_cpu_executable *x, int32_t s, bool warm) {
  kiln_cpu_step *step = &x->steps[s];
  if (atomic_load_explicit(&step->ran, memory_order_relaxed) || atomic_exchange(&step->ran, true)) return;
  if (!warm && step->kind != KILN_CPU_STEP_INTERP && step->kind != KILN_CPU_STEP_CONTROL)
    atomic_fetch_add_explicit(&x->prepared_in_runs, 1, memory_order_relaxed);
}

static void add_prepared(const kiln_cpu_executable *x, void *total) {
  *(uint64_t *)total += atomic_load_explicit(&x->prepared_in_runs, memory_order_relaxed);
}

uint64_t kiln_cpu_prepared_in_runs(const kiln_cpu_executable *x) {
  uint64_t total = 0;
  kiln_cpu_visit(x, add_prepared, &total);
  return total;
}

/* The steps a step starts (a LOOP step's run of them, else 1). */
static int32_t steps_of(const kiln_cpu_step *step) {
  return step->kind == KILN_CPU_STEP_LOOP && step->run_length > 1 ? step->run_length : 1;
}

/* The data pointers run_step takes for step (and the rest of its run). */
static int32_t args_of(const kiln_cpu_step *step) {
  int32_t n = 0;
  for (int32_t j = 0; j < steps_of(step); j++) n += step[j].num_values + 1;
  return n;
}

/* Runs step (not an interpreter or control-flow one) on its values' data pointers p (for
 * a LOOP step that starts a run of them, each step's arrays back to back: its values, then
 * its numbers, loop.h). */
static kiln_status run_step(kiln_cpu_executable *x, const kiln_cpu_step *step, void **p, bool warm) {
  int32_t n = step->num_values - 1; /* most kinds: the operands, then one result */
  switch (step->kind) {
    case KILN_CPU_STEP_LOOP: {
      int32_t runs = steps_of(step);
      void **args[KILN_CPU_MAX_RUN];
      for (int32_t j = 0; j < runs; p += step[j].num_values + 1, j++) args[j] = p;
      if (runs > 1) kiln_cpu_parallel_rows(step, runs, (void *const *const *)args);
      else kiln_cpu_parallel_for(step->fn, args[0], step->points, step->loop->grain, step->work);
      return NULL;
    }
    case KILN_CPU_STEP_DNNL: { /* lhs, rhs, a fused bias when there are four, result */
      kiln_cpu_dnnl_args a = {.lhs = p[0], .rhs = p[1], .bias = step->num_values == 4 ? p[2] : NULL, .out = p[n]};
      return kiln_cpu_dnnl_run_ex(step->dnnl, &a);
    }
    case KILN_CPU_STEP_DYNSLICE:
      if (!warm && step->op->kind == KILN_OP_DYNAMIC_UPDATE_SLICE && p[n] != p[0]) count_operand_copy(x, step);
      kiln_cpu_dynslice_run(step->dynslice, (const void *const *)p, p[n]);
      return NULL;
    case KILN_CPU_STEP_GATHER: kiln_cpu_gather_run(step->gather, p[0], p[1], p[2]); return NULL;
    case KILN_CPU_STEP_SCATTER: { /* operand (none when the scatter fills: compile.c), indices, updates, result */
      const void *operand = n == 3 ? p[0] : NULL;
      if (!warm && operand && operand != p[n]) count_operand_copy(x, step);
      kiln_cpu_scatter_run(step->scatter, operand, p[n - 2], p[n - 1], p[n]);
      return NULL;
    }
    case KILN_CPU_STEP_WINDOW: {
      const void *in[3] = {NULL, NULL, NULL};
      for (int32_t k = 0; k < n && k < 3; k++) in[k] = p[k];
      kiln_cpu_window_run(step->window, in, p[n]);
      return NULL;
    }
    case KILN_CPU_STEP_FFT: return kiln_fft_run(step->fft, p[0], p[1]);
    case KILN_CPU_STEP_LAPACK: {
      kiln_cpu_pool *pool = kiln_cpu_pool_shared();
      kiln_lapack_threads threads = {pool, kiln_cpu_pool_threads(pool), lapack_parts, lapack_run};
      return kiln_lapack_run(step->lapack, (const void *const *)p, p + step->op->num_operands, &threads);
    }
    case KILN_CPU_STEP_CONCAT: kiln_cpu_concat_run(step->concat, (const void *const *)p, p[n]); return NULL;
    case KILN_CPU_STEP_NATIVE: return kiln_cpu_native_run(step->native, (const void *const *)p, p + step->op->num_operands);
    case KILN_CPU_STEP_SORT: return kiln_cpu_sort_run(step->sort, (const void *const *)p, p + step->op->num_operands);
    case KILN_CPU_STEP_INTERP:
    case KILN_CPU_STEP_CONTROL: break;
  }
  return KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: step %s has no data run", kiln_op_name(step->op->kind));
}

/* Fills the data pointers of the steps [i, i + steps_of) into p (run_step's layout); returns
 * the entries it filled. */
static int32_t fill_args(const kiln_cpu_executable *x, kiln_cpu_run_state *s, const kiln_cpu_step *step, void **p) {
  int32_t used = 0;
  for (int32_t j = 0; j < steps_of(step); j++) {
    for (int32_t k = 0; k < step[j].num_values; k++) p[used++] = data_of(x, s, step[j].values[k]);
    p[used++] = step[j].kind == KILN_CPU_STEP_LOOP ? (void *)step[j].loop->slot_values : NULL; /* parametric code's numbers */
  }
  return used;
}

/* Runs x's steps in order on s, whose slots' pointers are set (warm: the compile's warm-up,
 * which gives interpreter and control-flow steps zero results instead of running them). */
static kiln_status exec_steps(kiln_cpu_executable *x, kiln_cpu_run_state *s, kiln_check_log *checks, bool warm) {
  kiln_status st = NULL;
  void **bufs = s->bufs;
  for (int32_t i = 0; !st && i < x->num_steps; i++) {
    const kiln_cpu_step *step = &x->steps[i];
    int32_t first = i;
    bool timed = x->step_ns && !warm;
    uint64_t t0 = timed ? now_ns() : 0;
    if (!warm && kiln_fault_point()) {
      st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: fault injected before step %d (%s)", (int)i, kiln_op_name(step->op->kind));
      break;
    }
    if (warm && (step->kind == KILN_CPU_STEP_INTERP || step->kind == KILN_CPU_STEP_CONTROL)) {
      st = zero_results(x, s, step);
      continue;
    }
    if (step->kind == KILN_CPU_STEP_INTERP) st = run_interp_step(x, s, step, checks);
    else if (step->kind == KILN_CPU_STEP_CONTROL) st = run_control_step(x, s, step, checks);
    else {
      void **p = bufs;
      bufs += fill_args(x, s, step, p);
      st = run_step(x, step, p, warm);
      i += steps_of(step) - 1;
    }
    mark_ran(x, first, warm);
    if (timed) atomic_fetch_add(&x->step_ns[first], now_ns() - t0);
  }
  return st;
}

/* One run of x's steps; warm (kiln_cpu_warm_up): no profile, the interpreter and
 * control-flow steps skipped (zero_results), no results made but the RESULT slots'.
 * spares (kiln_cpu_run_into): tensors results may be made in. */
static kiln_status run_steps(kiln_cpu_executable *x, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                             kiln_cpu_tensor **spares, kiln_check_log *checks, bool warm) {
  bool made = false;
  kiln_cpu_run_state *s = state_take(x, &made);
  if (!s) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu: out of memory for a run of %llu bytes",
                             (unsigned long long)x->arena_bytes);
  if (made && !warm) atomic_fetch_add_explicit(&x->prepared_in_runs, 1, memory_order_relaxed);
  kiln_status st = NULL;
  int32_t *take = s->take;
  kiln_cpu_tensor **warmed = !warm && !spares ? s->warm_results : NULL; /* this run's results made in them */
  if (warmed) spares = warmed;
  for (int32_t k = 0; k < x->num_results; k++) results[k] = NULL;
  if (warm)
    for (int32_t k = 0; k < x->num_results; k++) take[k] = -1;
  else plan_takes(x, inputs, take);
  for (int32_t i = 0; i < x->num_run_slots; i++) {
    int32_t v = x->run_slots[i];
    const kiln_cpu_slot *sl = &x->slots[v];
    if (sl->store == KILN_CPU_STORE_INPUT) s->ptr[v] = inputs[sl->index]->data;
    else if (st) break;
    else if (take[sl->index] >= 0 && x->result_values[sl->index] == v) { /* given up by the caller */
      kiln_cpu_tensor *t = inputs[take[sl->index]];
      results[sl->index] = t->donated ? adopt(x, t, v) : t;
      s->ptr[v] = results[sl->index]->data;
    } else { /* v may be the base of the result (a returned reshape): the result's type */
      st = new_result(x->slots[x->result_values[sl->index]].type, sl->index, spares, &results[sl->index]);
      if (!st) s->ptr[v] = results[sl->index]->data;
    }
  }
  if (!st) st = exec_steps(x, s, checks, warm);
  for (int32_t k = 0; !st && !warm && k < x->num_results; k++) {
    if (x->skip_result && x->skip_result[k]) continue;
    int32_t v = x->result_values[k], b = kiln_cpu_alias_base(x, v);
    if (x->slots[b].store == KILN_CPU_STORE_RESULT && x->slots[b].index == k) continue;
    if (take[k] >= 0) make_donated_result(x, s, k, inputs[take[k]], &results[k]);
    else st = make_result(x, s, k, spares, &results[k]);
  }
  for (int32_t i = 0; i < x->num_kept_slots; i++) {
    int32_t v = x->kept_slots[i];
    kiln_rtv_release(s->frame[v]);
    s->frame[v] = NULL;
    kiln_cpu_bin_put(&s->bin, s->held[v]);
    s->held[v] = NULL;
    s->ptr[v] = NULL;
  }
  if (warmed) drop_warm_results(x, s);
  if (warm && !st && !s->warm_results && (s->warm_results = calloc((size_t)x->num_results + 1, sizeof *results)))
    for (int32_t k = 0; k < x->num_results; k++) { /* kept for the next run */
      s->warm_results[k] = results[k];
      results[k] = NULL;
    }
  for (int32_t k = 0; (st || warm) && k < x->num_results; k++) {
    /* an input given up stays the caller's when the run fails */
    if (take[k] >= 0) results[k] = NULL;
    kiln_cpu_tensor_free(results[k]);
    results[k] = NULL;
  }
  state_give(x, s);
  return st;
}

kiln_cpu_run_state *kiln_cpu_state_take(kiln_cpu_executable *x) {
  bool made = false;
  kiln_cpu_run_state *s = state_take(x, &made);
  if (s && made) atomic_fetch_add_explicit(&x->prepared_in_runs, 1, memory_order_relaxed);
  return s;
}

void kiln_cpu_state_give(kiln_cpu_executable *x, kiln_cpu_run_state *s) {
  if (s) state_give(x, s);
}

int32_t kiln_cpu_lean_size(const kiln_cpu_executable *x) { return loop_args(x); }

void kiln_cpu_lean_fill(const kiln_cpu_executable *x, kiln_cpu_run_state *s, kiln_cpu_tensor *const *inputs,
                        kiln_cpu_tensor *const *results, void **args, bool *alone) {
  for (int32_t i = 0; i < x->num_run_slots; i++) {
    int32_t v = x->run_slots[i];
    const kiln_cpu_slot *sl = &x->slots[v];
    s->ptr[v] = (sl->store == KILN_CPU_STORE_INPUT ? inputs : results)[sl->index]->data;
  }
  for (int32_t i = 0; i < x->num_steps; i += steps_of(&x->steps[i])) {
    const kiln_cpu_step *step = &x->steps[i];
    args += fill_args(x, s, step, args);
    alone[i] = step->kind == KILN_CPU_STEP_LOOP && steps_of(step) == 1 &&
               kiln_cpu_parallel_alone(step->points, step->loop->grain, step->work);
  }
}

kiln_status kiln_cpu_replay(kiln_cpu_executable *x, void **args, const bool *alone) {
  for (int32_t i = 0; i < x->num_steps; i += steps_of(&x->steps[i])) {
    const kiln_cpu_step *step = &x->steps[i];
    if (kiln_fault_point())
      return KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: fault injected before step %d (%s)", (int)i, kiln_op_name(step->op->kind));
    uint64_t t0 = x->step_ns ? now_ns() : 0;
    if (alone[i]) step->fn(args, 0, step->points);
    else KILN_RETURN_IF_ERROR(run_step(x, step, args, false));
    mark_ran(x, i, false);
    if (x->step_ns) atomic_fetch_add(&x->step_ns[i], now_ns() - t0);
    args += args_of(step);
  }
  return NULL;
}

kiln_status kiln_cpu_step_hook(void *x, int32_t s, void **args) {
  kiln_cpu_executable *e = x;
  return run_step(e, &e->steps[s], args, false);
}

kiln_status kiln_cpu_run(kiln_cpu_executable *x, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                         kiln_check_log *checks) {
  return kiln_cpu_run_into(x, inputs, results, NULL, checks);
}

kiln_status kiln_cpu_run_into(kiln_cpu_executable *x, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                              kiln_cpu_tensor **spares, kiln_check_log *checks) {
  /* every result is NULL until made, so a failing run frees only what it made */
  for (int32_t k = 0; k < x->num_function_results; k++) results[k] = NULL;
  if (x->specs) {
    bool ran = false;
    kiln_status st = kiln_cpu_specs_run(x->specs, inputs, results, checks, &ran);
    if (ran || st) return st;
  }
  if (x->whole_interp) return kiln_cpu_run_interpreted(x->interp, x->function, inputs, results, checks, NULL, NULL, NULL);
  return run_steps(x, inputs, results, spares, checks, false);
}

/* The most bytes of zero inputs a warm-up makes: a program with larger inputs pays its
 * first-run costs in its first run. */
#define WARM_UP_MAX_INPUT_BYTES ((int64_t)256 << 20)

/* The warm-up runs a program whose run it estimates (run_cost_ns) at WARM_UP_RUN_MAX_NS at
 * most; a longer one is prepared without a run (prepare_memory). A run on zeros pays a
 * long program's compute again for little: what its first run pays once is mostly memory
 * and oneDNN's gemm kernels, both prepared without it (the zoo's large models, 2026-12-07:
 * compiles 10-80 ms shorter, first runs 1.0-2.2x their medians against 1.0-1.5x warmed
 * up). The estimate counts every byte a step reads or writes at NS_PER_BYTE, and each
 * multiply-add of a oneDNN step at NS_PER_MAC per 4 bytes of its source's elements (f32;
 * half that for 16-bit ones): the zoo's estimates are 0.5x to 3x their medians on 2
 * threads of an AVX-512 host. */
#define WARM_UP_RUN_MAX_NS 2e6
#define NS_PER_BYTE 0.1
#define NS_PER_MAC 0.01

static double type_bytes(const kiln_type *t) {
  return t && kiln_type_is_tensor(t) && t->tensor.num_elements > 0
             ? (double)t->tensor.num_elements * kiln_elem_storage_bytes(kiln_type_elem(t))
             : 0;
}

static double run_cost_ns(const kiln_cpu_executable *x) {
  double ns = 0;
  for (int32_t i = 0; i < x->num_steps; i++) {
    const kiln_cpu_step *step = &x->steps[i];
    if (step->kind == KILN_CPU_STEP_INTERP || step->kind == KILN_CPU_STEP_CONTROL) continue; /* not run (zero_results) */
    for (int32_t k = 0; k < step->num_values; k++) ns += type_bytes(x->slots[step->values[k]].type) * NS_PER_BYTE;
    const kiln_type *src = step->num_values ? x->slots[step->values[0]].type : NULL;
    if (step->kind == KILN_CPU_STEP_DNNL && src && kiln_type_is_tensor(src))
      ns += (double)kiln_cpu_dnnl_macs(step->dnnl) * NS_PER_MAC * kiln_elem_storage_bytes(kiln_type_elem(src)) / 4;
  }
  return ns;
}

/* What a first run of x would pay for memory, paid now: its run state with the arena's
 * pages made resident, and a block for each result, resident, for the first run to write
 * its results into (as the warm-up's results are). */
static void prepare_memory(kiln_cpu_executable *x) {
  bool made;
  kiln_cpu_run_state *s = state_take(x, &made);
  if (!s) return;
  kiln_host_populate(s->arena, s->arena_bytes);
  if (!s->warm_results) s->warm_results = calloc((size_t)x->num_results + 1, sizeof *s->warm_results);
  for (int32_t k = 0; s->warm_results && k < x->num_results; k++) {
    const kiln_type *t = x->slots[x->result_values[k]].type;
    if (!t || !kiln_type_is_tensor(t) || !kiln_type_is_static(t) ||
        kiln_cpu_tensor_new(kiln_type_elem(t), t->tensor.rank, t->tensor.dims, &s->warm_results[k]))
      continue; /* best effort: the first run makes what is missing */
    kiln_host_populate(s->warm_results[k]->data, s->warm_results[k]->bytes);
  }
  state_give(x, s);
}

void kiln_cpu_warm_up(kiln_cpu_executable *x) {
  if (x->whole_interp) return;
  for (int32_t i = 0; i < x->num_steps; i++)
    if (x->steps[i].kind == KILN_CPU_STEP_DNNL) kiln_cpu_dnnl_prepare_library(x->steps[i].dnnl);
  if (x->quick || run_cost_ns(x) > WARM_UP_RUN_MAX_NS) {
    prepare_memory(x);
    return;
  }
  const kiln_type *ft = kiln_func_type(x->planned);
  int32_t ni = ft->func.num_inputs, nr = x->num_results;
  kiln_cpu_tensor *in = calloc((size_t)ni + 1, sizeof *in);
  kiln_cpu_tensor **ins = calloc((size_t)ni + 1, sizeof *ins), **out = calloc((size_t)nr + 1, sizeof *out);
  bool ok = in && ins && out;
  int64_t total = 0;
  for (int32_t i = 0; ok && i < ni; i++) {
    kiln_cpu_tensor *w = &in[i];
    ok = kiln_cpu_tensor_set_type(w, ft->func.inputs[i]) && kiln_add_i64(total, (int64_t)w->bytes, &total) &&
         total <= WARM_UP_MAX_INPUT_BYTES;
    /* calloc: untouched zero pages, so large inputs cost little */
    if (ok) ok = (w->data = calloc(1, w->bytes ? (size_t)w->bytes : 1)) != NULL;
    ins[i] = w;
  }
  /* best effort: a step that fails here fails again, reported, in the first real run */
  if (ok) kiln_status_free(run_steps(x, ins, out, NULL, NULL, true));
  else prepare_memory(x);
  for (int32_t i = 0; in && i < ni; i++) free(in[i].data);
  free(in);
  free(ins);
  free(out);
}

/* ---------------------------------------------------------------- whole functions */

kiln_status kiln_cpu_run_interpreted(const kiln_interp *interp, const kiln_op *function, kiln_cpu_tensor *const *inputs,
                                     kiln_cpu_tensor **results, kiln_check_log *checks, kiln_interp_observer observe,
                                     void *observe_arg, const bool *shapes_only) {
  const kiln_type *ft = kiln_func_type(function);
  int32_t ni = ft->func.num_inputs, nr = ft->func.num_results;
  kiln_rtv **args = kiln_fault_calloc((size_t)ni + 1, sizeof *args), **res = kiln_fault_calloc((size_t)nr + 1, sizeof *res);
  kiln_status st = args && res ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; !st && i < ni; i++) {
    const kiln_type *t = ft->func.inputs[i];
    const kiln_cpu_tensor *in = inputs[i];
    if (in->hold && in->hold->kind != KILN_RTV_TENSOR) {
      args[i] = kiln_rtv_retain(in->hold);
      continue;
    }
    const kiln_type *et = kiln_type_is_tensor(t) ? kiln_type_element(t) : kiln_interp_scalar_type(in->elem);
    st = kiln_rtv_view(et, in->rank, in->dims, in->data, &args[i]);
  }
  kiln_interp_ctx ctx = {.interp = interp, .checks = checks, .print_out = stdout, .observe = observe,
                         .observe_arg = observe_arg, .shapes_only = shapes_only};
  kiln_interp_ctx_join_bound(&ctx);
  if (!st) st = kiln_interp_call(&ctx, function, args, ni, res);
  for (int32_t k = 0; !st && !shapes_only && k < nr; k++) {
    kiln_rtv *r = res[k];
    if (r->kind != KILN_RTV_TENSOR) { /* a token or tuple */
      if (!(results[k] = kiln_fault_calloc(1, sizeof *results[k]))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      else results[k]->hold = kiln_rtv_retain(r);
      continue;
    }
    /* results may outlive the program: copy into plain storage */
    st = kiln_cpu_tensor_new(r->elem, r->rank, r->dims, &results[k]);
    if (!st && results[k]->bytes) memcpy(results[k]->data, r->data, results[k]->bytes);
  }
  for (int32_t i = 0; args && i < ni; i++) { /* a view something kept gets its own bytes */
    if (!st && args[i] && args[i]->borrowed && atomic_load(&args[i]->refs) > 1) st = own_view(args[i]);
    kiln_rtv_release(args[i]);
  }
  for (int32_t k = 0; res && k < nr; k++) kiln_rtv_release(res[k]);
  if (st && !shapes_only)
    for (int32_t k = 0; k < nr; k++) {
      kiln_cpu_tensor_free(results[k]);
      results[k] = NULL;
    }
  free(args);
  free(res);
  return st;
}
