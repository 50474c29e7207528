/* Shardy meshes and shardings: their text (MLIR's generic spelling) and their device math
 * (spmd.h). */
#include "spmd/scan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

kiln_status kiln_spmd_error(const kiln_module *m, const kiln_op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kiln_status st = kiln_op_errorv(NULL, m->name, op, fmt, ap);
  va_end(ap);
  return st;
}

/* A quoted name (no escapes appear in axis names JAX writes; `\"` is refused). */
static bool read_string(kiln_scan *s, const char **out) {
  kiln_scan_skip_space(s);
  if (*s->p != '"') return kiln_scan_fail(s, "a quoted axis name");
  const char *start = ++s->p;
  while (*s->p && *s->p != '"' && *s->p != '\\') s->p++;
  if (*s->p != '"') return kiln_scan_fail(s, "a closing '\"' (escapes are not supported)");
  *out = kiln_arena_strndup(s->arena, start, (size_t)(s->p - start));
  s->p++;
  return *out ? true : kiln_scan_oom(s);
}

static bool read_symbol(kiln_scan *s, const char **out) {
  kiln_scan_skip_space(s);
  if (*s->p != '@') return kiln_scan_fail(s, "a mesh symbol '@name'");
  const char *start = ++s->p;
  while (isalnum((unsigned char)*s->p) || strchr("_$.-", *s->p)) s->p++;
  if (s->p == start) return kiln_scan_fail(s, "a mesh name after '@'");
  *out = kiln_arena_strndup(s->arena, start, (size_t)(s->p - start));
  return *out ? true : kiln_scan_oom(s);
}

/* ------------------------------------------------------------------ meshes */

typedef struct mesh_build {
  kiln_mesh *m;
  int64_t num_ids;
  int64_t ids[KILN_SPMD_MAX_DEVICES];
} mesh_build;

static bool mesh_axis(kiln_scan *s, void *ctx) {
  kiln_mesh *m = ((mesh_build *)ctx)->m;
  if (m->num_axes == KILN_SPMD_MAX_AXES) return kiln_scan_fail(s, "at most 16 mesh axes");
  const char *name = NULL;
  int64_t size;
  if (!read_string(s, &name) || !kiln_scan_expect(s, "=") || !kiln_scan_read_int(s, &size)) return false;
  if (size < 1) return kiln_scan_fail(s, "a positive axis size");
  for (int32_t a = 0; a < m->num_axes; a++)
    if (!strcmp(m->axis_names[a], name)) return kiln_scan_fail(s, "distinct axis names");
  if (!kiln_mul_i64(m->num_devices, size, &m->num_devices) || m->num_devices > KILN_SPMD_MAX_DEVICES)
    return kiln_scan_fail(s, "a mesh of at most 4096 devices");
  m->axis_names[m->num_axes] = name;
  m->axis_sizes[m->num_axes++] = size;
  return true;
}

static bool mesh_id(kiln_scan *s, void *ctx) {
  mesh_build *b = ctx;
  int64_t v;
  if (!kiln_scan_read_int(s, &v)) return false;
  if (b->num_ids == KILN_SPMD_MAX_DEVICES || v < 0 || v >= KILN_SPMD_MAX_DEVICES)
    return kiln_scan_fail(s, "device ids from 0 to 4095, at most 4096 of them");
  b->ids[b->num_ids++] = v;
  return true;
}

/* `[axes] (, device_ids=[...])?` */
static bool mesh_body(kiln_scan *s, const char *name, kiln_mesh *m) {
  memset(m, 0, sizeof *m);
  m->name = name;
  m->num_devices = 1;
  m->axis_names = kiln_arena_alloc_array(s->arena, KILN_SPMD_MAX_AXES, sizeof *m->axis_names);
  m->axis_sizes = kiln_arena_alloc_array(s->arena, KILN_SPMD_MAX_AXES, sizeof *m->axis_sizes);
  mesh_build *b = kiln_arena_alloc(s->arena, sizeof *b);
  if (!m->axis_names || !m->axis_sizes || !b) return kiln_scan_oom(s);
  b->m = m;
  if (!kiln_scan_read_list(s, "[", "]", mesh_axis, b)) return false;
  if (kiln_scan_accept(s, ",") && (!kiln_scan_expect(s, "device_ids") || !kiln_scan_expect(s, "=") || !kiln_scan_read_list(s, "[", "]", mesh_id, b)))
    return false;
  if (!(m->device_ids = kiln_arena_alloc_array(s->arena, (size_t)m->num_devices, sizeof *m->device_ids))) return kiln_scan_oom(s);
  if (!b->num_ids) {
    for (int64_t i = 0; i < m->num_devices; i++) m->device_ids[i] = i;
    return true;
  }
  /* One id for a mesh with no axes (a maximal sharding's device), else one per position,
   * each once. */
  if (b->num_ids != m->num_devices) return kiln_scan_fail(s, "as many device ids as the mesh has positions");
  for (int64_t i = 0; i < b->num_ids; i++) {
    for (int64_t j = 0; j < i; j++)
      if (b->ids[j] == b->ids[i]) return kiln_scan_fail(s, "distinct device ids");
    m->device_ids[i] = b->ids[i];
  }
  return true;
}

