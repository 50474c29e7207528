/* The code of a lean while loop compiled whole (while_driver.h): the driver function over
 * loops already compiled, generated with LLVM (while_code.c). Kept apart from cpu.h, whose
 * names the LLVM code generator's headers share. */
#ifndef KILN_BACKENDS_CPU_WHILE_CODE_H
#define KILN_BACKENDS_CPU_WHILE_CODE_H

#include "backends/cpu/loop.h"

/* The phases of a lean loop's argument arrays. */
enum { KILN_CPU_PHASE_FIRST, KILN_CPU_PHASE_EVEN, KILN_CPU_PHASE_ODD, KILN_CPU_PHASES };

/* A direct condition: side[0] <dir> side[1], each side a region argument of the condition
 * (carried values, then its captured ones) or a constant. */
typedef struct kiln_cpu_while_cond {
  int32_t arg[2];      /* the argument each side reads; -1: constant[i] */
  int64_t constant[2];
  kiln_compare_dir dir;
  kiln_elem elem;      /* a signed or unsigned integer type of 8, 16, 32 or 64 bits */
  bool is_unsigned;
} kiln_cpu_while_cond;

/* A step the driver does not run itself: hook(ctx, step, its arrays) runs it, returning
 * NULL or the failure (kiln_cpu_step_hook). */
typedef kiln_status (*kiln_cpu_while_hook)(void *ctx, int32_t step, void **args);

/* What a driver calls for the steps it does not run itself, and where it leaves a failure. */
typedef struct kiln_cpu_while_calls {
  kiln_cpu_while_hook hook;
  void *ctx;
  kiln_status failed; /* set when the driver returns -1 */
} kiln_cpu_while_calls;

/* Runs the loop from phase FIRST while the condition holds: args holds KILN_CPU_PHASES
 * arrays of `per_phase` pointers back to back (kiln_cpu_lean_fill's), sides
 * KILN_CPU_PHASES pairs: each phase's address of each side's value (NULL for a constant).
 * Returns the phase the next iteration would read (FIRST when none ran), or -1 when a
 * hooked step failed (calls->failed holds why; the loop stopped there). */
typedef int64_t (*kiln_cpu_while_fn)(void *const *args, void *const *sides, kiln_cpu_while_calls *calls);

#define KILN_CPU_DRIVER_MAX_STEPS 32

/* The body: n steps (at most KILN_CPU_DRIVER_MAX_STEPS), step k at offsets[k] of a
 * phase's array of per_phase pointers: the loop loops[k] over [0, points[k]) run by the
 * driver itself, or (loops[k] NULL) a step it hooks, or (offsets[k] < 0) one a hooked
 * step runs with itself (the rest of a row-block run). */
typedef struct kiln_cpu_while_body {
  int32_t n;
  kiln_cpu_loop *const *loops;
  const int64_t *points, *offsets;
  int64_t per_phase;
} kiln_cpu_while_body;

/* The driver of body and cond, compiled (or loaded from the compile cache) with its loops
 * inlined; the code is the caller's (kiln_cpu_code_destroy). */
kiln_status kiln_cpu_while_code(const kiln_cpu_while_body *body, const kiln_cpu_while_cond *cond, kiln_cpu_code **out_code,
                                kiln_cpu_while_fn *out_fn);

#endif
