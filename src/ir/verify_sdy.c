/* Verifier rules of the Shardy (sdy) ops: the structure the front ends and the partitioner
 * (src/spmd) rely on. The sdy attributes are read only as far as their shape: how many
 * shardings, how many dimension shardings each, which mesh each names; the partitioner
 * checks their axes against the meshes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ir/sdy.h"
#include "ir/verify.h"

#define TYPE_BUF 160

static const kiln_op *parent_op(const kiln_op *op) {
  return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}

static char closer_of(char open) { return open == '<' ? '>' : open == '[' ? ']' : '}'; }

/* The pretty text of attribute `name`, which must be an sdy attribute of the given form. */
static kiln_status require_sdy_attr(const kiln_verify_ctx *ctx, const kiln_op *op, const char *name,
                                    kiln_sdy_form form, const char **text, size_t *len) {
  const kiln_attr *a = kiln_op_attr(op, name);
  if (!a) return kiln_verify_error(ctx, op, "requires an attribute '%s'", name);
  if (kiln_sdy_pretty(a, form, text, len)) return NULL;
  const kiln_sdy_wrap *w = kiln_sdy_wrapper(form);
  return kiln_verify_error(ctx, op, "attribute '%s' must be %s%c...%c%s", name, w->prefix, w->open,
                           closer_of(w->open), w->suffix);
}

/* The sdy.mesh named `name` in the module that holds op, or NULL. */
static const kiln_op *find_mesh(const kiln_op *op, const char *name, size_t len) {
  const kiln_op *m = op;
  while (m && m->kind != KILN_OP_MODULE) m = parent_op(m);
  const kiln_block *b = m ? kiln_op_block(m, 0) : NULL;
  for (const kiln_op *o = b ? b->first : NULL; o; o = o->next) {
    const kiln_attr *n = o->kind == KILN_OP_SDY_MESH ? kiln_op_attr(o, "sym_name") : NULL;
    if (n && n->kind == KILN_ATTR_STRING && n->str.len == len && !memcmp(n->str.data, name, len)) return o;
  }
  return NULL;
}

/* The pretty text of the mesh a sharding names: inline (`mesh<...>`) or an sdy.mesh of the
 * module (`@name`); *mesh stays NULL when that cannot be told (a quoted name). */
static kiln_status sharding_mesh(const kiln_verify_ctx *ctx, const kiln_op *op, const char *s, size_t n,
                                 const char *what, const char **mesh, size_t *mesh_len) {
  const char *ref;
  size_t len;
  *mesh = NULL;
  if (!kiln_sdy_sharding_mesh(s, n, &ref, &len)) return NULL;
  if (len > 5 && !memcmp(ref, "mesh<", 5)) {
    *mesh = ref + 4;
    *mesh_len = len - 4;
    return NULL;
  }
  if (len < 2 || ref[0] != '@' || ref[1] == '"') return NULL;
  const kiln_op *m = find_mesh(op, ref + 1, len - 1);
  if (!m)
    return kiln_verify_error(ctx, op, "%s names mesh %.*s, which no sdy.mesh of the module defines", what,
                             (int)len, ref);
  kiln_sdy_pretty(kiln_op_attr(m, "mesh"), KILN_SDY_MESH, mesh, mesh_len);
  return NULL;
}

/* One sharding's pretty text `<MESH, [dims], ...>` for a value of type t: a mesh the module
 * defines (or an inline one) and one dimension sharding per dimension. `what` names it in
 * messages ("sharding", "in_shardings #1"). */
static kiln_status check_sharding(const kiln_verify_ctx *ctx, const kiln_op *op, const char *s, size_t n,
                                  const kiln_type *t, const char *what) {
  int64_t dims = kiln_sdy_sharding_rank(s, n);
  if (dims < 0) return kiln_verify_error(ctx, op, "%s is not a sharding <@mesh, [{...}, ...]>", what);
  const char *mesh;
  size_t mesh_len = 0;
  KILN_RETURN_IF_ERROR(sharding_mesh(ctx, op, s, n, what, &mesh, &mesh_len));
  if (!kiln_type_is_tensor(t) || dims == t->tensor.rank) return NULL;
  /* a maximal sharding (a mesh without axes: one device) lists no dimension, whatever the rank */
  if (!dims && mesh && kiln_sdy_mesh_axes(mesh, mesh_len) == 0) return NULL;
  char ts[TYPE_BUF];
  kiln_verify_type_str(t, ts, sizeof ts);
  return kiln_verify_error(ctx, op, "%s has %" PRId64 " dimension shardings, expected %" PRId32 " (the rank of %s)",
                           what, dims, t->tensor.rank, ts);
}

