/* The process grid of interpreter.run_parallel: threads, rendezvous, mailboxes, feeds. */
#define _POSIX_C_SOURCE 200809L
#include "backends/interp/collectives_internal.h"

#include "backends/interp/collectives_wire.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  MAX_PROCESSES = 1024,
  THREAD_STACK_BYTES = 16 << 20, /* interpreter recursion: calls and regions nest */
};

typedef struct message {
  struct message *next;
  kiln_op_kind kind;
  int64_t channel;
  int32_t src, dst;
  int32_t n;
  kiln_rtv **vals;
} message;

static kiln_status oom(void) { return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"); }

/* ------------------------------------------------------------------ positions and groups */

kiln_grid_pos kiln_group_position(const kiln_interp_ctx *ctx) {
  kiln_grid_pos p = {1, 1, 0, 0, 0};
  const kiln_interp_group *g = ctx->group;
  if (!g) return p;
  p.num_replicas = g->num_replicas;
  p.num_partitions = g->num_partitions;
  p.process_id = ctx->process_id;
  p.replica_id = ctx->process_id / g->num_partitions;
  p.partition_id = ctx->process_id % g->num_partitions;
  return p;
}

kiln_status kiln_group_members(const kiln_interp_ctx *ctx, const kiln_op *op, const kiln_attr *groups,
                               kiln_grouping g, int32_t **members, int32_t *count, int32_t *index) {
  *members = NULL;
  *count = 0;
  *index = -1;
  kiln_grid_pos me = kiln_group_position(ctx);
  int64_t rows = 0, cols = 0;
  if (groups) {
    if (groups->kind != KILN_ATTR_DENSE || !kiln_type_is_tensor(groups->type) || groups->type->tensor.rank > 2 ||
        kiln_attr_count(groups) < 0)
      return kiln_interp_error(ctx, op, "replica groups must be a rank-2 integer tensor constant here");
    const kiln_type *t = groups->type;
    rows = t->tensor.rank == 2 ? t->tensor.dims[0] : 1;
    cols = t->tensor.rank == 2 ? t->tensor.dims[1] : t->tensor.rank == 1 ? t->tensor.dims[0] : 1;
    if (rows * cols == 0) rows = cols = 0;
  }
  int64_t limit, key;
  const char *what;
  switch (g) {
    case KILN_GROUPING_CROSS_PARTITION: limit = me.num_partitions, key = me.partition_id, what = "partition"; break;
    case KILN_GROUPING_FLATTENED_IDS:
      limit = (int64_t)me.num_replicas * me.num_partitions, key = me.process_id, what = "process";
      break;
    default: limit = me.num_replicas, key = me.replica_id, what = "replica"; break;
  }
  /* The row holding this process's id (all ids when there are no groups). */
  int64_t row = -1;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) {
      int64_t id = -1;
      kiln_attr_i64_at(groups, r * cols + c, &id);
      if (id == -1) continue;
      if (id < 0 || id >= limit)
        return kiln_interp_error(ctx, op, "%s id %lld in the groups is out of range: the grid has %lld %ss%s", what,
                                 (long long)id, (long long)limit, what,
                                 ctx->group ? "" : " (outside interpreter.run_parallel it is 1 x 1)");
      if (id == key) row = r;
    }
  if (rows > 0 && row < 0) return NULL; /* in no group */
  int64_t ids_n = rows > 0 ? cols : limit;
  int64_t *ids = malloc(sizeof *ids * (size_t)(ids_n + 1));
  int32_t *m = malloc(sizeof *m * (size_t)(ids_n * (g == KILN_GROUPING_CROSS_REPLICA_AND_PARTITION ? me.num_partitions : 1) + 1));
  if (!ids || !m) {
    free(ids), free(m);
    return oom();
  }
  int64_t n_ids = 0;
  for (int64_t c = 0; c < ids_n; c++) {
    int64_t id = c;
    if (rows > 0) kiln_attr_i64_at(groups, row * cols + c, &id);
    if (id != -1) ids[n_ids++] = id;
  }
  int32_t n = 0;
  for (int64_t i = 0; i < n_ids; i++) {
    switch (g) {
      case KILN_GROUPING_CROSS_REPLICA: m[n++] = (int32_t)(ids[i] * me.num_partitions + me.partition_id); break;
      case KILN_GROUPING_CROSS_PARTITION: m[n++] = (int32_t)(me.replica_id * me.num_partitions + ids[i]); break;
      case KILN_GROUPING_FLATTENED_IDS: m[n++] = (int32_t)ids[i]; break;
      case KILN_GROUPING_CROSS_REPLICA_AND_PARTITION: break;
    }
  }
  if (g == KILN_GROUPING_CROSS_REPLICA_AND_PARTITION)
    for (int32_t p = 0; p < me.num_partitions; p++)
      for (int64_t i = 0; i < n_ids; i++) m[n++] = (int32_t)(ids[i] * me.num_partitions + p);
  free(ids);
  for (int32_t i = 0; i < n; i++)
    for (int32_t j = 0; j < i; j++)
      if (m[i] == m[j]) {
        int32_t dup = m[i];
        free(m);
        return kiln_interp_error(ctx, op, "the groups name process %d twice", (int)dup);
      }
  for (int32_t i = 0; i < n; i++)
    if (m[i] == me.process_id) *index = i;
  *members = m;
  *count = n;
  return NULL;
}

