/* Linear-algebra kernels of the reference interpreter: contractions (dot_general, dot,
 * einsum, unary_einsum, chlo.ragged_dot), convolutions (convolution, dynamic_conv), fft,
 * cholesky, triangular_solve, and random numbers (rng, rng_bit_generator).
 *
 * Contractions follow the reference interpreter: every operand element is converted to
 * the result's element kind, then products are added up in order over the contracted
 * index space, each product and each sum rounded. Integers wrap (in 64 bits; the store
 * wraps to the result width). Floating-point sums are kept in the accumulation precision
 * XLA uses: f64 for f64 and complex<f64> results, f32 for every narrower float type
 * (f32, f16, bf16, f8...), rounded to the result type once at the end. This reproduces
 * the values of XLA's CPU backend on the conformance data, where cancellation makes
 * other schemes differ by more than a few ULP.
 *
 * fft is the DFT from its definition (any length) in double-double arithmetic, so its
 * results are correctly rounded in practice (XLA's FFT is not: up to hundreds of ULP on
 * small outputs). cholesky and triangular_solve work in double (complex) precision and
 * round once on store. rng_bit_generator's generators are XLA's, bit for bit
 * (rng_bits.h); rng's values are implementation-defined. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/interp/interp.h"
#include "backends/interp/rng_bits.h"

#define MAXR KILN_RTV_MAX_RANK
#define MAXS (2 * KILN_RTV_MAX_RANK) /* summed dimensions of a contraction */

static const double k_pi = 3.14159265358979323846264338327950288;

#define OOM() KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory")

/* ================================================================ attributes */

/* An integer (or boolean) list into out[0..max); returns its length (which may exceed
 * max: callers check), or -1 when a is absent or not such a list. */
static int64_t read_ints(const kiln_attr *a, int64_t *out, int64_t max) {
  if (!a) return -1;
  if (a->kind == KILN_ATTR_ARRAY && a->array.count > 0 && a->array.items[0]->kind == KILN_ATTR_BOOL) {
    for (int32_t i = 0; i < a->array.count; i++)
      if (a->array.items[i]->kind != KILN_ATTR_BOOL) return -1;
    for (int32_t i = 0; i < a->array.count && i < max; i++) out[i] = a->array.items[i]->b;
    return a->array.count;
  }
  int64_t n = kiln_attr_count(a);
  for (int64_t i = 0; i < n && i < max; i++) kiln_attr_i64_at(a, i, &out[i]);
  return n;
}

static int64_t read_int(const kiln_attr *a, int64_t dflt) {
  int64_t v;
  return kiln_attr_count(a) == 1 && kiln_attr_i64_at(a, 0, &v) ? v : dflt;
}

static bool read_flag(const kiln_attr *a, bool dflt) {
  if (!a) return dflt;
  if (a->kind == KILN_ATTR_BOOL) return a->b;
  if (a->kind == KILN_ATTR_UNIT) return true;
  int64_t v;
  return kiln_attr_count(a) == 1 && kiln_attr_i64_at(a, 0, &v) ? v != 0 : dflt;
}

/* Whether an enum attribute (#stablehlo<fft_type FFT>, a bare keyword or a string) has the
 * value v. */
static bool enum_is(const kiln_attr *a, const char *v) {
  if (!a) return false;
  if (a->kind == KILN_ATTR_ENUM) return a->enumv.value && !strcmp(a->enumv.value, v);
  if (a->kind == KILN_ATTR_STRING) return a->str.len == strlen(v) && !memcmp(a->str.data, v, a->str.len);
  return false;
}

static const char *enum_text(const kiln_attr *a) {
  return a && a->kind == KILN_ATTR_ENUM && a->enumv.value ? a->enumv.value : "?";
}

/* ================================================================ operands and results */

static kiln_status need_tensors(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t nin, int32_t nout) {
  if (a->num_in != nin || a->num_out != nout)
    return kiln_interp_error(ctx, a->op, "takes %d operands and %d results, not %d and %d", (int)nin, (int)nout,
                             (int)a->num_in, (int)a->num_out);
  for (int32_t i = 0; i < nin; i++)
    if (!a->in[i] || a->in[i]->kind != KILN_RTV_TENSOR)
      return kiln_interp_error(ctx, a->op, "operand #%d is not a tensor", (int)i);
  return NULL;
}

/* Allocates result i with a computed shape, checked against the op's result type. */
static kiln_status make_result(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t i, int32_t rank,
                               const int64_t *dims) {
  const kiln_type *t = a->op->results[i].type;
  if (kiln_type_is_tensor(t)) {
    bool ok = t->tensor.rank == rank;
    for (int32_t d = 0; ok && d < rank; d++) ok = t->tensor.dims[d] == KILN_DIM_DYNAMIC || t->tensor.dims[d] == dims[d];
    if (!ok) {
      char buf[256];
      int n = 0;
      for (int32_t d = 0; d < rank && n < (int)sizeof buf - 24; d++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%lld", d ? "x" : "", (long long)dims[d]);
      if (!rank) snprintf(buf, sizeof buf, "a scalar");
      return kiln_interp_error(ctx, a->op, "result #%d has a type whose shape differs from the computed shape %s",
                               (int)i, buf);
    }
  }
  return kiln_kernel_result(a, i, rank, dims);
}

static const uint8_t *elem_ptr(const kiln_rtv *t, int64_t i) { return t->data + (size_t)i * t->elem_bytes; }
static uint8_t *elem_wptr(kiln_rtv *t, int64_t i) { return t->data + (size_t)i * t->elem_bytes; }

/* An integer element as int64 (unsigned values reinterpreted). */
static int64_t load_i64(const kiln_rtv *t, int64_t i) { return kiln_scalar_load(t->elem, elem_ptr(t, i)).i; }

/* ================================================================ numbers and sums */

/* Accumulation kinds: wrapping 64-bit integers, or floating point in the accumulation
 * precision of the result type (f64 for f64 and complex<f64>, f32 for every narrower
 * floating-point type, as XLA accumulates). */
typedef enum acc_kind { ACC_BOOL, ACC_INT, ACC_F32, ACC_F64, ACC_C64, ACC_C128 } acc_kind;

/* An operand element converted to an accumulation kind. */
typedef struct num {
  uint64_t i;
  double re, im;
} num;

/* A running sum. */
typedef struct accum {
  uint64_t i;
  double re, im;
} accum;

static acc_kind acc_kind_of(kiln_elem e) {
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_F: return e == KILN_ELEM_F64 ? ACC_F64 : ACC_F32;
    case KILN_ELEM_CLASS_C: return e == KILN_ELEM_C128 ? ACC_C128 : ACC_C64;
    case KILN_ELEM_CLASS_B: return ACC_BOOL;
    default: return ACC_INT;
  }
}

static bool acc_f32(acc_kind k) { return k == ACC_F32 || k == ACC_C64; }

/* v rounded to f32 (to nearest even; overflow to infinity), as a double. */
static double round_f32(double v) {
  if (fabs(v) <= 3.4028234663852886e38) return (double)(float)v;
  return kiln_elem_float_from_bits(KILN_ELEM_F32, kiln_elem_float_to_bits(KILN_ELEM_F32, v));
}

/* Float to integer as convert does it: toward zero, NaN to 0, saturating at int64. */
static uint64_t float_to_int(double v) {
  if (isnan(v)) return 0;
  if (v >= 9223372036854775808.0) return (uint64_t)INT64_MAX;
  if (v < -9223372036854775808.0) return (uint64_t)INT64_MIN;
  return (uint64_t)(int64_t)v;
}

/* Element idx of t converted to the accumulation kind (floats rounded to its precision,
 * as the reference interpreter converts operands to the result type first). */
static num load_num(const kiln_rtv *t, int64_t idx, acc_kind k) {
  kiln_scalar s = kiln_scalar_load(t->elem, elem_ptr(t, idx));
  num n = {0, 0.0, 0.0};
  switch (kiln_elem_class_of(t->elem)) {
    case KILN_ELEM_CLASS_F:
    case KILN_ELEM_CLASS_C:
      n.re = s.f;
      n.im = s.im;
      if (k == ACC_INT) n.i = float_to_int(s.f);
      if (k == ACC_BOOL) n.i = s.f != 0 || s.im != 0;
      break;
    case KILN_ELEM_CLASS_U: n.i = s.u, n.re = (double)s.u; break;
    default: n.i = s.u, n.re = (double)s.i; break;
  }
  if (k == ACC_BOOL) n.i = n.i != 0;
  if (acc_f32(k)) n.re = round_f32(n.re), n.im = round_f32(n.im);
  return n;
}

/* One operation's result in the accumulation precision. Computing in double and rounding
 * to f32 gives the correctly rounded f32 product and sum. Products and sums are separate
 * statements so that no compiler fuses them into an fma. */
static double rnd(bool f32, double v) { return f32 ? round_f32(v) : v; }

