/* A convolution's attributes as the cpu backend reads them (conv.c): shared by its planner
 * (conv.c) and the oneDNN lowering (dnnl_conv.c).
 *
 * kiln_cpu_conv_read checks what the kernels rely on (dimension numbers within the rank,
 * positive strides and dilations, group counts that divide the dimensions) and returns
 * INVALID_ARGUMENT otherwise (the verifier rejects such programs). Pure: thread-safe. */
#ifndef KILN_BACKENDS_CPU_CONV_H
#define KILN_BACKENDS_CPU_CONV_H

#include <stdbool.h>

#include "backends/cpu/loop.h"
#include "ir/ir.h"
#include "kiln/status.h"

enum { KILN_CPU_CONV_MAX_SPATIAL = KILN_CPU_MAX_RANK - 2 };

typedef struct kiln_cpu_conv_dims {
  int32_t ns; /* spatial dimensions */
  int64_t ib, ifd, kif, kof, ob, ofd;
  int64_t is[KILN_CPU_CONV_MAX_SPATIAL], ks[KILN_CPU_CONV_MAX_SPATIAL], os[KILN_CPU_CONV_MAX_SPATIAL];
  int64_t stride[KILN_CPU_CONV_MAX_SPATIAL], ldil[KILN_CPU_CONV_MAX_SPATIAL], rdil[KILN_CPU_CONV_MAX_SPATIAL];
  int64_t pad_lo[KILN_CPU_CONV_MAX_SPATIAL], pad_hi[KILN_CPU_CONV_MAX_SPATIAL];
  bool reverse[KILN_CPU_CONV_MAX_SPATIAL];
  int64_t fgc, bgc; /* feature_group_count, batch_group_count */
  int64_t lhs_dims[KILN_CPU_MAX_RANK]; /* the lhs operand's */
} kiln_cpu_conv_dims;

/* Reads op (a CONVOLUTION with static tensor operands of one rank, at least 2). */
kiln_status kiln_cpu_conv_read(const kiln_op *op, kiln_cpu_conv_dims *c);

/* Makes c describe the convolution over its lhs padded and dilated (the spec's padded
 * lhs, zeros in the padding and holes): lhs_dims become the padded dims, padding 0 and
 * lhs dilation 1. False when a padded dim would be empty or overflow. */
bool kiln_cpu_conv_prepad(kiln_cpu_conv_dims *c);

#endif
