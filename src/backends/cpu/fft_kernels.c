/* The FFT passes (fft_lanes.h) instantiated for f32 and f64, LANES lines at a time and one
 * line at a time (fft_internal.h). */
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

double *kiln_fft_line_f64(const kiln_fft_line *l, double *a, double *b, int64_t planes) {
  return transform_f64x1(l, a, b, planes);
}
