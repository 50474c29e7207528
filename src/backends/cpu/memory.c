/* Host memory for tensors: 64-byte aligned; large blocks are kept when freed and handed
 * out again for the same size (as XLA's and PyTorch's caching allocators do), so a
 * program run in a loop does not pay the kernel's page faults for its results on every
 * run. Thread-safe (one lock around the cache). */
#include <pthread.h>
#include <stdlib.h>

#include "backends/cpu/cpu.h"
#include "base/fault.h"

enum {
  ALIGN = 64,
  CACHE_MIN_BYTES = 1 << 16, /* smaller blocks come from malloc's own free lists */
  CACHE_ENTRIES = 32,
};
#define CACHE_MAX_BYTES ((uint64_t)1 << 30)

typedef struct cached {
  void *p;
  uint64_t bytes;
} cached;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cached g_cache[CACHE_ENTRIES];
static int g_count;
static uint64_t g_cached_bytes;

static uint64_t rounded(uint64_t bytes) {
  uint64_t step = bytes >= CACHE_MIN_BYTES ? 4096 : ALIGN;
  return bytes ? (bytes + step - 1) / step * step : ALIGN;
}

void *kiln_cpu_alloc(uint64_t bytes) {
  if (kiln_fault_point()) return NULL;
  uint64_t n = rounded(bytes);
  if (n >= CACHE_MIN_BYTES) {
    pthread_mutex_lock(&g_lock);
    for (int i = g_count - 1; i >= 0; i--)
      if (g_cache[i].bytes == n) {
        void *p = g_cache[i].p;
        g_cache[i] = g_cache[--g_count];
        g_cached_bytes -= n;
        pthread_mutex_unlock(&g_lock);
        return p;
      }
    pthread_mutex_unlock(&g_lock);
  }
  return n > SIZE_MAX ? NULL : aligned_alloc(ALIGN, (size_t)n);
}

void kiln_cpu_free(void *p, uint64_t bytes) {
  if (!p) return;
  uint64_t n = rounded(bytes);
  if (n >= CACHE_MIN_BYTES && n <= CACHE_MAX_BYTES) {
    pthread_mutex_lock(&g_lock);
    while (g_count > 0 && (g_count == CACHE_ENTRIES || g_cached_bytes + n > CACHE_MAX_BYTES)) {
      free(g_cache[0].p); /* the oldest goes */
      g_cached_bytes -= g_cache[0].bytes;
      for (int i = 1; i < g_count; i++) g_cache[i - 1] = g_cache[i];
      g_count--;
    }
    g_cache[g_count++] = (cached){p, n};
    g_cached_bytes += n;
    pthread_mutex_unlock(&g_lock);
    return;
  }
  free(p);
}

void kiln_cpu_memory_release(void) {
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < g_count; i++) free(g_cache[i].p);
  g_count = 0;
  g_cached_bytes = 0;
  pthread_mutex_unlock(&g_lock);
}
