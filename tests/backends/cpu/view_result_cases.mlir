// RUN: stablehlo-translate --interpret --args="[dense<7> : tensor<i32>, dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>]" %s | FileCheck %s
// A result that is a view (a reshape) of a temporary, with a step after the temporary's
// last read (the concatenate nothing reads, an interpreter step): the temporary's bytes
// must stay live until the results are copied out, not be handed to that later step.

func.func @main(%i: tensor<i32>, %x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.reshape %i : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.constant dense<3> : tensor<1xi32>
  %3 = stablehlo.concatenate %1, %2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %4 = stablehlo.reshape %0 : (tensor<3x2xf32>) -> tensor<6xf32>
  return %4 : tensor<6xf32>
}
// CHECK-LABEL: Evaluated results of function: main
// CHECK:      tensor<6xf32> {
// CHECK-NEXT:   [0.000000e+00, 3.000000e+00, 1.000000e+00, 4.000000e+00, 2.000000e+00, 5.000000e+00]
// CHECK-NEXT: }
