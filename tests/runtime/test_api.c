/* The public API end to end on the interp plugin: programs, compiling, buffers, execution,
 * events, check results, errors for bad input, and one executable run from several
 * threads at once while its program is compiled again. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/expect_status.h"
#include "kiln/kiln.h"



static const char k_program[] =
    "func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<2x3xf32>\n"
    "  %1 = stablehlo.multiply %0, %a : tensor<2x3xf32>\n"
    "  return %1 : tensor<2x3xf32>\n"
    "}\n"
    "func.func @checks() {\n"
    "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  check.expect_eq_const %c, dense<1.0> : tensor<f32>\n"
    "  check.expect_eq_const %c, dense<2.0> : tensor<f32>\n"
    "  return\n"
    "}\n"
    "func.func private @declared(tensor<f32>) -> tensor<f32>\n";

static kiln_client *g_client;
static kiln_device *g_device;

static kiln_buffer *make_buffer(const float *data, int64_t rows, int64_t cols) {
  int64_t dims[2] = {rows, cols};
  kiln_buffer_args a = {sizeof a, KILN_ELEMENT_TYPE_F32, 2, dims, data, (size_t)(rows * cols) * sizeof(float)};
  kiln_buffer *b = NULL;
  kiln_status st = kiln_buffer_create(g_device, &a, &b);
  EXPECT(!st && b, "buffer: %s", kiln_status_message(st));
  kiln_status_free(st);
  return b;
}


static void test_programs(kiln_program **out) {
  kiln_program *p = NULL;
  kiln_program_options po = {sizeof po, "bad.mlir", 10};
  const char bad[] = "func.func @main() {\n  %0 = stablehlo.bogus\n}\n";
  EXPECT_ERROR(kiln_program_create(bad, strlen(bad), &po, &p), KILN_STATUS_INVALID_ARGUMENT, "bad.mlir:11:");
  EXPECT(p == NULL, "no program on error");
  EXPECT_ERROR(kiln_program_create(NULL, 5, NULL, &p), KILN_STATUS_INVALID_ARGUMENT, "text is NULL");
  po.name = "api.mlir";
  po.first_line = 1;
  kiln_status st = kiln_program_create(k_program, strlen(k_program), &po, &p);
  EXPECT(!st && p, "program: %s", kiln_status_message(st));
  kiln_status_free(st);
  EXPECT(kiln_program_function_count(p) == 2, "functions with a body: %d", (int)kiln_program_function_count(p));
  kiln_function_info f = {.struct_size = sizeof f};
  st = kiln_program_function(p, 0, &f);
  EXPECT(!st && !strcmp(f.name, "main") && f.num_inputs == 2 && f.num_results == 1 && f.line == 1, "main's info");
  kiln_status_free(st);
  EXPECT_ERROR(kiln_program_find_function(p, "nope", &f), KILN_STATUS_NOT_FOUND, "no function @nope");
  EXPECT_ERROR(kiln_program_function(p, 7, &f), KILN_STATUS_OUT_OF_RANGE, "no function 7");
  EXPECT(kiln_program_module_name(p) == NULL, "an unnamed module has no name");
  /* the module's name; the digest of the bytes: equal bytes, equal digests */
  const char named[] = "module @jit_f {\n  func.func @main() {\n    return\n  }\n}\n";
  const char renamed[] = "module @jit_g {\n  func.func @main() {\n    return\n  }\n}\n";
  kiln_program *n1 = NULL, *n2 = NULL, *n3 = NULL;
  kiln_status_free(kiln_program_create(named, strlen(named), NULL, &n1));
  kiln_status_free(kiln_program_create(named, strlen(named), &po, &n2));
  kiln_status_free(kiln_program_create(renamed, strlen(renamed), NULL, &n3));
  EXPECT(n1 && n2 && n3 && !strcmp(kiln_program_module_name(n1), "jit_f") &&
             !strcmp(kiln_program_module_name(n3), "jit_g"),
         "module names");
  uint8_t d1[KILN_PROGRAM_DIGEST_SIZE], d2[KILN_PROGRAM_DIGEST_SIZE], d3[KILN_PROGRAM_DIGEST_SIZE];
  kiln_program_digest(n1, d1);
  kiln_program_digest(n2, d2);
  kiln_program_digest(n3, d3);
  EXPECT(!memcmp(d1, d2, sizeof d1) && memcmp(d1, d3, sizeof d1), "digests: equal for equal bytes only");
  kiln_program_release(n1);
  kiln_program_release(n2);
  kiln_program_release(n3);
  *out = p;
}

