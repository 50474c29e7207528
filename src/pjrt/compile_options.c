/* The hand-written CompileOptionsProto reader (see compile_options.h). */
#include "pjrt/compile_options.h"

enum { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2, WIRE_I32 = 5 };

/* A view of one message's bytes; offsets in errors count from the start of the input. */
typedef struct reader {
  const uint8_t *p, *end, *start;
} reader;

#define MALFORMED(r, ...) \
  KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Client_Compile: malformed CompileOptionsProto at byte %zu: %s", \
              (size_t)((r)->p - (r)->start), __VA_ARGS__)

static kiln_status read_varint(reader *r, uint64_t *out) {
  uint64_t v = 0;
  for (int i = 0; i < 10; i++) {
    if (r->p >= r->end) return MALFORMED(r, "a varint runs past the end");
    uint8_t b = *r->p++;
    if (i == 9 && b > 1) return MALFORMED(r, "a varint overflows 64 bits");
    v |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      *out = v;
      return NULL;
    }
  }
  return MALFORMED(r, "a varint is longer than 10 bytes");
}

static kiln_status skip_bytes(reader *r, uint64_t n) {
  if (n > (uint64_t)(r->end - r->p)) return MALFORMED(r, "a field runs past the end");
  r->p += n;
  return NULL;
}

/* Reads a length-delimited field's payload as a sub-reader. */
static kiln_status read_len(reader *r, reader *sub) {
  uint64_t n;
  KILN_RETURN_IF_ERROR(read_varint(r, &n));
  const uint8_t *begin = r->p;
  KILN_RETURN_IF_ERROR(skip_bytes(r, n));
  *sub = (reader){begin, r->p, r->start};
  return NULL;
}

/* The next field's number and wire type; *field 0 at the end of the message. */
static kiln_status next_field(reader *r, uint32_t *field, uint32_t *wire) {
  *field = 0;
  if (r->p >= r->end) return NULL;
  uint64_t key;
  KILN_RETURN_IF_ERROR(read_varint(r, &key));
  *wire = (uint32_t)(key & 7);
  if (key >> 3 == 0 || key >> 3 > 0x1fffffff) return MALFORMED(r, "invalid field number");
  *field = (uint32_t)(key >> 3);
  return NULL;
}

static kiln_status skip_field(reader *r, uint32_t wire) {
  uint64_t v;
  reader sub;
  switch (wire) {
  case WIRE_VARINT: return read_varint(r, &v);
  case WIRE_I64: return skip_bytes(r, 8);
  case WIRE_LEN: return read_len(r, &sub);
  case WIRE_I32: return skip_bytes(r, 4);
  default: return MALFORMED(r, wire == 3 || wire == 4 ? "groups are not supported" : "unknown wire type");
  }
}

static kiln_status expect_wire(reader *r, uint32_t wire, uint32_t want, const char *name) {
  if (wire == want) return NULL;
  return MALFORMED(r, name);
}

static void note_device(kiln_pjrt_compile_options *o, uint64_t id) {
  if (o->num_assigned < KILN_PJRT_MAX_ASSIGNED) o->assigned[o->num_assigned] = (int64_t)id;
  if (o->num_assigned++ == 0) o->first_assigned = (int64_t)id;
}

/* ComputationDevice { repeated int64 replica_device_ids = 1; } (packed or not). */
static kiln_status read_computation_device(reader *r, kiln_pjrt_compile_options *o) {
  uint32_t field, wire;
  for (;;) {
    KILN_RETURN_IF_ERROR(next_field(r, &field, &wire));
    if (!field) return NULL;
    if (field != 1) {
      KILN_RETURN_IF_ERROR(skip_field(r, wire));
      continue;
    }
    uint64_t id;
    if (wire == WIRE_LEN) { /* packed */
      reader ids;
      KILN_RETURN_IF_ERROR(read_len(r, &ids));
      while (ids.p < ids.end) {
        KILN_RETURN_IF_ERROR(read_varint(&ids, &id));
        note_device(o, id);
      }
    } else {
      KILN_RETURN_IF_ERROR(expect_wire(r, wire, WIRE_VARINT, "replica_device_ids is not a varint"));
      KILN_RETURN_IF_ERROR(read_varint(r, &id));
      note_device(o, id);
    }
  }
}

