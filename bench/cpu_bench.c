/* kiln_bench_cpu: Kiln's CPU device through the public API (include/kiln/kiln.h) against
 * references measured in the same run, as ratios (these machines are noisy: only ratios
 * of one run mean anything).
 *
 *   kiln_bench_cpu [--device D] [--quick] [--only NAME[,NAME...]] [--threads N]
 *
 * Every case generates its MLIR text, compiles it once for the device and times
 * kiln_executable_execute + kiln_event_wait (+ releasing the results); inputs are made once.
 * Times are medians over repeated runs after a warm-up. Each Kiln result is checked
 * against the reference's answer before it is timed (a fast wrong answer is a failure).
 *
 * The references, all in this binary:
 *   gemm_N     dnnl_sgemm (oneDNN, row-major NN) on the same threads (OpenMP).
 *   gemm_bf16_N  bf16 x bf16 -> f32 through Kiln against dnnl_sgemm on the same values in
 *              f32 (what a bf16 product must beat to be worth it; below AVX-512, or with
 *              KILN_CPU_ISA=avx2, Kiln converts to f32 for oneDNN's f32 kernel).
 *   eltwise    a C loop out[i] = x[i] + y[i] streaming the same bytes the minimal program
 *              moves (two inputs read, one output written), OpenMP over all threads.
 *   softmax, layernorm, reduce_sum: straightforward C loops (this file, -O3 -march=native,
 *              OpenMP over rows / chunks; expf from libm).
 *   conv3x3    oneDNN's forward convolution called directly: NHWC source and result, the
 *              weights reordered once (outside the timing) into the format it prefers.
 *   overhead_* the interp device on the same program (reported for scale; the target is
 *              Kiln's own time per run).
 * Exit status: 0 when every case ran and met its target, 1 otherwise, 2 on bad usage or
 * when the device cannot be opened. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kiln/kiln.h"

#ifdef KILN_BENCH_HAVE_DNNL
#include <dnnl.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

/* ================================================================ options, table */

typedef struct bench {
  const char *device, *only;
  bool quick;
  kiln_client *client, *interp; /* interp: the overhead reference (may equal client) */
  int failures;
} bench;

static bool selected(const bench *b, const char *name) {
  if (!b->only) return true;
  size_t n = strlen(name);
  for (const char *s = b->only; *s;) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len && len <= n && !strncmp(name, s, len)) return true; /* a prefix of the name */
    s += len + (e ? 1 : 0);
  }
  return false;
}

typedef enum target_kind { TARGET_RATIO, TARGET_MAX_US } target_kind;

/* One table row. ratio = reference time / Kiln time (above 1: Kiln is faster). */
static void row(bench *b, const char *name, double kiln_s, double ref_s, const char *ref_name, target_kind tk,
                double target, const char *error) {
  char kt[32], rt[32], ratio[32], tgt[32];
  bool pass;
  if (error) {
    printf("%-14s %12s %12s %8s %10s  FAIL  (%s)\n", name, "-", "-", "-", "-", error);
    b->failures++;
    return;
  }
  if (kiln_s < 1e-3) snprintf(kt, sizeof kt, "%.2f us", kiln_s * 1e6);
  else snprintf(kt, sizeof kt, "%.3f ms", kiln_s * 1e3);
  if (ref_s <= 0) snprintf(rt, sizeof rt, "n/a");
  else if (ref_s < 1e-3) snprintf(rt, sizeof rt, "%.2f us", ref_s * 1e6);
  else snprintf(rt, sizeof rt, "%.3f ms", ref_s * 1e3);
  if (ref_s > 0) snprintf(ratio, sizeof ratio, "%.3f", ref_s / kiln_s);
  else snprintf(ratio, sizeof ratio, "-");
  if (tk == TARGET_RATIO) {
    snprintf(tgt, sizeof tgt, ">= %.2f", target);
    pass = ref_s > 0 && ref_s / kiln_s >= target;
  } else {
    snprintf(tgt, sizeof tgt, "<= %.0f us", target);
    pass = kiln_s * 1e6 <= target;
  }
  printf("%-14s %12s %12s %8s %10s  %s  (ref: %s)\n", name, kt, rt, ratio, tgt, pass ? "pass" : "FAIL", ref_name);
  if (!pass) b->failures++;
  fflush(stdout);
}

/* ================================================================ timing */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* A timed action; returns false on failure (then timing stops). */
typedef bool (*action_fn)(void *ud);

enum { MAX_SAMPLES = 51 };

/* Median seconds per call of fn: one warm-up call, then samples of enough calls each to
 * last about 50 us, as many samples as fit in budget_s (at least 3, at most 51; a single
 * one when one call takes longer than the budget). Negative on failure. */
static double median_seconds(action_fn fn, void *ud, double budget_s) {
  double t0 = now();
  if (!fn(ud)) return -1;
  double once = now() - t0;
  if (once < 1e-9) once = 1e-9;
  int inner = once < 50e-6 ? (int)(50e-6 / once) + 1 : 1;
  int samples = (int)(budget_s / (once * inner));
  if (samples > MAX_SAMPLES) samples = MAX_SAMPLES;
  if (samples < 3) samples = once > budget_s ? 1 : 3;
  double t[MAX_SAMPLES];
  for (int s = 0; s < samples; s++) {
    double a = now();
    for (int i = 0; i < inner; i++)
      if (!fn(ud)) return -1;
    t[s] = (now() - a) / inner;
  }
  qsort(t, (size_t)samples, sizeof t[0], cmp_double);
  return t[samples / 2];
}

