/* The process grid's state, shared by the files of the interpreter's collectives
 * (collectives.c: rendezvous, mailboxes, feeds, run_parallel; collectives_reduce.c: the
 * all-reduce). Internal to them. */
#ifndef KILN_INTERP_COLLECTIVES_INTERNAL_H
#define KILN_INTERP_COLLECTIVES_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "backends/interp/collectives.h"

/* One round of a rendezvous: the members' values until every member here is done with
 * them. */
struct kiln_group_round {
  struct kiln_group_round *next;
  kiln_op_kind kind;
  int64_t channel;
  int32_t count;
  int32_t *members;
  kiln_rtv ***vals; /* per member, NULL until it arrives */
  int32_t *nvals;
  int32_t arrived;
  int32_t here, local_arrived; /* the members this process runs, and those of them arrived */
  int32_t failed;  /* members here whose arrival failed (they never read the rows) */
  int32_t left;    /* members here done with the rows */
  int32_t gone;    /* members here that have left */
  bool *lent;      /* per member: its values include memory its caller reuses (views) */
  bool wire_failed; /* the exchange with the other processes failed (its leader has the error) */
  int32_t mismatch; /* once every member has arrived: a value whose type or shape differs between members, or -1 */
  bool checked;     /* mismatch is known */
  /* kiln_group_all_reduce (collectives_reduce.c): per member here, its results; the pieces
   * claimed and folded. split: across processes each process folds one segment of the
   * pieces (r->vals of the members other processes run hold their rows' slices of this
   * process's segment), then the segments are gathered. */
  kiln_rtv *const **outs;
  _Atomic int64_t next_piece, pieces_done;
  bool split, gathered;
  uint64_t gather_key; /* the key and tag of a split round's second trade */
  int32_t gather_tag;
};
typedef struct kiln_group_round round_;

struct kiln_interp_group {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* broadcast on every change */
  int32_t num_replicas, num_partitions, count;
  bool *done;        /* per process: its function has returned */
  int32_t first_failed; /* the process whose error came first, -1 */
  /* Deadlock detection: epoch counts changes that may let a waiting process go on;
   * blocked_at[p] is the epoch at which process p found it had to wait (-1: running). */
  uint64_t epoch;
  int64_t *blocked_at;
  round_ *rounds;
  struct message *head, *tail;
  const char *const *infeed;
  int32_t num_infeed, next_infeed;
  kiln_rtv **outfeed;
  int32_t num_outfeed, cap_outfeed;
  int timeout_s; /* bound of each wait */
  /* A group spanning processes (kiln_interp_launch_group_create_spanning): this process
   * runs processes lo .. hi - 1, process p runs in wire process p / per_wire, and each
   * sequence of rounds (a collective's, or messages from one process to another) is
   * counted in `ordinals` so that both ends name a round alike. NULL wire: all here. */
  const kiln_backend_wire *wire;
  int32_t lo, hi, per_wire;
  struct ordinal {
    uint64_t what, next;
  } *ordinals;
  int32_t num_ordinals, cap_ordinals;
};

/* A member's borrowed values up to this size are copied into the round it joins when
 * other members here could read them (so that it need not wait for them to). */
#define KILN_ROUND_KEEP_BYTES (64 << 10)

/* Something changed that a waiting process may be waiting for. Called with g->mu held. */
void kiln_group_progress(kiln_interp_group *g);

/* Whether this process runs process pid; the wire process that runs pid. */
bool kiln_group_is_here(const kiln_interp_group *g, int32_t pid);
int32_t kiln_group_wire_process(const kiln_interp_group *g, int32_t pid);

/* The next round among processes ids[] (called with g->mu held): its key (what the round
 * is: kind, channel, processes, ordinal) and its tag (the processes and the ordinal only, so
 * that processes in different collectives still meet and find the keys differ); false when
 * out of memory. */
bool kiln_group_next_key(kiln_interp_group *g, int32_t kind, int64_t channel, const int32_t *ids, int32_t n,
                         uint64_t *key, int32_t *tag);

/* A wire error st (taken), located at op, saying which partitions the wire's processes run. */
kiln_status kiln_group_wire_error(const kiln_interp_ctx *ctx, const kiln_op *op, kiln_status st);

/* A located error unless ctx runs in a group (a collective of count processes needs one). */
kiln_status kiln_group_needed(const kiln_interp_ctx *ctx, const kiln_op *op, int32_t count);

/* Brings this member's values (and, for an all-reduce, its results: outs) to the round of
 * op and waits until every member's have come (over the wire from other processes when the
 * group spans them; a split round's trade is kiln_all_reduce_scatter's). Called with
 * g->mu held (let go while waiting); *out is the round, also on failure (NULL when none
 * could be made). On success r->mismatch tells whether the rows agree. A member whose
 * arrival succeeded, or failed after every member came, must depart. */
kiln_status kiln_round_arrive(kiln_interp_ctx *ctx, const kiln_op *op, int64_t channel, const int32_t *members,
                              int32_t count, int32_t index, kiln_rtv *const *vals, kiln_rtv *const *outs, int32_t nvals,
                              bool split, round_ **out);

/* This member is done with round r's rows (all_read: so is every member here). A member
 * whose values are lent first waits until every member here is done with them (they may be
 * views of memory its caller reuses at once) and then drops them; the last to leave frees
 * the round. Called with g->mu held. */
void kiln_round_depart(kiln_interp_group *g, round_ *r, int32_t index, bool all_read);

/* After a trade of round r with the other processes (g->mu held): the rows got[i] of
 * members theirs[i] (i < n, each nvals values; NULL: none came) become theirs in the
 * round, or, failed, are dropped and the round marked failed; waiters are woken. */
void kiln_round_received(kiln_interp_group *g, round_ *r, const int32_t *theirs, kiln_rtv ***got, int32_t n,
                         int32_t nvals, bool failed);

/* A split round's trade (collectives_reduce.c), by the last member here to arrive, with
 * g->mu held (let go while on the wire): sends every other process its segment of this
 * process's rows and receives the other processes' rows of this process's segment. */
kiln_status kiln_all_reduce_scatter(kiln_interp_ctx *ctx, const kiln_op *op, round_ *r, kiln_rtv *const *like,
                                    int32_t nvals);

#endif
