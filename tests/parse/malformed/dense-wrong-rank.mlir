// ERROR: dense literal has shape [2x1], which does not match its type
func.func @f() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[[1.0], [2.0]]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
