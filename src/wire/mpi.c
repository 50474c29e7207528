/* The wire over Open MPI, loaded at run time (see wire.h).
 *
 * Open MPI's ABI: handles are pointers to its predefined objects (ompi_mpi_comm_world,
 * ompi_mpi_byte, ...), and MPI_Status is five fields. Messages are byte blobs on
 * MPI_COMM_WORLD: sends are MPI_Isend, receives a matched probe (MPI_Improbe, so that no
 * other thread can take the message) and MPI_Imrecv, all polled with MPI_Test under one
 * lock until done or the deadline, so that no wait is unbounded and a lost peer is named. */
#define _POSIX_C_SOURCE 200809L
#include "wire/wire.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *mpi_handle; /* MPI_Comm, MPI_Datatype, MPI_Request, MPI_Message, MPI_Errhandler */
typedef struct mpi_status {
  int source, tag, error, cancelled;
  size_t ucount;
} mpi_status;

enum {
  MPI_OK = 0,
  MPI_THREAD_SERIALIZED_ = 2,
  MPI_TAG_UB_KEYVAL = 0,
  MAX_PEERS_NAMED = 8,
  DEFAULT_TIMEOUT_S = 300,
};

typedef struct mpi_api {
  int (*Initialized)(int *);
  int (*Finalized)(int *);
  int (*Init_thread)(int *, char ***, int, int *);
  int (*Finalize)(void);
  int (*Comm_rank)(mpi_handle, int *);
  int (*Comm_size)(mpi_handle, int *);
  int (*Comm_set_errhandler)(mpi_handle, mpi_handle);
  int (*Comm_get_attr)(mpi_handle, int, void *, int *);
  int (*Isend)(const void *, int, mpi_handle, int, int, mpi_handle, mpi_handle *);
  int (*Improbe)(int, int, mpi_handle, int *, mpi_handle *, mpi_status *);
  int (*Imrecv)(void *, int, mpi_handle, mpi_handle *, mpi_handle *);
  int (*Get_count)(const mpi_status *, mpi_handle, int *);
  int (*Test)(mpi_handle *, int *, mpi_status *);
  int (*Cancel)(mpi_handle *);
  int (*Error_string)(int, char *, int *);
  mpi_handle comm_world, byte, errors_return;
} mpi_api;

static struct {
  pthread_mutex_t mu;
  void *lib;
  mpi_api api;
  bool joined, we_initialized;
  int tag_mask; /* tags are folded into 0 .. tag_mask (MPI_TAG_UB, a power of two less one) */
  kiln_backend_wire wire;
  struct pending *pending; /* sends not yet delivered (wire_send), with their copies */
  int timeout_s;           /* KILN_COLLECTIVE_TIMEOUT_S, read at join */
} g_mpi = {.mu = PTHREAD_MUTEX_INITIALIZER};

static kiln_status mpi_error(const char *what, int rc) {
  char text[256] = "";
  int len = 0;
  if (g_mpi.api.Error_string) g_mpi.api.Error_string(rc, text, &len);
  return KILN_STATUS(KILN_STATUS_INTERNAL, "MPI: %s failed (error %d: %s)", what, rc, text[0] ? text : "unknown");
}

/* ------------------------------------------------------------------ loading */

