/* Donated inputs, temporaries written over and counted copies (see cpu.h): which result of
 * an executable may take which donated input's tensor, and how, decided once when it is
 * compiled (a run then takes a donated input only for the result planned for it: exec.c);
 * which step writes its output over a temporary operand that dies with it. */
#include <stdatomic.h>
#include <stdlib.h>

#include "backends/cpu/cpu.h"

void kiln_cpu_count_copy(kiln_cpu_executable *x, uint64_t bytes) {
  atomic_fetch_add_explicit(&x->copies, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&x->copy_bytes, bytes, memory_order_relaxed);
}

bool kiln_cpu_value_needed(const kiln_cpu_executable *x, int32_t s, int32_t v) {
  for (; s < x->num_steps; s++)
    for (int32_t k = 0; k < x->steps[s].num_values; k++)
      if (kiln_cpu_alias_base(x, x->steps[s].values[k]) == v) return true;
  for (int32_t k = 0; k < x->num_results; k++)
    if (kiln_cpu_alias_base(x, x->result_values[k]) == v) return true;
  return false;
}

static uint64_t bytes_of(const kiln_type *t) {
  return (uint64_t)t->tensor.num_elements * kiln_elem_storage_bytes(kiln_type_elem(t));
}

/* Whether a tensor of type in may hold a result of type out: same element type, same bytes. */
static bool fits(const kiln_type *in, const kiln_type *out) {
  return out && kiln_type_is_tensor(out) && kiln_type_is_static(out) && !kiln_type_is_quant_tensor(out) &&
         kiln_type_elem(in) == kiln_type_elem(out) && bytes_of(in) == bytes_of(out);
}

/* Whether LOOP step p reads value a (through its inputs that are a or views of it) only
 * at the point it writes: an elementwise loop whose every load of a is the output's own
 * element, so writing its output over a's memory never clobbers what a later point reads. */
static bool reads_pointwise(const kiln_cpu_executable *x, const kiln_cpu_step *p, int32_t a) {
  const kiln_cpu_loop *L = p->loop;
  if (!L || L->fold || L->num_out_dims != L->rank || L->rank > KILN_CPU_MAX_RANK) return false;
  size_t out_bytes = kiln_elem_storage_bytes(L->out_elem);
  int64_t stride[KILN_CPU_MAX_RANK], n = 1; /* the output's row-major strides */
  for (int32_t d = L->rank - 1; d >= 0; d--) {
    stride[d] = n;
    n *= L->dims[d];
  }
  kiln_cpu_node **nodes = calloc((size_t)L->num_nodes + 1, sizeof *nodes);
  if (!nodes) return false; /* out of memory: simply no reuse */
  kiln_cpu_loop_nodes(L, nodes);
  bool ok = true;
  for (int32_t i = 0; ok && i < L->num_nodes; i++) {
    const kiln_cpu_node *nd = nodes[i];
    if (!nd || (nd->kind != KILN_CPU_NODE_LOAD && nd->kind != KILN_CPU_NODE_GATHER)) continue;
    int32_t v = p->values[nd->input];
    if (kiln_cpu_alias_base(x, v) != a) continue;
    ok = nd->kind == KILN_CPU_NODE_LOAD && nd->base == 0 && kiln_elem_storage_bytes(kiln_type_elem(x->slots[v].type)) == out_bytes;
    for (int32_t d = 0; ok && d < L->rank; d++) ok = L->dims[d] <= 1 || nd->strides[d] == stride[d];
  }
  free(nodes);
  return ok;
}

/* Whether step p is a scatter or dynamic_update_slice of its first value (a scatter that
 * fills its result with a splat reads no operand: compile.c's scatter_fill_step). */
static bool updates_operand(const kiln_cpu_step *p) {
  return (p->kind == KILN_CPU_STEP_SCATTER && p->num_values == 4) ||
         (p->kind == KILN_CPU_STEP_DYNSLICE && p->op->kind == KILN_OP_DYNAMIC_UPDATE_SLICE);
}

