/* MLIR bytecode front end: reads a StableHLO portable artifact (the VHLO dialect in MLIR
 * bytecode, what JAX and EXLA hand to PJRT plugins) into a kiln_module, the same IR the
 * text parser builds for the same StableHLO program.
 *
 * kiln_bytecode_read: data/len is the whole artifact (it may hold NULs; it is not copied
 * and must outlive the call only); name is the display name used in errors. On success
 * *out_module is a new, verified module owned by the caller (free with
 * kiln_module_destroy). On failure it is NULL and the status is INVALID_ARGUMENT
 * "name: byte N: expected ..." for a malformed artifact, UNIMPLEMENTED for a well-formed
 * one that uses something Kiln does not read (an op of a foreign dialect, a VHLO attribute
 * newer than StableHLO 1.20.0), or the verifier's error. Thread-safe: reads share nothing. Bad input never
 * crashes, hangs or allocates without bound: every count is checked against the bytes
 * left before anything is allocated, and nesting is limited to KILN_BYTECODE_MAX_DEPTH.
 *
 * kiln_bytecode_sniff: true when the bytes start with MLIR bytecode's magic "ML\xEFR".
 * Thread-safe. */
#ifndef KILN_BYTECODE_BYTECODE_H
#define KILN_BYTECODE_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

#define KILN_BYTECODE_MAX_DEPTH 128

bool kiln_bytecode_sniff(const void *data, size_t len);
kiln_status kiln_bytecode_read(const uint8_t *data, size_t len, const char *name, kiln_module **out_module);

#endif
