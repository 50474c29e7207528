/* The thread pool (see pool.h).
 *
 * One call at a time owns the pool (a trylock: others run inline). The call is published
 * in one word: a generation (high 32 bits) and its unclaimed chunks [front, back) (16
 * bits each). The caller claims chunk `front` by moving the word from (gen, front, back)
 * to (gen, front + 1, back) with a CAS, a worker chunk back - 1 by moving it to (gen,
 * front, back - 1), while front < back; so a claim succeeds only while that generation's
 * call is running, and the call cannot end before the claimed chunk is done (`done` counts
 * finished worker chunks): a worker may read the call's function and context once it holds
 * a chunk. A call sets its fields, then publishes its word with chunk 0 claimed: the
 * caller's, which it runs at once. Claiming from the two ends keeps a thread on the same
 * part of the points from call to call (a loop's iterations, a program's runs), so what
 * it wrote last time is in its core's cache more often than with chunks claimed in any
 * order: 200 iterations of an axpy over 1 MB in 8 chunks, 2,430-2,455 -> 2,394-2,405 us
 * (2-core Intel host with AVX-512, 2026-12-06; 7,096 us on one thread). */
#define _GNU_SOURCE
#include "backends/cpu/pool.h"

#include "backends/cpu/load.h"

#include <errno.h>
#include <stdalign.h>
#include <immintrin.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

/* The cost model. Work is counted in elements of a simple loop (an add's; loops weigh their
 * ops: compile.c, weighted_work). Giving chunks to a spinning worker costs the caller about
 * 0.3 us (a call of two empty chunks, 2-core Intel host with AVX-512, 2026-12-04; 0.7 us
 * before the call's word, fields and answers were put on lines of their own), about what
 * 16K elements take, so work splits from 32K on: a counted loop's 128x128 vector-matrix
 * product (16K) ran 0.6 us an iteration inline and 1.1 us split (bench/dynamic.sh's scan)
 * while a GELU over 4K elements (37K) gained from the split (moe_small). Waking a sleeping
 * worker costs the caller a futex syscall (2-4 us) and the worker 10-50 us before it claims
 * anything, so only work of well above that (128K elements, ~30 us) wakes sleepers. A
 * chunk is at least 8K elements, and a call is cut into up to 4 chunks per thread so that
 * a worker the kernel preempts holds back little. */
enum {
  MIN_WORK = 1 << 15,
  WAKE_WORK = 1 << 17,
  MIN_CHUNK_WORK = 1 << 13,
  CHUNKS_PER_THREAD = 4,
};
/* Workers spin this long after their last chunk before sleeping (a run's next step, the
 * next run of a benchmark or a JAX loop comes sooner); the caller spins this long for
 * claimed chunks before it sleeps, giving its core to the worker that holds them. */
static const int64_t WORKER_SPIN_NS = 100000, CALLER_SPIN_NS = 20000;

/* Stalls. A worker the kernel preempts while it holds a claimed chunk keeps the caller
 * waiting until it runs again. When other processes keep the cores busy that is a
 * scheduler slice, about 4 ms: the kernel leaves the preempted worker queued behind the
 * busy process rather than move a thread that ran a moment ago to the core the sleeping
 * caller frees (a 70 us training step of mlp_train_small had a 4.1 ms 99th percentile
 * beside one busy process; Zen 3, 2 cores). So a caller that has waited RESCUE_NS for
 * claimed chunks moves the workers still in one onto its own CPU (their affinity that
 * CPU alone) before it sleeps: the kernel migrates them at once, and each puts its
 * affinity back when its chunk ends. */
static const int64_t RESCUE_NS = 200000;

typedef struct worker {
  kiln_cpu_pool *pool;
  int32_t index;
  pthread_t thread;
  cpu_set_t mask;       /* its affinity when it started (written before tid) */
  _Atomic pid_t tid;    /* its thread id once running (0 before: never moved) */
  _Atomic bool holding; /* in a chunk */
  _Atomic bool moved;   /* a caller moved it (its affinity to put back) */
} worker;

/* The fields are grouped by who writes them, one cache line each, so that a worker spinning
 * on `word` is not disturbed by the caller's other writes, nor the caller waiting on `done`
 * by the call's fields: a hand-off then moves each line between the cores once. */
