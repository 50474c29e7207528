/* NumPy .npy files <-> interpreter tensors. Every NumPy dtype Kiln has an element type
 * for (bool, int8..64, uint8..64, float16/32/64, complex64/128) plus the ml_dtypes names
 * (bfloat16, float8_*, float6_*, float4_e2m1fn, int2/int4/uint2/uint4) stored in the
 * header's 'descr'. Versions 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 when the
 * header needs it). Errors name the file and what is wrong. */
#ifndef KILN_TOOLS_NPY_H
#define KILN_TOOLS_NPY_H

#include "backends/interp/value.h"

/* Reads a .npy file into a new tensor. */
kiln_status kiln_npy_read(const char *path, kiln_rtv **out);
/* Writes a tensor (not a tuple or token) to a .npy file. */
kiln_status kiln_npy_write(const char *path, const kiln_rtv *v);
/* The NumPy / ml_dtypes name of an element type ("float32", "bfloat16", ...). */
const char *kiln_npy_dtype_name(kiln_elem e);

#endif
