// kiln run on a shape-polymorphic function with a dimension argument (tests/CMakeLists.txt,
// cli.run_dynamic_*): x (b x 4) broadcast to 2 x b x 4 and added to y.
func.func @main(%b: tensor<i64>, %x: tensor<?x4xf32>, %y: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  %c2 = stablehlo.constant dense<2> : tensor<1xi64>
  %c4 = stablehlo.constant dense<4> : tensor<1xi64>
  %0 = stablehlo.reshape %b : (tensor<i64>) -> tensor<1xi64>
  %1 = stablehlo.concatenate %c2, %0, %c4, dim = 0 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %2 = stablehlo.dynamic_broadcast_in_dim %x, %1, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<2x?x4xf32>
  %3 = stablehlo.add %2, %y : tensor<2x?x4xf32>
  return %3 : tensor<2x?x4xf32>
}
