// ERROR: '%0' has 2 results; use '%0#N' with N below 2
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = "stablehlo.optimization_barrier"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#2 : tensor<2xf32>
}