/* ================================================================ Kiln side */

typedef struct kiln_job {
  kiln_executable *exe;
  kiln_buffer *in[4];
  int32_t nin;
  kiln_buffer *out; /* the last result, kept by kiln_job_run_keep */
  kiln_status err;
} kiln_job;

static char *format_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_text(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static kiln_status compile_text(kiln_client *c, const char *text, kiln_executable **out) {
  *out = NULL;
  if (!text) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_program *p = NULL;
  kiln_program_options po = {.struct_size = sizeof po, .name = "bench.mlir"};
  kiln_status s = kiln_program_create(text, strlen(text), &po, &p);
  if (!s) s = kiln_program_compile(p, kiln_client_device(c, 0), NULL, out);
  kiln_program_release(p);
  return s;
}

/* A buffer of f32 data, or (bf16) of its values truncated to bf16. */
static kiln_status host_buffer(kiln_client *c, int32_t rank, const int64_t *dims, const float *data, bool bf16,
                               kiln_buffer **out) {
  size_t n = 1;
  for (int32_t i = 0; i < rank; i++) n *= (size_t)dims[i];
  uint16_t *half = bf16 ? malloc(n * sizeof *half + 1) : NULL;
  if (bf16 && !half) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t i = 0; half && i < n; i++) {
    uint32_t bits;
    memcpy(&bits, &data[i], sizeof bits);
    half[i] = (uint16_t)(bits >> 16);
  }
  kiln_buffer_args a = {.struct_size = sizeof a, .element_type = bf16 ? KILN_ELEMENT_TYPE_BF16 : KILN_ELEMENT_TYPE_F32,
                        .rank = rank, .dims = dims, .data = bf16 ? (const void *)half : (const void *)data,
                        .byte_size = n * (bf16 ? sizeof *half : sizeof(float))};
  kiln_status s = kiln_buffer_create(kiln_client_device(c, 0), &a, out);
  free(half);
  return s;
}

/* One run: execute, wait, drop the event (and the result unless keep). */
static bool kiln_run(kiln_job *j, bool keep) {
  kiln_buffer *res = NULL;
  kiln_event *ev = NULL;
  kiln_execute_args a = {.struct_size = sizeof a, .inputs = j->in, .num_inputs = j->nin, .out_results = &res,
                         .num_results = 1};
  kiln_status s = kiln_executable_execute(j->exe, &a, &ev);
  if (!s) s = kiln_event_wait(ev);
  kiln_event_release(ev);
  if (s) {
    j->err = s;
    kiln_buffer_release(res);
    return false;
  }
  if (keep) {
    kiln_buffer_release(j->out);
    j->out = res;
  } else {
    kiln_buffer_release(res);
  }
  return true;
}

static bool kiln_run_timed(void *ud) { return kiln_run(ud, false); }

static void kiln_job_free(kiln_job *j) {
  for (int32_t i = 0; i < j->nin; i++) kiln_buffer_release(j->in[i]);
  kiln_buffer_release(j->out);
  kiln_executable_release(j->exe);
  kiln_status_free(j->err);
  memset(j, 0, sizeof *j);
}

/* Input shapes of a case (bf16: the input is a bf16 tensor of the data truncated). */
typedef struct shape {
  int32_t rank;
  int64_t dims[4];
  bool bf16;
} shape;

/* Compiles text on client and makes its inputs from host data. */
static kiln_status job_make(kiln_client *c, const char *text, int32_t nin, const shape *shapes, float *const *data,
                            kiln_job *j) {
  memset(j, 0, sizeof *j);
  KILN_RETURN_IF_ERROR(compile_text(c, text, &j->exe));
  for (int32_t i = 0; i < nin; i++) {
    KILN_RETURN_IF_ERROR(host_buffer(c, shapes[i].rank, shapes[i].dims, data[i], shapes[i].bf16, &j->in[i]));
    j->nin = i + 1;
  }
  return NULL;
}

/* Runs once and compares the result with want (count floats): |got - want| <= atol +
 * rtol * |want| everywhere. An error message (static) or NULL. */
static const char *job_check(kiln_job *j, const float *want, size_t count, double rtol, double atol, char *msg,
                             size_t cap) {
  if (!kiln_run(j, true)) {
    snprintf(msg, cap, "run: %s", kiln_status_message(j->err));
    return msg;
  }
  float *got = malloc(count * sizeof(float));
  if (!got) return "out of memory";
  kiln_status s = kiln_buffer_copy_to_host(j->out, got, count * sizeof(float));
  if (s) {
    snprintf(msg, cap, "copy: %s", kiln_status_message(s));
    kiln_status_free(s);
    free(got);
    return msg;
  }
  const char *r = NULL;
  for (size_t i = 0; i < count; i++)
    if (!(fabs((double)got[i] - want[i]) <= atol + rtol * fabs((double)want[i]))) {
      snprintf(msg, cap, "wrong result: element %zu is %g, expected %g", i, got[i], want[i]);
      r = msg;
      break;
    }
  free(got);
  return r;
}

