/* A lean while loop's driver, generated (while_code.h). */
#include "backends/cpu/while_code.h"

#include "backends/cpu/loopgen.h"

typedef struct driver_plan {
  const kiln_cpu_while_body *body;
  const kiln_cpu_while_cond *cond;
} driver_plan;

/* Side i of the condition in phase p (an i64), read through sides. */
static LLVMValueRef side(kiln_cpu_gen *g, const driver_plan *d, LLVMValueRef sides, LLVMValueRef p, int i) {
  const kiln_cpu_while_cond *c = d->cond;
  if (c->arg[i] < 0) return LLVMConstInt(g->i64, (uint64_t)c->constant[i], 1);
  LLVMValueRef at = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, p, LLVMConstInt(g->i64, 2, 0), ""), LLVMConstInt(g->i64, (uint64_t)i, 0), "");
  LLVMValueRef ptr = LLVMBuildLoad2(g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, sides, &at, 1, ""), "");
  LLVMTypeRef t = LLVMIntTypeInContext(g->c, (unsigned)kiln_elem_bits(c->elem));
  LLVMValueRef v = LLVMBuildLoad2(g->b, t, LLVMBuildBitCast(g->b, ptr, LLVMPointerType(t, 0), ""), "");
  if (LLVMGetIntTypeWidth(t) == 64) return v;
  return c->is_unsigned ? LLVMBuildZExt(g->b, v, g->i64, "") : LLVMBuildSExt(g->b, v, g->i64, "");
}

static LLVMIntPredicate predicate(const kiln_cpu_while_cond *c) {
  switch (c->dir) {
    case KILN_COMPARE_EQ: return LLVMIntEQ;
    case KILN_COMPARE_NE: return LLVMIntNE;
    case KILN_COMPARE_GE: return c->is_unsigned ? LLVMIntUGE : LLVMIntSGE;
    case KILN_COMPARE_GT: return c->is_unsigned ? LLVMIntUGT : LLVMIntSGT;
    case KILN_COMPARE_LE: return c->is_unsigned ? LLVMIntULE : LLVMIntSLE;
    default: return c->is_unsigned ? LLVMIntULT : LLVMIntSLT;
  }
}

/* What emitting the driver's iterations shares. */
typedef struct driver_emit {
  kiln_cpu_gen *g;
  const driver_plan *d;
  const LLVMValueRef *fns;
  LLVMValueRef fn, args, sides, hook, hook_ctx;
  LLVMTypeRef kty, hty;
  LLVMBasicBlockRef failed;
  LLVMValueRef sts[KILN_CPU_DRIVER_MAX_STEPS]; /* the failed block's incoming statuses */
  LLVMBasicBlockRef from[KILN_CPU_DRIVER_MAX_STEPS];
  int nfail;
} driver_emit;

/* One iteration in phase p (an i64), at the builder: the condition (false: return p), then
 * each step on its arrays of phase p. */
static void iteration(driver_emit *e, LLVMValueRef p) {
  kiln_cpu_gen *g = e->g;
  const kiln_cpu_while_body *body = e->d->body;
  LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(g->c, e->fn, "iteration"),
                    stop = LLVMAppendBasicBlockInContext(g->c, e->fn, "stop");
  LLVMValueRef lhs = side(g, e->d, e->sides, p, 0), rhs = side(g, e->d, e->sides, p, 1);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, predicate(e->d->cond), lhs, rhs, ""), run, stop);
  LLVMPositionBuilderAtEnd(g->b, stop);
  LLVMBuildRet(g->b, p);
  LLVMPositionBuilderAtEnd(g->b, run);
  LLVMValueRef base = LLVMBuildMul(g->b, p, LLVMConstInt(g->i64, (uint64_t)body->per_phase, 0), "");
  for (int32_t s = 0, k = 0; s < body->n; s++) {
    if (body->offsets[s] < 0) continue; /* a step its run's first runs (a row-block run) */
    LLVMValueRef at = LLVMBuildAdd(g->b, base, LLVMConstInt(g->i64, (uint64_t)body->offsets[s], 0), "");
    LLVMValueRef step_args = LLVMBuildGEP2(g->b, g->ptr, e->args, &at, 1, "");
    if (body->loops[s]) {
      LLVMValueRef call[3] = {step_args, LLVMConstInt(g->i64, 0, 0), LLVMConstInt(g->i64, (uint64_t)body->points[s], 0)};
      LLVMBuildCall2(g->b, e->kty, e->fns[k++], call, 3, "");
      continue;
    }
    LLVMValueRef call[3] = {e->hook_ctx, LLVMConstInt(g->i32, (uint64_t)s, 0), step_args};
    LLVMValueRef r = LLVMBuildCall2(g->b, e->hty, e->hook, call, 3, "");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->c, e->fn, "next");
    e->sts[e->nfail] = r;
    e->from[e->nfail++] = LLVMGetInsertBlock(g->b);
    LLVMBuildCondBr(g->b, LLVMBuildIsNotNull(g->b, r, ""), e->failed, next);
    LLVMPositionBuilderAtEnd(g->b, next);
  }
}

/* The failed block: the failing hook's status stored in calls[2], -1 returned; e's
 * function. */
