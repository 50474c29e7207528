/* The FFT passes for one element precision and lane count: a template, included by
 * fft_kernels.h once per instantiation with
 *   FFT_T       float or double
 *   FFT_L       lanes (lines transformed together)
 *   FFT_NAME(x) x with the instantiation's suffix
 *   FFT_WIDE(x), FFT_WIDE_L  (one-line instantiations only) the wide instantiation of the
 *               same type and its lanes, for four-step splits
 * A group's data lives in planes: point e of lane v at re[e * FFT_L + v] and
 * im[e * FFT_L + v], im = re + planes. Every loop over v has FFT_L iterations, which the
 * compiler turns into vector operations. No include guard: it is meant to be included
 * several times. */

/* Lanes never overlap one another: the compiler is told so (its run-time alias checks
 * give up on a butterfly's many streams, leaving scalar code). */
#if defined(__clang__)
#define LANES _Pragma("clang loop vectorize(assume_safety)") for (int32_t v = 0; v < FFT_L; v++)
#elif defined(__GNUC__)
#define LANES _Pragma("GCC ivdep") for (int32_t v = 0; v < FFT_L; v++)
#else
#define LANES for (int32_t v = 0; v < FFT_L; v++)
#endif

/* y = x * w (complex, lanes of x and y; w one number) */
#define CMUL_INTO(yr, yi, xr, xi, wr, wi)                         \
  do {                                                            \
    FFT_T tr_ = (xr) * (wr) - (xi) * (wi);                        \
    (yi) = (xr) * (wi) + (xi) * (wr);                             \
    (yr) = tr_;                                                   \
  } while (0)

/* One Stockham pass of radix 2 or 4 from x to y (planes apart). Twiddles of 1 (k = 0) are
 * multiplied too, exactly for finite points (lines with others take the naive path), so
 * the loops over lanes have no branch and vectorise. */
static inline __attribute__((always_inline)) void FFT_NAME(pass24)(const int32_t p, const kiln_fft_line *l,
                                                                 const kiln_fft_stage *s, const FFT_T *restrict x,
                                                                 FFT_T *restrict y, int64_t planes) {
  const int64_t ns = s->ns, q = l->n / p, nb = l->n / (p * ns);
  const FFT_T *tw = (const FFT_T *)l->tw + 2 * s->tw;
  for (int64_t k = 0; k < ns; k++) {
    FFT_T wr[3], wi[3];
    for (int32_t r = 1; r < p; r++) wr[r - 1] = tw[2 * (k * (p - 1) + r - 1)], wi[r - 1] = tw[2 * (k * (p - 1) + r - 1) + 1];
    for (int64_t b = 0; b < nb; b++) {
      const FFT_T *xr = x + (b * ns + k) * FFT_L, *xi = xr + planes;
      FFT_T *yr = y + (b * ns * p + k) * FFT_L, *yi = yr + planes;
      if (p == 2) {
        const FFT_T *x1r = xr + q * FFT_L, *x1i = xi + q * FFT_L;
        FFT_T *y1r = yr + ns * FFT_L, *y1i = yi + ns * FFT_L;
        LANES {
          FFT_T ar = x1r[v], ai = x1i[v];
          CMUL_INTO(ar, ai, ar, ai, wr[0], wi[0]);
          FFT_T br = xr[v], bi = xi[v];
          yr[v] = br + ar, yi[v] = bi + ai;
          y1r[v] = br - ar, y1i[v] = bi - ai;
        }
      } else {
        const int64_t xs = q * FFT_L, ys = ns * FFT_L;
        LANES {
          FFT_T a0r = xr[v], a0i = xi[v], a1r = xr[xs + v], a1i = xi[xs + v];
          FFT_T a2r = xr[2 * xs + v], a2i = xi[2 * xs + v], a3r = xr[3 * xs + v], a3i = xi[3 * xs + v];
          CMUL_INTO(a1r, a1i, a1r, a1i, wr[0], wi[0]);
          CMUL_INTO(a2r, a2i, a2r, a2i, wr[1], wi[1]);
          CMUL_INTO(a3r, a3i, a3r, a3i, wr[2], wi[2]);
          FFT_T t0r = a0r + a2r, t0i = a0i + a2i, t1r = a0r - a2r, t1i = a0i - a2i;
          FFT_T t2r = a1r + a3r, t2i = a1i + a3i, t3r = a1r - a3r, t3i = a1i - a3i;
          yr[v] = t0r + t2r, yi[v] = t0i + t2i;
          yr[2 * ys + v] = t0r - t2r, yi[2 * ys + v] = t0i - t2i;
          /* -i * t3 = (t3i, -t3r) */
          yr[ys + v] = t1r + t3i, yi[ys + v] = t1i - t3r;
          yr[3 * ys + v] = t1r - t3i, yi[3 * ys + v] = t1i + t3r;
        }
      }
    }
  }
}