/* ================================================================ data */

static uint64_t g_rng = 0x2545F4914F6CDD1Du;
static float rnd(void) {
  g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
  return (float)((double)(g_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static float *random_floats(size_t n) {
  float *v = malloc(n * sizeof(float));
  if (v)
    for (size_t i = 0; i < n; i++) v[i] = rnd();
  return v;
}

/* The common shape of a case: compile, check, time Kiln, time the reference, print. */
typedef struct case_run {
  const char *name, *ref_name, *text;
  int32_t nin;
  shape shapes[4];
  float *inputs[4];
  const float *want; /* the reference's answer */
  size_t want_count;
  double rtol, atol;
  action_fn ref;
  void *ref_ud;
  target_kind tk;
  double target;
  double budget_s;
} case_run;

static void run_case(bench *b, const case_run *c) {
  kiln_job j;
  char msg[512];
  const char *err = NULL;
  kiln_status s = job_make(b->client, c->text, c->nin, c->shapes, c->inputs, &j);
  if (s) {
    snprintf(msg, sizeof msg, "%s", kiln_status_message(s));
    kiln_status_free(s);
    err = msg;
  }
  if (!err && c->want) err = job_check(&j, c->want, c->want_count, c->rtol, c->atol, msg, sizeof msg);
  double tk = -1, tr = -1;
  if (!err) {
    tk = median_seconds(kiln_run_timed, &j, c->budget_s);
    if (tk < 0) {
      snprintf(msg, sizeof msg, "run: %s", kiln_status_message(j.err));
      err = msg;
    }
  }
  if (!err && c->ref) tr = median_seconds(c->ref, c->ref_ud, c->budget_s);
  row(b, c->name, tk, tr, c->ref_name, c->tk, c->target, err);
  kiln_job_free(&j);
}

/* ================================================================ 1. gemm */

typedef struct gemm_ud {
  int64_t n;
  const float *a, *b;
  float *c;
} gemm_ud;

#ifdef KILN_BENCH_HAVE_DNNL
static bool ref_sgemm(void *ud) {
  gemm_ud *g = ud;
  return dnnl_sgemm('N', 'N', g->n, g->n, g->n, 1.0f, g->a, g->n, g->b, g->n, 0.0f, g->c, g->n) == dnnl_success;
}
#endif

/* Values exactly representable in bf16 (the low 16 bits cleared). */
static void truncate_to_bf16(float *v, size_t n) {
  for (size_t i = 0; v && i < n; i++) {
    uint32_t bits;
    memcpy(&bits, &v[i], sizeof bits);
    bits &= 0xffff0000u;
    memcpy(&v[i], &bits, sizeof bits);
  }
}

/* gemm_N (f32) or gemm_bf16_N (bf16 operands, f32 result); the reference is dnnl_sgemm on
 * the same values in f32 either way. */
static void case_gemm(bench *b, int64_t n, bool bf16) {
  char name[32];
  snprintf(name, sizeof name, "gemm_%s%lld", bf16 ? "bf16_" : "", (long long)n);
  if (!selected(b, name)) return;
  size_t nn = (size_t)(n * n);
  gemm_ud g = {n, random_floats(nn), random_floats(nn), calloc(nn, sizeof(float))};
  if (bf16) {
    truncate_to_bf16((float *)g.a, nn);
    truncate_to_bf16((float *)g.b, nn);
  }
  const char *t = bf16 ? "bf16" : "f32";
  char *text = format_text(
      "func.func @main(%%a: tensor<%1$lldx%1$lldx%2$s>, %%b: tensor<%1$lldx%1$lldx%2$s>) -> tensor<%1$lldx%1$lldxf32> {\n"
      "  %%0 = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0] : (tensor<%1$lldx%1$lldx%2$s>, "
      "tensor<%1$lldx%1$lldx%2$s>) -> tensor<%1$lldx%1$lldxf32>\n"
      "  return %%0 : tensor<%1$lldx%1$lldxf32>\n}\n",
      (long long)n, t);
  case_run c = {.name = name, .ref_name = bf16 ? "dnnl_sgemm on the f32 values" : "dnnl_sgemm", .text = text, .nin = 2,
                .shapes = {{2, {n, n}, bf16}, {2, {n, n}, bf16}}, .inputs = {(float *)g.a, (float *)g.b},
                .rtol = 1e-3, .atol = 1e-3 * sqrt((double)n), .tk = TARGET_RATIO, .target = bf16 ? 0.50 : 0.90,
                .budget_s = 1.0};
#ifdef KILN_BENCH_HAVE_DNNL
  ref_sgemm(&g);
  c.want = g.c, c.want_count = nn, c.ref = ref_sgemm, c.ref_ud = &g;
#else
  c.ref_name = "n/a (built without oneDNN)";
#endif
  run_case(b, &c);
  free(text);
  free((void *)g.a);
  free((void *)g.b);
  free(g.c);
}

/* ================================================================ 2. elementwise chain */

typedef struct stream_ud {
  size_t n;
  const float *x, *y;
  float *out;
} stream_ud;

static bool ref_stream(void *ud) {
  stream_ud *s = ud;
  const float *restrict x = s->x, *restrict y = s->y;
  float *restrict out = s->out;
  long n = (long)s->n;
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; i++) out[i] = x[i] + y[i];
  return true;
}

/* The chain in C, for checking: the same operations in the same order. */
static void chain_expected(size_t n, const float *x, const float *y, float *out) {
  for (size_t i = 0; i < n; i++) {
    float s0 = x[i] + y[i], s1 = s0 * x[i], s2 = s1 - y[i], s3 = s2 > x[i] ? s2 : x[i];
    float s5 = s3 > y[i] ? s3 : y[i], s6 = s5 * 0.5f, s7 = s6 < x[i] ? s6 : x[i];
    out[i] = -fabsf(s7) + s0;
  }
}

static void case_eltwise(bench *b) {
  if (!selected(b, "eltwise")) return;
  size_t n = b->quick ? (size_t)1 << 20 : (size_t)1 << 24;
  stream_ud s = {n, random_floats(n), random_floats(n), malloc(n * sizeof(float))};
  float *want = malloc(n * sizeof(float));
  chain_expected(n, s.x, s.y, want);
  char t[32];
  snprintf(t, sizeof t, "tensor<%zuxf32>", n);
  char *text = format_text(
      "func.func @main(%%x: %1$s, %%y: %1$s) -> %1$s {\n"
      "  %%h = stablehlo.constant dense<5.000000e-01> : %1$s\n"
      "  %%0 = stablehlo.add %%x, %%y : %1$s\n"
      "  %%1 = stablehlo.multiply %%0, %%x : %1$s\n"
      "  %%2 = stablehlo.subtract %%1, %%y : %1$s\n"
      "  %%3 = stablehlo.maximum %%2, %%x : %1$s\n"
      "  %%4 = stablehlo.compare GT, %%3, %%y : (%1$s, %1$s) -> tensor<%2$zuxi1>\n"
      "  %%5 = stablehlo.select %%4, %%3, %%y : (tensor<%2$zuxi1>, %1$s, %1$s) -> %1$s\n"
      "  %%6 = stablehlo.multiply %%5, %%h : %1$s\n"
      "  %%7 = stablehlo.minimum %%6, %%x : %1$s\n"
      "  %%8 = stablehlo.abs %%7 : %1$s\n"
      "  %%9 = stablehlo.negate %%8 : %1$s\n"
      "  %%10 = stablehlo.add %%9, %%0 : %1$s\n"
      "  return %%10 : %1$s\n}\n",
      t, n);
  case_run c = {.name = "eltwise", .ref_name = "C stream loop out=x+y, same 12 bytes/element", .text = text,
                .nin = 2, .shapes = {{1, {(int64_t)n}}, {1, {(int64_t)n}}}, .inputs = {(float *)s.x, (float *)s.y},
                .want = want, .want_count = n, .rtol = 1e-5, .atol = 1e-6, .ref = ref_stream, .ref_ud = &s,
                .tk = TARGET_RATIO, .target = 0.70, .budget_s = 1.0};
  run_case(b, &c);
  free(text);
  free(want);
  free((void *)s.x);
  free((void *)s.y);
  free(s.out);
}

/* ================================================================ 3. softmax, layernorm, sum */

typedef struct rows_ud {
  int64_t r, c;
  const float *x, *g, *b;
  float *out;
} rows_ud;

static bool ref_softmax(void *ud) {
  rows_ud *u = ud;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < u->r; i++) {
    const float *x = u->x + i * u->c;
    float *o = u->out + i * u->c, m = -INFINITY, s = 0;
    for (int64_t j = 0; j < u->c; j++) m = x[j] > m ? x[j] : m;
    for (int64_t j = 0; j < u->c; j++) s += (o[j] = expf(x[j] - m));
    for (int64_t j = 0; j < u->c; j++) o[j] /= s;
  }
  return true;
}

static bool ref_layernorm(void *ud) {
  rows_ud *u = ud;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < u->r; i++) {
    const float *x = u->x + i * u->c;
    float *o = u->out + i * u->c, s = 0, v = 0;
    for (int64_t j = 0; j < u->c; j++) s += x[j];
    float mean = s / (float)u->c;
    for (int64_t j = 0; j < u->c; j++) v += (x[j] - mean) * (x[j] - mean);
    float rs = 1.0f / sqrtf(v / (float)u->c + 1e-5f);
    for (int64_t j = 0; j < u->c; j++) o[j] = (x[j] - mean) * rs * u->g[j] + u->b[j];
  }
  return true;
}

