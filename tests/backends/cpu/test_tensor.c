/* cpu tensors and the run state's bin (src/backends/cpu/tensor.c): a tensor taken from the
 * bin is one put there of the same bytes, with the type asked for; none of other bytes, none
 * from an empty or NULL bin; tensors held from the interpreter, donated or larger than
 * KILN_CPU_BIN_BYTES are freed, not kept, and a full bin frees what comes after (ASan's
 * leak check holds each of them to being freed exactly once); clear empties it; a type too
 * large for memory is an error, not a crash; kiln_cpu_tensor_set_type takes a static tensor
 * type's element type, shape and bytes, and refuses a token and a dynamic shape. */
#include <stdint.h>
#include <string.h>

#include "backends/cpu/cpu.h"
#include "expect.h"

static kiln_cpu_tensor *make(kiln_elem e, int32_t rank, const int64_t *dims) {
  kiln_cpu_tensor *t = NULL;
  kiln_status st = kiln_cpu_tensor_new(e, rank, dims, &t);
  EXPECT(!st && t, "tensor_new: %s", kiln_status_message(st));
  kiln_status_free(st);
  return t;
}

int main(void) {
  kiln_cpu_bin bin = {0};
  int64_t d128[1] = {128}, d2x64[2] = {2, 64}, d3[1] = {3};
  EXPECT(!kiln_cpu_bin_take(NULL, KILN_ELEM_F32, 1, d128), "a NULL bin has nothing");
  EXPECT(!kiln_cpu_bin_take(&bin, KILN_ELEM_F32, 1, d128), "an empty bin has nothing");

  /* same bytes, another type: the same tensor, retyped */
  kiln_cpu_tensor *a = make(KILN_ELEM_F32, 1, d128);
  memset(a->data, 0x5a, a->bytes);
  kiln_cpu_bin_put(&bin, a);
  EXPECT(bin.count == 1, "a small plain tensor is kept (count %d)", (int)bin.count);
  EXPECT(!kiln_cpu_bin_take(&bin, KILN_ELEM_F32, 1, d3), "no tensor of other bytes");
  kiln_cpu_tensor *b = kiln_cpu_bin_take(&bin, KILN_ELEM_SI32, 2, d2x64);
  EXPECT(b == a && bin.count == 0, "the kept tensor, taken out");
  EXPECT(b && b->elem == KILN_ELEM_SI32 && b->rank == 2 && b->dims[0] == 2 && b->dims[1] == 64 && b->bytes == 512,
         "with the type asked for");
  EXPECT(b && ((const uint8_t *)b->data)[511] == 0x5a, "and its memory");

  /* what is not kept */
  b->donated = true;
  kiln_cpu_bin_put(&bin, b);
  EXPECT(bin.count == 0, "a donated tensor is freed");
  int64_t big[1] = {(int64_t)(KILN_CPU_BIN_BYTES / 4) + 1};
  kiln_cpu_bin_put(&bin, make(KILN_ELEM_F32, 1, big));
  EXPECT(bin.count == 0, "a tensor over KILN_CPU_BIN_BYTES is freed");
  int64_t most[1] = {(int64_t)(KILN_CPU_BIN_BYTES / 4)};
  kiln_cpu_bin_put(&bin, make(KILN_ELEM_F32, 1, most));
  EXPECT(bin.count == 1, "one of KILN_CPU_BIN_BYTES is kept");
  kiln_cpu_bin_put(&bin, NULL);
  EXPECT(bin.count == 1, "NULL is nothing");

  /* a full bin */
  for (int32_t i = 0; i < KILN_CPU_BIN_TENSORS + 3; i++) kiln_cpu_bin_put(&bin, make(KILN_ELEM_F32, 1, d3));
  EXPECT(bin.count == KILN_CPU_BIN_TENSORS, "a full bin frees the rest (count %d)", (int)bin.count);
  kiln_cpu_tensor *c = kiln_cpu_bin_take(&bin, KILN_ELEM_UI8, 1, (int64_t[]){12});
  EXPECT(c && c->bytes == 12 && bin.count == KILN_CPU_BIN_TENSORS - 1, "any of the same bytes");
  kiln_cpu_tensor_free(c);
  kiln_cpu_bin_clear(&bin);
  EXPECT(bin.count == 0, "clear empties the bin");
  kiln_cpu_bin_put(NULL, make(KILN_ELEM_F32, 1, d3)); /* freed: ASan's leak check */

  /* sizes no tensor can have */
  kiln_cpu_tensor *t = NULL;
  int64_t huge[2] = {INT64_MAX / 2, 4};
  kiln_status st = kiln_cpu_tensor_new(KILN_ELEM_F32, 2, huge, &t);
  EXPECT(st && !t, "an overflowing size is an error");
  kiln_status_free(st);
  kiln_cpu_bin_put(&bin, make(KILN_ELEM_F32, 1, d3));
  EXPECT(!kiln_cpu_bin_take(&bin, KILN_ELEM_F32, 2, huge) && bin.count == 1, "and nothing from a bin");
  kiln_cpu_bin_clear(&bin);

  /* a tensor's type from a type */
  kiln_module *m = kiln_module_create("t");
  int64_t d3x5[2] = {3, 5}, dq[2] = {KILN_DIM_DYNAMIC, 5};
  const kiln_type *bf16 = m ? kiln_type_scalar(m, KILN_ELEM_BF16) : NULL;
  const kiln_type *tt = bf16 ? kiln_type_tensor(m, bf16, 2, d3x5, NULL) : NULL;
  const kiln_type *dyn = bf16 ? kiln_type_tensor(m, bf16, 2, dq, NULL) : NULL;
  const kiln_type *token = m ? kiln_type_new(m, KILN_TYPE_TOKEN) : NULL;
  kiln_cpu_tensor v = {0};
  EXPECT(tt && kiln_cpu_tensor_set_type(&v, tt) && v.elem == KILN_ELEM_BF16 && v.rank == 2 && v.dims[0] == 3 &&
             v.dims[1] == 5 && v.bytes == 30,
         "bf16[3,5]: its element type, shape and 30 bytes");
  EXPECT(token && !kiln_cpu_tensor_set_type(&v, token) && v.rank == 2 && v.bytes == 30, "a token is refused, v unchanged");
  EXPECT(dyn && !kiln_cpu_tensor_set_type(&v, dyn) && v.bytes == 30, "a dynamic shape is refused");
  kiln_module_destroy(m);
  return test_summary();
}
