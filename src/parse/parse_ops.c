/* The pretty forms of ops (one parser per kiln_fmt family; the op table picks it). */
#include <string.h>

#include "parse/parser.h"

/* ------------------------------------------------------------------ shared pieces */

static bool set_results(kiln_parser *p, kiln_op_state *st, const kiln_type **types, int32_t n) {
  st->result_types = types;
  st->num_results = st->cap_results = n;
  return true;
}

static bool check_operand_type(kiln_parser *p, const kiln_op_state *st, int32_t i, const kiln_type *t, size_t at) {
  if (kiln_type_equal(st->operands[i]->type, t)) return true;
  return kp_fail_at(p, at, "operand #%d of '%s' is written with a type other than its definition's", (int)i,
                    kiln_op_name(st->kind));
}

static const kiln_type **one_type(kiln_parser *p, const kiln_type *t) {
  const kiln_type **v = kp_alloc(p, 1, sizeof *v);
  if (v) v[0] = t;
  return v;
}

/* A 0-d tensor of t's element type (also for reducer block arguments). */
static const kiln_type *scalar_tensor_of(kiln_parser *p, const kiln_type *t) {
  const kiln_type *r = kiln_type_tensor(p->m, kiln_type_element(t), 0, NULL, NULL);
  if (!r) kp_oom(p);
  return r;
}

/* The real type of a complex tensor (complex's operand type). */
static const kiln_type *real_of(kiln_parser *p, const kiln_type *t) {
  kiln_elem part = kiln_elem_complex_part(kiln_type_elem(t));
  if (part == KILN_ELEM_COUNT) return NULL;
  const kiln_type *e = kiln_type_scalar(p->m, part);
  return e ? kiln_type_tensor(p->m, e, t->tensor.rank, t->tensor.dims, t->tensor.bounds) : NULL;
}

bool kp_parse_op_types(kiln_parser *p, kiln_op_state *st) {
  if (!kp_expect(p, ':', "before the op's types")) return false;
  size_t at = p->tok.offset;
  if (kp_is(p, '(')) {
    const kiln_type *ft;
    if (!kp_parse_function_type(p, &ft)) return false;
    if (ft->func.num_inputs != st->num_operands)
      return kp_fail_at(p, at, "the type lists %d operands but '%s' has %d", (int)ft->func.num_inputs,
                        kiln_op_name(st->kind), (int)st->num_operands);
    for (int32_t i = 0; i < st->num_operands; i++)
      if (!check_operand_type(p, st, i, ft->func.inputs[i], at)) return false;
    return set_results(p, st, ft->func.results, ft->func.num_results);
  }
  const kiln_type **ts;
  int32_t n;
  if (!kp_parse_type_list(p, &ts, &n)) return false;
  if (n == 2 && st->kind == KILN_OP_SELECT && st->num_operands == 3) { /* pred type, value type */
    if (!check_operand_type(p, st, 0, ts[0], at) || !check_operand_type(p, st, 1, ts[1], at) ||
        !check_operand_type(p, st, 2, ts[1], at))
      return false;
    return set_results(p, st, ts + 1, 1);
  }
  if (n != 1) return kp_fail_at(p, at, "expected one type or a function type");
  const kiln_type *t = ts[0];
  if (st->kind == KILN_OP_TUPLE) {
    if (t->kind != KILN_TYPE_TUPLE || t->tuple.count != st->num_operands)
      return kp_fail_at(p, at, "stablehlo.tuple's type must be a tuple of its %d operand types", (int)st->num_operands);
    for (int32_t i = 0; i < st->num_operands; i++)
      if (!check_operand_type(p, st, i, t->tuple.types[i], at)) return false;
    return set_results(p, st, ts, 1);
  }
  if (st->kind == KILN_OP_COMPLEX) {
    const kiln_type *part = kiln_type_is_tensor(t) ? real_of(p, t) : NULL;
    if (!part) return kp_fail_at(p, at, "stablehlo.complex's type must be a complex tensor");
    for (int32_t i = 0; i < st->num_operands; i++)
      if (!check_operand_type(p, st, i, part, at)) return false;
    return set_results(p, st, ts, 1);
  }
  for (int32_t i = 0; i < st->num_operands; i++)
    if (!check_operand_type(p, st, i, t, at)) return false;
  return set_results(p, st, ts, 1);
}

static bool parse_optional_attr_dict(kiln_parser *p, kiln_op_state *st) {
  if (kp_accept_ident(p, "attributes") && !kp_is(p, '{')) return kp_fail(p, "expected '{' after 'attributes'");
  return !kp_is(p, '{') || kp_parse_state_attr_dict(p, st);
}

/* ------------------------------------------------------------------ keyword attributes */

static const kiln_kw *find_kw(kiln_op_kind kind, const kiln_tok *t) {
  for (const kiln_kw *k = kiln_op_keywords(kind); k->keyword; k++)
    if (strlen(k->keyword) == t->len && !memcmp(k->keyword, t->text, t->len)) return k;
  return NULL;
}

static kiln_attr *find_state_attr(kiln_op_state *st, const char *name) {
  for (int32_t i = 0; i < st->num_attrs; i++)
    if (!strcmp(st->attrs[i].name, name)) return (kiln_attr *)st->attrs[i].value;
  return NULL;
}

static bool parse_enum_word(kiln_parser *p, const char *enum_name, const kiln_attr **out) {
  if (p->tok.kind != KILN_TOK_IDENT) return kp_fail(p, "expected a %s value", enum_name);
  *out = kp_enum_attr(p, "stablehlo", enum_name, p->tok.text, p->tok.len);
  kp_next(p);
  return *out != NULL;
}

