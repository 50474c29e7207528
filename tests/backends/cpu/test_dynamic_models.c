/* test_dynamic_models DEVICE FOLDER: the shape-polymorphic JAX exports of FOLDER
 * (make_models.py wrote them and JAX's results) on DEVICE at each size of their symbolic
 * dimension, twice with one executable (on cpu the first run of a size records and
 * compiles it, the second runs the compiled code), against JAX's results; and the errors a
 * shape-polymorphic program gives for a failing shape assertion and for inputs whose sizes
 * disagree with its parameters; the MLP from 4 threads at once; and, on a device other than
 * the interpreter, every model at RANDOM_SIZES sizes drawn at random (seeded) against the
 * interpreter's results: sizes that share code made for others (family.h) must each get
 * their own numbers, and all of them run on the code of one LLVM compile, the one the
 * compile made for its ladder of sizes (specialize.c). Prints "N passed, N failed". */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "kiln/kiln.h"
#include "npy.h"
#include "runtime/element.h"

static _Atomic int passed, failed;

static void report(bool ok, const char *what) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAILED: %s\n", what);
  }
}

static kiln_status buffer_from_npy(kiln_device *d, const kiln_npy_array *a, kiln_buffer **out) {
  kiln_buffer_args args = {sizeof args, kiln_element_type_from_elem(a->elem), a->rank, a->dims, a->data, a->byte_size};
  return kiln_buffer_create(d, &args, out);
}

/* RANDOM_SIZES per model; the MLP takes MANY_SIZES, more distinct ones than an executable
 * keeps signatures of (KILN_CPU_MAX_SPECS, 64): the least recently used go and come back. */
enum { RANDOM_SIZES = 12, MANY_SIZES = 120, RANDOM_MAX_SIZE = 160 };

/* Whether buffer b holds want's shape and values within 1e-4 * (1 + |want|). */
static bool close_to(kiln_buffer *b, const kiln_npy_array *want, char *why, size_t cap) {
  bool same = kiln_buffer_rank(b) == want->rank && kiln_buffer_byte_size(b) == want->byte_size;
  for (int32_t d = 0; same && d < want->rank; d++) same = kiln_buffer_dims(b)[d] == want->dims[d];
  if (!same) return snprintf(why, cap, "shape differs"), false;
  float *got = malloc(want->byte_size ? want->byte_size : 1);
  kiln_status st = got ? kiln_buffer_copy_to_host(b, got, want->byte_size) : NULL;
  bool ok = got && !st;
  const float *w = (const float *)want->data;
  for (size_t i = 0; ok && i < want->byte_size / sizeof(float); i++)
    if (!(fabsf(got[i] - w[i]) <= 1e-4f * (1 + fabsf(w[i])))) {
      snprintf(why, cap, "element %zu: %.9g, expected %.9g", i, got[i], w[i]);
      ok = false;
    }
  kiln_status_free(st);
  free(got);
  return ok;
}

/* Runs x on the one input `in` twice; compares each run's results with the files
 * FOLDER/NAME_SIZE_out_I.npy. */
static void run_size(kiln_executable *x, kiln_device *d, const char *folder, const char *name, int size) {
  char path[4096], what[4300], why[256] = "";
  snprintf(path, sizeof path, "%s/%s_%d_in_0.npy", folder, name, size);
  kiln_npy_array in = {0};
  kiln_buffer *arg = NULL, *res[4] = {NULL};
  kiln_function_info f = {.struct_size = sizeof f};
  kiln_status st = kiln_npy_read(path, &in);
  if (!st) st = buffer_from_npy(d, &in, &arg);
  if (!st) st = kiln_executable_function(x, &f);
  for (int run = 0; !st && run < 2; run++) {
    kiln_event *done = NULL;
    kiln_execute_args ea = {sizeof ea, &arg, 1, res, f.num_results, 0, NULL};
    st = kiln_executable_execute(x, &ea, &done);
    if (!st) st = kiln_event_wait(done);
    kiln_event_release(done);
    for (int32_t i = 0; !st && i < f.num_results; i++) {
      kiln_npy_array want = {0};
      snprintf(path, sizeof path, "%s/%s_%d_out_%d.npy", folder, name, size, (int)i);
      st = kiln_npy_read(path, &want);
      snprintf(what, sizeof what, "%s at size %d, run %d, result %d", name, size, run + 1, (int)i);
      if (!st) {
        bool ok = close_to(res[i], &want, why, sizeof why);
        if (!ok) printf("%s: %s\n", what, why);
        report(ok, what);
      }
      kiln_npy_free(&want);
    }
    for (int32_t i = 0; i < f.num_results && i < 4; i++) kiln_buffer_release(res[i]), res[i] = NULL;
  }
  if (st) {
    snprintf(what, sizeof what, "%s at size %d: %s", name, size, kiln_status_message(st));
    report(false, what);
  }
  kiln_status_free(st);
  kiln_buffer_release(arg);
  kiln_npy_free(&in);
}

