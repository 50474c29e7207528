/* The pretty forms of the Shardy (sdy) ops, as MLIR prints them:
 *   sdy.mesh @mesh = <["x"=2, "y"=2]> {attrs}
 *   %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> {attrs} : T
 *   %r = sdy.manual_computation(%a, ...) in_shardings=[<@mesh, ...>, ...]
 *        out_shardings=[...] manual_axes={"x"} (%b: T, ...) {region} {attrs} : (Ts) -> Rs
 * (sdy.return is a TYPES op.) Each sdy attribute is stored as the OPAQUE attribute of its
 * generic spelling (ir/sdy.h), so both forms of a module read the same. The attributes'
 * insides are kept verbatim, not checked: the verifier and the partitioner read them. */
#include <string.h>

#include "ir/sdy.h"
#include "parse/parser.h"

static bool push_operand(kiln_parser *p, kiln_op_state *st, kiln_value *v) {
  kiln_value **slot = kp_push(p, (void **)&st->operands, &st->num_operands, &st->cap_operands, sizeof *slot);
  if (slot) *slot = v;
  return slot != NULL;
}

/* The pretty spelling of an sdy attribute (a bare bracket group, wrapped here into its
 * generic spelling), or any attribute written in full (`#sdy.sharding<...>`, an alias), as
 * MLIR's parser also takes; the verifier checks what the latter hold. */
static bool parse_sdy_attr(kiln_parser *p, kiln_op_state *st, const char *name, kiln_sdy_form form) {
  const kiln_sdy_wrap *w = kiln_sdy_wrapper(form);
  const kiln_attr *value;
  if (p->tok.kind == KILN_TOK_HASH) {
    if (!kp_parse_attr(p, &value)) return false;
    return kp_state_add_attr(p, st, name, value);
  }
  if (!kp_is(p, w->open)) return kp_fail(p, "expected '%c' to open the %s attribute", w->open, name);
  const char *body;
  if (!kp_scan_balanced(p, p->tok.offset, &body)) return false;
  size_t np = strlen(w->prefix), nb = strlen(body), ns = strlen(w->suffix);
  char *text = kp_alloc(p, np + nb + ns + 1, 1);
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_OPAQUE);
  if (!text || !a) return false;
  memcpy(text, w->prefix, np);
  memcpy(text + np, body, nb);
  memcpy(text + np + nb, w->suffix, ns + 1);
  a->opaque = text;
  return kp_state_add_attr(p, st, name, a);
}

/* `keyword=` then the attribute (MLIR writes no spaces around this '='). */
static bool parse_sdy_keyword(kiln_parser *p, kiln_op_state *st, const char *keyword, kiln_sdy_form form) {
  return kp_expect_ident(p, keyword) && kp_expect(p, '=', "after the keyword") && parse_sdy_attr(p, st, keyword, form);
}

static bool parse_optional_dict(kiln_parser *p, kiln_op_state *st) {
  return !kp_is(p, '{') || kp_parse_state_attr_dict(p, st);
}

static bool parse_mesh(kiln_parser *p, kiln_op_state *st) {
  if (p->tok.kind != KILN_TOK_AT) return kp_fail(p, "expected the mesh name @name");
  const kiln_attr *sym;
  /* sym_name is a string attribute, as func.func keeps its name */
  return kp_parse_attr(p, &sym) && kp_state_add_string_attr(p, st, "sym_name", sym->symbol, strlen(sym->symbol)) &&
         kp_expect(p, '=', "after the mesh name") && parse_sdy_attr(p, st, "mesh", KILN_SDY_MESH) &&
         parse_optional_dict(p, st);
}

static bool parse_constraint(kiln_parser *p, kiln_op_state *st) {
  kiln_value *v;
  return kp_parse_operand(p, &v) && push_operand(p, st, v) && parse_sdy_attr(p, st, "sharding", KILN_SDY_SHARDING) &&
         parse_optional_dict(p, st) && kp_parse_op_types(p, st);
}

/* (%b: T, ...): the body's arguments (local shapes), named before its braces. */
static bool parse_body_args(kiln_parser *p, kiln_region_args *out) {
  kiln_tok *names = NULL;
  const kiln_type **types = NULL;
  int32_t n = 0, cap_n = 0, nt = 0, cap_t = 0;
  if (!kp_expect(p, '(', "to open the body's arguments")) return false;
  if (!kp_is(p, ')')) {
    do {
      if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected a body argument %%name");
      kiln_tok *name = kp_push(p, (void **)&names, &n, &cap_n, sizeof *name);
      const kiln_type **type = kp_push(p, (void **)&types, &nt, &cap_t, sizeof *type);
      if (!name || !type) return false;
      *name = p->tok;
      kp_next(p);
      if (!kp_expect(p, ':', "after a body argument") || !kp_parse_type(p, type) || !kp_skip_location(p)) return false;
    } while (kp_accept(p, ','));
  }
  *out = (kiln_region_args){names, types, n};
  return kp_expect(p, ')', "to close the body's arguments");
}

static bool parse_manual(kiln_parser *p, kiln_op_state *st) {
  if (!kp_expect(p, '(', "to open the operands") || !kp_parse_operand_list(p, &st->operands, &st->num_operands) ||
      !kp_expect(p, ')', "to close the operands"))
    return false;
  st->cap_operands = st->num_operands;
  kiln_region_args args;
  if (!parse_sdy_keyword(p, st, "in_shardings", KILN_SDY_PER_VALUE) ||
      !parse_sdy_keyword(p, st, "out_shardings", KILN_SDY_PER_VALUE) ||
      !parse_sdy_keyword(p, st, "manual_axes", KILN_SDY_MANUAL_AXES) || !parse_body_args(p, &args))
    return false;
  /* the body is isolated from above: it sees only its arguments */
  int32_t saved_visible = p->visible_start;
  p->visible_start = kp_scope_mark(p);
  kiln_block *body;
  bool ok = kp_parse_region(p, &args, &body);
  p->visible_start = saved_visible;
  return ok && kp_state_add_region(p, st, body) && parse_optional_dict(p, st) && kp_parse_op_types(p, st);
}

bool kp_parse_sdy(kiln_parser *p, kiln_op_state *st) {
  switch (kiln_op_format(st->kind)) {
    case KILN_FMT_SDY_MESH: return parse_mesh(p, st);
    case KILN_FMT_SDY_CONSTRAINT: return parse_constraint(p, st);
    case KILN_FMT_SDY_MANUAL: return parse_manual(p, st);
    default: return kp_fail(p, "internal error: '%s' is not an sdy op", kiln_op_name(st->kind));
  }
}