/* c += a * b, every product and sum rounded (complex: (ac - bd) + (ad + bc)i). */
static void acc_mul_add(accum *c, acc_kind k, num a, num b) {
  bool f32 = acc_f32(k);
  double p, q, t;
  switch (k) {
    case ACC_BOOL: c->i |= a.i & b.i; return; /* i1: and, then or */
    case ACC_INT: c->i += a.i * b.i; return;
    case ACC_F32:
    case ACC_F64:
      p = rnd(f32, a.re * b.re);
      c->re = rnd(f32, c->re + p);
      return;
    case ACC_C64:
    case ACC_C128:
      p = rnd(f32, a.re * b.re);
      q = rnd(f32, a.im * b.im);
      t = rnd(f32, p - q);
      c->re = rnd(f32, c->re + t);
      p = rnd(f32, a.re * b.im);
      q = rnd(f32, a.im * b.re);
      t = rnd(f32, p + q);
      c->im = rnd(f32, c->im + t);
      return;
  }
}

static void acc_store(kiln_rtv *r, int64_t idx, acc_kind k, const accum *c) {
  kiln_scalar s = {{0}, 0};
  if (k == ACC_INT || k == ACC_BOOL) s.u = c->i;
  else s.f = c->re, s.im = c->im;
  kiln_scalar_store(r->elem, elem_wptr(r, idx), s);
}

static const num k_one = {1, 1.0, 0.0};
static const num k_zero = {0, 0.0, 0.0};

/* ================================================================ contraction plans */

/* result[idx] = sum over the summed index space of lhs[lo] * rhs[ro] (rhs may be absent:
 * a unary contraction), where the offsets are linear in the result and summed indices. */
typedef struct plan {
  int32_t rank;
  int64_t dims[MAXR];
  int64_t lstr[MAXR], rstr[MAXR];
  int32_t nsum;
  int64_t sdims[MAXS];
  int64_t lsum[MAXS], rsum[MAXS];
  /* For dot_general-shaped plans: the result dimension of each lhs dimension (-1 when
   * contracted) and the summed dimension of each contracted one (-1 otherwise). */
  int32_t l_res[MAXR], l_sum[MAXR];
} plan;

static void contract(const plan *p, const int64_t *sdims, const kiln_rtv *l, const kiln_rtv *r, int64_t lo,
                     int64_t ro, acc_kind k, accum *c) {
  int64_t idx[MAXS];
  for (int32_t d = 0; d < p->nsum; d++) {
    if (sdims[d] == 0) return;
    idx[d] = 0;
  }
  for (;;) {
    acc_mul_add(c, k, load_num(l, lo, k), r ? load_num(r, ro, k) : k_one);
    int32_t d = p->nsum - 1;
    for (; d >= 0; d--) {
      lo += p->lsum[d];
      ro += p->rsum[d];
      if (++idx[d] < sdims[d]) break;
      lo -= p->lsum[d] * sdims[d];
      ro -= p->rsum[d] * sdims[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

/* Per-element work of a plan walk: fills c for the result index idx. */
typedef void (*elem_fn)(const plan *p, const int64_t *idx, int64_t lo, int64_t ro, accum *c, void *ud);

typedef struct plain_job {
  const kiln_rtv *l, *r;
  acc_kind k;
} plain_job;

static void plain_elem(const plan *p, const int64_t *idx, int64_t lo, int64_t ro, accum *c, void *ud) {
  (void)idx;
  const plain_job *j = ud;
  contract(p, p->sdims, j->l, j->r, lo, ro, j->k, c);
}

/* Walks the result index space of p, storing into out from element out_base on. */
static void walk_plan(const plan *p, kiln_rtv *out, int64_t out_base, elem_fn fn, void *ud) {
  acc_kind k = acc_kind_of(out->elem);
  int64_t n = 1;
  for (int32_t d = 0; d < p->rank; d++) n *= p->dims[d];
  int64_t idx[MAXR] = {0}, lo = 0, ro = 0;
  for (int64_t flat = 0; flat < n; flat++) {
    accum c = {0, 0.0, 0.0};
    fn(p, idx, lo, ro, &c, ud);
    acc_store(out, out_base + flat, k, &c);
    for (int32_t d = p->rank - 1; d >= 0; d--) {
      lo += p->lstr[d];
      ro += p->rstr[d];
      if (++idx[d] < p->dims[d]) break;
      lo -= p->lstr[d] * p->dims[d];
      ro -= p->rstr[d] * p->dims[d];
      idx[d] = 0;
    }
  }
}

static void run_plan(const plan *p, const kiln_rtv *l, const kiln_rtv *r, kiln_rtv *out) {
  plain_job j = {l, r, acc_kind_of(out->elem)};
  walk_plan(p, out, 0, plain_elem, &j);
}

/* ---------------------------------------------------------------- dot_general */

typedef struct dot_dims {
  int64_t nb, nc;
  int64_t lb[MAXR], rb[MAXR], lc[MAXR], rc[MAXR];
} dot_dims;

static kiln_status read_dim_list(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_attr *s, const char *name,
                                 int64_t *out, int64_t *n) {
  const kiln_attr *f = s ? kiln_attr_get(s, name) : NULL;
  if (!f) {
    *n = 0;
    return NULL;
  }
  *n = read_ints(f, out, MAXR);
  if (*n < 0 || *n > MAXR) return kiln_interp_error(ctx, op, "%s must be a list of at most %d integers", name, MAXR);
  return NULL;
}

static kiln_status read_dot_dims(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_attr *s, dot_dims *d) {
  int64_t nrb, nrc;
  KILN_RETURN_IF_ERROR(read_dim_list(ctx, op, s, "lhs_batching_dimensions", d->lb, &d->nb));
  KILN_RETURN_IF_ERROR(read_dim_list(ctx, op, s, "rhs_batching_dimensions", d->rb, &nrb));
  KILN_RETURN_IF_ERROR(read_dim_list(ctx, op, s, "lhs_contracting_dimensions", d->lc, &d->nc));
  KILN_RETURN_IF_ERROR(read_dim_list(ctx, op, s, "rhs_contracting_dimensions", d->rc, &nrc));
  if (nrb != d->nb || nrc != d->nc)
    return kiln_interp_error(ctx, op, "lhs and rhs have different numbers of batching or contracting dimensions");
  return NULL;
}

/* Marks the dimensions of list in used (rank r); false for one out of range or repeated. */
static bool mark_dims(const int64_t *list, int64_t n, int32_t r, bool *used) {
  for (int64_t i = 0; i < n; i++) {
    if (list[i] < 0 || list[i] >= r || used[list[i]]) return false;
    used[list[i]] = true;
  }
  return true;
}

/* The dot_general plan: result = batch dims + lhs free dims + rhs free dims. r_skip is a
 * rhs dimension left out of the result (ragged_dot's group dimension), or -1. */
static kiln_status build_dot_plan(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *l, const kiln_rtv *r,
                                  const dot_dims *d, int64_t r_skip, plan *p) {
  bool lused[MAXR] = {false}, rused[MAXR] = {false};
  if (r_skip >= 0) rused[r_skip] = true;
  if (!mark_dims(d->lb, d->nb, l->rank, lused) || !mark_dims(d->lc, d->nc, l->rank, lused) ||
      !mark_dims(d->rb, d->nb, r->rank, rused) || !mark_dims(d->rc, d->nc, r->rank, rused))
    return kiln_interp_error(ctx, op, "has batching or contracting dimensions out of range or repeated");
  int64_t ls[MAXR], rs[MAXR];
  kiln_strides(l->rank, l->dims, ls);
  kiln_strides(r->rank, r->dims, rs);
  memset(p, 0, sizeof *p);
  for (int32_t i = 0; i < MAXR; i++) p->l_res[i] = p->l_sum[i] = -1;
  for (int64_t i = 0; i < d->nb; i++) {
    if (l->dims[d->lb[i]] != r->dims[d->rb[i]])
      return kiln_interp_error(ctx, op, "batching dimensions %lld of lhs and %lld of rhs differ in size",
                               (long long)d->lb[i], (long long)d->rb[i]);
    p->l_res[d->lb[i]] = p->rank;
    p->dims[p->rank] = l->dims[d->lb[i]];
    p->lstr[p->rank] = ls[d->lb[i]];
    p->rstr[p->rank++] = rs[d->rb[i]];
  }
  for (int32_t i = 0; i < l->rank; i++) {
    if (lused[i]) continue;
    p->l_res[i] = p->rank;
    p->dims[p->rank] = l->dims[i];
    p->lstr[p->rank++] = ls[i];
  }
  for (int32_t i = 0; i < r->rank; i++) {
    if (rused[i]) continue;
    if (p->rank >= MAXR) return kiln_interp_error(ctx, op, "has a result of rank above %d", MAXR);
    p->dims[p->rank] = r->dims[i];
    p->rstr[p->rank++] = rs[i];
  }
  for (int64_t i = 0; i < d->nc; i++) {
    if (l->dims[d->lc[i]] != r->dims[d->rc[i]])
      return kiln_interp_error(ctx, op, "contracting dimensions %lld of lhs and %lld of rhs differ in size",
                               (long long)d->lc[i], (long long)d->rc[i]);
    p->l_sum[d->lc[i]] = p->nsum;
    p->sdims[p->nsum] = l->dims[d->lc[i]];
    p->lsum[p->nsum] = ls[d->lc[i]];
    p->rsum[p->nsum++] = rs[d->rc[i]];
  }
  return NULL;
}

static kiln_status run_dot(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const dot_dims *d) {
  const kiln_rtv *l = a->in[0], *r = a->in[1];
  plan p;
  KILN_RETURN_IF_ERROR(build_dot_plan(ctx, a->op, l, r, d, -1, &p));
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, p.rank, p.dims));
  run_plan(&p, l, r, a->out[0]);
  return NULL;
}

static kiln_status k_dot_general(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 2, 1));
  dot_dims d;
  KILN_RETURN_IF_ERROR(read_dot_dims(ctx, a->op, kiln_op_attr(a->op, "dot_dimension_numbers"), &d));
  return run_dot(ctx, a, &d);
}