static kiln_status verify_mesh(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_op *parent = parent_op(op);
  if (!parent || parent->kind != KILN_OP_MODULE) return kiln_verify_error(ctx, op, "must be directly inside a module");
  const kiln_attr *name = kiln_op_attr(op, "sym_name");
  if (!name || name->kind != KILN_ATTR_STRING)
    return kiln_verify_error(ctx, op, "requires a string attribute 'sym_name'");
  if (op->num_operands || op->num_results || op->num_regions)
    return kiln_verify_error(ctx, op, "takes no operands, results or regions");
  const char *text;
  size_t len;
  KILN_RETURN_IF_ERROR(require_sdy_attr(ctx, op, "mesh", KILN_SDY_MESH, &text, &len));
  if (kiln_sdy_mesh_axes(text, len) < 0)
    return kiln_verify_error(ctx, op, "mesh is not a mesh <[\"x\"=N, ...]>");
  return NULL;
}

static kiln_status verify_constraint(const kiln_verify_ctx *ctx, const kiln_op *op) {
  if (op->num_operands != 1 || op->num_results != 1 || op->num_regions)
    return kiln_verify_error(ctx, op, "expects one operand and one result, got %" PRId32 " and %" PRId32,
                             op->num_operands, op->num_results);
  const kiln_type *t = op->operands[0]->type;
  if (!kiln_type_equal(t, op->results[0].type)) {
    char ts[TYPE_BUF], rs[TYPE_BUF];
    return kiln_verify_error(ctx, op, "result type %s differs from the operand's type %s",
                             kiln_verify_type_str(op->results[0].type, rs, sizeof rs),
                             kiln_verify_type_str(t, ts, sizeof ts));
  }
  const char *text;
  size_t len;
  KILN_RETURN_IF_ERROR(require_sdy_attr(ctx, op, "sharding", KILN_SDY_SHARDING, &text, &len));
  return check_sharding(ctx, op, text, len, t, "sharding");
}

/* ---------------------------------------------------------------- manual_computation */

/* Whether local (a type inside the body) can be a shard of global (outside): the same
 * element type and rank, each static local dimension dividing the global one (the manual
 * axes split it; the partitioner checks by how much). */
static bool is_shard_of(const kiln_type *local, const kiln_type *global) {
  if (!kiln_type_is_tensor(global) || !kiln_type_is_tensor(local)) return kiln_type_equal(global, local);
  if (global->tensor.rank != local->tensor.rank || !kiln_type_equal(global->tensor.element, local->tensor.element))
    return false;
  for (int32_t d = 0; d < global->tensor.rank; d++) {
    int64_t g = global->tensor.dims[d], l = local->tensor.dims[d];
    if (g == KILN_DIM_DYNAMIC || l == KILN_DIM_DYNAMIC) continue;
    if (l > 0 ? g < l || g % l : g) return false;
  }
  return true;
}

static kiln_status check_local_type(const kiln_verify_ctx *ctx, const kiln_op *op, const kiln_type *global,
                                    const kiln_type *local, const char *what) {
  if (is_shard_of(local, global)) return NULL;
  char gs[TYPE_BUF], ls[TYPE_BUF];
  return kiln_verify_error(ctx, op, "%s has local type %s, which is not a shard of the global type %s", what,
                           kiln_verify_type_str(local, ls, sizeof ls), kiln_verify_type_str(global, gs, sizeof gs));
}

static const kiln_type *operand_type(const kiln_op *op, int32_t i) { return op->operands[i]->type; }
static const kiln_type *result_type(const kiln_op *op, int32_t i) { return op->results[i].type; }

