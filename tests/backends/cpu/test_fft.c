/* The cpu backend's FFT (src/backends/cpu/fft.h) against a long-double reference: every
 * fft_type in f32 and f64, lengths 1 to 64, primes (Rader; Bluestein for 167, 263 and
 * 262 = 2 x 131), powers of two up to 2^16 (four-step splits from 1024), 2-D and 3-D
 * transforms, batches that fill whole groups of lanes and leave lines over, batches large
 * enough to go to the thread pool; then empty tensors, the errors of plans that do not
 * fit, and which method each length takes. The reference is the DFT from its definition
 * (or, for powers of two from 64, a recursive radix-2 FFT) in long double, axis by axis as
 * the StableHLO spec defines the op. The largest error, relative to the largest result
 * magnitude, must stay within a few eps * log2 n. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/fft.h"
#include "expect.h"

typedef long double ld;
typedef struct lc {
  ld re, im;
} lc;

static const ld k_pi = 3.141592653589793238462643383279502884L;

static uint64_t g_rng = 88172645463325252ull;
static double rnd(void) { /* [-1, 1) */
  g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
  return (double)(g_rng >> 11) / 4503599627370496.0 - 1.0;
}

/* in place: x[0..n) <- sum_j x_j e^(sign 2 pi i j k / n) */
static void ref_fft_pow2(lc *x, int64_t n, int sign) {
  if (n == 1) return;
  lc *e = malloc(sizeof(lc) * (size_t)n / 2), *o = malloc(sizeof(lc) * (size_t)n / 2);
  for (int64_t j = 0; j < n / 2; j++) e[j] = x[2 * j], o[j] = x[2 * j + 1];
  ref_fft_pow2(e, n / 2, sign);
  ref_fft_pow2(o, n / 2, sign);
  for (int64_t k = 0; k < n / 2; k++) {
    ld a = sign * 2 * k_pi * (ld)k / (ld)n, c = cosl(a), s = sinl(a);
    lc t = {o[k].re * c - o[k].im * s, o[k].re * s + o[k].im * c};
    x[k] = (lc){e[k].re + t.re, e[k].im + t.im};
    x[k + n / 2] = (lc){e[k].re - t.re, e[k].im - t.im};
  }
  free(e);
  free(o);
}

static void ref_dft(lc *x, int64_t n, int sign) {
  if (n >= 64 && !(n & (n - 1))) {
    ref_fft_pow2(x, n, sign);
    return;
  }
  lc *y = calloc((size_t)n, sizeof(lc)), *w = malloc(sizeof(lc) * (size_t)n);
  for (int64_t m = 0; m < n; m++) {
    ld a = sign * 2 * k_pi * (ld)m / (ld)n;
    w[m] = (lc){cosl(a), sinl(a)};
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t m = 0;
    for (int64_t j = 0; j < n; j++) {
      y[k].re += x[j].re * w[m].re - x[j].im * w[m].im;
      y[k].im += x[j].re * w[m].im + x[j].im * w[m].re;
      if ((m += k) >= n) m -= n;
    }
  }
  memcpy(x, y, sizeof(lc) * (size_t)n);
  free(y);
  free(w);
}

/* Transforms axis d of buf (dims; n_out points along d afterwards) into a new array. */
static lc *ref_axis(const lc *buf, int32_t rank, int64_t *dims, int32_t d, int64_t n, int64_t n_out, int sign,
                    bool hermitian) {
  int64_t outer = 1, inner = 1, n_in = dims[d];
  for (int32_t i = 0; i < d; i++) outer *= dims[i];
  for (int32_t i = d + 1; i < rank; i++) inner *= dims[i];
  lc *out = calloc((size_t)(outer * n_out * inner) + 1, sizeof(lc)), *line = calloc((size_t)n + 1, sizeof(lc));
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      for (int64_t j = 0; j < n; j++) {
        int64_t m = hermitian && j > n / 2 ? n - j : j;
        lc v = m < n_in ? buf[(o * n_in + m) * inner + i] : (lc){0, 0};
        if (hermitian && (j == 0 || 2 * j == n)) v.im = 0;
        line[j] = m != j ? (lc){v.re, -v.im} : v;
      }
      ref_dft(line, n, sign);
      for (int64_t k = 0; k < n_out; k++) {
        lc v = line[k];
        if (sign > 0) v.re /= (ld)n, v.im /= (ld)n;
        out[(o * n_out + k) * inner + i] = v;
      }
    }
  free(line);
  dims[d] = n_out;
  return out;
}

