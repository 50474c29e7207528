/* Values on the wire between processes (src/backends/interp/collectives_wire.c): a
 * message of rows of tensors delivered part by part through the sink, as the wire does,
 * and read back exactly (several rows and values, rank 0, empty tensors); another round's
 * key, another element type, a row of a process the sender does not run, a part of the
 * wrong size; and every truncation and every flipped bit of the header, each an error or a
 * clean read, never a crash or a leak (the sanitizer build runs this too). */
#include <stdlib.h>
#include <string.h>

#include "backends/interp/collectives_wire.h"
#include "backends/interp/interp.h"
#include "support/expect.h"

static kiln_rtv *tensor(kiln_elem e, int32_t rank, const int64_t *dims, int seed) {
  kiln_rtv *v = NULL;
  kiln_status st = kiln_rtv_tensor(kiln_interp_scalar_type(e), rank, dims, &v);
  if (st) {
    kiln_status_free(st);
    return NULL;
  }
  for (size_t i = 0; i < (size_t)v->count * v->elem_bytes; i++) v->data[i] = (uint8_t)(seed * 31 + i * 7);
  return v;
}

static bool same(const kiln_rtv *a, const kiln_rtv *b) {
  return a && b && a->elem == b->elem && a->rank == b->rank && !memcmp(a->dims, b->dims, sizeof *a->dims * (size_t)a->rank) &&
         a->count == b->count && !memcmp(a->data, b->data, (size_t)a->count * a->elem_bytes);
}

static void free_rows(kiln_rtv ***rows, int32_t n, int32_t nvals) {
  for (int32_t k = 0; k < n; k++) {
    for (int32_t j = 0; rows[k] && j < nvals; j++) kiln_rtv_release(rows[k][j]);
    free(rows[k]);
    rows[k] = NULL;
  }
}

/* Delivers parts to a reader of ids {4, 5} like the wire does (each part placed, copied,
 * counted) and returns the first error's code (the sink's or the reader's), its message in
 * msg. header_bytes: how much of the header arrives (the header itself may be replaced). */
