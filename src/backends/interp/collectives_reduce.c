/* The all-reduce of the interpreter's process grid (kiln_group_all_reduce, collectives.h).
 *
 * The values are cut into pieces of PIECE_BYTES, numbered across the values in order. In
 * one process the members share the pieces: each piece is folded once, in group order,
 * into the first member's results and copied into the others'. Across processes (a group
 * spanning the launch), values of SPLIT_BYTES or more are split into one segment of pieces
 * per process: each process receives the other processes' rows of its own segment only,
 * folds that segment (its members sharing the pieces), and the folded segments are
 * gathered by every process, as MPI's reduce-scatter then all-gather. Smaller ones travel
 * whole and every process folds all. Each element is the same left fold in group order
 * either way, so every member gets the same bits on every path. */
#include <stdlib.h>
#include <string.h>

#include "backends/interp/collectives_internal.h"
#include "backends/interp/collectives_wire.h"
#include "backends/interp/combine.h"

enum {
  PIECE_BYTES = 32 << 10, /* a piece of every member's row and its result stays in L2 */
  SPLIT_BYTES = 1 << 20,
  /* the keys of a split round's two trades (no op kind has these numbers) */
  KEY_SCATTER = KILN_OP_COUNT + 1,
  KEY_GATHER = KILN_OP_COUNT + 2,
};

