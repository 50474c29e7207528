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
  T_HALF = 1u << 6,    /* bf16, f16 */
  T_ANY = ~0u,
};

static unsigned elem_class(kiln_elem e) {
  if (kiln_elem_is_complex(e)) return T_COMPLEX;
  if (e == KILN_ELEM_I1) return T_I1;
  if (kiln_elem_is_int(e)) return kiln_elem_bits(e) < 8 ? T_SUBBYTE : T_INT;
  if (e == KILN_ELEM_F64) return T_F64;
  if (e == KILN_ELEM_BF16 || e == KILN_ELEM_F16) return T_HALF;
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
    {KILN_OP_COUNT, NULL, T_COMPLEX, "complex values: the loop generator has no complex arithmetic"},
    {KILN_OP_COUNT, NULL, T_SUBBYTE, "2- and 4-bit integers: the loop generator has no sub-byte storage"},
    /* elementwise ops the loop generator lacks for some types */
    {KILN_OP_REMAINDER, NULL, T_ANY, "remainder: not generated"},
    {KILN_OP_DIVIDE, NULL, T_INT, "integer division (its division by zero and overflow rules): not generated"},
    {KILN_OP_POWER, NULL, T_INT, "integer power: not generated"},
    {KILN_OP_CHLO_MULHI, NULL, T_INT, NO_CHLO},
    {KILN_OP_SINE, NULL, T_F64, "f64 sine: no f64 polynomial in llvm_math"},
    {KILN_OP_COSINE, NULL, T_F64, "f64 cosine: no f64 polynomial in llvm_math"},
    {KILN_OP_TAN, NULL, T_F64, "f64 tan: no f64 polynomial in llvm_math"},
    {KILN_OP_COMPARE, "TOTALORDER", T_ANY, "a TOTALORDER compare: not generated"},
    {KILN_OP_REDUCE_PRECISION, NULL, T_ANY, "reduce_precision: not generated"},
    {KILN_OP_REAL, NULL, T_ANY, "real of a real tensor: not generated"},
    {KILN_OP_IMAG, NULL, T_ANY, "imag of a real tensor: not generated"},
    {KILN_OP_DOT_GENERAL, NULL, T_I1, "an i1 dot_general: neither oneDNN nor a generated loop"},
    {KILN_OP_CONVOLUTION, NULL, T_I1, "an i1 convolution: neither oneDNN nor a generated loop"},
    {KILN_OP_CHOLESKY, NULL, T_HALF, "a bf16/f16 cholesky: LAPACK has no half-precision routine"},
    {KILN_OP_TRIANGULAR_SOLVE, NULL, T_HALF, "a bf16/f16 triangular_solve: LAPACK has no half-precision routine"},
    /* structured ops */
    {KILN_OP_MAP, NULL, T_ANY, "map: its region is not compiled"},
    {KILN_OP_RETURN, "map", T_ANY, "the return of a map's region: not compiled"},
    {KILN_OP_RNG_BIT_GENERATOR, NULL, T_ANY, "rng_bit_generator: not compiled"},
    {KILN_OP_OPTIMIZATION_BARRIER, NULL, T_ANY, "optimization_barrier: not compiled"},
    {KILN_OP_BATCH_NORM_GRAD, NULL, T_ANY, "batch norm ops (JAX never emits them): not decomposed"},
    {KILN_OP_BATCH_NORM_INFERENCE, NULL, T_ANY, "batch norm ops (JAX never emits them): not decomposed"},
    {KILN_OP_BATCH_NORM_TRAINING, NULL, T_ANY, "batch norm ops (JAX never emits them): not decomposed"},
    {KILN_OP_UNIFORM_QUANTIZE, NULL, T_ANY, "quantized values: the interpreter runs their ops"},
    {KILN_OP_UNIFORM_DEQUANTIZE, NULL, T_ANY, "quantized values: the interpreter runs their ops"},
    {KILN_OP_REPLICA_ID, NULL, T_ANY, "replica_id: not compiled"},
    {KILN_OP_PARTITION_ID, NULL, T_ANY, "partition_id: not compiled"},
    {KILN_OP_CHLO_TOP_K, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_RAGGED_DOT, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_SCAN, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_BESSEL_I1E, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_DIGAMMA, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_ERF, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_ERF_INV, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_ERFC, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_LGAMMA, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_NEXT_AFTER, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_SQUARE, NULL, T_ANY, NO_CHLO},
    {KILN_OP_CHLO_TAN, NULL, T_F64, NO_CHLO},
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

const char *kiln_diff_interpreted_reason(const kiln_diff_case *c) {
  unsigned classes = case_classes(c);
  for (size_t i = 0; i < sizeof k_interpreted / sizeof k_interpreted[0]; i++) {
    const struct interp_rule *r = &k_interpreted[i];
    if (r->op != KILN_OP_COUNT && r->op != c->op) continue;
    if (r->variant && !strstr(c->variant, r->variant)) continue;
    if (r->types != T_ANY && !(classes & r->types)) continue;
    return r->reason;
  }
  return NULL;
}
