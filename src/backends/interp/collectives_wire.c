/* Values on the wire between processes (see collectives_wire.h).
 *
 * The header: magic, key, rows, values per row; then per row its label and per value the
 * storage type, rank, dims and byte count, every field 8-byte aligned. The values' bytes
 * follow as parts of their own. Both ends run on one machine kind (native byte order). */
#include "backends/interp/collectives_wire.h"

#include <stdint.h>
#include <stdlib.h>
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

/* ------------------------------------------------------------------ writing */

typedef struct writer {
  uint8_t *p; /* NULL: measure only */
  size_t at;
  bool bad;
} writer;

static void put(writer *w, const void *src, size_t n) {
  size_t padded = (n + 7) & ~(size_t)7;
  if (w->bad || padded < n || w->at > SIZE_MAX - padded) {
    w->bad = true;
    return;
  }
  if (w->p) memcpy(w->p + w->at, src, n);
  w->at += padded;
}

static void put_header(writer *w, uint64_t key, const int32_t *ids, kiln_rtv **const *rows, int32_t nrows, int32_t nvals) {
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
    }
  }
}

kiln_status kiln_wire_message(uint64_t key, const int32_t *ids, kiln_rtv **const *rows, int32_t nrows, int32_t nvals,
                              uint8_t **header, kiln_backend_wire_part **parts, int32_t *num_parts) {
  *header = NULL;
  *parts = NULL;
  *num_parts = 0;
  for (int32_t k = 0; k < nrows; k++)
    for (int32_t j = 0; j < nvals; j++)
      if (rows[k][j]->kind != KILN_RTV_TENSOR)
        return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "only tensors travel between processes (value #%d)", (int)j);
  writer size = {0};
  put_header(&size, key, ids, rows, nrows, nvals); /* measure, then write */
  int64_t n = 1 + (int64_t)nrows * nvals;
  if (size.bad || n > INT32_MAX) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "a collective's message is too large");
  writer w = {.p = malloc(size.at)};
  kiln_backend_wire_part *p = malloc(sizeof *p * (size_t)n);
  if (!w.p || !p) {
    free(w.p);
    free(p);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  put_header(&w, key, ids, rows, nrows, nvals);
  p[0] = (kiln_backend_wire_part){w.p, w.at};
  for (int32_t k = 0; k < nrows; k++)
    for (int32_t j = 0; j < nvals; j++)
      p[1 + (int64_t)k * nvals + j] = (kiln_backend_wire_part){rows[k][j]->data, (size_t)rows[k][j]->count * rows[k][j]->elem_bytes};
  *header = w.p;
  *parts = p;
  *num_parts = (int32_t)n;
  return NULL;
}

/* ------------------------------------------------------------------ reading */

typedef struct reader {
  const uint8_t *p;
  size_t at, len;
} reader;

static bool get(reader *r, void *dst, size_t n) {
  size_t padded = (n + 7) & ~(size_t)7;
  if (padded < n || r->at > r->len || r->len - r->at < padded) return false;
  if (dst) memcpy(dst, r->p + r->at, n);
  r->at += padded;
  return true;
}

static kiln_status garbled(int32_t from, const char *what) {
  return KILN_STATUS(KILN_STATUS_DATA_LOSS, "the message from process %d is garbled (%s)", (int)from, what);
}

/* One value's description: a new tensor typed like `like`, its bytes still to come. */
static kiln_status read_value(reader *in, const kiln_wire_reader *r, int32_t j, kiln_rtv **out) {
  const kiln_rtv *like = r->like[j];
  int32_t meta[2];
  int64_t dims[KILN_RTV_MAX_RANK];
  uint64_t bytes = 0;
  if (!get(in, meta, sizeof meta) || meta[1] < 0 || meta[1] > KILN_RTV_MAX_RANK) return garbled(r->from, "a value's rank");
  if (!get(in, dims, sizeof *dims * (size_t)meta[1]) || !get(in, &bytes, sizeof bytes)) return garbled(r->from, "a value's shape");
  if (meta[0] != (int32_t)like->elem)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "process %d brings value #%d of another element type: the processes run different programs",
                       (int)r->from, (int)j);
  uint64_t size = like->elem_bytes; /* checked before allocating */
  for (int32_t d = 0; d < meta[1]; d++) {
    if (dims[d] < 0 || (dims[d] && size > UINT64_MAX / (uint64_t)dims[d])) return garbled(r->from, "a value's shape");
    size *= (uint64_t)dims[d];
  }
  if (size != bytes || size > (uint64_t)INT32_MAX) return garbled(r->from, "a value's size");
  return kiln_rtv_tensor_uninit(like->elem_type, meta[1], dims, out); /* the bytes arrive into it */
}

