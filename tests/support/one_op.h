/* Tests of one op's kernel: the op parsed from a module's text. */
#ifndef KILN_TESTS_ONE_OP_H
#define KILN_TESTS_ONE_OP_H

#include "ir/ir.h"
#include "kiln/status.h"

/* Parses and verifies text (named name in messages), numbers its values and sets *op to
 * the first op of its @main. The caller owns *m (kiln_module_destroy; NULL allowed), also
 * when an error is returned. */
kiln_status kiln_test_first_op(const char *name, const char *text, kiln_module **m, const kiln_op **op);

#endif
