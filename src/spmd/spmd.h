/* Sharded programs: Shardy meshes and shardings, and the partitioner that turns a global
 * program of N partitions into the one per-device program every partition runs.
 *
 * JAX sends the whole, unpartitioned program: `sdy.mesh` symbols, `sdy.sharding` on the
 * entry's arguments and results (global shapes), `sdy.sharding_constraint` and
 * `sdy.manual_computation` (shard_map: its body is per-device code already), and
 * `mhlo.num_partitions = N`. Each device is given its local shards and must return its
 * local shards.
 *
 * GSPMD's annotations (`mhlo.sharding` strings on the entry's arguments and results, the
 * custom calls Sharding, SPMDFullToShardShape and SPMDShardToFullShape of JAX's GSPMD mode)
 * are read too (kiln_gspmd_parse).
 *
 * Sharding semantics (Shardy): a mesh is a list of named axes with sizes; its positions,
 * row-major over the axes, are devices (`device_ids`, iota when absent), a device being a
 * partition index. A tensor sharding lists, per dimension, the axes that split it, major
 * to minor; a sub-axis `"x":(p)k` is the factor of axis x whose coordinate is
 * (coordinate of x / p) % k. Device d holds, along dimension i, block c_i of size
 * dim_i / prod(sizes), c_i being the mixed-radix number of d's coordinates on that
 * dimension's axes; axes no dimension names replicate.
 *
 * Everything here is allocated in an arena the caller owns and is not thread-safe. */
#ifndef KILN_SPMD_SPMD_H
#define KILN_SPMD_SPMD_H

#include "base/arena.h"
#include "ir/ir.h"
#include "kiln/status.h"

#define KILN_SPMD_MAX_AXES 16
#define KILN_SPMD_MAX_DEVICES 4096

typedef struct kiln_mesh {
  const char *name; /* the sdy.mesh symbol; "" for a mesh written inline */
  int32_t num_axes;
  const char **axis_names;
  int64_t *axis_sizes;
  int64_t num_devices;  /* the product of the sizes (1 with no axes) */
  int64_t *device_ids;  /* num_devices entries: the device at each mesh position */
} kiln_mesh;

/* A factor of one mesh axis: the whole axis (pre_size 1, size = the axis's) or a sub-axis. */
typedef struct kiln_axis_ref {
  int32_t axis;
  int64_t pre_size, size;
} kiln_axis_ref;

typedef struct kiln_dim_sharding {
  int32_t count; /* factors, major to minor */
  kiln_axis_ref *axes;
  bool open;     /* `?`: the partitioner may choose more */
} kiln_dim_sharding;

typedef struct kiln_sharding {
  const kiln_mesh *mesh;
  int32_t rank;
  kiln_dim_sharding *dims;
  /* Axes over which the devices hold partial sums: the value is the sum of the blocks of
   * the devices that differ only in these axes. */
  int32_t num_unreduced;
  kiln_axis_ref *unreduced;
} kiln_sharding;

/* Meshes of a module, by symbol. */
typedef struct kiln_mesh_table {
  int32_t count;
  kiln_mesh *meshes;
} kiln_mesh_table;

/* Reads every sdy.mesh of module m. Errors are located at the mesh op. */
kiln_status kiln_mesh_table_read(kiln_arena *arena, const kiln_module *m, kiln_mesh_table *out);

/* Parses sdy attribute texts (KILN_ATTR_OPAQUE, MLIR's generic spelling):
 *   `#sdy.mesh<["x"=2, "y"=4], device_ids=[...]>`                (kiln_mesh_parse)
 *   `#sdy.sharding<@mesh, [{"x"}, {"y", ?}], replicated={"z"}>`  (kiln_sharding_parse)
 *   `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`              (kiln_sharding_list_parse)
 *   `#sdy<manual_axes{"x", "y"}>`                                 (kiln_manual_axes_parse)
 * A mesh referenced by symbol is looked up in meshes; rank is the tensor's rank the
 * sharding must match. Errors name the text's offset and what was expected. */
