/* Tiered execution (tier.h): the fast-start tiers, the policy, the background compile queue. */
#include "backends/cpu/tier.h"

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum job_state { JOB_NONE, JOB_QUEUED, JOB_COMPILING, JOB_DONE } job_state;

struct kiln_cpu_tiered {
  const kiln_module *m;
  const kiln_source *src;
  const kiln_op *function;
  kiln_cpu_executable *start;                /* the fast-start tier's: baseline or quick; NULL when compiled first */
  _Atomic(kiln_cpu_executable *) optimized;  /* published once, by the compile thread */
  _Atomic uint64_t start_runs, optimized_runs;
  /* the run that queues the optimising compile (QUEUE_AT_RUN; 0: queued at compile or never) */
  uint64_t queue_at;
  /* under g_lock: */
  job_state state;
  kiln_cpu_tiered *next; /* in the queue */
};

/* ---------------------------------------------------------------- settings */

kiln_status kiln_cpu_tier_mode_from_env(kiln_cpu_tier_mode *out) {
  static const char *const names[] = {"auto", "tiered", "baseline", "quick", "optimized"};
  const char *v = getenv("KILN_CPU_TIER");
  *out = KILN_CPU_TIER_AUTO;
  if (!v || !*v) return NULL;
  for (int i = 0; i < 5; i++)
    if (!strcmp(v, names[i])) {
      *out = (kiln_cpu_tier_mode)i;
      return NULL;
    }
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     "cpu: KILN_CPU_TIER is '%s'; expected auto, tiered, baseline, quick or optimized", v);
}

/* ---------------------------------------------------------------- the policy */

/* Costs measured on this machine kind (AMD Zen 4; `bench/tiers.sh --parts calibrate`, and
 * quiet compile times of the zoo): an interpreted op costs 3 to 13 ns per element it reads
 * or writes (the interpreter's kernels and the copies in and out of its values) against
 * well under 1 ns in a generated loop; the optimising compile costs about 20 ms plus
 * 0.8 ms per op the baseline interprets (LLVM's share; the rest of a compile the baseline
 * pays too). A while body counts LOOP_TRIPS_GUESS times: its trip count is a run-time
 * value. */
enum { INTERP_PS_PER_ELEMENT = 8000, COMPILE_BASE_US = 20000, COMPILE_US_PER_OP = 800, LOOP_TRIPS_GUESS = 10 };

/* An interpreted op with a body (reduce, reduce_window, scatter, sort, map, ...) runs its
 * body once per element it folds or compares: a call of the interpreter on 0-d values,
 * about REGION_CALL_PS each (a running sum over 1024 elements, 2^20 calls of an add body,
 * takes 315 ms on the interpreter on an AMD Zen 3 core; cumulative_small's first run on the
 * fast-start tier was 55-92 ms, its estimate without these calls 1.6 ms). */
enum { REGION_CALL_PS = 300000 };

/* Under the policy, the optimising compile is queued by a program's second run: one run
 * once (an eager op, a test) never pays a compile, nor competes with the caller for the
 * cores; anything run again is compiled while it runs on. */
enum { QUEUE_AT_RUN = 2 };

static double value_elements(const kiln_type *t) {
  return kiln_type_is_tensor(t) && t->tensor.num_elements > 0 ? (double)t->tensor.num_elements : 1;
}

/* Elements a window op folds per result element (1 for any other op). */
static double window_volume(const kiln_op *op) {
  const kiln_attr *w = op->kind == KILN_OP_REDUCE_WINDOW || op->kind == KILN_OP_SELECT_AND_SCATTER
                           ? kiln_op_attr(op, "window_dimensions")
                           : NULL;
  double v = 1;
  for (int64_t i = 0; w && w->kind == KILN_ATTR_DENSE_ARRAY && i < w->dense_array.count; i++)
    if (w->dense_array.ints[i] > 0) v *= (double)w->dense_array.ints[i];
  return v;
}

