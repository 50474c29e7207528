// ERROR: redefinition of SSA value '%a'
func.func @f(%a: tensor<2xf32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
