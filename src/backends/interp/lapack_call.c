/* custom_call @lapack_*_ffi in the interpreter: jaxlib's LAPACK targets run through the
 * shared LAPACK library (src/backends/lapack), planned for the operands' run-time shapes. */
#include "backends/interp/interp.h"
#include "backends/lapack/lapack.h"
#include "ir/scalar.h"

enum { MAX_OPERANDS = 8, MAX_RESULTS = 8, MAX_RANK = 16 };

kiln_status kiln_interp_lapack(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  if (a->num_in > MAX_OPERANDS || a->num_out > MAX_RESULTS)
    return kiln_interp_error(ctx, a->op, "has %d operands and %d results, more than any LAPACK target takes",
                             (int)a->num_in, (int)a->num_out);
  kiln_lapack_shape shapes[MAX_OPERANDS];
  const void *in[MAX_OPERANDS];
  void *out[MAX_RESULTS];
  for (int32_t k = 0; k < a->num_in; k++) {
    const kiln_rtv *v = a->in[k];
    if (!v || v->kind != KILN_RTV_TENSOR) return kiln_interp_error(ctx, a->op, "operand #%d must be a tensor", (int)k);
    shapes[k] = (kiln_lapack_shape){v->elem, v->rank, v->dims};
    in[k] = v->data;
  }
  /* a dynamic custom call's result shapes: result k's is operand indices_of_shape_operands[k] */
  kiln_lapack_shape result_shapes[MAX_RESULTS];
  int64_t result_dims[MAX_RESULTS][MAX_RANK];
  const kiln_attr *idx = kiln_op_attr(a->op, "indices_of_shape_operands");
  bool given = idx && kiln_attr_count(idx) == a->num_out;
  for (int32_t k = 0; given && k < a->num_out; k++) {
    int64_t i;
    const kiln_rtv *v = kiln_attr_i64_at(idx, k, &i) && i >= 0 && i < a->num_in ? a->in[i] : NULL;
    given = v && v->rank == 1 && v->dims[0] <= MAX_RANK && kiln_elem_is_int(v->elem);
    for (int64_t d = 0; given && d < v->dims[0]; d++)
      result_dims[k][d] = kiln_scalar_load(v->elem, v->data + (size_t)d * v->elem_bytes).i;
    if (given) result_shapes[k] = (kiln_lapack_shape){v->elem, (int32_t)v->dims[0], result_dims[k]};
  }
  kiln_lapack_plan *plan = NULL;
  kiln_status st = kiln_lapack_prepare(a->op, shapes, given ? result_shapes : NULL, &plan);
  if (st || !plan) {
    kiln_status located = kiln_interp_error(ctx, a->op, "%s", st ? kiln_status_message(st) : "is not a LAPACK call");
    kiln_status_free(st);
    return located;
  }
  for (int32_t k = 0; !st && k < a->num_out; k++) { /* a `?` dim is the size the routine gives it */
    int32_t rank;
    const int64_t *dims;
    kiln_lapack_result_shape(plan, k, &rank, &dims);
    st = kiln_kernel_result(a, k, rank, dims);
    if (!st) out[k] = a->out[k]->data;
  }
  if (!st) st = kiln_lapack_run(plan, in, out, NULL); /* the interpreter runs on one thread */
  kiln_lapack_destroy(plan);
  return st;
}