/* A run on `dims` zeros must fail with a message holding `expect`. */
static void expect_error(kiln_executable *x, kiln_device *d, int32_t rank, const int64_t *dims, const char *expect) {
  int64_t n = 1;
  for (int32_t i = 0; i < rank; i++) n *= dims[i];
  float *zeros = calloc((size_t)n + 1, sizeof *zeros);
  kiln_buffer *arg = NULL, *res[2] = {NULL};
  kiln_event *done = NULL;
  kiln_buffer_args args = {sizeof args, KILN_ELEMENT_TYPE_F32, rank, dims, zeros, (size_t)n * sizeof *zeros};
  kiln_status st = kiln_buffer_create(d, &args, &arg);
  kiln_execute_args ea = {sizeof ea, &arg, 1, res, 1, 0, NULL};
  if (!st) st = kiln_executable_execute(x, &ea, &done);
  if (!st) st = kiln_event_wait(done);
  bool ok = st && strstr(kiln_status_message(st), expect);
  if (!ok) printf("expected an error with \"%s\", got: %s\n", expect, st ? kiln_status_message(st) : "success");
  report(ok, expect);
  kiln_status_free(st);
  kiln_event_release(done);
  kiln_buffer_release(res[0]);
  kiln_buffer_release(arg);
  free(zeros);
}

static uint64_t next_random(uint64_t *s) {
  *s = *s * 6364136223846793005u + 1442695040888963407u;
  return *s >> 33;
}

/* One run of x on arg; results into res (f's count). */
static kiln_status execute(kiln_executable *x, kiln_buffer *arg, kiln_buffer **res, int32_t n) {
  kiln_event *done = NULL;
  kiln_execute_args ea = {sizeof ea, &arg, 1, res, n, 0, NULL};
  kiln_status st = kiln_executable_execute(x, &ea, &done);
  if (!st) st = kiln_event_wait(done);
  kiln_event_release(done);
  return st;
}

/* Signatures x has compiled so far (0: not reported), and how many LLVM compiles made them. */
static uint64_t signatures(kiln_executable *x, uint64_t *code_compiles) {
  kiln_executable_stats_info stats = {.struct_size = sizeof stats};
  kiln_status st = kiln_executable_stats(x, &stats);
  kiln_status_free(st);
  if (code_compiles) *code_compiles = st ? 0 : stats.code_compiles;
  return st ? 0 : stats.signatures;
}

/* The model at `count` random sizes of its first dim (the others as in `dims`), on x and on
 * ref (the interpreter's executable of the same program), results compared; then the
 * last size first seen again, which must find its signature kept (no compile), however
 * many came before. */
