/* Kiln status values: errors are values, never aborts.
 *
 * A kiln_status is NULL for success; any other value is an error that carries a code
 * (the canonical numbering shared with PJRT_Error_Code and iree_status_t), a message and
 * the source location that raised it. The caller that receives a non-NULL status owns it
 * and must release it with kiln_status_free() (or pass it up). All functions here are
 * thread-safe; a single status value must not be used from two threads at once.
 */
#ifndef KILN_STATUS_H
#define KILN_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kiln_status_code {
  KILN_STATUS_OK = 0,
  KILN_STATUS_CANCELLED = 1,
  KILN_STATUS_UNKNOWN = 2,
  KILN_STATUS_INVALID_ARGUMENT = 3,
  KILN_STATUS_DEADLINE_EXCEEDED = 4,
  KILN_STATUS_NOT_FOUND = 5,
  KILN_STATUS_ALREADY_EXISTS = 6,
  KILN_STATUS_PERMISSION_DENIED = 7,
  KILN_STATUS_RESOURCE_EXHAUSTED = 8,
  KILN_STATUS_FAILED_PRECONDITION = 9,
  KILN_STATUS_ABORTED = 10,
  KILN_STATUS_OUT_OF_RANGE = 11,
  KILN_STATUS_UNIMPLEMENTED = 12,
  KILN_STATUS_INTERNAL = 13,
  KILN_STATUS_UNAVAILABLE = 14,
  KILN_STATUS_DATA_LOSS = 15,
  KILN_STATUS_UNAUTHENTICATED = 16,
} kiln_status_code;

typedef struct kiln_status_s *kiln_status;

/* Creates an error status (never returns NULL for a non-OK code: when memory is
 * exhausted it returns a static out-of-memory status, which kiln_status_free ignores).
 * Passing KILN_STATUS_OK returns NULL. */
kiln_status kiln_status_make(kiln_status_code code, const char *file, int line,
                             const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The code of a status; KILN_STATUS_OK for NULL. */
kiln_status_code kiln_status_code_of(kiln_status status);
/* The message; "" for NULL. Borrowed: valid until the status is freed. */
const char *kiln_status_message(kiln_status status);
/* Where the status was raised ("file:line"); "" for NULL. Borrowed. */
const char *kiln_status_source(kiln_status status);
/* The canonical name of a code, e.g. "INVALID_ARGUMENT". Static storage. */
const char *kiln_status_code_name(kiln_status_code code);
/* Releases a status; NULL is allowed. */
void kiln_status_free(kiln_status status);

#define KILN_STATUS(code, ...) kiln_status_make((code), __FILE__, __LINE__, __VA_ARGS__)
#define KILN_RETURN_IF_ERROR(expr)         \
  do {                                     \
    kiln_status kiln_status_tmp_ = (expr); \
    if (kiln_status_tmp_) return kiln_status_tmp_; \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif
