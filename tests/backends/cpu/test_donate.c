/* The cpu backend's reuse of donated inputs and its counted copies (src/backends/cpu/
 * donate.c, exec.c, control.c), through the public API: a result written in place over
 * a donated input (an elementwise loop, a dynamic_update_slice), handed over (the input
 * returned, or a view of it), or copied into it; the pairs argument attributes pick; the
 * cases that must not be made in place (a read after the write, a permuted or gathered
 * read) keep
 * their values; and the copies kiln_executable_stats counts: none for a while loop's
 * carried values, one for a scan's output buffer whatever the trip count, one per
 * dynamic_update_slice of an undonated operand; a loop's results stay the caller's
 * through later runs (the run state keeps loop state for the next runs, never those). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/api.h"

static kiln_device *g_device;

static kiln_executable *compile(const char *text) { return kiln_test_compile(g_device, text); }

static kiln_buffer *make(kiln_element_type type, int32_t rank, const int64_t *dims, const void *data, size_t bytes) {
  kiln_buffer_args a = {sizeof a, type, rank, dims, data, bytes};
  kiln_buffer *b = NULL;
  kiln_status st = kiln_buffer_create(g_device, &a, &b);
  EXPECT(!st, "buffer: %s", kiln_status_message(st));
  kiln_status_free(st);
  return b;
}

static kiln_buffer *vec(int64_t n, float base) {
  float *v = malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++) v[i] = base + (float)i;
  kiln_buffer *b = make(KILN_ELEMENT_TYPE_F32, 1, &n, v, (size_t)n * sizeof *v);
  free(v);
  return b;
}

static const void *address(const kiln_buffer *b) {
  const void *p = NULL;
  kiln_status_free(kiln_buffer_host_data(b, &p));
  return p;
}

static bool run(kiln_executable *x, kiln_buffer **in, int32_t ni, const bool *donate, kiln_buffer **out, int32_t no) {
  kiln_event *e = NULL;
  kiln_execute_args args = {sizeof args, in, ni, out, no, 0, donate};
  kiln_status st = kiln_executable_execute(x, &args, &e);
  if (!st) st = kiln_event_wait(e);
  EXPECT(!st, "run: %s", kiln_status_message(st));
  kiln_status_free(st);
  kiln_event_release(e);
  return !st;
}

/* Whether b (n f32) holds f(i) at every i. */
static bool values(kiln_buffer *b, int64_t n, float (*f)(int64_t)) {
  float *got = malloc((size_t)n * sizeof *got);
  kiln_status st = kiln_buffer_copy_to_host(b, got, (size_t)n * sizeof *got);
  bool ok = !st;
  for (int64_t i = 0; ok && i < n; i++) ok = got[i] == f(i);
  if (!ok) printf("  element mismatch or error: %s\n", kiln_status_message(st));
  kiln_status_free(st);
  free(got);
  return ok;
}

enum { N = 1000 }; /* elements: larger than a vector, with a tail */

static float plus_one(int64_t i) { return (float)i + 1; }
static float twice(int64_t i) { return 2 * (float)i; }
static float reversed(int64_t i) { return (float)(N - 1 - i) + (float)i; }
static float ident(int64_t i) { return (float)i; }
static float hundred(int64_t i) { return 100 + (float)i; }

/* An elementwise result written over its donated operand; undonated, a new buffer. */
static void test_in_place(void) {
  kiln_executable *x = compile("func.func @main(%a: tensor<1000xf32>) -> tensor<1000xf32> {\n"
                               "  %c = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
                               "  %0 = stablehlo.add %a, %c : tensor<1000xf32>\n"
                               "  return %0 : tensor<1000xf32>\n}\n");
  kiln_buffer *a = vec(N, 0), *r = NULL;
  const void *pa = address(a);
  bool yes = true;
  if (run(x, &a, 1, NULL, &r, 1))
    EXPECT(address(r) != pa && values(r, N, plus_one) && values(a, N, ident), "undonated: a new buffer, the input kept");
  kiln_buffer_release(r);
  if (run(x, &a, 1, &yes, &r, 1))
    EXPECT(address(r) == pa && values(r, N, plus_one), "donated: the result is written in the input's memory");
  EXPECT(kiln_buffer_is_donated(a), "consumed");
  kiln_buffer_release(a);
  kiln_buffer_release(r);
  kiln_executable_release(x);
}

/* What must not be written in place keeps its values: a reversed read, and an input read
 * by a later step (the second result takes it instead). */
