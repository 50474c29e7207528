/* The cpu backend's thread pool (src/backends/cpu/pool.h): every chunk of a call runs
 * exactly once, with distinct thread numbers at once; a pool of one thread runs everything
 * on the caller; nested calls, calls from several threads at once and back-to-back calls of
 * changing sizes complete; the size
 * follows the affinity mask, the cgroup quota text and KILN_CPU_THREADS, whose bad values
 * are errors; the cost model keeps small work on the caller; a forked child has a pool of
 * its own; the parts several devices run on (sizes, binding, two at once, after a fork);
 * a call of more chunks than the pool's word counts runs on its caller; chunk 0 runs on the
 * caller, which claims from the first chunk on while workers claim from the last; a caller
 * waiting long for a worker's chunk moves that worker onto its CPU, and the worker's
 * affinity comes back; a cap on the threads of a thread's calls; fewer threads for a short
 * run while other threads keep every CPU busy;
 * kiln_cpu_parallel_for (parallel.c) splits points at multiples of a loop's grain. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/pool.h"
#include "expect.h"

enum { MAX_CHUNKS = 600 };

typedef struct count_job {
  kiln_cpu_pool *pool;
  int32_t threads;
  _Atomic int32_t runs[MAX_CHUNKS];
  _Atomic int32_t busy[KILN_CPU_POOL_MAX_THREADS]; /* a chunk runs with this thread number */
  _Atomic int32_t clashes, bad_thread, foreign; /* foreign: a chunk ran on another thread than the caller */
  pthread_t caller;
  int32_t nested; /* chunks each chunk's nested call has (0: none) */
  _Atomic int32_t nested_runs;
} count_job;

static void nested_chunk(void *ctx, int32_t c, int32_t thread) {
  count_job *j = ctx;
  atomic_fetch_add(&j->nested_runs, 1);
}

static void count_chunk(void *ctx, int32_t c, int32_t thread) {
  count_job *j = ctx;
  if (thread < 0 || thread >= j->threads) {
    atomic_fetch_add(&j->bad_thread, 1);
    return;
  }
  if (atomic_exchange(&j->busy[thread], 1)) atomic_fetch_add(&j->clashes, 1);
  atomic_fetch_add(&j->runs[c], 1);
  if (!pthread_equal(pthread_self(), j->caller)) atomic_fetch_add(&j->foreign, 1);
  if (j->nested) kiln_cpu_pool_run(j->pool, j->nested, 1 << 20, nested_chunk, j);
  for (volatile int spin = 0; spin < (c % 7) * 50; spin++) {
  }
  atomic_store(&j->busy[thread], 0);
}

/* One call of `chunks` chunks; false (with a message) when a chunk did not run exactly once. */
static bool one_call(kiln_cpu_pool *p, int32_t chunks, int64_t work, int32_t nested, int32_t *out_foreign) {
  count_job *j = calloc(1, sizeof *j);
  j->pool = p;
  j->threads = kiln_cpu_pool_threads(p);
  j->caller = pthread_self();
  j->nested = nested;
  kiln_cpu_pool_run(p, chunks, work, count_chunk, j);
  bool ok = j->clashes == 0 && j->bad_thread == 0 && j->nested_runs == chunks * nested;
  for (int32_t c = 0; c < MAX_CHUNKS; c++)
    if (j->runs[c] != (c < chunks ? 1 : 0)) {
      printf("chunk %d of %d ran %d times\n", (int)c, (int)chunks, (int)j->runs[c]);
      ok = false;
      break;
    }
  if (out_foreign) *out_foreign = j->foreign;
  free(j);
  return ok;
}

static void test_exactly_once(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(4, &p);
  EXPECT(!s && p && kiln_cpu_pool_threads(p) == 4, "a pool of 4 threads");
  if (!p) return;
  int bad = 0;
  uint32_t seed = 1;
  for (int i = 0; i < 3000; i++) {
    seed = seed * 1103515245u + 12345u;
    int32_t chunks = (int32_t)(seed >> 8) % MAX_CHUNKS;
    int64_t work = (seed >> 4) & 1 ? 1 << 20 : 1 << 14; /* waking sleepers or not */
    if (!one_call(p, chunks, work, 0, NULL)) bad++;
    if (i % 500 == 0) {
      struct timespec t = {0, 2000000}; /* let the workers fall asleep now and then */
      nanosleep(&t, NULL);
    }
  }
  EXPECT(bad == 0, "%d calls of 3000 ran some chunk other than once or clashed thread numbers", bad);
  EXPECT(one_call(p, 0, 1 << 20, 0, NULL), "a call of no chunks");
  EXPECT(one_call(p, 1, 1 << 20, 0, NULL), "a call of one chunk");
  EXPECT(one_call(p, 64, 1 << 20, 3, NULL), "nested calls run every chunk once");
  kiln_cpu_pool_destroy(p);
}