/* ------------------------------------------------------------------ waiting */

static struct timespec deadline_in(int seconds) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  t.tv_sec += seconds;
  return t;
}

static void describe(const kiln_interp_group *g, int32_t pid, char *buf, size_t cap) {
  snprintf(buf, cap, "(replica %d, partition %d)", (int)(pid / g->num_partitions), (int)(pid % g->num_partitions));
}

/* Why a wait cannot succeed any more, or NULL to keep waiting: another process failed,
 * or every process that could still deliver has finished. `needed` lists those
 * processes (n of them; NULL: every process but this one). Called with g->mu held. */
static kiln_status hopeless(const kiln_interp_ctx *ctx, const kiln_op *op, const int32_t *needed, int32_t n) {
  const kiln_interp_group *g = ctx->group;
  if (g->first_failed >= 0) {
    char who[64];
    describe(g, g->first_failed, who, sizeof who);
    return kiln_interp_error(ctx, op, "abandoned: process %s failed", who);
  }
  int32_t total = needed ? n : g->count;
  for (int32_t i = 0; i < total; i++) {
    int32_t pid = needed ? needed[i] : i;
    if (pid != ctx->process_id && !g->done[pid]) return NULL;
  }
  if (needed && n == 1) {
    char who[64];
    describe(g, needed[0], who, sizeof who);
    return kiln_interp_error(ctx, op, "waits for process %s, which has finished without answering", who);
  }
  return kiln_interp_error(ctx, op, "waits for processes that have all finished without answering");
}

void kiln_group_progress(kiln_interp_group *g) {
  g->epoch++;
  pthread_cond_broadcast(&g->cv);
}

/* One bounded wait on g->cv. A deadlock (every process that has not finished waits, and
 * each has seen the latest state) and a timeout are errors. Called with g->mu held. */
static kiln_status wait_once(const kiln_interp_ctx *ctx, const kiln_op *op, const struct timespec *deadline) {
  kiln_interp_group *g = ctx->group;
  g->blocked_at[ctx->process_id] = (int64_t)g->epoch;
  bool all = true;
  int32_t lo = g->wire ? g->lo : 0, hi = g->wire ? g->hi : g->count; /* the others never wait here */
  for (int32_t i = lo; all && i < hi; i++) all = g->done[i] || g->blocked_at[i] == (int64_t)g->epoch;
  int rc = all ? 0 : pthread_cond_timedwait(&g->cv, &g->mu, deadline);
  g->blocked_at[ctx->process_id] = -1;
  if (all) return kiln_interp_error(ctx, op, "deadlock: every process of the run is waiting for another");
  if (rc == ETIMEDOUT)
    return kiln_interp_error(ctx, op, "timed out after %d s waiting for other processes", g->timeout_s);
  return NULL;
}

/* ------------------------------------------------------------------ across processes */

bool kiln_group_is_here(const kiln_interp_group *g, int32_t pid) { return !g->wire || (pid >= g->lo && pid < g->hi); }

int32_t kiln_group_wire_process(const kiln_interp_group *g, int32_t pid) { return pid / g->per_wire; }

bool kiln_group_next_key(kiln_interp_group *g, int32_t kind, int64_t channel, const int32_t *ids, int32_t n,
                     uint64_t *key, int32_t *tag) {
  uint64_t what = kiln_wire_key(0, 0, ids, n, UINT64_MAX);
  struct ordinal *o = NULL;
  for (int32_t i = 0; !o && i < g->num_ordinals; i++)
    if (g->ordinals[i].what == what) o = &g->ordinals[i];
  if (!o) {
    if (g->num_ordinals == g->cap_ordinals) {
      int32_t cap = g->cap_ordinals ? g->cap_ordinals * 2 : 16;
      struct ordinal *grown = realloc(g->ordinals, sizeof *grown * (size_t)cap);
      if (!grown) return false;
      g->ordinals = grown;
      g->cap_ordinals = cap;
    }
    o = &g->ordinals[g->num_ordinals++];
    *o = (struct ordinal){what, 0};
  }
  *key = kiln_wire_key((int32_t)kind, channel, ids, n, o->next);
  *tag = kiln_wire_tag(kiln_wire_key(0, 0, ids, n, o->next++));
  return true;
}

kiln_status kiln_group_wire_error(const kiln_interp_ctx *ctx, const kiln_op *op, kiln_status st) {
  const kiln_interp_group *g = ctx->group;
  kiln_status located =
      kiln_interp_error(ctx, op, "%s (process k of the launch runs partitions %d * k to %d * k + %d)",
                        kiln_status_message(st), (int)g->per_wire, (int)g->per_wire, (int)g->per_wire - 1);
  kiln_status_free(st);
  return located;
}

/* Round r's members here have all arrived: trade their rows for the other members' with
 * the processes that run them (the values' bytes sent from where they are and received
 * into the new tensors). Called by the last of them to arrive, with g->mu held (let go
 * while on the wire); on failure the round is marked so that its other members stop
 * waiting. like: this member's values (the rows' types). */