static void test_not_in_place(void) {
  kiln_executable *x = compile("func.func @main(%a: tensor<1000xf32>) -> tensor<1000xf32> {\n"
                               "  %r = stablehlo.reverse %a, dims = [0] : tensor<1000xf32>\n"
                               "  %0 = stablehlo.add %a, %r : tensor<1000xf32>\n"
                               "  return %0 : tensor<1000xf32>\n}\n");
  kiln_buffer *a = vec(N, 0), *r = NULL;
  const void *pa = address(a);
  bool yes = true;
  if (run(x, &a, 1, &yes, &r, 1)) EXPECT(address(r) != pa && values(r, N, reversed), "a reversed read: not in place");
  kiln_buffer_release(a);
  kiln_buffer_release(r);
  kiln_executable_release(x);

  /* the same read as a gather of single elements (a loop reading at computed indices) */
  x = compile("func.func @main(%a: tensor<1000xf32>) -> tensor<1000xf32> {\n"
              "  %i = stablehlo.iota dim = 0 : tensor<1000xi32>\n"
              "  %n = stablehlo.constant dense<999> : tensor<1000xi32>\n"
              "  %k = stablehlo.subtract %n, %i : tensor<1000xi32>\n"
              "  %g = \"stablehlo.gather\"(%a, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], "
              "start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : "
              "(tensor<1000xf32>, tensor<1000xi32>) -> tensor<1000xf32>\n"
              "  %0 = stablehlo.add %g, %a : tensor<1000xf32>\n"
              "  return %0 : tensor<1000xf32>\n}\n");
  a = vec(N, 0);
  pa = address(a);
  if (run(x, &a, 1, &yes, &r, 1)) EXPECT(address(r) != pa && values(r, N, reversed), "a gathered read: not in place");
  kiln_buffer_release(a);
  kiln_buffer_release(r);
  kiln_executable_release(x);

  x = compile("func.func @main(%a: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {\n"
              "  %c = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
              "  %0 = stablehlo.add %a, %c : tensor<1000xf32>\n"
              "  %1 = stablehlo.add %a, %a : tensor<1000xf32>\n"
              "  %2 = \"stablehlo.sort\"(%1) ({\n"
              "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
              "    %lt = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
              "    stablehlo.return %lt : tensor<i1>\n"
              "  }) {dimension = 0 : i64} : (tensor<1000xf32>) -> tensor<1000xf32>\n"
              "  return %0, %2 : tensor<1000xf32>, tensor<1000xf32>\n}\n");
  kiln_buffer *rr[2] = {NULL, NULL};
  a = vec(N, 0);
  pa = address(a);
  if (run(x, &a, 1, &yes, rr, 2))
    EXPECT(values(rr[0], N, plus_one) && values(rr[1], N, twice) && address(rr[0]) != pa && address(rr[1]) == pa,
           "a read after the first result's step: the later result takes the input");
  kiln_buffer_release(a);
  kiln_buffer_release(rr[0]);
  kiln_buffer_release(rr[1]);
  kiln_executable_release(x);
}

/* The input returned (MOVE, here through a reshape) or another input copied into it
 * (COPY); tf.aliasing_output picks which result takes which input. */
