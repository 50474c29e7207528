/* Verifier rules for functions, control flow, communication, tokens, RNG and the test
 * dialects (check.*, interpreter.*), plus light checks of the foreign ops StableHLO
 * programs carry (scf.for, tensor.insert, arith.constant).
 *
 * The rules follow the StableHLO specification's constraints, relaxed where the
 * reference implementation (stablehlo/dialect/TypeInference.cpp) is more permissive,
 * because every program it accepts must verify here too: `?` dimensions match anything,
 * quantized element types match when their storage and expressed types agree, and
 * rules the reference leaves unchecked (e.g. rng_bit_generator's state size) stay
 * unchecked. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ir/verify.h"

#define TYPE_BUF 160

/* ---------------------------------------------------------------- type lists */

/* A read-only view of a sequence of types: op operands, op results, block arguments,
 * the operands of a block's terminator, or the inputs/results of a function type. */
typedef struct tlist {
  int32_t count;
  const kiln_type *const *types; /* function type parts */
  kiln_value *const *refs;       /* operands */
  const kiln_value *vals;        /* results, block arguments */
} tlist;

static const kiln_type *tl_at(tlist l, int32_t i) {
  if (l.types) return l.types[i];
  if (l.refs) return l.refs[i]->type;
  return l.vals[i].type;
}

static tlist tl_operand_range(const kiln_op *op, int32_t first, int32_t count) {
  return (tlist){count, NULL, op->operands + first, NULL};
}
static tlist tl_operands(const kiln_op *op) { return tl_operand_range(op, 0, op->num_operands); }
static tlist tl_results(const kiln_op *op) { return (tlist){op->num_results, NULL, NULL, op->results}; }
static tlist tl_args(const kiln_block *b) { return (tlist){b->num_args, NULL, NULL, b->args}; }
static tlist tl_inputs(const kiln_type *fn) {
  return (tlist){fn->func.num_inputs, fn->func.inputs, NULL, NULL};
}
static tlist tl_outputs(const kiln_type *fn) {
  return (tlist){fn->func.num_results, fn->func.results, NULL, NULL};
}

/* ---------------------------------------------------------------- type predicates */

/* Same rank, compatible dimensions, bounds respected both ways. */
static bool shapes_and_bounds_compatible(const kiln_type *a, const kiln_type *b) {
  return kiln_verify_shapes_compatible(a, b) && kiln_verify_fits_bounds(a, b) && kiln_verify_fits_bounds(b, a);
}

static bool is_token(const kiln_type *t) { return t && t->kind == KILN_TYPE_TOKEN; }
static bool is_quant(const kiln_type *elem) { return elem && elem->kind == KILN_TYPE_QUANT; }
static int32_t rank_of(const kiln_type *t) { return kiln_type_is_tensor(t) ? t->tensor.rank : -1; }

/* A rank-0 tensor whose element is the scalar e. */
static bool is_scalar_tensor_of(const kiln_type *t, kiln_elem e) {
  const kiln_type *el = kiln_type_element(t);
  return rank_of(t) == 0 && el->kind == KILN_TYPE_SCALAR && el->elem == e;
}

typedef enum elem_family { FAM_OTHER, FAM_INT, FAM_FLOAT, FAM_COMPLEX, FAM_QUANT } elem_family;

static elem_family family_of(const kiln_type *elem) {
  if (is_quant(elem)) return FAM_QUANT;
  if (!elem || elem->kind != KILN_TYPE_SCALAR) return FAM_OTHER;
  switch (kiln_elem_class_of(elem->elem)) {
    case KILN_ELEM_CLASS_B:
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_U: return FAM_INT;
    case KILN_ELEM_CLASS_F: return FAM_FLOAT;
    case KILN_ELEM_CLASS_C: return FAM_COMPLEX;
    case KILN_ELEM_CLASS_X: return FAM_OTHER;
  }
  return FAM_OTHER;
}

static int elem_width(const kiln_type *elem) {
  return kiln_elem_bits(is_quant(elem) ? elem->quant.storage : elem->elem);
}

static bool is_float_or_complex(const kiln_type *t) {
  elem_family f = family_of(kiln_type_element(t));
  return f == FAM_FLOAT || f == FAM_COMPLEX;
}

/* The reference's isPromotableElementType: same family, no narrowing (floats of any
 * width promote to each other when ignore_fp). */
static bool promotable(const kiln_type *from, const kiln_type *to, bool ignore_fp) {
  elem_family f = family_of(from);
  if (f == FAM_OTHER || f != family_of(to)) return false;
  if (f == FAM_QUANT && from->quant.expressed != to->quant.expressed) return false;
  if (ignore_fp && f == FAM_FLOAT) return true;
  return elem_width(from) <= elem_width(to);
}

/* Equal element types, or two floats when ignore_fp. */
static bool same_elem(const kiln_type *a, const kiln_type *b, bool ignore_fp) {
  if (ignore_fp && family_of(a) == FAM_FLOAT && family_of(b) == FAM_FLOAT) return true;
  return kiln_type_equal(a, b);
}

/* ---------------------------------------------------------------- list matching */

typedef enum match_mode { MATCH_EXACT, MATCH_COMPATIBLE } match_mode;

/* What a list comparison is about, for its messages: "<subject> <count> <noun>s,
 * expected <count> (<reason>)" and "<subject> <noun> #i of type T, expected U (<reason>)". */
typedef struct match_desc {
  const char *subject; /* "body region returns" */
  const char *noun;    /* "value", "argument", "operand", "result" */
  const char *reason;  /* "the loop-carried types" */
} match_desc;

static kiln_status match_lists(const kiln_verify_ctx *ctx, const kiln_op *op, tlist got,
                               tlist want, match_mode mode, match_desc d) {
  if (got.count != want.count)
    return kiln_verify_error(ctx, op, "%s %" PRId32 " %s%s, expected %" PRId32 " (%s)", d.subject,
                             got.count, d.noun, got.count == 1 ? "" : "s", want.count, d.reason);
  for (int32_t i = 0; i < got.count; i++) {
    const kiln_type *g = tl_at(got, i), *w = tl_at(want, i);
    if (mode == MATCH_EXACT ? kiln_type_equal(g, w) : kiln_verify_types_compatible(g, w)) continue;
    char gs[TYPE_BUF], ws[TYPE_BUF];
    return kiln_verify_error(ctx, op, "%s %s #%" PRId32 " of type %s, expected %s%s (%s)", d.subject,
                             d.noun, i, kiln_verify_type_str(g, gs, sizeof gs),
                             mode == MATCH_EXACT ? "" : "a type compatible with ",
                             kiln_verify_type_str(w, ws, sizeof ws), d.reason);
  }
  return NULL;
}

/* ---------------------------------------------------------------- attributes */

/* A unit attribute or a boolean; false when absent. */
static bool attr_flag(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return false;
  return a->kind == KILN_ATTR_BOOL ? a->b : a->kind == KILN_ATTR_UNIT;
}

/* Field of the channel_handle attribute ("handle" is the channel id); 0 when absent. */
static int64_t channel_field(const kiln_op *op, const char *field) {
  const kiln_attr *f = kiln_attr_get(kiln_op_attr(op, "channel_handle"), field);
  return f && f->kind == KILN_ATTR_INT ? kiln_attr_int(f) : 0;
}

static kiln_status require_i64(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                               int64_t *out) {
  if (kiln_attr_i64_at(kiln_op_attr(op, name), 0, out)) return NULL;
  return kiln_verify_error(ctx, op, "requires an integer attribute '%s'", name);
}

/* The value of an enum attribute (#stablehlo<rng_algorithm PHILOX> or a bare keyword). */
static const char *enum_value(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return NULL;
  if (a->kind == KILN_ATTR_ENUM) return a->enumv.value;
  return a->kind == KILN_ATTR_STRING ? a->str.data : NULL;
}

static bool one_of(const char *s, const char *const *names) {
  for (; s && *names; names++)
    if (strcmp(s, *names) == 0) return true;
  return false;
}

/* A flat symbol attribute, without the '@'; NULL when absent or not a symbol. */
static const char *symbol_attr(const kiln_attr *a) {
  return a && a->kind == KILN_ATTR_SYMBOL ? a->symbol : NULL;
}

/* The 2-D integer tensor of replica_groups / source_target_pairs; NULL when absent or
 * spelled another way (e.g. #stablehlo.replica_group_mesh_axes). */
static const kiln_attr *dense_groups(const kiln_op *op, const char *name) {
  const kiln_attr *a = kiln_op_attr(op, name);
  return a && a->kind == KILN_ATTR_DENSE && kiln_attr_count(a) >= 0 ? a : NULL;
}

/* ---------------------------------------------------------------- id sets */

#define ID_BITMAP_BITS 65536

/* Finds a value repeated among a[start], a[start + stride], ... (values equal to skip
 * are ignored). Small ids use a stack bitmap, others a pairwise scan. */
