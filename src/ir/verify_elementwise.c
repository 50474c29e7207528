/* Type and shape rules of the elementwise ops (StableHLO spec, "Ops"; CHLO unary/binary
 * ops; arith.addf).
 *
 * Shapes are compared the way the spec's "Dynamism" section asks: a `?` dimension
 * matches any size, and a static size must not exceed the other side's bound. Element
 * types are compared like baseline_element_type: two quantized element types agree when
 * their storage type, storage range, expressed type and granularity (per-tensor or
 * per-axis) agree; scales and zero points may differ, as the conformance material's
 * quantized programs rely on.
 *
 * Every op of this family is described by one row of k_rules (indexed by kiln_op_kind):
 * the rule function, the number of operands and the element kinds its operands and
 * results admit. */
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"

/* ---------------------------------------------------------------- element kinds */

enum {
  K_PRED = 1u << 0,       /* i1 */
  K_SINT = 1u << 1,       /* iN (signless, N > 1) */
  K_UINT = 1u << 2,       /* uiN */
  K_FLOAT = 1u << 3,      /* any floating-point type */
  K_COMPLEX = 1u << 4,    /* complex<f32>, complex<f64> */
  K_QUANT = 1u << 5,      /* per-tensor quantized */
  K_QUANT_AXIS = 1u << 6, /* per-axis quantized */
};
#define K_INT (K_SINT | K_UINT)
#define K_ANY_QUANT (K_QUANT | K_QUANT_AXIS)
#define K_ANY (K_PRED | K_INT | K_FLOAT | K_COMPLEX | K_QUANT) /* "tensor" of the spec */

static unsigned elem_kind(const kiln_type *elem) {
  if (!elem) return 0;
  if (elem->kind == KILN_TYPE_QUANT) return elem->quant.axis >= 0 ? K_QUANT_AXIS : K_QUANT;
  if (elem->kind != KILN_TYPE_SCALAR) return 0;
  switch (kiln_elem_class_of(elem->elem)) {
    case KILN_ELEM_CLASS_B: return K_PRED;
    case KILN_ELEM_CLASS_I: return K_SINT;
    case KILN_ELEM_CLASS_U: return K_UINT;
    case KILN_ELEM_CLASS_F: return K_FLOAT;
    case KILN_ELEM_CLASS_C: return K_COMPLEX;
    default: return 0;
  }
}

/* "boolean, integer or floating-point" for a mask, into buf. */
static const char *kinds_str(unsigned mask, char *buf, size_t cap) {
  const char *names[8];
  int n = 0;
  if (mask & K_PRED) names[n++] = "boolean";
  if ((mask & K_INT) == K_INT)
    names[n++] = "integer";
  else if (mask & K_SINT)
    names[n++] = "signed integer";
  else if (mask & K_UINT)
    names[n++] = "unsigned integer";
  if (mask & K_FLOAT) names[n++] = "floating-point";
  if (mask & K_COMPLEX) names[n++] = "complex";
  if ((mask & K_ANY_QUANT) == K_ANY_QUANT)
    names[n++] = "quantized";
  else if (mask & K_QUANT)
    names[n++] = "per-tensor quantized";
  else if (mask & K_QUANT_AXIS)
    names[n++] = "per-axis quantized";
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && len < cap; i++) {
    const char *sep = i == 0 ? "" : (i == n - 1 ? " or " : ", ");
    int w = snprintf(buf + len, cap - len, "%s%s", sep, names[i]);
    if (w < 0) break;
    len += (size_t)w;
  }
  return buf;
}

/* ---------------------------------------------------------------- operands and results */

/* A slot is an operand (0 .. num_operands-1) or a result (after them). */
static int slot_count(const kiln_op *op) { return op->num_operands + op->num_results; }

static const kiln_type *slot_type(const kiln_op *op, int s) {
  if (s < op->num_operands) return op->operands[s] ? op->operands[s]->type : NULL;
  return op->results[s - op->num_operands].type;
}

