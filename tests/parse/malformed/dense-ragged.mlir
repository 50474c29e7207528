// ERROR: dense literal lists at the same level have different lengths (2 and 1)
func.func @f() -> tensor<2x2xi32> {
  %0 = stablehlo.constant dense<[[1, 2], [3]]> : tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}
