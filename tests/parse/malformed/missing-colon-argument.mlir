// ERROR: expected ':' after an argument name
func.func @f(%a tensor<2xf32>) {
  return
}