struct kiln_cpu_pool {
  /* the call: generation (high 32 bits), chunk count (next 16), next unclaimed chunk (low 16) */
  alignas(64) _Atomic uint64_t word;
  /* the call's fields, written by its caller just before it publishes the word: a worker
   * reads them with the word's line */
  _Atomic(kiln_cpu_pool_fn) fn;
  _Atomic(void *) ctx;
  _Atomic int32_t caller_cpu; /* the CPU the call's caller published it on (-1: unknown) */
  _Atomic int32_t limit;      /* the call's threads, the caller among them (kiln_cpu_pool_limit) */
  _Atomic bool stop;          /* read with the word by spinning workers */
  /* the workers' answers */
  alignas(64) _Atomic uint32_t done; /* worker chunks finished (a futex word) */
  /* the call's generation (high 32 bits) and the workers that have joined it (low 32): a
   * worker claims chunks only as one of the first limit - 1 to join */
  _Atomic uint64_t joined;
  _Atomic uint32_t waiting;          /* the caller sleeps on done */
  _Atomic uint64_t rescues;          /* workers moved onto a waiting caller's CPU */
  /* making, sleeping and stopping */
  alignas(64) pthread_mutex_t busy;
  _Atomic uint32_t wake_seq; /* sleeping workers' futex word */
  _Atomic int32_t sleepers;
  int32_t threads;
  int32_t started; /* workers running */
  worker *workers;
};

static _Thread_local bool t_in_chunk;
static _Thread_local int32_t t_limit; /* kiln_cpu_pool_limit (0: none) */

/* The threads a call of the calling thread may use on p. */
static int32_t usable(const kiln_cpu_pool *p) { return t_limit > 0 && t_limit < p->threads ? t_limit : p->threads; }

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t expected) {
  syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/* futex_wait for at most ns nanoseconds. */
static void futex_wait_for(_Atomic uint32_t *addr, uint32_t expected, int64_t ns) {
  struct timespec t = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
  syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, expected, &t, NULL, 0);
}

/* A worker puts back the affinity a caller's rescue narrowed. */
static void settle(worker *me) {
  if (atomic_load_explicit(&me->moved, memory_order_relaxed) && atomic_exchange(&me->moved, false))
    sched_setaffinity(0, sizeof me->mask, &me->mask);
}

/* Moves the workers still in a chunk onto the calling thread's CPU (see RESCUE_NS). */
static void rescue(kiln_cpu_pool *p) {
  int cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  for (int32_t i = 0; i < p->started; i++) {
    worker *w = &p->workers[i];
    pid_t tid = atomic_load(&w->tid);
    if (!tid || !atomic_load_explicit(&w->holding, memory_order_relaxed)) continue;
    /* moved only once the move is made: set before it, a worker settling in between
     * would put its affinity back first and then keep the one CPU for good; set after
     * it, the worker's next settle (after its chunk, or when it joins the next call)
     * puts it back */
    if (sched_setaffinity(tid, sizeof one, &one) != 0) continue;
    atomic_store(&w->moved, true);
    atomic_fetch_add(&p->rescues, 1);
  }
}

