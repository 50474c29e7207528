/* Program text, running one case on the device under test and on the reference, and the
 * report of a failing case. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "runtime/element.h"

#define MAX_RESULTS 8

/* ---------------------------------------------------------------- program text */

void kiln_diff_case_init(kiln_diff_case *c, kiln_op_kind op, const char *variant) {
  c->op = op;
  c->variant = variant ? variant : "";
  c->type_label[0] = c->shape_label[0] = c->text[0] = '\0';
  c->num_args = 0;
  c->ulp = c->terms = 0;
  c->mag_global = false;
  c->special_rate = 0.2;
}

void kiln_diff_emit(kiln_diff_case *c, const char *fmt, ...) {
  size_t len = strlen(c->text);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->text + len, sizeof c->text - len, fmt, ap);
  va_end(ap);
}

const char *kiln_diff_tensor_type(const kiln_diff_arg *a, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "tensor<");
  for (int d = 0; d < a->rank && len < cap; d++) len += (size_t)snprintf(buf + len, cap - len, "%lldx", (long long)a->dims[d]);
  if (len < cap) snprintf(buf + len, cap - len, "%s>", kiln_elem_name(a->elem));
  return buf;
}

void kiln_diff_wrap(kiln_diff_case *c, const char *const *result_types, int num_results, const char *body,
                    const char *returned) {
  char t[128];
  c->text[0] = '\0';
  kiln_diff_emit(c, "func.func @main(");
  for (int i = 0; i < c->num_args; i++)
    kiln_diff_emit(c, "%s%%a%d: %s", i ? ", " : "", i, kiln_diff_tensor_type(&c->args[i], t, sizeof t));
  kiln_diff_emit(c, ") -> (");
  for (int i = 0; i < num_results; i++) kiln_diff_emit(c, "%s%s", i ? ", " : "", result_types[i]);
  kiln_diff_emit(c, ") {\n%s\n  func.return", body);
  if (returned) kiln_diff_emit(c, " %s", returned);
  for (int i = 0; !returned && i < num_results; i++) kiln_diff_emit(c, "%s %%r%d", i ? "," : "", i);
  kiln_diff_emit(c, " :");
  for (int i = 0; i < num_results; i++) kiln_diff_emit(c, "%s %s", i ? "," : "", result_types[i]);
  kiln_diff_emit(c, "\n}\n");
}

bool kiln_diff_verifies(const char *text) {
  kiln_program *p = NULL;
  kiln_status s = kiln_program_create(text, strlen(text), NULL, &p);
  kiln_status_free(s);
  kiln_program_release(p);
  return s == NULL;
}

/* ---------------------------------------------------------------- running */

typedef struct results {
  int count;
  kiln_element_type type[MAX_RESULTS];
  int32_t rank[MAX_RESULTS];
  int64_t dims[MAX_RESULTS][KILN_MAX_RANK];
  size_t size[MAX_RESULTS];
  void *data[MAX_RESULTS];
} results;

static void results_free(results *r) {
  for (int i = 0; i < r->count; i++) free(r->data[i]);
  r->count = 0;
}

static kiln_status fetch_results(kiln_buffer **bufs, int n, results *out) {
  for (int i = 0; i < n; i++) {
    kiln_buffer *b = bufs[i];
    out->type[i] = kiln_buffer_element_type(b);
    out->rank[i] = kiln_buffer_rank(b);
    memcpy(out->dims[i], kiln_buffer_dims(b), sizeof(int64_t) * (size_t)out->rank[i]);
    out->size[i] = kiln_buffer_byte_size(b);
    out->data[i] = malloc(out->size[i] ? out->size[i] : 1);
    out->count = i + 1;
    if (out->size[i]) {
      kiln_status s = kiln_buffer_copy_to_host(b, out->data[i], out->size[i]);
      if (s) return s;
    }
  }
  return NULL;
}

/* Compiles and runs the program on dev with the host inputs; fills out, and *interpreted
 * (when not NULL) with the ops the device's plugin left to its interpreter. */
