/* Source text and located diagnostics.
 *
 * A kiln_source is a read-only view of MLIR text with a display name. Diagnostics point
 * into it by byte offset and are rendered the way MLIR renders them:
 *
 *   file.mlir:12:7: error: message
 *     %0 = stablehlo.add %a : tensor<f32>
 *         ^
 *
 * A source made by kiln_source_read owns its bytes (kiln_source_free releases them); one
 * made by kiln_source_view borrows them. Sources are immutable, so sharing one between
 * threads is safe. */
#ifndef KILN_BASE_SOURCE_H
#define KILN_BASE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/status.h"

typedef struct kiln_source {
  const char *name;  /* display name, e.g. the path */
  const char *text;  /* not necessarily NUL-terminated */
  size_t len;
  uint32_t first_line; /* line number of text[0] (1 for a whole file, more for a split) */
  char *owned;         /* non-NULL when the bytes belong to this source */
} kiln_source;

/* Reads a whole file. On error returns NOT_FOUND / INVALID_ARGUMENT with the reason. */
kiln_status kiln_source_read(const char *path, kiln_source *out_source);
kiln_source kiln_source_view(const char *name, const char *text, size_t len, uint32_t first_line);
void kiln_source_free(kiln_source *source);

/* Line and column (both 1-based, column in bytes) of a byte offset. */
void kiln_source_line_col(const kiln_source *src, size_t offset, uint32_t *out_line,
                          uint32_t *out_col);
/* An INVALID_ARGUMENT status "name:line:col: error: <message>" followed by the source line
 * and a caret under the column. Non-printable bytes of the echoed line are shown as '?'. */
kiln_status kiln_source_error(const kiln_source *src, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for a position given as line/column (used after parsing, e.g. by the
 * verifier). src may be NULL: then only "line:col: error: message" is produced. */
kiln_status kiln_source_error_at(const kiln_source *src, const char *name, uint32_t line,
                                 uint32_t col, const char *message);

/* Splits text at lines that are exactly "// -----" (MLIR's split-input-file marker).
 * Calls fn for each piece with a view whose first_line is the piece's first line. Stops at
 * the first non-NULL status fn returns and passes it up. */
typedef kiln_status (*kiln_source_piece_fn)(const kiln_source *piece, void *user);
kiln_status kiln_source_split(const kiln_source *src, kiln_source_piece_fn fn, void *user);

#endif
