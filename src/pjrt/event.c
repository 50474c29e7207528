/* PJRT_Event: refcounted, a mutex and a condition variable, and the OnReady callbacks
 * still to run. Callbacks run outside the lock: the framework's callback destroys the
 * event it was registered on, so after the last callback the event is not touched. */
#include <stdlib.h>

#include "pjrt/pjrt.h"

typedef struct kiln_pjrt_callback {
  struct kiln_pjrt_callback *next;
  PJRT_Event_OnReadyCallback fn;
  void *user_arg;
} kiln_pjrt_callback;

static kiln_status status_copy(kiln_status s) {
  return s ? KILN_STATUS(kiln_status_code_of(s), "%s", kiln_status_message(s)) : NULL;
}

PJRT_Event *kiln_pjrt_event_new(void) {
  PJRT_Event *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  atomic_init(&e->refs, 1);
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->cv, NULL);
  return e;
}

PJRT_Event *kiln_pjrt_event_ready(kiln_status error) {
  PJRT_Event *e = kiln_pjrt_event_new();
  if (!e) {
    kiln_status_free(error);
    return NULL;
  }
  e->ready = true;
  e->error = error;
  return e;
}

/* Runs callbacks (a list taken out of an event) with copies of error. */
static void run_callbacks(kiln_pjrt_callback *cb, kiln_status error) {
  while (cb) {
    kiln_pjrt_callback *next = cb->next;
    cb->fn(kiln_pjrt_error(status_copy(error)), cb->user_arg);
    free(cb);
    cb = next;
  }
}

void kiln_pjrt_event_set(PJRT_Event *e, kiln_status error) {
  pthread_mutex_lock(&e->mu);
  e->ready = true;
  e->error = error;
  kiln_pjrt_callback *cbs = e->callbacks;
  e->callbacks = NULL;
  pthread_cond_broadcast(&e->cv);
  /* the callbacks may drop the last reference held by others: keep one until they ran */
  atomic_fetch_add(&e->refs, 1);
  pthread_mutex_unlock(&e->mu);
  run_callbacks(cbs, error);
  kiln_pjrt_event_release(e);
}

PJRT_Event *kiln_pjrt_event_retain(PJRT_Event *e) {
  if (e) atomic_fetch_add(&e->refs, 1);
  return e;
}

void kiln_pjrt_event_release(PJRT_Event *e) {
  if (!e || atomic_fetch_sub(&e->refs, 1) != 1) return;
  /* the last reference: no callback can still be pending on a set event, and a pending
   * event that is dropped never runs its callbacks (the framework destroyed it) */
  for (kiln_pjrt_callback *cb = e->callbacks, *next; cb; cb = next) {
    next = cb->next;
    free(cb);
  }
  kiln_status_free(e->error);
  pthread_cond_destroy(&e->cv);
  pthread_mutex_destroy(&e->mu);
  free(e);
}

PJRT_Error *kiln_pjrt_Event_Destroy(PJRT_Event_Destroy_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, event);
  kiln_pjrt_event_release(args->event);
  return NULL;
}

#define CHECK_EVENT(args)                          \
  do {                                              \
    KILN_PJRT_CHECK_ARGS(args, event);              \
    KILN_PJRT_REQUIRE((args)->event, "event is NULL"); \
  } while (0)

PJRT_Error *kiln_pjrt_Event_IsReady(PJRT_Event_IsReady_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, is_ready);
  CHECK_EVENT(args);
  pthread_mutex_lock(&args->event->mu);
  args->is_ready = args->event->ready;
  pthread_mutex_unlock(&args->event->mu);
  return NULL;
}

PJRT_Error *kiln_pjrt_Event_Error(PJRT_Event_Error_Args *args) {
  CHECK_EVENT(args);
  PJRT_Event *e = args->event;
  pthread_mutex_lock(&e->mu);
  kiln_status st = e->ready ? status_copy(e->error)
                            : KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "PJRT_Event_Error: the event is not ready");
  pthread_mutex_unlock(&e->mu);
  return kiln_pjrt_error(st);
}

PJRT_Error *kiln_pjrt_Event_Await(PJRT_Event_Await_Args *args) {
  CHECK_EVENT(args);
  PJRT_Event *e = args->event;
  pthread_mutex_lock(&e->mu);
  while (!e->ready) pthread_cond_wait(&e->cv, &e->mu);
  kiln_status st = status_copy(e->error);
  pthread_mutex_unlock(&e->mu);
  return kiln_pjrt_error(st);
}

PJRT_Error *kiln_pjrt_Event_OnReady(PJRT_Event_OnReady_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, user_arg);
  CHECK_EVENT(args);
  if (!args->callback)
    return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Event_OnReady: callback is NULL"));
  PJRT_Event *e = args->event;
  kiln_pjrt_callback *cb = malloc(sizeof *cb);
  if (!cb) return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "PJRT_Event_OnReady: out of memory"));
  *cb = (kiln_pjrt_callback){NULL, args->callback, args->user_arg};
  pthread_mutex_lock(&e->mu);
  if (!e->ready) { /* appended: callbacks run in the order they were registered */
    kiln_pjrt_callback **tail = &e->callbacks;
    while (*tail) tail = &(*tail)->next;
    *tail = cb;
    pthread_mutex_unlock(&e->mu);
    return NULL;
  }
  /* ready: run it now, on this thread, outside the lock; the error is copied first because
   * the callback may destroy the event */
  kiln_status st = status_copy(e->error);
  pthread_mutex_unlock(&e->mu);
  run_callbacks(cb, st);
  kiln_status_free(st);
  return NULL;
}
