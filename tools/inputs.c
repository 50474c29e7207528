/* Inputs of the commands that run programs (see inputs.h). */
#include "inputs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "bytecode/bytecode.h"
#include "ir/print.h"
#include "ir/scalar.h"
#include "npy.h"
#include "parse/parse.h"
#include "runtime/element.h"

kiln_status kiln_cli_input_read(const char *path, int index, const kiln_type *param, kiln_device *device,
                                kiln_buffer **out) {
  *out = NULL;
  kiln_npy_array a;
  kiln_elem void_as = param && kiln_type_is_tensor(param) ? kiln_type_elem(param) : KILN_ELEM_COUNT;
  kiln_status read = kiln_npy_read_as(path, void_as, &a);
  if (read) {
    kiln_status wrapped = KILN_STATUS(kiln_status_code_of(read), "input #%d: %s", index, kiln_status_message(read));
    kiln_status_free(read);
    return wrapped;
  }
  kiln_element_type t = kiln_element_type_from_elem(a.elem);
  kiln_buffer_args args = {sizeof args, t, a.rank, a.dims, a.data, a.byte_size};
  kiln_status st = kiln_buffer_create(device, &args, out);
  if (st) {
    kiln_status wrapped = KILN_STATUS(kiln_status_code_of(st), "input #%d (%s): %s", index, path, kiln_status_message(st));
    kiln_status_free(st);
    st = wrapped;
  }
  kiln_npy_free(&a);
  return st;
}

kiln_status kiln_cli_inputs_read(const kiln_source *src, const char *name, const char *const *paths, int n, int first,
                                 kiln_device *device, kiln_buffer **out) {
  kiln_module *m = NULL;
  const kiln_type *ft = NULL;
  kiln_status st = kiln_cli_function_type(src, name, &m, &ft);
  for (int i = 0; !st && i < n; i++) {
    const kiln_type *param = first + i < ft->func.num_inputs ? ft->func.inputs[first + i] : NULL;
    st = kiln_cli_input_read(paths[i], i, param, device, &out[i]);
  }
  for (int i = 0; st && i < n; i++) {
    kiln_buffer_release(out[i]);
    out[i] = NULL;
  }
  kiln_module_destroy(m);
  return st;
}

kiln_status kiln_cli_function_type(const kiln_source *src, const char *name, kiln_module **out_module,
                                   const kiln_type **out_type) {
  if (kiln_bytecode_sniff(src->text, src->len))
    KILN_RETURN_IF_ERROR(kiln_bytecode_read((const uint8_t *)src->text, src->len, src->name, out_module));
  else
    KILN_RETURN_IF_ERROR(kiln_parse_module(src, out_module));
  kiln_block *top = kiln_op_block((*out_module)->op, 0);
  for (kiln_op *op = top ? top->first : NULL; op; op = op->next)
    if (op->kind == KILN_OP_FUNC && !strcmp(kiln_func_name(op), name)) {
      *out_type = kiln_func_type(op);
      return NULL;
    }
  return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", src->name, name);
}

/* splitmix64: small, fast, and good enough for test data. */
static uint64_t next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static double unit(uint64_t *s) { return (double)(next(s) >> 11) * 0x1p-52 - 1.0; }

static kiln_scalar random_scalar(kiln_elem e, uint64_t *s) {
  kiln_scalar v = {.i = 0};
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_B: v.i = (int64_t)(next(s) & 1); break;
    case KILN_ELEM_CLASS_U: v.u = next(s) % 9; break;
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: v.i = (int64_t)(next(s) % 9) - 4; break;
    case KILN_ELEM_CLASS_F: v.f = unit(s); break;
    case KILN_ELEM_CLASS_C: v.f = unit(s), v.im = unit(s); break;
  }
  return v;
}

kiln_status kiln_cli_input_random(const kiln_type *t, const int64_t *dims, int index, uint64_t *seed,
                                  kiln_device *device, kiln_buffer **out) {
  *out = NULL;
  char spelled[256];
  kiln_type_to_string(t, spelled, sizeof spelled);
  if (!kiln_type_is_tensor(t) || (!dims && !kiln_type_is_static(t)))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "input #%d is a %s: random values are made only for tensors of static shape (give --input "
                       "files, or --size N for a shape-polymorphic function)",
                       index, spelled);
  if (!dims) dims = t->tensor.dims;
  kiln_elem e = kiln_type_elem(t);
  kiln_element_type et = kiln_element_type_from_elem(e);
  size_t eb = kiln_elem_storage_bytes(e);
  int64_t n = 1;
  for (int32_t d = 0; d < t->tensor.rank && n >= 0; d++)
    if (dims[d] < 0 || !kiln_mul_i64(n, dims[d], &n)) n = -1;
  if (et == KILN_ELEMENT_TYPE_INVALID || eb == 0)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d is a %s: buffers cannot hold its element type", index, spelled);
  if (n < 0 || (uint64_t)n > SIZE_MAX / eb)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d (%s) is too large", index, spelled);
  size_t bytes = (size_t)n * eb;
  uint8_t *data = malloc(bytes ? bytes : 1);
  if (!data) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "input #%d (%s): out of memory", index, spelled);
  for (int64_t i = 0; i < n; i++) kiln_scalar_store(e, data + (size_t)i * eb, random_scalar(e, seed));
  kiln_buffer_args args = {sizeof args, et, t->tensor.rank, dims, data, bytes};
  kiln_status st = kiln_buffer_create(device, &args, out);
  free(data);
  return st;
}
