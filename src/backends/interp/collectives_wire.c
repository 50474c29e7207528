/* Values on the wire between processes (see collectives_wire.h).
 *
 * A blob: magic, key, rows, values per row; then per row its label and per value the
 * storage type, rank, dims, byte count and bytes (padded to 8). Both ends run on one
 * machine kind (native byte order). */
#include "backends/interp/collectives_wire.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>


static const uint64_t MAGIC = 0x4b494c4e57495245ull; /* "KILNWIRE" */

uint64_t kiln_wire_key(int32_t kind, int64_t channel, const int32_t *ids, int32_t n, uint64_t ordinal) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  uint64_t words[3] = {(uint64_t)(uint32_t)kind, (uint64_t)channel, ordinal};
  for (int w = 0; w < 3; w++)
    for (int b = 0; b < 8; b++) h = (h ^ ((words[w] >> (8 * b)) & 0xff)) * 1099511628211ull;
  for (int32_t i = 0; i < n; i++)
    for (int b = 0; b < 4; b++) h = (h ^ (((uint32_t)ids[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
  return h;
}

int32_t kiln_wire_tag(uint64_t key) { return (int32_t)((key ^ (key >> 31)) & 0x7fffffff); }

typedef struct writer {
  uint8_t *p;
  size_t at, cap;
  bool bad;
} writer;

static void put(writer *w, const void *src, size_t n) {
  if (w->bad) return;
  if (w->p) memcpy(w->p + w->at, src, n);
  size_t padded = (n + 7) & ~(size_t)7;
  if (padded < n || w->at > SIZE_MAX - padded) w->bad = true;
  else w->at += padded;
}

static void put_rows(writer *w, uint64_t key, const int32_t *ids, kiln_rtv **const *rows, int32_t nrows, int32_t nvals) {
  uint64_t head[2] = {MAGIC, key};
  int32_t counts[2] = {nrows, nvals};
  put(w, head, sizeof head);
  put(w, counts, sizeof counts);
  for (int32_t k = 0; k < nrows; k++) {
    put(w, &ids[k], sizeof ids[k]);
    for (int32_t j = 0; j < nvals; j++) {
      const kiln_rtv *v = rows[k][j];
      int32_t meta[2] = {(int32_t)v->elem, v->rank};
      uint64_t bytes = (uint64_t)v->count * v->elem_bytes;
      put(w, meta, sizeof meta);
      put(w, v->dims, sizeof *v->dims * (size_t)v->rank);
      put(w, &bytes, sizeof bytes);
      put(w, v->data, (size_t)bytes);
    }
  }
}

kiln_status kiln_wire_pack(uint64_t key, const int32_t *ids, kiln_rtv **const *rows, int32_t nrows, int32_t nvals,
                           uint8_t **out, size_t *out_bytes) {
  *out = NULL;
  *out_bytes = 0;
  for (int32_t k = 0; k < nrows; k++)
    for (int32_t j = 0; j < nvals; j++)
      if (rows[k][j]->kind != KILN_RTV_TENSOR)
        return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "only tensors travel between processes (value #%d)", (int)j);
  writer size = {0};
  put_rows(&size, key, ids, rows, nrows, nvals); /* measure, then write */
  if (size.bad) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "a collective's values overflow the address space");
  writer w = {.p = calloc(1, size.at ? size.at : 1)};
  if (!w.p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory (%zu bytes for the wire)", size.at);
  put_rows(&w, key, ids, rows, nrows, nvals);
  *out = w.p;
  *out_bytes = w.at;
  return NULL;
}

typedef struct reader {
  const uint8_t *p;
  size_t at, len;
} reader;

static bool get(reader *r, void *dst, size_t n) {
  size_t padded = (n + 7) & ~(size_t)7;
  if (padded < n || r->len - r->at < padded || r->at > r->len) return false;
  if (dst) memcpy(dst, r->p + r->at, n);
  r->at += padded;
  return true;
}

static kiln_status garbled(int32_t from, const char *what) {
  return KILN_STATUS(KILN_STATUS_DATA_LOSS, "the message from process %d is garbled (%s)", (int)from, what);
}

/* One tensor of the blob, typed like `like`. */
static kiln_status read_value(reader *r, int32_t from, int32_t j, const kiln_rtv *like, kiln_rtv **out) {
  int32_t meta[2];
  int64_t dims[KILN_RTV_MAX_RANK];
  uint64_t bytes = 0;
  if (!get(r, meta, sizeof meta) || meta[1] < 0 || meta[1] > KILN_RTV_MAX_RANK) return garbled(from, "a value's rank");
  if (!get(r, dims, sizeof *dims * (size_t)meta[1]) || !get(r, &bytes, sizeof bytes)) return garbled(from, "a value's shape");
  if (meta[0] != (int32_t)like->elem)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "process %d brings value #%d of another element type: the processes run different programs",
                       (int)from, (int)j);
  uint64_t size = like->elem_bytes; /* the shape's bytes, checked against the blob before allocating */
  for (int32_t d = 0; d < meta[1]; d++)
    if (dims[d] < 0 || (dims[d] && size > UINT64_MAX / (uint64_t)dims[d])) return garbled(from, "a value's shape");
    else size *= (uint64_t)dims[d];
  if (size != bytes || r->len - r->at < bytes) return garbled(from, "a value's size");
  KILN_RETURN_IF_ERROR(kiln_rtv_tensor(like->elem_type, meta[1], dims, out));
  get(r, (*out)->data, (size_t)bytes);
  return NULL;
}

kiln_status kiln_wire_unpack(const uint8_t *blob, size_t bytes, int32_t from, uint64_t key, int32_t nvals,
                             kiln_rtv *const *like, const int32_t *ids, int32_t nids, kiln_rtv ***rows, int32_t *filled) {
  *filled = 0;
  reader r = {blob, 0, bytes};
  uint64_t head[2];
  int32_t counts[2];
  if (!get(&r, head, sizeof head) || head[0] != MAGIC || !get(&r, counts, sizeof counts)) return garbled(from, "its header");
  if (head[1] != key || counts[1] != nvals)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "process %d is in another collective (or another round of it) than this one: the processes run "
                       "different programs, or their collectives differ in order",
                       (int)from);
  for (int32_t k = 0; k < counts[0]; k++) {
    int32_t id, slot = -1;
    if (!get(&r, &id, sizeof id)) return garbled(from, "a row's label");
    for (int32_t i = 0; i < nids; i++)
      if (ids[i] == id) slot = i;
    if (slot < 0 || rows[slot]) return garbled(from, "a row of a process it does not run");
    kiln_rtv **row = calloc((size_t)nvals + 1, sizeof *row);
    if (!row) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    rows[slot] = row;
    ++*filled;
    for (int32_t j = 0; j < nvals; j++) KILN_RETURN_IF_ERROR(read_value(&r, from, j, like[j], &row[j]));
  }
  return r.at == r.len ? NULL : garbled(from, "trailing bytes");
}
