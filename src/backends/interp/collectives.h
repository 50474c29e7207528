/* The interpreter's process grid: interpreter.run_parallel runs a replicas x partitions
 * grid of StableHLO processes, one thread each, sharing one kiln_interp_group; the
 * collective ops, send/recv and infeed/outfeed meet there.
 *
 * Processes are numbered by their flattened id, replica_id * num_partitions +
 * partition_id (kiln_interp_ctx.process_id). Outside run_parallel (ctx->group == NULL) a
 * context is the single process of a 1 x 1 grid: collectives within a group of one
 * process work, anything that needs another process is a located error.
 *
 * Every wait is bounded: a process that waits for others fails with a located error as
 * soon as a process it waits for has finished or failed, or every process of the run
 * waits (a deadlock), and after KILN_GROUP_TIMEOUT_S seconds at the latest. */
#ifndef KILN_INTERP_COLLECTIVES_H
#define KILN_INTERP_COLLECTIVES_H

#include "backends/interp/interp.h"
#include "kiln/backend.h"

#define KILN_GROUP_TIMEOUT_S 10

/* The grid of ctx's process: its size and ctx's position in it. */
typedef struct kiln_grid_pos {
  int32_t num_replicas, num_partitions;
  int32_t replica_id, partition_id;
  int32_t process_id; /* flattened */
} kiln_grid_pos;

kiln_grid_pos kiln_group_position(const kiln_interp_ctx *ctx);

/* The spec's process-grouping strategies. */
typedef enum kiln_grouping {
  KILN_GROUPING_CROSS_REPLICA,
  KILN_GROUPING_CROSS_PARTITION,
  KILN_GROUPING_CROSS_REPLICA_AND_PARTITION,
  KILN_GROUPING_FLATTENED_IDS,
} kiln_grouping;

/* The process group of ctx's process among the groups the id lists `groups` (a rank-2
 * integer DENSE attribute, -1 entries skipped; NULL or empty: one group of every id)
 * define under strategy g. On success *members (malloc'ed, free it) lists the group's
 * flattened process ids in the spec's order and *index is ctx's position there; *count is
 * 0 (and *members NULL) when the process is in no group. Ids out of range are a located
 * error at op. */
kiln_status kiln_group_members(const kiln_interp_ctx *ctx, const kiln_op *op, const kiln_attr *groups,
                               kiln_grouping g, int32_t **members, int32_t *count, int32_t *index);

/* Rendezvous: every member of a process group calls this with the same members (in the
 * same order), the same op kind and channel, and its own values. On success *out
 * (malloc'ed) holds count * nvals new references, row r being member r's values. A group
 * of one returns at once. When *round is set (also after some failures), the member calls
 * kiln_group_exchange_end once it has read and released the rows. */
typedef struct kiln_group_round kiln_group_round;
kiln_status kiln_group_exchange(kiln_interp_ctx *ctx, const kiln_op *op, int64_t channel, const int32_t *members,
                                int32_t count, int32_t index, kiln_rtv *const *vals, int32_t nvals,
                                kiln_rtv ***out, kiln_group_round **round);

/* Waits until every member of the round that this process runs is done with the rows, so
 * that none reads a member's values after that member has returned (they may be views of
 * memory its caller reuses at once). round NULL: nothing to wait for. */
void kiln_group_exchange_end(kiln_interp_ctx *ctx, kiln_group_round *round, int32_t index);

/* all_reduce whose computation is the one op `combiner` over elements kiln_combine folds:
 * every member brings vals[0 .. nvals-1] and its results outs[] (tensors of the same
 * types and shapes, to be written). The members this process runs share the folding: each
 * piece of the values is folded once, in group order (the same bits as a left fold of the
 * rows in every member), and copied into every member's results. Members in other
 * processes' rows arrive over the wire. */
kiln_status kiln_group_all_reduce(kiln_interp_ctx *ctx, const kiln_op *op, int64_t channel, const int32_t *members,
                                  int32_t count, int32_t index, kiln_op_kind combiner, kiln_rtv *const *vals,
                                  kiln_rtv *const *outs, int32_t nvals);

/* Mailboxes, FIFO per (kind, channel): post queues values for process dst (-1: any
 * taker) and returns at once; take waits for the oldest message of that kind and channel
 * from src (-1: any sender) to ctx's process. *out (malloc'ed) receives *n new
 * references. kind names the pairing (send and recv both use KILN_OP_SEND). In a group
 * spanning processes a message to or from a process of another wire process travels over
 * the wire: take then needs its sender (src >= 0) and the values' types, like[0 ..
 * nlike-1] (NULL: such messages are refused). */
kiln_status kiln_group_post(kiln_interp_ctx *ctx, const kiln_op *op, kiln_op_kind kind, int64_t channel,
                            int32_t dst, kiln_rtv *const *vals, int32_t n);
