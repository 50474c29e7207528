/* Completion events of runs, and the check results they carry. */
#define _GNU_SOURCE /* strdup */
#include <stdlib.h>
#include <string.h>

#include "base/fault.h"
#include "runtime/runtime.h"

kiln_status kiln_status_copy(kiln_status s) {
  return s ? KILN_STATUS(kiln_status_code_of(s), "%s", kiln_status_message(s)) : NULL;
}

kiln_event *kiln_event_new(kiln_client *client) {
  kiln_event *e = kiln_fault_calloc(1, sizeof *e);
  if (!e) return NULL;
  atomic_init(&e->refs, 1);
  pthread_mutex_init(&e->mu, NULL);
  e->client = kiln_client_retain(client);
  return e;
}

void kiln_event_report_checks(void *ctx, int32_t passed, int32_t failed, const char *failures) {
  kiln_event *e = ctx;
  char *copy = strdup(failures ? failures : "");
  pthread_mutex_lock(&e->mu);
  e->checks_passed = passed;
  e->checks_failed = failed;
  free(e->check_failures);
  e->check_failures = copy;
  pthread_mutex_unlock(&e->mu);
}

bool kiln_event_is_ready(const kiln_event *ce) {
  if (!ce) return true;
  kiln_event *e = (kiln_event *)ce; /* the lock is not part of the event's value */
  pthread_mutex_lock(&e->mu);
  bool ready = !e->impl || e->client->plugin.table.event_is_ready(e->impl);
  pthread_mutex_unlock(&e->mu);
  return ready;
}

kiln_status kiln_event_wait(kiln_event *e) {
  if (!e) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_event_wait: event is NULL");
  pthread_mutex_lock(&e->mu);
  if (e->impl) {
    const kiln_backend *b = &e->client->plugin.table;
    e->error = b->event_wait(e->impl);
    b->event_destroy(e->impl);
    e->impl = NULL;
  }
  kiln_status st = kiln_status_copy(e->error);
  pthread_mutex_unlock(&e->mu);
  return st;
}

kiln_status kiln_event_checks(kiln_event *e, kiln_check_results *out) {
  if (!out || out->struct_size < sizeof(size_t))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_event_checks: out_results with its struct_size set is required");
  KILN_RETURN_IF_ERROR(kiln_event_wait(e));
  pthread_mutex_lock(&e->mu);
  kiln_check_results r = {sizeof r, e->checks_passed, e->checks_failed, e->check_failures ? e->check_failures : ""};
  pthread_mutex_unlock(&e->mu);
  size_t caller_size = out->struct_size;
  memcpy(out, &r, caller_size < sizeof r ? caller_size : sizeof r);
  out->struct_size = caller_size;
  return NULL;
}

kiln_event *kiln_event_retain(kiln_event *e) {
  if (e) atomic_fetch_add(&e->refs, 1);
  return e;
}

void kiln_event_release(kiln_event *e) {
  if (!e || atomic_fetch_sub(&e->refs, 1) != 1) return;
  if (e->impl) {
    const kiln_backend *b = &e->client->plugin.table;
    kiln_status_free(b->event_wait(e->impl)); /* a run in flight must end before its plugin goes */
    b->event_destroy(e->impl);
  }
  kiln_status_free(e->error);
  free(e->check_failures);
  pthread_mutex_destroy(&e->mu);
  kiln_client_release(e->client);
  free(e);
}
