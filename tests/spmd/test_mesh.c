/* Shardy meshes and shardings (src/spmd/mesh.c): their text as JAX writes it, every error a
 * located message, and which block of a tensor each device holds. */
#include <string.h>

#include "support/expect.h"
#include "spmd/spmd.h"

static kiln_arena *g_arena;

static bool mesh_ok(const char *text, kiln_mesh *m) {
  kiln_status st = kiln_mesh_parse(g_arena, text, "mesh", m);
  if (st) printf("  %s\n", kiln_status_message(st));
  kiln_status_free(st);
  return !st;
}

/* Parsing text fails with a message containing want. */
static void mesh_fails(const char *text, const char *want) {
  kiln_mesh m;
  kiln_status st = kiln_mesh_parse(g_arena, text, "mesh", &m);
  EXPECT(st && strstr(kiln_status_message(st), want), "%s: got '%s', want '%s'", text,
         st ? kiln_status_message(st) : "success", want);
  kiln_status_free(st);
}

static void sharding_fails(const kiln_mesh_table *t, const char *text, int32_t rank, const char *want) {
  kiln_sharding s;
  kiln_status st = kiln_sharding_parse(g_arena, text, t, rank, &s);
  EXPECT(st && strstr(kiln_status_message(st), want), "%s: got '%s', want '%s'", text,
         st ? kiln_status_message(st) : "success", want);
  kiln_status_free(st);
}

static void test_meshes(void) {
  kiln_mesh m;
  EXPECT(mesh_ok("#sdy.mesh<[\"data\"=2, \"model\"=4]>", &m) && m.num_axes == 2 && m.num_devices == 8 &&
             !strcmp(m.axis_names[1], "model") && m.axis_sizes[1] == 4 && m.device_ids[5] == 5,
         "two axes, iota devices");
  EXPECT(mesh_ok("#sdy.mesh<[\"x\"=2, \"y\"=2], device_ids=[0, 2, 1, 3]>", &m) && m.device_ids[1] == 2,
         "explicit device ids");
  int64_t c[KILN_SPMD_MAX_AXES];
  EXPECT(kiln_mesh_coords(&m, 2, c) && c[0] == 0 && c[1] == 1, "device 2 sits at (0, 1) of the transposed mesh");
  EXPECT(!kiln_mesh_coords(&m, 7, c), "device 7 is not in the mesh");
  EXPECT(mesh_ok("#sdy.mesh<[]>", &m) && m.num_devices == 1, "no axes: one device");
  EXPECT(mesh_ok("#sdy.mesh<[], device_ids=[3]>", &m) && m.device_ids[0] == 3, "a maximal mesh of device 3");
  mesh_fails("#sdy.mesh<[\"x\"=2, \"x\"=2]>", "distinct axis names");
  mesh_fails("#sdy.mesh<[\"x\"=0]>", "a positive axis size");
  mesh_fails("#sdy.mesh<[\"x\"=2], device_ids=[0]>", "as many device ids as the mesh has positions");
  mesh_fails("#sdy.mesh<[\"x\"=2], device_ids=[1, 1]>", "distinct device ids");
  mesh_fails("#sdy.mesh<[\"x\"=2]> junk", "the end of the attribute");
  mesh_fails("#sdy.mesh<[\"x\" 2]>", "'='");
  mesh_fails("#sdy.mesh<[\"x\"=99999999999999999999]>", "an integer below 2^63");
  mesh_fails("#sdy.mesh<[\"a\"=64, \"b\"=128]>", "at most 4096 devices");
  mesh_fails("#sdy.mesh<[\"x\"=2", "']'");
  mesh_fails("#sdy.sharding<@m, []>", "'#sdy.mesh<'");
}

