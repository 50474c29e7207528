/* convolution as a oneDNN forward convolution, or deconvolution when the lhs is dilated.
 *
 * oneDNN's logical order is source [N, C, spatial...], weights [O, I, spatial...] (grouped:
 * [G, O/G, I, spatial...]) and destination [N, O, spatial...]; the op's dimension numbers
 * become the strides of those views over the dense buffers, so any layout (NHWC, NCHW,
 * HWIO, ...) is read in place when a fast kernel takes it. The weights are always given to
 * the kernel in the format it prefers (a reorder into scratch per run: they are an input,
 * not a constant); when the kernel for the caller's source and result layouts is oneDNN's
 * reference one, those go through temporaries in the kernel's preferred formats too.
 *
 * feature_group_count G: groups of oneDNN. batch_group_count G: the source is read as
 * [N/G, G*C, spatial...] (group g's channels are batch slice g), copied into that order
 * first, and convolved with G groups. Negative padding crops the source. Window reversal:
 * the weights are copied reversed first (dnnl_conv_run.c; oneDNN takes no negative strides).
 *
 * lhs dilation d (transposed convolutions, input gradients) with window strides 1 is a
 * deconvolution, which skips the dilation's holes instead of multiplying them: along a
 * spatial dimension with kernel size K, rhs dilation r and padding (lo, hi), result
 * element o = i * d + lo - w * r sums source element i times window position w, which is
 * oneDNN's deconvolution o = i * d - pl + k * r with k = K - 1 - w: stride d, dilation
 * r - 1, padding pl = (K - 1) * r - lo and pr = (K - 1) * r - hi, and the kernel reversed
 * (not reversed where window_reversal already reverses it). Refused (UNIMPLEMENTED, conv.c
 * then convolves a padded and dilated copy of the lhs): lhs dilation with window strides
 * above 1, negative pl or pr, empty windows or sources, and only reference kernels. */
#include <string.h>

#include "backends/cpu/conv.h"
#include "backends/cpu/dnnl_internal.h"

#define MAXD DNNL_MAX_NDIMS
#define MAXS 3 /* oneDNN's most spatial dimensions */

typedef kiln_cpu_conv_dims conv_plan;

static bool lhs_dilated(const conv_plan *c) {
  for (int32_t i = 0; i < c->ns; i++)
    if (c->ldil[i] != 1) return true;
  return false;
}

/* The deconvolution's padding along spatial dimension i (see the top of the file). */
static void deconv_padding(const kiln_op *op, const conv_plan *c, int32_t i, int64_t *pl, int64_t *pr) {
  int64_t reach = (op->operands[1]->type->tensor.dims[c->ks[i]] - 1) * c->rdil[i];
  *pl = reach - c->pad_lo[i];
  *pr = reach - c->pad_hi[i];
}

/* What oneDNN's forward convolution or deconvolution takes of what kiln_cpu_conv_read read. */
static kiln_status check_plan(const kiln_op *op, const conv_plan *c) {
  if (c->ns > MAXS) return kiln_dnnl_unimplemented(op, "more than 3 spatial dimensions");
  if (!lhs_dilated(c)) return NULL;
  const int64_t *rd = op->operands[1]->type->tensor.dims;
  for (int32_t i = 0; i < c->ns; i++) {
    int64_t pl, pr;
    if (c->stride[i] != 1) return kiln_dnnl_unimplemented(op, "lhs dilation with window strides");
    if (c->lhs_dims[c->is[i]] == 0 || rd[c->ks[i]] == 0)
      return kiln_dnnl_unimplemented(op, "lhs dilation of an empty window");
    deconv_padding(op, c, i, &pl, &pr);
    if (pl < 0 || pr < 0) return kiln_dnnl_unimplemented(op, "lhs dilation with padding beyond the window");
  }
  return NULL;
}

/* The oneDNN views: dims and strides of source, weights and destination in oneDNN's order,
 * plus the source's first element and its grouped form. */
typedef struct conv_views {
  int n; /* oneDNN dimensions of source and destination */
  int64_t sd[MAXD], ss[MAXD], wd[MAXD], ws[MAXD], dd[MAXD], dsd[MAXD];
  int wn;
  size_t src_offset;
  int64_t stride[MAXS], dil[MAXS], pl[MAXS], pr[MAXS];
  bool empty_sum; /* every sum is empty: the result is zeros */
} conv_views;

