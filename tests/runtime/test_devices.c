/* Several devices in one client (kiln_client_options.num_devices, the cpu backend's
 * KILN_CPU_DEVICES): a bad count is refused; a plugin with one device (null) is passed
 * over with its reason when more are asked for, interp makes any number; with cpu, N devices named cpu:0.. with
 * their share of the threads in the description, the option winning over the setting, a
 * bad setting passing cpu over; executables and buffers belong to one device (another
 * device's buffer is refused, the compile cache keeps one executable per device); two
 * devices run at once, each with the right results.
 * usage: test_runtime_devices [DEVICE]   (interp by default) */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln.h"
#include "support/expect_status.h"

static const char k_program[] =
    "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";


static kiln_status make_client(const char *devices, int32_t count, kiln_client **out) {
  kiln_client_options o = {.struct_size = sizeof o, .devices = devices, .flags = KILN_CLIENT_IGNORE_ENV,
                           .num_devices = count};
  return kiln_client_create(&o, out);
}

static kiln_buffer *make_buffer(kiln_device *d, const float *data) {
  int64_t dims[1] = {4};
  kiln_buffer_args a = {sizeof a, KILN_ELEMENT_TYPE_F32, 1, dims, data, 4 * sizeof(float)};
  kiln_buffer *b = NULL;
  kiln_status st = kiln_buffer_create(d, &a, &b);
  EXPECT(!st && b, "buffer on %s: %s", kiln_device_name(d), kiln_status_message(st));
  kiln_status_free(st);
  return b;
}

/* Runs x on (a, b); the result, or a copy of the error. */
static kiln_status run(kiln_executable *x, kiln_buffer *a, kiln_buffer *b, float out[4], kiln_buffer **out_result) {
  kiln_buffer *in[2] = {a, b}, *res[1] = {NULL};
  kiln_execute_args ea = {sizeof ea, in, 2, res, 1, 0, NULL};
  kiln_event *e = NULL;
  kiln_status st = kiln_executable_execute(x, &ea, &e);
  if (!st) st = kiln_event_wait(e);
  if (!st) st = kiln_buffer_copy_to_host(res[0], out, 4 * sizeof(float));
  kiln_event_release(e);
  if (out_result && !st) *out_result = res[0];
  else kiln_buffer_release(res[0]);
  return st;
}

typedef struct runner {
  kiln_executable *x;
  kiln_device *d;
  float base;
  int bad;
} runner;

static void *run_many(void *arg) {
  runner *r = arg;
  for (int k = 0; k < 300; k++) {
    float a[4] = {r->base, (float)k, 1, 2}, b[4] = {1, 1, 1, 1}, got[4] = {0};
    kiln_buffer *ba = make_buffer(r->d, a), *bb = make_buffer(r->d, b), *res = NULL;
    kiln_status st = run(r->x, ba, bb, got, &res);
    r->bad += st || got[0] != r->base + 1 || got[1] != (float)k + 1 || kiln_buffer_device(res) != r->d;
    kiln_status_free(st);
    kiln_buffer_release(res);
    kiln_buffer_release(ba);
    kiln_buffer_release(bb);
  }
  return NULL;
}

