/* Every op of the op table has an interpreter kernel, but for the structural ops the
 * region runner handles itself (modules, functions, terminators) and the Shardy ops, which
 * the partitioner (src/spmd) rewrites away before any backend sees a program. */
#include <stdio.h>

#include "backends/interp/interp.h"

static bool structural(kiln_op_kind k) {
  return k == KILN_OP_MODULE || k == KILN_OP_FUNC || k == KILN_OP_FUNC_RETURN || k == KILN_OP_RETURN ||
         k == KILN_OP_SCF_YIELD || (k >= KILN_OP_SDY_MESH && k <= KILN_OP_SDY_RETURN);
}

int main(void) {
  int passed = 0, failed = 0;
  for (int k = 0; k < KILN_OP_COUNT; k++) {
    if (structural((kiln_op_kind)k)) continue;
    if (kiln_interp_kernel_for((kiln_op_kind)k)) {
      passed++;
    } else {
      printf("FAIL no interpreter kernel for %s\n", kiln_op_name((kiln_op_kind)k));
      failed++;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