static void test_single_thread(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(1, &p);
  EXPECT(!s && p && kiln_cpu_pool_threads(p) == 1, "a pool of 1 thread");
  if (!p) return;
  int32_t foreign = -1;
  EXPECT(one_call(p, 100, 1 << 24, 2, &foreign), "a one-thread pool runs every chunk once");
  EXPECT(foreign == 0, "%d chunks of a one-thread pool ran off the caller's thread", (int)foreign);
  EXPECT(kiln_cpu_pool_chunks(p, 1 << 30, 1000) == 1, "a one-thread pool asks for one chunk");
  kiln_cpu_pool_destroy(p);
}

typedef struct caller_arg {
  kiln_cpu_pool *pool;
  int bad;
} caller_arg;

static void *caller_main(void *arg) {
  caller_arg *a = arg;
  for (int i = 0; i < 400; i++)
    if (!one_call(a->pool, 1 + i % 97, i % 2 ? 1 << 20 : 1 << 14, i % 5 == 0 ? 2 : 0, NULL)) a->bad++;
  return NULL;
}

static void test_concurrent_callers(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(3, &p);
  EXPECT(!s && p, "a pool of 3 threads");
  if (!p) return;
  enum { CALLERS = 4 };
  pthread_t t[CALLERS];
  caller_arg args[CALLERS];
  for (int i = 0; i < CALLERS; i++) {
    args[i] = (caller_arg){p, 0};
    pthread_create(&t[i], NULL, caller_main, &args[i]);
  }
  int bad = 0;
  for (int i = 0; i < CALLERS; i++) {
    pthread_join(t[i], NULL);
    bad += args[i].bad;
  }
  EXPECT(bad == 0, "%d calls from concurrent callers ran some chunk other than once", bad);
  kiln_cpu_pool_destroy(p);
}

/* Back-to-back calls whose chunk counts alternate between few and many, on a pool with more
 * threads than this host may have cores (so workers are preempted anywhere): a worker that
 * saw the end of one call must not claim a chunk of it once the next call's count is set
 * (it would run the next call's function with a stale index, and count its chunk twice, or
 * leave its caller waiting for ever). Every chunk must run once, in range, and every call
 * must return: the run happens on a thread the test waits for with a deadline. */
typedef struct relay {
  kiln_cpu_pool *pool;
  int32_t chunks;
  _Atomic int32_t runs[MAX_CHUNKS];
  _Atomic int32_t out_of_range;
  int bad;
  _Atomic int32_t calls; /* calls returned */
  _Atomic bool finished;
} relay;

static void relay_chunk(void *ctx, int32_t c, int32_t thread) {
  relay *r = ctx;
  if (c < 0 || c >= r->chunks) atomic_fetch_add(&r->out_of_range, 1);
  else atomic_fetch_add(&r->runs[c], 1);
}

static void *relay_main(void *arg) {
  relay *r = arg;
  int64_t deadline = (int64_t)time(NULL) + 2;
  for (int i = 0; time(NULL) < deadline || i < 20000; i++) {
    r->chunks = i % 2 ? 2 + i % 5 : 64 + i % 300;
    for (int32_t c = 0; c < r->chunks; c++) atomic_store(&r->runs[c], 0);
    kiln_cpu_pool_run(r->pool, r->chunks, i % 3 ? 1 << 14 : 1 << 20, relay_chunk, r);
    for (int32_t c = 0; c < r->chunks; c++)
      if (atomic_load(&r->runs[c]) != 1) {
        r->bad++;
        break;
      }
    atomic_store(&r->calls, i + 1);
  }
  atomic_store(&r->finished, true);
  return NULL;
}

