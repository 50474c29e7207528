/* Vector constants of generated code read from one table per function (const_table.c).
 *
 * The JIT's code model is the large one (code and data may be mapped far apart), so every
 * constant-pool read is a 64-bit address materialised (movabs) then a load or broadcast.
 * A loop whose constants outnumber the vector registers (a polynomial's coefficients: 16
 * ymm registers on an AVX2 host) rematerialises each of them at each use: two or three
 * instructions where one would do. Reading them instead from one table, whose address
 * stays in a general register, lets each use be a memory operand of the instruction
 * itself (exact GELU through erfc over 1M f32 on a Zen 3 host: 2.05 -> 1.56 ms,
 * 2026-12-05).
 *
 * Scalar floats likewise (a loop's remainder, the scalar code of loops' bodies).
 *
 * Not thread-safe for one module; modules in different contexts may be rewritten at once. */
#ifndef KILN_BACKENDS_CPU_CONST_TABLE_H
#define KILN_BACKENDS_CPU_CONST_TABLE_H

#include <llvm-c/Core.h>

/* Rewrites each function of m (optimised, its data layout set) so that its vector
 * constants and floating-point scalars that an instruction can read from memory (operands of floating-point
 * arithmetic, compares, selects, bitwise ops, integer adds and subtracts, and calls; not
 * zeros, all-ones integers, shift amounts, divisors or multipliers, which the code
 * generator turns into cheaper code when it sees them) are loaded, at each use, from an
 * internal table of the function's constants. Leaves the module as it is where memory
 * runs out. */
void kiln_cpu_constants_to_table(LLVMModuleRef m);

#endif
