/* The partitioner (spmd.h): a global program with sdy annotations -> the per-device
 * program every partition runs. Values and blocks: blocks.c; per-op rules: rules.c. */
#include <stdlib.h>
#include <string.h>

#include "ir/verify.h"
#include "passes/inline.h"
#include "spmd/part.h"

/* ------------------------------------------------------------------ copying ops */

static void rewrite_op(part *p, const kiln_op *op);

static kiln_value *mapped(part *p, const kiln_op *at, const kiln_value *v) {
  kiln_value *r = p->map[v->id];
  if (!r) kiln_part_op_fail(p, at, "internal: operand %d has no value", (int)v->id);
  return r;
}

/* Values defined outside op that its regions read and that exist only as blocks: made
 * whole before op (the gathers must come first). */
static void whole_captures(part *p, const kiln_op *op, const kiln_op *at) {
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *in = b->first; in; in = in->next) {
        for (int32_t i = 0; i < in->num_operands; i++)
          if (p->st[in->operands[i]->id].local) kiln_part_whole(p, at, in->operands[i]->id);
        whole_captures(p, in, at);
      }
}

/* Copies op to the end of p->out on whole operands, its regions rewritten. */
static void clone_op(part *p, const kiln_op *op) {
  for (int32_t i = 0; i < op->num_operands && !p->err; i++) kiln_part_whole(p, op, op->operands[i]->id);
  whole_captures(p, op, op);
  if (p->err) return;
  kiln_op *n = kiln_op_new(p->m, op->kind, op->num_operands, op->num_results, 0, op->num_regions);
  if (!n) {
    kiln_part_oom(p);
    return;
  }
  n->loc = op->loc;
  n->num_attrs = op->num_attrs;
  n->attrs = op->attrs;
  for (int32_t i = 0; i < op->num_operands && !p->err; i++) n->operands[i] = mapped(p, op, op->operands[i]);
  for (int32_t i = 0; i < op->num_results; i++) {
    n->results[i].type = op->results[i].type;
    n->results[i].def = n;
    n->results[i].index = i;
    p->map[op->results[i].id] = &n->results[i];
  }
  kiln_block_append(p->out, n);
  for (int32_t r = 0; r < op->num_regions && !p->err; r++)
    for (const kiln_block *b = op->regions[r].first; b && !p->err; b = b->next) kiln_part_clone_block(p, b, &n->regions[r]);
}

/* A region's block, rewritten into a new block of dst: the ids partition_id and zero
 * made outside are not visible from it, so it makes its own. */
void kiln_part_clone_block(part *p, const kiln_block *src, kiln_region *dst) {
  kiln_block *b = kiln_block_new(p->m, src->num_args);
  if (!b) {
    kiln_part_oom(p);
    return;
  }
  for (int32_t i = 0; i < src->num_args; i++) {
    b->args[i].type = src->args[i].type;
    b->args[i].block = b;
    b->args[i].index = i;
    p->map[src->args[i].id] = &b->args[i];
  }
  kiln_region_append(dst, b);
  kiln_block *out = p->out;
  kiln_value *pid = p->pid, *zero = p->zero;
  p->out = b;
  p->pid = p->zero = NULL;
  for (const kiln_op *op = src->first; op && !p->err; op = op->next) rewrite_op(p, op);
  p->out = out;
  p->pid = pid;
  p->zero = zero;
}

/* ------------------------------------------------------------------ the entry's ops */