/* How many times an interpreted op calls its body per run (0 for an op without one). */
static double region_calls(const kiln_op *op) {
  if (!op->num_regions || op->kind == KILN_OP_WHILE || op->kind == KILN_OP_IF || op->kind == KILN_OP_CASE) return 0;
  double in = op->num_operands ? value_elements(op->operands[0]->type) : 1;
  switch (op->kind) {
    case KILN_OP_REDUCE_WINDOW: return value_elements(op->results[0].type) * window_volume(op);
    case KILN_OP_SELECT_AND_SCATTER: /* a select per window element and a scatter per source element */
      return op->num_operands > 1 ? value_elements(op->operands[1]->type) * (window_volume(op) + 1) : in;
    case KILN_OP_SCATTER: /* once per update element */
      return op->num_operands >= 3 ? value_elements(op->operands[op->num_operands - 1]->type) : in;
    case KILN_OP_SORT: { /* a merge sort: n log2 n comparisons over all the slices */
      const kiln_type *t = op->operands[0]->type;
      const kiln_attr *da = kiln_op_attr(op, "dimension");
      int32_t rank = kiln_type_is_tensor(t) ? t->tensor.rank : 0;
      int64_t dim = da && da->kind == KILN_ATTR_INT ? kiln_attr_int(da) : rank - 1;
      if (dim < 0) dim += rank;
      int64_t d = dim >= 0 && dim < rank ? t->tensor.dims[dim] : 1;
      double lg = 1;
      for (int64_t m = 2; m < d; m *= 2) lg += 1;
      return in * lg;
    }
    default: return in; /* reduce, map, scan, ...: about once per element read */
  }
}

typedef struct interp_cost {
  double elements; /* elements the interpreted steps touch per run */
  double calls;    /* calls of their bodies */
  double ops;      /* interpreted steps */
  bool whole;      /* nothing planned: the interpreter runs the function either way */
} interp_cost;

/* Adds what x's interpreted steps cost per run (times weight), with those of its
 * control-flow regions. */
static void interpreted_cost(const kiln_cpu_executable *x, double weight, interp_cost *c) {
  if (x->whole_interp) {
    c->whole = true;
    return;
  }
  for (int32_t s = 0; s < x->num_steps; s++) {
    const kiln_cpu_step *step = &x->steps[s];
    if (step->kind == KILN_CPU_STEP_INTERP) {
      double n = 0;
      for (int32_t k = 0; k < step->op->num_operands; k++) n += value_elements(step->op->operands[k]->type);
      for (int32_t k = 0; k < step->op->num_results; k++)
        n += value_elements(step->op->results[k].type) * window_volume(step->op);
      c->elements += n * weight;
      c->calls += region_calls(step->op) * weight;
      c->ops += 1;
    } else if (step->kind == KILN_CPU_STEP_CONTROL) {
      const kiln_cpu_executable *const *regions;
      int32_t nr = kiln_cpu_control_regions(step->control, &regions);
      double w = weight * (step->op->kind == KILN_OP_WHILE ? LOOP_TRIPS_GUESS : 1);
      for (int32_t r = 0; r < nr; r++)
        if (regions[r]) interpreted_cost(regions[r], w, c);
    }
  }
}

typedef enum start_choice { START_BASELINE, START_QUICK, START_OPTIMIZED } start_choice;

/* Which tier a program starts on: the baseline when its extra cost per run is below what
 * the optimising compile would make the first result wait, else quick code; a function the
 * interpreter runs whole gains nothing from either and compiles first. KILN_CPU_PROFILE=1
 * prints the estimate and the choice. */
static start_choice choose_start(const kiln_cpu_executable *baseline) {
  interp_cost c = {0, 0, 0, false};
  interpreted_cost(baseline, 1, &c);
  double extra_us = (c.elements * INTERP_PS_PER_ELEMENT + c.calls * REGION_CALL_PS) / 1e6;
  double compile_us = COMPILE_BASE_US + c.ops * COMPILE_US_PER_OP;
  start_choice choice = c.whole ? START_OPTIMIZED : extra_us < compile_us ? START_BASELINE : START_QUICK;
  const char *profile = getenv("KILN_CPU_PROFILE");
  static const char *const said[] = {"starts on the fast-start tier", "starts on quick code",
                                     "runs whole in the interpreter, compiled first"};
  if (profile && *profile == '1')
    fprintf(stderr,
            "kiln cpu tier: @%s: %.0f interpreted ops on the fast-start tier, about %.3f ms more per run; the "
            "optimising compile about %.3f ms: %s\n",
            kiln_func_name(baseline->function), c.ops, extra_us / 1e3, compile_us / 1e3, said[choice]);
  return choice;
}