/* Reads the header: makes every row's tensors and the places of the parts to come. */
static kiln_status read_header(kiln_wire_reader *r) {
  reader in = {r->header, 0, r->header_bytes};
  uint64_t head[2];
  int32_t counts[2];
  if (!get(&in, head, sizeof head) || head[0] != MAGIC || !get(&in, counts, sizeof counts)) return garbled(r->from, "its header");
  if (head[1] != r->key || counts[1] != r->nvals)
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "process %d is in another collective (or another round of it) than this one: the processes run "
                       "different programs, or their collectives differ in order",
                       (int)r->from);
  if (counts[0] != r->nids) return garbled(r->from, "its number of rows");
  int64_t parts = (int64_t)counts[0] * counts[1];
  r->dst = calloc((size_t)parts + 1, sizeof *r->dst);
  r->dst_bytes = calloc((size_t)parts + 1, sizeof *r->dst_bytes);
  if (!r->dst || !r->dst_bytes) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t k = 0; k < counts[0]; k++) {
    int32_t id, slot = -1;
    if (!get(&in, &id, sizeof id)) return garbled(r->from, "a row's label");
    for (int32_t i = 0; i < r->nids; i++)
      if (r->ids[i] == id) slot = i;
    if (slot < 0 || r->rows[slot]) return garbled(r->from, "a row of a process it does not run");
    kiln_rtv **row = calloc((size_t)r->nvals + 1, sizeof *row);
    if (!row) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    r->rows[slot] = row;
    for (int32_t j = 0; j < r->nvals; j++) {
      KILN_RETURN_IF_ERROR(read_value(&in, r, j, &row[j]));
      r->dst[(int64_t)k * r->nvals + j] = row[j]->data;
      r->dst_bytes[(int64_t)k * r->nvals + j] = (size_t)row[j]->count * row[j]->elem_bytes;
    }
  }
  if (in.at != in.len) return garbled(r->from, "trailing bytes");
  r->parts = (int32_t)(1 + parts);
  return NULL;
}

static kiln_status sink_place(void *ctx, int32_t k, int32_t index, size_t bytes, void **dst) {
  kiln_wire_reader *r = &((kiln_wire_reader *)ctx)[k];
  if (index == 0) {
    if (!(r->header = malloc(bytes ? bytes : 1))) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    r->header_bytes = bytes;
    *dst = r->header;
    return NULL;
  }
  if (index >= r->parts || r->dst_bytes[index - 1] != bytes) return garbled(r->from, "a value's bytes");
  /* index < parts: the header has been read, dst is set */
  *dst = r->dst[index - 1];
  return NULL;
}

static int32_t sink_count(void *ctx, int32_t k, int32_t received) {
  kiln_wire_reader *r = &((kiln_wire_reader *)ctx)[k];
  if (received == 0) return 1; /* the header first */
  if (received == 1 && !r->parts && !r->st) r->st = read_header(r);
  return r->st ? received : r->parts; /* after an error: nothing more */
}

kiln_backend_wire_sink kiln_wire_sink(kiln_wire_reader *readers) {
  return (kiln_backend_wire_sink){readers, sink_place, sink_count};
}

void kiln_wire_reader_free(kiln_wire_reader *r) {
  free(r->header);
  free(r->dst);
  free(r->dst_bytes);
  kiln_status_free(r->st);
  r->header = NULL;
  r->dst = NULL;
  r->dst_bytes = NULL;
  r->st = NULL;
}

/* ------------------------------------------------------------------ bytes into place */

static const uint64_t PLACE_MAGIC = 0x4b494c4e504c4345ull; /* "KILNPLCE" */

kiln_backend_wire_part kiln_wire_place_header(uint64_t key, int32_t n, uint64_t out[3]) {
  out[0] = PLACE_MAGIC;
  out[1] = key;
  out[2] = (uint64_t)n;
  return (kiln_backend_wire_part){out, 3 * sizeof *out};
}

static kiln_status placer_place(void *ctx, int32_t k, int32_t index, size_t bytes, void **dst) {
  kiln_wire_placer *p = &((kiln_wire_placer *)ctx)[k];
  if (index == 0) {
    if (bytes != sizeof p->header) return garbled(p->from, "its header");
    *dst = p->header;
    return NULL;
  }
  if (index > p->n) return garbled(p->from, "its number of parts");
  if (bytes != p->bytes[index - 1])
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       "process %d brings value bytes of another size (%zu, where this one expects %zu): the processes' "
                       "operands differ in shape",
                       (int)p->from, bytes, p->bytes[index - 1]);
  static uint8_t nothing;
  *dst = bytes ? p->dst[index - 1] : &nothing;
  return NULL;
}

static int32_t placer_count(void *ctx, int32_t k, int32_t received) {
  kiln_wire_placer *p = &((kiln_wire_placer *)ctx)[k];
  if (received == 0) return 1;
  if (received == 1 && !p->st) {
    if (p->header[0] != PLACE_MAGIC) p->st = garbled(p->from, "its header");
    else if (p->header[1] != p->key || p->header[2] != (uint64_t)p->n)
      p->st = KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                          "process %d is in another collective (or another round of it) than this one: the processes "
                          "run different programs, or their collectives differ in order",
                          (int)p->from);
  }
  return p->st ? received : 1 + p->n;
}

kiln_backend_wire_sink kiln_wire_placer_sink(kiln_wire_placer *placers) {
  return (kiln_backend_wire_sink){placers, placer_place, placer_count};
}