kiln_status kiln_group_take(kiln_interp_ctx *ctx, const kiln_op *op, kiln_op_kind kind, int64_t channel,
                            int32_t src, kiln_rtv *const *like, int32_t nlike, kiln_rtv ***out, int32_t *n);

/* Infeed: the next function name of the run's infeed queue (run_parallel's `infeed`
 * attribute); a located error when there is none left. Outfeed: keeps the values (new
 * references) with the group; outside run_parallel they are dropped. */
kiln_status kiln_group_infeed(kiln_interp_ctx *ctx, const kiln_op *op, const char **func_name);
kiln_status kiln_group_outfeed(kiln_interp_ctx *ctx, const kiln_op *op, kiln_rtv *const *vals, int32_t n);

/* Groups outside run_parallel: the runs of one launch of a sharded program, each on the
 * thread the runtime calls the device from (a backend's execute of one partition).
 * kiln_interp_group_create: NULL when memory is exhausted or the grid is larger than the
 * interpreter supports (1024 processes); timeout_s bounds each wait. Every process of the
 * group must call kiln_interp_group_finish when its run ends (failed: with an error), so
 * that the others stop waiting for it; destroy after every run has ended. first_failed:
 * the process whose failure came first, or -1. */
kiln_interp_group *kiln_interp_group_create(int32_t num_replicas, int32_t num_partitions, int timeout_s);
void kiln_interp_group_finish(kiln_interp_group *g, int32_t process_id, bool failed);
int32_t kiln_interp_group_first_failed(kiln_interp_group *g);
void kiln_interp_group_destroy(kiln_interp_group *g);

/* The process the calling thread's run is (group NULL: a run of one process). A backend
 * binds its thread for a run of one partition, and every interpreter context it makes for
 * that run (kiln_interp_ctx.group and .process_id) and its partition_id/replica_id steps
 * take the binding. kiln_interp_bind returns the binding it replaces. */
typedef struct kiln_interp_process {
  kiln_interp_group *group;
  int32_t process_id;
} kiln_interp_process;
kiln_interp_process kiln_interp_bind(kiln_interp_process p);
kiln_interp_process kiln_interp_bound(void);
/* Makes ctx the bound process (kiln_interp_bound) of the calling thread. */
void kiln_interp_ctx_join_bound(kiln_interp_ctx *ctx);
/* The grid position of a bound process (1 x 1 at 0 when none is bound). */
kiln_grid_pos kiln_interp_bound_position(void);

/* The backend ABI's launch groups for plugins whose runs meet through these groups (interp,
 * cpu): kiln_backend.group_create / group_destroy. A launch's waits are bounded by
 * KILN_LAUNCH_TIMEOUT_S. */
#define KILN_LAUNCH_TIMEOUT_S 300
kiln_status kiln_interp_launch_group_create(int32_t num_partitions, kiln_backend_group **out_group);
/* kiln_backend.group_create_spanning: this process runs partitions first .. first + count
 * - 1, the others are met over wire; each wait is bounded by timeout_s. */
kiln_status kiln_interp_launch_group_create_spanning(int32_t num_partitions, int32_t first, int32_t count,
                                                     const kiln_backend_wire *wire, int timeout_s,
                                                     kiln_backend_group **out_group);
void kiln_interp_launch_group_destroy(kiln_backend_group *group);
/* Around a plugin's execute: begin binds the calling thread to the run's partition of its
 * launch (a plain run binds nothing) and returns the binding it replaced; end reports the
 * run's outcome to the group and restores that binding. */
kiln_interp_process kiln_interp_launch_begin(const kiln_backend_execute_args *a);
void kiln_interp_launch_end(const kiln_backend_execute_args *a, kiln_interp_process before, bool failed);

/* Runs funcs[replica * num_partitions + partition] as the processes of a new grid, one
 * thread each. Inputs are dealt out in process order (each process takes as many as its
 * function has parameters) and the results are gathered in the same order. Check results
 * of the processes are merged into ctx->checks. infeed: function names for the run's
 * infeed queue (may be empty). */
kiln_status kiln_interp_run_parallel(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_op *const *funcs,
                                     int32_t num_replicas, int32_t num_partitions, const char *const *infeed,
                                     int32_t num_infeed, kiln_rtv *const *inputs, int32_t num_inputs,
                                     kiln_rtv **results, int32_t num_results);

/* interpreter.probe keeps the values it records per interpreter, process-wide, for
 * check.expect_serialized_eq; this drops an interpreter's (call it before destroying the
 * interpreter, so that a later one at the same address starts empty). */
void kiln_interp_probes_forget(const kiln_interp *interp);

#endif
