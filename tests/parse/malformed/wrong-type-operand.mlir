// ERROR: operand #0 of 'stablehlo.add' is written with a type other than its definition's
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xi32>
  return %a : tensor<2xf32>
}