static kiln_status trade_rows(kiln_interp_ctx *ctx, const kiln_op *op, round_ *r, kiln_rtv *const *like, int32_t nvals) {
  kiln_interp_group *g = ctx->group;
  int32_t count = r->count, nhere = 0, npeers = 0;
  int32_t *ids = malloc(sizeof *ids * (size_t)count), *peers = malloc(sizeof *peers * (size_t)count);
  int32_t *theirs = malloc(sizeof *theirs * (size_t)count); /* the other members, grouped by process */
  kiln_rtv ***here = malloc(sizeof *here * (size_t)count), ***got = calloc((size_t)count, sizeof *got);
  kiln_wire_reader *readers = calloc((size_t)count, sizeof *readers);
  uint64_t key = 0;
  int32_t tag = 0;
  kiln_status st = ids && peers && theirs && here && got && readers &&
                           kiln_group_next_key(g, r->kind, r->channel, r->members, count, &key, &tag)
                       ? NULL
                       : oom();
  for (int32_t i = 0; !st && i < count; i++) {
    int32_t pid = r->members[i];
    if (kiln_group_is_here(g, pid)) {
      ids[nhere] = pid;
      here[nhere++] = r->vals[i];
      continue;
    }
    bool listed = false;
    for (int32_t k = 0; k < npeers; k++) listed |= peers[k] == kiln_group_wire_process(g, pid);
    if (!listed) peers[npeers++] = kiln_group_wire_process(g, pid);
  }
  int32_t at = 0; /* each peer's reader reads the rows of the members it runs */
  for (int32_t k = 0; !st && k < npeers; k++) {
    kiln_wire_reader *rd = &readers[k];
    *rd = (kiln_wire_reader){.from = peers[k], .key = key, .nvals = nvals, .like = like, .ids = theirs + at, .rows = got + at};
    for (int32_t i = 0; i < count; i++)
      if (!kiln_group_is_here(g, r->members[i]) && kiln_group_wire_process(g, r->members[i]) == peers[k]) theirs[at + rd->nids++] = r->members[i];
    at += rd->nids;
  }
  pthread_mutex_unlock(&g->mu);
  uint8_t *header = NULL;
  kiln_backend_wire_part *parts = NULL;
  int32_t num_parts = 0;
  if (!st) st = kiln_wire_message(key, ids, here, nhere, nvals, &header, &parts, &num_parts);
  kiln_backend_wire_sink sink = kiln_wire_sink(readers);
  if (!st) st = g->wire->exchange(g->wire->ctx, tag, peers, npeers, parts, num_parts, &sink, g->timeout_s);
  for (int32_t k = 0; !st && k < npeers; k++)
    if (readers[k].st) st = readers[k].st, readers[k].st = NULL;
  for (int32_t k = 0; readers && k < npeers; k++) kiln_wire_reader_free(&readers[k]);
  free(header);
  free(parts);
  pthread_mutex_lock(&g->mu);
  kiln_round_received(g, r, theirs, got, at, nvals, st != NULL);
  free(ids), free(peers), free(theirs), free(here), free(got), free(readers);
  return st ? kiln_group_wire_error(ctx, op, st) : NULL;
}

void kiln_round_received(kiln_interp_group *g, round_ *r, const int32_t *theirs, kiln_rtv ***got, int32_t n,
                         int32_t nvals, bool failed) {
  for (int32_t i = 0; got && i < n; i++) {
    if (!got[i]) continue;
    if (failed) {
      for (int32_t j = 0; j < nvals; j++) kiln_rtv_release(got[i][j]);
      free(got[i]);
      continue;
    }
    for (int32_t m = 0; m < r->count; m++)
      if (r->members[m] == theirs[i]) {
        r->vals[m] = got[i];
        r->nvals[m] = nvals;
        r->arrived++;
      }
  }
  r->wire_failed |= failed;
  kiln_group_progress(g);
}

/* ------------------------------------------------------------------ rendezvous */

static void round_free(round_ *r) {
  for (int32_t i = 0; i < r->count; i++) {
    for (int32_t j = 0; r->vals[i] && j < r->nvals[i]; j++) kiln_rtv_release(r->vals[i][j]);
    free(r->vals[i]);
  }
  free(r->vals);
  free(r->nvals);
  free(r->members);
  free((void *)r->outs);
  free(r->lent);
  free(r);
}

static round_ *round_find(kiln_interp_group *g, kiln_op_kind kind, int64_t channel, const int32_t *members,
                          int32_t count, int32_t index) {
  for (round_ *r = g->rounds; r; r = r->next)
    if (r->kind == kind && r->channel == channel && r->count == count && r->arrived < count && !r->vals[index] &&
        !memcmp(r->members, members, sizeof *members * (size_t)count))
      return r;
  return NULL;
}

static round_ *round_new(kiln_interp_group *g, kiln_op_kind kind, int64_t channel, const int32_t *members,
                         int32_t count) {
  round_ *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->kind = kind;
  r->channel = channel;
  r->count = count;
  r->members = malloc(sizeof *members * (size_t)count);
  r->vals = calloc((size_t)count, sizeof *r->vals);
  r->nvals = calloc((size_t)count, sizeof *r->nvals);
  r->outs = calloc((size_t)count, sizeof *r->outs);
  r->lent = calloc((size_t)count, sizeof *r->lent);
  atomic_init(&r->next_piece, 0);
  atomic_init(&r->pieces_done, 0);
  if (!r->members || !r->vals || !r->nvals || !r->outs || !r->lent) {
    round_free(r);
    return NULL;
  }
  memcpy(r->members, members, sizeof *members * (size_t)count);
  for (int32_t i = 0; i < count; i++) r->here += kiln_group_is_here(g, members[i]);
  r->next = g->rounds;
  g->rounds = r;
  return r;
}