static int64_t product(int32_t rank, const int64_t *dims) {
  int64_t c = 1;
  for (int32_t i = 0; i < rank; i++) c *= dims[i];
  return c;
}

static const char *const k_names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};

/* One case: random operand, plan, run, reference; returns the error relative to eps. */
static void check_case(kiln_fft_type type, bool f64, int32_t rank, const int64_t *dims, int32_t nl,
                       const int64_t *len) {
  bool real_in = type == KILN_FFT_RFFT, real_out = type == KILN_FFT_IRFFT;
  int32_t first = rank - nl, last = rank - 1;
  int64_t odims[16];
  memcpy(odims, dims, sizeof(int64_t) * (size_t)rank);
  if (type == KILN_FFT_RFFT) odims[last] = len[nl - 1] / 2 + 1;
  if (type == KILN_FFT_IRFFT) odims[last] = len[nl - 1];
  int64_t in_n = product(rank, dims), out_n = product(rank, odims);
  size_t es = f64 ? 8 : 4;
  size_t in_bytes = (size_t)in_n * es * (real_in ? 1 : 2), out_bytes = (size_t)out_n * es * (real_out ? 1 : 2);
  void *in = malloc(in_bytes + 16), *out = malloc(out_bytes + 16);
  lc *ref = calloc((size_t)in_n + 1, sizeof(lc));
  for (int64_t i = 0; i < in_n; i++) {
    double re = rnd(), im = real_in ? 0.0 : rnd();
    if (f64) {
      ((double *)in)[real_in ? i : 2 * i] = re;
      if (!real_in) ((double *)in)[2 * i + 1] = im;
    } else {
      re = (float)re, im = (float)im;
      ((float *)in)[real_in ? i : 2 * i] = (float)re;
      if (!real_in) ((float *)in)[2 * i + 1] = (float)im;
    }
    ref[i] = (lc){re, im};
  }
  char what[200];
  int w = snprintf(what, sizeof what, "%s %s dims [", k_names[type], f64 ? "f64" : "f32");
  for (int32_t i = 0; i < rank; i++) w += snprintf(what + w, sizeof what - (size_t)w, "%s%lld", i ? "," : "", (long long)dims[i]);
  w += snprintf(what + w, sizeof what - (size_t)w, "] length [");
  for (int32_t i = 0; i < nl; i++) w += snprintf(what + w, sizeof what - (size_t)w, "%s%lld", i ? "," : "", (long long)len[i]);
  snprintf(what + w, sizeof what - (size_t)w, "]");
  kiln_fft_plan *p = NULL;
  kiln_status st = kiln_fft_plan_create(type, f64, rank, dims, nl, len, &p);
  EXPECT(!st, "%s: plan: %s", what, st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  if (p) {
    st = kiln_fft_run(p, in, out);
    EXPECT(!st, "%s: run: %s", what, st ? kiln_status_message(st) : "");
    kiln_status_free(st);
    /* the reference, axis by axis as the interpreter does */
    int64_t cur[16];
    memcpy(cur, dims, sizeof(int64_t) * (size_t)rank);
    int sign = type == KILN_FFT_FFT || type == KILN_FFT_RFFT ? -1 : 1;
    for (int32_t s = 0; s < nl; s++) {
      int32_t d = sign < 0 ? last - s : first + s;
      lc *next = ref_axis(ref, rank, cur, d, len[d - first], d == last ? odims[last] : cur[d], sign,
                          type == KILN_FFT_IRFFT && d == last);
      free(ref);
      ref = next;
    }
    ld big = 0, err = 0;
    for (int64_t i = 0; i < out_n; i++) {
      ld gr, gi = 0;
      if (f64) gr = ((double *)out)[real_out ? i : 2 * i], gi = real_out ? 0 : ((double *)out)[2 * i + 1];
      else gr = ((float *)out)[real_out ? i : 2 * i], gi = real_out ? 0 : ((float *)out)[2 * i + 1];
      ld wi = real_out ? 0 : ref[i].im;
      big = fmaxl(big, fmaxl(fabsl(ref[i].re), fabsl(wi)));
      ld e = fmaxl(fabsl(gr - ref[i].re), fabsl(gi - wi));
      if (!(e <= err)) err = e; /* NaN sticks */
    }
    ld total = 1;
    for (int32_t i = 0; i < nl; i++) total *= (ld)(len[i] > 1 ? len[i] : 2);
    ld eps = f64 ? 0x1p-52L : 0x1p-23L, bound = 4 * eps * log2l(total) + eps;
    ld rel = big > 0 ? err / big : err;
    EXPECT(rel <= bound, "%s: error %.3Lg of the largest magnitude (%.2Lf eps), bound %.2Lf eps", what, rel, rel / eps,
           bound / eps);
  }
  kiln_fft_plan_destroy(p);
  free(in);
  free(out);
  free(ref);
}

/* Every type and precision for one shape (the fft dims are the last nl of dims, written
 * as the lengths; IRFFT's operand gets len / 2 + 1 along the last). */
static void check_all(int32_t rank, const int64_t *shape, int32_t nl) {
  const int64_t *len = shape + rank - nl;
  for (int t = 0; t < 4; t++)
    for (int f = 0; f < 2; f++) {
      int64_t dims[16];
      memcpy(dims, shape, sizeof(int64_t) * (size_t)rank);
      if (t == KILN_FFT_IRFFT) dims[rank - 1] = len[nl - 1] / 2 + 1;
      check_case((kiln_fft_type)t, f == 1, rank, dims, nl, len);
    }
}

static void check_errors(void) {
  kiln_fft_plan *p = NULL;
  int64_t dims[2] = {3, 8}, bad_len[1] = {7}, len[1] = {8}, neg[1] = {-2};
  kiln_status st = kiln_fft_plan_create(KILN_FFT_FFT, false, 2, dims, 1, bad_len, &p);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && !p &&
             strstr(kiln_status_message(st), "dimension 1 has size 8, but fft_length[0] is 7"),
         "a length that does not fit: %s", st ? kiln_status_message(st) : "no error");
  kiln_status_free(st);
  st = kiln_fft_plan_create(KILN_FFT_IRFFT, false, 2, dims, 1, len, &p); /* needs 5 */
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && !p, "IRFFT operand of 8 for length 8");
  kiln_status_free(st);
  st = kiln_fft_plan_create(KILN_FFT_FFT, false, 2, dims, 3, len, &p);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && !p, "more lengths than the rank");
  kiln_status_free(st);
  st = kiln_fft_plan_create(KILN_FFT_FFT, false, 2, dims, 1, neg, &p);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && !p, "a negative length");
  kiln_status_free(st);
  st = kiln_fft_plan_create((kiln_fft_type)7, false, 2, dims, 1, len, &p);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_INVALID_ARGUMENT && !p, "an unknown type");
  kiln_status_free(st);
  /* empty tensors: a plan that does nothing */
  int64_t empty[3] = {4, 0, 6}, elen[1] = {6}, zero_len[1] = {0}, zdims[2] = {3, 0};
  st = kiln_fft_plan_create(KILN_FFT_RFFT, true, 3, empty, 1, elen, &p);
  EXPECT(!st && p, "an empty batch");
  if (p) {
    kiln_status r = kiln_fft_run(p, NULL, NULL);
    EXPECT(!r, "an empty batch runs");
    kiln_status_free(r);
  }
  kiln_fft_plan_destroy(p);
  kiln_status_free(st);
  st = kiln_fft_plan_create(KILN_FFT_FFT, false, 2, zdims, 1, zero_len, &p);
  EXPECT(!st && p, "a length of 0");
  kiln_fft_plan_destroy(p);
  kiln_status_free(st);
  /* primes go through Rader unless n - 1 has a large prime factor (167 = 2 * 83 + 1);
   * other lengths with a large prime factor through Bluestein */
  static const struct {
    int64_t n;
    kiln_fft_method method;
    int64_t conv;
  } methods[] = {{61, KILN_FFT_PASSES, 0},    {64, KILN_FFT_PASSES, 0},     {97, KILN_FFT_RADER, 96},
                 {1009, KILN_FFT_RADER, 1008}, {167, KILN_FFT_BLUESTEIN, 360}, {2018, KILN_FFT_BLUESTEIN, 4050},
                 {3329, KILN_FFT_RADER, 3328}};
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
    int64_t conv = -1;
    kiln_fft_method got = kiln_fft_line_method(methods[i].n, &conv);
    EXPECT(got == methods[i].method && conv == methods[i].conv, "line of %lld: method %d, convolution %lld",
           (long long)methods[i].n, (int)got, (long long)conv);
  }
}