static bool find_duplicate(const kiln_attr *a, int64_t start, int64_t stride, int64_t skip,
                           int64_t *dup) {
  uint64_t seen[ID_BITMAP_BITS / 64] = {0};
  int64_t n = kiln_attr_count(a), v, w;
  for (int64_t i = start; i < n && kiln_attr_i64_at(a, i, &v); i += stride) {
    if (v == skip) continue;
    if (v >= 0 && v < ID_BITMAP_BITS) {
      uint64_t bit = (uint64_t)1 << (v % 64);
      if (seen[v / 64] & bit) return *dup = v, true;
      seen[v / 64] |= bit;
      continue;
    }
    for (int64_t j = start; j < i && kiln_attr_i64_at(a, j, &w); j += stride)
      if (w == v) return *dup = v, true;
  }
  return false;
}

/* replica_groups of all_gather, all_reduce, all_to_all, reduce_scatter and
 * collective_reduce (the reference's verifyReplicaGroups): a 2-D tensor holding each id
 * of [0, N) once; -1 pads groups of different sizes where the op allows them. */
typedef struct groups_rule {
  bool same_size;        /* -1 padding is not allowed */
  bool global_ids;       /* use_global_device_ids: groups must not be empty */
  int64_t group_size;    /* required size of each group, or -1 */
} groups_rule;

static kiln_status check_replica_groups(const kiln_verify_ctx *ctx, const kiln_op *op,
                                        groups_rule rule) {
  if (!kiln_op_attr(op, "replica_groups"))
    return kiln_verify_error(ctx, op, "requires a 'replica_groups' attribute");
  const kiln_attr *g = dense_groups(op, "replica_groups");
  if (!g) return NULL;
  const kiln_type *t = g->type;
  if (t->tensor.rank != 2)
    return kiln_verify_error(ctx, op, "replica_groups must be a 2-D tensor, got rank %" PRId32,
                             t->tensor.rank);
  int64_t n = kiln_attr_count(g), ids = 0, v, dup;
  if (rule.global_ids && n == 0)
    return kiln_verify_error(ctx, op,
                             "replica_groups cannot be empty when use_global_device_ids is set");
  for (int64_t i = 0; i < n && kiln_attr_i64_at(g, i, &v); i++) {
    if (v != -1) ids++;
    else if (rule.same_size)
      return kiln_verify_error(ctx, op, "replica_groups holds -1, but all groups of this op "
                                        "must have the same size");
  }
  if (find_duplicate(g, 0, 1, -1, &dup))
    return kiln_verify_error(ctx, op, "replica id #%" PRId64 " seen more than once in "
                                      "replica_groups", dup);
  for (int64_t i = 0; i < n && kiln_attr_i64_at(g, i, &v); i++)
    if (v != -1 && (v < 0 || v >= ids))
      return kiln_verify_error(ctx, op, "replica_groups must hold every id of [0, %" PRId64
                                        ") once, found %" PRId64, ids, v);
  int64_t groups = t->tensor.dims[0];
  if (rule.group_size >= 0 && (groups == 0 || n / groups != rule.group_size))
    return kiln_verify_error(ctx, op, "replica_groups must have groups of size %" PRId64
                                      " (split_count), got %" PRId64,
                             rule.group_size, groups == 0 ? 0 : n / groups);
  return NULL;
}

/* source_target_pairs: an (N, 2) tensor of non-negative ids, sources and targets each
 * unique. */
static kiln_status check_pairs(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_attr *p = dense_groups(op, "source_target_pairs");
  if (!p) return kiln_verify_error(ctx, op, "requires an integer tensor 'source_target_pairs'");
  const kiln_type *t = p->type;
  if (t->tensor.rank != 2)
    return kiln_verify_error(ctx, op, "source_target_pairs must be a 2-D tensor, got rank %" PRId32,
                             t->tensor.rank);
  if (t->tensor.dims[1] != 2)
    return kiln_verify_error(ctx, op, "source_target_pairs must have shape (N, 2), got (%" PRId64
                                      ", %" PRId64 ")", t->tensor.dims[0], t->tensor.dims[1]);
  int64_t n = kiln_attr_count(p), v, dup;
  for (int64_t i = 0; i < n && kiln_attr_i64_at(p, i, &v); i++)
    if (v < 0)
      return kiln_verify_error(ctx, op, "source_target_pairs holds %" PRId64 ", ids must be >= 0", v);
  static const char *const column[2] = {"source", "target"};
  for (int c = 0; c < 2; c++)
    if (find_duplicate(p, c, 2, -1, &dup))
      return kiln_verify_error(ctx, op, "source_target_pairs repeats %s %" PRId64, column[c], dup);
  return NULL;
}

/* channel_handle.handle must be positive when use_global_device_ids is set (all_gather
 * only rejects a negative one, as the reference does). */
static kiln_status check_global_ids(const kiln_verify_ctx *ctx, const kiln_op *op,
                                    int64_t min_channel) {
  int64_t channel = channel_field(op, "handle");
  if (!attr_flag(op, "use_global_device_ids") || channel >= min_channel) return NULL;
  return kiln_verify_error(ctx, op, "channel_handle.handle must be >= %" PRId64
                                    " when use_global_device_ids is set, got %" PRId64,
                           min_channel, channel);
}

/* ---------------------------------------------------------------- regions */

/* The block of region r and its stablehlo.return terminator. name: "cond", "branch 1"... */
static kiln_status region_return(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t r,
                                 const char *name, const kiln_block **block, const kiln_op **term) {
  *block = kiln_op_block(op, r);
  *term = kiln_block_terminator(*block);
  if (r >= op->num_regions) return kiln_verify_error(ctx, op, "%s region is missing", name);
  if (!*term) return kiln_verify_error(ctx, op, "%s region is empty", name);
  if ((*term)->kind != KILN_OP_RETURN)
    return kiln_verify_error(ctx, op, "%s region must end with 'stablehlo.return', not '%s'", name,
                             kiln_op_name((*term)->kind));
  return NULL;
}

static const kiln_op *parent_op(const kiln_op *op) {
  return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}

static kiln_status require_counts(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t operands,
                                  int32_t results) {
  if (operands >= 0 && op->num_operands != operands)
    return kiln_verify_error(ctx, op, "expects %" PRId32 " operand%s, got %" PRId32, operands,
                             operands == 1 ? "" : "s", op->num_operands);
  if (results >= 0 && op->num_results != results)
    return kiln_verify_error(ctx, op, "expects %" PRId32 " result%s, got %" PRId32, results,
                             results == 1 ? "" : "s", op->num_results);
  return NULL;
}

/* HLO_Tensor (and HLO_TensorOrToken when tokens): a ranked tensor whose element is not
 * per-axis quantized. */
static kiln_status check_hlo_values(const kiln_verify_ctx *ctx, const kiln_op *op, tlist l,
                                    const char *noun, bool tokens) {
  for (int32_t i = 0; i < l.count; i++) {
    const kiln_type *t = tl_at(l, i), *e = kiln_type_element(t);
    if (tokens && is_token(t)) continue;
    if (e && !(is_quant(e) && e->quant.axis >= 0)) continue;
    char ts[TYPE_BUF];
    return kiln_verify_error(ctx, op, "%s #%" PRId32 " must be a tensor%s without per-axis "
                                      "quantization, got %s", noun, i, tokens ? " or token" : "",
                             kiln_verify_type_str(t, ts, sizeof ts));
  }
  return NULL;
}

static kiln_status check_hlo_operands_results(const kiln_verify_ctx *ctx, const kiln_op *op,
                                              bool tokens) {
  KILN_RETURN_IF_ERROR(check_hlo_values(ctx, op, tl_operands(op), "operand", tokens));
  return check_hlo_values(ctx, op, tl_results(op), "result", tokens);
}

/* ---------------------------------------------------------------- func dialect */

static const kiln_type *func_type_of(const kiln_op *fn) {
  const kiln_type *t = kiln_func_type(fn);
  return t && t->kind == KILN_TYPE_FUNCTION ? t : NULL;
}

static kiln_status verify_func(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_type *ft = func_type_of(op);
  if (!ft) return kiln_verify_error(ctx, op, "requires a 'function_type' attribute");
  const kiln_block *entry = kiln_op_block(op, 0);
  if (!entry) return NULL; /* a declaration */
  match_desc d = {"entry block takes", "argument", "the function_type inputs"};
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_args(entry), tl_inputs(ft), MATCH_EXACT, d));
  for (const kiln_block *b = entry; b; b = b->next)
    if (!b->last || (b->last->kind != KILN_OP_FUNC_RETURN && b->last->kind != KILN_OP_RETURN))
      return kiln_verify_error(ctx, op, "body block must end with 'func.return'");
  return NULL;
}

static kiln_status verify_func_return(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_op *fn = parent_op(op);
  if (!fn || fn->kind != KILN_OP_FUNC)
    return kiln_verify_error(ctx, op, "expects parent op 'func.func'");
  if (op->next) return kiln_verify_error(ctx, op, "must be the last operation of its block");
  const kiln_type *ft = func_type_of(fn);
  if (!ft) return NULL; /* reported by func.func */
  match_desc d = {"returns", "value", "the function results"};
  return match_lists(ctx, op, tl_operands(op), tl_outputs(ft), MATCH_EXACT, d);
}

