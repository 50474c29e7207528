// ERROR: split-second-piece.mlir:7:33: error: integer value does not fit in i8
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
// -----
func.func @g() {
  %0 = stablehlo.constant dense<300> : tensor<i8>
  return
}
