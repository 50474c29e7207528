/* The FFT passes (fft_lanes.h) instantiated for f32 and f64, LANES lines at a time and one
 * line at a time, for one instruction set: included once by each fft_kernels_<isa>.c,
 * which the build compiles for that ISA (cmake/cpu.cmake) after defining
 *   FFT_TABLE   the name of the kiln_fft_kernels table to define (fft_internal.h).
 * Everything else here is static to that translation unit. No include guard. */
#include "backends/cpu/fft_internal.h"

#define FFT_T float
#define FFT_L KILN_FFT_LANES_F32
#define FFT_NAME(x) x##_f32x16
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME

#define FFT_T float
#define FFT_L 1
#define FFT_NAME(x) x##_f32x1
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME

#define FFT_T double
#define FFT_L KILN_FFT_LANES_F64
#define FFT_NAME(x) x##_f64x8
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME

#define FFT_T double
#define FFT_L 1
#define FFT_NAME(x) x##_f64x1
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME

const kiln_fft_kernels FFT_TABLE = {
    .f32_wide = group_f32x16, .f32_one = group_f32x1, .f64_wide = group_f64x8, .f64_one = group_f64x1,
    .line_f64 = transform_f64x1,
};
