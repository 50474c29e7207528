/* Fault injection (see fault.h); compiled only into KILN_FAULT_INJECTION builds. */
#include "base/fault.h"

#include <stdatomic.h>

static atomic_int_fast64_t g_reached, g_armed;

bool kiln_fault_point(void) {
  int64_t n = (int64_t)atomic_fetch_add(&g_reached, 1) + 1;
  return n == (int64_t)atomic_load(&g_armed);
}

void kiln_fault_arm(int64_t n) {
  atomic_store(&g_armed, n > 0 ? n : 0);
  atomic_store(&g_reached, 0);
}

int64_t kiln_fault_points(void) { return (int64_t)atomic_load(&g_reached); }