/* dot: vector or matrix products; lhs's last dimension against rhs's first. */
static kiln_status k_dot(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 2, 1));
  const kiln_rtv *l = a->in[0], *r = a->in[1];
  if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
    return kiln_interp_error(ctx, a->op, "needs operands of rank 1 or 2");
  dot_dims d = {.nb = 0, .nc = 1};
  d.lc[0] = l->rank - 1;
  d.rc[0] = 0;
  return run_dot(ctx, a, &d);
}

/* ---------------------------------------------------------------- einsum */

enum { EIN_LETTERS = 52, EIN_ELLIPSIS = 64, EIN_LABELS = EIN_ELLIPSIS + MAXR };

typedef struct ein_term {
  int32_t n;           /* labels, ellipsis excluded */
  int32_t lab[MAXR];   /* letter labels in order, EIN_ELLIPSIS marking the ellipsis */
  bool ellipsis;
} ein_term;

static bool ein_parse_term(const char *s, size_t len, ein_term *t) {
  t->n = 0;
  t->ellipsis = false;
  int32_t slots = 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    int32_t lab;
    if (c == ' ') continue;
    if (c == '.' && i + 2 < len && s[i + 1] == '.' && s[i + 2] == '.') {
      if (t->ellipsis) return false;
      t->ellipsis = true;
      lab = EIN_ELLIPSIS;
      i += 2;
    } else if (c >= 'a' && c <= 'z') {
      lab = c - 'a';
      t->n++;
    } else if (c >= 'A' && c <= 'Z') {
      lab = 26 + (c - 'A');
      t->n++;
    } else {
      return false;
    }
    if (slots >= MAXR) return false;
    t->lab[slots++] = lab;
  }
  return true;
}

/* Expands a term over a tensor of rank `rank` into one label per dimension; the ellipsis
 * dimensions of an operand with e of them get labels EIN_ELLIPSIS + (E - e) ... so that
 * they align on the right (E: the most any operand has). */
static bool ein_expand(const ein_term *t, int32_t rank, int32_t e_max, int32_t *labels) {
  int32_t e = rank - t->n;
  if (t->ellipsis ? e < 0 : e != 0) return false;
  int32_t n = 0;
  for (int32_t i = 0; i < t->n + (t->ellipsis ? 1 : 0); i++) {
    if (t->lab[i] != EIN_ELLIPSIS) {
      labels[n++] = t->lab[i];
      continue;
    }
    for (int32_t q = 0; q < e; q++) labels[n++] = EIN_ELLIPSIS + (e_max - e + q);
  }
  return n == rank;
}

static kiln_status run_einsum(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t nin) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, nin, 1));
  const kiln_op *op = a->op;
  const kiln_attr *cfg = kiln_op_attr(op, "einsum_config");
  if (!cfg || cfg->kind != KILN_ATTR_STRING) return kiln_interp_error(ctx, op, "needs a string einsum_config");
  const char *s = cfg->str.data, *end = s + cfg->str.len, *arrow = NULL;
  for (const char *q = s; q + 1 < end && !arrow; q++)
    if (q[0] == '-' && q[1] == '>') arrow = q;
  if (!arrow) return kiln_interp_error(ctx, op, "einsum_config must have the form 'inputs->output'");
  ein_term terms[3];
  const char *term = s;
  for (int32_t i = 0; i < nin; i++) {
    const char *stop = term;
    while (stop < arrow && *stop != ',') stop++;
    if ((i + 1 < nin) != (stop < arrow) || !ein_parse_term(term, (size_t)(stop - term), &terms[i]))
      return kiln_interp_error(ctx, op, "has an einsum_config that does not match its %d operand(s)", (int)nin);
    term = stop + 1;
  }
  if (!ein_parse_term(arrow + 2, (size_t)(end - arrow - 2), &terms[nin]))
    return kiln_interp_error(ctx, op, "has an einsum_config whose output term is malformed");
  const kiln_type *rt = op->results[0].type;
  if (!kiln_type_is_tensor(rt)) return kiln_interp_error(ctx, op, "needs a tensor result");
  int32_t ranks[3] = {a->in[0]->rank, nin > 1 ? a->in[1]->rank : 0, rt->tensor.rank};
  int32_t e_max = 0;
  for (int32_t i = 0; i < nin; i++)
    if (ranks[i] - terms[i].n > e_max) e_max = ranks[i] - terms[i].n;
  if (terms[nin].ellipsis && ranks[2] - terms[nin].n != e_max)
    return kiln_interp_error(ctx, op, "has an einsum_config whose output ellipsis does not match its operands");
  int32_t labels[3][MAXR];
  for (int32_t i = 0; i <= nin; i++)
    if (!ein_expand(&terms[i], ranks[i == nin ? 2 : i], e_max, labels[i]))
      return kiln_interp_error(ctx, op, "has an einsum_config whose terms do not match the operand ranks");
  /* Label sizes (size-1 ellipsis dimensions broadcast) and strides per operand. */
  int64_t size[EIN_LABELS];
  int64_t str[2][EIN_LABELS];
  bool seen[EIN_LABELS] = {false}, in_out[EIN_LABELS] = {false};
  int32_t order[EIN_LABELS], norder = 0;
  for (int32_t l = 0; l < EIN_LABELS; l++) size[l] = 1, str[0][l] = str[1][l] = 0;
  for (int32_t i = 0; i < nin; i++) {
    const kiln_rtv *t = a->in[i];
    for (int32_t d = 0; d < t->rank; d++) {
      int32_t l = labels[i][d];
      if (!seen[l]) seen[l] = true, order[norder++] = l, size[l] = t->dims[d];
      else if (size[l] == 1 && l >= EIN_ELLIPSIS) size[l] = t->dims[d];
      else if (t->dims[d] != size[l] && !(l >= EIN_ELLIPSIS && t->dims[d] == 1))
        return kiln_interp_error(ctx, op, "has einsum label dimensions of different sizes");
    }
  }
  for (int32_t i = 0; i < nin; i++) {
    const kiln_rtv *t = a->in[i];
    int64_t st[MAXR];
    kiln_strides(t->rank, t->dims, st);
    for (int32_t d = 0; d < t->rank; d++)
      if (t->dims[d] == size[labels[i][d]]) str[i][labels[i][d]] += st[d];
  }
  plan p;
  memset(&p, 0, sizeof p);
  p.rank = ranks[2];
  for (int32_t d = 0; d < p.rank; d++) {
    int32_t l = labels[nin][d];
    if (!seen[l] || in_out[l])
      return kiln_interp_error(ctx, op, "has an einsum_config output label that is repeated or not in an input");
    in_out[l] = true;
    p.dims[d] = size[l];
    p.lstr[d] = str[0][l];
    p.rstr[d] = str[1][l];
  }
  for (int32_t i = 0; i < norder; i++) {
    int32_t l = order[i];
    if (in_out[l]) continue;
    p.sdims[p.nsum] = size[l];
    p.lsum[p.nsum] = str[0][l];
    p.rsum[p.nsum++] = str[1][l];
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, p.rank, p.dims));
  run_plan(&p, a->in[0], nin > 1 ? a->in[1] : NULL, a->out[0]);
  return NULL;
}

static kiln_status k_einsum(kiln_interp_ctx *ctx, const kiln_kernel_args *a) { return run_einsum(ctx, a, 2); }
static kiln_status k_unary_einsum(kiln_interp_ctx *ctx, const kiln_kernel_args *a) { return run_einsum(ctx, a, 1); }

/* ---------------------------------------------------------------- chlo.ragged_dot */

/* The lhs ragged dimension is split into consecutive groups of group_sizes[..., i]
 * elements. Mode 1 (ragged free dimension): rows of group i use rhs group i. Mode 2
 * (ragged contracting dimension): result[i, ...] sums over group i's part only. Mode 3
 * (ragged batching dimension): a plain dot_general. group_sizes may have leading
 * dimensions: the lhs batching dimensions, then the free (mode 1) or contracting (mode 2)
 * dimensions before the ragged one. */
typedef struct ragged_job {
  const kiln_rtv *l, *r, *gs;
  acc_kind k;
  int32_t nprefix;
  int32_t prefix_res[MAXR]; /* result dimension giving each leading group_sizes index */
  int64_t gs_str[MAXR];
  int64_t groups;
  int32_t ragged_res; /* mode 1: result dimension of the ragged lhs dimension */
  int32_t ragged_sum; /* mode 2: summed dimension of the ragged lhs dimension */
  int64_t rhs_group_stride;
  int64_t group; /* mode 2: the group being computed */
} ragged_job;

