/* dot_general (and dot) as a oneDNN matmul.
 *
 * The result of dot_general is [batch..., lhs free..., rhs free...] row-major, that is a
 * dense [batch..., M, N] with M and N the products of the free dimensions. The operands
 * become [batch..., M, K] and [batch..., K, N]: dimensions of size one are dropped, each
 * batching dimension stays one matmul dimension, and the free and contracting dimensions of
 * an operand collapse into M (or N) and K when their strides allow it (the contracting
 * pairs may be taken in any order, the same for both sides). An operand whose dimensions
 * do not collapse is copied into [batch..., free..., contracting...] order first. */
#include <string.h>

#include "backends/cpu/dnnl_internal.h"
#include "backends/cpu/igemm.h"
#include "backends/cpu/isa.h"

#define MAXD DNNL_MAX_NDIMS

typedef struct dot_side {
  int32_t rank;
  int64_t dims[MAXD], strides[MAXD];
  int32_t nfree;
  int32_t free[MAXD]; /* free dimensions of size above one, ascending */
  dnnl_data_type_t type;
} dot_side;

typedef struct dot_plan {
  dot_side s[2]; /* lhs, rhs */
  int32_t nb, nc;
  int32_t nb_all, nc_all; /* as written, sizes of one included */
  int32_t b[2][MAXD], c[2][MAXD]; /* kept batching and contracting pairs (sizes above one) */
  int64_t M, N, K;
} dot_plan;

static kiln_status read_list(const kiln_op *op, const kiln_attr *dn, const char *name, int64_t *v, int64_t *n) {
  *n = kiln_dnnl_ints(dn ? kiln_attr_get(dn, name) : NULL, v, MAXD);
  if (*n < 0 || *n > MAXD) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dot_general: bad %s", name);
  return NULL;
}

static void side_init(dot_side *s, const kiln_type *t) {
  s->rank = t->tensor.rank;
  memcpy(s->dims, t->tensor.dims, sizeof(int64_t) * (size_t)s->rank);
  kiln_dnnl_dense_strides(s->rank, s->dims, s->strides);
  kiln_dnnl_type(kiln_type_elem(t), &s->type);
}

/* Reads the dimension numbers into the plan: pairs of size one dropped, ranges checked. */
static kiln_status read_plan(const kiln_op *op, dot_plan *p) {
  side_init(&p->s[0], op->operands[0]->type);
  side_init(&p->s[1], op->operands[1]->type);
  int64_t lb[MAXD], rb[MAXD], lc[MAXD], rc[MAXD], nb, nc, nrb, nrc;
  if (op->kind == KILN_OP_DOT) {
    nb = nrb = 0;
    nc = nrc = 1;
    lc[0] = p->s[0].rank - 1;
    rc[0] = 0;
  } else {
    const kiln_attr *dn = kiln_op_attr(op, "dot_dimension_numbers");
    KILN_RETURN_IF_ERROR(read_list(op, dn, "lhs_batching_dimensions", lb, &nb));
    KILN_RETURN_IF_ERROR(read_list(op, dn, "rhs_batching_dimensions", rb, &nrb));
    KILN_RETURN_IF_ERROR(read_list(op, dn, "lhs_contracting_dimensions", lc, &nc));
    KILN_RETURN_IF_ERROR(read_list(op, dn, "rhs_contracting_dimensions", rc, &nrc));
  }
  if (nb != nrb || nc != nrc)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dot_general: lhs and rhs dimension lists differ in length");
  bool used[2][MAXD] = {{false}};
  const int64_t *lists[2][2] = {{lb, lc}, {rb, rc}};
  int64_t counts[2] = {nb, nc};
  for (int side = 0; side < 2; side++)
    for (int k = 0; k < 2; k++)
      for (int64_t i = 0; i < counts[k]; i++) {
        int64_t d = lists[side][k][i];
        if (d < 0 || d >= p->s[side].rank || used[side][d])
          return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dot_general: dimension %lld out of range or repeated",
                             (long long)d);
        used[side][d] = true;
      }
  p->nb = p->nc = 0;
  p->nb_all = (int32_t)nb;
  p->nc_all = (int32_t)nc;
  p->K = 1;
  for (int64_t i = 0; i < nb; i++) {
    if (p->s[0].dims[lb[i]] != p->s[1].dims[rb[i]])
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dot_general: batching dimensions differ in size");
    if (p->s[0].dims[lb[i]] == 1) continue;
    p->b[0][p->nb] = (int32_t)lb[i];
    p->b[1][p->nb++] = (int32_t)rb[i];
  }
  for (int64_t i = 0; i < nc; i++) {
    if (p->s[0].dims[lc[i]] != p->s[1].dims[rc[i]])
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "dot_general: contracting dimensions differ in size");
    p->K *= p->s[0].dims[lc[i]];
    if (p->s[0].dims[lc[i]] == 1) continue;
    p->c[0][p->nc] = (int32_t)lc[i];
    p->c[1][p->nc++] = (int32_t)rc[i];
  }
  int64_t *mn[2] = {&p->M, &p->N};
  for (int side = 0; side < 2; side++) {
    dot_side *s = &p->s[side];
    s->nfree = 0;
    *mn[side] = 1;
    for (int32_t d = 0; d < s->rank; d++) {
      if (used[side][d]) continue;
      *mn[side] *= s->dims[d];
      if (s->dims[d] != 1) s->free[s->nfree++] = d;
    }
  }
  return NULL;
}