static void test_back_to_back(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(8, &p);
  EXPECT(!s && p, "a pool of 8 threads");
  if (!p) return;
  static relay r;
  r.pool = p;
  pthread_t t;
  pthread_create(&t, NULL, relay_main, &r);
  /* done when the calls end; hung when none returns for 10 s */
  int32_t seen = -1;
  for (int still = 0; !atomic_load(&r.finished) && still < 100; still++) {
    if (atomic_load(&r.calls) != seen) still = 0;
    seen = atomic_load(&r.calls);
    struct timespec ms = {0, 100000000};
    nanosleep(&ms, NULL);
  }
  if (!atomic_load(&r.finished)) {
    EXPECT(false, "back-to-back calls: call %d did not return within 10 s (a lost chunk or wake-up)",
           (int)atomic_load(&r.calls) + 1);
    printf("%s\n", "test_pool: abandoning the hung pool");
    fflush(stdout);
    _exit(test_summary());
  }
  pthread_join(t, NULL);
  EXPECT(r.bad == 0 && r.out_of_range == 0,
         "back-to-back calls: %d calls ran some chunk other than once, %d chunks ran with an index "
         "beyond their call's count", r.bad, (int)r.out_of_range);
  kiln_cpu_pool_destroy(p);
}

static void test_create_errors(void) {
  kiln_cpu_pool *p = (kiln_cpu_pool *)1;
  kiln_status s = kiln_cpu_pool_create(0, &p);
  EXPECT(kiln_status_code_of(s) == KILN_STATUS_INVALID_ARGUMENT && !p, "a pool of 0 threads is refused");
  kiln_status_free(s);
  s = kiln_cpu_pool_create(KILN_CPU_POOL_MAX_THREADS + 1, &p);
  EXPECT(kiln_status_code_of(s) == KILN_STATUS_INVALID_ARGUMENT && !p, "a pool of 1025 threads is refused");
  kiln_status_free(s);
  kiln_cpu_pool_destroy(NULL);
}

static int32_t wanted(kiln_status_code *out_code, char *msg, size_t size) {
  int32_t n = -1;
  kiln_status s = kiln_cpu_pool_threads_wanted(&n);
  *out_code = kiln_status_code_of(s);
  if (msg) snprintf(msg, size, "%s", s ? kiln_status_message(s) : "");
  kiln_status_free(s);
  return n;
}

static void test_size(void) {
  unsetenv("KILN_CPU_THREADS");
  cpu_set_t all, one;
  EXPECT(sched_getaffinity(0, sizeof all, &all) == 0, "sched_getaffinity");
  kiln_status_code code;
  int32_t n = wanted(&code, NULL, 0);
  EXPECT(code == KILN_STATUS_OK && n >= 1 && n <= CPU_COUNT(&all), "%d threads for %d cores in the mask", (int)n,
         CPU_COUNT(&all));
  int first = 0;
  while (!CPU_ISSET(first, &all)) first++;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  if (sched_setaffinity(0, sizeof one, &one) == 0) {
    n = wanted(&code, NULL, 0);
    EXPECT(code == KILN_STATUS_OK && n == 1, "a mask of one core gives %d threads", (int)n);
    sched_setaffinity(0, sizeof all, &all);
  }
  setenv("KILN_CPU_THREADS", "3", 1);
  n = wanted(&code, NULL, 0);
  EXPECT(code == KILN_STATUS_OK && n == 3, "KILN_CPU_THREADS=3 gives %d", (int)n);
  setenv("KILN_CPU_THREADS", "", 1); /* empty: as unset */
  n = wanted(&code, NULL, 0);
  EXPECT(code == KILN_STATUS_OK && n >= 1, "an empty KILN_CPU_THREADS is ignored");
  static const char *const bad[] = {"0", "-2", "abc", "4x", "1025", " ", "99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char msg[256];
    setenv("KILN_CPU_THREADS", bad[i], 1);
    wanted(&code, msg, sizeof msg);
    EXPECT(code == KILN_STATUS_INVALID_ARGUMENT && strstr(msg, "KILN_CPU_THREADS=") && strstr(msg, "1 to 1024"),
           "KILN_CPU_THREADS=%s: %s", bad[i], msg);
  }
  unsetenv("KILN_CPU_THREADS");
  EXPECT(kiln_cpu_pool_quota_cpus("max 100000\n") == 0, "no quota");
  EXPECT(kiln_cpu_pool_quota_cpus("150000 100000\n") == 2, "1.5 cores round up to 2");
  EXPECT(kiln_cpu_pool_quota_cpus("100000 100000") == 1, "one core");
  EXPECT(kiln_cpu_pool_quota_cpus("20000 100000") == 1, "a fifth of a core is one thread");
  EXPECT(kiln_cpu_pool_quota_cpus("-1 100000") == 0, "v1's unlimited quota");
  EXPECT(kiln_cpu_pool_quota_cpus("garbage") == 0 && kiln_cpu_pool_quota_cpus("") == 0 &&
             kiln_cpu_pool_quota_cpus(NULL) == 0,
         "unreadable quotas");
}

