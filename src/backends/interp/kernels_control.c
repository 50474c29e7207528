#include "backends/interp/interp.h"

kiln_interp_kernel kiln_interp_control_lookup(kiln_op_kind kind) {
  (void)kind;
  return NULL;
}

bool kiln_interp_kernel_is_quant_native(kiln_op_kind kind) {
  return kind == KILN_OP_UNIFORM_QUANTIZE || kind == KILN_OP_UNIFORM_DEQUANTIZE || kind == KILN_OP_BITCAST_CONVERT;
}