/* s with only the factors of manual axes. */
static const kiln_sharding *manual_part(part *p, const kiln_sharding *s, const bool *manual) {
  kiln_sharding *r = kiln_arena_alloc(p->arena, sizeof *r);
  kiln_dim_sharding *dims = kiln_arena_alloc_array(p->arena, (size_t)s->rank + 1, sizeof *dims);
  if (!r || !dims) return kiln_part_oom(p), NULL;
  *r = *s;
  r->dims = dims;
  for (int32_t i = 0; i < s->rank; i++) {
    dims[i] = s->dims[i];
    if (!(dims[i].axes = kiln_arena_alloc_array(p->arena, (size_t)s->dims[i].count + 1, sizeof *dims[i].axes)))
      return kiln_part_oom(p), NULL;
    dims[i].count = 0;
    for (int32_t k = 0; k < s->dims[i].count; k++)
      if (manual[s->dims[i].axes[k].axis]) dims[i].axes[dims[i].count++] = s->dims[i].axes[k];
  }
  if (s->num_unreduced && !(r->unreduced = kiln_arena_alloc_array(p->arena, (size_t)s->num_unreduced, sizeof *r->unreduced)))
    return kiln_part_oom(p), NULL;
  r->num_unreduced = 0;
  for (int32_t k = 0; k < s->num_unreduced; k++)
    if (manual[s->unreduced[k].axis]) r->unreduced[r->num_unreduced++] = s->unreduced[k];
  return r;
}

static int32_t rank_of(const kiln_type *t) { return kiln_type_is_tensor(t) ? t->tensor.rank : 0; }

