/* Converts to and from the float formats the loop generator lacks, as native steps
 * (src/backends/cpu/native_convert.c), against the interpreter's rounding
 * (kiln_elem_float_to_bits of the value): from f32 to every format of one storage byte, at
 * every high half of an f32 with low halves 0, 1, 0x7fff, 0x8000 and 0xffff (the two
 * tables' split; NaNs, infinities, subnormals, ties and overflow among them); from each
 * such format to f32, f16 and bf16 at all 256 bit patterns; from f64 and bf16 to f8E4M3FN;
 * and no kernel for converts the loop generator makes (f32 to f16) or for integers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "expect.h"
#include "one_op.h"

/* The kernel of `convert : tensor<NxFROM> -> tensor<NxTO>` (NULL: none), its module kept in *m. */
static kiln_cpu_native *prepare(const char *from, const char *to, int64_t n, kiln_module **m) {
  char text[512];
  snprintf(text, sizeof text,
           "func.func @main(%%a: tensor<%lldx%s>) -> tensor<%lldx%s> {\n"
           "  %%0 = stablehlo.convert %%a : (tensor<%lldx%s>) -> tensor<%lldx%s>\n"
           "  return %%0 : tensor<%lldx%s>\n}\n",
           (long long)n, from, (long long)n, to, (long long)n, from, (long long)n, to, (long long)n, to);
  const kiln_op *op;
  kiln_cpu_native *k = NULL;
  kiln_status st = kiln_test_first_op("convert.mlir", text, m, &op);
  if (!st) st = kiln_cpu_convert_prepare(op, &k);
  EXPECT(!st, "%s -> %s: %s", from, to, st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  return k;
}

static const char *k_narrow[] = {"f4E2M1FN", "f6E2M3FN",     "f6E3M2FN",     "f8E3M4",      "f8E4M3",
                                 "f8E4M3FN", "f8E4M3FNUZ",   "f8E4M3B11FNUZ", "f8E5M2",     "f8E5M2FNUZ",
                                 "f8E8M0FNU"};
enum { LOWS = 5 };
static const uint32_t k_lows[LOWS] = {0, 1, 0x7fff, 0x8000, 0xffff};

static void test_from_f32(const char *name) {
  kiln_elem to;
  if (!kiln_elem_lookup(name, strlen(name), &to)) {
    EXPECT(false, "no element type %s", name);
    return;
  }
  int64_t n = (int64_t)LOWS << 16;
  kiln_module *m;
  kiln_cpu_native *k = prepare("f32", name, n, &m);
  uint32_t *in = malloc((size_t)n * sizeof *in);
  uint8_t *out = malloc((size_t)n);
  if (k && in && out) {
    for (int64_t i = 0; i < n; i++) in[i] = (uint32_t)(i % 65536) << 16 | k_lows[i / 65536];
    const void *ins[1] = {in};
    void *outs[1] = {out};
    kiln_status st = k->run(k, ins, outs);
    EXPECT(!st, "f32 -> %s ran", name);
    kiln_status_free(st);
    int64_t wrong = 0, first = -1;
    for (int64_t i = 0; i < n; i++) {
      float f;
      memcpy(&f, &in[i], sizeof f);
      if (out[i] != (uint8_t)kiln_elem_float_to_bits(to, (double)f) && !wrong++) first = i;
    }
    EXPECT(wrong == 0, "f32 -> %s: %lld of %lld differ from the interpreter's rounding (first: f32 bits 0x%08x)", name,
           (long long)wrong, (long long)n, first >= 0 ? in[first] : 0);
  }
  free(in);
  free(out);
  free(k); /* kiln_cpu_native_destroy's contract: one malloc'd block */
  kiln_module_destroy(m);
}

static void test_to_wide(const char *name, const char *wide_name) {
  kiln_elem from, wide;
  if (!kiln_elem_lookup(name, strlen(name), &from) || !kiln_elem_lookup(wide_name, strlen(wide_name), &wide)) return;
  kiln_module *m;
  kiln_cpu_native *k = prepare(name, wide_name, 256, &m);
  size_t wb = kiln_elem_storage_bytes(wide);
  uint8_t in[256], out[256 * 4];
  for (int i = 0; i < 256; i++) in[i] = (uint8_t)i;
  if (k) {
    const void *ins[1] = {in};
    void *outs[1] = {out};
    kiln_status_free(k->run(k, ins, outs));
    int wrong = 0;
    for (int i = 0; i < 256; i++) {
      uint64_t want = kiln_elem_float_to_bits(wide, kiln_elem_float_from_bits(from, (uint64_t)i)), got = 0;
      memcpy(&got, out + (size_t)i * wb, wb);
      wrong += got != want;
    }
    EXPECT(wrong == 0, "%s -> %s: %d of 256 bit patterns differ", name, wide_name, wrong);
  }
  free(k); /* kiln_cpu_native_destroy's contract: one malloc'd block */
  kiln_module_destroy(m);
}

/* Sources the tables do not serve: f64 (rounded per element) and bf16 (a table of all 65,536). */
static void test_other_sources(void) {
  kiln_elem e4;
  kiln_elem_lookup("f8E4M3FN", 8, &e4);
  double vals[] = {0.0, -0.0, 1.0, 448.0, 464.0, 480.0, -1e9, 0x1p-9, 0x1p-10, 0x1.8p-10, NAN, INFINITY, 3.14159, -2.5e-3};
  int64_t n = (int64_t)(sizeof vals / sizeof vals[0]);
  kiln_module *m;
  kiln_cpu_native *k = prepare("f64", "f8E4M3FN", n, &m);
  uint8_t out[16];
  if (k) {
    const void *ins[1] = {vals};
    void *outs[1] = {out};
    kiln_status_free(k->run(k, ins, outs));
    int wrong = 0;
    for (int64_t i = 0; i < n; i++) wrong += out[i] != (uint8_t)kiln_elem_float_to_bits(e4, vals[i]);
    EXPECT(wrong == 0, "f64 -> f8E4M3FN: %d of %lld differ", wrong, (long long)n);
  }
  free(k); /* kiln_cpu_native_destroy's contract: one malloc'd block */
  kiln_module_destroy(m);
  k = prepare("bf16", "f8E4M3FN", 65536, &m);
  uint16_t *in = malloc(65536 * sizeof *in);
  uint8_t *o = malloc(65536);
  if (k && in && o) {
    for (int i = 0; i < 65536; i++) in[i] = (uint16_t)i;
    const void *ins[1] = {in};
    void *outs[1] = {o};
    kiln_status_free(k->run(k, ins, outs));
    int wrong = 0;
    for (int i = 0; i < 65536; i++)
      wrong += o[i] != (uint8_t)kiln_elem_float_to_bits(e4, kiln_elem_float_from_bits(KILN_ELEM_BF16, (uint64_t)i));
    EXPECT(wrong == 0, "bf16 -> f8E4M3FN: %d of 65536 differ", wrong);
  }
  free(in);
  free(o);
  free(k); /* kiln_cpu_native_destroy's contract: one malloc'd block */
  kiln_module_destroy(m);
}

static void test_not_native(void) {
  const char *pairs[][2] = {{"f32", "f16"}, {"bf16", "f32"}, {"i32", "f8E4M3FN"}, {"f8E5M2", "i8"}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    kiln_module *m;
    kiln_cpu_native *k = prepare(pairs[i][0], pairs[i][1], 4, &m);
    EXPECT(k == NULL, "%s -> %s: no native kernel (the loop generator's, or the interpreter's)", pairs[i][0], pairs[i][1]);
    free(k); /* kiln_cpu_native_destroy's contract: one malloc'd block */
    kiln_module_destroy(m);
  }
}

int main(void) {
  for (size_t i = 0; i < sizeof k_narrow / sizeof k_narrow[0]; i++) {
    test_from_f32(k_narrow[i]);
    test_to_wide(k_narrow[i], "f32");
    test_to_wide(k_narrow[i], "f16");
    test_to_wide(k_narrow[i], "bf16");
  }
  test_other_sources();
  test_not_native();
  kiln_cpu_convert_release();
  return test_summary();
}