static kiln_status oom(void) { return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory"); }

/* ------------------------------------------------------------------ pieces and segments */

static int64_t per_piece(const kiln_rtv *v) { return PIECE_BYTES / v->elem_bytes; }
static int64_t pieces_in(const kiln_rtv *v) { return (v->count + per_piece(v) - 1) / per_piece(v); }

static int64_t pieces_of(kiln_rtv *const *vals, int32_t nvals) {
  int64_t total = 0;
  for (int32_t j = 0; j < nvals; j++) total += pieces_in(vals[j]);
  return total;
}

/* The elements [*lo, *hi) of value j that pieces [a, b) cover (lo == hi: none). */
static void span_of(kiln_rtv *const *vals, int32_t j, int64_t a, int64_t b, int64_t *lo, int64_t *hi) {
  int64_t first = 0;
  for (int32_t i = 0; i < j; i++) first += pieces_in(vals[i]);
  int64_t x = (a > first ? a : first) - first, y = (b < first + pieces_in(vals[j]) ? b : first + pieces_in(vals[j])) - first;
  *lo = *hi = 0;
  if (y <= x) return;
  *lo = x * per_piece(vals[j]);
  *hi = y * per_piece(vals[j]) < vals[j]->count ? y * per_piece(vals[j]) : vals[j]->count;
}

/* The wire processes of round r's members, ascending (*n of them; procs holds r->count),
 * and this process's position among them (its segment). */
static int32_t processes_of(const kiln_interp_group *g, const round_ *r, int32_t *procs, int32_t *n) {
  *n = 0;
  for (int32_t m = 0; m < r->count; m++) {
    int32_t w = kiln_group_wire_process(g, r->members[m]), at = 0;
    while (at < *n && procs[at] < w) at++;
    if (at < *n && procs[at] == w) continue;
    memmove(procs + at + 1, procs + at, sizeof *procs * (size_t)(*n - at));
    procs[at] = w;
    (*n)++;
  }
  int32_t mine = 0;
  while (mine < *n && procs[mine] != g->wire->rank) mine++;
  return mine;
}

/* Segment s of n: pieces [*a, *b) of total. */
static void segment(int64_t total, int32_t s, int32_t n, int64_t *a, int64_t *b) {
  *a = total * s / n;
  *b = total * (s + 1) / n;
}

/* ------------------------------------------------------------------ folding */

/* Folds piece p of round r's rows, in group order, into member `into`'s results; shared:
 * copies it into the other members' results here too. A split round's rows from other
 * processes hold the slices of pieces [seg_a, ...) only. */
static void fold_piece(const kiln_interp_group *g, round_ *r, kiln_op_kind k, int64_t p, int32_t into, bool shared,
                       int64_t seg_a) {
  kiln_rtv *const *like = r->vals[into];
  int32_t j = 0;
  int64_t first = 0; /* value j's first piece */
  while (p >= first + pieces_in(like[j])) first += pieces_in(like[j++]);
  const kiln_rtv *x = like[j];
  int64_t per = per_piece(x), at = (p - first) * per, n = x->count - at < per ? x->count - at : per;
  size_t eb = x->elem_bytes, bytes = (size_t)n * eb;
  /* where the piece starts in a slice of the segment: past the segment's first piece of value j */
  size_t in_slice = (size_t)((p - (seg_a > first ? seg_a : first)) * per) * eb;
  uint8_t *acc = r->outs[into][j]->data + (size_t)at * eb;
  for (int32_t m = 0; m < r->count; m++) {
    bool sliced = r->split && !kiln_group_is_here(g, r->members[m]);
    const uint8_t *row = r->vals[m][j]->data + (sliced ? in_slice : (size_t)at * eb);
    if (m == 0) memcpy(acc, row, bytes);
    else kiln_combine(k, x->elem, acc, row, n);
  }
  for (int32_t m = 0; shared && m < r->count; m++)
    if (m != into && r->outs[m]) memcpy(r->outs[m][j]->data + (size_t)at * eb, acc, bytes);
}

/* ------------------------------------------------------------------ across processes */

/* Views of rows[j]'s elements that pieces [a, b) cover, as rank-1 tensors (out[j]). */
static kiln_status slice_views(kiln_rtv *const *rows, int32_t nvals, int64_t a, int64_t b, kiln_rtv **out) {
  for (int32_t j = 0; j < nvals; j++) {
    int64_t lo, hi;
    span_of(rows, j, a, b, &lo, &hi);
    int64_t len = hi - lo;
    KILN_RETURN_IF_ERROR(
        kiln_rtv_view(rows[j]->elem_type, 1, &len, rows[j]->data + (size_t)lo * rows[j]->elem_bytes, &out[j]));
  }
  return NULL;
}

kiln_status kiln_all_reduce_scatter(kiln_interp_ctx *ctx, const kiln_op *op, round_ *r, kiln_rtv *const *like,
                                    int32_t nvals) {
  kiln_interp_group *g = ctx->group;
  int32_t count = r->count, nhere = 0, nprocs = 0, npeers = 0, at = 0;
  int32_t *procs = malloc(sizeof *procs * (size_t)count), *ids = malloc(sizeof *ids * (size_t)count);
  int32_t *pids = malloc(sizeof *pids * (size_t)count);
  int32_t *peers = malloc(sizeof *peers * (size_t)count), *theirs = malloc(sizeof *theirs * (size_t)count);
  kiln_rtv ***got = calloc((size_t)count, sizeof *got);
  kiln_wire_reader *readers = calloc((size_t)count, sizeof *readers);
  int64_t nviews = (int64_t)count * count * nvals; /* per peer, per member here, per value */
  kiln_rtv **views = calloc((size_t)nviews + 1, sizeof *views), ***rows = calloc((size_t)count * count + 1, sizeof *rows);
  uint8_t **headers = calloc((size_t)count, sizeof *headers);
  kiln_backend_wire_part *parts = NULL;
  uint64_t key = 0;
  int32_t tag = 0;
  kiln_status st = procs && ids && pids && peers && theirs && got && readers && views && rows && headers &&
                           kiln_group_next_key(g, KEY_SCATTER, r->channel, r->members, count, &key, &tag) &&
                           kiln_group_next_key(g, KEY_GATHER, r->channel, r->members, count, &r->gather_key,
                                               &r->gather_tag)
                       ? NULL
                       : oom();
  int32_t mine = st ? 0 : processes_of(g, r, procs, &nprocs);
  int64_t total = pieces_of(like, nvals), my_a = 0, my_b = 0;
  segment(total, mine, nprocs, &my_a, &my_b);
  for (int32_t i = 0; !st && i < count; i++)
    if (kiln_group_is_here(g, r->members[i])) pids[nhere] = r->members[i], ids[nhere++] = i; /* here, in group order */
  for (int32_t s = 0; !st && s < nprocs; s++) {
    if (s == mine) continue;
    kiln_wire_reader *rd = &readers[npeers];
    *rd = (kiln_wire_reader){.from = procs[s], .key = key, .nvals = nvals, .like = like, .ids = theirs + at, .rows = got + at};
    for (int32_t i = 0; i < count; i++)
      if (kiln_group_wire_process(g, r->members[i]) == procs[s]) theirs[at + rd->nids++] = r->members[i];
    at += rd->nids;
    peers[npeers++] = procs[s];
  }
  pthread_mutex_unlock(&g->mu);
  /* to each peer: the rows here, sliced to its segment (a member whose values differ from
   * like's in shape sends empty slices: the peer then finds the lengths wrong) */
  int32_t per_peer = 1 + nhere * nvals;
  if (!st && !(parts = malloc(sizeof *parts * (size_t)npeers * (size_t)per_peer))) st = oom();
  for (int32_t k = 0; !st && k < npeers; k++) {
    int32_t s = 0;
    while (procs[s] != peers[k]) s++;
    int64_t a, b;
    segment(total, s, nprocs, &a, &b);
    for (int32_t i = 0; !st && i < nhere; i++) {
      kiln_rtv **v = views + ((int64_t)k * count + i) * nvals;
      kiln_rtv *const *vals = r->vals[ids[i]];
      bool same = true;
      for (int32_t j = 0; j < nvals; j++)
        same &= vals[j]->count == like[j]->count && vals[j]->elem == like[j]->elem;
      st = slice_views(vals, nvals, same ? a : 0, same ? b : 0, v);
      rows[(int64_t)k * count + i] = v;
    }
    kiln_backend_wire_part *msg = NULL;
    int32_t num = 0;
    if (!st) st = kiln_wire_message(key, pids, rows + (int64_t)k * count, nhere, nvals, &headers[k], &msg, &num);
    if (!st) memcpy(parts + (int64_t)k * per_peer, msg, sizeof *msg * (size_t)num);
    free(msg);
  }
  kiln_backend_wire_sink sink = kiln_wire_sink(readers);
  if (!st) st = g->wire->exchange_each(g->wire->ctx, tag, peers, npeers, parts, per_peer, &sink, g->timeout_s);
  for (int32_t k = 0; !st && k < npeers; k++)
    if (readers[k].st) st = readers[k].st, readers[k].st = NULL;
  for (int32_t k = 0; readers && k < npeers; k++) kiln_wire_reader_free(&readers[k]);
  for (int64_t i = 0; views && i < nviews; i++) kiln_rtv_release(views[i]);
  for (int32_t k = 0; headers && k < count; k++) free(headers[k]);
  /* the slices of this process's segment: rank 1, as long as this process's own */
  for (int32_t i = 0; !st && i < at; i++)
    for (int32_t j = 0; !st && j < nvals; j++) {
      int64_t lo, hi;
      span_of(like, j, my_a, my_b, &lo, &hi);
      if (got[i][j]->rank != 1 || got[i][j]->dims[0] != hi - lo)
        st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                         "partition %d brings operand #%d of another shape: the processes' operands differ",
                         (int)theirs[i], (int)j);
    }
  pthread_mutex_lock(&g->mu);
  kiln_round_received(g, r, theirs, got, at, nvals, st != NULL);
  free(procs), free(ids), free(pids), free(peers), free(theirs), free(got), free(readers), free(views), free(rows), free(headers);
  free(parts);
  return st ? kiln_group_wire_error(ctx, op, st) : NULL;
}

