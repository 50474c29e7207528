/* Buffers that end where a page the process may not touch begins, so that a read past
 * their last byte or a write past it faults (tests of kernels that load whole vectors). */
#ifndef KILN_TESTS_SUPPORT_GUARDED_H
#define KILN_TESTS_SUPPORT_GUARDED_H

#include <stddef.h>

typedef struct kiln_test_guarded {
  void *base;   /* the mapping, for kiln_test_guarded_free */
  size_t bytes; /* its length, the guard page included */
} kiln_test_guarded;

/* bytes (at least 1) ending at a PROT_NONE page; NULL when the mapping fails. The
 * returned pointer is aligned only to bytes' own alignment within a page. */
void *kiln_test_guarded_alloc(size_t bytes, kiln_test_guarded *g);
/* Unmaps g's buffer (nothing when it was not made). */
void kiln_test_guarded_free(kiln_test_guarded *g);

#endif