static kiln_status run_on(kiln_device *dev, kiln_program *p, const kiln_diff_case *c, void *const *inputs, int num_results,
                          results *out, uint64_t *interpreted) {
  kiln_executable *x = NULL;
  kiln_buffer *in[KILN_DIFF_MAX_ARGS] = {0}, *res[MAX_RESULTS] = {0};
  kiln_event *ev = NULL;
  kiln_status s = kiln_program_compile(p, dev, NULL, &x);
  if (!s && interpreted) {
    kiln_executable_stats_info stats = {.struct_size = sizeof stats};
    s = kiln_executable_stats(x, &stats);
    /* the fast-start tier of a device with tiers interprets by design (KILN_CPU_TIER=baseline) */
    *interpreted = stats.tier == KILN_TIER_FAST_START ? 0 : stats.interpreted_ops;
  }
  for (int i = 0; !s && i < c->num_args; i++) {
    const kiln_diff_arg *a = &c->args[i];
    kiln_buffer_args args = {.struct_size = sizeof args,
                             .element_type = kiln_element_type_from_elem(a->elem),
                             .rank = a->rank,
                             .dims = a->dims,
                             .data = inputs[i],
                             .byte_size = (size_t)kiln_diff_elem_count_of(a) * kiln_elem_storage_bytes(a->elem)};
    s = kiln_buffer_create(dev, &args, &in[i]);
  }
  if (!s) {
    kiln_execute_args ea = {.struct_size = sizeof ea, .inputs = in, .num_inputs = c->num_args,
                            .out_results = res, .num_results = num_results};
    s = kiln_executable_execute(x, &ea, &ev);
  }
  if (!s) s = kiln_event_wait(ev);
  if (!s) s = fetch_results(res, num_results, out);
  for (int i = 0; i < num_results; i++) kiln_buffer_release(res[i]);
  for (int i = 0; i < c->num_args; i++) kiln_buffer_release(in[i]);
  kiln_event_release(ev);
  kiln_executable_release(x);
  return s;
}

/* ---------------------------------------------------------------- reporting */

static void report(const kiln_diff_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(const kiln_diff_case *c, const char *fmt, ...) {
  printf("FAIL %s%s%s%s %s %s: ", kiln_op_name(c->op), *c->variant ? "(" : "", c->variant, *c->variant ? ")" : "",
         c->type_label, c->shape_label);
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

/* The first line of a status message. */
static const char *first_line(kiln_status s, char *buf, size_t cap) {
  const char *m = kiln_status_message(s);
  size_t n = strcspn(m, "\n");
  snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), m);
  return buf;
}

static void index_str(int64_t flat, int rank, const int64_t *dims, char *buf, size_t cap) {
  int64_t idx[KILN_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = dims[d] ? flat % dims[d] : 0;
    flat = dims[d] ? flat / dims[d] : 0;
  }
  kiln_diff_dims_str(rank, idx, buf, cap);
}

static bool same_shape(const results *a, const results *b, int i) {
  return a->type[i] == b->type[i] && a->rank[i] == b->rank[i] &&
         memcmp(a->dims[i], b->dims[i], sizeof(int64_t) * (size_t)a->rank[i]) == 0;
}

/* Compares every result; reports the first that differs. */
static bool compare_all(const kiln_diff_case *c, const results *got, const results *want, const results *mag) {
  for (int i = 0; i < want->count; i++) {
    char gd[96], wd[96];
    if (!same_shape(got, want, i)) {
      report(c, "result %d: got %s%s, want %s%s", i, kiln_element_type_name(got->type[i]),
             kiln_diff_dims_str(got->rank[i], got->dims[i], gd, sizeof gd), kiln_element_type_name(want->type[i]),
             kiln_diff_dims_str(want->rank[i], want->dims[i], wd, sizeof wd));
      return false;
    }
    kiln_elem e = kiln_element_type_to_elem(want->type[i]);
    if (e == KILN_ELEM_COUNT || want->size[i] == 0) continue; /* tokens, tuples, empty */
    int64_t n = (int64_t)(want->size[i] / kiln_elem_storage_bytes(e));
    kiln_diff_mismatch m;
    if (kiln_diff_compare(c, e, n, got->data[i], want->data[i], mag ? mag->data[i] : NULL, &m)) continue;
    index_str(m.index, want->rank[i], want->dims[i], wd, sizeof wd);
    report(c, "result %d: %lld of %lld differ, max err %.3g (%.0f ulp), first at %s: got %s, want %s", i,
           (long long)m.count, (long long)n, m.max_abs, m.max_ulp, wd, m.got, m.want);
    return false;
  }
  return true;
}