/* Whether dimensions list[0..n) of s collapse into one (each stride the next one's times
 * its size); *stride gets the collapsed stride (dflt for an empty list). */
static bool collapse(const dot_side *s, const int32_t *list, int32_t n, int64_t dflt, int64_t *stride) {
  for (int32_t i = 0; i + 1 < n; i++)
    if (s->strides[list[i]] != s->strides[list[i + 1]] * s->dims[list[i + 1]]) return false;
  *stride = n ? s->strides[list[n - 1]] : dflt;
  return true;
}

/* Orders the contracting pairs by descending stride of one side (insertion sort). */
static void sort_pairs(dot_plan *p, int side) {
  for (int32_t i = 1; i < p->nc; i++)
    for (int32_t j = i; j > 0 && p->s[side].strides[p->c[side][j]] > p->s[side].strides[p->c[side][j - 1]]; j--)
      for (int k = 0; k < 2; k++) {
        int32_t t = p->c[k][j];
        p->c[k][j] = p->c[k][j - 1];
        p->c[k][j - 1] = t;
      }
}

static bool side_collapses(const dot_plan *p, int side) {
  int64_t st;
  return collapse(&p->s[side], p->s[side].free, p->s[side].nfree, 1, &st) &&
         collapse(&p->s[side], p->c[side], p->nc, 1, &st);
}

/* Picks the order of the contracting pairs that lets the most operands be read in place;
 * sets pack[side] for the others. */
static void choose_order(dot_plan *p, bool pack[2]) {
  int32_t given[2][MAXD];
  memcpy(given, p->c, sizeof given);
  for (int attempt = 0; attempt < 3; attempt++) {
    memcpy(p->c, given, sizeof given);
    if (attempt) sort_pairs(p, attempt - 1);
    if (side_collapses(p, 0) && side_collapses(p, 1)) {
      pack[0] = pack[1] = false;
      return;
    }
  }
  for (int side = 0; side < 2; side++) {
    memcpy(p->c, given, sizeof given);
    sort_pairs(p, side);
    if (side_collapses(p, side)) {
      pack[side] = false;
      pack[1 - side] = true;
      return;
    }
  }
  memcpy(p->c, given, sizeof given);
  pack[0] = pack[1] = true;
}

/* The matmul view of one operand: lhs [batch..., M, K], rhs [batch..., K, N]; packed
 * through a temporary in [batch..., free..., contracting...] order when pack is set. */
static kiln_status side_io(const dot_plan *p, int side, bool pack, kiln_dnnl_io *io) {
  const dot_side *s = &p->s[side];
  int n = p->nb + 2;
  int64_t dims[MAXD], strides[MAXD];
  for (int32_t i = 0; i < p->nb; i++) dims[i] = s->dims[p->b[side][i]], strides[i] = s->strides[p->b[side][i]];
  int fpos = side == 0 ? n - 2 : n - 1, kpos = side == 0 ? n - 1 : n - 2;
  dims[fpos] = side == 0 ? p->M : p->N;
  dims[kpos] = p->K;
  memset(io, 0, sizeof *io);
  if (!pack) {
    int64_t fs = 1, ks = 1;
    collapse(s, p->c[side], p->nc, 1, &ks);
    collapse(s, s->free, s->nfree, 1, &fs);
    /* Size-one M/N or K: a stride as if dense around the other. */
    if (!s->nfree) fs = p->nc ? ks * p->K : 1;
    if (!p->nc) ks = s->nfree ? fs * dims[fpos] : 1;
    strides[fpos] = fs;
    strides[kpos] = ks;
    KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->user_md, n, dims, strides, s->type));
    io->prim_md = io->user_md;
    return NULL;
  }
  /* The operand's own dimensions in [batch, free, contracting] order. */
  int64_t vd[MAXD], vs[MAXD], ds[MAXD];
  int vn = 0;
  for (int32_t i = 0; i < p->nb; i++) vd[vn] = s->dims[p->b[side][i]], vs[vn++] = s->strides[p->b[side][i]];
  for (int32_t i = 0; i < s->nfree; i++) vd[vn] = s->dims[s->free[i]], vs[vn++] = s->strides[s->free[i]];
  for (int32_t i = 0; i < p->nc; i++) vd[vn] = s->dims[p->c[side][i]], vs[vn++] = s->strides[p->c[side][i]];
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->user_md, vn, vd, vs, s->type));
  kiln_dnnl_dense_strides(vn, vd, ds);
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->tmp_md, vn, vd, ds, s->type));
  /* Dense [batch..., F, K]: rhs then reads it as [batch..., K, N] transposed. */
  int64_t pd[MAXD], ps[MAXD];
  for (int32_t i = 0; i < p->nb; i++) pd[i] = dims[i];
  pd[n - 2] = dims[fpos];
  pd[n - 1] = p->K;
  kiln_dnnl_dense_strides(n, pd, ps);
  strides[fpos] = ps[n - 2];
  strides[kpos] = ps[n - 1];
  for (int32_t i = 0; i < p->nb; i++) strides[i] = ps[i];
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->prim_md, n, dims, strides, s->type));
  io->via_tmp = true;
  return NULL;
}

