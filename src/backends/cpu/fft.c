/* FFT plans and runs (fft.h): factors, twiddles, Bluestein set-up, the order of the axes,
 * and the split of each axis's lines over the thread pool. The passes are fft_kernels.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "backends/cpu/fft_internal.h"
#include "backends/cpu/isa.h"
#include "backends/cpu/pool.h"
#include "base/arena.h"

#define PI_L 3.141592653589793238462643383279502884L

/* Points a group's planes hold beyond a line's: the planes (real, imaginary; two buffers)
 * of a power-of-two length would start at equal addresses modulo the L1 cache's way size,
 * so a pass's streams (a point's real and imaginary parts, read from one buffer, written
 * to the other) would share cache sets and evict one another. An odd number of cache
 * lines apart they do not: fft_filter_large's two transforms of 64 x 4096 on one Zen 3
 * core 2.87 -> 1.72 ms (2026-12-03). */
enum { PLANE_PAD = 3 };

/* Lines at least this long get a four-step split for when they run one lane wide. */
enum { FOUR_MIN = 1024 };

typedef enum where { AT_IN, AT_OUT, AT_TMP } where;

struct kiln_fft_plan {
  bool f64;
  const kiln_fft_kernels *kernels; /* the host's widest ISA under KILN_CPU_ISA */
  int32_t num_axes;             /* 0: an empty result, nothing to do */
  kiln_fft_axis axes[KILN_FFT_MAX_AXES]; /* in run order */
  where from[KILN_FFT_MAX_AXES], to[KILN_FFT_MAX_AXES];
  int64_t tmp_bytes;            /* IRFFT over several axes: a complex copy of the operand */
};

static kiln_status oom(void) { return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "fft: out of memory"); }

/* e^(-2 pi i m / n), the angle reduced to [-pi/4, pi/4] around a quarter turn first. */
static void unit_root(int64_t m, int64_t n, long double *re, long double *im) {
  m %= n;
  int64_t q = (4 * m + n / 2) / n, rem = 4 * m - q * n; /* m/n turns = q/4 + rem/(4n) */
  long double t = PI_L / 2 * (long double)rem / (long double)n, c = cosl(t), s = sinl(t), x, y;
  switch (q & 3) {
    case 0: x = c, y = s; break;
    case 1: x = -s, y = c; break;
    case 2: x = -c, y = -s; break;
    default: x = s, y = -c; break;
  }
  *re = x;
  *im = -y;
}

static void put(void *array, bool f64, int64_t i, long double re, long double im) {
  if (f64) ((double *)array)[2 * i] = (double)re, ((double *)array)[2 * i + 1] = (double)im;
  else ((float *)array)[2 * i] = (float)re, ((float *)array)[2 * i + 1] = (float)im;
}

static void *complex_array(bool f64, int64_t n) { return calloc((size_t)n + 1, f64 ? 2 * sizeof(double) : 2 * sizeof(float)); }

/* The factors of n in pass order (4s, a 2, odd primes ascending); false when one exceeds
 * KILN_FFT_MAX_RADIX. */
static bool factor(int64_t n, int32_t *radix, int32_t *count) {
  *count = 0;
  while (n % 4 == 0) radix[(*count)++] = 4, n /= 4;
  if (n % 2 == 0) radix[(*count)++] = 2, n /= 2;
  for (int64_t p = 3; p * p <= n; p += 2)
    while (n % p == 0) {
      if (p > KILN_FFT_MAX_RADIX) return false;
      radix[(*count)++] = (int32_t)p, n /= p;
    }
  if (n > 1) {
    if (n > KILN_FFT_MAX_RADIX) return false;
    radix[(*count)++] = (int32_t)n;
  }
  return true;
}

/* The smallest 2^a 3^b 5^c >= x. */
static int64_t smooth_at_least(int64_t x) {
  int64_t best = INT64_MAX;
  for (int64_t p5 = 1; p5 < 2 * x; p5 *= 5)
    for (int64_t p3 = p5; p3 < 2 * x; p3 *= 3) {
      int64_t v = p3;
      while (v < x) v *= 2;
      if (v < best) best = v;
    }
  return best;
}