static void test_shardings(void) {
  kiln_mesh meshes[1];
  kiln_mesh_table t = {1, meshes};
  EXPECT(mesh_ok("#sdy.mesh<[\"a\"=2, \"b\"=4]>", &meshes[0]), "mesh");
  kiln_sharding s;
  kiln_status st = kiln_sharding_parse(g_arena, "#sdy.sharding<@mesh, [{\"b\", \"a\"}, {}, {?}], replicated={}>", &t, 3, &s);
  EXPECT(!st && s.rank == 3 && s.dims[0].count == 2 && s.dims[0].axes[0].axis == 1 && s.dims[1].count == 0 &&
             s.dims[2].open && kiln_sharding_parts(&s, 0) == 8 && kiln_sharding_parts(&s, 1) == 1,
         "two axes on one dimension, major first");
  kiln_status_free(st);
  /* device 6 = (a 1, b 2): block of dimension 0 = b * 2 + a = 5 */
  int64_t c[KILN_SPMD_MAX_AXES];
  EXPECT(kiln_mesh_coords(&meshes[0], 6, c) && kiln_sharding_block(&s, 0, c) == 5, "mixed-radix block index");
  st = kiln_sharding_parse(g_arena, "#sdy.sharding<@mesh, [{\"b\":(2)2, ?}p1, {\"b\":(1)2}]>", &t, 2, &s);
  EXPECT(!st && s.dims[0].axes[0].pre_size == 2 && s.dims[0].axes[0].size == 2 && s.dims[0].open, "sub-axes, open");
  /* device 6 = (a 1, b 2): "b":(2)2 is b / 2 % 2 = 1, "b":(1)2 is b % 2 = 0 */
  EXPECT(!st && kiln_sharding_block(&s, 0, c) == 1 && kiln_sharding_block(&s, 1, c) == 0, "sub-axis blocks");
  kiln_status_free(st);
  st = kiln_sharding_parse(g_arena, "#sdy.sharding<mesh<[\"z\"=2]>, [{\"z\"}]>", &t, 1, &s);
  EXPECT(!st && s.mesh->num_devices == 2 && !strcmp(s.mesh->name, ""), "an inline mesh");
  kiln_status_free(st);
  st = kiln_sharding_parse(g_arena, "#sdy.sharding<@mesh, [{}], unreduced={\"a\", \"b\"}>", &t, 1, &s);
  EXPECT(!st && s.num_unreduced == 2, "unreduced axes counted");
  kiln_status_free(st);
  kiln_sharding two[2];
  int32_t ranks[2] = {1, 0};
  st = kiln_sharding_list_parse(g_arena, "#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>, <@mesh, []>]>", &t, ranks, 2, two);
  EXPECT(!st && two[0].dims[0].count == 1 && two[1].rank == 0, "per-value list");
  kiln_status_free(st);
  bool manual[KILN_SPMD_MAX_AXES];
  st = kiln_manual_axes_parse("#sdy<manual_axes{\"b\"}>", &meshes[0], manual);
  EXPECT(!st && !manual[0] && manual[1], "manual axes");
  kiln_status_free(st);
  st = kiln_manual_axes_parse("#sdy<manual_axes{\"q\"}>", &meshes[0], manual);
  EXPECT(st && strstr(kiln_status_message(st), "an axis of the mesh"), "an unknown manual axis");
  kiln_status_free(st);

  sharding_fails(&t, "#sdy.sharding<@nope, [{}]>", 1, "the name of an sdy.mesh of the module");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{}]>", 2, "one dimension sharding per dimension");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{\"c\"}]>", 1, "an axis of the sharding's mesh");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{\"a\"}, {\"a\"}]>", 2, "each axis at most once");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{?, \"a\"}]>", 1, "'?' last");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{\"b\":(3)2}]>", 1, "whose product divides the axis size");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{}], frozen={}>", 1, "'replicated' or 'unreduced'");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{\"a\\\"b\"}]>", 1, "escapes are not supported");
  sharding_fails(&t, "#sdy.sharding<@mesh, [{}", 1, "']'");
  int32_t one = 1;
  st = kiln_sharding_list_parse(g_arena, "#sdy.sharding_per_value<[]>", &t, &one, 1, two);
  EXPECT(st && strstr(kiln_status_message(st), "'<'"), "fewer shardings than values");
  kiln_status_free(st);
}

static kiln_mesh *g_devices, *g_devices8, *g_devices6; /* the iota shardings' meshes, per device count */

static void gspmd_fails(const char *text, int32_t rank, const char *want) {
  const kiln_sharding *s = NULL;
  bool manual = false;
  kiln_status st = kiln_gspmd_parse(g_arena, text, rank, &g_devices, &s, &manual);
  EXPECT(st && strstr(kiln_status_message(st), want), "%s: got '%s', want '%s'", text,
         st ? kiln_status_message(st) : "success", want);
  kiln_status_free(st);
}

/* GSPMD's mhlo.sharding strings: a mesh of the tile dimensions, its devices written out or
 * an iota (transposed); replicated, maximal and manual; every malformed one refused. */
