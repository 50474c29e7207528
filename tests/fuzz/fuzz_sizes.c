/* libFuzzer target for shape-polymorphic programs at random sizes (issue 13): the sizes a
 * caller gives (dimension arguments, the sizes of `?` dimensions) are untrusted input.
 *
 * Input: four size bytes, then a program (MLIR text; the seeds are the files of
 * ../shared/conformance/testdata/dynamic). @main is compiled once per program on the
 * interpreter and on the cpu device (through the public API, the plugins loaded as a user
 * loads them) and run on inputs made from the size bytes:
 *   - with the last byte below 192, every `?` dimension and every dimension argument takes
 *     the size of byte 0 (sizes that agree, as a framework sends them); otherwise the k-th
 *     `?` dimension takes byte k % 4 and the k-th dimension argument byte (k + 1) % 4
 *     (sizes that disagree with each other and with the dimension arguments);
 *   - a byte below 250 is the size byte % 50; 250 to 255 give a dimension argument a value
 *     no size may have (-1, INT32_MIN, INT64_MIN, INT64_MAX, 2^62, -(2^40)); a `?`
 *     dimension then takes byte % 50 (a buffer cannot have such a size). Sizes whose inputs
 *     would hold more than MAX_INPUT_ELEMENTS elements are skipped.
 * Properties: compiling and running either succeed or return an error with a message; a
 * program the interpreter compiles, the cpu device compiles; a run that succeeds on one
 * device succeeds on the other (out-of-memory excepted) and their results agree
 * (kiln_cli_results_agree); a run that fails with a size error on one fails on the other.
 * Everything is released, so LeakSanitizer findings are real leaks. A violated property
 * calls abort(), which is how a fuzz target reports a finding.
 *
 * The custom mutator changes only the size bytes three times in four, and the executables
 * of the last few programs are kept, so most inputs are new sizes on code already compiled
 * (the cpu device's specialisation per signature is what this fuzzes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "base/strbuf.h"
#include "dynamic.h"
#include "inputs.h"
#include "kiln/kiln.h"

enum { HEADER = 4, KEPT = 8, MAX_INPUTS = 64 };

static void finding(const char *what, kiln_status st) {
  fprintf(stderr, "fuzz_sizes: %s\n%s\n", what, st ? kiln_status_message(st) : "");
  abort();
}

static kiln_client *client_of(const char *devices) {
  kiln_client_options o = {.struct_size = sizeof o, .devices = devices, .flags = KILN_CLIENT_IGNORE_ENV};
  kiln_client *c = NULL;
  kiln_status st = kiln_client_create(&o, &c);
  if (st) finding("no client", st);
  return c;
}

static kiln_client *g_interp, *g_cpu;
/* What the inputs came to, printed at exit (run.sh's log): programs compiled on both
 * devices, runs compared, runs both devices refused with an error. */
static unsigned long g_compiled, g_compared, g_refused;


static void at_exit(void);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  setenv("KILN_CACHE_MAX_BYTES", "0", 1); /* the persistent compile cache is fuzzed elsewhere */
  /* oneDNN's OpenMP threads (libgomp's, left running at exit) crash LeakSanitizer's tracer
   * at the leak check; with one OpenMP thread oneDNN starts none (Kiln's pool still runs) */
  setenv("OMP_NUM_THREADS", "1", 1);
  g_interp = client_of("interp");
  g_cpu = client_of("cpu");
  atexit(at_exit);
  return 0;
}

/* A program compiled on both devices, kept for the next inputs with the same text. */
typedef struct kept {
  uint64_t hash;
  size_t len;
  char *text;
  kiln_module *module; /* for @main's type */
  const kiln_type *ft;
  kiln_executable *x[2]; /* interp, cpu */
  kiln_function_info f;
} kept;

static kept g_kept[KEPT];
static unsigned g_next;

static uint64_t fnv(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211u;
  return h;
}

static void drop(kept *k) {
  kiln_executable_release(k->x[0]);
  kiln_executable_release(k->x[1]);
  kiln_module_destroy(k->module);
  free(k->text);
  *k = (kept){0};
}

static void status_has_message(kiln_status st, const char *what) {
  const char *m = kiln_status_message(st);
  if (!m || !*m) finding(what, st);
}

/* The program's executables, compiled now or kept; NULL when it does not compile (then
 * with a message, on both devices alike). */
