/* Runs the instances of the table in instances.c: expands the type placeholders for each
 * element type, builds the program around the op (or the instance's body) and runs it
 * wherever the verifier admits it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Copies src to out with $T, $C and $R replaced for element type e; false when a
 * placeholder has no meaning for e. */
static bool expand(const char *src, kiln_elem e, char *out, size_t cap) {
  size_t n = 0;
  for (const char *p = src; *p; p++) {
    const char *rep = NULL;
    char one[2] = {*p, 0};
    if (p[0] == '$' && p[1] == 'T') rep = kiln_elem_name(e);
    else if (p[0] == '$' && p[1] == 'C') {
      if (e != KILN_ELEM_F32 && e != KILN_ELEM_F64) return false;
      rep = e == KILN_ELEM_F32 ? "complex<f32>" : "complex<f64>";
    } else if (p[0] == '$' && p[1] == 'R') {
      if (!kiln_elem_is_complex(e)) return false;
      rep = kiln_elem_name(kiln_elem_complex_part(e));
    }
    if (rep) p++;
    else rep = one;
    size_t len = strlen(rep);
    if (n + len + 1 > cap) return false;
    memcpy(out + n, rep, len);
    n += len;
  }
  out[n] = '\0';
  return true;
}

/* Splits list at ';' into trimmed items; returns their number. */
static int split(char *list, char **items, int max) {
  int n = 0;
  for (char *tok = strtok(list, ";"); tok && n < max; tok = strtok(NULL, ";")) {
    while (*tok == ' ') tok++;
    size_t len = strlen(tok);
    while (len && tok[len - 1] == ' ') tok[--len] = '\0';
    if (len) items[n++] = tok;
  }
  return n;
}

/* "2x3x$T@0:3" (expanded) into an argument; false on a malformed item. */
static bool parse_arg(char *item, kiln_diff_arg *a) {
  memset(a, 0, sizeof *a);
  char *hint = strchr(item, '@');
  if (hint) {
    *hint++ = '\0';
    if (strcmp(hint, "spd") == 0) a->gen = KILN_DIFF_GEN_SPD;
    else if (strcmp(hint, "nospec") == 0) a->gen = KILN_DIFF_GEN_NOSPEC;
    else if (sscanf(hint, "%lf:%lf", &a->lo, &a->hi) == 2) a->gen = KILN_DIFF_GEN_RANGE;
    else return false;
  }
  char *p = item;
  while (*p >= '0' && *p <= '9') {
    char *end;
    long long d = strtoll(p, &end, 10);
    if (*end != 'x' || a->rank == KILN_DIFF_MAX_RANK) break;
    a->dims[a->rank++] = d;
    p = end + 1;
  }
  return kiln_elem_lookup(p, strlen(p), &a->elem);
}

/* "3x5xf32" -> "tensor<3x5xf32>", "token" -> "!stablehlo.token". */
static void result_type(const char *item, char *out, size_t cap) {
  if (strcmp(item, "token") == 0) snprintf(out, cap, "!stablehlo.token");
  else snprintf(out, cap, "tensor<%s>", item);
}

static bool is_typed(const kiln_diff_instance *in);