static void test_run(kiln_executable *x) {
  const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 1, 1, 1, 1, 1};
  kiln_buffer *in[2] = {make_buffer(a, 2, 3), make_buffer(b, 2, 3)};
  kiln_buffer *out[1] = {NULL};
  kiln_event *e = NULL;
  kiln_execute_args args = {sizeof args, in, 2, out, 1, 0, NULL};
  kiln_status st = kiln_executable_execute(x, &args, &e);
  EXPECT(!st && e && out[0], "execute: %s", kiln_status_message(st));
  kiln_status_free(st);
  EXPECT(kiln_event_is_ready(e), "a CPU run is done at once");
  st = kiln_event_wait(e);
  EXPECT(!st, "wait: %s", kiln_status_message(st));
  kiln_status_free(st);
  EXPECT(kiln_buffer_element_type(out[0]) == KILN_ELEMENT_TYPE_F32 && kiln_buffer_rank(out[0]) == 2 &&
             kiln_buffer_dims(out[0])[0] == 2 && kiln_buffer_dims(out[0])[1] == 3 &&
             kiln_buffer_byte_size(out[0]) == 24 && kiln_buffer_device(out[0]) == g_device,
         "result shape");
  float got[6] = {0};
  st = kiln_buffer_copy_to_host(out[0], got, sizeof got);
  EXPECT(!st && got[0] == 2 && got[5] == 42, "result values %g %g: %s", got[0], got[5], kiln_status_message(st));
  kiln_status_free(st);
  EXPECT_ERROR(kiln_buffer_copy_to_host(out[0], got, 8), KILN_STATUS_INVALID_ARGUMENT, "the buffer holds 24");
  /* host data: the contents in place, one address per buffer */
  const void *pin = NULL, *pout = NULL;
  st = kiln_buffer_host_data(in[0], &pin);
  EXPECT(!st && pin && pin != a && !memcmp(pin, a, sizeof a), "input's host data: %s", kiln_status_message(st));
  kiln_status_free(st);
  st = kiln_buffer_host_data(out[0], &pout);
  EXPECT(!st && pout && pout != pin && !memcmp(pout, got, sizeof got), "result's host data: %s",
         kiln_status_message(st));
  kiln_status_free(st);
  EXPECT_ERROR(kiln_buffer_host_data(NULL, &pout), KILN_STATUS_INVALID_ARGUMENT, "buffer is NULL");
  EXPECT(pout == NULL, "no address on error");
  EXPECT_ERROR(kiln_buffer_host_data(out[0], NULL), KILN_STATUS_INVALID_ARGUMENT, "out_data is NULL");
  kiln_event_release(e);
  kiln_buffer_release(out[0]);

  /* wrong inputs: count, shape, type */
  out[0] = NULL;
  args.num_inputs = 1;
  EXPECT_ERROR(kiln_executable_execute(x, &args, &e), KILN_STATUS_INVALID_ARGUMENT, "@main takes 2 inputs, 1 given");
  EXPECT(e == NULL && out[0] == NULL, "nothing made on error");
  kiln_buffer *wrong = make_buffer(a, 3, 2);
  kiln_buffer *swapped[2] = {in[0], wrong};
  args = (kiln_execute_args){sizeof args, swapped, 2, out, 1, 0, NULL};
  EXPECT_ERROR(kiln_executable_execute(x, &args, &e), KILN_STATUS_INVALID_ARGUMENT,
               "input #1: @main expects tensor<2x3xf32>, got tensor<3x2xf32>");
  kiln_buffer_release(wrong);
  int32_t ints[6] = {0};
  int64_t dims[2] = {2, 3};
  kiln_buffer_args ia = {sizeof ia, KILN_ELEMENT_TYPE_S32, 2, dims, ints, sizeof ints};
  kiln_status_free(kiln_buffer_create(g_device, &ia, &wrong));
  swapped[1] = wrong;
  EXPECT_ERROR(kiln_executable_execute(x, &args, &e), KILN_STATUS_INVALID_ARGUMENT, "got tensor<2x3xi32>");
  kiln_buffer_release(wrong);
  args = (kiln_execute_args){sizeof args, in, 2, out, 0, 0, NULL};
  EXPECT_ERROR(kiln_executable_execute(x, &args, &e), KILN_STATUS_INVALID_ARGUMENT, "out_results must have 1 slots");
  EXPECT_ERROR(kiln_executable_execute(x, NULL, &e), KILN_STATUS_INVALID_ARGUMENT, "required");

  /* bad buffers */
  kiln_buffer *bb = NULL;
  ia.byte_size = 5;
  EXPECT_ERROR(kiln_buffer_create(g_device, &ia, &bb), KILN_STATUS_INVALID_ARGUMENT, "byte_size is 5");
  ia.byte_size = sizeof ints;
  ia.element_type = (kiln_element_type)1234;
  EXPECT_ERROR(kiln_buffer_create(g_device, &ia, &bb), KILN_STATUS_INVALID_ARGUMENT, "unknown element type 1234");
  int64_t neg[1] = {-1};
  kiln_buffer_args na = {sizeof na, KILN_ELEMENT_TYPE_F32, 1, neg, a, 4};
  EXPECT_ERROR(kiln_buffer_create(g_device, &na, &bb), KILN_STATUS_INVALID_ARGUMENT, "negative");
  int64_t huge[2] = {INT64_MAX, 4};
  na = (kiln_buffer_args){sizeof na, KILN_ELEMENT_TYPE_F32, 2, huge, a, 4};
  EXPECT_ERROR(kiln_buffer_create(g_device, &na, &bb), KILN_STATUS_INVALID_ARGUMENT, "overflows");
  EXPECT(bb == NULL, "no buffer on error");
  kiln_buffer_release(in[0]);
  kiln_buffer_release(in[1]);
}