static const char k_reduce_fmt[] = "stablehlo.reduce(%s init: %s) applies stablehlo.%s across dimensions = [1] : "
                                   "(tensor<%lldx%lldxf32>, tensor<f32>) -> tensor<%lldxf32>";

static void case_softmax(bench *b) {
  if (!selected(b, "softmax")) return;
  int64_t r = b->quick ? 256 : 4096, cc = 1024;
  rows_ud u = {r, cc, random_floats((size_t)(r * cc)), NULL, NULL, malloc(sizeof(float) * (size_t)(r * cc))};
  ref_softmax(&u);
  char mx[256], sm[256], t[48], v[32];
  snprintf(mx, sizeof mx, k_reduce_fmt, "%x", "%ninf", "maximum", (long long)r, (long long)cc, (long long)r);
  snprintf(sm, sizeof sm, k_reduce_fmt, "%e", "%zero", "add", (long long)r, (long long)cc, (long long)r);
  snprintf(t, sizeof t, "tensor<%lldx%lldxf32>", (long long)r, (long long)cc);
  snprintf(v, sizeof v, "tensor<%lldxf32>", (long long)r);
  char *text = format_text(
      "func.func @main(%%x: %1$s) -> %1$s {\n"
      "  %%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %%zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "  %%m = %3$s\n"
      "  %%mb = stablehlo.broadcast_in_dim %%m, dims = [0] : (%2$s) -> %1$s\n"
      "  %%s = stablehlo.subtract %%x, %%mb : %1$s\n"
      "  %%e = stablehlo.exponential %%s : %1$s\n"
      "  %%sum = %4$s\n"
      "  %%sb = stablehlo.broadcast_in_dim %%sum, dims = [0] : (%2$s) -> %1$s\n"
      "  %%r = stablehlo.divide %%e, %%sb : %1$s\n"
      "  return %%r : %1$s\n}\n",
      t, v, mx, sm);
  float *want = malloc(sizeof(float) * (size_t)(r * cc));
  memcpy(want, u.out, sizeof(float) * (size_t)(r * cc));
  case_run c = {.name = "softmax", .ref_name = "C loop (max, expf+sum, divide), OpenMP over rows", .text = text,
                .nin = 1, .shapes = {{2, {r, cc}}}, .inputs = {(float *)u.x}, .want = want,
                .want_count = (size_t)(r * cc), .rtol = 1e-4, .atol = 1e-7, .ref = ref_softmax, .ref_ud = &u,
                .tk = TARGET_RATIO, .target = 0.80, .budget_s = 1.0};
  run_case(b, &c);
  free(text);
  free(want);
  free((void *)u.x);
  free(u.out);
}

