#include "ir/op.h"

#include <string.h>

static const kiln_kw k_kw_NONE[] = {{0}};
static const kiln_kw k_kw_BROADCAST_IN_DIM[] = {
    {"dims", "broadcast_dimensions", KILN_KW_I64S, 0}, {0}};
static const kiln_kw k_kw_DYNAMIC_BROADCAST_IN_DIM[] = {
    {"dims", "broadcast_dimensions", KILN_KW_I64S, 0}, {0}};
static const kiln_kw k_kw_BROADCAST[] = {{"sizes", "broadcast_sizes", KILN_KW_I64S, 0}, {0}};
static const kiln_kw k_kw_CONCATENATE[] = {{"dim", "dimension", KILN_KW_INT, 0}, {0}};
static const kiln_kw k_kw_DIMENSION[] = {{"dim", "dimension", KILN_KW_INT, 0}, {0}};
static const kiln_kw k_kw_IOTA[] = {{"dim", "iota_dimension", KILN_KW_INT, 0}, {0}};
static const kiln_kw k_kw_DYNAMIC_SLICE[] = {{"sizes", "slice_sizes", KILN_KW_I64S, 0}, {0}};
static const kiln_kw k_kw_TRANSPOSE[] = {{"dims", "permutation", KILN_KW_I64S, 0}, {0}};
static const kiln_kw k_kw_REVERSE[] = {{"dims", "dimensions", KILN_KW_I64S, 0}, {0}};
static const kiln_kw k_kw_FFT[] = {{"type", "fft_type", KILN_KW_ENUM, "fft_type"},
                                   {"length", "fft_length", KILN_KW_I64S, 0},
                                   {0}};
static const kiln_kw k_kw_PAD[] = {{"low", "edge_padding_low", KILN_KW_I64S, 0},
                                   {"high", "edge_padding_high", KILN_KW_I64S, 0},
                                   {"interior", "interior_padding", KILN_KW_I64S, 0},
                                   {0}};
static const kiln_kw k_kw_REDUCE_PRECISION[] = {{"format", "exponent_bits", KILN_KW_FORMAT, 0}, {0}};
static const kiln_kw k_kw_RNG[] = {
    {"distribution", "rng_distribution", KILN_KW_ENUM, "rng_distribution"}, {0}};
static const kiln_kw k_kw_RNG_BIT_GENERATOR[] = {
    {"algorithm", "rng_algorithm", KILN_KW_ENUM, "rng_algorithm"}, {0}};
static const kiln_kw k_kw_DOT_GENERAL[] = {
    {"batching_dims", "dot_dimension_numbers", KILN_KW_DOT_DIMS, "batching"},
    {"contracting_dims", "dot_dimension_numbers", KILN_KW_DOT_DIMS, "contracting"},
    {"precision", "precision_config", KILN_KW_PRECISION, 0},
    {"algorithm", "algorithm", KILN_KW_ALGORITHM, 0},
    {0}};
static const kiln_kw k_kw_TOLERANCE[] = {{"tolerance", "tolerance", KILN_KW_FLOAT, 0}, {0}};
static const kiln_kw k_kw_ULP[] = {{"max_ulp_difference", "max_ulp_difference", KILN_KW_INT, 0},
                                   {"min_ulp_difference", "min_ulp_difference", KILN_KW_INT, 0},
                                   {0}};
static const kiln_kw k_kw_PROBE[] = {{"probe_id", "probe_id", KILN_KW_STRING, 0}, {0}};
static const kiln_kw k_kw_PROBE_CHECK[] = {{"probe_id", "probe_id", KILN_KW_STRING, 0},
                                           {"iter", "iter", KILN_KW_INT, 0},
                                           {0}};

typedef struct op_info {
  const char *name;
  kiln_fmt fmt;
  const kiln_kw *kw;
} op_info;

static const op_info k_ops[KILN_OP_COUNT] = {
#define KILN_OP(id, name, fmt, kw) {name, KILN_FMT_##fmt, k_kw_##kw},
#include "ir/ops.def"
};

const char *kiln_op_name(kiln_op_kind kind) { return kind < KILN_OP_COUNT ? k_ops[kind].name : "?"; }
kiln_fmt kiln_op_format(kiln_op_kind kind) { return k_ops[kind].fmt; }
const kiln_kw *kiln_op_keywords(kiln_op_kind kind) { return k_ops[kind].kw; }

bool kiln_op_lookup(const char *s, size_t n, kiln_op_kind *out) {
  /* A linear scan: the table is small and the parser's cost is dominated by literals. */
  for (int i = 0; i < KILN_OP_COUNT; i++) {
    const char *name = k_ops[i].name;
    if (strlen(name) == n && memcmp(name, s, n) == 0) {
      *out = (kiln_op_kind)i;
      return true;
    }
  }
  return false;
}
