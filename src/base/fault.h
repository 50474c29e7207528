/* Fault injection, for the tests of error paths: in a build configured with
 * -DKILN_FAULT_INJECTION=ON, every place where a run can fail (each step of a cpu run,
 * each allocation a run makes: kiln_fault_malloc and friends, the run state, tensors,
 * interpreter values, scratch; each library call that can fail: oneDNN's, LAPACK's
 * info) asks kiln_fault_point() whether to fail now; a test arms the n-th point to fail
 * and checks that the run returns an error, frees everything and runs correctly
 * afterwards (tests/backends/cpu/test_faults.c). In every other build
 * kiln_fault_point() is the constant false and costs nothing.
 *
 * Thread-safe (atomics); points are counted process-wide, so a test arms them while one
 * run is in flight. */
#ifndef KILN_BASE_FAULT_H
#define KILN_BASE_FAULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef KILN_FAULT_INJECTION
/* Counts a point; true when it is the armed one (which then fails once). */
bool kiln_fault_point(void);
/* Restarts the count; the n-th point from now fails (n <= 0: none fails, points are only
 * counted). */
void kiln_fault_arm(int64_t n);
/* The points reached since the last kiln_fault_arm. */
int64_t kiln_fault_points(void);
#else
static inline bool kiln_fault_point(void) { return false; }
#endif

/* The allocations a run makes: malloc, calloc and aligned_alloc, each a fault point that
 * returns NULL when it fails. The caller frees the memory with free. */
static inline void *kiln_fault_malloc(size_t bytes) { return kiln_fault_point() ? NULL : malloc(bytes); }
static inline void *kiln_fault_calloc(size_t count, size_t size) { return kiln_fault_point() ? NULL : calloc(count, size); }
static inline void *kiln_fault_aligned_alloc(size_t align, size_t bytes) {
  return kiln_fault_point() ? NULL : aligned_alloc(align, bytes);
}

#endif