static void futex_wake(_Atomic uint32_t *addr, int n) {
  syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static uint32_t gen_of(uint64_t w) { return (uint32_t)(w >> 32); }
static uint32_t front_of(uint64_t w) { return (uint32_t)(w >> 16) & 0xffff; }
static uint32_t back_of(uint64_t w) { return (uint32_t)w & 0xffff; }
/* The most chunks one call can publish; a call of more runs on its caller. */
enum { MAX_CALL_CHUNKS = 0xffff };

/* Claims and runs chunks of generation gen until none is left (or another call began);
 * returns how many this thread ran. */
static int32_t work_on(kiln_cpu_pool *p, uint32_t gen, int32_t thread) {
  int32_t ran = 0;
  for (uint64_t w = atomic_load(&p->word);;) {
    /* the chunks are in the word: a claim of a finished call's word fails, as its word changed */
    if (gen_of(w) != gen || front_of(w) >= back_of(w)) return ran;
    uint64_t claimed = thread ? w - 1 : w + ((uint64_t)1 << 16);
    if (!atomic_compare_exchange_weak(&p->word, &w, claimed)) continue;
    int32_t chunk = (int32_t)(thread ? back_of(w) - 1 : front_of(w));
    kiln_cpu_pool_fn fn = atomic_load_explicit(&p->fn, memory_order_relaxed);
    worker *me = thread ? &p->workers[thread - 1] : NULL;
    if (me) atomic_store_explicit(&me->holding, true, memory_order_relaxed); /* a hint for rescue */
    fn(atomic_load_explicit(&p->ctx, memory_order_relaxed), chunk, thread);
    ran++;
    if (me) {
      atomic_store_explicit(&me->holding, false, memory_order_relaxed);
      atomic_fetch_add(&p->done, 1);
      if (atomic_load(&p->waiting)) futex_wake(&p->done, 1);
      settle(me);
    }
    w = atomic_load(&p->word);
  }
}

/* Waits (spinning, then asleep) until a call of a generation other than `seen` is
 * published or the pool stops; returns the word. */
static uint64_t wait_for_call(kiln_cpu_pool *p, uint32_t seen) {
  int64_t start = now_ns();
  for (uint32_t spins = 1;; spins++) {
    uint64_t w = atomic_load(&p->word);
    if (gen_of(w) != seen || atomic_load(&p->stop)) return w;
    if (spins % 64 == 0 && now_ns() - start > WORKER_SPIN_NS) break;
    _mm_pause();
  }
  for (;;) {
    atomic_fetch_add(&p->sleepers, 1);
    uint32_t s = atomic_load(&p->wake_seq);
    uint64_t w = atomic_load(&p->word);
    bool go = gen_of(w) != seen || atomic_load(&p->stop);
    if (!go) futex_wait(&p->wake_seq, s);
    atomic_fetch_sub(&p->sleepers, 1);
    if (go) return w;
    w = atomic_load(&p->word);
    if (gen_of(w) != seen || atomic_load(&p->stop)) return w;
  }
}

/* A worker the kernel woke onto the CPU its caller runs on (wake-affine placement, seen
 * when the caller moved to the CPU the worker last slept on) takes turns with the caller
 * there, preempting it, while the other CPU idles until the load balancer notices,
 * milliseconds later: runs took twice their time so, in about half of the processes'
 * first runs (argmax_large's first run 29 against 14.5 ms; Zen 3, 2 vCPUs). Such a worker
 * moves itself: its affinity without that CPU, which migrates it at once, then back to
 * what it was. A nudge, not a pin: the kernel places it freely afterwards. */
static void leave_callers_cpu(const kiln_cpu_pool *p) {
  int cpu = sched_getcpu();
  if (cpu < 0 || cpu != atomic_load_explicit(&p->caller_cpu, memory_order_relaxed)) return;
  cpu_set_t was, away;
  if (sched_getaffinity(0, sizeof was, &was) != 0) return;
  away = was;
  CPU_CLR(cpu, &away);
  if (CPU_COUNT(&away) > 0 && sched_setaffinity(0, sizeof away, &away) == 0) sched_setaffinity(0, sizeof was, &was);
}

/* Joins the call of generation gen: false when the call has ended or has its threads. */
static bool join(kiln_cpu_pool *p, uint32_t gen) {
  uint64_t j = atomic_load(&p->joined);
  int32_t limit = atomic_load_explicit(&p->limit, memory_order_relaxed);
  do {
    if (gen_of(j) != gen || (int64_t)(uint32_t)j >= limit - 1) return false;
  } while (!atomic_compare_exchange_weak(&p->joined, &j, j + 1));
  return true;
}

static void *worker_main(void *arg) {
  worker *me = arg;
  kiln_cpu_pool *p = me->pool;
  t_in_chunk = true; /* calls made from chunks run inline */
  if (sched_getaffinity(0, sizeof me->mask, &me->mask) == 0) atomic_store(&me->tid, (pid_t)syscall(SYS_gettid));
  uint32_t seen = gen_of(atomic_load(&p->word));
  for (;;) {
    uint64_t w = wait_for_call(p, seen);
    if (atomic_load(&p->stop)) return NULL;
    seen = gen_of(w);
    settle(me); /* a rescue that came as its last chunk ended */
    if (!join(p, seen)) continue;
    leave_callers_cpu(p);
    work_on(p, seen, me->index);
  }
}

static void run_inline(int32_t chunks, kiln_cpu_pool_fn fn, void *ctx) {
  for (int32_t c = 0; c < chunks; c++) fn(ctx, c, 0);
}

void kiln_cpu_pool_run(kiln_cpu_pool *p, int32_t chunks, int64_t work, kiln_cpu_pool_fn fn, void *ctx) {
  if (chunks <= 0) return;
  int32_t threads = usable(p);
  if (chunks == 1 || chunks > MAX_CALL_CHUNKS || p->started == 0 || threads < 2 || t_in_chunk ||
      pthread_mutex_trylock(&p->busy) != 0) {
    run_inline(chunks, fn, ctx);
    return;
  }
  /* The last call has ended (its caller waited for every claimed chunk): no worker reads these
   * fields until it claims a chunk of the word below, which publishes them. */
  atomic_store_explicit(&p->fn, fn, memory_order_relaxed);
  atomic_store_explicit(&p->ctx, ctx, memory_order_relaxed);
  atomic_store_explicit(&p->caller_cpu, sched_getcpu(), memory_order_relaxed);
  atomic_store_explicit(&p->done, 0, memory_order_relaxed);
  atomic_store_explicit(&p->limit, threads, memory_order_relaxed);
  uint32_t gen = gen_of(atomic_load_explicit(&p->word, memory_order_relaxed)) + 1;
  atomic_store_explicit(&p->joined, (uint64_t)gen << 32, memory_order_relaxed);
  /* Published with chunk 0 claimed (the caller's), by a release store: the caller starts its
   * chunk while the word's cache line travels. Work that wakes sleepers orders the store
   * before reading their count (a worker going to sleep counts itself, then rereads the
   * word); other work may miss a worker that just fell asleep, and runs without it. */
  atomic_store_explicit(&p->word, (uint64_t)gen << 32 | (uint64_t)1 << 16 | (uint64_t)chunks, memory_order_release);
  if (work >= WAKE_WORK) {
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load(&p->sleepers) > 0) {
      atomic_fetch_add(&p->wake_seq, 1);
      futex_wake(&p->wake_seq, chunks < threads ? chunks - 1 : threads - 1);
    }
  }
  t_in_chunk = true;
  fn(ctx, 0, 0);
  uint32_t target = (uint32_t)(chunks - 1 - work_on(p, gen, 0));
  t_in_chunk = false;
  /* Only chunks that running workers claimed are left: wait for them, spinning, then
   * asleep, moving the workers still in a chunk onto this CPU after RESCUE_NS. */
  int64_t start = 0;
  for (uint32_t spins = 1; atomic_load(&p->done) != target; spins++) {
    if (spins % 64 == 0) {
      int64_t t = now_ns();
      if (!start) start = t;
      else if (t - start > CALLER_SPIN_NS) break;
    }
    _mm_pause();
  }
  bool rescued = false;
  for (uint32_t d; (d = atomic_load(&p->done)) != target;) {
    atomic_store(&p->waiting, 1);
    if (rescued) {
      futex_wait(&p->done, d);
      continue;
    }
    int64_t left = RESCUE_NS - (now_ns() - start);
    if (left > 0) {
      futex_wait_for(&p->done, d, left);
    } else {
      rescue(p);
      rescued = true;
    }
  }
  atomic_store(&p->waiting, 0);
  pthread_mutex_unlock(&p->busy);
}

