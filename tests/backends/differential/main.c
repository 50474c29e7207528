/* test_differential: runs every op of the op table on a device and on the reference
 * interpreter, with the same seeded random inputs, and compares the results.
 *
 *   test_differential [--device NAME] [--seed N] [--op NAME] [--verbose]
 *
 * --device  the plugin under test (default cpu); `interp` tests the harness itself and the
 *           interpreter's determinism, `null` shows how failures are reported.
 * --op      one op kind, by its full name (stablehlo.add) or without the dialect (add).
 * --verbose prints the program of every failing case.
 * Prints one line per failing (op, type, shape), a line per op skipped with its reason,
 * and "N passed, N failed, N skipped"; exits non-zero on any failure. An op kind that is
 * neither exercised by a case nor in the exclusion table (exclusions.c) is a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static bool name_matches(kiln_op_kind k, const char *want) {
  const char *name = kiln_op_name(k), *dot = strchr(name, '.');
  return strcmp(name, want) == 0 || (dot && strcmp(dot + 1, want) == 0);
}

static kiln_status open_device(const char *name, kiln_client **out_client, kiln_device **out_device) {
  kiln_client_options o = {.struct_size = sizeof o, .devices = name, .flags = KILN_CLIENT_IGNORE_ENV};
  kiln_status s = kiln_client_create(&o, out_client);
  if (!s && strcmp(kiln_client_plugin_name(*out_client), name) != 0)
    s = kiln_status_make(KILN_STATUS_NOT_FOUND, __FILE__, __LINE__, "plugin %s was not selected", name);
  if (!s) *out_device = kiln_client_device(*out_client, 0);
  return s;
}

static int usage(void) {
  fprintf(stderr, "usage: test_differential [--device NAME] [--seed N] [--op NAME] [--verbose]\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *device = "cpu", *only = NULL;
  kiln_diff_ctx ctx = {.seed = 1};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--verbose") == 0) ctx.verbose = true;
    else if (i + 1 >= argc) return usage();
    else if (strcmp(argv[i], "--device") == 0) device = argv[++i];
    else if (strcmp(argv[i], "--seed") == 0) ctx.seed = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--op") == 0) only = argv[++i];
    else return usage();
  }
  kiln_client *dut = NULL, *ref = NULL;
  kiln_status s = open_device(device, &dut, &ctx.device);
  if (!s) s = open_device("interp", &ref, &ctx.reference);
  if (s) {
    printf("cannot open a device: %s\n0 passed, 1 failed, 0 skipped\n", kiln_status_message(s));
    kiln_status_free(s);
    kiln_client_release(dut);
    return 1;
  }
  printf("differential: %s against %s, seed %llu\n", kiln_device_name(ctx.device), kiln_device_name(ctx.reference),
         (unsigned long long)ctx.seed);

  bool found = false;
  for (int k = 0; k < KILN_OP_COUNT; k++) {
    kiln_op_kind op = (kiln_op_kind)k;
    if (only && !name_matches(op, only)) continue;
    found = true;
    const char *reason = kiln_diff_exclusion(op);
    if (reason) {
      printf("SKIP %s: skipped: %s\n", kiln_op_name(op), reason);
      ctx.skipped++;
      continue;
    }
    ctx.cases_of_op = 0;
    kiln_diff_elementwise(&ctx, op);
    kiln_diff_structured(&ctx, op);
    if (ctx.cases_of_op == 0) {
      printf("FAIL %s: coverage: no case exercises it and it is not in the exclusion table\n", kiln_op_name(op));
      ctx.failed++;
    }
  }
  if (!found) {
    printf("no op called %s in the op table\n", only);
    ctx.failed++;
  }
  printf("%d passed, %d failed, %d skipped\n", ctx.passed, ctx.failed, ctx.skipped);
  kiln_client_release(dut);
  kiln_client_release(ref);
  return ctx.failed ? 1 : 0;
}