static kiln_status build_matmul(kiln_cpu_dnnl_op *p, const dot_plan *d, const bool pack[2]) {
  KILN_RETURN_IF_ERROR(side_io(d, 0, pack[0], &p->io[KILN_DNNL_SRC]));
  KILN_RETURN_IF_ERROR(side_io(d, 1, pack[1], &p->io[KILN_DNNL_WEI]));
  if (dnnl_matmul_desc_init(&p->matmul, &p->io[KILN_DNNL_SRC].prim_md, &p->io[KILN_DNNL_WEI].prim_md, NULL,
                            &p->io[KILN_DNNL_DST].prim_md) != dnnl_success)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "oneDNN: matmul description refused");
  return kiln_dnnl_build(p);
}

/* Where each result dimension lands in the matmul's [batch..., M, N] (for a bias): the
 * result is every batching dimension, then lhs's free ones, then rhs's. */
static void map_result(kiln_cpu_dnnl_op *p, const dot_plan *d) {
  int32_t r = 0, kept = 0;
  for (int32_t i = 0; i < d->nb_all; i++, r++) {
    if (p->out_dims[r] == 1) continue;
    p->out_to_prim[r] = kept++;
    p->out_alone[r] = true;
  }
  int32_t lfree = d->s[0].rank - d->nb_all - d->nc_all;
  for (int32_t i = 0; r < p->out_rank; i++, r++) {
    bool lhs = i < lfree;
    p->out_to_prim[r] = d->nb + (lhs ? 0 : 1);
    p->out_alone[r] = p->out_dims[r] == (lhs ? d->M : d->N);
  }
}

kiln_status kiln_dnnl_prepare_dot(const kiln_op *op, kiln_cpu_dnnl_op *p) {
  dot_plan d;
  KILN_RETURN_IF_ERROR(read_plan(op, &d));
  if (d.nb + 2 > MAXD) return kiln_dnnl_unimplemented(op, "too many batching dimensions");
  if (p->elem[KILN_DNNL_SRC] == KILN_ELEM_SI8) {
    /* i8: oneDNN's kernels are exact in i32 with VNNI; without, Kiln's igemm is (AVX2, any
     * K); on an older host f32 is, while K products of at most 2^14 stay within 2^24 (every
     * partial sum is then an integer f32 holds, in any order) */
    bool vnni = kiln_cpu_isa_has_vnni();
    p->own_i8 = !vnni && kiln_cpu_igemm_supported();
    p->f32_exact = d.K <= ((int64_t)1 << 24) / (128 * 128);
    p->force_f32 = !vnni && !p->own_i8;
    if (p->force_f32 && !p->f32_exact)
      return kiln_dnnl_unimplemented(op, "i8 products with K above 1024 on a host without AVX2 or VNNI");
  }
  if (p->out_count == 0) p->mode = KILN_DNNL_MODE_NOTHING;
  else if (d.K == 0) p->mode = KILN_DNNL_MODE_ZEROS;
  else p->mode = KILN_DNNL_MODE_PRIMITIVE;
  if (p->mode != KILN_DNNL_MODE_PRIMITIVE) return kiln_dnnl_build(p);
  /* The result, dense [batch..., M, N]. */
  int n = d.nb + 2;
  int64_t dims[MAXD], strides[MAXD];
  for (int32_t i = 0; i < d.nb; i++) dims[i] = d.s[0].dims[d.b[0][i]];
  dims[n - 2] = d.M;
  dims[n - 1] = d.N;
  kiln_dnnl_dense_strides(n, dims, strides);
  dnnl_data_type_t ot;
  kiln_dnnl_type(p->out_elem, &ot);
  kiln_dnnl_io *dst = &p->io[KILN_DNNL_DST];
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&dst->user_md, n, dims, strides, ot));
  dst->prim_md = dst->user_md;
  map_result(p, &d);
  bool pack[2];
  choose_order(&d, pack);
  kiln_status s = build_matmul(p, &d, pack);
  if ((s || (kiln_dnnl_is_ref(p) && !p->own_i8)) && !(pack[0] && pack[1])) {
    /* Dense operands are what the fast kernels take. */
    kiln_status_free(s);
    pack[0] = pack[1] = true;
    s = build_matmul(p, &d, pack);
  }
  if (s && kiln_status_code_of(s) == KILN_STATUS_UNIMPLEMENTED) {
    kiln_status_free(s);
    return kiln_dnnl_unimplemented(op, "no matmul kernel for these types");
  }
  if (!s && p->own_i8 && !p->gemm.on) /* never oneDNN's kernels, which saturate here */
    return kiln_dnnl_unimplemented(op, "an i8 product whose operands are not plain matrices");
  return s;
}