static void round_unlink(kiln_interp_group *g, round_ *r) {
  for (round_ **p = &g->rounds; *p; p = &(*p)->next)
    if (*p == r) {
      *p = r->next;
      return;
    }
}

static kiln_rtv **copy_refs(kiln_rtv *const *vals, int32_t n) {
  kiln_rtv **c = malloc(sizeof *c * ((size_t)n + 1));
  for (int32_t i = 0; c && i < n; i++) c[i] = kiln_rtv_retain(vals[i]);
  return c;
}

/* Values as a round or a mailbox keeps them: new references, borrowed ones of at most
 * copy_up_to bytes copied (their owner may reuse the memory once it returns). *lent: one is
 * still borrowed. NULL when out of memory. */
static kiln_rtv **keep_values(kiln_rtv *const *vals, int32_t n, size_t copy_up_to, bool *lent) {
  kiln_rtv **c = malloc(sizeof *c * ((size_t)n + 1));
  *lent = false;
  for (int32_t i = 0; c && i < n; i++) {
    kiln_rtv *v = vals[i];
    size_t bytes = v->kind == KILN_RTV_TENSOR ? (size_t)v->count * v->elem_bytes : 0;
    if (v->kind != KILN_RTV_TENSOR || !v->borrowed || bytes > copy_up_to) {
      c[i] = kiln_rtv_retain(v);
      *lent |= v->kind == KILN_RTV_TENSOR && v->borrowed;
      continue;
    }
    if (kiln_rtv_tensor_uninit(v->elem_type, v->rank, v->dims, &c[i])) {
      for (int32_t j = 0; j < i; j++) kiln_rtv_release(c[j]);
      free(c);
      return NULL;
    }
    if (bytes) memcpy(c[i]->data, v->data, bytes);
  }
  return c;
}

/* The first value of rows r whose type or shape differs between its members, or -1 (a
 * split round: between its members here; the others' slices were checked on arrival). */
static int32_t first_mismatch(const kiln_interp_group *g, const round_ *r, kiln_rtv *const *mine) {
  for (int32_t j = 0; j < r->nvals[0]; j++)
    for (int32_t m = 0; m < r->count; m++) {
      const kiln_rtv *v = r->vals[m][j], *w = mine[j];
      if (r->split && !kiln_group_is_here(g, r->members[m])) continue;
      if (v->kind != w->kind || (v->kind == KILN_RTV_TENSOR && (v->elem != w->elem || v->rank != w->rank ||
                                                                 memcmp(v->dims, w->dims, sizeof *v->dims * (size_t)v->rank))))
        return j;
    }
  return -1;
}

kiln_status kiln_round_arrive(kiln_interp_ctx *ctx, const kiln_op *op, int64_t channel, const int32_t *members,
                              int32_t count, int32_t index, kiln_rtv *const *vals, kiln_rtv *const *outs, int32_t nvals,
                              bool split, round_ **out) {
  kiln_interp_group *g = ctx->group;
  *out = NULL;
  bool lent = false, made = false;
  round_ *r = round_find(g, op->kind, channel, members, count, index);
  if (!r && (r = round_new(g, op->kind, channel, members, count))) {
    r->split = split;
    made = true;
  }
  /* with others here to read them, small borrowed values are copied so that this member
   * need not wait for the others before it returns */
  kiln_rtv **mine = r ? keep_values(vals, nvals, r->here > 1 ? KILN_ROUND_KEEP_BYTES : 0, &lent) : NULL;
  if (!mine) {
    if (made) {
      round_unlink(g, r);
      round_free(r);
    }
    return oom();
  }
  *out = r;
  r->vals[index] = mine;
  r->nvals[index] = nvals;
  r->outs[index] = outs;
  r->lent[index] = lent;
  r->arrived++;
  r->local_arrived++;
  if (r->arrived == count) kiln_group_progress(g); /* the others wait for the round to be complete */
  kiln_status st = NULL;
  if (g->wire && r->arrived < count && r->local_arrived == r->here) /* spanning processes: the last here trades */
    st = r->split ? kiln_all_reduce_scatter(ctx, op, r, vals, nvals) : trade_rows(ctx, op, r, vals, nvals);
  struct timespec deadline = deadline_in(g->timeout_s);
  while (!st && r->arrived < count) {
    if (r->wire_failed) {
      st = kiln_interp_error(ctx, op, "the exchange with the other processes failed (its error is another partition's)");
      break;
    }
    int32_t missing[64], n_missing = 0;
    bool all_listed = true;
    for (int32_t i = 0; i < count; i++)
      if (!r->vals[i]) {
        if (n_missing < 64) missing[n_missing++] = r->members[i];
        else all_listed = false;
      }
    if (all_listed) st = hopeless(ctx, op, missing, n_missing);
    if (!st) st = wait_once(ctx, op, &deadline);
    if (st && r->arrived == count && !r->wire_failed) { /* completed as the wait ended: the rows are here */
      kiln_status_free(st);
      st = NULL;
    }
  }
  for (int32_t i = 0; !st && i < count; i++)
    if (r->nvals[i] != nvals) {
      char who[64];
      describe(g, r->members[i], who, sizeof who);
      st = kiln_interp_error(ctx, op, "process %s brings %d values where this one brings %d", who, (int)r->nvals[i],
                             (int)nvals);
    }
  if (!st && !r->checked) {
    r->mismatch = first_mismatch(g, r, r->vals[index]);
    r->checked = true;
  }
  if (st && r->arrived < count) { /* never reads the rows; the others do not wait for it */
    r->failed++;
    kiln_group_progress(g);
  }
  return st;
}

