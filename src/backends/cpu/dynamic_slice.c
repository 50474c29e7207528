/* dynamic_slice and dynamic_update_slice as copies of boxes: the start indices (scalars
 * read at run time) are clamped so the box fits, as the spec says, and the box moves row
 * by row with memcpy. dynamic_update_slice copies its operand first (the result is a new
 * value). */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu.h"

struct kiln_cpu_dynslice {
  bool update;                       /* dynamic_update_slice */
  int32_t rank;
  int64_t dims[KILN_CPU_MAX_RANK];   /* the operand's */
  int64_t sizes[KILN_CPU_MAX_RANK];  /* the box: slice_sizes, or the update's dims */
  kiln_elem index_elem;
  size_t elem_bytes;
  uint64_t operand_bytes;
  /* The box is one run of memory (one index of each leading dim, then a range of one
   * dim, then whole dims): one copy of box_bytes at the start's offset. */
  bool contiguous;
  uint64_t box_bytes;
};

static bool static_dense(const kiln_type *t) {
  return kiln_type_is_tensor(t) && kiln_type_is_static(t) && !kiln_type_is_quant_tensor(t) &&
         t->tensor.rank <= KILN_CPU_MAX_RANK;
}

kiln_status kiln_cpu_dynslice_prepare(const kiln_op *op, kiln_cpu_dynslice **out) {
  *out = NULL;
  bool update = op->kind == KILN_OP_DYNAMIC_UPDATE_SLICE;
  if (!update && op->kind != KILN_OP_DYNAMIC_SLICE) return NULL;
  const kiln_type *t = op->operands[0]->type;
  int32_t first_index = update ? 2 : 1;
  if (!static_dense(t) || !static_dense(op->results[0].type) || op->num_operands != first_index + t->tensor.rank) return NULL;
  if (update && !static_dense(op->operands[1]->type)) return NULL;
  kiln_cpu_dynslice s = {.update = update, .rank = t->tensor.rank};
  s.index_elem = t->tensor.rank ? kiln_type_elem(op->operands[first_index]->type) : KILN_ELEM_SI64;
  for (int32_t i = first_index; i < op->num_operands; i++) {
    const kiln_type *it = op->operands[i]->type;
    if (!static_dense(it) || it->tensor.rank != 0 || !kiln_elem_is_int(kiln_type_elem(it)) ||
        kiln_type_elem(it) != s.index_elem)
      return NULL;
  }
  const kiln_type *box = update ? op->operands[1]->type : op->results[0].type;
  for (int32_t d = 0; d < s.rank; d++) {
    s.dims[d] = t->tensor.dims[d];
    s.sizes[d] = box->tensor.dims[d];
    if (s.sizes[d] > s.dims[d]) return NULL;
  }
  s.elem_bytes = kiln_elem_storage_bytes(kiln_type_elem(t));
  s.operand_bytes = (uint64_t)t->tensor.num_elements * s.elem_bytes;
  int32_t cut = 0; /* the first dim the box takes more than one index of */
  while (cut < s.rank && s.sizes[cut] == 1) cut++;
  s.contiguous = true;
  for (int32_t d = cut + 1; d < s.rank; d++) s.contiguous = s.contiguous && s.sizes[d] == s.dims[d];
  s.box_bytes = (uint64_t)box->tensor.num_elements * s.elem_bytes;
  kiln_cpu_dynslice *p = malloc(sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *p = s;
  *out = p;
  return NULL;
}

void kiln_cpu_dynslice_destroy(kiln_cpu_dynslice *s) { free(s); }

/* Copies the box at start between the operand layout (dims) and the dense box layout. */
static void copy_box(const kiln_cpu_dynslice *s, const int64_t *start, uint8_t *big, uint8_t *box, bool into_big) {
  int32_t r = s->rank;
  size_t eb = s->elem_bytes;
  int64_t rows = 1, idx[KILN_CPU_MAX_RANK] = {0};
  for (int32_t d = 0; d + 1 < r; d++) rows *= s->sizes[d];
  size_t run = (size_t)(r ? s->sizes[r - 1] : 1) * eb;
  if (!run) return;
  for (int64_t row = 0; row < rows; row++) {
    int64_t off = 0;
    for (int32_t d = 0; d < r; d++) off = off * s->dims[d] + start[d] + (d + 1 < r ? idx[d] : 0);
    uint8_t *b = big + (size_t)off * eb, *x = box + (size_t)row * run;
    if (into_big) memcpy(b, x, run);
    else memcpy(x, b, run);
    for (int32_t d = r - 2; d >= 0; d--) { /* next row of the box */
      if (++idx[d] < s->sizes[d]) break;
      idx[d] = 0;
    }
  }
}

/* Start index p (of element type e) as an int64_t: the common widths read directly. */
static int64_t load_index(kiln_elem e, const void *p) {
  switch (e) {
    case KILN_ELEM_SI32: return *(const int32_t *)p;
    case KILN_ELEM_SI64: return *(const int64_t *)p;
    default: {
      kiln_scalar v = kiln_scalar_load(e, p);
      return kiln_elem_class_of(e) == KILN_ELEM_CLASS_U && v.u > INT64_MAX ? INT64_MAX : v.i;
    }
  }
}

void kiln_cpu_dynslice_run(const kiln_cpu_dynslice *s, const void *const *in, void *out) {
  int32_t first_index = s->update ? 2 : 1;
  int64_t start[KILN_CPU_MAX_RANK], off = 0;
  for (int32_t d = 0; d < s->rank; d++) {
    int64_t i = load_index(s->index_elem, in[first_index + d]), hi = s->dims[d] - s->sizes[d];
    start[d] = i < 0 ? 0 : i > hi ? hi : i;
    off = off * s->dims[d] + start[d];
  }
  if (s->update && s->operand_bytes && out != in[0]) memcpy(out, in[0], s->operand_bytes);
  if (s->contiguous) { /* one run at the start's offset */
    uint8_t *big = (uint8_t *)(s->update ? out : in[0]) + (size_t)off * s->elem_bytes;
    if (s->update) memcpy(big, in[1], s->box_bytes);
    else memcpy(out, big, s->box_bytes);
  } else if (s->update) {
    copy_box(s, start, out, (uint8_t *)in[1], true);
  } else {
    copy_box(s, start, (uint8_t *)in[0], out, false);
  }
}