static int64_t ragged_gs_base(const ragged_job *j, const int64_t *idx) {
  int64_t base = 0;
  for (int32_t t = 0; t < j->nprefix; t++) base += idx[j->prefix_res[t]] * j->gs_str[t];
  return base;
}

static void ragged_mode1_elem(const plan *p, const int64_t *idx, int64_t lo, int64_t ro, accum *c, void *ud) {
  const ragged_job *j = ud;
  int64_t base = ragged_gs_base(j, idx), row = idx[j->ragged_res], start = 0;
  for (int64_t g = 0; g < j->groups; g++) {
    int64_t limit = start + load_i64(j->gs, base + g * j->gs_str[j->nprefix]);
    if (start <= row && row < limit) contract(p, p->sdims, j->l, j->r, lo, ro + g * j->rhs_group_stride, j->k, c);
    start = limit;
  }
}

static void ragged_mode2_elem(const plan *p, const int64_t *idx, int64_t lo, int64_t ro, accum *c, void *ud) {
  const ragged_job *j = ud;
  int64_t base = ragged_gs_base(j, idx), start = 0;
  for (int64_t g = 0; g < j->group; g++) start += load_i64(j->gs, base + g * j->gs_str[j->nprefix]);
  int64_t limit = start + load_i64(j->gs, base + j->group * j->gs_str[j->nprefix]);
  int32_t s = j->ragged_sum;
  int64_t n = p->sdims[s];
  start = start < 0 ? 0 : start > n ? n : start;
  limit = limit < start ? start : limit > n ? n : limit;
  int64_t sd[MAXS];
  memcpy(sd, p->sdims, sizeof(int64_t) * (size_t)p->nsum);
  sd[s] = limit - start;
  contract(p, sd, j->l, j->r, lo + start * p->lsum[s], ro + start * p->rsum[s], j->k, c);
}

static bool list_has(const int64_t *v, int64_t n, int64_t x) {
  for (int64_t i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

static kiln_status k_ragged_dot(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 3, 1));
  const kiln_op *op = a->op;
  const kiln_rtv *l = a->in[0], *r = a->in[1], *gs = a->in[2];
  const kiln_attr *s = kiln_op_attr(op, "ragged_dot_dimension_numbers");
  if (!s) return kiln_interp_error(ctx, op, "needs ragged_dot_dimension_numbers");
  dot_dims d;
  int64_t ragged[MAXR], group[MAXR], nragged, ngroup;
  KILN_RETURN_IF_ERROR(read_dot_dims(ctx, op, s, &d));
  KILN_RETURN_IF_ERROR(read_dim_list(ctx, op, s, "lhs_ragged_dimensions", ragged, &nragged));
  KILN_RETURN_IF_ERROR(read_dim_list(ctx, op, s, "rhs_group_dimensions", group, &ngroup));
  if (nragged != 1 || ragged[0] < 0 || ragged[0] >= l->rank)
    return kiln_interp_error(ctx, op, "needs exactly one lhs ragged dimension within the lhs rank");
  if (gs->rank < 1 || !kiln_elem_is_int(gs->elem)) return kiln_interp_error(ctx, op, "needs integer group_sizes");
  int64_t rd = ragged[0];
  bool contracting = list_has(d.lc, d.nc, rd), batching = list_has(d.lb, d.nb, rd);
  if (batching) return run_dot(ctx, a, &d); /* mode 3 */
  if (!contracting && (ngroup != 1 || group[0] < 0 || group[0] >= r->rank))
    return kiln_interp_error(ctx, op, "needs one rhs group dimension when the lhs ragged dimension is free");
  if (contracting && ngroup != 0)
    return kiln_interp_error(ctx, op, "takes no rhs group dimension when the lhs ragged dimension is contracting");
  plan p;
  KILN_RETURN_IF_ERROR(build_dot_plan(ctx, op, l, r, &d, contracting ? -1 : group[0], &p));
  ragged_job j = {.l = l, .r = r, .gs = gs, .k = ACC_INT, .groups = gs->dims[gs->rank - 1]};
  /* Leading group_sizes dimensions: the lhs batching dimensions, then the contracting
   * (mode 2) or free (mode 1) dimensions before the ragged one. */
  int64_t prefix[MAXR];
  int32_t np = 0;
  for (int64_t i = 0; i < d.nb; i++) prefix[np++] = d.lb[i];
  if (contracting) {
    for (int64_t i = 0; i < d.nc && d.lc[i] != rd; i++) prefix[np++] = d.lc[i];
  } else {
    for (int64_t i = 0; i < rd; i++)
      if (!list_has(d.lb, d.nb, i) && !list_has(d.lc, d.nc, i)) prefix[np++] = i;
  }
  if (gs->rank > 1) {
    if (gs->rank - 1 != np) return kiln_interp_error(ctx, op, "has group_sizes of rank %d where %d or 1 is expected",
                                                     (int)gs->rank, (int)np + 1);
    for (int32_t t = 0; t < np; t++) {
      if (p.l_res[prefix[t]] < 0)
        return kiln_interp_error(ctx, op, "group_sizes indexed by a contracting dimension is not supported");
      if (gs->dims[t] != l->dims[prefix[t]])
        return kiln_interp_error(ctx, op, "group_sizes dimension %d does not match lhs dimension %lld", (int)t,
                                 (long long)prefix[t]);
      j.prefix_res[t] = p.l_res[prefix[t]];
    }
    j.nprefix = np;
  }
  kiln_strides(gs->rank, gs->dims, j.gs_str);
  /* With one-dimensional group_sizes, gs_str[0] is the group stride (1). */
  if (gs->rank == 1) j.nprefix = 0;
  kiln_rtv *out;
  if (!contracting) {
    if (j.groups != r->dims[group[0]])
      return kiln_interp_error(ctx, op, "has %lld group sizes for %lld rhs groups", (long long)j.groups,
                               (long long)r->dims[group[0]]);
    int64_t rs[MAXR];
    kiln_strides(r->rank, r->dims, rs);
    j.rhs_group_stride = rs[group[0]];
    j.ragged_res = p.l_res[rd];
    KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, p.rank, p.dims));
    out = a->out[0];
    j.k = acc_kind_of(out->elem);
    walk_plan(&p, out, 0, ragged_mode1_elem, &j);
    return NULL;
  }
  if (p.rank + 1 > MAXR) return kiln_interp_error(ctx, op, "has a result of rank above %d", MAXR);
  int64_t dims[MAXR];
  dims[0] = j.groups;
  memcpy(dims + 1, p.dims, sizeof(int64_t) * (size_t)p.rank);
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, p.rank + 1, dims));
  out = a->out[0];
  j.k = acc_kind_of(out->elem);
  j.ragged_sum = p.l_sum[rd];
  int64_t per_group = 1;
  for (int32_t i = 0; i < p.rank; i++) per_group *= p.dims[i];
  for (j.group = 0; j.group < j.groups; j.group++) walk_plan(&p, out, j.group * per_group, ragged_mode2_elem, &j);
  return NULL;
}

/* ================================================================ convolution */

typedef struct conv_cfg {
  int32_t ns; /* spatial dimensions */
  int64_t ib, ifd, kif, kof, ob, ofd;
  int64_t is[MAXR], ks[MAXR], os[MAXR];
  int64_t stride[MAXR], pad_lo[MAXR], pad_hi[MAXR], ldil[MAXR], rdil[MAXR], rev[MAXR];
  int64_t fgc, bgc;
} conv_cfg;

static kiln_status conv_field(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_attr *s, const char *name,
                              int32_t rank, int64_t *v) {
  const kiln_attr *f = kiln_attr_get(s, name);
  *v = f ? read_int(f, -1) : 0; /* a missing scalar field is 0 */
  if (*v < 0 || *v >= rank) return kiln_interp_error(ctx, op, "has %s out of range", name);
  return NULL;
}

static kiln_status conv_list(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_attr *s, const char *name,
                             int32_t ns, int32_t rank, int64_t *v) {
  const kiln_attr *f = kiln_attr_get(s, name);
  int64_t n = f ? read_ints(f, v, MAXR) : 0;
  if (n != ns) return kiln_interp_error(ctx, op, "has %s with %lld entries, not %d", name, (long long)n, (int)ns);
  for (int32_t i = 0; i < ns; i++)
    if (v[i] < 0 || v[i] >= rank) return kiln_interp_error(ctx, op, "has %s out of range", name);
  return NULL;
}

/* A window attribute of ns entries (absent: all dflt). */
static kiln_status window_list(kiln_interp_ctx *ctx, const kiln_op *op, const char *name, int32_t ns, int64_t dflt,
                               int64_t min, int64_t *v) {
  const kiln_attr *f = kiln_op_attr(op, name);
  for (int32_t i = 0; i < ns; i++) v[i] = dflt;
  if (!f) return NULL;
  int64_t n = read_ints(f, v, MAXR);
  if (n != ns) return kiln_interp_error(ctx, op, "has %s with %lld entries, not %d", name, (long long)n, (int)ns);
  for (int32_t i = 0; i < ns; i++)
    if (v[i] < min) return kiln_interp_error(ctx, op, "has %s entries below %lld", name, (long long)min);
  return NULL;
}

