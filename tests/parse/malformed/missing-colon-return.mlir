// ERROR: expected ':' and the types
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a
}