/* Reads n shardings of a per-value attribute for values of the given types. */
static const kiln_sharding *read_per_value(part *p, const kiln_op *op, const char *name, kiln_value *const *vals,
                                           const kiln_value *vals_inline, int32_t n) {
  const kiln_attr *a = kiln_op_attr(op, name);
  kiln_sharding *out = kiln_arena_alloc_array(p->arena, (size_t)n + 1, sizeof *out);
  int32_t *ranks = kiln_arena_alloc_array(p->arena, (size_t)n + 1, sizeof *ranks);
  if (!out || !ranks) return kiln_part_oom(p), NULL;
  if (!a || a->kind != KILN_ATTR_OPAQUE) return kiln_part_op_fail(p, op, "needs its %s", name), NULL;
  for (int32_t i = 0; i < n; i++) ranks[i] = rank_of(vals ? vals[i]->type : vals_inline[i].type);
  kiln_status st = kiln_sharding_list_parse(p->arena, a->opaque, &p->meshes, ranks, n, out);
  if (st) {
    if (!p->err) p->err = kiln_spmd_error(p->m, op, "%s", kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  return out;
}

/* A manual computation's parts: its body and terminator, its shardings (per value, only
 * their manual axes' factors) and its manual axes. */
typedef struct manual_info {
  const kiln_block *body;
  const kiln_op *ret;
  const kiln_sharding **in, **out;
} manual_info;

static bool read_manual(part *p, const kiln_op *op, manual_info *mi) {
  mi->body = kiln_op_block(op, 0);
  mi->ret = mi->body ? kiln_block_terminator(mi->body) : NULL;
  if (!mi->body || mi->body->num_args != op->num_operands || !mi->ret || mi->ret->kind != KILN_OP_SDY_RETURN ||
      mi->ret->num_operands != op->num_results)
    return kiln_part_op_fail(p, op, "needs a body of %d arguments returning %d values with sdy.return", (int)op->num_operands,
                   (int)op->num_results);
  const kiln_sharding *in = read_per_value(p, op, "in_shardings", op->operands, NULL, op->num_operands);
  const kiln_sharding *out = in ? read_per_value(p, op, "out_shardings", NULL, op->results, op->num_results) : NULL;
  if (!out) return false;
  const kiln_mesh *mesh = op->num_operands ? in[0].mesh : op->num_results ? out[0].mesh : NULL;
  bool manual[KILN_SPMD_MAX_AXES] = {false};
  const kiln_attr *axes = kiln_op_attr(op, "manual_axes");
  if (mesh && axes && axes->kind == KILN_ATTR_OPAQUE) {
    kiln_status st = kiln_manual_axes_parse(axes->opaque, mesh, manual);
    if (st) {
      if (!p->err) p->err = kiln_spmd_error(p->m, op, "%s", kiln_status_message(st));
      kiln_status_free(st);
      return false;
    }
  }
  int32_t n = op->num_operands + op->num_results;
  mi->in = kiln_arena_alloc_array(p->arena, (size_t)n + 1, sizeof *mi->in);
  if (!mi->in) return kiln_part_oom(p);
  mi->out = mi->in + op->num_operands;
  for (int32_t i = 0; i < n; i++) {
    const kiln_sharding *s = i < op->num_operands ? &in[i] : &out[i - op->num_operands];
    if (s->mesh != mesh) return kiln_part_op_fail(p, op, "shardings over different meshes (value #%d)", (int)i);
    if (s->mesh->num_devices != p->n)
      return kiln_part_op_fail(p, op, "a mesh of %lld devices in a program of %d partitions", (long long)s->mesh->num_devices,
                     (int)p->n);
    if (!(mi->in[i] = manual_part(p, s, manual))) return false;
  }
  return true;
}

static void manual_computation(part *p, const kiln_op *op) {
  manual_info mi;
  if (!read_manual(p, op, &mi)) return;
  for (int32_t i = 0; i < op->num_operands && !p->err; i++) {
    kiln_value *v = kiln_part_blocks(p, op, op->operands[i]->id, mi.in[i]);
    if (v && !kiln_type_equal(v->type, mi.body->args[i].type)) {
      kiln_part_op_fail(p, op, "operand #%d's block under its in_sharding does not have the type of body argument #%d", (int)i,
              (int)i);
      return;
    }
    p->map[mi.body->args[i].id] = v;
  }
  for (const kiln_op *in_op = mi.body->first; in_op && in_op != mi.ret && !p->err; in_op = in_op->next)
    rewrite_op(p, in_op);
  for (int32_t j = 0; j < op->num_results && !p->err; j++) {
    /* whole within the body (a nested manual computation's result is its blocks) */
    kiln_value *v = kiln_part_whole(p, mi.ret, mi.ret->operands[j]->id);
    if (!v) v = mapped(p, mi.ret, mi.ret->operands[j]);
    const kiln_type *lt = v ? kiln_part_local_type(p, op, op->results[j].type, mi.out[j]) : NULL;
    if (lt && !kiln_type_equal(lt, v->type)) {
      kiln_part_op_fail(p, op, "result #%d: the body returns a block of another type than out_sharding #%d gives", (int)j, (int)j);
      return;
    }
    p->st[op->results[j].id] = (vstate){v, mi.out[j]};
    if (kiln_part_trivial(mi.out[j])) p->map[op->results[j].id] = v;
  }
}

/* The sharding to give an entry argument the program leaves open: the blocks every use
 * takes when all its uses are manual computations that agree (shard_map's operands: the
 * body then reads the argument as it arrives); else none (replicated). */
static const kiln_sharding *choose_arg(part *p, const kiln_block *body, const kiln_value *arg) {
  const kiln_sharding *chosen = NULL;
  for (const kiln_op *op = body->first; op; op = op->next)
    for (int32_t k = 0; k < op->num_operands; k++) {
      if (op->operands[k] != arg) continue;
      manual_info mi;
      if (op->kind != KILN_OP_SDY_MANUAL_COMPUTATION || !read_manual(p, op, &mi)) return NULL;
      if (chosen && !kiln_part_same_blocks(chosen, mi.in[k])) return NULL;
      chosen = mi.in[k];
    }
  return kiln_part_trivial(chosen) ? NULL : chosen;
}

/* The sdy.sharding an entry argument or result is given (NULL: none; *open, when asked,
 * says so). */
static const kiln_sharding *sharding_attr(part *p, const kiln_op *func, const char *list, int32_t i,
                                          const kiln_type *t, bool *open) {
  const kiln_attr *all = kiln_op_attr(func, list);
  const kiln_attr *d = all && all->kind == KILN_ATTR_ARRAY && i < all->array.count ? all->array.items[i] : NULL;
  const kiln_attr *a = d && d->kind == KILN_ATTR_DICT ? kiln_attr_get(d, "sdy.sharding") : NULL;
  const kiln_attr *g = d && d->kind == KILN_ATTR_DICT && !a ? kiln_attr_get(d, "mhlo.sharding") : NULL;
  if (open) *open = !a && !g;
  if (!a && !g) return NULL;
  kiln_sharding *s = kiln_arena_alloc(p->arena, sizeof *s);
  if (!s) return kiln_part_oom(p), NULL;
  kiln_status st = NULL;
  if (g) {
    const kiln_sharding *read = NULL;
    bool manual = false;
    st = g->kind == KILN_ATTR_STRING ? kiln_gspmd_parse(p->arena, g->str.data, rank_of(t), &p->devices_mesh, &read, &manual)
                                     : KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "mhlo.sharding is not a string");
    if (!st && manual) st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "a manual sharding here is not supported");
    if (!st && !read) return NULL; /* replicated */
    if (!st) *s = *read;
  } else {
    st = a->kind == KILN_ATTR_OPAQUE ? kiln_sharding_parse(p->arena, a->opaque, &p->meshes, rank_of(t), s)
                                     : KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "sdy.sharding is not an sdy attribute");
  }
  if (st) {
    if (!p->err)
      p->err = kiln_spmd_error(p->m, func, "%s #%d: %s", list[0] == 'a' ? "argument" : "result", (int)i,
                               kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  if (s->mesh->num_devices != p->n && !kiln_part_trivial(s)) {
    kiln_part_op_fail(p, func, "a sharding over a mesh of %lld devices in a program of %d partitions",
            (long long)s->mesh->num_devices, (int)p->n);
    return NULL;
  }
  return s;
}

/* A constraint's sharding, when it is one the partitioner can give a result (over the
 * program's devices, nothing unreduced); else NULL. */
static const kiln_sharding *constraint(part *p, const kiln_op *op) {
  const kiln_attr *a = kiln_op_attr(op, "sharding");
  kiln_sharding *s = kiln_arena_alloc(p->arena, sizeof *s);
  if (!s) return kiln_part_oom(p), NULL;
  if (!a || a->kind != KILN_ATTR_OPAQUE) return NULL;
  kiln_status st = kiln_sharding_parse(p->arena, a->opaque, &p->meshes, rank_of(op->results[0].type), s);
  if (st) { /* read to choose a result's blocks only: a sharding Kiln cannot read is not chosen */
    kiln_status_free(st);
    return NULL;
  }
  return s->mesh->num_devices == p->n && !s->num_unreduced && !kiln_part_trivial(s) ? s : NULL;
}

/* The sharding of GSPMD custom call op (its mhlo.sharding; NULL: replicated); *manual when
 * it says manual. A sharding Kiln cannot read, or over other devices, is an error at op. */
static const kiln_sharding *gspmd_of(part *p, const kiln_op *op, const kiln_type *t, bool *manual) {
  const kiln_attr *a = kiln_op_attr(op, "mhlo.sharding");
  const kiln_sharding *s = NULL;
  *manual = false;
  kiln_status st = a && a->kind == KILN_ATTR_STRING ? kiln_gspmd_parse(p->arena, a->str.data, rank_of(t), &p->devices_mesh, &s, manual)
                                                     : KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "needs an mhlo.sharding string");
  if (st) {
    kiln_part_op_fail(p, op, "%s", kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  if (s && s->mesh->num_devices != p->n) {
    kiln_part_op_fail(p, op, "a sharding over %lld devices in a program of %d partitions",
                      (long long)s->mesh->num_devices, (int)p->n);
    return NULL;
  }
  return s;
}

/* JAX's GSPMD mode: custom_call Sharding is a constraint (a manual one passes its value
 * on); SPMDFullToShardShape (of a Sharding's result) takes each device's blocks under that
 * sharding, and the per-device values that follow are computed as they are written (their
 * types are the blocks'); SPMDShardToFullShape makes a device's value its blocks of the
 * global one. False: op is no GSPMD call. */
static bool gspmd_call(part *p, const kiln_op *op) {
  bool sharding = kiln_op_calls_target(op, "Sharding"), to_shard = kiln_op_calls_target(op, "SPMDFullToShardShape");
  bool to_full = kiln_op_calls_target(op, "SPMDShardToFullShape");
  if ((!sharding && !to_shard && !to_full) || op->num_operands != 1 || op->num_results != 1) return false;
  int32_t in = op->operands[0]->id, out = op->results[0].id;
  bool manual = false;
  const kiln_sharding *s = NULL;
  if (sharding) {
    s = gspmd_of(p, op, op->results[0].type, &manual);
    p->st[out] = p->st[in];
    p->map[out] = p->map[in];
    p->hint[out] = !kiln_part_trivial(s) ? s : NULL;
    return true;
  }
  if (to_shard) { /* the blocks of the Sharding it reads */
    const kiln_op *d = op->operands[0]->def;
    if (d && kiln_op_calls_target(d, "Sharding")) s = gspmd_of(p, d, d->results[0].type, &manual);
    kiln_value *v = p->err ? NULL : s ? kiln_part_blocks(p, op, in, s) : kiln_part_whole(p, op, in);
    if (v && v->type != op->results[0].type && !kiln_type_equal(v->type, op->results[0].type))
      kiln_part_op_fail(p, op, "the blocks of its operand are not of its result's type");
    p->map[out] = v;
    return true;
  }
  s = gspmd_of(p, op, op->results[0].type, &manual);
  kiln_value *v = p->err ? NULL : kiln_part_whole(p, op, in); /* this device's value: its blocks */
  const kiln_type *lt = v ? kiln_part_local_type(p, op, op->results[0].type, s) : NULL;
  if (v && manual) kiln_part_op_fail(p, op, "a manual result sharding is not supported");
  else if (lt && !kiln_type_equal(lt, v->type)) kiln_part_op_fail(p, op, "its operand is not a block of its result");
  p->st[out] = (vstate){v, s};
  p->map[out] = kiln_part_trivial(s) ? v : NULL;
  return true;
}

/* An op of any function or region, into p->out: a constraint keeps its operand (every
 * choice of blocks is correct), a manual computation becomes its body, every other op is
 * copied on whole values. */
static void rewrite_op(part *p, const kiln_op *op) {
  if (op->kind == KILN_OP_CUSTOM_CALL && gspmd_call(p, op)) return;
  switch (op->kind) {
    case KILN_OP_SDY_SHARDING_CONSTRAINT:
      p->st[op->results[0].id] = p->st[op->operands[0]->id];
      p->map[op->results[0].id] = p->map[op->operands[0]->id];
      p->hint[op->results[0].id] = constraint(p, op);
      return;
    case KILN_OP_SDY_MANUAL_COMPUTATION:
      manual_computation(p, op);
      return;
    default:
      if (!kiln_part_rule(p, op)) clone_op(p, op);
  }
}

/* The entry's return: each result as the blocks its sharding gives (chosen when open). */
static void entry_return(part *p, const kiln_op *op, kiln_spmd_plan *plan) {
  kiln_op *r = kiln_op_new(p->m, KILN_OP_FUNC_RETURN, op->num_operands, 0, 0, 0);
  if (!r) {
    kiln_part_oom(p);
    return;
  }
  r->loc = op->loc;
  for (int32_t j = 0; j < op->num_operands && j < plan->num_results && !p->err; j++) {
    int32_t id = op->operands[j]->id;
    /* left open: the blocks it has, or is constrained to; never partial sums, which the
     * framework would have to ask for */
    const kiln_sharding *has = p->st[id].local ? p->st[id].sh : NULL;
    if (!plan->results[j] && p->open_results[j])
      plan->results[j] = !kiln_part_trivial(has) && !has->num_unreduced ? has : p->hint[id];
    p->out_types[j] = kiln_part_local_type(p, op, op->operands[j]->type, plan->results[j]);
    r->operands[j] = plan->results[j] ? kiln_part_blocks(p, op, id, plan->results[j]) : kiln_part_whole(p, op, id);
  }
  kiln_block_append(p->out, r);
}

/* Ops the partitioner may drop when nothing reads them: no effects beyond their results
 * (every device runs the same program, so an all_gather no device reads goes everywhere). */
static bool droppable(const kiln_op *op) {
  switch (op->kind) {
    case KILN_OP_CONSTANT:
    case KILN_OP_BROADCAST_IN_DIM:
    case KILN_OP_RESHAPE:
    case KILN_OP_TRANSPOSE:
    case KILN_OP_SLICE:
    case KILN_OP_DYNAMIC_SLICE:
    case KILN_OP_IOTA:
    case KILN_OP_PARTITION_ID:
    case KILN_OP_ALL_GATHER: return true;
    default: return kiln_verify_elementwise_lookup(op->kind) && !op->num_regions;
  }
}

/* Counts, in uses[], the reads of block's own ops' results by op and the ops of its regions
 * (results numbered by their op's position: kiln_value.id, renumbered after partitioning). */
static void count_uses(const kiln_block *block, const kiln_op *op, int32_t *uses) {
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_op *d = op->operands[i]->def;
    if (d && d->parent == block) uses[op->operands[i]->id]++;
  }
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *in = b->first; in; in = in->next) count_uses(block, in, uses);
}

