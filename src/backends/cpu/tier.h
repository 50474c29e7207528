/* Tiered execution: one executable, two tiers of code behind it.
 *
 * The fast-start tier ("baseline") is the cpu schedule built without generated code:
 * contractions and convolutions still go to oneDNN, sorts, gathers, scatters, slices and
 * FFTs to their native kernels, and the ops the optimising tier would fuse into LLVM loops
 * run on the interpreter's kernels. It compiles in about a millisecond. The optimising tier
 * is the full compile (fusion, LLVM, warm-up).
 *
 * A tiered compile builds the baseline, decides (the policy below) whether to run on it,
 * and if so returns at once; the program's second run queues the optimising compile on
 * the plugin's one background compile thread (at a lower scheduling priority: nice +10),
 * so a program run once never pays for it; runs use the baseline until the optimised
 * executable is published, then use that. The switch is one atomic pointer store (release) read by each run
 * (acquire): a run uses one tier from its start to its end, never a mix.
 *
 * Policy (KILN_CPU_TIER=auto, the default): a program whose baseline run would cost more
 * extra time than its optimising compile (estimated from the elements its interpreted
 * steps touch, windows counted per folded element, and how many steps there are, with
 * per-element and per-op costs measured on this machine kind) compiles before its first
 * run, as does a shape-polymorphic entry (its signatures compile as they come:
 * specialize.c); the others start at once. The queue takes the program run most often
 * first.
 *
 * Settings: KILN_CPU_TIER = auto | tiered (always start on the baseline, compile queued
 * at once, and switch) |
 * baseline (the baseline only, never optimised) | optimized (compile first, as without
 * tiers). Read at each compile; an unknown value is an error (the probe reports it).
 *
 * Thread-safety: any number of threads may run one tiered executable at once, also while
 * it switches; destroy waits for its background compile (or takes it off the queue) and
 * must not race with runs. A fork while a background compile is in progress waits for it
 * to finish first (pthread_atfork), so a child never inherits a half-done compile; the
 * child's queue is served by a thread of its own. */
#ifndef KILN_BACKENDS_CPU_TIER_H
#define KILN_BACKENDS_CPU_TIER_H

#include "backends/cpu/cpu.h"

typedef enum kiln_cpu_tier_mode {
  KILN_CPU_TIER_AUTO,
  KILN_CPU_TIER_TIERED,
  KILN_CPU_TIER_BASELINE,
  KILN_CPU_TIER_OPTIMIZED,
} kiln_cpu_tier_mode;

/* KILN_CPU_TIER as a mode (AUTO when unset or empty); INVALID_ARGUMENT naming the
 * variable, the value and the choices otherwise. */
kiln_status kiln_cpu_tier_mode_from_env(kiln_cpu_tier_mode *out);

typedef struct kiln_cpu_tiered kiln_cpu_tiered;

/* Compiles function of m (both borrowed: they must outlive the executable) as the mode
 * says. *out is owned by the caller (kiln_cpu_tiered_destroy). */
kiln_status kiln_cpu_tiered_compile(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                    kiln_cpu_tiered **out);

/* Runs the best tier published now (kiln_cpu_run's contract); *out_optimized (may be
 * NULL) says which ran. */
kiln_status kiln_cpu_tiered_run(kiln_cpu_tiered *t, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                                kiln_check_log *checks, bool *out_optimized);

typedef struct kiln_cpu_tier_info {
  bool optimized;             /* the optimised tier runs now */
  bool pending;               /* the optimising compile is queued or in progress */
  uint64_t baseline_runs, optimized_runs;
} kiln_cpu_tier_info;

/* The executable that runs now (for its figures), and the tier state. Thread-safe. */
const kiln_cpu_executable *kiln_cpu_tiered_current(const kiln_cpu_tiered *t, kiln_cpu_tier_info *out_info);

void kiln_cpu_tiered_destroy(kiln_cpu_tiered *t);

/* Stops the background compile thread (the plugin's unload); jobs still queued stay on
 * their baseline. */
void kiln_cpu_tier_shutdown(void);

#endif
