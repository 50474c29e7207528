/* LLVM IR for loop kernels (see loop.h): a row loop over the kept dims, the last dim
 * vectorised explicitly (W lanes, then a scalar tail), reads folded into affine offsets.
 * f16 and bf16 compute in f32 and are rounded back after every op, as StableHLO defines
 * each op's result in the storage type (f32 has at least 2p+2 bits for both, so the double
 * rounding of + - * / sqrt is exact). Loop counters and accumulators live in allocas that
 * the optimiser promotes to registers. */
#include "backends/cpu/loopgen.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/llvm_math.h"
#include "backends/interp/float_bits.h"

static LLVMTypeRef compute_type(const kiln_cpu_gen *g, kiln_elem e) {
  switch (e) {
    case KILN_ELEM_I1: return g->i1;
    case KILN_ELEM_SI8: case KILN_ELEM_UI8: return g->i8;
    case KILN_ELEM_SI16: case KILN_ELEM_UI16: return g->i16;
    case KILN_ELEM_SI32: case KILN_ELEM_UI32: return g->i32;
    case KILN_ELEM_SI64: case KILN_ELEM_UI64: return g->i64;
    case KILN_ELEM_F16: case KILN_ELEM_BF16: case KILN_ELEM_F32: return g->f32;
    case KILN_ELEM_F64: case KILN_ELEM_C64: case KILN_ELEM_C128: return g->f64; /* complex: a part */
    default: return NULL;
  }
}

static LLVMTypeRef storage_type(const kiln_cpu_gen *g, kiln_elem e) {
  switch (e) {
    case KILN_ELEM_I1: return g->i8;
    case KILN_ELEM_F16: return g->f16;
    case KILN_ELEM_BF16: return g->i16;
    default: return compute_type(g, e);
  }
}

bool kiln_cpu_loopgen_elem(kiln_elem e) {
  switch (e) {
    case KILN_ELEM_I1: case KILN_ELEM_SI8: case KILN_ELEM_UI8: case KILN_ELEM_SI16: case KILN_ELEM_UI16:
    case KILN_ELEM_SI32: case KILN_ELEM_UI32: case KILN_ELEM_SI64: case KILN_ELEM_UI64: case KILN_ELEM_F16:
    case KILN_ELEM_BF16: case KILN_ELEM_F32: case KILN_ELEM_F64: case KILN_ELEM_C64: case KILN_ELEM_C128:
      return true;
    default: return false;
  }
}

static LLVMTypeRef vec_of(LLVMTypeRef t, int w) { return w == 1 ? t : LLVMVectorType(t, (unsigned)w); }

int kiln_cpu_width(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) == LLVMStructTypeKind) t = LLVMStructGetTypeAtIndex(t, 0);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(t) : 1;
}

LLVMValueRef kiln_cpu_splat(kiln_cpu_gen *g, LLVMValueRef s, int w) {
  if (w == 1) return s;
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(s), (unsigned)w);
  LLVMValueRef v = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), s, LLVMConstInt(g->i32, 0, 0), "");
  LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(g->i32, (unsigned)w));
  return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(vt), zeros, "");
}

static LLVMValueRef const_like(kiln_cpu_gen *g, LLVMValueRef like, double f, uint64_t u) {
  LLVMTypeRef t = LLVMTypeOf(like);
  int w = kiln_cpu_width(like);
  LLVMTypeRef s = w == 1 ? t : LLVMGetElementType(t);
  LLVMValueRef c = LLVMGetTypeKind(s) == LLVMIntegerTypeKind ? LLVMConstInt(s, u, 0) : LLVMConstReal(s, f);
  if (w == 1) return c;
  LLVMValueRef *items = malloc(sizeof *items * (size_t)w);
  if (!items) return NULL;
  for (int i = 0; i < w; i++) items[i] = c;
  LLVMValueRef v = LLVMConstVector(items, (unsigned)w);
  free(items);
  return v;
}

LLVMValueRef kiln_cpu_fconst_like(kiln_cpu_gen *g, LLVMValueRef v, double f) { return const_like(g, v, f, 0); }

LLVMValueRef kiln_cpu_intrinsic(kiln_cpu_gen *g, const char *name, LLVMValueRef *args, int n, int num_overloads) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef over[2] = {LLVMTypeOf(args[0]), n > 1 ? LLVMTypeOf(args[1]) : NULL};
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->m, id, over, (size_t)num_overloads);
  LLVMTypeRef fty = LLVMIntrinsicGetType(g->c, id, over, (size_t)num_overloads);
  return LLVMBuildCall2(g->b, fty, fn, args, (unsigned)n, "");
}

static LLVMValueRef intr1(kiln_cpu_gen *g, const char *name, LLVMValueRef x) {
  return kiln_cpu_intrinsic(g, name, &x, 1, 1);
}
static LLVMValueRef intr2(kiln_cpu_gen *g, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef a[2] = {x, y};
  return kiln_cpu_intrinsic(g, name, a, 2, 1);
}

/* ---------------------------------------------------------------- storage rounding */