void kiln_round_depart(kiln_interp_group *g, round_ *r, int32_t index, bool all_read) {
  if (++r->left + r->failed == r->here) kiln_group_progress(g); /* lent members wait for this */
  if (r->lent[index] || all_read) {
    while (!all_read && r->left + r->failed < r->here) pthread_cond_wait(&g->cv, &g->mu);
    for (int32_t j = 0; r->vals[index] && j < r->nvals[index]; j++) kiln_rtv_release(r->vals[index][j]);
    free(r->vals[index]);
    r->vals[index] = NULL;
  }
  r->outs[index] = NULL;
  if (++r->gone + r->failed == r->here) {
    round_unlink(g, r);
    round_free(r);
  }
}

kiln_status kiln_group_needed(const kiln_interp_ctx *ctx, const kiln_op *op, int32_t count) {
  return ctx->group ? NULL
                    : kiln_interp_error(ctx, op, "needs a group of %d processes: run it inside interpreter.run_parallel",
                                        (int)count);
}

kiln_status kiln_group_exchange(kiln_interp_ctx *ctx, const kiln_op *op, int64_t channel, const int32_t *members,
                                int32_t count, int32_t index, kiln_rtv *const *vals, int32_t nvals, kiln_rtv ***out,
                                kiln_group_round **round) {
  *out = NULL;
  *round = NULL;
  if (count == 1) {
    *out = copy_refs(vals, nvals);
    return *out ? NULL : oom();
  }
  KILN_RETURN_IF_ERROR(kiln_group_needed(ctx, op, count));
  kiln_interp_group *g = ctx->group;
  pthread_mutex_lock(&g->mu);
  round_ *r = NULL;
  kiln_status st = kiln_round_arrive(ctx, op, channel, members, count, index, vals, NULL, nvals, false, &r);
  if (!st || (r && r->arrived == count)) *round = r; /* it must depart */
  kiln_rtv **all = st ? NULL : malloc(sizeof *all * ((size_t)count * (size_t)nvals + 1));
  if (!st && !all) st = oom();
  for (int32_t i = 0; !st && i < count; i++)
    for (int32_t j = 0; j < nvals; j++) all[(size_t)i * (size_t)nvals + (size_t)j] = kiln_rtv_retain(r->vals[i][j]);
  *out = all;
  pthread_mutex_unlock(&g->mu);
  return st;
}

void kiln_group_exchange_end(kiln_interp_ctx *ctx, kiln_group_round *round, int32_t index) {
  if (!round) return;
  pthread_mutex_lock(&ctx->group->mu);
  kiln_round_depart(ctx->group, round, index, false);
  pthread_mutex_unlock(&ctx->group->mu);
}

/* ------------------------------------------------------------------ mailboxes */

/* The key and tag of the next message from process src to process dst. */
static bool message_key(kiln_interp_group *g, kiln_op_kind kind, int64_t channel, int32_t src, int32_t dst,
                        uint64_t *key, int32_t *tag) {
  int32_t pair[2] = {src, dst};
  pthread_mutex_lock(&g->mu);
  bool ok = kiln_group_next_key(g, kind, channel, pair, 2, key, tag);
  pthread_mutex_unlock(&g->mu);
  return ok;
}

/* A message to a process another wire process runs: sent at once (the wire keeps a copy
 * until it is delivered). */
static kiln_status post_far(kiln_interp_ctx *ctx, const kiln_op *op, kiln_op_kind kind, int64_t channel, int32_t dst,
                            kiln_rtv *const *vals, int32_t n) {
  kiln_interp_group *g = ctx->group;
  uint64_t key = 0;
  int32_t tag = 0;
  if (!message_key(g, kind, channel, ctx->process_id, dst, &key, &tag)) return oom();
  kiln_rtv *const *rows[1] = {vals};
  uint8_t *header = NULL;
  kiln_backend_wire_part *parts = NULL;
  int32_t num_parts = 0;
  kiln_status st = kiln_wire_message(key, &ctx->process_id, (kiln_rtv **const *)rows, 1, n, &header, &parts, &num_parts);
  if (!st) st = g->wire->send(g->wire->ctx, tag, kiln_group_wire_process(g, dst), parts, num_parts);
  free(header);
  free(parts);
  return st ? kiln_group_wire_error(ctx, op, st) : NULL;
}

/* The next message from a process another wire process runs; its values are typed like
 * like[0 .. nlike-1]. */