static kiln_status load(void) {
  const char *names[] = {"libmpi.so.40", "libmpi.so"};
  for (size_t i = 0; !g_mpi.lib && i < sizeof names / sizeof *names; i++)
    g_mpi.lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL); /* global: Open MPI's components bind to it */
  if (!g_mpi.lib)
    return KILN_STATUS(KILN_STATUS_UNAVAILABLE,
                       "launched by mpirun, but Open MPI's libmpi.so.40 cannot be loaded (%s); install Open MPI "
                       "(Debian: libopenmpi3)",
                       dlerror());
  struct {
    void *slot;
    const char *name;
  } syms[] = {
      {&g_mpi.api.Initialized, "MPI_Initialized"},     {&g_mpi.api.Finalized, "MPI_Finalized"},
      {&g_mpi.api.Init_thread, "MPI_Init_thread"},     {&g_mpi.api.Finalize, "MPI_Finalize"},
      {&g_mpi.api.Comm_rank, "MPI_Comm_rank"},         {&g_mpi.api.Comm_size, "MPI_Comm_size"},
      {&g_mpi.api.Comm_set_errhandler, "MPI_Comm_set_errhandler"},
      {&g_mpi.api.Comm_get_attr, "MPI_Comm_get_attr"}, {&g_mpi.api.Isend, "MPI_Isend"},
      {&g_mpi.api.Improbe, "MPI_Improbe"},             {&g_mpi.api.Imrecv, "MPI_Imrecv"},
      {&g_mpi.api.Get_count, "MPI_Get_count"},         {&g_mpi.api.Test, "MPI_Test"},
      {&g_mpi.api.Cancel, "MPI_Cancel"},               {&g_mpi.api.Error_string, "MPI_Error_string"},
      {&g_mpi.api.comm_world, "ompi_mpi_comm_world"},
      {&g_mpi.api.byte, "ompi_mpi_byte"},              {&g_mpi.api.errors_return, "ompi_mpi_errors_return"},
  };
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
    void *p = dlsym(g_mpi.lib, syms[i].name);
    if (!p)
      return KILN_STATUS(KILN_STATUS_UNAVAILABLE, "the MPI library loaded has no %s: Kiln needs Open MPI (4.x)",
                         syms[i].name);
    memcpy(syms[i].slot, &p, sizeof p); /* a function or object address, as dlsym gives it */
  }
  return NULL;
}

/* ------------------------------------------------------------------ polling */

typedef struct deadline {
  struct timespec end;
  long polls;
} deadline;

static deadline deadline_in(int seconds) {
  deadline d = {.polls = 0};
  clock_gettime(CLOCK_MONOTONIC, &d.end);
  d.end.tv_sec += seconds;
  return d;
}

/* Between two polls: spin first (a collective's partner is usually a moment away), then
 * yield, then sleep up to 100 us. False once the deadline has passed. */
static bool pause_before_poll(deadline *d) {
  d->polls++;
  if (d->polls > 2000) {
    struct timespec nap = {0, d->polls > 20000 ? 100000 : 10000};
    nanosleep(&nap, NULL);
  } else if (d->polls > 200) {
    sched_yield();
  }
  if ((d->polls & 63) != 0) return true;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec < d->end.tv_sec || (now.tv_sec == d->end.tv_sec && now.tv_nsec < d->end.tv_nsec);
}

static int fold_tag(int32_t tag) { return (int)((uint32_t)tag & (uint32_t)g_mpi.tag_mask); }

static kiln_status check_size(size_t bytes) {
  return bytes > (size_t)INT_MAX
             ? KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "a message of %zu bytes: the wire carries at most %d bytes at once",
                           bytes, INT_MAX)
             : NULL;
}

/* A send wire_send has posted: its request and the copy of its bytes MPI reads. */
typedef struct pending {
  struct pending *next;
  mpi_handle request;
  void *data;
} pending;

/* Frees the pending sends that have been delivered (all: wait is true, bounded by
 * timeout_s); called with g_mpi.mu held. Failed sends are dropped: their receivers time
 * out and name this process. */
static void sweep_pending(bool wait, int timeout_s) {
  deadline d = deadline_in(timeout_s);
  for (;;) {
    for (pending **p = &g_mpi.pending; *p;) {
      int flag = 0;
      mpi_status s;
      int rc = g_mpi.api.Test(&(*p)->request, &flag, &s);
      if (rc == MPI_OK && !flag) {
        p = &(*p)->next;
        continue;
      }
      pending *done = *p;
      *p = done->next;
      free(done->data);
      free(done);
    }
    if (!wait || !g_mpi.pending || !pause_before_poll(&d)) return;
  }
}