static LLVMValueRef round_bf16(kiln_cpu_gen *g, LLVMValueRef v) {
  int w = kiln_cpu_width(v);
  LLVMTypeRef it = vec_of(g->i32, w);
  LLVMValueRef bits = LLVMBuildBitCast(g->b, v, it, "");
  LLVMValueRef lsb = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, bits, kiln_cpu_splat(g, LLVMConstInt(g->i32, 16, 0), w), ""),
                                  kiln_cpu_splat(g, LLVMConstInt(g->i32, 1, 0), w), "");
  LLVMValueRef rounded = LLVMBuildAdd(g->b, bits, LLVMBuildAdd(g->b, lsb, kiln_cpu_splat(g, LLVMConstInt(g->i32, 0x7fff, 0), w), ""), "");
  LLVMValueRef hi = kiln_cpu_splat(g, LLVMConstInt(g->i32, 0xffff0000u, 0), w);
  rounded = LLVMBuildAnd(g->b, rounded, hi, "");
  LLVMValueRef quiet = LLVMBuildAnd(g->b, LLVMBuildOr(g->b, bits, kiln_cpu_splat(g, LLVMConstInt(g->i32, 0x00400000u, 0), w), ""), hi, "");
  LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, "");
  return LLVMBuildBitCast(g->b, LLVMBuildSelect(g->b, nan, quiet, rounded, ""), vec_of(g->f32, w), "");
}

/* f32 to f16, rounding to nearest even. With F16C a vector goes through vcvtps2ph, eight
 * lanes at a time (sixteen with AVX-512): LLVM would otherwise shrink fptrunc(op(fpext a,
 * fpext b)) into an op on half vectors, which x86 without AVX512-FP16 computes one lane at
 * a time. With AVX512-FP16 (g->f16c off) that shrinking is the point: the op runs on half
 * vectors natively, and is exact (an f16 op computed in f32 and rounded once is the
 * correctly rounded f16 result: f32 holds more than twice f16's precision). */
static LLVMValueRef trunc_f16(kiln_cpu_gen *g, LLVMValueRef v) {
  int w = kiln_cpu_width(v);
  int lanes = g->vector_bytes == 64 && w % 16 == 0 ? 16 : 8;
  if (!g->f16c || w % lanes) return LLVMBuildFPTrunc(g->b, v, vec_of(g->f16, w), "");
  enum { MAX_PARTS = 8 }; /* up to 64 lanes */
  LLVMValueRef parts[MAX_PARTS], idx[64];
  int n = w / lanes;
  if (n > MAX_PARTS || (n & (n - 1))) return LLVMBuildFPTrunc(g->b, v, vec_of(g->f16, w), "");
  for (int p = 0; p < n; p++) {
    LLVMValueRef x = v;
    if (n > 1) {
      for (int i = 0; i < lanes; i++) idx[i] = LLVMConstInt(g->i32, (unsigned long long)(lanes * p + i), 0);
      x = LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(LLVMTypeOf(v)), LLVMConstVector(idx, (unsigned)lanes), "");
    }
    /* imm 0: to nearest even; the 512-bit form also takes a pass-through and a mask */
    LLVMValueRef args[4] = {x, LLVMConstInt(g->i32, 0, 0), LLVMConstNull(vec_of(g->i16, 16)), LLVMConstInt(g->i16, 0xffff, 0)};
    parts[p] = lanes == 16 ? kiln_cpu_intrinsic(g, "llvm.x86.avx512.mask.vcvtps2ph.512", args, 4, 0)
                           : kiln_cpu_intrinsic(g, "llvm.x86.vcvtps2ph.256", args, 2, 0);
  }
  for (int width = lanes; n > 1; n /= 2, width *= 2) /* concatenate pairwise */
    for (int p = 0; p < n / 2; p++) {
      for (int i = 0; i < 2 * width; i++) idx[i] = LLVMConstInt(g->i32, (unsigned long long)i, 0);
      parts[p] = LLVMBuildShuffleVector(g->b, parts[2 * p], parts[2 * p + 1], LLVMConstVector(idx, (unsigned)(2 * width)), "");
    }
  return LLVMBuildBitCast(g->b, parts[0], vec_of(g->f16, w), "");
}

/* An f16 vector widened to f32. Without AVX512-FP16 the widened value is fenced
 * (llvm.arithmetic.fence: no code), so that LLVM does not shrink a compare of it back into
 * a compare of half vectors, which it then computes one lane at a time (a relu over f16,
 * its NaN and signed-zero checks: 3.2 ms for 1M elements held to AVX2, scalar code). */
static LLVMValueRef widen_f16(kiln_cpu_gen *g, LLVMValueRef v) {
  LLVMValueRef x = LLVMBuildFPExt(g->b, v, vec_of(g->f32, kiln_cpu_width(v)), "");
  return g->f16_native ? x : intr1(g, "llvm.arithmetic.fence", x);
}

/* Rounds an f32 value to the storage type e (f16, bf16); other types are unchanged. */
static LLVMValueRef round_storage(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef v) {
  if (e == KILN_ELEM_F16) return widen_f16(g, trunc_f16(g, v));
  if (e == KILN_ELEM_BF16) return round_bf16(g, v);
  return v;
}

/* From storage (as loaded) to the compute representation. */
static LLVMValueRef from_storage(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef v) {
  int w = kiln_cpu_width(v);
  switch (e) {
    case KILN_ELEM_I1: return LLVMBuildTrunc(g->b, v, vec_of(g->i1, w), "");
    case KILN_ELEM_F16: return widen_f16(g, v);
    case KILN_ELEM_BF16: {
      LLVMValueRef x = LLVMBuildZExt(g->b, v, vec_of(g->i32, w), "");
      x = LLVMBuildShl(g->b, x, kiln_cpu_splat(g, LLVMConstInt(g->i32, 16, 0), w), "");
      return LLVMBuildBitCast(g->b, x, vec_of(g->f32, w), "");
    }
    default: return v;
  }
}

