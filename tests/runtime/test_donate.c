/* Donated inputs through the public API (kiln_execute_args.donate, src/runtime/buffer.c
 * and executable.c) on one device (interp by default): a donated buffer is consumed by the
 * run and every later use is a clear FAILED_PRECONDITION; donating twice or donating and
 * passing undonated is INVALID_ARGUMENT and consumes nothing; an error found before the
 * run consumes nothing; a caller built before the field (a smaller struct_size) donates
 * nothing; and threads donating their own buffers, or racing a donation against a copy to
 * the host, never crash (a ThreadSanitizer build checks the locking). */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kiln/kiln.h"
#include "support/expect_status.h"

static const char k_program[] =
    "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";

static kiln_device *g_device;

/* A buffer of base + i; NULL on failure (the threads count it: EXPECT is not thread-safe). */
static kiln_buffer *create(float base) {
  float v[4] = {base, base + 1, base + 2, base + 3};
  int64_t dims[1] = {4};
  kiln_buffer_args a = {sizeof a, KILN_ELEMENT_TYPE_F32, 1, dims, v, sizeof v};
  kiln_buffer *b = NULL;
  kiln_status_free(kiln_buffer_create(g_device, &a, &b));
  return b;
}

static kiln_buffer *make(float base) {
  kiln_buffer *b = create(base);
  EXPECT(b, "buffer of %g", base);
  return b;
}


/* Runs x on a, b with the flags (NULL: none); *out the result (NULL on error). */
static kiln_status run(kiln_executable *x, kiln_buffer *a, kiln_buffer *b, const bool *donate, kiln_buffer **out) {
  kiln_buffer *in[2] = {a, b};
  kiln_event *e = NULL;
  kiln_execute_args args = {sizeof args, in, 2, out, 1, 0, donate};
  *out = NULL;
  kiln_status st = kiln_executable_execute(x, &args, &e);
  if (!st) st = kiln_event_wait(e);
  kiln_event_release(e);
  return st;
}

/* Whether b holds base + step * i at element i. */
static bool holds(kiln_buffer *b, float base, float step) {
  float got[4];
  kiln_status st = kiln_buffer_copy_to_host(b, got, sizeof got);
  bool ok = !st;
  for (int i = 0; ok && i < 4; i++) ok = got[i] == base + step * (float)i;
  kiln_status_free(st);
  return ok;
}

static void test_consumed(kiln_executable *x) {
  kiln_buffer *a = make(1), *b = make(10), *r = NULL;
  bool donate[2] = {true, false};
  kiln_status st = run(x, a, b, donate, &r);
  EXPECT(!st && r, "a run donating input #0: %s", kiln_status_message(st));
  kiln_status_free(st);
  /* a + b = (1 + i) + (10 + i) = 11 + 2i */
  float got[4] = {0};
  st = kiln_buffer_copy_to_host(r, got, sizeof got);
  EXPECT(!st && got[0] == 11 && got[3] == 17, "the result: %s (%g %g)", kiln_status_message(st), got[0], got[3]);
  kiln_status_free(st);
  EXPECT(kiln_buffer_is_donated(a) && !kiln_buffer_is_donated(b) && !kiln_buffer_is_donated(r) &&
             !kiln_buffer_is_donated(NULL),
         "only the donated input reads as donated");
  /* every use of the donated buffer is a clear error; its shape still answers */
  EXPECT_ERROR(kiln_buffer_copy_to_host(a, got, sizeof got), KILN_STATUS_FAILED_PRECONDITION,
               "kiln_buffer_copy_to_host: the buffer (f32, 16 bytes) was donated to a run");
  const void *p = &p;
  EXPECT_ERROR(kiln_buffer_host_data(a, &p), KILN_STATUS_FAILED_PRECONDITION, "kiln_buffer_host_data: the buffer");
  EXPECT(p == NULL, "no address for a donated buffer");
  kiln_buffer *again = NULL;
  EXPECT_ERROR(run(x, a, b, NULL, &again), KILN_STATUS_FAILED_PRECONDITION, "input #0: the buffer (f32, 16 bytes) was donated");
  EXPECT_ERROR(run(x, b, a, NULL, &again), KILN_STATUS_FAILED_PRECONDITION, "input #1: the buffer");
  EXPECT_ERROR(run(x, a, b, donate, &again), KILN_STATUS_FAILED_PRECONDITION, "was donated");
  EXPECT(again == NULL, "nothing made");
  EXPECT(kiln_buffer_rank(a) == 1 && kiln_buffer_dims(a)[0] == 4 && kiln_buffer_byte_size(a) == 16 &&
             kiln_buffer_element_type(a) == KILN_ELEMENT_TYPE_F32,
         "a donated buffer's shape still answers");
  EXPECT(holds(b, 10, 1), "the undonated input is untouched");
  /* the result and the other input work on; donating the result consumes it too */
  bool both[2] = {true, true};
  kiln_buffer *r2 = NULL;
  st = run(x, r, b, both, &r2);
  EXPECT(!st && r2, "a result donated in turn: %s", kiln_status_message(st));
  kiln_status_free(st);
  float want[4];
  st = kiln_buffer_copy_to_host(r2, want, sizeof want);
  EXPECT(!st && want[0] == 21 && want[3] == 30, "(11 + 2i) + (10 + i): %g %g", want[0], want[3]);
  kiln_status_free(st);
  EXPECT(kiln_buffer_is_donated(r) && kiln_buffer_is_donated(b), "both donated");
  kiln_buffer_release(a); /* released as usual */
  kiln_buffer_release(b);
  kiln_buffer_release(r);
  kiln_buffer_release(r2);
}

