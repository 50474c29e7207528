/* Programs: parsed and verified modules, and their functions. */
#define _GNU_SOURCE /* strdup */
#include <stdlib.h>
#include <string.h>

#include "bytecode/bytecode.h"
#include "parse/parse.h"
#include <stdio.h>
#include "runtime/runtime.h"

static void program_free(kiln_program *p) {
  free(p->functions);
  kiln_module_destroy(p->module);
  pthread_mutex_destroy(&p->compile_mu);
  free(p->source.owned);
  free(p->name);
  free(p->module_name);
  free(p);
}

/* A copy of the module's sym_name (up to a NUL it might hold), when it has one. */
static kiln_status copy_module_name(kiln_program *p) {
  const kiln_attr *a = kiln_op_attr(p->module->op, "sym_name");
  if (!a || a->kind != KILN_ATTR_STRING) return NULL;
  p->module_name = strndup(a->str.data ? a->str.data : "", a->str.len);
  return p->module_name ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
}

static kiln_status collect_functions(kiln_program *p) {
  kiln_block *top = kiln_op_block(p->module->op, 0);
  int32_t n = 0;
  for (kiln_op *op = top ? top->first : NULL; op; op = op->next) n += op->kind == KILN_OP_FUNC;
  if (!(p->functions = calloc((size_t)n + 1, sizeof *p->functions)))
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (kiln_op *op = top ? top->first : NULL; op; op = op->next)
    if (op->kind == KILN_OP_FUNC && kiln_op_block(op, 0)) p->functions[p->num_functions++] = op;
  return NULL;
}

/* A new program (one reference) holding a copy of the bytes, named name, read and
 * verified, its functions not yet collected. */
static kiln_status program_new(const char *text, size_t length, const char *name, uint32_t first_line,
                               kiln_program **out) {
  *out = NULL;
  kiln_program *p = calloc(1, sizeof *p);
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  atomic_init(&p->refs, 1);
  pthread_mutex_init(&p->compile_mu, NULL);
  p->name = strdup(name);
  char *copy = malloc(length + 1);
  kiln_status st = p->name && copy ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (copy) {
    if (length) memcpy(copy, text, length);
    copy[length] = '\0';
    p->source = kiln_source_view(p->name, copy, length, first_line ? first_line : 1);
    p->source.owned = copy;
    p->num_bytes = length;
  }
  if (!st) {
    kiln_sha256 h;
    kiln_sha256_init(&h);
    kiln_sha256_update(&h, copy, length);
    kiln_sha256_final(&h, p->digest);
    if (kiln_bytecode_sniff(copy, length)) { /* read and verified at once */
      st = kiln_bytecode_read((const uint8_t *)copy, length, p->name, &p->module);
      /* no text to show under later errors: an op's line and column are those of the
       * source the artifact was made from, not of these bytes */
      p->source.text = "";
      p->source.len = 0;
    } else if (!(st = kiln_parse_module(&p->source, &p->module)))
      st = kiln_verify_module(p->module, &p->source);
  }
  if (st) {
    program_free(p);
    return st;
  }
  *out = p;
  return NULL;
}

/* Functions, name and value numbers of a program whose module is final. */
static kiln_status program_finish(kiln_program *p) {
  kiln_status st = collect_functions(p);
  if (!st) st = copy_module_name(p);
  /* Numbered once here, so the module is read-only from now on: compiles and runs of it
   * may overlap (backends read kiln_value.id, never write it). */
  if (!st) kiln_module_number_values(p->module);
  if (st) program_free(p);
  return st;
}

kiln_status kiln_program_create(const char *text, size_t length, const kiln_program_options *options,
                                kiln_program **out_program) {
  if (!out_program) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_create: out_program is NULL");
  *out_program = NULL;
  if (!text && length) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_create: text is NULL");
  kiln_program_options o;
  KILN_RETURN_IF_ERROR(kiln_args_copy(&o, sizeof o, options, "kiln_program_options"));
  kiln_program *p;
  KILN_RETURN_IF_ERROR(program_new(text, length, o.name ? o.name : "<program>", o.first_line, &p));
  KILN_RETURN_IF_ERROR(program_finish(p));
  *out_program = p;
  return NULL;
}

