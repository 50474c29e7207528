/* Inlining: a copy of a function with every func.call and stablehlo.composite of its body
 * (and of the bodies it pulls in, to a bounded depth) replaced by the callee's (the
 * composite's decomposition's) ops, so that later passes see one
 * straight block. Calls inside regions (a while body calling a function) stay calls.
 *
 * The copy lives in `scratch` (a module the caller owns, e.g. from kiln_module_create);
 * types and attributes are shared with the source module, which must outlive it. The
 * copy's values are numbered (kiln_func_number_values). Only reads the source module:
 * thread-safe for concurrent calls with distinct scratch modules. */
#ifndef KILN_PASSES_INLINE_H
#define KILN_PASSES_INLINE_H

#include "ir/ir.h"

/* *out_func: the inlined copy of func (of module m) in scratch; *out_inlined: how many
 * calls were replaced. */
kiln_status kiln_inline_calls(const kiln_module *m, const kiln_op *func, kiln_module *scratch, kiln_op **out_func,
                              int32_t *out_inlined);

/* The same, with the calls inside regions (a while body's) inlined too, to the same bounds;
 * recursive calls stay calls. */
kiln_status kiln_inline_calls_everywhere(const kiln_module *m, const kiln_op *func, kiln_module *scratch,
                                         kiln_op **out_func, int32_t *out_inlined);

/* Copies the ops of block src (of a numbered function), but its terminator, to the end of
 * dst (their regions whole; calls stay calls), reading map[id] for each value they use
 * (NULL: the value itself, defined outside src) and setting map[id] for each value they
 * define (ids of the source: map has room for every value of the function); the
 * terminator's operands, so mapped, go to out_returned. The copies are allocated in m. */
kiln_status kiln_clone_block_ops(kiln_module *m, const kiln_block *src, kiln_block *dst, kiln_value **map,
                                 kiln_value **out_returned);

/* Outlining: a region of an op of func (numbered: num_values values) as a function of its
 * own in scratch, whose parameters are the region's arguments followed by the values of
 * func that the region uses from outside it (*out_captured: their ids, *out_num_captured
 * of them, allocated in scratch); its stablehlo.return becomes func.return, and calls at
 * its top level are inlined. The region must have one block. */
kiln_status kiln_outline_region(const kiln_module *m, const kiln_region *r, int32_t num_values, kiln_module *scratch,
                                kiln_op **out_func, const int32_t **out_captured, int32_t *out_num_captured);

#endif
