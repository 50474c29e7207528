/* The compile cache, executable figures and buffers' host data, through the public API.
 * usage: test_runtime_cache TEST_PLUGIN_DIR
 * libkiln-counting.so (in that folder) counts its compiles and reports each executable's
 * serial number as its figures, so the test sees whether a compile really happened;
 * libkiln-countingold.so has the same code behind a table that ends before
 * executable_stats and buffer_host_data. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "support/expect.h"
#include "kiln/kiln.h"

static const char k_text[] =
    "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
    "  return %0 : tensor<2xf32>\n"
    "}\n"
    "func.func @other(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  return %a : tensor<2xf32>\n"
    "}\n";

static const char *g_dir;

static kiln_client *client(const char *devices) {
  const char *dirs[1] = {g_dir};
  kiln_client_options o = {sizeof o, devices, dirs, 1, NULL, KILN_CLIENT_IGNORE_ENV, 0};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(!st && c, "client %s: %s", devices, kiln_status_message(st));
  kiln_status_free(st);
  return c;
}

static kiln_program *program(const char *text, const char *name, uint32_t first_line) {
  kiln_program_options po = {sizeof po, name, first_line};
  kiln_program *p = NULL;
  kiln_status st = kiln_program_create(text, strlen(text), &po, &p);
  EXPECT(!st && p, "program: %s", kiln_status_message(st));
  kiln_status_free(st);
  return p;
}

static kiln_executable *compile(kiln_program *p, kiln_client *c, const char *function) {
  kiln_compile_options co = {.struct_size = sizeof co, .function = function};
  kiln_executable *x = NULL;
  kiln_status st = kiln_program_compile(p, kiln_client_device(c, 0), &co, &x);
  EXPECT(!st && x, "compile @%s: %s", function ? function : "(default)", kiln_status_message(st));
  kiln_status_free(st);
  return x;
}

/* The counting plugin's serial number of x's compile (0 when not reported). */
static uint64_t serial(const kiln_executable *x) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  EXPECT(!st, "stats: %s", kiln_status_message(st));
  kiln_status_free(st);
  return s.temporary_bytes;
}

static void test_same_and_different(kiln_client *c1, kiln_client *c2) {
  kiln_program *p1 = program(k_text, "a.mlir", 1), *p2 = program(k_text, "a.mlir", 1);
  kiln_executable *x1 = compile(p1, c1, "main");
  uint64_t s1 = serial(x1);
  kiln_executable *again = compile(p1, c1, "main"), *other_program = compile(p2, c1, "main");
  kiln_executable *by_default = compile(p2, c1, NULL);
  EXPECT(again == x1 && serial(again) == s1, "the same program compiled twice is one executable");
  EXPECT(other_program == x1, "two programs of the same text share one executable");
  EXPECT(by_default == x1, "no function named is @main, the same key");

  const char spaced[] = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                        "  %0 = stablehlo.add %a,  %a : tensor<2xf32>\n"
                        "  return %0 : tensor<2xf32>\n"
                        "}\n";
  kiln_program *p3 = program(spaced, "a.mlir", 1), *p4 = program(k_text, "b.mlir", 1);
  kiln_program *p5 = program(k_text, "a.mlir", 7);
  kiln_executable *diff[] = {compile(p1, c1, "other"), compile(p3, c1, "main"), compile(p4, c1, "main"),
                             compile(p5, c1, "main"), compile(p1, c2, "main")};
  const char *what[] = {"another function", "another text", "another file name", "another first line",
                        "another device"};
  for (int i = 0; i < 5; i++) {
    EXPECT(diff[i] && diff[i] != x1 && serial(diff[i]) > s1, "%s gives its own executable", what[i]);
    for (int j = 0; j < i; j++) EXPECT(diff[i] != diff[j], "%s and %s differ", what[i], what[j]);
  }
  kiln_function_info f = {.struct_size = sizeof f};
  kiln_status_free(kiln_executable_function(diff[0], &f));
  EXPECT(f.name && !strcmp(f.name, "other"), "the executable of @other runs @other");
  for (int i = 0; i < 5; i++) kiln_executable_release(diff[i]);

  /* weak entries: once every reference is gone, the next compile is a real one */
  kiln_executable_release(again);
  kiln_executable_release(other_program);
  kiln_executable_release(by_default);
  kiln_program_release(p1); /* x1 keeps p1's module alive; p2 compiles to it meanwhile */
  kiln_executable *still = compile(p2, c1, "main");
  EXPECT(still == x1, "a live executable is found after its program was released");
  kiln_executable_release(still);
  uint64_t before = serial(x1);
  kiln_executable_release(x1);
  kiln_executable *fresh = compile(p2, c1, "main");
  EXPECT(fresh && serial(fresh) > before, "after the last release a compile happens again (%llu after %llu)",
         (unsigned long long)(fresh ? serial(fresh) : 0), (unsigned long long)before);
  kiln_executable_release(fresh);
  kiln_program_release(p2);
  kiln_program_release(p3);
  kiln_program_release(p4);
  kiln_program_release(p5);
}

typedef struct racer {
  kiln_client *client;
  kiln_executable *x;
  kiln_status error; /* checked by the main thread (the EXPECT counters are not atomic) */
} racer;