/* Operands and results of a call-like op against the signature of function @name. */
static kiln_status match_signature(const kiln_verify_ctx *ctx, const kiln_op *op, const char *attr,
                                   match_desc in, match_desc out) {
  const char *name = symbol_attr(kiln_op_attr(op, attr));
  if (!name) return kiln_verify_error(ctx, op, "requires a symbol attribute '%s'", attr);
  const kiln_op *fn = kiln_module_lookup_func(ctx->module, name);
  if (!fn) return kiln_verify_error(ctx, op, "%s @%s not found", attr, name);
  const kiln_type *ft = func_type_of(fn);
  if (!ft) return NULL;
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_operands(op), tl_inputs(ft), MATCH_EXACT, in));
  return match_lists(ctx, op, tl_results(op), tl_outputs(ft), MATCH_EXACT, out);
}

static kiln_status verify_call(const kiln_verify_ctx *ctx, const kiln_op *op) {
  match_desc in = {"passes", "operand", "the callee's inputs"};
  match_desc out = {"has", "result", "the callee's results"};
  return match_signature(ctx, op, "callee", in, out);
}

/* ---------------------------------------------------------------- control flow */

static kiln_status verify_return(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_op *parent = parent_op(op);
  if (!parent || parent->kind == KILN_OP_MODULE)
    return kiln_verify_error(ctx, op, "must be nested in an op with regions");
  if (op->next) return kiln_verify_error(ctx, op, "must be the last operation of its block");
  return NULL; /* the parent's rule checks the returned types */
}

static kiln_status verify_while(const kiln_verify_ctx *ctx, const kiln_op *op) {
  tlist carried = tl_operands(op);
  match_desc res = {"has", "result", "the loop-carried types"};
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_results(op), carried, MATCH_COMPATIBLE, res));
  const kiln_block *cond, *body;
  const kiln_op *cond_ret, *body_ret;
  KILN_RETURN_IF_ERROR(region_return(ctx, op, 0, "cond", &cond, &cond_ret));
  KILN_RETURN_IF_ERROR(region_return(ctx, op, 1, "body", &body, &body_ret));
  match_desc cond_args = {"cond region takes", "argument", "the loop-carried types"};
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_args(cond), carried, MATCH_COMPATIBLE, cond_args));
  match_desc body_args = {"body region takes", "argument", "the loop-carried types"};
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_args(body), carried, MATCH_COMPATIBLE, body_args));
  match_desc body_out = {"body region returns", "value", "the loop-carried types"};
  KILN_RETURN_IF_ERROR(
      match_lists(ctx, op, tl_operands(body_ret), carried, MATCH_COMPATIBLE, body_out));
  if (cond_ret->num_operands != 1)
    return kiln_verify_error(ctx, op, "cond region returns %" PRId32 " values, expected 1 (a "
                                      "tensor<i1>)", cond_ret->num_operands);
  const kiln_type *c = cond_ret->operands[0]->type;
  if (!is_scalar_tensor_of(c, KILN_ELEM_I1)) {
    char cs[TYPE_BUF];
    return kiln_verify_error(ctx, op, "cond region must return a tensor<i1>, got %s",
                             kiln_verify_type_str(c, cs, sizeof cs));
  }
  return NULL;
}

/* The branches of if/case, regions first.. : no arguments, each returns types compatible
 * with the op's results (and so with each other). */
static kiln_status check_branches(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t first) {
  if (op->num_regions <= first)
    return kiln_verify_error(ctx, op, "expects at least one branch region");
  for (int32_t r = first; r < op->num_regions; r++) {
    char name[32];
    snprintf(name, sizeof name, "branch %" PRId32, r - first);
    const kiln_block *b;
    const kiln_op *ret;
    KILN_RETURN_IF_ERROR(region_return(ctx, op, r, name, &b, &ret));
    if (b->num_args != 0)
      return kiln_verify_error(ctx, op, "%s region takes %" PRId32 " arguments, expected 0", name,
                               b->num_args);
    char subject[48];
    snprintf(subject, sizeof subject, "%s region returns", name);
    match_desc d = {subject, "value", "the results of the op"};
    KILN_RETURN_IF_ERROR(
        match_lists(ctx, op, tl_operands(ret), tl_results(op), MATCH_COMPATIBLE, d));
  }
  return NULL;
}

static kiln_status verify_selector(const kiln_verify_ctx *ctx, const kiln_op *op, kiln_elem elem,
                                   const char *name, const char *expected) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, -1));
  const kiln_type *t = op->operands[0]->type;
  if (is_scalar_tensor_of(t, elem)) return NULL;
  char ts[TYPE_BUF];
  return kiln_verify_error(ctx, op, "%s must be a %s, got %s", name, expected,
                           kiln_verify_type_str(t, ts, sizeof ts));
}

static kiln_status verify_if(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(verify_selector(ctx, op, KILN_ELEM_I1, "pred", "tensor<i1>"));
  if (op->num_regions != 2)
    return kiln_verify_error(ctx, op, "expects 2 regions (true_branch, false_branch), got %" PRId32,
                             op->num_regions);
  return check_branches(ctx, op, 0);
}

static kiln_status verify_case(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(verify_selector(ctx, op, KILN_ELEM_SI32, "index", "tensor<i32>"));
  return check_branches(ctx, op, 0);
}

/* ^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$ */
static bool is_namespaced_name(const char *s, size_t n) {
  if (n == 0 || !isalpha((unsigned char)s[0])) return false;
  size_t i = 1;
  while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_')) i++;
  int segments = 0;
  while (i < n) {
    if (s[i++] != '.') return false;
    size_t start = i;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$')) i++;
    if (i == start) return false;
    segments++;
  }
  return segments > 0;
}

static kiln_status verify_composite(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_attr *name = kiln_op_attr(op, "name");
  if (!name || name->kind != KILN_ATTR_STRING)
    return kiln_verify_error(ctx, op, "requires a string attribute 'name'");
  if (!is_namespaced_name(name->str.data, name->str.len))
    return kiln_verify_error(ctx, op, "name \"%.*s\" must be a namespaced op name such as "
                                      "\"my_namespace.my_op\"", (int)name->str.len, name->str.data);
  match_desc in = {"has", "operand", "the decomposition's inputs"};
  match_desc out = {"has", "result", "the decomposition's results"};
  return match_signature(ctx, op, "decomposition", in, out);
}

static kiln_status verify_optimization_barrier(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, true));
  match_desc d = {"has", "result", "the operand types"};
  return match_lists(ctx, op, tl_results(op), tl_operands(op), MATCH_EXACT, d);
}

/* ---------------------------------------------------------------- custom_call */

#define API_VERSION_TYPED_FFI 4

/* Follows tuple indices (an integer list, from entry `from` on) into t; NULL when one is
 * out of bounds. */
static const kiln_type *tuple_part(const kiln_type *t, const kiln_attr *indices, int64_t from) {
  int64_t n = kiln_attr_count(indices), idx;
  for (int64_t i = from; i < n && kiln_attr_i64_at(indices, i, &idx); i++) {
    if (!t || t->kind != KILN_TYPE_TUPLE || idx < 0 || idx >= t->tuple.count) return NULL;
    t = t->tuple.types[idx];
  }
  return t;
}

static kiln_status check_alias(const kiln_verify_ctx *ctx, const kiln_op *op, const kiln_attr *alias,
                               int32_t i) {
  const kiln_attr *index = kiln_attr_get(alias, "operand_index");
  int64_t operand = index && index->kind == KILN_ATTR_INT ? kiln_attr_int(index) : 0;
  if (operand < 0 || operand >= op->num_operands)
    return kiln_verify_error(ctx, op, "output_operand_aliases[%" PRId32 "]: operand_index %" PRId64
                                      " is out of range [0, %" PRId32 ")", i, operand,
                             op->num_operands);
  const kiln_type *in = tuple_part(op->operands[operand]->type,
                                   kiln_attr_get(alias, "operand_tuple_indices"), 0);
  if (!in)
    return kiln_verify_error(ctx, op, "output_operand_aliases[%" PRId32 "]: operand_tuple_indices "
                                      "out of bounds", i);
  /* Several results alias as one tuple: the first output index selects the result. */
  const kiln_attr *out_idx = kiln_attr_get(alias, "output_tuple_indices");
  const kiln_type *out = NULL;
  int64_t first = 0;
  if (op->num_results == 1) out = tuple_part(op->results[0].type, out_idx, 0);
  else if (kiln_attr_count(out_idx) <= 0) return NULL; /* the whole tuple: not one kiln type */
  else if (kiln_attr_i64_at(out_idx, 0, &first) && first >= 0 && first < op->num_results)
    out = tuple_part(op->results[first].type, out_idx, 1);
  if (!out)
    return kiln_verify_error(ctx, op, "output_operand_aliases[%" PRId32 "]: output_tuple_indices "
                                      "out of bounds", i);
  if (kiln_type_equal(in, out)) return NULL;
  char is[TYPE_BUF], os[TYPE_BUF];
  return kiln_verify_error(ctx, op, "output_operand_aliases[%" PRId32 "]: operand part has type %s "
                                    "but output part has type %s", i,
                           kiln_verify_type_str(in, is, sizeof is),
                           kiln_verify_type_str(out, os, sizeof os));
}