/* One Stockham pass of an odd radix p (above KILN_FFT_SMALL_RADIX up to KILN_FFT_MAX_RADIX;
 * the smaller ones take pass_small): pairs r and p - r give
 * y_u = a_0 + sum_r cos(2 pi u r / p) (a_r + a_(p-r)) -/+ i sin(2 pi u r / p) (a_r - a_(p-r))
 * for y_u and y_(p-u). */
static void FFT_NAME(pass_odd)(const kiln_fft_line *l, const kiln_fft_stage *s, const FFT_T *restrict x,
                               FFT_T *restrict y, int64_t planes) {
  const int32_t p = s->p, h = p / 2;
  const int64_t ns = s->ns, q = l->n / p, nb = l->n / (p * ns);
  const FFT_T *tw = (const FFT_T *)l->tw + 2 * s->tw, *root = (const FFT_T *)l->tw + 2 * s->roots;
  FFT_T sr[KILN_FFT_MAX_RADIX / 2][FFT_L], si[KILN_FFT_MAX_RADIX / 2][FFT_L];
  FFT_T dr[KILN_FFT_MAX_RADIX / 2][FFT_L], di[KILN_FFT_MAX_RADIX / 2][FFT_L];
  for (int64_t k = 0; k < ns; k++) {
    const FFT_T *w = tw + 2 * k * (p - 1);
    for (int64_t b = 0; b < nb; b++) {
      const FFT_T *xr = x + (b * ns + k) * FFT_L, *xi = xr + planes;
      FFT_T *yr = y + (b * ns * p + k) * FFT_L, *yi = yr + planes;
      FFT_T a0r[FFT_L], a0i[FFT_L];
      LANES a0r[v] = xr[v], a0i[v] = xi[v];
      for (int32_t r = 1; r <= h; r++) {
        const FFT_T *ur = xr + r * q * FFT_L, *ui = xi + r * q * FFT_L;
        const FFT_T *vr = xr + (p - r) * q * FFT_L, *vi = xi + (p - r) * q * FFT_L;
        FFT_T w1r = w[2 * (r - 1)], w1i = w[2 * (r - 1) + 1], w2r = w[2 * (p - r - 1)], w2i = w[2 * (p - r - 1) + 1];
        LANES {
          FFT_T br = ur[v], bi = ui[v], cr = vr[v], ci = vi[v];
          CMUL_INTO(br, bi, br, bi, w1r, w1i);
          CMUL_INTO(cr, ci, cr, ci, w2r, w2i);
          sr[r - 1][v] = br + cr, si[r - 1][v] = bi + ci;
          dr[r - 1][v] = br - cr, di[r - 1][v] = bi - ci;
        }
      }
      LANES {
        FFT_T tr = a0r[v], ti = a0i[v];
        for (int32_t r = 0; r < h; r++) tr += sr[r][v], ti += si[r][v];
        yr[v] = tr, yi[v] = ti;
      }
      for (int32_t u = 1; u <= h; u++) {
        FFT_T ar[FFT_L], ai[FFT_L], br[FFT_L], bi[FFT_L];
        LANES ar[v] = a0r[v], ai[v] = a0i[v], br[v] = 0, bi[v] = 0;
        int32_t m = 0;
        for (int32_t r = 1; r <= h; r++) {
          m += u;
          if (m >= p) m -= p;
          /* root m = cos - i sin: c = root[2m], sn = -root[2m + 1] */
          FFT_T c = root[2 * m], sn = -root[2 * m + 1];
          LANES {
            ar[v] += c * sr[r - 1][v], ai[v] += c * si[r - 1][v];
            br[v] += sn * dr[r - 1][v], bi[v] += sn * di[r - 1][v];
          }
        }
        FFT_T *zr = yr + u * ns * FFT_L, *zi = yi + u * ns * FFT_L;
        FFT_T *cr = yr + (p - u) * ns * FFT_L, *ci = yi + (p - u) * ns * FFT_L;
        /* y_u = A - iB, y_(p-u) = A + iB */
        LANES {
          zr[v] = ar[v] + bi[v], zi[v] = ai[v] - br[v];
          cr[v] = ar[v] - bi[v], ci[v] = ai[v] + br[v];
        }
      }
    }
  }
}