static LLVMValueRef to_storage(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef v) {
  int w = kiln_cpu_width(v);
  switch (e) {
    case KILN_ELEM_I1: return LLVMBuildZExt(g->b, v, vec_of(g->i8, w), "");
    case KILN_ELEM_F16: return trunc_f16(g, v);
    case KILN_ELEM_BF16: {
      LLVMValueRef x = LLVMBuildBitCast(g->b, round_bf16(g, v), vec_of(g->i32, w), "");
      x = LLVMBuildLShr(g->b, x, kiln_cpu_splat(g, LLVMConstInt(g->i32, 16, 0), w), "");
      return LLVMBuildTrunc(g->b, x, vec_of(g->i16, w), "");
    }
    default: return v;
  }
}

/* ---------------------------------------------------------------- memory */

static LLVMValueRef elem_ptr(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset) {
  LLVMTypeRef st = storage_type(g, e);
  LLVMValueRef typed = LLVMBuildBitCast(g->b, base, LLVMPointerType(st, 0), "");
  return LLVMBuildGEP2(g->b, st, typed, &offset, 1, "");
}

/* Loads w elements starting at element `offset`, `stride` elements apart. */
LLVMValueRef kiln_cpu_load(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset, int64_t stride, int w) {
  if (kiln_elem_is_complex(e)) return kiln_cpu_complex_load(g, base, e, offset, stride, w);
  LLVMTypeRef st = storage_type(g, e);
  unsigned align = (unsigned)kiln_elem_storage_bytes(e);
  LLVMValueRef v;
  if (w == 1 || stride == 0) {
    LLVMValueRef p = elem_ptr(g, base, e, offset);
    v = LLVMBuildLoad2(g->b, st, p, "");
    LLVMSetAlignment(v, align);
    v = kiln_cpu_splat(g, from_storage(g, e, v), w);
    return v;
  }
  if (stride == 1) {
    LLVMTypeRef vt = LLVMVectorType(st, (unsigned)w);
    LLVMValueRef p = LLVMBuildBitCast(g->b, elem_ptr(g, base, e, offset), LLVMPointerType(vt, 0), "");
    v = LLVMBuildLoad2(g->b, vt, p, "");
    LLVMSetAlignment(v, align);
    return from_storage(g, e, v);
  }
  v = LLVMGetUndef(LLVMVectorType(st, (unsigned)w));
  for (int i = 0; i < w; i++) {
    LLVMValueRef off = LLVMBuildAdd(g->b, offset, LLVMConstInt(g->i64, (uint64_t)(stride * i), 1), "");
    LLVMValueRef s = LLVMBuildLoad2(g->b, st, elem_ptr(g, base, e, off), "");
    LLVMSetAlignment(s, align);
    v = LLVMBuildInsertElement(g->b, v, s, LLVMConstInt(g->i32, (uint64_t)i, 0), "");
  }
  return from_storage(g, e, v);
}

LLVMValueRef kiln_cpu_load_at(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offsets) {
  int w = kiln_cpu_width(offsets);
  if (w == 1) return kiln_cpu_load(g, base, e, offsets, 0, 1);
  LLVMTypeRef st = storage_type(g, e);
  LLVMValueRef v = LLVMGetUndef(LLVMVectorType(st, (unsigned)w));
  for (int i = 0; i < w; i++) { /* one load a lane: x86's gathers are no faster */
    LLVMValueRef lane = LLVMConstInt(g->i32, (uint64_t)i, 0);
    LLVMValueRef s = LLVMBuildLoad2(g->b, st, elem_ptr(g, base, e, LLVMBuildExtractElement(g->b, offsets, lane, "")), "");
    LLVMSetAlignment(s, (unsigned)kiln_elem_storage_bytes(e));
    v = LLVMBuildInsertElement(g->b, v, s, lane, "");
  }
  return from_storage(g, e, v);
}

void kiln_cpu_store(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset, LLVMValueRef v) {
  if (kiln_elem_is_complex(e)) {
    kiln_cpu_complex_store(g, base, e, offset, v);
    return;
  }
  int w = kiln_cpu_width(v);
  LLVMValueRef s = to_storage(g, e, v);
  LLVMValueRef p = elem_ptr(g, base, e, offset);
  if (w > 1) p = LLVMBuildBitCast(g->b, p, LLVMPointerType(LLVMTypeOf(s), 0), "");
  LLVMValueRef st = LLVMBuildStore(g->b, s, p);
  LLVMSetAlignment(st, (unsigned)kiln_elem_storage_bytes(e));
}

/* ---------------------------------------------------------------- ops */

static bool is_unsigned(kiln_elem e) { return kiln_elem_class_of(e) == KILN_ELEM_CLASS_U || e == KILN_ELEM_I1; }
static bool is_float(kiln_elem e) { return kiln_elem_is_float(e); }

LLVMValueRef kiln_cpu_clamped_index(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef x, int64_t limit) {
  int w = kiln_cpu_width(x);
  LLVMTypeRef t = vec_of(g->i64, w);
  bool uns = is_unsigned(e);
  x = LLVMBuildIntCast2(g->b, x, t, !uns, "");
  LLVMValueRef hi = kiln_cpu_splat(g, LLVMConstInt(g->i64, (uint64_t)limit, 0), w);
  if (uns) return intr2(g, "llvm.umin", x, hi);
  return intr2(g, "llvm.smin", intr2(g, "llvm.smax", x, kiln_cpu_splat(g, LLVMConstInt(g->i64, 0, 0), w)), hi);
}

static const char *compare_direction(const kiln_op *op) {
  const kiln_attr *a = kiln_op_attr(op, "comparison_direction");
  if (a && a->kind == KILN_ATTR_ENUM) return a->enumv.value;
  if (a && a->kind == KILN_ATTR_STRING) return a->str.data;
  return NULL;
}

