// ERROR: unexpected non-ASCII byte
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.abs ÿþÀ %a : tensor<2xf32>
}