static kiln_status take_far(kiln_interp_ctx *ctx, const kiln_op *op, kiln_op_kind kind, int64_t channel, int32_t src,
                            kiln_rtv *const *like, int32_t nlike, kiln_rtv ***out, int32_t *n) {
  kiln_interp_group *g = ctx->group;
  uint64_t key = 0;
  int32_t tag = 0;
  if (!like) return kiln_interp_error(ctx, op, "cannot receive from another process here");
  if (!message_key(g, kind, channel, src, ctx->process_id, &key, &tag)) return oom();
  kiln_rtv **row = NULL;
  int32_t from = kiln_group_wire_process(g, src);
  kiln_wire_reader reader = {.from = from, .key = key, .nvals = nlike, .like = like, .ids = &src, .nids = 1, .rows = &row};
  kiln_backend_wire_sink sink = kiln_wire_sink(&reader);
  kiln_status st = g->wire->exchange(g->wire->ctx, tag, &from, 1, NULL, 0, &sink, g->timeout_s);
  if (!st && reader.st) st = reader.st, reader.st = NULL;
  kiln_wire_reader_free(&reader);
  if (st) {
    for (int32_t j = 0; row && j < nlike; j++) kiln_rtv_release(row[j]);
    free(row);
    return kiln_group_wire_error(ctx, op, st);
  }
  *out = row;
  *n = nlike;
  return NULL;
}

kiln_status kiln_group_post(kiln_interp_ctx *ctx, const kiln_op *op, kiln_op_kind kind, int64_t channel,
                            int32_t dst, kiln_rtv *const *vals, int32_t n) {
  kiln_interp_group *g = ctx->group;
  if (!g) return kiln_interp_error(ctx, op, "has no other process to talk to: run it inside interpreter.run_parallel");
  if (dst >= 0 && !kiln_group_is_here(g, dst)) return post_far(ctx, op, kind, channel, dst, vals, n);
  message *m = calloc(1, sizeof *m);
  bool lent = false; /* a message outlives its sender's step: borrowed values are copied */
  if (!m || !(m->vals = keep_values(vals, n, SIZE_MAX, &lent))) {
    free(m);
    return oom();
  }
  m->kind = kind;
  m->channel = channel;
  m->src = ctx->process_id;
  m->dst = dst;
  m->n = n;
  pthread_mutex_lock(&g->mu);
  if (g->tail) g->tail->next = m;
  else g->head = m;
  g->tail = m;
  kiln_group_progress(g);
  pthread_mutex_unlock(&g->mu);
  return NULL;
}

kiln_status kiln_group_take(kiln_interp_ctx *ctx, const kiln_op *op, kiln_op_kind kind, int64_t channel,
                            int32_t src, kiln_rtv *const *like, int32_t nlike, kiln_rtv ***out, int32_t *n) {
  *out = NULL;
  *n = 0;
  kiln_interp_group *g = ctx->group;
  if (!g) return kiln_interp_error(ctx, op, "has no other process to talk to: run it inside interpreter.run_parallel");
  if (src >= 0 && !kiln_group_is_here(g, src)) return take_far(ctx, op, kind, channel, src, like, nlike, out, n);
  kiln_status st = NULL;
  struct timespec deadline = deadline_in(g->timeout_s);
  pthread_mutex_lock(&g->mu);
  for (;;) {
    message *prev = NULL, *m = g->head;
    for (; m; prev = m, m = m->next)
      if (m->kind == kind && m->channel == channel && (src < 0 || m->src == src) &&
          (m->dst < 0 || m->dst == ctx->process_id))
        break;
    if (m) {
      if (prev) prev->next = m->next;
      else g->head = m->next;
      if (g->tail == m) g->tail = prev;
      *out = m->vals;
      *n = m->n;
      free(m);
      break;
    }
    if ((st = hopeless(ctx, op, src >= 0 ? &src : NULL, src >= 0 ? 1 : 0))) break;
    if ((st = wait_once(ctx, op, &deadline))) break;
  }
  pthread_mutex_unlock(&g->mu);
  return st;
}

/* ------------------------------------------------------------------ feeds */

kiln_status kiln_group_infeed(kiln_interp_ctx *ctx, const kiln_op *op, const char **func_name) {
  *func_name = NULL;
  kiln_interp_group *g = ctx->group;
  if (!g) return kiln_interp_error(ctx, op, "has no infeed: give one with interpreter.run_parallel's `infeed`");
  pthread_mutex_lock(&g->mu);
  if (g->next_infeed < g->num_infeed) *func_name = g->infeed[g->next_infeed++];
  pthread_mutex_unlock(&g->mu);
  if (!*func_name) return kiln_interp_error(ctx, op, "reads past the end of the infeed (%d entries)", (int)g->num_infeed);
  return NULL;
}

kiln_status kiln_group_outfeed(kiln_interp_ctx *ctx, const kiln_op *op, kiln_rtv *const *vals, int32_t n) {
  kiln_interp_group *g = ctx->group;
  if (!g) return NULL;
  kiln_status st = NULL;
  pthread_mutex_lock(&g->mu);
  if (g->num_outfeed > INT32_MAX - n) st = kiln_interp_error(ctx, op, "outfeed overflows");
  if (!st && g->num_outfeed + n > g->cap_outfeed) {
    int32_t cap = g->cap_outfeed ? g->cap_outfeed : 16;
    while (cap < g->num_outfeed + n) cap = cap > INT32_MAX / 2 ? INT32_MAX : cap * 2;
    kiln_rtv **v = realloc(g->outfeed, sizeof *v * (size_t)cap);
    if (!v) st = oom();
    else g->outfeed = v, g->cap_outfeed = cap;
  }
  for (int32_t i = 0; !st && i < n; i++) g->outfeed[g->num_outfeed++] = kiln_rtv_retain(vals[i]);
  pthread_mutex_unlock(&g->mu);
  return st;
}