/* Drops the droppable ops of block nothing reads (the whole values a rewrite left behind,
 * such as a broadcast whose blocks came from its operand), last first. */
static void drop_dead(part *p, kiln_block *block) {
  int32_t n = 0;
  for (kiln_op *op = block->first; op; op = op->next)
    for (int32_t i = 0; i < op->num_results; i++) op->results[i].id = n++;
  int32_t *uses = calloc((size_t)n + 1, sizeof *uses);
  if (!uses) {
    kiln_part_oom(p);
    return;
  }
  for (const kiln_op *op = block->first; op; op = op->next) count_uses(block, op, uses);
  for (kiln_op *op = block->last, *prev; op; op = prev) {
    prev = op->prev;
    bool read = op->num_results == 0;
    for (int32_t i = 0; i < op->num_results; i++) read |= uses[op->results[i].id] > 0;
    if (read || !droppable(op)) continue;
    for (int32_t i = 0; i < op->num_operands; i++) {
      const kiln_op *d = op->operands[i]->def;
      if (d && d->parent == block) uses[op->operands[i]->id]--;
    }
    kiln_block_remove(block, op);
  }
  free(uses);
}

/* Per-function state: value ids are numbered per function. */
static bool begin_func(part *p, kiln_op *f) {
  free(p->st);
  free(p->map);
  free(p->hint);
  int32_t n = kiln_func_number_values(f);
  p->st = calloc((size_t)n + 1, sizeof *p->st);
  p->map = calloc((size_t)n + 1, sizeof *p->map);
  p->hint = calloc((size_t)n + 1, sizeof *p->hint);
  p->pid = p->zero = NULL;
  return p->st && p->map && p->hint ? true : kiln_part_oom(p);
}