/* pass_odd for a radix fixed when compiled (3, 5, 7): the same sums, in the same order,
 * with the whole butterfly in one loop over the lanes, so its terms stay in registers. */
static inline __attribute__((always_inline)) void FFT_NAME(pass_small)(const int32_t p, const kiln_fft_line *l,
                                                                     const kiln_fft_stage *s, const FFT_T *restrict x,
                                                                     FFT_T *restrict y, int64_t planes) {
  enum { H = KILN_FFT_SMALL_RADIX / 2 };
  const int32_t h = p / 2;
  const int64_t ns = s->ns, q = l->n / p, nb = l->n / (p * ns);
  const FFT_T *tw = (const FFT_T *)l->tw + 2 * s->tw, *root = (const FFT_T *)l->tw + 2 * s->roots;
  FFT_T cs[H][H], sn[H][H]; /* cos and sin of 2 pi u r / p, u and r in [1, h] */
  for (int32_t u = 1; u <= h; u++)
    for (int32_t r = 1; r <= h; r++) cs[u - 1][r - 1] = root[2 * (u * r % p)], sn[u - 1][r - 1] = -root[2 * (u * r % p) + 1];
  for (int64_t k = 0; k < ns; k++) {
    const FFT_T *w = tw + 2 * k * (p - 1);
    FFT_T wr[2 * H], wi[2 * H];
    for (int32_t r = 0; r < p - 1; r++) wr[r] = w[2 * r], wi[r] = w[2 * r + 1];
    for (int64_t b = 0; b < nb; b++) {
      const FFT_T *xr = x + (b * ns + k) * FFT_L, *xi = xr + planes;
      FFT_T *yr = y + (b * ns * p + k) * FFT_L, *yi = yr + planes;
      LANES {
        FFT_T sr[H], si[H], dr[H], di[H];
        FFT_T a0r = xr[v], a0i = xi[v], tr = a0r, ti = a0i;
        for (int32_t r = 1; r <= h; r++) {
          FFT_T br = xr[r * q * FFT_L + v], bi = xi[r * q * FFT_L + v];
          FFT_T cr = xr[(p - r) * q * FFT_L + v], ci = xi[(p - r) * q * FFT_L + v];
          CMUL_INTO(br, bi, br, bi, wr[r - 1], wi[r - 1]);
          CMUL_INTO(cr, ci, cr, ci, wr[p - r - 1], wi[p - r - 1]);
          sr[r - 1] = br + cr, si[r - 1] = bi + ci, dr[r - 1] = br - cr, di[r - 1] = bi - ci;
          tr += sr[r - 1], ti += si[r - 1];
        }
        yr[v] = tr, yi[v] = ti;
        for (int32_t u = 1; u <= h; u++) {
          FFT_T ar = a0r, ai = a0i, er = 0, ei = 0;
          for (int32_t r = 1; r <= h; r++) {
            ar += cs[u - 1][r - 1] * sr[r - 1], ai += cs[u - 1][r - 1] * si[r - 1];
            er += sn[u - 1][r - 1] * dr[r - 1], ei += sn[u - 1][r - 1] * di[r - 1];
          }
          /* y_u = A - iB, y_(p-u) = A + iB */
          yr[u * ns * FFT_L + v] = ar + ei, yi[u * ns * FFT_L + v] = ai - er;
          yr[(p - u) * ns * FFT_L + v] = ar - ei, yi[(p - u) * ns * FFT_L + v] = ai + er;
        }
      }
    }
  }
}

