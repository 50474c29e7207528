/* Elementwise ops. Ops written in the OPS or CHLO assembly format without keyword
 * attributes are tried as same-type unary, binary and ternary ops on every element type;
 * the verifier says which arities and types the op admits. Ops whose operand and result
 * types differ (compare, select, convert, ...) have a signature enumerator below. Every
 * admitted form runs over the shapes of k_shapes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ir/op.h"

typedef struct shape {
  int rank;
  int64_t dims[3];
} shape;

static const shape k_shapes[] = {
    {0, {0}}, {1, {0}}, {1, {1}}, {1, {7}}, {2, {3, 5}}, {2, {17, 33}}, {3, {2, 3, 4}},
};
#define NUM_SHAPES ((int)(sizeof k_shapes / sizeof k_shapes[0]))
#define PROBE_SHAPE 4 /* [3,5] */

/* Allowed ULP distance per op (0: bitwise). Approximate math gets a few ULP, the special
 * functions more; everything else is exact in IEEE arithmetic. */
static const unsigned char k_ulp[KILN_OP_COUNT] = {
    [KILN_OP_CBRT] = 2, [KILN_OP_RSQRT] = 2, [KILN_OP_EXPONENTIAL] = 4, [KILN_OP_EXPONENTIAL_MINUS_ONE] = 4,
    [KILN_OP_LOG] = 4, [KILN_OP_LOG_PLUS_ONE] = 4, [KILN_OP_LOGISTIC] = 4, [KILN_OP_SINE] = 4,
    [KILN_OP_COSINE] = 4, [KILN_OP_TAN] = 4, [KILN_OP_TANH] = 4, [KILN_OP_ATAN2] = 4, [KILN_OP_POWER] = 4,
    [KILN_OP_CHLO_ACOS] = 4, [KILN_OP_CHLO_ACOSH] = 4, [KILN_OP_CHLO_ASIN] = 4, [KILN_OP_CHLO_ASINH] = 4,
    [KILN_OP_CHLO_ATAN] = 4, [KILN_OP_CHLO_ATANH] = 4, [KILN_OP_CHLO_COSH] = 4, [KILN_OP_CHLO_SINH] = 4,
    [KILN_OP_CHLO_TAN] = 4, [KILN_OP_CHLO_ERF] = 4, [KILN_OP_CHLO_ERFC] = 4, [KILN_OP_CHLO_BESSEL_I1E] = 16,
    [KILN_OP_CHLO_DIGAMMA] = 16, [KILN_OP_CHLO_LGAMMA] = 16, [KILN_OP_CHLO_ERF_INV] = 16,
    [KILN_OP_CHLO_POLYGAMMA] = 16, [KILN_OP_CHLO_ZETA] = 16,
};

/* One form of an op: operand element types, the result element type, attributes. */
typedef struct form {
  kiln_op_kind op;
  const char *variant, *attrs; /* attrs: "{...}" or "" */
  int arity;
  kiln_elem in[3], out;
  bool scalar_first; /* the first operand is a scalar (select's predicate) */
  bool in_range;     /* inputs drawn within [lo, hi] */
  double lo, hi;
} form;

/* Builds the case of form f at shape s. */
static void build(kiln_diff_case *c, const form *f, const shape *s) {
  kiln_diff_case_init(c, f->op, f->variant);
  c->ulp = k_ulp[f->op];
  /* lgamma and digamma of negative x reflect (log(pi/|sin(pi x)|) - lgamma(1 - x),
   * psi(1 - x) - pi cot(pi x)): near their zeros there the result is small against terms of
   * about the function at |x|, which the magnitude run computes, so their error is also
   * allowed relative to it */
  if (f->op == KILN_OP_CHLO_LGAMMA || f->op == KILN_OP_CHLO_DIGAMMA) c->terms = 16;
  c->num_args = f->arity;
  char in_types[3][64], out_type[64], body[512];
  for (int i = 0; i < f->arity; i++) {
    kiln_diff_arg *a = &c->args[i];
    a->elem = f->in[i];
    a->rank = i == 0 && f->scalar_first ? 0 : s->rank;
    memcpy(a->dims, s->dims, sizeof s->dims);
    a->gen = f->in_range ? KILN_DIFF_GEN_RANGE : KILN_DIFF_GEN_RANDOM;
    a->lo = f->lo, a->hi = f->hi;
    kiln_diff_tensor_type(a, in_types[i], sizeof in_types[i]);
  }
  kiln_diff_arg res = {.elem = f->out, .rank = s->rank};
  memcpy(res.dims, s->dims, sizeof s->dims);
  kiln_diff_tensor_type(&res, out_type, sizeof out_type);
  int len = snprintf(body, sizeof body, "  %%r0 = \"%s\"(", kiln_op_name(f->op));
  for (int i = 0; i < f->arity; i++) len += snprintf(body + len, sizeof body - (size_t)len, "%s%%a%d", i ? ", " : "", i);
  len += snprintf(body + len, sizeof body - (size_t)len, ") %s : (", f->attrs);
  for (int i = 0; i < f->arity; i++) len += snprintf(body + len, sizeof body - (size_t)len, "%s%s", i ? ", " : "", in_types[i]);
  snprintf(body + len, sizeof body - (size_t)len, ") -> %s", out_type);
  const char *results[1] = {out_type};
  kiln_diff_wrap(c, results, 1, body, NULL);
  kiln_elem last = f->in[f->arity - 1];
  snprintf(c->type_label, sizeof c->type_label, "%s%s%s", kiln_elem_name(last), last == f->out ? "" : "->",
           last == f->out ? "" : kiln_elem_name(f->out));
  kiln_diff_dims_str(s->rank, s->dims, c->shape_label, sizeof c->shape_label);
}