/* Whether step p may write its last value (the result) over a's memory while reading a:
 * a pointwise loop, or a scatter / dynamic_update_slice of operand a (which then updates
 * it in place instead of copying it) whose other operands are not a. */
static bool writes_over(const kiln_cpu_executable *x, const kiln_cpu_step *p, int32_t a) {
  if (p->kind == KILN_CPU_STEP_LOOP) return reads_pointwise(x, p, a);
  if (!updates_operand(p) || kiln_cpu_alias_base(x, p->values[0]) != a) return false;
  for (int32_t k = 1; k + 1 < p->num_values; k++)
    if (kiln_cpu_alias_base(x, p->values[k]) == a) return false;
  return true;
}

/* The row-block run (tiling.c) step s belongs to: its first step. */
static int32_t run_of(const kiln_cpu_executable *x, int32_t s) {
  int32_t first = 0;
  for (int32_t i = 0; i <= s; i += x->steps[i].run_length > 1 ? x->steps[i].run_length : 1) first = i;
  return first;
}

/* Whether LOOP steps s and p of one row-block run go over the same space, so a block of
 * rows covers the same points in both. */
static bool same_space(const kiln_cpu_step *s, const kiln_cpu_step *p) {
  if (s->kind != KILN_CPU_STEP_LOOP || p->kind != KILN_CPU_STEP_LOOP || s->loop->rank != p->loop->rank) return false;
  for (int32_t d = 0; d < s->loop->rank; d++)
    if (s->loop->dims[d] != p->loop->dims[d]) return false;
  return true;
}

/* Whether result value v (written straight into its result's memory) may be written in
 * input value a's memory instead: every step that reads a comes before the step p that
 * first writes v (or is p, writing over a safely); one in p's row-block run (tiling.c),
 * which runs block by block with p, reads a pointwise over p's space. */
static bool in_place(const kiln_cpu_executable *x, int32_t v, int32_t a) {
  int32_t p = 0;
  for (; p < x->num_steps; p++) {
    const kiln_cpu_step *st = &x->steps[p];
    if (st->num_values && st->values[st->num_values - 1] == v) break;
  }
  if (p == x->num_steps) return false;
  int32_t run = run_of(x, p);
  for (int32_t s = 0; s < x->num_steps; s++) {
    bool reads = false;
    for (int32_t k = 0; k < x->steps[s].num_values; k++) reads = reads || kiln_cpu_alias_base(x, x->steps[s].values[k]) == a;
    if (!reads) continue;
    if (s > p || (s == p && !writes_over(x, &x->steps[p], a))) return false;
    if (s < p && run_of(x, s) == run &&
        !(same_space(&x->steps[s], &x->steps[p]) && reads_pointwise(x, &x->steps[s], a)))
      return false;
  }
  return true;
}

/* Whether a result of x is (a view of) value a. */
static bool result_reads(const kiln_cpu_executable *x, int32_t a) {
  for (int32_t k = 0; k < x->num_results; k++)
    if (kiln_cpu_alias_base(x, x->result_values[k]) == a) return true;
  return false;
}

void kiln_cpu_plan_in_place(kiln_cpu_executable *x) {
  for (int32_t s = 0; s < x->num_steps; s++) {
    const kiln_cpu_step *p = &x->steps[s];
    bool update = updates_operand(p);
    if ((p->kind != KILN_CPU_STEP_LOOP && !update) || !p->num_values) continue;
    int32_t v = p->values[p->num_values - 1];
    /* a loop's operands are its inputs (a fold's several outputs rule it out in
     * reads_pointwise); an update's, the tensor it updates */
    int32_t operands = p->kind == KILN_CPU_STEP_LOOP ? p->loop->num_inputs : 1;
    if (x->slots[v].store != KILN_CPU_STORE_TEMP || (p->kind == KILN_CPU_STEP_LOOP && p->loop->slots)) continue;
    for (int32_t k = 0; k < operands && k < p->num_values - 1; k++) {
      int32_t a = kiln_cpu_alias_base(x, p->values[k]);
      if (a == v || x->slots[a].store != KILN_CPU_STORE_TEMP || bytes_of(x->slots[a].type) != bytes_of(x->slots[v].type) ||
          result_reads(x, a) || !in_place(x, v, a))
        continue;
      x->slots[v].store = KILN_CPU_STORE_ALIAS;
      x->slots[v].index = a;
      break;
    }
  }
}