static void test_checks(kiln_program *p) {
  kiln_executable *x = NULL;
  kiln_compile_options co = {.struct_size = sizeof co, .function = "checks"};
  kiln_status st = kiln_program_compile(p, g_device, &co, &x);
  EXPECT(!st, "compile @checks: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_event *e = NULL;
  kiln_execute_args args = {sizeof args, NULL, 0, NULL, 0, KILN_EXECUTE_COLLECT_CHECKS, NULL};
  st = kiln_executable_execute(x, &args, &e);
  kiln_check_results r = {.struct_size = sizeof r};
  if (!st) st = kiln_event_checks(e, &r);
  EXPECT(!st && r.passed == 1 && r.failed == 1 && strstr(r.failures, "api.mlir:9"), "checks %d/%d '%s': %s",
         (int)r.passed, (int)r.failed, r.failures ? r.failures : "", kiln_status_message(st));
  kiln_status_free(st);
  kiln_event_release(e);
  e = NULL;
  args.flags = 0; /* without collecting, a failed check fails the run */
  st = kiln_executable_execute(x, &args, &e);
  EXPECT(st != NULL && e == NULL, "a failed check without COLLECT_CHECKS");
  kiln_status_free(st);
  kiln_executable_release(x);
  co.function = "declared";
  EXPECT_ERROR(kiln_program_compile(p, g_device, &co, &x), KILN_STATUS_NOT_FOUND, "no function @declared");
}

typedef struct worker {
  kiln_executable *x;
  float scale;
  int bad;
} worker;

static void *run_many(void *arg) {
  worker *w = arg;
  for (int it = 0; it < 200; it++) {
    float a[6], b[6], got[6];
    for (int i = 0; i < 6; i++) a[i] = w->scale * (float)(i + it), b[i] = 1;
    int64_t dims[2] = {2, 3};
    kiln_buffer_args ba = {sizeof ba, KILN_ELEMENT_TYPE_F32, 2, dims, a, sizeof a};
    kiln_buffer *in[2] = {NULL, NULL}, *out[1] = {NULL};
    kiln_status st = kiln_buffer_create(g_device, &ba, &in[0]);
    ba.data = b;
    if (!st) st = kiln_buffer_create(g_device, &ba, &in[1]);
    kiln_event *e = NULL;
    kiln_execute_args args = {sizeof args, in, 2, out, 1, 0, NULL};
    if (!st) st = kiln_executable_execute(w->x, &args, &e);
    if (!st) st = kiln_buffer_copy_to_host(out[0], got, sizeof got);
    for (int i = 0; !st && i < 6; i++) w->bad += got[i] != (a[i] + 1) * a[i];
    w->bad += st != NULL;
    kiln_status_free(st);
    kiln_event_release(e);
    kiln_buffer_release(in[0]);
    kiln_buffer_release(in[1]);
    kiln_buffer_release(out[0]);
  }
  return NULL;
}

/* Compiles the program again and again while other threads run an executable of it: the
 * module is shared and read-only (a ThreadSanitizer build checks it). @main comes from the
 * compile cache (the runners hold it); @checks, released each time, is compiled anew. */
typedef struct compiler {
  kiln_program *p;
  int bad;
} compiler;

static void *compile_many(void *arg) {
  compiler *c = arg;
  for (int it = 0; it < 50; it++) {
    kiln_compile_options co = {.struct_size = sizeof co, .function = it % 2 ? "checks" : "main"};
    kiln_executable *x = NULL;
    kiln_status st = kiln_program_compile(c->p, g_device, &co, &x);
    c->bad += st != NULL || !x;
    kiln_status_free(st);
    kiln_executable_release(x);
  }
  return NULL;
}

static void test_threads(kiln_program *p, kiln_executable *x) {
  enum { N = 4 };
  pthread_t t[N], tc;
  worker w[N];
  compiler c = {p, 0};
  for (int i = 0; i < N; i++) {
    w[i] = (worker){x, (float)(i + 1), 0};
    pthread_create(&t[i], NULL, run_many, &w[i]);
  }
  pthread_create(&tc, NULL, compile_many, &c);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    pthread_join(t[i], NULL);
    bad += w[i].bad;
  }
  pthread_join(tc, NULL);
  EXPECT(bad == 0, "%d wrong results from %d threads sharing one executable", bad, N);
  EXPECT(c.bad == 0, "%d compiles failed while the program ran", c.bad);
}

