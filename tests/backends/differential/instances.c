/* The instances of the structured ops: shape ops, reductions, linear algebra and control
 * flow, each with non-trivial attributes. One row per instance (see kiln_diff_instance in
 * harness.h); the regions are shared text. Rows whose text is a whole body name the op
 * they stand for; ops used along the way (constants, returns) are covered by rows of
 * their own. */
#include "harness.h"

/* ---------------------------------------------------------------- shared text */

#define ATTR_DIR(D) "comparison_direction = #stablehlo<comparison_direction " D ">"
#define RET(V, T) "\"stablehlo.return\"(" V ") : (" T ") -> ()"
/* Regions (without the parentheses of the region list). A region of two scalars of $T combined by OP. */
#define REGION2(OP)                                                                        \
  "{\n  ^bb0(%x: tensor<$T>, %y: tensor<$T>):\n    %s = \"" OP                              \
  "\"(%x, %y) : (tensor<$T>, tensor<$T>) -> tensor<$T>\n    " RET("%s", "tensor<$T>") "\n  }"
#define REGION_ADD REGION2("stablehlo.add")
#define REGION_MAX REGION2("stablehlo.maximum")
/* A region returning the second of two scalars (replace). */
#define REGION_SECOND "{\n  ^bb0(%x: tensor<$T>, %y: tensor<$T>):\n    " RET("%y", "tensor<$T>") "\n  }"
#define COMPARE_BODY(D, ARGS)                                                                   \
  "{\n  ^bb0(" ARGS "):\n    %p = \"stablehlo.compare\"(%x, %y) {" ATTR_DIR(D)                  \
  "} : (tensor<$T>, tensor<$T>) -> tensor<i1>\n    " RET("%p", "tensor<i1>") "\n  }"
#define TWO_T "%x: tensor<$T>, %y: tensor<$T>"
/* jnp.argmax's region (D = GT; argmin's: LT): the better value, NaN first, ties to the
 * lower index; over (value $T, index i32) pairs. */
#define CMP(R, D, A, B, T) "    " R " = \"stablehlo.compare\"(" A ", " B ") {" ATTR_DIR(D) "} : (" T ", " T ") -> tensor<i1>\n"
#define BOOL2(R, OP, A, B) "    " R " = \"stablehlo." OP "\"(" A ", " B ") : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
#define ARG_BEST(D)                                                                                     \
  "{\n  ^bb0(%x: tensor<$T>, %i: tensor<i32>, %y: tensor<$T>, %j: tensor<i32>):\n"                      \
  CMP("%g", D, "%x", "%y", "tensor<$T>") CMP("%n", "NE", "%x", "%x", "tensor<$T>") BOOL2("%o", "or", "%g", "%n") \
  CMP("%e", "EQ", "%x", "%y", "tensor<$T>") CMP("%l", "LT", "%i", "%j", "tensor<i32>") BOOL2("%a", "and", "%e", "%l") \
  BOOL2("%p", "or", "%o", "%a")                                                                          \
  "    %s = \"stablehlo.select\"(%o, %x, %y) : (tensor<i1>, tensor<$T>, tensor<$T>) -> tensor<$T>\n"     \
  "    %t = \"stablehlo.select\"(%p, %i, %j) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>\n"  \
  "    " RET("%s, %t", "tensor<$T>, tensor<i32>") "\n  }"

#define DOT_DIMS(LB, RB, LC, RC)                                                         \
  "{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [" LB               \
  "], rhs_batching_dimensions = [" RB "], lhs_contracting_dimensions = [" LC             \
  "], rhs_contracting_dimensions = [" RC "]>}"
#define CONV_NHWC "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"
#define GROUPS(F, B) "feature_group_count = " #F " : i64, batch_group_count = " #B " : i64"
#define GATHER_DIMS(OFF, COLL, MAP)                                                                    \
  "dimension_numbers = #stablehlo.gather<offset_dims = [" OFF "], collapsed_slice_dims = [" COLL       \
  "], start_index_map = [" MAP "], index_vector_dim = 1>"
#define SCATTER_DIMS(UPD, INS, MAP)                                                                     \
  "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [" UPD                          \
  "], inserted_window_dims = [" INS "], scatter_dims_to_operand_dims = [" MAP "], index_vector_dim = 1>"
/* Every field: batching dims and index_vector_dim too. */
#define GATHER_ALL(OFF, COLL, OB, IB, MAP, IVD, SIZES)                                                  \
  "{dimension_numbers = #stablehlo.gather<offset_dims = [" OFF "], collapsed_slice_dims = [" COLL      \
  "], operand_batching_dims = [" OB "], start_indices_batching_dims = [" IB "], start_index_map = ["   \
  MAP "], index_vector_dim = " IVD ">, slice_sizes = array<i64: " SIZES ">}"
#define SCATTER_ALL(UPD, INS, IB, SIB, MAP, IVD)                                                        \
  "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [" UPD "], inserted_window_dims = [" \
  INS "], input_batching_dims = [" IB "], scatter_indices_batching_dims = [" SIB                        \
  "], scatter_dims_to_operand_dims = [" MAP "], index_vector_dim = " IVD ">"
#define REGION_FIRST "{\n  ^bb0(%x: tensor<$T>, %y: tensor<$T>):\n    " RET("%x", "tensor<$T>") "\n  }"
/* A scatter of 6 rows of 3 into 5 rows, indices repeated and some outside, combined by REGION. */
#define SCATTER_ROWS(REGION) "(" REGION ")" " {" SCATTER_DIMS("1", "0", "0") "}"
#define ROWS_ARGS "5x3x$T; 6x1xi32@-2:6; 6x3x$T"

/* A module-level callee and the body that calls it (func.call, composite). */
#define CALLEE                                                                             \
  "func.func private @callee(%x: tensor<3x5x$T>, %y: tensor<3x5x$T>) -> tensor<3x5x$T> {\n" \
  "  %m = \"stablehlo.maximum\"(%x, %y) : (tensor<3x5x$T>, tensor<3x5x$T>) -> tensor<3x5x$T>\n" \
  "  func.return %m : tensor<3x5x$T>\n}"
#define IDENTITY_BODY "  %r0 = \"stablehlo.reshape\"(%a0) : (tensor<3x$T>) -> tensor<3x$T>"
#define MAP_TEXT "(" REGION_MAX ") {dimensions = array<i64: 0, 1>}"
#define MAP_BODY \
  "  %r0 = \"stablehlo.map\"(%a0, %a1) " MAP_TEXT " : (tensor<3x5x$T>, tensor<3x5x$T>) -> tensor<3x5x$T>"
#define TUPLE_BODY                                                                                    \
  "  %t = \"stablehlo.tuple\"(%a0, %a1) : (tensor<3x$T>, tensor<2xi32>) -> tuple<tensor<3x$T>, tensor<2xi32>>\n" \
  "  %r0 = \"stablehlo.get_tuple_element\"(%t) {index = 0 : i32} : (tuple<tensor<3x$T>, tensor<2xi32>>) -> tensor<3x$T>\n" \
  "  %r1 = \"stablehlo.get_tuple_element\"(%t) {index = 1 : i32} : (tuple<tensor<3x$T>, tensor<2xi32>>) -> tensor<2xi32>"
#define TOKEN_BODY                                                                 \
  "  %r1 = \"stablehlo.create_token\"() : () -> !stablehlo.token\n"               \
  "  %r0 = \"stablehlo.after_all\"(%r1, %r1) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token"
