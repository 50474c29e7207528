/* MLIR text lexer: pull-based, one token of lookahead, no allocation. Tokens point into
 * the source text. Not thread-safe (one lexer per parse). */
#ifndef KILN_PARSE_LEXER_H
#define KILN_PARSE_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/source.h"

typedef enum kiln_tok_kind {
  KILN_TOK_EOF,
  KILN_TOK_ERROR,      /* a malformed token; msg says why */
  KILN_TOK_IDENT,      /* bare identifier: letters, digits, _ $ . - */
  KILN_TOK_PERCENT,    /* %name (text includes the %) */
  KILN_TOK_CARET,      /* ^bb0 */
  KILN_TOK_AT,         /* @name or @"quoted" */
  KILN_TOK_HASH,       /* #dialect or #dialect.name */
  KILN_TOK_BANG,       /* !dialect.name */
  KILN_TOK_INT,        /* 123 or 0x1F (no sign) */
  KILN_TOK_FLOAT,      /* 1.5, 1e3, 2.0E-3 (no sign) */
  KILN_TOK_STRING,     /* "..." with escapes (text includes the quotes) */
  KILN_TOK_PUNCT,      /* ( ) { } [ ] < > , : = * + ? - x */
  KILN_TOK_ARROW,      /* -> */
} kiln_tok_kind;

typedef struct kiln_tok {
  kiln_tok_kind kind;
  const char *text;
  size_t len;
  size_t offset; /* byte offset in the source */
  const char *msg; /* for KILN_TOK_ERROR */
} kiln_tok;

typedef struct kiln_lexer {
  const kiln_source *src;
  size_t pos;
} kiln_lexer;

void kiln_lexer_init(kiln_lexer *lx, const kiln_source *src);
/* Lexes the next token starting at lx->pos and advances past it. */
kiln_tok kiln_lex(kiln_lexer *lx);
/* Skips whitespace and comments; returns the offset of the next token. */
size_t kiln_lexer_skip(kiln_lexer *lx);

#endif