static void case_layernorm(bench *b) {
  if (!selected(b, "layernorm")) return;
  int64_t r = b->quick ? 256 : 4096, cc = 1024;
  rows_ud u = {r, cc, random_floats((size_t)(r * cc)), random_floats((size_t)cc), random_floats((size_t)cc),
               malloc(sizeof(float) * (size_t)(r * cc))};
  ref_layernorm(&u);
  char s1[256], s2[256], t[48], v[32], w[32];
  snprintf(s1, sizeof s1, k_reduce_fmt, "%x", "%zero", "add", (long long)r, (long long)cc, (long long)r);
  snprintf(s2, sizeof s2, k_reduce_fmt, "%sq", "%zero", "add", (long long)r, (long long)cc, (long long)r);
  snprintf(t, sizeof t, "tensor<%lldx%lldxf32>", (long long)r, (long long)cc);
  snprintf(v, sizeof v, "tensor<%lldxf32>", (long long)r);
  snprintf(w, sizeof w, "tensor<%lldxf32>", (long long)cc);
  char *text = format_text(
      "func.func @main(%%x: %1$s, %%g: %3$s, %%b: %3$s) -> %1$s {\n"
      "  %%zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "  %%n = stablehlo.constant dense<%6$lld.0> : %2$s\n"
      "  %%eps = stablehlo.constant dense<9.99999974E-6> : %2$s\n"
      "  %%s = %4$s\n"
      "  %%mean = stablehlo.divide %%s, %%n : %2$s\n"
      "  %%mb = stablehlo.broadcast_in_dim %%mean, dims = [0] : (%2$s) -> %1$s\n"
      "  %%xc = stablehlo.subtract %%x, %%mb : %1$s\n"
      "  %%sq = stablehlo.multiply %%xc, %%xc : %1$s\n"
      "  %%vs = %5$s\n"
      "  %%var = stablehlo.divide %%vs, %%n : %2$s\n"
      "  %%ve = stablehlo.add %%var, %%eps : %2$s\n"
      "  %%rs = stablehlo.rsqrt %%ve : %2$s\n"
      "  %%rb = stablehlo.broadcast_in_dim %%rs, dims = [0] : (%2$s) -> %1$s\n"
      "  %%y = stablehlo.multiply %%xc, %%rb : %1$s\n"
      "  %%gb = stablehlo.broadcast_in_dim %%g, dims = [1] : (%3$s) -> %1$s\n"
      "  %%bb = stablehlo.broadcast_in_dim %%b, dims = [1] : (%3$s) -> %1$s\n"
      "  %%yg = stablehlo.multiply %%y, %%gb : %1$s\n"
      "  %%out = stablehlo.add %%yg, %%bb : %1$s\n"
      "  return %%out : %1$s\n}\n",
      t, v, w, s1, s2, (long long)cc);
  float *want = malloc(sizeof(float) * (size_t)(r * cc));
  memcpy(want, u.out, sizeof(float) * (size_t)(r * cc));
  case_run c = {.name = "layernorm", .ref_name = "C loop (mean, variance, 1/sqrtf, scale+shift), OpenMP over rows",
                .text = text, .nin = 3, .shapes = {{2, {r, cc}}, {1, {cc}}, {1, {cc}}},
                .inputs = {(float *)u.x, (float *)u.g, (float *)u.b}, .want = want, .want_count = (size_t)(r * cc),
                .rtol = 1e-3, .atol = 1e-4, .ref = ref_layernorm, .ref_ud = &u, .tk = TARGET_RATIO, .target = 0.80,
                .budget_s = 1.0};
  run_case(b, &c);
  free(text);
  free(want);
  free((void *)u.x);
  free((void *)u.g);
  free((void *)u.b);
  free(u.out);
}