static void test_null_device(kiln_program *p) {
  kiln_client_options o = {sizeof o, "null", NULL, 0, NULL, KILN_CLIENT_IGNORE_ENV, 0};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  EXPECT(!st, "null client: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_executable *x = NULL;
  EXPECT_ERROR(kiln_program_compile(p, kiln_client_device(c, 0), NULL, &x), KILN_STATUS_UNIMPLEMENTED,
               "null backend: compile is not implemented");
  int64_t dims[1] = {1};
  float v = 1;
  kiln_buffer_args ba = {sizeof ba, KILN_ELEMENT_TYPE_F32, 1, dims, &v, sizeof v};
  kiln_buffer *b = NULL;
  EXPECT_ERROR(kiln_buffer_create(kiln_client_device(c, 0), &ba, &b), KILN_STATUS_UNIMPLEMENTED, "buffer_create");
  kiln_client_release(c);
}

/* usage: test_runtime_api [DEVICE]   (interp by default) */
int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "interp";
  kiln_client_options o = {sizeof o, device, NULL, 0, NULL, KILN_CLIENT_IGNORE_ENV, 0};
  kiln_status st = kiln_client_create(&o, &g_client);
  if (st) {
    printf("no %s client: %s\n0 passed, 1 failed\n", device, kiln_status_message(st));
    kiln_status_free(st);
    return 1;
  }
  g_device = kiln_client_device(g_client, 0);
  EXPECT(kiln_element_type_size(KILN_ELEMENT_TYPE_C128) == 16 && kiln_element_type_size(KILN_ELEMENT_TYPE_S4) == 1 &&
             kiln_element_type_size(KILN_ELEMENT_TYPE_TOKEN) == 0 &&
             !strcmp(kiln_element_type_name(KILN_ELEMENT_TYPE_BF16), "bf16"),
         "element types");
  kiln_program *p = NULL;
  test_programs(&p);
  kiln_executable *x = NULL;
  st = kiln_program_compile(p, g_device, NULL, &x); /* NULL options: @main */
  EXPECT(!st && x, "compile: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_function_info f = {.struct_size = sizeof f};
  kiln_status_free(kiln_executable_function(x, &f));
  EXPECT(f.name && !strcmp(f.name, "main"), "the executable runs @main");
  /* release order does not matter: the executable keeps the program and client alive */
  kiln_program_retain(p);
  kiln_program_release(p);
  test_run(x);
  test_checks(p);
  test_threads(p, x);
  test_null_device(p);
  kiln_program_release(p);
  kiln_client_release(g_client);
  test_run(x); /* still works: x holds the client */
  kiln_executable_release(x);
  return test_summary();
}