int32_t kiln_cpu_pool_chunks(const kiln_cpu_pool *p, int64_t work, int64_t max_chunks) {
  int32_t threads = usable(p);
  if (threads < 2 || work < MIN_WORK || max_chunks < 2) return 1;
  int64_t n = (int64_t)threads * CHUNKS_PER_THREAD;
  if (n > work / MIN_CHUNK_WORK) n = work / MIN_CHUNK_WORK;
  if (n > max_chunks) n = max_chunks;
  if (n < 2 * threads && n > threads) n -= n % threads; /* few chunks: one each, not 2 on one thread */
  return n < 2 ? 2 : (int32_t)n;
}

int32_t kiln_cpu_pool_threads(const kiln_cpu_pool *p) { return p->threads; }

uint64_t kiln_cpu_pool_rescues(const kiln_cpu_pool *p) { return atomic_load(&p->rescues); }

/* ================================================================ making and ending */

static void stop_workers(kiln_cpu_pool *p) {
  atomic_store(&p->stop, true);
  atomic_fetch_add(&p->wake_seq, 1);
  futex_wake(&p->wake_seq, INT_MAX);
  for (int32_t i = 0; i < p->started; i++) pthread_join(p->workers[i].thread, NULL);
  p->started = 0;
}

kiln_status kiln_cpu_pool_create(int32_t threads, kiln_cpu_pool **out) {
  *out = NULL;
  if (threads < 1 || threads > KILN_CPU_POOL_MAX_THREADS)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu pool: %d threads (expected 1 to %d)", (int)threads,
                       KILN_CPU_POOL_MAX_THREADS);
  kiln_cpu_pool *p = aligned_alloc(alignof(kiln_cpu_pool), (sizeof(kiln_cpu_pool) + 63) / 64 * 64);
  if (p) memset(p, 0, sizeof *p);
  worker *ws = threads > 1 ? calloc((size_t)threads - 1, sizeof *ws) : NULL;
  if (!p || (threads > 1 && !ws)) {
    free(p);
    free(ws);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu pool: out of memory");
  }
  p->threads = threads;
  p->workers = ws;
  pthread_mutex_init(&p->busy, NULL);
  for (int32_t i = 0; i + 1 < threads; i++) {
    ws[i] = (worker){.pool = p, .index = i + 1};
    int e = pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
    if (e) {
      kiln_cpu_pool_destroy(p);
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cpu pool: cannot start thread %d of %d: %s", (int)i + 2,
                         (int)threads, strerror(e));
    }
    p->started++;
  }
  *out = p;
  return NULL;
}