static kiln_status finish(kiln_scan *s, bool ok, const char *close) {
  if (ok && kiln_scan_expect(s, close)) {
    kiln_scan_skip_space(s);
    if (*s->p) kiln_scan_fail(s, "the end of the attribute");
  }
  return s->st;
}

kiln_status kiln_mesh_parse(kiln_arena *arena, const char *text, const char *name, kiln_mesh *out) {
  kiln_scan s = {arena, "sdy attribute", text, text, NULL};
  bool ok = kiln_scan_expect(&s, "#sdy.mesh<") && mesh_body(&s, name, out);
  return finish(&s, ok, ">");
}

kiln_status kiln_mesh_table_read(kiln_arena *arena, const kiln_module *m, kiln_mesh_table *out) {
  memset(out, 0, sizeof *out);
  const kiln_block *top = kiln_op_block(m->op, 0);
  for (const kiln_op *op = top ? top->first : NULL; op; op = op->next) out->count += op->kind == KILN_OP_SDY_MESH;
  if (!out->count) return NULL;
  if (!(out->meshes = kiln_arena_alloc_array(arena, (size_t)out->count, sizeof *out->meshes)))
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory reading meshes");
  int32_t n = 0;
  for (const kiln_op *op = top->first; op; op = op->next) {
    if (op->kind != KILN_OP_SDY_MESH) continue;
    const kiln_attr *name = kiln_op_attr(op, "sym_name"), *mesh = kiln_op_attr(op, "mesh");
    if (!name || name->kind != KILN_ATTR_STRING || !mesh || mesh->kind != KILN_ATTR_OPAQUE)
      return kiln_spmd_error(m, op, "needs a sym_name and a mesh");
    const char *sym = kiln_arena_strndup(arena, name->str.data, name->str.len);
    if (!sym) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory reading meshes");
    kiln_status st = kiln_mesh_parse(arena, mesh->opaque, sym, &out->meshes[n]);
    if (st) {
      kiln_status located = kiln_spmd_error(m, op, "%s", kiln_status_message(st));
      kiln_status_free(st);
      return located;
    }
    n++;
  }
  return NULL;
}

/* ------------------------------------------------------------------ shardings */

typedef struct sharding_build {
  kiln_sharding *sh;
  kiln_dim_sharding *dim; /* the dimension being read */
  kiln_axis_ref refs[KILN_SPMD_MAX_AXES];
  int32_t num_refs;
  const kiln_mesh_table *meshes;
  bool used[KILN_SPMD_MAX_AXES]; /* axes (whole) named so far */
} sharding_build;

static int32_t axis_index(const kiln_mesh *m, const char *name) {
  for (int32_t a = 0; a < m->num_axes; a++)
    if (!strcmp(m->axis_names[a], name)) return a;
  return -1;
}

/* `"x"` or `"x":(pre)size`. */
static bool axis_ref(kiln_scan *s, sharding_build *b, kiln_axis_ref *out) {
  const char *name = NULL;
  if (!read_string(s, &name)) return false;
  const kiln_mesh *m = b->sh->mesh;
  int32_t a = axis_index(m, name);
  if (a < 0) return kiln_scan_fail(s, "an axis of the sharding's mesh");
  *out = (kiln_axis_ref){a, 1, m->axis_sizes[a]};
  if (kiln_scan_accept(s, ":")) {
    if (!kiln_scan_expect(s, "(") || !kiln_scan_read_int(s, &out->pre_size) || !kiln_scan_expect(s, ")") || !kiln_scan_read_int(s, &out->size)) return false;
    int64_t span;
    if (out->pre_size < 1 || out->size < 1 || !kiln_mul_i64(out->pre_size, out->size, &span) ||
        m->axis_sizes[a] % span)
      return kiln_scan_fail(s, "a sub-axis (pre-size)size whose product divides the axis size");
  }
  return true;
}

