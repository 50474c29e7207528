/* Values on the wire between processes (src/backends/interp/collectives_wire.c): rows of
 * tensors packed and read back exactly (several rows and values, rank 0, empty tensors);
 * another round's key, another element type, a row of a process the sender does not run;
 * and every truncation and every flipped byte of a blob, each an error or a clean read,
 * never a crash or a leak (the sanitizer build runs this too). */
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

/* Unpacks blob into rows[0..1] (ids 4 and 5) like `like`; the status's code or OK. */
static kiln_status_code unpack(const uint8_t *blob, size_t bytes, uint64_t key, kiln_rtv *const *like, kiln_rtv ***rows,
                               int32_t *filled, char *msg, size_t cap) {
  static const int32_t ids[2] = {4, 5};
  kiln_status st = kiln_wire_unpack(blob, bytes, 1, key, 3, like, ids, 2, rows, filled);
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
  uint8_t *blob = NULL;
  size_t bytes = 0;
  kiln_status st = kiln_wire_pack(key, labels, rows_in, 2, 3, &blob, &bytes);
  EXPECT(!st && blob && bytes % 8 == 0, "pack: %s", st ? kiln_status_message(st) : "a blob of 8-byte words");
  kiln_status_free(st);

  kiln_rtv **rows[2] = {NULL, NULL};
  int32_t filled = 0;
  char msg[512];
  EXPECT(unpack(blob, bytes, key, a, rows, &filled, msg, sizeof msg) == KILN_STATUS_OK && filled == 2, "unpack: %s", msg);
  EXPECT(rows[0] && rows[1] && same(rows[0][0], a[0]) && same(rows[0][1], a[1]) && same(rows[0][2], a[2]) &&
             same(rows[1][0], b[0]) && same(rows[1][1], b[1]) && same(rows[1][2], b[2]),
         "the rows read back equal the rows packed, each under its label (rank 0 and empty tensors too)");
  free_rows(rows, 2, 3);

  EXPECT(unpack(blob, bytes, key + 1, a, rows, &filled, msg, sizeof msg) == KILN_STATUS_FAILED_PRECONDITION &&
             strstr(msg, "process 1 is in another collective"),
         "another round's key: %s", msg);
  kiln_rtv *other[3] = {a[0], a[0], a[2]}; /* value #1 as f32, not i8 */
  EXPECT(unpack(blob, bytes, key, other, rows, &filled, msg, sizeof msg) == KILN_STATUS_FAILED_PRECONDITION &&
             strstr(msg, "value #1 of another element type"),
         "another element type: %s", msg);
  free_rows(rows, 2, 3);
  static const int32_t only4[1] = {4};
  st = kiln_wire_unpack(blob, bytes, 1, key, 3, a, only4, 1, rows, &filled);
  EXPECT(st && strstr(kiln_status_message(st), "a row of a process it does not run"), "a row of another process: %s",
         st ? kiln_status_message(st) : "accepted");
  kiln_status_free(st);
  free_rows(rows, 2, 3);

  int bad_cuts = 0;
  for (size_t cut = 0; cut < bytes; cut++) {
    if (unpack(blob, cut, key, a, rows, &filled, NULL, 0) == KILN_STATUS_OK) bad_cuts++;
    free_rows(rows, 2, 3);
  }
  EXPECT(bad_cuts == 0, "%d truncations of the blob were read as whole", bad_cuts);
  uint8_t *copy = malloc(bytes);
  for (size_t i = 0; copy && i < bytes; i++)
    for (int bit = 0; bit < 8; bit += 3) {
      memcpy(copy, blob, bytes);
      copy[i] ^= (uint8_t)(1u << bit);
      unpack(copy, bytes, key, a, rows, &filled, NULL, 0); /* an error or a read: no crash, nothing kept */
      free_rows(rows, 2, 3);
    }
  EXPECT(copy != NULL, "every flipped byte read without a crash");
  free(copy);
  free(blob);

  kiln_rtv *token = NULL;
  kiln_status_free(kiln_rtv_token(&token));
  kiln_rtv **token_row[1] = {&token};
  st = kiln_wire_pack(key, labels, token_row, 1, 1, &blob, &bytes);
  EXPECT(st && kiln_status_code_of(st) == KILN_STATUS_UNIMPLEMENTED, "a token is refused: %s",
         st ? kiln_status_message(st) : "packed");
  kiln_status_free(st);
  kiln_rtv_release(token);
  for (int i = 0; i < 3; i++) kiln_rtv_release(a[i]), kiln_rtv_release(b[i]);
  return test_summary();
}