/* A permutation of [0, rank). */
static bool is_permutation(const kiln_attr *layout, int32_t rank) {
  if (kiln_attr_count(layout) != rank) return false;
  for (int64_t i = 0, v, w; i < rank && kiln_attr_i64_at(layout, i, &v); i++) {
    if (v < 0 || v >= rank) return false;
    for (int64_t j = 0; j < i && kiln_attr_i64_at(layout, j, &w); j++)
      if (w == v) return false;
  }
  return true;
}

/* One layout per value: a permutation of the dimensions of a tensor, empty otherwise. */
static kiln_status check_layouts(const kiln_verify_ctx *ctx, const kiln_op *op, tlist values,
                                 const kiln_attr *layouts, const char *noun) {
  if (layouts->kind != KILN_ATTR_ARRAY || layouts->array.count != values.count)
    return kiln_verify_error(ctx, op, "%s_layouts must hold one layout per %s (%" PRId32 ")", noun,
                             noun, values.count);
  for (int32_t i = 0; i < values.count; i++) {
    const kiln_type *t = tl_at(values, i);
    const kiln_attr *layout = layouts->array.items[i];
    char ts[TYPE_BUF];
    if (t->kind == KILN_TYPE_TUPLE)
      return kiln_verify_error(ctx, op, "%s #%" PRId32 " is a tuple, which layouts do not support",
                               noun, i);
    if (kiln_type_is_tensor(t) ? is_permutation(layout, t->tensor.rank)
                               : kiln_attr_count(layout) == 0)
      continue;
    return kiln_verify_error(ctx, op, "%s_layouts[%" PRId32 "] must be %s for type %s", noun, i,
                             kiln_type_is_tensor(t) ? "a permutation of the dimensions" : "empty",
                             kiln_verify_type_str(t, ts, sizeof ts));
  }
  return NULL;
}

static kiln_status check_custom_call_layouts(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_attr *in = kiln_op_attr(op, "operand_layouts"), *out = kiln_op_attr(op, "result_layouts");
  if (!in && !out) return NULL;
  if (!in || !out)
    return kiln_verify_error(ctx, op, "operand_layouts and result_layouts must be given together");
  KILN_RETURN_IF_ERROR(check_layouts(ctx, op, tl_operands(op), in, "operand"));
  const kiln_type *r0 = op->num_results == 1 ? op->results[0].type : NULL;
  tlist results = r0 && r0->kind == KILN_TYPE_TUPLE ? (tlist){r0->tuple.count, r0->tuple.types, NULL, NULL}
                                                    : tl_results(op);
  return check_layouts(ctx, op, results, out, "result");
}

static kiln_status verify_custom_call(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_custom_call_layouts(ctx, op));
  const kiln_attr *api = kiln_op_attr(op, "api_version");
  int64_t version = 1; /* API_VERSION_ORIGINAL */
  if (api && api->kind == KILN_ATTR_INT) {
    version = kiln_attr_int(api);
    if (version < 0 || version > API_VERSION_TYPED_FFI)
      return kiln_verify_error(ctx, op, "api_version %" PRId64 " is out of range [0, %d]", version,
                               API_VERSION_TYPED_FFI);
  } else if (api && api->kind == KILN_ATTR_ENUM) {
    version = strcmp(api->enumv.value, "API_VERSION_TYPED_FFI") == 0 ? API_VERSION_TYPED_FFI : 1;
  }
  const kiln_attr *config = kiln_op_attr(op, "backend_config");
  if (config && version == API_VERSION_TYPED_FFI && config->kind != KILN_ATTR_DICT)
    return kiln_verify_error(ctx, op, "backend_config must be a dictionary for api_version 4");
  if (config && version != API_VERSION_TYPED_FFI && config->kind == KILN_ATTR_DICT)
    return kiln_verify_error(ctx, op, "backend_config must be a string for api_version %" PRId64,
                             version);
  const kiln_attr *aliases = kiln_op_attr(op, "output_operand_aliases");
  if (!aliases || aliases->kind != KILN_ATTR_ARRAY) return NULL;
  for (int32_t i = 0; i < aliases->array.count; i++)
    KILN_RETURN_IF_ERROR(check_alias(ctx, op, aliases->array.items[i], i));
  return NULL;
}

/* ---------------------------------------------------------------- tokens, feeds */

static kiln_status require_token(const kiln_verify_ctx *ctx, const kiln_op *op, const kiln_type *t,
                                 const char *what) {
  if (is_token(t)) return NULL;
  char ts[TYPE_BUF];
  return kiln_verify_error(ctx, op, "%s must be a !stablehlo.token, got %s", what,
                           kiln_verify_type_str(t, ts, sizeof ts));
}

static kiln_status require_token_result(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, -1, 1));
  return require_token(ctx, op, op->results[0].type, "the result");
}

static kiln_status verify_after_all(const kiln_verify_ctx *ctx, const kiln_op *op) {
  for (int32_t i = 0; i < op->num_operands; i++) {
    char what[32];
    snprintf(what, sizeof what, "operand #%" PRId32, i);
    KILN_RETURN_IF_ERROR(require_token(ctx, op, op->operands[i]->type, what));
  }
  return require_token_result(ctx, op);
}

static kiln_status verify_create_token(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 0, -1));
  return require_token_result(ctx, op);
}

/* Ops taking data operands then a token, producing a token (outfeed, send). */
static kiln_status check_data_then_token(const kiln_verify_ctx *ctx, const kiln_op *op) {
  if (op->num_operands < 1) return kiln_verify_error(ctx, op, "expects a token operand");
  KILN_RETURN_IF_ERROR(
      require_token(ctx, op, op->operands[op->num_operands - 1]->type, "the last operand"));
  return require_token_result(ctx, op);
}

/* Ops producing data results then a token (infeed, recv). */
static kiln_status check_data_and_token_results(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, -1));
  KILN_RETURN_IF_ERROR(require_token(ctx, op, op->operands[0]->type, "the operand"));
  if (op->num_results < 1) return kiln_verify_error(ctx, op, "expects at least 1 result, got 0");
  for (int32_t i = 0; i + 1 < op->num_results; i++)
    if (!kiln_type_is_tensor(op->results[i].type)) {
      char ts[TYPE_BUF];
      return kiln_verify_error(ctx, op, "result #%" PRId32 " must be a tensor (only the last "
                                        "result is a token), got %s", i,
                               kiln_verify_type_str(op->results[i].type, ts, sizeof ts));
    }
  return require_token(ctx, op, op->results[op->num_results - 1].type, "the last result");
}

static kiln_status verify_infeed(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_data_and_token_results(ctx, op));
  const kiln_attr *layout = kiln_op_attr(op, "layout");
  if (!layout) return NULL;
  if (layout->kind != KILN_ATTR_ARRAY)
    return kiln_verify_error(ctx, op, "layout must be an array of integer arrays");
  if (layout->array.count != op->num_results - 1)
    return kiln_verify_error(ctx, op, "layout has %" PRId32 " entries, expected %" PRId32
                                      " (one per result but the token)",
                             layout->array.count, op->num_results - 1);
  for (int32_t i = 0; i < layout->array.count; i++)
    if (layout->array.items[i]->kind != KILN_ATTR_ARRAY || kiln_attr_count(layout->array.items[i]) < 0)
      return kiln_verify_error(ctx, op, "layout[%" PRId32 "] must be an array of integers", i);
  return NULL;
}

static kiln_status verify_outfeed(const kiln_verify_ctx *ctx, const kiln_op *op) {
  return check_data_then_token(ctx, op);
}

/* channel_handle.type: 1 DEVICE_TO_DEVICE, 2 DEVICE_TO_HOST, 3 HOST_TO_DEVICE. */
static kiln_status check_channel_type(const kiln_verify_ctx *ctx, const kiln_op *op,
                                      int64_t host_type, const char *host_name) {
  if (!kiln_op_attr(op, "channel_handle"))
    return kiln_verify_error(ctx, op, "requires a 'channel_handle' attribute");
  int64_t type = channel_field(op, "type");
  bool host = attr_flag(op, "is_host_transfer");
  if (!host && type != 1)
    return kiln_verify_error(ctx, op, "channel_handle.type must be 1 (DEVICE_TO_DEVICE) when "
                                      "is_host_transfer is false, got %" PRId64, type);
  if (host && type != host_type)
    return kiln_verify_error(ctx, op, "channel_handle.type must be %" PRId64 " (%s) when "
                                      "is_host_transfer is true, got %" PRId64,
                             host_type, host_name, type);
  /* The reference leaves send/recv pairs unchecked and empty ones (even 1-D) occur. */
  return kiln_attr_count(dense_groups(op, "source_target_pairs")) > 0 ? check_pairs(ctx, op)
                                                                        : NULL;
}