typedef struct sum_ud {
  size_t n;
  const float *x;
  float result;
} sum_ud;

static bool ref_sum(void *ud) {
  sum_ud *s = ud;
  const float *restrict x = s->x;
  long n = (long)s->n;
  float acc = 0;
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
  for (long i = 0; i < n; i++) acc += x[i];
  s->result = acc;
  return true;
}

static void case_reduce(bench *b) {
  if (!selected(b, "reduce_sum")) return;
  size_t n = b->quick ? (size_t)1 << 20 : (size_t)1 << 24;
  sum_ud s = {n, random_floats(n), 0};
  double exact = 0, mag = 0;
  for (size_t i = 0; i < n; i++) exact += s.x[i], mag += fabs(s.x[i]);
  float want = (float)exact;
  char *text = format_text(
      "func.func @main(%%x: tensor<%1$zuxf32>) -> tensor<f32> {\n"
      "  %%zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "  %%s = stablehlo.reduce(%%x init: %%zero) applies stablehlo.add across dimensions = [0] : "
      "(tensor<%1$zuxf32>, tensor<f32>) -> tensor<f32>\n"
      "  return %%s : tensor<f32>\n}\n",
      n);
  case_run c = {.name = "reduce_sum", .ref_name = "C loop, OpenMP simd reduction", .text = text, .nin = 1,
                .shapes = {{1, {(int64_t)n}}}, .inputs = {(float *)s.x}, .want = &want, .want_count = 1,
                .rtol = 0, .atol = 1e-5 * mag, .ref = ref_sum, .ref_ud = &s, .tk = TARGET_RATIO, .target = 0.80,
                .budget_s = 1.0};
  run_case(b, &c);
  free(text);
  free((void *)s.x);
}

/* ---------------------------------------------------------------- conv 3x3 */

#ifdef KILN_BENCH_HAVE_DNNL
/* oneDNN's convolution on its own: NHWC source and result, weights from HWIO reordered once. */
typedef struct conv_ref {
  dnnl_engine_t eng;
  dnnl_stream_t strm;
  dnnl_primitive_t conv;
  dnnl_memory_t src, wei, dst, pad;
  void *wei_buf, *pad_buf;
} conv_ref;

static bool ref_conv(void *ud) {
  conv_ref *r = ud;
  dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, r->src}, {DNNL_ARG_WEIGHTS, r->wei}, {DNNL_ARG_DST, r->dst},
                             {DNNL_ARG_SCRATCHPAD, r->pad}};
  return dnnl_primitive_execute(r->conv, r->strm, r->pad ? 4 : 3, args) == dnnl_success &&
         dnnl_stream_wait(r->strm) == dnnl_success;
}

static void conv_ref_free(conv_ref *r) {
  if (r->conv) dnnl_primitive_destroy(r->conv);
  dnnl_memory_t ms[4] = {r->src, r->wei, r->dst, r->pad};
  for (int i = 0; i < 4; i++)
    if (ms[i]) dnnl_memory_destroy(ms[i]);
  if (r->strm) dnnl_stream_destroy(r->strm);
  if (r->eng) dnnl_engine_destroy(r->eng);
  free(r->wei_buf);
  free(r->pad_buf);
}

