/* npy_close A.npy B.npy TOLERANCE: exits 0 when both files hold tensors of the same dtype
 * and shape whose elements differ by at most TOLERANCE * (1 + |B's element|) (absolute near
 * zero, relative for large values: a sum of many terms rounds by its size), printing
 * "1 passed, 0 failed"; otherwise names the first difference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir/scalar.h"
#include "npy.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: npy_close A.npy B.npy TOLERANCE\n");
    return 2;
  }
  kiln_npy_array a, b = {0};
  kiln_status st = kiln_npy_read(argv[1], &a);
  if (!st) st = kiln_npy_read(argv[2], &b);
  int bad = st != NULL;
  if (st) printf("%s\n", kiln_status_message(st));
  double tol = atof(argv[3]);
  bool same_dims = !bad && a.rank == b.rank;
  for (int32_t i = 0; same_dims && i < a.rank; i++) same_dims = a.dims[i] == b.dims[i];
  if (!bad && (a.elem != b.elem || !same_dims)) {
    printf("dtype or shape differ\n");
    bad = 1;
  }
  size_t elem_bytes = bad ? 1 : kiln_elem_storage_bytes(a.elem);
  for (size_t i = 0; !bad && i < a.byte_size / elem_bytes; i++) {
    kiln_scalar x = kiln_scalar_load(a.elem, a.data + i * elem_bytes);
    kiln_scalar y = kiln_scalar_load(b.elem, b.data + i * elem_bytes);
    double d = kiln_elem_is_float(a.elem) ? fabs(x.f - y.f) : (double)(x.i != y.i);
    if (!(d <= tol * (1 + (kiln_elem_is_float(a.elem) ? fabs(y.f) : 0)))) {
      printf("element %lld: %.9g vs %.9g\n", (long long)i, x.f, y.f);
      bad = 1;
    }
  }
  printf("%d passed, %d failed\n", !bad, bad);
  kiln_status_free(st);
  kiln_npy_free(&a);
  kiln_npy_free(&b);
  return bad;
}