static void test_cost_model(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(2, &p);
  EXPECT(!s && p, "a pool of 2 threads");
  if (!p) return;
  EXPECT(kiln_cpu_pool_chunks(p, 100, 1000) == 1, "tiny work stays on the caller");
  int32_t c = kiln_cpu_pool_chunks(p, 1 << 24, 1000);
  EXPECT(c >= 2 && c <= 1000, "large work is split (%d chunks)", (int)c);
  EXPECT(kiln_cpu_pool_chunks(p, 1 << 24, 3) <= 3, "at most max_chunks");
  EXPECT(kiln_cpu_pool_chunks(p, 1 << 24, 1) == 1, "one point is one chunk");
  kiln_cpu_pool_destroy(p);
}

typedef struct stall_job {
  _Atomic int32_t worker_started;
  int64_t caller_ns, worker_ns; /* how long chunks 0 and 1 take */
  _Atomic int32_t worker_cpus;  /* CPUs in chunk 1's thread's affinity */
} stall_job;

static int64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_ns(int64_t ns) {
  struct timespec t = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
  while (nanosleep(&t, &t) != 0) {
  }
}

/* Chunk 0 (the caller's) waits until a worker runs chunk 1, then takes caller_ns; chunk 1
 * notes its thread's affinity and takes worker_ns: a worker held up that long. */
static void stall_chunk(void *ctx, int32_t c, int32_t thread) {
  stall_job *j = ctx;
  if (c == 0) {
    for (int64_t t0 = mono_ns(); !atomic_load(&j->worker_started) && mono_ns() - t0 < 1000000000;) sched_yield();
    sleep_ns(j->caller_ns);
    return;
  }
  cpu_set_t m;
  if (sched_getaffinity(0, sizeof m, &m) == 0) atomic_store(&j->worker_cpus, CPU_COUNT(&m));
  if (thread != 0) atomic_store(&j->worker_started, 1);
  sleep_ns(j->worker_ns);
}

/* A caller that waits long for a worker's chunk moves that worker onto its CPU (a worker
 * preempted by another process would wait out its time slice), and the worker puts its
 * affinity back when the chunk ends; a short wait moves nobody. */
static void test_rescue(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(2, &p);
  EXPECT(!s && p, "a pool of 2 threads");
  if (!p) return;
  cpu_set_t all;
  int cpus = sched_getaffinity(0, sizeof all, &all) == 0 ? CPU_COUNT(&all) : 0;
  sleep_ns(20000000); /* the worker started and waits for calls (one that starts after a call misses it) */
  stall_job even = {.caller_ns = 20000000, .worker_ns = 5000000};
  kiln_cpu_pool_run(p, 2, 1 << 24, stall_chunk, &even);
  EXPECT(atomic_load(&even.worker_started), "a worker ran chunk 1");
  EXPECT(kiln_cpu_pool_rescues(p) == 0, "a worker that finishes first is not moved (%llu moves)",
         (unsigned long long)kiln_cpu_pool_rescues(p));
  stall_job held = {.caller_ns = 0, .worker_ns = 20000000};
  kiln_cpu_pool_run(p, 2, 1 << 24, stall_chunk, &held);
  EXPECT(atomic_load(&held.worker_started), "a worker ran chunk 1");
  EXPECT(kiln_cpu_pool_rescues(p) == 1, "a worker the caller waited 20 ms for was moved (%llu moves)",
         (unsigned long long)kiln_cpu_pool_rescues(p));
  stall_job after = {.caller_ns = 0, .worker_ns = 0};
  kiln_cpu_pool_run(p, 2, 1 << 24, stall_chunk, &after);
  EXPECT(!atomic_load(&after.worker_started) || atomic_load(&after.worker_cpus) == cpus,
         "the moved worker's affinity is back (%d CPUs of %d)", (int)atomic_load(&after.worker_cpus), cpus);
  kiln_cpu_pool_destroy(p);
}