static bool compare_is_totalorder(const kiln_op *op) {
  const kiln_attr *a = kiln_op_attr(op, "compare_type");
  const char *v = !a ? NULL : a->kind == KILN_ATTR_ENUM ? a->enumv.value : a->kind == KILN_ATTR_STRING ? a->str.data : NULL;
  return v && !strcmp(v, "TOTALORDER");
}

static int direction_index(const char *d) {
  static const char *const names[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  for (int i = 0; d && i < 6; i++)
    if (!strcmp(d, names[i])) return i;
  return -1;
}

int kiln_cpu_compare_direction(const kiln_op *op) { return direction_index(compare_direction(op)); }

/* IEEE-754 totalOrder of a float (compute representation f32 or f64, whose bits order as
 * the storage type's: f32, f64, and bf16 widened by a shift) as a signed integer key:
 * -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. */
static LLVMValueRef total_order_key(kiln_cpu_gen *g, LLVMValueRef x) {
  int w = kiln_cpu_width(x);
  bool f64 = LLVMTypeOf(x) == vec_of(g->f64, w);
  LLVMValueRef v = LLVMBuildBitCast(g->b, x, vec_of(f64 ? g->i64 : g->i32, w), "");
  LLVMValueRef sign = LLVMBuildAShr(g->b, v, const_like(g, v, 0, f64 ? 63 : 31), "");
  return LLVMBuildXor(g->b, v, LLVMBuildLShr(g->b, sign, const_like(g, v, 0, 1), ""), ""); /* negatives: ~magnitude */
}

static LLVMValueRef emit_compare(kiln_cpu_gen *g, const kiln_op *op, kiln_elem e, LLVMValueRef x, LLVMValueRef y) {
  static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOGE, LLVMRealOGT, LLVMRealOLE, LLVMRealOLT};
  static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSGE, LLVMIntSGT, LLVMIntSLE, LLVMIntSLT};
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntUGE, LLVMIntUGT, LLVMIntULE, LLVMIntULT};
  int d = direction_index(compare_direction(op));
  if (d < 0) return NULL;
  if (is_float(e) && compare_is_totalorder(op))
    return LLVMBuildICmp(g->b, sp[d], total_order_key(g, x), total_order_key(g, y), "");
  if (is_float(e)) return LLVMBuildFCmp(g->b, fp[d], x, y, "");
  return LLVMBuildICmp(g->b, is_unsigned(e) ? up[d] : sp[d], x, y, "");
}

/* Integer divide or remainder with StableHLO's (XLA's) answers where C has none: x / 0 is
 * -1 (all bits set) and x % 0 is x; INT_MIN / -1 wraps to INT_MIN and x % -1 is 0. */
static LLVMValueRef emit_int_divide(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef x, LLVMValueRef y, bool rem) {
  LLVMBuilderRef b = g->b;
  bool s = !is_unsigned(e);
  LLVMValueRef zero = const_like(g, y, 0, 0), ones = const_like(g, y, 0, UINT64_MAX);
  LLVMValueRef by_zero = LLVMBuildICmp(b, LLVMIntEQ, y, zero, "");
  LLVMValueRef by_m1 = s ? LLVMBuildICmp(b, LLVMIntEQ, y, ones, "") : NULL;
  LLVMValueRef safe = LLVMBuildSelect(b, s ? LLVMBuildOr(b, by_zero, by_m1, "") : by_zero, const_like(g, y, 0, 1), y, "");
  LLVMValueRef q = rem ? (s ? LLVMBuildSRem(b, x, safe, "") : LLVMBuildURem(b, x, safe, ""))
                       : (s ? LLVMBuildSDiv(b, x, safe, "") : LLVMBuildUDiv(b, x, safe, ""));
  if (s) q = LLVMBuildSelect(b, by_m1, rem ? zero : LLVMBuildNeg(b, x, ""), q, "");
  return LLVMBuildSelect(b, by_zero, rem ? x : ones, q, "");
}

/* Integer power in the type's width (modulo 2^bits), by squaring over the exponent's bits;
 * a negative signed exponent gives 1 for base 1, +-1 for base -1 and 0 otherwise (the
 * interpreter's int_pow). */
static LLVMValueRef emit_int_power(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef x, LLVMValueRef n) {
  LLVMBuilderRef b = g->b;
  unsigned bits = (unsigned)kiln_elem_bits(e);
  LLVMValueRef zero = const_like(g, x, 0, 0), one = const_like(g, x, 0, 1), ones = const_like(g, x, 0, UINT64_MAX);
  LLVMValueRef r = one, base = x, k = n;
  for (unsigned i = 0; i < bits; i++) {
    LLVMValueRef bit = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, k, one, ""), zero, "");
    r = LLVMBuildSelect(b, bit, LLVMBuildMul(b, r, base, ""), r, "");
    if (i + 1 == bits) break;
    base = LLVMBuildMul(b, base, base, "");
    k = LLVMBuildLShr(b, k, one, "");
  }
  if (is_unsigned(e)) return r;
  LLVMValueRef odd = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, n, one, ""), zero, "");
  LLVMValueRef neg = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, x, one, ""), one,
                                     LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, x, ones, ""),
                                                     LLVMBuildSelect(b, odd, ones, one, ""), zero, ""), "");
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, n, zero, ""), neg, r, "");
}

/* maximum/minimum: NaN if either is NaN, -0 < +0 (LLVM 14 cannot select llvm.maximum on
 * x86, so it is spelled out: equal operands combine their bits, which orders the zeros). */