/* ------------------------------------------------------------------ run_parallel */

typedef struct process {
  kiln_interp_ctx ctx;
  kiln_check_log log;
  const kiln_op *func;
  kiln_rtv *const *args;
  int32_t nargs;
  kiln_rtv **results;
  kiln_status st;
  pthread_t thread;
  bool started;
} process;

static void *process_main(void *arg) {
  process *p = arg;
  p->st = kiln_interp_call(&p->ctx, p->func, p->args, p->nargs, p->results);
  kiln_interp_group_finish(p->ctx.group, p->ctx.process_id, p->st != NULL);
  return NULL;
}

void kiln_interp_group_finish(kiln_interp_group *g, int32_t process_id, bool failed) {
  pthread_mutex_lock(&g->mu);
  g->done[process_id] = true;
  if (failed && g->first_failed < 0) g->first_failed = process_id;
  kiln_group_progress(g);
  pthread_mutex_unlock(&g->mu);
}

int32_t kiln_interp_group_first_failed(kiln_interp_group *g) {
  pthread_mutex_lock(&g->mu);
  int32_t f = g->first_failed;
  pthread_mutex_unlock(&g->mu);
  return f;
}

static _Thread_local kiln_interp_process t_bound;

kiln_interp_process kiln_interp_bind(kiln_interp_process p) {
  kiln_interp_process before = t_bound;
  t_bound = p;
  return before;
}

kiln_interp_process kiln_interp_bound(void) { return t_bound; }

void kiln_interp_ctx_join_bound(kiln_interp_ctx *ctx) {
  ctx->group = t_bound.group;
  ctx->process_id = t_bound.process_id;
}

kiln_grid_pos kiln_interp_bound_position(void) {
  kiln_interp_ctx c = {.group = t_bound.group, .process_id = t_bound.process_id};
  return kiln_group_position(&c);
}

/* The ABI's opaque group is the interpreter's group. */
kiln_status kiln_interp_launch_group_create(int32_t num_partitions, kiln_backend_group **out_group) {
  *out_group = (kiln_backend_group *)kiln_interp_group_create(1, num_partitions, KILN_LAUNCH_TIMEOUT_S);
  return *out_group ? NULL
                    : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "cannot make a group of %d partitions (at most %d)",
                                  (int)num_partitions, MAX_PROCESSES);
}

kiln_status kiln_interp_launch_group_create_spanning(int32_t num_partitions, int32_t first, int32_t count,
                                                     const kiln_backend_wire *wire, int timeout_s,
                                                     kiln_backend_group **out_group) {
  *out_group = NULL;
  if (!wire || wire->struct_size < offsetof(kiln_backend_wire, exchange_each) || count < 1 || first < 0 || first > num_partitions - count ||
      first % count || (int64_t)count * wire->size != num_partitions)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "partitions %d .. %d of %d over %d processes: not this process's share",
                       (int)first, (int)(first + count - 1), (int)num_partitions, wire ? (int)wire->size : 0);
  KILN_RETURN_IF_ERROR(kiln_interp_launch_group_create(num_partitions, out_group));
  kiln_interp_group *g = (kiln_interp_group *)*out_group;
  g->wire = wire;
  g->lo = first;
  g->hi = first + count;
  g->per_wire = count;
  g->timeout_s = timeout_s;
  return NULL;
}

void kiln_interp_launch_group_destroy(kiln_backend_group *group) {
  kiln_interp_group_destroy((kiln_interp_group *)group);
}

static bool launched(const kiln_backend_execute_args *a) {
  return a->struct_size >= offsetof(kiln_backend_execute_args, device) + sizeof a->device && a->num_partitions > 1 &&
         a->group;
}

kiln_interp_process kiln_interp_launch_begin(const kiln_backend_execute_args *a) {
  if (!launched(a)) return kiln_interp_bound();
  return kiln_interp_bind((kiln_interp_process){(kiln_interp_group *)a->group, a->partition});
}

void kiln_interp_launch_end(const kiln_backend_execute_args *a, kiln_interp_process before, bool failed) {
  if (!launched(a)) return;
  kiln_interp_group_finish((kiln_interp_group *)a->group, a->partition, failed);
  kiln_interp_bind(before);
}

void kiln_interp_group_destroy(kiln_interp_group *g) {
  if (!g) return;
  while (g->rounds) {
    round_ *r = g->rounds;
    g->rounds = r->next;
    round_free(r);
  }
  while (g->head) {
    message *m = g->head;
    g->head = m->next;
    for (int32_t i = 0; i < m->n; i++) kiln_rtv_release(m->vals[i]);
    free(m->vals);
    free(m);
  }
  for (int32_t i = 0; i < g->num_outfeed; i++) kiln_rtv_release(g->outfeed[i]);
  free(g->outfeed);
  free(g->done);
  free(g->blocked_at);
  free(g->ordinals);
  pthread_cond_destroy(&g->cv);
  pthread_mutex_destroy(&g->mu);
  free(g);
}

