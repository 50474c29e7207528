// ERROR: 'stablehlo.abs' has 1 results but 2 are named
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = stablehlo.abs %a : tensor<2xf32>
  return %a : tensor<2xf32>
}