static kiln_status verify_send(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_data_then_token(ctx, op));
  return check_channel_type(ctx, op, 2, "DEVICE_TO_HOST");
}

static kiln_status verify_recv(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_data_and_token_results(ctx, op));
  return check_channel_type(ctx, op, 3, "HOST_TO_DEVICE");
}

/* ---------------------------------------------------------------- collectives */

/* The reduction region of all_reduce / reduce_scatter / collective_reduce for one
 * operand: (tensor<E>, tensor<E>) -> tensor<E> with E promotable from the operand's
 * element type. Sets *acc to E. */
static kiln_status check_reducer(const kiln_verify_ctx *ctx, const kiln_op *op,
                                 const kiln_type *operand, const kiln_type **acc) {
  const kiln_block *b;
  const kiln_op *ret;
  KILN_RETURN_IF_ERROR(region_return(ctx, op, 0, "computation", &b, &ret));
  if (b->num_args != 2)
    return kiln_verify_error(ctx, op, "computation region takes %" PRId32 " arguments, expected 2",
                             b->num_args);
  if (ret->num_operands != 1)
    return kiln_verify_error(ctx, op, "computation region returns %" PRId32 " values, expected 1",
                             ret->num_operands);
  const kiln_type *r = ret->operands[0]->type, *a0 = b->args[0].type, *a1 = b->args[1].type;
  char s1[TYPE_BUF], s2[TYPE_BUF];
  if (rank_of(r) != 0)
    return kiln_verify_error(ctx, op, "computation region must return a 0-d tensor, got %s",
                             kiln_verify_type_str(r, s1, sizeof s1));
  const kiln_type *e = r->tensor.element;
  for (int k = 0; k < 2; k++) {
    const kiln_type *a = k ? a1 : a0;
    if (!shapes_and_bounds_compatible(a, r) || !same_elem(a->tensor.element, e, k == 1))
      return kiln_verify_error(ctx, op, "computation argument #%d has type %s, expected %s (the "
                                        "returned accumulator type)", k,
                               kiln_verify_type_str(a, s1, sizeof s1),
                               kiln_verify_type_str(r, s2, sizeof s2));
  }
  const kiln_type *oe = kiln_type_element(operand);
  if (!oe || !promotable(oe, e, true) || !promotable(oe, a1->tensor.element, true))
    return kiln_verify_error(ctx, op, "computation type %s is not promotable from operand type %s",
                             kiln_verify_type_str(r, s1, sizeof s1),
                             kiln_verify_type_str(operand, s2, sizeof s2));
  *acc = e;
  return NULL;
}

/* Results of a reduction collective: each has its data operand's shape and the
 * accumulator element type. */
static kiln_status check_reduced_results(const kiln_verify_ctx *ctx, const kiln_op *op,
                                         int32_t data) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, -1, data));
  for (int32_t i = 0; i < data; i++) {
    const kiln_type *in = op->operands[i]->type, *out = op->results[i].type, *acc;
    KILN_RETURN_IF_ERROR(check_reducer(ctx, op, in, &acc));
    if (shapes_and_bounds_compatible(in, out) && kiln_verify_elems_compatible(acc, out->tensor.element)) continue;
    char os[TYPE_BUF], is[TYPE_BUF], es[TYPE_BUF];
    return kiln_verify_error(ctx, op, "result #%" PRId32 " has type %s, expected the shape of %s "
                                      "with element type %s", i,
                             kiln_verify_type_str(out, os, sizeof os),
                             kiln_verify_type_str(in, is, sizeof is),
                             kiln_verify_type_str(acc, es, sizeof es));
  }
  return NULL;
}

static kiln_status verify_all_reduce(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  bool global = attr_flag(op, "use_global_device_ids");
  KILN_RETURN_IF_ERROR(check_replica_groups(ctx, op, (groups_rule){false, global, -1}));
  KILN_RETURN_IF_ERROR(check_global_ids(ctx, op, 1));
  return check_reduced_results(ctx, op, op->num_operands);
}

/* has_dynamic_root: the last operand is a 1-D i32 tensor with one root per data operand. */
static kiln_status check_dynamic_root(const kiln_verify_ctx *ctx, const kiln_op *op, int32_t *data) {
  *data = op->num_operands;
  if (!attr_flag(op, "has_dynamic_root")) {
    if (*data < 1) return kiln_verify_error(ctx, op, "requires at least one data operand");
    return NULL;
  }
  if (*data < 2)
    return kiln_verify_error(ctx, op, "with has_dynamic_root requires at least two operands (data "
                                      "and roots)");
  const kiln_type *root = op->operands[--*data]->type;
  const kiln_type *re = kiln_type_element(root);
  if (rank_of(root) != 1 || re->kind != KILN_TYPE_SCALAR || re->elem != KILN_ELEM_SI32 ||
      root->tensor.dims[0] != *data) {
    char rs[TYPE_BUF];
    return kiln_verify_error(ctx, op, "with has_dynamic_root, the last operand must be a "
                                      "tensor<%" PRId32 "xi32> of roots, got %s", *data,
                             kiln_verify_type_str(root, rs, sizeof rs));
  }
  return NULL;
}

static kiln_status verify_collective_reduce(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  bool global = attr_flag(op, "use_global_device_ids");
  KILN_RETURN_IF_ERROR(check_replica_groups(ctx, op, (groups_rule){false, global, -1}));
  KILN_RETURN_IF_ERROR(check_global_ids(ctx, op, 1));
  int32_t data;
  KILN_RETURN_IF_ERROR(check_dynamic_root(ctx, op, &data));
  return check_reduced_results(ctx, op, data);
}

static kiln_status verify_collective_broadcast(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  const kiln_attr *g = dense_groups(op, "replica_groups");
  int64_t n = kiln_attr_count(g), v, dup;
  if (g && g->type->tensor.rank != 2)
    return kiln_verify_error(ctx, op, "replica_groups must be a 2-D tensor, got rank %" PRId32,
                             g->type->tensor.rank);
  for (int64_t i = 0; g && i < n && kiln_attr_i64_at(g, i, &v); i++)
    if (v < 0) return kiln_verify_error(ctx, op, "replica_groups holds %" PRId64 ", ids must be "
                                                 ">= 0", v);
  if (g && find_duplicate(g, 0, 1, -1, &dup))
    return kiln_verify_error(ctx, op, "replica id #%" PRId64 " seen more than once in "
                                      "replica_groups", dup);
  int32_t data;
  KILN_RETURN_IF_ERROR(check_dynamic_root(ctx, op, &data));
  match_desc d = {"has", "result", "the data operand types"};
  return match_lists(ctx, op, tl_results(op), tl_operand_range(op, 0, data), MATCH_COMPATIBLE, d);
}

static kiln_status verify_collective_permute(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  KILN_RETURN_IF_ERROR(check_pairs(ctx, op));
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, 1));
  match_desc d = {"has", "result", "the operand type"};
  return match_lists(ctx, op, tl_results(op), tl_operands(op), MATCH_COMPATIBLE, d);
}

static kiln_status verify_cross_replica_sum(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  const kiln_attr *g = dense_groups(op, "replica_groups");
  if (g && g->type->tensor.rank != 2)
    return kiln_verify_error(ctx, op, "replica_groups must be a 2-D tensor, got rank %" PRId32,
                             g->type->tensor.rank);
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, 1));
  match_desc d = {"has", "result", "the operand type"};
  return match_lists(ctx, op, tl_results(op), tl_operands(op), MATCH_COMPATIBLE, d);
}

/* all_gather, all_to_all and reduce_scatter keep the operand's shape except along one
 * or two dimensions; these checks share the per-pair walk. */
typedef struct reshaped {
  const char *attr; /* the dimension attribute, for messages */
  int64_t dim;      /* all_gather_dim, split_dimension, scatter_dimension */
  int64_t dim2;     /* concat_dimension (all_to_all), or -1 */
} reshaped;

static kiln_status check_dim_attr(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                                  int64_t value, const kiln_type *operand, int32_t i) {
  int32_t rank = rank_of(operand);
  if (value >= 0 && value < rank) return NULL;
  return kiln_verify_error(ctx, op, "%s %" PRId64 " is out of range [0, %" PRId32 ") for operand #%"
                                    PRId32, name, value, rank, i);
}

/* The same rank, and dimensions other than r.dim / r.dim2 compatible. */
static kiln_status check_kept_dims(const kiln_verify_ctx *ctx, const kiln_op *op, const kiln_type *in,
                                   const kiln_type *out, reshaped r, int32_t i) {
  if (rank_of(in) < 0 || rank_of(in) != rank_of(out))
    return kiln_verify_error(ctx, op, "operand #%" PRId32 " and result #%" PRId32 " must be "
                                      "tensors of the same rank", i, i);
  for (int32_t d = 0; d < in->tensor.rank; d++)
    if (d != r.dim && d != r.dim2 && !kiln_verify_dims_compatible(in->tensor.dims[d], out->tensor.dims[d]))
      return kiln_verify_error(ctx, op, "result #%" PRId32 " dimension %" PRId32 " is %" PRId64
                                        ", expected %" PRId64 " (only %s changes)", i, d,
                               out->tensor.dims[d], in->tensor.dims[d], r.attr);
  return NULL;
}