/* in_shardings / out_shardings: one sharding per operand / result, each of its rank. */
static kiln_status check_per_value(const kiln_verify_ctx *ctx, const kiln_op *op, const char *attr, int32_t count,
                                   const kiln_type *(*type_at)(const kiln_op *, int32_t), const char *noun) {
  const char *s, *entry;
  size_t n, len, pos = 0;
  KILN_RETURN_IF_ERROR(require_sdy_attr(ctx, op, attr, KILN_SDY_PER_VALUE, &s, &n));
  int64_t entries = kiln_sdy_count_entries(s, n);
  if (entries != count)
    return kiln_verify_error(ctx, op, "%s holds %" PRId64 " shardings, expected %" PRId32 " (one per %s)", attr,
                             entries, count, noun);
  for (int32_t i = 0; kiln_sdy_next_entry(s, n, &pos, &entry, &len); i++) {
    char what[64];
    snprintf(what, sizeof what, "%s #%" PRId32, attr, i);
    KILN_RETURN_IF_ERROR(check_sharding(ctx, op, entry, len, type_at(op, i), what));
  }
  return NULL;
}

/* The body: one block taking the operands' local types, ended by an sdy.return of the
 * results' local types. */
static kiln_status check_body(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_block *b = kiln_op_block(op, 0);
  if (op->num_regions != 1 || !b || b->next) return kiln_verify_error(ctx, op, "requires a body region of one block");
  if (b->num_args != op->num_operands)
    return kiln_verify_error(ctx, op, "body takes %" PRId32 " arguments, expected %" PRId32 " (one per operand)",
                             b->num_args, op->num_operands);
  for (int32_t i = 0; i < b->num_args; i++) {
    char what[48];
    snprintf(what, sizeof what, "operand #%" PRId32, i);
    KILN_RETURN_IF_ERROR(check_local_type(ctx, op, op->operands[i]->type, b->args[i].type, what));
  }
  const kiln_op *ret = kiln_block_terminator(b);
  if (!ret || ret->kind != KILN_OP_SDY_RETURN) return kiln_verify_error(ctx, op, "body must end with 'sdy.return'");
  if (ret->num_operands != op->num_results)
    return kiln_verify_error(ctx, op, "body returns %" PRId32 " values, expected %" PRId32 " (one per result)",
                             ret->num_operands, op->num_results);
  for (int32_t i = 0; i < op->num_results; i++) {
    char what[48];
    snprintf(what, sizeof what, "result #%" PRId32, i);
    KILN_RETURN_IF_ERROR(check_local_type(ctx, op, op->results[i].type, ret->operands[i]->type, what));
  }
  return NULL;
}

static kiln_status verify_manual(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const char *axes;
  size_t len;
  KILN_RETURN_IF_ERROR(check_per_value(ctx, op, "in_shardings", op->num_operands, operand_type, "operand"));
  KILN_RETURN_IF_ERROR(check_per_value(ctx, op, "out_shardings", op->num_results, result_type, "result"));
  KILN_RETURN_IF_ERROR(require_sdy_attr(ctx, op, "manual_axes", KILN_SDY_MANUAL_AXES, &axes, &len));
  return check_body(ctx, op);
}

static kiln_status verify_return(const kiln_verify_ctx *ctx, const kiln_op *op) {
  const kiln_op *parent = parent_op(op);
  if (!parent || parent->kind != KILN_OP_SDY_MANUAL_COMPUTATION)
    return kiln_verify_error(ctx, op, "expects parent op 'sdy.manual_computation'");
  if (op->next) return kiln_verify_error(ctx, op, "must be the last operation of its block");
  return op->num_results ? kiln_verify_error(ctx, op, "must have no results") : NULL;
}

static const kiln_verify_fn rules[KILN_OP_COUNT] = {
    [KILN_OP_SDY_MESH] = verify_mesh,
    [KILN_OP_SDY_SHARDING_CONSTRAINT] = verify_constraint,
    [KILN_OP_SDY_MANUAL_COMPUTATION] = verify_manual,
    [KILN_OP_SDY_RETURN] = verify_return,
};

kiln_verify_fn kiln_verify_sdy_lookup(kiln_op_kind kind) {
  return (unsigned)kind < KILN_OP_COUNT ? rules[kind] : NULL;
}
