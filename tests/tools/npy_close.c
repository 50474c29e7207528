/* npy_close A.npy B.npy TOLERANCE: exits 0 when both files hold tensors of the same dtype
 * and shape whose elements differ by at most TOLERANCE (absolute), printing
 * "1 passed, 0 failed"; otherwise names the first difference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "npy.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: npy_close A.npy B.npy TOLERANCE\n");
    return 2;
  }
  kiln_rtv *a = NULL, *b = NULL;
  kiln_status st = kiln_npy_read(argv[1], &a);
  if (!st) st = kiln_npy_read(argv[2], &b);
  int bad = st != NULL;
  if (st) printf("%s\n", kiln_status_message(st));
  double tol = atof(argv[3]);
  if (!bad && (a->elem != b->elem || a->count != b->count || a->rank != b->rank)) {
    printf("dtype or shape differ\n");
    bad = 1;
  }
  for (int64_t i = 0; !bad && i < a->count; i++) {
    kiln_scalar x = kiln_scalar_load(a->elem, a->data + (size_t)i * a->elem_bytes);
    kiln_scalar y = kiln_scalar_load(b->elem, b->data + (size_t)i * b->elem_bytes);
    double d = kiln_elem_is_float(a->elem) ? fabs(x.f - y.f) : (double)(x.i != y.i);
    if (!(d <= tol)) {
      printf("element %lld: %.9g vs %.9g\n", (long long)i, x.f, y.f);
      bad = 1;
    }
  }
  printf("%d passed, %d failed\n", !bad, bad);
  kiln_status_free(st);
  kiln_rtv_release(a);
  kiln_rtv_release(b);
  return bad;
}