static kiln_status check_same_elements(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, -1, op->num_operands));
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *in = op->operands[i]->type, *out = op->results[i].type;
    if (!kiln_type_is_tensor(in) || !kiln_type_is_tensor(out))
      return kiln_verify_error(ctx, op, "operand and result #%" PRId32 " must be tensors", i);
    if (kiln_type_equal(in->tensor.element, out->tensor.element)) continue;
    char is[TYPE_BUF], os[TYPE_BUF];
    return kiln_verify_error(ctx, op, "result #%" PRId32 " element type differs from the operand's "
                                      "(%s vs %s)", i, kiln_verify_type_str(out, os, sizeof os),
                             kiln_verify_type_str(in, is, sizeof is));
  }
  return NULL;
}

static kiln_status verify_all_gather(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  bool global = attr_flag(op, "use_global_device_ids");
  KILN_RETURN_IF_ERROR(check_replica_groups(ctx, op, (groups_rule){true, global, -1}));
  KILN_RETURN_IF_ERROR(check_global_ids(ctx, op, 0));
  reshaped r = {"all_gather_dim", 0, -1};
  KILN_RETURN_IF_ERROR(require_i64(ctx, op, r.attr, &r.dim));
  KILN_RETURN_IF_ERROR(check_same_elements(ctx, op));
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *in = op->operands[i]->type, *out = op->results[i].type;
    KILN_RETURN_IF_ERROR(check_dim_attr(ctx, op, r.attr, r.dim, in, i));
    int64_t a = in->tensor.dims[r.dim];
    if (a == 0)
      return kiln_verify_error(ctx, op, "operand #%" PRId32 " has size 0 along all_gather_dim", i);
    KILN_RETURN_IF_ERROR(check_kept_dims(ctx, op, in, out, r, i));
    int64_t b = out->tensor.dims[r.dim];
    if (a != KILN_DIM_DYNAMIC && b != KILN_DIM_DYNAMIC && b % a != 0)
      return kiln_verify_error(ctx, op, "result #%" PRId32 " has size %" PRId64 " along "
                                        "all_gather_dim, expected a multiple of the operand's %"
                                        PRId64, i, b, a);
  }
  return NULL;
}

static kiln_status verify_all_to_all(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  reshaped r = {"split_dimension and concat_dimension", 0, 0};
  int64_t count;
  KILN_RETURN_IF_ERROR(require_i64(ctx, op, "split_dimension", &r.dim));
  KILN_RETURN_IF_ERROR(require_i64(ctx, op, "concat_dimension", &r.dim2));
  KILN_RETURN_IF_ERROR(require_i64(ctx, op, "split_count", &count));
  if (count <= 0)
    return kiln_verify_error(ctx, op, "split_count must be positive, got %" PRId64, count);
  KILN_RETURN_IF_ERROR(check_replica_groups(ctx, op, (groups_rule){true, false, count}));
  KILN_RETURN_IF_ERROR(check_same_elements(ctx, op));
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *in = op->operands[i]->type, *out = op->results[i].type;
    KILN_RETURN_IF_ERROR(check_dim_attr(ctx, op, "split_dimension", r.dim, in, i));
    KILN_RETURN_IF_ERROR(check_dim_attr(ctx, op, "concat_dimension", r.dim2, in, i));
    int64_t split = in->tensor.dims[r.dim], concat = in->tensor.dims[r.dim2];
    if (split != KILN_DIM_DYNAMIC && split % count != 0)
      return kiln_verify_error(ctx, op, "operand #%" PRId32 " has size %" PRId64 " along "
                                        "split_dimension, expected a multiple of split_count %"
                                        PRId64, i, split, count);
    KILN_RETURN_IF_ERROR(check_kept_dims(ctx, op, in, out, r, i));
    /* After the split, the concat dimension grows (they may be the same dimension). */
    int64_t want_split = split == KILN_DIM_DYNAMIC ? split : split / count;
    int64_t base_concat = r.dim2 == r.dim ? want_split : concat;
    int64_t want_concat = base_concat == KILN_DIM_DYNAMIC ? base_concat : base_concat * count;
    if (r.dim != r.dim2 && !kiln_verify_dims_compatible(want_split, out->tensor.dims[r.dim]))
      return kiln_verify_error(ctx, op, "result #%" PRId32 " has size %" PRId64 " along "
                                        "split_dimension, expected %" PRId64, i,
                               out->tensor.dims[r.dim], want_split);
    if (!kiln_verify_dims_compatible(want_concat, out->tensor.dims[r.dim2]))
      return kiln_verify_error(ctx, op, "result #%" PRId32 " has size %" PRId64 " along "
                                        "concat_dimension, expected %" PRId64, i,
                               out->tensor.dims[r.dim2], want_concat);
  }
  return NULL;
}

static kiln_status verify_reduce_scatter(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_operands_results(ctx, op, false));
  bool global = attr_flag(op, "use_global_device_ids");
  KILN_RETURN_IF_ERROR(check_replica_groups(ctx, op, (groups_rule){true, global, -1}));
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, 1));
  const kiln_type *in = op->operands[0]->type, *out = op->results[0].type, *acc;
  KILN_RETURN_IF_ERROR(check_reducer(ctx, op, in, &acc));
  reshaped r = {"scatter_dimension", 0, -1};
  KILN_RETURN_IF_ERROR(require_i64(ctx, op, r.attr, &r.dim));
  KILN_RETURN_IF_ERROR(check_dim_attr(ctx, op, r.attr, r.dim, in, 0));
  KILN_RETURN_IF_ERROR(check_kept_dims(ctx, op, in, out, r, 0));
  KILN_RETURN_IF_ERROR(check_global_ids(ctx, op, 1));
  int64_t a = in->tensor.dims[r.dim], b = out->tensor.dims[r.dim];
  if (a == 0 || b == 0)
    return kiln_verify_error(ctx, op, "%s has size 0 along scatter_dimension",
                             a == 0 ? "the operand" : "the result");
  if (a != KILN_DIM_DYNAMIC && b != KILN_DIM_DYNAMIC && a % b != 0)
    return kiln_verify_error(ctx, op, "operand size %" PRId64 " along scatter_dimension is not a "
                                      "multiple of the result size %" PRId64, a, b);
  if (kiln_type_equal(acc, out->tensor.element)) return NULL;
  char os[TYPE_BUF], es[TYPE_BUF];
  return kiln_verify_error(ctx, op, "result type %s must have the computation's element type %s",
                           kiln_verify_type_str(out, os, sizeof os),
                           kiln_verify_type_str(acc, es, sizeof es));
}

/* ---------------------------------------------------------------- async */

static bool is_async_body_op(kiln_op_kind k) {
  switch (k) {
    case KILN_OP_ALL_GATHER:
    case KILN_OP_ALL_REDUCE:
    case KILN_OP_ALL_TO_ALL:
    case KILN_OP_COLLECTIVE_BROADCAST:
    case KILN_OP_COLLECTIVE_PERMUTE:
    case KILN_OP_COLLECTIVE_REDUCE:
    case KILN_OP_DYNAMIC_SLICE:
    case KILN_OP_DYNAMIC_UPDATE_SLICE:
    case KILN_OP_REDUCE_SCATTER:
    case KILN_OP_SLICE: return true;
    default: return false;
  }
}

static kiln_status verify_async_start(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(check_hlo_values(ctx, op, tl_operands(op), "operand", false));
  if (op->num_regions != 1)
    return kiln_verify_error(ctx, op, "requires one region, got %" PRId32, op->num_regions);
  const kiln_block *b;
  const kiln_op *ret;
  KILN_RETURN_IF_ERROR(region_return(ctx, op, 0, "body", &b, &ret));
  if (b->first == ret || b->first->next != ret || !is_async_body_op(b->first->kind))
    return kiln_verify_error(ctx, op, "body region must hold exactly one collective or slice op "
                                      "and a return");
  match_desc args = {"body region takes", "argument", "the operand types"};
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_args(b), tl_operands(op), MATCH_EXACT, args));
  if (ret->num_operands != 1)
    return kiln_verify_error(ctx, op, "body region returns %" PRId32 " values, expected 1",
                             ret->num_operands);
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, -1, 1));
  const kiln_type *f = op->results[0].type, *v = ret->operands[0]->type;
  if (f->kind == KILN_TYPE_FUTURE && f->tuple.count == 1 && kiln_type_equal(f->tuple.types[0], v))
    return NULL;
  char fs[TYPE_BUF], vs[TYPE_BUF];
  return kiln_verify_error(ctx, op, "result type %s must be !stablehlo.future<%s>",
                           kiln_verify_type_str(f, fs, sizeof fs),
                           kiln_verify_type_str(v, vs, sizeof vs));
}

