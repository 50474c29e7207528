/* test_pjrt PLUGIN [CONFORMANCE_VHLO_DIR [DEVICES [MIN_READ]]]: loads libkiln_pjrt.so with dlopen as
 * JAX and EXLA do and replays their call sequences, the error paths, concurrent execution,
 * the buffer and executable queries, several devices in one client, and the VHLO artifacts of the conformance material.
 * Ends with "N passed, N failed". */
#include <dlfcn.h>
#include <stdlib.h>

#include "support.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_pjrt PLUGIN [CONFORMANCE_VHLO_DIR [DEVICES [MIN_READ]]]\n");
    return 2;
  }
  if (argc > 3) t_devices = argv[3];
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "test_pjrt: %s\n", dlerror());
    return 1;
  }
  const PJRT_Api *(*get)(void) = (const PJRT_Api *(*)(void))dlsym(lib, "GetPjrtApi");
  CHECK(get, "no GetPjrtApi");
  CHECK(!dlsym(lib, "kiln_pjrt_error"), "the plugin exports more than GetPjrtApi");
  if (get) {
    api = get();
    t_jax();
    t_exla();
    t_errors();
    t_threads();
    t_queries();
    t_devices_many();
    t_donate();
    t_sharded();
    t_conformance(argc > 2 ? argv[2] : NULL, argc > 4 ? atoi(argv[4]) : 0);
  }
  printf("%d passed, %d failed\n", t_passed, t_failed);
  return t_failed ? 1 : 0;
}
