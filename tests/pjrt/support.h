/* Test support for the PJRT plugin tests: the plugin loaded with dlopen (as JAX and EXLA
 * load it), counted checks, and small wrappers over the PJRT calls the scenarios share.
 * Each scenario file (jax.c, exla.c, errors.c, threads.c, queries.c, devices.c, donate.c, sharded.c, conformance.c) replays one
 * framework's or one concern's call sequence; main.c runs them and prints
 * "N passed, N failed". */
#ifndef KILN_TESTS_PJRT_SUPPORT_H
#define KILN_TESTS_PJRT_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pjrt_c_api.h"

extern const PJRT_Api *api;
extern int t_passed, t_failed;
extern const char *t_devices; /* the "devices" create option ("interp") */

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (cond) {                                            \
      t_passed++;                                          \
    } else {                                               \
      t_failed++;                                          \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);          \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
    }                                                      \
  } while (0)

/* Sets struct_size (this header's size) and zeroes the rest. */
#define ARGS(type, name) type name = {.struct_size = type##_STRUCT_SIZE}

/* Checks err is NULL; otherwise prints its message. Destroys it. */
#define OK(err) t_ok((err), __FILE__, __LINE__)
bool t_ok(PJRT_Error *err, const char *file, int line);
/* Checks err is an error of code whose message contains text; destroys it. */
#define FAILS(err, code, text) t_fails((err), (code), (text), __FILE__, __LINE__)
bool t_fails(PJRT_Error *err, PJRT_Error_Code code, const char *text, const char *file, int line);

/* A client with the test's device list (and extra options). */
PJRT_Client *t_client(size_t struct_size, const PJRT_NamedValue *extra, size_t num_extra);
void t_client_destroy(PJRT_Client *c);
PJRT_Device *t_device(PJRT_Client *c, int index);
PJRT_Memory *t_memory(PJRT_Device *d);

/* A buffer from host data (dense unless strides), through memory or device. */
PJRT_Buffer *t_buffer(PJRT_Client *c, PJRT_Device *d, PJRT_Memory *m, PJRT_Buffer_Type type, const void *data,
                      const int64_t *dims, size_t rank, const int64_t *strides);
void t_buffer_destroy(PJRT_Buffer *b);
/* Copies a buffer to host (dense row-major); checks it succeeds. */
bool t_read(PJRT_Buffer *b, void *dst, size_t size);

/* Compiles MLIR text (format "mlir") with serialized options; NULL and *err on failure. */
PJRT_LoadedExecutable *t_compile(PJRT_Client *c, const char *code, size_t size, const void *options,
                                 size_t options_size, PJRT_Error **err);
void t_executable_destroy(PJRT_LoadedExecutable *x);
/* Runs x on num_args arguments into outputs; events and device as given (NULL allowed). */
PJRT_Error *t_execute(PJRT_LoadedExecutable *x, PJRT_Buffer *const *args, size_t num_args, PJRT_Buffer **outputs,
                      PJRT_Event **done, PJRT_Device *device);
void t_event_destroy(PJRT_Event *e);

/* The programs the scenarios run. */
extern const char *t_add_program; /* main(f32[4], f32[4]) -> f32[4]: a + b */
extern const char *t_pair_program; /* main(f32[2,3]) -> (f32[2,3] x*x, f32[3,2] transpose) */
/* Options as JAX sends them for one device: 1 replica, 1 partition, a 1x1 device
 * assignment, device_ordinal -1 (a 10-byte varint), and fields to skip. */
extern const unsigned char t_jax_options[];
extern const size_t t_jax_options_size;

void t_jax(void);
void t_exla(void);
void t_errors(void);
void t_threads(void);
void t_queries(void);
void t_devices_many(void);
void t_donate(void);
void t_sharded(void);
void t_conformance(const char *dir, int min_read);

#endif
