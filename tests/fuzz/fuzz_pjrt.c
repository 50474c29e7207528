/* libFuzzer target for the PJRT plugin's untrusted inputs: the serialized
 * CompileOptionsProto and the program bytes of PJRT_Client_Compile.
 *
 * Input: one byte n, then n bytes of compile options, then the program (MLIR text or VHLO
 * bytecode). The options go through the hand-written proto reader alone (it must accept or
 * reject with INVALID_ARGUMENT, and what it accepts must be consistent), then both go
 * through PJRT_Client_Compile of the plugin (linked in; one client on the interpreter,
 * made once): it must return an executable or an error with a message, never crash. A
 * violated property calls abort(), which is how a fuzz target reports a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pjrt/compile_options.h"
#include "pjrt_c_api.h"

const PJRT_Api *GetPjrtApi(void);

static void finding(const char *what) {
  fprintf(stderr, "fuzz_pjrt: %s\n", what);
  abort();
}

static void check_options(const uint8_t *data, size_t size) {
  kiln_pjrt_compile_options o;
  kiln_status st = kiln_pjrt_compile_options_parse(data, size, &o);
  if (st) {
    if (kiln_status_code_of(st) != KILN_STATUS_INVALID_ARGUMENT) finding("an options error is not INVALID_ARGUMENT");
    kiln_status_free(st);
    return;
  }
  if (!o.num_replicas || !o.num_partitions) finding("accepted options with 0 replicas or partitions");
  if (!o.num_assigned && o.first_assigned != -1) finding("a first assigned device without any assigned");
}

static PJRT_Client *client(const PJRT_Api *api) {
  static PJRT_Client *c;
  if (c) return c;
  PJRT_NamedValue devices = {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "devices", .name_size = 7,
                             .type = PJRT_NamedValue_kString, .string_value = "interp", .value_size = 6};
  PJRT_Client_Create_Args a = {.struct_size = PJRT_Client_Create_Args_STRUCT_SIZE, .create_options = &devices,
                               .num_options = 1};
  if (api->PJRT_Client_Create(&a)) finding("no client on the interpreter");
  return c = a.client;
}

static void destroy_error(const PJRT_Api *api, PJRT_Error *err) {
  PJRT_Error_Message_Args m = {.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE, .error = err};
  api->PJRT_Error_Message(&m);
  if (!m.message || !m.message_size) finding("an error without a message");
  PJRT_Error_Destroy_Args d = {.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE, .error = err};
  api->PJRT_Error_Destroy(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  size_t n = data[0] < size - 1 ? data[0] : size - 1;
  const uint8_t *options = data + 1, *code = data + 1 + n;
  check_options(options, n);
  const PJRT_Api *api = GetPjrtApi();
  PJRT_Program p = {.struct_size = PJRT_Program_STRUCT_SIZE, .code = (char *)code, .code_size = size - 1 - n,
                    .format = "mlir", .format_size = 4};
  PJRT_Client_Compile_Args a = {.struct_size = PJRT_Client_Compile_Args_STRUCT_SIZE, .client = client(api),
                                .program = &p, .compile_options = (const char *)options, .compile_options_size = n};
  PJRT_Error *err = api->PJRT_Client_Compile(&a);
  if (err) {
    if (a.executable) finding("a failed compile returned an executable");
    destroy_error(api, err);
    return 0;
  }
  PJRT_LoadedExecutable_Destroy_Args d = {.struct_size = PJRT_LoadedExecutable_Destroy_Args_STRUCT_SIZE,
                                          .executable = a.executable};
  if (api->PJRT_LoadedExecutable_Destroy(&d)) finding("destroying an executable failed");
  return 0;
}
