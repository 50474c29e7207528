/* Shape-polymorphic functions in the CLI (see dynamic.h). */
#include "dynamic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "ir/scalar.h"
#include "runtime/element.h"

static bool has_dynamic_dim(const kiln_type *t) {
  if (!kiln_type_is_tensor(t)) return false;
  for (int32_t d = 0; d < t->tensor.rank; d++)
    if (t->tensor.dims[d] == KILN_DIM_DYNAMIC) return true;
  return false;
}

bool kiln_cli_is_dynamic(const kiln_type *ft) {
  for (int32_t i = 0; i < ft->func.num_inputs; i++)
    if (has_dynamic_dim(ft->func.inputs[i])) return true;
  return false;
}

static bool is_int_scalar(const kiln_type *t) {
  if (!kiln_type_is_tensor(t) || t->tensor.rank != 0 || t->tensor.element->kind != KILN_TYPE_SCALAR) return false;
  kiln_elem e = t->tensor.element->elem;
  return kiln_elem_is_int(e) && e != KILN_ELEM_I1;
}

int32_t kiln_cli_dim_arg_count(const kiln_type *ft) {
  if (!kiln_cli_is_dynamic(ft)) return 0;
  int32_t n = 0;
  while (n < ft->func.num_inputs && is_int_scalar(ft->func.inputs[n])) n++;
  return n;
}

kiln_status kiln_cli_dim_arg(const kiln_type *t, int64_t n, kiln_device *device, kiln_buffer **out) {
  kiln_elem e = kiln_type_elem(t);
  uint8_t data[16] = {0};
  kiln_scalar_store(e, data, (kiln_scalar){.i = n});
  kiln_buffer_args args = {sizeof args, kiln_element_type_from_elem(e), 0, NULL, data, kiln_elem_storage_bytes(e)};
  return kiln_buffer_create(device, &args, out);
}

kiln_status kiln_cli_infer_dim_size(const kiln_type *ft, kiln_buffer *const *inputs, int64_t *out) {
  int32_t k = kiln_cli_dim_arg_count(ft);
  int64_t size = -1;
  for (int32_t i = k; i < ft->func.num_inputs; i++) {
    const kiln_type *t = ft->func.inputs[i];
    if (!kiln_type_is_tensor(t) || kiln_buffer_rank(inputs[i - k]) != t->tensor.rank) continue; /* the run reports it */
    for (int32_t d = 0; d < t->tensor.rank; d++) {
      if (t->tensor.dims[d] != KILN_DIM_DYNAMIC) continue;
      int64_t n = kiln_buffer_dims(inputs[i - k])[d];
      if (size >= 0 && n != size)
        return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                           "cannot infer the %d dimension argument(s): the inputs' symbolic dimensions have sizes %lld "
                           "and %lld (give each with --dim N)",
                           (int)k, (long long)size, (long long)n);
      size = n;
    }
  }
  if (size < 0)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "cannot infer the %d dimension argument(s): no input has a symbolic dimension (give each with "
                       "--dim N)",
                       (int)k);
  *out = size;
  return NULL;
}

/* A tensor of zeros of t's element type with dims (the parameter's own integer type). */
static kiln_status zeros(const kiln_type *t, const int64_t *dims, kiln_device *device, kiln_buffer **out) {
  kiln_elem e = kiln_type_elem(t);
  int64_t n = 1;
  for (int32_t d = 0; d < t->tensor.rank; d++) n *= dims[d]; /* static dims and sizes the caller bounds */
  size_t bytes = (size_t)n * kiln_elem_storage_bytes(e);
  void *data = calloc(bytes ? bytes : 1, 1);
  if (!data) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_buffer_args args = {sizeof args, kiln_element_type_from_elem(e), t->tensor.rank, dims, data, bytes};
  kiln_status st = kiln_buffer_create(device, &args, out);
  free(data);
  return st;
}