static kiln_status read_conv(kiln_interp_ctx *ctx, const kiln_kernel_args *a, bool dynamic, conv_cfg *c) {
  const kiln_op *op = a->op;
  const kiln_rtv *l = a->in[0], *r = a->in[1];
  int32_t n = l->rank;
  if (n < 2 || r->rank != n) return kiln_interp_error(ctx, op, "needs lhs and rhs of one rank, at least 2");
  c->ns = n - 2;
  const kiln_attr *s = kiln_op_attr(op, "dimension_numbers");
  if (!s || s->kind != KILN_ATTR_STRUCT) return kiln_interp_error(ctx, op, "needs dimension_numbers");
  KILN_RETURN_IF_ERROR(conv_field(ctx, op, s, "input_batch_dimension", n, &c->ib));
  KILN_RETURN_IF_ERROR(conv_field(ctx, op, s, "input_feature_dimension", n, &c->ifd));
  KILN_RETURN_IF_ERROR(conv_list(ctx, op, s, "input_spatial_dimensions", c->ns, n, c->is));
  KILN_RETURN_IF_ERROR(conv_field(ctx, op, s, "kernel_input_feature_dimension", n, &c->kif));
  KILN_RETURN_IF_ERROR(conv_field(ctx, op, s, "kernel_output_feature_dimension", n, &c->kof));
  KILN_RETURN_IF_ERROR(conv_list(ctx, op, s, "kernel_spatial_dimensions", c->ns, n, c->ks));
  KILN_RETURN_IF_ERROR(conv_field(ctx, op, s, "output_batch_dimension", n, &c->ob));
  KILN_RETURN_IF_ERROR(conv_field(ctx, op, s, "output_feature_dimension", n, &c->ofd));
  KILN_RETURN_IF_ERROR(conv_list(ctx, op, s, "output_spatial_dimensions", c->ns, n, c->os));
  bool in_used[MAXR] = {false}, k_used[MAXR] = {false}, o_used[MAXR] = {false};
  int64_t in_dims[MAXR], k_dims[MAXR], o_dims[MAXR];
  in_dims[0] = c->ib, in_dims[1] = c->ifd;
  k_dims[0] = c->kif, k_dims[1] = c->kof;
  o_dims[0] = c->ob, o_dims[1] = c->ofd;
  memcpy(in_dims + 2, c->is, sizeof(int64_t) * (size_t)c->ns);
  memcpy(k_dims + 2, c->ks, sizeof(int64_t) * (size_t)c->ns);
  memcpy(o_dims + 2, c->os, sizeof(int64_t) * (size_t)c->ns);
  if (!mark_dims(in_dims, n, n, in_used) || !mark_dims(k_dims, n, n, k_used) || !mark_dims(o_dims, n, n, o_used))
    return kiln_interp_error(ctx, op, "has dimension_numbers that are not permutations of the dimensions");
  KILN_RETURN_IF_ERROR(window_list(ctx, op, "window_strides", c->ns, 1, 1, c->stride));
  KILN_RETURN_IF_ERROR(window_list(ctx, op, "lhs_dilation", c->ns, 1, 1, c->ldil));
  KILN_RETURN_IF_ERROR(window_list(ctx, op, "rhs_dilation", c->ns, 1, 1, c->rdil));
  KILN_RETURN_IF_ERROR(window_list(ctx, op, "window_reversal", c->ns, 0, 0, c->rev));
  for (int32_t i = 0; i < c->ns; i++) c->pad_lo[i] = c->pad_hi[i] = 0;
  if (dynamic) {
    const kiln_rtv *pad = a->in[2];
    if (!kiln_elem_is_int(pad->elem) || pad->count != 2 * (int64_t)c->ns)
      return kiln_interp_error(ctx, op, "needs an integer padding operand of shape [%d, 2]", (int)c->ns);
    for (int32_t i = 0; i < c->ns; i++) c->pad_lo[i] = load_i64(pad, 2 * i), c->pad_hi[i] = load_i64(pad, 2 * i + 1);
  } else if (kiln_op_attr(op, "padding")) {
    int64_t pv[2 * MAXR];
    if (read_ints(kiln_op_attr(op, "padding"), pv, 2 * MAXR) != 2 * (int64_t)c->ns)
      return kiln_interp_error(ctx, op, "needs padding of shape [%d, 2]", (int)c->ns);
    for (int32_t i = 0; i < c->ns; i++) c->pad_lo[i] = pv[2 * i], c->pad_hi[i] = pv[2 * i + 1];
  }
  c->fgc = read_int(kiln_op_attr(op, "feature_group_count"), 1);
  c->bgc = read_int(kiln_op_attr(op, "batch_group_count"), 1);
  int64_t batch = l->dims[c->ib], feat = l->dims[c->ifd], kin = r->dims[c->kif], kout = r->dims[c->kof];
  if (c->fgc < 1 || c->bgc < 1 || (c->fgc > 1 && c->bgc > 1) || batch % c->bgc || feat % c->fgc ||
      kout % c->fgc || kout % c->bgc || feat / c->fgc != kin)
    return kiln_interp_error(ctx, op, "has group counts that do not divide its feature and batch dimensions");
  return NULL;
}

typedef struct conv_job {
  const conv_cfg *c;
  const kiln_rtv *l, *r;
  kiln_rtv *out;
  int64_t ls[MAXR], rs[MAXR], os[MAXR];
} conv_job;

/* One result element: the dot product of a (dilated, padded, possibly reversed) lhs
 * window with the kernel, padding elements counting as zeros. */
static void conv_elem(const conv_job *j, const int64_t *oidx, int64_t flat, acc_kind k) {
  const conv_cfg *c = j->c;
  const kiln_rtv *l = j->l, *r = j->r;
  int64_t b = oidx[c->ob], f = oidx[c->ofd];
  int64_t kout = r->dims[c->kof], kin = r->dims[c->kif];
  int64_t lb = b, fbase = 0;
  if (c->bgc > 1) lb = (f / (kout / c->bgc)) * (l->dims[c->ib] / c->bgc) + b;
  if (c->fgc > 1) fbase = (f / (kout / c->fgc)) * kin;
  accum acc = {0, 0.0, 0.0};
  int64_t kidx[MAXR], kdims[MAXR];
  bool empty = kin == 0;
  for (int32_t s = 0; s < c->ns; s++) kidx[s] = 0, kdims[s] = r->dims[c->ks[s]], empty |= kdims[s] == 0;
  if (!empty) {
    do {
      int64_t loff = lb * j->ls[c->ib], roff = f * j->rs[c->kof];
      bool inside = true;
      for (int32_t s = 0; s < c->ns; s++) {
        int64_t w = c->rev[s] ? kdims[s] - 1 - kidx[s] : kidx[s];
        int64_t pos = oidx[c->os[s]] * c->stride[s] + w * c->rdil[s] - c->pad_lo[s];
        int64_t len = l->dims[c->is[s]];
        if (pos < 0 || pos % c->ldil[s] || pos / c->ldil[s] >= len) inside = false;
        else loff += pos / c->ldil[s] * j->ls[c->is[s]];
        roff += kidx[s] * j->rs[c->ks[s]];
      }
      for (int64_t fi = 0; fi < kin; fi++) {
        num x = inside ? load_num(l, loff + (fbase + fi) * j->ls[c->ifd], k) : k_zero;
        acc_mul_add(&acc, k, x, load_num(r, roff + fi * j->rs[c->kif], k));
      }
    } while (kiln_index_next(c->ns, kdims, kidx));
  }
  acc_store(j->out, flat, k, &acc);
}

static kiln_status run_conv(kiln_interp_ctx *ctx, const kiln_kernel_args *a, bool dynamic) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, dynamic ? 3 : 2, 1));
  conv_cfg c;
  KILN_RETURN_IF_ERROR(read_conv(ctx, a, dynamic, &c));
  const kiln_rtv *l = a->in[0], *r = a->in[1];
  int64_t dims[MAXR];
  dims[c.ob] = l->dims[c.ib] / c.bgc;
  dims[c.ofd] = r->dims[c.kof];
  for (int32_t s = 0; s < c.ns; s++) {
    int64_t len = l->dims[c.is[s]], win = r->dims[c.ks[s]];
    int64_t dilated = len == 0 ? 0 : (len - 1) * c.ldil[s] + 1;
    int64_t padded = c.pad_lo[s] + dilated + c.pad_hi[s];
    int64_t dwin = win == 0 ? 0 : (win - 1) * c.rdil[s] + 1;
    dims[c.os[s]] = padded <= 0 || dwin > padded ? 0 : (padded - dwin) / c.stride[s] + 1;
  }
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, l->rank, dims));
  conv_job j = {.c = &c, .l = l, .r = r, .out = a->out[0]};
  kiln_strides(l->rank, l->dims, j.ls);
  kiln_strides(r->rank, r->dims, j.rs);
  acc_kind k = acc_kind_of(j.out->elem);
  if (j.out->count == 0) return NULL;
  int64_t oidx[MAXR] = {0};
  int64_t flat = 0;
  do conv_elem(&j, oidx, flat++, k);
  while (kiln_index_next(l->rank, dims, oidx));
  return NULL;
}