/* After this process's segment [a, b) is folded into member into's results: sends it to
 * every other process of round r and receives theirs into the same results. */
static kiln_status gather_segments(kiln_interp_ctx *ctx, const kiln_op *op, round_ *r, int32_t into, int32_t nvals) {
  kiln_interp_group *g = ctx->group;
  kiln_rtv *const *outs = r->outs[into];
  int32_t count = r->count, nprocs = 0, npeers = 0;
  int32_t *procs = malloc(sizeof *procs * (size_t)count), *peers = malloc(sizeof *peers * (size_t)count);
  kiln_backend_wire_part *parts = malloc(sizeof *parts * ((size_t)nvals + 1));
  kiln_wire_placer *placers = calloc((size_t)count, sizeof *placers);
  void **dst = malloc(sizeof *dst * (size_t)count * (size_t)nvals + 1);
  size_t *bytes = malloc(sizeof *bytes * (size_t)count * (size_t)nvals + 1);
  kiln_status st = procs && peers && parts && placers && dst && bytes ? NULL : oom();
  int32_t mine = st ? 0 : processes_of(g, r, procs, &nprocs);
  int64_t total = pieces_of(outs, nvals);
  uint64_t header[3];
  for (int32_t s = 0; !st && s < nprocs; s++) {
    int64_t a, b;
    segment(total, s, nprocs, &a, &b);
    int32_t k = s == mine ? -1 : npeers++;
    if (k >= 0) {
      peers[k] = procs[s];
      placers[k] = (kiln_wire_placer){.from = procs[s], .key = r->gather_key, .n = nvals, .dst = dst + (int64_t)k * nvals,
                                      .bytes = bytes + (int64_t)k * nvals};
    } else {
      parts[0] = kiln_wire_place_header(r->gather_key, nvals, header);
    }
    for (int32_t j = 0; j < nvals; j++) {
      int64_t lo, hi;
      span_of(outs, j, a, b, &lo, &hi);
      uint8_t *at = outs[j]->data + (size_t)lo * outs[j]->elem_bytes;
      size_t len = (size_t)(hi - lo) * outs[j]->elem_bytes;
      if (k < 0) parts[1 + j] = (kiln_backend_wire_part){at, len};
      else dst[(int64_t)k * nvals + j] = at, bytes[(int64_t)k * nvals + j] = len;
    }
  }
  kiln_backend_wire_sink sink = kiln_wire_placer_sink(placers);
  if (!st) st = g->wire->exchange(g->wire->ctx, r->gather_tag, peers, npeers, parts, 1 + nvals, &sink, g->timeout_s);
  for (int32_t k = 0; placers && k < npeers; k++) {
    if (!st) st = placers[k].st;
    else kiln_status_free(placers[k].st);
  }
  free(procs), free(peers), free(parts), free(placers), free(dst), free(bytes);
  return st ? kiln_group_wire_error(ctx, op, st) : NULL;
}