/* Replaces f's body with out and its type with (ins) -> (outs). f's attributes are shared
 * with the parsed module: it gets a copy. */
static void set_body(part *p, kiln_op *f, kiln_block *out, int32_t num_in, const kiln_type **ins, int32_t num_out,
                     const kiln_type **outs) {
  kiln_type *ft = kiln_type_new(p->m, KILN_TYPE_FUNCTION);
  kiln_attr *fta = kiln_attr_new(p->m, KILN_ATTR_TYPE);
  kiln_named_attr *attrs = kiln_arena_alloc_array(p->m->arena, (size_t)f->num_attrs + 1, sizeof *attrs);
  if (!ft || !fta || !attrs) {
    kiln_part_oom(p);
    return;
  }
  ft->func.num_inputs = num_in;
  ft->func.inputs = ins;
  ft->func.num_results = num_out;
  ft->func.results = outs;
  fta->type = ft;
  memcpy(attrs, f->attrs, sizeof *attrs * (size_t)f->num_attrs);
  for (int32_t i = 0; i < f->num_attrs; i++)
    if (!strcmp(attrs[i].name, "function_type")) attrs[i].value = fta;
  f->attrs = attrs;
  f->regions[0].first = f->regions[0].last = NULL;
  kiln_region_append(&f->regions[0], out);
}