/* Whether n >= 2 is prime (trial division: plan time only). */
static bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; d++)
    if (n % d == 0) return false;
  return true;
}

/* The passes' cost in point-passes: a pass of radix up to KILN_FFT_SMALL_RADIX costs 1 a
 * point (the fixed-radix passes), a larger one p / 4 (the generic pass's sums grow with p). */
static double passes_cost(int64_t n, const int32_t *radix, int32_t count) {
  double c = 0;
  for (int32_t i = 0; i < count; i++) c += radix[i] <= KILN_FFT_SMALL_RADIX ? 1.0 : radix[i] / 4.0;
  return c * (double)n;
}

/* A rough cost of a forward line of length n, and its method: the passes where its factors
 * allow, else the cheaper convolution, one costing its two transforms of length m and three
 * passes over its points. */
static double line_cost(int64_t n, kiln_fft_method *method, int64_t *m) {
  int32_t radix[KILN_FFT_MAX_STAGES], count;
  kiln_fft_method unused_method;
  int64_t unused_m;
  if (factor(n, radix, &count)) {
    *method = KILN_FFT_PASSES, *m = 0;
    return passes_cost(n, radix, count);
  }
  int64_t mb = smooth_at_least(2 * n - 1);
  factor(mb, radix, &count);
  double bluestein = 2 * passes_cost(mb, radix, count) + 3.0 * (double)mb;
  *method = KILN_FFT_BLUESTEIN, *m = mb;
  /* Rader for primes whose products mod n fit in 64 bits */
  if (n < ((int64_t)1 << 31) && is_prime(n)) {
    double rader = 2 * line_cost(n - 1, &unused_method, &unused_m) + 3.0 * (double)n;
    if (rader < bluestein) {
      *method = KILN_FFT_RADER, *m = n - 1;
      return rader;
    }
  }
  return bluestein;
}

kiln_fft_method kiln_fft_line_method(int64_t n, int64_t *conv_length) {
  kiln_fft_method method = KILN_FFT_PASSES;
  *conv_length = 0;
  if (n >= 1) line_cost(n, &method, conv_length);
  return method;
}

/* The points a group's buffers hold for l: its own, its convolution's and those its
 * convolution's plan needs in turn. */
static int64_t line_points(const kiln_fft_line *l) {
  int64_t p = l->n > l->m ? l->n : l->m;
  if (l->conv) {
    int64_t c = line_points(l->conv);
    if (c > p) p = c;
  }
  return p;
}

/* The elements a transform of l one lane wide needs after its two buffers: the wide
 * groups' buffers of a four-step split (its own, or its convolution's). */
static int64_t line_work(const kiln_fft_line *l) {
  return l->four ? 4 * l->four->planes : l->conv ? line_work(l->conv) : 0;
}

/* The passes over the points a transform of l makes, counting a convolution's copies. */
static int64_t line_passes(const kiln_fft_line *l) {
  return l->conv ? 2 * line_passes(l->conv) + 3 : l->num_stages;
}

/* b^e mod n, n < 2^31. */
static int64_t pow_mod(int64_t b, int64_t e, int64_t n) {
  int64_t r = 1 % n;
  for (b %= n; e; e >>= 1, b = b * b % n)
    if (e & 1) r = r * b % n;
  return r;
}

/* The smallest primitive root mod a prime n < 2^31: g whose powers g^((n-1)/f) differ
 * from 1 for every prime factor f of n - 1. */
static int64_t primitive_root(int64_t n) {
  int64_t f[64], nf = 0, r = n - 1;
  for (int64_t d = 2; d * d <= r; d++)
    if (r % d == 0) {
      f[nf++] = d;
      while (r % d == 0) r /= d;
    }
  if (r > 1) f[nf++] = r;
  for (int64_t g = 2;; g++) {
    bool ok = true;
    for (int64_t i = 0; ok && i < nf; i++) ok = pow_mod(g, (n - 1) / f[i], n) != 1;
    if (ok) return g;
  }
}

static void line_free(kiln_fft_line *l) {
  if (!l) return;
  free(l->tw);
  free(l->chirp);
  free(l->kernel);
  free(l->gen);
  if (l->conv) line_free(l->conv);
  free(l->conv);
  if (l->four) {
    if (l->four->first) line_free(l->four->first);
    if (l->four->second) line_free(l->four->second);
    free(l->four->first);
    free(l->four->second);
    free(l->four->tw);
    free(l->four);
  }
  memset(l, 0, sizeof *l);
}