static bool has_float_result(const results *r) {
  for (int i = 0; i < r->count; i++) {
    kiln_elem e = kiln_element_type_to_elem(r->type[i]);
    if (e != KILN_ELEM_COUNT && (kiln_elem_is_float(e) || kiln_elem_is_complex(e))) return true;
  }
  return false;
}

/* Runs on the device and the reference and compares; inputs are filled already. */
static bool run_and_compare(kiln_diff_ctx *ctx, kiln_diff_case *c, kiln_program *p, int num_results, void **inputs) {
  results got = {0}, want = {0}, mag = {0};
  char msg[512];
  bool ok = false;
  uint64_t interpreted = 0;
  kiln_status s = run_on(ctx->reference, p, c, inputs, num_results, &want, NULL);
  if (s) {
    report(c, "reference failed: %s", first_line(s, msg, sizeof msg));
  } else if ((s = run_on(ctx->device, p, c, inputs, num_results, &got, &interpreted))) {
    report(c, "device failed: %s", first_line(s, msg, sizeof msg));
  } else {
    if (c->terms > 0 && has_float_result(&want)) {
      for (int i = 0; i < c->num_args; i++)
        kiln_diff_make_magnitude(c->args[i].elem, kiln_diff_elem_count_of(&c->args[i]), inputs[i]);
      s = run_on(ctx->reference, p, c, inputs, num_results, &mag, NULL);
      if (s) report(c, "reference failed on magnitudes: %s", first_line(s, msg, sizeof msg));
    }
    ok = !s && compare_all(c, &got, &want, c->terms > 0 && mag.count ? &mag : NULL);
    if (ok && interpreted && !kiln_diff_interpreted_reason(c)) {
      report(c, "%llu op%s left to the interpreter (compiled code expected: add the case to "
                "kiln_diff_interpreted_reason with the reason if that is meant)",
             (unsigned long long)interpreted, interpreted == 1 ? "" : "s");
      ok = false;
    }
  }
  kiln_status_free(s);
  results_free(&got);
  results_free(&want);
  results_free(&mag);
  return ok;
}

kiln_diff_outcome kiln_diff_run(kiln_diff_ctx *ctx, kiln_diff_case *c, bool report_rejected) {
  kiln_program *p = NULL;
  char msg[512];
  kiln_status s = kiln_program_create(c->text, strlen(c->text), NULL, &p);
  if (s) {
    if (report_rejected) {
      report(c, "harness: the verifier rejects the program: %s", first_line(s, msg, sizeof msg));
      if (ctx->verbose) printf("%s", c->text);
      ctx->failed++;
    }
    kiln_status_free(s);
    return report_rejected ? KILN_DIFF_FAILED : KILN_DIFF_REJECTED;
  }
  kiln_function_info info = {.struct_size = sizeof info};
  kiln_status_free(kiln_program_find_function(p, "main", &info));
  ctx->cases_of_op++;

  /* The inputs depend on the seed and the case's name only, so --op reproduces them. */
  kiln_diff_rng rng = {kiln_diff_hash(ctx->seed, kiln_op_name(c->op))};
  rng.state = kiln_diff_hash(rng.state, c->variant);
  rng.state = kiln_diff_hash(rng.state, c->type_label);
  rng.state = kiln_diff_hash(rng.state, c->shape_label);
  void *inputs[KILN_DIFF_MAX_ARGS] = {0};
  for (int i = 0; i < c->num_args; i++) {
    size_t bytes = (size_t)kiln_diff_elem_count_of(&c->args[i]) * kiln_elem_storage_bytes(c->args[i].elem);
    inputs[i] = malloc(bytes ? bytes : 1);
    kiln_diff_fill(&c->args[i], c->special_rate, &rng, inputs[i]);
  }
  bool ok = info.num_results <= MAX_RESULTS;
  if (!ok) report(c, "harness: more than %d results", MAX_RESULTS);
  else ok = run_and_compare(ctx, c, p, info.num_results, inputs);
  if (!ok && ctx->verbose) printf("%s", c->text);
  for (int i = 0; i < c->num_args; i++) free(inputs[i]);
  kiln_program_release(p);
  if (ok) ctx->passed++;
  else ctx->failed++;
  return ok ? KILN_DIFF_PASSED : KILN_DIFF_FAILED;
}