static void test_errors(kiln_executable *x) {
  kiln_buffer *a = make(1), *b = make(5), *r = NULL;
  bool both[2] = {true, true}, first[2] = {true, false}, second[2] = {false, true};
  EXPECT_ERROR(run(x, a, a, both, &r), KILN_STATUS_INVALID_ARGUMENT, "inputs #0 and #1 are the same buffer, donated twice");
  EXPECT_ERROR(run(x, a, a, first, &r), KILN_STATUS_INVALID_ARGUMENT,
               "input #0 is donated and also passed undonated as input #1");
  EXPECT_ERROR(run(x, a, a, second, &r), KILN_STATUS_INVALID_ARGUMENT,
               "input #1 is donated and also passed undonated as input #0");
  EXPECT(r == NULL && !kiln_buffer_is_donated(a) && holds(a, 1, 1), "refused donations consume nothing");
  /* an error found before the run (a wrong shape) consumes nothing either */
  int64_t dims[1] = {3};
  float v[3] = {0, 0, 0};
  kiln_buffer_args wa = {sizeof wa, KILN_ELEMENT_TYPE_F32, 1, dims, v, sizeof v};
  kiln_buffer *wrong = NULL;
  kiln_status_free(kiln_buffer_create(g_device, &wa, &wrong));
  EXPECT_ERROR(run(x, a, wrong, first, &r), KILN_STATUS_INVALID_ARGUMENT, "input #1: @main expects tensor<4xf32>");
  EXPECT(!kiln_buffer_is_donated(a) && holds(a, 1, 1), "a run refused for its inputs consumes nothing");
  /* a caller compiled before the field (struct_size without it) donates nothing */
  kiln_buffer *in[2] = {a, b};
  kiln_event *e = NULL;
  kiln_execute_args old = {offsetof(kiln_execute_args, donate), in, 2, &r, 1, 0, (const bool *)1};
  kiln_status st = kiln_executable_execute(x, &old, &e);
  EXPECT(!st && !kiln_buffer_is_donated(a) && !kiln_buffer_is_donated(b) && holds(r, 6, 2),
         "an older caller's struct: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_event_release(e);
  kiln_buffer_release(r);
  /* donation flags all false: nothing consumed */
  bool none[2] = {false, false};
  st = run(x, a, b, none, &r);
  EXPECT(!st && !kiln_buffer_is_donated(a) && holds(r, 6, 2), "no flag set: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_buffer_release(r);
  kiln_buffer_release(wrong);
  kiln_buffer_release(a);
  kiln_buffer_release(b);
}

/* Threads donating their own buffers to one executable at once. */
typedef struct worker {
  kiln_executable *x;
  int id, bad;
} worker;

static void *donate_many(void *arg) {
  worker *w = arg;
  for (int it = 0; it < 100; it++) {
    float base = (float)(w->id * 1000 + it);
    kiln_buffer *a = create(base), *b = create(1), *r = NULL;
    bool donate[2] = {true, it % 2 == 0};
    kiln_status st = a && b ? run(w->x, a, b, donate, &r) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "no buffers");
    float got[4] = {0};
    if (!st) st = kiln_buffer_copy_to_host(r, got, sizeof got);
    for (int i = 0; !st && i < 4; i++) w->bad += got[i] != base + 1 + 2 * (float)i;
    w->bad += st != NULL || !kiln_buffer_is_donated(a) || kiln_buffer_is_donated(b) != (it % 2 == 0);
    kiln_status_free(st);
    kiln_buffer_release(a);
    kiln_buffer_release(b);
    kiln_buffer_release(r);
  }
  return NULL;
}

/* A buffer copied to the host by one thread while another donates it: each call either
 * succeeds or fails with FAILED_PRECONDITION, and once the donation went through every
 * copy fails. */
typedef struct racer {
  kiln_buffer *buf;
  int ok, refused, bad;
} racer;

static void *copy_many(void *arg) {
  racer *r = arg;
  bool gone = false;
  for (int it = 0; it < 2000; it++) {
    float got[4];
    kiln_status st = kiln_buffer_copy_to_host(r->buf, got, sizeof got);
    if (!st) {
      r->ok++;
      r->bad += gone || got[0] != 3; /* a copy after the donation, or torn contents */
    } else {
      r->refused++;
      r->bad += kiln_status_code_of(st) != KILN_STATUS_FAILED_PRECONDITION || !strstr(kiln_status_message(st), "donated");
      gone = true;
    }
    kiln_status_free(st);
  }
  return NULL;
}

static void test_threads(kiln_executable *x) {
  enum { N = 4 };
  pthread_t t[N];
  worker w[N];
  for (int i = 0; i < N; i++) {
    w[i] = (worker){x, i, 0};
    pthread_create(&t[i], NULL, donate_many, &w[i]);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    pthread_join(t[i], NULL);
    bad += w[i].bad;
  }
  EXPECT(bad == 0, "%d wrong outcomes from %d threads donating at once", bad, N);

  int donated = 0, busy = 0;
  for (int round = 0; round < 20; round++) {
    racer rc = {make(3), 0, 0, 0};
    kiln_buffer *b = make(0), *r = NULL;
    pthread_t tc;
    pthread_create(&tc, NULL, copy_many, &rc);
    bool donate[2] = {true, false};
    kiln_status st = NULL;
    for (int tries = 0; tries < 1000; tries++) { /* until the copier lets go of it */
      kiln_status_free(st);
      st = run(x, rc.buf, b, donate, &r);
      if (!st) break;
      bool in_use = kiln_status_code_of(st) == KILN_STATUS_FAILED_PRECONDITION && strstr(kiln_status_message(st), "uses it");
      busy += in_use;
      if (!in_use) break;
    }
    pthread_join(tc, NULL);
    donated += !st;
    EXPECT(!st || strstr(kiln_status_message(st), "uses it"), "donation raced by copies: %s", kiln_status_message(st));
    EXPECT(rc.bad == 0, "round %d: %d inconsistent copies (%d ok, %d refused)", round, rc.bad, rc.ok, rc.refused);
    EXPECT(!st == kiln_buffer_is_donated(rc.buf), "donated exactly when the run went through");
    kiln_status_free(st);
    kiln_buffer_release(rc.buf);
    kiln_buffer_release(b);
    kiln_buffer_release(r);
  }
  EXPECT(donated > 0, "no donation went through in 20 rounds (%d refused as in use)", busy);
}

/* usage: test_runtime_donate [DEVICE]   (interp by default) */
int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "interp";
  kiln_client_options o = {sizeof o, device, NULL, 0, NULL, KILN_CLIENT_IGNORE_ENV, 0};
  kiln_client *client = NULL;
  kiln_status st = kiln_client_create(&o, &client);
  if (st) {
    printf("no %s client: %s\n0 passed, 1 failed\n", device, kiln_status_message(st));
    kiln_status_free(st);
    return 1;
  }
  g_device = kiln_client_device(client, 0);
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  st = kiln_program_create(k_program, strlen(k_program), NULL, &p);
  if (!st) st = kiln_program_compile(p, g_device, NULL, &x);
  EXPECT(!st, "compile: %s", kiln_status_message(st));
  kiln_status_free(st);
  if (x) {
    test_consumed(x);
    test_errors(x);
    test_threads(x);
  }
  kiln_executable_release(x);
  kiln_program_release(p);
  kiln_client_release(client);
  return test_summary();
}
