// RUN: kiln check %s   (the output is checked like FileCheck's default prefix)
// RUN: stablehlo-translate --interpret --args="[dense<[1, 2]> : tensor<2xi32>, dense<[[1.5, 2.0], [0.0, -1.0]]> : tensor<2x2xf32>]" %s | FileCheck %s

func.func @main(%a: tensor<2xi32>, %b: tensor<2x2xf32>) -> (tensor<2xi32>, tensor<2x2xf32>, tensor<i1>) {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  %1 = stablehlo.negate %b : tensor<2x2xf32>
  %2 = stablehlo.constant dense<true> : tensor<i1>
  return %0, %1, %2 : tensor<2xi32>, tensor<2x2xf32>, tensor<i1>
}
// CHECK-LABEL: Evaluated results of function: main
// CHECK:      tensor<2xi32> {
// CHECK-NEXT:   [2, 4]
// CHECK-NEXT: }
// CHECK-NEXT: tensor<2x2xf32> {
// CHECK-NEXT:   [
// CHECK-NEXT{LITERAL}:     [-1.500000e+00, -2.000000e+00],
// CHECK-NEXT:     [-0.000000e+00, 1.000000e+00]
// CHECK-NEXT:   ]
// CHECK-NEXT: }
// CHECK-NEXT: tensor<i1> {true}