enum { GRAIN_POINTS = 1000 };

/* bufs[0]: GRAIN_POINTS counters, bufs[1]: the grain, bufs[2]: calls, bufs[3]: misaligned starts */
static void count_points(void *const *bufs, int64_t begin, int64_t end) {
  _Atomic int32_t *seen = bufs[0];
  int64_t grain = *(const int64_t *)bufs[1];
  atomic_fetch_add((_Atomic int32_t *)bufs[2], 1);
  if (begin % grain) atomic_fetch_add((_Atomic int32_t *)bufs[3], 1);
  for (int64_t i = begin; i < end; i++) atomic_fetch_add(&seen[i], 1);
}

/* Every point once, in several calls, each starting at a multiple of the grain (a column
 * reduction's vectors stay whole: loop.h); grain 0 is any point. */
static void test_parallel_grain(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status s = kiln_cpu_pool_create(3, &p);
  EXPECT(!s && p, "a pool of 3 threads");
  if (!p) return;
  kiln_cpu_pool *before = kiln_cpu_pool_bind(p);
  static _Atomic int32_t seen[GRAIN_POINTS];
  const int64_t grains[] = {64, 7, 1, 0, 999, 1000, 4096};
  for (size_t g = 0; g < sizeof grains / sizeof grains[0]; g++) {
    int64_t grain = grains[g];
    _Atomic int32_t calls = 0, misaligned = 0;
    for (int32_t i = 0; i < GRAIN_POINTS; i++) atomic_store(&seen[i], 0);
    int64_t modulus = grain > 0 ? grain : 1;
    void *bufs[4] = {seen, &modulus, &calls, &misaligned};
    kiln_cpu_parallel_for(count_points, bufs, GRAIN_POINTS, grain, (int64_t)1 << 24);
    int32_t wrong = 0;
    for (int32_t i = 0; i < GRAIN_POINTS; i++) wrong += atomic_load(&seen[i]) != 1;
    EXPECT(!wrong, "grain %lld: every point once (%d wrong)", (long long)grain, (int)wrong);
    EXPECT(!atomic_load(&misaligned), "grain %lld: calls start at its multiples", (long long)grain);
    int64_t units = (GRAIN_POINTS + modulus - 1) / modulus;
    EXPECT(units < 2 ? atomic_load(&calls) == 1 : atomic_load(&calls) >= 2, "grain %lld: %d calls for %lld grains",
           (long long)grain, (int)atomic_load(&calls), (long long)units);
  }
  kiln_cpu_pool_bind(before);
  kiln_cpu_pool_destroy(p);
}

static void test_shared(void) {
  kiln_cpu_pool *p = kiln_cpu_pool_shared();
  EXPECT(p && p == kiln_cpu_pool_shared(), "one shared pool");
  kiln_status s = kiln_cpu_pool_setup();
  EXPECT(!s, "the shared pool's setup: %s", s ? kiln_status_message(s) : "");
  kiln_status_free(s);
  EXPECT(one_call(p, 50, 1 << 20, 0, NULL), "the shared pool runs every chunk once");
  kiln_cpu_pool_shutdown();
  p = kiln_cpu_pool_shared();
  EXPECT(one_call(p, 50, 1 << 20, 0, NULL), "the shared pool again after a shutdown");
  kiln_cpu_pool_shutdown();
}

static void *shared_of_thread(void *arg) { return kiln_cpu_pool_shared(); }

/* The parts of the pool (several devices): their sizes, one pool per index and count, the
 * process's pool for count 1; two parts called at once from two threads; a binding changes
 * the shared pool of its thread only; a forked child's parts run every chunk. */
