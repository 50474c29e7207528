/* The cpu backend's thread pool: every parallel piece of work of the backend (generated
 * loops, sorts, conversions, oneDNN steps split into single-threaded parts) runs on it, so
 * one set of threads serves everything and no OpenMP team is ever formed.
 *
 * A parallel call is a number of chunks, claimed one at a time by whichever thread gets
 * there first: the caller from the first chunk on, workers from the last one back, so a
 * thread tends to work on the same points from call to call. The calling thread works
 * too, and when it finds no chunk left it waits only for the chunks that running workers
 * have claimed: a worker the kernel has not scheduled yet claims nothing, so nobody waits
 * for it. Workers spin a short
 * while after their last chunk (catching the next step of a run), then sleep on a futex;
 * a call only wakes sleeping workers when its work is large enough to pay for a wake-up
 * (kiln_cpu_pool_chunks); with every worker asleep, smaller work stays on the caller.
 *
 * The pool size (threads, the caller included) follows the cores the process may use: the
 * affinity mask (sched_getaffinity) and the cgroup's CPU quota (v2 cpu.max, v1
 * cpu.cfs_quota_us / cpu.cfs_period_us, the smallest along the cgroup's ancestors). The
 * environment variable KILN_CPU_THREADS=N (1 to 1024) overrides it.
 *
 * Thread-safety: every function may be called from any thread. One call uses a pool at a
 * time: a call made while another is in progress (another thread, another executable), or
 * from inside a chunk (a nested call), runs its chunks on the calling thread. */
#ifndef KILN_BACKENDS_CPU_POOL_H
#define KILN_BACKENDS_CPU_POOL_H

#include <stdint.h>

#include "kiln/status.h"

enum { KILN_CPU_POOL_MAX_THREADS = 1024 };

typedef struct kiln_cpu_pool kiln_cpu_pool;

/* A chunk of a parallel call: `chunk` in [0, chunks); `thread` in [0, threads) names the
 * thread running it (0: the caller), so a chunk may use per-thread scratch: no two chunks
 * run at once with the same thread number within one call. */
typedef void (*kiln_cpu_pool_fn)(void *ctx, int32_t chunk, int32_t thread);

/* The pool size this process should use now: KILN_CPU_THREADS when set, else the cores of
 * the affinity mask, at most the cgroup quota (rounded up), at least 1. INVALID_ARGUMENT
 * (naming the variable and the value) for a KILN_CPU_THREADS that is not an integer in
 * [1, 1024]. Reads the environment and /proc, /sys each call. */
kiln_status kiln_cpu_pool_threads_wanted(int32_t *out_threads);
/* Cores a CPU quota allows, rounded up: text is "QUOTA PERIOD" (cgroup v2 cpu.max, or v1's
 * two files' values); 0 for no limit ("max", -1) or text that does not read so. */
int32_t kiln_cpu_pool_quota_cpus(const char *text);

/* A pool of `threads` threads (the caller counts as one: threads - 1 workers are started).
 * RESOURCE_EXHAUSTED when the threads cannot be started; INVALID_ARGUMENT for a count
 * outside [1, KILN_CPU_POOL_MAX_THREADS]. The caller owns it (kiln_cpu_pool_destroy). */
kiln_status kiln_cpu_pool_create(int32_t threads, kiln_cpu_pool **out);
/* Stops and joins the workers; no call may be in progress. NULL allowed. */
void kiln_cpu_pool_destroy(kiln_cpu_pool *p);

/* The pool the calling thread runs on: the one kiln_cpu_pool_bind gave it, else the
 * process's pool, made on first use with kiln_cpu_pool_threads_wanted() threads (or one,
 * without workers, if that fails: kiln_cpu_pool_setup reports why). Never NULL. A child
 * process made by fork makes a pool of its own (its parent's workers are not in it); a
 * pool made with kiln_cpu_pool_create must not be used across a fork. */
