/* The operands of a matrix product test (test_sgemm.c, test_igemm.c): A stored m x k ('N')
 * or k x m ('T'), B k x n or n x k, C m x n, each row `pad` elements longer than it needs,
 * each matrix ending where a page the process may not touch begins (guarded.h: its last
 * row holds only its own elements), and c0, a plain buffer for C's first contents. */
#ifndef KILN_TESTS_BACKENDS_CPU_GEMM_OPERANDS_H
#define KILN_TESTS_BACKENDS_CPU_GEMM_OPERANDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "guarded.h"

typedef struct gemm_operands {
  int64_t lda, ldb, ldc;
  size_t na, nb, nc; /* the elements each matrix spans */
  void *a, *b, *c, *c0;
  kiln_test_guarded ga, gb, gc;
} gemm_operands;

/* Elements of ab_bytes (A and B) and c_bytes (C); false (o still freeable) when out of
 * memory. */
static inline bool gemm_operands_make(char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t pad, size_t ab_bytes,
                                      size_t c_bytes, gemm_operands *o) {
  int64_t ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m; /* A as stored */
  int64_t br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
  o->lda = ac + pad, o->ldb = bc + pad, o->ldc = n + pad;
  o->na = ar ? (size_t)((ar - 1) * o->lda + ac) : 1;
  o->nb = br ? (size_t)((br - 1) * o->ldb + bc) : 1;
  o->nc = (size_t)((m - 1) * o->ldc + n);
  o->a = kiln_test_guarded_alloc(o->na * ab_bytes, &o->ga);
  o->b = kiln_test_guarded_alloc(o->nb * ab_bytes, &o->gb);
  o->c = kiln_test_guarded_alloc(o->nc * c_bytes, &o->gc);
  o->c0 = malloc(o->nc * c_bytes);
  return o->a && o->b && o->c && o->c0;
}

static inline void gemm_operands_free(gemm_operands *o) {
  free(o->c0);
  kiln_test_guarded_free(&o->ga);
  kiln_test_guarded_free(&o->gb);
  kiln_test_guarded_free(&o->gc);
}

#endif