static void test_move_copy_attrs(void) {
  kiln_executable *x = compile("func.func @main(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> "
                               "(tensor<1000xf32>, tensor<10x100xf32>) {\n"
                               "  %0 = stablehlo.reshape %a : (tensor<1000xf32>) -> tensor<10x100xf32>\n"
                               "  return %b, %0 : tensor<1000xf32>, tensor<10x100xf32>\n}\n");
  kiln_buffer *in[2] = {vec(N, 0), vec(N, 100)}, *r[2] = {NULL, NULL};
  const void *pa = address(in[0]), *pb = address(in[1]);
  bool both[2] = {true, true};
  if (run(x, in, 2, both, r, 2)) {
    EXPECT(address(r[0]) == pb && values(r[0], N, hundred), "b handed over as the result it is");
    EXPECT(address(r[1]) == pa && kiln_buffer_rank(r[1]) == 2 && kiln_buffer_dims(r[1])[0] == 10 && values(r[1], N, ident),
           "a handed over as its reshape");
  }
  for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]), kiln_buffer_release(r[i]);
  kiln_executable_release(x);

  x = compile("func.func @main(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {\n"
              "  return %b : tensor<1000xf32>\n}\n");
  in[0] = vec(N, 0), in[1] = vec(N, 100);
  pa = address(in[0]);
  bool first[2] = {true, false};
  if (run(x, in, 2, first, r, 1))
    EXPECT(address(r[0]) == pa && values(r[0], N, hundred) && values(in[1], N, hundred), "b copied into donated a");
  kiln_executable_stats_info s = kiln_test_stats(x);
  EXPECT(s.copies == 1 && s.copy_bytes == 4 * N, "that copy counted (%llu)", (unsigned long long)s.copies);
  for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]);
  kiln_buffer_release(r[0]);
  r[0] = NULL;
  kiln_executable_release(x);

  x = compile("func.func @main(%a: tensor<1000xf32> {tf.aliasing_output = 1 : i32}, %b: tensor<1000xf32>) -> "
              "(tensor<1000xf32>, tensor<1000xf32>) {\n"
              "  %0 = stablehlo.add %a, %b : tensor<1000xf32>\n"
              "  %1 = stablehlo.add %a, %a : tensor<1000xf32>\n"
              "  return %0, %1 : tensor<1000xf32>, tensor<1000xf32>\n}\n");
  in[0] = vec(N, 0), in[1] = vec(N, 0);
  pa = address(in[0]);
  if (run(x, in, 2, first, r, 2))
    EXPECT(address(r[1]) == pa && address(r[0]) != pa && values(r[0], N, twice) && values(r[1], N, twice),
           "tf.aliasing_output = 1: result #1 takes input #0");
  for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]), kiln_buffer_release(r[i]);
  kiln_executable_release(x);
}

static float updated(int64_t i) { return i >= 10 && i < 12 ? 7 : (float)i; }

/* dynamic_update_slice of a donated operand updates it in place: no copy counted. */
static void test_update_slice(void) {
  kiln_executable *x = compile("func.func @main(%a: tensor<1000xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> "
                               "tensor<1000xf32> {\n"
                               "  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<1000xf32>, tensor<2xf32>, "
                               "tensor<i32>) -> tensor<1000xf32>\n"
                               "  return %0 : tensor<1000xf32>\n}\n");
  float u[2] = {7, 7};
  int32_t at = 10;
  int64_t two = 2;
  kiln_buffer *in[3] = {vec(N, 0), make(KILN_ELEMENT_TYPE_F32, 1, &two, u, sizeof u),
                        make(KILN_ELEMENT_TYPE_S32, 0, NULL, &at, sizeof at)}, *r = NULL;
  bool donate[3] = {true, false, false};
  if (run(x, in, 3, NULL, &r, 1)) EXPECT(values(r, N, updated), "undonated update");
  kiln_executable_stats_info s = kiln_test_stats(x);
  EXPECT(s.copies == 1 && s.copy_bytes == 4 * N, "undonated: the operand copied once (%llu copies, %llu bytes)",
         (unsigned long long)s.copies, (unsigned long long)s.copy_bytes);
  kiln_buffer_release(r);
  const void *pa = address(in[0]);
  if (run(x, in, 3, donate, &r, 1)) EXPECT(address(r) == pa && values(r, N, updated), "donated: updated in place");
  s = kiln_test_stats(x);
  EXPECT(s.copies == 1, "no copy for the donated run (%llu in all)", (unsigned long long)s.copies);
  for (int i = 0; i < 3; i++) kiln_buffer_release(in[i]);
  kiln_buffer_release(r);
  kiln_executable_release(x);
}

static float twice_updated(int64_t i) { return 2 * updated(i); }
static float updated_plus(int64_t i) { return updated(i) + (float)i; }

/* The sorted input (a step of its own, so its result is a temporary of the arena),
 * then `use` of it, then `tail`: the program of test_temporaries. */
static kiln_executable *over_sorted(const char *use, const char *tail) {
  char text[2048];
  snprintf(text, sizeof text,
           "func.func @main(%%a: tensor<1000xf32>) -> tensor<1000xf32> {\n"
           "  %%s = \"stablehlo.sort\"(%%a) ({\n"
           "  ^bb0(%%p: tensor<f32>, %%q: tensor<f32>):\n"
           "    %%lt = stablehlo.compare LT, %%p, %%q : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
           "    stablehlo.return %%lt : tensor<i1>\n"
           "  }) {dimension = 0 : i64} : (tensor<1000xf32>) -> tensor<1000xf32>\n"
           "%s%s  return %%r : tensor<1000xf32>\n}\n",
           use, tail);
  return compile(text);
}