static kiln_status line_create(kiln_fft_line *l, int64_t n, bool f64, bool split);

/* The convolution of l (n, method and m set): its plan of length m, Bluestein's chirp or
 * Rader's generator powers, and the kernel's spectrum, transformed in double. */
static kiln_status conv_create(kiln_fft_line *l, bool f64) {
  int64_t n = l->n, m = l->m;
  bool rader = l->method == KILN_FFT_RADER;
  l->conv = calloc(1, sizeof *l->conv);
  if (!l->conv) return oom();
  KILN_RETURN_IF_ERROR(line_create(l->conv, m, f64, true));
  kiln_fft_line dconv = {0};
  kiln_status st = f64 ? NULL : line_create(&dconv, m, true, true);
  const kiln_fft_line *dl = f64 ? l->conv : &dconv;
  int64_t planes = st ? 0 : line_points(dl);
  l->kernel = complex_array(f64, m);
  if (rader) l->gen = calloc((size_t)m, sizeof *l->gen);
  else l->chirp = complex_array(f64, n);
  double *a = st ? NULL : calloc(4 * (size_t)planes + (size_t)line_work(dl) + 4, sizeof *a);
  if (!st && (!l->kernel || (rader ? !l->gen : !l->chirp) || !a)) st = oom();
  if (!st && rader) {
    /* gen[q] = g^q; the kernel's sequence e^(-2 pi i g^-q / n), g^-q = gen[(m - q) % m] */
    int64_t g = primitive_root(n), x = 1;
    for (int64_t q = 0; q < m; q++, x = x * g % n) l->gen[q] = x;
    for (int64_t q = 0; q < m; q++) {
      long double re, im;
      unit_root(l->gen[(m - q) % m], n, &re, &im);
      a[q] = (double)re, a[planes + q] = (double)im;
    }
  } else if (!st) {
    /* c_j = e^(-i pi j^2 / n): j^2 mod 2n kept exactly; the kernel's sequence conj(c),
     * wrapped */
    int64_t sq = 0;
    for (int64_t j = 0; j < n; j++) {
      long double re, im;
      unit_root(sq, 2 * n, &re, &im);
      put(l->chirp, f64, j, re, im);
      a[j] = (double)re, a[planes + j] = (double)-im;
      if (j) a[m - j] = (double)re, a[planes + m - j] = (double)-im;
      sq += 2 * j + 1;
      while (sq >= 2 * n) sq -= 2 * n;
    }
  }
  if (!st) {
    double *r = kiln_fft_kernels_sse2.line_f64(dl, a, a + 2 * planes, planes);
    for (int64_t k = 0; k < m; k++) put(l->kernel, f64, k, r[k] / (double)m, r[planes + k] / (double)m);
  }
  free(a);
  line_free(&dconv);
  return st;
}

/* The four-step split of l (its passes made) when its length has one: n1 and n2 = n / n1
 * multiples of the wide groups' lanes, n1 the smallest such at least sqrt(n). */
static kiln_status four_create(kiln_fft_line *l, bool f64) {
  int64_t n = l->n, lanes = f64 ? KILN_FFT_LANES_F64 : KILN_FFT_LANES_F32, n1 = 0;
  for (int64_t d = lanes; !n1 && n >= FOUR_MIN && d <= n / lanes; d += lanes)
    if (n % d == 0 && (n / d) % lanes == 0 && d >= n / d) n1 = d;
  if (!n1) return NULL;
  int64_t n2 = n / n1;
  kiln_fft_four *f = l->four = calloc(1, sizeof *f);
  if (!f) return oom();
  f->n1 = n1, f->n2 = n2;
  f->first = calloc(1, sizeof *f->first);
  f->second = calloc(1, sizeof *f->second);
  f->tw = calloc(2 * (size_t)n, f64 ? sizeof(double) : sizeof(float));
  if (!f->first || !f->second || !f->tw) return oom();
  KILN_RETURN_IF_ERROR(line_create(f->first, n2, f64, false));
  KILN_RETURN_IF_ERROR(line_create(f->second, n1, f64, false));
  int64_t p1 = line_points(f->first), p2 = line_points(f->second);
  f->planes = ((p1 > p2 ? p1 : p2) + PLANE_PAD) * lanes;
  for (int64_t k2 = 0; k2 < n2; k2++)
    for (int64_t j1 = 0; j1 < n1; j1++) {
      long double re, im;
      unit_root(j1 * k2, n, &re, &im);
      int64_t at = k2 * n1 + j1;
      if (f64) ((double *)f->tw)[at] = (double)re, ((double *)f->tw)[n + at] = (double)im;
      else ((float *)f->tw)[at] = (float)re, ((float *)f->tw)[n + at] = (float)im;
    }
  return NULL;
}

