/* The two exclusion tables of the harness, each entry with its reason: the op kinds it
 * cannot run as a standalone random program (every other op kind of ir/ops.def must be
 * exercised by at least one case: main.c checks it, so a new op cannot be forgotten), and
 * the cases a compiling device may leave to its interpreter (every other case must run
 * compiled code only: runner.c checks kiln_executable_stats_info.interpreted_ops). */
#include <string.h>

#include "harness.h"

#define COLLECTIVE "a collective: needs several replicas or partitions"
#define IO "host or channel I/O: no values to compare"
#define TEST_OP "a test op of the conformance material, not a computation"
#define SHARDY "a Shardy op: the partitioner rewrites it away before any backend (tests/spmd)"

static const char *const k_reasons[KILN_OP_COUNT] = {
    [KILN_OP_ALL_GATHER] = COLLECTIVE,
    [KILN_OP_ALL_REDUCE] = COLLECTIVE,
    [KILN_OP_ALL_TO_ALL] = COLLECTIVE,
    [KILN_OP_COLLECTIVE_BROADCAST] = COLLECTIVE,
    [KILN_OP_COLLECTIVE_PERMUTE] = COLLECTIVE,
    [KILN_OP_COLLECTIVE_REDUCE] = COLLECTIVE,
    [KILN_OP_CROSS_REPLICA_SUM] = COLLECTIVE,
    [KILN_OP_REDUCE_SCATTER] = COLLECTIVE,
    [KILN_OP_INFEED] = IO,
    [KILN_OP_OUTFEED] = IO,
    [KILN_OP_SEND] = IO,
    [KILN_OP_RECV] = IO,
    [KILN_OP_ASYNC_START] = "async wrappers return !stablehlo.future values, which no buffer holds",
    [KILN_OP_ASYNC_DONE] = "async wrappers return !stablehlo.future values, which no buffer holds",
    [KILN_OP_RNG] = "its random values are implementation-defined",
    [KILN_OP_CUSTOM_CALL] = "calls a target outside the program",
    [KILN_OP_CHECK_EQ] = TEST_OP,
    [KILN_OP_CHECK_EXPECT_ALMOST_EQ] = TEST_OP,
    [KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST] = TEST_OP,
    [KILN_OP_CHECK_EXPECT_CLOSE] = TEST_OP,
    [KILN_OP_CHECK_EXPECT_EQ] = TEST_OP,
    [KILN_OP_CHECK_EXPECT_EQ_CONST] = TEST_OP,
    [KILN_OP_CHECK_EXPECT_SERIALIZED_EQ] = TEST_OP,
    [KILN_OP_INTERPRETER_PRINT] = TEST_OP,
    [KILN_OP_INTERPRETER_PROBE] = TEST_OP,
    [KILN_OP_INTERPRETER_RUN_PARALLEL] = TEST_OP,
    [KILN_OP_SDY_MESH] = SHARDY,
    [KILN_OP_SDY_SHARDING_CONSTRAINT] = SHARDY,
    [KILN_OP_SDY_MANUAL_COMPUTATION] = SHARDY,
    [KILN_OP_SDY_RETURN] = SHARDY,
};

const char *kiln_diff_exclusion(kiln_op_kind op) {
  return (unsigned)op < KILN_OP_COUNT ? k_reasons[op] : NULL;
}

/* ---------------------------------------------------------------- interpreted cases */

/* Element type classes of a case (its arguments' and its label's types). */
enum {
  T_NARROW = 1u << 0,  /* f4, f6, f8 formats and tf32 */
  T_COMPLEX = 1u << 1,
  T_SUBBYTE = 1u << 2, /* i2, i4, ui2, ui4 */
  T_INT = 1u << 3,     /* integers other than i1 */
  T_I1 = 1u << 4,
  T_F64 = 1u << 5,
  T_BF16 = 1u << 6,
  T_F16 = 1u << 7,
  T_HALF = T_BF16 | T_F16,
  T_ANY = ~0u,
};

static unsigned elem_class(kiln_elem e) {
  if (kiln_elem_is_complex(e)) return T_COMPLEX;
  if (e == KILN_ELEM_I1) return T_I1;
  if (kiln_elem_is_int(e)) return kiln_elem_bits(e) < 8 ? T_SUBBYTE : T_INT;
  if (e == KILN_ELEM_F64) return T_F64;
  if (e == KILN_ELEM_BF16) return T_BF16;
  if (e == KILN_ELEM_F16) return T_F16;
  if (kiln_elem_is_float(e) && (kiln_elem_bits(e) < 16 || e == KILN_ELEM_TF32)) return T_NARROW;
  return 0;
}

