// ERROR: operand #0 of 'func.return' is written with a type other than its definition's
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<3xf32>
}