static LLVMValueRef emit_max_min(kiln_cpu_gen *g, bool max, kiln_elem e, LLVMValueRef x, LLVMValueRef y) {
  if (!is_float(e)) {
    if (is_unsigned(e)) return intr2(g, max ? "llvm.umax" : "llvm.umin", x, y);
    return intr2(g, max ? "llvm.smax" : "llvm.smin", x, y);
  }
  int w = kiln_cpu_width(x);
  LLVMTypeRef it = vec_of(LLVMTypeOf(x) == vec_of(g->f64, w) ? g->i64 : g->i32, w);
  LLVMValueRef pick = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, max ? LLVMRealOGT : LLVMRealOLT, x, y, ""), x, y, "");
  LLVMValueRef xb = LLVMBuildBitCast(g->b, x, it, ""), yb = LLVMBuildBitCast(g->b, y, it, "");
  LLVMValueRef same = LLVMBuildBitCast(g->b, max ? LLVMBuildAnd(g->b, xb, yb, "") : LLVMBuildOr(g->b, xb, yb, ""), LLVMTypeOf(x), "");
  LLVMValueRef r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOEQ, x, y, ""), same, pick, "");
  return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealUNO, x, y, ""), LLVMBuildFAdd(g->b, x, y, ""), r, "");
}

/* reduce_precision of an f32 or f64 x on its bits, as the interpreter's (interp/float_bits.c):
 * the mantissa rounded to mantissa_bits (ties to even), then an exponent beyond
 * exponent_bits' range overflowed to infinity or flushed to a signed zero; a NaN stays as
 * it is (+infinity with no mantissa bits left). NULL when the attributes are missing. */
static LLVMValueRef emit_reduce_precision(kiln_cpu_gen *g, const kiln_op *op, kiln_elem e, LLVMValueRef x) {
  int64_t eb, mb;
  kiln_reduce_precision rp;
  if (!op || !kiln_attr_i64_at(kiln_op_attr(op, "exponent_bits"), 0, &eb) ||
      !kiln_attr_i64_at(kiln_op_attr(op, "mantissa_bits"), 0, &mb) || !kiln_reduce_precision_init(&rp, e, eb, mb))
    return NULL;
  int w = kiln_cpu_width(x);
  LLVMTypeRef it = vec_of(rp.width == 64 ? g->i64 : g->i32, w);
  LLVMValueRef orig = LLVMBuildBitCast(g->b, x, it, ""), v = orig;
  if (rp.dst_m < rp.src_m) {
    int drop = rp.src_m - (int)rp.dst_m;
    uint64_t last = 1ull << drop;
    LLVMValueRef odd = LLVMBuildLShr(g->b, LLVMBuildAnd(g->b, v, const_like(g, v, 0, last), ""), const_like(g, v, 0, (uint64_t)drop), "");
    LLVMValueRef bias = LLVMBuildAdd(g->b, odd, const_like(g, v, 0, (last >> 1) - 1), "");
    v = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, v, bias, ""), const_like(g, v, 0, ~(last - 1)), "");
  }
  if (rp.dst_e < rp.src_e) {
    uint64_t sign = 1ull << (rp.width - 1), exp_mask = ((1ull << rp.src_e) - 1) << rp.src_m;
    uint64_t src_bias = (1ull << (rp.src_e - 1)) - 1, dst_bias = (1ull << (rp.dst_e - 1)) - 1;
    LLVMValueRef ex = LLVMBuildAnd(g->b, v, const_like(g, v, 0, exp_mask), "");
    LLVMValueRef signed_v = LLVMBuildAnd(g->b, v, const_like(g, v, 0, sign), "");
    LLVMValueRef over = LLVMBuildICmp(g->b, LLVMIntUGT, ex, const_like(g, v, 0, (src_bias + dst_bias) << rp.src_m), "");
    LLVMValueRef under = LLVMBuildICmp(g->b, LLVMIntULE, ex, const_like(g, v, 0, (src_bias - dst_bias) << rp.src_m), "");
    v = LLVMBuildSelect(g->b, under, signed_v, v, "");
    v = LLVMBuildSelect(g->b, over, LLVMBuildOr(g->b, signed_v, const_like(g, v, 0, exp_mask), ""), v, "");
  }
  LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
  v = LLVMBuildSelect(g->b, nan, rp.dst_m > 0 ? orig : const_like(g, v, 0, rp.nan_result), v, "");
  return LLVMBuildBitCast(g->b, v, LLVMTypeOf(x), "");
}

static LLVMValueRef emit_shift(kiln_cpu_gen *g, kiln_op_kind k, LLVMValueRef x, LLVMValueRef n) {
  unsigned bits = LLVMGetIntTypeWidth(kiln_cpu_width(x) > 1 ? LLVMGetElementType(LLVMTypeOf(x)) : LLVMTypeOf(x));
  LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGE, n, const_like(g, n, 0, bits), "");
  LLVMValueRef safe = LLVMBuildSelect(g->b, big, const_like(g, n, 0, 0), n, "");
  switch (k) {
    case KILN_OP_SHIFT_LEFT:
      return LLVMBuildSelect(g->b, big, const_like(g, x, 0, 0), LLVMBuildShl(g->b, x, safe, ""), "");
    case KILN_OP_SHIFT_RIGHT_LOGICAL:
      return LLVMBuildSelect(g->b, big, const_like(g, x, 0, 0), LLVMBuildLShr(g->b, x, safe, ""), "");
    default: {
      LLVMValueRef fill = LLVMBuildAShr(g->b, x, const_like(g, x, 0, bits - 1), "");
      return LLVMBuildSelect(g->b, big, fill, LLVMBuildAShr(g->b, x, safe, ""), "");
    }
  }
}

