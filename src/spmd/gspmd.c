/* GSPMD's shardings (`mhlo.sharding` strings, JAX with jax_use_shardy_partitioner=False)
 * as the partitioner's (spmd.h's kiln_gspmd_parse).
 *
 * A tiled sharding `{devices=[d0,...,dk]LIST}` is a tile assignment: an array of devices of
 * shape [d0..dk] whose element at (t0..tk) holds tile (t0..t_{rank-1}); LIST is the array
 * row-major, either written out (`0,2,1,3`) or an iota `<=[N]`, or an iota of shape [r..]
 * transposed, `<=[r0,r1]T(1,0)`. With `last_tile_dim_replicate` the last tile dimension
 * replicates. Kiln reads it as a mesh of its own with one axis per tile dimension (axis i
 * of size d_i, "gspmd_i"; device_ids the array) and dimension i split by axis i. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "spmd/spmd.h"

typedef struct cursor {
  const char *s;
  size_t at;
} cursor;

static void blanks(cursor *c) {
  while (c->s[c->at] == ' ') c->at++;
}

static bool lit(cursor *c, const char *word) {
  blanks(c);
  size_t n = strlen(word);
  if (strncmp(c->s + c->at, word, n)) return false;
  c->at += n;
  return true;
}

static bool number(cursor *c, int64_t *v) {
  blanks(c);
  if (!isdigit((unsigned char)c->s[c->at])) return false;
  int64_t x = 0;
  while (isdigit((unsigned char)c->s[c->at])) {
    if (x > (INT64_MAX - 9) / 10) return false;
    x = x * 10 + (c->s[c->at++] - '0');
  }
  *v = x;
  return true;
}

/* `[n0,n1,...]` into v (at most max entries). */
static bool list(cursor *c, int64_t *v, int32_t max, int32_t *n) {
  *n = 0;
  if (!lit(c, "[")) return false;
  do {
    if (*n == max || !number(c, &v[*n])) return false;
    (*n)++;
  } while (lit(c, ","));
  return lit(c, "]");
}

static kiln_status bad(const char *text, size_t at, const char *what) {
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "mhlo.sharding \"%s\": %s at offset %zu", text, what, at);
}

/* The tile assignment's devices, row-major: written out, or an iota (transposed). */
static kiln_status devices(cursor *c, const char *text, int64_t *ids, int64_t n) {
  if (!lit(c, "<=")) {
    for (int64_t i = 0; i < n; i++)
      if ((i && !lit(c, ",")) || !number(c, &ids[i])) return bad(text, c->at, "expected the tile assignment's devices");
    return NULL;
  }
  int64_t shape[KILN_SPMD_MAX_AXES], perm[KILN_SPMD_MAX_AXES];
  int32_t rank = 0, np = 0;
  if (!list(c, shape, KILN_SPMD_MAX_AXES, &rank)) return bad(text, c->at, "expected an iota's shape");
  int64_t total = 1;
  for (int32_t i = 0; i < rank; i++) total *= shape[i];
  if (total != n) return bad(text, c->at, "the iota's shape does not hold the tiles' devices");
  if (lit(c, "T(")) {
    do {
      if (np == KILN_SPMD_MAX_AXES || !number(c, &perm[np])) return bad(text, c->at, "expected a permutation");
      np++;
    } while (lit(c, ","));
    if (!lit(c, ")") || np != rank) return bad(text, c->at, "expected a permutation of the iota's dimensions");
    for (int32_t i = 0; i < rank; i++)
      for (int32_t j = 0; j < i; j++)
        if (perm[i] < 0 || perm[i] >= rank || perm[i] == perm[j]) return bad(text, c->at, "not a permutation");
  } else {
    for (int32_t i = 0; i < rank; i++) perm[i] = i;
  }
  /* element q of the transposed array (shape[perm[k]] along k) is iota element i, where
   * i's index along perm[k] is q's index along k */
  for (int64_t q = 0; q < n; q++) {
    int64_t rest = q, idx[KILN_SPMD_MAX_AXES], flat = 0;
    for (int32_t k = rank - 1; k >= 0; k--) {
      idx[perm[k]] = rest % shape[perm[k]];
      rest /= shape[perm[k]];
    }
    for (int32_t i = 0; i < rank; i++) flat = flat * shape[i] + idx[i];
    ids[q] = flat;
  }
  return NULL;
}