kiln_cpu_pool *kiln_cpu_pool_shared(void);
/* The pool of part `index` of `count` (0 <= index < count, count from 1 to
 * KILN_CPU_POOL_MAX_THREADS): the process's threads split into count parts, so that count
 * devices running at once use the cores once, not count times over. Part k gets
 * threads / count threads, one more for k < threads % count, at least one (the caller
 * alone, no workers, when there are more parts than threads). count 1 is the process's
 * pool itself. Made on first use and kept (one per index and count) until
 * kiln_cpu_pool_shutdown; a forked child makes its own, like the process's pool. Never
 * NULL: a part whose threads cannot start is the caller alone. Thread-safe. */
kiln_cpu_pool *kiln_cpu_pool_part(int32_t index, int32_t count);
/* The threads of that part, as kiln_cpu_pool_part would make it now (without making it);
 * the process's pool size for count 1. */
int32_t kiln_cpu_pool_part_threads(int32_t index, int32_t count);
/* Makes kiln_cpu_pool_shared() return p on the calling thread (NULL: the process's pool
 * again) and returns the pool bound before, to be bound again when the work is done: a
 * device that is one part of the process binds its part's pool for a run, so every
 * parallel step of the run, whichever file it is in, uses that device's threads. */
kiln_cpu_pool *kiln_cpu_pool_bind(kiln_cpu_pool *p);
/* Whether the shared pool can be set up: a bad KILN_CPU_THREADS, or threads that would
 * not start when it was made, is an error ("cpu: ..."); NULL when fine. Starts no thread
 * (a process may check it, then fork). A new status each call. */
kiln_status kiln_cpu_pool_setup(void);
/* Stops the workers of the shared pool and of the parts (the plugin's unload); a later use
 * starts them again. */
void kiln_cpu_pool_shutdown(void);

/* How many of p's threads (the caller among them) a run should use: all of them, or when
 * the run is short (typical_ns, what its runs on all of p's threads take, under 2 ms; 0:
 * not known yet) only as many as the CPUs other threads leave free on the host (load.h:
 * the mean of the runnable threads not p's, sampled from /proc/loadavg at most every 10 ms
 * by the calls that get here), at least 1. A thread beyond those queues behind another
 * process and holds a short run up for that process's time slice, milliseconds.
 * Thread-safe. */
int32_t kiln_cpu_pool_run_threads(const kiln_cpu_pool *p, int64_t typical_ns);
/* Caps the threads the calling thread's calls use (chunks and workers, the caller among
 * them) at `threads` (0 or less: no cap) and returns the cap it had, to be put back when
 * the run ends. A call on a pool of more threads lets only the first threads - 1 workers
 * that join it claim chunks; with a cap of 1, calls run on the caller. */
int32_t kiln_cpu_pool_limit(int32_t threads);

int32_t kiln_cpu_pool_threads(const kiln_cpu_pool *p);
/* How many times callers have moved a worker onto their CPU (kiln_cpu_pool_run), for tests
 * and figures. */
uint64_t kiln_cpu_pool_rescues(const kiln_cpu_pool *p);

/* The cost model: into how many chunks (at most max_chunks, at least 1) to split `work`
 * (elements touched, summed over the call) over the threads the calling thread may use
 * (kiln_cpu_pool_limit) so that each chunk pays for its hand-off;
 * 1 means the caller should run it alone. Fewer than two chunks a thread are rounded down
 * to one a thread (3 chunks on 2 threads left one thread two of them). */
int32_t kiln_cpu_pool_chunks(const kiln_cpu_pool *p, int64_t work, int64_t max_chunks);

/* Runs fn(ctx, c, t) exactly once for every chunk c in [0, chunks) and returns when all
 * have finished. `work` (as for kiln_cpu_pool_chunks) decides whether sleeping workers are
 * woken. Chunks run in no particular order, possibly all on the calling thread: chunk 0
 * always runs there, first; a call of more than 65535 chunks runs wholly there. A caller
 * that has waited 0.2 ms for chunks that workers hold moves those workers onto its own CPU
 * before it sleeps (a worker preempted by another process would otherwise wait out the
 * other's time slice); each puts its affinity back when its chunk ends. */
void kiln_cpu_pool_run(kiln_cpu_pool *p, int32_t chunks, int64_t work, kiln_cpu_pool_fn fn, void *ctx);

#endif