static const char *slot_name(const kiln_op *op, int s, char *buf, size_t cap) {
  if (s < op->num_operands)
    snprintf(buf, cap, "operand #%d", s);
  else if (op->num_results == 1)
    snprintf(buf, cap, "result");
  else
    snprintf(buf, cap, "result #%d", s - op->num_operands);
  return buf;
}

static int result_slot(const kiln_op *op) { return op->num_operands; }

static const char *tstr(const kiln_type *t, char *buf, size_t cap) {
  if (!t) {
    snprintf(buf, cap, "<null>");
    return buf;
  }
  return kiln_verify_type_str(t, buf, cap);
}

static bool is_tensor(const kiln_type *t) { return kiln_type_is_tensor(t); }
static int32_t rank_of(const kiln_type *t) { return is_tensor(t) ? t->tensor.rank : -1; }

static bool is_scalar_elem(const kiln_type *elem, kiln_elem e) {
  return elem && elem->kind == KILN_TYPE_SCALAR && elem->elem == e;
}

/* ---------------------------------------------------------------- shared checks */

typedef struct ew_rule_desc ew_rule_desc;
typedef kiln_status (*ew_rule)(const kiln_verify_ctx *ctx, const kiln_op *op,
                               const ew_rule_desc *d);
struct ew_rule_desc {
  ew_rule rule;
  int32_t num_operands;
  unsigned operand_kinds, result_kinds;
};

static kiln_status check_arity(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t nops) {
  if (op->num_operands != nops)
    return kiln_verify_error(ctx, op, "expects %d operand%s, got %d", nops, nops == 1 ? "" : "s",
                             op->num_operands);
  if (op->num_results != 1)
    return kiln_verify_error(ctx, op, "expects 1 result, got %d", op->num_results);
  for (int32_t i = 0; i < nops; i++)
    if (!op->operands[i] || !op->operands[i]->type)
      return kiln_verify_error(ctx, op, "operand #%d has no type", i);
  if (!op->results[0].type) return kiln_verify_error(ctx, op, "result has no type");
  return NULL;
}

static kiln_status check_kinds(const kiln_verify_ctx *ctx, const kiln_op *op, int s,
                               unsigned mask) {
  const kiln_type *t = slot_type(op, s);
  if (is_tensor(t) && (elem_kind(t->tensor.element) & mask)) return NULL;
  char name[24], kinds[128], ts[160];
  return kiln_verify_error(ctx, op, "%s must be a tensor of %s elements, got %s",
                           slot_name(op, s, name, sizeof name),
                           kinds_str(mask, kinds, sizeof kinds), tstr(t, ts, sizeof ts));
}

/* Arity, then the element kinds of every operand and of the result. */
static kiln_status check_signature(const kiln_verify_ctx *ctx, const kiln_op *op,
                                   const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_arity(ctx, op, d->num_operands));
  for (int32_t i = 0; i < op->num_operands; i++)
    KILN_RETURN_IF_ERROR(check_kinds(ctx, op, i, d->operand_kinds));
  return check_kinds(ctx, op, result_slot(op), d->result_kinds);
}

static kiln_status mismatch(const kiln_verify_ctx *ctx, const kiln_op *op, int s, int ref,
                            const char *what) {
  char n1[24], n2[24], t1[160], t2[160];
  return kiln_verify_error(ctx, op, "%s type %s %s %s type %s", slot_name(op, s, n1, sizeof n1),
                           tstr(slot_type(op, s), t1, sizeof t1), what,
                           slot_name(op, ref, n2, sizeof n2),
                           tstr(slot_type(op, ref), t2, sizeof t2));
}

/* Every operand and the result have the shape of operand #0 (`?` matches anything). */
static kiln_status check_same_shapes(const kiln_verify_ctx *ctx, const kiln_op *op) {
  for (int s = 1; s < slot_count(op); s++)
    if (!kiln_verify_shapes_compatible(slot_type(op, s), slot_type(op, 0)))
      return mismatch(ctx, op, s, 0, "does not have the shape of");
  return NULL;
}