static FFT_T *FFT_NAME(transform)(const kiln_fft_line *l, FFT_T *a, FFT_T *b, int64_t planes);

/* The second half of a convolution: from R, the spectrum of the first sequence (in r), the
 * conjugate of the cyclic convolution times m, conj(FFT(conj(R K))) with K the kernel
 * (the other's spectrum / m): the forward transform of conj(R K). Returns r or other. */
static FFT_T *FFT_NAME(convolve)(const kiln_fft_line *l, FFT_T *r, FFT_T *other, int64_t planes) {
  const FFT_T *kern = (const FFT_T *)l->kernel;
  for (int64_t j = 0; j < l->m; j++) { /* conj(R K) */
    FFT_T wr = kern[2 * j], wi = kern[2 * j + 1];
    FFT_T *xr = r + j * FFT_L, *xi = xr + planes;
    LANES {
      CMUL_INTO(xr[v], xi[v], xr[v], xi[v], wr, wi);
      xi[v] = -xi[v];
    }
  }
  return FFT_NAME(transform)(l->conv, r, other, planes);
}

/* Rader, n prime: with a_q = x_(g^q) and b_q = e^(-2 pi i g^-q / n) (q in [0, m), m = n - 1),
 * X_0 = x_0 + sum_q a_q and X_(g^-q) = x_0 + (a * b)_q, the convolution cyclic. x in a;
 * returns a or b. */
static FFT_T *FFT_NAME(rader)(const kiln_fft_line *l, FFT_T *a, FFT_T *b, int64_t planes) {
  const int64_t m = l->m, *gen = l->gen;
  FFT_T x0r[FFT_L], x0i[FFT_L], sr[FFT_L], si[FFT_L];
  LANES x0r[v] = a[v], x0i[v] = a[planes + v];
  for (int64_t q = 0; q < m; q++) {
    const FFT_T *xr = a + gen[q] * FFT_L, *xi = xr + planes;
    FFT_T *yr = b + q * FFT_L, *yi = yr + planes;
    LANES yr[v] = xr[v], yi[v] = xi[v];
  }
  FFT_T *r = FFT_NAME(transform)(l->conv, b, a, planes), *other = r == a ? b : a;
  LANES sr[v] = x0r[v] + r[v], si[v] = x0i[v] + r[planes + v]; /* R_0: the sum of the a_q */
  r = FFT_NAME(convolve)(l, r, other, planes);
  FFT_T *y = r == a ? b : a;
  LANES y[v] = sr[v], y[planes + v] = si[v];
  for (int64_t q = 0; q < m; q++) {
    const FFT_T *cr = r + q * FFT_L, *ci = cr + planes;
    FFT_T *zr = y + gen[(m - q) % m] * FFT_L, *zi = zr + planes;
    LANES zr[v] = x0r[v] + cr[v], zi[v] = x0i[v] - ci[v];
  }
  return y;
}

/* Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_(k-j)), c_j = e^(-i pi j^2 / n), the
 * convolution cyclic of length m through two forward transforms (the inverse one of
 * conjugates). x in a; returns a or b. */
static FFT_T *FFT_NAME(bluestein)(const kiln_fft_line *l, FFT_T *a, FFT_T *b, int64_t planes) {
  const FFT_T *c = (const FFT_T *)l->chirp;
  for (int64_t j = 0; j < l->n; j++) {
    FFT_T wr = c[2 * j], wi = c[2 * j + 1];
    FFT_T *xr = a + j * FFT_L, *xi = xr + planes, *yr = b + j * FFT_L, *yi = yr + planes;
    LANES CMUL_INTO(yr[v], yi[v], xr[v], xi[v], wr, wi);
  }
  for (int64_t j = l->n; j < l->m; j++) {
    FFT_T *yr = b + j * FFT_L, *yi = yr + planes;
    LANES yr[v] = 0, yi[v] = 0;
  }
  FFT_T *r = FFT_NAME(transform)(l->conv, b, a, planes), *other = r == a ? b : a;
  r = FFT_NAME(convolve)(l, r, other, planes);
  for (int64_t j = 0; j < l->n; j++) { /* c_j conj(r_j) */
    FFT_T wr = c[2 * j], wi = c[2 * j + 1];
    FFT_T *xr = r + j * FFT_L, *xi = xr + planes;
    LANES {
      FFT_T zr = xr[v], zi = -xi[v];
      CMUL_INTO(xr[v], xi[v], zr, zi, wr, wi);
    }
  }
  return r;
}

