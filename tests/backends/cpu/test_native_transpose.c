/* Transposes as native steps (src/backends/cpu/native_transpose.c) against a transpose
 * computed here element by element from the permutation: every element width (1, 2, 4,
 * 8 and 16 bytes: the register transposes of 4 and 8 and the element copies of the
 * others), lengths that are not multiples of the register blocks or tiles, batches, dims
 * of size 1 among the others, dims that merge, ranks up to 5; and no kernel where the
 * innermost dim stays innermost (whole rows) or the tensor is small. Each element holds
 * its own index in the input, so any element put in the wrong place is seen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "expect.h"
#include "one_op.h"

enum { MAX_R = 8 };

/* The kernel of `transpose %a, dims = perm` of a tensor<dims x elem> (NULL: none). */
static kiln_cpu_native *prepare(const char *elem, int32_t rank, const int64_t *dims, const int64_t *perm, kiln_module **m) {
  char in[128] = "", out[128] = "", pl[64] = "", text[1024];
  for (int32_t d = 0; d < rank; d++) {
    snprintf(in + strlen(in), sizeof in - strlen(in), "%lldx", (long long)dims[d]);
    snprintf(out + strlen(out), sizeof out - strlen(out), "%lldx", (long long)dims[perm[d]]);
    snprintf(pl + strlen(pl), sizeof pl - strlen(pl), "%s%lld", d ? ", " : "", (long long)perm[d]);
  }
  snprintf(text, sizeof text,
           "func.func @main(%%a: tensor<%s%s>) -> tensor<%s%s> {\n"
           "  %%0 = stablehlo.transpose %%a, dims = [%s] : (tensor<%s%s>) -> tensor<%s%s>\n"
           "  return %%0 : tensor<%s%s>\n}\n",
           in, elem, out, elem, pl, in, elem, out, elem, out, elem);
  const kiln_op *op;
  kiln_cpu_native *k = NULL;
  kiln_status st = kiln_test_first_op("transpose.mlir", text, m, &op);
  if (!st) st = kiln_cpu_transpose_prepare(op, &k);
  EXPECT(!st, "transpose of %s%s: %s", in, elem, st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  return k;
}

/* Runs the transpose of tensor<dims x elem> (eb bytes an element) by perm and compares;
 * expect_kernel says whether a kernel should be made at all. */
static void check(const char *elem, size_t eb, int32_t rank, const int64_t *dims, const int64_t *perm, bool expect_kernel) {
  kiln_module *m;
  kiln_cpu_native *k = prepare(elem, rank, dims, perm, &m);
  EXPECT((k != NULL) == expect_kernel, "%s rank %d (%lld x ...): a kernel %s", elem, (int)rank, (long long)dims[0],
         expect_kernel ? "expected" : "not expected");
  int64_t n = 1, in_stride[MAX_R], odims[MAX_R];
  for (int32_t d = rank - 1; d >= 0; d--) in_stride[d] = n, n *= dims[d];
  for (int32_t d = 0; d < rank; d++) odims[d] = dims[perm[d]];
  uint8_t *in = malloc((size_t)n * eb), *out = malloc((size_t)n * eb);
  if (k && in && out) {
    for (int64_t i = 0; i < n; i++) /* each element its index, in all its bytes (wider ones repeat it) */
      for (size_t b = 0; b < eb; b++) in[(size_t)i * eb + b] = (uint8_t)((uint64_t)i >> (8 * (b % 8)));
    memset(out, 0xa5, (size_t)n * eb);
    const void *ins[1] = {in};
    void *outs[1] = {out};
    kiln_status st = k->run(k, ins, outs);
    EXPECT(!st, "%s transpose ran", elem);
    kiln_status_free(st);
    int64_t wrong = 0, first = -1, idx[MAX_R] = {0};
    for (int64_t o = 0; o < n; o++) { /* idx: o's indices in the result */
      int64_t from = 0;
      for (int32_t d = 0; d < rank; d++) from += idx[d] * in_stride[perm[d]];
      if (memcmp(out + (size_t)o * eb, in + (size_t)from * eb, eb) && !wrong++) first = o;
      for (int32_t d = rank - 1; d >= 0 && ++idx[d] == odims[d]; d--) idx[d] = 0;
    }
    EXPECT(wrong == 0, "%s rank %d (%lld x ...): %lld of %lld elements misplaced (first: result element %lld)", elem,
           (int)rank, (long long)dims[0], (long long)wrong, (long long)n, (long long)first);
  }
  free(in);
  free(out);
  free(k); /* kiln_cpu_native_destroy's contract: one malloc'd block */
  kiln_module_destroy(m);
}

typedef struct shape_case {
  int32_t rank;
  int64_t dims[MAX_R], perm[MAX_R];
  bool kernel; /* for 4-byte elements */
} shape_case;

static const shape_case k_shapes[] = {
    {2, {64, 300}, {1, 0}, true},                 /* tails of the 8 x 8 blocks and 32-wide tiles */
    {2, {517, 33}, {1, 0}, true},                 /* odd both ways */
    {2, {256, 256}, {1, 0}, true},                /* whole blocks */
    {3, {3, 50, 70}, {0, 2, 1}, true},            /* a batch of matrices */
    {3, {50, 3, 70}, {2, 1, 0}, true},            /* the batch dim in the middle */
    {4, {2, 24, 9, 13}, {0, 2, 3, 1}, true},      /* NCHW -> NHWC: H and W merge */
    {4, {2, 9, 13, 24}, {0, 3, 1, 2}, true},      /* NHWC -> NCHW */
    {4, {1, 130, 1, 33}, {3, 1, 2, 0}, true},     /* dims of 1 dropped */
    {5, {4, 5, 6, 7, 8}, {4, 0, 3, 1, 2}, true},  /* several batch dims */
    {5, {2, 3, 40, 5, 6}, {3, 4, 2, 0, 1}, true}, /* pairs that merge on both sides */
    {3, {40, 30, 20}, {1, 0, 2}, false},          /* the innermost stays: whole rows */
    {2, {16, 8}, {1, 0}, false},                  /* small: a loop */
};

int main(void) {
  static const struct {
    const char *elem;
    size_t eb;
  } k_elems[] = {{"i8", 1}, {"bf16", 2}, {"f32", 4}, {"i32", 4}, {"f64", 8}, {"complex<f32>", 8}, {"complex<f64>", 16}};
  for (size_t e = 0; e < sizeof k_elems / sizeof k_elems[0]; e++)
    for (size_t s = 0; s < sizeof k_shapes / sizeof k_shapes[0]; s++) {
      const shape_case *c = &k_shapes[s];
      int64_t n = 1;
      for (int32_t d = 0; d < c->rank; d++) n *= c->dims[d];
      /* the kernel is for 16 KiB and more (MIN_BYTES) */
      bool kernel = c->kernel && n * (int64_t)k_elems[e].eb >= 16 * 1024;
      check(k_elems[e].elem, k_elems[e].eb, c->rank, c->dims, c->perm, kernel);
    }
  return test_summary();
}