/* A forward line plan of length n >= 1; split: with a four-step split where it has one. */
static kiln_status line_create(kiln_fft_line *l, int64_t n, bool f64, bool split) {
  memset(l, 0, sizeof *l);
  l->n = n;
  line_cost(n, &l->method, &l->m);
  if (l->method != KILN_FFT_PASSES) return conv_create(l, f64);
  int32_t radix[KILN_FFT_MAX_STAGES], count;
  factor(n, radix, &count);
  int64_t ns = 1, total = 0;
  for (int32_t i = 0; i < count; i++) {
    kiln_fft_stage *s = &l->stages[i];
    s->p = radix[i];
    s->ns = ns;
    s->tw = total;
    total += (int64_t)(s->p - 1) * ns;
    s->roots = total;
    if (s->p % 2) total += s->p;
    ns *= s->p;
  }
  l->num_stages = count;
  if (!(l->tw = complex_array(f64, total))) return oom();
  for (int32_t i = 0; i < count; i++) {
    const kiln_fft_stage *s = &l->stages[i];
    long double re, im;
    for (int64_t k = 0; k < s->ns; k++)
      for (int32_t r = 1; r < s->p; r++) {
        unit_root(r * k, s->ns * s->p, &re, &im);
        put(l->tw, f64, s->tw + k * (s->p - 1) + r - 1, re, im);
      }
    if (s->p % 2)
      for (int32_t u = 0; u < s->p; u++) {
        unit_root(u, s->p, &re, &im);
        put(l->tw, f64, s->roots + u, re, im);
      }
  }
  return split ? four_create(l, f64) : NULL;
}

/* Axis d of a tensor of dims[rank] (src and dst differ only along d): n points, src_len
 * and dst_len along d. */
static kiln_status axis_create(kiln_fft_axis *ax, kiln_fft_kind kind, bool inverse, bool f64, int64_t n,
                               int32_t rank, const int64_t *dims, int32_t d, int64_t src_len, int64_t dst_len) {
  *ax = (kiln_fft_axis){.kind = kind, .inverse = inverse, .n = n, .src_len = src_len, .dst_len = dst_len,
                        .outer = 1, .inner = 1};
  for (int32_t i = 0; i < d; i++) ax->outer *= dims[i];
  for (int32_t i = d + 1; i < rank; i++) ax->inner *= dims[i];
  ax->half = kind != KILN_FFT_C2C && n % 2 == 0;
  int64_t len = ax->half ? n / 2 : n;
  KILN_RETURN_IF_ERROR(line_create(&ax->line, len, f64, true));
  ax->buf = line_points(&ax->line) + PLANE_PAD;
  if (ax->half) {
    if (!(ax->split = complex_array(f64, n / 2 + 1))) return oom();
    for (int64_t k = 0; k <= n / 2; k++) {
      long double re, im;
      unit_root(k, n, &re, &im);
      put(ax->split, f64, k, re, im);
    }
  }
  return NULL;
}