static void test_cpu(kiln_program *p) {
  kiln_client *c = NULL;
  kiln_status st = make_client("cpu", 3, &c);
  EXPECT(!st && kiln_client_device_count(c) == 3, "cpu with num_devices 3: %d devices: %s",
         kiln_client_device_count(c), kiln_status_message(st));
  kiln_status_free(st);
  if (!c) return;
  for (int32_t i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "cpu:%d", (int)i);
    kiln_device *d = kiln_client_device(c, i);
    EXPECT(!strcmp(kiln_device_name(d), name) && strstr(kiln_device_description(d), "one of 3 devices") &&
               strstr(kiln_device_description(d), " thread"), /* "1 of 1 thread)" with KILN_CPU_THREADS=1 */
           "device %d: %s: %s", (int)i, kiln_device_name(d), kiln_device_description(d));
  }
  EXPECT(!kiln_client_device(c, 3), "a fourth device");
  kiln_device *d0 = kiln_client_device(c, 0), *d1 = kiln_client_device(c, 1), *d2 = kiln_client_device(c, 2);
  kiln_executable *x1 = NULL, *x0 = NULL, *x1again = NULL;
  st = kiln_program_compile(p, d1, NULL, &x1);
  if (!st) st = kiln_program_compile(p, d0, NULL, &x0);
  if (!st) st = kiln_program_compile(p, d1, NULL, &x1again);
  EXPECT(!st && x0 != x1 && x1 == x1again, "the compile cache: one executable per device: %s",
         kiln_status_message(st));
  kiln_status_free(st);
  const float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  kiln_buffer *a1 = make_buffer(d1, a), *b1 = make_buffer(d1, b), *b2 = make_buffer(d2, b), *res = NULL;
  float got[4] = {0};
  st = run(x1, a1, b1, got, &res);
  EXPECT(!st && got[0] == 11 && got[3] == 44 && kiln_buffer_device(res) == d1, "device 1's run: %s %g",
         kiln_status_message(st), got[0]);
  kiln_status_free(st);
  kiln_buffer_release(res);
  EXPECT_ERROR(run(x1, a1, b2, got, NULL), KILN_STATUS_INVALID_ARGUMENT,
               "input #1 is on cpu:2; the executable runs on cpu:1");

  runner r[2] = {{x0, d0, 100, 0}, {x1, d1, 200, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, run_many, &r[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  EXPECT(r[0].bad == 0 && r[1].bad == 0, "devices 0 and 1 at once: %d and %d wrong runs", r[0].bad, r[1].bad);

  kiln_buffer_release(a1);
  kiln_buffer_release(b1);
  kiln_buffer_release(b2);
  kiln_executable_release(x0);
  kiln_executable_release(x1);
  kiln_executable_release(x1again);
  kiln_client_release(c);

  /* KILN_CPU_DEVICES: the plugin's own number; the option wins over it; a bad value passes cpu over */
  setenv("KILN_CPU_DEVICES", "2", 1);
  st = make_client("cpu", 0, &c);
  EXPECT(!st && kiln_client_device_count(c) == 2, "KILN_CPU_DEVICES=2: %d devices: %s", kiln_client_device_count(c),
         kiln_status_message(st));
  kiln_status_free(st);
  kiln_client_release(c);
  st = make_client("cpu", 5, &c);
  EXPECT(!st && kiln_client_device_count(c) == 5, "num_devices 5 over KILN_CPU_DEVICES=2: %d devices",
         kiln_client_device_count(c));
  kiln_status_free(st);
  kiln_client_release(c);
  EXPECT_ERROR(make_client("cpu", 5000, &c), KILN_STATUS_UNAVAILABLE,
               "cpu: 5000 devices asked for; the cpu backend offers 1 to 1024");
  const char *bad[] = {"0", "two", "1025", "-1", "3x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    setenv("KILN_CPU_DEVICES", bad[i], 1);
    char want[96];
    snprintf(want, sizeof want, "cpu: KILN_CPU_DEVICES=%s: expected a device count from 1 to 1024", bad[i]);
    EXPECT_ERROR(make_client("cpu", 0, &c), KILN_STATUS_UNAVAILABLE, want);
    EXPECT(!c, "a client despite KILN_CPU_DEVICES=%s", bad[i]);
  }
  unsetenv("KILN_CPU_DEVICES");
}

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "interp";
  kiln_client *c = NULL;
  EXPECT_ERROR(make_client(device, -1, &c), KILN_STATUS_INVALID_ARGUMENT, "num_devices is -1");
  EXPECT(!c, "a client for num_devices -1");
  /* one device asked of a plugin with one: fine, with or without device_create_of */
  kiln_status st = make_client("interp", 1, &c);
  EXPECT(!st && kiln_client_device_count(c) == 1, "interp, num_devices 1: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_client_release(c);
  c = NULL;
  /* interp makes any number (each runs a partition of a sharded program); null has one */
  st = make_client("interp", 2, &c);
  EXPECT(!st && kiln_client_device_count(c) == 2, "interp, num_devices 2: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_client_release(c);
  c = NULL;
  EXPECT_ERROR(make_client("null", 2, &c), KILN_STATUS_UNAVAILABLE,
               "null: it offers 1 device, not the 2 asked for (num_devices)");
  EXPECT(!c, "a client for 2 null devices");
  if (!strcmp(device, "cpu")) {
    kiln_program *p = NULL;
    st = kiln_program_create(k_program, strlen(k_program), NULL, &p);
    EXPECT(!st, "program: %s", kiln_status_message(st));
    kiln_status_free(st);
    if (p) test_cpu(p);
    kiln_program_release(p);
  }
  return test_summary();
}