static kiln_status verify_async_done(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, 1));
  const kiln_type *f = op->operands[0]->type, *r = op->results[0].type;
  char fs[TYPE_BUF], rs[TYPE_BUF];
  if (f->kind != KILN_TYPE_FUTURE || f->tuple.count != 1)
    return kiln_verify_error(ctx, op, "operand must be a future of one type, got %s",
                             kiln_verify_type_str(f, fs, sizeof fs));
  if (kiln_type_equal(f->tuple.types[0], r)) return NULL;
  return kiln_verify_error(ctx, op, "result type %s must be the future's type %s",
                           kiln_verify_type_str(r, rs, sizeof rs),
                           kiln_verify_type_str(f->tuple.types[0], fs, sizeof fs));
}

/* ---------------------------------------------------------------- rng, ids */

static bool const_shape_dim(const kiln_value *shape, int64_t i, int64_t *out) {
  const kiln_op *def = shape->def;
  if (!def || (def->kind != KILN_OP_CONSTANT && def->kind != KILN_OP_ARITH_CONSTANT)) return false;
  return kiln_attr_i64_at(kiln_op_attr(def, "value"), i, out);
}

static kiln_status verify_rng(const kiln_verify_ctx *ctx, const kiln_op *op) {
  static const char *const kinds[] = {"UNIFORM", "NORMAL", NULL};
  const char *dist = enum_value(op, "rng_distribution");
  if (!one_of(dist, kinds))
    return kiln_verify_error(ctx, op, "rng_distribution must be UNIFORM or NORMAL");
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 3, 1));
  const kiln_type *a = op->operands[0]->type, *b = op->operands[1]->type, *out = op->results[0].type;
  const kiln_type *shape = op->operands[2]->type;
  if (rank_of(a) != 0 || rank_of(b) != 0)
    return kiln_verify_error(ctx, op, "operands a and b must be 0-d tensors");
  if (!kiln_type_is_tensor(out) || !kiln_type_equal(a->tensor.element, b->tensor.element) ||
      !kiln_type_equal(a->tensor.element, out->tensor.element))
    return kiln_verify_error(ctx, op, "a, b and the result must have the same element type");
  if (strcmp(dist, "NORMAL") == 0 && family_of(a->tensor.element) != FAM_FLOAT)
    return kiln_verify_error(ctx, op, "a NORMAL distribution needs floating-point a and b");
  if (rank_of(shape) != 1)
    return kiln_verify_error(ctx, op, "shape must be a 1-d tensor");
  int64_t n = shape->tensor.dims[0], d;
  if (n != KILN_DIM_DYNAMIC && n != out->tensor.rank)
    return kiln_verify_error(ctx, op, "result rank %" PRId32 " differs from the %" PRId64
                                      " entries of shape", out->tensor.rank, n);
  for (int32_t i = 0; i < out->tensor.rank && const_shape_dim(op->operands[2], i, &d); i++)
    if (!kiln_verify_dims_compatible(d, out->tensor.dims[i]))
      return kiln_verify_error(ctx, op, "result dimension %" PRId32 " is %" PRId64 ", but shape "
                                        "says %" PRId64, i, out->tensor.dims[i], d);
  return NULL;
}

/* The spec's "integer or floating-point type" of rng_bit_generator's output: i1 is the
 * BooleanType, tf32 is not a FloatType of the spec (only a dot precision type), and
 * complex and quantized elements are neither; the reference's ODS constraint
 * (HLO_StaticShapeIntOrFpTensor) excludes the same. */
static bool is_random_bits_elem(const kiln_type *elem) {
  if (!elem || elem->kind != KILN_TYPE_SCALAR) return false;
  kiln_elem_class c = kiln_elem_class_of(elem->elem);
  return c == KILN_ELEM_CLASS_I || c == KILN_ELEM_CLASS_U ||
         (c == KILN_ELEM_CLASS_F && elem->elem != KILN_ELEM_TF32);
}

static kiln_status verify_rng_bit_generator(const kiln_verify_ctx *ctx, const kiln_op *op) {
  static const char *const algorithms[] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL};
  if (!one_of(enum_value(op, "rng_algorithm"), algorithms))
    return kiln_verify_error(ctx, op, "rng_algorithm must be DEFAULT, THREE_FRY or PHILOX");
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, 2));
  const kiln_type *output = op->results[1].type;
  if (!kiln_type_is_tensor(output) || !is_random_bits_elem(output->tensor.element)) {
    char os[TYPE_BUF];
    return kiln_verify_error(ctx, op, "output must be a tensor of integer or floating-point type "
                                      "(not i1, tf32, complex or quantized), got %s",
                             kiln_verify_type_str(output, os, sizeof os));
  }
  const kiln_type *in = op->operands[0]->type, *state = op->results[0].type;
  if (rank_of(in) >= 0 && rank_of(in) == rank_of(state)) {
    bool ok = true;
    for (int32_t i = 0; i < in->tensor.rank; i++)
      ok = ok && kiln_verify_dims_compatible(in->tensor.dims[i], state->tensor.dims[i]);
    if (ok) return NULL;
  }
  char is[TYPE_BUF], ss[TYPE_BUF];
  return kiln_verify_error(ctx, op, "output_state shape %s must match initial_state %s",
                           kiln_verify_type_str(state, ss, sizeof ss),
                           kiln_verify_type_str(in, is, sizeof is));
}

static kiln_status verify_process_id(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 0, 1));
  const kiln_type *t = op->results[0].type;
  if (is_scalar_tensor_of(t, KILN_ELEM_UI32)) return NULL;
  char ts[TYPE_BUF];
  return kiln_verify_error(ctx, op, "result must be a tensor<ui32>, got %s",
                           kiln_verify_type_str(t, ts, sizeof ts));
}

/* ---------------------------------------------------------------- check.*, interpreter.* */

static kiln_status check_float_operands(const kiln_verify_ctx *ctx, const kiln_op *op) {
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!is_float_or_complex(op->operands[i]->type))
      return kiln_verify_error(ctx, op, "operand #%" PRId32 " must be a floating-point or complex "
                                        "tensor", i);
  return NULL;
}

/* check.expect_eq / expect_almost_eq / expect_close / check.eq: two operands of one type. */
static kiln_status verify_check_pair(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 2, -1));
  const kiln_type *a = op->operands[0]->type, *b = op->operands[1]->type;
  if (!kiln_type_equal(a, b)) {
    char as[TYPE_BUF], bs[TYPE_BUF];
    return kiln_verify_error(ctx, op, "operands must have the same type, got %s and %s",
                             kiln_verify_type_str(a, as, sizeof as),
                             kiln_verify_type_str(b, bs, sizeof bs));
  }
  bool fp = op->kind == KILN_OP_CHECK_EXPECT_ALMOST_EQ || op->kind == KILN_OP_CHECK_EXPECT_CLOSE;
  return fp ? check_float_operands(ctx, op) : NULL;
}

/* check.expect_eq_const / expect_almost_eq_const: the operand's type is the value's. */
static kiln_status verify_check_const(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, 0));
  const kiln_attr *v = kiln_op_attr(op, "value");
  if (!v || !v->type) return kiln_verify_error(ctx, op, "requires a typed attribute 'value'");
  const kiln_type *t = op->operands[0]->type;
  if (!kiln_type_equal(t, v->type)) {
    char ts[TYPE_BUF], vs[TYPE_BUF];
    return kiln_verify_error(ctx, op, "operand type %s differs from the value's type %s",
                             kiln_verify_type_str(t, ts, sizeof ts),
                             kiln_verify_type_str(v->type, vs, sizeof vs));
  }
  return op->kind == KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST ? check_float_operands(ctx, op) : NULL;
}

static kiln_status require_tensor_operand(const kiln_verify_ctx *ctx, const kiln_op *op,
                                          int32_t results) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 1, results));
  if (kiln_type_is_tensor(op->operands[0]->type)) return NULL;
  return kiln_verify_error(ctx, op, "operand must be a tensor");
}

static kiln_status require_probe_id(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_attr *id = kiln_op_attr(op, "probe_id");
  if (id && id->kind == KILN_ATTR_STRING) return NULL;
  return kiln_verify_error(ctx, op, "requires a string attribute 'probe_id'");
}

static kiln_status verify_serialized_eq(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_tensor_operand(ctx, op, 0));
  return require_probe_id(ctx, op);
}

static kiln_status verify_probe(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_tensor_operand(ctx, op, 1));
  KILN_RETURN_IF_ERROR(require_probe_id(ctx, op));
  match_desc d = {"has", "result", "the operand type"};
  return match_lists(ctx, op, tl_results(op), tl_operands(op), MATCH_EXACT, d);
}

static kiln_status verify_print(const kiln_verify_ctx *ctx, const kiln_op *op) {
  return require_tensor_operand(ctx, op, 0);
}