void kiln_cpu_pool_destroy(kiln_cpu_pool *p) {
  if (!p) return;
  stop_workers(p);
  pthread_mutex_destroy(&p->busy);
  free(p->workers);
  free(p);
}

/* ================================================================ the size */

int32_t kiln_cpu_pool_quota_cpus(const char *text) {
  long long quota, period;
  if (!text || sscanf(text, "%lld %lld", &quota, &period) != 2 || quota <= 0 || period <= 0) return 0;
  long long n = (quota + period - 1) / period;
  return n > KILN_CPU_POOL_MAX_THREADS ? KILN_CPU_POOL_MAX_THREADS : (int32_t)n;
}

static bool read_text(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  size_t n = fread(buf, 1, size - 1, f);
  fclose(f);
  buf[n] = '\0';
  return n > 0;
}

/* Cores of the quota of one cgroup directory: v2 cpu.max, or v1's pair of files; 0 for none. */
static int32_t dir_quota(const char *dir) {
  char path[4200], a[64], b[64], text[140];
  snprintf(path, sizeof path, "%s/cpu.max", dir);
  if (read_text(path, text, sizeof text)) return kiln_cpu_pool_quota_cpus(text);
  snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
  if (!read_text(path, a, sizeof a)) return 0;
  snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
  if (!read_text(path, b, sizeof b)) return 0;
  snprintf(text, sizeof text, "%s %s", strtok(a, "\n"), strtok(b, "\n"));
  return kiln_cpu_pool_quota_cpus(text);
}

/* The smallest quota along the process's cgroup and its ancestors (v2, or v1's cpu
 * controller mounted at /sys/fs/cgroup/cpu,cpuacct or /sys/fs/cgroup/cpu); 0 for none. */
static int32_t cgroup_quota(void) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (!f) return 0;
  char line[4096];
  int32_t best = 0;
  while (fgets(line, sizeof line, f)) {
    char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
    if (!path) continue;
    *path++ = '\0';
    ctl++;
    path[strcspn(path, "\n")] = '\0';
    static const char *const v1_roots[] = {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"};
    const char *roots[2] = {NULL, NULL};
    if (!*ctl) roots[0] = "/sys/fs/cgroup"; /* v2 */
    else {
      bool cpu = false;
      for (char *c = strtok(ctl, ","); c; c = strtok(NULL, ",")) cpu |= strcmp(c, "cpu") == 0;
      if (!cpu) continue;
      roots[0] = v1_roots[0];
      roots[1] = v1_roots[1];
    }
    for (int r = 0; r < 2 && roots[r]; r++) {
      char dir[4096];
      if (snprintf(dir, sizeof dir, "%s%s", roots[r], path) >= (int)sizeof dir) continue;
      for (;;) { /* up to the root */
        int32_t q = dir_quota(dir);
        if (q > 0 && (best == 0 || q < best)) best = q;
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < strlen(roots[r])) break;
        *slash = '\0';
      }
    }
  }
  fclose(f);
  return best;
}