static kiln_status_code deliver(const kiln_backend_wire_part *parts, int32_t num_parts, const uint8_t *header,
                                size_t header_bytes, uint64_t key, kiln_rtv *const *like, kiln_rtv ***rows, char *msg,
                                size_t cap) {
  static const int32_t ids[2] = {4, 5};
  kiln_wire_reader r = {.from = 1, .key = key, .nvals = 3, .like = like, .ids = ids, .nids = 2, .rows = rows};
  kiln_backend_wire_sink sink = kiln_wire_sink(&r);
  kiln_status st = NULL;
  int32_t expected = sink.count(sink.ctx, 0, 0);
  for (int32_t i = 0; !st && i < expected; i++) {
    if (i >= num_parts) {
      st = KILN_STATUS(KILN_STATUS_DATA_LOSS, "the test ran out of parts");
      break;
    }
    const void *src = i == 0 ? header : parts[i].data;
    size_t bytes = i == 0 ? header_bytes : parts[i].bytes;
    void *dst = NULL;
    st = sink.place(sink.ctx, 0, i, bytes, &dst);
    if (!st) memcpy(dst, src, bytes);
    if (!st) expected = sink.count(sink.ctx, 0, i + 1);
  }
  if (!st) st = r.st, r.st = NULL;
  kiln_wire_reader_free(&r);
  kiln_status_code c = st ? kiln_status_code_of(st) : KILN_STATUS_OK;
  if (msg) snprintf(msg, cap, "%s", st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  return c;
}

int main(void) {
  int64_t d23[2] = {2, 3}, d5[1] = {5}, d0[2] = {4, 0};
  kiln_rtv *a[3] = {tensor(KILN_ELEM_F32, 2, d23, 1), tensor(KILN_ELEM_SI8, 1, d5, 2), tensor(KILN_ELEM_F64, 0, NULL, 3)};
  kiln_rtv *b[3] = {tensor(KILN_ELEM_F32, 2, d23, 4), tensor(KILN_ELEM_SI8, 2, d0, 5), tensor(KILN_ELEM_F64, 0, NULL, 6)};
  kiln_rtv **rows_in[2] = {b, a}; /* rows labelled 5 and 4: read back by label */
  int32_t labels[2] = {5, 4};
  int32_t members[3] = {0, 4, 5};
  uint64_t key = kiln_wire_key(7, 2, members, 3, 0);
  EXPECT(key != kiln_wire_key(7, 2, members, 3, 1) && key != kiln_wire_key(8, 2, members, 3, 0) &&
             key != kiln_wire_key(7, 3, members, 3, 0) && key != kiln_wire_key(7, 2, members, 2, 0),
         "keys differ by ordinal, kind, channel and processes");
  EXPECT(kiln_wire_tag(key) >= 0, "tags are not negative");
  uint8_t *header = NULL;
  kiln_backend_wire_part *parts = NULL;
  int32_t np = 0;
  kiln_status st = kiln_wire_message(key, labels, rows_in, 2, 3, &header, &parts, &np);
  EXPECT(!st && np == 7 && parts && parts[0].data == header && parts[1].data == b[0]->data && parts[4].data == a[0]->data,
         "message: %s", st ? kiln_status_message(st) : "a header, then each value's bytes in place");
  kiln_status_free(st);
  size_t hb = parts ? parts[0].bytes : 0;

  kiln_rtv **rows[2] = {NULL, NULL};
  char msg[512];
  EXPECT(deliver(parts, np, header, hb, key, a, rows, msg, sizeof msg) == KILN_STATUS_OK, "delivered: %s", msg);
  EXPECT(rows[0] && rows[1] && same(rows[0][0], a[0]) && same(rows[0][1], a[1]) && same(rows[0][2], a[2]) &&
             same(rows[1][0], b[0]) && same(rows[1][1], b[1]) && same(rows[1][2], b[2]),
         "the rows read back equal the rows sent, each under its label (rank 0 and empty tensors too)");
  free_rows(rows, 2, 3);

  EXPECT(deliver(parts, np, header, hb, key + 1, a, rows, msg, sizeof msg) == KILN_STATUS_FAILED_PRECONDITION &&
             strstr(msg, "process 1 is in another collective"),
         "another round's key: %s", msg);
  free_rows(rows, 2, 3);
  kiln_rtv *other[3] = {a[0], a[0], a[2]}; /* value #1 as f32, not s8 */
  EXPECT(deliver(parts, np, header, hb, key, other, rows, msg, sizeof msg) == KILN_STATUS_FAILED_PRECONDITION &&
             strstr(msg, "value #1 of another element type"),
         "another element type: %s", msg);
  free_rows(rows, 2, 3);
  kiln_backend_wire_part *short_part = malloc(sizeof *short_part * (size_t)np);
  if (short_part) {
    memcpy(short_part, parts, sizeof *parts * (size_t)np);
    short_part[3].bytes -= 1;
  }
  EXPECT(short_part && deliver(short_part, np, header, hb, key, a, rows, msg, sizeof msg) == KILN_STATUS_DATA_LOSS &&
             strstr(msg, "a value's bytes"),
         "a part of the wrong size: %s", msg);
  free(short_part);
  free_rows(rows, 2, 3);

  int32_t foreign[2] = {5, 6};
  uint8_t *header6 = NULL;
  kiln_backend_wire_part *parts6 = NULL;
  int32_t np6 = 0;
  kiln_status_free(kiln_wire_message(key, foreign, rows_in, 2, 3, &header6, &parts6, &np6));
  EXPECT(parts6 && deliver(parts6, np6, header6, parts6[0].bytes, key, a, rows, msg, sizeof msg) == KILN_STATUS_DATA_LOSS &&
             strstr(msg, "a row of a process it does not run"),
         "a row of another process: %s", msg);
  free_rows(rows, 2, 3);
  free(header6);
  free(parts6);

  int bad_cuts = 0;
  for (size_t cut = 0; cut < hb; cut++) {
    if (deliver(parts, np, header, cut, key, a, rows, NULL, 0) == KILN_STATUS_OK) bad_cuts++;
    free_rows(rows, 2, 3);
  }
  EXPECT(bad_cuts == 0, "%d truncations of the header were read as whole", bad_cuts);
  uint8_t *copy = malloc(hb);
  for (size_t i = 0; copy && i < hb; i++)
    for (int bit = 0; bit < 8; bit++) {
      memcpy(copy, header, hb);
      copy[i] ^= (uint8_t)(1u << bit);
      deliver(parts, np, copy, hb, key, a, rows, NULL, 0); /* an error or a read: no crash, nothing kept */
      free_rows(rows, 2, 3);
    }
  EXPECT(copy != NULL, "every flipped bit of the header read without a crash");
  free(copy);
  free(header);
  free(parts);

  kiln_rtv *token = NULL;
  kiln_status_free(kiln_rtv_token(&token));
  kiln_rtv **token_row[1] = {&token};
  st = kiln_wire_message(key, labels, token_row, 1, 1, &header, &parts, &np);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_UNIMPLEMENTED, "a token is refused: %s",
         st ? kiln_status_message(st) : "sent");
  kiln_status_free(st);
  kiln_rtv_release(token);
  for (int i = 0; i < 3; i++) kiln_rtv_release(a[i]), kiln_rtv_release(b[i]);
  return test_summary();
}
