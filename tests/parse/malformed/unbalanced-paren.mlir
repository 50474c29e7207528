// ERROR: expected ')' to close the function arguments
func.func @f(%a: tensor<2xf32> {
  return
}
