// ERROR: dense literal mixes nesting levels
func.func @f() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[1, [2]]> : tensor<2xi32>
  return %0 : tensor<2xi32>
}
