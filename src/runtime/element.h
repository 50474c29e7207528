/* Public element types (kiln_element_type, fixed numbers) <-> the IR's kiln_elem (the
 * order of ir/elem.def: plugins compiled against it depend on it, docs/ABI.md). Exported
 * from libkiln.so for plugins and tools. Pure functions: thread-safe. */
#ifndef KILN_RUNTIME_ELEMENT_H
#define KILN_RUNTIME_ELEMENT_H

#include "ir/ir.h"
#include "kiln/kiln.h"

/* KILN_ELEMENT_TYPE_INVALID for an element type buffers cannot hold (index). */
kiln_element_type kiln_element_type_from_elem(kiln_elem elem);
/* KILN_ELEM_COUNT for INVALID, TOKEN, TUPLE and unknown values. */
kiln_elem kiln_element_type_to_elem(kiln_element_type type);

#endif