static void random_sizes(kiln_executable *x, kiln_device *d, kiln_executable *ref, kiln_device *rd, const char *name,
                         int32_t rank, const int64_t *dims, int count, uint64_t *seed) {
  kiln_function_info f = {.struct_size = sizeof f};
  kiln_status st = kiln_executable_function(x, &f);
  bool seen[RANDOM_MAX_SIZE + 1] = {false};
  uint64_t distinct = 0, before = 0, newest = *seed;
  for (int k = 0; !st && k <= count; k++) {
    if (k == count) { /* the newest size again, its inputs too */
      *seed = newest;
      before = signatures(x, NULL);
    }
    uint64_t at = *seed;
    int64_t shape[8], n = 1;
    for (int32_t i = 0; i < rank; i++) n *= shape[i] = i ? dims[i] : 1 + (int64_t)(next_random(seed) % RANDOM_MAX_SIZE);
    if (!seen[shape[0]]) newest = at, distinct++;
    seen[shape[0]] = true;
    float *data = malloc((size_t)n * sizeof *data);
    for (int64_t i = 0; data && i < n; i++) data[i] = (float)(next_random(seed) % 20001) / 10000.0f - 1.0f;
    kiln_buffer *arg = NULL, *rarg = NULL, *res[4] = {NULL}, *want[4] = {NULL};
    kiln_buffer_args args = {sizeof args, KILN_ELEMENT_TYPE_F32, rank, shape, data, (size_t)n * sizeof *data};
    st = data ? kiln_buffer_create(d, &args, &arg) : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    if (!st) st = kiln_buffer_create(rd, &args, &rarg);
    if (!st) st = execute(x, arg, res, f.num_results);
    if (!st) st = execute(ref, rarg, want, f.num_results);
    for (int32_t i = 0; !st && i < f.num_results && i < 4; i++) {
      kiln_npy_array w = {.elem = KILN_ELEM_F32, .rank = kiln_buffer_rank(want[i]), .byte_size = kiln_buffer_byte_size(want[i])};
      memcpy(w.dims, kiln_buffer_dims(want[i]), sizeof *w.dims * (size_t)w.rank);
      if (!(w.data = malloc(w.byte_size ? w.byte_size : 1))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      if (!st) st = kiln_buffer_copy_to_host(want[i], w.data, w.byte_size);
      char what[256], why[256] = "";
      snprintf(what, sizeof what, "%s at random size %lld against the interpreter, result %d", name, (long long)shape[0], (int)i);
      if (!st) {
        bool ok = close_to(res[i], &w, why, sizeof why);
        if (!ok) printf("%s: %s\n", what, why);
        report(ok, what);
      }
      free(w.data);
    }
    if (st) {
      char what[512];
      snprintf(what, sizeof what, "%s at a random size: %s", name, kiln_status_message(st));
      report(false, what);
    }
    for (int i = 0; i < 4; i++) kiln_buffer_release(res[i]), kiln_buffer_release(want[i]);
    kiln_buffer_release(arg);
    kiln_buffer_release(rarg);
    free(data);
  }
  uint64_t compiles = 0, after = signatures(x, &compiles);
  if (!st && after) {
    char what[256];
    snprintf(what, sizeof what, "%s: %llu distinct sizes, %llu signatures compiled, the last size kept (%llu after it)",
             name, (unsigned long long)distinct, (unsigned long long)before, (unsigned long long)after);
    report(before >= distinct && after == before, what);
    /* every size from 1 to RANDOM_MAX_SIZE binds to the code the compile made for its ladder of sizes */
    snprintf(what, sizeof what, "%s: one LLVM compile for all %llu signatures (%llu)", name, (unsigned long long)after,
             (unsigned long long)compiles);
    report(compiles == 1, what);
  }
  kiln_status_free(st);
}

typedef struct thread_job {
  kiln_executable *x;
  kiln_device *d;
  const char *folder;
} thread_job;

static void *run_mlp_sizes(void *arg) {
  thread_job *j = arg;
  for (int k = 0; k < 3; k++) run_size(j->x, j->d, j->folder, "mlp", (int[]){1, 3, 13}[k]);
  return NULL;
}

/* 4 threads at once on a new executable: each size's first runs race to record and
 * compile it (the first one compiled is kept). */
static void threads(kiln_program *p, kiln_device *d, const char *folder) {
  kiln_executable *x = NULL;
  kiln_compile_options co = {.struct_size = sizeof co, .function = "main"};
  kiln_status st = kiln_program_compile(p, d, &co, &x);
  report(!st, "compile for the threads");
  kiln_status_free(st);
  pthread_t t[4];
  thread_job j = {x, d, folder};
  int made = 0;
  for (; x && made < 4; made++)
    if (pthread_create(&t[made], NULL, run_mlp_sizes, &j)) break;
  for (int i = 0; i < made; i++) pthread_join(t[i], NULL);
  kiln_executable_release(x);
}

static const struct {
  const char *name;
  int sizes[3];
  int32_t rank;
  int64_t dims[4]; /* the input's, the first symbolic */
} k_models[] = {{"mlp", {1, 3, 13}, 2, {0, 16}},
                {"transformer", {1, 5, 13}, 2, {0, 8}},
                {"convnet", {1, 3, 13}, 4, {0, 8, 8, 1}},
                {"scan", {1, 5, 13}, 2, {0, 4}}};

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_dynamic_models DEVICE FOLDER\n");
    return 2;
  }
  kiln_client_options o = {.struct_size = sizeof o, .devices = argv[1], .flags = KILN_CLIENT_IGNORE_ENV};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  if (st) {
    printf("%s\n0 passed, 1 failed\n", kiln_status_message(st));
    return 1;
  }
  kiln_device *d = kiln_client_device(c, 0);
  kiln_client *rc = NULL; /* the interpreter, the reference for random sizes */
  kiln_client_options ro = {.struct_size = sizeof ro, .devices = "interp", .flags = KILN_CLIENT_IGNORE_ENV};
  if (strcmp(argv[1], "interp") && (st = kiln_client_create(&ro, &rc))) {
    printf("%s\n", kiln_status_message(st));
    report(false, "the interpreter's client");
    kiln_status_free(st);
  }
  uint64_t seed = 0x73697a6573u; /* "sizes" */
  for (size_t m = 0; m < sizeof k_models / sizeof *k_models; m++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/model_%s.mlir", argv[2], k_models[m].name);
    kiln_source src = {0};
    kiln_program *p = NULL;
    kiln_executable *x = NULL;
    st = kiln_source_read(path, &src);
    kiln_program_options po = {sizeof po, path, 1};
    if (!st) st = kiln_program_create(src.text, src.len, &po, &p);
    kiln_compile_options co = {.struct_size = sizeof co, .function = "main"};
    if (!st) st = kiln_program_compile(p, d, &co, &x);
    if (st) {
      printf("%s\n", kiln_status_message(st));
      report(false, path);
      kiln_status_free(st);
    }
    for (int k = 0; x && k < 3; k++) run_size(x, d, argv[2], k_models[m].name, k_models[m].sizes[k]);
    kiln_executable *ref = NULL;
    if (x && rc && (st = kiln_program_compile(p, kiln_client_device(rc, 0), &co, &ref))) {
      report(false, kiln_status_message(st));
      kiln_status_free(st);
    }
    if (ref)
      random_sizes(x, d, ref, kiln_client_device(rc, 0), k_models[m].name, k_models[m].rank, k_models[m].dims,
                   m == 0 ? MANY_SIZES : RANDOM_SIZES, &seed);
    kiln_executable_release(ref);
    if (x && !strcmp(k_models[m].name, "mlp")) {
      /* JAX's assertion b >= 1, its {0} substituted; then a feature size other than 16 */
      expect_error(x, d, 2, (int64_t[]){0, 16}, "shape assertion failed: Input shapes do not match");
      expect_error(x, d, 2, (int64_t[]){0, 16}, "'b' = 0 from specification 'b' for dimension args[0].shape[0] (= 0)");
      expect_error(x, d, 2, (int64_t[]){3, 15}, "expects tensor<?x16xf32>, got tensor<3x15xf32>");
      kiln_executable_release(x);
      x = NULL;
      threads(p, d, argv[2]);
    }
    kiln_executable_release(x);
    kiln_program_release(p);
    kiln_source_free(&src);
  }
  kiln_client_release(rc);
  kiln_client_release(c);
  printf("%d passed, %d failed\n", (int)passed, (int)failed);
  return failed ? 1 : 0;
}