static kept *compiled(const char *text, size_t len) {
  uint64_t h = fnv((const uint8_t *)text, len);
  for (int i = 0; i < KEPT; i++)
    if (g_kept[i].text && g_kept[i].hash == h && g_kept[i].len == len && !memcmp(g_kept[i].text, text, len))
      return &g_kept[i];
  kiln_program *p = NULL;
  kiln_status st = kiln_program_create(text, len, NULL, &p);
  if (st) {
    status_has_message(st, "a program error without a message");
    kiln_status_free(st);
    return NULL;
  }
  kept k = {.hash = h, .len = len, .text = malloc(len + 1), .f = {.struct_size = sizeof k.f}};
  if (!k.text) finding("out of memory", NULL);
  memcpy(k.text, text, len);
  kiln_source src = kiln_source_view("<input>", text, len, 1);
  st = kiln_program_find_function(p, "main", &k.f);
  if (!st) st = kiln_cli_function_type(&src, "main", &k.module, &k.ft);
  if (!st && (k.f.num_inputs > MAX_INPUTS || k.ft->func.num_inputs != k.f.num_inputs))
    st = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "not fuzzed: %d inputs", (int)k.f.num_inputs);
  kiln_compile_options co = {.struct_size = sizeof co, .function = "main"};
  if (!st) st = kiln_program_compile(p, kiln_client_device(g_interp, 0), &co, &k.x[0]);
  if (!st) {
    kiln_status cst = kiln_program_compile(p, kiln_client_device(g_cpu, 0), &co, &k.x[1]);
    if (cst && kiln_status_code_of(cst) != KILN_STATUS_RESOURCE_EXHAUSTED)
      finding("the interpreter compiles @main and the cpu device does not", cst);
    st = cst;
  }
  kiln_program_release(p);
  if (st) {
    status_has_message(st, "a compile error without a message");
    kiln_status_free(st);
    drop(&k);
    return NULL;
  }
  g_compiled++;
  kept *slot = &g_kept[g_next++ % KEPT];
  drop(slot);
  *slot = k;
  return slot;
}

/* Prints the counts, then releases everything, so that the plugins have unloaded by
 * LeakSanitizer's check at exit and what remains allocated is a leak. */
static void at_exit(void) {
  fprintf(stderr, "fuzz_sizes: %lu programs compiled on both devices, %lu runs compared, %lu runs refused by both\n",
          g_compiled, g_compared, g_refused);
  for (int i = 0; i < KEPT; i++) drop(&g_kept[i]);
  kiln_client_release(g_cpu);
  kiln_client_release(g_interp);
}

static const int64_t k_bad_values[6] = {-1, INT32_MIN, INT64_MIN, INT64_MAX, INT64_C(1) << 62, -(INT64_C(1) << 40)};

static int64_t dim_size(uint8_t b) { return b % 50; }
static int64_t dim_arg_value(uint8_t b) { return b < 250 ? b % 50 : k_bad_values[b - 250]; }

/* The interpreter's region calls per element are slow under ASan: a program at inputs of
 * more elements than this (a 45x112x112 max pool: 5 million window steps) would look like
 * a hang. Such sizes are not fuzzed. */
enum { MAX_INPUT_ELEMENTS = 1 << 15 };

/* @main's inputs on device at the sizes the header gives (the rule at the top); *out_skip
 * when they would hold more than MAX_INPUT_ELEMENTS elements (none are made). */
