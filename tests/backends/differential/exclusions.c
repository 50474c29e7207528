/* The one table of op kinds the harness cannot run as a standalone random program, with
 * the reason. Every other op kind of ir/ops.def must be exercised by at least one case
 * (main.c checks it), so a new op cannot be forgotten. */
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
