/* stablehlo.custom_call @shape_assertion: the checks JAX's shape-polymorphic exports make of
 * their inputs' sizes (operand 0 the predicate, the others integer scalars that the
 * attribute error_message names as {0}, {1}, ...). */
#include "backends/interp/interp.h"

#include <stdlib.h>
#include <string.h>

/* error_message with each {k} (k < nargs) replaced by integer operand k + 1. */
static void substitute(const kiln_kernel_args *a, const char *msg, size_t n, kiln_strbuf *out) {
  for (size_t i = 0; i < n;) {
    if (msg[i] == '{') {
      size_t j = i + 1;
      long long k = 0;
      while (j < n && j - i <= 6 && msg[j] >= '0' && msg[j] <= '9') k = k * 10 + (msg[j++] - '0');
      if (j > i + 1 && j < n && msg[j] == '}' && k < a->num_in - 1) {
        const kiln_rtv *v = a->in[k + 1];
        kiln_strbuf_printf(out, "%lld", (long long)kiln_scalar_load(v->elem, v->data).i);
        i = j + 1;
        continue;
      }
    }
    kiln_strbuf_put(out, msg + i, 1);
    i++;
  }
}

kiln_status kiln_interp_shape_assertion(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_op *op = a->op;
  if (a->num_in < 1 || a->num_out != 0)
    return kiln_interp_error(ctx, op, "@shape_assertion takes a predicate and the message's arguments, and has no results");
  for (int32_t i = 0; i < a->num_in; i++) {
    const kiln_rtv *v = a->in[i];
    bool ok = v && v->kind == KILN_RTV_TENSOR && v->count == 1 &&
              (i == 0 ? v->elem == KILN_ELEM_I1 : kiln_elem_is_int(v->elem) && v->elem != KILN_ELEM_I1);
    if (!ok)
      return kiln_interp_error(ctx, op, i ? "@shape_assertion operand #%d must be an integer scalar"
                                          : "@shape_assertion operand #%d (the predicate) must be an i1 scalar",
                               (int)i);
  }
  if (kiln_scalar_load(a->in[0]->elem, a->in[0]->data).i) return NULL;
  const kiln_attr *m = kiln_op_attr(op, "error_message");
  kiln_strbuf text = {0};
  if (m && m->kind == KILN_ATTR_STRING) substitute(a, m->str.data, m->str.len, &text);
  else kiln_strbuf_puts(&text, "(no error_message)");
  kiln_status st = text.failed ? KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory")
                               : kiln_interp_error(ctx, op, "shape assertion failed: %s", text.data);
  free(text.data);
  return st;
}