/* Runs f over shapes [first, last) when the verifier admits it (probed at [3,5]). With
 * quiet false, a rejected form is reported (a form the harness expects to be valid). */
static void run_form(kiln_diff_ctx *ctx, const form *f, int first, int last, bool quiet) {
  static kiln_diff_case c; /* large: kept off the stack */
  build(&c, f, &k_shapes[PROBE_SHAPE]);
  if (!kiln_diff_verifies(c.text)) {
    if (!quiet) kiln_diff_run(ctx, &c, true);
    return;
  }
  for (int s = first; s < last; s++) {
    build(&c, f, &k_shapes[s]);
    kiln_diff_run(ctx, &c, true);
  }
}

static form same_type(kiln_op_kind op, int arity, kiln_elem e) {
  return (form){.op = op, .variant = "", .attrs = "", .arity = arity, .in = {e, e, e}, .out = e};
}

/* ---------------------------------------------------------------- mixed-type forms */

/* Directions, then the same with the total order of floats (variant names are static). */
static const char *const k_directions[2][6] = {
    {"EQ", "NE", "GE", "GT", "LE", "LT"},
    {"EQ,TOTALORDER", "NE,TOTALORDER", "GE,TOTALORDER", "GT,TOTALORDER", "LE,TOTALORDER", "LT,TOTALORDER"}};

static void compare_forms(kiln_diff_ctx *ctx, kiln_elem e) {
  char attrs[160];
  for (int total = 0; total < 2; total++)
    for (int d = 0; d < 6; d++) {
      if (total && !kiln_elem_is_float(e)) continue;
      snprintf(attrs, sizeof attrs, "{comparison_direction = #stablehlo<comparison_direction %.2s>%s}",
               k_directions[0][d], total ? ", compare_type = #stablehlo<comparison_type TOTALORDER>" : "");
      form f = same_type(KILN_OP_COMPARE, 2, e);
      f.variant = k_directions[total][d];
      f.attrs = attrs;
      f.out = KILN_ELEM_I1;
      run_form(ctx, &f, 0, NUM_SHAPES, true);
    }
}

static void select_forms(kiln_diff_ctx *ctx, kiln_elem e) {
  form f = same_type(KILN_OP_SELECT, 3, e);
  f.in[0] = KILN_ELEM_I1;
  run_form(ctx, &f, 0, NUM_SHAPES, true);
  f.variant = "scalar predicate";
  f.scalar_first = true;
  run_form(ctx, &f, 0, NUM_SHAPES, true);
}

/* The integer range of e as doubles (floats: none). */
static bool int_limits(kiln_elem e, double *lo, double *hi) {
  kiln_elem_class k = kiln_elem_class_of(e);
  int bits = kiln_elem_bits(e);
  if (k == KILN_ELEM_CLASS_I) *lo = -ldexp(1, bits - 1), *hi = ldexp(1, bits - 1) - 1;
  else if (k == KILN_ELEM_CLASS_U || k == KILN_ELEM_CLASS_B) *lo = 0, *hi = ldexp(1, bits) - 1;
  else return false;
  return true;
}

/* convert: every pair of types, with inputs kept where the result is defined (a float
 * or integer that the integer result type cannot hold is implementation-defined). */