static void make_views(const kiln_op *op, const conv_plan *c, bool deconv, conv_views *v) {
  const kiln_type *lt = op->operands[0]->type, *rt = op->operands[1]->type, *ot = op->results[0].type;
  int32_t rank = lt->tensor.rank;
  int64_t ls[MAXD], rs[MAXD], os[MAXD];
  kiln_dnnl_dense_strides(rank, c->lhs_dims, ls);
  kiln_dnnl_dense_strides(rank, rt->tensor.dims, rs);
  kiln_dnnl_dense_strides(rank, ot->tensor.dims, os);
  const int64_t *ld = c->lhs_dims, *rd = rt->tensor.dims, *od = ot->tensor.dims;
  int32_t ns = c->ns ? c->ns : 1; /* no spatial dimension: one of size one */
  v->n = 2 + ns;
  v->src_offset = 0;
  v->empty_sum = rd[c->kif] == 0;
  v->sd[0] = ld[c->ib], v->ss[0] = ls[c->ib];
  v->sd[1] = ld[c->ifd], v->ss[1] = ls[c->ifd];
  v->dd[0] = od[c->ob], v->dsd[0] = os[c->ob];
  v->dd[1] = od[c->ofd], v->dsd[1] = os[c->ofd];
  int64_t groups = c->fgc > 1 ? c->fgc : c->bgc;
  int w0 = groups > 1 ? 1 : 0;
  v->wn = v->n + w0;
  if (groups > 1) v->wd[0] = groups, v->ws[0] = rs[c->kof] * (rd[c->kof] / groups);
  v->wd[w0] = rd[c->kof] / groups, v->ws[w0] = rs[c->kof];
  v->wd[w0 + 1] = rd[c->kif], v->ws[w0 + 1] = rs[c->kif];
  size_t esize = kiln_elem_storage_bytes(kiln_type_elem(lt));
  for (int32_t i = 0; i < ns; i++) {
    if (!c->ns) {
      v->sd[2] = v->dd[2] = v->wd[w0 + 2] = 1;
      v->ss[2] = v->dsd[2] = v->ws[w0 + 2] = 1;
      v->stride[0] = 1, v->dil[0] = 0, v->pl[0] = v->pr[0] = 0;
      break;
    }
    int64_t len = ld[c->is[i]], lo = c->pad_lo[i], hi = c->pad_hi[i];
    v->stride[i] = c->stride[i];
    if (deconv) {
      deconv_padding(op, c, i, &lo, &hi);
      v->stride[i] = c->ldil[i];
    }
    if (lo < 0) { /* crop */
      int64_t cut = -lo < len ? -lo : len;
      v->src_offset += (size_t)cut * (size_t)ls[c->is[i]] * esize;
      len -= cut, lo += cut;
    }
    if (hi < 0) {
      int64_t cut = -hi < len ? -hi : len;
      len -= cut, hi += cut;
    }
    v->empty_sum |= len == 0 || rd[c->ks[i]] == 0;
    v->sd[2 + i] = len, v->ss[2 + i] = ls[c->is[i]];
    v->wd[w0 + 2 + i] = rd[c->ks[i]], v->ws[w0 + 2 + i] = rs[c->ks[i]];
    v->dd[2 + i] = od[c->os[i]], v->dsd[2 + i] = os[c->os[i]];
    v->dil[i] = c->rdil[i] - 1;
    v->pl[i] = lo, v->pr[i] = hi;
  }
}

/* The source of a batch-grouped convolution: the view [N/G, G, C, spatial...] copied into
 * a dense temporary, read as [N/G, G*C, spatial...]. */
static kiln_status batch_grouped_src(const conv_views *v, int64_t g, dnnl_data_type_t t, kiln_dnnl_io *io) {
  int64_t ud[MAXD], us[MAXD], ts[MAXD], pd[MAXD], ps[MAXD];
  int un = v->n + 1;
  ud[0] = v->sd[0] / g, us[0] = v->ss[0];
  ud[1] = g, us[1] = v->ss[0] * (v->sd[0] / g);
  for (int i = 1; i < v->n; i++) ud[i + 1] = v->sd[i], us[i + 1] = v->ss[i];
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->user_md, un, ud, us, t));
  kiln_dnnl_dense_strides(un, ud, ts);
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->tmp_md, un, ud, ts, t));
  pd[0] = ud[0], pd[1] = g * v->sd[1];
  for (int i = 2; i < v->n; i++) pd[i] = v->sd[i];
  kiln_dnnl_dense_strides(v->n, pd, ps);
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&io->prim_md, v->n, pd, ps, t));
  io->via_tmp = true;
  return NULL;
}

static kiln_status any_md(dnnl_memory_desc_t *md, const dnnl_memory_desc_t *like) {
  return dnnl_memory_desc_init_by_tag(md, like->ndims, like->dims, like->data_type, dnnl_format_tag_any) == dnnl_success
             ? NULL
             : KILN_STATUS(KILN_STATUS_INTERNAL, "oneDNN refused a format-any view");
}

/* The descriptions, with the source and destination in the caller's layouts or (any_io) in
 * the kernel's; then the primitive. */