/* baseline_type(x) = baseline_type(operand #0) for every operand and the result. */
static kiln_status check_same_baseline_types(const kiln_verify_ctx *ctx, const kiln_op *op) {
  for (int s = 1; s < slot_count(op); s++)
    if (!kiln_verify_types_compatible(slot_type(op, s), slot_type(op, 0)))
      return mismatch(ctx, op, s, 0, "is not compatible with");
  return NULL;
}

static kiln_status check_elem_is(const kiln_verify_ctx *ctx, const kiln_op *op, int s,
                                 kiln_elem want, const char *why) {
  const kiln_type *t = slot_type(op, s);
  if (is_scalar_elem(t->tensor.element, want)) return NULL;
  char name[24], ts[160];
  return kiln_verify_error(ctx, op, "%s type %s must have element type %s (%s)",
                           slot_name(op, s, name, sizeof name), tstr(t, ts, sizeof ts),
                           kiln_elem_name(want), why);
}

/* ---------------------------------------------------------------- rules */

/* abs_c*, cbrt_c1, ... : baseline_type(operands...) = baseline_type(result). */
static kiln_status rule_same_type(const kiln_verify_ctx *ctx, const kiln_op *op,
                                  const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  return check_same_baseline_types(ctx, op);
}

/* remainder_c1, without complex elements: the spec's type tables list complex, but its
 * semantics leave complex remainder "TBD" (openxla/stablehlo#997, which plans to drop
 * the type), XLA and JAX have none and the reference interpreter refuses it. A program
 * no backend can give a meaning to is rejected here rather than when it runs. */
static kiln_status rule_remainder(const kiln_verify_ctx *ctx, const kiln_op *op,
                                  const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_arity(ctx, op, d->num_operands));
  for (int s = 0; s < slot_count(op); s++) {
    const kiln_type *t = slot_type(op, s);
    if (is_tensor(t) && elem_kind(t->tensor.element) == K_COMPLEX) {
      char name[24], ts[160];
      return kiln_verify_error(ctx, op, "%s has type %s, but remainder is not defined on complex "
                                        "numbers (the StableHLO spec leaves it TBD, "
                                        "openxla/stablehlo#997)",
                               slot_name(op, s, name, sizeof name), tstr(t, ts, sizeof ts));
    }
  }
  return rule_same_type(ctx, op, d);
}

/* convert_c1, is_finite_c1: shapes only. */
static kiln_status rule_same_shape(const kiln_verify_ctx *ctx, const kiln_op *op,
                                   const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  return check_same_shapes(ctx, op);
}

/* add_c1 .. add_c7: plain tensors agree exactly; quantized ones agree on storage and
 * expressed types, and per-axis quantization carries to the result. */
static kiln_status rule_add(const kiln_verify_ctx *ctx, const kiln_op *op, const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  const kiln_type *e[3];
  int nquant = 0;
  for (int s = 0; s < 3; s++) {
    e[s] = slot_type(op, s)->tensor.element;
    nquant += e[s]->kind == KILN_TYPE_QUANT;
  }
  if (nquant == 0) {
    for (int s = 1; s < 3; s++)
      if (e[s]->elem != e[0]->elem)
        return mismatch(ctx, op, s, 0, "does not have the element type of");
    return NULL;
  }
  if (nquant < 3) {
    int plain = 0, quant = 0;
    while (e[plain]->kind == KILN_TYPE_QUANT) plain++;
    while (e[quant]->kind != KILN_TYPE_QUANT) quant++;
    return mismatch(ctx, op, plain, quant, "is not quantized (all or none must be) like");
  }
  for (int s = 1; s < 3; s++) {
    if (e[s]->quant.storage != e[0]->quant.storage)
      return mismatch(ctx, op, s, 0, "has a quantization storage type different from");
    if (e[s]->quant.expressed != e[0]->quant.expressed)
      return mismatch(ctx, op, s, 0, "has a quantization expressed type different from");
  }
  bool operand_axis = e[0]->quant.axis >= 0 || e[1]->quant.axis >= 0;
  if (operand_axis != (e[2]->quant.axis >= 0))
    return kiln_verify_error(ctx, op,
                             "result must be per-axis quantized exactly when an operand is");
  for (int s = 0; s < 2; s++)
    if (e[s]->quant.axis >= 0 && e[s]->quant.axis != e[2]->quant.axis)
      return mismatch(ctx, op, s, result_slot(op), "has a quantization_dimension different from");
  return NULL;
}

