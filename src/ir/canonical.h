/* What makes two spellings of one StableHLO module print the same, as MLIR's printer does:
 * the fixed field order of the #stablehlo.* structured attributes, and the default values
 * of attributes that StableHLO declares default-valued (ODS `DefaultValued*Attr`), which
 * MLIR's printers leave out. The printer sorts attribute dictionaries by name itself. */
#ifndef KILN_IR_CANONICAL_H
#define KILN_IR_CANONICAL_H

#include "ir/ir.h"

/* Puts the fields of a #stablehlo.* structure in the order MLIR prints them (fields it does
 * not know keep their order, after the known ones). Other attributes are left as they are. */
void kiln_attr_struct_canonicalize(kiln_attr *s);

/* Default values, by the rule that recognises them. */
typedef enum kiln_default {
  KILN_DEFAULT_FALSE,
  KILN_DEFAULT_ZERO,
  KILN_DEFAULT_ONE,
  KILN_DEFAULT_MINUS_ONE,
  KILN_DEFAULT_EMPTY_ARRAY,
  KILN_DEFAULT_EMPTY_STRING,
  KILN_DEFAULT_EMPTY_DICT,
  KILN_DEFAULT_EMPTY_CONFIG,    /* "" or {} */
  KILN_DEFAULT_EMPTY_TENSOR,
  KILN_DEFAULT_ALL_ONE,         /* an integer tensor of ones */
  KILN_DEFAULT_ALL_ZERO,
  KILN_DEFAULT_ENUM_NOTYPE,
  KILN_DEFAULT_PRECISION,       /* [DEFAULT, ...] */
  KILN_DEFAULT_RESULT_ACCURACY, /* atol = rtol = ulps = 0, mode DEFAULT */
} kiln_default;

/* Whether a holds the default value that `rule` describes. */
bool kiln_attr_is_default(const kiln_attr *a, kiln_default rule);

/* Whether attribute `name` of an op of `kind` is declared default-valued by StableHLO and
 * holds that default (so that printing leaves it out). */
bool kiln_op_attr_is_default(kiln_op_kind kind, const char *name, const kiln_attr *value);

#endif