void kiln_fft_line_naive(const kiln_fft_axis *ax, bool f64, const void *src, void *dst, int64_t line, double *scratch) {
  const int64_t n = ax->n, h = n / 2, st = ax->inner, o = line / ax->inner, i = line % ax->inner;
  const int64_t sb = o * ax->src_len * st + i, db = o * ax->dst_len * st + i;
  bool real_in = ax->kind == KILN_FFT_R2C, real_out = ax->kind == KILN_FFT_C2R;
  double *x = scratch, *y = scratch + 2 * n;
  for (int64_t j = 0; j < n; j++) {
    int64_t m = real_out && j > h ? n - j : j; /* the Hermitian extension */
    int64_t at = real_in ? sb + m * st : 2 * (sb + m * st);
    x[2 * j] = f64 ? ((const double *)src)[at] : ((const float *)src)[at];
    x[2 * j + 1] = real_in ? 0.0 : f64 ? ((const double *)src)[at + 1] : ((const float *)src)[at + 1];
    if (m != j) x[2 * j + 1] = -x[2 * j + 1];
  }
  for (int64_t k = 0; k < n; k++) {
    double re = 0, im = 0;
    for (int64_t j = 0; j < n; j++) {
      long double wr, wi;
      unit_root(j * k % n, n, &wr, &wi);
      if (ax->inverse) wi = -wi;
      re += x[2 * j] * (double)wr - x[2 * j + 1] * (double)wi;
      im += x[2 * j] * (double)wi + x[2 * j + 1] * (double)wr;
    }
    double scale = ax->inverse ? 1.0 / (double)n : 1.0;
    y[2 * k] = re * scale, y[2 * k + 1] = im * scale;
  }
  int64_t outs = ax->kind == KILN_FFT_R2C ? h + 1 : n;
  for (int64_t k = 0; k < outs; k++) {
    int64_t at = real_out ? db + k * st : 2 * (db + k * st);
    if (f64) {
      ((double *)dst)[at] = y[2 * k];
      if (!real_out) ((double *)dst)[at + 1] = y[2 * k + 1];
    } else {
      ((float *)dst)[at] = (float)y[2 * k];
      if (!real_out) ((float *)dst)[at + 1] = (float)y[2 * k + 1];
    }
  }
}

void kiln_fft_plan_destroy(kiln_fft_plan *p) {
  if (!p) return;
  for (int32_t i = 0; i < KILN_FFT_MAX_AXES; i++) {
    line_free(&p->axes[i].line);
    free(p->axes[i].split);
  }
  free(p);
}

/* The widest build of the passes that the host runs and the cap allows. */
static const kiln_fft_kernels *pick_kernels(kiln_cpu_isa_cap cap) {
  __builtin_cpu_init();
  if (cap != KILN_CPU_ISA_AVX2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl"))
    return &kiln_fft_kernels_avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &kiln_fft_kernels_avx2;
  return &kiln_fft_kernels_sse2;
}

static const char *const k_type_names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};