/* abs_c1, abs_c2: the result drops the complex part. */
static kiln_status rule_abs(const kiln_verify_ctx *ctx, const kiln_op *op, const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  const kiln_type *in = slot_type(op, 0)->tensor.element;
  const kiln_type *out = slot_type(op, 1)->tensor.element;
  if (elem_kind(in) == K_COMPLEX)
    return check_elem_is(ctx, op, 1, kiln_elem_complex_part(in->elem),
                         "the element type of the complex operand");
  if (!kiln_verify_elems_compatible(in, out))
    return mismatch(ctx, op, 1, 0, "does not have the element type of");
  return NULL;
}

/* real_c1/c2, imag_c1/c2: floats stay, complex<E> becomes E. */
static kiln_status rule_complex_part(const kiln_verify_ctx *ctx, const kiln_op *op,
                                     const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  const kiln_type *in = slot_type(op, 0)->tensor.element;
  bool complex = elem_kind(in) == K_COMPLEX;
  return check_elem_is(
      ctx, op, 1, complex ? kiln_elem_complex_part(in->elem) : in->elem,
      complex ? "the element type of the complex operand" : "the element type of the operand");
}

/* complex_c1 .. complex_c3. */
static kiln_status rule_complex(const kiln_verify_ctx *ctx, const kiln_op *op,
                                const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  const kiln_type *lhs = slot_type(op, 0)->tensor.element;
  if (lhs->elem != KILN_ELEM_F32 && lhs->elem != KILN_ELEM_F64) {
    char ts[160];
    return kiln_verify_error(ctx, op, "operand #0 must be a tensor of f32 or f64 elements, got %s",
                             tstr(slot_type(op, 0), ts, sizeof ts));
  }
  if (!kiln_verify_elems_identical(slot_type(op, 1)->tensor.element, lhs))
    return mismatch(ctx, op, 1, 0, "does not have the element type of");
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  kiln_elem want = lhs->elem == KILN_ELEM_F32 ? KILN_ELEM_C64 : KILN_ELEM_C128;
  return check_elem_is(ctx, op, 2, want, "complex of the operand element type");
}

static const char *enum_value(const kiln_attr *a) {
  if (!a) return NULL;
  if (a->kind == KILN_ATTR_ENUM) return a->enumv.value;
  if (a->kind == KILN_ATTR_STRING) return a->str.data;
  return NULL;
}

static bool one_of(const char *v, const char *const *names) {
  for (; v && *names; names++)
    if (strcmp(v, *names) == 0) return true;
  return false;
}

/* compare_c1, compare_c2, and the enum values of compare_i3/compare_i4. The spec's
 * compare_c3 (compare_type vs element type) is not enforced: StableHLO's own verifier
 * accepts e.g. SIGNED on floats, and the conformance material carries such programs. */