static void convert_forms(kiln_diff_ctx *ctx, kiln_elem from) {
  for (int j = 0; j < kiln_diff_elem_count(); j++) {
    kiln_elem to = kiln_diff_elem_at(j);
    if (to == KILN_ELEM_COUNT) continue;
    form f = same_type(KILN_OP_CONVERT, 1, from);
    f.out = to;
    double lo, hi, flo, fhi;
    if (int_limits(to, &lo, &hi) && to != KILN_ELEM_I1 && !kiln_elem_is_complex(from)) {
      f.in_range = true;
      f.lo = lo > -100 ? lo : -100, f.hi = hi < 100 ? hi : 100;
      if (int_limits(from, &flo, &fhi)) f.lo = f.lo > flo ? f.lo : flo, f.hi = f.hi < fhi ? f.hi : fhi;
    }
    run_form(ctx, &f, 4, 6, true); /* [3,5] and [17,33] */
  }
}

static void bitcast_forms(kiln_diff_ctx *ctx, kiln_elem from) {
  for (int j = 0; j < kiln_diff_elem_count(); j++) {
    kiln_elem to = kiln_diff_elem_at(j);
    if (to == KILN_ELEM_COUNT || kiln_elem_bits(to) != kiln_elem_bits(from)) continue;
    form f = same_type(KILN_OP_BITCAST_CONVERT, 1, from);
    f.out = to;
    run_form(ctx, &f, 4, 6, true);
  }
}

static void reduce_precision_forms(kiln_diff_ctx *ctx, kiln_elem e) {
  static const char *const formats[] = {"{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}",
                                        "{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}",
                                        "{exponent_bits = 4 : i32, mantissa_bits = 3 : i32}",
                                        "{exponent_bits = 2 : i32, mantissa_bits = 0 : i32}"};
  static const char *const names[] = {"e5m10", "e8m7", "e4m3", "e2m0"};
  for (int i = 0; i < 4; i++) {
    form f = same_type(KILN_OP_REDUCE_PRECISION, 1, e);
    f.variant = names[i], f.attrs = formats[i];
    run_form(ctx, &f, 0, NUM_SHAPES, true);
  }
}

/* Forms whose result type differs from the operands': to a boolean, to or from parts of
 * complex numbers. */
static void typed_forms(kiln_diff_ctx *ctx, kiln_op_kind op, kiln_elem e) {
  form f = same_type(op, 1, e);
  if (op == KILN_OP_IS_FINITE) f.out = KILN_ELEM_I1;
  if ((op == KILN_OP_REAL || op == KILN_OP_IMAG || op == KILN_OP_CHLO_BESSEL_I1E) && kiln_elem_is_complex(e))
    f.out = kiln_elem_complex_part(e);
  if (op == KILN_OP_COMPLEX) {
    if (!kiln_elem_is_float(e)) return;
    f.arity = 2;
    f.out = e == KILN_ELEM_F64 ? KILN_ELEM_C128 : KILN_ELEM_C64;
  }
  if (f.out != e) run_form(ctx, &f, 0, NUM_SHAPES, true);
}

typedef void (*form_enumerator)(kiln_diff_ctx *ctx, kiln_elem e);

static form_enumerator enumerator_of(kiln_op_kind op) {
  switch (op) {
    case KILN_OP_COMPARE: return compare_forms;
    case KILN_OP_SELECT: return select_forms;
    case KILN_OP_CONVERT: return convert_forms;
    case KILN_OP_BITCAST_CONVERT: return bitcast_forms;
    case KILN_OP_REDUCE_PRECISION: return reduce_precision_forms;
    default: return NULL;
  }
}

/* Ops the same-type probe applies to: the elementwise assembly formats, no keywords. */
static bool probed(kiln_op_kind op) {
  kiln_fmt fmt = kiln_op_format(op);
  return (fmt == KILN_FMT_OPS || fmt == KILN_FMT_CHLO) && kiln_op_keywords(op)[0].keyword == NULL &&
         !enumerator_of(op);
}

void kiln_diff_elementwise(kiln_diff_ctx *ctx, kiln_op_kind op) {
  form_enumerator en = enumerator_of(op);
  if (!en && !probed(op)) return;
  for (int i = 0; i < kiln_diff_elem_count(); i++) {
    kiln_elem e = kiln_diff_elem_at(i);
    if (e == KILN_ELEM_COUNT) continue;
    if (en) {
      en(ctx, e);
      continue;
    }
    for (int arity = 1; arity <= 3; arity++) {
      form f = same_type(op, arity, e);
      run_form(ctx, &f, 0, NUM_SHAPES, true);
    }
    typed_forms(ctx, op, e);
  }
}