static const char k_scatter_7[] =
    "  %i = stablehlo.constant dense<[[10], [11]]> : tensor<2x1xi32>\n"
    "  %u7 = stablehlo.constant dense<7.0> : tensor<2xf32>\n"
    "  %0 = \"stablehlo.scatter\"(%s, %i, %u7) ({\n"
    "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
    "    stablehlo.return %y : tensor<f32>\n"
    "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
    "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1000xf32>, tensor<2x1xi32>, tensor<2xf32>) "
    "-> tensor<1000xf32>\n";

/* Temporaries written over (donate.c: kiln_cpu_plan_in_place): an elementwise loop over a
 * temporary that dies with it shares its buffer (the arena holds one tensor, not two); a
 * scatter of such a temporary updates it instead of copying it; a reversed read, or the
 * temporary read again later, keep two buffers and the copy, and every value. */
static void test_temporaries(void) {
  static const char sort_again[] =
      "  %r = \"stablehlo.sort\"(%0) ({\n"
      "  ^bb0(%p2: tensor<f32>, %q2: tensor<f32>):\n"
      "    %lt2 = stablehlo.compare LT, %p2, %q2 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %lt2 : tensor<i1>\n"
      "  }) {dimension = 0 : i64} : (tensor<1000xf32>) -> tensor<1000xf32>\n";
  struct {
    const char *what, *use, *tail;
    float (*want)(int64_t);
    bool shared;     /* the two tensors in one buffer */
    uint64_t copies; /* per run */
  } cases[] = {
      {"an add over the sorted temporary", "  %c = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
       "  %0 = stablehlo.add %s, %c : tensor<1000xf32>\n", sort_again, plus_one, true, 0},
      {"a reversed read of it", "  %v = stablehlo.reverse %s, dims = [0] : tensor<1000xf32>\n"
       "  %0 = stablehlo.add %s, %v : tensor<1000xf32>\n", sort_again, reversed, false, 0},
      {"a scatter into it", k_scatter_7, "  %r = stablehlo.add %0, %0 : tensor<1000xf32>\n", twice_updated, true, 0},
      {"a scatter into it, read again after", k_scatter_7, "  %r = stablehlo.add %0, %s : tensor<1000xf32>\n",
       updated_plus, false, 1},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    kiln_executable *x = over_sorted(cases[c].use, cases[c].tail);
    if (!x) continue;
    kiln_buffer *a = vec(N, 0), *r = NULL;
    for (int k = 0; k < 2; k++) { /* twice: the first run's and a later one's */
      if (run(x, &a, 1, NULL, &r, 1)) EXPECT(values(r, N, cases[c].want), "%s: run %d's values", cases[c].what, k);
      kiln_buffer_release(r);
      r = NULL;
    }
    kiln_executable_stats_info s = kiln_test_stats(x);
    bool shared = s.temporary_bytes < 2 * 4 * N;
    EXPECT(shared == cases[c].shared && s.copies == 2 * cases[c].copies,
           "%s: temporaries %llu bytes (%s), %llu copies in two runs", cases[c].what,
           (unsigned long long)s.temporary_bytes, cases[c].shared ? "one tensor" : "two", (unsigned long long)s.copies);
    kiln_buffer_release(a);
    kiln_executable_release(x);
  }
}

/* A returned reshape of a temporary: the temporary is made in the result's buffer (no
 * temporary, no copy, the result in the reshape's shape); returned beside the temporary
 * itself, one of the two is copied; a reshape of an input is copied (the input stays the
 * caller's). */
