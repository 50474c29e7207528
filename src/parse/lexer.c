#include "parse/lexer.h"

#include <string.h>

void kiln_lexer_init(kiln_lexer *lx, const kiln_source *src) {
  lx->src = src;
  lx->pos = 0;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_id_char(int c) { return is_alpha(c) || is_digit(c) || c == '$' || c == '.' || c == '-'; }
static bool is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

size_t kiln_lexer_skip(kiln_lexer *lx) {
  const char *t = lx->src->text;
  size_t n = lx->src->len, p = lx->pos;
  for (;;) {
    while (p < n && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r')) p++;
    if (p + 1 < n && t[p] == '/' && t[p + 1] == '/') {
      while (p < n && t[p] != '\n') p++;
      continue;
    }
    break;
  }
  return lx->pos = p;
}

static kiln_tok make(kiln_lexer *lx, kiln_tok_kind kind, size_t start, size_t end) {
  kiln_tok tok = {kind, lx->src->text + start, end - start, start, NULL};
  lx->pos = end;
  return tok;
}

static kiln_tok error(kiln_lexer *lx, size_t at, const char *msg) {
  kiln_tok tok = {KILN_TOK_ERROR, lx->src->text + at, 1, at, msg};
  return tok;
}

/* Scans a "..." string from p (at the quote); returns the end offset or 0 on error. */
static size_t scan_string(const char *t, size_t n, size_t p) {
  for (p++; p < n; p++) {
    if (t[p] == '"') return p + 1;
    if (t[p] == '\n') return 0;
    if (t[p] == '\\') {
      if (p + 1 >= n) return 0;
      p++;
    }
  }
  return 0;
}

static kiln_tok lex_number(kiln_lexer *lx, size_t start) {
  const char *t = lx->src->text;
  size_t n = lx->src->len, p = start;
  if (t[p] == '0' && p + 1 < n && t[p + 1] == 'x' && p + 2 < n && is_hex(t[p + 2])) {
    p += 2;
    while (p < n && is_hex(t[p])) p++;
    return make(lx, KILN_TOK_INT, start, p);
  }
  while (p < n && is_digit(t[p])) p++;
  bool is_float = false;
  if (p < n && t[p] == '.') {
    is_float = true;
    p++;
    while (p < n && is_digit(t[p])) p++;
  }
  if (p < n && (t[p] == 'e' || t[p] == 'E') && is_float) {
    size_t q = p + 1;
    if (q < n && (t[q] == '+' || t[q] == '-')) q++;
    if (q < n && is_digit(t[q])) {
      p = q;
      while (p < n && is_digit(t[p])) p++;
    }
  }
  return make(lx, is_float ? KILN_TOK_FLOAT : KILN_TOK_INT, start, p);
}

kiln_tok kiln_lex(kiln_lexer *lx) {
  size_t p = kiln_lexer_skip(lx);
  const char *t = lx->src->text;
  size_t n = lx->src->len;
  if (p >= n) return make(lx, KILN_TOK_EOF, p, p);
  unsigned char c = (unsigned char)t[p];
  if (is_digit(c)) return lex_number(lx, p);
  if (is_alpha(c)) {
    size_t q = p + 1;
    while (q < n && is_id_char((unsigned char)t[q])) q++;
    return make(lx, KILN_TOK_IDENT, p, q);
  }
  switch (c) {
    case '%':
    case '^':
    case '@':
    case '#':
    case '!': {
      size_t q = p + 1;
      if (c == '@' && q < n && t[q] == '"') {
        size_t e = scan_string(t, n, q);
        if (!e) return error(lx, p, "unterminated string");
        return make(lx, KILN_TOK_AT, p, e);
      }
      while (q < n && is_id_char((unsigned char)t[q])) q++;
      if (q == p + 1) return error(lx, p, c == '%' ? "expected a value name after '%'" : "expected an identifier");
      kiln_tok_kind k = c == '%' ? KILN_TOK_PERCENT : c == '^' ? KILN_TOK_CARET : c == '@' ? KILN_TOK_AT
                      : c == '#' ? KILN_TOK_HASH : KILN_TOK_BANG;
      return make(lx, k, p, q);
    }
    case '"': {
      size_t e = scan_string(t, n, p);
      if (!e) return error(lx, p, "unterminated string");
      return make(lx, KILN_TOK_STRING, p, e);
    }
    case '-':
      if (p + 1 < n && t[p + 1] == '>') return make(lx, KILN_TOK_ARROW, p, p + 2);
      return make(lx, KILN_TOK_PUNCT, p, p + 1);
    case '(': case ')': case '{': case '}': case '[': case ']': case '<': case '>':
    case ',': case ':': case '=': case '*': case '+': case '?': case '|':
      return make(lx, KILN_TOK_PUNCT, p, p + 1);
    default:
      if (c >= 0x80) return error(lx, p, "unexpected non-ASCII byte (MLIR text is ASCII outside strings)");
      return error(lx, p, "unexpected character");
  }
}
