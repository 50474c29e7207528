/* PJRT_Error: a kiln_status behind PJRT's error handle. Since PJRT 0.107 the header
 * defines PJRT_Error as a struct holding a function table; Kiln's errors carry a real
 * one, so a framework may use either the table or the PJRT_Error_* entry points. */
#include <stdlib.h>
#include <string.h>

#include "pjrt/pjrt.h"

typedef struct kiln_pjrt_error_value {
  PJRT_Error base;
  kiln_status status; /* NULL only in the static out-of-memory error */
} kiln_pjrt_error_value;

static const PJRT_Error_FunctionTable error_table;
/* The error returned when even the error cannot be allocated (never freed). */
static kiln_pjrt_error_value out_of_memory = {{&error_table}, NULL};

static void table_destroy(PJRT_Error *error) {
  kiln_pjrt_error_value *e = (kiln_pjrt_error_value *)error;
  if (!e || e == &out_of_memory) return;
  kiln_status_free(e->status);
  free(e);
}

static void table_message(const PJRT_Error *error, const char **message, size_t *message_size) {
  const kiln_pjrt_error_value *e = (const kiln_pjrt_error_value *)error;
  const char *m = !e ? "" : e->status ? kiln_status_message(e->status) : "out of memory";
  *message = m;
  *message_size = strlen(m);
}

static PJRT_Error_Code table_code(const PJRT_Error *error) {
  const kiln_pjrt_error_value *e = (const kiln_pjrt_error_value *)error;
  if (!e) return PJRT_Error_Code_OK;
  /* kiln_status_code follows PJRT_Error_Code's canonical numbering */
  return e->status ? (PJRT_Error_Code)kiln_status_code_of(e->status) : PJRT_Error_Code_RESOURCE_EXHAUSTED;
}

static void table_payloads(const PJRT_Error *error, PJRT_Error_PayloadVisitor visitor, void *user_arg) {
  (void)error, (void)visitor, (void)user_arg; /* Kiln's errors carry no payloads */
}

static const PJRT_Error_FunctionTable error_table = {
  .struct_size = PJRT_Error_FunctionTable_STRUCT_SIZE,
  .instance_size = PJRT_Error_STRUCT_SIZE,
  .destroy = table_destroy,
  .message = table_message,
  .get_code = table_code,
  .for_each_payload = table_payloads,
};

PJRT_Error *kiln_pjrt_error(kiln_status status) {
  if (!status) return NULL;
  kiln_pjrt_error_value *e = malloc(sizeof *e);
  if (!e) {
    kiln_status_free(status);
    return &out_of_memory.base;
  }
  e->base.vtable = &error_table;
  e->status = status;
  return &e->base;
}

const char *kiln_pjrt_name(const char *function) {
  size_t n = strlen("kiln_pjrt_");
  return strncmp(function, "kiln_pjrt_", n) ? function : function + n;
}

PJRT_Error *kiln_pjrt_args_error(const char *function, size_t got, size_t need) {
  if (!got)
    return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "PJRT_%s: args is NULL or its struct_size is 0",
                                       kiln_pjrt_name(function)));
  return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                                     "PJRT_%s: args struct_size %zu is smaller than the %zu bytes this call needs",
                                     kiln_pjrt_name(function), got, need));
}

PJRT_Error *kiln_pjrt_error_in(const char *function, kiln_status status) {
  if (!status) return NULL;
  kiln_status st = KILN_STATUS(kiln_status_code_of(status), "PJRT_%s: %s", kiln_pjrt_name(function),
                               kiln_status_message(status));
  kiln_status_free(status);
  return kiln_pjrt_error(st);
}

PJRT_Error *kiln_pjrt_unimplemented(const char *function) {
  return kiln_pjrt_error(KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s is not implemented by Kiln's PJRT plugin", function));
}

void kiln_pjrt_Error_Destroy(PJRT_Error_Destroy_Args *args) {
  if (args && KILN_PJRT_HAS(args, error)) table_destroy(args->error);
}

void kiln_pjrt_Error_Message(PJRT_Error_Message_Args *args) {
  if (!args || !KILN_PJRT_HAS(args, message_size)) return;
  table_message(args->error, &args->message, &args->message_size);
}

PJRT_Error *kiln_pjrt_Error_GetCode(PJRT_Error_GetCode_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, code);
  args->code = table_code(args->error);
  return NULL;
}

PJRT_Error *kiln_pjrt_Error_ForEachPayload(PJRT_Error_ForEachPayload_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, error);
  return NULL;
}