static bool conv_ref_make(conv_ref *r, int64_t n, int64_t h, int64_t w, int64_t ci, int64_t co, const float *x,
                          const float *hwio, float *out) {
  memset(r, 0, sizeof *r);
  if (dnnl_engine_create(&r->eng, dnnl_cpu, 0) || dnnl_stream_create(&r->strm, r->eng, dnnl_stream_default_flags))
    return false;
  dnnl_memory_desc_t sm, wu, wa, dm, pm;
  dnnl_dims_t sd = {n, ci, h, w}, wd = {co, ci, 3, 3}, dd = {n, co, h, w};
  dnnl_dims_t st = {1, 1}, pad = {1, 1};
  dnnl_memory_desc_init_by_tag(&sm, 4, sd, dnnl_f32, dnnl_nhwc);
  dnnl_memory_desc_init_by_tag(&dm, 4, dd, dnnl_f32, dnnl_nhwc);
  dnnl_memory_desc_init_by_tag(&wu, 4, wd, dnnl_f32, dnnl_hwio);
  dnnl_memory_desc_init_by_tag(&wa, 4, wd, dnnl_f32, dnnl_format_tag_any);
  dnnl_convolution_desc_t cd;
  dnnl_primitive_attr_t attr;
  dnnl_primitive_desc_t pd = NULL, rpd = NULL;
  dnnl_primitive_attr_create(&attr);
  dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
  bool ok = !dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct, &sm, &wa, NULL,
                                                &dm, st, pad, pad) &&
            !dnnl_primitive_desc_create(&pd, &cd, attr, r->eng, NULL);
  dnnl_primitive_attr_destroy(attr);
  if (!ok) return false;
  const dnnl_memory_desc_t *wchosen = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  pm = *dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  size_t wbytes = dnnl_memory_desc_get_size(wchosen), pbytes = dnnl_memory_desc_get_size(&pm);
  r->wei_buf = aligned_alloc(64, (wbytes + 63) / 64 * 64);
  r->pad_buf = pbytes ? aligned_alloc(64, (pbytes + 63) / 64 * 64) : NULL;
  dnnl_memory_t wuser = NULL;
  dnnl_primitive_t reorder = NULL;
  ok = r->wei_buf && !dnnl_memory_create(&r->src, &sm, r->eng, (void *)x) &&
       !dnnl_memory_create(&r->dst, &dm, r->eng, out) && !dnnl_memory_create(&r->wei, wchosen, r->eng, r->wei_buf) &&
       (!pbytes || !dnnl_memory_create(&r->pad, &pm, r->eng, r->pad_buf)) &&
       !dnnl_memory_create(&wuser, &wu, r->eng, (void *)hwio) &&
       !dnnl_reorder_primitive_desc_create(&rpd, &wu, r->eng, wchosen, r->eng, NULL) &&
       !dnnl_primitive_create(&reorder, rpd) && !dnnl_primitive_create(&r->conv, pd);
  if (ok) {
    dnnl_exec_arg_t a[2] = {{DNNL_ARG_FROM, wuser}, {DNNL_ARG_TO, r->wei}};
    ok = !dnnl_primitive_execute(reorder, r->strm, 2, a) && !dnnl_stream_wait(r->strm);
  }
  if (reorder) dnnl_primitive_destroy(reorder);
  if (rpd) dnnl_primitive_desc_destroy(rpd);
  if (wuser) dnnl_memory_destroy(wuser);
  dnnl_primitive_desc_destroy(pd);
  return ok;
}
#endif

static void case_conv(bench *b) {
  if (!selected(b, "conv3x3")) return;
  int64_t n = b->quick ? 1 : 8, h = 56, w = 56, ci = 64, co = 64;
  size_t xs = (size_t)(n * h * w * ci), ws = (size_t)(9 * ci * co), os = (size_t)(n * h * w * co);
  float *x = random_floats(xs), *k = random_floats(ws), *out = calloc(os, sizeof(float));
  char xt[48], kt[48], ot[48];
  snprintf(xt, sizeof xt, "tensor<%lldx%lldx%lldx%lldxf32>", (long long)n, (long long)h, (long long)w, (long long)ci);
  snprintf(kt, sizeof kt, "tensor<3x3x%lldx%lldxf32>", (long long)ci, (long long)co);
  snprintf(ot, sizeof ot, "tensor<%lldx%lldx%lldx%lldxf32>", (long long)n, (long long)h, (long long)w, (long long)co);
  char *text = format_text(
      "func.func @main(%%x: %1$s, %%k: %2$s) -> %3$s {\n"
      "  %%0 = stablehlo.convolution(%%x, %%k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
      "window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : "
      "i64} : (%1$s, %2$s) -> %3$s\n"
      "  return %%0 : %3$s\n}\n",
      xt, kt, ot);
  case_run c = {.name = "conv3x3", .ref_name = "n/a (built without oneDNN)", .text = text, .nin = 2,
                .shapes = {{4, {n, h, w, ci}}, {4, {3, 3, ci, co}}}, .inputs = {x, k}, .rtol = 1e-3, .atol = 1e-3,
                .tk = TARGET_RATIO, .target = 0.90, .budget_s = 1.0};
#ifdef KILN_BENCH_HAVE_DNNL
  conv_ref r;
  if (conv_ref_make(&r, n, h, w, ci, co, x, k, out) && ref_conv(&r)) {
    c.ref_name = "oneDNN convolution, NHWC, weights pre-reordered";
    c.want = out, c.want_count = os, c.ref = ref_conv, c.ref_ud = &r;
  } else {
    c.ref_name = "n/a (oneDNN convolution could not be set up)";
  }
#endif
  run_case(b, &c);
#ifdef KILN_BENCH_HAVE_DNNL
  conv_ref_free(&r);
#endif
  free(text);
  free(x);
  free(k);
  free(out);
}

/* ================================================================ 4. overhead */

/* A chain of ops elementwise ops (add, multiply, subtract, maximum in turn) on tensor<Nxf32>. */
static char *chain_text(int ops, int64_t n) {
  static const char *const kinds[] = {"add", "multiply", "subtract", "maximum"};
  size_t cap = 256 + (size_t)ops * 96;
  char *s = malloc(cap);
  if (!s) return NULL;
  int at = snprintf(s, cap, "func.func @main(%%x: tensor<%1$lldxf32>, %%y: tensor<%1$lldxf32>) -> tensor<%1$lldxf32> {\n",
                    (long long)n);
  for (int i = 0; i < ops; i++) {
    char prev[16];
    if (i) snprintf(prev, sizeof prev, "%%%d", i - 1);
    else snprintf(prev, sizeof prev, "%%x");
    at += snprintf(s + at, cap - (size_t)at, "  %%%d = stablehlo.%s %s, %%y : tensor<%lldxf32>\n", i, kinds[i % 4],
                   prev, (long long)n);
  }
  snprintf(s + at, cap - (size_t)at, "  return %%%d : tensor<%lldxf32>\n}\n", ops - 1, (long long)n);
  return s;
}