kiln_status kiln_fft_plan_create(kiln_fft_type type, bool f64, int32_t rank, const int64_t *dims, int32_t num_lengths,
                                 const int64_t *lengths, kiln_fft_plan **out) {
  *out = NULL;
  if (type < KILN_FFT_FFT || type > KILN_FFT_IRFFT)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "fft: unknown fft_type %d", (int)type);
  if (rank < 1 || rank > KILN_FFT_MAX_RANK || num_lengths < 1 || num_lengths > KILN_FFT_MAX_AXES || num_lengths > rank)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "fft: %d fft_length entries for an operand of rank %d (1 to %d, at most the rank %d)",
                       (int)num_lengths, (int)rank, KILN_FFT_MAX_AXES, KILN_FFT_MAX_RANK);
  int32_t first = rank - num_lengths, last = rank - 1;
  int64_t odims[KILN_FFT_MAX_RANK], count = 1, in_count = 1;
  for (int32_t d = 0; d < rank; d++) {
    if (dims[d] < 0) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "fft: operand dimension %d is negative", (int)d);
    odims[d] = dims[d];
    if (d < first) continue;
    int64_t len = lengths[d - first];
    if (len < 0) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "fft: fft_length[%d] = %lld is negative", (int)(d - first), (long long)len);
    bool ok = dims[d] == len;
    if (type == KILN_FFT_IRFFT && d == last) ok = dims[d] == len / 2 + 1 || (len == 0 && dims[d] == 0), odims[d] = len;
    if (type == KILN_FFT_RFFT && d == last && len > 0) odims[d] = len / 2 + 1;
    if (!ok)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "fft: %s operand dimension %d has size %lld, but fft_length[%d] is %lld",
                         k_type_names[type], (int)d, (long long)dims[d], (int)(d - first), (long long)len);
  }
  for (int32_t d = 0; d < rank; d++)
    if (!kiln_mul_i64(count, odims[d], &count) || !kiln_mul_i64(in_count, dims[d], &in_count))
      return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "fft: the tensor sizes overflow");
  kiln_cpu_isa_cap cap;
  KILN_RETURN_IF_ERROR(kiln_cpu_isa_setup(&cap));
  kiln_fft_plan *p = calloc(1, sizeof *p);
  if (!p) return oom();
  p->f64 = f64;
  p->kernels = pick_kernels(cap);
  kiln_status st = NULL;
  if (count > 0 && in_count > 0) {
    bool inverse = type == KILN_FFT_IFFT || type == KILN_FFT_IRFFT;
    /* forward transforms start with the last axis (RFFT halves it), inverse ones end
     * with it (IRFFT expands it); the first axis reads the operand, the others work in
     * place on the result (or, before IRFFT's last, on a complex copy of the operand) */
    for (int32_t i = 0; !st && i < num_lengths; i++) {
      int32_t d = inverse ? first + i : last - i;
      kiln_fft_kind kind = d != last ? KILN_FFT_C2C : type == KILN_FFT_RFFT ? KILN_FFT_R2C
                                                  : type == KILN_FFT_IRFFT ? KILN_FFT_C2R : KILN_FFT_C2C;
      /* IRFFT's axes before the last work on the operand's shape, the others on the
       * result's; only the last axis of RFFT and IRFFT changes size */
      bool on_operand = type == KILN_FFT_IRFFT;
      const int64_t *shape = on_operand ? dims : odims;
      p->from[i] = i == 0 ? AT_IN : on_operand ? AT_TMP : AT_OUT;
      p->to[i] = on_operand && d != last ? AT_TMP : AT_OUT;
      st = axis_create(&p->axes[i], kind, inverse, f64, lengths[d - first], rank, shape, d, dims[d], odims[d]);
      p->num_axes = i + 1;
    }
    if (type == KILN_FFT_IRFFT && num_lengths > 1) p->tmp_bytes = in_count * (f64 ? 16 : 8);
  }
  if (st) {
    kiln_fft_plan_destroy(p);
    return st;
  }
  *out = p;
  return NULL;
}

/* ---------------------------------------------------------------- runs */

typedef struct run_job {
  const kiln_fft_axis *ax;
  kiln_fft_group_fn wide_fn, narrow_fn;
  int32_t lanes;
  const void *src;
  void *dst;
  uint8_t *scratch;
  size_t per_thread;
  int64_t wide, units; /* groups of lanes lines, then single lines */
  int64_t work;        /* points touched, for the pool's cost model */
  int32_t chunks;
} run_job;

static void run_chunk(void *ctx, int32_t c, int32_t thread) {
  const run_job *j = ctx;
  void *mine = j->scratch + j->per_thread * (size_t)thread;
  for (int64_t u = j->units * c / j->chunks; u < j->units * (c + 1) / j->chunks; u++) {
    if (u < j->wide) j->wide_fn(j->ax, j->src, j->dst, u * j->lanes, mine);
    else j->narrow_fn(j->ax, j->src, j->dst, j->wide * j->lanes + (u - j->wide), mine);
  }
}

