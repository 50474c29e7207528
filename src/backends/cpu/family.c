/* Loop code shared by a shape-polymorphic function's signatures (family.h). */
#include "backends/cpu/family.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"

#define MAX_TEMPLATES 256 /* generations' templates a family holds */
#define MAX_PROBES 32

/* A template: a generation's loops made parametric, their code compiled with others'. */
typedef struct shared {
  int32_t n;
  kiln_cpu_loop **tmpl;          /* the probe's loops, collapsed, with their slots */
  kiln_cpu_collapse_plan *plans; /* per loop */
  int64_t **values;              /* per loop, per field: the number the code holds (or reads) */
  kiln_cpu_loop_fn *fns;         /* in one of the family's codes; NULL while pending */
} shared;

struct kiln_cpu_family {
  shared *templates[MAX_TEMPLATES]; /* [0, num_templates) compiled, then the pending ones */
  _Atomic int32_t num_templates;    /* published after the template is complete */
  int32_t num_pending;              /* made ahead, not compiled yet (under the build lock) */
  kiln_cpu_code *codes[MAX_TEMPLATES]; /* each compile's, holding one or more templates' loops */
  int32_t num_codes;
  struct kiln_cpu_executable *probes[MAX_PROBES];
  kiln_module *probe_modules[MAX_PROBES];
  int32_t num_probes;
};

kiln_cpu_family *kiln_cpu_family_create(void) { return calloc(1, sizeof(kiln_cpu_family)); }

static void shared_free(shared *s) {
  if (!s) return;
  for (int32_t i = 0; s->values && i < s->n; i++) free(s->values[i]);
  for (int32_t i = 0; s->tmpl && i < s->n; i++) {
    free((void *)s->tmpl[i]->slots);
    s->tmpl[i]->slots = NULL;
  }
  free(s->tmpl);
  free(s->values);
  free(s->plans);
  free(s->fns);
  free(s);
}

void kiln_cpu_family_destroy(kiln_cpu_family *f) {
  if (!f) return;
  for (int32_t i = 0; i < atomic_load(&f->num_templates) + f->num_pending; i++) shared_free(f->templates[i]);
  for (int32_t i = 0; i < f->num_codes; i++) kiln_cpu_code_destroy(f->codes[i]);
  for (int32_t i = 0; i < f->num_probes; i++) {
    kiln_cpu_executable_destroy(f->probes[i]);
    kiln_module_destroy(f->probe_modules[i]);
  }
  free(f);
}

void kiln_cpu_family_pass_init(kiln_cpu_family_pass *p, kiln_cpu_family *f, kiln_cpu_family_mode mode,
                               const kiln_cpu_family_pass *partner, bool compile_rest) {
  memset(p, 0, sizeof *p);
  p->family = f;
  p->mode = mode;
  p->partner = partner;
  p->compile_rest = compile_rest;
}

void kiln_cpu_family_pass_free(kiln_cpu_family_pass *p) {
  for (int32_t i = 0; i < p->num_sets; i++) free(p->sets[i].loops);
  p->num_sets = 0;
}

int32_t kiln_cpu_family_templates(const kiln_cpu_family *f) { return atomic_load(&f->num_templates); }

bool kiln_cpu_family_full(const kiln_cpu_family *f) {
  return f->num_probes == MAX_PROBES || atomic_load(&f->num_templates) + f->num_pending == MAX_TEMPLATES ||
         f->num_codes == MAX_TEMPLATES;
}

void kiln_cpu_family_keep_probe(kiln_cpu_family *f, struct kiln_cpu_executable *probe, kiln_module *module) {
  f->probes[f->num_probes] = probe;
  f->probe_modules[f->num_probes++] = module;
}

/* L's nodes by id (malloc'ed; NULL on OOM). */
static kiln_cpu_node **nodes_of(const kiln_cpu_loop *L) {
  kiln_cpu_node **nodes = calloc((size_t)L->num_nodes + 1, sizeof *nodes);
  if (nodes) kiln_cpu_loop_nodes(L, nodes);
  return nodes;
}

static int32_t id_of(const kiln_cpu_node *x) { return x ? x->id : -1; }

/* Whether ops a and b (of one kind) carry the same attributes: what the code generator
 * reads of them (a compare's direction and type) among them. */
