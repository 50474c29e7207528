/* Host memory for tensors (host_memory.h): 64-byte aligned; large blocks are kept when freed and handed
 * out again for the same size (as XLA's and PyTorch's caching allocators do), so a
 * program run in a loop does not pay the kernel's page faults for its results on every
 * run. Large blocks start at a rotating offset into their first page ("colour"), as
 * jemalloc's cache-oblivious large allocations do: malloc maps each one afresh, page
 * aligned, so otherwise every large tensor would start at the same address modulo 4096,
 * and a loop streaming one into another at the same index stalls on 4K aliasing (a load
 * whose address matches an earlier store's in its low 12 bits waits for it): cumulative_
 * large's scans ran 2.6 ms so, 0.8 ms with malloc's heap instead of fresh mappings
 * (Zen 3, 2026-12-03). Thread-safe (one lock around the cache; the colour counter is
 * atomic). */
#define _DEFAULT_SOURCE /* madvise */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/host_memory.h"

#include "base/fault.h"

enum {
  ALIGN = 64,
  CACHE_MIN_BYTES = 1 << 16, /* smaller blocks come from malloc's own free lists */
  CACHE_ENTRIES = 32,
  COLOURS = 4096 / ALIGN - 1, /* offsets ALIGN to 4096 - ALIGN */
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
static _Atomic uint64_t g_large_blocks; /* made so far: each one's colour */

static uint64_t rounded(uint64_t bytes) {
  uint64_t step = bytes >= CACHE_MIN_BYTES ? 4096 : ALIGN;
  return bytes ? (bytes + step - 1) / step * step : ALIGN;
}

uint64_t kiln_host_colour_bytes(uint64_t i) {
  return (1 + i * 23 % COLOURS) * ALIGN; /* 23: coprime with COLOURS, neighbours spread apart */
}

/* A large block of n bytes: an allocation of n + 4096, the block a colour into it, the
 * allocation's address in the ALIGN bytes before the block. */
static void *coloured(uint64_t n) {
  if (n > SIZE_MAX - 4096) return NULL;
  uint8_t *base = aligned_alloc(ALIGN, (size_t)n + 4096);
  if (!base) return NULL;
  uint8_t *p = base + kiln_host_colour_bytes(atomic_fetch_add_explicit(&g_large_blocks, 1, memory_order_relaxed));
  ((void **)p)[-1] = base;
  return p;
}

void *kiln_host_alloc(uint64_t bytes) {
  if (kiln_fault_point()) return NULL;
  uint64_t n = rounded(bytes);
  if (n < CACHE_MIN_BYTES) return aligned_alloc(ALIGN, (size_t)n);
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
  return coloured(n);
}

static void release(void *p, uint64_t n) {
  if (n < CACHE_MIN_BYTES) free(p);
  else free(((void **)p)[-1]);
}

void kiln_host_free(void *p, uint64_t bytes) {
  if (!p) return;
  uint64_t n = rounded(bytes);
  if (n >= CACHE_MIN_BYTES && n <= CACHE_MAX_BYTES) {
    pthread_mutex_lock(&g_lock);
    while (g_count > 0 && (g_count == CACHE_ENTRIES || g_cached_bytes + n > CACHE_MAX_BYTES)) {
      release(g_cache[0].p, g_cache[0].bytes); /* the oldest goes */
      g_cached_bytes -= g_cache[0].bytes;
      for (int i = 1; i < g_count; i++) g_cache[i - 1] = g_cache[i];
      g_count--;
    }
    g_cache[g_count++] = (cached){p, n};
    g_cached_bytes += n;
    pthread_mutex_unlock(&g_lock);
    return;
  }
  release(p, n);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* linux/mman.h, Linux 5.14 */
#endif

/* A read and a write of the same byte in each page of [from, to): contents unchanged. */
static void touch_pages(uintptr_t from, uintptr_t to, uintptr_t page) {
  for (uintptr_t a = from; a < to; a = (a / page + 1) * page) {
    volatile uint8_t *b = (volatile uint8_t *)a;
    *b = *b;
  }
}

void kiln_host_populate(void *p, uint64_t bytes) {
  if (!p || !bytes) return;
  long ps = sysconf(_SC_PAGESIZE);
  uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096, from = (uintptr_t)p, to = from + (uintptr_t)bytes;
  uintptr_t first = (from + page - 1) / page * page, last = to / page * page; /* the pages wholly inside */
  if (first < last && madvise((void *)first, last - first, MADV_POPULATE_WRITE) == 0) {
    touch_pages(from, first, page); /* the partial pages at the ends */
    touch_pages(last, to, page);
  } else {
    touch_pages(from, to, page);
  }
}

void kiln_host_cache_release(void) {
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < g_count; i++) release(g_cache[i].p, g_cache[i].bytes);
  g_count = 0;
  g_cached_bytes = 0;
  pthread_mutex_unlock(&g_lock);
}