kiln_status kiln_program_partition(const kiln_program *p, const char *function, int32_t num_partitions,
                                   kiln_arena *arena, kiln_program **out, kiln_spmd_plan *plan) {
  *out = NULL;
  kiln_program *q;
  KILN_RETURN_IF_ERROR(program_new(p->source.owned, p->num_bytes, p->name, p->source.first_line, &q));
  kiln_op *f = kiln_module_lookup_func(q->module, function);
  kiln_status st = f ? NULL : KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", p->name, function);
  if (!st) st = kiln_spmd_partition(q->module, f, num_partitions, arena, plan);
  if (!st) st = kiln_verify_module(q->module, &q->source);
  if (st) {
    program_free(q);
    return st;
  }
  /* its own digest: the per-device program differs from the global one */
  kiln_sha256 h;
  char tag[32];
  int n = snprintf(tag, sizeof tag, "spmd:%d:", (int)num_partitions);
  kiln_sha256_init(&h);
  kiln_sha256_update(&h, tag, (size_t)n);
  kiln_sha256_update(&h, function, strlen(function));
  kiln_sha256_update(&h, p->digest, sizeof p->digest);
  kiln_sha256_final(&h, q->digest);
  KILN_RETURN_IF_ERROR(program_finish(q));
  *out = q;
  return NULL;
}

int32_t kiln_program_num_partitions(const kiln_program *p) {
  const kiln_attr *a = p ? kiln_op_attr(p->module->op, "mhlo.num_partitions") : NULL;
  int64_t n = a && a->kind == KILN_ATTR_INT ? kiln_attr_int(a) : 1;
  return n >= 1 && n <= INT32_MAX ? (int32_t)n : 1;
}

kiln_program *kiln_program_retain(kiln_program *p) {
  if (p) atomic_fetch_add(&p->refs, 1);
  return p;
}

void kiln_program_release(kiln_program *p) {
  if (p && atomic_fetch_sub(&p->refs, 1) == 1) program_free(p);
}

int32_t kiln_program_function_count(const kiln_program *p) { return p ? p->num_functions : 0; }

const char *kiln_program_module_name(const kiln_program *p) { return p ? p->module_name : NULL; }

void kiln_program_digest(const kiln_program *p, uint8_t out_digest[KILN_PROGRAM_DIGEST_SIZE]) {
  _Static_assert(KILN_PROGRAM_DIGEST_SIZE == KILN_SHA256_SIZE, "the digest is a SHA-256");
  if (p && out_digest) memcpy(out_digest, p->digest, KILN_PROGRAM_DIGEST_SIZE);
  else if (out_digest) memset(out_digest, 0, KILN_PROGRAM_DIGEST_SIZE);
}

kiln_status kiln_function_info_fill(const kiln_op *f, kiln_function_info *out) {
  if (!out || out->struct_size < sizeof(size_t))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "out_info with its struct_size set is required");
  const kiln_type *t = kiln_func_type(f);
  kiln_function_info info = {sizeof info, kiln_func_name(f), t->func.num_inputs, t->func.num_results, f->loc.line};
  size_t caller_size = out->struct_size;
  memcpy(out, &info, caller_size < sizeof info ? caller_size : sizeof info);
  out->struct_size = caller_size;
  return NULL;
}

kiln_status kiln_program_function(const kiln_program *p, int32_t index, kiln_function_info *out) {
  if (!p || index < 0 || index >= p->num_functions)
    return KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "kiln_program_function: no function %d", (int)index);
  return kiln_function_info_fill(p->functions[index], out);
}

kiln_status kiln_program_find_function(const kiln_program *p, const char *name, kiln_function_info *out) {
  if (!p || !name) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_find_function: NULL argument");
  for (int32_t i = 0; i < p->num_functions; i++)
    if (!strcmp(kiln_func_name(p->functions[i]), name)) return kiln_function_info_fill(p->functions[i], out);
  return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", p->name, name);
}

kiln_status kiln_program_input_donor(const kiln_program *p, const char *function, int32_t input, bool *out_donor) {
  if (!p || !out_donor) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "kiln_program_input_donor: NULL argument");
  *out_donor = false;
  const char *name = function ? function : "main";
  for (int32_t i = 0; i < p->num_functions; i++) {
    if (strcmp(kiln_func_name(p->functions[i]), name)) continue;
    int32_t n = kiln_func_type(p->functions[i])->func.num_inputs;
    if (input < 0 || input >= n)
      return KILN_STATUS(KILN_STATUS_OUT_OF_RANGE, "kiln_program_input_donor: @%s has %d inputs; no input #%d", name,
                         (int)n, (int)input);
    *out_donor = kiln_func_arg_donor(p->functions[i], input) != KILN_DONOR_NONE;
    return NULL;
  }
  return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", p->name, name);
}