#ifdef FFT_WIDE
/* A line one lane wide by its four-step split (kiln_fft_four): x in a; the wide groups'
 * two buffers lie after a and b. Returns a. */
static FFT_T *FFT_NAME(four_step)(const kiln_fft_line *l, FFT_T *a, FFT_T *b, int64_t planes) {
  enum { W = FFT_WIDE_L };
  const kiln_fft_four *f = l->four;
  const int64_t n = l->n, n1 = f->n1, n2 = f->n2, wp = f->planes;
  const FFT_T *twr = f->tw, *twi = twr + n;
  FFT_T *wa = (a > b ? a : b) + 2 * planes, *wb = wa + 2 * wp;
  /* n1 transforms of length n2, lanes j1: points j2 at a[j1 + n1 j2], results times
   * W_n^(j1 k2) to b[k2 n1 + j1] */
  for (int64_t j0 = 0; j0 < n1; j0 += W) {
    for (int64_t j2 = 0; j2 < n2; j2++)
      for (int32_t v = 0; v < W; v++) wa[j2 * W + v] = a[j0 + v + n1 * j2], wa[wp + j2 * W + v] = a[planes + j0 + v + n1 * j2];
    const FFT_T *r = FFT_WIDE(transform)(f->first, wa, wb, wp);
    for (int64_t k2 = 0; k2 < n2; k2++) {
      const FFT_T *xr = r + k2 * W, *xi = xr + wp, *wr = twr + k2 * n1 + j0, *wi = twi + k2 * n1 + j0;
      FFT_T *yr = b + k2 * n1 + j0, *yi = yr + planes;
      for (int32_t v = 0; v < W; v++) CMUL_INTO(yr[v], yi[v], xr[v], xi[v], wr[v], wi[v]);
    }
  }
  /* n2 transforms of length n1, lanes k2: points j1 at b[k2 n1 + j1], results X_(n2 k1 + k2)
   * to a */
  for (int64_t k0 = 0; k0 < n2; k0 += W) {
    for (int32_t v = 0; v < W; v++)
      for (int64_t j1 = 0; j1 < n1; j1++)
        wa[j1 * W + v] = b[(k0 + v) * n1 + j1], wa[wp + j1 * W + v] = b[planes + (k0 + v) * n1 + j1];
    const FFT_T *r = FFT_WIDE(transform)(f->second, wa, wb, wp);
    for (int64_t k1 = 0; k1 < n1; k1++)
      for (int32_t v = 0; v < W; v++) a[n2 * k1 + k0 + v] = r[k1 * W + v], a[planes + n2 * k1 + k0 + v] = r[wp + k1 * W + v];
  }
  return a;
}
#endif

/* The forward transform of the group's lines in a; returns a or b, whichever holds it. */
static FFT_T *FFT_NAME(transform)(const kiln_fft_line *l, FFT_T *a, FFT_T *b, int64_t planes) {
  if (l->method == KILN_FFT_BLUESTEIN) return FFT_NAME(bluestein)(l, a, b, planes);
  if (l->method == KILN_FFT_RADER) return FFT_NAME(rader)(l, a, b, planes);
#ifdef FFT_WIDE
  if (l->four) return FFT_NAME(four_step)(l, a, b, planes);
#endif
  for (int32_t i = 0; i < l->num_stages; i++) {
    const kiln_fft_stage *s = &l->stages[i];
    switch (s->p) {
      case 2: FFT_NAME(pass24)(2, l, s, a, b, planes); break;
      case 4: FFT_NAME(pass24)(4, l, s, a, b, planes); break;
      case 3: FFT_NAME(pass_small)(3, l, s, a, b, planes); break;
      case 5: FFT_NAME(pass_small)(5, l, s, a, b, planes); break;
      case 7: FFT_NAME(pass_small)(7, l, s, a, b, planes); break;
      default: FFT_NAME(pass_odd)(l, s, a, b, planes); break;
    }
    FFT_T *t = a;
    a = b, b = t;
  }
  return a;
}

