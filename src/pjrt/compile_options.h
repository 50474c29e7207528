/* A reader for the serialized xla.CompileOptionsProto that PJRT_Client_Compile receives,
 * written by hand (no protobuf library): it reads the few fields Kiln acts on and skips
 * the rest by wire type.
 *
 * Fields read (field numbers of xla/pjrt/proto/compile_options.proto and xla_data.proto):
 *   CompileOptionsProto            3 executable_build_options, 4 compile_portable_executable
 *   ExecutableBuildOptionsProto    1 device_ordinal, 4 num_replicas, 5 num_partitions,
 *                                  9 device_assignment
 *   DeviceAssignmentProto          1 replica_count, 2 computation_count,
 *                                  3 computation_devices
 *   ComputationDevice              1 replica_device_ids (packed or not)
 * Every other field is skipped by its wire type (varint, 64-bit, length-delimited,
 * 32-bit). Groups (wire types 3, 4), unknown wire types, field number 0, a known field of
 * the wrong wire type, varints longer than 10 bytes and lengths past the end are
 * malformed. Pure function of its input: thread-safe, no allocation.
 */
#ifndef KILN_PJRT_COMPILE_OPTIONS_H
#define KILN_PJRT_COMPILE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/status.h"

#define KILN_PJRT_MAX_ASSIGNED 1024

typedef struct kiln_pjrt_compile_options {
  int64_t num_replicas;   /* 1 when absent (proto3 default 0 means 1) */
  int64_t num_partitions; /* 1 when absent */
  bool portable;          /* compile_portable_executable */
  int64_t device_ordinal; /* -1 when absent */
  bool has_assignment;    /* a device_assignment was given */
  int64_t assignment_replicas, assignment_computations;
  int64_t num_assigned;   /* replica_device_ids in all */
  int64_t first_assigned; /* the first of them (-1 when none) */
  /* The first KILN_PJRT_MAX_ASSIGNED of them, in order: computation (partition) major,
   * replica minor (the device of each partition, with one replica). */
  int64_t assigned[KILN_PJRT_MAX_ASSIGNED];
} kiln_pjrt_compile_options;

/* Reads size bytes of a serialized CompileOptionsProto (size 0 is all defaults) into
 * *out. Malformed input is INVALID_ARGUMENT naming what is wrong and where. */
kiln_status kiln_pjrt_compile_options_parse(const uint8_t *data, size_t size, kiln_pjrt_compile_options *out);

#endif