#define QUANT "!quant.uniform<i8:$T, 0.1:3>"
#define QUANT_BODY                                                                                   \
  "  %q = \"stablehlo.uniform_quantize\"(%a0) : (tensor<3x5x$T>) -> tensor<3x5x" QUANT ">\n"        \
  "  %r0 = \"stablehlo.uniform_dequantize\"(%q) : (tensor<3x5x" QUANT ">) -> tensor<3x5x$T>"
#define WHILE_BODY                                                                                      \
  "  %r0, %r1 = \"stablehlo.while\"(%a0, %a1) ({\n  ^bb0(%x: tensor<4x$T>, %i: tensor<i32>):\n"          \
  "    %n = \"stablehlo.constant\"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>\n"              \
  "    %p = \"stablehlo.compare\"(%i, %n) {" ATTR_DIR("LT") "} : (tensor<i32>, tensor<i32>) -> tensor<i1>\n" \
  "    " RET("%p", "tensor<i1>") "\n  }, {\n  ^bb0(%x: tensor<4x$T>, %i: tensor<i32>):\n"                   \
  "    %one = \"stablehlo.constant\"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>\n"            \
  "    %j = \"stablehlo.add\"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"                    \
  "    %y = \"stablehlo.add\"(%x, %x) : (tensor<4x$T>, tensor<4x$T>) -> tensor<4x$T>\n"                   \
  "    \"stablehlo.return\"(%y, %j) : (tensor<4x$T>, tensor<i32>) -> ()\n"                                \
  "  }) : (tensor<4x$T>, tensor<i32>) -> (tensor<4x$T>, tensor<i32>)"
#define BRANCH(V) "{\n    " RET(V, "tensor<3x$T>") "\n  }"
#define SCAN_BODY                                                                                  \
  "  %r0, %r1 = chlo.scan(%a0) inits(%a1) dimension=1 {\n  ^bb0(%x: tensor<2x$T>, %c: tensor<2x$T>):\n" \
  "    %s = stablehlo.add %x, %c : tensor<2x$T>\n    stablehlo.return %s, %s : tensor<2x$T>, tensor<2x$T>\n" \
  "  } : (tensor<2x3x$T>, tensor<2x$T>) -> (tensor<2x3x$T>, tensor<2x$T>)"
#define SCF_BODY                                                                              \
  "  %lo = arith.constant 0 : index\n  %hi = arith.constant 3 : index\n  %st = arith.constant 1 : index\n" \
  "  %r0 = scf.for %i = %lo to %hi step %st iter_args(%x = %a0) -> (tensor<3x$T>) {\n"         \
  "    %y = \"stablehlo.maximum\"(%x, %a1) : (tensor<3x$T>, tensor<3x$T>) -> tensor<3x$T>\n"    \
  "    scf.yield %y : tensor<3x$T>\n  }"
/* The lower triangle of a 2x4x4 batch (cholesky leaves the other one unspecified). */
#define LOWER4 "[[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]"
#define CHOLESKY_BODY                                                                                   \
  "  %c = \"stablehlo.cholesky\"(%a0) {lower = true} : (tensor<2x4x4x$T>) -> tensor<2x4x4x$T>\n"          \
  "  %m = \"stablehlo.constant\"() {value = dense<[" LOWER4 ", " LOWER4 "]> : tensor<2x4x4xi1>} : () -> tensor<2x4x4xi1>\n" \
  "  %z = \"stablehlo.constant\"() {value = dense<0.0> : tensor<2x4x4x$T>} : () -> tensor<2x4x4x$T>\n"    \
  "  %r0 = \"stablehlo.select\"(%m, %c, %z) : (tensor<2x4x4xi1>, tensor<2x4x4x$T>, tensor<2x4x4x$T>) -> tensor<2x4x4x$T>"
#define TRI(LEFT, LOWER, TRANS) \
  "{left_side = " LEFT ", lower = " LOWER ", unit_diagonal = false, transpose_a = #stablehlo<transpose " TRANS ">}"
#define SHAPE_CONST(NAME, VALS, N) \
  "  " NAME " = \"stablehlo.constant\"() {value = dense<" VALS "> : tensor<" #N "xi64>} : () -> tensor<" #N "xi64>\n"

/* jnp.logaddexp's region (jax.lax.cumlogsumexp's): max + log1p(exp(-|x - y|)), x + y where
 * x - y is NaN (equal infinities, NaN). */
#define LOGADDEXP(T)                                                                                   \
  "{\n  ^bb0(%x: tensor<" T ">, %y: tensor<" T ">):\n"                                                 \
  "    %m = \"stablehlo.maximum\"(%x, %y) : (tensor<" T ">, tensor<" T ">) -> tensor<" T ">\n"           \
  "    %d = \"stablehlo.subtract\"(%x, %y) : (tensor<" T ">, tensor<" T ">) -> tensor<" T ">\n"          \
  "    %u = \"stablehlo.compare\"(%d, %d) {" ATTR_DIR("NE") "} : (tensor<" T ">, tensor<" T ">) -> tensor<i1>\n" \
  "    %s = \"stablehlo.add\"(%x, %y) : (tensor<" T ">, tensor<" T ">) -> tensor<" T ">\n"               \
  "    %a = \"stablehlo.abs\"(%d) : (tensor<" T ">) -> tensor<" T ">\n"                                  \
  "    %g = \"stablehlo.negate\"(%a) : (tensor<" T ">) -> tensor<" T ">\n"                               \
  "    %e = \"stablehlo.exponential\"(%g) : (tensor<" T ">) -> tensor<" T ">\n"                          \
  "    %l = \"stablehlo.log_plus_one\"(%e) : (tensor<" T ">) -> tensor<" T ">\n"                         \
  "    %v = \"stablehlo.add\"(%m, %l) : (tensor<" T ">, tensor<" T ">) -> tensor<" T ">\n"               \
  "    %w = \"stablehlo.select\"(%u, %s, %v) : (tensor<i1>, tensor<" T ">, tensor<" T ">) -> tensor<" T ">\n" \
  "    " RET("%w", "tensor<" T ">") "\n  }"
#define RW(WIN, STR, PAD, MORE) \
  " {window_dimensions = array<i64: " WIN ">, window_strides = array<i64: " STR ">, padding = dense<" PAD "> : tensor<" MORE

/* ---------------------------------------------------------------- the table */

const kiln_diff_instance kiln_diff_instances[] = {
    /* structure: every program has a function and a return; these rows name them */
    {KILN_OP_MODULE, "identity", "3x$T", "3x$T", IDENTITY_BODY, 0, 0, KILN_DIFF_BODY | KILN_DIFF_MODULE, 0},
    {KILN_OP_FUNC, "identity", "3x$T", "3x$T", IDENTITY_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_FUNC_RETURN, "identity", "3x$T", "3x$T", IDENTITY_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_RETURN, "map", "3x5x$T; 3x5x$T", "3x5x$T", MAP_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_CALL, "", "3x5x$T; 3x5x$T", "3x5x$T",
     "  %r0 = func.call @callee(%a0, %a1) : (tensor<3x5x$T>, tensor<3x5x$T>) -> tensor<3x5x$T>", 0, 0, KILN_DIFF_BODY,
     CALLEE},
    {KILN_OP_COMPOSITE, "", "3x5x$T; 3x5x$T", "3x5x$T", "{name = \"kiln.max\", decomposition = @callee}", 0, 0, 0,
     CALLEE},

    /* shape ops */
    {KILN_OP_BROADCAST_IN_DIM, "dims=[1,2]", "3x1x$T", "2x3x5x$T", "{broadcast_dimensions = array<i64: 1, 2>}", 0, 0, 0, 0},
    {KILN_OP_BROADCAST_IN_DIM, "scalar", "$T", "3x5x$T", "{broadcast_dimensions = array<i64>}", 0, 0, 0, 0},
    {KILN_OP_BROADCAST_IN_DIM, "empty", "0x$T", "2x0x$T", "{broadcast_dimensions = array<i64: 1>}", 0, 0, 0, 0},
    {KILN_OP_BROADCAST, "", "3x$T", "2x4x3x$T", "{broadcast_sizes = array<i64: 2, 4>}", 0, 0, 0, 0},
    {KILN_OP_TRANSPOSE, "perm=[2,0,1]", "2x3x4x$T", "4x2x3x$T", "{permutation = array<i64: 2, 0, 1>}", 0, 0, 0, 0},
    {KILN_OP_TRANSPOSE, "perm=[1,0]", "17x33x$T", "33x17x$T", "{permutation = array<i64: 1, 0>}", 0, 0, 0, 0},
    {KILN_OP_RESHAPE, "", "2x3x4x$T", "6x4x$T", "", 0, 0, 0, 0},
    {KILN_OP_RESHAPE, "empty", "0x$T", "0x5x$T", "", 0, 0, 0, 0},
    {KILN_OP_SLICE, "strides=[3,5]", "17x33x$T", "5x6x$T",
     "{start_indices = array<i64: 1, 2>, limit_indices = array<i64: 16, 30>, strides = array<i64: 3, 5>}", 0, 0, 0, 0},
    {KILN_OP_SLICE, "3d", "2x3x4x$T", "2x2x2x$T",
     "{start_indices = array<i64: 0, 1, 1>, limit_indices = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>}", 0, 0, 0, 0},
    {KILN_OP_DYNAMIC_SLICE, "clamped starts", "5x7x$T; i32@-2:8; i32@-2:8", "2x3x$T", "{slice_sizes = array<i64: 2, 3>}", 0, 0, 0, 0},
    {KILN_OP_DYNAMIC_UPDATE_SLICE, "clamped starts", "5x7x$T; 2x3x$T; i32@-2:8; i32@-2:8", "5x7x$T", "", 0, 0, 0, 0},
    {KILN_OP_PAD, "negative and interior", "3x5x$T; $T", "8x12x$T",
     "{edge_padding_low = array<i64: 1, -1>, edge_padding_high = array<i64: 2, 0>, interior_padding = array<i64: 1, 2>}", 0, 0, 0, 0},
    /* interleaving (interior 1 along the rows: the cpu kernel's vectorised spread), cut at the start */
    {KILN_OP_PAD, "interleaved rows", "3x37x$T; $T", "4x74x$T",
     "{edge_padding_low = array<i64: 1, -1>, edge_padding_high = array<i64: 0, 2>, interior_padding = array<i64: 0, 1>}", 0, 0, 0, 0},
    /* unpadded trailing dims (merged into longer rows by the cpu kernel) under an interior */
    {KILN_OP_PAD, "unpadded tail", "4x3x5x1x2x$T; $T", "8x6x5x1x2x$T",
     "{edge_padding_low = array<i64: 0, 1, -1, 0, 0>, edge_padding_high = array<i64: 1, 2, 1, 0, 0>, "
     "interior_padding = array<i64: 1, 0, 0, 0, 0>}", 0, 0, 0, 0},
    {KILN_OP_CONCATENATE, "dim=1", "3x5x$T; 3x2x$T", "3x7x$T", "{dimension = 1 : i64}", 0, 0, 0, 0},
    {KILN_OP_CONCATENATE, "dim=0 with empty", "0x5x$T; 3x5x$T; 1x5x$T", "4x5x$T", "{dimension = 0 : i64}", 0, 0, 0, 0},
    {KILN_OP_CONCATENATE, "middle dim of three", "2x3x4x$T; 2x1x4x$T; 2x5x4x$T", "2x9x4x$T", "{dimension = 1 : i64}", 0, 0, 0, 0},
    {KILN_OP_CONCATENATE, "large, last dim", "64x300x$T; 64x1000x$T", "64x1300x$T", "{dimension = 1 : i64}", 0, 0, 0, 0},
    {KILN_OP_CONCATENATE, "stack of three", "1000x1x$T; 1000x1x$T; 1000x1x$T", "1000x3x$T", "{dimension = 1 : i64}", 0, 0, 0, 0},
    {KILN_OP_CONCATENATE, "stack of five, rank 1", "1x$T; 1x$T; 1x$T; 1x$T; 1x$T", "5x$T", "{dimension = 0 : i64}", 0, 0, 0, 0},
    /* bitcast_convert between widths: the last dim split or joined */
    {KILN_OP_BITCAST_CONVERT, "into bytes", "3x5x$T", "3x5x4xui8", "", 0, 0, 0, 0},
    {KILN_OP_BITCAST_CONVERT, "16 bits into bytes", "7x$T", "7x2xsi8", "", 0, 0, 0, 0},
    {KILN_OP_BITCAST_CONVERT, "bytes joined", "3x5x4xui8", "3x5x$T", "", 0, 0, 0, 0},
    {KILN_OP_BITCAST_CONVERT, "halves", "4x$T", "4x2xf32", "", 0, 0, 0, 0},
    {KILN_OP_BITCAST_CONVERT, "halves joined", "4x2xsi32", "4x$T", "", 0, 0, 0, 0},
    {KILN_OP_REVERSE, "dims=[0,2]", "2x3x4x$T", "2x3x4x$T", "{dimensions = array<i64: 0, 2>}", 0, 0, 0, 0},
    {KILN_OP_IOTA, "dim=1", "", "3x5x$T", "{iota_dimension = 1 : i64}", 0, 0, 0, 0},
    {KILN_OP_GET_DIMENSION_SIZE, "", "3x5x$T", "i32", "{dimension = 1 : i64}", 0, 0, 0, 0},
    {KILN_OP_CLAMP, "scalar bounds", "$T; 3x5x$T; $T", "3x5x$T", "", 0, 0, 0, 0},
    {KILN_OP_CONSTANT, "int", "", "3x$T", "{value = dense<[1, 0, 3]> : tensor<3x$T>}", 0, 0, 0, 0},
    {KILN_OP_CONSTANT, "float", "", "3x$T", "{value = dense<[1.5, -0.0, 3.0]> : tensor<3x$T>}", 0, 0, 0, 0},
    {KILN_OP_CONSTANT, "bool", "", "3x$T", "{value = dense<[true, false, true]> : tensor<3x$T>}", 0, 0, 0, 0},
    {KILN_OP_CONSTANT, "complex", "", "2x$T", "{value = dense<[(1.5, -2.0), (0.0, 1.0)]> : tensor<2x$T>}", 0, 0, 0, 0},
    {KILN_OP_TUPLE, "", "3x$T; 2xi32", "3x$T; 2xi32", TUPLE_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_GET_TUPLE_ELEMENT, "", "3x$T; 2xi32", "3x$T; 2xi32", TUPLE_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_OPTIMIZATION_BARRIER, "", "3x5x$T; 2xi32", "3x5x$T; 2xi32", "", 0, 0, 0, 0},
    {KILN_OP_CREATE_TOKEN, "", "", "token; token", TOKEN_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_AFTER_ALL, "", "", "token; token", TOKEN_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_PARTITION_ID, "", "", "ui32", "", 0, 0, 0, 0},
    {KILN_OP_REPLICA_ID, "", "", "ui32", "", 0, 0, 0, 0},
    {KILN_OP_UNIFORM_QUANTIZE, "i8 scale 0.1 zero 3", "3x5x$T@-20:20", "3x5x$T", QUANT_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_UNIFORM_DEQUANTIZE, "i8 scale 0.1 zero 3", "3x5x$T@-20:20", "3x5x$T", QUANT_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_RNG_BIT_GENERATOR, "THREE_FRY", "2xui64", "2xui64; 3x5x$T",
     "{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}", 0, 0, 0, 0},
    {KILN_OP_RNG_BIT_GENERATOR, "PHILOX", "3xui64", "3xui64; 3x5x$T", "{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}", 0, 0, 0, 0},
    {KILN_OP_TORCH_INDEX_SELECT, "", "5x3x$T; 4xi32@0:4", "4x3x$T", "{dim = 0 : i64, batch_dims = 0 : i64}", 0, 0, 0, 0},
    {KILN_OP_CHLO_TOP_K, "k=4", "3x7x$T", "3x4x$T; 3x4xi32", "{k = 4 : i64}", 0, 0, 0, 0},

    /* shape ops with shape operands (constants matching the static result types) */
    {KILN_OP_DYNAMIC_BROADCAST_IN_DIM, "", "3x1x$T", "2x3x5x$T",
     SHAPE_CONST("%s", "[2, 3, 5]", 3) "  %r0 = \"stablehlo.dynamic_broadcast_in_dim\"(%a0, %s) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<3x1x$T>, tensor<3xi64>) -> tensor<2x3x5x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_DYNAMIC_RESHAPE, "", "2x3x4x$T", "6x4x$T",
     SHAPE_CONST("%s", "[6, 4]", 2) "  %r0 = \"stablehlo.dynamic_reshape\"(%a0, %s) : (tensor<2x3x4x$T>, tensor<2xi64>) -> tensor<6x4x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_DYNAMIC_IOTA, "dim=0", "", "3x5x$T",
     SHAPE_CONST("%s", "[3, 5]", 2) "  %r0 = \"stablehlo.dynamic_iota\"(%s) {iota_dimension = 0 : i64} : (tensor<2xi64>) -> tensor<3x5x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_DYNAMIC_PAD, "", "3x5x$T; $T", "8x12x$T",
     SHAPE_CONST("%l", "[1, -1]", 2) SHAPE_CONST("%h", "[2, 0]", 2) SHAPE_CONST("%i", "[1, 2]", 2)
     "  %r0 = \"stablehlo.dynamic_pad\"(%a0, %a1, %l, %h, %i) : (tensor<3x5x$T>, tensor<$T>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<8x12x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_REAL_DYNAMIC_SLICE, "", "17x33x$T", "5x6x$T",
     SHAPE_CONST("%b", "[1, 2]", 2) SHAPE_CONST("%e", "[16, 30]", 2) SHAPE_CONST("%s", "[3, 5]", 2)
     "  %r0 = \"stablehlo.real_dynamic_slice\"(%a0, %b, %e, %s) : (tensor<17x33x$T>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x6x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_SET_DIMENSION_SIZE, "", "3x5x$T", "3x5x$T",
     "  %n = \"stablehlo.constant\"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>\n"
     "  %r0 = \"stablehlo.set_dimension_size\"(%a0, %n) {dimension = 0 : i64} : (tensor<3x5x$T>, tensor<i32>) -> tensor<3x5x$T>",
     0, 0, KILN_DIFF_BODY, 0},

    /* gather and scatter */
    {KILN_OP_GATHER, "rows", "5x7x$T; 3x1xi32@-1:6", "3x7x$T",
     "{" GATHER_DIMS("1", "0", "0") ", slice_sizes = array<i64: 1, 7>}", 0, 0, 0, 0},
    {KILN_OP_GATHER, "points", "5x7x$T; 4x2xi32@-1:8", "4x$T",
     "{" GATHER_DIMS("", "0, 1", "0, 1") ", slice_sizes = array<i64: 1, 1>}", 0, 0, 0, 0},
    {KILN_OP_GATHER, "windows", "5x7x$T; 2x2xi32@-1:8", "2x2x3x$T",
     "{" GATHER_DIMS("1, 2", "", "0, 1") ", slice_sizes = array<i64: 2, 3>}", 0, 0, 0, 0},
    {KILN_OP_DYNAMIC_GATHER, "rows", "5x7x$T; 3x1xi32@-1:6", "3x7x$T",
     "  %z = \"stablehlo.constant\"() {value = dense<[1, 7]> : tensor<2xi32>} : () -> tensor<2xi32>\n"
     "  %r0 = \"stablehlo.dynamic_gather\"(%a0, %a1, %z) {" GATHER_DIMS("1", "0", "0")
     "} : (tensor<5x7x$T>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x7x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_SCATTER, "add rows, repeated indices", "5x3x$T; 4x1xi32@-1:5; 4x3x$T", "5x3x$T",
     "(" REGION_ADD ")" " {" SCATTER_DIMS("1", "0", "0") "}", 5, 0, 0, 0},
    {KILN_OP_SCATTER, "replace points", "5x3x$T; 3x$T", "5x3x$T",
     "  %i = \"stablehlo.constant\"() {value = dense<[[0, 1], [4, 2], [2, 0]]> : tensor<3x2xi32>} : () -> tensor<3x2xi32>\n"
     "  %r0 = \"stablehlo.scatter\"(%a0, %i, %a1) " "(" REGION_SECOND ")" " {" SCATTER_DIMS("", "0, 1", "0, 1")
     "} : (tensor<5x3x$T>, tensor<3x2xi32>, tensor<3x$T>) -> tensor<5x3x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    /* every dimension-number form: index vectors of several entries, index_vector_dim
     * first or in the middle, batching dims, partial windows clamped (gather) or partly
     * outside (scatter, skipped element by element), index types of every kind */
    {KILN_OP_GATHER, "axis 1 (x[:, i])", "5x7x$T; 4x1xi32@-2:9", "5x4x$T", GATHER_ALL("0", "1", "", "", "1", "1", "5, 1"), 0, 0, 0, 0},
    {KILN_OP_GATHER, "index_vector_dim 1 of 3, offset dim between", "5x7x6x$T; 3x2x4xi64@-3:9", "3x6x4x$T",
     GATHER_ALL("1", "0, 1", "", "", "1, 0", "1", "1, 1, 6"), 0, 0, 0, 0},
    {KILN_OP_GATHER, "batching dims (vmap of x[i])", "4x5x6x$T; 4x3x1xi32@-1:6", "4x3x6x$T",
     GATHER_ALL("2", "1", "0", "0", "1", "2", "1, 1, 6"), 0, 0, 0, 0},
    {KILN_OP_GATHER, "batching dim 1, points (take_along_axis)", "5x4x$T; 3x4x1xui8@0:7", "3x4x$T",
     GATHER_ALL("", "0", "1", "1", "0", "2", "1, 1"), 0, 0, 0, 0},
    {KILN_OP_GATHER, "windows clamped, index_vector_dim 0", "6x7x$T; 2x3xi32@-4:9", "3x3x4x$T",
     GATHER_ALL("1, 2", "", "", "", "0, 1", "0", "3, 4"), 0, 0, 0, 0},
    {KILN_OP_GATHER, "partial rows around a collapsed dim", "4x5x6x$T; 2x1xi16@-2:7", "2x3x4x$T",
     GATHER_ALL("1, 2", "1", "", "", "1", "1", "3, 1, 4"), 0, 0, 0, 0},
    {KILN_OP_GATHER, "no index entries", "4x5x$T; 3x0xi32", "3x2x5x$T", GATHER_ALL("1, 2", "", "", "", "", "1", "2, 5"),
     0, 0, 0, 0},
    {KILN_OP_GATHER, "index_vector_dim left out (0)", "6x7x$T; 2x3xi32@-4:9", "3x3x4x$T",
     "{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1]>, "
     "slice_sizes = array<i64: 3, 4>}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "one element, index_vector_dim left out (0)", "16x$T; 1xi32@-2:17; $T", "16x$T",
     "(" REGION_SECOND ") {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
     "scatter_dims_to_operand_dims = [0]>, indices_are_sorted = true, unique_indices = true}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "multiply rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION2("stablehlo.multiply")), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "maximum rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION_MAX), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "minimum rows (operands swapped)", ROWS_ARGS, "5x3x$T",
     "({\n  ^bb0(%x: tensor<$T>, %y: tensor<$T>):\n    %s = \"stablehlo.minimum\"(%y, %x) : (tensor<$T>, tensor<$T>) -> "
     "tensor<$T>\n    " RET("%s", "tensor<$T>") "\n  }) {" SCATTER_DIMS("1", "0", "0") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "and rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION2("stablehlo.and")), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "or rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION2("stablehlo.or")), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "xor rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION2("stablehlo.xor")), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "subtract rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION2("stablehlo.subtract")), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "replace rows, last wins", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION_SECOND), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "keep rows", ROWS_ARGS, "5x3x$T", SCATTER_ROWS(REGION_FIRST), 0, 0, 0, 0},
    {KILN_OP_SCATTER, "add along axis 1", "5x7x$T; 4x1xui32@0:9; 5x4x$T", "5x7x$T",
     "(" REGION_ADD ") {" SCATTER_ALL("0", "1", "", "", "1", "1") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "2x3 windows partly outside", "6x7x$T; 4x2xi32@-2:7; 4x2x3x$T", "6x7x$T",
     "(" REGION_ADD ") {" SCATTER_ALL("1, 2", "", "", "", "0, 1", "1") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "points, index_vector_dim in the middle", "5x6x$T; 3x2x2xi64@-1:6; 3x2x$T", "5x6x$T",
     "(" REGION_MAX ") {" SCATTER_ALL("", "0, 1", "", "", "1, 0", "1") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "batching dims (vmap of x.at[i].add)", "4x5x3x$T; 4x2x1xi32@-1:6; 4x2x3x$T", "4x5x3x$T",
     "(" REGION_ADD ") {" SCATTER_ALL("2", "1", "0", "0", "1", "2") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "batching dim 1, points", "5x4x$T; 3x4x1xi8@-1:6; 3x4x$T", "5x4x$T",
     "(" REGION2("stablehlo.minimum") ") {" SCATTER_ALL("", "0", "1", "1", "0", "2") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "window dim first, overlapping windows replaced in order", "6x4x$T; 3x1xi32@0:5; 2x3x4x$T",
     "6x4x$T", "(" REGION_SECOND ") {" SCATTER_ALL("0, 2", "", "", "", "0", "1") "}", 0, 0, 0, 0},
    /* large enough for the pool (scatter.c: each chunk owns a part of the operand): rows with
     * indices repeated, unsorted, outside; runs of one element (kept on one thread: every
     * part would walk all the points); windows along the part dim cut at the parts' edges,
     * replaced in order */
    {KILN_OP_SCATTER, "add rows over the pool", "300x64x$T; 2048x1xi32@-2:302; 2048x64x$T", "300x64x$T",
     "(" REGION_ADD ") {" SCATTER_DIMS("1", "0", "0") "}", 16, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_SCATTER, "add elements over the pool", "4096x$T; 32768x1xi32@-3:4099; 32768x$T", "4096x$T",
     "(" REGION_ADD ") {" SCATTER_DIMS("", "0", "0") "}", 24, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_SCATTER, "windows along the part dim over the pool", "4096x$T; 2048x1xi32@-20:4100; 2048x16x$T", "4096x$T",
     "(" REGION_SECOND ") {" SCATTER_ALL("1", "", "", "", "0", "1") "}", 0, 0, 0, 0},
    {KILN_OP_SCATTER, "maximum and minimum of signed zeros", "", "4x$T; 4x$T",
     "  %x = \"stablehlo.constant\"() {value = dense<[0.0, -0.0, 0.0, -0.0]> : tensor<4x$T>} : () -> tensor<4x$T>\n"
     "  %u = \"stablehlo.constant\"() {value = dense<[-0.0, 0.0, 0.0, -0.0]> : tensor<4x$T>} : () -> tensor<4x$T>\n"
     "  %i = \"stablehlo.iota\"() {iota_dimension = 0 : i64} : () -> tensor<4x1xi32>\n"
     "  %r0 = \"stablehlo.scatter\"(%x, %i, %u) (" REGION_MAX ") {" SCATTER_DIMS("", "0", "0")
     "} : (tensor<4x$T>, tensor<4x1xi32>, tensor<4x$T>) -> tensor<4x$T>\n"
     "  %r1 = \"stablehlo.scatter\"(%x, %i, %u) (" REGION2("stablehlo.minimum") ") {" SCATTER_DIMS("", "0", "0")
     "} : (tensor<4x$T>, tensor<4x1xi32>, tensor<4x$T>) -> tensor<4x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_SCATTER, "unique rows (parallel)", "64x300x$T; 64x300x$T", "64x300x$T",
     "  %o = \"stablehlo.iota\"() {iota_dimension = 0 : i64} : () -> tensor<64x1xi32>\n"
     "  %i = \"stablehlo.reverse\"(%o) {dimensions = array<i64: 0>} : (tensor<64x1xi32>) -> tensor<64x1xi32>\n"
     "  %r0 = \"stablehlo.scatter\"(%a0, %i, %a1) (" REGION_ADD ") {" SCATTER_DIMS("1", "0", "0")
     ", indices_are_sorted = false, unique_indices = true} : (tensor<64x300x$T>, tensor<64x1xi32>, tensor<64x300x$T>) "
     "-> tensor<64x300x$T>",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_SELECT_AND_SCATTER, "2x2 windows", "4x6x$T@nospec; 2x3x$T; $T", "4x6x$T",
     "(" COMPARE_BODY("GE", TWO_T) ", " REGION_ADD ")"
     " {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}",
     2, 0, 0, 0},

    /* reductions */
    {KILN_OP_REDUCE, "add dims=[1]", "2x3x4x$T; $T", "2x4x$T", "(" REGION_ADD ")" " {dimensions = array<i64: 1>}", 4, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_REDUCE, "add dims=[0,2]", "2x3x4x$T; $T", "3x$T", "(" REGION_ADD ")" " {dimensions = array<i64: 0, 2>}", 9, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_REDUCE, "max dims=[1]", "17x33x$T; $T", "17x$T", "(" REGION_MAX ")" " {dimensions = array<i64: 1>}", 0, 0, 0, 0},
    {KILN_OP_REDUCE, "add all", "17x33x$T; $T", "$T", "(" REGION_ADD ")" " {dimensions = array<i64: 0, 1>}", 562, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_REDUCE, "empty", "0x5x$T; $T", "5x$T", "(" REGION_ADD ")" " {dimensions = array<i64: 0>}", 1, 0, 0, 0},
    {KILN_OP_REDUCE, "two operands", "5x7x$T; 5x7xi32; $T; i32", "5x$T; 5xi32",
     "({\n  ^bb0(%x: tensor<$T>, %u: tensor<i32>, %y: tensor<$T>, %v: tensor<i32>):\n"
     "    %s = \"stablehlo.add\"(%x, %y) : (tensor<$T>, tensor<$T>) -> tensor<$T>\n"
     "    %w = \"stablehlo.maximum\"(%u, %v) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
     "    \"stablehlo.return\"(%s, %w) : (tensor<$T>, tensor<i32>) -> ()\n  }) {dimensions = array<i64: 1>}",
     8, 0, KILN_DIFF_FEW_SPECIALS, 0},
    /* folds: regions of several ops, run as written (argmax's NaN and tie rules) */
    {KILN_OP_REDUCE, "argmax pairs", "6x19x$T; 6x19xi32@0:8; $T; i32", "6x$T; 6xi32",
     "(" ARG_BEST("GT") ") {dimensions = array<i64: 1>}", 0, 0, 0, 0},
    {KILN_OP_REDUCE, "argmin with iota and ties", "17x33x$T@-3:3; $T", "33x$T; 33xi32",
     "  %v = \"stablehlo.round_nearest_even\"(%a0) : (tensor<17x33x$T>) -> tensor<17x33x$T>\n"
     "  %i = \"stablehlo.iota\"() {iota_dimension = 0 : i64} : () -> tensor<17x33xi32>\n"
     "  %z = \"stablehlo.constant\"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>\n"
     "  %r0, %r1 = \"stablehlo.reduce\"(%v, %i, %a1, %z) (" ARG_BEST("LT") ") {dimensions = array<i64: 0>} : "
     "(tensor<17x33x$T>, tensor<17x33xi32>, tensor<$T>, tensor<i32>) -> (tensor<33x$T>, tensor<33xi32>)",
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_REDUCE, "three operands to scalars", "4x5x$T; 4x5xi32; 4x5xi1; $T; i32; i1", "$T; i32; i1",
     "({\n  ^bb0(%x: tensor<$T>, %u: tensor<i32>, %p: tensor<i1>, %y: tensor<$T>, %v: tensor<i32>, %q: tensor<i1>):\n"
     "    %s = \"stablehlo.maximum\"(%x, %y) : (tensor<$T>, tensor<$T>) -> tensor<$T>\n"
     "    %w = \"stablehlo.add\"(%u, %v) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
     "    %b = \"stablehlo.xor\"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
     "    \"stablehlo.return\"(%s, %w, %b) : (tensor<$T>, tensor<i32>, tensor<i1>) -> ()\n  }) {dimensions = array<i64: 0, 1>}",
     0, 0, 0, 0},
    {KILN_OP_REDUCE, "subtract in order", "5x7x$T; $T", "5x$T", "(" REGION2("stablehlo.subtract") ") {dimensions = array<i64: 1>}",
     0, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_REDUCE_WINDOW, "max padded strided", "5x7x$T; $T", "5x3x$T",
     "(" REGION_MAX ")" RW("2, 3", "1, 2", "[[1, 0], [0, 1]]", "2x2xi64>}"), 0, 0, 0, 0},
    {KILN_OP_REDUCE_WINDOW, "add window dilation", "2x3x4x$T; $T", "2x2x2x$T",
     "(" REGION_ADD ")" RW("1, 2, 2", "1, 1, 1", "0", "3x2xi64>, window_dilations = array<i64: 1, 1, 2>}"), 5, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_REDUCE_WINDOW, "add base dilation", "4x$T; $T", "5x$T",
     "(" REGION_ADD ")" RW("3", "1", "0", "1x2xi64>, base_dilations = array<i64: 2>}"), 4, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_REDUCE_WINDOW, "reverse cumulative sum (a suffix scan)", "7x40x$T", "7x40x$T",
     "  %z = \"stablehlo.constant\"() {value = dense<0> : tensor<$T>} : () -> tensor<$T>\n"
     "  %r0 = \"stablehlo.reduce_window\"(%a0, %z) (" REGION_ADD ")"
     RW("1, 40", "1, 1", "[[0, 0], [0, 39]]", "2x2xi64>} : (tensor<7x40x$T>, tensor<$T>) -> tensor<7x40x$T>"),
     40, 0, KILN_DIFF_BODY | KILN_DIFF_FEW_SPECIALS, 0},
    /* reduce_windows whose regions are more than one op per operand: folds as written */
    {KILN_OP_REDUCE_WINDOW, "running max |x| (a prefix window's running fold)", "19x33x$T", "19x33x$T",
     "  %z = \"stablehlo.constant\"() {value = dense<0> : tensor<$T>} : () -> tensor<$T>\n"
     "  %r0 = \"stablehlo.reduce_window\"(%a0, %z) ({\n  ^bb0(%x: tensor<$T>, %y: tensor<$T>):\n"
     "    %b = \"stablehlo.abs\"(%y) : (tensor<$T>) -> tensor<$T>\n"
     "    %m = \"stablehlo.maximum\"(%x, %b) : (tensor<$T>, tensor<$T>) -> tensor<$T>\n    " RET("%m", "tensor<$T>") "\n  })"
     RW("1, 33", "1, 1", "[[0, 0], [32, 0]]", "2x2xi64>} : (tensor<19x33x$T>, tensor<$T>) -> tensor<19x33x$T>"),
     0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_REDUCE_WINDOW, "cumlogsumexp (logaddexp prefix window, init -inf)", "3x40x17xf32", "3x40x17xf32",
     "  %n = \"stablehlo.constant\"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>\n"
     "  %r0 = \"stablehlo.reduce_window\"(%a0, %n) (" LOGADDEXP("f32") ")"
     RW("1, 40, 1", "1, 1, 1", "[[0, 0], [39, 0], [0, 0]]", "3x2xi64>} : (tensor<3x40x17xf32>, tensor<f32>) -> tensor<3x40x17xf32>"),
     0, 4, KILN_DIFF_BODY, 0},
    {KILN_OP_REDUCE_WINDOW, "reverse cumlogsumexp (folded from the end)", "3x40x17xf32", "3x40x17xf32",
     "  %n = \"stablehlo.constant\"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>\n"
     "  %r0 = \"stablehlo.reduce_window\"(%a0, %n) (" LOGADDEXP("f32") ")"
     RW("1, 40, 1", "1, 1, 1", "[[0, 0], [0, 39], [0, 0]]", "3x2xi64>} : (tensor<3x40x17xf32>, tensor<f32>) -> tensor<3x40x17xf32>"),
     4, 4, KILN_DIFF_BODY, 0}, /* terms: max + log1p(...) cancels where the two are near 0 */
    {KILN_OP_REDUCE_WINDOW, "logaddexp windows, padded", "5x7x$T; $T", "5x4x$T",
     "(" LOGADDEXP("$T") ")" RW("2, 3", "1, 2", "[[1, 0], [1, 1]]", "2x2xi64>}"), 0, 4, 0, 0},
    {KILN_OP_REDUCE_WINDOW, "argmax pooling, padded", "6x9x$T; 6x9xi32@0:8; $T; i32", "3x5x$T; 3x5xi32",
     "(" ARG_BEST("GT") ")" RW("3, 3", "2, 2", "[[1, 1], [1, 1]]", "2x2xi64>}"), 0, 0, 0, 0},
    {KILN_OP_MAP, "max", "3x5x$T; 3x5x$T", "3x5x$T", MAP_TEXT, 0, 0, 0, 0},
    {KILN_OP_SORT, "two operands, stable", "17x33x$T@nospec; 17x33xi32", "17x33x$T; 17x33xi32",
     "(" COMPARE_BODY("LT", TWO_T ", %u: tensor<i32>, %v: tensor<i32>") ")" " {dimension = 1 : i64, is_stable = true}", 0, 0, 0, 0},
    {KILN_OP_SORT, "descending dim 0", "2x3x4x$T@nospec", "2x3x4x$T",
     "(" COMPARE_BODY("GT", TWO_T) ") {dimension = 0 : i64, is_stable = true}", 0, 0, 0, 0},
    {KILN_OP_SORT, "two keys, lexicographic", "17x33xi32; 17x33xi32; 17x33x$T@nospec", "17x33xi32; 17x33xi32; 17x33x$T",
     "({\n  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>, %x: tensor<$T>, %y: tensor<$T>):\n"
     CMP("%lt0", "LT", "%a", "%b", "tensor<i32>") CMP("%eq0", "EQ", "%a", "%b", "tensor<i32>")
     CMP("%gt1", "GT", "%c", "%d", "tensor<i32>") BOOL2("%tie", "and", "%eq0", "%gt1") BOOL2("%p", "or", "%lt0", "%tie")
     "    " RET("%p", "tensor<i1>") "\n  }) {dimension = 1 : i64, is_stable = true}", 0, 0, 0, 0},
    {KILN_OP_CHLO_SCAN, "cumulative add", "2x3x$T; 2x$T", "2x3x$T; 2x$T", SCAN_BODY, 4, 0, KILN_DIFF_BODY | KILN_DIFF_FEW_SPECIALS, 0},

    /* linear algebra */
    {KILN_OP_DOT_GENERAL, "batch", "2x3x4x$T; 2x4x5x$T", "2x3x5x$T", DOT_DIMS("0", "0", "2", "1"), 4, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_DOT_GENERAL, "matrix-vector", "17x33x$T; 33x$T", "17x$T", DOT_DIMS("", "", "1", "0"), 33, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_DOT_GENERAL, "empty contraction", "3x0x$T; 0x5x$T", "3x5x$T", DOT_DIMS("", "", "1", "0"), 1, 0, 0, 0},
    {KILN_OP_DOT_GENERAL, "rhs transposed", "7x5x$T; 3x5x$T", "7x3x$T", DOT_DIMS("", "", "1", "1"), 5, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_DOT, "", "3x5x$T; 5x2x$T", "3x2x$T", "", 5, 0, KILN_DIFF_FEW_SPECIALS, 0},
    /* i8 x i8 -> i32 (quantized matmuls): oneDNN in i32 with VNNI, else Kiln's igemm (AVX2),
     * else in f32 up to K = 1024 */
    {KILN_OP_DOT_GENERAL, "i8 to i32", "64x300xsi8; 300x70xsi8", "64x70xsi32", DOT_DIMS("", "", "1", "0"), 0, 0, 0, 0},
    {KILN_OP_DOT_GENERAL, "i8 to i32, K = 1024 extremes", "8x1024xsi8@-128:-127; 1024x16xsi8@-128:-127", "8x16xsi32",
     DOT_DIMS("", "", "1", "0"), 0, 0, 0, 0},
    {KILN_OP_DOT_GENERAL, "i8 to i32, K = 1100", "9x1100xsi8; 1100x7xsi8", "9x7xsi32", DOT_DIMS("", "", "1", "0"), 0, 0, 0, 0},
    {KILN_OP_DOT_GENERAL, "i8 to i32, K = 2101 extremes, lhs transposed", "2101x9xsi8@-128:-127; 2101x20xsi8@-128:-127",
     "9x20xsi32", DOT_DIMS("", "", "0", "0"), 0, 0, 0, 0},
    {KILN_OP_DOT_GENERAL, "i8 to i32, batch, rhs transposed", "3x40x50xsi8; 3x60x50xsi8", "3x40x60xsi32",
     DOT_DIMS("0", "0", "2", "2"), 0, 0, 0, 0},
    {KILN_OP_EINSUM, "ab,bc->ac", "3x4x$T; 4x5x$T", "3x5x$T", "{einsum_config = \"ab,bc->ac\"}", 4, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_UNARY_EINSUM, "ab->a", "3x4x$T", "3x$T", "{einsum_config = \"ab->a\"}", 4, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "nhwc", "1x5x6x2x$T; 3x3x2x4x$T", "1x3x4x4x$T", "{" CONV_NHWC ", " GROUPS(1, 1) "}", 18, 0,
     KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "padding strides dilations", "2x7x8x2x$T; 3x2x2x3x$T", "2x3x16x3x$T",
     "{" CONV_NHWC ", window_strides = array<i64: 2, 1>, padding = dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>, "
     "lhs_dilation = array<i64: 1, 2>, rhs_dilation = array<i64: 2, 1>, " GROUPS(1, 1) "}",
     12, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "feature groups", "1x4x4x4x$T; 2x2x2x6x$T", "1x3x3x6x$T", "{" CONV_NHWC ", " GROUPS(2, 1) "}", 8, 0,
     KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "batch groups", "4x3x3x2x$T; 2x2x2x4x$T", "2x2x2x4x$T", "{" CONV_NHWC ", " GROUPS(1, 2) "}", 8, 0,
     KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "1d ncw", "2x3x9x$T; 4x3x3x$T", "2x4x7x$T",
     "{dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, " GROUPS(1, 1) "}", 9, 0, KILN_DIFF_FEW_SPECIALS, 0},
    /* large enough for oneDNN (4096 elements in all): lhs dilation through a padded copy.
     * The copy's zeros are multiplied, so an inf or NaN weight makes NaN where the
     * interpreter (as XLA) skips holes and padding: weights without specials (open item). */
    {KILN_OP_CONVOLUTION, "transposed (lhs dilation)", "2x8x8x8x$T; 3x3x8x8x$T@nospec", "2x16x16x8x$T",
     "{" CONV_NHWC ", padding = dense<[[1, 2], [1, 2]]> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, "
     GROUPS(1, 1) "}", 18, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "depthwise nchw", "2x16x12x12x$T; 16x1x3x3x$T", "2x16x12x12x$T",
     "{dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, "
     "padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, " GROUPS(16, 1) "}", 9, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "batch groups large", "8x10x10x4x$T; 3x3x4x8x$T", "2x8x8x8x$T",
     "{" CONV_NHWC ", " GROUPS(1, 4) "}", 36, 0, KILN_DIFF_FEW_SPECIALS, 0},
    /* the generated loop's forms; a one-channel filter of many taps (jnp.correlate's
     * "full" form, a strided one along NWC) takes it at any size */
    {KILN_OP_CONVOLUTION, "long filter ncw", "2x1x2048x$T; 1x1x40x$T", "2x1x2087x$T",
     "{dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, "
     "padding = dense<[[39, 39]]> : tensor<1x2xi64>, " GROUPS(1, 1) "}", 40, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "long filter nwc strided", "2x2049x1x$T; 33x1x1x$T", "2x1025x1x$T",
     "{dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, window_strides = array<i64: 2>, "
     "padding = dense<[[16, 16]]> : tensor<1x2xi64>, " GROUPS(1, 1) "}", 33, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "reversal, negative padding", "1x6x7x2x$T; 2x3x2x3x$T@nospec", "1x5x7x3x$T",
     "{" CONV_NHWC ", padding = dense<[[-1, 1], [2, 0]]> : tensor<2x2xi64>, "
     "window_reversal = array<i1: true, false>, " GROUPS(1, 1) "}", 12, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "3d strided", "1x5x6x7x2x$T; 2x2x3x2x3x$T", "1x2x5x3x3x$T",
     "{dimension_numbers = #stablehlo.conv<[b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f]>, "
     "window_strides = array<i64: 2, 1, 2>, " GROUPS(1, 1) "}", 24, 0, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CONVOLUTION, "i8 x i8 -> i32", "1x5x6x2xi8; 3x3x2x4xi8", "1x3x4x4xi32",
     "{" CONV_NHWC ", " GROUPS(1, 1) "}", 0, 0, 0, 0},
    {KILN_OP_CONVOLUTION, "i8 x i8 -> i32 large, padded", "2x12x12x8xi8; 3x3x8x16xi8", "2x12x12x16xi32",
     "{" CONV_NHWC ", padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, " GROUPS(1, 1) "}", 0, 0, 0, 0},
    {KILN_OP_DYNAMIC_CONV, "padding operand", "1x5x6x2x$T; 3x3x2x4x$T", "1x5x6x4x$T",
     "  %p = \"stablehlo.constant\"() {value = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>\n"
     "  %r0 = \"stablehlo.dynamic_conv\"(%a0, %a1, %p) {" CONV_NHWC ", " GROUPS(1, 1)
     "} : (tensor<1x5x6x2x$T>, tensor<3x3x2x4x$T>, tensor<2x2xi64>) -> tensor<1x5x6x4x$T>",
     18, 0, KILN_DIFF_BODY | KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CHLO_RAGGED_DOT, "two groups", "6x4x$T; 2x4x3x$T", "6x3x$T",
     "  %g = \"stablehlo.constant\"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>\n"
     "  %r0 = \"chlo.ragged_dot\"(%a0, %a1, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<"
     "lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], "
     "rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} "
     ": (tensor<6x4x$T>, tensor<2x4x3x$T>, tensor<2xi64>) -> tensor<6x3x$T>",
     4, 0, KILN_DIFF_BODY | KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_CHOLESKY, "lower", "2x4x4x$T@spd", "2x4x4x$T", CHOLESKY_BODY, 16, 4, KILN_DIFF_BODY | KILN_DIFF_GLOBAL, 0},
    {KILN_OP_TRIANGULAR_SOLVE, "left lower", "4x4x$T@spd; 4x3x$T@-1:1", "4x3x$T", TRI("true", "true", "NO_TRANSPOSE"), 16, 4,
     KILN_DIFF_GLOBAL, 0},
    {KILN_OP_TRIANGULAR_SOLVE, "right upper transposed", "4x4x$T@spd; 3x4x$T@-1:1", "3x4x$T", TRI("false", "false", "TRANSPOSE"),
     16, 4, KILN_DIFF_GLOBAL, 0},
    {KILN_OP_FFT, "FFT", "3x8x$T", "3x8x$T", "{fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 8>}", 16, 0,
     KILN_DIFF_GLOBAL | KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_FFT, "IFFT 2d", "3x5x$T", "3x5x$T", "{fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 3, 5>}", 16, 0,
     KILN_DIFF_GLOBAL | KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_FFT, "RFFT", "3x8x$T", "3x5x$C", "{fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>}", 16, 0,
     KILN_DIFF_GLOBAL | KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_FFT, "IRFFT", "3x5x$C", "3x8x$T", "{fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>}", 16, 0,
     KILN_DIFF_GLOBAL | KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_BATCH_NORM_INFERENCE, "feature 1", "2x3x4x$T; 3x$T; 3x$T; 3x$T; 3x$T@0.1:2", "2x3x4x$T",
     "{epsilon = 0.001 : f32, feature_index = 1 : i64}", 8, 4, KILN_DIFF_FEW_SPECIALS, 0},
    {KILN_OP_BATCH_NORM_TRAINING, "feature 1", "2x3x4x$T@-2:2; 3x$T@-2:2; 3x$T@-2:2", "2x3x4x$T; 3x$T; 3x$T",
     "{epsilon = 0.001 : f32, feature_index = 1 : i64}", 64, 4, KILN_DIFF_GLOBAL, 0},
    {KILN_OP_BATCH_NORM_GRAD, "feature 1", "2x3x4x$T@-2:2; 3x$T@-2:2; 3x$T@-2:2; 3x$T@0.1:2; 2x3x4x$T@-2:2",
     "2x3x4x$T; 3x$T; 3x$T", "{epsilon = 0.001 : f32, feature_index = 1 : i64}", 64, 4, KILN_DIFF_GLOBAL, 0},

    /* control flow */
    {KILN_OP_WHILE, "counted", "4x$T; i32@0:4", "4x$T; i32", WHILE_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_IF, "", "i1; 3x$T; 3x$T", "3x$T",
     "  %r0 = \"stablehlo.if\"(%a0) (" BRANCH("%a1") ", " BRANCH("%a2") ") : (tensor<i1>) -> tensor<3x$T>", 0, 0,
     KILN_DIFF_BODY, 0},
    {KILN_OP_CASE, "index out of range too", "i32@-1:3; 3x$T; 3x$T; 3x$T", "3x$T",
     "  %r0 = \"stablehlo.case\"(%a0) (" BRANCH("%a1") ", " BRANCH("%a2") ", " BRANCH("%a3") ") : (tensor<i32>) -> tensor<3x$T>",
     0, 0, KILN_DIFF_BODY, 0},

    /* foreign dialects that StableHLO programs carry */
    {KILN_OP_SCF_FOR, "", "3x$T; 3x$T", "3x$T", SCF_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_SCF_YIELD, "", "3x$T; 3x$T", "3x$T", SCF_BODY, 0, 0, KILN_DIFF_BODY, 0},
    {KILN_OP_ARITH_CONSTANT, "", "", "3xf32", "  %r0 = arith.constant dense<[1.5, -2.0, 0.0]> : tensor<3xf32>", 0, 0,
     KILN_DIFF_BODY, 0},
    {KILN_OP_TENSOR_INSERT, "", "3xf32", "3xf32",
     "  %v = arith.constant 2.5 : f32\n  %i = arith.constant 1 : index\n  %r0 = tensor.insert %v into %a0[%i] : tensor<3xf32>",
     0, 0, KILN_DIFF_BODY, 0},
};

const int kiln_diff_num_instances = (int)(sizeof kiln_diff_instances / sizeof kiln_diff_instances[0]);
