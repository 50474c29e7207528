/* The op table's assembly information, shared by the parser and the printer. */
#ifndef KILN_IR_OP_H
#define KILN_IR_OP_H

#include "ir/ir.h"

/* Pretty assembly families. */
typedef enum kiln_fmt {
  KILN_FMT_GENERIC,      /* only "op"(...) : (...) -> (...) */
  KILN_FMT_MODULE,       /* module @name attributes {...} { ... } */
  KILN_FMT_FUNC,         /* func.func [visibility] @name(%a: T {attrs}) -> (R {attrs}) attributes {...} {...} */
  KILN_FMT_OPS,          /* %a, %b [, kw = v]* {attrs} : T | (Ts) -> Rs */
  KILN_FMT_TYPES,        /* %a, %b [, kw = v]* {attrs} : T1, T2 (operand types; results mirror) */
  KILN_FMT_CONST,        /* {attrs} dense<...> : T */
  KILN_FMT_CHECK_CONST,  /* %a, dense<...> : T {attrs} */
  KILN_FMT_COMPARE,      /* DIR, %a, %b[, TYPE] {attrs} : types */
  KILN_FMT_SLICE,        /* %a [s:l(:t)?, ...] : types */
  KILN_FMT_GTE,          /* %a[i] : types */
  KILN_FMT_CALL,         /* @callee(%a, ...) {attrs} : (Ts) -> Rs */
  KILN_FMT_COMPOSITE,    /* "name" %a, ... {attrs} : (Ts) -> Rs */
  KILN_FMT_REDUCE,       /* (%a init: %b), ... applies OP | across dimensions = [...] ... reducer(...) {...} */
  KILN_FMT_WHILE,        /* (%x = %a, ...) : Ts {attrs} cond {...} do {...} */
  KILN_FMT_CONV,         /* (%a, %b) dim_numbers = ..., window = {...} {attrs} : (Ts) -> R */
  KILN_FMT_CHLO,         /* %a, %b {attrs} : T1, T2 -> R */
  KILN_FMT_TOP_K,        /* (%a, k = 3) : T -> (R1, R2) */
  KILN_FMT_SCAN,         /* (%in...) inits(%i...) dimension=0 [attributes {...}] {region} : (Ts) -> Rs */
  KILN_FMT_SCF_FOR,      /* %i = %lo to %hi step %s iter_args(%x = %a) -> (Ts) {region} */
  KILN_FMT_TENSOR_INSERT,/* %v into %t[%i, ...] : T */
  KILN_FMT_SDY_MESH,     /* @name = <["x"=2, ...]> {attrs}            (attrs sym_name, mesh) */
  KILN_FMT_SDY_CONSTRAINT,/* %a <@mesh, [{"x"}, {}]> {attrs} : T      (attr sharding) */
  KILN_FMT_SDY_MANUAL,   /* (%a, ...) in_shardings=[<...>, ...] out_shardings=[...]
                          * manual_axes={"x", ...} (%b: T, ...) {region} : (Ts) -> Rs */
} kiln_fmt;

/* How a keyword attribute of the pretty form is written and stored. */
typedef enum kiln_kw_kind {
  KILN_KW_INT,        /* dim = 0                 -> INT : i64 */
  KILN_KW_I64S,       /* dims = [1, 0]           -> array<i64: ...> */
  KILN_KW_ENUM,       /* type = FFT              -> #stablehlo<fft_type FFT> */
  KILN_KW_PRECISION,  /* precision = [A, B]      -> [#stablehlo<precision A>, ...] */
  KILN_KW_FORMAT,     /* format = e5m10          -> exponent_bits / mantissa_bits : i32 */
  KILN_KW_FLOAT,      /* tolerance = 0.1         -> FLOAT : f64 */
  KILN_KW_STRING,     /* probe_id = "x"          -> STRING */
  KILN_KW_DOT_DIMS,   /* batching_dims = [0] x [0] -> fields of dot_dimension_numbers */
  KILN_KW_ALGORITHM,  /* algorithm = <...>       -> #stablehlo.dot_algorithm<...> */
} kiln_kw_kind;

typedef struct kiln_kw {
  const char *keyword; /* as written in the pretty form */
  const char *attr;    /* the attribute it stores (generic name) */
  kiln_kw_kind kind;
  const char *extra;   /* ENUM: the enum's name; DOT_DIMS: "batching" or "contracting" */
} kiln_kw;

kiln_fmt kiln_op_format(kiln_op_kind kind);
/* Keyword list of the op, terminated by an entry with keyword NULL (never NULL itself). */
const kiln_kw *kiln_op_keywords(kiln_op_kind kind);

#endif