static bool has_sdy(const kiln_op *op) {
  if (op->kind >= KILN_OP_SDY_SHARDING_CONSTRAINT && op->kind <= KILN_OP_SDY_RETURN) return true;
  if (kiln_op_calls_target(op, "Sharding") || kiln_op_calls_target(op, "SPMDFullToShardShape") ||
      kiln_op_calls_target(op, "SPMDShardToFullShape"))
    return true; /* GSPMD's */
  for (int32_t r = 0; r < op->num_regions; r++)
    for (const kiln_block *b = op->regions[r].first; b; b = b->next)
      for (const kiln_op *in = b->first; in; in = in->next)
        if (has_sdy(in)) return true;
  return false;
}

/* A function the entry calls that holds sdy ops: the same rewrite on whole arguments and
 * results (the function's type does not change). */
static void partition_callee(part *p, kiln_op *f) {
  kiln_block *body = kiln_op_block(f, 0);
  const kiln_type *ft = kiln_func_type(f);
  if (!body || !ft || ft->kind != KILN_TYPE_FUNCTION || !begin_func(p, f)) return;
  if (!(p->top = p->out = kiln_block_new(p->m, body->num_args))) {
    kiln_part_oom(p);
    return;
  }
  for (int32_t i = 0; i < body->num_args; i++) {
    p->out->args[i] = (kiln_value){.type = body->args[i].type, .block = p->out, .index = i};
    p->map[body->args[i].id] = &p->out->args[i];
  }
  for (const kiln_op *op = body->first; op && !p->err; op = op->next) rewrite_op(p, op);
  if (!p->err)
    set_body(p, f, p->out, ft->func.num_inputs, (const kiln_type **)ft->func.inputs, ft->func.num_results,
             (const kiln_type **)ft->func.results);
}