/* A member here other than into: copies the segments other processes folded from into's
 * results into its own (its own segment's pieces were copied as they were folded). */
static void copy_gathered(round_ *r, int32_t into, int32_t index, int32_t nvals, int64_t a, int64_t b) {
  kiln_rtv *const *from = r->outs[into], *const *to = r->outs[index];
  for (int32_t j = 0; j < nvals; j++) {
    int64_t lo, hi;
    span_of(from, j, a, b, &lo, &hi);
    size_t eb = from[j]->elem_bytes;
    if (lo == hi) lo = hi = from[j]->count; /* none of value j is in the segment: all of it */
    memcpy(to[j]->data, from[j]->data, (size_t)lo * eb);
    memcpy(to[j]->data + (size_t)hi * eb, from[j]->data + (size_t)hi * eb, (size_t)(from[j]->count - hi) * eb);
  }
}

/* ------------------------------------------------------------------ the all-reduce */

kiln_status kiln_group_all_reduce(kiln_interp_ctx *ctx, const kiln_op *op, int64_t channel, const int32_t *members,
                                  int32_t count, int32_t index, kiln_op_kind combiner, kiln_rtv *const *vals,
                                  kiln_rtv *const *outs, int32_t nvals) {
  int64_t bytes = 0;
  for (int32_t j = 0; j < nvals; j++) {
    if (vals[j]->kind != KILN_RTV_TENSOR || outs[j]->elem != vals[j]->elem || outs[j]->count != vals[j]->count ||
        !kiln_combine(combiner, vals[j]->elem, NULL, NULL, 0))
      return kiln_interp_error(ctx, op, "value #%d cannot be folded natively", (int)j);
    bytes += vals[j]->count * (int64_t)vals[j]->elem_bytes;
  }
  if (count == 1) {
    for (int32_t j = 0; j < nvals; j++)
      if (vals[j]->count) memcpy(outs[j]->data, vals[j]->data, (size_t)vals[j]->count * vals[j]->elem_bytes);
    return NULL;
  }
  KILN_RETURN_IF_ERROR(kiln_group_needed(ctx, op, count));
  kiln_interp_group *g = ctx->group;
  /* More than KILN_ROUND_KEEP_BYTES (lent, mostly): folded once, each piece by whichever
   * member here claims it; smaller ones by each member for itself, without waiting for the
   * others. Split across processes from SPLIT_BYTES. */
  int64_t total = pieces_of(vals, nvals);
  bool shared = bytes > KILN_ROUND_KEEP_BYTES, split = false;
  if (shared && g->wire && bytes >= SPLIT_BYTES &&
      g->wire->struct_size >= offsetof(kiln_backend_wire, exchange_each) + sizeof g->wire->exchange_each &&
      g->wire->exchange_each) {
    bool spans = false; /* members in two processes or more; each segment at least a piece */
    for (int32_t m = 1; m < count; m++) spans |= kiln_group_wire_process(g, members[m]) != kiln_group_wire_process(g, members[0]);
    split = spans && total >= count;
  }
  pthread_mutex_lock(&g->mu);
  round_ *r = NULL;
  kiln_status st = kiln_round_arrive(ctx, op, channel, members, count, index, vals, outs, nvals, split, &r);
  bool complete = r && r->arrived == count;
  if (!st && r->mismatch >= 0)
    st = kiln_interp_error(ctx, op, "operand #%d differs in type or shape between the processes of a group",
                           (int)r->mismatch);
  if (!st) { /* every member here sees the same verdict: all fold, or none */
    int64_t a = 0, b = total;
    int32_t into = index, nprocs = 0, *procs = split ? malloc(sizeof *procs * (size_t)count) : NULL;
    if (split && !procs) st = oom();
    if (procs) {
      int32_t mine = processes_of(g, r, procs, &nprocs);
      segment(total, mine, nprocs, &a, &b);
    }
    free(procs);
    for (int32_t m = 0; shared && m < count; m++) /* shared: into the first results here, then copied */
      if (r->outs[m]) into = m < into ? m : into;
    pthread_mutex_unlock(&g->mu);
    for (int64_t p = a; !st && p < b; p++) {
      int64_t q = shared ? a + atomic_fetch_add(&r->next_piece, 1) : p;
      if (q >= b) break;
      fold_piece(g, r, combiner, q, into, shared, a);
      if (shared && atomic_fetch_add(&r->pieces_done, 1) + 1 == b - a && split) { /* the segment is folded */
        kiln_status gst = gather_segments(ctx, op, r, into, nvals);
        pthread_mutex_lock(&g->mu);
        r->gathered = !gst;
        r->wire_failed |= gst != NULL;
        kiln_group_progress(g);
        pthread_mutex_unlock(&g->mu);
        st = gst;
      }
    }
    pthread_mutex_lock(&g->mu);
    if (shared && atomic_load(&r->pieces_done) == b - a) kiln_group_progress(g);
    while (!st && shared && atomic_load(&r->pieces_done) < b - a) pthread_cond_wait(&g->cv, &g->mu);
    while (!st && split && !r->gathered && !r->wire_failed) pthread_cond_wait(&g->cv, &g->mu);
    if (!st && split && !r->gathered)
      st = kiln_interp_error(ctx, op, "the exchange with the other processes failed (its error is another partition's)");
    if (!st && split && index != into) {
      pthread_mutex_unlock(&g->mu);
      copy_gathered(r, into, index, nvals, a, b);
      pthread_mutex_lock(&g->mu);
    }
    if (split) r->lent[index] = true; /* the others copy from into's results until every member here has left */
  }
  if (complete) kiln_round_depart(g, r, index, !st && shared && !split); /* folded: nobody reads the rows any more */
  pthread_mutex_unlock(&g->mu);
  return st;
}
