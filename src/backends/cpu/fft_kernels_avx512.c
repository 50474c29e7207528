/* The FFT passes built for avx512 (compile flags in cmake/cpu.cmake); fft.c picks a table by
 * the host and KILN_CPU_ISA. */
#define FFT_TABLE kiln_fft_kernels_avx512
#include "backends/cpu/fft_kernels.h"