static void test_parts(void) {
  setenv("KILN_CPU_THREADS", "3", 1);
  EXPECT(kiln_cpu_pool_part_threads(0, 2) == 2 && kiln_cpu_pool_part_threads(1, 2) == 1 &&
             kiln_cpu_pool_part_threads(0, 1) == 3 && kiln_cpu_pool_part_threads(3, 4) == 1 &&
             kiln_cpu_pool_part_threads(2, 3) == 1,
         "3 threads in parts: %d+%d of 2, %d of 1, %d of 4", (int)kiln_cpu_pool_part_threads(0, 2),
         (int)kiln_cpu_pool_part_threads(1, 2), (int)kiln_cpu_pool_part_threads(0, 1),
         (int)kiln_cpu_pool_part_threads(3, 4));
  kiln_cpu_pool *a = kiln_cpu_pool_part(0, 2), *b = kiln_cpu_pool_part(1, 2);
  EXPECT(kiln_cpu_pool_part(0, 1) == kiln_cpu_pool_shared() && a != b && a != kiln_cpu_pool_shared() &&
             kiln_cpu_pool_part(0, 2) == a && kiln_cpu_pool_part(0, 4) != a,
         "one pool per part");
  EXPECT(kiln_cpu_pool_threads(a) == 2 && kiln_cpu_pool_threads(b) == 1, "parts of %d and %d threads",
         (int)kiln_cpu_pool_threads(a), (int)kiln_cpu_pool_threads(b));
  caller_arg jobs[2] = {{a, 0}, {b, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, caller_main, &jobs[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  EXPECT(jobs[0].bad == 0 && jobs[1].bad == 0, "two parts called at once: %d and %d bad calls", jobs[0].bad,
         jobs[1].bad);

  EXPECT(kiln_cpu_pool_bind(a) == NULL && kiln_cpu_pool_shared() == a, "a bound part is the thread's shared pool");
  pthread_t other;
  void *seen = NULL;
  pthread_create(&other, NULL, shared_of_thread, NULL);
  pthread_join(other, &seen);
  EXPECT(seen != a && seen == kiln_cpu_pool_part(0, 1), "the binding is the calling thread's only");
  EXPECT(kiln_cpu_pool_bind(NULL) == a && kiln_cpu_pool_shared() != a, "unbound: the process's pool again");
#ifndef __SANITIZE_THREAD__
  kiln_cpu_pool_bind(a);
  pid_t child = fork();
  if (child == 0) {
    bool ok = kiln_cpu_pool_shared() != a; /* the child's binding is gone */
    for (int i = 0; i < 100 && ok; i++) ok = one_call(kiln_cpu_pool_part(i % 2, 2), 1 + i % 50, 1 << 20, 0, NULL);
    kiln_cpu_pool_shutdown();
    _exit(ok ? 0 : 1);
  }
  kiln_cpu_pool_bind(NULL);
  int status = -1;
  EXPECT(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
         "a forked child's parts (status %d)", status);
#endif
  EXPECT(one_call(kiln_cpu_pool_part(1, 2), 30, 1 << 20, 0, NULL), "a part after a fork");
  kiln_cpu_pool_shutdown();
  unsetenv("KILN_CPU_THREADS");
}

/* A child made by fork has a shared pool of its own: calls there run every chunk, and its
 * shutdown does not wait for the parent's workers. (Not under ThreadSanitizer: it cannot
 * start threads in the child of a threaded process.) */
#ifndef __SANITIZE_THREAD__
static void test_fork(void) {
  kiln_cpu_pool *p = kiln_cpu_pool_shared();
  EXPECT(one_call(p, 40, 1 << 20, 0, NULL), "the shared pool before a fork");
  pid_t child = fork();
  if (child == 0) {
    bool ok = true;
    for (int i = 0; i < 200 && ok; i++) ok = one_call(kiln_cpu_pool_shared(), 1 + i % 50, 1 << 20, 0, NULL);
    kiln_cpu_pool_shutdown();
    _exit(ok ? 0 : 1);
  }
  int status = -1;
  EXPECT(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
         "the forked child's calls (status %d)", status);
  EXPECT(one_call(p, 40, 1 << 20, 0, NULL), "the shared pool after a fork");
  kiln_cpu_pool_shutdown();
}
#endif

/* The call's word holds its chunk count in 16 bits: a call of more runs on its caller, every
 * chunk once; chunk 0 of a shared call runs on the caller. */
enum { MANY_CHUNKS = 70000 };
typedef struct many_job {
  _Atomic int32_t runs[MANY_CHUNKS];
  pthread_t caller;
  _Atomic int32_t first_elsewhere, foreign;
} many_job;

static void many_chunk(void *ctx, int32_t c, int32_t thread) {
  many_job *j = ctx;
  atomic_fetch_add(&j->runs[c], 1);
  bool here = pthread_equal(pthread_self(), j->caller);
  if (!here) atomic_fetch_add(&j->foreign, 1);
  if (c == 0 && !here) atomic_store(&j->first_elsewhere, 1);
  for (volatile int spin = 0; spin < 2000; spin++) {
  }
}

static void test_many_chunks(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status_free(kiln_cpu_pool_create(2, &p));
  many_job *j = calloc(1, sizeof *j);
  EXPECT(p && j, "a pool of 2 threads");
  if (!p || !j) {
    kiln_cpu_pool_destroy(p);
    free(j);
    return;
  }
  j->caller = pthread_self();
  kiln_cpu_pool_run(p, MANY_CHUNKS, 1 << 30, many_chunk, j);
  int32_t wrong = 0;
  for (int32_t c = 0; c < MANY_CHUNKS; c++) wrong += j->runs[c] != 1;
  EXPECT(wrong == 0, "%d of %d chunks ran other than once", (int)wrong, MANY_CHUNKS);
  EXPECT(j->foreign == 0, "a call of %d chunks runs on its caller (%d ran elsewhere)", MANY_CHUNKS, (int)j->foreign);
  for (int i = 0; i < 200; i++) {
    memset(j, 0, sizeof *j);
    j->caller = pthread_self();
    kiln_cpu_pool_run(p, 4, 1 << 20, many_chunk, j);
    if (j->first_elsewhere) break;
  }
  EXPECT(!j->first_elsewhere, "chunk 0 runs on the caller");
  kiln_cpu_pool_destroy(p);
  free(j);
}

/* The caller claims chunks from the first on, workers from the last back: in every call
 * the caller's chunks are a prefix of them, the workers' the rest. */
enum { ENDS_CHUNKS = 8 };
typedef struct ends_job {
  pthread_t caller;
  _Atomic int32_t on_caller[ENDS_CHUNKS];
} ends_job;

static void ends_chunk(void *ctx, int32_t c, int32_t thread) {
  ends_job *j = ctx;
  atomic_store(&j->on_caller[c], pthread_equal(pthread_self(), j->caller) && thread == 0);
  for (volatile int spin = 0; spin < 20000; spin++) {
  }
}

static void test_two_ends(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status_free(kiln_cpu_pool_create(2, &p));
  EXPECT(p != NULL, "a pool of 2 threads");
  if (!p) return;
  int32_t mixed = 0, shared = 0;
  for (int i = 0; i < 200; i++) {
    ends_job j = {.caller = pthread_self()};
    kiln_cpu_pool_run(p, ENDS_CHUNKS, 1 << 24, ends_chunk, &j);
    int32_t k = 0;
    while (k < ENDS_CHUNKS && j.on_caller[k]) k++;
    shared += k < ENDS_CHUNKS;
    for (int32_t c = k; c < ENDS_CHUNKS; c++) mixed += j.on_caller[c];
  }
  EXPECT(mixed == 0, "the caller ran %d chunks after a worker's", (int)mixed);
  cpu_set_t all;
  if (sched_getaffinity(0, sizeof all, &all) == 0 && CPU_COUNT(&all) > 1) /* a worker gets a CPU */
    EXPECT(shared > 0, "a worker ran chunks in some of 200 calls");
  kiln_cpu_pool_destroy(p);
}

typedef struct limit_job {
  _Atomic int32_t used[KILN_CPU_POOL_MAX_THREADS]; /* chunks each thread number ran */
} limit_job;

static void limit_chunk(void *ctx, int32_t c, int32_t thread) {
  limit_job *j = ctx;
  atomic_fetch_add(&j->used[thread], 1);
  sleep_ns(500000); /* long enough for every awake worker to join */
}

static int32_t threads_used(const limit_job *j, int32_t threads) {
  int32_t n = 0;
  for (int32_t t = 0; t < threads; t++) n += atomic_load(&j->used[t]) > 0;
  return n;
}

/* A cap on the calling thread's calls (kiln_cpu_pool_limit): chunks for that many threads,
 * no more threads running them, the caller alone at 1; put back, the whole pool again. */
static void test_limit(void) {
  kiln_cpu_pool *p = NULL;
  kiln_status_free(kiln_cpu_pool_create(4, &p));
  EXPECT(p != NULL, "a pool of 4 threads");
  if (!p) return;
  int32_t all = kiln_cpu_pool_chunks(p, 1 << 26, 1000);
  EXPECT(kiln_cpu_pool_limit(2) == 0, "no cap before");
  int32_t two = kiln_cpu_pool_chunks(p, 1 << 26, 1000);
  EXPECT(two >= 2 && two < all, "chunks for 2 threads (%d) are fewer than for 4 (%d)", (int)two, (int)all);
  int32_t most = 0;
  for (int i = 0; i < 20; i++) {
    limit_job j = {0};
    kiln_cpu_pool_run(p, 8, 1 << 26, limit_chunk, &j);
    int32_t n = threads_used(&j, 4);
    most = n > most ? n : most;
  }
  EXPECT(most >= 1 && most <= 2, "calls capped at 2 threads ran on at most 2 (%d)", (int)most);
  EXPECT(kiln_cpu_pool_limit(1) == 2, "the cap was 2");
  EXPECT(kiln_cpu_pool_chunks(p, 1 << 26, 1000) == 1, "capped at 1: one chunk");
  limit_job alone = {0};
  kiln_cpu_pool_run(p, 8, 1 << 26, limit_chunk, &alone);
  EXPECT(atomic_load(&alone.used[0]) == 8 && threads_used(&alone, 4) == 1, "capped at 1: every chunk on the caller");
  EXPECT(kiln_cpu_pool_limit(0) == 1, "the cap was 1");
  EXPECT(kiln_cpu_pool_chunks(p, 1 << 26, 1000) == all, "uncapped: chunks for the whole pool again");
  kiln_cpu_pool_destroy(p);
}

static _Atomic bool g_spin_stop;

static void *spin(void *arg) {
  (void)arg;
  while (!atomic_load_explicit(&g_spin_stop, memory_order_relaxed)) {
  }
  return NULL;
}

/* The threads a run should use (kiln_cpu_pool_run_threads): all of them for a run not yet
 * timed, a long run and a pool of one; fewer for a short run once threads of other work
 * (here as many spinning threads as the host has CPUs) keep every CPU busy. */
static void test_run_threads(void) {
  kiln_cpu_pool *p = NULL, *one = NULL;
  kiln_status_free(kiln_cpu_pool_create(2, &p));
  kiln_status_free(kiln_cpu_pool_create(1, &one));
  EXPECT(p && one, "pools of 2 threads and 1");
  if (p && one) {
    EXPECT(kiln_cpu_pool_run_threads(p, 0) == 2, "a run not yet timed: every thread");
    EXPECT(kiln_cpu_pool_run_threads(one, 100000) == 1, "a pool of one: one");
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    pthread_t spinners[64];
    int started = 0;
    atomic_store(&g_spin_stop, false);
    while (started < cpus && started < 64 && pthread_create(&spinners[started], NULL, spin, NULL) == 0) started++;
    int32_t least = 2;
    for (int64_t t0 = mono_ns(); least > 1 && mono_ns() - t0 < 2000000000;) { /* 8 samples 10 ms apart */
      int32_t n = kiln_cpu_pool_run_threads(p, 100000);
      least = n < least ? n : least;
      sleep_ns(2000000);
    }
    EXPECT(started < cpus || least == 1, "a short run beside %d spinning threads on %d CPUs: the caller alone (%d)",
           started, cpus, (int)least);
    EXPECT(kiln_cpu_pool_run_threads(p, 5000000) == 2, "a run of 5 ms: every thread, busy host or not");
    atomic_store(&g_spin_stop, true);
    for (int i = 0; i < started; i++) pthread_join(spinners[i], NULL);
  }
  kiln_cpu_pool_destroy(p);
  kiln_cpu_pool_destroy(one);
}

int main(void) {
  test_exactly_once();
  test_many_chunks();
  test_two_ends();
  test_single_thread();
  test_concurrent_callers();
  test_back_to_back();
  test_create_errors();
  test_size();
  test_cost_model();
  test_rescue();
  test_limit();
  test_run_threads();
  test_parallel_grain();
  test_shared();
  test_parts();
#ifndef __SANITIZE_THREAD__
  test_fork();
#endif
  return test_summary();
}
