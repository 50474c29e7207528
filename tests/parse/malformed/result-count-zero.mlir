// ERROR: result count must be between 1 and 100000
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:0 = stablehlo.abs %a : tensor<2xf32>
}