static kiln_status make_inputs(const kept *k, const uint8_t *hdr, kiln_device *device, kiln_buffer **in,
                               bool *out_skip) {
  const kiln_type *ft = k->ft;
  int32_t dim_args = kiln_cli_dim_arg_count(ft), sym = 0;
  bool agree = hdr[HEADER - 1] < 192;
  uint64_t seed = 0x73697a6573u;
  kiln_status st = NULL;
  int64_t total = 0;
  for (int32_t i = dim_args; i < ft->func.num_inputs; i++) {
    const kiln_type *t = ft->func.inputs[i];
    int64_t n = 1;
    for (int32_t d = 0; kiln_type_is_tensor(t) && d < t->tensor.rank && n <= MAX_INPUT_ELEMENTS; d++)
      n *= t->tensor.dims[d] != KILN_DIM_DYNAMIC ? t->tensor.dims[d] : dim_size(hdr[agree ? 0 : sym++ % HEADER]);
    total += n;
  }
  *out_skip = total > MAX_INPUT_ELEMENTS;
  sym = 0;
  for (int32_t i = 0; !st && !*out_skip && i < ft->func.num_inputs; i++) {
    const kiln_type *t = ft->func.inputs[i];
    if (i < dim_args) { /* integer scalars (kiln_cli_dim_arg_count) */
      st = kiln_cli_dim_arg(t, dim_arg_value(agree ? hdr[0] : hdr[(i + 1) % HEADER]), device, &in[i]);
      continue;
    }
    if (!kiln_type_is_tensor(t) || t->tensor.rank > 16) {
      st = kiln_cli_input_random(t, NULL, (int)i, &seed, device, &in[i]);
      continue;
    }
    int64_t dims[16];
    for (int32_t d = 0; d < t->tensor.rank; d++)
      dims[d] = t->tensor.dims[d] != KILN_DIM_DYNAMIC ? t->tensor.dims[d] : dim_size(hdr[agree ? 0 : sym++ % HEADER]);
    st = kiln_cli_input_random(t, dims, (int)i, &seed, device, &in[i]);
  }
  return st;
}

/* Runs executable x on device; *out gets the results (num_results of them) or the error. */
static kiln_status run(const kept *k, int which, kiln_device *device, const uint8_t *hdr, kiln_buffer **out,
                       bool *out_skip) {
  kiln_buffer *in[MAX_INPUTS] = {0};
  kiln_status st = make_inputs(k, hdr, device, in, out_skip);
  if (!st && !*out_skip) {
    kiln_event *done = NULL;
    kiln_execute_args ea = {sizeof ea, in, k->f.num_inputs, out, k->f.num_results, 0, NULL};
    st = kiln_executable_execute(k->x[which], &ea, &done);
    if (!st) st = kiln_event_wait(done);
    kiln_event_release(done);
  }
  for (int32_t i = 0; i < k->f.num_inputs; i++) kiln_buffer_release(in[i]);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size <= HEADER) return 0;
  kept *k = compiled((const char *)data + HEADER, size - HEADER);
  if (!k) return 0;
  int32_t nr = k->f.num_results;
  kiln_buffer **got[2] = {calloc((size_t)nr + 1, sizeof(kiln_buffer *)), calloc((size_t)nr + 1, sizeof(kiln_buffer *))};
  if (!got[0] || !got[1]) finding("out of memory", NULL);
  kiln_status st[2];
  bool skip = false;
  st[0] = run(k, 0, kiln_client_device(g_interp, 0), data, got[0], &skip);
  st[1] = skip ? NULL : run(k, 1, kiln_client_device(g_cpu, 0), data, got[1], &skip);
  for (int d = 0; d < 2; d++)
    if (st[d]) status_has_message(st[d], "a run error without a message");
  bool oom = (st[0] && kiln_status_code_of(st[0]) == KILN_STATUS_RESOURCE_EXHAUSTED) ||
             (st[1] && kiln_status_code_of(st[1]) == KILN_STATUS_RESOURCE_EXHAUSTED);
  if (!oom && !st[0] != !st[1]) finding(st[0] ? "interp fails a run that cpu completes" : "cpu fails a run that interp completes",
                                       st[0] ? st[0] : st[1]);
  if (st[0] && st[1]) g_refused++;
  if (!st[0] && !st[1] && !skip) {
    g_compared++;
    kiln_strbuf why = {0};
    for (int32_t i = 0; i < nr; i++) kiln_cli_results_agree(got[1][i], got[0][i], (int)i, &why);
    if (why.len) {
      fprintf(stderr, "fuzz_sizes: the devices disagree at sizes %u %u %u %u:\n%s", data[0], data[1], data[2], data[3],
              why.data);
      abort();
    }
    free(why.data);
  }
  for (int d = 0; d < 2; d++) {
    kiln_status_free(st[d]);
    for (int32_t i = 0; i < nr; i++) kiln_buffer_release(got[d][i]);
    free(got[d]);
  }
  return 0;
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  if (size > HEADER && seed % 4) { /* new sizes for the same program */
    data[(seed >> 2) % HEADER] = (uint8_t)(seed >> 8);
    return size;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
