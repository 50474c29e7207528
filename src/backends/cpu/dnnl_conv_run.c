/* Run-time work around a oneDNN convolution's primitive (dnnl_internal.h): the weights
 * copied reversed, a deconvolution's bias, and the NaNs that the spec's zero padding gives
 * with non-finite weights.
 *
 * The spec convolves the lhs padded and dilated with zeros, so 0 * inf and 0 * NaN put a
 * NaN into every sum whose window meets padding or a hole where the weight is not finite;
 * oneDNN's convolutions and deconvolutions skip padding and holes (as XLA does). The
 * interpreter and the cpu's own loops multiply those zeros, and so this puts the NaNs back
 * after a run: the weights are scanned for a non-finite value (one pass over them, only
 * for convolutions that can read padding), and only where there is one are the windows
 * looked at. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/dnnl_internal.h"

void kiln_dnnl_conv_flip(const kiln_cpu_dnnl_op *p, const void *rhs, void *out) {
  int32_t rank = p->out_rank, last = -1;
  for (int32_t d = 0; d < rank; d++)
    if (p->flip[d]) last = d;
  /* the dims after the last reversed one are copied as one contiguous block */
  size_t block = kiln_elem_storage_bytes(p->elem[KILN_DNNL_WEI]);
  for (int32_t d = last + 1; d < rank; d++) block *= (size_t)p->wei_dims[d];
  int64_t st[DNNL_MAX_NDIMS], idx[DNNL_MAX_NDIMS] = {0}, blocks = 1;
  kiln_dnnl_dense_strides(rank, p->wei_dims, st);
  for (int32_t d = 0; d <= last; d++) blocks *= p->wei_dims[d];
  size_t esize = kiln_elem_storage_bytes(p->elem[KILN_DNNL_WEI]);
  for (int64_t b = 0; b < blocks; b++) {
    int64_t from = 0;
    for (int32_t d = 0; d <= last; d++) from += (p->flip[d] ? p->wei_dims[d] - 1 - idx[d] : idx[d]) * st[d];
    memcpy((uint8_t *)out + (size_t)b * block, (const uint8_t *)rhs + (size_t)from * esize, block);
    for (int32_t d = last; d >= 0 && ++idx[d] == p->wei_dims[d]; d--) idx[d] = 0;
  }
}

void kiln_dnnl_conv_add_bias(const kiln_cpu_dnnl_op *p, const float *bias, float *out) {
  int64_t len = p->out_dims[p->epi.bias_dim], inner = 1;
  for (int32_t d = p->epi.bias_dim + 1; d < p->out_rank; d++) inner *= p->out_dims[d];
  int64_t rows = len && inner ? p->out_count / (len * inner) : 0;
  for (int64_t r = 0; r < rows; r++, out += len * inner) {
    if (inner == 1) { /* the bias dimension innermost (NHWC): a vector add per row */
      for (int64_t i = 0; i < len; i++) out[i] += bias[i];
      continue;
    }
    for (int64_t i = 0; i < len; i++) {
      float b = bias[i];
      for (int64_t k = 0; k < inner; k++) out[i * inner + k] += b;
    }
  }
}

static bool finite_at(kiln_elem e, const void *w, int64_t i) {
  switch (e) {
    case KILN_ELEM_F32: {
      uint32_t b;
      memcpy(&b, (const uint8_t *)w + (size_t)i * 4, 4);
      return (b & 0x7f800000u) != 0x7f800000u;
    }
    case KILN_ELEM_BF16: return (((const uint16_t *)w)[i] & 0x7f80u) != 0x7f80u;
    default: return (((const uint16_t *)w)[i] & 0x7c00u) != 0x7c00u; /* f16 */
  }
}

static bool all_finite(kiln_elem e, const void *w, int64_t n) {
  if (e == KILN_ELEM_F32) { /* one pass the compiler vectorizes */
    const uint32_t *b = w;
    uint32_t bad = 0;
    for (int64_t i = 0; i < n; i++) bad |= (b[i] & 0x7f800000u) == 0x7f800000u;
    return !bad;
  }
  for (int64_t i = 0; i < n; i++)
    if (!finite_at(e, w, i)) return false;
  return true;
}

/* Whether the weight at kernel index w (of k) along spatial dimension i, at result position
 * o, multiplies padding or a hole of the spec's padded lhs. */
static bool reads_zero(const kiln_cpu_conv_dims *c, int32_t i, int64_t o, int64_t w, int64_t k) {
  int64_t pos = o * c->stride[i] + (c->reverse[i] ? k - 1 - w : w) * c->rdil[i] - c->pad_lo[i];
  return pos < 0 || pos % c->ldil[i] || pos / c->ldil[i] >= c->lhs_dims[c->is[i]];
}

static void store_nan(kiln_elem e, void *out, int64_t i) {
  if (e == KILN_ELEM_F32) ((float *)out)[i] = NAN;
  else ((uint16_t *)out)[i] = e == KILN_ELEM_BF16 ? 0x7fc0u : 0x7e00u;
}

kiln_status kiln_dnnl_conv_padding_nans(const kiln_cpu_dnnl_op *p, const void *rhs, void *out) {
  const kiln_cpu_conv_dims *c = &p->conv_dims;
  kiln_elem we = p->elem[KILN_DNNL_WEI];
  if (!p->reads_padding || p->out_count == 0 || all_finite(we, rhs, p->count[KILN_DNNL_WEI])) return NULL;
  int64_t ws[DNNL_MAX_NDIMS];
  kiln_dnnl_dense_strides(p->out_rank, p->wei_dims, ws);
  int64_t O = p->wei_dims[c->kof], Cg = p->wei_dims[c->kif], K = 1, kd[KILN_CPU_CONV_MAX_SPATIAL];
  for (int32_t i = 0; i < c->ns; i++) K *= kd[i] = p->wei_dims[c->ks[i]];
  /* bad[o * K + k]: window position k (row-major over the kernel's spatial dims) of output
   * feature o has a non-finite weight for some input feature */
  bool *bad = calloc(O > 0 && K > 0 ? (size_t)(O * K) : 1, sizeof *bad);
  if (!bad) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int64_t o = 0; o < O; o++)
    for (int64_t k = 0; k < K; k++) {
      int64_t at = o * ws[c->kof], rest = k;
      for (int32_t i = c->ns - 1; i >= 0; i--) {
        at += rest % kd[i] * ws[c->ks[i]];
        rest /= kd[i];
      }
      for (int64_t f = 0; f < Cg && !bad[o * K + k]; f++) bad[o * K + k] = !finite_at(we, rhs, at + f * ws[c->kif]);
    }
  int64_t idx[DNNL_MAX_NDIMS] = {0};
  for (int64_t e = 0; e < p->out_count; e++) { /* row-major: e is the element's offset */
    const bool *row = bad + idx[c->ofd] * K;
    bool zero = false;
    for (int64_t k = 0; k < K && !zero; k++) {
      if (!row[k]) continue;
      int64_t rest = k;
      for (int32_t i = c->ns - 1; i >= 0 && !zero; i--) {
        zero = reads_zero(c, i, idx[c->os[i]], rest % kd[i], kd[i]);
        rest /= kd[i];
      }
    }
    if (zero) store_nan(p->out_elem, out, e);
    for (int32_t d = p->out_rank - 1; d >= 0 && ++idx[d] == p->out_dims[d]; d--) idx[d] = 0;
  }
  free(bad);
  return NULL;
}