static kiln_status k_convolution(kiln_interp_ctx *ctx, const kiln_kernel_args *a) { return run_conv(ctx, a, false); }
static kiln_status k_dynamic_conv(kiln_interp_ctx *ctx, const kiln_kernel_args *a) { return run_conv(ctx, a, true); }

/* ================================================================ complex helpers */

typedef struct cplx {
  double re, im;
} cplx;

/* Real operands (zero imaginary parts) multiply as reals, so that computations on real
 * types never see the imaginary parts (inf * 0 there would be NaN). */
static cplx c_mul(cplx a, cplx b) {
  if (a.im == 0 && b.im == 0) return (cplx){a.re * b.re, 0.0};
  return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
static cplx c_sub(cplx a, cplx b) { return (cplx){a.re - b.re, a.im - b.im}; }
static cplx c_conj(cplx a) { return (cplx){a.re, -a.im}; }

/* a / b; a plain real division when both are real (exact IEEE semantics), Smith's
 * algorithm otherwise. */
static cplx c_div(cplx a, cplx b) {
  if (b.im == 0 && a.im == 0) return (cplx){a.re / b.re, 0.0};
  if (b.im == 0) return (cplx){a.re / b.re, a.im / b.re};
  if (fabs(b.re) >= fabs(b.im)) {
    double q = b.im / b.re, den = b.re + b.im * q;
    return (cplx){(a.re + a.im * q) / den, (a.im - a.re * q) / den};
  }
  double q = b.re / b.im, den = b.re * q + b.im;
  return (cplx){(a.re * q + a.im) / den, (a.im * q - a.re) / den};
}

static cplx load_c(const kiln_rtv *t, int64_t i) {
  kiln_scalar s = kiln_scalar_load(t->elem, elem_ptr(t, i));
  if (kiln_elem_class_of(t->elem) == KILN_ELEM_CLASS_F || kiln_elem_class_of(t->elem) == KILN_ELEM_CLASS_C)
    return (cplx){s.f, s.im};
  return (cplx){kiln_elem_class_of(t->elem) == KILN_ELEM_CLASS_U ? (double)s.u : (double)s.i, 0.0};
}

static void store_c(kiln_rtv *t, int64_t i, cplx v) {
  kiln_scalar s = {{0}, 0};
  s.f = v.re;
  s.im = v.im;
  kiln_scalar_store(t->elem, elem_wptr(t, i), s);
}

static bool is_real_or_complex(kiln_elem e) { return kiln_elem_is_float(e) || kiln_elem_is_complex(e); }

/* ================================================================ fft */

/* The DFT is computed from its definition in double-double arithmetic (twiddles and sums
 * carry about 106 bits), so results are correctly rounded in practice; this costs
 * O(n^2) per line and axis, which the interpreter can afford. */
typedef struct dd {
  double hi, lo;
} dd;

static dd dd_two_sum(double a, double b) {
  double s = a + b, z = s - a;
  return (dd){s, (a - (s - z)) + (b - z)};
}

static dd dd_fast(double a, double b) { /* |a| >= |b| */
  double s = a + b;
  return (dd){s, b - (s - a)};
}

static dd dd_add(dd a, dd b) {
  if (!isfinite(a.hi) || !isfinite(b.hi)) return (dd){a.hi + b.hi, 0.0};
  dd s = dd_two_sum(a.hi, b.hi), t = dd_two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = dd_fast(s.hi, s.lo);
  s.lo += t.lo;
  return dd_fast(s.hi, s.lo);
}

static dd dd_neg(dd a) { return (dd){-a.hi, -a.lo}; }

static dd dd_mul(dd a, dd b) {
  double p = a.hi * b.hi;
  if (!isfinite(p) || p == 0) return (dd){p, 0.0};
  double e = fma(a.hi, b.hi, -p);
  e += a.hi * b.lo + a.lo * b.hi;
  return dd_fast(p, e);
}

static dd dd_div_d(dd a, double d) {
  double q = a.hi / d;
  if (!isfinite(q) || q == 0) return (dd){q, 0.0};
  double p = q * d, pe = fma(q, d, -p);
  double r = ((a.hi - p) - pe + a.lo) / d;
  return dd_fast(q, r);
}

typedef struct ddc {
  dd re, im;
} ddc;

static ddc ddc_mul(ddc a, ddc b) {
  return (ddc){dd_add(dd_mul(a.re, b.re), dd_neg(dd_mul(a.im, b.im))), dd_add(dd_mul(a.re, b.im), dd_mul(a.im, b.re))};
}

/* pi / 2 as a double-double. */
static const dd k_half_pi = {1.5707963267948966, 6.123233995736766e-17};

/* cos t and sin t for |t| <= pi/4 by their Taylor series. */
static void dd_cos_sin(dd t, dd *c, dd *s) {
  dd t2 = dd_mul(t, t), term = t, sum_s = t, sum_c = {1.0, 0.0}, cterm = {1.0, 0.0};
  for (int k = 1; k < 30; k++) {
    term = dd_div_d(dd_mul(term, dd_neg(t2)), (double)(2 * k) * (double)(2 * k + 1));
    cterm = dd_div_d(dd_mul(cterm, dd_neg(t2)), (double)(2 * k - 1) * (double)(2 * k));
    sum_s = dd_add(sum_s, term);
    sum_c = dd_add(sum_c, cterm);
    if (fabs(cterm.hi) < 1e-40 && fabs(term.hi) < 1e-40) break;
  }
  *c = sum_c;
  *s = sum_s;
}

/* e^(sign * 2 pi i m / n) for m in [0, n), quarter turns exact. */
static void twiddles(int64_t n, int sign, ddc *w) {
  for (int64_t m = 0; m < n; m++) {
    /* m/n turns = q quarter turns + rem/(4n) turns, |rem| <= n/2: angle q pi/2 + t. */
    int64_t q = (4 * m + n / 2) / n, rem = 4 * m - q * n;
    dd t = dd_mul(k_half_pi, dd_div_d((dd){(double)rem, 0.0}, (double)n)), c, s;
    dd_cos_sin(t, &c, &s);
    ddc v;
    switch (q & 3) {
      case 0: v = (ddc){c, s}; break;
      case 1: v = (ddc){dd_neg(s), c}; break;
      case 2: v = (ddc){dd_neg(c), dd_neg(s)}; break;
      default: v = (ddc){s, dd_neg(c)}; break;
    }
    w[m] = (ddc){v.re, sign < 0 ? dd_neg(v.im) : v.im};
  }
}

/* Transforms dimension `axis` of src (shape dims) into dst (the same shape, except
 * n_out along axis): dst[k] = sum_{j<N} x[j] e^(sign 2 pi i j k / N), divided by N for
 * the inverse (sign +1). x[j] is src[j] (zero beyond the source), or with `hermitian`
 * the Hermitian extension of a half spectrum: src[j] for j <= N/2, conj(src[N-j]) above. */
static kiln_status dft_axis(const ddc *src, ddc *dst, int32_t rank, const int64_t *dims, int32_t axis, int64_t N,
                            int64_t n_out, int sign, bool hermitian) {
  int64_t outer = 1, inner = 1, n_in = dims[axis];
  for (int32_t d = 0; d < axis; d++) outer *= dims[d];
  for (int32_t d = axis + 1; d < rank; d++) inner *= dims[d];
  if (outer * inner == 0 || n_out == 0) return NULL;
  ddc *w = malloc(sizeof(ddc) * (size_t)(N + 1)), *x = malloc(sizeof(ddc) * (size_t)(N + 1));
  if (!w || !x) {
    free(w), free(x);
    return OOM();
  }
  twiddles(N, sign, w);
  const ddc zero = {{0.0, 0.0}, {0.0, 0.0}};
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t i = 0; i < inner; i++) {
      const ddc *line = src + o * n_in * inner + i;
      for (int64_t jj = 0; jj < N; jj++) {
        int64_t m = hermitian && jj > N / 2 ? N - jj : jj;
        ddc v = m < n_in ? line[m * inner] : zero;
        x[jj] = m != jj ? (ddc){v.re, dd_neg(v.im)} : v;
      }
      for (int64_t kk = 0; kk < n_out; kk++) {
        ddc sum = zero;
        int64_t m = 0;
        for (int64_t jj = 0; jj < N; jj++) {
          ddc p = ddc_mul(x[jj], w[m]);
          sum.re = dd_add(sum.re, p.re);
          sum.im = dd_add(sum.im, p.im);
          m += kk % N;
          if (m >= N) m -= N;
        }
        if (sign > 0 && N > 0) sum.re = dd_div_d(sum.re, (double)N), sum.im = dd_div_d(sum.im, (double)N);
        dst[(o * n_out + kk) * inner + i] = sum;
      }
    }
  }
  free(w);
  free(x);
  return NULL;
}

