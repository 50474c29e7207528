/* The instruction set the cpu backend targets: the host's, or a lower one named by the
 * environment variable KILN_CPU_ISA, so that one machine can generate code and choose
 * library kernels as a smaller host would (an AVX-512 machine testing the AVX2 path):
 *
 *   KILN_CPU_ISA=native   (or unset) everything the host has
 *   KILN_CPU_ISA=avx512   AVX-512 up to BF16/VNNI: no AMX, no AVX512-FP16
 *   KILN_CPU_ISA=avx2     AVX2 and FMA only: no AVX-512 instructions, 256-bit vectors
 *
 * A cap never raises the ISA above the host's. It applies to the generated loops (LLVM's
 * target features, jit.c) and to oneDNN (dnnl_set_max_cpu_isa, before its first
 * primitive); the vector width of the loops follows (loopnest.c). */
#ifndef KILN_BACKENDS_CPU_ISA_H
#define KILN_BACKENDS_CPU_ISA_H

#include <stdbool.h>

#include "kiln/status.h"

typedef enum kiln_cpu_isa_cap {
  KILN_CPU_ISA_NATIVE,
  KILN_CPU_ISA_AVX512,
  KILN_CPU_ISA_AVX2,
} kiln_cpu_isa_cap;

/* Reads KILN_CPU_ISA (once per process) and caps oneDNN. Call before any use of oneDNN.
 * Writes the cap to *out_cap when out_cap is not NULL. INVALID_ARGUMENT for a value other
 * than those above; FAILED_PRECONDITION when oneDNN already runs kernels above the cap
 * (something in this process used it before). Each call returns a new status (the same
 * one every time). Thread-safe. */
kiln_status kiln_cpu_isa_setup(kiln_cpu_isa_cap *out_cap);

/* The ISA in use, for reports: oneDNN's name of it ("avx512_core_bf16", "avx2", ...),
 * with " (capped by KILN_CPU_ISA=avx2)" when a cap is set; "unknown" when the setup
 * failed. Static storage. Thread-safe. */
const char *kiln_cpu_isa_describe(void);

/* Whether oneDNN's kernels in use (under the cap) have VNNI (AVX512_VNNI or AVX_VNNI):
 * dot products of 8-bit integers summed in i32 with no i16 saturation on the way, so its
 * i8 x i8 -> i32 matmuls are exact. false when the setup failed. Thread-safe. */
bool kiln_cpu_isa_has_vnni(void);

/* Whether the host's CPU is AMD's (CPUID's vendor), whose hardware prefetchers want
 * another shape of streaming loop than Intel's (loopnest.c: column reductions). Thread-safe. */
bool kiln_cpu_host_is_amd(void);

#endif