static void test_gspmd(void) {
  const kiln_sharding *s = NULL;
  bool manual = false;
  int64_t c[KILN_SPMD_MAX_AXES];
  kiln_status st = kiln_gspmd_parse(g_arena, "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", 2, &g_devices, &s, &manual);
  EXPECT(!st && s && !manual && s->rank == 2 && s->mesh == g_devices && s->mesh->num_axes == 1 &&
             kiln_sharding_parts(s, 0) == 2 && kiln_sharding_parts(s, 1) == 1,
         "rows in 2 blocks over the devices' mesh, the last tile dimension replicating");
  const kiln_sharding *rows = s;
  EXPECT(!st && kiln_mesh_coords(s->mesh, 2, c) && kiln_sharding_block(s, 0, c) == 1, "device 2 holds rows block 1");
  st = kiln_gspmd_parse(g_arena, "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}", 2, &g_devices, &s, &manual);
  EXPECT(!st && s && s->mesh == rows->mesh && s->dims[1].count == 1 && s->dims[1].axes[0].pre_size == 1 &&
             s->dims[1].axes[0].size == 2 && rows->dims[0].axes[0].pre_size == 2,
         "a transposed iota on the same mesh: columns by the minor factor, rows by the major");
  EXPECT(!st && kiln_mesh_coords(s->mesh, 1, c) && kiln_sharding_block(s, 1, c) == 1 &&
             kiln_mesh_coords(s->mesh, 2, c) && kiln_sharding_block(s, 1, c) == 0,
         "columns by device %% 2");
  st = kiln_gspmd_parse(g_arena, "{devices=[2,2]3,2,1,0 metadata={op_name=\"x\"}}", 2, &g_devices, &s, &manual);
  EXPECT(!st && s && s->mesh != rows->mesh && s->mesh->device_ids[0] == 3 && kiln_mesh_coords(s->mesh, 0, c) &&
             kiln_sharding_block(s, 0, c) == 1 && kiln_sharding_block(s, 1, c) == 1,
         "devices written out: a mesh of their own");
  st = kiln_gspmd_parse(g_arena, "{devices=[4,2]<=[8]}", 2, &g_devices8, &s, &manual);
  EXPECT(!st && s && s->mesh == g_devices8 && s->dims[0].axes[0].pre_size == 2 && s->dims[0].axes[0].size == 4 &&
             s->dims[1].axes[0].pre_size == 1 && s->dims[1].axes[0].size == 2,
         "an iota of 8 split 4 x 2: sub-axes of the one axis");
  st = kiln_gspmd_parse(g_arena, "{devices=[3,2]<=[2,3]T(1,0)}", 2, &g_devices6, &s, &manual);
  EXPECT(!st && s && s->mesh == g_devices6 && kiln_mesh_coords(s->mesh, 4, c) && kiln_sharding_block(s, 0, c) == 1 &&
             kiln_sharding_block(s, 1, c) == 1,
         "device 4 of iota [2,3] transposed sits at tile (1, 1)");
  EXPECT(!kiln_gspmd_parse(g_arena, "{replicated}", 2, &g_devices, &s, &manual) && !s && !manual, "replicated: whole");
  EXPECT(!kiln_gspmd_parse(g_arena, "{maximal device=1}", 2, &g_devices, &s, &manual) && !s && !manual, "maximal: whole");
  EXPECT(!kiln_gspmd_parse(g_arena, "{manual}", 2, &g_devices, &s, &manual) && !s && manual, "manual");
  gspmd_fails("{{replicated}, {manual}}", 1, "a tuple's shardings are not read");
  gspmd_fails("{devices=[2,2]<=[4]}", 1, "rank does not match");
  gspmd_fails("{devices=[2,2]<=[8]}", 2, "does not hold the tiles' devices");
  gspmd_fails("{devices=[2,2]0,1,1,3}", 2, "a device appears twice");
  gspmd_fails("{devices=[2,2]0,1,2}", 2, "expected the tile assignment's devices");
  gspmd_fails("{devices=[2,2]0,1,2,7}", 2, "a device outside the tile assignment's devices");
  gspmd_fails("{devices=[2,-2]<=[4]}", 2, "a number 0 or above");
  gspmd_fails("{devices=[2,2]<=[2,2]T(0,0)}", 2, "not a permutation");
  gspmd_fails("{devices=[2,1,2]<=[4] last_tile_dims={manual}}", 2, "partially manual");
  gspmd_fails("{devices=[0,2]<=[0]}", 2, "a tile dimension of size 0");
  gspmd_fails("{devices=[4096,2]<=[8192]}", 2, "too large");
  gspmd_fails("devices=[2]<=[2]", 1, "expected '{'");
}

int main(void) {
  g_arena = kiln_arena_create(0);
  test_meshes();
  test_shardings();
  test_gspmd();
  kiln_arena_destroy(g_arena);
  return test_summary();
}
