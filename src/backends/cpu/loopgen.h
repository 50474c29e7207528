/* Internal to the cpu backend's code generator: the LLVM state of one module being built
 * and the element-level emitters (loopgen.c) that the loop nests (loopnest.c) call. */
#ifndef KILN_BACKENDS_CPU_LOOPGEN_H
#define KILN_BACKENDS_CPU_LOOPGEN_H

#include <llvm-c/Core.h>

#include "backends/cpu/loop.h"

typedef struct kiln_cpu_gen {
  LLVMContextRef c;
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, ptr; /* ptr: i8* */
  int vector_bytes; /* one vector register of the target: 64 with AVX-512, else 32 */
  bool f16c;        /* the target has F16C but not AVX512-FP16: f16 vectors round through vcvtps2ph (loopgen.c) */
  bool f16_native;  /* the target has AVX512-FP16: f16 ops may run on half vectors */
  bool quick;       /* quick code (tier.h): forms LLVM compiles quickly where a faster one is slow to */
  int32_t threads;  /* the pool's threads when the code is made (0: unknown), for chunk sizes */
  bool amd;         /* the host is AMD's: column reductions stream in short bands (loopnest.c) */
} kiln_cpu_gen;

/* Gives fn the target attributes of the loops (CPU, features, vector widths): a function
 * the loops are inlined into needs them. */
void kiln_cpu_set_target_attrs(kiln_cpu_gen *g, LLVMValueRef fn, const char *cpu, const char *features);

/* A driver: a function compiled with loops already compiled once (kiln_cpu_code_compile),
 * that calls them itself (a while loop's iterations: while_driver.c). emit adds it to g's
 * module, given the loops' functions (fns[k]: loop k's, internal and always inlined into
 * it), and returns it (NULL on failure); its name and target attributes are set after. */
typedef struct kiln_cpu_driver {
  LLVMValueRef (*emit)(kiln_cpu_gen *g, const LLVMValueRef *fns, const void *ctx);
  const void *ctx;
} kiln_cpu_driver;
#define KILN_CPU_DRIVER_NAME "kiln_driver"

/* The loops and driver d in one module, optimised (the loops inlined into the driver),
 * compiled or loaded from the compile cache as kiln_cpu_code_compile's are; *out_driver:
 * the driver's entry, to be cast to its type. The loops' grains are left as they are. */
kiln_status kiln_cpu_code_compile_driver(kiln_cpu_loop *const *loops, int32_t n, const kiln_cpu_driver *d,
                                         kiln_cpu_code **out_code, void (**out_driver)(void));

/* Loads w elements of type e from base (an i8*) at element `offset`, `stride` elements
 * apart (0: one element, splat), converted to the compute representation (f16/bf16 as
 * f32, i1 as i1). */
LLVMValueRef kiln_cpu_load(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset, int64_t stride, int w);
/* Loads the elements of type e (not complex) at element offsets `offsets` (an i64, or a
 * vector of them: one element per lane) from base, converted as kiln_cpu_load does. */
LLVMValueRef kiln_cpu_load_at(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offsets);
/* An integer index x (compute representation of e, scalar or vector) as i64, clamped into
 * [0, limit] (limit >= 0), as a gather's start index is. */
LLVMValueRef kiln_cpu_clamped_index(kiln_cpu_gen *g, kiln_elem e, LLVMValueRef x, int64_t limit);
/* Stores v (compute representation, width 1 or a vector) densely at element `offset`. */
void kiln_cpu_store(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset, LLVMValueRef v);
/* An elementwise op of kind `kind` (op, when given, supplies attributes: a compare's
 * direction) on computed operands a (element types ae); re: the result's element type.
 * NULL when not supported (kiln_cpu_loopgen_supports says beforehand). */
LLVMValueRef kiln_cpu_emit_op(kiln_cpu_gen *g, kiln_op_kind kind, const kiln_op *op, kiln_elem re, const kiln_elem *ae,
                              LLVMValueRef *a);
/* Converts x (compute representation of from) to to, as stablehlo.convert does. */
LLVMValueRef kiln_cpu_convert(kiln_cpu_gen *g, kiln_elem from, kiln_elem to, LLVMValueRef x);
/* A call of an overloaded LLVM intrinsic ("llvm.fabs"), overloaded on the types of its
 * first num_overloads arguments. */
LLVMValueRef kiln_cpu_intrinsic(kiln_cpu_gen *g, const char *name, LLVMValueRef *args, int n, int num_overloads);
/* The compute-representation type of e (f32 for f16/bf16), vectorised to w lanes. */
LLVMTypeRef kiln_cpu_compute_type(const kiln_cpu_gen *g, kiln_elem e, int w);
/* A constant of the compute type of e, w lanes. */
LLVMValueRef kiln_cpu_const(kiln_cpu_gen *g, kiln_elem e, kiln_scalar v, int w);
/* s (a scalar) in all w lanes (w = 1: s itself). */
LLVMValueRef kiln_cpu_splat(kiln_cpu_gen *g, LLVMValueRef s, int w);
/* The lanes of a computed value (1 for a scalar; a complex value's parts' lanes). */
int kiln_cpu_width(LLVMValueRef v);
/* A compare's comparison_direction: 0..5 for EQ, NE, GE, GT, LE, LT; -1 if none. */
int kiln_cpu_compare_direction(const kiln_op *op);
/* A float constant f of v's type (a scalar or vector of f32/f64). */
LLVMValueRef kiln_cpu_fconst_like(kiln_cpu_gen *g, LLVMValueRef v, double f);

/* ---------------------------------------------------------------- complex values
 * (loopgen_complex.c). complex<f32> and complex<f64> compute as a struct of two f64
 * values (or vectors of w lanes): the real part, then the imaginary part; a complex<f32>
 * result is rounded to f32 parts after every op. The interpreter computes complex numbers
 * in double with C's Annex G arithmetic (libgcc's __muldc3 and __divdc3, glibc's hypot);
 * these emitters replay the same operations, so results are the interpreter's bits. */

/* Whether the generator computes op, one of whose operands or result is complex. */
bool kiln_cpu_complex_supports(const kiln_op *op);
/* {<w x double>, <w x double>} (w = 1: {double, double}). */
LLVMTypeRef kiln_cpu_complex_type(const kiln_cpu_gen *g, int w);
LLVMValueRef kiln_cpu_complex_load(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset, int64_t stride,
                                   int w);
void kiln_cpu_complex_store(kiln_cpu_gen *g, LLVMValueRef base, kiln_elem e, LLVMValueRef offset, LLVMValueRef v);
LLVMValueRef kiln_cpu_complex_const(kiln_cpu_gen *g, kiln_scalar v, int w);
/* An elementwise op with a complex operand or result (kiln_cpu_emit_op's arguments). */
LLVMValueRef kiln_cpu_complex_op(kiln_cpu_gen *g, kiln_op_kind kind, const kiln_op *op, kiln_elem re, const kiln_elem *ae,
                                 LLVMValueRef *a);
/* convert from or to a complex type. */
LLVMValueRef kiln_cpu_complex_convert(kiln_cpu_gen *g, kiln_elem from, kiln_elem to, LLVMValueRef x);

#endif