/* A function named by a symbol inside an attribute list. */
static kiln_status program_at(const kiln_verify_ctx *ctx, const kiln_op *op, const kiln_attr *sym,
                              const char *attr, const kiln_type **ft) {
  const char *name = symbol_attr(sym);
  if (!name) return kiln_verify_error(ctx, op, "%s must hold function symbols", attr);
  const kiln_op *fn = kiln_module_lookup_func(ctx->module, name);
  if (!fn) return kiln_verify_error(ctx, op, "%s: function @%s not found", attr, name);
  *ft = func_type_of(fn);
  return *ft ? NULL : kiln_verify_error(ctx, op, "%s: @%s has no function type", attr, name);
}

static kiln_status check_infeed_programs(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_attr *infeed = kiln_op_attr(op, "infeed");
  if (!infeed) return NULL;
  if (infeed->kind != KILN_ATTR_ARRAY || infeed->array.count == 0)
    return kiln_verify_error(ctx, op, "infeed must be a non-empty array of function symbols");
  for (int32_t i = 0; i < infeed->array.count; i++) {
    const kiln_type *ft;
    KILN_RETURN_IF_ERROR(program_at(ctx, op, infeed->array.items[i], "infeed", &ft));
    if (ft->func.num_results != 1 || !kiln_type_is_tensor(ft->func.results[0]))
      return kiln_verify_error(ctx, op, "infeed: @%s must return one tensor",
                               infeed->array.items[i]->symbol);
  }
  return NULL;
}

static kiln_status verify_run_parallel(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_attr *programs = kiln_op_attr(op, "programs");
  if (!programs || programs->kind != KILN_ATTR_ARRAY || programs->array.count == 0 ||
      programs->array.items[0]->kind != KILN_ATTR_ARRAY || programs->array.items[0]->array.count == 0)
    return kiln_verify_error(ctx, op, "programs must be a non-empty array of arrays of symbols");
  int32_t partitions = programs->array.items[0]->array.count;
  int64_t inputs = 0, results = 0;
  for (int32_t r = 0; r < programs->array.count; r++) {
    const kiln_attr *row = programs->array.items[r];
    if (row->kind != KILN_ATTR_ARRAY || row->array.count != partitions)
      return kiln_verify_error(ctx, op, "programs row %" PRId32 " must hold %" PRId32 " symbols",
                               r, partitions);
    for (int32_t p = 0; p < partitions; p++) {
      const kiln_type *ft;
      KILN_RETURN_IF_ERROR(program_at(ctx, op, row->array.items[p], "programs", &ft));
      inputs += ft->func.num_inputs;
      results += ft->func.num_results;
    }
  }
  if (op->num_operands != inputs || op->num_results != results)
    return kiln_verify_error(ctx, op, "has %" PRId32 " operands and %" PRId32 " results, expected %"
                                      PRId64 " and %" PRId64 " (the programs' inputs and results)",
                             op->num_operands, op->num_results, inputs, results);
  return check_infeed_programs(ctx, op);
}

/* ---------------------------------------------------------------- foreign ops (light) */

/* scf.for %iv = %lb to %ub step %s iter_args(...) -> (...): results match the iter_args,
 * the body takes the induction variable and the iter_args. */
static kiln_status verify_scf_for(const kiln_verify_ctx *ctx, const kiln_op *op) {
  if (op->num_operands < 3)
    return kiln_verify_error(ctx, op, "expects lower bound, upper bound and step operands");
  tlist iter = tl_operand_range(op, 3, op->num_operands - 3);
  match_desc d = {"has", "result", "the iter_args types"};
  KILN_RETURN_IF_ERROR(match_lists(ctx, op, tl_results(op), iter, MATCH_EXACT, d));
  const kiln_block *body = kiln_op_block(op, 0);
  if (body && body->num_args != op->num_operands - 2)
    return kiln_verify_error(ctx, op, "body region takes %" PRId32 " arguments, expected %" PRId32
                                      " (the induction variable and the iter_args)",
                             body->num_args, op->num_operands - 2);
  return NULL;
}

static kiln_status verify_scf_yield(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_op *parent = parent_op(op);
  if (op->next) return kiln_verify_error(ctx, op, "must be the last operation of its block");
  if (!parent || parent->kind != KILN_OP_SCF_FOR) return NULL;
  match_desc d = {"yields", "value", "the results of scf.for"};
  return match_lists(ctx, op, tl_operands(op), tl_results(parent), MATCH_EXACT, d);
}

/* tensor.insert %scalar into %dest[%i...]: the result has the destination's type. */
static kiln_status verify_tensor_insert(const kiln_verify_ctx *ctx, const kiln_op *op) {
  if (op->num_operands < 2) return kiln_verify_error(ctx, op, "expects a scalar and a destination");
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, -1, 1));
  const kiln_type *dest = op->operands[1]->type;
  if (!kiln_type_equal(dest, op->results[0].type))
    return kiln_verify_error(ctx, op, "result type must equal the destination's type");
  if (kiln_type_is_tensor(dest) && op->num_operands - 2 != dest->tensor.rank)
    return kiln_verify_error(ctx, op, "expects %" PRId32 " indices, got %" PRId32,
                             dest->tensor.rank, op->num_operands - 2);
  return NULL;
}

static kiln_status verify_arith_constant(const kiln_verify_ctx *ctx, const kiln_op *op) {
  KILN_RETURN_IF_ERROR(require_counts(ctx, op, 0, 1));
  return kiln_op_attr(op, "value") ? NULL
                                   : kiln_verify_error(ctx, op, "requires a 'value' attribute");
}

/* ---------------------------------------------------------------- lookup */

static const kiln_verify_fn rules[KILN_OP_COUNT] = {
    [KILN_OP_FUNC] = verify_func,
    [KILN_OP_CALL] = verify_call,
    [KILN_OP_FUNC_RETURN] = verify_func_return,
    [KILN_OP_RETURN] = verify_return,
    [KILN_OP_WHILE] = verify_while,
    [KILN_OP_IF] = verify_if,
    [KILN_OP_CASE] = verify_case,
    [KILN_OP_COMPOSITE] = verify_composite,
    [KILN_OP_CUSTOM_CALL] = verify_custom_call,
    [KILN_OP_OPTIMIZATION_BARRIER] = verify_optimization_barrier,
    [KILN_OP_AFTER_ALL] = verify_after_all,
    [KILN_OP_CREATE_TOKEN] = verify_create_token,
    [KILN_OP_ALL_GATHER] = verify_all_gather,
    [KILN_OP_ALL_REDUCE] = verify_all_reduce,
    [KILN_OP_ALL_TO_ALL] = verify_all_to_all,
    [KILN_OP_REDUCE_SCATTER] = verify_reduce_scatter,
    [KILN_OP_COLLECTIVE_PERMUTE] = verify_collective_permute,
    [KILN_OP_COLLECTIVE_BROADCAST] = verify_collective_broadcast,
    [KILN_OP_COLLECTIVE_REDUCE] = verify_collective_reduce,
    [KILN_OP_CROSS_REPLICA_SUM] = verify_cross_replica_sum,
    [KILN_OP_SEND] = verify_send,
    [KILN_OP_RECV] = verify_recv,
    [KILN_OP_INFEED] = verify_infeed,
    [KILN_OP_OUTFEED] = verify_outfeed,
    [KILN_OP_RNG] = verify_rng,
    [KILN_OP_RNG_BIT_GENERATOR] = verify_rng_bit_generator,
    [KILN_OP_PARTITION_ID] = verify_process_id,
    [KILN_OP_REPLICA_ID] = verify_process_id,
    [KILN_OP_ASYNC_START] = verify_async_start,
    [KILN_OP_ASYNC_DONE] = verify_async_done,
    [KILN_OP_CHECK_EQ] = verify_check_pair,
    [KILN_OP_CHECK_EXPECT_EQ] = verify_check_pair,
    [KILN_OP_CHECK_EXPECT_ALMOST_EQ] = verify_check_pair,
    [KILN_OP_CHECK_EXPECT_CLOSE] = verify_check_pair,
    [KILN_OP_CHECK_EXPECT_EQ_CONST] = verify_check_const,
    [KILN_OP_CHECK_EXPECT_ALMOST_EQ_CONST] = verify_check_const,
    [KILN_OP_CHECK_EXPECT_SERIALIZED_EQ] = verify_serialized_eq,
    [KILN_OP_INTERPRETER_PROBE] = verify_probe,
    [KILN_OP_INTERPRETER_PRINT] = verify_print,
    [KILN_OP_INTERPRETER_RUN_PARALLEL] = verify_run_parallel,
    [KILN_OP_SCF_FOR] = verify_scf_for,
    [KILN_OP_SCF_YIELD] = verify_scf_yield,
    [KILN_OP_TENSOR_INSERT] = verify_tensor_insert,
    [KILN_OP_ARITH_CONSTANT] = verify_arith_constant,
};

kiln_verify_fn kiln_verify_misc_lookup(kiln_op_kind kind) {
  return (unsigned)kind < KILN_OP_COUNT ? rules[kind] : NULL;
}