static unsigned case_classes(const kiln_diff_case *c) {
  unsigned m = 0;
  for (int i = 0; i < c->num_args; i++) m |= elem_class(c->args[i].elem);
  for (const char *p = c->type_label; *p;) { /* "f32", "f32->i1", "-" */
    const char *end = strstr(p, "->");
    size_t n = end ? (size_t)(end - p) : strlen(p);
    kiln_elem e;
    if (kiln_elem_lookup(p, n, &e)) m |= elem_class(e);
    p += n + (end ? 2 : 0);
  }
  return m;
}

#define DYNAMIC "a dynamic-shape op: static programs have it refined away (refine_shapes.c); not compiled"
#define NO_CHLO "a CHLO op the cpu backend does not decompose: the interpreter runs its definition"
#define FOREIGN "a foreign op (arith, scf, tensor): JAX never emits it; not compiled"
#define DEPRECATED "a deprecated op JAX never emits: not compiled"
#define CX_MATH "a complex elementary function: llvm_math has no complex polynomials (the interpreter's complex_math.c runs it)"
#define TUPLES "tuples or tokens at the top level: the function runs whole in the interpreter"

/* op KILN_OP_COUNT: any op; variant: a part of the case's variant (NULL: any); types: the
 * case involves one of these classes. The first rule that matches gives the reason. */