static bool parse_dot_dims(kiln_parser *p, kiln_op_state *st, const kiln_kw *kw) {
  const kiln_attr *lhs, *rhs;
  if (!kp_parse_i64_list(p, &lhs)) return false;
  if (!kp_accept_ident(p, "x")) return kp_fail(p, "expected 'x' between the lhs and rhs dimensions");
  if (!kp_parse_i64_list(p, &rhs)) return false;
  kiln_attr *d = find_state_attr(st, kw->attr);
  if (!d) {
    if (!(d = kp_new_attr(p, KILN_ATTR_STRUCT)) || !(d->strct.fields = kp_alloc(p, 4, sizeof *d->strct.fields)) ||
        !kp_state_add_attr(p, st, kw->attr, d))
      return false;
    d->strct.dialect = "stablehlo";
    d->strct.name = "dot";
  }
  bool batching = !strcmp(kw->extra, "batching");
  kiln_named_attr *f = &d->strct.fields[d->strct.count];
  if (d->strct.count > 2) return kp_fail(p, "dimension numbers are given twice");
  f[0] = (kiln_named_attr){batching ? "lhs_batching_dimensions" : "lhs_contracting_dimensions", lhs};
  f[1] = (kiln_named_attr){batching ? "rhs_batching_dimensions" : "rhs_contracting_dimensions", rhs};
  d->strct.count += 2;
  return true;
}

static bool parse_kw_value(kiln_parser *p, kiln_op_state *st, const kiln_kw *kw) {
  const kiln_attr *a = NULL;
  switch (kw->kind) {
    case KILN_KW_INT: {
      const kiln_type *i64 = kiln_type_scalar(p->m, KILN_ELEM_SI64);
      if (!i64 || !kp_parse_int_attr(p, i64, &a)) return false;
      break;
    }
    case KILN_KW_I64S:
      if (!kp_parse_i64_list(p, &a)) return false;
      break;
    case KILN_KW_ENUM:
      if (!parse_enum_word(p, kw->extra, &a)) return false;
      break;
    case KILN_KW_PRECISION: {
      kiln_attr *arr = kp_new_attr(p, KILN_ATTR_ARRAY);
      int32_t cap = 0;
      if (!arr || !kp_expect(p, '[', "to open the precision list")) return false;
      if (!kp_is(p, ']')) {
        do {
          const kiln_attr **slot = kp_push(p, (void **)&arr->array.items, &arr->array.count, &cap, sizeof *slot);
          if (!slot || !parse_enum_word(p, "precision", slot)) return false;
        } while (kp_accept(p, ','));
      }
      if (!kp_expect(p, ']', "to close the precision list")) return false;
      a = arr;
      break;
    }
    case KILN_KW_FORMAT: { /* e5m10 */
      const char *t = p->tok.text;
      size_t n = p->tok.len, i = 1;
      int64_t e = 0, m = 0;
      bool ok = p->tok.kind == KILN_TOK_IDENT && n >= 4 && t[0] == 'e';
      for (; ok && i < n && t[i] >= '0' && t[i] <= '9' && e < 1000; i++) e = e * 10 + (t[i] - '0');
      ok = ok && i > 1 && i < n && t[i] == 'm';
      size_t j = ++i;
      for (; ok && i < n && t[i] >= '0' && t[i] <= '9' && m < 1000; i++) m = m * 10 + (t[i] - '0');
      if (!ok || i != n || j == n) return kp_fail(p, "expected a format such as e5m10");
      kp_next(p);
      const kiln_type *i32 = kiln_type_scalar(p->m, KILN_ELEM_SI32);
      const kiln_attr *ea = kiln_attr_make_int(p->m, e, i32), *ma = kiln_attr_make_int(p->m, m, i32);
      if (!ea || !ma) return kp_oom(p);
      return kp_state_add_attr(p, st, "exponent_bits", ea) && kp_state_add_attr(p, st, "mantissa_bits", ma);
    }
    case KILN_KW_FLOAT: {
      const kiln_type *f64 = kiln_type_scalar(p->m, KILN_ELEM_F64);
      if (!f64 || !kp_parse_float_attr(p, f64, &a)) return false;
      break;
    }
    case KILN_KW_STRING:
      if (!kp_parse_string_attr(p, &a)) return false;
      break;
    case KILN_KW_DOT_DIMS: return parse_dot_dims(p, st, kw);
    case KILN_KW_ALGORITHM:
      if (!kp_parse_struct_body(p, "stablehlo", "dot_algorithm", &a)) return false;
      break;
  }
  return kp_state_add_attr(p, st, kw->attr, a);
}

/* [, ] kw = value, ... ; `leading_comma` when operands precede. */
static bool parse_keywords(kiln_parser *p, kiln_op_state *st, bool leading_comma) {
  if (!kiln_op_keywords(st->kind)->keyword) return true;
  for (bool first = true;; first = false) {
    kiln_lexer save = p->lx;
    kiln_tok before = p->tok;
    if (leading_comma || !first) {
      if (!kp_accept(p, ',')) return true;
    }
    if (p->tok.kind != KILN_TOK_IDENT) {
      p->lx = save;
      p->tok = before;
      return true;
    }
    kiln_tok word = p->tok;
    const kiln_kw *kw = find_kw(st->kind, &word);
    if (!kw && first && !leading_comma) return true; /* no keywords: the word is what follows the op */
    if (!kw) return kp_fail(p, "unknown keyword for '%s'", kiln_op_name(st->kind));
    kp_next(p);
    if (!kp_expect(p, '=', "after the keyword") || !parse_kw_value(p, st, kw)) return false;
  }
}

/* ------------------------------------------------------------------ families */