kiln_interp_group *kiln_interp_group_create(int32_t num_replicas, int32_t num_partitions, int timeout_s) {
  if (num_replicas < 1 || num_partitions < 1 || num_replicas > MAX_PROCESSES / num_partitions) return NULL;
  kiln_interp_group *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->timeout_s = timeout_s;
  g->num_replicas = num_replicas;
  g->num_partitions = num_partitions;
  g->count = num_replicas * num_partitions;
  g->first_failed = -1;
  g->done = calloc((size_t)g->count, sizeof *g->done);
  g->blocked_at = malloc(sizeof *g->blocked_at * (size_t)g->count);
  for (int32_t i = 0; g->blocked_at && i < g->count; i++) g->blocked_at[i] = -1;
  pthread_condattr_t ca;
  bool ok = g->done && g->blocked_at && pthread_condattr_init(&ca) == 0;
  if (ok) {
    ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&g->cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
  }
  if (ok && pthread_mutex_init(&g->mu, NULL) != 0) {
    pthread_cond_destroy(&g->cv);
    ok = false;
  }
  if (!ok) {
    free(g->done);
    free(g->blocked_at);
    free(g);
    return NULL;
  }
  return g;
}

/* Appends a process's check results to the parent's log. */
static kiln_status merge_log(kiln_check_log *into, const kiln_check_log *from) {
  into->passed += from->passed;
  into->failed += from->failed;
  if (from->text.len) kiln_strbuf_put(&into->text, from->text.data, from->text.len);
  return into->text.failed ? oom() : NULL;
}

kiln_status kiln_interp_run_parallel(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_op *const *funcs,
                                     int32_t num_replicas, int32_t num_partitions, const char *const *infeed,
                                     int32_t num_infeed, kiln_rtv *const *inputs, int32_t num_inputs,
                                     kiln_rtv **results, int32_t num_results) {
  if (num_replicas < 1 || num_partitions < 1 || num_replicas > MAX_PROCESSES / num_partitions)
    return kiln_interp_error(ctx, op, "a grid of %d x %d processes is not supported (at most %d processes)",
                             (int)num_replicas, (int)num_partitions, MAX_PROCESSES);
  int32_t count = num_replicas * num_partitions;
  int64_t want_in = 0, want_out = 0;
  for (int32_t i = 0; i < count; i++) {
    const kiln_type *ft = kiln_func_type(funcs[i]);
    want_in += ft->func.num_inputs;
    want_out += ft->func.num_results;
  }
  if (want_in != num_inputs || want_out != num_results)
    return kiln_interp_error(ctx, op,
                             "has %d inputs and %d results, but its programs take %lld inputs and return %lld results",
                             (int)num_inputs, (int)num_results, (long long)want_in, (long long)want_out);
  kiln_interp_group *g = kiln_interp_group_create(num_replicas, num_partitions, KILN_GROUP_TIMEOUT_S);
  process *procs = calloc((size_t)count, sizeof *procs);
  if (!g || !procs) {
    kiln_interp_group_destroy(g);
    free(procs);
    return oom();
  }
  g->infeed = infeed;
  g->num_infeed = num_infeed;
  pthread_attr_t attr;
  bool have_attr = pthread_attr_init(&attr) == 0;
  if (have_attr) pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
  kiln_status st = NULL;
  int32_t in_at = 0, out_at = 0;
  for (int32_t i = 0; i < count; i++) {
    process *p = &procs[i];
    const kiln_type *ft = kiln_func_type(funcs[i]);
    p->ctx = (kiln_interp_ctx){.interp = ctx->interp,
                               .checks = ctx->checks ? &p->log : NULL,
                               .print_out = ctx->print_out,
                               .group = g,
                               .process_id = i,
                               .depth = ctx->depth};
    p->func = funcs[i];
    p->args = inputs + in_at;
    p->nargs = ft->func.num_inputs;
    p->results = results + out_at;
    in_at += ft->func.num_inputs;
    out_at += ft->func.num_results;
  }
  for (int32_t i = 0; i < count; i++) {
    process *p = &procs[i];
    int rc = pthread_create(&p->thread, have_attr ? &attr : NULL, process_main, p);
    if (rc != 0) {
      st = kiln_interp_error(ctx, op, "cannot start a thread for process %d (error %d)", (int)i, rc);
      pthread_mutex_lock(&g->mu); /* the started ones give up instead of waiting for this one */
      for (int32_t j = i; j < count; j++) g->done[j] = true;
      if (g->first_failed < 0) g->first_failed = i;
      kiln_group_progress(g);
      pthread_mutex_unlock(&g->mu);
      break;
    }
    p->started = true;
  }
  if (have_attr) pthread_attr_destroy(&attr);
  for (int32_t i = 0; i < count; i++)
    if (procs[i].started) pthread_join(procs[i].thread, NULL);
  /* The error that came first is the cause; the others only report it. */
  if (!st && g->first_failed >= 0) {
    st = procs[g->first_failed].st;
    procs[g->first_failed].st = NULL;
  }
  for (int32_t i = 0; i < count; i++) {
    process *p = &procs[i];
    if (!st && ctx->checks) st = merge_log(ctx->checks, &p->log);
    kiln_check_log_free(&p->log);
    kiln_status_free(p->st);
  }
  if (st)
    for (int32_t i = 0; i < num_results; i++) {
      kiln_rtv_release(results[i]);
      results[i] = NULL;
    }
  free(procs);
  kiln_interp_group_destroy(g);
  return st;
}