static kiln_status build_conv(kiln_cpu_dnnl_op *p, const kiln_op *op, const conv_plan *c, const conv_views *v,
                              bool any_io) {
  dnnl_data_type_t lt, rt, ot;
  kiln_dnnl_type(kiln_type_elem(op->operands[0]->type), &lt);
  kiln_dnnl_type(kiln_type_elem(op->operands[1]->type), &rt);
  kiln_dnnl_type(p->out_elem, &ot);
  kiln_dnnl_io *src = &p->io[KILN_DNNL_SRC], *wei = &p->io[KILN_DNNL_WEI], *dst = &p->io[KILN_DNNL_DST];
  memset(p->io, 0, sizeof p->io);
  memset(p->converted, 0, sizeof p->converted); /* an earlier build's f32 copies (kiln_dnnl_build) */
  src->offset = v->src_offset;
  if (c->bgc > 1) {
    KILN_RETURN_IF_ERROR(batch_grouped_src(v, c->bgc, lt, src));
  } else {
    KILN_RETURN_IF_ERROR(kiln_dnnl_md(&src->user_md, v->n, v->sd, v->ss, lt));
    src->prim_md = src->user_md;
    if (any_io) {
      KILN_RETURN_IF_ERROR(any_md(&src->prim_md, &src->user_md));
      src->tmp_any = true;
    }
  }
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&wei->user_md, v->wn, v->wd, v->ws, rt));
  KILN_RETURN_IF_ERROR(any_md(&wei->prim_md, &wei->user_md));
  wei->tmp_any = true;
  KILN_RETURN_IF_ERROR(kiln_dnnl_md(&dst->user_md, v->n, v->dd, v->dsd, ot));
  dst->prim_md = dst->user_md;
  if (any_io) {
    KILN_RETURN_IF_ERROR(any_md(&dst->prim_md, &dst->user_md));
    dst->tmp_any = true;
  }
  dnnl_dims_t st, dil, pl, pr;
  for (int i = 0; i < v->n - 2; i++) st[i] = v->stride[i], dil[i] = v->dil[i], pl[i] = v->pl[i], pr[i] = v->pr[i];
  dnnl_status_t ds =
      p->is_deconv ? dnnl_dilated_deconvolution_forward_desc_init(&p->conv, dnnl_forward_inference,
                                                                   dnnl_deconvolution_direct, &src->prim_md, &wei->prim_md,
                                                                   NULL, &dst->prim_md, st, dil, pl, pr)
                   : dnnl_dilated_convolution_forward_desc_init(&p->conv, dnnl_forward_inference, dnnl_convolution_direct,
                                                                &src->prim_md, &wei->prim_md, NULL, &dst->prim_md, st,
                                                                dil, pl, pr);
  if (ds != dnnl_success) return kiln_dnnl_unimplemented(op, "convolution description refused");
  p->is_conv = true;
  return kiln_dnnl_build(p);
}

kiln_status kiln_dnnl_prepare_conv(const kiln_op *op, const kiln_cpu_conv_dims *dims, kiln_cpu_dnnl_op *p) {
  conv_plan c;
  if (dims) c = *dims;
  else KILN_RETURN_IF_ERROR(kiln_cpu_conv_read(op, &c));
  KILN_RETURN_IF_ERROR(check_plan(op, &c));
  int32_t rank = op->operands[0]->type->tensor.rank;
  p->count[KILN_DNNL_SRC] = 1;
  for (int32_t d = 0; d < rank; d++) p->count[KILN_DNNL_SRC] *= c.lhs_dims[d];
  p->is_deconv = lhs_dilated(&c);
  p->conv_dims = c;
  memcpy(p->wei_dims, op->operands[1]->type->tensor.dims, sizeof *p->wei_dims * (size_t)rank);
  for (int32_t i = 0; i < c.ns; i++) {
    p->flip[c.ks[i]] = p->is_deconv != c.reverse[i];
    p->flips |= p->flip[c.ks[i]];
    p->reads_padding |= c.ldil[i] > 1 || c.pad_lo[i] > 0 || c.pad_hi[i] > 0;
  }
  conv_views v;
  make_views(op, &c, p->is_deconv, &v);
  p->out_to_prim[c.ofd] = 1;
  p->out_alone[c.ofd] = true;
  if (p->out_count == 0) p->mode = KILN_DNNL_MODE_NOTHING;
  else if (v.empty_sum) p->mode = KILN_DNNL_MODE_ZEROS;
  else p->mode = KILN_DNNL_MODE_PRIMITIVE;
  if (p->mode != KILN_DNNL_MODE_PRIMITIVE) return kiln_dnnl_build(p);
  kiln_status s = build_conv(p, op, &c, &v, false);
  if (s || kiln_dnnl_is_ref(p)) {
    kiln_status again = build_conv(p, op, &c, &v, true);
    if (!again || s) {
      kiln_status_free(s);
      s = again;
    } else {
      kiln_status_free(again);
      s = build_conv(p, op, &c, &v, false); /* keep the caller's layouts */
    }
  }
  if (!s && p->is_deconv && kiln_dnnl_is_ref(p)) /* the padded copy's convolution is faster */
    s = kiln_dnnl_unimplemented(op, "only reference deconvolution kernels");
  if (s && kiln_status_code_of(s) == KILN_STATUS_UNIMPLEMENTED) {
    kiln_status_free(s);
    return kiln_dnnl_unimplemented(op, "no convolution kernel for these types or windows");
  }
  return s;
}