static bool parse_ops_form(kiln_parser *p, kiln_op_state *st) {
  if (!kp_parse_operand_list(p, &st->operands, &st->num_operands) ||
      !parse_keywords(p, st, st->num_operands > 0) || !parse_optional_attr_dict(p, st))
    return false;
  return kp_parse_op_types(p, st);
}

static bool parse_types_form(kiln_parser *p, kiln_op_state *st, int32_t num_lhs) {
  if (!kp_parse_operand_list(p, &st->operands, &st->num_operands) ||
      !parse_keywords(p, st, st->num_operands > 0) || !parse_optional_attr_dict(p, st))
    return false;
  int32_t nres = num_lhs < 0 ? 0 : num_lhs;
  if (!kp_is(p, ':')) {
    if (st->num_operands || nres) return kp_fail(p, "expected ':' and the types");
    return true;
  }
  kp_next(p);
  size_t at = p->tok.offset;
  const kiln_type **ts;
  int32_t n;
  if (!kp_parse_type_list(p, &ts, &n)) return false;
  if (n == 1) {
    for (int32_t i = 0; i < st->num_operands; i++)
      if (!check_operand_type(p, st, i, ts[0], at)) return false;
    const kiln_type **rs = kp_alloc(p, (size_t)nres + 1, sizeof *rs);
    if (!rs) return false;
    for (int32_t i = 0; i < nres; i++) rs[i] = ts[0];
    return set_results(p, st, rs, nres);
  }
  if (n != st->num_operands || (nres && nres != n))
    return kp_fail_at(p, at, "expected one type per operand (%d)", (int)st->num_operands);
  for (int32_t i = 0; i < n; i++)
    if (!check_operand_type(p, st, i, ts[i], at)) return false;
  return set_results(p, st, ts, nres);
}

static bool parse_const_form(kiln_parser *p, kiln_op_state *st) {
  if (!parse_optional_attr_dict(p, st)) return false;
  size_t at = p->tok.offset;
  const kiln_attr *v;
  if (!kp_parse_attr(p, &v)) return false;
  if (!v->type || (v->kind != KILN_ATTR_DENSE && v->kind != KILN_ATTR_INT && v->kind != KILN_ATTR_FLOAT))
    return kp_fail_at(p, at, "'%s' needs a typed value such as dense<...> : tensor<...>", kiln_op_name(st->kind));
  if (!kp_state_add_attr(p, st, "value", v)) return false;
  return set_results(p, st, one_type(p, v->type), 1);
}

static bool parse_check_const_form(kiln_parser *p, kiln_op_state *st) {
  kiln_value *v;
  if (!kp_parse_operand(p, &v) || !kp_expect(p, ',', "before the expected value")) return false;
  st->operands = kp_alloc(p, 1, sizeof *st->operands);
  if (!st->operands) return false;
  st->operands[0] = v;
  st->num_operands = 1;
  const kiln_attr *a;
  if (!kp_parse_attr(p, &a) || !kp_state_add_attr(p, st, "value", a)) return false;
  return parse_optional_attr_dict(p, st);
}

static bool parse_compare_form(kiln_parser *p, kiln_op_state *st) {
  const kiln_attr *dir = NULL, *ct = NULL;
  if (!parse_enum_word(p, "comparison_direction", &dir) || !kp_expect(p, ',', "after the comparison direction") ||
      !kp_parse_operand_list(p, &st->operands, &st->num_operands))
    return false;
  if (kp_accept(p, ',') && !parse_enum_word(p, "comparison_type", &ct)) return false;
  if (!kp_state_add_attr(p, st, "comparison_direction", dir) || (ct && !kp_state_add_attr(p, st, "compare_type", ct)))
    return false;
  return parse_optional_attr_dict(p, st) && kp_parse_op_types(p, st);
}

static bool parse_slice_form(kiln_parser *p, kiln_op_state *st) {
  if (!kp_parse_operand_list(p, &st->operands, &st->num_operands) || !kp_expect(p, '[', "to open the slice ranges"))
    return false;
  int64_t *v[3] = {NULL, NULL, NULL};
  int32_t n[3] = {0, 0, 0}, cap[3] = {0, 0, 0};
  if (!kp_is(p, ']')) {
    do {
      int64_t x[3] = {0, 0, 1};
      if (!kp_parse_i64(p, &x[0]) || !kp_expect(p, ':', "in a slice range") || !kp_parse_i64(p, &x[1])) return false;
      if (kp_accept(p, ':') && !kp_parse_i64(p, &x[2])) return false;
      for (int k = 0; k < 3; k++) {
        int64_t *slot = kp_push(p, (void **)&v[k], &n[k], &cap[k], sizeof *slot);
        if (!slot) return false;
        *slot = x[k];
      }
    } while (kp_accept(p, ','));
  }
  if (!kp_expect(p, ']', "to close the slice ranges")) return false;
  static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
  for (int k = 0; k < 3; k++) {
    const kiln_attr *a = kiln_attr_make_i64_array(p->m, v[k], n[k]);
    if (!a) return kp_oom(p);
    if (!kp_state_add_attr(p, st, names[k], a)) return false;
  }
  return parse_optional_attr_dict(p, st) && kp_parse_op_types(p, st);
}

static bool parse_gte_form(kiln_parser *p, kiln_op_state *st) {
  const kiln_attr *idx;
  const kiln_type *i32 = kiln_type_scalar(p->m, KILN_ELEM_SI32);
  if (!kp_parse_operand_list(p, &st->operands, &st->num_operands) || !kp_expect(p, '[', "before the tuple index") ||
      !i32 || !kp_parse_int_attr(p, i32, &idx) || !kp_expect(p, ']', "after the tuple index") ||
      !kp_state_add_attr(p, st, "index", idx))
    return false;
  return parse_optional_attr_dict(p, st) && kp_parse_op_types(p, st);
}

