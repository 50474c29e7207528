/* The compile cache (see cache.h): a fixed table of intrusive doubly-linked chains. */
#include "runtime/cache.h"

#include <string.h>

enum { NUM_CHAINS = 256 }; /* chosen by the digest's first byte */

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static kiln_executable *g_chains[NUM_CHAINS];

void kiln_cache_key(kiln_executable *x, const kiln_program *p, const char *function, const kiln_device *d) {
  kiln_sha256 h;
  kiln_sha256_init(&h);
  kiln_sha256_update(&h, p->digest, sizeof p->digest);
  uint8_t line[4] = {(uint8_t)p->source.first_line, (uint8_t)(p->source.first_line >> 8),
                     (uint8_t)(p->source.first_line >> 16), (uint8_t)(p->source.first_line >> 24)};
  kiln_sha256_update(&h, line, sizeof line);
  kiln_sha256_update(&h, p->name, strlen(p->name) + 1); /* with the NUL: "ab"+"c" differs from "a"+"bc" */
  kiln_sha256_update(&h, function, strlen(function) + 1);
  kiln_sha256_final(&h, x->key);
  x->key_device = d;
}

/* Adds a reference unless the count has already reached zero (x is being destroyed). */
static bool try_retain(kiln_executable *x) {
  int n = atomic_load(&x->refs);
  while (n > 0 && !atomic_compare_exchange_weak(&x->refs, &n, n + 1)) {}
  return n > 0;
}

/* Called with g_mu held. */
static kiln_executable *find_locked(const kiln_executable *probe) {
  for (kiln_executable *x = g_chains[probe->key[0]]; x; x = x->cache_next)
    if (x->key_device == probe->key_device && !memcmp(x->key, probe->key, sizeof x->key) && try_retain(x)) return x;
  return NULL;
}

kiln_executable *kiln_cache_find(const kiln_executable *probe) {
  pthread_mutex_lock(&g_mu);
  kiln_executable *x = find_locked(probe);
  pthread_mutex_unlock(&g_mu);
  return x;
}

kiln_executable *kiln_cache_insert(kiln_executable *x) {
  pthread_mutex_lock(&g_mu);
  kiln_executable *live = find_locked(x);
  if (!live) {
    kiln_executable **head = &g_chains[x->key[0]];
    x->cache_next = *head;
    x->cache_prev = head;
    if (*head) (*head)->cache_prev = &x->cache_next;
    *head = x;
    x->cached = true;
  }
  pthread_mutex_unlock(&g_mu);
  return live ? live : x;
}

bool kiln_cache_drop(kiln_executable *x) {
  if (atomic_fetch_sub(&x->refs, 1) != 1) return false;
  pthread_mutex_lock(&g_mu);
  if (x->cached) {
    *x->cache_prev = x->cache_next;
    if (x->cache_next) x->cache_next->cache_prev = x->cache_prev;
    x->cached = false;
  }
  pthread_mutex_unlock(&g_mu);
  return true;
}