/* Float to integer as convert does it (toward zero, saturating at the type's bounds, NaN
 * to 0: llvm.fptosi.sat's meaning), in ops that vectorise: LLVM 14 expands the saturating
 * intrinsics on x86 one lane at a time (a scalar cvttss2si per element: 1.2 ns an element
 * for f32 to i32 or i8). The value is clamped into the largest float range inside the
 * type's, so that the plain conversion is defined (narrow types go through i32 and are
 * truncated), then a value above that range's top, when the top is not the type's largest
 * integer, becomes it, and a NaN becomes 0. */
static LLVMValueRef float_to_int(kiln_cpu_gen *g, kiln_elem to, LLVMValueRef x, LLVMTypeRef tt) {
  int w = kiln_cpu_width(x);
  if (LLVMGetTypeKind(w > 1 ? LLVMGetElementType(LLVMTypeOf(x)) : LLVMTypeOf(x)) == LLVMHalfTypeKind)
    x = LLVMBuildFPExt(g->b, x, vec_of(g->f32, w), "");
  bool f64 = LLVMGetTypeKind(w > 1 ? LLVMGetElementType(LLVMTypeOf(x)) : LLVMTypeOf(x)) == LLVMDoubleTypeKind;
  bool uns = is_unsigned(to);
  unsigned bits = LLVMGetIntTypeWidth(w > 1 ? LLVMGetElementType(tt) : tt), m = uns ? bits : bits - 1;
  double top = ldexp(1.0, (int)m), lo = uns ? 0.0 : -top; /* the integers are [lo, top) */
  double hi = f64 ? nextafter(top, 0.0) : (double)nextafterf((float)top, 0.0f);
  LLVMValueRef c = intr2(g, "llvm.minnum", intr2(g, "llvm.maxnum", x, const_like(g, x, lo, 0)), const_like(g, x, hi, 0));
  LLVMTypeRef ct = bits < 32 ? vec_of(g->i32, w) : tt;
  LLVMValueRef r = uns && bits >= 32 ? LLVMBuildFPToUI(g->b, c, ct, "") : LLVMBuildFPToSI(g->b, c, ct, "");
  if (bits < 32) r = LLVMBuildTrunc(g->b, r, tt, "");
  uint64_t largest = m == 64 ? UINT64_MAX : (1ull << m) - 1;
  if (m >= 63 || (uint64_t)hi != largest)
    r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, x, const_like(g, x, hi, 0), ""),
                        const_like(g, r, 0, largest), r, "");
  return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, ""), const_like(g, r, 0, 0), r, "");
}

LLVMValueRef kiln_cpu_convert(kiln_cpu_gen *g, kiln_elem from, kiln_elem to, LLVMValueRef x) {
  if (kiln_elem_is_complex(from) || kiln_elem_is_complex(to)) return kiln_cpu_complex_convert(g, from, to, x);
  int w = kiln_cpu_width(x);
  LLVMTypeRef tt = vec_of(compute_type(g, to), w);
  if (is_float(from) && is_float(to)) {
    LLVMTypeRef ft = LLVMTypeOf(x);
    if (ft != tt) x = to == KILN_ELEM_F64 ? LLVMBuildFPExt(g->b, x, tt, "") : LLVMBuildFPTrunc(g->b, x, tt, "");
    return round_storage(g, to, x);
  }
  if (is_float(from)) {
    if (to == KILN_ELEM_I1) return LLVMBuildFCmp(g->b, LLVMRealUNE, x, const_like(g, x, 0, 0), "");
    return float_to_int(g, to, x, tt);
  }
  if (is_float(to)) {
    LLVMValueRef r = is_unsigned(from) ? LLVMBuildUIToFP(g->b, x, tt, "") : LLVMBuildSIToFP(g->b, x, tt, "");
    return round_storage(g, to, r);
  }
  if (to == KILN_ELEM_I1) return LLVMBuildICmp(g->b, LLVMIntNE, x, const_like(g, x, 0, 0), "");
  unsigned fb = LLVMGetIntTypeWidth(compute_type(g, from)), tb = LLVMGetIntTypeWidth(compute_type(g, to));
  if (fb == tb) return x;
  if (fb > tb) return LLVMBuildTrunc(g->b, x, tt, "");
  return is_unsigned(from) ? LLVMBuildZExt(g->b, x, tt, "") : LLVMBuildSExt(g->b, x, tt, "");
}

static LLVMValueRef emit_sign(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef x) {
  if (is_float(e)) {
    LLVMValueRef one = const_like(g, x, 1.0, 0), zero = const_like(g, x, 0.0, 0);
    LLVMValueRef r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, x, zero, ""), one, x, "");
    return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, x, zero, ""), LLVMBuildFNeg(g->b, one, ""), r, "");
  }
  if (is_unsigned(e)) return LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, x, const_like(g, x, 0, 0), ""), LLVMTypeOf(x), "");
  return intr2(g, "llvm.smax", intr2(g, "llvm.smin", x, const_like(g, x, 0, 1)), const_like(g, x, 0, UINT64_MAX));
}

/* One elementwise op on computed operands (elems: the operands' element types). */
/* Whether an op of this kind on these types takes or makes complex numbers (or is
 * real/imag/complex, which loopgen_complex.c owns for every type). */
static bool involves_complex(kiln_op_kind kind, kiln_elem re, kiln_elem e0, kiln_elem e1) {
  return kiln_elem_is_complex(re) || kiln_elem_is_complex(e0) || kind == KILN_OP_REAL || kind == KILN_OP_IMAG ||
         kind == KILN_OP_COMPLEX || (kind == KILN_OP_SELECT && kiln_elem_is_complex(e1));
}