static bool parse_call_form(kiln_parser *p, kiln_op_state *st) {
  if (p->tok.kind != KILN_TOK_AT) return kp_fail(p, "expected @callee");
  const kiln_attr *callee;
  if (!kp_parse_attr(p, &callee)) return false;
  if (st->kind == KILN_OP_CUSTOM_CALL) { /* the target is a string attribute */
    kiln_attr *s = kp_new_attr(p, KILN_ATTR_STRING);
    if (!s) return false;
    s->str.data = callee->symbol;
    s->str.len = strlen(callee->symbol);
    callee = s;
  }
  if (!kp_state_add_attr(p, st, st->kind == KILN_OP_CALL ? "callee" : "call_target_name", callee)) return false;
  if (!kp_expect(p, '(', "to open the arguments")) return false;
  if (!kp_parse_operand_list(p, &st->operands, &st->num_operands) || !kp_expect(p, ')', "to close the arguments"))
    return false;
  if (!parse_optional_attr_dict(p, st)) return false;
  if (!kp_is(p, ':') ) return kp_fail(p, "expected ':' and a function type");
  return kp_parse_op_types(p, st);
}

static bool parse_composite_form(kiln_parser *p, kiln_op_state *st) {
  const kiln_attr *name;
  if (!kp_parse_string_attr(p, &name) || !kp_state_add_attr(p, st, "name", name) ||
      !kp_parse_operand_list(p, &st->operands, &st->num_operands))
    return false;
  return parse_optional_attr_dict(p, st) && kp_parse_op_types(p, st);
}

/* {attrs}? : T1, T2 -> R */
static bool parse_chlo_types(kiln_parser *p, kiln_op_state *st) {
  if (!parse_optional_attr_dict(p, st) || !kp_expect(p, ':', "before the types")) return false;
  size_t at = p->tok.offset;
  const kiln_type **ts, **rs;
  int32_t n, nr;
  if (!kp_parse_type_list(p, &ts, &n)) return false;
  if (n != st->num_operands) return kp_fail_at(p, at, "expected one type per operand (%d)", (int)st->num_operands);
  for (int32_t i = 0; i < n; i++)
    if (!check_operand_type(p, st, i, ts[i], at)) return false;
  if (p->tok.kind != KILN_TOK_ARROW) return kp_fail(p, "expected '->' and the result types");
  kp_next(p);
  return kp_parse_result_types(p, &rs, &nr) && set_results(p, st, rs, nr);
}

static bool parse_chlo_form(kiln_parser *p, kiln_op_state *st) {
  return kp_parse_operand_list(p, &st->operands, &st->num_operands) && parse_chlo_types(p, st);
}

static bool parse_top_k_form(kiln_parser *p, kiln_op_state *st) {
  const kiln_attr *k;
  if (!kp_expect(p, '(', "after chlo.top_k") || !kp_parse_operand_list(p, &st->operands, &st->num_operands) ||
      !kp_expect(p, ',', "before k") || !kp_expect_ident(p, "k") || !kp_expect(p, '=', "after k") ||
      !kp_parse_int_attr(p, kiln_type_scalar(p->m, KILN_ELEM_SI64), &k) || !kp_expect(p, ')', "after k") ||
      !kp_state_add_attr(p, st, "k", k))
    return false;
  return parse_chlo_types(p, st);
}

/* ------------------------------------------------------------------ region-carrying forms */

static bool append_operands(kiln_parser *p, kiln_op_state *st, kiln_value **v, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    kiln_value **slot = kp_push(p, (void **)&st->operands, &st->num_operands, &st->cap_operands, sizeof *slot);
    if (!slot) return false;
    *slot = v[i];
  }
  return true;
}

/* (%name = %value, ...) for while / scf.for iter_args. */
static bool parse_bindings(kiln_parser *p, kiln_op_state *st, kiln_tok **names, int32_t *n) {
  int32_t cap = 0;
  *names = NULL;
  *n = 0;
  if (!kp_expect(p, '(', "to open the loop arguments")) return false;
  if (kp_accept(p, ')')) return true;
  do {
    if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected a loop argument name");
    kiln_tok *slot = kp_push(p, (void **)names, n, &cap, sizeof *slot);
    if (!slot) return false;
    *slot = p->tok;
    kp_next(p);
    kiln_value *v;
    if (!kp_expect(p, '=', "after a loop argument name") || !kp_parse_operand(p, &v) || !append_operands(p, st, &v, 1))
      return false;
  } while (kp_accept(p, ','));
  return kp_expect(p, ')', "to close the loop arguments");
}

static bool parse_while_form(kiln_parser *p, kiln_op_state *st) {
  kiln_tok *names;
  int32_t n;
  if (!parse_bindings(p, st, &names, &n)) return false;
  const kiln_type **ts = NULL;
  int32_t nt = 0;
  if (kp_accept(p, ':')) {
    size_t at = p->tok.offset;
    if (!kp_parse_type_list(p, &ts, &nt)) return false;
    if (nt != n) return kp_fail_at(p, at, "expected one type per loop argument (%d)", (int)n);
    for (int32_t i = 0; i < n; i++)
      if (!check_operand_type(p, st, i, ts[i], at)) return false;
  } else if (n) {
    return kp_fail(p, "expected ':' and the loop types");
  }
  if (!parse_optional_attr_dict(p, st)) return false;
  kiln_region_args args = {names, ts, n};
  kiln_block *cond, *body;
  if (!kp_expect_ident(p, "cond") || !kp_parse_region(p, &args, &cond) || !kp_expect_ident(p, "do") ||
      !kp_parse_region(p, &args, &body))
    return false;
  return kp_state_add_region(p, st, cond) && kp_state_add_region(p, st, body) && set_results(p, st, ts, n);
}