static kiln_status rule_compare(const kiln_verify_ctx *ctx, const kiln_op *op,
                                const ew_rule_desc *d) {
  static const char *const directions[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
  static const char *const types[] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  if (!kiln_verify_elems_compatible(slot_type(op, 1)->tensor.element,
                                    slot_type(op, 0)->tensor.element))
    return mismatch(ctx, op, 1, 0, "does not have the element type of");
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  const kiln_attr *dir = kiln_op_attr(op, "comparison_direction");
  if (!dir) return kiln_verify_error(ctx, op, "requires attribute 'comparison_direction'");
  if (!one_of(enum_value(dir), directions))
    return kiln_verify_error(ctx, op, "comparison_direction must be one of EQ, NE, GE, GT, LE, LT");
  const kiln_attr *type = kiln_op_attr(op, "compare_type");
  if (type && !one_of(enum_value(type), types))
    return kiln_verify_error(ctx, op,
                             "compare_type must be one of FLOAT, TOTALORDER, SIGNED, UNSIGNED");
  return NULL;
}

/* clamp_c1 .. clamp_c4: min and max are scalars or have the operand's shape. */
static kiln_status rule_clamp(const kiln_verify_ctx *ctx, const kiln_op *op,
                              const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  const kiln_type *operand = slot_type(op, 1);
  for (int s = 0; s < slot_count(op); s++)
    if (!kiln_verify_elems_compatible(slot_type(op, s)->tensor.element, operand->tensor.element))
      return mismatch(ctx, op, s, 1, "does not have the element type of");
  for (int s = 0; s < 3; s += 2)
    if (rank_of(slot_type(op, s)) != 0 && !kiln_verify_shapes_compatible(slot_type(op, s), operand))
      return mismatch(ctx, op, s, 1, "is neither a scalar nor of the shape of");
  if (!kiln_verify_types_compatible(slot_type(op, 3), operand))
    return mismatch(ctx, op, 3, 1, "is not compatible with");
  return NULL;
}

/* select_c1, select_c2. */
static kiln_status rule_select(const kiln_verify_ctx *ctx, const kiln_op *op,
                               const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_kinds(ctx, op, 0, K_PRED));
  if (rank_of(slot_type(op, 0)) != 0 &&
      !kiln_verify_shapes_compatible(slot_type(op, 0), slot_type(op, 1)))
    return mismatch(ctx, op, 0, 1, "is neither a scalar nor of the shape of");
  for (int s = 2; s < 4; s++)
    if (!kiln_verify_types_compatible(slot_type(op, s), slot_type(op, 1)))
      return mismatch(ctx, op, s, 1, "is not compatible with");
  return NULL;
}

/* reduce_precision_c1 .. c3. */
static kiln_status check_int_attr(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                                  int64_t min) {
  const kiln_attr *a = kiln_op_attr(op, name);
  int64_t v;
  if (!a) return kiln_verify_error(ctx, op, "requires attribute '%s'", name);
  if (kiln_attr_count(a) != 1 || !kiln_attr_i64_at(a, 0, &v))
    return kiln_verify_error(ctx, op, "attribute '%s' must be an integer", name);
  if (v < min || v > INT32_MAX)
    return kiln_verify_error(ctx, op, "%s = %lld must be in [%lld, %d]", name, (long long)v,
                             (long long)min, INT32_MAX);
  return NULL;
}