kiln_status kiln_cli_inputs_at_size(const kiln_type *ft, int64_t n, bool zero_ints, uint64_t *seed,
                                    kiln_device *device, kiln_buffer **out) {
  int32_t num = ft->func.num_inputs, dim_args = kiln_cli_dim_arg_count(ft);
  kiln_status st = NULL;
  for (int32_t i = 0; i < num; i++) out[i] = NULL;
  for (int32_t i = 0; !st && i < num; i++) {
    const kiln_type *t = ft->func.inputs[i];
    if (i < dim_args || (zero_ints && is_int_scalar(t))) {
      st = kiln_cli_dim_arg(t, i < dim_args ? n : 0, device, &out[i]);
      continue;
    }
    if (!kiln_type_is_tensor(t) || t->tensor.rank > 64) {
      st = kiln_cli_input_random(t, NULL, (int)i, seed, device, &out[i]); /* its error */
      continue;
    }
    int64_t dims[64];
    for (int32_t d = 0; d < t->tensor.rank; d++) {
      int64_t bound = t->tensor.bounds ? t->tensor.bounds[d] : KILN_DIM_DYNAMIC;
      dims[d] = t->tensor.dims[d] != KILN_DIM_DYNAMIC ? t->tensor.dims[d]
                : bound != KILN_DIM_DYNAMIC && bound < n ? bound
                                                         : n;
    }
    kiln_elem e = kiln_type_elem(t);
    if (zero_ints && kiln_elem_is_int(e) && e != KILN_ELEM_I1) st = zeros(t, dims, device, &out[i]);
    else st = kiln_cli_input_random(t, dims, (int)i, seed, device, &out[i]);
  }
  if (st)
    for (int32_t i = 0; i < num; i++) {
      kiln_buffer_release(out[i]);
      out[i] = NULL;
    }
  return st;
}

static void shape_text(kiln_buffer *b, char *buf, size_t cap) {
  size_t used = (size_t)snprintf(buf, cap, "tensor<");
  for (int32_t d = 0; d < kiln_buffer_rank(b) && used + 24 < cap; d++)
    used += (size_t)snprintf(buf + used, cap - used, "%lldx", (long long)kiln_buffer_dims(b)[d]);
  snprintf(buf + used, cap - used, "%s>", kiln_element_type_name(kiln_buffer_element_type(b)));
}

static bool close_enough(double x, double y) {
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (x == y) return true; /* infinities */
  return fabs(x - y) <= 1e-5 + 1e-4 * fabs(y);
}

bool kiln_cli_results_agree(kiln_buffer *a, kiln_buffer *b, int index, kiln_strbuf *why) {
  char sa[256], sb[256];
  shape_text(a, sa, sizeof sa);
  shape_text(b, sb, sizeof sb);
  if (strcmp(sa, sb)) {
    kiln_strbuf_printf(why, "result #%d: %s here, %s on the reference\n", index, sa, sb);
    return false;
  }
  kiln_elem e = kiln_element_type_to_elem(kiln_buffer_element_type(a));
  if (e == KILN_ELEM_COUNT) return true; /* tokens and tuples hold no elements */
  size_t bytes = kiln_buffer_byte_size(a), eb = kiln_elem_storage_bytes(e);
  uint8_t *x = malloc(bytes ? bytes : 1), *y = malloc(bytes ? bytes : 1);
  kiln_status st = x && y ? kiln_buffer_copy_to_host(a, x, bytes)
                           : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_buffer_copy_to_host(b, y, bytes);
  bool ok = !st;
  if (st) kiln_strbuf_printf(why, "result #%d: %s\n", index, kiln_status_message(st));
  kiln_status_free(st);
  bool is_float = kiln_elem_class_of(e) == KILN_ELEM_CLASS_F || kiln_elem_class_of(e) == KILN_ELEM_CLASS_C;
  for (size_t i = 0; ok && eb && i < bytes / eb; i++) {
    kiln_scalar p = kiln_scalar_load(e, x + i * eb), q = kiln_scalar_load(e, y + i * eb);
    bool same = is_float ? close_enough(p.f, q.f) && close_enough(p.im, q.im) : p.u == q.u;
    if (!same) {
      kiln_strbuf_printf(why, "result #%d (%s): element %zu is %.9g here, %.9g on the reference\n", index, sa, i,
                         is_float ? p.f : (double)p.i, is_float ? q.f : (double)q.i);
      ok = false;
    }
  }
  free(x);
  free(y);
  return ok;
}