static kiln_status k_fft(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 1, 1));
  const kiln_op *op = a->op;
  const kiln_rtv *x = a->in[0];
  const kiln_attr *ta = kiln_op_attr(op, "fft_type");
  enum { FFT, IFFT, RFFT, IRFFT } type;
  if (enum_is(ta, "FFT")) type = FFT;
  else if (enum_is(ta, "IFFT")) type = IFFT;
  else if (enum_is(ta, "RFFT")) type = RFFT;
  else if (enum_is(ta, "IRFFT")) type = IRFFT;
  else return kiln_interp_error(ctx, op, "has an unknown fft_type %s", enum_text(ta));
  int64_t len[MAXR];
  int64_t nl = read_ints(kiln_op_attr(op, "fft_length"), len, MAXR);
  if (nl < 1 || nl > x->rank) return kiln_interp_error(ctx, op, "needs fft_length of 1 to rank(operand) entries");
  for (int64_t i = 0; i < nl; i++)
    if (len[i] < 0) return kiln_interp_error(ctx, op, "has a negative fft_length");
  int32_t rank = x->rank, first = rank - (int32_t)nl, last = rank - 1;
  bool real_in = type == RFFT;
  if (real_in ? !kiln_elem_is_float(x->elem) : !kiln_elem_is_complex(x->elem))
    return kiln_interp_error(ctx, op, "needs a %s operand", real_in ? "floating-point" : "complex");
  int64_t dims[MAXR];
  memcpy(dims, x->dims, sizeof(int64_t) * (size_t)rank);
  int64_t N = len[nl - 1];
  if (type == RFFT) dims[last] = N / 2 + 1;
  if (type == IRFFT) dims[last] = N;
  for (int32_t d = first; d < rank; d++)
    if ((d != last || type != IRFFT) && x->dims[d] != len[d - first])
      return kiln_interp_error(ctx, op, "has operand dimension %d of size %lld, but fft_length %lld", (int)d,
                               (long long)x->dims[d], (long long)len[d - first]);
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, rank, dims));
  kiln_rtv *out = a->out[0];
  if ((type == IRFFT ? !kiln_elem_is_float(out->elem) : !kiln_elem_is_complex(out->elem)))
    return kiln_interp_error(ctx, op, "has a result of the wrong element type for its fft_type");
  /* Two work buffers big enough for the operand and the result shapes. */
  int64_t cap = x->count > out->count ? x->count : out->count;
  ddc *buf = malloc(sizeof(ddc) * (size_t)(cap + 1)), *tmp = malloc(sizeof(ddc) * (size_t)(cap + 1));
  if (!buf || !tmp) {
    free(buf), free(tmp);
    return OOM();
  }
  for (int64_t i = 0; i < x->count; i++) {
    cplx v = load_c(x, i);
    buf[i] = (ddc){{v.re, 0.0}, {v.im, 0.0}};
  }
  int64_t cur[MAXR];
  memcpy(cur, x->dims, sizeof(int64_t) * (size_t)rank);
  kiln_status st = NULL;
  int sign = type == FFT || type == RFFT ? -1 : 1;
  /* Forward transforms do the last axis first (RFFT halves it), inverse ones do it last
   * (IRFFT expands it); the axes are independent otherwise. */
  for (int32_t step = 0; !st && step < (int32_t)nl; step++) {
    int32_t d = sign < 0 ? last - step : first + step;
    int64_t n_out = d == last ? dims[last] : cur[d];
    st = dft_axis(buf, tmp, rank, cur, d, len[d - first], n_out, sign, type == IRFFT && d == last);
    cur[d] = n_out;
    ddc *t = buf;
    buf = tmp, tmp = t;
  }
  if (!st)
    for (int64_t i = 0; i < out->count; i++)
      store_c(out, i, (cplx){buf[i].re.hi + buf[i].re.lo, type == IRFFT ? 0.0 : buf[i].im.hi + buf[i].im.lo});
  free(buf);
  free(tmp);
  return st;
}

/* ================================================================ cholesky, triangular_solve */

/* Copies operand x into result 0 of the same shape. */
static kiln_status copy_result(kiln_interp_ctx *ctx, const kiln_kernel_args *a, const kiln_rtv *x) {
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, x->rank, x->dims));
  kiln_rtv *out = a->out[0];
  if (out->elem == x->elem) memcpy(out->data, x->data, (size_t)x->count * x->elem_bytes);
  else
    for (int64_t i = 0; i < x->count; i++) store_c(out, i, load_c(x, i));
  return NULL;
}

static kiln_status check_square(kiln_interp_ctx *ctx, const kiln_op *op, const kiln_rtv *x, const char *what) {
  if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2] || !is_real_or_complex(x->elem))
    return kiln_interp_error(ctx, op, "needs %s to be a floating-point or complex tensor of square matrices", what);
  return NULL;
}

/* Cholesky factor L (lower, A = L L^H) of each matrix, read from the `lower` triangle;
 * with lower = false the result is U = L^H in the upper triangle. The other triangle
 * keeps the operand's values. */
static kiln_status k_cholesky(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 1, 1));
  const kiln_rtv *x = a->in[0];
  KILN_RETURN_IF_ERROR(check_square(ctx, a->op, x, "the operand"));
  bool lower = read_flag(kiln_op_attr(a->op, "lower"), false);
  KILN_RETURN_IF_ERROR(copy_result(ctx, a, x));
  kiln_rtv *out = a->out[0];
  int64_t n = x->dims[x->rank - 1];
  if (n == 0) return NULL;
  int64_t batches = x->count / (n * n);
  cplx *L = malloc(sizeof(cplx) * (size_t)(n * n));
  if (!L) return OOM();
  for (int64_t b = 0; b < batches; b++) {
    int64_t base = b * n * n;
    for (int64_t i = 0; i < n; i++)
      for (int64_t jc = 0; jc <= i; jc++)
        L[i * n + jc] = lower ? load_c(x, base + i * n + jc) : c_conj(load_c(x, base + jc * n + i));
    for (int64_t jc = 0; jc < n; jc++) {
      double dsum = L[jc * n + jc].re;
      for (int64_t k = 0; k < jc; k++) {
        cplx v = L[jc * n + k];
        dsum -= v.re * v.re + v.im * v.im;
      }
      double djj = sqrt(dsum);
      L[jc * n + jc] = (cplx){djj, 0.0};
      for (int64_t i = jc + 1; i < n; i++) {
        cplx s = L[i * n + jc];
        for (int64_t k = 0; k < jc; k++) s = c_sub(s, c_mul(L[i * n + k], c_conj(L[jc * n + k])));
        L[i * n + jc] = (cplx){s.re / djj, s.im / djj};
      }
    }
    for (int64_t i = 0; i < n; i++)
      for (int64_t jc = 0; jc <= i; jc++) {
        if (lower) store_c(out, base + i * n + jc, L[i * n + jc]);
        else store_c(out, base + jc * n + i, c_conj(L[i * n + jc]));
      }
  }
  free(L);
  return NULL;
}

/* Solves op(A) X = B (left_side) or X op(A) = B, A triangular as `lower` says (the other
 * triangle is ignored; unit_diagonal: the diagonal is taken as ones). */
static kiln_status k_triangular_solve(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 2, 1));
  const kiln_op *op = a->op;
  const kiln_rtv *A = a->in[0], *B = a->in[1];
  KILN_RETURN_IF_ERROR(check_square(ctx, op, A, "a"));
  bool left = read_flag(kiln_op_attr(op, "left_side"), false);
  bool lower = read_flag(kiln_op_attr(op, "lower"), false);
  bool unit = read_flag(kiln_op_attr(op, "unit_diagonal"), false);
  const kiln_attr *ta = kiln_op_attr(op, "transpose_a");
  bool trans = false, conj = false;
  if (enum_is(ta, "TRANSPOSE")) trans = true;
  else if (enum_is(ta, "ADJOINT")) trans = conj = true;
  else if (ta && !enum_is(ta, "NO_TRANSPOSE") && !enum_is(ta, "TRANSPOSE_INVALID"))
    return kiln_interp_error(ctx, op, "has an unknown transpose_a %s", enum_text(ta));
  int32_t r = A->rank;
  int64_t m = A->dims[r - 1];
  bool ok = B->rank == r && is_real_or_complex(B->elem) && B->dims[left ? r - 2 : r - 1] == m;
  for (int32_t d = 0; ok && d < r - 2; d++) ok = A->dims[d] == B->dims[d];
  if (!ok) return kiln_interp_error(ctx, op, "has b of a shape that does not match a");
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, B->rank, B->dims));
  kiln_rtv *out = a->out[0];
  int64_t rows = B->dims[r - 2], cols = B->dims[r - 1];
  int64_t nvec = left ? cols : rows; /* right-hand sides per matrix */
  if (out->count == 0) return NULL;
  int64_t batches = out->count / (rows * cols);
  cplx *M = malloc(sizeof(cplx) * (size_t)(m * m + 1)), *y = malloc(sizeof(cplx) * (size_t)(m + 1));
  if (!M || !y) {
    free(M), free(y);
    return OOM();
  }
  /* op(A) is lower triangular iff lower != trans. Left: op(A) y = b for each column of B.
   * Right: x op(A) = b, i.e. op(A)^T x^T = b^T, for each row: M = op(A)^T. */
  bool m_lower = lower != trans;
  if (!left) m_lower = !m_lower;
  for (int64_t b = 0; b < batches; b++) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t jc = 0; jc < m; jc++) {
        /* M[i][jc] = op(A)[i][jc] (left) or op(A)[jc][i] (right). */
        int64_t oi = left ? i : jc, oj = left ? jc : i;
        int64_t ai = trans ? oj : oi, aj = trans ? oi : oj; /* element of A */
        bool in_tri = lower ? ai >= aj : ai <= aj;
        cplx v = ai == aj && unit ? (cplx){1.0, 0.0} : in_tri ? load_c(A, b * m * m + ai * m + aj) : (cplx){0.0, 0.0};
        M[i * m + jc] = conj ? c_conj(v) : v;
      }
    for (int64_t v = 0; v < nvec; v++) {
      /* element t of right-hand side v */
      int64_t base = b * rows * cols, step = left ? cols : 1, off = left ? v : v * cols;
      for (int64_t t = 0; t < m; t++) {
        int64_t i = m_lower ? t : m - 1 - t;
        cplx s = load_c(B, base + off + i * step);
        if (m_lower)
          for (int64_t jc = 0; jc < i; jc++) s = c_sub(s, c_mul(M[i * m + jc], y[jc]));
        else
          for (int64_t jc = i + 1; jc < m; jc++) s = c_sub(s, c_mul(M[i * m + jc], y[jc]));
        y[i] = unit ? s : c_div(s, M[i * m + i]);
      }
      for (int64_t i = 0; i < m; i++) store_c(out, base + off + i * step, y[i]);
    }
  }
  free(M);
  free(y);
  return NULL;
}

