// ERROR: unranked tensors are not supported
func.func @f(%a: tensor<*xf32>) {
  return
}