static bool same_attrs(const kiln_op *a, const kiln_op *b) {
  if (a->num_attrs != b->num_attrs) return false;
  for (int32_t i = 0; i < a->num_attrs; i++) { /* copies of one op keep its attributes' order */
    const kiln_named_attr *x = &a->attrs[i], *y = &b->attrs[i];
    if (!x->name != !y->name || (x->name && strcmp(x->name, y->name)) || !kiln_attr_equal(x->value, y->value)) return false;
  }
  return true;
}

/* Whether a and b compute the same thing but for their numbers: the same trees of the
 * same kinds and element types over the same buffers, from the same source ops. */
static bool same_structure(const kiln_cpu_loop *a, kiln_cpu_node *const *na, const kiln_cpu_loop *b,
                           kiln_cpu_node *const *nb) {
  if (a->num_inputs != b->num_inputs || a->out_elem != b->out_elem || a->num_nodes != b->num_nodes ||
      a->combiner != b->combiner || !a->fold != !b->fold || a->scan != b->scan || a->scan_reverse != b->scan_reverse ||
      a->scan_split != b->scan_split ||
      id_of(a->root) != id_of(b->root) ||
      id_of(a->init) != id_of(b->init))
    return false;
  if (a->fold) {
    if (a->num_results != b->num_results) return false;
    for (int32_t k = 0; k < a->num_results; k++)
      if (a->out_elems[k] != b->out_elems[k] || id_of(a->roots[k]) != id_of(b->roots[k]) ||
          id_of(a->inits[k]) != id_of(b->inits[k]) || id_of(a->fold[k]) != id_of(b->fold[k]) ||
          id_of(a->args[k]) != id_of(b->args[k]) || id_of(a->args[a->num_results + k]) != id_of(b->args[b->num_results + k]))
        return false;
  }
  for (int32_t k = 0; k < a->num_nodes; k++) {
    const kiln_cpu_node *x = na[k], *y = nb[k];
    if (!x || !y) {
      if (x || y) return false;
      continue;
    }
    if (x->kind != y->kind || x->elem != y->elem || x->input != y->input || x->op_kind != y->op_kind ||
        x->num_args != y->num_args || !x->op != !y->op)
      return false;
    if (x->op && (x->op->kind != y->op->kind || x->op->loc.line != y->op->loc.line || x->op->loc.col != y->op->loc.col ||
                  !same_attrs(x->op, y->op)))
      return false;
    if (x->kind == KILN_CPU_NODE_SCALAR && kiln_elem_is_complex(x->elem) && memcmp(&x->value.im, &y->value.im, sizeof x->value.im))
      return false; /* a field holds a complex constant's real part only */
    for (int32_t i = 0; i < x->num_args; i++)
      if (x->args[i]->id != y->args[i]->id ||
          (x->kind == KILN_CPU_NODE_GATHER &&
           (x->index_strides[i] != y->index_strides[i] || x->index_limits[i] != y->index_limits[i])))
        return false; /* a gather's index geometry is constant in the code */
  }
  return true;
}

/* A template from generation a (the first signature's) and b (the probe's; b == a: a
 * template of constants, for a's numbers only), its code not compiled yet; NULL when they
 * differ in more than numbers or a number that differs cannot be read at run time (a
 * complex constant, a stride along the vectorised dim). */