static bool make_applies_body(kiln_parser *p, kiln_op_kind body_kind, const kiln_type *t, kiln_block **out) {
  kiln_block *b = kiln_block_new(p->m, 2);
  kiln_op *op = kiln_op_new(p->m, body_kind, 2, 1, 0, 0), *ret = kiln_op_new(p->m, KILN_OP_RETURN, 1, 0, 0, 0);
  if (!b || !op || !ret) return kp_oom(p);
  b->args[0].type = b->args[1].type = op->results[0].type = t;
  op->operands[0] = &b->args[0];
  op->operands[1] = &b->args[1];
  ret->operands[0] = &op->results[0];
  kiln_block_append(b, op);
  kiln_block_append(b, ret);
  *out = b;
  return true;
}

static bool parse_reduce_form(kiln_parser *p, kiln_op_state *st) {
  /* (%x init: %i), ... */
  kiln_value **inputs = NULL, **inits = NULL;
  int32_t ni = 0, cap_i = 0, nn = 0, cap_n = 0;
  do {
    kiln_value **a = kp_push(p, (void **)&inputs, &ni, &cap_i, sizeof *a);
    kiln_value **b = kp_push(p, (void **)&inits, &nn, &cap_n, sizeof *b);
    if (!a || !b || !kp_expect(p, '(', "to open a reduce operand") || !kp_parse_operand(p, a) ||
        !kp_expect_ident(p, "init") || !kp_expect(p, ':', "after 'init'") || !kp_parse_operand(p, b) ||
        !kp_expect(p, ')', "to close a reduce operand"))
      return false;
  } while (kp_accept(p, ','));
  if (!append_operands(p, st, inputs, ni) || !append_operands(p, st, inits, nn)) return false;
  kiln_op_kind body_kind = KILN_OP_COUNT;
  size_t applies_at = p->tok.offset;
  if (kp_accept_ident(p, "applies")) {
    if (p->tok.kind != KILN_TOK_IDENT || !kiln_op_lookup(p->tok.text, p->tok.len, &body_kind) ||
        kiln_op_format(body_kind) != KILN_FMT_OPS)
      return kp_fail(p, "expected an elementwise op after 'applies'");
    if (ni != 1) return kp_fail_at(p, applies_at, "'applies' needs exactly one input");
    kp_next(p);
  }
  const kiln_attr *dims;
  if (!kp_expect_ident(p, "across") || !kp_expect_ident(p, "dimensions") || !kp_expect(p, '=', "after 'dimensions'") ||
      !kp_parse_i64_list(p, &dims) || !kp_state_add_attr(p, st, "dimensions", dims) || !parse_optional_attr_dict(p, st) ||
      !kp_parse_op_types(p, st))
    return false;
  kiln_block *body;
  if (body_kind != KILN_OP_COUNT) {
    const kiln_type *t = scalar_tensor_of(p, inits[0]->type);
    return t && make_applies_body(p, body_kind, t, &body) && kp_state_add_region(p, st, body);
  }
  /* reducer(%a: T, %b: T) (%c: U, %d: U) { ... }: one pair per input, accumulators first */
  if (!kp_expect_ident(p, "reducer")) return false;
  kiln_tok *names = kp_alloc(p, (size_t)ni * 2, sizeof *names);
  const kiln_type **types = kp_alloc(p, (size_t)ni * 2, sizeof *types);
  if (!names || !types) return false;
  for (int32_t i = 0; i < ni; i++) {
    for (int k = 0; k < 2; k++) {
      int32_t slot = k * ni + i;
      if (!kp_expect(p, k ? ',' : '(', "in the reducer arguments")) return false;
      if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected a reducer argument");
      names[slot] = p->tok;
      kp_next(p);
      if (!kp_expect(p, ':', "after a reducer argument") || !kp_parse_type(p, &types[slot]) || !kp_skip_location(p))
        return false;
    }
    if (!kp_expect(p, ')', "to close a reducer argument pair")) return false;
  }
  kiln_region_args args = {names, types, ni * 2};
  return kp_parse_region(p, &args, &body) && kp_state_add_region(p, st, body);
}

/* [true, false] (or [1, 0]) into array<i1: ...>. */
static bool parse_bool_list(kiln_parser *p, const kiln_attr **out) {
  int64_t *v = NULL;
  int32_t n = 0, cap = 0;
  if (!kp_expect(p, '[', "to open a boolean list")) return false;
  if (!kp_is(p, ']')) {
    do {
      int64_t *slot = kp_push(p, (void **)&v, &n, &cap, sizeof *slot);
      if (!slot) return false;
      if (kp_is_ident(p, "true") || kp_is_ident(p, "false")) {
        *slot = kp_is_ident(p, "true");
        kp_next(p);
      } else if (!kp_parse_i64(p, slot)) {
        return false;
      } else if (*slot != 0 && *slot != 1) {
        return kp_fail(p, "expected true or false");
      }
    } while (kp_accept(p, ','));
  }
  if (!kp_expect(p, ']', "to close a boolean list")) return false;
  kiln_attr *a = (kiln_attr *)kiln_attr_make_i64_array(p->m, v, n);
  if (!a || !(a->type = kiln_type_scalar(p->m, KILN_ELEM_I1))) return kp_oom(p);
  *out = a;
  return true;
}

