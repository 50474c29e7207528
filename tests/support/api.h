/* Test support for tests written against the public API (kiln/kiln.h): a cpu client, a
 * compile from text and an executable's figures, each failure counted (expect.h).
 * Header-only; each test program has its own counters. */
#ifndef KILN_TESTS_API_H
#define KILN_TESTS_API_H

#include <stdio.h>
#include <string.h>

#include "kiln/kiln.h"
#include "support/expect.h"

/* A client of the cpu device alone (the environment's device list ignored), or NULL after
 * printing why and the closing line of a failed test. The caller owns it. */
static inline kiln_client *kiln_test_cpu_client(void) {
  kiln_client_options o = {sizeof o, "cpu", NULL, 0, NULL, KILN_CLIENT_IGNORE_ENV, 0};
  kiln_client *client = NULL;
  kiln_status st = kiln_client_create(&o, &client);
  if (st) printf("no cpu client: %s\n0 passed, 1 failed\n", kiln_status_message(st));
  kiln_status_free(st);
  return client;
}

/* The executable of text's @main on device (NULL, counted as a failure, when it does not
 * compile). The caller owns it. */
static inline kiln_executable *kiln_test_compile(kiln_device *device, const char *text) {
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  kiln_status st = kiln_program_create(text, strlen(text), NULL, &p);
  if (!st) st = kiln_program_compile(p, device, NULL, &x);
  EXPECT(!st, "compile: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_program_release(p);
  return x;
}

/* x's figures (counted as a failure when the plugin reports none). */
static inline kiln_executable_stats_info kiln_test_stats(const kiln_executable *x) {
  kiln_executable_stats_info s = {.struct_size = sizeof s};
  kiln_status st = kiln_executable_stats(x, &s);
  EXPECT(!st && s.reported, "stats: %s", kiln_status_message(st));
  kiln_status_free(st);
  return s;
}

#endif