static shared *make_template(kiln_cpu_loop *const *a, kiln_cpu_loop *const *probe, int32_t n) {
  shared *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->n = n;
  if ((s->tmpl = malloc(sizeof *s->tmpl * (size_t)n))) memcpy(s->tmpl, probe, sizeof *s->tmpl * (size_t)n);
  s->plans = calloc((size_t)n, sizeof *s->plans);
  s->values = calloc((size_t)n, sizeof *s->values);
  bool ok = s->tmpl && s->plans && s->values;
  for (int32_t i = 0; ok && i < n; i++) {
    kiln_cpu_loop *A = a[i], *B = s->tmpl[i];
    kiln_cpu_node **na = nodes_of(A), **nb = nodes_of(B);
    int32_t fields = kiln_cpu_loop_fields(B);
    int32_t *slots = calloc((size_t)fields, sizeof *slots);
    s->values[i] = calloc((size_t)fields, sizeof **s->values);
    ok = na && nb && slots && s->values[i] && A->rank == B->rank && A->num_out_dims == B->num_out_dims &&
         same_structure(A, na, B, nb);
    int32_t count = 0;
    if (ok) {
      kiln_cpu_loop *const pair[2] = {A, B};
      kiln_cpu_node *const *const pair_nodes[2] = {na, nb};
      kiln_cpu_collapse_plan_make(pair, pair_nodes, 2, &s->plans[i]);
      for (int32_t f = 0; ok && f < fields; f++) {
        int64_t va = kiln_cpu_collapsed_field(A, na, &s->plans[i], f), vb = kiln_cpu_collapsed_field(B, nb, &s->plans[i], f);
        s->values[i][f] = vb;
        slots[f] = va == vb ? -1 : count++;
        if (va != vb && f >= KILN_CPU_MAX_RANK && (f - KILN_CPU_MAX_RANK) % KILN_CPU_NODE_FIELDS == KILN_CPU_NODE_FIELDS - 1)
          ok = !kiln_elem_is_complex(nb[(f - KILN_CPU_MAX_RANK) / KILN_CPU_NODE_FIELDS]->elem);
      }
    }
    if (ok) {
      kiln_cpu_collapse_plan_apply(B, nb, &s->plans[i]);
      B->slots = count ? slots : NULL;
      B->num_slots = count;
    }
    if (!ok || !count) free(slots);
    free(na);
    free(nb);
  }
  if (!ok) {
    shared_free(s);
    return NULL;
  }
  return s;
}

/* Compiles the pending templates' loops in one module (one LLVM compile) and publishes
 * them. Under the build lock. */
static kiln_status compile_pending(kiln_cpu_family *f) {
  int32_t first = atomic_load(&f->num_templates), total = 0;
  for (int32_t i = first; i < first + f->num_pending; i++) total += f->templates[i]->n;
  if (!total) return NULL;
  kiln_cpu_loop **loops = malloc(sizeof *loops * (size_t)total);
  kiln_cpu_loop_fn *fns = calloc((size_t)total, sizeof *fns);
  kiln_status st = loops && fns ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = first, k = 0; !st && i < first + f->num_pending; k += f->templates[i++]->n)
    memcpy(loops + k, f->templates[i]->tmpl, sizeof *loops * (size_t)f->templates[i]->n);
  if (!st) st = kiln_cpu_code_compile(loops, total, false, &f->codes[f->num_codes], fns);
  for (int32_t i = first, k = 0; !st && i < first + f->num_pending; k += f->templates[i++]->n) {
    shared *t = f->templates[i];
    if (!(t->fns = malloc(sizeof *t->fns * (size_t)t->n))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    else memcpy(t->fns, fns + k, sizeof *t->fns * (size_t)t->n);
  }
  if (!st) f->num_codes++;
  else kiln_cpu_code_destroy(f->codes[f->num_codes]);
  f->codes[f->num_codes] = NULL;
  free(loops);
  free(fns);
  if (st) { /* none of them is published */
    for (int32_t i = first; i < first + f->num_pending; i++) {
      shared_free(f->templates[i]);
      f->templates[i] = NULL;
    }
  } else {
    atomic_store(&f->num_templates, first + f->num_pending);
  }
  f->num_pending = 0;
  return st;
}

/* Whether generation t fits template s (all of its loops or none): the same structure and
 * the numbers the code holds. vals (NULL: only checked): each loop's run-time numbers, in
 * arena. */
static bool fits(const shared *s, kiln_cpu_loop *const *t, int32_t n, kiln_arena *arena, int64_t **vals) {
  if (n != s->n) return false;
  bool ok = true;
  for (int32_t i = 0; ok && i < n; i++) {
    const kiln_cpu_loop *T = s->tmpl[i];
    kiln_cpu_node **nt = nodes_of(t[i]), **nb = nodes_of(T);
    ok = nt && nb && same_structure(t[i], nt, T, nb) && kiln_cpu_collapse_plan_fits(t[i], nt, &s->plans[i]);
    if (ok && vals && T->num_slots) ok = (vals[i] = kiln_arena_alloc_array(arena, (size_t)T->num_slots, sizeof **vals)) != NULL;
    for (int32_t f = 0; ok && f < kiln_cpu_loop_fields(T); f++) {
      int64_t v = kiln_cpu_collapsed_field(t[i], nt, &s->plans[i], f);
      if (T->slots && T->slots[f] >= 0) {
        if (vals) vals[i][T->slots[f]] = v;
      } else {
        ok = v == s->values[i][f];
      }
    }
    free(nt);
    free(nb);
  }
  return ok;
}