/* Lines holding an infinity or a NaN take the DFT's definition (fft_lanes.h): IRFFT's
 * ignored imaginary parts of X_0 and X_(n/2) count there too (the interpreter reads them),
 * so a NaN in one makes its whole line NaN; the group's other lines stay finite. */
static void check_non_finite(void) {
  static const struct {
    kiln_fft_type type;
    int64_t len, at; /* the complex point whose imaginary part is NaN */
  } cases[] = {{KILN_FFT_IRFFT, 8, 0}, {KILN_FFT_IRFFT, 8, 4}, {KILN_FFT_IRFFT, 7, 0}, {KILN_FFT_FFT, 8, 5}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    for (int f = 0; f < 2; f++) {
      bool irfft = cases[c].type == KILN_FFT_IRFFT;
      int64_t lines = 37, len = cases[c].len, width = irfft ? len / 2 + 1 : len, dims[2] = {lines, width};
      int64_t out_width = irfft ? len : 2 * len, bad = 20;
      double *in = calloc((size_t)(2 * lines * width), sizeof(double)), *out = calloc((size_t)(lines * out_width), sizeof(double));
      for (int64_t i = 0; i < 2 * lines * width; i++) in[i] = rnd();
      in[2 * (bad * width + cases[c].at) + 1] = NAN;
      if (!f) /* to f32 in place */
        for (int64_t i = 0; i < 2 * lines * width; i++) ((float *)in)[i] = (float)in[i];
      kiln_fft_plan *p = NULL;
      kiln_status st = kiln_fft_plan_create(cases[c].type, f == 1, 2, dims, 1, &len, &p);
      EXPECT(!st && p, "plan %s %lld", k_names[cases[c].type], (long long)len);
      kiln_status r = p ? kiln_fft_run(p, in, out) : NULL;
      EXPECT(!r, "run: %s", r ? kiln_status_message(r) : "");
      kiln_status_free(r);
      int64_t nan_bad = 0, nan_other = 0;
      for (int64_t l = 0; l < lines; l++)
        for (int64_t j = 0; j < out_width; j++) {
          double v = f ? out[l * out_width + j] : ((float *)out)[l * out_width + j];
          if (l == bad) nan_bad += isnan(v);
          else nan_other += !isfinite(v);
        }
      EXPECT(nan_bad == out_width && nan_other == 0,
             "%s length %lld (%s), NaN imaginary part at point %lld of one line: %lld of its %lld results NaN, "
             "%lld non-finite elsewhere",
             k_names[cases[c].type], (long long)len, f ? "f64" : "f32", (long long)cases[c].at, (long long)nan_bad,
             (long long)out_width, (long long)nan_other);
      kiln_fft_plan_destroy(p);
      kiln_status_free(st);
      free(in);
      free(out);
    }
}

int main(void) {
  /* lengths 1 to 64: batch 3 (single lines) and 37 (groups of lanes and lines over) */
  for (int64_t n = 1; n <= 64; n++) {
    int64_t a[2] = {3, n}, b[2] = {37, n};
    check_all(2, a, 1);
    check_all(2, b, 1);
  }
  /* primes through Bluestein, and their neighbours */
  static const int64_t primes[] = {97, 127, 1009, 67, 122, 1000, 167, 262, 263};
  for (size_t i = 0; i < sizeof primes / sizeof *primes; i++) {
    int64_t a[2] = {17, primes[i]};
    check_all(2, a, 1);
  }
  /* a Rader convolution run one lane wide through a four-step split (3328 = 208 x 16) */
  int64_t long_prime[2] = {1, 3329};
  for (int f = 0; f < 2; f++) check_case(KILN_FFT_FFT, f == 1, 2, long_prime, 1, long_prime + 1);
  /* powers of two up to 2^16 (from 1024 one lane wide by four-step splits) */
  for (int64_t n = 128; n <= 65536; n *= 2) {
    int64_t a[2] = {n <= 4096 ? 9 : 1, n};
    check_all(2, a, 1);
  }
  /* 2-D and 3-D, batched, odd and even sizes, a Bluestein axis */
  static const int64_t shapes2[][3] = {{2, 8, 8}, {3, 5, 6}, {1, 12, 7}, {2, 97, 4}, {4, 1, 16}, {2, 16, 1}};
  for (size_t i = 0; i < sizeof shapes2 / sizeof *shapes2; i++) check_all(3, shapes2[i], 2);
  static const int64_t shapes3[][4] = {{2, 4, 6, 8}, {1, 3, 5, 7}, {3, 9, 2, 10}, {1, 16, 16, 16}};
  for (size_t i = 0; i < sizeof shapes3 / sizeof *shapes3; i++) check_all(4, shapes3[i], 3);
  /* enough work for the thread pool */
  int64_t big[2] = {512, 1024}, big3[3] = {8, 64, 128};
  check_all(2, big, 1);
  check_all(3, big3, 2);
  check_errors();
  check_non_finite();
  return test_summary();
}