static const struct interp_rule {
  kiln_op_kind op;
  const char *variant;
  unsigned types;
  const char *reason;
} k_interpreted[] = {
    {KILN_OP_COUNT, NULL, T_NARROW, "f4, f6, f8 and tf32 values: the loop generator has none of these formats"},
    {KILN_OP_COUNT, NULL, T_SUBBYTE, "2- and 4-bit integers: the loop generator has no sub-byte storage"},
    /* elementwise ops the loop generator lacks for some types */
    {KILN_OP_CHLO_MULHI, NULL, T_INT, NO_CHLO},
    {KILN_OP_EXPONENTIAL_MINUS_ONE, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_LOG, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_LOG_PLUS_ONE, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_LOGISTIC, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_SQRT, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_RSQRT, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CBRT, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_SINE, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_COSINE, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_TAN, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_TANH, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_POWER, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_ATAN2, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_ACOS, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_ACOSH, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_ASIN, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_ASINH, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_ATAN, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_ATANH, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_COSH, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_SINH, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_TAN, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_COMPARE, "TOTALORDER", T_F16, "an f16 TOTALORDER compare: f16 computes as f32, whose conversion quiets a signaling NaN"},
    {KILN_OP_DOT_GENERAL, NULL, T_I1, "an i1 dot_general: neither oneDNN nor a generated loop"},
    {KILN_OP_CONVOLUTION, NULL, T_I1, "an i1 convolution: neither oneDNN nor a generated loop"},
    {KILN_OP_CHOLESKY, NULL, T_HALF, "a bf16/f16 cholesky: LAPACK has no half-precision routine"},
    {KILN_OP_TRIANGULAR_SOLVE, NULL, T_HALF, "a bf16/f16 triangular_solve: LAPACK has no half-precision routine"},
    /* structured ops */
    {KILN_OP_CONVOLUTION, NULL, T_COMPLEX, "a complex convolution: neither oneDNN nor conv.c's generated loop (real types only)"},
    {KILN_OP_REDUCE_WINDOW, NULL, T_COMPLEX, "a complex reduce_window with padding or base dilation: window.c's kernels have no complex type"},
    {KILN_OP_SELECT_AND_SCATTER, NULL, T_COMPLEX, "a complex select_and_scatter: window.c's kernels have no complex type"},
    {KILN_OP_SORT, NULL, T_COMPLEX, "a sort of complex keys: sort.c orders real keys only"},
    /* JAX never emits stablehlo.map (jax.lax.map lowers to a while loop); compiling one
     * would mean inlining its region into the fusion as elementwise ops */
    {KILN_OP_MAP, NULL, T_ANY, "map (JAX never emits it): its region is not inlined into a fused loop"},
    {KILN_OP_RETURN, "map", T_ANY, "the return of a map's region (JAX never emits map): not compiled"},
    {KILN_OP_BATCH_NORM_GRAD, NULL, T_ANY, "batch norm ops (JAX never emits them): not decomposed"},
    {KILN_OP_BATCH_NORM_INFERENCE, NULL, T_ANY, "batch norm ops (JAX never emits them): not decomposed"},
    {KILN_OP_BATCH_NORM_TRAINING, NULL, T_ANY, "batch norm ops (JAX never emits them): not decomposed"},
    {KILN_OP_UNIFORM_QUANTIZE, NULL, T_ANY, "quantized values: the interpreter runs their ops"},
    {KILN_OP_UNIFORM_DEQUANTIZE, NULL, T_ANY, "quantized values: the interpreter runs their ops"},
    {KILN_OP_CHLO_RAGGED_DOT, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_SCAN, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_BESSEL_I1E, NULL, T_COMPLEX, CX_MATH},
    {KILN_OP_CHLO_NEXT_AFTER, NULL, T_HALF, "an f16/bf16 next_after: generated loops compute half types in f32, whose step is an f32 ULP"},
    {KILN_OP_CHLO_SQUARE, NULL, T_COMPLEX, NO_CHLO},
    {KILN_OP_DYNAMIC_BROADCAST_IN_DIM, NULL, T_ANY, DYNAMIC},
    {KILN_OP_DYNAMIC_CONV, NULL, T_ANY, DYNAMIC},
    {KILN_OP_DYNAMIC_GATHER, NULL, T_ANY, DYNAMIC},
    {KILN_OP_DYNAMIC_IOTA, NULL, T_ANY, DYNAMIC},
    {KILN_OP_DYNAMIC_PAD, NULL, T_ANY, DYNAMIC},
    {KILN_OP_DYNAMIC_RESHAPE, NULL, T_ANY, DYNAMIC},
    {KILN_OP_REAL_DYNAMIC_SLICE, NULL, T_ANY, DYNAMIC},
    {KILN_OP_GET_DIMENSION_SIZE, NULL, T_ANY, DYNAMIC},
    {KILN_OP_SET_DIMENSION_SIZE, NULL, T_ANY, DYNAMIC},
    {KILN_OP_TUPLE, NULL, T_ANY, TUPLES},
    {KILN_OP_GET_TUPLE_ELEMENT, NULL, T_ANY, TUPLES},
    {KILN_OP_CREATE_TOKEN, NULL, T_ANY, TUPLES},
    {KILN_OP_AFTER_ALL, NULL, T_ANY, TUPLES},
    {KILN_OP_BROADCAST, NULL, T_ANY, DEPRECATED},
    {KILN_OP_DOT, NULL, T_ANY, DEPRECATED},
    {KILN_OP_EINSUM, NULL, T_ANY, DEPRECATED},
    {KILN_OP_UNARY_EINSUM, NULL, T_ANY, DEPRECATED},
    {KILN_OP_TORCH_INDEX_SELECT, NULL, T_ANY, DEPRECATED},
    {KILN_OP_ARITH_ADDF, NULL, T_ANY, FOREIGN},
    {KILN_OP_ARITH_CONSTANT, NULL, T_ANY, FOREIGN},
    {KILN_OP_SCF_FOR, NULL, T_ANY, FOREIGN},
    {KILN_OP_SCF_YIELD, NULL, T_ANY, FOREIGN},
    {KILN_OP_TENSOR_INSERT, NULL, T_ANY, FOREIGN},
};

/* A convert between float types runs natively whatever the formats (native_convert.c):
 * the narrow formats' rule leaves it out. */
static bool float_convert(const kiln_diff_case *c, unsigned classes) {
  return c->op == KILN_OP_CONVERT && !(classes & ~(T_NARROW | T_F64 | T_HALF)); /* f32 has no class bit */
}

const char *kiln_diff_interpreted_reason(const kiln_diff_case *c) {
  unsigned classes = case_classes(c);
  for (size_t i = 0; i < sizeof k_interpreted / sizeof k_interpreted[0]; i++) {
    const struct interp_rule *r = &k_interpreted[i];
    if (r->types == T_NARROW && float_convert(c, classes)) continue;
    if (r->op != KILN_OP_COUNT && r->op != c->op) continue;
    if (r->variant && !strstr(c->variant, r->variant)) continue;
    if (r->types != T_ANY && !(classes & r->types)) continue;
    return r->reason;
  }
  return NULL;
}
