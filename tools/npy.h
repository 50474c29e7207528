/* NumPy .npy files <-> host arrays. Every NumPy dtype Kiln has an element type for (bool,
 * int8..64, uint8..64, float16/32/64, complex64/128) plus the ml_dtypes names (bfloat16,
 * float8_*, float6_*, float4_e2m1fn, int2/int4/uint2/uint4) stored in the header's 'descr'.
 * Versions 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 when the header needs it). A
 * Fortran-ordered file (np.save of a transposed array) is read into row-major order. Errors
 * name the file and what is wrong. Data is dense, row-major, in the IR's element storage
 * (ir/elem.def), which is also the host layout of kiln_buffer. */
#ifndef KILN_TOOLS_NPY_H
#define KILN_TOOLS_NPY_H

#include <stdint.h>

#include "ir/ir.h"
#include "kiln/kiln.h"

typedef struct kiln_npy_array {
  kiln_elem elem;
  int32_t rank;
  int64_t dims[KILN_MAX_RANK];
  uint8_t *data; /* malloc'ed, byte_size bytes */
  size_t byte_size;
} kiln_npy_array;

/* Reads a .npy file into *out (freed with kiln_npy_free; empty on failure). */
kiln_status kiln_npy_read(const char *path, kiln_npy_array *out);
/* The same, and a raw void descr ('<V2', '|V1': what np.save writes for an ml_dtypes array
 * such as bfloat16 when nothing names the type) is read as void_as when that is a float
 * type of that many bytes per element (the parameter's type: bf16 or f16 for V2, an f8 type
 * for V1); otherwise it is an error that says so. KILN_ELEM_COUNT: no such type. */
kiln_status kiln_npy_read_as(const char *path, kiln_elem void_as, kiln_npy_array *out);
/* Writes an array to a .npy file. */
kiln_status kiln_npy_write(const char *path, const kiln_npy_array *array);
void kiln_npy_free(kiln_npy_array *array);
/* The NumPy / ml_dtypes name of an element type ("float32", "bfloat16", ...). */
const char *kiln_npy_dtype_name(kiln_elem e);

#endif