LLVMValueRef kiln_cpu_emit_op(kiln_cpu_gen *g, kiln_op_kind kind, const kiln_op *op, kiln_elem re, const kiln_elem *ae,
                              LLVMValueRef *a) {
  if (involves_complex(kind, re, ae[0], kind == KILN_OP_SELECT ? ae[1] : ae[0]))
    return kiln_cpu_complex_op(g, kind, op, re, ae, a);
  kiln_elem e = ae[0];
  bool f = is_float(e), b1 = e == KILN_ELEM_I1;
  LLVMValueRef r = NULL;
  switch (kind) {
    case KILN_OP_ADD: r = f ? LLVMBuildFAdd(g->b, a[0], a[1], "") : b1 ? LLVMBuildOr(g->b, a[0], a[1], "") : LLVMBuildAdd(g->b, a[0], a[1], ""); break;
    case KILN_OP_SUBTRACT: r = f ? LLVMBuildFSub(g->b, a[0], a[1], "") : LLVMBuildSub(g->b, a[0], a[1], ""); break;
    case KILN_OP_MULTIPLY:
    case KILN_OP_CHLO_SQUARE: { /* chlo.square(x) = x * x */
      LLVMValueRef y = kind == KILN_OP_CHLO_SQUARE ? a[0] : a[1];
      r = f ? LLVMBuildFMul(g->b, a[0], y, "") : b1 ? LLVMBuildAnd(g->b, a[0], y, "") : LLVMBuildMul(g->b, a[0], y, "");
      break;
    }
    case KILN_OP_DIVIDE: r = f ? LLVMBuildFDiv(g->b, a[0], a[1], "") : emit_int_divide(g, e, a[0], a[1], false); break;
    case KILN_OP_REMAINDER: /* frem is fmod: exact, so f16/bf16 computed in f32 round to the same value */
      r = f ? LLVMBuildFRem(g->b, a[0], a[1], "") : emit_int_divide(g, e, a[0], a[1], true);
      break;
    case KILN_OP_MAXIMUM: r = emit_max_min(g, true, e, a[0], a[1]); break;
    case KILN_OP_MINIMUM: r = emit_max_min(g, false, e, a[0], a[1]); break;
    case KILN_OP_NEGATE: r = f ? LLVMBuildFNeg(g->b, a[0], "") : LLVMBuildNeg(g->b, a[0], ""); break;
    case KILN_OP_ABS: {
      if (f) r = intr1(g, "llvm.fabs", a[0]);
      else {
        LLVMValueRef args[2] = {a[0], LLVMConstInt(g->i1, 0, 0)};
        r = kiln_cpu_intrinsic(g, "llvm.abs", args, 2, 1);
      }
      break;
    }
    case KILN_OP_SQRT: r = intr1(g, "llvm.sqrt", a[0]); break;
    case KILN_OP_RSQRT: r = LLVMBuildFDiv(g->b, const_like(g, a[0], 1.0, 0), intr1(g, "llvm.sqrt", a[0]), ""); break;
    case KILN_OP_FLOOR: r = intr1(g, "llvm.floor", a[0]); break;
    case KILN_OP_CEIL: r = intr1(g, "llvm.ceil", a[0]); break;
    case KILN_OP_ROUND_NEAREST_EVEN: r = intr1(g, "llvm.roundeven", a[0]); break;
    case KILN_OP_ROUND_NEAREST_AFZ: r = intr1(g, "llvm.round", a[0]); break;
    case KILN_OP_SIGN: r = emit_sign(g, e, a[0]); break;
    case KILN_OP_NOT: r = LLVMBuildNot(g->b, a[0], ""); break;
    case KILN_OP_AND: r = LLVMBuildAnd(g->b, a[0], a[1], ""); break;
    case KILN_OP_OR: r = LLVMBuildOr(g->b, a[0], a[1], ""); break;
    case KILN_OP_XOR: r = LLVMBuildXor(g->b, a[0], a[1], ""); break;
    case KILN_OP_SHIFT_LEFT:
    case KILN_OP_SHIFT_RIGHT_LOGICAL:
    case KILN_OP_SHIFT_RIGHT_ARITHMETIC: r = emit_shift(g, kind, a[0], a[1]); break;
    case KILN_OP_POPCNT: r = intr1(g, "llvm.ctpop", a[0]); break;
    case KILN_OP_COUNT_LEADING_ZEROS: {
      LLVMValueRef args[2] = {a[0], LLVMConstInt(g->i1, 0, 0)};
      r = kiln_cpu_intrinsic(g, "llvm.ctlz", args, 2, 1);
      break;
    }
    case KILN_OP_COMPARE: return op ? emit_compare(g, op, e, a[0], a[1]) : NULL;
    case KILN_OP_IS_FINITE:
      return LLVMBuildFCmp(g->b, LLVMRealOLT, intr1(g, "llvm.fabs", a[0]), const_like(g, a[0], 1.0 / 0.0, 0), "");
    case KILN_OP_SELECT: return LLVMBuildSelect(g->b, a[0], a[1], a[2], "");
    case KILN_OP_CLAMP: {
      kiln_elem ce = ae[1];
      r = emit_max_min(g, false, ce, emit_max_min(g, true, ce, a[1], a[0]), a[2]);
      return r;
    }
    case KILN_OP_CONVERT: return kiln_cpu_convert(g, e, re, a[0]);
    case KILN_OP_BITCAST_CONVERT: /* same width, compute type = storage type (supports says) */
      return e == re ? a[0] : LLVMBuildBitCast(g->b, a[0], vec_of(compute_type(g, re), kiln_cpu_width(a[0])), "");
    case KILN_OP_ATAN2:
    case KILN_OP_CHLO_POLYGAMMA:
    case KILN_OP_CHLO_ZETA:
    case KILN_OP_CHLO_NEXT_AFTER: r = f ? kiln_cpu_emit_binary_math(g->m, g->b, kind, a[0], a[1]) : NULL; break;
    case KILN_OP_REDUCE_PRECISION: return emit_reduce_precision(g, op, e, a[0]);
    case KILN_OP_POWER: r = f ? kiln_cpu_emit_binary_math(g->m, g->b, kind, a[0], a[1]) : emit_int_power(g, e, a[0], a[1]); break;
    default: r = f ? kiln_cpu_emit_unary_math(g->m, g->b, kind, a[0]) : NULL; break;
  }
  return r && f ? round_storage(g, re, r) : r;
}