static bool dim_item(kiln_scan *s, void *ctx) {
  sharding_build *b = ctx;
  kiln_scan_skip_space(s);
  if (kiln_scan_accept(s, "?")) {
    b->dim->open = true;
    return true;
  }
  if (b->dim->open) return kiln_scan_fail(s, "'?' last in a dimension's axes");
  if (b->num_refs == KILN_SPMD_MAX_AXES) return kiln_scan_fail(s, "at most 16 axes in a dimension");
  if (!axis_ref(s, b, &b->refs[b->num_refs])) return false;
  const kiln_axis_ref *r = &b->refs[b->num_refs++];
  if (r->pre_size == 1 && r->size == b->sh->mesh->axis_sizes[r->axis]) {
    if (b->used[r->axis]) return kiln_scan_fail(s, "each axis at most once in a sharding");
    b->used[r->axis] = true;
  }
  return true;
}

static bool dim_sharding(kiln_scan *s, void *ctx) {
  sharding_build *b = ctx;
  kiln_sharding *sh = b->sh;
  if (sh->rank == KILN_SPMD_MAX_AXES * 4) return kiln_scan_fail(s, "at most 64 dimensions");
  b->dim = &sh->dims[sh->rank++];
  b->num_refs = 0;
  if (!kiln_scan_read_list(s, "{", "}", dim_item, b)) return false;
  if (kiln_scan_accept(s, "p")) {
    int64_t priority;
    if (!kiln_scan_read_int(s, &priority)) return false;
  }
  b->dim->count = b->num_refs;
  if (b->num_refs && !(b->dim->axes = kiln_arena_alloc_array(s->arena, (size_t)b->num_refs, sizeof *b->dim->axes)))
    return kiln_scan_oom(s);
  if (b->num_refs) memcpy(b->dim->axes, b->refs, sizeof(kiln_axis_ref) * (size_t)b->num_refs);
  return true;
}

static bool skip_ref(kiln_scan *s, void *ctx) {
  kiln_axis_ref r;
  return axis_ref(s, ctx, &r);
}

static bool unreduced_ref(kiln_scan *s, void *ctx) {
  kiln_sharding *sh = ((sharding_build *)ctx)->sh;
  if (sh->num_unreduced == KILN_SPMD_MAX_AXES) return kiln_scan_fail(s, "at most 16 unreduced axes");
  if (!sh->unreduced && !(sh->unreduced = kiln_arena_alloc_array(s->arena, KILN_SPMD_MAX_AXES, sizeof *sh->unreduced)))
    return kiln_scan_oom(s);
  return axis_ref(s, ctx, &sh->unreduced[sh->num_unreduced++]);
}

/* `@mesh | mesh<...>, [dims] (, replicated={...})? (, unreduced={...})?` */
static bool sharding_body(kiln_scan *s, const kiln_mesh_table *meshes, int32_t rank, kiln_sharding *out) {
  memset(out, 0, sizeof *out);
  kiln_scan_skip_space(s);
  if (*s->p == '@') {
    const char *name = NULL;
    if (!read_symbol(s, &name)) return false;
    for (int32_t i = 0; meshes && i < meshes->count && !out->mesh; i++)
      if (!strcmp(meshes->meshes[i].name, name)) out->mesh = &meshes->meshes[i];
    if (!out->mesh) return kiln_scan_fail(s, "the name of an sdy.mesh of the module");
  } else {
    kiln_mesh *m = kiln_arena_alloc(s->arena, sizeof *m);
    if (!m) return kiln_scan_oom(s);
    if (!kiln_scan_expect(s, "mesh<") || !mesh_body(s, "", m) || !kiln_scan_expect(s, ">")) return false;
    out->mesh = m;
  }
  sharding_build *b = kiln_arena_alloc(s->arena, sizeof *b);
  if (!b || !(out->dims = kiln_arena_alloc_array(s->arena, KILN_SPMD_MAX_AXES * 4, sizeof *out->dims))) return kiln_scan_oom(s);
  b->sh = out;
  b->meshes = meshes;
  if (!kiln_scan_expect(s, ",") || !kiln_scan_read_list(s, "[", "]", dim_sharding, b)) return false;
  if (out->rank != rank) return kiln_scan_fail(s, "one dimension sharding per dimension of the tensor");
  while (kiln_scan_accept(s, ",")) {
    if (kiln_scan_accept(s, "replicated")) {
      if (!kiln_scan_expect(s, "=") || !kiln_scan_read_list(s, "{", "}", skip_ref, b)) return false;
    } else if (kiln_scan_accept(s, "unreduced")) {
      if (!kiln_scan_expect(s, "=") || !kiln_scan_read_list(s, "{", "}", unreduced_ref, b)) return false;
    } else {
      return kiln_scan_fail(s, "'replicated' or 'unreduced'");
    }
  }
  return true;
}