/* Offsets of the group's lines in a tensor whose axis has len points. */
static void FFT_NAME(bases)(const kiln_fft_axis *ax, int64_t first, int64_t len, int64_t *base) {
  for (int32_t v = 0; v < FFT_L; v++) {
    int64_t line = first + v;
    base[v] = line / ax->inner * len * ax->inner + line % ax->inner;
  }
}

/* Runs the body (the last arguments) for points j in [0, count) of every lane v, with bv = base[v] the lane's
 * line offset (sb: in the source, db: in the destination), in the loop order the layout
 * reads best:
 *   - lines along the innermost dim (stride 1): lane by lane over blocks of points, each
 *     line read (or written) contiguously, the block's planes staying in the L1 cache;
 *   - the group's lines adjacent in memory (sb[v] = sb[0] + v): point by point over the
 *     lanes, which the compiler then loads as vectors;
 *   - otherwise point by point over the lanes, gathered. */
#define FFT_BLOCK 64
#define EACH_POINT(count, base, ...)                                                                 \
  do {                                                                                               \
    const int64_t count_ = (count);                                                                  \
    if (st == 1) {                                                                                   \
      for (int64_t j0_ = 0; j0_ < count_; j0_ += FFT_BLOCK) {                                        \
        const int64_t j1_ = j0_ + FFT_BLOCK < count_ ? j0_ + FFT_BLOCK : count_;                     \
        for (int32_t v = 0; v < FFT_L; v++) {                                                        \
          const int64_t bv = (base)[v];                                                              \
          for (int64_t j = j0_; j < j1_; j++) { __VA_ARGS__; }                                       \
        }                                                                                            \
      }                                                                                              \
    } else if ((base)[FFT_L - 1] == (base)[0] + FFT_L - 1) {                                         \
      const int64_t b0_ = (base)[0];                                                                 \
      for (int64_t j = 0; j < count_; j++)                                                           \
        LANES {                                                                                      \
          const int64_t bv = b0_ + v;                                                                \
          __VA_ARGS__;                                                                               \
        }                                                                                            \
    } else {                                                                                         \
      for (int64_t j = 0; j < count_; j++)                                                           \
        LANES {                                                                                      \
          const int64_t bv = (base)[v];                                                              \
          __VA_ARGS__;                                                                               \
        }                                                                                            \
    }                                                                                                \
  } while (0)

/* Points [0, count) of the group's lines into the planes ar, ai: point j of the line at
 * base bv is s[bs * bv + 2 * j * st] (re) and the element im_at after it (im, times
 * im_sign); complex data (bs 2, im_at 1) or a real line read as (even, odd) sample pairs
 * (bs 1, im_at st). With register transposes where the lines are rows (FFT_COPY_IN). */
static void FFT_NAME(pairs_in)(const FFT_T *s, const int64_t *base, int64_t bs, int64_t st, int64_t im_at,
                               int64_t count, FFT_T im_sign, FFT_T *ar, FFT_T *ai) {
#ifdef FFT_COPY_IN
  if (st == 1) { /* whole blocks by transposes, the last points one by one (slot v: base[v]) */
    const FFT_T *line[FFT_L];
    for (int32_t v = 0; v < FFT_L; v++) line[v] = s + bs * base[FFT_SLOT[v]];
    for (int64_t j = FFT_COPY_IN(line, count, im_sign, ar, ai); j < count; j++)
      LANES ar[j * FFT_L + v] = s[bs * base[v] + 2 * j], ai[j * FFT_L + v] = im_sign * s[bs * base[v] + 2 * j + 1];
    return;
  }
#endif
  EACH_POINT(count, base, (ar[j * FFT_L + v] = s[bs * bv + 2 * j * st], ai[j * FFT_L + v] = im_sign * s[bs * bv + 2 * j * st + im_at]));
}