static void *compile_own_program(void *arg) {
  racer *r = arg;
  kiln_program_options po = {sizeof po, "race.mlir", 1};
  kiln_program *p = NULL;
  r->error = kiln_program_create(k_text, strlen(k_text), &po, &p);
  if (!r->error) r->error = kiln_program_compile(p, kiln_client_device(r->client, 0), NULL, &r->x);
  kiln_program_release(p);
  return NULL;
}

/* Threads compiling the same text at once, each from its own program, end with one
 * executable (some may have compiled in vain, none keeps its own). */
static void test_threads(kiln_client *c) {
  enum { N = 8 };
  pthread_t t[N];
  racer r[N];
  for (int i = 0; i < N; i++) {
    r[i] = (racer){c, NULL, NULL};
    pthread_create(&t[i], NULL, compile_own_program, &r[i]);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(t[i], NULL);
    EXPECT(!r[i].error, "thread %d: %s", i, kiln_status_message(r[i].error));
    kiln_status_free(r[i].error);
  }
  int same = 0;
  for (int i = 0; i < N; i++) same += r[i].x && r[i].x == r[0].x;
  EXPECT(same == N, "%d of %d threads got the one executable", same, N);
  for (int i = 0; i < N; i++) kiln_executable_release(r[i].x);
}

static void test_stats(kiln_client *counting, kiln_client *old, kiln_client *interp) {
  kiln_program *p = program(k_text, "stats.mlir", 1);
  kiln_executable *x = compile(p, counting, "main");
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  EXPECT(!st && s.reported && s.temporary_bytes > 0 && s.constant_bytes == 1000 + s.temporary_bytes &&
             s.code_bytes == 2000 + s.temporary_bytes,
         "the plugin's figures: reported %d, %llu %llu %llu", (int)s.reported, (unsigned long long)s.temporary_bytes,
         (unsigned long long)s.constant_bytes, (unsigned long long)s.code_bytes);
  kiln_status_free(st);
  EXPECT(s.interpreted_ops == 3000 + s.temporary_bytes, "interpreted_ops passed on: %llu",
         (unsigned long long)s.interpreted_ops);
  /* a caller built before interpreted_ops: nothing is written past its struct */
  s = (kiln_executable_stats_info){.struct_size = offsetof(kiln_executable_stats_info, interpreted_ops),
                                   .interpreted_ops = 77};
  st = kiln_executable_stats(x, &s);
  EXPECT(!st && s.reported && s.code_cache_misses == 0 && s.interpreted_ops == 77,
         "an older caller's struct ends before interpreted_ops: %s", kiln_status_message(st));
  kiln_status_free(st);
  s.struct_size = sizeof(size_t);
  st = kiln_executable_stats(x, &s);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT, "a struct_size below the first version is refused");
  kiln_status_free(st);
  st = kiln_executable_stats(x, NULL);
  EXPECT(kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT, "NULL out_stats");
  kiln_status_free(st);
  kiln_executable_release(x);

  kiln_client *without[2] = {old, interp};
  for (int i = 0; i < 2; i++) {
    x = compile(p, without[i], "main");
    s = (kiln_executable_stats_info){.struct_size = sizeof s, .reported = true, .temporary_bytes = 5};
    st = kiln_executable_stats(x, &s);
    EXPECT(!st && !s.reported && !s.temporary_bytes && !s.constant_bytes && !s.code_bytes,
           "%s: not reported, all zero", kiln_client_plugin_name(without[i]));
    kiln_status_free(st);
    kiln_executable_release(x);
  }
  kiln_program_release(p);
}

/* kiln_buffer_host_data passes the plugin's address on, and is UNIMPLEMENTED for a plugin
 * whose table predates the entry (as for a device whose memory the host cannot address). */
static void test_host_data(kiln_client *counting, kiln_client *old) {
  const float data[3] = {1, 2, 3};
  int64_t dims[1] = {3};
  kiln_buffer_args a = {sizeof a, KILN_ELEMENT_TYPE_F32, 1, dims, data, sizeof data};
  kiln_client *clients[2] = {counting, old};
  for (int i = 0; i < 2; i++) {
    kiln_buffer *b = NULL;
    kiln_status st = kiln_buffer_create(kiln_client_device(clients[i], 0), &a, &b);
    EXPECT(!st && b, "buffer: %s", kiln_status_message(st));
    kiln_status_free(st);
    const void *p = data;
    st = kiln_buffer_host_data(b, &p);
    if (i == 0)
      EXPECT(!st && p && p != data && !memcmp(p, data, sizeof data), "counting: host data %p: %s", p,
             kiln_status_message(st));
    else
      EXPECT(kiln_status_code_of(st) == KILN_STATUS_UNIMPLEMENTED && !p &&
                 strstr(kiln_status_message(st), "not addressable from the host"),
             "countingold: %s", kiln_status_message(st));
    kiln_status_free(st);
    kiln_buffer_release(b);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    printf("usage: test_runtime_cache TEST_PLUGIN_DIR\n0 passed, 1 failed\n");
    return 1;
  }
  g_dir = argv[1];
  kiln_client *c1 = client("counting"), *c2 = client("counting");
  kiln_client *old = client("countingold"), *interp = client("interp");
  if (c1 && c2 && old && interp) {
    test_same_and_different(c1, c2);
    test_threads(c1);
    test_stats(c1, old, interp);
    test_host_data(c1, old);
  }
  kiln_client_release(c1);
  kiln_client_release(c2);
  kiln_client_release(old);
  kiln_client_release(interp);
  return test_summary();
}