static bool parse_window(kiln_parser *p, kiln_op_state *st) {
  /* {stride = [..], pad = [[l, h], ..], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]} */
  if (!kp_expect(p, '{', "to open the window")) return false;
  if (!kp_is(p, '}')) {
    do {
      if (p->tok.kind != KILN_TOK_IDENT) return kp_fail(p, "expected a window field");
      kiln_tok w = p->tok;
      kp_next(p);
      if (!kp_expect(p, '=', "after a window field")) return false;
      const kiln_attr *a;
      const char *name;
#define IS(s) (w.len == sizeof(s) - 1 && !memcmp(w.text, s, w.len))
      if (IS("stride") || IS("lhs_dilate") || IS("rhs_dilate")) {
        name = IS("stride") ? "window_strides" : IS("lhs_dilate") ? "lhs_dilation" : "rhs_dilation";
        if (!kp_parse_i64_list(p, &a)) return false;
      } else if (IS("reverse")) {
        name = "window_reversal";
        if (!parse_bool_list(p, &a)) return false;
      } else if (IS("pad")) {
        name = "padding";
        int64_t *v = NULL;
        int32_t n = 0, cap = 0;
        if (!kp_expect(p, '[', "to open the padding")) return false;
        if (!kp_is(p, ']')) {
          do {
            int64_t *lo = kp_push(p, (void **)&v, &n, &cap, sizeof *lo), *hi;
            if (!lo || !kp_expect(p, '[', "to open a padding pair") || !kp_parse_i64(p, lo) ||
                !kp_expect(p, ',', "in a padding pair") || !(hi = kp_push(p, (void **)&v, &n, &cap, sizeof *hi)) ||
                !kp_parse_i64(p, hi) || !kp_expect(p, ']', "to close a padding pair"))
              return false;
          } while (kp_accept(p, ','));
        }
        if (!kp_expect(p, ']', "to close the padding")) return false;
        int64_t dims[2] = {n / 2, 2};
        kiln_attr *d = kp_new_attr(p, KILN_ATTR_DENSE);
        if (!d || !(d->type = kiln_type_tensor(p->m, kiln_type_scalar(p->m, KILN_ELEM_SI64), 2, dims, NULL)) ||
            !(d->dense.data = kp_alloc(p, (size_t)n + 1, sizeof(int64_t))))
          return kp_oom(p);
        if (n) memcpy(d->dense.data, v, sizeof(int64_t) * (size_t)n);
        d->dense.nbytes = sizeof(int64_t) * (size_t)n;
        a = d;
      } else {
        return kp_fail_at(p, w.offset, "unknown window field '%.*s'", (int)w.len, w.text);
      }
#undef IS
      if (!kp_state_add_attr(p, st, name, a)) return false;
    } while (kp_accept(p, ','));
  }
  return kp_expect(p, '}', "to close the window");
}

static bool parse_conv_form(kiln_parser *p, kiln_op_state *st) {
  const kiln_attr *dn;
  if (!kp_expect(p, '(', "to open the convolution operands") ||
      !kp_parse_operand_list(p, &st->operands, &st->num_operands) || !kp_expect(p, ')', "to close the operands") ||
      !kp_expect_ident(p, "dim_numbers") || !kp_expect(p, '=', "after dim_numbers") || !kp_parse_conv_dims(p, &dn) ||
      !kp_state_add_attr(p, st, "dimension_numbers", dn))
    return false;
  if (kp_accept(p, ',')) {
    if (!kp_expect_ident(p, "window") || !kp_expect(p, '=', "after window") || !parse_window(p, st)) return false;
  }
  return parse_optional_attr_dict(p, st) && kp_parse_op_types(p, st);
}

static bool parse_scan_form(kiln_parser *p, kiln_op_state *st) {
  kiln_value **in, **init;
  int32_t ni, nn;
  const kiln_attr *dim;
  if (!kp_expect(p, '(', "to open the scan inputs") || !kp_parse_operand_list(p, &in, &ni) ||
      !kp_expect(p, ')', "to close the scan inputs") || !kp_expect_ident(p, "inits") ||
      !kp_expect(p, '(', "to open the inits") || !kp_parse_operand_list(p, &init, &nn) ||
      !kp_expect(p, ')', "to close the inits") || !append_operands(p, st, in, ni) || !append_operands(p, st, init, nn) ||
      !kp_expect_ident(p, "dimension") || !kp_expect(p, '=', "after 'dimension'") ||
      !kp_parse_int_attr(p, kiln_type_scalar(p->m, KILN_ELEM_SI64), &dim) || !kp_state_add_attr(p, st, "dimension", dim))
    return false;
  kiln_attr *seg = (kiln_attr *)kiln_attr_make_i64_array(p->m, (int64_t[]){ni, nn}, 2);
  if (!seg) return kp_oom(p);
  seg->type = kiln_type_scalar(p->m, KILN_ELEM_SI32);
  if (!kp_state_add_attr(p, st, "operandSegmentSizes", seg)) return false;
  if (kp_accept_ident(p, "attributes") && !kp_parse_state_attr_dict(p, st)) return false;
  kiln_block *body;
  return kp_parse_region(p, NULL, &body) && kp_state_add_region(p, st, body) && kp_parse_op_types(p, st);
}

