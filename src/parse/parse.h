/* MLIR text front end: parses one module (the pretty forms StableHLO prints and MLIR's
 * generic form) into a kiln_module.
 *
 * kiln_parse_module: on success *out_module is a new module owned by the caller (free with
 * kiln_module_destroy); on failure it is NULL and the status holds the located error
 * "name:line:col: error: message" with the source line and a caret. The source must
 * outlive the call only (the module copies what it keeps). Thread-safe: parses share
 * nothing. Bad input never crashes, hangs or allocates without bound: nesting is limited
 * to KILN_PARSE_MAX_DEPTH and sizes are overflow-checked. */
#ifndef KILN_PARSE_PARSE_H
#define KILN_PARSE_PARSE_H

#include "base/source.h"
#include "ir/ir.h"

#define KILN_PARSE_MAX_DEPTH 256

kiln_status kiln_parse_module(const kiln_source *src, kiln_module **out_module);

#endif
