/* Loop code shared by the signatures of a shape-polymorphic function (specialize.c): one
 * LLVM compile, at compile time, for every regime of sizes.
 *
 * Each signature is refined to a static function and planned like any other (fusion,
 * buffers, library primitives: cheap), but its loops do not go to LLVM: they bind to a
 * template, loops of the same structure compiled once whose numbers that differ between
 * sizes (dims, strides, offsets, constants computed from sizes) are read at run time
 * (loop.h: parametric code). Binding checks the structure and every number the template
 * holds as a constant (never assumed) and gives each signature its own numbers.
 *
 * A template is made from two plans of the function, at some sizes and at a probe's (those
 * sizes one larger, else one smaller, else doubled, so that sizes that agree still agree),
 * pairing their loops: numbers equal in both stay constants, the others are read at run
 * time. At compile time the function is planned at a ladder of sizes (specialize.c) and
 * every generation of loops no template fits yet becomes one (pending), then all of them
 * compile at once: the regimes of sizes whose plans differ in structure (a product of few
 * rows runs as a loop, of many on the library; size 1 drops dims) have code before any run.
 * A signature that still binds to no template (a regime the ladder missed) gets templates
 * of its own, one LLVM compile; generations no probe matches in structure compile for that
 * signature alone.
 *
 * A template's code takes its decisions (how a reduction is vectorised) from the probe's
 * sizes; every decision leaves code that is correct at any value of the numbers it reads,
 * and the dims collapsed (collapse.c) are re-checked per signature.
 *
 * Passes: a BUILD pass (adding templates) and the ladder run under the caller's build lock;
 * USE and COLLECT passes may run at once with them and each other (templates are published
 * whole, after their code). */
#ifndef KILN_BACKENDS_CPU_FAMILY_H
#define KILN_BACKENDS_CPU_FAMILY_H

#include "backends/cpu/loop.h"

typedef struct kiln_cpu_family kiln_cpu_family;
struct kiln_cpu_executable;

typedef enum kiln_cpu_family_mode {
  KILN_CPU_FAMILY_COLLECT, /* a probe's compile: keep the loops of each generation, compile nothing */
  KILN_CPU_FAMILY_BUILD,   /* bind to a template, else make one with the partner's generation in
                              the same place (if there is a partner), else as USE */
  KILN_CPU_FAMILY_USE,     /* bind to a template, else compile (compile_rest) or fail
                              (KILN_CPU_FAMILY_UNBOUND) */
} kiln_cpu_family_mode;

#define KILN_CPU_FAMILY_MAX_SETS 64 /* generations (a function and its regions) a pass keeps */

/* One compile's use of a family: the executable's code generations and its regions'
 * (compile.c) go through it, in a fixed order. Owned by the compiling thread. */
typedef struct kiln_cpu_family_pass {
  kiln_cpu_family *family;
  kiln_cpu_family_mode mode;
  const struct kiln_cpu_family_pass *partner; /* BUILD: the probe's COLLECT pass */
  bool compile_rest;                          /* compile generations no template takes */
  int32_t cursor;                             /* BUILD: generations so far */
  int32_t num_sets;                           /* COLLECT: the generations kept */
  struct {
    kiln_cpu_loop **loops; /* malloc'ed; the loops live in the probe's executables */
    int32_t n;
  } sets[KILN_CPU_FAMILY_MAX_SETS];
  int32_t unbound; /* generations that took no template */
  int32_t built;   /* BUILD: templates made (from the partner's probe, which must be kept) */
  int32_t compiled; /* generations that went to LLVM (templates made, code of their own) */
} kiln_cpu_family_pass;

kiln_cpu_family *kiln_cpu_family_create(void); /* NULL on OOM */
/* Destroys the family's code and probes: after every executable that uses them. */
void kiln_cpu_family_destroy(kiln_cpu_family *f);
void kiln_cpu_family_pass_init(kiln_cpu_family_pass *p, kiln_cpu_family *f, kiln_cpu_family_mode mode,
                               const kiln_cpu_family_pass *partner, bool compile_rest);
void kiln_cpu_family_pass_free(kiln_cpu_family_pass *p);
/* The templates the family holds (they are only ever added). */
int32_t kiln_cpu_family_templates(const kiln_cpu_family *f);
/* Whether the family holds as many probes as it can: no more templates are made (a BUILD
 * pass must not start). Under the caller's build lock. */
bool kiln_cpu_family_full(const kiln_cpu_family *f);
/* A probe's executable (compiled with a COLLECT pass: it holds the loops templates are made
 * of and never runs) and the module holding its function; the family owns both from here.
 * Only when it is not full. Under the caller's build lock. */
void kiln_cpu_family_keep_probe(kiln_cpu_family *f, struct kiln_cpu_executable *probe, kiln_module *module);
/* Code for one generation (compile.c): fns[k] for loops[k], their numbers in arena.
 * *own_code: code compiled for these loops alone (the caller owns it), or NULL when the
 * code is the family's (or, collecting, none: fns are left NULL). A BUILD pass runs under
 * the caller's build lock (it adds templates); COLLECT and USE passes may run at once. */
kiln_status kiln_cpu_family_generate(kiln_cpu_family_pass *p, kiln_cpu_loop *const *loops, int32_t n, kiln_arena *arena,
                                     kiln_cpu_loop_fn *fns, kiln_cpu_code **own_code);
/* Templates made ahead, before any signature (specialize.c: the regime ladder), all compiled
 * at once. Under the caller's build lock.
 * kiln_cpu_family_unfit: how many generations of a COLLECT pass no template (compiled or
 * pending) fits.
 * kiln_cpu_family_plan: each such generation becomes a pending template with the
 * generation in the same place of `probe` (a COLLECT pass of the probe's sizes; `collected`
 * itself: a template of constants, for those sizes only); how many were made: the probe's
 * executable must then be kept (kiln_cpu_family_keep_probe), its loops are theirs.
 * kiln_cpu_family_compile_planned: the pending templates' code, one LLVM compile of all of
 * them (*compiled: whether there were any); an error drops them all. */
int32_t kiln_cpu_family_unfit(const kiln_cpu_family *f, const kiln_cpu_family_pass *collected);
int32_t kiln_cpu_family_plan(kiln_cpu_family *f, const kiln_cpu_family_pass *collected, const kiln_cpu_family_pass *probe);
kiln_status kiln_cpu_family_compile_planned(kiln_cpu_family *f, bool *compiled);
/* The message of a USE pass's failure to bind. */
#define KILN_CPU_FAMILY_UNBOUND "no shared code fits this signature"

#endif