/* How axis i of p splits: its job (without pointers) and the scratch each thread needs. */
static run_job axis_job(const kiln_fft_plan *p, int32_t i, kiln_cpu_pool *pool, int32_t *threads) {
  const kiln_fft_axis *ax = &p->axes[i];
  int32_t lanes = p->f64 ? KILN_FFT_LANES_F64 : KILN_FFT_LANES_F32;
  int64_t lines = ax->outer * ax->inner;
  const kiln_fft_kernels *k = p->kernels;
  run_job j = {.ax = ax, .lanes = lanes, .wide_fn = p->f64 ? k->f64_wide : k->f32_wide,
               .narrow_fn = p->f64 ? k->f64_one : k->f32_one};
  j.wide = lines / lanes;
  j.units = j.wide + lines % lanes;
  /* two buffers of two planes (a line one lane wide: and the wide buffers of its four-step
   * split after them); at least 4 n doubles for kiln_fft_line_naive */
  size_t es = p->f64 ? sizeof(double) : sizeof(float), naive = (size_t)ax->n * 4 * sizeof(double);
  size_t wide = j.wide ? (size_t)ax->buf * (size_t)lanes * 4 * es : 0;
  size_t narrow = j.units > j.wide ? ((size_t)ax->buf * 4 + (size_t)line_work(&ax->line)) * es : 0;
  size_t most = wide > narrow ? wide : narrow;
  j.per_thread = ((most > naive ? most : naive) + 63) / 64 * 64;
  int64_t passes = line_passes(&ax->line) + 2;
  j.work = lines * ax->buf * passes;
  j.chunks = kiln_cpu_pool_chunks(pool, j.work, j.units);
  *threads = j.chunks > 1 ? kiln_cpu_pool_threads(pool) : 1;
  return j;
}

kiln_status kiln_fft_run(const kiln_fft_plan *p, const void *in, void *out) {
  if (!p->num_axes) return NULL;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  run_job jobs[KILN_FFT_MAX_AXES];
  size_t scratch_bytes = 0;
  for (int32_t i = 0; i < p->num_axes; i++) {
    int32_t threads;
    jobs[i] = axis_job(p, i, pool, &threads);
    size_t need = jobs[i].per_thread * (size_t)threads;
    if (need > scratch_bytes) scratch_bytes = need;
  }
  uint64_t total = (uint64_t)p->tmp_bytes + scratch_bytes;
  uint8_t *block = kiln_host_alloc(total);
  if (!block) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "fft: out of memory for %llu bytes of scratch",
                                 (unsigned long long)total);
  void *tmp = block + scratch_bytes;
  for (int32_t i = 0; i < p->num_axes; i++) {
    run_job *j = &jobs[i];
    j->src = p->from[i] == AT_IN ? in : p->from[i] == AT_TMP ? tmp : out;
    j->dst = p->to[i] == AT_TMP ? tmp : out;
    j->scratch = block;
    kiln_cpu_pool_run(pool, j->chunks, j->work, run_chunk, j);
  }
  kiln_host_free(block, total);
  return NULL;
}

/* ---------------------------------------------------------------- the op */

kiln_status kiln_cpu_fft_prepare(const kiln_op *op, kiln_fft_plan **out) {
  *out = NULL;
  if (op->num_operands != 1 || op->num_results != 1) return NULL;
  const kiln_type *t = op->operands[0]->type, *r = op->results[0].type;
  if (!kiln_type_is_tensor(t) || !kiln_type_is_static(t) || kiln_type_is_quant_tensor(t) || !kiln_type_is_tensor(r) ||
      !kiln_type_is_static(r) || t->tensor.rank < 1 || t->tensor.rank > KILN_FFT_MAX_RANK)
    return NULL;
  const kiln_attr *ta = kiln_op_attr(op, "fft_type"), *la = kiln_op_attr(op, "fft_length");
  const char *name = ta && ta->kind == KILN_ATTR_ENUM ? ta->enumv.value : NULL;
  int32_t type = -1;
  for (int32_t i = 0; name && i < 4; i++)
    if (!strcmp(name, k_type_names[i])) type = i;
  int64_t nl = la ? kiln_attr_count(la) : 0, lengths[KILN_FFT_MAX_AXES];
  if (type < 0 || nl < 1 || nl > KILN_FFT_MAX_AXES) return NULL;
  for (int64_t i = 0; i < nl; i++)
    if (!kiln_attr_i64_at(la, i, &lengths[i])) return NULL;
  kiln_elem e = kiln_type_elem(t);
  bool real_in = type == KILN_FFT_RFFT, f64 = e == KILN_ELEM_F64 || e == KILN_ELEM_C128;
  if (real_in ? e != KILN_ELEM_F32 && e != KILN_ELEM_F64 : e != KILN_ELEM_C64 && e != KILN_ELEM_C128) return NULL;
  return kiln_fft_plan_create((kiln_fft_type)type, f64, t->tensor.rank, t->tensor.dims, (int32_t)nl, lengths, out);
}