typedef struct overhead_ud {
  kiln_job job;
} overhead_ud;

static void case_overhead(bench *b, const char *name, int ops, int64_t n, double target_us) {
  if (!selected(b, name)) return;
  float *x = random_floats((size_t)n), *y = random_floats((size_t)n);
  char *text = chain_text(ops, n);
  kiln_job ref;
  kiln_status s = job_make(b->interp, text, 2, (shape[]){{1, {n}, false}, {1, {n}, false}}, (float *const[]){x, y}, &ref);
  case_run c = {.name = name, .ref_name = "the interp device, same program", .text = text, .nin = 2,
                .shapes = {{1, {n}}, {1, {n}}}, .inputs = {x, y}, .ref = s ? NULL : kiln_run_timed,
                .ref_ud = &ref, .tk = TARGET_MAX_US, .target = target_us, .budget_s = 0.3};
  if (s) {
    c.ref_name = "n/a (interp device unavailable)";
    kiln_status_free(s);
  }
  run_case(b, &c);
  kiln_job_free(&ref);
  free(text);
  free(x);
  free(y);
}

/* ================================================================ main */

static const char k_usage[] =
    "usage: kiln_bench_cpu [--device D] [--quick] [--only NAME[,NAME...]] [--threads N]\n"
    "  --device D   the plugin to measure (default cpu)\n"
    "  --threads N  OpenMP threads of the references (and of oneDNN in this process)\n"
    "  --quick      small sizes (seconds, not minutes; also what the interp device can finish)\n"
    "  --only N,..  only the cases whose names start with one of these (gemm, eltwise, softmax,\n"
    "               layernorm, reduce_sum, conv3x3, overhead)\n";

static kiln_status open_client(const char *devices, kiln_client **out) {
  kiln_client_options o = {.struct_size = sizeof o, .devices = devices, .flags = KILN_CLIENT_IGNORE_ENV};
  return kiln_client_create(&o, out);
}

int main(int argc, char **argv) {
  bench b = {.device = "cpu"};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--device") && i + 1 < argc) b.device = argv[++i];
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) b.only = argv[++i];
    else if (!strcmp(argv[i], "--quick")) b.quick = true;
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
#ifdef _OPENMP
      omp_set_num_threads(atoi(argv[++i])); /* the references' and oneDNN's threads alike */
#else
      i++;
#endif
    }
    else {
      fputs(k_usage, stderr);
      return 2;
    }
  }
  kiln_status s = open_client(b.device, &b.client);
  if (s) {
    fprintf(stderr, "kiln_bench_cpu: device '%s' cannot be used: %s\n%s", b.device, kiln_status_message(s),
            strcmp(b.device, "cpu") ? "" : "(the cpu plugin may not be built yet: try --device interp)\n");
    kiln_status_free(s);
    return 2;
  }
  if (!strcmp(kiln_client_plugin_name(b.client), "interp")) {
    b.interp = kiln_client_retain(b.client);
  } else if ((s = open_client("interp", &b.interp))) {
    kiln_status_free(s); /* the overhead references are then reported as n/a */
    b.interp = NULL;
  }
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  printf("kiln_bench_cpu: device %s (%s), %s sizes, references on %d OpenMP thread(s)%s\n",
         kiln_device_name(kiln_client_device(b.client, 0)), kiln_device_description(kiln_client_device(b.client, 0)),
         b.quick ? "quick" : "full", threads,
#ifdef KILN_BENCH_HAVE_DNNL
         ""
#else
         ", built without oneDNN (no gemm/conv references)"
#endif
  );
  /* Other work on these shared cores shows up as OpenMP barriers waiting on a preempted
   * thread (whole scheduler slices): say how busy the machine was. */
  FILE *la = fopen("/proc/loadavg", "r");
  char load[64] = "?";
  if (la) {
    if (!fgets(load, sizeof load, la)) snprintf(load, sizeof load, "?");
    fclose(la);
    load[strcspn(load, "\n")] = 0;
  }
  printf("load average at start: %s (figures of a busy machine are not comparable)\n", load);
  printf("%-14s %12s %12s %8s %10s  %s\n", "case", "kiln", "reference", "ratio", "target", "result");
  static const int64_t full[] = {256, 1024, 2048}, quick[] = {128, 256};
  const int64_t *sizes = b.quick ? quick : full;
  int nsizes = b.quick ? 2 : 3;
  for (int i = 0; i < nsizes; i++) case_gemm(&b, sizes[i], false);
  for (int i = 0; i < nsizes; i++) case_gemm(&b, sizes[i], true);
  case_eltwise(&b);
  case_softmax(&b);
  case_layernorm(&b);
  case_reduce(&b);
  case_conv(&b);
  case_overhead(&b, "overhead_add", 1, 4, 2.0);
  case_overhead(&b, "overhead_20op", 20, 16, 10.0);
  printf("ratio = reference time / Kiln time (above 1: Kiln faster); %d case(s) failed\n", b.failures);
  kiln_client_release(b.interp);
  kiln_client_release(b.client);
  return b.failures ? 1 : 0;
}