/* Binds generation t to compiled template s: each loop gets s's function, grain and its own
 * numbers (in arena). */
static bool bind(const shared *s, kiln_cpu_loop *const *t, int32_t n, kiln_arena *arena, kiln_cpu_loop_fn *fns) {
  int64_t **vals = calloc((size_t)n + 1, sizeof *vals);
  bool ok = vals && fits(s, t, n, arena, vals);
  for (int32_t i = 0; ok && i < n; i++) {
    t[i]->slot_values = vals[i];
    t[i]->num_slots = s->tmpl[i]->num_slots;
    t[i]->grain = s->tmpl[i]->grain;
    fns[i] = s->fns[i];
  }
  free(vals);
  return ok;
}

/* Adds a template made of a and probe as pending; false when it cannot be made or the
 * family is full. Under the build lock. */
static bool add_pending(kiln_cpu_family *f, kiln_cpu_loop *const *a, kiln_cpu_loop *const *probe, int32_t n) {
  int32_t at = atomic_load(&f->num_templates) + f->num_pending;
  if (at == MAX_TEMPLATES || f->num_codes == MAX_TEMPLATES) return false;
  shared *s = make_template(a, probe, n);
  if (s) f->templates[at] = s, f->num_pending++;
  return s != NULL;
}

kiln_status kiln_cpu_family_generate(kiln_cpu_family_pass *p, kiln_cpu_loop *const *loops, int32_t n, kiln_arena *arena,
                                     kiln_cpu_loop_fn *fns, kiln_cpu_code **own_code) {
  kiln_cpu_family *f = p->family;
  *own_code = NULL;
  if (p->mode == KILN_CPU_FAMILY_COLLECT) {
    if (p->num_sets == KILN_CPU_FAMILY_MAX_SETS) return NULL; /* BUILD finds no partner for the rest */
    if (!(p->sets[p->num_sets].loops = malloc(sizeof *loops * (size_t)n)))
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    memcpy(p->sets[p->num_sets].loops, loops, sizeof *loops * (size_t)n);
    p->sets[p->num_sets++].n = n;
    return NULL;
  }
  int32_t at = p->cursor++;
  int32_t count = atomic_load(&f->num_templates);
  for (int32_t i = 0; i < count; i++)
    if (bind(f->templates[i], loops, n, arena, fns)) return NULL;
  if (p->mode == KILN_CPU_FAMILY_BUILD && p->partner && at < p->partner->num_sets && p->partner->sets[at].n == n &&
      add_pending(f, loops, p->partner->sets[at].loops, n)) {
    kiln_status st = compile_pending(f);
    if (st) return st;
    p->built++;
    p->compiled++;
    if (bind(f->templates[count], loops, n, arena, fns)) return NULL;
  }
  p->unbound++;
  if (!p->compile_rest) return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, KILN_CPU_FAMILY_UNBOUND);
  p->compiled++;
  return kiln_cpu_code_compile(loops, n, false, own_code, fns);
}

/* Whether some template, compiled or pending, fits generation t. */
static bool any_fits(const kiln_cpu_family *f, kiln_cpu_loop *const *t, int32_t n) {
  for (int32_t i = 0; i < atomic_load(&f->num_templates) + f->num_pending; i++)
    if (fits(f->templates[i], t, n, NULL, NULL)) return true;
  return false;
}

int32_t kiln_cpu_family_unfit(const kiln_cpu_family *f, const kiln_cpu_family_pass *collected) {
  int32_t unfit = 0;
  for (int32_t k = 0; k < collected->num_sets; k++) unfit += !any_fits(f, collected->sets[k].loops, collected->sets[k].n);
  return unfit;
}

int32_t kiln_cpu_family_plan(kiln_cpu_family *f, const kiln_cpu_family_pass *collected, const kiln_cpu_family_pass *probe) {
  int32_t made = 0;
  for (int32_t k = 0; k < collected->num_sets; k++) {
    kiln_cpu_loop *const *a = collected->sets[k].loops;
    int32_t n = collected->sets[k].n;
    if (!any_fits(f, a, n) && k < probe->num_sets && probe->sets[k].n == n && add_pending(f, a, probe->sets[k].loops, n))
      made++;
  }
  return made;
}

kiln_status kiln_cpu_family_compile_planned(kiln_cpu_family *f, bool *compiled) {
  *compiled = f->num_pending > 0;
  return compile_pending(f);
}