static kiln_status rule_reduce_precision(const kiln_verify_ctx *ctx, const kiln_op *op,
                                         const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(rule_same_type(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_int_attr(ctx, op, "exponent_bits", 1));
  return check_int_attr(ctx, op, "mantissa_bits", 0);
}

static int storage_bits(const kiln_type *elem) {
  return kiln_elem_bits(elem->kind == KILN_TYPE_QUANT ? elem->quant.storage : elem->elem);
}

/* bitcast_convert_c1, bitcast_convert_c2. */
static kiln_status rule_bitcast_convert(const kiln_verify_ctx *ctx, const kiln_op *op,
                                        const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  const kiln_type *in = slot_type(op, 0), *out = slot_type(op, 1);
  if ((elem_kind(in->tensor.element) == K_COMPLEX) != (elem_kind(out->tensor.element) == K_COMPLEX))
    return mismatch(ctx, op, 1, 0, "cannot be bitcast (real and complex do not mix) from");
  int in_bits = storage_bits(in->tensor.element), out_bits = storage_bits(out->tensor.element);
  if (in_bits == out_bits) {
    if (!kiln_verify_shapes_compatible(in, out))
      return mismatch(ctx, op, 1, 0, "does not have the shape of");
    return NULL;
  }
  /* The type with the narrower element has one more dimension, of size wide / narrow. */
  const kiln_type *narrow = in_bits < out_bits ? in : out, *wide = in_bits < out_bits ? out : in;
  int narrow_bits = in_bits < out_bits ? in_bits : out_bits;
  int wide_bits = in_bits < out_bits ? out_bits : in_bits;
  char t1[160], t2[160];
  if (narrow->tensor.rank != wide->tensor.rank + 1)
    return kiln_verify_error(ctx, op,
                             "bitcast from %s to %s: the type with the narrower element must have "
                             "rank one more than the other",
                             tstr(in, t1, sizeof t1), tstr(out, t2, sizeof t2));
  int64_t last = narrow->tensor.dims[narrow->tensor.rank - 1];
  if (last != KILN_DIM_DYNAMIC && last * narrow_bits != wide_bits)
    return kiln_verify_error(
        ctx, op, "bitcast from %s to %s: last dimension %lld times %d bits must equal %d bits",
        tstr(in, t1, sizeof t1), tstr(out, t2, sizeof t2), (long long)last, narrow_bits, wide_bits);
  for (int32_t i = 0; i < wide->tensor.rank; i++)
    if (!kiln_verify_dims_compatible(narrow->tensor.dims[i], wide->tensor.dims[i]))
      return kiln_verify_error(ctx, op, "bitcast from %s to %s: dimension %d does not match",
                               tstr(in, t1, sizeof t1), tstr(out, t2, sizeof t2), i);
  return NULL;
}

/* uniform_quantize_c1, uniform_quantize_c2. */
static kiln_status rule_uniform_quantize(const kiln_verify_ctx *ctx, const kiln_op *op,
                                         const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  const kiln_type *in = slot_type(op, 0)->tensor.element;
  const kiln_type *out = slot_type(op, 1)->tensor.element;
  kiln_elem want = in->kind == KILN_TYPE_QUANT ? in->quant.expressed : in->elem;
  if (out->quant.expressed == want) return NULL;
  char ts[160];
  return kiln_verify_error(
      ctx, op, "result type %s must have expressed type %s (%s)",
      tstr(slot_type(op, 1), ts, sizeof ts), kiln_elem_name(want),
      in->kind == KILN_TYPE_QUANT ? "the operand's expressed type" : "the operand's element type");
}

/* uniform_dequantize_c1, uniform_dequantize_c2. */
static kiln_status rule_uniform_dequantize(const kiln_verify_ctx *ctx, const kiln_op *op,
                                           const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_signature(ctx, op, d));
  KILN_RETURN_IF_ERROR(check_same_shapes(ctx, op));
  return check_elem_is(ctx, op, 1, slot_type(op, 0)->tensor.element->quant.expressed,
                       "the operand's expressed type");
}

/* arith.addf: float scalars or tensors, all of one type. */
static kiln_status rule_arith_addf(const kiln_verify_ctx *ctx, const kiln_op *op,
                                   const ew_rule_desc *d) {
  KILN_RETURN_IF_ERROR(check_arity(ctx, op, d->num_operands));
  for (int s = 0; s < slot_count(op); s++) {
    const kiln_type *t = slot_type(op, s);
    const kiln_type *elem = is_tensor(t) ? t->tensor.element : t;
    if (elem_kind(elem) != K_FLOAT) {
      char name[24], ts[160];
      return kiln_verify_error(ctx, op, "%s must be a floating-point scalar or tensor, got %s",
                               slot_name(op, s, name, sizeof name), tstr(t, ts, sizeof ts));
    }
    if (s > 0 && (is_tensor(t) ? !kiln_verify_types_compatible(t, slot_type(op, 0))
                               : !kiln_verify_elems_identical(t, slot_type(op, 0))))
      return mismatch(ctx, op, s, 0, "does not match");
  }
  return NULL;
}