static bool parse_scf_for_form(kiln_parser *p, kiln_op_state *st) {
  if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected the induction variable");
  kiln_tok iv = p->tok;
  kp_next(p);
  kiln_value *lo, *hi, *step;
  if (!kp_expect(p, '=', "after the induction variable") || !kp_parse_operand(p, &lo) || !kp_expect_ident(p, "to") ||
      !kp_parse_operand(p, &hi) || !kp_expect_ident(p, "step") || !kp_parse_operand(p, &step))
    return false;
  kiln_value *bounds[3] = {lo, hi, step};
  if (!append_operands(p, st, bounds, 3)) return false;
  kiln_tok *names = NULL;
  int32_t n = 0;
  const kiln_type **ts = NULL;
  int32_t nt = 0;
  if (kp_accept_ident(p, "iter_args")) {
    kiln_tok *bound;
    if (!parse_bindings(p, st, &bound, &n)) return false;
    size_t at = p->tok.offset;
    if (p->tok.kind != KILN_TOK_ARROW) return kp_fail(p, "expected '->' and the loop types");
    kp_next(p);
    if (!kp_parse_result_types(p, &ts, &nt)) return false;
    if (nt != n) return kp_fail_at(p, at, "expected one type per iter_arg (%d)", (int)n);
    for (int32_t i = 0; i < n; i++)
      if (!check_operand_type(p, st, 3 + i, ts[i], at)) return false;
    names = bound;
  }
  kiln_tok *all = kp_alloc(p, (size_t)n + 1, sizeof *all);
  const kiln_type **types = kp_alloc(p, (size_t)n + 1, sizeof *types);
  if (!all || !types) return false;
  all[0] = iv;
  types[0] = lo->type;
  for (int32_t i = 0; i < n; i++) all[i + 1] = names[i], types[i + 1] = ts[i];
  kiln_region_args args = {all, types, n + 1};
  kiln_block *body;
  return kp_parse_region(p, &args, &body) && kp_state_add_region(p, st, body) && set_results(p, st, ts, nt) &&
         parse_optional_attr_dict(p, st);
}

static bool parse_tensor_insert_form(kiln_parser *p, kiln_op_state *st) {
  kiln_value *v, *t, **idx;
  int32_t n;
  if (!kp_parse_operand(p, &v) || !kp_expect_ident(p, "into") || !kp_parse_operand(p, &t) ||
      !kp_expect(p, '[', "before the indices") || !kp_parse_operand_list(p, &idx, &n) ||
      !kp_expect(p, ']', "after the indices"))
    return false;
  kiln_value *vt[2] = {v, t};
  if (!append_operands(p, st, vt, 2) || !append_operands(p, st, idx, n) || !parse_optional_attr_dict(p, st) ||
      !kp_expect(p, ':', "before the tensor type"))
    return false;
  size_t at = p->tok.offset;
  const kiln_type *tt;
  if (!kp_parse_type(p, &tt)) return false;
  if (!check_operand_type(p, st, 1, tt, at)) return false;
  return set_results(p, st, one_type(p, tt), 1);
}

bool kp_parse_pretty(kiln_parser *p, kiln_op_state *st, int32_t num_lhs) {
  switch (kiln_op_format(st->kind)) {
    case KILN_FMT_OPS: return parse_ops_form(p, st);
    case KILN_FMT_TYPES: return parse_types_form(p, st, num_lhs);
    case KILN_FMT_CONST: return parse_const_form(p, st);
    case KILN_FMT_CHECK_CONST: return parse_check_const_form(p, st);
    case KILN_FMT_COMPARE: return parse_compare_form(p, st);
    case KILN_FMT_SLICE: return parse_slice_form(p, st);
    case KILN_FMT_GTE: return parse_gte_form(p, st);
    case KILN_FMT_CALL: return parse_call_form(p, st);
    case KILN_FMT_COMPOSITE: return parse_composite_form(p, st);
    case KILN_FMT_REDUCE: return parse_reduce_form(p, st);
    case KILN_FMT_WHILE: return parse_while_form(p, st);
    case KILN_FMT_CONV: return parse_conv_form(p, st);
    case KILN_FMT_CHLO: return parse_chlo_form(p, st);
    case KILN_FMT_TOP_K: return parse_top_k_form(p, st);
    case KILN_FMT_SCAN: return parse_scan_form(p, st);
    case KILN_FMT_SCF_FOR: return parse_scf_for_form(p, st);
    case KILN_FMT_TENSOR_INSERT: return parse_tensor_insert_form(p, st);
    case KILN_FMT_SDY_MESH:
    case KILN_FMT_SDY_CONSTRAINT:
    case KILN_FMT_SDY_MANUAL: return kp_parse_sdy(p, st);
    case KILN_FMT_GENERIC:
    case KILN_FMT_MODULE:
    case KILN_FMT_FUNC: break;
  }
  return kp_fail(p, "internal error: no pretty parser for '%s'", kiln_op_name(st->kind));
}

/* ------------------------------------------------------------------ func.func and module */

bool kp_state_add_string_attr(kiln_parser *p, kiln_op_state *st, const char *name, const char *s, size_t n) {
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRING);
  return a && (a->str.data = kp_strdup(p, s, n)) && (a->str.len = n, true) && kp_state_add_attr(p, st, name, a);
}

/* Optional `{attrs}` after an argument or result: returns a DICT or NULL. */
static bool parse_slot_attrs(kiln_parser *p, const kiln_attr **out) {
  *out = NULL;
  if (!kp_is(p, '{')) return true;
  kiln_attr *d = kp_new_attr(p, KILN_ATTR_DICT);
  *out = d;
  return d && kp_parse_attr_dict(p, &d->dict.entries, &d->dict.count);
}

static bool add_slot_attrs(kiln_parser *p, kiln_op_state *st, const char *name, const kiln_attr **v, int32_t n) {
  bool any = false;
  for (int32_t i = 0; i < n; i++) any |= v[i] && v[i]->dict.count > 0;
  if (!any) return true;
  kiln_attr *arr = kp_new_attr(p, KILN_ATTR_ARRAY);
  if (!arr || !(arr->array.items = kp_alloc(p, (size_t)n, sizeof *arr->array.items))) return false;
  arr->array.count = n;
  for (int32_t i = 0; i < n; i++) {
    if (!v[i] && !(v[i] = kp_new_attr(p, KILN_ATTR_DICT))) return false;
    arr->array.items[i] = v[i];
  }
  return kp_state_add_attr(p, st, name, arr);
}