kiln_status kiln_cpu_pool_threads_wanted(int32_t *out_threads) {
  *out_threads = 1;
  const char *v = getenv("KILN_CPU_THREADS");
  if (v && *v) {
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < 1 || n > KILN_CPU_POOL_MAX_THREADS)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "KILN_CPU_THREADS=%.40s: expected a thread count from 1 to %d",
                         v, KILN_CPU_POOL_MAX_THREADS);
    *out_threads = (int32_t)n;
    return NULL;
  }
  int32_t n = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
  if (n < 1) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c < 1 ? 1 : c > KILN_CPU_POOL_MAX_THREADS ? KILN_CPU_POOL_MAX_THREADS : (int32_t)c;
  }
  int32_t q = cgroup_quota();
  if (q > 0 && q < n) n = q;
  *out_threads = n;
  return NULL;
}

/* ================================================================ crowded hosts */

/* A run expected to take less than this (on all of its pool's threads) uses only the CPUs
 * other processes leave free. Threads of a pool that outnumber those CPUs queue behind the
 * others: the one that shares a CPU with a busy process waits out that process's time
 * slice, 3-4 ms, in about one run in 20 (int8_matmul_large beside one busy process: median
 * 235 us, 99th percentile 3.7 ms on 2 threads; 397 and 541 us on the caller alone; 2-core
 * Intel host with AVX-512, 2026-12-07). A run of several milliseconds gains from all its
 * threads even so, and such a stall is small beside it. */
#define NARROW_RUN_NS ((int64_t)2000000)

static kiln_cpu_load g_load;

/* Notes a sample of the host's load when one is due: the runnable threads less p's awake
 * ones (the caller, reading, and its workers not asleep). */
static void sample_load(const kiln_cpu_pool *p) {
  if (!kiln_cpu_load_due(&g_load, now_ns())) return;
  char text[128];
  int32_t running = read_text("/proc/loadavg", text, sizeof text) ? kiln_cpu_load_running(text) : -1;
  if (running < 0) return;
  int32_t awake = 1 + p->started - atomic_load_explicit(&p->sleepers, memory_order_relaxed);
  kiln_cpu_load_note(&g_load, running - (awake < 1 ? 1 : awake));
}

int32_t kiln_cpu_pool_run_threads(const kiln_cpu_pool *p, int64_t typical_ns) {
  if (p->started == 0 || typical_ns <= 0 || typical_ns >= NARROW_RUN_NS) return p->threads;
  sample_load(p);
  static _Atomic int32_t host_cpus;
  int32_t cpus = atomic_load_explicit(&host_cpus, memory_order_relaxed);
  if (!cpus) atomic_store_explicit(&host_cpus, cpus = get_nprocs(), memory_order_relaxed);
  return kiln_cpu_load_threads(cpus, kiln_cpu_load_others(&g_load), p->threads);
}

int32_t kiln_cpu_pool_limit(int32_t threads) {
  int32_t before = t_limit;
  t_limit = threads;
  return before;
}

/* ================================================================ the shared pool */

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(kiln_cpu_pool *) g_pool;
static kiln_cpu_pool g_single = {.threads = 1}; /* when the setup failed: the caller alone */
static kiln_status_code g_code;
static char g_error[200];
/* A forked child has none of its parent's workers: the parent's pool (kept here, its
 * memory only) is retired and the child makes its own on first use. */
static kiln_cpu_pool *g_retired;
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;

/* The parts (kiln_cpu_pool_part), a list guarded by g_lock; a forked child retires its
 * parent's like the pool above. */
typedef struct pool_part {
  int32_t index, count;
  kiln_cpu_pool *pool;
  struct pool_part *next;
} pool_part;
static pool_part *g_parts, *g_retired_parts;

static _Thread_local kiln_cpu_pool *t_bound;

static void free_parts(pool_part *q) {
  while (q) {
    pool_part *next = q->next;
    kiln_cpu_pool_destroy(q->pool);
    free(q);
    q = next;
  }
}

