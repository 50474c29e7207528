/* Vectorised transcendental functions emitted as LLVM IR (CPU backend).
 *
 * Each entry point emits y = op(x) (or op(x, y)) at the builder's current position, for x of
 * type float, double, <N x float> or <N x double>. The code is straight-line (selects, no
 * calls to libm or any external symbol), so it vectorises at any width; the one branch is
 * the f64 sin/cos/tan reduction's, to a Payne-Hanek path (with a constant table of 2/pi's
 * digits in m) taken only when some lane is 2^26 or more. The
 * function body for each (op, type) pair is added to module m once, as an internal
 * `alwaysinline` function named "kiln.math.<op>.<type>", and reused; run LLVM's
 * always-inliner (any -O pipeline does) to fold it into the caller.
 *
 * Accuracy (checked by tests/backends/cpu/test_llvm_math.c against long double libm): f32
 * results within 2 ULP, f64 within 3 ULP over the whole domain (erfc: 3.4; lgamma,
 * digamma and bessel_i1e: see llvm_math_gamma.c and llvm_math_bessel.c), with IEEE special values
 * (NaN, +-inf, signed zeros, denormals, overflow/underflow thresholds). No fast-math flags
 * are used; the code relies on llvm.fma being exact (it is lowered to a hardware FMA on
 * x86-64 with FMA3/AVX-512, or to a correctly rounded libcall elsewhere).
 *
 * Ownership: nothing is allocated that the caller must free; the new functions belong to m.
 * Thread-safety: as LLVM's: one thread at a time per LLVMContext (m and b must share one).
 */
#ifndef KILN_BACKENDS_CPU_LLVM_MATH_H
#define KILN_BACKENDS_CPU_LLVM_MATH_H

#include <llvm-c/Core.h>

#include "ir/ir.h" /* kiln_op_kind from src/ir/ops.def, e.g. KILN_OP_EXPONENTIAL */

#ifdef __cplusplus
extern "C" {
#endif

/* Whether any lane of the i1 vector mask (or the i1 mask itself) is set, as one i1 at b's
 * position: the condition of a branch to code only some lanes need. */
LLVMValueRef kiln_cpu_any_lane(LLVMBuilderRef b, LLVMValueRef mask);

/* Emits y = op(x) at the builder's position for x of type float, double, <N x float> or
 * <N x double>. Helper functions it needs are added to module m once (internal linkage,
 * alwaysinline) and reused. Returns NULL when the op/type pair is not one it implements
 * (the caller then falls back). */
LLVMValueRef kiln_cpu_emit_unary_math(LLVMModuleRef m, LLVMBuilderRef b, kiln_op_kind kind,
                                      LLVMValueRef x);

/* The same for the binary ops ATAN2 (atan2(x, y): x is the numerator, as stablehlo.atan2's
 * lhs), POWER (x**y) and CHLO_NEXT_AFTER (a step of x's bits toward y, in x's own type:
 * computing f16 in f32 would step by an f32 ULP); x and y must have the same type. Returns
 * NULL otherwise. */
LLVMValueRef kiln_cpu_emit_binary_math(LLVMModuleRef m, LLVMBuilderRef b, kiln_op_kind kind,
                                       LLVMValueRef x, LLVMValueRef y);

/* Whether kind is one of the ops above (each has a float and a double kernel; f64 names
 * the type asked for). */
bool kiln_cpu_math_has(kiln_op_kind kind, bool f64);

/* The time of one element of kind's f32 kernel, in units of an f32 add's (measured: the
 * table in llvm_math.c); 0 when kind is not one of the ops above. The thread pool's cost
 * model weighs loops with it. */
int32_t kiln_cpu_math_cost(kiln_op_kind kind);

#ifdef __cplusplus
}
#endif

#endif /* KILN_BACKENDS_CPU_LLVM_MATH_H */