/* Builds the case of instance in for element type e; false when it does not apply. */
static bool build(const kiln_diff_instance *in, kiln_elem e, kiln_diff_case *c) {
  char args[512], results[512], text[4096], extra[2048];
  char *arg_items[KILN_DIFF_MAX_ARGS], *res_items[8];
  if (!expand(in->args, e, args, sizeof args) || !expand(in->results, e, results, sizeof results) ||
      !expand(in->text, e, text, sizeof text) || !expand(in->extra ? in->extra : "", e, extra, sizeof extra))
    return false;
  kiln_diff_case_init(c, in->op, in->variant);
  c->terms = in->terms, c->ulp = in->ulp;
  c->mag_global = in->flags & KILN_DIFF_GLOBAL;
  if (in->flags & KILN_DIFF_FEW_SPECIALS) c->special_rate = 0.02;
  c->num_args = split(args, arg_items, KILN_DIFF_MAX_ARGS);
  int nres = split(results, res_items, 8);
  for (int i = 0; i < c->num_args; i++)
    if (!parse_arg(arg_items[i], &c->args[i])) return false;
  char res_types[8][128];
  const char *res_ptrs[8];
  for (int i = 0; i < nres; i++) {
    result_type(res_items[i], res_types[i], sizeof res_types[i]);
    res_ptrs[i] = res_types[i];
  }
  static char body[8192];
  char returned[256] = "";
  if (in->flags & KILN_DIFF_BODY) {
    snprintf(body, sizeof body, "%s", text);
  } else { /* "%r:N = "op"(%a0, ...) TEXT : (arg types) -> (result types)" */
    int len = nres > 1 ? snprintf(body, sizeof body, "  %%r:%d = \"%s\"(", nres, kiln_op_name(in->op))
                       : snprintf(body, sizeof body, "  %%r0 = \"%s\"(", kiln_op_name(in->op));
    for (int i = 0; i < c->num_args; i++) len += snprintf(body + len, sizeof body - (size_t)len, "%s%%a%d", i ? ", " : "", i);
    len += snprintf(body + len, sizeof body - (size_t)len, ") %s : (", text);
    for (int i = 0; i < c->num_args; i++) {
      char t[128];
      len += snprintf(body + len, sizeof body - (size_t)len, "%s%s", i ? ", " : "", kiln_diff_tensor_type(&c->args[i], t, sizeof t));
    }
    len += snprintf(body + len, sizeof body - (size_t)len, ") -> (");
    for (int i = 0; i < nres; i++) len += snprintf(body + len, sizeof body - (size_t)len, "%s%s", i ? ", " : "", res_types[i]);
    snprintf(body + len, sizeof body - (size_t)len, ")");
    for (int i = 0; nres > 1 && i < nres; i++)
      snprintf(returned + strlen(returned), sizeof returned - strlen(returned), "%s%%r#%d", i ? ", " : "", i);
  }
  kiln_diff_wrap(c, res_ptrs, nres, body, nres > 1 && !(in->flags & KILN_DIFF_BODY) ? returned : NULL);
  if (*extra) kiln_diff_emit(c, "%s\n", extra);
  if (in->flags & KILN_DIFF_MODULE) {
    size_t len = strlen(c->text);
    if (len + 12 < sizeof c->text) {
      memmove(c->text + 9, c->text, len + 1);
      memcpy(c->text, "module {\n", 9);
      kiln_diff_emit(c, "}\n");
    }
  }
  snprintf(c->type_label, sizeof c->type_label, "%s", is_typed(in) ? kiln_elem_name(e) : "-");
  kiln_diff_dims_str(c->num_args ? c->args[0].rank : 0, c->args[0].dims, c->shape_label, sizeof c->shape_label);
  if (!c->num_args) snprintf(c->shape_label, sizeof c->shape_label, "%s", res_items[0]);
  return true;
}

static bool is_typed(const kiln_diff_instance *in) {
  return strchr(in->args, '$') || strchr(in->results, '$') || strchr(in->text, '$');
}

/* Runs in for every element type the verifier admits (once when it names no type). */
static void run_instance(kiln_diff_ctx *ctx, const kiln_diff_instance *in) {
  static kiln_diff_case c;
  int ran = 0;
  kiln_elem first = KILN_ELEM_COUNT;
  for (int i = 0; i < kiln_diff_elem_count(); i++) {
    kiln_elem e = kiln_diff_elem_at(i);
    if (e == KILN_ELEM_COUNT || !build(in, e, &c)) continue;
    if (first == KILN_ELEM_COUNT) first = e;
    if (kiln_diff_run(ctx, &c, false) != KILN_DIFF_REJECTED) ran++;
    if (!is_typed(in)) break;
  }
  /* No type admits the instance: the harness's program is wrong; show the verifier's words. */
  if (!ran && first != KILN_ELEM_COUNT && build(in, first, &c)) kiln_diff_run(ctx, &c, true);
}

void kiln_diff_structured(kiln_diff_ctx *ctx, kiln_op_kind op) {
  for (int i = 0; i < kiln_diff_num_instances; i++)
    if (kiln_diff_instances[i].op == op) run_instance(ctx, &kiln_diff_instances[i]);
}