/* ---------------------------------------------------------------- the compile thread */

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_wake = PTHREAD_COND_INITIALIZER; /* a job was queued, or stop */
static pthread_cond_t g_done = PTHREAD_COND_INITIALIZER; /* a compile finished */
static kiln_cpu_tiered *g_queue;
static pthread_t g_thread;
static pid_t g_thread_pid; /* the process the thread runs in; 0: none */
static bool g_stop, g_compiling;

/* The queued job run most often (ties: the oldest), taken off the queue. */
static kiln_cpu_tiered *take_hottest(void) {
  kiln_cpu_tiered **best = NULL;
  uint64_t best_runs = 0;
  for (kiln_cpu_tiered **p = &g_queue; *p; p = &(*p)->next) {
    uint64_t runs = atomic_load_explicit(&(*p)->start_runs, memory_order_relaxed);
    if (!best || runs > best_runs) best = p, best_runs = runs;
  }
  kiln_cpu_tiered *t = *best;
  *best = t->next;
  t->next = NULL;
  return t;
}

/* The thread runs at the caller's priority. At a lower one (nice +10) it was starved
 * whenever the process kept the cores busy: with four threads running the fast-start tier on
 * 2 cores, an 87 ms compile finished after 170,000 to 240,000 runs (20 s and more; over 200 s
 * on a loaded CI host), against 1,200 to 1,500 runs at nice 0 (nice +4: 3,500 to 7,100), far
 * beyond the scheduler's weights; a program then stayed on its slow tier exactly when the
 * machine was busiest. */
static void *compile_thread(void *arg) {
  (void)arg;
  pthread_mutex_lock(&g_lock);
  for (;;) {
    while (!g_stop && !g_queue) pthread_cond_wait(&g_wake, &g_lock);
    if (g_stop) break;
    kiln_cpu_tiered *t = take_hottest();
    t->state = JOB_COMPILING;
    g_compiling = true;
    pthread_mutex_unlock(&g_lock);
    kiln_cpu_executable *x = NULL;
    /* a failure leaves the program on its fast-start tier, which is correct, only slower */
    kiln_status_free(kiln_cpu_compile(t->m, t->src, t->function, &x));
    if (x) atomic_store_explicit(&t->optimized, x, memory_order_release);
    pthread_mutex_lock(&g_lock);
    t->state = JOB_DONE;
    g_compiling = false;
    pthread_cond_broadcast(&g_done);
  }
  pthread_mutex_unlock(&g_lock);
  return NULL;
}

/* fork: the child must not inherit a compile in progress (LLVM's and oneDNN's locks may be
 * held) nor a thread it does not have. The parent waits for the compile to finish and
 * holds the lock across the fork; the child takes a thread of its own when it queues. */
static void before_fork(void) {
  pthread_mutex_lock(&g_lock);
  while (g_compiling) pthread_cond_wait(&g_done, &g_lock);
}
static void after_fork_in_parent(void) { pthread_mutex_unlock(&g_lock); }
static void after_fork_in_child(void) {
  pthread_mutex_unlock(&g_lock);
  g_thread_pid = 0;
}
static void register_atfork(void) { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

/* Queues t (under g_lock), starting the thread when this process has none. False: no
 * thread could be started (t stays on its fast-start tier). */
static bool enqueue(kiln_cpu_tiered *t) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, register_atfork);
  pthread_mutex_lock(&g_lock);
  bool ok = true;
  if (g_thread_pid != getpid()) {
    g_stop = false;
    ok = pthread_create(&g_thread, NULL, compile_thread, NULL) == 0;
    if (ok) g_thread_pid = getpid();
  }
  if (ok) {
    t->state = JOB_QUEUED;
    t->next = g_queue;
    g_queue = t;
    pthread_cond_signal(&g_wake);
  }
  pthread_mutex_unlock(&g_lock);
  return ok;
}

void kiln_cpu_tier_shutdown(void) {
  pthread_mutex_lock(&g_lock);
  bool running = g_thread_pid == getpid();
  g_stop = true;
  pthread_cond_broadcast(&g_wake);
  pthread_mutex_unlock(&g_lock);
  if (running) pthread_join(g_thread, NULL);
  pthread_mutex_lock(&g_lock);
  g_thread_pid = 0;
  pthread_mutex_unlock(&g_lock);
}