kiln_status kiln_mesh_parse(kiln_arena *arena, const char *text, const char *name, kiln_mesh *out);
kiln_status kiln_sharding_parse(kiln_arena *arena, const char *text, const kiln_mesh_table *meshes, int32_t rank,
                                kiln_sharding *out);
kiln_status kiln_sharding_list_parse(kiln_arena *arena, const char *text, const kiln_mesh_table *meshes,
                                     const int32_t *ranks, int32_t count, kiln_sharding *out);
/* Sets manual[a] for each mesh axis a named (manual has mesh->num_axes entries). */
kiln_status kiln_manual_axes_parse(const char *text, const kiln_mesh *mesh, bool *manual);

/* GSPMD's `mhlo.sharding` text (JAX's GSPMD mode): `{replicated}` and `{maximal ...}` give
 * *out NULL (whole on every device), `{manual}` sets *manual, `{devices=[...]...}` (written
 * out or iota device lists, `last_tile_dim_replicate`) a sharding for a value of the given
 * rank: an iota's over *devices_mesh (one axis over the devices in order, made on first
 * use and shared by every such sharding of a program: keep it across calls), else over a
 * mesh of its own. Tuples and partially manual subgroups are refused; errors name the
 * offset. */
kiln_status kiln_gspmd_parse(kiln_arena *arena, const char *text, int32_t rank, kiln_mesh **devices_mesh,
                             const kiln_sharding **out, bool *manual);

/* The mesh coordinate of each axis for device (partition) d; false when d is not in the
 * mesh. */
bool kiln_mesh_coords(const kiln_mesh *mesh, int64_t d, int64_t *coords);
/* The number of blocks dimension i is split into, and device d's block index along it. */
int64_t kiln_sharding_parts(const kiln_sharding *s, int32_t i);
int64_t kiln_sharding_block(const kiln_sharding *s, int32_t i, const int64_t *coords);

/* A located error about op of module m (kiln_op_errorv). */
kiln_status kiln_spmd_error(const kiln_module *m, const kiln_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------------ the partitioner */

/* What the partitioner made of the entry's interface: each argument's and result's
 * sharding (NULL: replicated), in the arena passed to kiln_spmd_partition. */
typedef struct kiln_spmd_plan {
  int32_t num_partitions;
  int32_t num_args, num_results;
  const kiln_sharding **args, **results;
} kiln_spmd_plan;

/* Rewrites function `entry` of m (global shapes, sdy annotations) in place into the
 * per-device program of a run over num_partitions partitions: its arguments and results
 * become each device's local shards, partition_id picks a device's blocks, collectives
 * (all_gather) move data between devices, sdy ops are gone (sdy.mesh ops stay, for
 * printing). What it does, in order of preference:
 *   - a value that is sharded stays local while only manual computations (shard_map
 *     bodies) and the entry's results read it with its own sharding: no copies;
 *   - a manual computation's body becomes straight-line per-device code;
 *   - ops with a rule (rules.c, rules_indexed.c) compute on the blocks, values moving
 *     between shardings by one collective where one does it (reshard.c);
 *   - everything else computes on whole values, replicated on every device (gathered from
 *     shards when first needed, sliced to each device's block where a sharded result or a
 *     manual computation needs one): always correct, at the cost of N-fold work.
 * Other functions holding sdy ops (called from the entry, on whole values) are rewritten the
 * same way; manual computations inside regions (a loop's body, a branch) too. Errors
 * (unknown meshes, shardings that do not divide a dimension, meshes of another device
 * count, unreduced axes) are located at the op or function. On success *plan lives in
 * arena and m's values are renumbered. */
kiln_status kiln_spmd_partition(kiln_module *m, kiln_op *entry, int32_t num_partitions, kiln_arena *arena,
                                kiln_spmd_plan *plan);

/* Whether any function of m holds an sdy op (then no backend can run m before it is
 * partitioned, for one partition if need be). */
bool kiln_spmd_module_has_sdy(const kiln_module *m);

#endif
