/* Tiered execution (tier.h): the baseline, the policy, the background compile queue. */
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
  kiln_cpu_executable *baseline;             /* NULL when compiled first */
  _Atomic(kiln_cpu_executable *) optimized;  /* published once, by the compile thread */
  _Atomic uint64_t baseline_runs, optimized_runs;
  /* under g_lock: */
  job_state state;
  kiln_cpu_tiered *next; /* in the queue */
};

/* ---------------------------------------------------------------- settings */

kiln_status kiln_cpu_tier_mode_from_env(kiln_cpu_tier_mode *out) {
  static const char *const names[] = {"auto", "tiered", "baseline", "optimized"};
  const char *v = getenv("KILN_CPU_TIER");
  *out = KILN_CPU_TIER_AUTO;
  if (!v || !*v) return NULL;
  for (int i = 0; i < 4; i++)
    if (!strcmp(v, names[i])) {
      *out = (kiln_cpu_tier_mode)i;
      return NULL;
    }
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     "cpu: KILN_CPU_TIER is '%s'; expected auto, tiered, baseline or optimized", v);
}

/* ---------------------------------------------------------------- the policy */

/* Costs measured on this machine kind (AMD Zen 4, bench/tiers.sh's calibration lines): an
 * interpreted elementwise op costs about 8 ns per element it reads or writes (the
 * interpreter's kernels, plus the copies in and out of its values) against well under
 * 1 ns in a generated loop; the optimising compile costs about 9 ms plus 1.5 ms per op the
 * baseline interprets (LLVM's share; the rest of a compile the baseline pays too). A while
 * body counts LOOP_TRIPS_GUESS times: its trip count is a run-time value. */
enum { INTERP_PS_PER_ELEMENT = 8000, COMPILE_BASE_US = 20000, COMPILE_US_PER_OP = 500, LOOP_TRIPS_GUESS = 10 };

static uint64_t value_elements(const kiln_type *t) {
  return kiln_type_is_tensor(t) && t->tensor.num_elements > 0 ? (uint64_t)t->tensor.num_elements : 1;
}

/* Adds what x's interpreted steps cost per run (elements touched, times weight) and how
 * many there are, with those of its control-flow regions. */
static void interpreted_cost(const kiln_cpu_executable *x, uint64_t weight, uint64_t *elements, uint64_t *ops) {
  if (x->whole_interp) {
    *elements = UINT64_MAX; /* nothing planned: the interpreter runs it either way */
    return;
  }
  for (int32_t s = 0; s < x->num_steps; s++) {
    const kiln_cpu_step *step = &x->steps[s];
    if (step->kind == KILN_CPU_STEP_INTERP) {
      uint64_t n = 0;
      for (int32_t k = 0; k < step->op->num_operands; k++) n += value_elements(step->op->operands[k]->type);
      for (int32_t k = 0; k < step->op->num_results; k++) n += value_elements(step->op->results[k].type);
      *elements += n * weight;
      *ops += 1;
    } else if (step->kind == KILN_CPU_STEP_CONTROL) {
      const kiln_cpu_executable *const *regions;
      int32_t nr = kiln_cpu_control_regions(step->control, &regions);
      uint64_t w = weight * (step->op->kind == KILN_OP_WHILE ? LOOP_TRIPS_GUESS : 1);
      for (int32_t r = 0; r < nr; r++)
        if (regions[r]) interpreted_cost(regions[r], w, elements, ops);
    }
    if (*elements == UINT64_MAX) return;
  }
}

/* Whether running on the baseline while the optimising compile runs pays: its extra cost
 * per run is below what the compile would make the first result wait. KILN_CPU_PROFILE=1
 * prints the estimate and the choice. */
static bool start_on_baseline(const kiln_cpu_executable *baseline) {
  uint64_t elements = 0, ops = 0;
  interpreted_cost(baseline, 1, &elements, &ops);
  bool whole = elements == UINT64_MAX;
  double extra_us = whole ? 0 : (double)elements * INTERP_PS_PER_ELEMENT / 1e6;
  double compile_us = COMPILE_BASE_US + (double)ops * COMPILE_US_PER_OP;
  bool start = !whole && extra_us < compile_us;
  const char *profile = getenv("KILN_CPU_PROFILE");
  if (profile && *profile == '1')
    fprintf(stderr,
            "kiln cpu tier: @%s: %llu interpreted ops on the fast-start tier, about %.3f ms more per run; the "
            "optimising compile about %.3f ms: %s\n",
            kiln_func_name(baseline->function), (unsigned long long)ops, extra_us / 1e3, compile_us / 1e3,
            whole ? "runs whole in the interpreter, compiled first" : start ? "starts on the fast-start tier"
                                                                       : "compiled first");
  return start;
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
    uint64_t runs = atomic_load_explicit(&(*p)->baseline_runs, memory_order_relaxed);
    if (!best || runs > best_runs) best = p, best_runs = runs;
  }
  kiln_cpu_tiered *t = *best;
  *best = t->next;
  t->next = NULL;
  return t;
}

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
    /* a failure leaves the program on its baseline, which is correct, only slower */
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
 * thread could be started (t stays on its baseline). */
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
  if (mode != KILN_CPU_TIER_OPTIMIZED && !kiln_cpu_is_polymorphic(function))
    st = kiln_cpu_compile_baseline(m, src, function, &t->baseline);
  if (!st && t->baseline && mode == KILN_CPU_TIER_AUTO && !start_on_baseline(t->baseline)) {
    kiln_cpu_executable_destroy(t->baseline);
    t->baseline = NULL;
  }
  if (!st && !t->baseline) {
    st = kiln_cpu_compile(m, src, function, &x);
    atomic_init(&t->optimized, x);
  } else if (!st && mode != KILN_CPU_TIER_BASELINE) {
    enqueue(t); /* no thread: stays on the baseline */
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
  if (!x) x = t->baseline;
  atomic_fetch_add_explicit(optimized ? &t->optimized_runs : &t->baseline_runs, 1, memory_order_relaxed);
  if (out_optimized) *out_optimized = optimized;
  return kiln_cpu_run(x, inputs, results, checks);
}

const kiln_cpu_executable *kiln_cpu_tiered_current(const kiln_cpu_tiered *t, kiln_cpu_tier_info *out_info) {
  kiln_cpu_executable *x = atomic_load_explicit(&t->optimized, memory_order_acquire);
  pthread_mutex_lock(&g_lock);
  out_info->pending = t->state == JOB_QUEUED || t->state == JOB_COMPILING;
  pthread_mutex_unlock(&g_lock);
  out_info->optimized = x != NULL;
  out_info->baseline_runs = atomic_load_explicit(&t->baseline_runs, memory_order_relaxed);
  out_info->optimized_runs = atomic_load_explicit(&t->optimized_runs, memory_order_relaxed);
  return x ? x : t->baseline;
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
  kiln_cpu_executable_destroy(t->baseline);
  free(t);
}