static void test_reshaped_results(void) {
  static const char add[] = "  %t = stablehlo.add %a, %a : tensor<1000xf32>\n"
                            "  %v = stablehlo.reshape %t : (tensor<1000xf32>) -> tensor<10x100xf32>\n";
  struct {
    const char *what, *results, *body, *returns;
    int32_t n;
    uint64_t copies, temporaries; /* per run; bytes */
  } cases[] = {
      {"a reshape of a temporary", "tensor<10x100xf32>", add, "%v : tensor<10x100xf32>", 1, 0, 0},
      {"it and the temporary", "tensor<10x100xf32>, tensor<1000xf32>", add, "%v, %t : tensor<10x100xf32>, tensor<1000xf32>",
       2, 1, 0},
      {"a reshape of the input", "tensor<10x100xf32>", "  %v = stablehlo.reshape %a : (tensor<1000xf32>) -> tensor<10x100xf32>\n",
       "%v : tensor<10x100xf32>", 1, 1, 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    char text[1024];
    snprintf(text, sizeof text, "func.func @main(%%a: tensor<1000xf32>) -> (%s) {\n%s  return %s\n}\n", cases[c].results,
             cases[c].body, cases[c].returns);
    kiln_executable *x = compile(text);
    if (!x) continue;
    kiln_buffer *a = vec(N, 0), *r[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
      if (run(x, &a, 1, NULL, r, cases[c].n)) {
        bool doubled = cases[c].body == add;
        EXPECT(values(r[0], N, doubled ? twice : ident) && (cases[c].n < 2 || values(r[1], N, twice)),
               "%s: run %d's values", cases[c].what, k);
        EXPECT(kiln_buffer_rank(r[0]) == 2 && kiln_buffer_dims(r[0])[0] == 10 && kiln_buffer_dims(r[0])[1] == 100,
               "%s: the result has the reshape's shape", cases[c].what);
      }
      for (int32_t i = 0; i < 2; i++) kiln_buffer_release(r[i]), r[i] = NULL;
    }
    kiln_executable_stats_info s = kiln_test_stats(x);
    EXPECT(s.copies == 2 * cases[c].copies && s.temporary_bytes == cases[c].temporaries,
           "%s: %llu copies in two runs (%llu expected), temporaries %llu bytes", cases[c].what,
           (unsigned long long)s.copies, (unsigned long long)(2 * cases[c].copies), (unsigned long long)s.temporary_bytes);
    kiln_buffer_release(a);
    kiln_executable_release(x);
  }
}

/* A while loop carrying a counter, an accumulator and a table it reads rows of: the body
 * makes the counter and the accumulator anew, the table is invariant; nothing is copied,
 * however many iterations (the loop starts on the operands' tensors, and the table's
 * result is dead). */
static const char k_carry[] =
    "func.func @main(%init: tensor<1000xf32>, %xs: tensor<8x1000xf32>, %n: tensor<i32>) -> tensor<1000xf32> {\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %r:3 = stablehlo.while(%i = %c0, %c = %init, %t = %xs) : tensor<i32>, tensor<1000xf32>, tensor<8x1000xf32>\n"
    "  cond {\n"
    "    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %lt : tensor<i1>\n"
    "  } do {\n"
    "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %row = stablehlo.dynamic_slice %t, %i, %z, sizes = [1, 1000] : (tensor<8x1000xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1000xf32>\n"
    "    %v = stablehlo.reshape %row : (tensor<1x1000xf32>) -> tensor<1000xf32>\n"
    "    %c2 = stablehlo.add %c, %v : tensor<1000xf32>\n"
    "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
    "    stablehlo.return %i2, %c2, %t : tensor<i32>, tensor<1000xf32>, tensor<8x1000xf32>\n"
    "  }\n"
    "  return %r#1 : tensor<1000xf32>\n}\n";

/* A scan: the carry, and the output buffer each iteration writes one row of (updated in
 * place). The buffer starts as a copy of its zeros (one copy per run, whatever the trip
 * count); the carry is never copied. */
static const char k_scan[] =
    "func.func @main(%init: tensor<1000xf32>, %n: tensor<i32>) -> (tensor<1000xf32>, tensor<8x1000xf32>) {\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<8x1000xf32>\n"
    "  %r:3 = stablehlo.while(%i = %c0, %c = %init, %ys = %zero) : tensor<i32>, tensor<1000xf32>, tensor<8x1000xf32>\n"
    "  cond {\n"
    "    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %lt : tensor<i1>\n"
    "  } do {\n"
    "    %one = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
    "    %c2 = stablehlo.add %c, %one : tensor<1000xf32>\n"
    "    %row = stablehlo.reshape %c2 : (tensor<1000xf32>) -> tensor<1x1000xf32>\n"
    "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %ys2 = stablehlo.dynamic_update_slice %ys, %row, %i, %z : (tensor<8x1000xf32>, tensor<1x1000xf32>, tensor<i32>, tensor<i32>) -> tensor<8x1000xf32>\n"
    "    %k = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %i2 = stablehlo.add %i, %k : tensor<i32>\n"
    "    stablehlo.return %i2, %c2, %ys2 : tensor<i32>, tensor<1000xf32>, tensor<8x1000xf32>\n"
    "  }\n"
    "  return %r#1, %r#2 : tensor<1000xf32>, tensor<8x1000xf32>\n}\n";

static int32_t g_trips;
static float carried_sum(int64_t i) { /* init i plus rows t*1000 + i for t < trips */
  float s = (float)i;
  for (int32_t t = 0; t < g_trips; t++) s += (float)(t * 1000 + i);
  return s;
}
static float carried_count(int64_t i) { return (float)i + (float)g_trips; }
static float scanned(int64_t j) { /* row t holds init + t + 1 for t < trips, else 0 */
  int64_t t = j / N, i = j % N;
  return t < g_trips ? (float)i + (float)(t + 1) : 0;
}

static void test_loop_copies(void) {
  kiln_executable *x = compile(k_carry);
  int64_t dims[2] = {8, N};
  float *rows = malloc(8 * N * sizeof *rows);
  for (int64_t j = 0; j < 8 * N; j++) rows[j] = (float)j;
  for (g_trips = 0; x && g_trips <= 8; g_trips += 4) {
    kiln_buffer *in[3] = {vec(N, 0), make(KILN_ELEMENT_TYPE_F32, 2, dims, rows, 8 * N * sizeof *rows),
                          make(KILN_ELEMENT_TYPE_S32, 0, NULL, &g_trips, sizeof g_trips)}, *r = NULL;
    if (run(x, in, 3, NULL, &r, 1)) EXPECT(values(r, N, carried_sum), "%d trips: the carried sum", (int)g_trips);
    kiln_executable_stats_info s = kiln_test_stats(x);
    /* no iteration: the result is the operand's tensor, copied out once */
    uint64_t want = g_trips == 0 ? 1 : 0;
    EXPECT(s.copies == want, "%d trips: %llu copies counted for the carried values, %llu expected", (int)g_trips,
           (unsigned long long)s.copies, (unsigned long long)want);
    kiln_buffer_release(r);
    for (int i = 0; i < 3; i++) kiln_buffer_release(in[i]);
    kiln_executable_release(x);
    x = compile(k_carry); /* fresh figures */
  }
  kiln_executable_release(x);
  free(rows);

  x = compile(k_scan);
  uint64_t runs = 0;
  for (g_trips = 1; x && g_trips <= 8; g_trips += 7) {
    kiln_buffer *in[2] = {vec(N, 0), make(KILN_ELEMENT_TYPE_S32, 0, NULL, &g_trips, sizeof g_trips)}, *r[2] = {NULL, NULL};
    if (run(x, in, 2, NULL, r, 2))
      EXPECT(values(r[0], N, carried_count) && values(r[1], 8 * N, scanned), "scan of %d trips", (int)g_trips);
    runs++;
    kiln_executable_stats_info s = kiln_test_stats(x);
    EXPECT(s.copies == runs && s.copy_bytes == runs * 8 * N * 4,
           "scan: one copy of the output buffer per run (%llu copies, %llu bytes after %llu runs)",
           (unsigned long long)s.copies, (unsigned long long)s.copy_bytes, (unsigned long long)runs);
    for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]), kiln_buffer_release(r[i]);
  }
  kiln_executable_release(x);
}