kiln_status kiln_gspmd_parse(kiln_arena *arena, const char *text, int32_t rank, const kiln_sharding **out,
                             bool *manual) {
  *out = NULL;
  *manual = false;
  cursor c = {text, 0};
  if (!lit(&c, "{")) return bad(text, c.at, "expected '{'");
  if (lit(&c, "replicated") || lit(&c, "maximal")) return NULL; /* every device computes it whole */
  if (lit(&c, "manual")) {
    *manual = true;
    return NULL;
  }
  int64_t tiles[KILN_SPMD_MAX_AXES];
  int32_t ntiles = 0;
  if (!lit(&c, "devices=") || !list(&c, tiles, KILN_SPMD_MAX_AXES, &ntiles))
    return bad(text, c.at, "expected replicated, maximal, manual or devices=[...] (a tuple's shardings are not read)");
  int64_t n = 1;
  for (int32_t i = 0; i < ntiles; i++) {
    if (tiles[i] < 1) return bad(text, c.at, "a tile dimension of size 0");
    if (n > KILN_SPMD_MAX_DEVICES / tiles[i]) return bad(text, c.at, "a tile assignment too large");
    n *= tiles[i];
  }
  kiln_mesh *mesh = kiln_arena_alloc(arena, sizeof *mesh);
  kiln_sharding *s = kiln_arena_alloc(arena, sizeof *s);
  kiln_dim_sharding *dims = kiln_arena_alloc_array(arena, (size_t)rank + 1, sizeof *dims);
  kiln_axis_ref *refs = kiln_arena_alloc_array(arena, (size_t)ntiles + 1, sizeof *refs);
  const char **names = kiln_arena_alloc_array(arena, (size_t)ntiles + 1, sizeof *names);
  int64_t *sizes = kiln_arena_alloc_array(arena, (size_t)ntiles + 1, sizeof *sizes);
  int64_t *ids = kiln_arena_alloc_array(arena, (size_t)n, sizeof *ids);
  if (!mesh || !s || !dims || !refs || !names || !sizes || !ids)
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory reading a sharding");
  KILN_RETURN_IF_ERROR(devices(&c, text, ids, n));
  bool replicate_last = lit(&c, "last_tile_dim_replicate");
  if (!replicate_last && lit(&c, "last_tile_dims="))
    return bad(text, c.at, "subgroups of the last tile dimensions (a partially manual sharding) are not read");
  if (ntiles != rank + (replicate_last ? 1 : 0))
    return bad(text, c.at, "the tile assignment's rank does not match the value's");
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < i; j++)
      if (ids[i] == ids[j]) return bad(text, c.at, "a device appears twice in the tile assignment");
  static const char *const axis_names[KILN_SPMD_MAX_AXES] = {"gspmd_0", "gspmd_1", "gspmd_2",  "gspmd_3",
                                                             "gspmd_4", "gspmd_5", "gspmd_6",  "gspmd_7",
                                                             "gspmd_8", "gspmd_9", "gspmd_10", "gspmd_11",
                                                             "gspmd_12", "gspmd_13", "gspmd_14", "gspmd_15"};
  for (int32_t i = 0; i < ntiles; i++) {
    names[i] = axis_names[i];
    sizes[i] = tiles[i];
  }
  *mesh = (kiln_mesh){"", ntiles, names, sizes, n, ids};
  for (int32_t i = 0; i < rank; i++) {
    if (tiles[i] == 1) continue;
    refs[i] = (kiln_axis_ref){i, 1, tiles[i]};
    dims[i] = (kiln_dim_sharding){1, &refs[i], false};
  }
  *s = (kiln_sharding){mesh, rank, dims, 0, NULL};
  *out = s;
  return NULL;
}
