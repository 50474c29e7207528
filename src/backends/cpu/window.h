/* Internal to the cpu backend's window ops: the kernel a WINDOW step runs (window.c plans
 * it, window_kernels.c runs it). A kernel is immutable once planned. */
#ifndef KILN_BACKENDS_CPU_WINDOW_H
#define KILN_BACKENDS_CPU_WINDOW_H

#include "backends/cpu/cpu.h"

enum {
  KILN_WINDOW_MAX_RANK = KILN_CPU_MAX_RANK,
  KILN_WINDOW_MAX_POSITIONS = 1024, /* select_and_scatter: positions in a window (on the stack) */
};

typedef enum kiln_window_kind { KILN_WINDOW_PAD, KILN_WINDOW_SCAN, KILN_WINDOW_SELECT } kiln_window_kind;
/* select_and_scatter's compare, in the order of its names EQ NE GE GT LE LT */
typedef enum kiln_window_dir {
  KILN_WINDOW_EQ,
  KILN_WINDOW_NE,
  KILN_WINDOW_GE,
  KILN_WINDOW_GT,
  KILN_WINDOW_LE,
  KILN_WINDOW_LT,
} kiln_window_dir;

struct kiln_cpu_window {
  kiln_window_kind kind;
  kiln_elem elem;
  size_t elem_bytes;
  int32_t rank;
  int64_t dims[KILN_WINDOW_MAX_RANK]; /* the operand's */
  /* PAD: the padded dims, the low padding and the base dilation per dim */
  int64_t pdims[KILN_WINDOW_MAX_RANK], lo[KILN_WINDOW_MAX_RANK], dil[KILN_WINDOW_MAX_RANK];
  /* SCAN: outer x len x inner, scanning len; reverse from the end */
  int64_t outer, len, inner;
  bool reverse;
  kiln_op_kind combiner; /* SCAN's op, SELECT's scatter */
  /* SELECT: the window (size, stride, low padding per dim) and the source's dims; lanes
   * elements of the last dim go together (1 when the window moves along it); the first
   * dim is split over threads when parallel */
  int64_t size[KILN_WINDOW_MAX_RANK], stride[KILN_WINDOW_MAX_RANK], src_dims[KILN_WINDOW_MAX_RANK], lanes;
  kiln_window_dir dir;
  bool parallel;
  int64_t work; /* elements touched: how far to split it over the threads */
};

/* Whether the kernels handle element type e (i1, the 8 to 64-bit integers, f32, f64,
 * bf16, f16). */
bool kiln_cpu_window_elem(kiln_elem e);
/* out = op(a, b) for one element of a handled type e (storage bytes), as the kernels
 * compute it. */
void kiln_cpu_window_combine(kiln_elem e, kiln_op_kind op, const void *a, const void *b, void *out);

#endif
