// ERROR: complex value for non-complex type f32
func.func @f() -> tensor<f32> {
  %0 = stablehlo.constant dense<(1.0, 2.0)> : tensor<f32>
  return %0 : tensor<f32>
}