/* An exchange in flight: sends from the caller's parts, and per peer the parts arriving. */
typedef struct send_req {
  mpi_handle request;
  int32_t k; /* the peer's index */
  bool done;
} send_req;

typedef struct recv_state {
  int peer;
  int32_t received, expected;
  bool posted, done;
  mpi_handle request;
} recv_state;

/* Advances the receive from one peer: matches its next part, gives it its place, and
 * counts it when it has arrived. Called with g_mpi.mu held. */
static kiln_status advance_recv(recv_state *r, int32_t k, int tag, const kiln_backend_wire_sink *sink) {
  mpi_api *m = &g_mpi.api;
  mpi_status s;
  int flag = 0, rc;
  if (!r->posted) {
    mpi_handle msg = NULL;
    if ((rc = m->Improbe(r->peer, tag, m->comm_world, &flag, &msg, &s)) != MPI_OK) return mpi_error("MPI_Improbe", rc);
    if (!flag) return NULL;
    int count = 0;
    void *dst = NULL;
    if ((rc = m->Get_count(&s, m->byte, &count)) != MPI_OK) return mpi_error("MPI_Get_count", rc);
    KILN_RETURN_IF_ERROR(sink->place(sink->ctx, k, r->received, (size_t)count, &dst)); /* the exchange fails */
    if ((rc = m->Imrecv(dst, count, m->byte, &msg, &r->request)) != MPI_OK) return mpi_error("MPI_Imrecv", rc);
    r->posted = true;
  }
  if ((rc = m->Test(&r->request, &flag, &s)) != MPI_OK) return mpi_error("MPI_Imrecv", rc);
  if (!flag) return NULL;
  r->posted = false;
  r->received++;
  r->expected = sink->count(sink->ctx, k, r->received);
  if (r->expected < r->received)
    return KILN_STATUS(KILN_STATUS_DATA_LOSS, "process %d sent more parts than it announced", r->peer);
  r->done = r->received == r->expected;
  return NULL;
}

/* After a failure: withdraws what is still posted (MPI must not touch the caller's
 * buffers once the exchange returns), waiting for each withdrawal up to a second. */
static void withdraw(send_req *sends, int32_t ns, recv_state *recvs, int32_t nr) {
  mpi_api *m = &g_mpi.api;
  deadline d = deadline_in(1);
  pthread_mutex_lock(&g_mpi.mu);
  for (int32_t i = 0; i < ns; i++)
    if (!sends[i].done) m->Cancel(&sends[i].request);
  for (int32_t i = 0; i < nr; i++)
    if (recvs[i].posted) m->Cancel(&recvs[i].request);
  for (bool open = true; open && pause_before_poll(&d);) {
    open = false;
    mpi_status s;
    int flag;
    for (int32_t i = 0; i < ns; i++)
      if (!sends[i].done) open |= !(sends[i].done = m->Test(&sends[i].request, &flag, &s) != MPI_OK || flag);
    for (int32_t i = 0; i < nr; i++)
      if (recvs[i].posted) open |= (recvs[i].posted = !(m->Test(&recvs[i].request, &flag, &s) != MPI_OK || flag));
  }
  pthread_mutex_unlock(&g_mpi.mu);
}

static kiln_status timed_out(const send_req *sends, int32_t ns, const recv_state *recvs, const int32_t *peers,
                             int32_t n, int timeout_s) {
  char who[160] = "";
  size_t len = 0;
  int32_t named = 0;
  for (int32_t k = 0; k < n && len < sizeof who - 16; k++) {
    bool silent = !recvs[k].done;
    for (int32_t i = 0; i < ns; i++) silent |= sends[i].k == k && !sends[i].done;
    if (silent && named++ < MAX_PEERS_NAMED)
      len += (size_t)snprintf(who + len, sizeof who - len, "%s%d", len ? ", " : "", (int)peers[k]);
  }
  return KILN_STATUS(KILN_STATUS_DEADLINE_EXCEEDED, "an exchange between processes: no answer within %d s from process%s %s (of %d)",
                     timeout_s, named > 1 ? "es" : "", who, (int)g_mpi.wire.size);
}