/* ================================================================ rng */

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static double unit_interval(uint64_t r) { return (double)(r >> 11) * 0x1p-53; } /* [0, 1) */

/* rng: implementation-defined values; here a splitmix64 stream over a process-wide
 * counter (UNIFORM in [a, b), NORMAL by Box-Muller). */
static kiln_status k_rng(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  static atomic_uint_fast64_t counter;
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 3, 1));
  const kiln_op *op = a->op;
  const kiln_rtv *lo = a->in[0], *hi = a->in[1], *shape = a->in[2];
  if (lo->count != 1 || hi->count != 1) return kiln_interp_error(ctx, op, "needs scalar a and b");
  if (shape->rank != 1 || !kiln_elem_is_int(shape->elem) || shape->count > MAXR)
    return kiln_interp_error(ctx, op, "needs a one-dimensional integer shape");
  int64_t dims[MAXR];
  for (int64_t i = 0; i < shape->count; i++) {
    dims[i] = load_i64(shape, i);
    if (dims[i] < 0) return kiln_interp_error(ctx, op, "has a negative dimension in its shape");
  }
  const kiln_attr *dist = kiln_op_attr(op, "rng_distribution");
  bool normal = enum_is(dist, "NORMAL");
  if (!normal && !enum_is(dist, "UNIFORM"))
    return kiln_interp_error(ctx, op, "has an unknown rng_distribution %s", enum_text(dist));
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, (int32_t)shape->count, dims));
  kiln_rtv *out = a->out[0];
  bool fp = kiln_elem_is_float(out->elem);
  if (kiln_elem_is_complex(out->elem) || (normal && !fp))
    return kiln_interp_error(ctx, op, "cannot generate %s values of type %s", normal ? "NORMAL" : "UNIFORM",
                             kiln_elem_name(out->elem));
  uint64_t base = atomic_fetch_add(&counter, (uint64_t)out->count * 2);
  kiln_scalar sa = kiln_scalar_load(lo->elem, lo->data), sb = kiln_scalar_load(hi->elem, hi->data);
  for (int64_t i = 0; i < out->count; i++) {
    uint64_t r1 = splitmix64(base + 2 * (uint64_t)i), r2 = splitmix64(base + 2 * (uint64_t)i + 1);
    kiln_scalar v = {{0}, 0};
    if (normal) {
      double u1 = 1.0 - unit_interval(r1), u2 = unit_interval(r2); /* u1 in (0, 1] */
      v.f = sa.f + sb.f * sqrt(-2.0 * log(u1)) * cos(2.0 * k_pi * u2);
    } else if (fp) {
      v.f = sa.f + (sb.f - sa.f) * unit_interval(r1);
    } else {
      bool below = kiln_elem_class_of(out->elem) == KILN_ELEM_CLASS_U ? sa.u < sb.u : sa.i < sb.i;
      v.u = sa.u + (below ? r1 % (sb.u - sa.u) : 0);
    }
    kiln_scalar_store(out->elem, elem_wptr(out, i), v);
    if (fp && !normal && !(kiln_scalar_load(out->elem, elem_wptr(out, i)).f < sb.f))
      kiln_scalar_store(out->elem, elem_wptr(out, i), sa); /* rounded up to b: keep [a, b) */
  }
  return NULL;
}

/* ---------------------------------------------------------------- rng_bit_generator */

/* rng_bit_generator with output dims (NULL: the result type's, which must be static). */
static kiln_status rng_bits(kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t rank, const int64_t *dims) {
  const kiln_op *op = a->op;
  const kiln_rtv *state = a->in[0];
  const kiln_attr *alg = kiln_op_attr(op, "rng_algorithm");
  bool philox = !alg || enum_is(alg, "DEFAULT") || enum_is(alg, "PHILOX");
  if (!philox && !enum_is(alg, "THREE_FRY"))
    return kiln_interp_error(ctx, op, "has an unknown rng_algorithm %s", enum_text(alg));
  if (state->rank != 1 || !kiln_elem_is_int(state->elem) || !kiln_rng_state_ok(philox, state->count))
    return kiln_interp_error(ctx, op, "needs an integer state of %s elements", philox ? "2 or 3" : "2");
  KILN_RETURN_IF_ERROR(make_result(ctx, a, 0, 1, state->dims));
  const kiln_type *t = op->results[1].type;
  if (dims) KILN_RETURN_IF_ERROR(make_result(ctx, a, 1, rank, dims));
  else if (!kiln_type_is_tensor(t) || t->tensor.num_elements < 0)
    return kiln_interp_error(ctx, op, "needs a static shape for its output");
  else KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 1, t->tensor.rank, t->tensor.dims));
  kiln_rtv *ns = a->out[0], *out = a->out[1];
  kiln_rng_plan rp;
  if (!kiln_rng_plan_init(&rp, philox, out->elem, out->rank, out->dims))
    return kiln_interp_error(ctx, op, "cannot generate bits of type %s", kiln_elem_name(out->elem));
  uint64_t s[3] = {0, 0, 0};
  for (int64_t i = 0; i < state->count; i++) s[i] = kiln_scalar_load(state->elem, elem_ptr(state, i)).u;
  kiln_rng_fill(&rp, s, state->count, out->data, 0, rp.blocks);
  kiln_rng_advance(&rp, s, state->count);
  for (int64_t i = 0; i < state->count; i++) {
    kiln_scalar v = {{0}, 0};
    v.u = s[i];
    kiln_scalar_store(ns->elem, elem_wptr(ns, i), v);
  }
  return NULL;
}

static kiln_status k_rng_bit_generator(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 1, 2));
  return rng_bits(ctx, a, 0, NULL);
}

kiln_status kiln_interp_dynamic_rng_bit_generator(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  KILN_RETURN_IF_ERROR(need_tensors(ctx, a, 2, 2));
  const kiln_rtv *shape = a->in[1];
  if (shape->rank != 1 || shape->dims[0] > KILN_RTV_MAX_RANK || !kiln_elem_is_int(shape->elem) || shape->elem == KILN_ELEM_I1)
    return kiln_interp_error(ctx, a->op, "its output shape must be a 1-D integer tensor of at most %d sizes", KILN_RTV_MAX_RANK);
  int64_t dims[KILN_RTV_MAX_RANK];
  for (int64_t d = 0; d < shape->dims[0]; d++) {
    dims[d] = kiln_scalar_load(shape->elem, elem_ptr(shape, d)).i;
    if (dims[d] < 0)
      return kiln_interp_error(ctx, a->op, "its output shape has a negative size %lld", (long long)dims[d]);
  }
  return rng_bits(ctx, a, (int32_t)shape->dims[0], dims);
}

/* ================================================================ lookup */

kiln_interp_kernel kiln_interp_linalg_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_DOT_GENERAL: return k_dot_general;
    case KILN_OP_DOT: return k_dot;
    case KILN_OP_EINSUM: return k_einsum;
    case KILN_OP_UNARY_EINSUM: return k_unary_einsum;
    case KILN_OP_CHLO_RAGGED_DOT: return k_ragged_dot;
    case KILN_OP_CONVOLUTION: return k_convolution;
    case KILN_OP_DYNAMIC_CONV: return k_dynamic_conv;
    case KILN_OP_FFT: return k_fft;
    case KILN_OP_CHOLESKY: return k_cholesky;
    case KILN_OP_TRIANGULAR_SOLVE: return k_triangular_solve;
    case KILN_OP_RNG: return k_rng;
    case KILN_OP_RNG_BIT_GENERATOR: return k_rng_bit_generator;
    default: return NULL;
  }
}