/* pairs_in's inverse: points [0, count) of the planes rr, ri out to the lines, times
 * re_scale and im_scale. */
static void FFT_NAME(pairs_out)(const FFT_T *rr, const FFT_T *ri, int64_t count, FFT_T re_scale, FFT_T im_scale,
                                FFT_T *d, const int64_t *base, int64_t bs, int64_t st, int64_t im_at) {
#ifdef FFT_COPY_OUT
  if (st == 1) { /* as pairs_in */
    FFT_T *line[FFT_L];
    for (int32_t v = 0; v < FFT_L; v++) line[v] = d + bs * base[FFT_SLOT[v]];
    for (int64_t j = FFT_COPY_OUT(rr, ri, count, re_scale, im_scale, line); j < count; j++)
      LANES d[bs * base[v] + 2 * j] = re_scale * rr[j * FFT_L + v], d[bs * base[v] + 2 * j + 1] = im_scale * ri[j * FFT_L + v];
    return;
  }
#endif
  EACH_POINT(count, base, (d[bs * bv + 2 * j * st] = re_scale * rr[j * FFT_L + v],
                           d[bs * bv + 2 * j * st + im_at] = im_scale * ri[j * FFT_L + v]));
}

static void FFT_NAME(group)(const kiln_fft_axis *ax, const void *src, void *dst, int64_t first, void *scratch) {
  const int64_t planes = ax->buf * FFT_L, st = ax->inner, n = ax->n, h = n / 2;
  FFT_T *a = scratch, *b = a + 2 * planes;
  int64_t sb[FFT_L], db[FFT_L];
  FFT_NAME(bases)(ax, first, ax->src_len, sb);
  FFT_NAME(bases)(ax, first, ax->dst_len, db);
#ifdef FFT_COPY_IN
  if (st == 1) /* plane slot v holds line FFT_SLOT[v] (fft_transpose.h), in every copy */
    for (int32_t v = 0; v < FFT_L; v++)
      if (FFT_SLOT[v] > v) {
        int64_t t = sb[v];
        sb[v] = sb[FFT_SLOT[v]], sb[FFT_SLOT[v]] = t;
        t = db[v], db[v] = db[FFT_SLOT[v]], db[FFT_SLOT[v]] = t;
      }
#endif
  const FFT_T *s = src;
  FFT_T *d = dst;
  /* into the planes of a, as given: conjugated for an inverse C2C (a forward transform of
   * conjugates); C2R of an even n reads its h + 1 points raw, joined below */
  const FFT_T in_sign = ax->inverse ? -1 : 1;
  const bool c2r = ax->kind == KILN_FFT_C2R;
  FFT_T *ar = a, *ai = a + planes;
  int64_t read = ax->kind == KILN_FFT_C2C ? n : c2r && ax->half ? h + 1 : ax->half ? h : n;
  if (ax->kind == KILN_FFT_C2C) FFT_NAME(pairs_in)(s, sb, 2, st, 1, n, in_sign, ar, ai);
  else if (ax->half) FFT_NAME(pairs_in)(s, sb, c2r ? 2 : 1, st, c2r ? 1 : st, read, 1, ar, ai);
  else if (!c2r) EACH_POINT(n, sb, (ar[j * FFT_L + v] = s[bv + j * st], ai[j * FFT_L + v] = 0));
  else /* the Hermitian extension, conjugated */
    EACH_POINT(n, sb, {
      int64_t m = j <= h ? j : n - j;
      FFT_T sign = j <= h ? -1 : 1;
      ar[j * FFT_L + v] = s[2 * (bv + m * st)], ai[j * FFT_L + v] = j ? sign * s[2 * (bv + m * st) + 1] : 0;
    });
  /* lines with infinities or NaNs go by the definition (their pattern of infinities and
   * NaNs is then the interpreter's): 0 * x is NaN only for those. Every point read above
   * reaches the transform unchanged or in sums and finite products, but for the imaginary
   * parts IRFFT ignores, checked apart. */
  FFT_T poison[FFT_L] = {0};
  for (int64_t e = 0; e < read; e++) LANES poison[v] += (FFT_T)0 * ar[e * FFT_L + v] + (FFT_T)0 * ai[e * FFT_L + v];
  if (c2r && !ax->half)
    for (int32_t v = 0; v < FFT_L; v++) poison[v] += (FFT_T)0 * s[2 * sb[v] + 1];
  for (int32_t v = 0; v < FFT_L; v++)
    if (poison[v] != 0 || poison[v] != poison[v]) {
      for (int32_t u = 0; u < FFT_L; u++) kiln_fft_line_naive(ax, sizeof(FFT_T) == 8, src, dst, first + u, scratch);
      return;
    }
  FFT_T *x = a, *y = b;
  if (c2r && ax->half) {
    /* Z_k = (X_k + conj X_(h-k)) + i W^-k (X_k - conj X_(h-k)), the imaginary parts of
     * X_0 and X_h taken as zero; the inverse of length h (conjugated) gives n x */
    const FFT_T *w = ax->split;
    FFT_T *zr = b, *zi = b + planes;
    for (int64_t j = 0; j < h; j++) {
      FFT_T wr = w[2 * j], wi = -w[2 * j + 1], keep = j ? 1 : 0;
      const FFT_T *x1r = ar + j * FFT_L, *x1i = ai + j * FFT_L, *x2r = ar + (h - j) * FFT_L, *x2i = ai + (h - j) * FFT_L;
      LANES {
        FFT_T xr = x1r[v], xi = keep * x1i[v], yr = x2r[v], yi = -keep * x2i[v];
        FFT_T er = xr + yr, ei = xi + yi, orr = xr - yr, oi = xi - yi;
        CMUL_INTO(orr, oi, orr, oi, wr, wi);
        zr[j * FFT_L + v] = er - oi, zi[j * FFT_L + v] = -(ei + orr); /* conj(E + i O) */
      }
    }
    x = b, y = a;
  }
  FFT_T *r = FFT_NAME(transform)(&ax->line, x, y, planes), *o = r == a ? b : a;
  const FFT_T scale = ax->inverse ? (FFT_T)(1.0 / (double)n) : 1;
  switch (ax->kind) {
    case KILN_FFT_C2C: FFT_NAME(pairs_out)(r, r + planes, n, scale, in_sign * scale, d, db, 2, st, 1); break;
    case KILN_FFT_R2C:
      if (ax->half) {
        /* X_k = E_k + W^k O_k, E_k = (Z_k + conj Z_(h-k)) / 2, O_k = (Z_k - conj Z_(h-k)) / 2i */
        const FFT_T *w = ax->split;
        for (int64_t j = 0; j <= h; j++) {
          int64_t k1 = j == h ? 0 : j, k2 = j == 0 ? 0 : h - j;
          FFT_T wr = w[2 * j], wi = w[2 * j + 1];
          const FFT_T *z1r = r + k1 * FFT_L, *z1i = z1r + planes, *z2r = r + k2 * FFT_L, *z2i = z2r + planes;
          FFT_T *xr = o + j * FFT_L, *xi = xr + planes;
          LANES {
            FFT_T zr = z1r[v], zi = z1i[v], cr = z2r[v], ci = -z2i[v];
            FFT_T er = (FFT_T)0.5 * (zr + cr), ei = (FFT_T)0.5 * (zi + ci);
            FFT_T orr = (FFT_T)0.5 * (zi - ci), oi = (FFT_T)-0.5 * (zr - cr);
            CMUL_INTO(orr, oi, orr, oi, wr, wi);
            xr[v] = er + orr, xi[v] = ei + oi;
          }
        }
        r = o;
      }
      FFT_NAME(pairs_out)(r, r + planes, h + 1, 1, 1, d, db, 2, st, 1);
      break;
    case KILN_FFT_C2R:
      if (ax->half) /* x_2j = Re z_j, x_(2j+1) = Im z_j, z = conj of the result */
        FFT_NAME(pairs_out)(r, r + planes, h, scale, -scale, d, db, 1, st, st);
      else {
        const FFT_T *rr = r;
        EACH_POINT(n, db, d[bv + j * st] = scale * rr[j * FFT_L + v]);
      }
      break;
  }
}

#undef EACH_POINT
#undef FFT_BLOCK
#undef LANES
#undef CMUL_INTO