static kiln_status bad_peer(int32_t peer) {
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "the wire has no process %d (the launch has %d)", (int)peer,
                     (int)g_mpi.wire.size);
}

/* ------------------------------------------------------------------ the wire's functions */

/* exchange and exchange_each: peers[k] is sent parts[k * stride .. k * stride + num_parts - 1]. */
static kiln_status exchange_parts(int32_t tag32, const int32_t *peers, int32_t n, const kiln_backend_wire_part *parts,
                                  int32_t num_parts, int32_t stride, const kiln_backend_wire_sink *sink, int timeout_s) {
  int tag = fold_tag(tag32);
  int32_t ns = n * num_parts;
  send_req *sends = calloc((size_t)ns + 1, sizeof *sends);
  recv_state *recvs = calloc((size_t)n + 1, sizeof *recvs);
  kiln_status st = sends && recvs ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; !st && i < (stride ? n * stride : num_parts); i++) st = check_size(parts[i].bytes);
  for (int32_t k = 0; !st && k < n; k++) {
    if (peers[k] < 0 || peers[k] >= g_mpi.wire.size || peers[k] == g_mpi.wire.rank) st = bad_peer(peers[k]);
    recvs[k] = (recv_state){.peer = peers[k], .expected = st ? 0 : sink->count(sink->ctx, k, 0)};
    recvs[k].done = recvs[k].expected == 0;
  }
  int32_t posted = 0;
  pthread_mutex_lock(&g_mpi.mu);
  for (int32_t k = 0; !st && k < n; k++)
    for (int32_t i = 0; !st && i < num_parts; i++) {
      sends[posted].k = k;
      const kiln_backend_wire_part *part = &parts[(int64_t)k * stride + i];
      int rc = g_mpi.api.Isend(part->data, (int)part->bytes, g_mpi.api.byte, peers[k], tag, g_mpi.api.comm_world,
                               &sends[posted].request);
      if (rc != MPI_OK) st = mpi_error("MPI_Isend", rc);
      else posted++;
    }
  pthread_mutex_unlock(&g_mpi.mu);
  ns = posted;
  deadline d = deadline_in(timeout_s);
  while (!st) {
    bool open = false;
    pthread_mutex_lock(&g_mpi.mu);
    if (g_mpi.pending) sweep_pending(false, 0);
    for (int32_t i = 0; !st && i < ns; i++)
      if (!sends[i].done) {
        int flag = 0;
        mpi_status s;
        int rc = g_mpi.api.Test(&sends[i].request, &flag, &s);
        if (rc != MPI_OK) st = mpi_error("MPI_Isend", rc);
        sends[i].done = flag != 0;
        open |= !sends[i].done;
      }
    for (int32_t k = 0; !st && k < n; k++)
      if (!recvs[k].done) {
        st = advance_recv(&recvs[k], k, tag, sink);
        open |= !recvs[k].done;
      }
    pthread_mutex_unlock(&g_mpi.mu);
    if (!open) break;
    if (!st && !pause_before_poll(&d)) st = timed_out(sends, ns, recvs, peers, n, timeout_s);
  }
  if (st && sends && recvs) withdraw(sends, ns, recvs, n);
  free(sends);
  free(recvs);
  return st;
}

static kiln_status wire_exchange(void *ctx, int32_t tag, const int32_t *peers, int32_t n,
                                 const kiln_backend_wire_part *parts, int32_t num_parts, const kiln_backend_wire_sink *sink,
                                 int timeout_s) {
  (void)ctx;
  return exchange_parts(tag, peers, n, parts, num_parts, 0, sink, timeout_s);
}