/* The entry: arguments and results as the devices' blocks. */
static void partition_entry(part *p, kiln_op *entry, kiln_spmd_plan *plan) {
  kiln_block *body = kiln_op_block(entry, 0);
  const kiln_type *ft = kiln_func_type(entry);
  if (!body || !ft || ft->kind != KILN_TYPE_FUNCTION) {
    kiln_part_op_fail(p, entry, "needs a body and a function type");
    return;
  }
  if (!begin_func(p, entry)) return;
  plan->num_args = body->num_args;
  plan->num_results = ft->func.num_results;
  plan->args = kiln_arena_alloc_array(p->arena, (size_t)plan->num_args + 1, sizeof *plan->args);
  plan->results = kiln_arena_alloc_array(p->arena, (size_t)plan->num_results + 1, sizeof *plan->results);
  p->top = p->out = kiln_block_new(p->m, body->num_args);
  const kiln_type **in_types = kiln_arena_alloc_array(p->m->arena, (size_t)body->num_args + 1, sizeof *in_types);
  p->out_types = kiln_arena_alloc_array(p->m->arena, (size_t)plan->num_results + 1, sizeof *p->out_types);
  p->open_results = kiln_arena_alloc_array(p->arena, (size_t)plan->num_results + 1, sizeof *p->open_results);
  if (!plan->args || !plan->results || !p->out || !in_types || !p->out_types || !p->open_results) {
    kiln_part_oom(p);
    return;
  }
  for (int32_t i = 0; i < body->num_args && !p->err; i++) {
    const kiln_sharding *s = sharding_attr(p, entry, "arg_attrs", i, body->args[i].type, NULL);
    if (!s && !p->err) s = choose_arg(p, body, &body->args[i]);
    const kiln_type *lt = p->err ? NULL : kiln_part_local_type(p, entry, body->args[i].type, s);
    if (!lt) return;
    p->out->args[i] = (kiln_value){.type = lt, .block = p->out, .index = i};
    in_types[i] = lt;
    plan->args[i] = kiln_part_trivial(s) ? NULL : s;
    p->st[body->args[i].id] = (vstate){&p->out->args[i], s};
    if (kiln_part_trivial(s)) p->map[body->args[i].id] = &p->out->args[i];
  }
  for (int32_t j = 0; j < plan->num_results && !p->err; j++) { /* their local types: at the return */
    const kiln_sharding *s = sharding_attr(p, entry, "res_attrs", j, ft->func.results[j], &p->open_results[j]);
    plan->results[j] = kiln_part_trivial(s) ? NULL : s;
  }
  for (const kiln_op *op = body->first; op && !p->err; op = op->next) {
    if (op->kind == KILN_OP_FUNC_RETURN && !op->next) entry_return(p, op, plan);
    else rewrite_op(p, op);
  }
  if (!p->err) drop_dead(p, p->out);
  if (!p->err) set_body(p, entry, p->out, body->num_args, in_types, plan->num_results, p->out_types);
}