kiln_status kiln_sharding_parse(kiln_arena *arena, const char *text, const kiln_mesh_table *meshes, int32_t rank,
                                kiln_sharding *out) {
  kiln_scan s = {arena, "sdy attribute", text, text, NULL};
  bool ok = kiln_scan_expect(&s, "#sdy.sharding<") && sharding_body(&s, meshes, rank, out);
  return finish(&s, ok, ">");
}

kiln_status kiln_sharding_list_parse(kiln_arena *arena, const char *text, const kiln_mesh_table *meshes,
                                     const int32_t *ranks, int32_t count, kiln_sharding *out) {
  kiln_scan s = {arena, "sdy attribute", text, text, NULL};
  bool ok = kiln_scan_expect(&s, "#sdy.sharding_per_value<") && kiln_scan_expect(&s, "[");
  for (int32_t i = 0; ok && i < count; i++)
    ok = (!i || kiln_scan_expect(&s, ",")) && kiln_scan_expect(&s, "<") && sharding_body(&s, meshes, ranks[i], &out[i]) && kiln_scan_expect(&s, ">");
  ok = ok && kiln_scan_expect(&s, "]");
  return finish(&s, ok, ">");
}

typedef struct manual_build {
  const kiln_mesh *mesh;
  bool *manual;
} manual_build;

static bool manual_axis(kiln_scan *s, void *ctx) {
  manual_build *b = ctx;
  const char *name = NULL;
  if (!read_string(s, &name)) return false;
  int32_t a = axis_index(b->mesh, name);
  if (a < 0) return kiln_scan_fail(s, "an axis of the mesh");
  b->manual[a] = true;
  return true;
}

kiln_status kiln_manual_axes_parse(const char *text, const kiln_mesh *mesh, bool *manual) {
  kiln_arena *arena = kiln_arena_create(0);
  if (!arena) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory reading manual axes");
  kiln_scan s = {arena, "sdy attribute", text, text, NULL};
  manual_build b = {mesh, manual};
  for (int32_t a = 0; a < mesh->num_axes; a++) manual[a] = false;
  bool ok = kiln_scan_expect(&s, "#sdy<") && kiln_scan_expect(&s, "manual_axes") && kiln_scan_read_list(&s, "{", "}", manual_axis, &b);
  kiln_status st = finish(&s, ok, ">");
  kiln_arena_destroy(arena);
  return st;
}

/* ------------------------------------------------------------------ device math */

bool kiln_mesh_coords(const kiln_mesh *mesh, int64_t d, int64_t *coords) {
  int64_t pos = -1;
  for (int64_t i = 0; i < mesh->num_devices && pos < 0; i++)
    if (mesh->device_ids[i] == d) pos = i;
  if (pos < 0) return false;
  for (int32_t a = mesh->num_axes - 1; a >= 0; a--) {
    coords[a] = pos % mesh->axis_sizes[a];
    pos /= mesh->axis_sizes[a];
  }
  return true;
}

int64_t kiln_sharding_parts(const kiln_sharding *s, int32_t i) {
  int64_t n = 1;
  for (int32_t k = 0; k < s->dims[i].count; k++) n *= s->dims[i].axes[k].size;
  return n;
}

int64_t kiln_sharding_block(const kiln_sharding *s, int32_t i, const int64_t *coords) {
  int64_t c = 0;
  for (int32_t k = 0; k < s->dims[i].count; k++) {
    const kiln_axis_ref *r = &s->dims[i].axes[k];
    c = c * r->size + (coords[r->axis] / r->pre_size) % r->size;
  }
  return c;
}