static LLVMValueRef finish(driver_emit *e, LLVMValueRef calls, LLVMValueRef *idx) {
  kiln_cpu_gen *g = e->g;
  LLVMPositionBuilderAtEnd(g->b, e->failed);
  if (e->nfail) {
    LLVMValueRef st = LLVMBuildPhi(g->b, g->ptr, "");
    LLVMAddIncoming(st, e->sts, e->from, (unsigned)e->nfail);
    LLVMBuildStore(g->b, st, LLVMBuildGEP2(g->b, g->ptr, calls, &idx[2], 1, ""));
  }
  LLVMBuildRet(g->b, LLVMConstInt(g->i64, (uint64_t)-1, 1));
  return e->fn;
}

/* i64 kiln_driver(i8** noalias args, i8** noalias sides, i8** noalias calls): iterations
 * while the condition holds, the phase a phi (FIRST, then EVEN and ODD in turn), each step
 * on args + phase * per_phase + its offset: a loop's kernel over [0, points), inlined, or
 * the hook (calls[0], given calls[1]), whose failure is stored in calls[2] and returns -1;
 * the phase the condition failed in is returned. (Iterations two at a time at constant
 * offsets ran 3-5% faster on bodies of a few points and took 10-24 ms more to compile:
 * not worth it; 2026-12-07.) fns: the driven loops' functions, in step order. */
static LLVMValueRef emit(kiln_cpu_gen *g, const LLVMValueRef *fns, const void *ctx) {
  const driver_plan *d = ctx;
  LLVMTypeRef pp = LLVMPointerType(g->ptr, 0), params[3] = {pp, pp, pp};
  LLVMValueRef fn = LLVMAddFunction(g->m, "driver", LLVMFunctionType(g->i64, params, 3, 0));
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (unsigned i = 1; i <= 3; i++) LLVMAddAttributeAtIndex(fn, i, LLVMCreateEnumAttribute(g->c, noalias, 0));
  LLVMValueRef calls = LLVMGetParam(fn, 2);
  LLVMTypeRef kparams[3] = {pp, g->i64, g->i64}, hparams[3] = {g->ptr, g->i32, pp};
  driver_emit e = {.g = g, .d = d, .fns = fns, .fn = fn, .args = LLVMGetParam(fn, 0), .sides = LLVMGetParam(fn, 1),
                   .kty = LLVMFunctionType(LLVMVoidTypeInContext(g->c), kparams, 3, 0),
                   .hty = LLVMFunctionType(g->ptr, hparams, 3, 0)};
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, fn, "entry");
  e.failed = LLVMAppendBasicBlockInContext(g->c, fn, "failed");
  LLVMPositionBuilderAtEnd(g->b, entry);
  LLVMValueRef idx[3];
  for (int i = 0; i < 3; i++) idx[i] = LLVMConstInt(g->i64, (uint64_t)i, 0);
  LLVMValueRef hook = LLVMBuildLoad2(g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, calls, &idx[0], 1, ""), "");
  e.hook = LLVMBuildBitCast(g->b, hook, LLVMPointerType(e.hty, 0), "");
  e.hook_ctx = LLVMBuildLoad2(g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, calls, &idx[1], 1, ""), "");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->c, fn, "loop");
  LLVMBuildBr(g->b, loop);
  LLVMPositionBuilderAtEnd(g->b, loop);
  LLVMValueRef p = LLVMBuildPhi(g->b, g->i64, "phase");
  iteration(&e, p);
  LLVMValueRef even = LLVMConstInt(g->i64, KILN_CPU_PHASE_EVEN, 0);
  LLVMValueRef next = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, p, even, ""),
                                      LLVMConstInt(g->i64, KILN_CPU_PHASE_ODD, 0), even, "");
  LLVMValueRef in_vals[2] = {LLVMConstInt(g->i64, KILN_CPU_PHASE_FIRST, 0), next};
  LLVMBasicBlockRef in_blocks[2] = {entry, LLVMGetInsertBlock(g->b)};
  LLVMAddIncoming(p, in_vals, in_blocks, 2);
  LLVMBuildBr(g->b, loop);
  return finish(&e, calls, idx);
}

kiln_status kiln_cpu_while_code(const kiln_cpu_while_body *body, const kiln_cpu_while_cond *cond, kiln_cpu_code **out_code,
                                kiln_cpu_while_fn *out_fn) {
  *out_code = NULL;
  *out_fn = NULL;
  if (body->n > KILN_CPU_DRIVER_MAX_STEPS) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "cpu: a driver of %d steps", (int)body->n);
  kiln_cpu_loop *loops[KILN_CPU_DRIVER_MAX_STEPS];
  int32_t n = 0;
  for (int32_t s = 0; s < body->n; s++)
    if (body->loops[s]) loops[n++] = body->loops[s];
  driver_plan d = {body, cond};
  kiln_cpu_driver driver = {emit, &d};
  void (*fn)(void) = NULL;
  kiln_status st = kiln_cpu_code_compile_driver(loops, n, &driver, out_code, &fn);
  if (!st) *out_fn = (kiln_cpu_while_fn)fn;
  return st;
}