/* The entry's calls inlined when one calls a function holding sdy ops: the shardings there
 * then apply to the entry's own values, whose blocks the results keep (a call's results
 * would be whole). The entry keeps its attributes; its body is the inlined copy's. */
static kiln_status inline_sdy_calls(kiln_module *m, kiln_op *entry) {
  const kiln_block *body = kiln_op_block(entry, 0);
  bool any = false;
  for (const kiln_op *op = body ? body->first : NULL; op && !any; op = op->next) {
    const kiln_attr *a = op->kind == KILN_OP_CALL ? kiln_op_attr(op, "callee") : NULL;
    const kiln_op *f = a && a->kind == KILN_ATTR_SYMBOL ? kiln_module_lookup_func(m, a->symbol) : NULL;
    any = f && f != entry && has_sdy(f);
  }
  if (!any) return NULL;
  kiln_module_number_values(m);
  kiln_op *copy = NULL;
  int32_t inlined = 0;
  KILN_RETURN_IF_ERROR(kiln_inline_calls(m, entry, m, &copy, &inlined));
  kiln_block *b = kiln_op_block(copy, 0);
  kiln_block_remove(kiln_op_block(m->op, 0), copy);
  entry->regions[0].first = entry->regions[0].last = NULL;
  kiln_region_append(&entry->regions[0], b);
  return NULL;
}

kiln_status kiln_spmd_partition(kiln_module *m, kiln_op *entry, int32_t num_partitions, kiln_arena *arena,
                                kiln_spmd_plan *plan) {
  part p = {.m = m, .arena = arena, .n = num_partitions};
  memset(plan, 0, sizeof *plan);
  plan->num_partitions = num_partitions;
  if (num_partitions < 1 || num_partitions > KILN_SPMD_MAX_DEVICES)
    return kiln_spmd_error(m, entry, "a program of %d partitions (1 to %d are supported)", (int)num_partitions,
                           KILN_SPMD_MAX_DEVICES);
  KILN_RETURN_IF_ERROR(kiln_mesh_table_read(arena, m, &p.meshes));
  KILN_RETURN_IF_ERROR(inline_sdy_calls(m, entry));
  partition_entry(&p, entry, plan);
  const kiln_block *top = kiln_op_block(m->op, 0);
  for (kiln_op *f = top ? top->first : NULL; f && !p.err; f = f->next)
    if (f->kind == KILN_OP_FUNC && f != entry && kiln_op_block(f, 0) && has_sdy(f)) partition_callee(&p, f);
  free(p.st);
  free(p.map);
  free(p.hint);
  if (!p.err) kiln_module_number_values(m);
  return p.err;
}

bool kiln_spmd_module_has_sdy(const kiln_module *m) {
  const kiln_block *top = kiln_op_block(m->op, 0);
  for (const kiln_op *f = top ? top->first : NULL; f; f = f->next)
    if (f->kind == KILN_OP_FUNC && has_sdy(f)) return true;
  return false;
}
