/* The printer writes one module one way, as MLIR's does, however its text was spelled:
 * attribute dictionaries in name order, default-valued attributes left out of pretty forms
 * (kept in the generic form), the fields of #stablehlo.* structures in their fixed order,
 * and the sharding attributes of 1.16 and later (replica_group_mesh_axes, axis_ref with
 * its (pre)size sub-axis) read and written back. Each printed text parses back to itself. */
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/parse.h"
#include "support/expect.h"

/* Parses and verifies text and prints it into *out (the caller frees it). */
static bool print_text(const char *text, char **out) {
  kiln_source src = kiln_source_view("canonical.mlir", text, strlen(text), 1);
  kiln_module *m = NULL;
  kiln_status st = kiln_parse_module(&src, &m);
  if (!st) st = kiln_verify_module(m, &src);
  if (!st) st = kiln_print_module(m, out, NULL);
  if (st) printf("  %s\n", kiln_status_message(st));
  kiln_status_free(st);
  kiln_module_destroy(m);
  return !st;
}

/* The one op of @f's body, as printed from `op`, must contain `want`; printing that
 * printed text again gives the same text. */
static void expect_op(const char *args, const char *op, const char *want) {
  char text[2048], *first = NULL, *second = NULL;
  snprintf(text, sizeof text, "func.func @f(%s) -> tensor<f32> {\n  %s\n  return %%0 : tensor<f32>\n}\n", args, op);
  bool ok = print_text(text, &first);
  EXPECT(ok && strstr(first, want), "%s\n  printed:  %s\n  expected: %s", op, first ? first : "(error)", want);
  if (ok) {
    EXPECT(print_text(first, &second) && !strcmp(first, second), "not a fixed point:\n%s\n%s", first, second ? second : "(error)");
  }
  free(first);
  free(second);
}

int main(void) {
  const char *x = "%arg0: tensor<f32>";
  /* name order; api_version = 1 and has_side_effect = false are defaults */
  expect_op(x,
            "%0 = \"stablehlo.custom_call\"(%arg0) {has_side_effect = false, call_target_name = \"foo\", "
            "mhlo.z = 1 : i32, api_version = 1 : i32, backend_config = \"c\"} : (tensor<f32>) -> tensor<f32>",
            "%0 = stablehlo.custom_call @foo(%arg0) {backend_config = \"c\", mhlo.z = 1 : i32} : (tensor<f32>) -> tensor<f32>");
  /* a dictionary attribute's entries in name order */
  expect_op(x,
            "%0 = stablehlo.custom_call @foo(%arg0) {api_version = 4 : i32, backend_config = {z = 1 : i32, a = \"s\"}} : "
            "(tensor<f32>) -> tensor<f32>",
            "{api_version = 4 : i32, backend_config = {a = \"s\", z = 1 : i32}}");
  /* an all-default result_accuracy is left out, another is kept */
  expect_op(x,
            "%0 = stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<atol = 0.0, rtol = 0.0, ulps = 0, "
            "mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : tensor<f32>",
            "%0 = stablehlo.exponential %arg0 : tensor<f32>\n");
  expect_op(x,
            "%0 = stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<mode = "
            "#stablehlo.result_accuracy_mode<TOLERANCE>, ulps = 2, atol = 0.0, rtol = 0.0>} : tensor<f32>",
            "{result_accuracy = #stablehlo.result_accuracy<atol = 0.0, rtol = 0.0, ulps = 2, mode = "
            "#stablehlo.result_accuracy_mode<TOLERANCE>>}");
  /* the generic form shows every attribute, defaults too, in name order */
  expect_op("%arg0: tensor<4xf32>, %arg1: tensor<f32>",
            "%s = \"stablehlo.sort\"(%arg0) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
            "    stablehlo.return %c : tensor<i1>\n  }) {is_stable = false, dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
            "  %0 = stablehlo.reduce(%s init: %arg1) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>",
            "{dimension = 0 : i64, is_stable = false}");
  /* structure fields in MLIR's order: the dot_general below takes its pretty form */
  expect_op("%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>",
            "%d = \"stablehlo.dot_general\"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<rhs_contracting_dimensions = [0], "
            "lhs_contracting_dimensions = [1]>} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n"
            "  %0 = stablehlo.constant dense<0.0> : tensor<f32>",
            "%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>");
  /* sharding attributes (StableHLO 1.16 and later) */
  expect_op(x,
            "%0 = \"stablehlo.all_reduce\"(%arg0) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "    %c = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %c : tensor<f32>\n  }) {replica_groups = "
            "#stablehlo.replica_group_mesh_axes<axes = [#stablehlo.axis_ref<sub_axis_info = (1)2, name = \"x\">,\n"
            "      #stablehlo.axis_ref<name = \"y\">], mesh = @mesh>} : (tensor<f32>) -> tensor<f32>",
            "{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = \"x\", "
            "sub_axis_info = (1)2>, #stablehlo.axis_ref<name = \"y\">]>}");
  expect_op(x,
            "%0 = \"stablehlo.all_reduce\"(%arg0) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "    %c = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %c : tensor<f32>\n  }) {replica_groups = "
            "#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<size = 2, name = \"x\">]>, "
            "axes = [#stablehlo.axis_ref<name = \"x\">]>} : (tensor<f32>) -> tensor<f32>",
            "mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = \"x\", size = 2>]>, axes = [#stablehlo.axis_ref<name = \"x\">]>");
  return test_summary();
}
