/* Bump arena for IR. Every IR object of a module lives in its module's arena and is freed
 * at once with it. Sizes are overflow-checked: an allocation whose size overflows, or that
 * would take the arena past its limit, returns NULL (the caller reports
 * RESOURCE_EXHAUSTED). Not thread-safe: one arena belongs to one thread at a time. */
#ifndef KILN_BASE_ARENA_H
#define KILN_BASE_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kiln_arena kiln_arena;

/* limit_bytes: the most the arena may hold in all (0 means no limit). NULL on OOM. */
kiln_arena *kiln_arena_create(size_t limit_bytes);
void kiln_arena_destroy(kiln_arena *arena);
/* Zeroed, 16-byte aligned memory (64-byte aligned from 256 bytes up: tensor data starts
 * on a cache line), or NULL. */
void *kiln_arena_alloc(kiln_arena *arena, size_t size);
/* n * elem_size bytes, checked for overflow. */
void *kiln_arena_alloc_array(kiln_arena *arena, size_t n, size_t elem_size);
/* Copies n bytes and appends a NUL. */
char *kiln_arena_strndup(kiln_arena *arena, const char *s, size_t n);
/* Bytes handed out so far. */
size_t kiln_arena_used(const kiln_arena *arena);

/* Checked arithmetic: false on overflow (then *out is unspecified). */
static inline bool kiln_mul_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}
static inline bool kiln_add_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}
static inline bool kiln_mul_size(size_t a, size_t b, size_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

#endif