/* ---------------------------------------------------------------- executables */

kiln_status kiln_cpu_tiered_compile(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                    kiln_cpu_tiered **out) {
  *out = NULL;
  kiln_cpu_tier_mode mode;
  KILN_RETURN_IF_ERROR(kiln_cpu_tier_mode_from_env(&mode));
  kiln_cpu_tiered *t = calloc(1, sizeof *t);
  if (!t) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  t->m = m;
  t->src = src;
  t->function = function;
  kiln_status st = NULL;
  kiln_cpu_executable *x = NULL;
  /* a shape-polymorphic entry compiles per signature as they come (specialize.c) */
  bool polymorphic = kiln_cpu_is_polymorphic(function);
  if (mode == KILN_CPU_TIER_QUICK && !polymorphic) {
    st = kiln_cpu_compile_quick(m, src, function, &t->start);
  } else if (mode != KILN_CPU_TIER_OPTIMIZED && !polymorphic) {
    st = kiln_cpu_compile_baseline(m, src, function, &t->start);
    start_choice choice = !st && mode == KILN_CPU_TIER_AUTO ? choose_start(t->start) : START_BASELINE;
    if (choice != START_BASELINE) {
      kiln_cpu_executable_destroy(t->start);
      t->start = NULL;
    }
    if (choice == START_QUICK) st = kiln_cpu_compile_quick(m, src, function, &t->start);
  }
  if (!st && !t->start) {
    st = kiln_cpu_compile(m, src, function, &x);
    atomic_init(&t->optimized, x);
  } else if (!st && mode == KILN_CPU_TIER_AUTO) {
    t->queue_at = QUEUE_AT_RUN;
  } else if (!st && mode == KILN_CPU_TIER_TIERED) {
    enqueue(t); /* no thread: stays on the fast-start tier */
  }
  if (st) {
    kiln_cpu_tiered_destroy(t);
    return st;
  }
  *out = t;
  return NULL;
}

kiln_status kiln_cpu_tiered_run(kiln_cpu_tiered *t, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                                kiln_check_log *checks, bool *out_optimized) {
  kiln_cpu_executable *x = atomic_load_explicit(&t->optimized, memory_order_acquire);
  bool optimized = x != NULL;
  if (!x) x = t->start;
  uint64_t before = atomic_fetch_add_explicit(optimized ? &t->optimized_runs : &t->start_runs, 1, memory_order_relaxed);
  if (!optimized && t->queue_at && before + 1 == t->queue_at) enqueue(t); /* exactly one run sees this count */
  if (out_optimized) *out_optimized = optimized;
  return kiln_cpu_run(x, inputs, results, checks);
}

const kiln_cpu_executable *kiln_cpu_tiered_current(const kiln_cpu_tiered *t, kiln_cpu_tier_info *out_info) {
  kiln_cpu_executable *x = atomic_load_explicit(&t->optimized, memory_order_acquire);
  pthread_mutex_lock(&g_lock);
  out_info->pending = t->state == JOB_QUEUED || t->state == JOB_COMPILING;
  pthread_mutex_unlock(&g_lock);
  out_info->optimized = x != NULL;
  out_info->baseline_runs = atomic_load_explicit(&t->start_runs, memory_order_relaxed);
  out_info->optimized_runs = atomic_load_explicit(&t->optimized_runs, memory_order_relaxed);
  out_info->quick = !x && t->start && t->start->quick;
  return x ? x : t->start;
}

void kiln_cpu_tiered_destroy(kiln_cpu_tiered *t) {
  if (!t) return;
  pthread_mutex_lock(&g_lock);
  if (t->state == JOB_QUEUED) {
    for (kiln_cpu_tiered **p = &g_queue; *p; p = &(*p)->next)
      if (*p == t) {
        *p = t->next;
        break;
      }
    t->state = JOB_NONE;
  }
  while (t->state == JOB_COMPILING) pthread_cond_wait(&g_done, &g_lock);
  pthread_mutex_unlock(&g_lock);
  kiln_cpu_executable_destroy(atomic_load_explicit(&t->optimized, memory_order_acquire));
  kiln_cpu_executable_destroy(t->start);
  free(t);
}