/* Whether kiln_cpu_emit_op handles op (checked before fusing it). */
bool kiln_cpu_loopgen_supports(const kiln_op *op) {
  if (op->num_results != 1 || !kiln_type_is_tensor(op->results[0].type) || kiln_type_is_quant_tensor(op->results[0].type))
    return false;
  kiln_elem re = kiln_type_elem(op->results[0].type);
  if (!kiln_cpu_loopgen_elem(re)) return false;
  for (int32_t i = 0; i < op->num_operands; i++) {
    const kiln_type *t = op->operands[i]->type;
    if (!kiln_type_is_tensor(t) || kiln_type_is_quant_tensor(t) || !kiln_cpu_loopgen_elem(kiln_type_elem(t))) return false;
  }
  kiln_elem e = op->num_operands ? kiln_type_elem(op->operands[op->kind == KILN_OP_SELECT || op->kind == KILN_OP_CLAMP ? 1 : 0]->type) : re;
  if (involves_complex(op->kind, re, op->num_operands ? kiln_type_elem(op->operands[0]->type) : re, e))
    return kiln_cpu_complex_supports(op);
  bool f = is_float(e), in = !f;
  switch (op->kind) {
    case KILN_OP_ADD: case KILN_OP_MULTIPLY: case KILN_OP_MAXIMUM: case KILN_OP_MINIMUM: case KILN_OP_SELECT:
    case KILN_OP_CLAMP: case KILN_OP_CONVERT: case KILN_OP_CHLO_SQUARE:
      return true;
    case KILN_OP_SUBTRACT: case KILN_OP_NEGATE: case KILN_OP_ABS: case KILN_OP_SIGN: return e != KILN_ELEM_I1;
    case KILN_OP_DIVIDE: case KILN_OP_REMAINDER: return e != KILN_ELEM_I1;
    case KILN_OP_SQRT: case KILN_OP_RSQRT: case KILN_OP_FLOOR: case KILN_OP_CEIL:
    case KILN_OP_ROUND_NEAREST_EVEN: case KILN_OP_ROUND_NEAREST_AFZ: case KILN_OP_IS_FINITE:
      return f;
    case KILN_OP_NOT: case KILN_OP_AND: case KILN_OP_OR: case KILN_OP_XOR: return in;
    case KILN_OP_SHIFT_LEFT: case KILN_OP_SHIFT_RIGHT_LOGICAL: case KILN_OP_SHIFT_RIGHT_ARITHMETIC:
    case KILN_OP_POPCNT: case KILN_OP_COUNT_LEADING_ZEROS:
      return in && e != KILN_ELEM_I1;
    case KILN_OP_COMPARE: /* TOTALORDER reads raw bits: f16's f32 form quiets a signaling NaN */
      return direction_index(compare_direction(op)) >= 0 && !(compare_is_totalorder(op) && e == KILN_ELEM_F16);
    case KILN_OP_BITCAST_CONVERT: /* f16/bf16 compute in f32, which would not keep a NaN's bits */
      return kiln_elem_bits(e) == kiln_elem_bits(re) && e != KILN_ELEM_F16 && e != KILN_ELEM_BF16 &&
             re != KILN_ELEM_F16 && re != KILN_ELEM_BF16;
    case KILN_OP_ATAN2: return f && kiln_cpu_math_has(op->kind, e == KILN_ELEM_F64);
    case KILN_OP_REDUCE_PRECISION: /* on the storage type's bits: f16/bf16 compute in f32 */
      return (e == KILN_ELEM_F32 || e == KILN_ELEM_F64) && re == e && op->num_operands == 1;
    case KILN_OP_CHLO_NEXT_AFTER: /* a step of the storage type's bits: f16/bf16 compute in f32 */
      return (e == KILN_ELEM_F32 || e == KILN_ELEM_F64) && kiln_cpu_math_has(op->kind, e == KILN_ELEM_F64);
    case KILN_OP_POWER: return f ? kiln_cpu_math_has(op->kind, e == KILN_ELEM_F64) : e != KILN_ELEM_I1;
    default: return f && kiln_cpu_math_has(op->kind, e == KILN_ELEM_F64);
  }
}

LLVMTypeRef kiln_cpu_compute_type(const kiln_cpu_gen *g, kiln_elem e, int w) {
  return kiln_elem_is_complex(e) ? kiln_cpu_complex_type(g, w) : vec_of(compute_type(g, e), w);
}

LLVMValueRef kiln_cpu_const(kiln_cpu_gen *g, kiln_elem e, kiln_scalar v, int w) {
  if (kiln_elem_is_complex(e)) return kiln_cpu_complex_const(g, v, w);
  LLVMTypeRef t = compute_type(g, e);
  LLVMValueRef c = is_float(e) ? LLVMConstReal(t, v.f) : LLVMConstInt(t, e == KILN_ELEM_I1 ? (v.u != 0) : v.u, 0);
  return kiln_cpu_splat(g, c, w);
}
