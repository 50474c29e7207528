// ERROR: tensor type has more than 2^63 elements
func.func @f() {
  %0 = stablehlo.constant dense<0.0> : tensor<99999999999x99999999999xf32>
  return
}
