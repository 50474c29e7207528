/* Vector constants read from a table (const_table.h). */
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "backends/cpu/const_table.h"

/* More distinct constants than this in one function: the rest stay where they are. */
enum { MAX_CONSTANTS = 1024 };

typedef struct table {
  LLVMValueRef *values;
  int32_t count, cap;
  bool full;
} table;

static LLVMValueRef element(LLVMValueRef c, unsigned i) {
  return LLVMIsAConstantDataVector(c) ? LLVMGetElementAsConstant(c, i) : LLVMGetOperand(c, i);
}

/* A floating-point number, or a vector of numbers, that the code generator cannot make
 * more cheaply than by a load: not all zeros (a register xor'd with itself), not integers
 * all of whose bits are set (a register compared with itself), not booleans (masks);
 * integer scalars are immediates. */
static bool tabled(LLVMValueRef c) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (LLVMIsNull(c)) return false;
  if (LLVMIsAConstantFP(c)) return LLVMGetTypeKind(t) == LLVMFloatTypeKind || LLVMGetTypeKind(t) == LLVMDoubleTypeKind;
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return false;
  if (!LLVMIsAConstantDataVector(c) && !LLVMIsAConstantVector(c)) return false;
  LLVMTypeRef et = LLVMGetElementType(t);
  LLVMTypeKind k = LLVMGetTypeKind(et);
  bool integer = k == LLVMIntegerTypeKind;
  if (integer ? LLVMGetIntTypeWidth(et) < 8 || LLVMGetIntTypeWidth(et) > 64
              : k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind && k != LLVMHalfTypeKind)
    return false;
  bool ones = integer;
  for (unsigned i = 0, n = LLVMGetVectorSize(t); i < n; i++) {
    LLVMValueRef e = element(c, i);
    if (!e || (!LLVMIsAConstantInt(e) && !LLVMIsAConstantFP(e) && !LLVMIsUndef(e))) return false;
    ones = ones && LLVMIsAConstantInt(e) && LLVMConstIntGetSExtValue(e) == -1;
  }
  return !ones;
}

/* Whether operand k of instruction i may be read from memory with no loss: the operands
 * of floating-point arithmetic and compares, of selects (but the condition), bitwise ops,
 * integer adds, subtracts and compares, and of calls to intrinsics (but the callee). Not
 * shift amounts, divisors or multipliers of integers, shuffles, addresses, stores or phis:
 * the code generator turns a constant there into cheaper code or needs it in place. */
static bool readable(LLVMValueRef i, unsigned k) {
  switch (LLVMGetInstructionOpcode(i)) {
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFCmp:
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMAdd: case LLVMSub: case LLVMICmp:
      return true;
    case LLVMSelect: return k > 0;
    case LLVMCall: {
      unsigned n = (unsigned)LLVMGetNumOperands(i);
      LLVMValueRef callee = n ? LLVMGetOperand(i, n - 1) : NULL;
      return k + 1 < n && callee && LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0;
    }
    default: return false;
  }
}

/* The index of c in t, added when it is new (-1 when t is full or memory ran out). */
static int32_t index_of(table *t, LLVMValueRef c) {
  for (int32_t j = 0; j < t->count; j++)
    if (t->values[j] == c) return j; /* constants are uniqued: equal values, one pointer */
  if (t->count == MAX_CONSTANTS) return -1;
  if (t->count == t->cap) {
    int32_t cap = t->cap ? 2 * t->cap : 32;
    LLVMValueRef *v = realloc(t->values, sizeof *v * (size_t)cap);
    if (!v) {
      t->full = true;
      return -1;
    }
    t->values = v;
    t->cap = cap;
  }
  t->values[t->count] = c;
  return t->count++;
}

/* Collects f's tabled constants into t (global NULL), or replaces each by a load from
 * global, whose struct type is st. */
static void visit(LLVMValueRef f, table *t, LLVMBuilderRef b, LLVMTypeRef st, LLVMValueRef global, LLVMTargetDataRef dl) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef c = LLVMGetOperand(i, k);
        if (!readable(i, k) || !tabled(c)) continue;
        int32_t j = index_of(t, c);
        if (j < 0 || !global) continue;
        LLVMValueRef idx[2] = {LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0),
                               LLVMConstInt(LLVMInt32TypeInContext(ctx), (unsigned long long)j, 0)};
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef load = LLVMBuildLoad2(b, LLVMTypeOf(c), LLVMConstInBoundsGEP2(st, global, idx, 2), "");
        LLVMSetAlignment(load, LLVMABIAlignmentOfType(dl, LLVMTypeOf(c)));
        LLVMSetOperand(i, k, load);
      }
}

void kiln_cpu_constants_to_table(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  table t = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); b && f; f = LLVMGetNextFunction(f)) {
    t.count = 0;
    visit(f, &t, NULL, NULL, NULL, dl);
    if (t.full || !t.count) continue;
    LLVMTypeRef *types = malloc(sizeof *types * (size_t)t.count);
    if (!types) break;
    for (int32_t j = 0; j < t.count; j++) types[j] = LLVMTypeOf(t.values[j]);
    LLVMTypeRef st = LLVMStructTypeInContext(ctx, types, (unsigned)t.count, 0);
    LLVMValueRef global = LLVMAddGlobal(m, st, "kiln_constants");
    LLVMSetInitializer(global, LLVMConstNamedStruct(st, t.values, (unsigned)t.count));
    LLVMSetLinkage(global, LLVMPrivateLinkage);
    LLVMSetGlobalConstant(global, 1);
    LLVMSetUnnamedAddress(global, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(global, 64);
    visit(f, &t, b, st, global, dl);
    free(types);
  }
  free(t.values);
  if (b) LLVMDisposeBuilder(b);
}
