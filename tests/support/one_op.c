/* The op of a one-op module (one_op.h). */
#include "one_op.h"

#include <string.h>

#include "parse/parse.h"

kiln_status kiln_test_first_op(const char *name, const char *text, kiln_module **m, const kiln_op **op) {
  *m = NULL;
  *op = NULL;
  kiln_source src = kiln_source_view(name, text, strlen(text), 1);
  KILN_RETURN_IF_ERROR(kiln_parse_module(&src, m));
  KILN_RETURN_IF_ERROR(kiln_verify_module(*m, &src));
  kiln_module_number_values(*m);
  const kiln_op *f = kiln_module_lookup_func(*m, "main");
  *op = f ? kiln_op_block(f, 0)->first : NULL;
  return *op ? NULL : KILN_STATUS(KILN_STATUS_INTERNAL, "%s: no op in @main", name);
}
