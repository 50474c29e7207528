/* GSPMD's shardings (`mhlo.sharding` strings, JAX with jax_use_shardy_partitioner=False)
 * as the partitioner's (spmd.h's kiln_gspmd_parse).
 *
 * A tiled sharding `{devices=[d0,...,dk]LIST}` is a tile assignment: an array of devices of
 * shape [d0..dk] whose element at (t0..tk) holds tile (t0..t_{rank-1}); LIST is the array
 * row-major, either written out (`0,2,1,3`) or an iota `<=[N]`, or an iota of shape [r..]
 * transposed, `<=[r0,r1]T(1,0)`. With `last_tile_dim_replicate` the last tile dimension
 * replicates. An iota tile assignment is read over the program's one-axis mesh of its
 * devices (on_iota_mesh), so that shardings of different tile assignments share it; one
 * written out, or whose tile dims split the iota's unevenly, as a mesh of its own with one
 * axis per tile dimension (axis i of size d_i, "gspmd_i"; device_ids the array) and
 * dimension i split by axis i. */
#include <ctype.h>
#include <string.h>

#include "spmd/scan.h"

/* `[n0,n1,...]` into v (at most max entries, none negative). */
typedef struct ints {
  int64_t *v;
  int32_t max, n;
} ints;

static bool int_item(kiln_scan *s, void *ctx) {
  ints *l = ctx;
  int64_t x;
  if (!kiln_scan_read_int(s, &x)) return false;
  if (x < 0) return kiln_scan_fail(s, "a number 0 or above");
  if (l->n == l->max) return kiln_scan_fail(s, "at most 16 numbers in a list");
  l->v[l->n++] = x;
  return true;
}

static bool int_list(kiln_scan *s, int64_t *v, int32_t max, int32_t *n) {
  ints l = {v, max, 0};
  bool ok = kiln_scan_read_list(s, "[", "]", int_item, &l);
  *n = l.n;
  return ok;
}

/* An iota device list: its shape and the transposition (identity when none). */
typedef struct iota {
  int32_t rank; /* 0: the devices were written out */
  int64_t shape[KILN_SPMD_MAX_AXES], perm[KILN_SPMD_MAX_AXES];
} iota;

