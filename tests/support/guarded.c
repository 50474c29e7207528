#define _GNU_SOURCE
#include "guarded.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void *kiln_test_guarded_alloc(size_t bytes, kiln_test_guarded *g) {
  g->base = NULL;
  g->bytes = 0;
  if (bytes == 0) bytes = 1;
  size_t page = (size_t)sysconf(_SC_PAGESIZE), need = (bytes + page - 1) / page * page;
  uint8_t *p = mmap(NULL, need + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  if (mprotect(p + need, page, PROT_NONE) != 0) {
    munmap(p, need + page);
    return NULL;
  }
  g->base = p;
  g->bytes = need + page;
  return p + need - bytes;
}

void kiln_test_guarded_free(kiln_test_guarded *g) {
  if (g->base) munmap(g->base, g->bytes);
  g->base = NULL;
}