static kiln_status wire_exchange_each(void *ctx, int32_t tag, const int32_t *peers, int32_t n,
                                      const kiln_backend_wire_part *parts, int32_t num_parts,
                                      const kiln_backend_wire_sink *sink, int timeout_s) {
  (void)ctx;
  return exchange_parts(tag, peers, n, parts, num_parts, num_parts, sink, timeout_s);
}

static kiln_status wire_send(void *ctx, int32_t tag32, int32_t to, const kiln_backend_wire_part *parts, int32_t num_parts) {
  (void)ctx;
  if (to < 0 || to >= g_mpi.wire.size || to == g_mpi.wire.rank) return bad_peer(to);
  kiln_status st = NULL;
  for (int32_t i = 0; !st && i < num_parts; i++) {
    KILN_RETURN_IF_ERROR(check_size(parts[i].bytes));
    pending *p = calloc(1, sizeof *p);
    void *copy = malloc(parts[i].bytes ? parts[i].bytes : 1);
    if (!p || !copy) {
      free(p);
      free(copy);
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory (a message of %zu bytes)", parts[i].bytes);
    }
    memcpy(copy, parts[i].data, parts[i].bytes);
    p->data = copy;
    pthread_mutex_lock(&g_mpi.mu);
    int rc = g_mpi.api.Isend(copy, (int)parts[i].bytes, g_mpi.api.byte, to, fold_tag(tag32), g_mpi.api.comm_world,
                             &p->request);
    if (rc == MPI_OK) {
      p->next = g_mpi.pending;
      g_mpi.pending = p;
      sweep_pending(false, 0);
    }
    pthread_mutex_unlock(&g_mpi.mu);
    if (rc != MPI_OK) {
      free(copy);
      free(p);
      st = mpi_error("MPI_Isend", rc);
    }
  }
  return st;
}

/* ------------------------------------------------------------------ joining */

static kiln_status start(void) {
  KILN_RETURN_IF_ERROR(load());
  mpi_api *m = &g_mpi.api;
  int inited = 0, provided = 0, rank = 0, size = 0, rc, flag = 0;
  if ((rc = m->Initialized(&inited)) != MPI_OK) return mpi_error("MPI_Initialized", rc);
  if (!inited) {
    if ((rc = m->Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED_, &provided)) != MPI_OK) return mpi_error("MPI_Init_thread", rc);
    g_mpi.we_initialized = true;
    if (provided < MPI_THREAD_SERIALIZED_)
      return KILN_STATUS(KILN_STATUS_UNAVAILABLE, "MPI offers thread level %d; Kiln needs MPI_THREAD_SERIALIZED", provided);
  }
  if ((rc = m->Comm_set_errhandler(m->comm_world, m->errors_return)) != MPI_OK) return mpi_error("MPI_Comm_set_errhandler", rc);
  if ((rc = m->Comm_rank(m->comm_world, &rank)) != MPI_OK) return mpi_error("MPI_Comm_rank", rc);
  if ((rc = m->Comm_size(m->comm_world, &size)) != MPI_OK) return mpi_error("MPI_Comm_size", rc);
  int *tag_ub = NULL;
  if ((rc = m->Comm_get_attr(m->comm_world, MPI_TAG_UB_KEYVAL, &tag_ub, &flag)) != MPI_OK) return mpi_error("MPI_Comm_get_attr", rc);
  int ub = flag && tag_ub ? *tag_ub : 32767;
  g_mpi.tag_mask = 32767;
  while (g_mpi.tag_mask < INT_MAX / 2 && g_mpi.tag_mask * 2 + 1 <= ub) g_mpi.tag_mask = g_mpi.tag_mask * 2 + 1;
  g_mpi.wire = (kiln_backend_wire){sizeof g_mpi.wire, NULL, rank, size, wire_exchange, wire_send, wire_exchange_each};
  return NULL;
}