/* The loop state and results a run state keeps for the next runs (its bin) never include
 * a result the caller holds: each run's results keep their values through the runs after
 * it, trip counts changing from run to run. */
static void test_results_kept(void) {
  kiln_executable *x = compile(k_scan);
  kiln_buffer *r[9][2] = {{NULL}};
  for (int32_t t = 1; x && t <= 8; t++) {
    kiln_buffer *in[2] = {vec(N, 0), make(KILN_ELEMENT_TYPE_S32, 0, NULL, &t, sizeof t)};
    run(x, in, 2, NULL, r[t], 2);
    for (int i = 0; i < 2; i++) kiln_buffer_release(in[i]);
  }
  for (g_trips = 1; x && g_trips <= 8; g_trips++)
    EXPECT(r[g_trips][0] && r[g_trips][1] && values(r[g_trips][0], N, carried_count) && values(r[g_trips][1], 8 * N, scanned),
           "the results of the run of %d trips, after the later runs", (int)g_trips);
  for (int32_t t = 0; t <= 8; t++) kiln_buffer_release(r[t][0]), kiln_buffer_release(r[t][1]);
  kiln_executable_release(x);
}

int main(void) {
  kiln_client *client = kiln_test_cpu_client();
  if (!client) return 1;
  g_device = kiln_client_device(client, 0);
  test_in_place();
  test_not_in_place();
  test_move_copy_attrs();
  test_update_slice();
  test_temporaries();
  test_reshaped_results();
  test_loop_copies();
  test_results_kept();
  kiln_client_release(client);
  return test_summary();
}