/* How result k may take input value a's tensor. */
static kiln_cpu_reuse reuse_of(const kiln_cpu_executable *x, int32_t k, int32_t a) {
  int32_t v = x->result_values[k], base = kiln_cpu_alias_base(x, v);
  if (base == a) return KILN_CPU_REUSE_MOVE;
  if (result_reads(x, a)) return KILN_CPU_REUSE_NONE; /* another result reads a at the end */
  const kiln_cpu_slot *sl = &x->slots[base];
  if (sl->store == KILN_CPU_STORE_RESULT && sl->index == k && base == v)
    return in_place(x, v, a) ? KILN_CPU_REUSE_IN_PLACE : KILN_CPU_REUSE_NONE;
  if (sl->store == KILN_CPU_STORE_RESULT && sl->index == k)
    return KILN_CPU_REUSE_NONE; /* made in its own buffer through a reshape; no copy to save */
  bool copied = sl->store == KILN_CPU_STORE_TEMP || sl->store == KILN_CPU_STORE_CONST ||
                sl->store == KILN_CPU_STORE_INPUT || sl->store == KILN_CPU_STORE_RESULT;
  return copied ? KILN_CPU_REUSE_COPY : KILN_CPU_REUSE_NONE;
}

/* x->donors: with donation attributes on the entry's arguments, the pairs they give (a
 * donor taking the first fitting result left); without, every input the first fitting
 * result left. A pair whose result cannot take the input (reuse_of NONE) is dropped. */
static kiln_status plan_donors(kiln_cpu_executable *x) {
  const kiln_block *body = kiln_op_block(x->planned, 0);
  bool attrs = false;
  for (int32_t i = 0; i < body->num_args; i++) attrs = attrs || kiln_func_arg_donor(x->function, i) != KILN_DONOR_NONE;
  kiln_cpu_donor *d = kiln_arena_alloc_array(x->arena, (size_t)x->num_results + 1, sizeof *d);
  if (!d) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  bool any = false;
  for (int32_t k = 0; k < x->num_results; k++) d[k] = (kiln_cpu_donor){-1, KILN_CPU_REUSE_NONE};
  for (int32_t i = 0; i < body->num_args; i++) {
    int64_t want = attrs ? kiln_func_arg_donor(x->function, i) : KILN_DONOR_ANY;
    if (want == KILN_DONOR_NONE) continue;
    int32_t a = body->args[i].id;
    for (int32_t k = want >= 0 ? (int32_t)(want < x->num_results ? want : x->num_results) : 0; k < x->num_results; k++) {
      kiln_cpu_reuse how = d[k].how == KILN_CPU_REUSE_NONE && fits(body->args[i].type, x->slots[x->result_values[k]].type)
                               ? reuse_of(x, k, a) : KILN_CPU_REUSE_NONE;
      if (how != KILN_CPU_REUSE_NONE) {
        d[k] = (kiln_cpu_donor){i, how};
        any = true;
        break;
      }
      if (want >= 0) break; /* the named result only */
    }
  }
  if (any) x->donors = d;
  return NULL;
}

kiln_status kiln_cpu_plan_reuse(kiln_cpu_executable *x) {
  for (int32_t s = 0; s < x->num_steps; s++)
    if (x->steps[s].kind == KILN_CPU_STEP_CONTROL) kiln_cpu_control_mark_dead(x, s);
  return x->planned && x->nesting == 0 && x->num_results ? plan_donors(x) : NULL;
}
