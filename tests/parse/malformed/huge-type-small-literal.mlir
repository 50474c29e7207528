// ERROR: dense literal has shape [2], which does not match its type
func.func @f() -> tensor<1000000000000xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<1000000000000xf32>
  return %0 : tensor<1000000000000xf32>
}
