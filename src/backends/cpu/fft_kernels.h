/* The FFT passes (fft_lanes.h) instantiated for f32 and f64, LANES lines at a time and one
 * line at a time, for one instruction set: included once by each fft_kernels_<isa>.c,
 * which the build compiles for that ISA (cmake/cpu.cmake) after defining
 *   FFT_TABLE   the name of the kiln_fft_kernels table to define (fft_internal.h).
 * The one-line instantiations run four-step splits through the wide ones (FFT_WIDE).
 * Everything else here is static to that translation unit. No include guard. */
#include "backends/cpu/fft_internal.h"

/* Copies of rows by register transposes where the build has 256-bit vectors (used by the
 * instantiations that define FFT_COPY_IN, FFT_COPY_OUT and FFT_SLOT). */
#ifdef __AVX2__
#include "backends/cpu/fft_transpose.h"
#endif

#define FFT_T float
#define FFT_L KILN_FFT_LANES_F32
#define FFT_NAME(x) x##_f32x16
#ifdef __AVX2__
#define FFT_COPY_IN fft_copy_in_f32x16
#define FFT_COPY_OUT fft_copy_out_f32x16
#define FFT_SLOT FFT_SLOT_F32
#endif
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME
#undef FFT_COPY_IN
#undef FFT_COPY_OUT
#undef FFT_SLOT

#define FFT_T float
#define FFT_L 1
#define FFT_NAME(x) x##_f32x1
#define FFT_WIDE(x) x##_f32x16
#define FFT_WIDE_L KILN_FFT_LANES_F32
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME
#undef FFT_WIDE
#undef FFT_WIDE_L

#define FFT_T double
#define FFT_L KILN_FFT_LANES_F64
#define FFT_NAME(x) x##_f64x8
#ifdef __AVX2__
#define FFT_COPY_IN fft_copy_in_f64x8
#define FFT_COPY_OUT fft_copy_out_f64x8
#define FFT_SLOT FFT_SLOT_F64
#endif
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME
#undef FFT_COPY_IN
#undef FFT_COPY_OUT
#undef FFT_SLOT

#define FFT_T double
#define FFT_L 1
#define FFT_NAME(x) x##_f64x1
#define FFT_WIDE(x) x##_f64x8
#define FFT_WIDE_L KILN_FFT_LANES_F64
#include "backends/cpu/fft_lanes.h"
#undef FFT_T
#undef FFT_L
#undef FFT_NAME
#undef FFT_WIDE
#undef FFT_WIDE_L

const kiln_fft_kernels FFT_TABLE = {
    .f32_wide = group_f32x16, .f32_one = group_f32x1, .f64_wide = group_f64x8, .f64_one = group_f64x1,
    .line_f64 = transform_f64x1,
};