/* KILN_COLLECTIVE_TIMEOUT_S (1 to 86400), else the default. */
static int read_timeout(void) {
  const char *v = getenv("KILN_COLLECTIVE_TIMEOUT_S");
  char *end = NULL;
  long s = v ? strtol(v, &end, 10) : 0;
  return v && *v && end && !*end && s >= 1 && s <= 86400 ? (int)s : DEFAULT_TIMEOUT_S;
}

kiln_status kiln_wire_join(const kiln_backend_wire **out) {
  *out = NULL;
  if (g_mpi.joined) {
    *out = g_mpi.wire.size > 1 ? &g_mpi.wire : NULL;
    return NULL;
  }
  const char *size = getenv("OMPI_COMM_WORLD_SIZE"); /* set by Open MPI's mpirun for each process */
  if (!size || atoi(size) <= 1) return NULL;
  kiln_status st = start();
  if (st) {
    kiln_status located = KILN_STATUS(kiln_status_code_of(st), "joining the launch (OMPI_COMM_WORLD_SIZE=%s): %s", size,
                                      kiln_status_message(st));
    kiln_status_free(st);
    return located;
  }
  g_mpi.joined = true;
  g_mpi.timeout_s = read_timeout();
  *out = g_mpi.wire.size > 1 ? &g_mpi.wire : NULL;
  return NULL;
}

const kiln_backend_wire *kiln_wire_joined(void) { return g_mpi.joined && g_mpi.wire.size > 1 ? &g_mpi.wire : NULL; }

void kiln_wire_leave(void) {
  if (!g_mpi.joined) return;
  pthread_mutex_lock(&g_mpi.mu);
  sweep_pending(true, kiln_wire_timeout_s());
  pthread_mutex_unlock(&g_mpi.mu);
  int finalized = 0;
  if (g_mpi.we_initialized && g_mpi.api.Finalized(&finalized) == MPI_OK && !finalized) g_mpi.api.Finalize();
  g_mpi.joined = false;
}

/* allgather's sink: peer k's one part goes to its place in all[]. */
typedef struct gather_sink {
  uint8_t *all;
  size_t bytes;
  const int32_t *peers;
} gather_sink;

static kiln_status gather_place(void *ctx, int32_t k, int32_t index, size_t bytes, void **dst) {
  const gather_sink *g = ctx;
  (void)index;
  if (bytes != g->bytes)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "process %d brings %zu bytes where this one (%d) brings %zu",
                       (int)g->peers[k], bytes, (int)g_mpi.wire.rank, g->bytes);
  *dst = g->all + (size_t)g->peers[k] * g->bytes;
  return NULL;
}

static int32_t gather_count(void *ctx, int32_t k, int32_t received) {
  (void)ctx, (void)k, (void)received;
  return 1;
}

kiln_status kiln_wire_allgather(const void *mine, size_t bytes, void *all, int timeout_s) {
  const kiln_backend_wire *w = kiln_wire_joined();
  int32_t size = w ? w->size : 1, rank = w ? w->rank : 0;
  memcpy((uint8_t *)all + (size_t)rank * bytes, mine, bytes);
  if (size == 1) return NULL;
  int32_t *peers = malloc(sizeof *peers * (size_t)size);
  if (!peers) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int32_t n = 0;
  for (int32_t p = 0; p < size; p++)
    if (p != rank) peers[n++] = p;
  gather_sink g = {all, bytes, peers};
  kiln_backend_wire_sink sink = {&g, gather_place, gather_count};
  kiln_backend_wire_part part = {mine, bytes};
  kiln_status st = w->exchange(w->ctx, INT32_MAX, peers, n, &part, 1, &sink, timeout_s);
  free(peers);
  return st;
}

int kiln_wire_timeout_s(void) { return g_mpi.joined ? g_mpi.timeout_s : read_timeout(); }