bool kp_parse_func(kiln_parser *p, kiln_op_state *st) {
  if (kp_is_ident(p, "private") || kp_is_ident(p, "public") || kp_is_ident(p, "nested")) {
    if (!kp_state_add_string_attr(p, st, "sym_visibility", p->tok.text, p->tok.len)) return false;
    kp_next(p);
  }
  if (p->tok.kind != KILN_TOK_AT) return kp_fail(p, "expected the function name @name");
  const kiln_attr *sym;
  if (!kp_parse_attr(p, &sym) || !kp_state_add_string_attr(p, st, "sym_name", sym->symbol, strlen(sym->symbol))) return false;
  /* arguments */
  kiln_tok *names = NULL;
  const kiln_type **types = NULL;
  const kiln_attr **arg_attrs = NULL;
  int32_t n = 0, cn = 0, nt = 0, ct = 0, na = 0, ca = 0;
  bool named = false;
  if (!kp_expect(p, '(', "to open the function arguments")) return false;
  if (!kp_is(p, ')')) {
    do {
      const kiln_type **t = kp_push(p, (void **)&types, &nt, &ct, sizeof *t);
      const kiln_attr **aa = kp_push(p, (void **)&arg_attrs, &na, &ca, sizeof *aa);
      if (!t || !aa) return false;
      if (p->tok.kind == KILN_TOK_PERCENT) {
        if (nt > 1 && !named) return kp_fail(p, "either all or no function arguments are named");
        named = true;
        kiln_tok *nm = kp_push(p, (void **)&names, &n, &cn, sizeof *nm);
        if (!nm) return false;
        *nm = p->tok;
        kp_next(p);
        if (!kp_expect(p, ':', "after an argument name")) return false;
      } else if (named) {
        return kp_fail(p, "either all or no function arguments are named");
      }
      if (!kp_parse_type(p, t) || !parse_slot_attrs(p, aa) || !kp_skip_location(p)) return false;
    } while (kp_accept(p, ','));
  }
  if (!kp_expect(p, ')', "to close the function arguments")) return false;
  /* results */
  const kiln_type **rtypes = NULL;
  const kiln_attr **res_attrs = NULL;
  int32_t nr = 0, cr = 0, nra = 0, cra = 0;
  if (p->tok.kind == KILN_TOK_ARROW) {
    kp_next(p);
    bool paren = kp_accept(p, '(');
    if (!paren || !kp_is(p, ')')) {
      do {
        const kiln_type **t = kp_push(p, (void **)&rtypes, &nr, &cr, sizeof *t);
        const kiln_attr **ra = kp_push(p, (void **)&res_attrs, &nra, &cra, sizeof *ra);
        if (!t || !ra || !kp_parse_type(p, t) || (paren && !parse_slot_attrs(p, ra))) return false;
      } while (paren && kp_accept(p, ','));
    }
    if (paren && !kp_expect(p, ')', "to close the function results")) return false;
  }
  kiln_attr *ft = kp_new_attr(p, KILN_ATTR_TYPE);
  kiln_type *fty = kiln_type_new(p->m, KILN_TYPE_FUNCTION);
  if (!ft || !fty) return kp_oom(p);
  fty->func.inputs = types;
  fty->func.num_inputs = nt;
  fty->func.results = rtypes;
  fty->func.num_results = nr;
  ft->type = fty;
  if (!kp_state_add_attr(p, st, "function_type", ft) || !add_slot_attrs(p, st, "arg_attrs", arg_attrs, na) ||
      !add_slot_attrs(p, st, "res_attrs", res_attrs, nra))
    return false;
  if (kp_accept_ident(p, "attributes") && !kp_parse_state_attr_dict(p, st)) return false;
  if (!kp_is(p, '{')) {
    if (named) return kp_fail(p, "expected the function body");
    return kp_state_add_region(p, st, NULL);
  }
  if (!named && nt) return kp_fail(p, "a function with a body must name its arguments");
  /* functions are isolated from above: nothing outside is visible */
  int32_t saved = p->scope_start, saved_visible = p->visible_start;
  p->scope_start = p->visible_start = kp_scope_mark(p);
  int32_t base = kp_scope_mark(p);
  kiln_region_args args = {names, types, nt};
  kiln_block *body;
  bool ok = kp_parse_region(p, &args, &body) && kp_state_add_region(p, st, body);
  kp_scope_pop(p, base);
  p->scope_start = saved;
  p->visible_start = saved_visible;
  return ok;
}

bool kp_parse_module_op(kiln_parser *p, kiln_op_state *st) {
  if (p->tok.kind == KILN_TOK_AT) {
    const kiln_attr *sym;
    if (!kp_parse_attr(p, &sym) || !kp_state_add_string_attr(p, st, "sym_name", sym->symbol, strlen(sym->symbol))) return false;
  }
  if (kp_accept_ident(p, "attributes") && !kp_parse_state_attr_dict(p, st)) return false;
  kiln_block *body;
  int32_t saved_visible = p->visible_start;
  p->visible_start = kp_scope_mark(p); /* a module is isolated from above too */
  bool ok = kp_parse_region(p, NULL, &body);
  p->visible_start = saved_visible;
  if (!ok) return false;
  if (!body && !(body = kiln_block_new(p->m, 0))) return kp_oom(p);
  return kp_state_add_region(p, st, body);
}