/* The tile assignment's devices, row-major: written out, or an iota (transposed, *io). */
static bool devices(kiln_scan *s, int64_t *ids, int64_t n, iota *io) {
  io->rank = 0;
  if (!kiln_scan_accept(s, "<=")) {
    for (int64_t i = 0; i < n; i++) {
      if ((i && !kiln_scan_accept(s, ",")) || !kiln_scan_read_int(s, &ids[i]))
        return kiln_scan_fail(s, "the tile assignment's devices");
      if (ids[i] < 0 || ids[i] >= n) return kiln_scan_error(s, "a device outside the tile assignment's devices");
    }
    return true;
  }
  int64_t shape[KILN_SPMD_MAX_AXES], perm[KILN_SPMD_MAX_AXES];
  int32_t rank = 0, np = 0;
  if (!int_list(s, shape, KILN_SPMD_MAX_AXES, &rank)) return false;
  int64_t total = 1;
  for (int32_t i = 0; i < rank; i++)
    if (!kiln_mul_i64(total, shape[i], &total)) return kiln_scan_error(s, "an iota too large");
  if (total != n) return kiln_scan_error(s, "the iota's shape does not hold the tiles' devices");
  if (kiln_scan_accept(s, "T")) {
    if (!kiln_scan_expect(s, "(")) return false;
    do {
      if (np == KILN_SPMD_MAX_AXES || !kiln_scan_read_int(s, &perm[np])) return kiln_scan_fail(s, "a permutation");
      np++;
    } while (kiln_scan_accept(s, ","));
    if (!kiln_scan_expect(s, ")")) return false;
    if (np != rank) return kiln_scan_fail(s, "a permutation of the iota's dimensions");
    for (int32_t i = 0; i < rank; i++)
      for (int32_t j = 0; j <= i; j++)
        if (perm[i] < 0 || perm[i] >= rank || (j < i && perm[i] == perm[j])) return kiln_scan_error(s, "not a permutation");
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
  io->rank = rank;
  memcpy(io->shape, shape, sizeof shape);
  memcpy(io->perm, perm, sizeof perm);
  return true;
}

/* An iota tile assignment over the program's one-axis mesh (axis "devices", device d at
 * coordinate d): the transposed iota's dims are sub-axes of it (iota dim j: pre_size the
 * product of the dims after j, size its own), dealt out to the tile dims major to minor,
 * a sub-axis split where a tile dim takes part of it. Shardings of different tile
 * assignments then share a mesh, and the rules can compare their axes. False (nothing
 * written) when the tile dims do not fall on the sub-axes. */
static bool on_iota_mesh(kiln_arena *arena, const iota *io, const int64_t *tiles, int32_t ntiles, int32_t rank,
                         kiln_mesh *mesh, kiln_sharding *s) {
  kiln_axis_ref f[KILN_SPMD_MAX_AXES]; /* the factors left, major first */
  int32_t nf = 0;
  for (int32_t k = 0; k < io->rank; k++) {
    int64_t j = io->perm[k], pre = 1;
    for (int64_t i = j + 1; i < io->rank; i++) pre *= io->shape[i];
    if (io->shape[j] > 1) f[nf++] = (kiln_axis_ref){0, pre, io->shape[j]};
  }
  kiln_axis_ref refs[KILN_SPMD_MAX_AXES][KILN_SPMD_MAX_AXES];
  int32_t counts[KILN_SPMD_MAX_AXES] = {0}, at = 0;
  for (int32_t t = 0; t < ntiles; t++) {
    for (int64_t need = tiles[t]; need > 1;) {
      if (at == nf || counts[t] == KILN_SPMD_MAX_AXES) return false;
      kiln_axis_ref *x = &f[at];
      if (need % x->size == 0) { /* the whole factor */
        refs[t][counts[t]++] = *x;
        need /= x->size;
        at++;
      } else if (x->size % need == 0) { /* its major part; the minor part stays */
        refs[t][counts[t]++] = (kiln_axis_ref){0, x->pre_size * (x->size / need), need};
        x->size /= need;
        need = 1;
      } else {
        return false;
      }
    }
  }
  if (at != nf) return false;
  kiln_dim_sharding *dims = kiln_arena_alloc_array(arena, (size_t)rank + 1, sizeof *dims);
  if (!dims) return false;
  for (int32_t t = 0; t < rank; t++) {
    if (!counts[t]) continue;
    kiln_axis_ref *r = kiln_arena_alloc_array(arena, (size_t)counts[t], sizeof *r);
    if (!r) return false;
    memcpy(r, refs[t], sizeof *r * (size_t)counts[t]);
    dims[t] = (kiln_dim_sharding){counts[t], r, false};
  }
  *s = (kiln_sharding){mesh, rank, dims, 0, NULL};
  return true;
}

kiln_status kiln_gspmd_parse(kiln_arena *arena, const char *text, int32_t rank, kiln_mesh **devices_mesh,
                             const kiln_sharding **out, bool *manual) {
  *out = NULL;
  *manual = false;
  kiln_scan sc = {arena, "mhlo.sharding", text, text, NULL}, *c = &sc;
  if (!kiln_scan_expect(c, "{")) return sc.st;
  if (kiln_scan_accept(c, "replicated") || kiln_scan_accept(c, "maximal")) return NULL; /* every device computes it whole */
  if (kiln_scan_accept(c, "manual")) {
    *manual = true;
    return NULL;
  }
  int64_t tiles[KILN_SPMD_MAX_AXES];
  int32_t ntiles = 0;
  if (!kiln_scan_accept(c, "devices="))
    kiln_scan_fail(c, "replicated, maximal, manual or devices=[...] (a tuple's shardings are not read)");
  if (sc.st || !int_list(c, tiles, KILN_SPMD_MAX_AXES, &ntiles)) return sc.st;
  int64_t n = 1;
  for (int32_t i = 0; i < ntiles; i++) {
    if (tiles[i] < 1) return kiln_scan_error(c, "a tile dimension of size 0"), sc.st;
    if (n > KILN_SPMD_MAX_DEVICES / tiles[i]) return kiln_scan_error(c, "a tile assignment too large"), sc.st;
    n *= tiles[i];
  }
  kiln_mesh *mesh = kiln_arena_alloc(arena, sizeof *mesh);
  kiln_sharding *s = kiln_arena_alloc(arena, sizeof *s);
  kiln_dim_sharding *dims = kiln_arena_alloc_array(arena, (size_t)rank + 1, sizeof *dims);
  kiln_axis_ref *refs = kiln_arena_alloc_array(arena, (size_t)ntiles + 1, sizeof *refs);
  const char **names = kiln_arena_alloc_array(arena, (size_t)ntiles + 1, sizeof *names);
  int64_t *sizes = kiln_arena_alloc_array(arena, (size_t)ntiles + 1, sizeof *sizes);
  int64_t *ids = kiln_arena_alloc_array(arena, (size_t)n, sizeof *ids);
  if (!mesh || !s || !dims || !refs || !names || !sizes || !ids) return kiln_scan_oom(c), sc.st;
  iota io;
  if (!devices(c, ids, n, &io)) return sc.st;
  bool replicate_last = kiln_scan_accept(c, "last_tile_dim_replicate");
  if (!replicate_last && kiln_scan_accept(c, "last_tile_dims="))
    return kiln_scan_error(c, "subgroups of the last tile dimensions (a partially manual sharding) are not read"), sc.st;
  if (ntiles != rank + (replicate_last ? 1 : 0))
    return kiln_scan_error(c, "the tile assignment's rank does not match the value's"), sc.st;
  bool *seen = kiln_arena_alloc_array(arena, (size_t)n, sizeof *seen); /* ids are below n */
  if (!seen) return kiln_scan_oom(c), sc.st;
  for (int64_t i = 0; i < n; i++) {
    if (seen[ids[i]]) return kiln_scan_error(c, "a device appears twice in the tile assignment"), sc.st;
    seen[ids[i]] = true;
  }
  if (io.rank && (!*devices_mesh || (*devices_mesh)->num_devices == n)) {
    if (!*devices_mesh) { /* the program's one-axis mesh, made on first use */
      kiln_mesh *d = kiln_arena_alloc(arena, sizeof *d);
      const char **dn = kiln_arena_alloc(arena, sizeof *dn);
      int64_t *ds = kiln_arena_alloc(arena, sizeof *ds), *di = kiln_arena_alloc_array(arena, (size_t)n, sizeof *di);
      if (!d || !dn || !ds || !di) return kiln_scan_oom(c), sc.st;
      for (int64_t i = 0; i < n; i++) di[i] = i;
      *dn = "devices";
      *ds = n;
      *d = (kiln_mesh){"", 1, dn, ds, n, di};
      *devices_mesh = d;
    }
    if (on_iota_mesh(arena, &io, tiles, ntiles, rank, *devices_mesh, s)) {
      *out = s;
      return NULL;
    }
  }
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
