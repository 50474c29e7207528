/* Fault injection, for the tests of error paths: in a build configured with
 * -DKILN_FAULT_INJECTION=ON, every place where a run can fail (each step of a cpu run,
 * each tensor or run-state allocation, each library call that can fail) asks
 * kiln_fault_point() whether to fail now; a test arms the n-th point to fail and checks
 * that the run returns an error, frees everything and runs correctly afterwards
 * (tests/backends/cpu/test_faults.c). In every other build kiln_fault_point() is the
 * constant false and costs nothing.
 *
 * Thread-safe (atomics); points are counted process-wide, so a test arms them while one
 * run is in flight. */
#ifndef KILN_BASE_FAULT_H
#define KILN_BASE_FAULT_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
