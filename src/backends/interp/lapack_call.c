/* custom_call @lapack_*_ffi in the interpreter: jaxlib's LAPACK targets run through the
 * shared LAPACK library (src/backends/lapack), planned for the operands' run-time shapes. */
#include "backends/interp/interp.h"
#include "backends/lapack/lapack.h"

enum { MAX_OPERANDS = 8, MAX_RESULTS = 8 };

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
  kiln_lapack_plan *plan = NULL;
  kiln_status st = kiln_lapack_prepare(a->op, shapes, &plan);
  if (st || !plan) {
    kiln_status located = kiln_interp_error(ctx, a->op, "%s", st ? kiln_status_message(st) : "is not a LAPACK call");
    kiln_status_free(st);
    return located;
  }
  for (int32_t k = 0; !st && k < a->num_out; k++) {
    st = kiln_kernel_result_static(ctx, a, k);
    if (!st) out[k] = a->out[k]->data;
  }
  if (!st) st = kiln_lapack_run(plan, in, out, NULL); /* the interpreter runs on one thread */
  kiln_lapack_destroy(plan);
  return st;
}
