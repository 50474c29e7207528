// ERROR: found end of input
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[[1.0, 2.0], [3.0