/* ---------------------------------------------------------------- the table */

#define UNARY(kinds) \
  { rule_same_type, 1, (kinds), (kinds) }
#define BINARY(kinds) \
  { rule_same_type, 2, (kinds), (kinds) }
#define K_FC (K_FLOAT | K_COMPLEX)
#define K_FCQ (K_FLOAT | K_COMPLEX | K_QUANT)
#define K_IFCQ (K_INT | K_FLOAT | K_COMPLEX | K_QUANT)
#define K_NONQUANT (K_PRED | K_INT | K_FLOAT | K_COMPLEX)

static const ew_rule_desc k_rules[KILN_OP_COUNT] = {
    [KILN_OP_ABS] = {rule_abs, 1, K_SINT | K_FCQ, K_SINT | K_FLOAT | K_QUANT},
    [KILN_OP_ADD] = {rule_add, 2, K_ANY | K_QUANT_AXIS, K_ANY | K_QUANT_AXIS},
    [KILN_OP_AND] = BINARY(K_PRED | K_INT),
    [KILN_OP_ATAN2] = BINARY(K_FCQ),
    [KILN_OP_BITCAST_CONVERT] = {rule_bitcast_convert, 1, K_ANY | K_QUANT_AXIS,
                                 K_ANY | K_QUANT_AXIS},
    [KILN_OP_CBRT] = UNARY(K_FCQ),
    [KILN_OP_CEIL] = UNARY(K_FLOAT | K_QUANT),
    [KILN_OP_CLAMP] = {rule_clamp, 3, K_ANY, K_ANY},
    [KILN_OP_COMPARE] = {rule_compare, 2, K_ANY, K_PRED},
    [KILN_OP_COMPLEX] = {rule_complex, 2, K_FLOAT, K_COMPLEX},
    [KILN_OP_CONVERT] = {rule_same_shape, 1, K_NONQUANT, K_NONQUANT},
    [KILN_OP_COSINE] = UNARY(K_FCQ),
    [KILN_OP_COUNT_LEADING_ZEROS] = UNARY(K_INT),
    [KILN_OP_DIVIDE] = BINARY(K_IFCQ),
    [KILN_OP_EXPONENTIAL] = UNARY(K_FCQ),
    [KILN_OP_EXPONENTIAL_MINUS_ONE] = UNARY(K_FCQ),
    [KILN_OP_FLOOR] = UNARY(K_FLOAT | K_QUANT),
    [KILN_OP_IMAG] = {rule_complex_part, 1, K_FC, K_FLOAT},
    [KILN_OP_IS_FINITE] = {rule_same_shape, 1, K_FLOAT | K_QUANT, K_PRED},
    [KILN_OP_LOG] = UNARY(K_FCQ),
    [KILN_OP_LOG_PLUS_ONE] = UNARY(K_FCQ),
    [KILN_OP_LOGISTIC] = UNARY(K_FCQ),
    [KILN_OP_MAXIMUM] = BINARY(K_ANY),
    [KILN_OP_MINIMUM] = BINARY(K_ANY),
    [KILN_OP_MULTIPLY] = BINARY(K_ANY),
    [KILN_OP_NEGATE] = UNARY(K_IFCQ),
    [KILN_OP_NOT] = UNARY(K_PRED | K_INT),
    [KILN_OP_OR] = BINARY(K_PRED | K_INT),
    [KILN_OP_POPCNT] = UNARY(K_INT),
    [KILN_OP_POWER] = BINARY(K_IFCQ),
    [KILN_OP_REAL] = {rule_complex_part, 1, K_FC, K_FLOAT},
    [KILN_OP_REDUCE_PRECISION] = {rule_reduce_precision, 1, K_FLOAT | K_QUANT, K_FLOAT | K_QUANT},
    [KILN_OP_REMAINDER] = {rule_remainder, 2, K_INT | K_FLOAT | K_QUANT, K_INT | K_FLOAT | K_QUANT},
    [KILN_OP_ROUND_NEAREST_AFZ] = UNARY(K_FLOAT | K_QUANT),
    [KILN_OP_ROUND_NEAREST_EVEN] = UNARY(K_FLOAT | K_QUANT),
    [KILN_OP_RSQRT] = UNARY(K_FCQ),
    [KILN_OP_SELECT] = {rule_select, 3, K_ANY, K_ANY},
    [KILN_OP_SHIFT_LEFT] = BINARY(K_INT),
    [KILN_OP_SHIFT_RIGHT_ARITHMETIC] = BINARY(K_INT),
    [KILN_OP_SHIFT_RIGHT_LOGICAL] = BINARY(K_INT),
    [KILN_OP_SIGN] = UNARY(K_SINT | K_FCQ),
    [KILN_OP_SINE] = UNARY(K_FCQ),
    [KILN_OP_SQRT] = UNARY(K_FCQ),
    [KILN_OP_SUBTRACT] = BINARY(K_IFCQ),
    [KILN_OP_TAN] = UNARY(K_FCQ),
    [KILN_OP_TANH] = UNARY(K_FCQ),
    [KILN_OP_UNIFORM_DEQUANTIZE] = {rule_uniform_dequantize, 1, K_ANY_QUANT, K_FLOAT},
    [KILN_OP_UNIFORM_QUANTIZE] = {rule_uniform_quantize, 1, K_FLOAT | K_ANY_QUANT, K_ANY_QUANT},
    [KILN_OP_XOR] = BINARY(K_PRED | K_INT),
    [KILN_OP_CHLO_ACOS] = UNARY(K_FC),
    [KILN_OP_CHLO_ACOSH] = UNARY(K_FC),
    [KILN_OP_CHLO_ASIN] = UNARY(K_FC),
    [KILN_OP_CHLO_ASINH] = UNARY(K_FC),
    [KILN_OP_CHLO_ATAN] = UNARY(K_FC),
    [KILN_OP_CHLO_ATANH] = UNARY(K_FC),
    [KILN_OP_CHLO_BESSEL_I1E] = UNARY(K_FC),
    [KILN_OP_CHLO_COSH] = UNARY(K_FC),
    [KILN_OP_CHLO_DIGAMMA] = UNARY(K_FLOAT),
    [KILN_OP_CHLO_ERF] = UNARY(K_FLOAT),
    [KILN_OP_CHLO_ERF_INV] = UNARY(K_FLOAT),
    [KILN_OP_CHLO_ERFC] = UNARY(K_FLOAT),
    [KILN_OP_CHLO_LGAMMA] = UNARY(K_FLOAT),
    [KILN_OP_CHLO_MULHI] = BINARY(K_INT),
    [KILN_OP_CHLO_NEXT_AFTER] = BINARY(K_FLOAT),
    [KILN_OP_CHLO_POLYGAMMA] = BINARY(K_FLOAT),
    [KILN_OP_CHLO_ZETA] = BINARY(K_FLOAT),
    [KILN_OP_CHLO_SINH] = UNARY(K_FC),
    [KILN_OP_CHLO_SQUARE] = UNARY(K_FC),
    [KILN_OP_CHLO_TAN] = UNARY(K_FC),
    [KILN_OP_ARITH_ADDF] = {rule_arith_addf, 2, K_FLOAT, K_FLOAT},
};

static kiln_status verify_elementwise(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const ew_rule_desc *d = &k_rules[op->kind];
  return d->rule(ctx, op, d);
}

kiln_verify_fn kiln_verify_elementwise_lookup(kiln_op_kind kind) {
  if ((unsigned)kind >= (unsigned)KILN_OP_COUNT || !k_rules[kind].rule) return NULL;
  return verify_elementwise;
}
