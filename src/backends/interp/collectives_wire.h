/* Values on the wire between processes (kiln_backend_wire): the message of a collective's
 * rows of tensors, and reading one back into new tensors, checked against the round the
 * receiver is in. The tensors' bytes travel in place both ways: sent from the values
 * themselves and received straight into the new tensors. Internal to collectives.c. */
#ifndef KILN_INTERP_COLLECTIVES_WIRE_H
#define KILN_INTERP_COLLECTIVES_WIRE_H

#include "backends/interp/value.h"
#include "kiln/backend.h"

/* A round's identity on every process: a hash of what the round is (the op kind, the
 * channel, the processes taking part) and how many such rounds came before it. */
uint64_t kiln_wire_key(int32_t kind, int64_t channel, const int32_t *ids, int32_t n, uint64_t ordinal);

/* The tag a round's parts travel under. */
int32_t kiln_wire_tag(uint64_t key);

/* The message of rows[k][0 .. nvals-1] (tensors), row k labelled ids[k]: *parts
 * (malloc'ed, *num_parts = 1 + nrows * nvals) is a header (*header, malloc'ed: key,
 * labels, element types, shapes) and then every value's bytes, in place (the values must
 * stay unchanged while the parts are in use). */
kiln_status kiln_wire_message(uint64_t key, const int32_t *ids, kiln_rtv **const *rows, int32_t nrows, int32_t nvals,
                              uint8_t **header, kiln_backend_wire_part **parts, int32_t *num_parts);

/* Reading one process's message (the sink of an exchange, kiln_wire_sink). It must carry
 * `key` and rows of nvals tensors; the row labelled ids[i] becomes rows[i] (malloc'ed
 * rows of new tensors; each label once, every one of ids[]), its tensors typed like
 * like[j] (the receiver's own value in the same place: same storage type). The first error
 * is kept in st (the reader then takes nothing more). */
typedef struct kiln_wire_reader {
  int32_t from; /* its process, for errors */
  uint64_t key;
  int32_t nvals;
  kiln_rtv *const *like;
  const int32_t *ids;
  int32_t nids;
  kiln_rtv ***rows; /* nids slots, NULL until read */
  /* filled while reading */
  uint8_t *header;
  size_t header_bytes;
  int32_t parts;     /* the parts announced (0 until the header is read) */
  void **dst;        /* per part after the header: where it goes */
  size_t *dst_bytes;
  kiln_status st;
} kiln_wire_reader;

/* A sink over readers[0 .. n-1] (zeroed but for the fields above), reader k for the
 * exchange's peer k. */
kiln_backend_wire_sink kiln_wire_sink(kiln_wire_reader *readers);

/* Frees what a reader holds but its rows (the caller's, read or not). */
void kiln_wire_reader_free(kiln_wire_reader *r);

/* Bytes straight into place: a message of a header (kiln_wire_place_header: key and part
 * count) and n parts, read by a kiln_wire_placer whose part i lands in dst[i], which must
 * be exactly bytes[i] long (another length: the sender's values differ in shape). */
typedef struct kiln_wire_placer {
  int32_t from; /* its process, for errors */
  uint64_t key;
  int32_t n;
  void *const *dst;
  const size_t *bytes;
  uint64_t header[3]; /* filled while reading */
  kiln_status st;
} kiln_wire_placer;

/* The header part of such a message (in out[], which the part points to). */
kiln_backend_wire_part kiln_wire_place_header(uint64_t key, int32_t n, uint64_t out[3]);

/* A sink over placers[0 .. n-1], placer k for the exchange's peer k; their errors stay in
 * their st (kiln_status_free them). */
kiln_backend_wire_sink kiln_wire_placer_sink(kiln_wire_placer *placers);

#endif