/* DeviceAssignmentProto { int32 replica_count = 1; int32 computation_count = 2;
 *                         repeated ComputationDevice computation_devices = 3; } */
static kiln_status read_assignment(reader *r, kiln_pjrt_compile_options *o) {
  uint32_t field, wire;
  o->has_assignment = true;
  for (;;) {
    KILN_RETURN_IF_ERROR(next_field(r, &field, &wire));
    if (!field) return NULL;
    uint64_t v;
    reader sub;
    switch (field) {
    case 1:
    case 2:
      KILN_RETURN_IF_ERROR(expect_wire(r, wire, WIRE_VARINT, "a device assignment count is not a varint"));
      KILN_RETURN_IF_ERROR(read_varint(r, &v));
      *(field == 1 ? &o->assignment_replicas : &o->assignment_computations) = (int64_t)v;
      break;
    case 3:
      KILN_RETURN_IF_ERROR(expect_wire(r, wire, WIRE_LEN, "computation_devices is not a message"));
      KILN_RETURN_IF_ERROR(read_len(r, &sub));
      KILN_RETURN_IF_ERROR(read_computation_device(&sub, o));
      break;
    default: KILN_RETURN_IF_ERROR(skip_field(r, wire));
    }
  }
}

/* ExecutableBuildOptionsProto: device_ordinal = 1, num_replicas = 4, num_partitions = 5,
 * device_assignment = 9. */
static kiln_status read_build_options(reader *r, kiln_pjrt_compile_options *o) {
  uint32_t field, wire;
  for (;;) {
    KILN_RETURN_IF_ERROR(next_field(r, &field, &wire));
    if (!field) return NULL;
    uint64_t v;
    reader sub;
    switch (field) {
    case 1:
    case 4:
    case 5:
      KILN_RETURN_IF_ERROR(expect_wire(r, wire, WIRE_VARINT, "an integer build option is not a varint"));
      KILN_RETURN_IF_ERROR(read_varint(r, &v));
      *(field == 1 ? &o->device_ordinal : field == 4 ? &o->num_replicas : &o->num_partitions) = (int64_t)v;
      break;
    case 9:
      KILN_RETURN_IF_ERROR(expect_wire(r, wire, WIRE_LEN, "device_assignment is not a message"));
      KILN_RETURN_IF_ERROR(read_len(r, &sub));
      KILN_RETURN_IF_ERROR(read_assignment(&sub, o));
      break;
    default: KILN_RETURN_IF_ERROR(skip_field(r, wire));
    }
  }
}

kiln_status kiln_pjrt_compile_options_parse(const uint8_t *data, size_t size, kiln_pjrt_compile_options *out) {
  *out = (kiln_pjrt_compile_options){.device_ordinal = -1, .first_assigned = -1};
  if (size && !data) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_Client_Compile: compile_options is NULL");
  reader r = {data, data + size, data};
  uint32_t field, wire;
  for (;;) {
    KILN_RETURN_IF_ERROR(next_field(&r, &field, &wire));
    if (!field) break;
    uint64_t v;
    reader sub;
    switch (field) {
    case 3:
      KILN_RETURN_IF_ERROR(expect_wire(&r, wire, WIRE_LEN, "executable_build_options is not a message"));
      KILN_RETURN_IF_ERROR(read_len(&r, &sub));
      KILN_RETURN_IF_ERROR(read_build_options(&sub, out));
      break;
    case 4:
      KILN_RETURN_IF_ERROR(expect_wire(&r, wire, WIRE_VARINT, "compile_portable_executable is not a varint"));
      KILN_RETURN_IF_ERROR(read_varint(&r, &v));
      out->portable = v != 0;
      break;
    default: KILN_RETURN_IF_ERROR(skip_field(&r, wire));
    }
  }
  if (!out->num_replicas) out->num_replicas = 1;
  if (!out->num_partitions) out->num_partitions = 1;
  return NULL;
}
