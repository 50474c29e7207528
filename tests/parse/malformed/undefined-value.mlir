// ERROR: use of undefined value '%b'
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.abs %b : tensor<2xf32>
  return %0 : tensor<2xf32>
}
