// ERROR: boolean value for float type f32
func.func @f() -> tensor<f32> {
  %0 = stablehlo.constant dense<true> : tensor<f32>
  return %0 : tensor<f32>
}