static void free_retired(void) {
  if (g_retired && g_retired != &g_single) kiln_cpu_pool_destroy(g_retired); /* no workers: frees */
  g_retired = NULL;
  free_parts(g_retired_parts);
  g_retired_parts = NULL;
}

static void after_fork_in_child(void) {
  pthread_mutex_init(&g_lock, NULL); /* another thread may have held it at the fork */
  t_bound = NULL;
  kiln_cpu_pool *p = atomic_exchange(&g_pool, NULL);
  pool_part *parts = g_parts;
  g_parts = NULL;
  if (!p && !parts) return;
  free_retired();
  if (p && p != &g_single) p->started = 0;
  g_retired = p;
  for (pool_part *q = parts; q; q = q->next) q->pool->started = 0;
  g_retired_parts = parts;
}

static void register_atfork(void) { pthread_atfork(NULL, NULL, after_fork_in_child); }

static kiln_cpu_pool *process_pool(void) {
  kiln_cpu_pool *p = atomic_load_explicit(&g_pool, memory_order_acquire);
  if (p) return p;
  pthread_once(&g_atfork_once, register_atfork);
  pthread_mutex_lock(&g_lock);
  p = atomic_load(&g_pool);
  if (!p) {
    int32_t n;
    kiln_status s = kiln_cpu_pool_threads_wanted(&n);
    if (!s) s = kiln_cpu_pool_create(n, &p);
    g_code = s ? kiln_status_code_of(s) : KILN_STATUS_OK;
    snprintf(g_error, sizeof g_error, "%s", s ? kiln_status_message(s) : "");
    kiln_status_free(s);
    if (!p) p = &g_single;
    atomic_store_explicit(&g_pool, p, memory_order_release);
  }
  pthread_mutex_unlock(&g_lock);
  return p;
}

kiln_cpu_pool *kiln_cpu_pool_shared(void) { return t_bound ? t_bound : process_pool(); }

kiln_cpu_pool *kiln_cpu_pool_bind(kiln_cpu_pool *p) {
  kiln_cpu_pool *before = t_bound;
  t_bound = p;
  return before;
}

int32_t kiln_cpu_pool_part_threads(int32_t index, int32_t count) {
  int32_t n; /* a bad KILN_CPU_THREADS leaves 1 (the probe reports it) */
  kiln_status_free(kiln_cpu_pool_threads_wanted(&n));
  if (count <= 1 || index < 0 || index >= count) return n;
  int32_t share = n / count + (index < n % count ? 1 : 0);
  return share < 1 ? 1 : share;
}

kiln_cpu_pool *kiln_cpu_pool_part(int32_t index, int32_t count) {
  if (count <= 1 || index < 0 || index >= count) return process_pool();
  pthread_once(&g_atfork_once, register_atfork);
  pthread_mutex_lock(&g_lock);
  pool_part *q = g_parts;
  while (q && (q->index != index || q->count != count)) q = q->next;
  if (!q && (q = calloc(1, sizeof *q))) {
    kiln_status_free(kiln_cpu_pool_create(kiln_cpu_pool_part_threads(index, count), &q->pool));
    if (q->pool) {
      *q = (pool_part){index, count, q->pool, g_parts};
      g_parts = q;
    } else {
      free(q);
      q = NULL;
    }
  }
  kiln_cpu_pool *p = q ? q->pool : &g_single;
  pthread_mutex_unlock(&g_lock);
  return p;
}

kiln_status kiln_cpu_pool_setup(void) {
  pthread_mutex_lock(&g_lock);
  kiln_status s = atomic_load(&g_pool) && g_code ? KILN_STATUS(g_code, "cpu: %s", g_error) : NULL;
  pthread_mutex_unlock(&g_lock);
  if (s) return s;
  int32_t n;
  s = kiln_cpu_pool_threads_wanted(&n);
  if (!s) return NULL;
  kiln_status out = KILN_STATUS(kiln_status_code_of(s), "cpu: %s", kiln_status_message(s));
  kiln_status_free(s);
  return out;
}

void kiln_cpu_pool_shutdown(void) {
  pthread_mutex_lock(&g_lock);
  kiln_cpu_pool *p = atomic_exchange(&g_pool, NULL);
  if (p != &g_single) kiln_cpu_pool_destroy(p);
  free_parts(g_parts);
  g_parts = NULL;
  free_retired();
  pthread_mutex_unlock(&g_lock);
}
