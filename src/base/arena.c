#include "base/arena.h"

#include <stdlib.h>
#include <string.h>

typedef struct chunk {
  struct chunk *next;
  size_t size, used;
  _Alignas(16) unsigned char data[];
} chunk;

struct kiln_arena {
  chunk *head;
  size_t limit, total;
};

enum { CHUNK_MIN = 64 * 1024 };

kiln_arena *kiln_arena_create(size_t limit_bytes) {
  kiln_arena *a = calloc(1, sizeof *a);
  if (a) a->limit = limit_bytes;
  return a;
}

void kiln_arena_destroy(kiln_arena *a) {
  if (!a) return;
  for (chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

/* Blocks of this size or more start on a cache line (tensor data read by vector loads). */
enum { LINE_FROM = 256, LINE = 64 };

void *kiln_arena_alloc(kiln_arena *a, size_t size) {
  if (size > SIZE_MAX - 2 * LINE) return NULL;
  size_t need = (size + 15) & ~(size_t)15;
  if (need == 0) need = 16;
  size_t slack = need >= LINE_FROM ? LINE - 16 : 0; /* the most a line start can take */
  if (a->limit && (need > a->limit || a->total > a->limit - need)) return NULL;
  chunk *c = a->head;
  if (!c || c->size - c->used < need + slack) {
    size_t sz = need + slack > CHUNK_MIN ? need + slack : CHUNK_MIN;
    c = malloc(sizeof *c + sz);
    if (!c) return NULL;
    c->size = sz;
    c->used = 0;
    /* Large one-off blocks go behind the head so the head keeps its free space. */
    if (a->head && need + slack > CHUNK_MIN) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
    }
  }
  if (slack) c->used += (size_t)(-(uintptr_t)(c->data + c->used) & (LINE - 1)); /* within slack: both 16-aligned */
  void *p = c->data + c->used;
  c->used += need;
  a->total += need;
  memset(p, 0, need);
  return p;
}

void *kiln_arena_alloc_array(kiln_arena *a, size_t n, size_t elem_size) {
  size_t bytes;
  if (!kiln_mul_size(n, elem_size, &bytes)) return NULL;
  return kiln_arena_alloc(a, bytes);
}

char *kiln_arena_strndup(kiln_arena *a, const char *s, size_t n) {
  if (n == SIZE_MAX) return NULL;
  char *p = kiln_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

size_t kiln_arena_used(const kiln_arena *a) { return a->total; }
