/* A lean while loop compiled whole (control.c). A lean loop's iterations replay its
 * body's steps on argument arrays filled once, one per phase (kiln_cpu_lean_fill: the
 * first iteration's, then two that alternate), and test its direct condition (a compare
 * of two integer scalars) between them. When every step of the body is a generated loop
 * that runs on the calling thread alone, the driver is one generated function that does
 * all of it: the condition, then each step's kernel inlined with its points as constants,
 * iteration after iteration, with no call, no per-step bookkeeping and nothing but the
 * kernels' loads and stores between iterations (scalar_fori_10k, 10,000 iterations of 2
 * steps: 107-113 us replayed, 28 us driven, XLA:CPU's 29; AVX-512 host, 2026-12-07). Other steps
 * (a scan's dynamic_slice of its input row, a gather, a oneDNN product, a loop on several
 * threads) are called through a hook, with no per-step bookkeeping either.
 *
 * Ownership: the code is the caller's (kiln_cpu_code_destroy). The driver reads and
 * writes only through the arrays it is given: any number of threads may call it at once
 * on arrays of their own. */
#ifndef KILN_BACKENDS_CPU_WHILE_DRIVER_H
#define KILN_BACKENDS_CPU_WHILE_DRIVER_H

#include "backends/cpu/cpu.h"
#include "backends/cpu/while_code.h"

/* The driver of a lean loop whose body is body (compiled, tier optimised) and whose
 * condition is cond; steps that are generated loops on the calling thread alone run in it,
 * the others through kiln_cpu_step_hook. *out_fn NULL (and no error) when the body does
 * not qualify: quick code, a parametric (family) body, a profiled one (KILN_CPU_PROFILE
 * times each step), more than KILN_CPU_DRIVER_MAX_STEPS steps, or more work an iteration
 * than DRIVER_MAX_WORK (while_driver.c), where a replay's few ns a step do not matter and
 * a second compile of the body's loops would not pay. */
kiln_status kiln_cpu_while_driver(const kiln_cpu_executable *body, const kiln_cpu_while_cond *cond,
                                  kiln_cpu_code **out_code, kiln_cpu_while_fn *out_fn);

#endif
